/* The linear relation PE(p + k) = R(k) PE(p) and rotary position embedding:
   both rotate pairs of columns by angles formed in double, row by row. */
#ifndef PE_ROTATION_H
#define PE_ROTATION_H

#include <stdint.h>

#include "bounds.h"
#include "enums.h"
#include "status.h"

/* out[row] = R(k_row) in[row] for count rows of dim values, k_row =
   offsets[row], or `offset` for every row when offsets is null. R(k) maps
   the table row at p (layout, odd_dim, omega, scale as in pe_table_f32) to
   the row at p + k: on each (sin, cos) pair it is the rotation by -k*scale*w
   (by +k*scale*w for cos-first layouts). An odd dim needs PE_ODD_ZERO_PAD,
   whose zero column R leaves as it is; an extra sin column has no partner and
   is refused. out may equal in (in place) but not overlap it otherwise. */
PE_EXPORT int32_t pe_rotate_f32(float *out, const float *in, uint32_t count,
                                uint32_t dim, const double *offsets,
                                double offset, int32_t layout, int32_t odd_dim,
                                const double *omega, uint32_t n_omega,
                                double scale);
PE_EXPORT int32_t pe_rotate_f64(double *out, const double *in, uint32_t count,
                                uint32_t dim, const double *offsets,
                                double offset, int32_t layout, int32_t odd_dim,
                                const double *omega, uint32_t n_omega,
                                double scale);
/* The same on IEEE half bits: each value turned in double, rounded once. */
PE_EXPORT int32_t pe_rotate_f16(uint16_t *out, const uint16_t *in,
                                uint32_t count, uint32_t dim,
                                const double *offsets, double offset,
                                int32_t layout, int32_t odd_dim,
                                const double *omega, uint32_t n_omega,
                                double scale);

/* The rule on RoPE's dims, which every RoPE function checks first: the head
   dim in [1, PE_MAX_DIM], the rotary part even, >= 2 and <= dim. */
PE_EXPORT int32_t pe_rope_dims(uint32_t dim, uint32_t rotary);

/* Rotary position embedding of count rows of dim values of `dtype` (enum
   pe_cache_dtype: float32, float64, or float16 as IEEE half bits). The
   first `rotary` columns of each row (even, 2 <= rotary <= dim) form
   rotary / 2 pairs of `pairing`; each (x, y) becomes
   (x cos a - y sin a, y cos a + x sin a), a = position * scale * omega[i],
   cos and sin times `amplitude` (finite: a rope type's attention factor),
   computed in double and rounded once to dtype; the other columns are
   copied. Rows come in groups of `repeat` (the heads of one token, which
   share a position; count a multiple of it): positions[group] for
   count / repeat groups, or `position` for every row when positions is
   null. The rows of a group are `span` rows apart: row r of group g is row
   (g / span) * span * repeat + r * span + g % span (span 1: consecutive,
   a batch x seq x heads tensor; span seq: a batch x heads x seq one, whose
   groups are then a multiple of span). omega holds rotary / 2
   frequencies. out may equal in. */
PE_EXPORT int32_t pe_rope(void *out, const void *in, int32_t dtype,
                          uint32_t count, uint32_t dim, uint32_t rotary,
                          uint32_t repeat, uint32_t span,
                          const double *positions, double position,
                          int32_t pairing, const double *omega,
                          uint32_t n_omega, double scale, double amplitude);

/* pe_rope with M-RoPE's three position streams: pair i of a row in group g
   is at positions[3 * g + streams[i]] (each group's t, h, w; streams from
   pe_mrope_streams, rotary / 2 of them). */
PE_EXPORT int32_t pe_rope_streams(void *out, const void *in, int32_t dtype,
                                  uint32_t count, uint32_t dim, uint32_t rotary,
                                  uint32_t repeat, uint32_t span,
                                  const double *positions,
                                  const uint8_t *streams, int32_t pairing,
                                  const double *omega, uint32_t n_omega,
                                  double scale, double amplitude);

/* The dense dim x dim matrix R(offset), row-major, dim <= PE_MAX_MATRIX_DIM. */
PE_EXPORT int32_t pe_rotation_matrix_f64(double *out, double offset,
                                         uint32_t dim, int32_t layout,
                                         int32_t odd_dim, const double *omega,
                                         uint32_t n_omega, double scale);

#endif
