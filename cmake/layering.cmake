# Configure-time checks that the layers stay apart (shared/DESIGN.md, "Folders"):
#   1. the verifier links the spec, core/ and the reference STARK core, never a prover or the
#      trace builder;
#   2. optimized/ never depends on reference/ or tools/: no target defined under optimized/
#      links, directly or through any other target, a zkrv_ref_* target or a target defined
#      under tools/. What both sides need lives in core/ (or spec/).
#   3. the installed zkrv::verifier (api/) links no prover, trace builder or executor.

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

# Every link reachable from `root`, as "from>to" edges between targets.
function(zkrv_reachable_edges root out)
  set(edges "")
  set(seen ${root})
  set(stack ${root})
  while(stack)
    list(POP_BACK stack x)
    zkrv_direct_links(${x} links)
    foreach(l ${links})
      list(APPEND edges "${x}>${l}")
      if(NOT l IN_LIST seen)
        list(APPEND seen ${l})
        list(APPEND stack ${l})
      endif()
    endforeach()
  endwhile()
  set(${out} ${edges} PARENT_SCOPE)
endfunction()

# `root` must reach no target whose name matches `forbidden` (a regular expression).
function(zkrv_check_never_links root forbidden what)
  if(NOT TARGET ${root})
    return()
  endif()
  zkrv_reachable_edges(${root} edges)
  foreach(edge ${edges})
    string(REGEX REPLACE "^[^>]*>" "" to "${edge}")
    if(to MATCHES "${forbidden}")
      message(FATAL_ERROR "layering: ${what} must not link ${to} (${edge})")
    endif()
  endforeach()
endfunction()

function(zkrv_check_optimized_layering)
  set(dirs ${CMAKE_SOURCE_DIR}/optimized)
  get_property(subdirs DIRECTORY ${CMAKE_SOURCE_DIR}/optimized PROPERTY SUBDIRECTORIES)
  list(APPEND dirs ${subdirs})
  foreach(d ${dirs})
    get_property(roots DIRECTORY ${d} PROPERTY BUILDSYSTEM_TARGETS)
    foreach(root ${roots})
      zkrv_reachable_edges(${root} edges)
      foreach(edge ${edges})
        string(REGEX REPLACE "^([^>]*)>(.*)$" "\\1;\\2" pair "${edge}")
        list(GET pair 0 from)
        list(GET pair 1 to)
        get_target_property(dir ${to} SOURCE_DIR)
        if(to MATCHES "^zkrv_ref_" OR dir MATCHES "^${CMAKE_SOURCE_DIR}/tools(/|$)")
          message(FATAL_ERROR "layering: ${root} (optimized/) reaches ${to} through ${from}; optimized/ never "
                              "depends on reference/ or tools/: move what both sides need into core/")
        endif()
      endforeach()
    endforeach()
  endforeach()
endfunction()

zkrv_check_never_links(zkrv_ref_verify "^(zkrv_ref_prove|zkrv_ref_air|zkrv_ref_exec)$" "zkrv_ref_verify")
zkrv_check_never_links(zkrv_verifier "^(zkrv_ref_prove|zkrv_ref_air|zkrv_ref_exec|zkrv_opt_.*|zkrv_api_prover_objects)$"
                       "zkrv_verifier (the installed zkrv::verifier)")
zkrv_check_optimized_layering()
