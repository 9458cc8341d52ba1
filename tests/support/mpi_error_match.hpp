#pragma once
// throws_mpi_error(call, class, text): the check for "this call is an error" that names what
// the error must be. An EXPECT_THROW(..., thinmpi::mpi_error) alone passes on an error of any
// cause (a wrong rank where a wrong size was meant, a broken communicator): this one needs the
// error class and a piece of the message.

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "thinmpi/thinmpi.hpp"

namespace thinmpi_test {

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
