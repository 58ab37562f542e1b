# ptxsim_forwarding_library(TARGET SOURCE HEADER OUTPUT_NAME MAP_FILE): one
# of ptxsim's stand-ins for an NVIDIA library (libnvrtc.so.13,
# libnvJitLink.so.13) in build/lib, which forwards every call to NVIDIA's
# own (forwarding/nvidia_library.h). It needs HEADER from the CUDA toolkit;
# without it the library is not built, with a warning.
function(ptxsim_forwarding_library target source header output_name map_file)
  find_path(PTXSIM_${target}_INCLUDE ${header} PATHS /usr/local/cuda/include)
  if(NOT PTXSIM_${target}_INCLUDE)
    message(WARNING "${header} not found: ptxsim's lib${output_name}.so.13 is not built")
    return()
  endif()
  add_library(${target} SHARED ${source})
  target_include_directories(${target} PRIVATE ${PTXSIM_${target}_INCLUDE} ${CMAKE_CURRENT_FUNCTION_LIST_DIR})
  target_link_libraries(${target} PRIVATE ptxsim_warnings ${CMAKE_DL_LIBS})
  set_target_properties(${target} PROPERTIES
    OUTPUT_NAME ${output_name}
    VERSION 13.0.0
    SOVERSION 13
    CXX_VISIBILITY_PRESET hidden
    LINK_DEPENDS ${map_file})
  target_link_options(${target} PRIVATE -Wl,--version-script=${map_file} -Wl,--no-undefined)
endfunction()
