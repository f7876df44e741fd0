/* sin and cos of two doubles, or of two exact products, at once, to about
   one ulp.

   Reduction: k = nearest(x * 2/pi), r = x - k*pi/2 with pi/2 split in three
   parts (Cody-Waite). The first part has 27 significant bits and the second
   20, so k times either is exact for |k| < 2^26, and the three carry pi/2 to
   about 2^-107: r is within one rounding of r (relative) plus 2^-80 for
   |x| <= PE_SINCOS_FAST_LIMIT. Larger lanes fall back to libm, which reduces
   exactly at any magnitude.
   Evaluation: Taylor series of sin to r^17 and cos to r^16, whose truncation
   errors on |r| <= pi/4 are below 1e-17 (relative for sin too). Every
   output dtype takes this one evaluation: a float32 result is its rounding,
   whatever path asked for it. */
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

/* The polynomial in z of the 8 coefficients c, by Horner's rule. */
static inline __attribute__((always_inline)) v128_t
pe_taylor_horner(const double *c, v128_t z) {
  v128_t p = wasm_f64x2_splat(c[0]);
  for (int k = 1; k < 8; k++)
    p = wasm_f64x2_add(wasm_f64x2_mul(p, z), wasm_f64x2_splat(c[k]));
  return p;
}

/* sin r = r + r z P(z), z = r^2. */
static inline __attribute__((always_inline)) v128_t pe_poly_sin(v128_t r) {
  v128_t z = wasm_f64x2_mul(r, r);
  v128_t p = pe_taylor_horner(pe_sin_taylor, z);
  return wasm_f64x2_add(r, wasm_f64x2_mul(wasm_f64x2_mul(p, z), r));
}

/* cos r = 1 + z Q(z). */
static inline __attribute__((always_inline)) v128_t pe_poly_cos(v128_t r) {
  v128_t z = wasm_f64x2_mul(r, r);
  v128_t p = pe_taylor_horner(pe_cos_taylor, z);
  return wasm_f64x2_add(wasm_f64x2_splat(1.0), wasm_f64x2_mul(p, z));
}

/* sin and cos of x + x_lo to about one ulp of each result, relative, not
   only absolute: a result near zero keeps its significant bits, so that
   rounding it to float32 is decided by the exact value. The caller has
   checked that every lane is in the fast range. r1 = x - k * pi/2's first
   part is exact (Sterbenz), k * the second part is exact, and the rounding
   error of subtracting it is recovered (TwoSum) and added back with the
   third part and x_lo, so r carries one rounding, of r itself. */
static inline __attribute__((always_inline)) void
pe_sincos_f64x2_reduced(v128_t x, v128_t x_lo, v128_t *s, v128_t *c) {
  /* Adding 1.5 * 2^52 rounds x * 2/pi to the nearest integer k and leaves
       k mod 2^51 in the low mantissa bits, two's complement for negative k. */
  const v128_t magic = wasm_f64x2_splat(0x1.8p52);
  v128_t t = wasm_f64x2_add(
      wasm_f64x2_mul(x, wasm_f64x2_splat(0x1.45f306dc9c883p-1)), magic);
  v128_t k = wasm_f64x2_sub(t, magic);
  v128_t r1 =
      wasm_f64x2_sub(x, wasm_f64x2_mul(k, wasm_f64x2_splat(0x1.921fb54p+0)));
  v128_t p2 = wasm_f64x2_mul(k, wasm_f64x2_splat(0x1.10b46p-30));
  v128_t r2 = wasm_f64x2_sub(r1, p2);
  v128_t moved = wasm_f64x2_sub(r2, r1);
  v128_t r2_error = wasm_f64x2_sub(
      wasm_f64x2_sub(r1, wasm_f64x2_sub(r2, moved)), wasm_f64x2_add(p2, moved));
  v128_t p3 = wasm_f64x2_mul(k, wasm_f64x2_splat(0x1.1a62633145c07p-54));
  v128_t r =
      wasm_f64x2_add(r2, wasm_f64x2_add(wasm_f64x2_sub(r2_error, p3), x_lo));

  v128_t sin_r = pe_poly_sin(r), cos_r = pe_poly_cos(r);
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
   no FMA) where |a|, |b| <= 2^995 and |a * b| <= 2^1000 (nothing in the
   split or the partial products overflows) and the product is far from
   underflow. */
static inline __attribute__((always_inline)) void
pe_dekker_f64x2(v128_t a, v128_t b, v128_t *hi, v128_t *lo) {
  const v128_t splitter = wasm_f64x2_splat(134217729.0); /* 2^27 + 1 */
  v128_t ca = wasm_f64x2_mul(a, splitter), cb = wasm_f64x2_mul(b, splitter);
  v128_t a_hi = wasm_f64x2_sub(ca, wasm_f64x2_sub(ca, a));
  v128_t b_hi = wasm_f64x2_sub(cb, wasm_f64x2_sub(cb, b));
  v128_t a_lo = wasm_f64x2_sub(a, a_hi), b_lo = wasm_f64x2_sub(b, b_hi);
  v128_t h = wasm_f64x2_mul(a, b);
  v128_t e = wasm_f64x2_sub(wasm_f64x2_mul(a_hi, b_hi), h);
  e = wasm_f64x2_add(e, wasm_f64x2_mul(a_hi, b_lo));
  e = wasm_f64x2_add(e, wasm_f64x2_mul(a_lo, b_hi));
  *hi = h;
  *lo = wasm_f64x2_add(e, wasm_f64x2_mul(a_lo, b_lo));
}

/* Whether every product of |x| <= largest and |w| <= max_w is in
   pe_dekker_f64x2's range; with rounding's margin (fl(largest * max_w) may
   lie below the real product by half an ulp). */
static inline int pe_dekker_in_range(double largest, double max_w) {
  return largest <= 0x1p995 && max_w <= 0x1p995 && largest * max_w <= 0x1p999;
}

/* a * b = hi + lo exactly for any finite product. The split of a factor
   above 2^995, or the partial products of a product above 2^1000, would
   overflow: that factor (or a) is scaled by 2^-28 first and both parts by
   2^28 after, exactly (such a product is at least 2^-79, far from
   underflow), so a lane that needs no scaling gets pe_dekker_f64x2's bits.
   lo is 0 where an argument is not finite. */
static inline void pe_two_product_f64x2(v128_t a, v128_t b, v128_t *hi,
                                        v128_t *lo) {
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
  v128_t h, e;
  pe_dekker_f64x2(a, b, &h, &e);
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
    pe_sincos_f64x2_reduced(x, x_lo, s, c);
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

#endif
