/* Reference values for the native tests, independent of the library: sin
   and cos of the exact product of two doubles, in quadruple precision. */
#ifndef PE_TEST_REFERENCE_H
#define PE_TEST_REFERENCE_H

#include <quadmath.h>

static inline double sin_of_product(double a, double b) {
  return (double)sinq((__float128)a * (__float128)b);
}

static inline double cos_of_product(double a, double b) {
  return (double)cosq((__float128)a * (__float128)b);
}

#endif
