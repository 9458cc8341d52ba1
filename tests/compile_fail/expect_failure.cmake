# cmake -DBUILD_DIR=<dir> -DTARGET=<target> -DEXPECTED=<regex> -P expect_failure.cmake
#
# A compile-failure test passes only if building TARGET fails (a non-zero status) AND the
# build's output matches EXPECTED, the diagnostic that names this misuse: a build that
# succeeds (a warning that -Werror did not turn into an error) or fails for another reason
# fails the test.
foreach(var IN ITEMS BUILD_DIR TARGET EXPECTED)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "expect_failure.cmake: pass -D${var}=...")
  endif()
endforeach()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${BUILD_DIR} --target ${TARGET}
                RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
if(status EQUAL 0)
  message(FATAL_ERROR "FAIL: ${TARGET} built (status 0); it must not compile. Output:\n${output}")
endif()
if(NOT output MATCHES "${EXPECTED}")
  message(FATAL_ERROR "FAIL: ${TARGET} failed to build (status ${status}) without the expected "
                      "diagnostic /${EXPECTED}/. Output:\n${output}")
endif()
message(STATUS "${TARGET} failed to build, as it must, with /${EXPECTED}/")
