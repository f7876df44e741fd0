/* Encoding tables: rows of positions, columns laid out as one of the four
   layouts, values rounded to float32 or kept in float64. */
#ifndef PE_TABLE_H
#define PE_TABLE_H

#include <stdint.h>

#include "enums.h"
#include "status.h"

/* out[row * dim + col] for rows at positions[row], or at start + row when
   positions is null. The angle of pair i is position * (scale * omega[i]),
   formed in double; every value is multiplied by amplitude and rounded once.
   omega holds pe_frequency_count(dim, odd_dim) frequencies. */
PE_EXPORT int32_t pe_table_f32(float *out, const double *positions,
                               uint32_t count, double start, uint32_t dim,
                               int32_t layout, int32_t odd_dim,
                               const double *omega, uint32_t n_omega,
                               double scale, double amplitude);
PE_EXPORT int32_t pe_table_f64(double *out, const double *positions,
                               uint32_t count, double start, uint32_t dim,
                               int32_t layout, int32_t odd_dim,
                               const double *omega, uint32_t n_omega,
                               double scale, double amplitude);

#endif
