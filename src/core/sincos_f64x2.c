#include "sincos_f64x2.h"

#include <math.h>

/* libm reduces x exactly at any magnitude; x_lo is added by the angle-sum
   formula. Only the lanes past the fast range take it: the other lane keeps
   the fast path's value, so that a lane's value never depends on its
   neighbour's angle. */
pe_sincos_lanes pe_sincos_f64x2_slow(v128_t x, v128_t x_lo) {
  v128_t fast_s, fast_c;
  pe_sincos_f64x2_reduced(x, x_lo, &fast_s, &fast_c);
  double lanes_s[2] = {wasm_f64x2_extract_lane(fast_s, 0),
                       wasm_f64x2_extract_lane(fast_s, 1)};
  double lanes_c[2] = {wasm_f64x2_extract_lane(fast_c, 0),
                       wasm_f64x2_extract_lane(fast_c, 1)};
  for (int k = 0; k < 2; k++) {
    double a =
        k == 0 ? wasm_f64x2_extract_lane(x, 0) : wasm_f64x2_extract_lane(x, 1);
    if (fabs(a) <= PE_SINCOS_FAST_LIMIT)
      continue;
    double a_lo = k == 0 ? wasm_f64x2_extract_lane(x_lo, 0)
                         : wasm_f64x2_extract_lane(x_lo, 1);
    double sin_a = sin(a), cos_a = cos(a);
    double sin_lo = sin(a_lo), cos_lo = cos(a_lo);
    lanes_s[k] = sin_a * cos_lo + cos_a * sin_lo;
    lanes_c[k] = cos_a * cos_lo - sin_a * sin_lo;
  }
  return (pe_sincos_lanes){wasm_f64x2_make(lanes_s[0], lanes_s[1]),
                           wasm_f64x2_make(lanes_c[0], lanes_c[1])};
}

void pe_sincos_f64x2(v128_t x, v128_t *s, v128_t *c) {
  pe_sincos_f64x2_full(x, wasm_f64x2_splat(0), s, c);
}

void pe_sincos_product_f64x2(v128_t a, v128_t b, v128_t *s, v128_t *c) {
  v128_t hi, lo;
  pe_two_product_f64x2(a, b, &hi, &lo);
  pe_sincos_f64x2_full(hi, lo, s, c);
}
