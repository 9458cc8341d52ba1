/* The kernels' tables, declared once for the three kinds of variant: the ping-pong harness's
 * (variant.h), the collectives harness's (coll_variant.h) and the io harness's (io_variant.h),
 * which include this header. Each kernel translation unit exports its table, a function of its
 * kind's table type: it sets *table to its variants and returns how many. */
#ifndef WB_VARIANT_TABLES_H
#define WB_VARIANT_TABLES_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct wb_variant wb_variant;           /* variant.h */
typedef struct wb_coll_variant wb_coll_variant; /* coll_variant.h */
typedef struct wb_io_variant wb_io_variant;     /* io_variant.h */

typedef size_t wb_variant_table(const wb_variant** table);
typedef size_t wb_coll_variant_table(const wb_coll_variant** table);
typedef size_t wb_io_variant_table(const wb_io_variant** table);

/* Ping-pong: the C, thinmpi and Boost.MPI kernels; the peers' (kamping_variants.cpp,
 * mpl_variants.cpp; bench/cmake/WbPeers.cmake); the serialization suite's C++ kernels
 * (thinmpi_serial_kernels.cpp, boost_serial.cpp); the node suite's (c_node.c, thinmpi_node.cpp),
 * in wb_node only (the node harness). */
wb_variant_table wb_c_variants, wb_thinmpi_variants, wb_boost_variants, wb_kamping_variants,
    wb_mpl_variants, wb_thinmpi_serial_variants, wb_boost_serial_variants, wb_c_node_variants,
    wb_thinmpi_node_variants;

/* Collectives: the C, thinmpi and Boost.MPI kernels; the peers' (kamping_coll.cpp, mpl_coll.cpp;
 * bench/cmake/WbPeers.cmake) and their own sample-sort applications (kamping_sample_sort.cpp,
 * mpl_sample_sort.cpp); the neighbors harness's (neighborhood collectives, the halo program,
 * the sparse exchange); the rma harness's (one-sided operations, the counter and histogram
 * programs). */
wb_coll_variant_table wb_c_coll_variants, wb_thinmpi_coll_variants, wb_boost_coll_variants,
    wb_kamping_coll_variants, wb_mpl_coll_variants, wb_kamping_program_variants,
    wb_mpl_program_variants, wb_c_neighbor_variants, wb_thinmpi_neighbor_variants,
    wb_c_rma_variants, wb_thinmpi_rma_variants;

/* io: C MPI-IO (io_c.c), POSIX (io_posix.c), thinmpi::file (thinmpi_io.cpp). */
wb_io_variant_table wb_c_io_variants, wb_posix_io_variants, wb_thinmpi_io_variants;

#ifdef __cplusplus
}
#endif

#endif /* WB_VARIANT_TABLES_H */
