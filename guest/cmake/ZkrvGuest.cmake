# Guest SDK build rules (clang + lld for riscv64im, picolibc).
#
#   zkrv_add_guest(NAME SOURCES src... [THIRD_PARTY_SOURCES src...] [ALLOCATOR bump|picolibc|arena]
#                  [OUTPUT_DIR dir] [HEAP_SIZE bytes] [STACK_SIZE bytes] [INPUT_SIZE bytes]
#                  [OPTIMIZE 0|1|2|3|s|z|g] [COMPILE_OPTIONS opt...] [COMPILE_DEFINITIONS def...]
#                  [INCLUDE_DIRS dir...] [LINK_OPTIONS opt...] [LINKER_SCRIPT file] [NO_RUNTIME]
#                  [EXCEPTIONS] [TARGET t])
# builds NAME.elf, target t (default guest_NAME). Sources are GNU C17 / GNU C++20 (the compilers'
# defaults) at -O2 -g, or OPTIMIZE, or by CMAKE_BUILD_TYPE (zkrv_guest_optimize_flag below);
# SOURCES with -Wall, THIRD_PARTY_SOURCES (a library's code) without it. The target's
# COMPILE_OPTIONS and COMPILE_DEFINITIONS properties apply to every source, after the arguments:
# set them with set_property(TARGET guest_NAME APPEND PROPERTY COMPILE_OPTIONS ...) (CMake's
# target_compile_options refuses a custom target, which a guest must be: CMake's compiler is the
# host's). The SDK (libzkrv_guest.a), the chosen allocator (default bump), picolibc
# and libgcc are linked unless NO_RUNTIME is given (freestanding assembly tests). A guest with
# C++ sources also links the C++ standard library (when there is one, see below), keeps its
# exception tables (.eh_frame, registered by gcc's crtbegin.o) so that an exception nothing
# catches ends in std::terminate (exit 134), and is compiled without exceptions unless
# EXCEPTIONS is given (then try/catch works; RTTI stays off: typeid and dynamic_cast do not).
# HEAP_SIZE (default: up to 0xFFFF0000, about 4 GiB), STACK_SIZE (default 1 MiB) and
# INPUT_SIZE (default 16 MiB) take a number of bytes, decimal or 0x hex, or with a K, M or G
# suffix (powers of 1024): HEAP_SIZE 256M. The linker script refuses sizes that break the
# address-space rules (heap end past 0xFFFF0000; stack or input past 2^31).
#
# Used from the source tree (guest/CMakeLists.txt builds the libraries) and from an installed
# SDK (zkrvConfig.cmake sets ZKRV_GUEST_DIR, ZKRV_GUEST_LIB_DIR, ZKRV_GUEST_INCLUDE_DIR).

set(ZKRV_PICOLIBC_DIR /usr/lib/picolibc/riscv64-unknown-elf CACHE PATH "picolibc for riscv64-unknown-elf")
set(ZKRV_LIBGCC_DIR /usr/lib/gcc/riscv64-unknown-elf/12.2.0/rv64im/lp64 CACHE PATH "libgcc.a for rv64im/lp64")
if(NOT ZKRV_GUEST_CLANG)
  find_program(ZKRV_GUEST_CLANG NAMES clang clang-14 REQUIRED)
endif()
find_program(ZKRV_GUEST_AR NAMES llvm-ar llvm-ar-14 REQUIRED)

set(ZKRV_GUEST_ARCH_FLAGS --target=riscv64-unknown-elf -march=rv64im -mabi=lp64 -mcmodel=medany
    CACHE INTERNAL "guest target flags")
# Every guest object: the target, debug info, a section per function and object (for
# --gc-sections) and local-exec TLS. The optimization level and the warnings come per source
# (zkrv_guest_compile); the dialects are the compilers' own defaults, GNU C17 and GNU C++20.
set(ZKRV_GUEST_CFLAGS ${ZKRV_GUEST_ARCH_FLAGS} -g -ffunction-sections -fdata-sections -ftls-model=local-exec
    CACHE INTERNAL "guest compile flags")
set(ZKRV_GUEST_CXXFLAGS -std=gnu++20 -fno-exceptions -fno-rtti -fno-threadsafe-statics CACHE INTERNAL "")
set(ZKRV_GUEST_WARNINGS -Wall CACHE INTERNAL "warnings for a guest's own sources (not THIRD_PARTY_SOURCES)")

