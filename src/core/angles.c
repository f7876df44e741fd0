#include "angles.h"

#include <math.h>
#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Whether x[j] = x[0] + j * step for every j in real arithmetic, step =
   x[1] - x[0]: the recurrence then forms exactly the angles of x. Rounded
   equality is not enough (x[0] + step may round onto x[1] while the real
   sum misses it by half an ulp of x[1]). */
int pe_evenly_spaced(const double *x, uint32_t count) {
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

PE_FOR_SIZE pe_row_plan pe_plan_rows(const double *positions, uint32_t count,
                                     double first, double step, int allowed,
                                     int exact_rows) {
  pe_row_plan plan = {positions, first, step, 0};
  if (!allowed)
    return plan;
  if (positions != NULL) {
    if (count < 2 || !pe_evenly_spaced(positions, count))
      return plan;
    plan.positions = NULL;
    plan.first = positions[0];
    plan.step = positions[1] - positions[0];
  } else if (exact_rows &&
             !(step == 1 && pe_integer_steps_exact(first, count))) {
    return plan;
  }
  plan.recurrence = 1;
  return plan;
}

/* max |scale * w_i|: not finite when scale or a product overflows. */
double pe_max_frequency(const double *omega, uint32_t n, double scale) {
  double max_w = fabs(scale) * 0;
  for (uint32_t i = 0; i < n; i++)
    max_w = fmax(max_w, fabs(scale * omega[i]));
  return max_w;
}

/* Whether every x and x * max_w is finite, for x = xs[j], or x = first +
   j * step when xs is null (j < count; the extremes suffice). */
int pe_angles_finite(const double *xs, uint32_t count, double first,
                     double step, double max_w) {
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

/* Pads to a multiple of 4 pairs with zero frequencies; returns the padded
   count, which the seed and advance loops then cover. */
uint32_t pe_angle_block_load(pe_angle_block *b, const double *omega, uint32_t n,
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

/* Pairs [i, i + 4) of the state: (s0, c0), (s1, c1) times a. */
static inline __attribute__((always_inline)) void
store_pairs(pe_angle_block *b, uint32_t i, v128_t a, v128_t s0, v128_t c0,
            v128_t s1, v128_t c1) {
  wasm_v128_store(b->sin + i, wasm_f64x2_mul(s0, a));
  wasm_v128_store(b->cos + i, wasm_f64x2_mul(c0, a));
  wasm_v128_store(b->sin + i + 2, wasm_f64x2_mul(s1, a));
  wasm_v128_store(b->cos + i + 2, wasm_f64x2_mul(c1, a));
}

/* Lanes i and i + 1 of x: xs[i], or x for every lane when xs is null. */
static inline __attribute__((always_inline)) v128_t
positions_at(const double *xs, double x, uint32_t i) {
  return xs ? wasm_v128_load(xs + i) : wasm_f64x2_splat(x);
}

/* (sin, cos)(x * w) times amplitude for every pair, x = xs[i] of pair i,
   or `x` for all when xs is null; `largest` is the largest |x|. Rotations
   are linear, so the recurrence carries the amplitude along. Float64
   results take the sin and cos of the exact product x * w; `for_f32` picks
   the rounded product and a shorter sin/cos, whose errors vanish in float32
   rounding, as long as x * w stays in the fast range. Each lane's value
   depends on its own x alone. Two independent evaluations per iteration
   keep both SIMD pipes busy. One copy, out of line: its loop, not the
   call, is the cost. */
__attribute__((noinline)) static void
seed_lanes(pe_angle_block *b, uint32_t n_pad, const double *xs, double x,
           double largest, double amplitude, int for_f32) {
  v128_t a = wasm_f64x2_splat(amplitude);
  /* Past the fast range the rounding of x * w would show even in float32. */
  if (for_f32 && largest * b->max_w <= PE_SINCOS_FAST_LIMIT)
    for (uint32_t i = 0; i < n_pad; i += 4) {
      v128_t s0, c0, s1, c1;
      pe_sincos_f64x2_for_f32(
          wasm_f64x2_mul(positions_at(xs, x, i), wasm_v128_load(b->w + i)), &s0,
          &c0);
      pe_sincos_f64x2_for_f32(wasm_f64x2_mul(positions_at(xs, x, i + 2),
                                             wasm_v128_load(b->w + i + 2)),
                              &s1, &c1);
      store_pairs(b, i, a, s0, c0, s1, c1);
    }
  else
    for (uint32_t i = 0; i < n_pad; i += 4) {
      v128_t s0, c0, s1, c1, hi, lo;
      pe_two_product_f64x2(positions_at(xs, x, i), wasm_v128_load(b->w + i),
                           &hi, &lo);
      pe_sincos_f64x2_full(hi, lo, &s0, &c0);
      pe_two_product_f64x2(positions_at(xs, x, i + 2),
                           wasm_v128_load(b->w + i + 2), &hi, &lo);
      pe_sincos_f64x2_full(hi, lo, &s1, &c1);
      store_pairs(b, i, a, s0, c0, s1, c1);
    }
}

void pe_angle_block_seed(pe_angle_block *b, uint32_t n_pad, double x,
                         double amplitude, int for_f32) {
  seed_lanes(b, n_pad, NULL, x, fabs(x), amplitude, for_f32);
}

void pe_angle_block_seed_each(pe_angle_block *b, uint32_t n_pad,
                              const double *xs, double amplitude, int for_f32) {
  /* Positions are finite (checked by every caller): a plain comparison,
     not fmax, whose NaN rule costs a call per pair in wasm. */
  double largest = 0;
  for (uint32_t i = 0; i < n_pad; i++)
    largest = fabs(xs[i]) > largest ? fabs(xs[i]) : largest;
  seed_lanes(b, n_pad, xs, 0, largest, amplitude, for_f32);
  if (!for_f32 || largest * b->max_w <= PE_SINCOS_FAST_LIMIT)
    return;
  /* Some x are past the fast range, and those pairs took the exact product,
     as their own seed would. The others are seeded again on the fast path,
     as theirs would be; a far x is replaced by 0 there, as that path
     requires. */
  alignas(16) double near[PE_BLOCK], sin_far[PE_BLOCK], cos_far[PE_BLOCK];
  int any_near = 0;
  for (uint32_t i = 0; i < n_pad; i++) {
    int is_near = fabs(xs[i]) * b->max_w <= PE_SINCOS_FAST_LIMIT;
    near[i] = is_near ? xs[i] : 0;
    any_near |= is_near;
  }
  if (!any_near)
    return;
  memcpy(sin_far, b->sin, n_pad * sizeof(double));
  memcpy(cos_far, b->cos, n_pad * sizeof(double));
  seed_lanes(b, n_pad, near, 0, 0, amplitude, 1);
  for (uint32_t i = 0; i < n_pad; i++)
    if (!(fabs(xs[i]) * b->max_w <= PE_SINCOS_FAST_LIMIT)) {
      b->sin[i] = sin_far[i];
      b->cos[i] = cos_far[i];
    }
}
