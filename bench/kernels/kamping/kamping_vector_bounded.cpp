// kamping/vector_bounded: send(send_buf(v)) / recv(recv_buf<no_resize>(v), recv_count(n)): the
// receive into a buffer of known size, as KaMPIng's README writes it (one MPI_Recv, no probe).
#include "kamping_adapter.hpp"
#include "kamping_variants.hpp"

const wb_variant wb_kamping_vector_bounded = wb_kamping::make_variant<
    wb_kamping::known_size<std::vector<int>, wb_cxx::int_vector, sizeof(int)>>("vector_bounded",
                                                                               "c/int_buffer", 0);
