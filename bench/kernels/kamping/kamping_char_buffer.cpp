// kamping/char_buffer: send(send_buf(v)) / recv(recv_buf<no_resize>(v), recv_count(n)) on a
// std::vector<char> of known size: the OSU sweep's path (osu_latency's MPI_CHAR buffer), written
// as KaMPIng's README writes a receive into a buffer of known size (one MPI_Recv, no probe).
#include "kamping_adapter.hpp"
#include "kamping_variants.hpp"

const wb_variant wb_kamping_char_buffer =
    wb_kamping::make_variant<wb_kamping::known_size<std::vector<char>, wb_cxx::char_vector, 1>>(
        "char_buffer", "c/char_buffer", 0);