# The C++ standard library: libstdc++ 12.2.0 for rv64im/lp64 against picolibc, built by
# guest/stdcxx/build.sh (scripts/setup.sh runs it) into ~/.cache/zkrv, or the copy an installed
# SDK carries (zkrvConfig.cmake sets ZKRV_STDCXX_DIR). Without it, C++ guests still get the
# language and the SDK's operator new/delete, but no standard headers.
if(NOT ZKRV_STDCXX_DIR)
  if(DEFINED ENV{ZKRV_STDCXX_DIR})
    set(ZKRV_STDCXX_DIR "$ENV{ZKRV_STDCXX_DIR}")
  elseif(NOT "$ENV{XDG_CACHE_HOME}" STREQUAL "")
    set(ZKRV_STDCXX_DIR "$ENV{XDG_CACHE_HOME}/zkrv/stdcxx-12.2.0-rv64im")
  else()
    set(ZKRV_STDCXX_DIR "$ENV{HOME}/.cache/zkrv/stdcxx-12.2.0-rv64im")
  endif()
endif()
# (cache entries, like the flags above, so that zkrv_add_guest sees them from any folder)
set(ZKRV_STDCXX_LIBS ${ZKRV_STDCXX_DIR}/lib/rv64im/lp64/libstdc++.a ${ZKRV_STDCXX_DIR}/lib/rv64im/lp64/libsupc++.a
    CACHE INTERNAL "the guests' C++ standard library")

# The linker script of C++ guests that link the standard library: zkrv.ld with .eh_frame kept
# (after .rodata, in the read-only segment, with the zero word that ends it) instead of
# discarded. Written into the build folder from whichever zkrv.ld this SDK has.
function(zkrv_guest_eh_script out_var)
  set(out ${CMAKE_BINARY_DIR}/zkrv_guest/zkrv_eh.ld)
  file(READ ${ZKRV_GUEST_LD_SCRIPT} ld)
  set(discard "/DISCARD/ : { *(.eh_frame) *(.eh_frame_hdr)")
  set(anchor "  } :rodata\n")
  string(FIND "${ld}" "${discard}" d)
  string(FIND "${ld}" "${anchor}" a)
  string(FIND "${ld}" "${anchor}" a_last REVERSE)
  if(d LESS 0 OR a LESS 0 OR NOT a EQUAL a_last)
    message(FATAL_ERROR "zkrv guests: ${ZKRV_GUEST_LD_SCRIPT} is not the zkrv.ld this SDK knows how to extend with .eh_frame")
  endif()
  string(REPLACE "${discard}" "/DISCARD/ : { *(.eh_frame_hdr)" ld "${ld}")
  string(REPLACE "${anchor}" "${anchor}  .eh_frame : { KEEP(*(.eh_frame)) LONG(0) } :rodata\n" ld "${ld}")
  set(ld "/* Generated by ZkrvGuest.cmake from ${ZKRV_GUEST_LD_SCRIPT}: .eh_frame kept, for C++ guests. */\n${ld}")
  if(EXISTS ${out})
    file(READ ${out} old)
  endif()
  if(NOT "${old}" STREQUAL "${ld}")
    file(WRITE ${out} "${ld}")
  endif()
  # written when CMake configures: configure again when zkrv.ld changes
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${ZKRV_GUEST_LD_SCRIPT})
  set(${out_var} ${out} PARENT_SCOPE)
endfunction()
if(EXISTS ${ZKRV_STDCXX_DIR}/lib/rv64im/lp64/libstdc++.a AND EXISTS ${ZKRV_STDCXX_DIR}/include/c++/12.2.0/vector)
  set(ZKRV_GUEST_HAVE_STDCXX ON CACHE INTERNAL "")
  set(ZKRV_GUEST_STDCXX_FLAGS -nostdinc++ -isystem ${ZKRV_STDCXX_DIR}/include/c++/12.2.0
      -isystem ${ZKRV_STDCXX_DIR}/include/c++/12.2.0/riscv64-unknown-elf CACHE INTERNAL "")
else()
  set(ZKRV_GUEST_HAVE_STDCXX OFF CACHE INTERNAL "")
  set(ZKRV_GUEST_STDCXX_FLAGS "" CACHE INTERNAL "")
  if(NOT ZKRV_STDCXX_WARNED)
    message(WARNING "zkrv guests: no C++ standard library in ${ZKRV_STDCXX_DIR} (run guest/stdcxx/build.sh, "
                    "or scripts/setup.sh, then configure again): C++ guests get no <vector>, <string>, ...; guests "
                    "and tests that need them are left out")
    set(ZKRV_STDCXX_WARNED ON)
  endif()
endif()

