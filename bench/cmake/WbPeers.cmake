# The peers of wrapper-bench: KaMPIng and MPL kernels beside the C, Boost.MPI and thinmpi ones
# (included by bench/CMakeLists.txt after the ping-pong harness is declared):
#   wb_kamping_kernels, wb_mpl_kernels   their ping-pong variants, linked into wb_kernels
#   wb_kamping_coll, wb_mpl_coll         their collective variants, linked into wb_coll by
#                                        wb_peers_join_collectives() once wb_coll exists
#
# Their sources are never part of this repository. Each comes from its cache variable
# (WB_KAMPING_SOURCE_DIR, WB_KASSERT_SOURCE_DIR, WB_MPL_SOURCE_DIR), else from
# bench/setup/peer-source.sh run here (an environment variable WB_<NAME>_SOURCE, the snapshot in
# $WB_PEERS_SNAPSHOTS or ../shared/peers, or a clone of the pinned revision), unpacked under
# WB_PEERS_DIR (default $WB_PEERS_DIR, else build/peers: where scripts/bench.sh unpacked them).
# A folder counts as a source only when it holds the files peer-source.sh's peer_check names. A
# peer that cannot be had (an offline machine without ../shared), or whose kernels do not compile
# with this MPI x compiler, costs only its own cells: configure says so in one line, the reason
# goes to wb_build.json ("kamping_missing_reason", "mpl_missing_reason") and the report lists
# those cells as missing, with it; the build and the smoke runs go on.

option(WB_WITH_PEERS "Build the KaMPIng and MPL kernels when their sources can be had" ON)
if(DEFINED ENV{WB_PEERS_DIR})
  get_filename_component(wb_peers_default "$ENV{WB_PEERS_DIR}" ABSOLUTE BASE_DIR
                         "${PROJECT_SOURCE_DIR}")
else()
  set(wb_peers_default "${PROJECT_SOURCE_DIR}/build/peers")
endif()
set(WB_PEERS_DIR "${wb_peers_default}" CACHE PATH "Where peer-source.sh unpacks the peers' sources")
set(WB_KAMPING_SOURCE_DIR "" CACHE PATH "KaMPIng's source (default: peer-source.sh)")
set(WB_KASSERT_SOURCE_DIR "" CACHE PATH "kassert's source, KaMPIng's assertions")
set(WB_MPL_SOURCE_DIR "" CACHE PATH "MPL's source (default: peer-source.sh)")

