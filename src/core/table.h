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

/* What each of the dim columns of a table row holds, in out[dim]: 2i for
   the sin of pair i, 2i + 1 for its cos, -1 for the zero column of
   PE_ODD_ZERO_PAD (the extra sin of PE_ODD_EXTRA_SIN is the sin of pair
   dim / 2). The kernels place their values by the same rule. */
PE_EXPORT int32_t pe_table_columns_of(int32_t *out, uint32_t dim,
                                      int32_t layout, int32_t odd_dim);

#endif
