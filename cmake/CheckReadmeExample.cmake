# cmake -DREADME=... -DEXAMPLE=... -P CheckReadmeExample.cmake
# Fails unless the first C++ block of the README appears, verbatim, in the example file: the
# program a newcomer copies first is the one the tests build and run.
file(READ ${README} readme)
file(READ ${EXAMPLE} example)
string(FIND "${readme}" "```cpp\n" start)
if(start EQUAL -1)
  message(FATAL_ERROR "no C++ block in ${README}")
endif()
math(EXPR start "${start} + 7")
string(SUBSTRING "${readme}" ${start} -1 rest)
string(FIND "${rest}" "```" length)
string(SUBSTRING "${rest}" 0 ${length} block)
string(FIND "${example}" "${block}" found)
if(found EQUAL -1)
  message(FATAL_ERROR "the first C++ block of ${README} is not in ${EXAMPLE}:\n${block}")
endif()
message(STATUS "README example matches ${EXAMPLE}")
