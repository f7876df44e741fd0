/* sin and cos of two doubles, or of two exact products, at once, to about
   one ulp.

   Reduction: k = nearest(x * 2/pi), r = x - k*pi/2 with pi/2 split in three
   parts (Cody-Waite). The first part has 27 significant bits and the second
   20, so k * part is exact for |k| < 2^26 and r keeps an absolute error near
   1e-16 for |x| <= PE_SINCOS_FAST_LIMIT. Larger lanes fall back to libm, which
   reduces exactly at any magnitude.
   Evaluation: Taylor series of sin to r^17 and cos to r^16, whose truncation
   errors on |r| <= pi/4 are below 1e-17; shorter series, and a reduction in
   two parts, when the result is rounded to float32. */
#ifndef PE_SINCOS_F64X2_H
#define PE_SINCOS_F64X2_H

#include <math.h>

#include "simd.h"

#define PE_SINCOS_FAST_LIMIT 1.0e8

/* Taylor coefficients 1/n! with alternating signs, highest order first. */
static const double pe_sin_taylor[8] = {1.0 / 355687428096000.0,
                                        -1.0 / 1307674368000.0,
                                        1.0 / 6227020800.0,
                                        -1.0 / 39916800.0,
                                        1.0 / 362880.0,
                                        -1.0 / 5040.0,
                                        1.0 / 120.0,
                                        -1.0 / 6.0}; /* x^17 ... x^3 */
static const double pe_cos_taylor[8] = {1.0 / 20922789888000.0,
                                        -1.0 / 87178291200.0,
                                        1.0 / 479001600.0,
                                        -1.0 / 3628800.0,
                                        1.0 / 40320.0,
                                        -1.0 / 720.0,
                                        1.0 / 24.0,
                                        -0.5}; /* x^16 ... x^2 */

/* The polynomial in z of the last `terms` of the 8 coefficients c, by
   Horner's rule. */
static inline __attribute__((always_inline)) v128_t
pe_taylor_horner(const double *c, v128_t z, int terms) {
  v128_t p = wasm_f64x2_splat(c[8 - terms]);
  for (int k = 9 - terms; k < 8; k++)
    p = wasm_f64x2_add(wasm_f64x2_mul(p, z), wasm_f64x2_splat(c[k]));
  return p;
}

/* sin r = r + r z P(z), z = r^2, with the last `terms` coefficients. */
static inline __attribute__((always_inline)) v128_t pe_poly_sin(v128_t r,
                                                                int terms) {
  v128_t z = wasm_f64x2_mul(r, r);
  v128_t p = pe_taylor_horner(pe_sin_taylor, z, terms);
  return wasm_f64x2_add(r, wasm_f64x2_mul(wasm_f64x2_mul(p, z), r));
}

/* cos r = 1 + z Q(z), with the last `terms` coefficients. */
static inline __attribute__((always_inline)) v128_t pe_poly_cos(v128_t r,
                                                                int terms) {
  v128_t z = wasm_f64x2_mul(r, r);
  v128_t p = pe_taylor_horner(pe_cos_taylor, z, terms);
  return wasm_f64x2_add(wasm_f64x2_splat(1.0), wasm_f64x2_mul(p, z));
}

/* Shared by every variant; `sin_terms`, `cos_terms` and `exact` are
   constants. The caller has checked that every lane is in the fast range.
   `exact` keeps r to about 1e-16 with x_lo added; otherwise x_lo is ignored
   and pi/2 is split in two parts, the second rounded (its product with k
   then errs by under 1e-17, and the split by k * 1.6e-26 < 1e-18), one
   product fewer for results that are rounded to float32. */
static inline __attribute__((always_inline)) void
pe_sincos_f64x2_terms(v128_t x, v128_t x_lo, v128_t *s, v128_t *c,
                      int sin_terms, int cos_terms, int exact) {
  /* Adding 1.5 * 2^52 rounds x * 2/pi to the nearest integer k and leaves
       k mod 2^51 in the low mantissa bits, two's complement for negative k. */
  const v128_t magic = wasm_f64x2_splat(0x1.8p52);
  v128_t t = wasm_f64x2_add(
      wasm_f64x2_mul(x, wasm_f64x2_splat(0x1.45f306dc9c883p-1)), magic);
  v128_t k = wasm_f64x2_sub(t, magic);
  v128_t r =
      wasm_f64x2_sub(x, wasm_f64x2_mul(k, wasm_f64x2_splat(0x1.921fb54p+0)));
  if (exact) {
    r = wasm_f64x2_sub(r, wasm_f64x2_mul(k, wasm_f64x2_splat(0x1.10b46p-30)));
    r = wasm_f64x2_sub(
        r, wasm_f64x2_mul(k, wasm_f64x2_splat(0x1.1a62633145c07p-54)));
    r = wasm_f64x2_add(r, x_lo);
  } else {
    r = wasm_f64x2_sub(
        r, wasm_f64x2_mul(k, wasm_f64x2_splat(0x1.10b4611a62633p-30)));
  }

  v128_t sin_r = pe_poly_sin(r, sin_terms), cos_r = pe_poly_cos(r, cos_terms);
  /* Quadrant q = k mod 4: odd q swaps sin and cos; q in {2,3} negates sin,
     q in {1,2} negates cos. */
  v128_t one = wasm_i64x2_splat(1), two = wasm_i64x2_splat(2);
  v128_t swap = wasm_i64x2_eq(wasm_v128_and(t, one), one);
  v128_t sin_sign = wasm_i64x2_shl(wasm_v128_and(t, two), 62);
  v128_t cos_sign =
      wasm_i64x2_shl(wasm_v128_and(wasm_i64x2_add(t, one), two), 62);
  *s = wasm_v128_xor(wasm_v128_bitselect(cos_r, sin_r, swap), sin_sign);
  *c = wasm_v128_xor(wasm_v128_bitselect(sin_r, cos_r, swap), cos_sign);
}

