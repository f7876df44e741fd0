/* Double-double arithmetic (a value hi + lo, |lo| <= ulp(hi) / 2, about 106
   bits), and the natural log and exp it makes accurate to about 2^-100:
   enough to round base^(-2i/d) correctly. Scalar and without FMA, which wasm
   lacks; the error-free products use Veltkamp's split. */
#ifndef PE_DOUBLE_DOUBLE_H
#define PE_DOUBLE_DOUBLE_H

#include <math.h>

typedef struct {
  double hi, lo;
} pe_dd;

/* a + b exactly, for |a| >= |b| or a = 0 (Dekker). */
static inline pe_dd pe_dd_fast_two_sum(double a, double b) {
  double s = a + b;
  return (pe_dd){s, b - (s - a)};
}

/* a + b exactly (Knuth). */
static inline pe_dd pe_dd_two_sum(double a, double b) {
  double s = a + b, a_part = s - b, b_part = s - a_part;
  return (pe_dd){s, (a - a_part) + (b - b_part)};
}

/* a * b exactly, for |a|, |b| below 2^996 and a product above 2^-969. */
static inline pe_dd pe_dd_two_product(double a, double b) {
  const double splitter = 134217729.0; /* 2^27 + 1 */
  double ca = a * splitter, cb = b * splitter;
  double a_hi = ca - (ca - a), b_hi = cb - (cb - b);
  double a_lo = a - a_hi, b_lo = b - b_hi;
  double p = a * b;
  double e = ((a_hi * b_hi - p) + a_hi * b_lo + a_lo * b_hi) + a_lo * b_lo;
  return (pe_dd){p, e};
}

static inline pe_dd pe_dd_add(pe_dd a, pe_dd b) {
  pe_dd s = pe_dd_two_sum(a.hi, b.hi), t = pe_dd_two_sum(a.lo, b.lo);
  s = pe_dd_fast_two_sum(s.hi, s.lo + t.hi);
  return pe_dd_fast_two_sum(s.hi, s.lo + t.lo);
}

static inline pe_dd pe_dd_mul(pe_dd a, pe_dd b) {
  pe_dd p = pe_dd_two_product(a.hi, b.hi);
  return pe_dd_fast_two_sum(p.hi, p.lo + (a.hi * b.lo + a.lo * b.hi));
}

static inline pe_dd pe_dd_mul_d(pe_dd a, double b) {
  pe_dd p = pe_dd_two_product(a.hi, b);
  return pe_dd_fast_two_sum(p.hi, p.lo + a.lo * b);
}

/* a / b by one correction of the double quotient. */
static inline pe_dd pe_dd_div(pe_dd a, pe_dd b) {
  double q = a.hi / b.hi;
  pe_dd r = pe_dd_add(a, pe_dd_mul_d(b, -q));
  return pe_dd_fast_two_sum(q, r.hi / b.hi);
}

/* ln 2 in three parts, from mpmath: the first two exact as doubles. */
static const double pe_ln2[3] = {0x1.62e42fefa39efp-1, 0x1.abc9e3b39803fp-56,
                                 0x1.7b57a079a1934p-111};

/* ln x for finite x > 0: x = m 2^e with m in [sqrt(1/2), sqrt(2)), and
   ln m = 2 atanh(s), s = (m - 1) / (m + 1), |s| < 0.172, whose odd series
   reaches 2^-106 by the term s^43 / 43. */
static inline pe_dd pe_dd_log(double x) {
  int e;
  double m = frexp(x, &e);
  if (m < 0x1.6a09e667f3bcdp-1) {
    m *= 2;
    e -= 1;
  }
  pe_dd s = pe_dd_div(pe_dd_two_sum(m, -1), pe_dd_two_sum(m, 1));
  pe_dd z = pe_dd_mul(s, s), series = {0, 0};
  for (int k = 21; k >= 0; k--) {
    pe_dd term = pe_dd_div((pe_dd){1, 0}, (pe_dd){2 * k + 1, 0});
    series = pe_dd_add(pe_dd_mul(series, z), term);
  }
  pe_dd log_m = pe_dd_mul(pe_dd_mul(series, s), (pe_dd){2, 0});
  /* e ln 2 exactly but for e * pe_ln2[2]: |e| <= 1075. */
  pe_dd e_ln2 = pe_dd_add(pe_dd_two_product(e, pe_ln2[0]),
                          pe_dd_two_product(e, pe_ln2[1]));
  e_ln2 = pe_dd_add(e_ln2, (pe_dd){e * pe_ln2[2], 0});
  return pe_dd_add(e_ln2, log_m);
}

/* 1/n! for n = 1 ... 6, from mpmath. */
static const pe_dd pe_inverse_factorial[6] = {
    {1, 0},
    {0.5, 0},
    {0x1.5555555555555p-3, 0x1.5555555555555p-57},
    {0x1.5555555555555p-5, 0x1.5555555555555p-59},
    {0x1.1111111111111p-7, 0x1.1111111111111p-63},
    {0x1.6c16c16c16c17p-10, -0x1.f49f49f49f49fp-65}};

/* exp y = m 2^k, m in about [0.7, 1.42], kept apart so that a product of
   such values is exact where 2^k alone would underflow; |y| <= 1000.
   y = k ln 2 + r with |r| <= 0.35; expm1(r / 64) by its Taylor series, the
   terms from r^7 on in double (below 2^-57 of the sum, so their rounding
   stays below 2^-110); then six doublings u <- 2u + u^2 of expm1, which keep
   its relative error. */
typedef struct {
  pe_dd m;
  int k;
} pe_dd_scaled;

static inline pe_dd_scaled pe_dd_exp(pe_dd y) {
  double k = nearbyint(y.hi / pe_ln2[0]);
  pe_dd r = pe_dd_add(y, pe_dd_two_product(-k, pe_ln2[0]));
  r = pe_dd_add(r, pe_dd_two_product(-k, pe_ln2[1]));
  r = pe_dd_add(r, (pe_dd){-k * pe_ln2[2], 0});
  r = (pe_dd){r.hi / 64, r.lo / 64};
  double tail =
      ((((1.0 / 39916800) * r.hi + 1.0 / 3628800) * r.hi + 1.0 / 362880) *
           r.hi +
       1.0 / 40320) *
          r.hi +
      1.0 / 5040;
  pe_dd u = {tail, 0};
  for (int n = 6; n >= 1; n--)
    u = pe_dd_add(pe_dd_mul(u, r), pe_inverse_factorial[n - 1]);
  u = pe_dd_mul(u, r);
  for (int j = 0; j < 6; j++)
    u = pe_dd_add((pe_dd){2 * u.hi, 2 * u.lo}, pe_dd_mul(u, u));
  return (pe_dd_scaled){pe_dd_add((pe_dd){1, 0}, u), (int)k};
}

#endif
