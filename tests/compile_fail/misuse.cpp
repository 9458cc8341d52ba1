// Compile-failure tests: each section below is one misuse that must fail to compile with the
// diagnostic that tests/CMakeLists.txt expects. Each section is a function of its own, compiled
// alone (-DTHINMPI_CF_<SECTION>: a build that must fail) or all together (-DTHINMPI_CF_ALL: one
// build, whose errors check_batch.py sorts by the section whose lines they name). With no section
// defined the file compiles (the control), so a failure below is the section's own and not a
// broken include.

#include <complex>
#include <functional>
#include <list>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "thinmpi/thinmpi.hpp"

namespace {

struct with_string {
  int id;
  std::string name;
};

// A second such type: a compiler reports the failed instantiation for one type once, so the
// batch build (check_batch.py) sees this section's error only if its type is its own.
struct with_name {
  std::string name;
};

class private_members {
 public:
  [[nodiscard]] int value() const { return value_; }

 private:
  int value_ = 0;
};

union number {
  int i;
  float f;
};

struct with_pointer {
  int* p;
};

struct point {
  double x;
  double y;
};

}  // namespace

namespace sections {

#if defined(THINMPI_CF_ALL) || defined(THINMPI_CF_POINTER)
[[maybe_unused]] void cf_pointer(thinmpi::comm_view world) {
  int x = 0;
  world.send(&x, 1, 0);
}
#endif

#if defined(THINMPI_CF_ALL) || defined(THINMPI_CF_LIST)
[[maybe_unused]] void cf_list(thinmpi::comm_view world) {
  const std::list<int> values{1, 2};
  world.send(values, 1, 0);
}
#endif

#if defined(THINMPI_CF_ALL) || defined(THINMPI_CF_VECTOR_BOOL)
[[maybe_unused]] void cf_vector_bool(thinmpi::comm_view world) {
  const std::vector<bool> flags(3);
  world.send(flags, 1, 0);
}
#endif

#if defined(THINMPI_CF_ALL) || defined(THINMPI_CF_VECTOR_OF_STRINGS)
[[maybe_unused]] void cf_vector_of_strings(thinmpi::comm_view world) {
  const std::vector<std::string> names(2);
  world.send(names, 1, 0);
}
#endif

#if defined(THINMPI_CF_ALL) || defined(THINMPI_CF_NOT_TRIVIALLY_COPYABLE)
[[maybe_unused]] void cf_not_trivially_copyable(thinmpi::comm_view world) {
  world.send(with_string{}, 1, 0);
}
#endif

#if defined(THINMPI_CF_ALL) || defined(THINMPI_CF_STRUCT_NAMES_SERIALIZED)
[[maybe_unused]] void cf_struct_names_serialized(thinmpi::comm_view world) {
  world.send(with_name{}, 1, 0);
}
#endif

#if defined(THINMPI_CF_ALL) || defined(THINMPI_CF_NESTED_NAMES_SERIALIZED)
[[maybe_unused]] void cf_nested_names_serialized(thinmpi::comm_view world) {
  world.recv<std::vector<std::wstring>>(0, 0);
}
#endif

#if defined(THINMPI_CF_ALL) || defined(THINMPI_CF_SERIALIZE_POINTER)
[[maybe_unused]] void cf_serialize_pointer(thinmpi::comm_view world) {
  int x = 0;
  int* p = &x;
  world.send(thinmpi::serialized(p), 1, 0);
}
#endif

#if defined(THINMPI_CF_ALL) || defined(THINMPI_CF_SERIALIZE_UNSUPPORTED)
[[maybe_unused]] void cf_serialize_unsupported(thinmpi::comm_view world) {
  world.send(thinmpi::serialized(private_members{}), 1, 0);
}
#endif

#if defined(THINMPI_CF_ALL) || defined(THINMPI_CF_SERIALIZE_EMPTY_ELEMENTS)
[[maybe_unused]] void cf_serialize_empty_elements(thinmpi::comm_view world) {
  static_cast<void>(world.recv<thinmpi::serialized<std::vector<std::monostate>>>(0, 0));
}
#endif

#if defined(THINMPI_CF_ALL) || defined(THINMPI_CF_PRIVATE_MEMBERS)
[[maybe_unused]] void cf_private_members(thinmpi::comm_view world) {
  world.send(private_members{}, 1, 0);
}
#endif

#if defined(THINMPI_CF_ALL) || defined(THINMPI_CF_UNION)
[[maybe_unused]] void cf_union(thinmpi::comm_view world) {
  world.send(number{}, 1, 0);
}
#endif

#if defined(THINMPI_CF_ALL) || defined(THINMPI_CF_MEMBER_WITHOUT_DATATYPE)
[[maybe_unused]] void cf_member_without_datatype(thinmpi::comm_view world) {
  world.send(with_pointer{}, 1, 0);
}
#endif

#if defined(THINMPI_CF_ALL) || defined(THINMPI_CF_RECV_INTO_CONST)
[[maybe_unused]] void cf_recv_into_const(thinmpi::comm_view world) {
  const std::vector<int> values(3);
  world.recv(values, 0, 0);
}
#endif

#if defined(THINMPI_CF_ALL) || defined(THINMPI_CF_RECV_INTO_STRING_VIEW)
[[maybe_unused]] void cf_recv_into_string_view(thinmpi::comm_view world) {
  std::string_view view;
  world.recv(view, 0, 0);
}
#endif

#if defined(THINMPI_CF_ALL) || defined(THINMPI_CF_RECV_INTO_TEMPORARY)
[[maybe_unused]] void cf_recv_into_temporary(thinmpi::comm_view world) {
  world.recv(std::vector<int>(3), 0, 0);
}
#endif

#if defined(THINMPI_CF_ALL) || defined(THINMPI_CF_COPY_COMMUNICATOR)
[[maybe_unused]] void cf_copy_communicator(thinmpi::comm_view world) {
  thinmpi::communicator original = world.dup();
  thinmpi::communicator copy = original;
}
#endif

#if defined(THINMPI_CF_ALL) || defined(THINMPI_CF_DISCARDED_REQUEST)
[[maybe_unused]] void cf_discarded_request(thinmpi::comm_view world) {
  world.isend(1, 0, 0);
}
#endif

#if defined(THINMPI_CF_ALL) || defined(THINMPI_CF_ALLGATHER_MIXED_ELEMENTS)
[[maybe_unused]] void cf_allgather_mixed_elements(thinmpi::comm_view world) {
  std::vector<double> all(static_cast<std::size_t>(world.size()));
  world.allgather(world.rank(), all);
}
#endif

#if defined(THINMPI_CF_ALL) || defined(THINMPI_CF_ALLGATHER_INTO_TEMPORARY)
[[maybe_unused]] void cf_allgather_into_temporary(thinmpi::comm_view world) {
  world.allgather(1L, std::vector<long>(4));
}
#endif

#if defined(THINMPI_CF_ALL) || defined(THINMPI_CF_ALLTOALL_LIST)
[[maybe_unused]] void cf_alltoall_list(thinmpi::comm_view world) {
  const std::list<long> values{1, 2};
  static_cast<void>(world.alltoall(values));
}
#endif

#if defined(THINMPI_CF_ALL) || defined(THINMPI_CF_ALLTOALLV_INTO_CONST)
[[maybe_unused]] void cf_alltoallv_into_const(thinmpi::comm_view world) {
  const std::vector<int> counts(1, 1);
  const std::vector<double> into(1);
  world.alltoallv(std::vector<double>{1}, counts, into, counts);
}
#endif

#if defined(THINMPI_CF_ALL) || defined(THINMPI_CF_DISCARDED_IALLGATHERV)
[[maybe_unused]] void cf_discarded_iallgatherv(thinmpi::comm_view world) {
  world.iallgatherv(1, thinmpi::exchange_counts);
}
#endif

#if defined(THINMPI_CF_ALL) || defined(THINMPI_CF_REDUCE_PLUS_ON_STRUCT)
[[maybe_unused]] void cf_reduce_plus_on_struct(thinmpi::comm_view world) {
  static_cast<void>(world.allreduce(point{}, std::plus<>{}));
}
#endif

#if defined(THINMPI_CF_ALL) || defined(THINMPI_CF_REDUCE_BIT_AND_ON_DOUBLE)
[[maybe_unused]] void cf_reduce_bit_and_on_double(thinmpi::comm_view world) {
  static_cast<void>(world.allreduce(1.0, std::bit_and<>{}));
}
#endif

#if defined(THINMPI_CF_ALL) || defined(THINMPI_CF_REDUCE_LOGICAL_AND_ON_COMPLEX)
[[maybe_unused]] void cf_reduce_logical_and_on_complex(thinmpi::comm_view world) {
  static_cast<void>(world.allreduce(std::complex<double>{}, std::logical_and<>{}));
}
#endif

#if defined(THINMPI_CF_ALL) || defined(THINMPI_CF_REDUCE_MAX_ON_COMPLEX)
[[maybe_unused]] void cf_reduce_max_on_complex(thinmpi::comm_view world) {
  static_cast<void>(world.allreduce(std::complex<float>{}, thinmpi::max));
}
#endif

#if defined(THINMPI_CF_ALL) || defined(THINMPI_CF_REDUCE_MINLOC_ON_INT)
[[maybe_unused]] void cf_reduce_minloc_on_int(thinmpi::comm_view world) {
  static_cast<void>(world.allreduce(3, thinmpi::minloc));
}
#endif

#if defined(THINMPI_CF_ALL) || defined(THINMPI_CF_REDUCE_OTHER_TYPES_OPERATION)
[[maybe_unused]] void cf_reduce_other_types_operation(thinmpi::comm_view world) {
  static_cast<void>(world.allreduce(1.5, std::plus<int>{}));
}
#endif

#if defined(THINMPI_CF_ALL) || defined(THINMPI_CF_REDUCE_WRONG_SIGNATURE)
[[maybe_unused]] void cf_reduce_wrong_signature(thinmpi::comm_view world) {
  static_cast<void>(world.allreduce(1, [](int a) { return a; }));
}
#endif

#if defined(THINMPI_CF_ALL) || defined(THINMPI_CF_REDUCE_MIXED_ELEMENTS)
[[maybe_unused]] void cf_reduce_mixed_elements(thinmpi::comm_view world) {
  std::vector<double> totals(3);
  world.allreduce(std::vector<int>(3), totals, std::plus<>{});
}
#endif

#if defined(THINMPI_CF_ALL) || defined(THINMPI_CF_REDUCE_INIT_TEMPORARY)
[[maybe_unused]] void cf_reduce_init_temporary(thinmpi::comm_view world) {
  std::vector<int> totals(3);
  auto request = world.allreduce_init(std::vector<int>(3), totals, std::plus<>{});
}
#endif

#if defined(THINMPI_CF_ALL) || defined(THINMPI_CF_SCAN_INIT_TEMPORARY)
[[maybe_unused]] void cf_scan_init_temporary(thinmpi::comm_view world) {
  std::vector<long> mine(3);
  auto request = world.scan_init(mine, std::vector<long>(3), std::plus<>{});
}
#endif

#if defined(THINMPI_CF_ALL) || defined(THINMPI_CF_VARYING_WRONG_CONTAINER)
[[maybe_unused]] void cf_varying_wrong_container(thinmpi::comm_view world) {
  static_cast<void>(world.alltoallv<std::vector<double>>(std::vector<int>(2), std::vector<int>(2),
                                                         thinmpi::exchange_counts));
}
#endif

#if defined(THINMPI_CF_ALL) || defined(THINMPI_CF_SERIALIZED_WITHOUT_EXCHANGE_COUNTS)
[[maybe_unused]] void cf_serialized_without_exchange_counts(thinmpi::comm_view world) {
  const std::vector<std::string> names(2);
  static_cast<void>(world.allgather(thinmpi::serialized(names)));
}
#endif

#if defined(THINMPI_CF_ALL) || defined(THINMPI_CF_SERIALIZED_BCAST_INTO_CONST)
[[maybe_unused]] void cf_serialized_bcast_into_const(thinmpi::comm_view world) {
  const std::vector<std::string> names(2);
  world.bcast(thinmpi::serialized(names), 0, thinmpi::exchange_counts);
}
#endif

#if defined(THINMPI_CF_ALL) || defined(THINMPI_CF_SERIALIZED_RECV_REUSE_INTO_CONST)
[[maybe_unused]] void cf_serialized_recv_reuse_into_const(thinmpi::comm_view world) {
  const std::map<int, std::string> table;
  static_cast<void>(world.recv_reuse(thinmpi::serialized(table), 0, 0));
}
#endif

#if defined(THINMPI_CF_ALL) || defined(THINMPI_CF_SERIALIZED_RECV_REUSE_INTO_TEMPORARY)
[[maybe_unused]] void cf_serialized_recv_reuse_into_temporary(thinmpi::comm_view world) {
  static_cast<void>(world.recv_reuse(thinmpi::serialized(std::vector<with_name>{}), 0, 0));
}
#endif

#if defined(THINMPI_CF_ALL) || defined(THINMPI_CF_SERIALIZED_BCAST_WITHOUT_EXCHANGE_COUNTS)
[[maybe_unused]] void cf_serialized_bcast_without_exchange_counts(thinmpi::comm_view world) {
  // One error, the one naming the fix: not also "cannot receive into a temporary".
  std::map<int, std::string> table;
  world.bcast(thinmpi::serialized(table), 0);
}
#endif

#if defined(THINMPI_CF_ALL) || defined(THINMPI_CF_SERIALIZED_SCATTER_OF_ONE_VALUE)
[[maybe_unused]] void cf_serialized_scatter_of_one_value(thinmpi::comm_view world) {
  static_cast<void>(world.scatterv(thinmpi::serialized(42), 0, thinmpi::exchange_counts));
}
#endif

#if defined(THINMPI_CF_ALL) || defined(THINMPI_CF_NEIGHBOR_ALLTOALL_WITHOUT_TOPOLOGY)
[[maybe_unused]] void cf_neighbor_alltoall_without_topology(thinmpi::comm_view world) {
  std::vector<int> to_each(4);
  std::vector<int> from_each(4);
  world.neighbor_alltoall(to_each, from_each);
}
#endif

#if defined(THINMPI_CF_ALL) || defined(THINMPI_CF_RMA_PUT_OUTSIDE_EPOCH)
[[maybe_unused]] void cf_rma_put_outside_epoch(thinmpi::comm_view world) {
  // A window has no operations: they are members of an epoch, so none happens outside one.
  auto win = thinmpi::window<int>::allocate(world, 4);
  const int value = 1;
  win.put(value, 0, 0);
}
#endif

#if defined(THINMPI_CF_ALL) || defined(THINMPI_CF_RMA_ACCUMULATE_LAMBDA)
[[maybe_unused]] void cf_rma_accumulate_lambda(thinmpi::comm_view world) {
  // MPI allows only predefined operations in a one-sided accumulate.
  auto win = thinmpi::window<int>::allocate(world, 4);
  const int value = 1;
  auto epoch = win.lock_all();
  epoch.accumulate(value, 0, 0, [](int a, int b) { return a + b; });
}
#endif

#if defined(THINMPI_CF_ALL) || defined(THINMPI_CF_RMA_PUT_TEMPORARY)
[[maybe_unused]] void cf_rma_put_temporary(thinmpi::comm_view world) {
  // MPI reads the origin until a flush or the epoch's end; a temporary is gone by then.
  auto win = thinmpi::window<int>::allocate(world, 4);
  auto epoch = win.lock_all();
  epoch.put(42, 0, 0);
}
#endif

#if defined(THINMPI_CF_ALL) || defined(THINMPI_CF_RMA_RPUT_IN_FENCE)
[[maybe_unused]] void cf_rma_rput_in_fence(thinmpi::comm_view world) {
  // Request-based operations belong to passive-target epochs only. Issue 28: the first error
  // was "'void request' has incomplete type", thinmpi's sentence after it.
  auto win = thinmpi::window<int>::allocate(world, 4);
  const int value = 1;
  auto epoch = win.fence();
  auto request = epoch.rput(value, 0, 0);
  request.wait();
}
#endif

#if defined(THINMPI_CF_ALL) || defined(THINMPI_CF_RMA_RGET_IN_ACCESS_EPOCH)
[[maybe_unused]] void cf_rma_rget_in_access_epoch(thinmpi::comm_view world) {
  // The same in an access epoch (start).
  auto win = thinmpi::window<long>::allocate(world, 4);
  long into = 0;
  auto epoch = win.start({0});
  auto request = epoch.rget(into, 0, 0);
}
#endif

#if defined(THINMPI_CF_ALL) || defined(THINMPI_CF_RMA_FLUSH_IN_FENCE)
[[maybe_unused]] void cf_rma_flush_in_fence(thinmpi::comm_view world) {
  // A fence completes what a flush would; flushes belong to passive-target epochs.
  auto win = thinmpi::window<int>::allocate(world, 4);
  auto epoch = win.fence();
  epoch.flush();
}
#endif

#if defined(THINMPI_CF_ALL) || defined(THINMPI_CF_RMA_PUT_IN_EXPOSURE_EPOCH)
[[maybe_unused]] void cf_rma_put_in_exposure_epoch(thinmpi::comm_view world) {
  // An exposure epoch exposes this rank's window; the origins access it.
  auto win = thinmpi::window<int>::allocate(world, 4);
  const short value = 1;
  auto exposure = win.post({0});
  exposure.put(value, 0, 0);
}
#endif

#if defined(THINMPI_CF_ALL) || defined(THINMPI_CF_RMA_RGET_OUTSIDE_EPOCH)
[[maybe_unused]] void cf_rma_rget_outside_epoch(thinmpi::comm_view world) {
  // A request-based operation on the window itself, its result used.
  auto win = thinmpi::window<char>::allocate(world, 4);
  char into = 0;
  auto request = win.rget(into, 0, 0);
  request.wait();
}
#endif

#if defined(THINMPI_CF_ALL) || defined(THINMPI_CF_RMA_GET_INTO_TEMPORARY)
[[maybe_unused]] void cf_rma_get_into_temporary(thinmpi::comm_view world) {
  // MPI writes the result until the epoch ends; a temporary is gone by then.
  auto win = thinmpi::window<int>::allocate(world, 4);
  auto epoch = win.lock_all();
  epoch.get(std::vector<int>(2), 0, 0);
}
#endif

#if defined(THINMPI_CF_ALL) || defined(THINMPI_CF_RMA_RACCUMULATE_LAMBDA)
[[maybe_unused]] void cf_rma_raccumulate_lambda(thinmpi::comm_view world) {
  // The request form of a lambda accumulate, its request used.
  auto win = thinmpi::window<double>::allocate(world, 4);
  const double value = 1;
  auto epoch = win.lock_all();
  auto request = epoch.raccumulate(value, 0, 0, [](double a, double b) { return a * b; });
  request.wait();
}
#endif

#if defined(THINMPI_CF_ALL) || defined(THINMPI_CF_RMA_RPUT_WRONG_ELEMENT)
[[maybe_unused]] void cf_rma_rput_wrong_element(thinmpi::comm_view world) {
  // A request moving in a vector of another element type, its buffer handed back.
  auto win = thinmpi::window<int>::allocate(world, 4);
  auto epoch = win.lock_all();
  auto request = epoch.rput(std::vector<float>{1.5F}, 0, 0);
  std::vector<float> back = request.wait();
}
#endif

#if defined(THINMPI_CF_ALL) || defined(THINMPI_CF_RMA_WRONG_ELEMENT)
[[maybe_unused]] void cf_rma_wrong_element(thinmpi::comm_view world) {
  // A window of int takes ints.
  auto win = thinmpi::window<int>::allocate(world, 4);
  const double value = 1.5;
  auto epoch = win.lock_all();
  epoch.put(value, 0, 0);
}
#endif

#if defined(THINMPI_CF_ALL) || defined(THINMPI_CF_SPARSE_EXCHANGE_LIST)
[[maybe_unused]] void cf_sparse_exchange_list(thinmpi::comm_view world) {
  // A payload sparse_exchange cannot send: thinmpi's sentence is the first error (FIRST), and
  // the only one, in GCC 12 and clang 14 alike (issue 28: 130 lines, the sentence fifth).
  const std::vector<std::pair<int, std::list<unsigned short>>> out{{0, {1, 2}}};
  static_cast<void>(world.sparse_exchange(out, 1));
}
#endif

#if defined(THINMPI_CF_ALL) || defined(THINMPI_CF_INTERCOMM_INT_ROOT)
[[maybe_unused]] void cf_intercomm_int_root(thinmpi::inter_view inter) {
  // Which group holds root 0? The form must say: local_root(0) or remote_root(0).
  std::vector<short> values(4);
  inter.bcast(values, 0);
}
#endif

#if defined(THINMPI_CF_ALL) || defined(THINMPI_CF_INTERCOMM_SCAN)
[[maybe_unused]] void cf_intercomm_scan(thinmpi::inter_view inter) {
  // MPI defines no scan across the two groups of an intercommunicator.
  static_cast<void>(inter.scan(1U, std::plus<>{}));
}
#endif

// Sections for an MPI without MPI-4 only (tests/CMakeLists.txt adds them there).
#if MPI_VERSION < 4
#if defined(THINMPI_CF_ALL) || defined(THINMPI_CF_SESSION_WITHOUT_MPI4)
[[maybe_unused]] void cf_session_without_mpi4() {
  // Open MPI 4.1 (MPI 3.1) has no MPI_Session_init.
  thinmpi::session mine;
}
#endif

#if defined(THINMPI_CF_ALL) || defined(THINMPI_CF_PARTITIONED_WITHOUT_MPI4)
[[maybe_unused]] void cf_partitioned_without_mpi4(thinmpi::comm_view world) {
  // Open MPI 4.1 (MPI 3.1) has no MPI_Psend_init.
  std::vector<long> parts(8);
  static_cast<void>(world.psend_init(parts, 4, 0, 0));
}
#endif
#endif

}  // namespace sections