/* a * b = hi + lo exactly (Dekker's product with Veltkamp's split; wasm has
   no FMA), for any finite product. The split of a factor above 2^995, or
   the partial products of a product above 2^1000, would overflow: that
   factor (or a) is scaled by 2^-28 first and both parts by 2^28 after,
   exactly (such a product is at least 2^-79, far from underflow). lo is 0
   where an argument is not finite. */
static inline void pe_two_product_f64x2(v128_t a, v128_t b, v128_t *hi,
                                        v128_t *lo) {
  const v128_t splitter = wasm_f64x2_splat(134217729.0); /* 2^27 + 1 */
  const v128_t limit = wasm_f64x2_splat(0x1p995), one = wasm_f64x2_splat(1);
  v128_t big_a =
      wasm_v128_or(wasm_f64x2_gt(wasm_f64x2_abs(a), limit),
                   wasm_f64x2_gt(wasm_f64x2_abs(wasm_f64x2_mul(a, b)),
                                 wasm_f64x2_splat(0x1p1000)));
  v128_t big_b = wasm_f64x2_gt(wasm_f64x2_abs(b), limit);
  a = wasm_f64x2_mul(
      a, wasm_v128_bitselect(wasm_f64x2_splat(0x1p-28), one, big_a));
  b = wasm_f64x2_mul(
      b, wasm_v128_bitselect(wasm_f64x2_splat(0x1p-28), one, big_b));
  v128_t ca = wasm_f64x2_mul(a, splitter), cb = wasm_f64x2_mul(b, splitter);
  v128_t a_hi = wasm_f64x2_sub(ca, wasm_f64x2_sub(ca, a));
  v128_t b_hi = wasm_f64x2_sub(cb, wasm_f64x2_sub(cb, b));
  v128_t a_lo = wasm_f64x2_sub(a, a_hi), b_lo = wasm_f64x2_sub(b, b_hi);
  v128_t h = wasm_f64x2_mul(a, b);
  v128_t e = wasm_f64x2_sub(wasm_f64x2_mul(a_hi, b_hi), h);
  e = wasm_f64x2_add(e, wasm_f64x2_mul(a_hi, b_lo));
  e = wasm_f64x2_add(e, wasm_f64x2_mul(a_lo, b_hi));
  e = wasm_f64x2_add(e, wasm_f64x2_mul(a_lo, b_lo));
  e = wasm_v128_and(e, wasm_f64x2_eq(e, e)); /* NaN -> 0 */
  v128_t undo =
      wasm_f64x2_mul(wasm_v128_bitselect(wasm_f64x2_splat(0x1p28), one, big_a),
                     wasm_v128_bitselect(wasm_f64x2_splat(0x1p28), one, big_b));
  *hi = wasm_f64x2_mul(h, undo);
  *lo = wasm_f64x2_mul(e, undo);
}

typedef struct {
  v128_t sin, cos;
} pe_sincos_lanes;

/* Lanes beyond the fast range (rare: only huge angles reach it), out of
   line in sincos_f64x2.c. It returns a value, so that the caller's results
   need no address and stay in locals. */
pe_sincos_lanes pe_sincos_f64x2_slow(v128_t x, v128_t x_lo);

/* Full double precision of x + x_lo (|x_lo| below half an ulp of x): about
   1e-16 absolute, at any finite x. */
static inline __attribute__((always_inline)) void
pe_sincos_f64x2_full(v128_t x, v128_t x_lo, v128_t *s, v128_t *c) {
  if (wasm_i64x2_all_true(wasm_f64x2_le(
          wasm_f64x2_abs(x), wasm_f64x2_splat(PE_SINCOS_FAST_LIMIT))))
    pe_sincos_f64x2_terms(x, x_lo, s, c, 8, 8, 1);
  else {
    pe_sincos_lanes slow = pe_sincos_f64x2_slow(x, x_lo);
    *s = slow.sin;
    *c = slow.cos;
  }
}

/* pe_sincos_f64x2_full of x, and of the exact product a * b, not of its
   rounding: the angle of a large position keeps its last bits, so PE(p + k)
   = R(k) PE(p) holds to about 1e-16 in float64 for exactly representable
   p + k. Out of line (sincos_f64x2.c), one copy for the calls outside hot
   loops. */
void pe_sincos_f64x2(v128_t x, v128_t *s, v128_t *c);
void pe_sincos_product_f64x2(v128_t a, v128_t b, v128_t *s, v128_t *c);

/* For results rounded to float32: Taylor to r^9 and r^10, whose truncation
   errors on |r| <= pi/4 (1.8e-9 and 1.1e-10) stay far below the float32
   rounding (3e-8), for 40% less work. The caller guarantees
   |x| <= PE_SINCOS_FAST_LIMIT in every lane (past it, the rounding of an
   angle product would show in float32 anyway). */
static inline void pe_sincos_f64x2_for_f32(v128_t x, v128_t *s, v128_t *c) {
  pe_sincos_f64x2_terms(x, wasm_f64x2_splat(0), s, c, 4, 5, 0);
}

#endif
