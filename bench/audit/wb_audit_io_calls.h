/* The MPI-IO calls that wb_audit counts (the io suite), as X-macro lists:
 * X(name, parameters, arguments), counted like WB_CALLS of wb_audit_calls.h. With them every
 * ratio of the io suite is explained by the calls behind it: a thinmpi::file read or write
 * should be exactly C's call (one MPI_File_write_at per write_at, ...).
 * WB_IO_CALLS_C: the MPI-4 large-count forms, where mpi.h declares them (MPICH 4's ROMIO). */
#ifndef WB_AUDIT_IO_CALLS_H
#define WB_AUDIT_IO_CALLS_H

#include <mpi.h>

/* A write and a read of one kind (`kind`: _at, _at_all, _shared, ... or nothing) as
 * X(File_write<kind><suffix>, ...) and X(File_read<kind><suffix>, ...) with counts of
 * `count_type`; WB_IO_AT_PAIR for the kinds at an explicit offset. */
#define WB_IO_AT_PAIR(X, kind, suffix, count_type)                                          \
  X(File_write##kind##suffix,                                                               \
    (MPI_File f, MPI_Offset o, const void* b, count_type n, MPI_Datatype t, MPI_Status* s), \
    (f, o, b, n, t, s))                                                                     \
  X(File_read##kind##suffix,                                                                \
    (MPI_File f, MPI_Offset o, void* b, count_type n, MPI_Datatype t, MPI_Status* s),       \
    (f, o, b, n, t, s))
#define WB_IO_PAIR(X, kind, suffix, count_type)                                                  \
  X(File_write##kind##suffix,                                                                    \
    (MPI_File f, const void* b, count_type n, MPI_Datatype t, MPI_Status* s), (f, b, n, t, s))   \
  X(File_read##kind##suffix, (MPI_File f, void* b, count_type n, MPI_Datatype t, MPI_Status* s), \
    (f, b, n, t, s))

/* The data calls, each as X(File_<call><suffix>, ...) with counts of `count_type`: once with
 * int, once as the _c forms with MPI_Count. */
#define WB_IO_DATA_CALLS(X, suffix, count_type) \
  WB_IO_AT_PAIR(X, _at, suffix, count_type)     \
  WB_IO_AT_PAIR(X, _at_all, suffix, count_type) \
  WB_IO_PAIR(X, , suffix, count_type)           \
  WB_IO_PAIR(X, _shared, suffix, count_type)    \
  WB_IO_PAIR(X, _ordered, suffix, count_type)

#define WB_IO_CALLS(X)                                                                       \
  WB_IO_DATA_CALLS(X, , int)                                                                 \
  X(File_open, (MPI_Comm c, const char* p, int m, MPI_Info i, MPI_File* f), (c, p, m, i, f)) \
  X(File_close, (MPI_File * f), (f))                                                         \
  X(File_delete, (const char* p, MPI_Info i), (p, i))                                        \
  X(File_set_view,                                                                           \
    (MPI_File f, MPI_Offset d, MPI_Datatype e, MPI_Datatype t, const char* r, MPI_Info i),   \
    (f, d, e, t, r, i))                                                                      \
  X(File_seek, (MPI_File f, MPI_Offset o, int w), (f, o, w))                                 \
  X(File_seek_shared, (MPI_File f, MPI_Offset o, int w), (f, o, w))                          \
  X(File_sync, (MPI_File f), (f))                                                            \
  X(File_get_size, (MPI_File f, MPI_Offset * s), (f, s))                                     \
  X(File_get_byte_offset, (MPI_File f, MPI_Offset o, MPI_Offset * d), (f, o, d))             \
  X(File_get_position, (MPI_File f, MPI_Offset * o), (f, o))                                 \
  X(File_get_position_shared, (MPI_File f, MPI_Offset * o), (f, o))

#if MPI_VERSION >= 4
#define WB_IO_CALLS_C(X) WB_IO_DATA_CALLS(X, _c, MPI_Count)
#else
#define WB_IO_CALLS_C(X)
#endif

#endif /* WB_AUDIT_IO_CALLS_H */
