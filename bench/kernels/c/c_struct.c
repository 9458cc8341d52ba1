/* c/struct: n wb_particle with a derived datatype (MPI_Type_create_struct, resized to the padded
 * size), the receiver knows the count. */
#include <stddef.h>

#include "c_kernel.h"
#include "c_variants.h"
#include "particle.h"

/* The particle datatype, committed; the caller frees it. */
static MPI_Datatype particle_type(void) {
  int lengths[4] = {3, 1, 1, 1};
  MPI_Aint offsets[4] = {offsetof(wb_particle, x), offsetof(wb_particle, mass),
                         offsetof(wb_particle, id), offsetof(wb_particle, species)};
  MPI_Datatype fields[4] = {MPI_DOUBLE, MPI_FLOAT, MPI_INT, MPI_SHORT};
  MPI_Datatype packed, resized;
  MPI_Type_create_struct(4, lengths, offsets, fields, &packed);
  MPI_Type_create_resized(packed, 0, (MPI_Aint)sizeof(wb_particle), &resized);
  MPI_Type_free(&packed);
  MPI_Type_commit(&resized);
  return resized;
}

/* Writes the particle pattern into a zeroed buffer (padding stays zero on both ranks). */
static void fill_particles(unsigned char* buffer, size_t bytes) {
  wb_particle* particles = (wb_particle*)(void*)buffer;
  for (size_t i = 0; i < bytes / sizeof(wb_particle); ++i)
    particles[i] = wb_particle_at((long)i);
}

static void* setup(MPI_Comm comm, size_t count) {
  return wb_c_setup(comm, count, particle_type(), sizeof(wb_particle), fill_particles);
}

static void teardown(void* state) {
  MPI_Type_free(&((wb_c_state*)state)->type);
  wb_c_teardown(state);
}

const wb_variant wb_c_struct = {"c",
                                "struct",
                                NULL,
                                sizeof(wb_particle),
                                0,
                                setup,
                                wb_c_known_count_round_trips,
                                wb_c_verify_received,
                                teardown};