# The optimization flag of a guest: OPTIMIZE if given (0, 1, 2, 3, s, z or g), else the
# variable ZKRV_GUEST_OPTIMIZE, else from CMAKE_BUILD_TYPE: Debug -O0, MinSizeRel -Os, anything
# else (Release, RelWithDebInfo, none) -O2. NDEBUG is never added: a guest's assert() is part of
# what it proves (define it with COMPILE_DEFINITIONS NDEBUG to drop them).
function(zkrv_guest_optimize_flag guest value out_var)
  if("${value}" STREQUAL "" AND DEFINED ZKRV_GUEST_OPTIMIZE)
    set(value ${ZKRV_GUEST_OPTIMIZE})
  endif()
  if("${value}" STREQUAL "")
    if(CMAKE_BUILD_TYPE STREQUAL "Debug")
      set(value 0)
    elseif(CMAKE_BUILD_TYPE STREQUAL "MinSizeRel")
      set(value s)
    else()
      set(value 2)
    endif()
  endif()
  if(NOT value MATCHES "^[0123szg]$")
    message(FATAL_ERROR "zkrv_add_guest(${guest}): OPTIMIZE must be 0, 1, 2, 3, s, z or g, not '${value}'")
  endif()
  set(${out_var} -O${value} PARENT_SCOPE)
endfunction()

# zkrv_guest_compile(src out_dir include_dirs extra_flags out_var [TARGET t] [NO_WARNINGS]
#                    [OPTIMIZE flag]): compiles one guest source to an object; returns its path in
# OUT_VAR. With TARGET, the target's COMPILE_OPTIONS and COMPILE_DEFINITIONS properties (set with
# set_property, at any point of the configuration) come last. OPTIMIZE: the flag (default -O2).
function(zkrv_guest_compile src out_dir include_dirs extra_flags out_var)
  cmake_parse_arguments(C "NO_WARNINGS" "TARGET;OPTIMIZE" "" ${ARGN})
  get_filename_component(abs ${src} ABSOLUTE)
  get_filename_component(name ${src} NAME)
  if(NOT C_OPTIMIZE)
    set(C_OPTIMIZE -O2)
  endif()
  set(flags ${ZKRV_GUEST_CFLAGS} ${C_OPTIMIZE})
  if(NOT C_NO_WARNINGS)
    list(APPEND flags ${ZKRV_GUEST_WARNINGS})
  endif()
  if(abs MATCHES "\\.(cpp|cc|cxx)$")
    # the C++ headers before picolibc's: <cstdlib> and the rest #include_next theirs
    list(APPEND flags ${ZKRV_GUEST_CXXFLAGS} ${ZKRV_GUEST_STDCXX_FLAGS})
  elseif(abs MATCHES "\\.c$")
    list(APPEND flags -std=gnu17)
  endif()
  list(APPEND flags -isystem ${ZKRV_PICOLIBC_DIR}/include)
  set(incs)
  foreach(d ${include_dirs})
    list(APPEND incs -I${d})
  endforeach()
  set(props)
  if(C_TARGET)
    set(defs "$<TARGET_PROPERTY:${C_TARGET},COMPILE_DEFINITIONS>")
    set(props "$<TARGET_PROPERTY:${C_TARGET},COMPILE_OPTIONS>" "$<$<BOOL:${defs}>:-D$<JOIN:${defs},$<SEMICOLON>-D>>")
  endif()
  string(MD5 tag "${abs}${flags}${extra_flags}${C_TARGET}")
  string(SUBSTRING ${tag} 0 8 tag)
  set(obj ${out_dir}/${name}.${tag}.o)
  # Ninja creates an output's folder itself; Unix Makefiles does not.
  add_custom_command(OUTPUT ${obj}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${out_dir}
    COMMAND ${ZKRV_GUEST_CLANG} ${flags} ${extra_flags} ${props} ${incs} -MD -MF ${obj}.d -c ${abs} -o ${obj}
    DEPENDS ${abs} DEPFILE ${obj}.d
    COMMENT "guest cc ${name}" VERBATIM COMMAND_EXPAND_LISTS)
  set(${out_var} ${obj} PARENT_SCOPE)
endfunction()

