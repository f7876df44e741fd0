/* IEEE binary16 from a double in one rounding, to nearest, ties to even:
   through float32 a value just above a half-way point would round twice
   and land on the even neighbour instead of the nearer one. */
#ifndef PE_HALF_H
#define PE_HALF_H

#include <math.h>
#include <stdint.h>
#include <string.h>

/* Nearest integer, ties to even, of 0 <= v < 2^52: adding 2^52 leaves no
   fraction bits, so the addition itself rounds (no libm call). */
static inline double pe_round_to_integer(double v) {
  return (v + 0x1p52) - 0x1p52;
}

/* The bits of the binary16 nearest to x; NaN becomes the quiet NaN 0x7e00
   with x's sign, and |x| >= 65520 (half-way past 65504) infinity. */
static inline uint16_t pe_half_from_double(double x) {
  uint16_t sign = signbit(x) ? 0x8000 : 0;
  double a = fabs(x);
  if (isnan(x))
    return sign | 0x7e00;
  if (a >= 65520.0)
    return sign | 0x7c00;
  /* Subnormals are multiples of 2^-24; a count of 1024 is the bit pattern
     of the smallest normal, so rounding up into it needs no special case. */
  if (a < 0x1p-14)
    return sign | (uint16_t)pe_round_to_integer(a * 0x1p24);
  uint64_t bits;
  memcpy(&bits, &a, sizeof bits);
  int exponent = (int)(bits >> 52) - 1023; /* -14 ... 15 */
  uint64_t scale_bits = (uint64_t)(1023 + 10 - exponent) << 52;
  double scale;
  memcpy(&scale, &scale_bits, sizeof scale);
  /* a * 2^(10 - exponent) is exact and lies in [1024, 2048); rounding up
     to 2048 carries into the exponent field, and from 65504 into infinity
     (excluded above). */
  uint32_t significand = (uint32_t)pe_round_to_integer(a * scale);
  return sign |
         (uint16_t)(((uint32_t)(exponent + 15) << 10) + significand - 1024);
}

#endif