int main(int argc, char** argv) {
  thinmpi::environment env(argc, argv);
  auto world = thinmpi::world();
  // The control: the same kinds of calls, written correctly.
  {
    auto win = thinmpi::window<int>::allocate(world, 4);
    const int value = 1;
    auto epoch = win.lock_all();
    epoch.put(value, 0, 0);
    epoch.accumulate(value, 0, 1, std::plus<>{});
    auto owned = epoch.rput(std::vector<int>{1, 2}, 0, 2);
    static_cast<void>(owned.wait());
  }
  std::vector<std::string> names(2);
  world.bcast(thinmpi::serialized(names), 0, thinmpi::exchange_counts);
  static_cast<void>(world.allgatherv(thinmpi::serialized(names), thinmpi::exchange_counts));
  static_cast<void>(world.recv_reuse(thinmpi::serialized(names), world.rank(), 0));
  int x = 0;
  auto pointer_sent = world.isend(std::span(&x, 1), world.rank(), 0);
  world.recv(x, world.rank(), 0);
  pointer_sent.wait();
  thinmpi::communicator copy = world.dup();
  static_cast<void>(copy.size());
  std::vector<int> all(static_cast<std::size_t>(world.size()));
  world.allgather(world.rank(), all);
  auto gathered = world.iallgatherv(1, thinmpi::exchange_counts);
  static_cast<void>(gathered.wait());
  const std::vector<int> ones(static_cast<std::size_t>(world.size()), 1);
  std::vector<int> received(ones.size());
  world.alltoallv(ones, ones, received, ones);
  using ints = std::vector<int, thinmpi::default_init_allocator<int>>;
  static_cast<void>(world.alltoallv<ints>(ones, ones, thinmpi::exchange_counts));
  static_cast<void>(world.allreduce(point{}, [](const point& a, const point& b) {
    return point{a.x + b.x, a.y + b.y};
  }));
  static_cast<void>(world.allreduce(std::byte{1}, std::bit_and<>{}));
  static_cast<void>(world.allreduce(std::complex<double>{}, std::plus<>{}));
  static_cast<void>(world.allreduce(1.5, std::plus<double>{}));
  std::vector<int> totals(3);
  world.allreduce(std::vector<int>(3), totals, std::plus<>{});
  thinmpi::cartesian_communicator grid(world, {world.size()}, {true});
  std::vector<int> from_each(4);
  grid.neighbor_alltoall(std::vector<int>(4), from_each);
  return 0;
}
