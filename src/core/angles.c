#include "angles.h"
#include "half.h"

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

/* The larger of the two lanes of m by pmax's rule (b < a keeps a): a NaN
   lane never wins over a number. */
static double lanes_max(v128_t m) {
  double a = wasm_f64x2_extract_lane(m, 0), b = wasm_f64x2_extract_lane(m, 1);
  return a < b ? b : a;
}

/* max |scale * w_i|: not finite when scale or a product overflows. The
   comparison is fmax's rule (a NaN max gives way, a NaN |w| is skipped):
   pmax's, two frequencies at a time, where the max starts at 0 (a finite
   scale); wasm's f64.max propagates NaN, so fmax costs extra tests per
   element there. */
double pe_max_frequency(const double *omega, uint32_t n, double scale) {
  double max_w = fabs(scale) * 0;
  uint32_t i = 0;
  if (max_w == 0) {
    v128_t s = wasm_f64x2_splat(scale), m = wasm_f64x2_splat(0);
    for (; i + 2 <= n; i += 2)
      m = wasm_f64x2_pmax(
          m, wasm_f64x2_abs(wasm_f64x2_mul(s, wasm_v128_load(omega + i))));
    max_w = lanes_max(m);
  }
  for (; i < n; i++) {
    double w = fabs(scale * omega[i]);
    max_w = w > max_w || max_w != max_w ? w : max_w;
  }
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

PE_FOR_SIZE int32_t pe_check_angles(const double *xs, uint32_t count,
                                    double first, const double *omega,
                                    uint32_t n_omega, double scale, int32_t bad,
                                    double *report) {
  if (bad != PE_ERR_POSITIONS && bad != PE_ERR_OFFSETS)
    return PE_ERR_ARGUMENT;
  if (report == NULL || !pe_is_aligned(report, alignof(double)) ||
      (n_omega > 0 &&
       (omega == NULL || !pe_is_aligned(omega, alignof(double)))) ||
      (count > 0 && xs != NULL && !pe_is_aligned(xs, alignof(double))))
    return PE_ERR_NULL;
  double max_w = pe_max_frequency(omega, n_omega, scale);
  report[0] = 0;
  report[1] = max_w;
  if (!isfinite(max_w))
    return PE_OK;
  for (uint32_t j = 0; j < count; j++) {
    /* Of evenly spaced x, the extremes suffice. */
    if (xs == NULL && j == 1 && count > 2)
      j = count - 1;
    double x = xs != NULL ? xs[j] : first + (double)j;
    if (!isfinite(x) || !isfinite(x * max_w)) {
      report[0] = (double)j;
      return bad;
    }
  }
  return PE_OK;
}

/* Pads to a multiple of 4 pairs with zero frequencies; returns the padded
   count, which the seed and advance loops then cover. max_w starts at +0
   and never becomes NaN, so a plain comparison is fmax here (a NaN |w| is
   skipped by both). */
uint32_t pe_angle_block_frequencies(pe_angle_block *b, const double *omega,
                                    uint32_t n, double w_scale) {
  uint32_t n_pad = (n + 3) & ~3u, i = 0;
  v128_t s = wasm_f64x2_splat(w_scale), m = wasm_f64x2_splat(0);
  for (; i + 2 <= n; i += 2) {
    v128_t w = wasm_f64x2_mul(s, wasm_v128_load(omega + i));
    wasm_v128_store(b->w + i, w);
    m = wasm_f64x2_pmax(m, wasm_f64x2_abs(w));
  }
  double max_w = lanes_max(m);
  for (; i < n_pad; i++) {
    double w = i < n ? w_scale * omega[i] : 0;
    b->w[i] = w;
    max_w = fabs(w) > max_w ? fabs(w) : max_w;
  }
  b->max_w = max_w;
  return n_pad;
}

uint32_t pe_angle_block_load(pe_angle_block *b, const double *omega, uint32_t n,
                             double w_scale, double step) {
  uint32_t n_pad = pe_angle_block_frequencies(b, omega, n, w_scale);
  v128_t st = wasm_f64x2_splat(step);
  for (uint32_t i = 0; i < n_pad; i += 2) {
    v128_t s, c;
    pe_sincos_product_f64x2(st, wasm_v128_load(b->w + i), &s, &c);
    wasm_v128_store(b->step_sin + i, s);
    wasm_v128_store(b->step_cos + i, c);
  }
  return n_pad;
}

/* Lanes i and i + 1 of x: xs[i], or x for every lane when xs is null. */
static inline __attribute__((always_inline)) v128_t
positions_at(const double *xs, double x, uint32_t i) {
  return xs ? wasm_v128_load(xs + i) : wasm_f64x2_splat(x);
}

/* pe_angle_value2 for every pair, x = xs[i] of pair i, or `x` for all when
   xs is null; `in_range` (a constant) as pe_angle_value2 takes it. Two
   independent evaluations per iteration keep both SIMD pipes busy. */
static inline __attribute__((always_inline)) void
seed_loop(pe_angle_block *b, uint32_t n_pad, const double *xs, double x,
          v128_t a, int in_range) {
  for (uint32_t i = 0; i < n_pad; i += 4) {
    v128_t s0, c0, s1, c1;
    pe_angle_value2(positions_at(xs, x, i), wasm_v128_load(b->w + i), a, &s0,
                    &c0, in_range);
    pe_angle_value2(positions_at(xs, x, i + 2), wasm_v128_load(b->w + i + 2), a,
                    &s1, &c1, in_range);
    wasm_v128_store(b->sin + i, s0);
    wasm_v128_store(b->cos + i, c0);
    wasm_v128_store(b->sin + i + 2, s1);
    wasm_v128_store(b->cos + i + 2, c1);
  }
}

/* Rotations are linear, so the recurrence carries the amplitude along. One
   copy, out of line: its loop, not the call, is the cost. `largest` is the
   largest |x|. */
__attribute__((noinline)) static void
seed_lanes(pe_angle_block *b, uint32_t n_pad, const double *xs, double x,
           double largest, double amplitude) {
  v128_t a = wasm_f64x2_splat(amplitude);
  if (pe_dekker_in_range(largest, b->max_w))
    seed_loop(b, n_pad, xs, x, a, 1);
  else
    seed_loop(b, n_pad, xs, x, a, 0);
}

void pe_angle_block_seed(pe_angle_block *b, uint32_t n_pad, double x,
                         double amplitude) {
  seed_lanes(b, n_pad, NULL, x, fabs(x), amplitude);
}

void pe_angle_block_seed_each(pe_angle_block *b, uint32_t n_pad,
                              const double *xs, double amplitude) {
  /* Positions are finite (checked by every caller): a plain comparison,
     not fmax, whose NaN rule costs a call per pair in wasm. */
  double largest = 0;
  for (uint32_t i = 0; i < n_pad; i++)
    largest = fabs(xs[i]) > largest ? fabs(xs[i]) : largest;
  seed_lanes(b, n_pad, xs, 0, largest, amplitude);
}

__attribute__((noinline)) void pe_angle_pairs_exact(const pe_angle_block *b,
                                                    uint32_t i, double x,
                                                    double amplitude,
                                                    double *sin, double *cos) {
  v128_t p = wasm_f64x2_splat(x), a = wasm_f64x2_splat(amplitude);
  for (uint32_t k = 0; k < 4; k += 2) {
    v128_t s, c;
    pe_angle_value2(p, wasm_v128_load(b->w + i + k), a, &s, &c, 0);
    wasm_v128_store(sin + k, s);
    wasm_v128_store(cos + k, c);
  }
}

/* Whether rounding v, off by up to e, to float32 or float16 is uncertain. */
static int uncertain(double v, double e, int half) {
  return half ? pe_half_from_double(v - e) != pe_half_from_double(v + e)
              : pe_f32_uncertain(v, e);
}

void pe_angle_block_settle(pe_angle_block *b, uint32_t from, uint32_t to,
                           double x, double amplitude, double e, int half) {
  for (uint32_t i = from; i < to; i++) {
    if (!uncertain(b->sin[i], e, half) && !uncertain(b->cos[i], e, half))
      continue;
    v128_t s, c;
    pe_angle_value2(wasm_f64x2_splat(x), wasm_f64x2_splat(b->w[i]),
                    wasm_f64x2_splat(amplitude), &s, &c, 0);
    b->sin[i] = wasm_f64x2_extract_lane(s, 0);
    b->cos[i] = wasm_f64x2_extract_lane(c, 0);
  }
}

pe_f32_screen pe_f32_screen_of(double e) {
  int e_exponent;
  frexp(e, &e_exponent); /* e < 2^e_exponent */
  /* 2^m / 2^52 * 2^PE_SCREEN_BITS >= 2^e_exponent > e, and 2^-125 keeps
     the binade below 2^m in float32's normal range. */
  int m = e_exponent + 52 - PE_SCREEN_BITS;
  m = m < -125 ? -125 : m > 1024 ? 1024 : m; /* 2^1024: no finite value */
  int32_t bias = (1 << 28) + (1 << PE_SCREEN_BITS);
  int32_t band = ((1 << 29) - 1) & ~((1 << (PE_SCREEN_BITS + 1)) - 1);
  int32_t exponent = 0x7ff00000, least = (m + 1023) << 20;
  return (pe_f32_screen){wasm_i32x4_make(bias, 0, bias, 0),
                         wasm_i32x4_make(band, exponent, band, exponent),
                         wasm_i32x4_make(1, least, 1, least)};
}

void pe_angle_block_advance(pe_angle_block *b, uint32_t from, uint32_t to) {
  for (uint32_t i = from; i < to; i += 2) {
    v128_t s = wasm_v128_load(b->sin + i), c = wasm_v128_load(b->cos + i);
    pe_angle_step(&s, &c, wasm_v128_load(b->step_sin + i),
                  wasm_v128_load(b->step_cos + i));
    wasm_v128_store(b->sin + i, s);
    wasm_v128_store(b->cos + i, c);
  }
}
