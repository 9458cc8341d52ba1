/* The KaMPIng paper's first program in plain C MPI: every rank's vector, concatenated on every
 * rank, when no rank knows the others' lengths (MPI_Allgather of the counts, MPI_Allgatherv).
 * c/allgatherv/counts_exchanged times it; examples/allgatherv.cpp is the thinmpi version. */
#include <stdlib.h>

#include "programs.h"

int* wb_whole_vector(MPI_Comm comm, const int* v_local, int n, int* n_global) {
  //> START VECTOR_ALLGATHER C
  int size;
  MPI_Comm_size(comm, &size);
  int* counts = malloc((size_t)size * sizeof(int));
  int* displs = malloc((size_t)size * sizeof(int));
  MPI_Allgather(&n, 1, MPI_INT, counts, 1, MPI_INT, comm);
  int total = 0;
  for (int r = 0; r < size; ++r)
    displs[r] = total, total += counts[r];
  int* v_global = malloc((size_t)total * sizeof(int) + 1);
  MPI_Allgatherv(v_local, n, MPI_INT, v_global, counts, displs, MPI_INT, comm);
  free(counts), free(displs);
  *n_global = total;
  return v_global;
  //> END
}