# Sets <out_dir> to the source folder of peer <name> (or empty) and <out_reason> to why not: one
# line, which peer and where it was looked for (the caller says what goes without it).
function(wb_peer_source name out_dir out_reason)
  string(TOUPPER ${name} upper)
  set(given "${WB_${upper}_SOURCE_DIR}")
  set(script ${CMAKE_CURRENT_SOURCE_DIR}/setup/peer-source.sh)
  if(given)
    execute_process(
      COMMAND bash -c "source \"$0\" && peer_check \"$1\" \"$2\"" ${script} ${name} ${given}
      OUTPUT_VARIABLE lacks
      RESULT_VARIABLE failed
      OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(failed)
      set(${out_dir} "" PARENT_SCOPE)
      set(${out_reason} "${name}: WB_${upper}_SOURCE_DIR=${given} is not its source (${lacks})"
          PARENT_SCOPE)
    else()
      message(STATUS "wrapper-bench: ${name} source: ${given} (WB_${upper}_SOURCE_DIR)")
      set(${out_dir} "${given}" PARENT_SCOPE)
      set(${out_reason} "" PARENT_SCOPE)
    endif()
    return()
  endif()
  execute_process(
    COMMAND bash -c "source \"$0\" && peer_source \"$1\" \"$2\"" ${script} ${name}
            ${WB_PEERS_DIR}
    OUTPUT_VARIABLE dir
    ERROR_VARIABLE said
    RESULT_VARIABLE failed
    OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_STRIP_TRAILING_WHITESPACE)
  if(failed OR NOT IS_DIRECTORY "${dir}")
    # The last line says why (one before it may say that an unfinished folder was removed); it
    # goes into wb_build.json as a JSON string.
    string(REGEX REPLACE ".*\n" "" said "${said}")
    string(REPLACE "wrapper-bench: " "" said "${said}")
    string(REPLACE "\"" "'" said "${said}")
    string(REPLACE "\\" "/" said "${said}")
    set(${out_dir} "" PARENT_SCOPE)
    set(${out_reason} "${said}" PARENT_SCOPE)
  else()
    message(STATUS "${said}")
    set(${out_dir} "${dir}" PARENT_SCOPE)
    set(${out_reason} "" PARENT_SCOPE)
  endif()
endfunction()

# Sets <out> to empty when `sources` compile (C++20, this build's MPI and warnings, the
# include folders and definitions given), else to a reason naming the log with the errors.
function(wb_peer_compiles name out includes definitions)
  set(sources ${ARGN})
  get_target_property(warnings thinmpi_warnings INTERFACE_COMPILE_OPTIONS)
  # A reconfigure checks again only when the kernels or the peer's folders changed.
  set(key "${includes};${definitions};${CMAKE_CXX_COMPILER};${MPI_CXX_COMPILER}")
  foreach(source ${sources})
    file(SHA1 ${source} digest)
    string(APPEND key ";${digest}")
  endforeach()
  string(SHA1 key "${key}")
  if(WB_${name}_COMPILES AND "${WB_${name}_COMPILES_KEY}" STREQUAL "${key}")
    set(${out} "" PARENT_SCOPE)
    return()
  endif()
  set(WB_${name}_COMPILES_KEY "${key}" CACHE INTERNAL "what the last check of ${name} compiled")
  set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
  unset(WB_${name}_COMPILES CACHE)
  set(system_includes "")
  foreach(folder ${includes})
    list(APPEND system_includes -isystem ${folder})
  endforeach()
  try_compile(
    WB_${name}_COMPILES ${CMAKE_CURRENT_BINARY_DIR}/${name}_check
    SOURCES ${sources}
    CMAKE_FLAGS "-DINCLUDE_DIRECTORIES=${CMAKE_CURRENT_SOURCE_DIR}/harness"
    COMPILE_DEFINITIONS ${system_includes} ${warnings} ${definitions} -DOMPI_SKIP_MPICXX=1
                        -DMPICH_SKIP_MPICXX=1
    LINK_LIBRARIES MPI::MPI_CXX
    CXX_STANDARD 20
    OUTPUT_VARIABLE log)
  if(WB_${name}_COMPILES)
    set(${out} "" PARENT_SCOPE)
  else()
    file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/${name}_check.log "${log}")
    set(${out}
        "its kernels do not compile with this MPI and compiler: see \
${CMAKE_CURRENT_BINARY_DIR}/${name}_check.log"
        PARENT_SCOPE)
  endif()
endfunction()

# KaMPIng's kassert header is generated by its CMake (vendor names, assertion levels): configure
# KaMPIng once, as its README says for this machine (offline, kassert from its source, no
# Boost.PFR, no cereal for these suites), in a folder of its own, so that a failure there costs
# only KaMPIng's cells. Sets WB_KAMPING_INCLUDES and WB_KAMPING_DEFINITIONS, or the reason.
function(wb_configure_kamping kamping kassert out_reason)
  set(config ${CMAKE_CURRENT_BINARY_DIR}/kamping-config)
  set(generated ${config}/_deps/kamping_kassert-build/include)
  if(NOT EXISTS ${generated}/kamping/kassert/kassert.hpp)
    execute_process(
      COMMAND
        ${CMAKE_COMMAND} -S ${kamping} -B ${config} -DCMAKE_CXX_COMPILER=${CMAKE_CXX_COMPILER}
        -DMPI_CXX_COMPILER=${MPI_CXX_COMPILER} -DMPI_C_COMPILER=${MPI_C_COMPILER}
        -DFETCHCONTENT_FULLY_DISCONNECTED=ON -DFETCHCONTENT_SOURCE_DIR_KAMPING_KASSERT=${kassert}
        -DKAMPING_ENABLE_REFLECTION=OFF -DKAMPING_ENABLE_SERIALIZATION=OFF
        -DKAMPING_BUILD_EXAMPLES_AND_TESTS=OFF
      OUTPUT_VARIABLE log
      ERROR_VARIABLE log
      RESULT_VARIABLE failed)
    file(WRITE ${config}.log "${log}")
    if(failed OR NOT EXISTS ${generated}/kamping/kassert/kassert.hpp)
      set(${out_reason} "its CMake configure failed: see ${config}.log" PARENT_SCOPE)
      return()
    endif()
  endif()
  set(WB_KAMPING_INCLUDES ${kamping}/include ${kamping}/kamping-types/include ${generated}
                          ${kassert}/include PARENT_SCOPE)
  # What KaMPIng's kamping target gives in a release build: exceptions for recoverable errors,
  # assertion level 10 ("exceptions").
  set(WB_KAMPING_DEFINITIONS -DKAMPING_ASSERT_EXCEPTION_MODE -DKAMPING_ASSERT_ASSERTION_LEVEL=10
      PARENT_SCOPE)
  set(${out_reason} "" PARENT_SCOPE)
