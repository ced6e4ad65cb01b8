# Configure-time checks that the layers stay apart (shared/DESIGN.md, "Folders"):
#   1. the verifier links the spec, core/ and the reference STARK core, never a prover or the
#      trace builder;
#   2. optimized/ never depends on reference/ or tools/: no target defined under optimized/
#      links, directly or through any other target, a zkrv_ref_* target or a target defined
#      under tools/. What both sides need lives in core/ (or spec/).
# ZKRV_LAYERING_PENDING names the links ("from:to") that still break rule 2 while their code
# moves into core/; the list may only shrink.
set(ZKRV_LAYERING_PENDING
    zkrv_opt_trace:zkrv_ref_air)  # the witness helpers and the syscall rows (reference/air/trace)

# The targets `target` links, directly: LINK_LIBRARIES and INTERFACE_LINK_LIBRARIES, with
# $<LINK_ONLY:...> unwrapped; names that are not targets are left out.
function(zkrv_direct_links target out)
  set(links "")
  foreach(prop LINK_LIBRARIES INTERFACE_LINK_LIBRARIES)
    get_target_property(v ${target} ${prop})
    if(v)
      foreach(l ${v})
        string(REGEX REPLACE "^\\$<LINK_ONLY:(.*)>$" "\\1" l "${l}")
        if(TARGET ${l})
          list(APPEND links ${l})
        endif()
      endforeach()
    endif()
  endforeach()
  list(REMOVE_DUPLICATES links)
  set(${out} ${links} PARENT_SCOPE)
endfunction()

# Every target reachable from `root` through its links (root excluded).
function(zkrv_reachable root out)
  set(seen "")
  set(stack ${root})
  while(stack)
    list(POP_BACK stack x)
    zkrv_direct_links(${x} links)
    foreach(l ${links})
      if(NOT l IN_LIST seen)
        list(APPEND seen ${l})
        list(APPEND stack ${l})
      endif()
    endforeach()
  endwhile()
  set(${out} ${seen} PARENT_SCOPE)
endfunction()

function(zkrv_check_verifier_layering)
  zkrv_reachable(zkrv_ref_verify links)
  foreach(forbidden zkrv_ref_prove zkrv_ref_air zkrv_ref_exec)
    if(forbidden IN_LIST links)
      message(FATAL_ERROR "layering: zkrv_ref_verify must not link ${forbidden}")
    endif()
  endforeach()
endfunction()

# A target that optimized/ must not reach: a zkrv_ref_* target or one defined under tools/.
function(zkrv_below_optimized_forbidden target out)
  get_target_property(dir ${target} SOURCE_DIR)
  if(target MATCHES "^zkrv_ref_" OR dir MATCHES "^${CMAKE_SOURCE_DIR}/tools(/|$)")
    set(${out} TRUE PARENT_SCOPE)
  else()
    set(${out} FALSE PARENT_SCOPE)
  endif()
endfunction()

function(zkrv_check_optimized_layering)
  set(dirs ${CMAKE_SOURCE_DIR}/optimized)
  get_property(subdirs DIRECTORY ${CMAKE_SOURCE_DIR}/optimized PROPERTY SUBDIRECTORIES)
  list(APPEND dirs ${subdirs})
  set(roots "")
  foreach(d ${dirs})
    get_property(t DIRECTORY ${d} PROPERTY BUILDSYSTEM_TARGETS)
    list(APPEND roots ${t})
  endforeach()
  foreach(root ${roots})
    set(seen ${root})
    set(stack ${root})
    while(stack)
      list(POP_BACK stack x)
      zkrv_direct_links(${x} links)
      foreach(l ${links})
        zkrv_below_optimized_forbidden(${l} forbidden)
        if(forbidden)
          if(NOT "${x}:${l}" IN_LIST ZKRV_LAYERING_PENDING)
            message(FATAL_ERROR "layering: ${root} (optimized/) reaches ${l} through ${x}; optimized/ never "
                                "depends on reference/ or tools/: move what both sides need into core/")
          endif()
        elseif(NOT l IN_LIST seen)
          list(APPEND seen ${l})
          list(APPEND stack ${l})
        endif()
      endforeach()
    endwhile()
  endforeach()
endfunction()

zkrv_check_verifier_layering()
zkrv_check_optimized_layering()
