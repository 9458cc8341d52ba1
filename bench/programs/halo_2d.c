/* A 2D Jacobi heat equation in plain C MPI: the steady temperature of a plate whose top edge is
 * held at 1 and whose other edges are held at 0, on a grid of ranks made by MPI_Dims_create and
 * MPI_Cart_create. Each rank owns an n x n block of the plate with a one-cell halo around it;
 * every sweep exchanges the halos with the four neighbours (four MPI_Sendrecv: the rows are
 * contiguous, the columns one MPI_Type_vector), updates the block, and adds up the change
 * (MPI_Allreduce). The grid is not periodic: a rank on the plate's edge has MPI_PROC_NULL there,
 * so its halo on that side keeps the fixed boundary temperature. The baseline of
 * thinmpi/halo_2d/program (examples/halo_2d.hpp), which uses the same formulas. */
#include <stdlib.h>
#include <string.h>

#include "programs.h"

/* The Cartesian grid of ranks, this rank's neighbours and the column datatype. */
typedef struct halo_grid {
  MPI_Comm comm;
  int dims[2], coords[2];
  int up, down, left, right;
  MPI_Datatype column;
} halo_grid;

//> START HALO C
static halo_grid make_grid(MPI_Comm comm, int n) {
  halo_grid g = {MPI_COMM_NULL, {0, 0}, {0, 0}, 0, 0, 0, 0, MPI_DATATYPE_NULL};
  int size, rank, periods[2] = {0, 0};
  MPI_Comm_size(comm, &size);
  MPI_Dims_create(size, 2, g.dims);
  MPI_Cart_create(comm, 2, g.dims, periods, 0, &g.comm);
  MPI_Comm_rank(g.comm, &rank);
  MPI_Cart_coords(g.comm, rank, 2, g.coords);
  MPI_Cart_shift(g.comm, 0, 1, &g.up, &g.down);
  MPI_Cart_shift(g.comm, 1, 1, &g.left, &g.right);
  MPI_Type_vector(n, 1, n + 2, MPI_DOUBLE, &g.column);
  MPI_Type_commit(&g.column);
  return g;
}

// Fills the halo of u ((n + 2) x (n + 2), row-major) from the four neighbours.
static void exchange_halos(const halo_grid* g, double* u, int n) {
  int w = n + 2;
  MPI_Sendrecv(&u[w + 1], n, MPI_DOUBLE, g->up, 0, &u[(n + 1) * w + 1], n, MPI_DOUBLE, g->down, 0,
               g->comm, MPI_STATUS_IGNORE);
  MPI_Sendrecv(&u[n * w + 1], n, MPI_DOUBLE, g->down, 1, &u[1], n, MPI_DOUBLE, g->up, 1, g->comm,
               MPI_STATUS_IGNORE);
  MPI_Sendrecv(&u[w + 1], 1, g->column, g->left, 2, &u[w + n + 1], 1, g->column, g->right, 2,
               g->comm, MPI_STATUS_IGNORE);
  MPI_Sendrecv(&u[w + n], 1, g->column, g->right, 3, &u[w], 1, g->column, g->left, 3, g->comm,
               MPI_STATUS_IGNORE);
}
//> END

/* One Jacobi sweep of the block from u into next; returns the sum of the changes. */
static double sweep(const double* u, double* next, int n) {
  int w = n + 2;
  double change = 0;
  for (int i = 1; i <= n; ++i)
    for (int j = 1; j <= n; ++j) {
      double v =
          0.25 * (u[(i - 1) * w + j] + u[(i + 1) * w + j] + u[i * w + j - 1] + u[i * w + j + 1]);
      double d = v - u[i * w + j];
      change += d < 0 ? -d : d;
      next[i * w + j] = v;
    }
  return change;
}

/* Cell (row, col) of `rows` x `cols` local cells whose first interior cell is the plate's
 * (first_row, first_col): the starting temperature inside, the fixed one on the plate's edge. */
