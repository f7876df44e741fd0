/* IEEE binary16 from a double in one rounding, to nearest, ties to even:
   through float32 a value just above a half-way point would round twice
   and land on the even neighbour instead of the nearer one. */
#ifndef PE_HALF_H
#define PE_HALF_H

#include <math.h>
#include <stdint.h>

#include "simd.h"

/* The binary16 bits nearest to each lane of x, in the low 16 bits of each
   64-bit lane. NaN becomes the quiet NaN 0x7e00 with x's sign, and
   |x| >= 65520 (half-way past 65504) infinity. */
static inline v128_t pe_half_from_f64x2(v128_t x) {
  const v128_t sign_bit = wasm_i64x2_splat(INT64_MIN);
  v128_t sign = wasm_u64x2_shr(wasm_v128_and(x, sign_bit), 48);
  v128_t a = wasm_v128_andnot(x, sign_bit);
  /* Normals: round the 52-bit significand to 10 bits on the integer bits,
     adding just under half of the dropped unit plus the kept lowest bit (so
     ties go to even); a carry moves into the exponent, which is rebiased
     from 1023 to 15. */
  v128_t odd = wasm_v128_and(wasm_u64x2_shr(a, 42), wasm_i64x2_splat(1));
  v128_t rounded = wasm_i64x2_add(
      wasm_i64x2_add(a, wasm_i64x2_splat((INT64_C(1) << 41) - 1)), odd);
  v128_t normal = wasm_i64x2_sub(wasm_u64x2_shr(rounded, 42),
                                 wasm_i64x2_splat((int64_t)(1023 - 15) << 10));
  /* Subnormals (multiples of 2^-24): 2^28 has an ulp of 2^-24, so adding
     it rounds |x| to one, and the bit patterns differ by the count, which
     reaches 1024, the smallest normal's pattern, when rounding up. */
  const v128_t magic = wasm_f64x2_splat(0x1p28);
  v128_t subnormal = wasm_i64x2_sub(wasm_f64x2_add(a, magic), magic);
  v128_t h = wasm_v128_bitselect(subnormal, normal,
                                 wasm_f64x2_lt(a, wasm_f64x2_splat(0x1p-14)));
  h = wasm_v128_bitselect(wasm_i64x2_splat(0x7c00), h,
                          wasm_f64x2_ge(a, wasm_f64x2_splat(65520.0)));
  h = wasm_v128_bitselect(wasm_i64x2_splat(0x7e00), h, wasm_f64x2_ne(x, x));
  return wasm_v128_or(h, sign);
}

static inline uint16_t pe_half_from_double(double x) {
  return (uint16_t)wasm_i64x2_extract_lane(
      pe_half_from_f64x2(wasm_f64x2_splat(x)), 0);
}

/* The value of binary16 bits, exactly: every half is a double. */
static inline double pe_half_to_double(uint16_t h) {
  double sign = h & 0x8000 ? -1.0 : 1.0;
  int exponent = (h >> 10) & 0x1f;
  double significand = h & 0x3ff;
  if (exponent == 0x1f)
    return significand == 0 ? sign * (double)INFINITY : (double)NAN;
  if (exponent == 0)
    return sign * significand * 0x1p-24;
  return sign * (1024 + significand) * ldexp(1.0, exponent - 25);
}

#endif
