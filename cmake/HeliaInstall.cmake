# What `cmake --install` puts in the prefix for compilers that embed helia:
# the headers (with the .inc files TableGen generated), the libraries,
# helia-compile, helia-opt, helia-plan and helia-translate, and the CMake package
# lib/cmake/helia/HeliaConfig.cmake that find_package(Helia CONFIG) reads.
# Its targets are Helia::<name> below; see docs/Embedding.md.

include(CMakePackageConfigHelpers)

set(HELIA_INSTALL_PACKAGE_DIR "lib${LLVM_LIBDIR_SUFFIX}/cmake/helia")

install(DIRECTORY ${HELIA_SOURCE_DIR}/include/helia ${HELIA_SOURCE_DIR}/include/helia-c
  DESTINATION include
  COMPONENT helia-headers
  FILES_MATCHING PATTERN "*.h" PATTERN "*.td")
install(DIRECTORY ${HELIA_BINARY_DIR}/include/helia
  DESTINATION include
  COMPONENT helia-headers
  FILES_MATCHING PATTERN "*.inc"
  PATTERN "CMakeFiles" EXCLUDE)

# Library target -> exported name (Helia::<name>).
set(HELIA_EXPORTED_LIBRARIES
  HeliaPlanner Planner
  MLIRHelia Dialect
  MLIRHeliaAnalysis Analysis
  MLIRHeliaExport Export
  MLIRHeliaTransforms Transforms
  MLIRHeliaPipelines Pipelines
  HeliaRegistration Registration
  HeliaCAPI CAPI
  HeliaTFLiteImport TFLite
  )
set(_helia_targets)
while(HELIA_EXPORTED_LIBRARIES)
  list(POP_FRONT HELIA_EXPORTED_LIBRARIES _target _name)
  set_target_properties(${_target} PROPERTIES EXPORT_NAME ${_name})
  target_include_directories(${_target} INTERFACE $<INSTALL_INTERFACE:include>)
  list(APPEND _helia_targets ${_target})
endwhile()

install(TARGETS ${_helia_targets}
  EXPORT HeliaTargets
  COMPONENT helia-libraries
  ARCHIVE DESTINATION lib${LLVM_LIBDIR_SUFFIX}
  LIBRARY DESTINATION lib${LLVM_LIBDIR_SUFFIX}
  RUNTIME DESTINATION bin)
install(TARGETS helia-plan RUNTIME DESTINATION bin COMPONENT helia-plan)
# The installed tools find libMLIR.so and libLLVM.so where MLIR is installed.
set_property(TARGET helia-compile helia-opt helia-plan helia-translate APPEND PROPERTY
  INSTALL_RPATH "${LLVM_LIBRARY_DIR}")
install(EXPORT HeliaTargets
  NAMESPACE Helia::
  DESTINATION ${HELIA_INSTALL_PACKAGE_DIR}
  COMPONENT helia-libraries)

configure_package_config_file(
  ${HELIA_SOURCE_DIR}/cmake/HeliaConfig.cmake.in
  ${HELIA_BINARY_DIR}/cmake/HeliaConfig.cmake
  INSTALL_DESTINATION ${HELIA_INSTALL_PACKAGE_DIR}
  PATH_VARS HELIA_INSTALL_PACKAGE_DIR)
install(FILES ${HELIA_BINARY_DIR}/cmake/HeliaConfig.cmake
  DESTINATION ${HELIA_INSTALL_PACKAGE_DIR}
  COMPONENT helia-libraries)
