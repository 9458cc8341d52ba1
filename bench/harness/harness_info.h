/* What the harness knows about how it was built, for the report's context block. */
#ifndef WB_HARNESS_INFO_H
#define WB_HARNESS_INFO_H

/* "<name> <version>" of the compiler of the translation unit that expands it. */
#if defined(__clang__)
#define WB_COMPILER_NAME(clang_name, gcc_name) clang_name " " __clang_version__
#elif defined(__GNUC__)
#define WB_COMPILER_NAME(clang_name, gcc_name) gcc_name " " __VERSION__
#else
#define WB_COMPILER_NAME(clang_name, gcc_name) "unknown"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The C++ compiler of the C++ kernels, e.g. "g++ 12.2.0" (cxx_info.cpp). */
const char* wb_cxx_compiler(void);
/* BOOST_LIB_VERSION of the Boost.MPI kernels, e.g. "1_74" (only when they are built). */
const char* wb_boost_version(void);

#ifdef __cplusplus
}
#endif

#endif /* WB_HARNESS_INFO_H */