static void fill(double* u, int rows, int cols, int first_row, int first_col, int plate_rows,
                 int plate_cols) {
  for (int i = 0; i < rows + 2; ++i)
    for (int j = 0; j < cols + 2; ++j)
      u[i * (cols + 2) + j] =
          wb_halo_initial(first_row + i - 1, first_col + j - 1, plate_rows, plate_cols);
}

typedef struct halo_state {
  halo_grid grid;
  int n, steps;
  double *u, *next, *expected;
  int iterations;
} halo_state;

/* The plate computed by one rank alone, the same number of sweeps: this rank's block of it. */
static void sequential(halo_state* s) {
  int rows = s->grid.dims[0] * s->n, cols = s->grid.dims[1] * s->n;
  size_t cells = (size_t)(rows + 2) * (size_t)(cols + 2);
  double* u = malloc(cells * sizeof(double));
  double* next = malloc(cells * sizeof(double));
  fill(u, rows, cols, 0, 0, rows, cols);
  memcpy(next, u, cells * sizeof(double));
  for (int k = 0; k < s->steps; ++k) {
    for (int i = 1; i <= rows; ++i)
      for (int j = 1; j <= cols; ++j)
        next[i * (cols + 2) + j] =
            0.25 * (u[(i - 1) * (cols + 2) + j] + u[(i + 1) * (cols + 2) + j] +
                    u[i * (cols + 2) + j - 1] + u[i * (cols + 2) + j + 1]);
    double* t = u;
    u = next, next = t;
  }
  for (int i = 0; i < s->n; ++i)
    memcpy(&s->expected[i * s->n],
           &u[(s->grid.coords[0] * s->n + i + 1) * (cols + 2) + s->grid.coords[1] * s->n + 1],
           (size_t)s->n * sizeof(double));
  free(u), free(next);
}

static void* setup(MPI_Comm comm, size_t count) {
  halo_state* s = calloc(1, sizeof *s);
  if (!s || count == 0 || count > 4096) return free(s), NULL;
  s->n = (int)count, s->steps = WB_HALO_STEPS;
  s->grid = make_grid(comm, s->n);
  size_t cells = (count + 2) * (count + 2);
  s->u = malloc(cells * sizeof(double));
  s->next = malloc(cells * sizeof(double));
  s->expected = malloc(count * count * sizeof(double));
  if (!s->u || !s->next || !s->expected) return NULL;
  sequential(s);
  return s;
}

/* The program: the plate from its starting temperatures, sweeps until the total change is below
 * the tolerance or WB_HALO_STEPS sweeps are done. */
static void call(void* p) {
  halo_state* s = p;
  int n = s->n;
  fill(s->u, n, n, s->grid.coords[0] * n, s->grid.coords[1] * n, s->grid.dims[0] * n,
       s->grid.dims[1] * n);
  memcpy(s->next, s->u, (size_t)(n + 2) * (size_t)(n + 2) * sizeof(double));
  double total = 1;
  for (s->iterations = 0; s->iterations < s->steps && total > WB_HALO_TOLERANCE; ++s->iterations) {
    exchange_halos(&s->grid, s->u, n);
    double change = sweep(s->u, s->next, n);
    MPI_Allreduce(&change, &total, 1, MPI_DOUBLE, MPI_SUM, s->grid.comm);
    double* t = s->u;
    s->u = s->next, s->next = t;
  }
}

static int verify(void* p) {
  halo_state* s = p;
  int w = s->n + 2;
  if (s->iterations != s->steps) return 1;
  for (int i = 0; i < s->n; ++i)
    for (int j = 0; j < s->n; ++j)
      if (s->u[(i + 1) * w + j + 1] != s->expected[i * s->n + j]) return 1;
  return 0;
}

static void teardown(void* p) {
  halo_state* s = p;
  MPI_Type_free(&s->grid.column);
  MPI_Comm_free(&s->grid.comm);
  free(s->u), free(s->next), free(s->expected), free(s);
}

const wb_coll_variant wb_c_halo_2d = {"c",   "halo_2d", "program", NULL,    WB_COLL_PROGRAM,
                                      setup, call,      verify,    teardown};
