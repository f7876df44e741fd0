#include "dot_products.h"

#include <math.h>
#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>

#include "angles.h"
#include "frequencies.h"
#include "status.h"

/* Evenly spaced offsets: each pair's cos(a + t v), v = step * w, follows
   Reinsch's form of the three-term recurrence, stable for small v:
   y <- sigma y + lambda c, c <- y + sigma c, with sigma = sign(cos v),
   lambda = 2 cos v - 2 sigma and y = c_t - sigma c_(t-1). For sigma = +1
   that is one multiply and two adds per pair and offset, against four
   multiplies and two adds for the rotation of (sin, cos). Each PE_CHUNK of
   offsets restarts from exact values. Eight pairs at a time stay in
   registers while a chunk's partial sums (PE_CHUNK vectors, 4 KiB) stay in L1.
 */
#define PE_CHUNK 256

/* Frequencies i, i + 1 times scale, and a mask that zeroes lanes >= h. */
static inline v128_t pair_w(const double *omega, uint32_t i, uint32_t h,
                            double scale, v128_t *mask) {
  double w0 = i < h ? scale * omega[i] : 0;
  double w1 = i + 1 < h ? scale * omega[i + 1] : 0;
  *mask = wasm_f64x2_make(i < h, i + 1 < h);
  return wasm_f64x2_make(w0, w1);
}

/* Offsets from + j * step, j < m: out[j] = sum_i cos((from + j step) w_i). */
static void sums_even(double *out, uint32_t m, double from, double step,
                      const double *omega, uint32_t h, double scale) {
  v128_t acc[PE_CHUNK];
  for (uint32_t t = 0; t < m; t++)
    acc[t] = wasm_f64x2_splat(0);
  const v128_t sign_bit = wasm_f64x2_splat(-0.0);
  for (uint32_t i = 0; i < h; i += 8) {
    v128_t c[4], y[4], lambda[4], sigma[4], negative = wasm_f64x2_splat(0);
    for (int q = 0; q < 4; q++) {
      v128_t mask, s0, sh, ch, w = pair_w(omega, i + 2 * q, h, scale, &mask);
      pe_sincos_product_f64x2(wasm_f64x2_splat(from), w, &s0, &c[q]);
      /* Half steps keep y free of cancellation: with h = v / 2,
         c_t - c_(t-1) = -2 sin h (s0 cos h - c0 sin h) and
         c_t + c_(t-1) = 2 cos h (c0 cos h + s0 sin h). */
      pe_sincos_product_f64x2(wasm_f64x2_splat(0.5 * step), w, &sh, &ch);
      v128_t cos_v =
          wasm_f64x2_sub(wasm_f64x2_mul(ch, ch), wasm_f64x2_mul(sh, sh));
      sigma[q] = wasm_v128_and(wasm_f64x2_lt(cos_v, wasm_f64x2_splat(0)),
                               sign_bit); /* sign bit where sigma = -1 */
      negative = wasm_v128_or(negative, sigma[q]);
      v128_t two = wasm_f64x2_splat(2);
      v128_t y_plus = wasm_f64x2_mul(
          wasm_f64x2_mul(wasm_f64x2_splat(-2), sh),
          wasm_f64x2_sub(wasm_f64x2_mul(s0, ch), wasm_f64x2_mul(c[q], sh)));
      v128_t y_minus = wasm_f64x2_mul(
          wasm_f64x2_mul(two, ch),
          wasm_f64x2_add(wasm_f64x2_mul(c[q], ch), wasm_f64x2_mul(s0, sh)));
      v128_t lambda_plus =
          wasm_f64x2_mul(wasm_f64x2_splat(-4), wasm_f64x2_mul(sh, sh));
      v128_t lambda_minus =
          wasm_f64x2_mul(wasm_f64x2_splat(4), wasm_f64x2_mul(ch, ch));
      v128_t minus = wasm_f64x2_lt(cos_v, wasm_f64x2_splat(0));
      y[q] = wasm_f64x2_mul(wasm_v128_bitselect(y_minus, y_plus, minus), mask);
      lambda[q] = wasm_v128_bitselect(lambda_minus, lambda_plus, minus);
      /* Padding lanes hold c = y = 0, which the recurrence keeps at 0. */
      c[q] = wasm_f64x2_mul(c[q], mask);
    }
    if (!wasm_v128_any_true(negative)) {
      for (uint32_t t = 0; t < m; t++) {
        acc[t] =
            wasm_f64x2_add(acc[t], wasm_f64x2_add(wasm_f64x2_add(c[0], c[1]),
                                                  wasm_f64x2_add(c[2], c[3])));
        for (int q = 0; q < 4; q++) {
          y[q] = wasm_f64x2_add(y[q], wasm_f64x2_mul(lambda[q], c[q]));
          c[q] = wasm_f64x2_add(y[q], c[q]);
        }
      }
    } else {
      for (uint32_t t = 0; t < m; t++) {
        acc[t] =
            wasm_f64x2_add(acc[t], wasm_f64x2_add(wasm_f64x2_add(c[0], c[1]),
                                                  wasm_f64x2_add(c[2], c[3])));
        for (int q = 0; q < 4; q++) {
          y[q] = wasm_f64x2_add(wasm_v128_xor(y[q], sigma[q]),
                                wasm_f64x2_mul(lambda[q], c[q]));
          c[q] = wasm_f64x2_add(y[q], wasm_v128_xor(c[q], sigma[q]));
        }
      }
    }
  }
  for (uint32_t t = 0; t < m; t++)
    out[t] =
        wasm_f64x2_extract_lane(acc[t], 0) + wasm_f64x2_extract_lane(acc[t], 1);
}

