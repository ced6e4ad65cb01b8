# Guest SDK build rules (clang + lld for riscv64im, picolibc).
#
#   zkrv_add_guest(NAME SOURCES src... [ALLOCATOR bump|picolibc|arena] [OUTPUT_DIR dir]
#                  [HEAP_SIZE bytes] [STACK_SIZE bytes] [INPUT_SIZE bytes]
#                  [COMPILE_OPTIONS opt...] [INCLUDE_DIRS dir...] [LINK_OPTIONS opt...]
#                  [LINKER_SCRIPT file] [NO_RUNTIME] [TARGET t])
# builds NAME.elf. The SDK (libzkrv_guest.a), the chosen allocator (default bump), picolibc
# and libgcc are linked unless NO_RUNTIME is given (freestanding assembly tests).
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
set(ZKRV_GUEST_CFLAGS ${ZKRV_GUEST_ARCH_FLAGS} -O2 -g -ffunction-sections -fdata-sections
    -ftls-model=local-exec -isystem ${ZKRV_PICOLIBC_DIR}/include -Wall
    CACHE INTERNAL "guest compile flags")
set(ZKRV_GUEST_CXXFLAGS -std=c++17 -fno-exceptions -fno-rtti -fno-threadsafe-statics CACHE INTERNAL "")

# Compiles one guest source to an object; returns its path in OUT_VAR.
function(zkrv_guest_compile src out_dir include_dirs extra_flags out_var)
  get_filename_component(abs ${src} ABSOLUTE)
  get_filename_component(name ${src} NAME)
  string(MD5 tag "${abs}${extra_flags}")
  string(SUBSTRING ${tag} 0 8 tag)
  set(obj ${out_dir}/${name}.${tag}.o)
  set(flags ${ZKRV_GUEST_CFLAGS})
  if(abs MATCHES "\\.(cpp|cc|cxx)$")
    list(APPEND flags ${ZKRV_GUEST_CXXFLAGS})
  elseif(abs MATCHES "\\.c$")
    list(APPEND flags -std=c17)
  endif()
  set(incs)
  foreach(d ${include_dirs})
    list(APPEND incs -I${d})
  endforeach()
  # Ninja creates an output's folder itself; Unix Makefiles does not.
  add_custom_command(OUTPUT ${obj}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${out_dir}
    COMMAND ${ZKRV_GUEST_CLANG} ${flags} ${extra_flags} ${incs} -MD -MF ${obj}.d -c ${abs} -o ${obj}
    DEPENDS ${abs} DEPFILE ${obj}.d
    COMMENT "guest cc ${name}" VERBATIM)
  set(${out_var} ${obj} PARENT_SCOPE)
endfunction()

# zkrv_guest_library(NAME OUTPUT_DIR dir INCLUDE_DIRS dirs SOURCES src...) -> dir/libNAME.a
function(zkrv_guest_library name)
  cmake_parse_arguments(L "" "OUTPUT_DIR" "SOURCES;INCLUDE_DIRS" ${ARGN})
  set(objs)
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
  cmake_parse_arguments(G "NO_RUNTIME" "LINKER_SCRIPT;OUTPUT_DIR;TARGET;ALLOCATOR;HEAP_SIZE;STACK_SIZE;INPUT_SIZE"
                        "SOURCES;LINK_OPTIONS;INCLUDE_DIRS;COMPILE_OPTIONS" ${ARGN})
  foreach(region HEAP STACK INPUT)
    if(DEFINED G_${region}_SIZE)
      zkrv_guest_size(${name} ${region}_SIZE "${G_${region}_SIZE}" bytes)
      list(APPEND G_LINK_OPTIONS -Wl,--defsym=ZKRV_${region}_SIZE=${bytes})
    endif()
  endforeach()
  if(NOT G_TARGET)
    set(G_TARGET guest_${name})
  endif()
  if(NOT G_LINKER_SCRIPT)
    set(G_LINKER_SCRIPT ${ZKRV_GUEST_LD_SCRIPT})
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
    zkrv_guest_compile(${s} ${G_OUTPUT_DIR}/obj_${name} "${incs}" "${G_COMPILE_OPTIONS}" obj)
    list(APPEND objs ${obj})
  endforeach()
  set(out ${G_OUTPUT_DIR}/${name}.elf)
  set(libs)
  set(deps ${objs} ${G_LINKER_SCRIPT})
  if(NOT G_NO_RUNTIME)
    set(sdk ${ZKRV_GUEST_LIB_DIR}/libzkrv_guest.a)
    set(alloc ${ZKRV_GUEST_LIB_DIR}/libzkrv_alloc_${G_ALLOCATOR}.a)
    set(libs -Wl,-u,_start -Wl,--start-group ${alloc} ${sdk} ${ZKRV_PICOLIBC_DIR}/lib/rv64im/lp64/libc.a
             ${ZKRV_LIBGCC_DIR}/libgcc.a -Wl,--end-group)
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
