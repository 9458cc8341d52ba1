// mpl/vector_container: send(v, dest, tag) / recv(v, source, tag) on the std::vector itself,
// MPL's STL-container convenience (stl_container.cc): MPI_Mprobe + MPI_Get_count + resize +
// MPI_Mrecv on the receiving side, a vector_layout datatype built for each send.
#include "mpl_adapter.hpp"
#include "mpl_variants.hpp"

const wb_variant wb_mpl_vector_container =
    wb_mpl::make_variant<wb_mpl::whole<std::vector<int>, wb_cxx::int_vector, sizeof(int)>>(
        "vector_container", "c/mprobe", 0);
