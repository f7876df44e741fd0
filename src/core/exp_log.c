/* exp, expm1, log, pow and Gamma (see exp_log.h). exp reduces x to
   (128 k + j) ln 2 / 128 + r, |r| <= ln 2 / 256, and takes 2^(j/128) from
   a table and e^r - 1 from its Taylor series. log takes x = 2^e m, m in
   [sqrt(1/2), sqrt(2)], c = j/128 the nearest multiple of 1/128 to m and
   v a short approximation of 1/c, so that r = m v - 1 = (m - c) v +
   (c v - 1) is exact in two doubles; ln m = ln(1 + r) - ln v, ln v from a
   table and ln(1 + r) from its series. pow is the exp of y ln x, the
   product kept in double-double. The tables come from double_double.h's
   log and exp, accurate to about 2^-100, the first time they are needed:
   the module carries no data for them. */
#include "exp_log.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "double_double.h"

#define PE_LOG_FIRST 91 /* 128 sqrt(1/2) = 90.5 */
#define PE_LOG_LAST 181 /* 128 sqrt(2) = 181.02 */

static pe_dd exp2_table[128]; /* 2^(j/128) */
static struct {
  double v, cv_minus_1; /* v has 8 bits; c v - 1 is exact */
  pe_dd ln_v;
} log_table[PE_LOG_LAST - PE_LOG_FIRST + 1];
static int tables_filled;

static __attribute__((noinline)) void fill_tables(void) {
  pe_dd ln2 = {pe_ln2[0], pe_ln2[1]};
  for (int j = 0; j < 128; j++) {
    pe_dd_scaled t = pe_dd_exp(pe_dd_mul_d(ln2, j / 128.0));
    exp2_table[j] = (pe_dd){ldexp(t.m.hi, t.k), ldexp(t.m.lo, t.k)};
  }
  for (int j = PE_LOG_FIRST; j <= PE_LOG_LAST; j++) {
    /* v on a grid of 2^-7 above 1 and 2^-8 below, 8 bits either way. */
    double scale = j < 128 ? 128 : 256;
    double v = nearbyint(scale * 128 / j) / scale;
    log_table[j - PE_LOG_FIRST].v = v;
    log_table[j - PE_LOG_FIRST].cv_minus_1 = j / 128.0 * v - 1;
    log_table[j - PE_LOG_FIRST].ln_v = pe_dd_log(v);
  }
  tables_filled = 1;
}

/* The check inlined, the filling not. */
#define PE_NEED_TABLES()                                                       \
  do {                                                                         \
    if (!tables_filled)                                                        \
      fill_tables();                                                           \
  } while (0)

/* 2^k for -1022 <= k <= 1023, from its bits. */
static inline double pow2(int k) {
  uint64_t bits = (uint64_t)(k + 1023) << 52;
  double p;
  memcpy(&p, &bits, sizeof p);
  return p;
}

/* ---- exp ------------------------------------------------------------- */

/* 128 / ln 2, and ln 2 / 128 in two parts, the first of 35 bits so that
   its product with any |n| < 2^18 is exact (from mpmath). */
static const double inv_ln2_128 = 0x1.71547652b82fep+7;
static const double ln2_128_hi = 0x1.62e42fefc0000p-8;
static const double ln2_128_lo = -0x1.c610ca86c3899p-44;

/* hi + lo = (128 k + j) ln 2 / 128 + r, j in 0 ... 127, for |hi| <= 746. */
typedef struct {
  pe_dd r;
  int j, k;
} pe_exp_reduced;

static inline pe_exp_reduced exp_reduce(double hi, double lo) {
  double n = nearbyint(hi * inv_ln2_128), k = floor(n * 0x1p-7);
  /* Exact: n ln2_128_hi is, and hi is within a factor 2 of it (n != 0). */
  double a = hi - n * ln2_128_hi;
  return (pe_exp_reduced){pe_dd_two_sum(a, lo - n * ln2_128_lo),
                          (int)(n - 128 * k), (int)k};
}

/* e^(hi + lo) = v 2^k with v = 2^(j/128) e^r in about [1, 2]: with
   t = 2^(j/128), v = t + t r + t (e^r - 1 - r), the middle product exact
   and the last term (below 2^-18 of v) to r^6/6! in double; the next term
   is below 2^-71 of v. */
