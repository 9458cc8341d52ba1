// The C++ compiler that built the C++ kernels (the C compiler is named by the C harness itself).
#include "harness_info.h"

extern "C" const char* wb_cxx_compiler(void) {
#if defined(__clang__)
  return "clang++ " __clang_version__;
#elif defined(__GNUC__)
  return "g++ " __VERSION__;
#else
  return "unknown";
#endif
}