endfunction()

# An object library of a peer's kernels: C++20, its headers as system headers (their warnings
# are theirs), ours held to thinmpi_warnings.
function(wb_peer_objects target includes definitions)
  add_library(${target} OBJECT ${ARGN})
  target_compile_features(${target} PRIVATE cxx_std_20)
  target_include_directories(${target} SYSTEM PRIVATE ${includes})
  target_include_directories(${target} PRIVATE harness)
  string(REPLACE "-D" "" plain "${definitions}")
  target_compile_definitions(${target} PRIVATE ${plain} OMPI_SKIP_MPICXX=1 MPICH_SKIP_MPICXX=1)
  target_link_libraries(${target} PRIVATE MPI::MPI_CXX thinmpi_warnings)
endfunction()

# KaMPIng's serialization (the serialization suite's kamping/ser_* variants) needs cereal's
# headers (Debian's libcereal-dev) and KAMPING_ENABLE_SERIALIZATION, for kamping_serial.cpp only:
# where cereal is missing or the file does not compile, only those cells go, with the reason in
# wb_build.json ("kamping_serial_missing_reason").
function(wb_kamping_serial)
  find_path(WB_CEREAL_INCLUDE_DIR cereal/archives/binary.hpp)
  set(reason "")
  set(definitions ${WB_KAMPING_DEFINITIONS} -DKAMPING_ENABLE_SERIALIZATION)
  set(includes ${WB_KAMPING_INCLUDES})
  # Not /usr/include itself: -isystem there breaks libstdc++'s #include_next.
  if(WB_CEREAL_INCLUDE_DIR AND NOT WB_CEREAL_INCLUDE_DIR IN_LIST
                               CMAKE_CXX_IMPLICIT_INCLUDE_DIRECTORIES)
    list(APPEND includes ${WB_CEREAL_INCLUDE_DIR})
  endif()
  if(NOT WB_CEREAL_INCLUDE_DIR)
    set(reason "cereal's headers are not installed (Debian: libcereal-dev)")
  else()
    wb_peer_compiles(kamping_serial reason "${includes}" "${definitions}"
                     ${CMAKE_CURRENT_SOURCE_DIR}/kernels/kamping/kamping_serial.cpp)
  endif()
  if(reason)
    set(WB_KAMPING_SERIAL false PARENT_SCOPE)
    message(STATUS "wrapper-bench: no KaMPIng serialization cells: ${reason}")
  else()
    set(WB_KAMPING_SERIAL true PARENT_SCOPE)
    wb_peer_objects(wb_kamping_serial "${includes}" "${definitions}" kernels/kamping/kamping_serial.cpp)
    # kamping_variants.cpp lists the serialization variants only then.
    target_compile_definitions(wb_kamping_kernels PRIVATE WB_KAMPING_SERIAL)
    target_link_libraries(wb_kernels PRIVATE wb_kamping_serial)
    set(WB_PEER_OBJECTS ${WB_PEER_OBJECTS} $<TARGET_OBJECTS:wb_kamping_serial> PARENT_SCOPE)
  endif()
  set(WB_KAMPING_SERIAL_REASON "${reason}" PARENT_SCOPE)
endfunction()

set(WB_KAMPING false)
set(WB_KAMPING_SERIAL false)
set(WB_MPL false)
set(WB_KAMPING_REASON "left out of this build (WB_WITH_PEERS=OFF)")
set(WB_MPL_REASON "${WB_KAMPING_REASON}")
set(WB_KAMPING_SERIAL_REASON "${WB_KAMPING_REASON}")
set(WB_PEER_OBJECTS "")
if(WB_WITH_PEERS)
  wb_peer_source(kamping kamping_dir WB_KAMPING_REASON)
  if(kamping_dir)
    wb_peer_source(kassert kassert_dir WB_KAMPING_REASON)
  endif()
  if(kamping_dir AND kassert_dir)
    wb_configure_kamping(${kamping_dir} ${kassert_dir} WB_KAMPING_REASON)
  endif()
  if(NOT WB_KAMPING_REASON)
    wb_peer_compiles(kamping WB_KAMPING_REASON "${WB_KAMPING_INCLUDES}"
                     "${WB_KAMPING_DEFINITIONS}" ${CMAKE_CURRENT_SOURCE_DIR}/kernels/kamping/kamping_coll.cpp
                     ${CMAKE_CURRENT_SOURCE_DIR}/kernels/kamping/kamping_vector.cpp)
  endif()
  wb_peer_source(mpl mpl_dir WB_MPL_REASON)
  if(mpl_dir)
    wb_peer_compiles(mpl WB_MPL_REASON "${mpl_dir}" "" ${CMAKE_CURRENT_SOURCE_DIR}/kernels/mpl/mpl_coll.cpp
                     ${CMAKE_CURRENT_SOURCE_DIR}/kernels/mpl/mpl_vector.cpp)
  endif()
