/* What every kernel over the angles x * scale * w_i shares: the argument
   checks on x, and a block of pairs whose (sin, cos) are seeded exactly and
   then advanced by the rotation recurrence. */
#ifndef PE_ANGLES_H
#define PE_ANGLES_H

#include <math.h>
#include <stdalign.h>
#include <stdint.h>

#include "bounds.h"
#include "sincos_f64x2.h"

/* Pairs per block: the block's five arrays of doubles (10 KiB) stay in L1
   while rows stream through. A multiple of 4, the padding of a block. */
#define PE_BLOCK 256

/* Whether x[j] = x[0] + j * step for every j in real arithmetic, step =
   x[1] - x[0]: the recurrence then forms exactly the angles of x. Rounded
   equality is not enough (x[0] + step may round onto x[1] while the real
   sum misses it by half an ulp of x[1]). */
static inline int pe_evenly_spaced(const double *x, uint32_t count) {
  if (count < 2)
    return 1;
  double step = x[1] - x[0];
  if (!(fabs(step) < 0x1p+960)) /* the exact product below would overflow */
    return 0;
  for (uint32_t j = 1; j < count; j++) {
    v128_t hi, lo;
    pe_two_product_f64x2(wasm_f64x2_splat((double)j), wasm_f64x2_splat(step),
                         &hi, &lo);
    double t = wasm_f64x2_extract_lane(hi, 0);
    double sum = x[0] + t, t_part = sum - x[0];
    double sum_error = (x[0] - (sum - t_part)) + (t - t_part);
    if (wasm_f64x2_extract_lane(lo, 0) != 0 || sum != x[j] || sum_error != 0)
      return 0;
  }
  return 1;
}

/* Whether start + j is exactly a double for every j < count. Every sum lies
   between start and the last one, so it is exact if the last sum is and all
   stay below 2^53, where integers are exact. */
static inline int pe_integer_steps_exact(double start, uint32_t count) {
  double span = (double)(count > 0 ? count - 1 : 0), last = start + span;
  double span_part = last - start;
  double error = (start - (last - span_part)) + (span - span_part);
  return error == 0 && fabs(start) < 0x1p53 && fabs(last) < 0x1p53;
}

/* max |scale * w_i|: not finite when scale or a product overflows. */
static inline double pe_max_frequency(const double *omega, uint32_t n,
                                      double scale) {
  double max_w = fabs(scale) * 0;
  for (uint32_t i = 0; i < n; i++)
    max_w = fmax(max_w, fabs(scale * omega[i]));
  return max_w;
}

/* Whether every x and x * max_w is finite, for x = xs[j], or x = first +
   j * step when xs is null (j < count; the extremes suffice). */
static inline int pe_angles_finite(const double *xs, uint32_t count,
                                   double first, double step, double max_w) {
  if (xs == NULL) {
    double last = first + (double)(count > 0 ? count - 1 : 0) * step;
    return isfinite(first) && isfinite(last) && isfinite(first * max_w) &&
           isfinite(last * max_w);
  }
  for (uint32_t j = 0; j < count; j++)
    if (!isfinite(xs[j]) || !isfinite(xs[j] * max_w))
      return 0;
  return 1;
}

/* w = w_scale * omega, the step rotation (sin, cos)(step * w) and the
   current (sin, cos) of every pair of the block, all in double. */
typedef struct {
  alignas(16) double w[PE_BLOCK];
  alignas(16) double step_sin[PE_BLOCK];
  alignas(16) double step_cos[PE_BLOCK];
  alignas(16) double sin[PE_BLOCK];
  alignas(16) double cos[PE_BLOCK];
  double max_w; /* max |w| of the block */
} pe_angle_block;

/* Pads to a multiple of 4 pairs with zero frequencies; returns the padded
   count, which the seed and advance loops then cover. */
static inline uint32_t pe_angle_block_load(pe_angle_block *b,
                                           const double *omega, uint32_t n,
                                           double w_scale, double step) {
  uint32_t n_pad = (n + 3) & ~3u;
  b->max_w = 0;
  for (uint32_t i = 0; i < n_pad; i++) {
    b->w[i] = i < n ? w_scale * omega[i] : 0;
    b->max_w = fmax(b->max_w, fabs(b->w[i]));
  }
  v128_t st = wasm_f64x2_splat(step);
  for (uint32_t i = 0; i < n_pad; i += 2) {
    v128_t s, c;
    pe_sincos_product_f64x2(st, wasm_v128_load(b->w + i), &s, &c);
    wasm_v128_store(b->step_sin + i, s);
    wasm_v128_store(b->step_cos + i, c);
  }
  return n_pad;
}

/* (sin, cos)(x * w) times amplitude for every pair; rotations are linear, so
   the recurrence carries the amplitude along. Float64 results take the sin
   and cos of the exact product x * w; `for_f32` (a constant) picks the
   rounded product and a shorter sin/cos, whose errors vanish in float32
   rounding, as long as x * w stays in the fast range. Two
   independent evaluations per iteration keep both SIMD pipes busy. */
static inline __attribute__((always_inline)) void
pe_angle_block_seed(pe_angle_block *b, uint32_t n_pad, double x,
                    double amplitude, int for_f32) {
  v128_t p = wasm_f64x2_splat(x), a = wasm_f64x2_splat(amplitude);
  /* Past the fast range the rounding of x * w would show even in float32. */
  for_f32 = for_f32 && fabs(x) * b->max_w <= PE_SINCOS_FAST_LIMIT;
  for (uint32_t i = 0; i < n_pad; i += 4) {
    v128_t s0, c0, s1, c1;
    v128_t w0 = wasm_v128_load(b->w + i), w1 = wasm_v128_load(b->w + i + 2);
    if (for_f32) {
      pe_sincos_f64x2_for_f32(wasm_f64x2_mul(p, w0), &s0, &c0);
      pe_sincos_f64x2_for_f32(wasm_f64x2_mul(p, w1), &s1, &c1);
    } else {
      pe_sincos_product_f64x2(p, w0, &s0, &c0);
      pe_sincos_product_f64x2(p, w1, &s1, &c1);
    }
    wasm_v128_store(b->sin + i, wasm_f64x2_mul(s0, a));
    wasm_v128_store(b->cos + i, wasm_f64x2_mul(c0, a));
    wasm_v128_store(b->sin + i + 2, wasm_f64x2_mul(s1, a));
    wasm_v128_store(b->cos + i + 2, wasm_f64x2_mul(c1, a));
  }
}

/* One step of two pairs in registers, (sw, cw) = (sin, cos)(step w):
   (sin, cos)(a + step w) = (s cw + c sw, c cw - s sw). */
static inline __attribute__((always_inline)) void
pe_angle_step(v128_t *s, v128_t *c, v128_t sw, v128_t cw) {
  v128_t s_next =
      wasm_f64x2_add(wasm_f64x2_mul(*s, cw), wasm_f64x2_mul(*c, sw));
  *c = wasm_f64x2_sub(wasm_f64x2_mul(*c, cw), wasm_f64x2_mul(*s, sw));
  *s = s_next;
}

#endif
