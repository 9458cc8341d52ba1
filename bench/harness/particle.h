/* The struct payload of c/struct and thinmpi/struct: the same layout from C and C++.
 *
 * Its 34 bytes of fields are padded to 40 by the compiler, so a correct MPI datatype for it must be
 * resized to sizeof(wb_particle) (MPI_Type_create_resized), which is what the struct kernels test.
 */
#ifndef WB_PARTICLE_H
#define WB_PARTICLE_H

typedef struct wb_particle {
  double x, y, z;
  float mass;
  int id;
  short species;
} wb_particle;

/* The value of element `index` of every struct payload, so both ranks can verify what they got. */
static inline wb_particle wb_particle_at(long index) {
  wb_particle p;
  p.x = (double)index;
  p.y = (double)index + 0.5;
  p.z = -(double)index;
  p.mass = (float)index * 0.25f;
  p.id = (int)index;
  p.species = (short)(index % 7);
  return p;
}

#endif /* WB_PARTICLE_H */