endif()

if(WB_WITH_PEERS AND NOT WB_KAMPING_REASON)
  set(WB_KAMPING true)
  wb_peer_objects(
    wb_kamping_kernels "${WB_KAMPING_INCLUDES}" "${WB_KAMPING_DEFINITIONS}"
    kernels/kamping/kamping_int.cpp kernels/kamping/kamping_vector_bounded.cpp
    kernels/kamping/kamping_vector.cpp kernels/kamping/kamping_string.cpp
    kernels/kamping/kamping_char_buffer.cpp kernels/kamping/kamping_variants.cpp)
  wb_kamping_serial()
  wb_peer_objects(wb_kamping_coll "${WB_KAMPING_INCLUDES}" "${WB_KAMPING_DEFINITIONS}"
                  kernels/kamping/kamping_coll.cpp)
  target_link_libraries(wb_kernels PRIVATE wb_kamping_kernels MPI::MPI_CXX)
  target_compile_definitions(wb_kernels PRIVATE WB_HAVE_KAMPING)
  list(APPEND WB_PEER_OBJECTS $<TARGET_OBJECTS:wb_kamping_kernels>)
  message(STATUS "wrapper-bench: KaMPIng cells for ${WB_MPI_VENDOR}-${CMAKE_CXX_COMPILER_ID}")
elseif(WB_WITH_PEERS)
  message(STATUS "wrapper-bench: no KaMPIng cells: ${WB_KAMPING_REASON}")
  set(WB_KAMPING_SERIAL_REASON "no KaMPIng cells: ${WB_KAMPING_REASON}")
endif()
if(WB_WITH_PEERS AND NOT WB_MPL_REASON)
  set(WB_MPL true)
  wb_peer_objects(
    wb_mpl_kernels "${mpl_dir}" "" kernels/mpl/mpl_int.cpp kernels/mpl/mpl_vector_bounded.cpp
    kernels/mpl/mpl_vector.cpp kernels/mpl/mpl_vector_container.cpp kernels/mpl/mpl_string.cpp
    kernels/mpl/mpl_char_buffer.cpp kernels/mpl/mpl_variants.cpp)
  wb_peer_objects(wb_mpl_coll "${mpl_dir}" "" kernels/mpl/mpl_coll.cpp)
  target_link_libraries(wb_kernels PRIVATE wb_mpl_kernels MPI::MPI_CXX)
  target_compile_definitions(wb_kernels PRIVATE WB_HAVE_MPL)
  list(APPEND WB_PEER_OBJECTS $<TARGET_OBJECTS:wb_mpl_kernels>)
  message(STATUS "wrapper-bench: MPL cells for ${WB_MPI_VENDOR}-${CMAKE_CXX_COMPILER_ID}")
elseif(WB_WITH_PEERS)
  message(STATUS "wrapper-bench: no MPL cells: ${WB_MPL_REASON}")
endif()

# The peers' collective variants join the collectives harness (called after WbCollectives.cmake).
function(wb_peers_join_collectives)
  if(WB_KAMPING)
    target_link_libraries(wb_coll PRIVATE wb_kamping_coll MPI::MPI_CXX)
    target_compile_definitions(wb_coll PRIVATE WB_HAVE_KAMPING)
  endif()
  if(WB_MPL)
    target_link_libraries(wb_coll PRIVATE wb_mpl_coll MPI::MPI_CXX)
    target_compile_definitions(wb_coll PRIVATE WB_HAVE_MPL)
  endif()
  wb_peer_programs()  # their own sample sorts (WbPeerPrograms.cmake)
endfunction()

include(${CMAKE_CURRENT_LIST_DIR}/WbPeerPrograms.cmake)
