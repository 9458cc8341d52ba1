# install() + export + version file + pkg-config for the header-only thinmpi target.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS thinmpi EXPORT thinmpiTargets)
install(DIRECTORY include/thinmpi DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

set(THINMPI_CMAKE_DIR ${CMAKE_INSTALL_DATADIR}/cmake/thinmpi)
install(EXPORT thinmpiTargets NAMESPACE thinmpi:: DESTINATION ${THINMPI_CMAKE_DIR})
configure_package_config_file(cmake/thinmpiConfig.cmake.in
                              ${CMAKE_CURRENT_BINARY_DIR}/thinmpiConfig.cmake
                              INSTALL_DESTINATION ${THINMPI_CMAKE_DIR})
write_basic_package_version_file(
  ${CMAKE_CURRENT_BINARY_DIR}/thinmpiConfigVersion.cmake COMPATIBILITY SameMinorVersion
  ARCH_INDEPENDENT)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/thinmpiConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/thinmpiConfigVersion.cmake
        DESTINATION ${THINMPI_CMAKE_DIR})

# pkg-config: the MPI it requires is the one this tree was configured with.
include(${CMAKE_CURRENT_LIST_DIR}/ThinmpiMpiVendor.cmake)
if(THINMPI_MPI_VENDOR STREQUAL "openmpi")
  set(THINMPI_PC_REQUIRES "ompi-c")
else()
  set(THINMPI_PC_REQUIRES "mpich")
endif()
configure_file(cmake/thinmpi.pc.in ${CMAKE_CURRENT_BINARY_DIR}/thinmpi.pc @ONLY)
# Relocatable: the prefix is found from where the .pc file is (two levels up).
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/thinmpi.pc DESTINATION ${CMAKE_INSTALL_DATADIR}/pkgconfig)