# zkrv_guest_library(NAME OUTPUT_DIR dir INCLUDE_DIRS dirs SOURCES src... [OBJECTS obj...])
#   -> dir/libNAME.a (OBJECTS: built objects added as they are)
function(zkrv_guest_library name)
  cmake_parse_arguments(L "" "OUTPUT_DIR" "SOURCES;INCLUDE_DIRS;OBJECTS" ${ARGN})
  set(objs ${L_OBJECTS})
  foreach(s ${L_SOURCES})
    zkrv_guest_compile(${s} ${L_OUTPUT_DIR}/obj "${L_INCLUDE_DIRS}" "" obj)
    list(APPEND objs ${obj})
  endforeach()
  set(lib ${L_OUTPUT_DIR}/lib${name}.a)
  add_custom_command(OUTPUT ${lib}
    COMMAND ${CMAKE_COMMAND} -E rm -f ${lib}
    COMMAND ${ZKRV_GUEST_AR} rcs ${lib} ${objs}
    DEPENDS ${objs} COMMENT "guest ar lib${name}.a" VERBATIM)
  add_custom_target(guestlib_${name} ALL DEPENDS ${lib})
endfunction()

# A size argument (decimal, 0x hex, or K/M/G-suffixed) as a number of bytes, or a fatal error.
function(zkrv_guest_size guest what value out_var)
  if(value MATCHES "^([0-9]+)([KMG]?)$")
    set(n ${CMAKE_MATCH_1})
    if(CMAKE_MATCH_2 STREQUAL "K")
      math(EXPR n "${n} * 1024")
    elseif(CMAKE_MATCH_2 STREQUAL "M")
      math(EXPR n "${n} * 1024 * 1024")
    elseif(CMAKE_MATCH_2 STREQUAL "G")
      math(EXPR n "${n} * 1024 * 1024 * 1024")
    endif()
  elseif(value MATCHES "^0[xX][0-9a-fA-F]+$")
    math(EXPR n "${value}")
  else()
    message(FATAL_ERROR "zkrv_add_guest(${guest}): ${what} must be a number of bytes (like 4096, 0x1000 or 256M), not '${value}'")
  endif()
  if(n EQUAL 0 OR n GREATER 4294967296)
    message(FATAL_ERROR "zkrv_add_guest(${guest}): ${what} ${value} is not between 1 byte and 4G")
  endif()
  math(EXPR hex "${n}" OUTPUT_FORMAT HEXADECIMAL)
  set(${out_var} ${hex} PARENT_SCOPE)
endfunction()

