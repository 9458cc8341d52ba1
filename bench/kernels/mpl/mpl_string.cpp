// mpl/string: send(text, dest, tag) / recv(text, source, tag) on a std::string (MPL's
// STL-container path: MPI_Mprobe + MPI_Get_count + resize + MPI_Mrecv).
#include <string>

#include "mpl_adapter.hpp"
#include "mpl_variants.hpp"

const wb_variant wb_mpl_string =
    wb_mpl::make_variant<wb_mpl::whole<std::string, wb_cxx::letters, 1>>("string", "c/char_mprobe",
                                                                         0);