/* One arbitrary offset: sum_i cos(k w_i), each from an exact sin/cos. */
static double sum_at(double k, const double *omega, uint32_t h, double scale) {
  v128_t acc = wasm_f64x2_splat(0), kv = wasm_f64x2_splat(k);
  for (uint32_t i = 0; i < h; i += 2) {
    v128_t mask, hi, lo, s, c, w = pair_w(omega, i, h, scale, &mask);
    pe_two_product_f64x2(kv, w, &hi, &lo);
    pe_sincos_f64x2_full(hi, lo, &s, &c); /* inline: the hot loop here */
    acc = wasm_f64x2_add(acc, wasm_f64x2_mul(c, mask));
  }
  return wasm_f64x2_extract_lane(acc, 0) + wasm_f64x2_extract_lane(acc, 1);
}

int32_t pe_dot_products(double *out, const double *offsets, uint32_t count,
                        double from, double step, uint32_t dim, int32_t odd_dim,
                        const double *omega, uint32_t n_omega, double scale,
                        double amplitude) {
  int32_t status = pe_check_frequencies(omega, n_omega, dim, odd_dim);
  if (status != PE_OK)
    return status;
  if (!isfinite(scale))
    return PE_ERR_SCALE;
  double amplitude2 = amplitude * amplitude;
  /* |g| <= dim / 2, so the scaled sums stay finite. */
  if (!isfinite(amplitude2 * (double)(dim / 2 + 1)))
    return PE_ERR_OUTPUT_SCALE;
  if ((uint64_t)count * sizeof(double) >= PE_MEMORY_BYTES)
    return PE_ERR_SIZE;
  if (count > 0 && (out == NULL || !pe_is_aligned(out, alignof(double))))
    return PE_ERR_NULL;
  if (offsets != NULL && !pe_is_aligned(offsets, alignof(double)))
    return PE_ERR_NULL;
  double max_w = pe_max_frequency(omega, n_omega, scale);
  if (!isfinite(max_w))
    return PE_ERR_SCALE;
  if ((offsets == NULL && !isfinite(step)) ||
      !pe_angles_finite(offsets, count, from, step, max_w))
    return PE_ERR_OFFSETS;

  /* The extra sin column of an odd dim adds 0 to <PE(0), PE(k)>. */
  uint32_t h = dim / 2;
  /* Offsets from + j * step are sums over real offsets: no row need be a
     double for the recurrence. */
  pe_row_plan plan = pe_plan_rows(offsets, count, from, step, 1, 0);
  if (plan.recurrence) {
    for (uint32_t j0 = 0; j0 < count; j0 += PE_CHUNK) {
      uint32_t m = count - j0 < PE_CHUNK ? count - j0 : PE_CHUNK;
      sums_even(out + j0, m, pe_row_position(&plan, j0), plan.step, omega, h,
                scale);
    }
  } else {
    for (uint32_t j = 0; j < count; j++)
      out[j] = sum_at(pe_row_position(&plan, j), omega, h, scale);
  }
  for (uint32_t j = 0; j < count; j++)
    out[j] *= amplitude2;
  return PE_OK;
}

static inline double dot_f64(const double *a, const double *b, uint32_t dim) {
  v128_t s0 = wasm_f64x2_splat(0), s1 = wasm_f64x2_splat(0);
  uint32_t k = 0;
  for (; k + 4 <= dim; k += 4) {
    s0 = wasm_f64x2_add(
        s0, wasm_f64x2_mul(wasm_v128_load(a + k), wasm_v128_load(b + k)));
    s1 = wasm_f64x2_add(s1, wasm_f64x2_mul(wasm_v128_load(a + k + 2),
                                           wasm_v128_load(b + k + 2)));
  }
  s0 = wasm_f64x2_add(s0, s1);
  double sum = wasm_f64x2_extract_lane(s0, 0) + wasm_f64x2_extract_lane(s0, 1);
  for (; k < dim; k++)
    sum += a[k] * b[k];
  return sum;
}

