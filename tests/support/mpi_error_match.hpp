#pragma once
// throws_mpi_error(call, class, text): the check for "this call is an error" that names what
// the error must be. An EXPECT_THROW(..., thinmpi::mpi_error) alone passes on an error of any
// cause (a wrong rank where a wrong size was meant, a broken communicator): this one needs the
// error class and a piece of the message. error_from(call) hands the error back for tests that
// look at more of it, and mentions / contains look for a piece of its text: written once here
// for every test file.

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "thinmpi/thinmpi.hpp"

namespace thinmpi_test {

/// Runs f, which must throw thinmpi::mpi_error, and returns the error (a test failure, and an
/// empty error, if it does not throw).
template <class F>
thinmpi::mpi_error error_from(F&& f) {
  try {
    f();
  } catch (const thinmpi::mpi_error& e) {
    return e;
  }
  ADD_FAILURE() << "no thinmpi::mpi_error was thrown";
  return thinmpi::mpi_error("none", {});
}

/// Whether `text` contains `part`.
inline bool contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

/// Whether `text` contains `part`, as an assertion that shows both when it does not.
inline testing::AssertionResult mentions(const std::string& text, const std::string& part) {
  if (contains(text, part)) return testing::AssertionSuccess();
  return testing::AssertionFailure() << "\"" << text << "\" does not mention \"" << part << "\"";
}

/// Passes when call() throws a thinmpi::mpi_error of `error_class` whose what() contains
/// `text`; fails, saying what came instead, otherwise.
///     EXPECT_TRUE(throws_mpi_error([&] { world.send(1, -1, 0); }, MPI_ERR_RANK, "rank -1"));
template <class Call>
testing::AssertionResult throws_mpi_error(Call&& call, int error_class, std::string_view text) {
  try {
    call();
  } catch (const thinmpi::mpi_error& e) {
    const std::string what = e.what();
    if (e.error_class() != error_class) {
      return testing::AssertionFailure()
             << "threw " << thinmpi::error_class_name(e.error_class()) << " where "
             << thinmpi::error_class_name(error_class) << " was expected: " << what;
    }
    if (what.find(text) == std::string::npos) {
      return testing::AssertionFailure() << "the message does not say \"" << text << "\": " << what;
    }
    return testing::AssertionSuccess();
  }
  return testing::AssertionFailure()
         << "no thinmpi::mpi_error (expected " << thinmpi::error_class_name(error_class) << ")";
}

}  // namespace thinmpi_test
