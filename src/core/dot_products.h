/* The relative-only dot product: <PE(m), PE(n)> = g(m - n) with
   g(k) = <PE(0), PE(k)> = sum_i cos(k w_i), and the check that a table's Gram
   matrix really is Toeplitz. */
#ifndef PE_DOT_PRODUCTS_H
#define PE_DOT_PRODUCTS_H

#include <stdint.h>

#include "status.h"

/* out[j] = amplitude^2 <PE(0), PE(k_j)> for k_j = offsets[j], or from +
   j * step when offsets is null; the angle is k * scale * w_i as in
   pe_table_f64. Computed from the columns: a (sin, cos) pair gives
   sin(0) sin(kw) + cos(0) cos(kw) = cos(kw); an extra sin column gives
   sin(0) sin(k w_h) = 0, a zero column 0. */
PE_EXPORT int32_t pe_dot_products(double *out, const double *offsets,
                                  uint32_t count, double from, double step,
                                  uint32_t dim, int32_t odd_dim,
                                  const double *omega, uint32_t n_omega,
                                  double scale, double amplitude);

/* Compares the Gram matrix G[a][b] = <row a, row b> of a table (count rows
   of dim values) with expected values: g[a - b + count - 1] when toeplitz is
   nonzero (2 count - 1 entries), else g[a * count + b] (count^2 entries).
   result[0] = max |G - expected|, result[1], result[2] = its rows a, b. */
PE_EXPORT int32_t pe_gram_deviation_f64(double *result, const double *table,
                                        uint32_t count, uint32_t dim,
                                        const double *g, int32_t toeplitz);
PE_EXPORT int32_t pe_gram_deviation_f32(double *result, const float *table,
                                        uint32_t count, uint32_t dim,
                                        const double *g, int32_t toeplitz);

#endif
