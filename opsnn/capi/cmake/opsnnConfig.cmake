# CMake package config for opsnn's acl/aclnn C ABI:
#   cmake -Dopsnn_DIR=$(python -m opsnn.capi --cmakedir) ...
#   find_package(opsnn REQUIRED)
#   target_link_libraries(app PRIVATE opsnn::ascendcl opsnn::nnopbase opsnn::opapi_nn opsnn::opapi_math)
# or, as CANN's sample CMakeLists does: include_directories(${OPSNN_INCLUDE_DIRS}) and
# target_link_libraries(app ${OPSNN_LIBRARIES}).
get_filename_component(_opsnn_prefix "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
set(OPSNN_INCLUDE_DIRS "${_opsnn_prefix}/include" "${_opsnn_prefix}/include/aclnnop" "${_opsnn_prefix}/include/aclnn")
set(OPSNN_LIBRARY_DIR "${_opsnn_prefix}/lib")
set(OPSNN_LIBRARIES)
foreach(_opsnn_name ascendcl nnopbase opapi_nn opapi_math opapi)
  if(NOT TARGET opsnn::${_opsnn_name})
    add_library(opsnn::${_opsnn_name} SHARED IMPORTED)
    set_target_properties(opsnn::${_opsnn_name} PROPERTIES
      IMPORTED_LOCATION "${OPSNN_LIBRARY_DIR}/lib${_opsnn_name}.so"
      IMPORTED_SONAME "libascendcl.so"
      INTERFACE_INCLUDE_DIRECTORIES "${OPSNN_INCLUDE_DIRS}")
  endif()
  list(APPEND OPSNN_LIBRARIES opsnn::${_opsnn_name})
endforeach()
if(NOT EXISTS "${OPSNN_LIBRARY_DIR}/libascendcl.so")
  set(opsnn_FOUND FALSE)
  set(opsnn_NOT_FOUND_MESSAGE "opsnn's C ABI is not built: run `python -m opsnn.capi build`")
endif()
unset(_opsnn_name)
unset(_opsnn_prefix)
