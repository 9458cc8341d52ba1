// The C++ compiler that built the C++ kernels (the C compiler is named by the C harness itself).
#include "harness_info.h"

extern "C" const char* wb_cxx_compiler(void) {
  return WB_COMPILER_NAME("clang++", "g++");
}