function(zkrv_add_guest name)
  cmake_parse_arguments(G "NO_RUNTIME;EXCEPTIONS"
                        "LINKER_SCRIPT;OUTPUT_DIR;TARGET;ALLOCATOR;HEAP_SIZE;STACK_SIZE;INPUT_SIZE;OPTIMIZE"
                        "SOURCES;THIRD_PARTY_SOURCES;LINK_OPTIONS;INCLUDE_DIRS;COMPILE_OPTIONS;COMPILE_DEFINITIONS" ${ARGN})
  zkrv_guest_optimize_flag(${name} "${G_OPTIMIZE}" optimize)
  foreach(d ${G_COMPILE_DEFINITIONS})
    list(APPEND G_COMPILE_OPTIONS -D${d})
  endforeach()
  foreach(region HEAP STACK INPUT)
    if(DEFINED G_${region}_SIZE)
      zkrv_guest_size(${name} ${region}_SIZE "${G_${region}_SIZE}" bytes)
      list(APPEND G_LINK_OPTIONS -Wl,--defsym=ZKRV_${region}_SIZE=${bytes})
    endif()
  endforeach()
  if(NOT G_TARGET)
    set(G_TARGET guest_${name})
  endif()
  set(cxx OFF)
  foreach(s ${G_SOURCES} ${G_THIRD_PARTY_SOURCES})
    if(s MATCHES "\\.(cpp|cc|cxx)$")
      set(cxx ON)
    endif()
  endforeach()
  # C++ with the standard library: the library, gcc's crtbegin.o and crtend.o around the objects
  # (they register and end .eh_frame), and the script that keeps .eh_frame.
  set(stdcxx OFF)
  if(cxx AND ZKRV_GUEST_HAVE_STDCXX AND NOT G_NO_RUNTIME)
    set(stdcxx ON)
  endif()
  if(G_EXCEPTIONS)
    if(NOT stdcxx)
      message(FATAL_ERROR "zkrv_add_guest(${name}): EXCEPTIONS needs C++ sources and the C++ standard library "
                          "(${ZKRV_STDCXX_DIR}: run guest/stdcxx/build.sh)")
    endif()
    list(APPEND G_COMPILE_OPTIONS -fexceptions)
  endif()
  if(NOT G_LINKER_SCRIPT)
    set(G_LINKER_SCRIPT ${ZKRV_GUEST_LD_SCRIPT})
    if(stdcxx)
      zkrv_guest_eh_script(G_LINKER_SCRIPT)
    endif()
  endif()
  if(NOT G_OUTPUT_DIR)
    set(G_OUTPUT_DIR ${CMAKE_CURRENT_BINARY_DIR})
  endif()
  if(NOT G_ALLOCATOR)
    set(G_ALLOCATOR bump)
  endif()
  if(NOT G_ALLOCATOR MATCHES "^(bump|picolibc|arena)$")
    message(FATAL_ERROR "zkrv_add_guest(${name}): ALLOCATOR must be bump, picolibc or arena, not '${G_ALLOCATOR}'")
  endif()
  set(incs ${ZKRV_GUEST_INCLUDE_DIRS} ${G_INCLUDE_DIRS})
  set(objs)
  foreach(s ${G_SOURCES})
    zkrv_guest_compile(${s} ${G_OUTPUT_DIR}/obj_${name} "${incs}" "${G_COMPILE_OPTIONS}" obj TARGET ${G_TARGET}
                       OPTIMIZE ${optimize})
    list(APPEND objs ${obj})
  endforeach()
  foreach(s ${G_THIRD_PARTY_SOURCES})
    zkrv_guest_compile(${s} ${G_OUTPUT_DIR}/obj_${name} "${incs}" "${G_COMPILE_OPTIONS}" obj TARGET ${G_TARGET}
                       OPTIMIZE ${optimize} NO_WARNINGS)
    list(APPEND objs ${obj})
  endforeach()
  if(NOT objs)
    message(FATAL_ERROR "zkrv_add_guest(${name}): no SOURCES or THIRD_PARTY_SOURCES")
  endif()
  set(out ${G_OUTPUT_DIR}/${name}.elf)
  set(libs)
  set(deps ${objs} ${G_LINKER_SCRIPT})
  if(NOT G_NO_RUNTIME)
    set(sdk ${ZKRV_GUEST_LIB_DIR}/libzkrv_guest.a)
    set(alloc ${ZKRV_GUEST_LIB_DIR}/libzkrv_alloc_${G_ALLOCATOR}.a)
    # A C++ guest links the standard library after the SDK, so that the SDK's operator new and
    # delete (out of memory: exit 136) and abort (exit 134, which std::terminate calls) are the
    # ones used.
    set(cxx_libs)
    if(stdcxx)
      set(cxx_libs ${ZKRV_STDCXX_LIBS})
      list(APPEND deps ${cxx_libs})
      set(objs ${ZKRV_LIBGCC_DIR}/crtbegin.o ${objs})
    endif()
    # -u: the SDK's word-at-a-time memory routines (sdk/memory.c) win over picolibc's with any
    # linker and link order (lld would take them anyway: the SDK comes first).
    set(libs -Wl,-u,_start -Wl,-u,memcpy,-u,memmove,-u,memset,-u,memcmp,-u,strlen,-u,strcmp -Wl,--start-group
             ${alloc} ${sdk} ${cxx_libs} ${ZKRV_PICOLIBC_DIR}/lib/rv64im/lp64/libc.a ${ZKRV_LIBGCC_DIR}/libgcc.a
             -Wl,--end-group)
    if(stdcxx)
      list(APPEND libs ${ZKRV_LIBGCC_DIR}/crtend.o)
    endif()
    list(APPEND deps ${sdk} ${alloc})
  endif()
  add_custom_command(OUTPUT ${out}
    COMMAND ${ZKRV_GUEST_CLANG} ${ZKRV_GUEST_ARCH_FLAGS} -nostdlib -static -fuse-ld=lld -Wl,--no-relax
            -Wl,--gc-sections -Wl,-T,${G_LINKER_SCRIPT} ${G_LINK_OPTIONS} -o ${out} ${objs} ${libs}
    DEPENDS ${deps} COMMENT "guest ld ${name}.elf" VERBATIM)
  add_custom_target(${G_TARGET} ALL DEPENDS ${out})
  if(TARGET zkrv_guest_sdk)
    add_dependencies(${G_TARGET} zkrv_guest_sdk)
  endif()
endfunction()

# zkrv_add_host_guest(NAME SOURCES src...): the same guest sources as a native program (host
# stubs: input from stdin, output to stdout, log to stderr) for debugging with ordinary tools.
function(zkrv_add_host_guest name)
  cmake_parse_arguments(H "" "" "SOURCES;INCLUDE_DIRS;COMPILE_OPTIONS" ${ARGN})
  add_executable(${name} ${H_SOURCES} ${ZKRV_GUEST_HOST_SOURCES})
  target_include_directories(${name} PRIVATE ${ZKRV_GUEST_INCLUDE_DIRS} ${H_INCLUDE_DIRS})
  target_compile_options(${name} PRIVATE ${H_COMPILE_OPTIONS})
endfunction()