static inline pe_dd exp_scaled(pe_exp_reduced d, int *k) {
  pe_dd t = exp2_table[d.j];
  double r = d.r.hi, r2 = r * r;
  double rest =
      d.r.lo + r2 * ((0.5 + r * (1.0 / 6)) +
                     r2 * ((1.0 / 24 + r * (1.0 / 120)) + r2 * (1.0 / 720)));
  pe_dd p = pe_dd_two_product(t.hi, r);
  pe_dd u = pe_dd_fast_two_sum(t.hi, p.hi);
  *k = d.k;
  return pe_dd_fast_two_sum(u.hi,
                            u.lo + (p.lo + t.lo + (t.hi * rest + t.lo * r)));
}

/* v 2^k rounded once. Scaling is exact while the result is normal; below,
   v.hi is rounded to fewer bits, and where that was a tie v.lo decides. */
static inline double scale(pe_dd v, int k) {
  if (k >= -1021 && k <= 1023)
    return v.hi * pow2(k);
  double a = ldexp(v.hi, k);
  if (k > 0)
    return a;
  double dropped = v.hi - ldexp(a, -k);
  if (fabs(dropped) == ldexp(1.0, -1075 - k) && v.lo != 0 &&
      (dropped > 0) == (v.lo > 0))
    a += copysign(0x1p-1074, dropped);
  return a;
}

double pe_exp(double x) {
  if (isnan(x))
    return x;
  if (x > 710)
    return INFINITY;
  if (x < -746)
    return 0;
  PE_NEED_TABLES();
  int k;
  pe_dd v = exp_scaled(exp_reduce(x, 0), &k);
  return scale(v, k);
}

/* e^r - 1 for |r| <= 0.0028, relative to itself: r + r^2/2 with r^2
   exact, the rest to r^7/7! in double. */
static pe_dd expm1_reduced(pe_dd r) {
  double c = r.hi;
  pe_dd square = pe_dd_two_product(c, c);
  double tail =
      c * square.hi *
      (1.0 / 6 +
       c * (1.0 / 24 + c * (1.0 / 120 + c * (1.0 / 720 + c * (1.0 / 5040)))));
  pe_dd s = pe_dd_fast_two_sum(c, 0.5 * square.hi);
  return pe_dd_fast_two_sum(
      s.hi, s.lo + (r.lo + (0.5 * square.lo + c * r.lo + tail)));
}

double pe_expm1(double x) {
  /* x + x^2/2 + ... rounds to x. */
  if (isnan(x) || fabs(x) < 0x1p-60)
    return x;
  if (x > 700)
    return pe_exp(x);
  if (x < -40)
    return -1;
  PE_NEED_TABLES();
  pe_exp_reduced d = exp_reduce(x, 0);
  if (d.j == 0 && d.k == 0)
    return expm1_reduced(d.r).hi;
  /* v = t (1 + e) with e relative to itself, since subtracting 1 cancels
     up to 2^7 times; v 2^k is exact (k >= -58), and so is v 2^k - 1. */
  pe_dd t = exp2_table[d.j], e = expm1_reduced(d.r);
  pe_dd p = pe_dd_two_product(t.hi, e.hi);
  pe_dd u = pe_dd_fast_two_sum(t.hi, p.hi);
  pe_dd v = pe_dd_fast_two_sum(
      u.hi, u.lo + (p.lo + t.lo + (t.hi * e.lo + t.lo * e.hi)));
  pe_dd s = pe_dd_two_sum(ldexp(v.hi, d.k), -1);
  return s.hi + (s.lo + ldexp(v.lo, d.k));
}

/* ---- log ------------------------------------------------------------- */

/* ln 2 in two parts, the first of 42 bits so that its product with any
   exponent is exact (from mpmath). */
static const double ln2_hi = 0x1.62e42fefa3800p-1;
static const double ln2_lo = 0x1.ef35793c76730p-45;

