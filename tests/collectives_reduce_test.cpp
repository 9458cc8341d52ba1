// reduce, allreduce, reduce_local: every form against the same reduction computed with plain C
// MPI in the same test; the compile-time mapping of operations to MPI's predefined ones; user
// operations, stateless and stateful, commutative and not.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <complex>
#include <cstddef>
#include <functional>
#include <optional>
#include <span>
#include <stdexcept>
#include <vector>

#include "support/mpi_error_match.hpp"
#include "thinmpi/thinmpi.hpp"

namespace {

using thinmpi_test::throws_mpi_error;

/// A 2x2 integer matrix: multiplication is associative and not commutative, so a user op on it
/// shows whether contributions are combined in rank order.
struct matrix {
  long a, b, c, d;
};

matrix multiply(const matrix& x, const matrix& y) {
  return {x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d, x.c * y.a + x.d * y.c,
          x.c * y.b + x.d * y.d};
}

bool operator==(const matrix& x, const matrix& y) {
  return x.a == y.a && x.b == y.b && x.c == y.c && x.d == y.d;
}

/// Each rank's matrix: different on each rank, and no two of them commute.
matrix matrix_of(int rank) {
  return {1, rank + 1, 0, 1 + (rank % 2)};
}

/// The C MPI user function that thinmpi's user op must match: inout = in * inout.
void c_multiply(void* in, void* inout, int* len, MPI_Datatype*) {
  auto* left = static_cast<matrix*>(in);
  auto* right = static_cast<matrix*>(inout);
  for (int i = 0; i < *len; ++i)
    right[i] = multiply(left[i], right[i]);
}

matrix c_allreduce_product(const matrix& mine) {
  MPI_Op op = MPI_OP_NULL;
  MPI_Op_create(&c_multiply, 0, &op);
  matrix out{};
  MPI_Allreduce(&mine, &out, 1, thinmpi::datatype_of<matrix>(), op, MPI_COMM_WORLD);
  MPI_Op_free(&op);
  return out;
}

/// (a + b) % modulus: a stateful operation whose state the caller can change after a call.
struct sum_modulo {
  int modulus;
  int operator()(int a, int b) const { return (a + b) % modulus; }
};

/// The matrix product while key is 100, a zero matrix otherwise: an operation whose state
/// decides the result.
struct keyed_product {
  int key;
  matrix operator()(const matrix& x, const matrix& y) const {
    return key == 100 ? multiply(x, y) : matrix{};
  }
};

std::vector<int> c_allreduce(const std::vector<int>& mine, MPI_Op op) {
  std::vector<int> out(mine.size());
  MPI_Allreduce(mine.data(), out.data(), static_cast<int>(mine.size()), MPI_INT, op,
                MPI_COMM_WORLD);
  return out;
}

std::vector<int> contribution(int rank, std::size_t n = 5) {
  std::vector<int> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = rank * 10 + static_cast<int>(i) + 1;
  return v;
}

// The compile-time mapping: which (operation, element type) pairs are MPI's predefined ops.
using thinmpi::detail::is_builtin_op;
static_assert(is_builtin_op<std::plus<>, int>);
static_assert(is_builtin_op<std::plus<double>, double>);
static_assert(is_builtin_op<std::plus<>, std::complex<double>>);
static_assert(is_builtin_op<std::multiplies<>, unsigned long>);
static_assert(is_builtin_op<std::logical_and<>, bool>);
static_assert(is_builtin_op<std::logical_or<>, int>);
static_assert(is_builtin_op<std::bit_xor<>, std::byte>);
static_assert(is_builtin_op<std::bit_and<>, unsigned char>);
static_assert(is_builtin_op<thinmpi::min_op, double>);
static_assert(is_builtin_op<thinmpi::max_op, long long>);
static_assert(is_builtin_op<thinmpi::minloc_op, thinmpi::value_index<double>>);
static_assert(is_builtin_op<thinmpi::maxloc_op, thinmpi::value_index<int>>);
static_assert(is_builtin_op<thinmpi::commutative_op<std::plus<>>, int>);
static_assert(!is_builtin_op<std::plus<>, bool>);
static_assert(!is_builtin_op<std::plus<int>, double>);  // does not compile as a reduction
static_assert(!is_builtin_op<std::plus<>, char>);       // MPI_CHAR is not a reduction integer
static_assert(!is_builtin_op<std::bit_and<>, double>);
static_assert(!is_builtin_op<thinmpi::min_op, std::complex<float>>);
static_assert(!is_builtin_op<std::logical_and<>, std::complex<double>>);
static_assert(!is_builtin_op<thinmpi::minloc_op, thinmpi::value_index<unsigned>>);

TEST(BuiltinOps, MapToMpisPredefinedHandles) {
  using thinmpi::detail::builtin_op;
  EXPECT_EQ((builtin_op<std::plus<>, int>()), MPI_SUM);
  EXPECT_EQ((builtin_op<std::plus<float>, float>()), MPI_SUM);
  EXPECT_EQ((builtin_op<std::multiplies<>, double>()), MPI_PROD);
  EXPECT_EQ((builtin_op<std::logical_and<>, bool>()), MPI_LAND);
  EXPECT_EQ((builtin_op<std::logical_or<>, int>()), MPI_LOR);
  EXPECT_EQ((builtin_op<std::bit_and<>, unsigned>()), MPI_BAND);
  EXPECT_EQ((builtin_op<std::bit_or<>, std::byte>()), MPI_BOR);
  EXPECT_EQ((builtin_op<std::bit_xor<>, long>()), MPI_BXOR);
  EXPECT_EQ((builtin_op<thinmpi::min_op, double>()), MPI_MIN);
  EXPECT_EQ((builtin_op<thinmpi::max_op, short>()), MPI_MAX);
  EXPECT_EQ((builtin_op<thinmpi::minloc_op, thinmpi::value_index<float>>()), MPI_MINLOC);
  EXPECT_EQ((builtin_op<thinmpi::maxloc_op, thinmpi::value_index<long>>()), MPI_MAXLOC);
  // What a reduction call passes to MPI is the same handle.
  EXPECT_EQ(thinmpi::detail::bind_op<int>(std::plus<>{}).get(), MPI_SUM);
  EXPECT_EQ(thinmpi::detail::bind_op<double>(thinmpi::commutative(thinmpi::max)).get(), MPI_MAX);
  EXPECT_EQ(thinmpi::datatype_of<thinmpi::value_index<double>>(), MPI_DOUBLE_INT);
  EXPECT_EQ(thinmpi::datatype_of<thinmpi::value_index<int>>(), MPI_2INT);
}

TEST(UserOps, StatelessOpIsCreatedOncePerFunctionAndElementType) {
  const auto op = [](auto a, auto b) { return a - b; };
  const MPI_Op first = thinmpi::detail::bind_op<int>(op).get();
  EXPECT_NE(first, MPI_OP_NULL);
  EXPECT_EQ(thinmpi::detail::bind_op<int>(op).get(), first);
  EXPECT_NE(thinmpi::detail::bind_op<long>(op).get(), first);
  EXPECT_NE(thinmpi::detail::bind_op<int>(thinmpi::commutative(op)).get(), first);
}

TEST(Allreduce, ScalarMatchesC) {
  auto world = thinmpi::world();
  const int mine = world.rank() + 1;
  int expected = 0;
  MPI_Allreduce(&mine, &expected, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_EQ(world.allreduce(mine, std::plus<>{}), expected);
  int into = -1;
  world.allreduce(mine, into, std::plus<int>{});
  EXPECT_EQ(into, expected);
}

TEST(Allreduce, VectorFormsMatchC) {
  auto world = thinmpi::world();
  const std::vector<int> mine = contribution(world.rank());
  for (const auto& [name, op] : {std::pair{"max", MPI_MAX}, std::pair{"min", MPI_MIN}}) {
    SCOPED_TRACE(name);
    const std::vector<int> expected = c_allreduce(mine, op);
    const std::vector<int> allocated =
        op == MPI_MAX ? world.allreduce(mine, thinmpi::max) : world.allreduce(mine, thinmpi::min);
    EXPECT_EQ(allocated, expected);
  }
  const std::vector<int> sums = c_allreduce(mine, MPI_SUM);
  std::vector<int> into(mine.size() + 3, -1);  // larger: shrunk to what arrived
  world.allreduce(mine, into, std::plus<>{});
  EXPECT_EQ(into, sums);
  std::array<int, 5> fixed{};
  world.allreduce(std::span<const int>(mine), fixed, std::plus<>{});
  EXPECT_EQ(std::vector<int>(fixed.begin(), fixed.end()), sums);
  std::vector<int> in_place = mine;
  world.allreduce_in_place(in_place, std::plus<>{});
  EXPECT_EQ(in_place, sums);
  const std::vector<int> from_span = world.allreduce(std::span<const int>(mine), std::plus<>{});
  EXPECT_EQ(from_span, sums);
  const std::array<int, 2> pair{world.rank(), 1};
  const std::array<int, 2> pair_sum = world.allreduce(pair, std::plus<>{});
  EXPECT_EQ(pair_sum[1], world.size());
}

TEST(Allreduce, ZeroElements) {
  auto world = thinmpi::world();
  const std::vector<double> none;
  EXPECT_TRUE(world.allreduce(none, std::plus<>{}).empty());
  std::vector<double> into(2, 1.0);
  world.allreduce(none, into, [](double a, double b) { return a + b; });
  EXPECT_TRUE(into.empty());
  const auto at_root = world.reduce(none, std::plus<>{}, 0);
  EXPECT_EQ(at_root.has_value(), world.rank() == 0);
  if (at_root) {
    EXPECT_TRUE(at_root->empty());
  }
}

TEST(Allreduce, PredefinedOpsOnTheirTypes) {
  auto world = thinmpi::world();
  const int rank = world.rank();
  const int size = world.size();
  const std::complex<double> z{1.0, static_cast<double>(rank)};
  const std::complex<double> z_sum = world.allreduce(z, std::plus<>{});
  EXPECT_EQ(z_sum, std::complex<double>(size, size * (size - 1) / 2.0));
  EXPECT_EQ(world.allreduce(rank == 0, std::logical_or<>{}), true);
  EXPECT_EQ(world.allreduce(rank == 0, std::logical_and<>{}), size == 1);
  const std::byte bit{static_cast<unsigned char>(1u << rank)};
  EXPECT_EQ(world.allreduce(bit, std::bit_xor<>{}),
            std::byte{static_cast<unsigned char>((1u << size) - 1)});
  EXPECT_EQ(world.allreduce(2L, std::multiplies<>{}), 1L << size);
  const thinmpi::value_index<double> mine{static_cast<double>((rank * 7) % size), rank};
  const auto lowest = world.allreduce(mine, thinmpi::minloc);
  const auto highest = world.allreduce(mine, thinmpi::maxloc);
  struct {
    double value;
    int index;
  } c_low{}, c_high{};
  MPI_Allreduce(&mine, &c_low, 1, MPI_DOUBLE_INT, MPI_MINLOC, MPI_COMM_WORLD);
  MPI_Allreduce(&mine, &c_high, 1, MPI_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD);
  EXPECT_EQ(lowest.value, c_low.value);
  EXPECT_EQ(lowest.index, c_low.index);
  EXPECT_EQ(highest.value, c_high.value);
  EXPECT_EQ(highest.index, c_high.index);
}

TEST(Allreduce, NonCommutativeUserOpCombinesInRankOrderLikeC) {
  auto world = thinmpi::world();
  const matrix mine = matrix_of(world.rank());
  const matrix expected = c_allreduce_product(mine);
  EXPECT_EQ(world.allreduce(mine, [](const matrix& x, const matrix& y) { return multiply(x, y); }),
            expected);
  const std::vector<matrix> several(3, mine);
  const std::vector<matrix> products = world.allreduce(several, &multiply);
  for (const matrix& m : products)
    EXPECT_EQ(m, expected);
}

TEST(Allreduce, StatefulLambdaUsesThisCallsState) {
  auto world = thinmpi::world();
  const int mine = world.rank() + 3;
  int total = 0;
  MPI_Allreduce(&mine, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  for (const int modulus : {7, 5, 3, 7}) {
    const auto sum_mod = [modulus](int a, int b) { return (a + b) % modulus; };
    EXPECT_EQ(world.allreduce(mine % modulus, sum_mod), total % modulus);
    EXPECT_EQ(world.allreduce(mine % modulus, thinmpi::commutative(sum_mod)), total % modulus);
  }
}

TEST(Allreduce, ReceiveBufferTooSmallIsMpiErrCountOnEveryRank) {
  auto world = thinmpi::world();
  const std::vector<int> mine(4, 1);
  std::array<int, 3> small{};
  // Every rank's buffer is too small here, so every rank reduces into scratch and throws
  // (one rank's alone: collectives_consistency_test, allreduce_recv_too_small).
  try {
    world.allreduce(mine, small, std::plus<>{});
    FAIL() << "expected thinmpi::mpi_error";
  } catch (const thinmpi::mpi_error& e) {
    EXPECT_EQ(e.error_class(), MPI_ERR_COUNT);
    EXPECT_EQ(e.operation(), "MPI_Allreduce");
    EXPECT_NE(std::string(e.what()).find("the receive buffer of 3 x MPI_INT = 12 bytes is too "
                                         "small for 4 x MPI_INT = 16 bytes (the reduction's "
                                         "result)"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(world.allreduce(1, std::plus<>{}), world.size());  // still usable
}

TEST(Reduce, AllFormsMatchC) {
  auto world = thinmpi::world();
  const std::vector<int> mine = contribution(world.rank(), 4);
  for (int root = 0; root < world.size(); ++root) {
    SCOPED_TRACE(root);
    std::vector<int> expected(mine.size());
    MPI_Reduce(mine.data(), expected.data(), 4, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD);
    const bool is_root = world.rank() == root;

    const std::optional<std::vector<int>> allocated = world.reduce(mine, std::plus<>{}, root);
    ASSERT_EQ(allocated.has_value(), is_root);
    if (is_root) {
      EXPECT_EQ(*allocated, expected);
    }

    std::vector<int> into(is_root ? 9 : 0);  // a larger root buffer is shrunk; others unused
    world.reduce(mine, into, std::plus<>{}, root);
    if (is_root) {
      EXPECT_EQ(into, expected);
    }

    std::vector<int> in_place = mine;
    world.reduce_in_place(in_place, std::plus<>{}, root);
    EXPECT_EQ(in_place, is_root ? expected : mine);

    const auto product = world.reduce(matrix_of(world.rank()), &multiply, root);
    ASSERT_EQ(product.has_value(), is_root);
    const matrix c_product = c_allreduce_product(matrix_of(world.rank()));
    if (is_root) {
      EXPECT_EQ(*product, c_product);
    }
  }
}

// A root outside the communicator: the job ends (root_only_abort.reduce_root_outside_on_one);
// checked, every rank throws MPI_ERR_ROOT naming it (RootsOutsideTheCommunicator in
// collectives_consistency_checked_test).

TEST(Reduce, RootReceiveTooSmall) {
  auto world = thinmpi::world();
  const std::vector<int> mine(3, 1);
  for (int root = 0; root < world.size(); ++root) {
    SCOPED_TRACE(root);
    const bool is_root = world.rank() == root;
    std::vector<int> small(is_root ? 2 : 0);
    // Only the root's buffer counts: it reduces into scratch, then throws; every other rank
    // takes part and returns normally.
    if (is_root) {
      EXPECT_TRUE(throws_mpi_error([&] { world.reduce(mine, small, std::plus<>{}, root); },
                                   MPI_ERR_COUNT,
                                   "the receive buffer of 2 x MPI_INT = 8 bytes is too small for "
                                   "3 x MPI_INT = 12 bytes (the reduction's result)"));
    } else {
      EXPECT_NO_THROW(world.reduce(mine, small, std::plus<>{}, root));
    }
    EXPECT_EQ(world.allreduce(1, std::plus<>{}), world.size());
  }
}

TEST(ReduceLocal, MatchesMpiReduceLocal) {
  const std::vector<int> in{1, 2, 3};
  std::vector<int> inout{10, 20, 30};
  std::vector<int> expected = inout;
  MPI_Reduce_local(in.data(), expected.data(), 3, MPI_INT, MPI_SUM);
  thinmpi::reduce_local(in, inout, std::plus<>{});
  EXPECT_EQ(inout, expected);
  matrix product = matrix_of(1);
  thinmpi::reduce_local(matrix_of(0), product, &multiply);
  EXPECT_EQ(product, multiply(matrix_of(0), matrix_of(1)));
  int scale = 3;
  thinmpi::reduce_local(in, inout, [scale](int a, int b) { return a * scale + b; });
  EXPECT_EQ(inout, (std::vector<int>{expected[0] + 3, expected[1] + 6, expected[2] + 9}));
  std::vector<int> shorter(2);
  try {
    thinmpi::reduce_local(in, shorter, std::plus<>{});
    FAIL() << "expected thinmpi::mpi_error";
  } catch (const thinmpi::mpi_error& e) {
    EXPECT_EQ(e.error_class(), MPI_ERR_COUNT);
    EXPECT_NE(std::string(e.what()).find("inout holds 2 elements, in holds 3"), std::string::npos)
        << e.what();
  }
}

TEST(Iallreduce, AllFormsMatchC) {
  auto world = thinmpi::world();
  const std::vector<int> mine = contribution(world.rank());
  const std::vector<int> sums = c_allreduce(mine, MPI_SUM);
  auto allocated = world.iallreduce(mine, std::plus<>{});
  std::vector<int> borrowed_into(mine.size());
  auto borrowed = world.iallreduce(mine, borrowed_into, std::plus<>{});
  auto owned = world.iallreduce(std::vector<int>(mine), std::vector<int>(mine.size() + 1),
                                [](int a, int b) { return a + b; });
  std::vector<int> in_place = mine;
  auto in_place_request = world.iallreduce_in_place(in_place, std::plus<>{});
  auto moved_in_place = world.iallreduce_in_place(std::vector<int>(mine), std::plus<>{});
  EXPECT_EQ(allocated.wait(), sums);
  borrowed.wait();
  EXPECT_EQ(borrowed_into, sums);
  EXPECT_EQ(owned.wait(), sums);  // the moved-in receive buffer, shrunk, handed back
  in_place_request.wait();
  EXPECT_EQ(in_place, sums);
  EXPECT_EQ(moved_in_place.wait(), sums);
}

TEST(Iallreduce, TwoInFlightWithDifferentCapturedState) {
  auto world = thinmpi::world();
  const int mine = world.rank() + 3;
  const int total = world.allreduce(mine, std::plus<>{});  // 7, 12, 18 on 2, 3, 4 ranks
  // Moduli that no total above divides, so that a result computed with modulus 1 (0) differs.
  sum_modulo eleven{11};
  sum_modulo five{5};
  auto by_eleven = world.iallreduce(mine % 11, eleven);
  auto by_five = world.iallreduce(std::vector<int>(2, mine % 5), five);
  // The requests own copies of the operations: changing the caller's objects now (before the
  // reductions run, in the waits below) must not change what they compute.
  eleven.modulus = five.modulus = 1;
  EXPECT_EQ(by_five.wait(), std::vector<int>(2, total % 5));
  EXPECT_EQ(by_eleven.wait(), total % 11);
}

TEST(Ireduce, AllFormsMatchC) {
  auto world = thinmpi::world();
  const std::vector<int> mine = contribution(world.rank(), 3);
  const int root = world.size() - 1;
  const bool is_root = world.rank() == root;
  std::vector<int> expected(mine.size());
  MPI_Reduce(mine.data(), expected.data(), 3, MPI_INT, MPI_MAX, root, MPI_COMM_WORLD);
  auto allocated = world.ireduce(mine, thinmpi::max, root);
  std::vector<int> into(is_root ? 3 : 0);
  auto borrowed = world.ireduce(mine, into, thinmpi::max, root);
  std::vector<int> in_place = mine;
  auto in_place_request = world.ireduce_in_place(in_place, thinmpi::max, root);
  const std::optional<std::vector<int>> result = allocated.wait();
  ASSERT_EQ(result.has_value(), is_root);
  borrowed.wait();
  in_place_request.wait();
  if (is_root) {
    EXPECT_EQ(*result, expected);
    EXPECT_EQ(into, expected);
    EXPECT_EQ(in_place, expected);
  }
  // A stateful operation, changed by the caller after the call: the request owns a copy.
  keyed_product product_op{100};
  auto product = world.ireduce(matrix_of(world.rank()), product_op, root);
  product_op.key = 0;
  const matrix c_product = c_allreduce_product(matrix_of(world.rank()));
  const std::optional<matrix> got = product.wait();
  ASSERT_EQ(got.has_value(), is_root);
  if (is_root) {
    EXPECT_EQ(*got, c_product);
  }
}

TEST(Iallreduce, SizeErrorBeforeMpiIsCalled) {
  auto world = thinmpi::world();
  std::vector<int> small(1);
  EXPECT_TRUE(throws_mpi_error(
      [&] { static_cast<void>(world.iallreduce(std::vector<int>(2), small, std::plus<>{})); },
      MPI_ERR_COUNT,
      "the receive buffer of 1 x MPI_INT = 4 bytes is too small for 2 x MPI_INT = 8 bytes"));
  EXPECT_EQ(world.allreduce(1, std::plus<>{}), world.size());
}

TEST(UserOps, MoreStatefulReductionsInFlightThanSlotsIsAnError) {
  auto world = thinmpi::world();
  int one = 1;
  const auto op = [one](int a, int b) { return a + b * one; };
  std::vector<decltype(world.iallreduce(1, op))> requests;
  for (std::size_t i = 0; i < thinmpi::detail::op_slot_count; ++i)
    requests.push_back(world.iallreduce(1, op));
  try {
    auto extra = world.iallreduce(1, op);
    FAIL() << "expected thinmpi::mpi_error";
  } catch (const thinmpi::mpi_error& e) {
    EXPECT_EQ(e.error_class(), MPI_ERR_OP);
    EXPECT_NE(std::string(e.what()).find("in flight at once"), std::string::npos) << e.what();
  }
  for (auto& request : requests)
    EXPECT_EQ(request.wait(), world.size());
  requests.clear();
  EXPECT_EQ(world.allreduce(1, op), world.size());  // the slots were given back
}

#if THINMPI_HAS_PERSISTENT_COLLECTIVES
TEST(AllreduceInit, RoundsReduceTheCurrentContents) {
  auto world = thinmpi::world();
  std::vector<int> mine(4);
  std::vector<int> totals(4);
  std::vector<int> in_place(4);
  // The operation reads the caller's state (by reference) when each round runs: round 1 takes
  // the maximum, rounds 0 and 2 the sum.
  bool take_max = false;
  auto sum = world.allreduce_init(mine, totals, std::plus<>{});
  auto stateful = world.allreduce_in_place_init(
      in_place, [&take_max](int a, int b) { return take_max ? std::max(a, b) : a + b; });
  for (int round = 0; round < 3; ++round) {
    mine.assign(4, world.rank() + round);
    in_place = mine;
    take_max = round == 1;
    sum.start();
    sum.wait();
    EXPECT_EQ(totals, c_allreduce(mine, MPI_SUM));
    stateful.start();
    stateful.wait();
    EXPECT_EQ(in_place, c_allreduce(mine, take_max ? MPI_MAX : MPI_SUM)) << "round " << round;
  }
}

TEST(ReduceInit, RoundsReduceToRoot) {
  auto world = thinmpi::world();
  int mine = 0;
  int total = -1;
  auto sum = world.reduce_init(mine, total, std::plus<>{}, 0);
  for (int round = 1; round <= 3; ++round) {
    mine = world.rank() * round;
    int expected = 0;
    MPI_Reduce(&mine, &expected, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    sum.start();
    sum.wait();
    if (world.rank() == 0) {
      EXPECT_EQ(total, expected);
    }
  }
}
#endif

}  // namespace