/* float32 rows, products and sums in double (exact products of floats). */
static inline double dot_f32(const float *a, const float *b, uint32_t dim) {
  v128_t s0 = wasm_f64x2_splat(0), s1 = wasm_f64x2_splat(0);
  uint32_t k = 0;
  for (; k + 4 <= dim; k += 4) {
    v128_t x = wasm_v128_load(a + k), y = wasm_v128_load(b + k);
    v128_t x_hi = wasm_i32x4_shuffle(x, x, 2, 3, 2, 3);
    v128_t y_hi = wasm_i32x4_shuffle(y, y, 2, 3, 2, 3);
    s0 = wasm_f64x2_add(s0, wasm_f64x2_mul(wasm_f64x2_promote_low_f32x4(x),
                                           wasm_f64x2_promote_low_f32x4(y)));
    s1 = wasm_f64x2_add(s1, wasm_f64x2_mul(wasm_f64x2_promote_low_f32x4(x_hi),
                                           wasm_f64x2_promote_low_f32x4(y_hi)));
  }
  s0 = wasm_f64x2_add(s0, s1);
  double sum = wasm_f64x2_extract_lane(s0, 0) + wasm_f64x2_extract_lane(s0, 1);
  for (; k < dim; k++)
    sum += (double)a[k] * b[k];
  return sum;
}

static int32_t check_gram(const double *result, const void *table, size_t elem,
                          uint32_t count, uint32_t dim, const double *g,
                          int32_t toeplitz) {
  if (dim < 1 || dim > PE_MAX_DIM)
    return PE_ERR_DIM;
  if (count < 1)
    return PE_ERR_COUNT;
  uint64_t expected =
      toeplitz ? 2 * (uint64_t)count - 1 : (uint64_t)count * count;
  if ((uint64_t)count * dim * elem >= PE_MEMORY_BYTES ||
      expected * sizeof(double) >= PE_MEMORY_BYTES)
    return PE_ERR_SIZE;
  if (result == NULL || table == NULL || g == NULL ||
      !pe_is_aligned(result, alignof(double)) || !pe_is_aligned(table, elem) ||
      !pe_is_aligned(g, alignof(double)))
    return PE_ERR_NULL;
  return PE_OK;
}

/* Only b <= a is computed: G is symmetric, and both expected entries of the
   pair are compared with it. A NaN anywhere makes the error infinite. */
static int32_t gram_deviation(double *result, const void *table, size_t elem,
                              uint32_t count, uint32_t dim, const double *g,
                              int32_t toeplitz) {
  int32_t status = check_gram(result, table, elem, count, dim, g, toeplitz);
  if (status != PE_OK)
    return status;
  int is_f32 = elem == sizeof(float);
  const double *t64 = table;
  const float *t32 = table;
  double worst = 0;
  uint32_t worst_a = 0, worst_b = 0;
  for (uint32_t a = 0; a < count; a++)
    for (uint32_t b = 0; b <= a; b++) {
      size_t ra = (size_t)a * dim, rb = (size_t)b * dim;
      double value = is_f32 ? dot_f32(t32 + ra, t32 + rb, dim)
                            : dot_f64(t64 + ra, t64 + rb, dim);
      for (int side = 0; side < 2; side++) {
        uint32_t r = side ? b : a, s = side ? a : b;
        double want =
            toeplitz ? g[(size_t)r - s + count - 1] : g[(size_t)r * count + s];
        double e = fabs(value - want);
        if (!(e <= worst)) {
          worst = isnan(e) ? INFINITY : e;
          worst_a = r;
          worst_b = s;
        }
      }
    }
  result[0] = worst;
  result[1] = worst_a;
  result[2] = worst_b;
  return PE_OK;
}

int32_t pe_gram_deviation_f64(double *result, const double *table,
                              uint32_t count, uint32_t dim, const double *g,
                              int32_t toeplitz) {
  return gram_deviation(result, table, sizeof(double), count, dim, g, toeplitz);
}

int32_t pe_gram_deviation_f32(double *result, const float *table,
                              uint32_t count, uint32_t dim, const double *g,
                              int32_t toeplitz) {
  return gram_deviation(result, table, sizeof(float), count, dim, g, toeplitz);
}