/* ln x for finite x > 0, about 2^-68 relative. */
static inline pe_dd log_dd(double x) {
  int e = 0;
  if (x < 0x1p-1022) {
    x *= 0x1p54;
    e = -54;
  }
  uint64_t bits;
  memcpy(&bits, &x, sizeof bits);
  e += (int)(bits >> 52) - 1023;
  bits = (bits & 0x000fffffffffffffu) | 0x3ff0000000000000u;
  double m;
  memcpy(&m, &bits, sizeof m);
  if (m > 0x1.6a09e667f3bcdp+0) {
    m *= 0.5;
    e += 1;
  }
  int j = (int)nearbyint(m * 128);
  /* m - c has at most 45 bits and v 8, so (m - c) v is exact. */
  const double v = log_table[j - PE_LOG_FIRST].v;
  pe_dd r = pe_dd_two_sum((m - j * 0x1p-7) * v,
                          log_table[j - PE_LOG_FIRST].cv_minus_1);
  /* ln(1 + r) = r - r^2/2 + r^3 P(r), |r| <= 0.0084: r^2 exact, P to
     r^10/10 (the next term is below 2^-72 of the sum). */
  double c = r.hi, c2 = c * c;
  pe_dd square = pe_dd_two_product(c, c);
  double p =
      ((1.0 / 3 - c * (1.0 / 4)) + c2 * (1.0 / 5 - c * (1.0 / 6))) +
      c2 * c2 * ((1.0 / 7 - c * (1.0 / 8)) + c2 * (1.0 / 9 - c * (1.0 / 10)));
  pe_dd s = pe_dd_fast_two_sum(c, -0.5 * square.hi);
  double lo = s.lo + (r.lo * (1 - c) - 0.5 * square.lo + c * c2 * p);
  pe_dd ln_v = log_table[j - PE_LOG_FIRST].ln_v;
  pe_dd a = pe_dd_two_sum(e * ln2_hi, -ln_v.hi);
  pe_dd b = pe_dd_two_sum(a.hi, s.hi);
  return pe_dd_fast_two_sum(b.hi,
                            b.lo + (a.lo + ((e * ln2_lo - ln_v.lo) + lo)));
}

double pe_log(double x) {
  if (isnan(x) || x == INFINITY)
    return x;
  if (x < 0)
    return NAN;
  if (x == 0)
    return -INFINITY;
  PE_NEED_TABLES();
  return log_dd(x).hi;
}

/* ---- pow ------------------------------------------------------------- */

double pe_pow(double x, double y) {
  if (y == 0 || x == 1)
    return 1;
  if (isnan(x) || isnan(y))
    return x + y;
  if (x < 0)
    return NAN;
  if (x == 0)
    return y > 0 ? 0 : INFINITY;
  if (isinf(x) || isinf(y))
    return (x > 1) == (y > 0) ? INFINITY : 0;
  PE_NEED_TABLES();
  pe_dd l = log_dd(x);
  double p = y * l.hi;
  if (p > 710)
    return INFINITY;
  if (p < -746)
    return 0;
  if (fabs(p) < 0x1p-60)
    return 1;
  /* |y| < 2^63 here, since |ln x| >= 2^-53: the product is exact. */
  pe_dd q = pe_dd_two_product(y, l.hi);
  int k;
  pe_dd v = exp_scaled(exp_reduce(q.hi, q.lo + y * l.lo), &k);
  return scale(v, k);
}

/* ---- Gamma ----------------------------------------------------------- */

/* ln(2 pi) / 2 in two parts (from mpmath), and the Stirling series'
   B_2k / (2k (2k - 1)) for k = 1 ... 8: for z >= 16 the next term is below
   2^-70. */
static const pe_dd half_ln_2pi = {0x1.d67f1c864beb5p-1, -0x1.65b5a1b7ff5dfp-55};
static const double stirling[8] = {
    1.0 / 12,   -1.0 / 360,      1.0 / 1260, -1.0 / 1680,
    1.0 / 1188, -691.0 / 360360, 1.0 / 156,  -3617.0 / 122400};

double pe_tgamma(double x) {
  if (!(x >= 1 && x <= 171))
    return NAN;
  /* Gamma(x) = Gamma(z) / (x (x + 1) ... (z - 1)), z = x + n >= 16. */
  pe_dd product = {1, 0}, z = {x, 0};
  while (z.hi < 16) {
    product = pe_dd_mul(product, z);
    z = pe_dd_add(z, (pe_dd){1, 0});
  }
  /* ln Gamma(z) = (z - 1/2) ln z - z + ln(2 pi)/2 + sum_k c_k z^(1-2k). */
  pe_dd ln_z = pe_dd_add(pe_dd_log(z.hi), (pe_dd){z.lo / z.hi, 0});
  pe_dd lg = pe_dd_mul(pe_dd_add(z, (pe_dd){-0.5, 0}), ln_z);
  lg = pe_dd_add(pe_dd_add(lg, (pe_dd){-z.hi, -z.lo}), half_ln_2pi);
  double w = 1 / z.hi, w2 = w * w, series = 0;
  for (int k = 7; k >= 0; k--)
    series = series * w2 + stirling[k];
  lg = pe_dd_add(lg, (pe_dd){series * w, 0});
  pe_dd_scaled g = pe_dd_exp(lg);
  return ldexp(pe_dd_div(g.m, product).hi, g.k);
}
