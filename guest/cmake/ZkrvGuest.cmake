# zkrv_add_guest(NAME SOURCES src... [LINKER_SCRIPT file] [NO_RUNTIME] [OUTPUT_DIR dir] [TARGET t])
# Builds NAME.elf for riscv64im (LP64, medany) with clang + lld from C, C++ or assembly.
set(ZKRV_GUEST_DIR ${CMAKE_CURRENT_LIST_DIR}/.. CACHE INTERNAL "guest SDK folder")
set(ZKRV_GUEST_FLAGS --target=riscv64-unknown-elf -march=rv64im -mabi=lp64 -mcmodel=medany
    -ffreestanding -fno-builtin -nostdlib -fno-exceptions -fno-asynchronous-unwind-tables -O2 -g
    -I${CMAKE_SOURCE_DIR} CACHE INTERNAL "guest compile flags")

function(zkrv_add_guest name)
  cmake_parse_arguments(G "NO_RUNTIME" "LINKER_SCRIPT;OUTPUT_DIR;TARGET" "SOURCES" ${ARGN})
  if(NOT G_TARGET)
    set(G_TARGET guest_${name})
  endif()
  if(NOT G_LINKER_SCRIPT)
    set(G_LINKER_SCRIPT ${ZKRV_GUEST_DIR}/zkrv.ld)
  endif()
  if(NOT G_OUTPUT_DIR)
    set(G_OUTPUT_DIR ${CMAKE_CURRENT_BINARY_DIR})
  endif()
  set(srcs)
  foreach(s ${G_SOURCES})
    get_filename_component(abs ${s} ABSOLUTE)
    list(APPEND srcs ${abs})
  endforeach()
  if(NOT G_NO_RUNTIME)
    list(APPEND srcs ${ZKRV_GUEST_DIR}/runtime/start.S ${ZKRV_GUEST_DIR}/runtime/runtime.c)
  endif()
  set(out ${G_OUTPUT_DIR}/${name}.elf)
  add_custom_command(
    OUTPUT ${out}
    COMMAND ${ZKRV_GUEST_CLANG} ${ZKRV_GUEST_FLAGS} -fuse-ld=lld -static -Wl,--no-relax
            -Wl,-T,${G_LINKER_SCRIPT} -o ${out} ${srcs}
    DEPENDS ${srcs} ${G_LINKER_SCRIPT} ${ZKRV_GUEST_DIR}/include/zkrv_guest.h
            ${CMAKE_SOURCE_DIR}/conformance/isa/macros.h
    COMMENT "guest ${name}.elf"
    VERBATIM)
  add_custom_target(${G_TARGET} ALL DEPENDS ${out})
endfunction()
