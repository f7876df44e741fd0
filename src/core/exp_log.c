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

/* The integer n nearest x (ties to even, as nearbyint) for |x| < 2^51, and
   in *bits 2^51 + n, from the bits of x + 1.5 2^52: cheaper than
   nearbyint, floor and a conversion where wasm runs them. */
static inline double round_bits(double x, uint64_t *bits) {
  double s = x + 0x1.8p52;
  memcpy(bits, &s, sizeof *bits);
  *bits &= 0x000fffffffffffffu;
  return s - 0x1.8p52;
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
  uint64_t bits;
  double n = round_bits(hi * inv_ln2_128, &bits);
  /* Exact: n ln2_128_hi is, and hi is within a factor 2 of it (n != 0). */
  double a = hi - n * ln2_128_hi;
  return (pe_exp_reduced){pe_dd_two_sum(a, lo - n * ln2_128_lo),
                          (int)(bits & 127),
                          (int)((int64_t)(bits >> 7) - ((int64_t)1 << 44))};
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

/* The fast paths' test (Ziv's): whether every value within err of
   v.hi + v.lo rounds to one double, *y. The accurate paths' values before
   their last rounding are within 2^-65 of what the fast paths approximate
   (for pow, e^(hi + lo) of the same hi + lo), so where err covers both
   paths' errors, both round to *y (the native test compares them). */
static inline int rounds_surely(pe_dd v, double err, double *y) {
  double up = v.hi + (v.lo + err), down = v.hi + (v.lo - err);
  *y = up;
  return up == down;
}

/* e^(hi + lo) = (v.hi + v.lo) 2^k in double arithmetic, |lo| <= 2^-40,
   within 2^-61.4 of v. r = rh + rl is exact to 2^-77 (|b| <= 2^-26, so
   a - rh is exact or both are tiny); the product t rh is rounded (2^-53 of
   |t r| <= 2^-61.5 t), the rest of the error is below 2^-67 t. */
static inline pe_dd exp_approx(double hi, double lo, int *k) {
  uint64_t bits;
  double n = round_bits(hi * inv_ln2_128, &bits);
  *k = (int)((int64_t)(bits >> 7) - ((int64_t)1 << 44));
  double a = hi - n * ln2_128_hi, b = lo - n * ln2_128_lo;
  double rh = a + b, rl = (a - rh) + b;
  pe_dd t = exp2_table[bits & 127];
  /* Ordered for a short chain of dependent operations. */
  double r2 = rh * rh, r4 = r2 * r2;
  double q = r2 * (0.5 + rh * (1.0 / 6)) +
             r4 * ((1.0 / 24 + rh * (1.0 / 120)) + r2 * (1.0 / 720));
  pe_dd s = pe_dd_fast_two_sum(t.hi, t.hi * rh);
  return (pe_dd){s.hi, (s.lo + (t.lo + (t.lo * rh + t.hi * rl))) + t.hi * q};
}

/* e^(hi + lo) by exp_approx where it rounds surely and the result is
   normal (2^-60 v covers both paths' errors), else 0. */
static inline double exp_fast(double hi, double lo) {
  int k;
  double y;
  pe_dd v = exp_approx(hi, lo, &k);
  if (rounds_surely(v, v.hi * 0x1p-60, &y) && k >= -1021 && k <= 1023)
    return y * pow2(k);
  return 0;
}

/* e^(hi + lo) by exp_scaled, out of line: the fast paths' fallback. */
static __attribute__((noinline)) double exp_accurate(double hi, double lo) {
  int k;
  pe_dd v = exp_scaled(exp_reduce(hi, lo), &k);
  return scale(v, k);
}

__attribute__((noinline)) double pe_exp_accurate(double x) {
  if (isnan(x))
    return x;
  if (x > 710)
    return INFINITY;
  if (x < -746)
    return 0;
  PE_NEED_TABLES();
  return exp_accurate(x, 0);
}

double pe_exp(double x) {
  if (x >= -746 && x <= 710) {
    PE_NEED_TABLES();
    double y = exp_fast(x, -0.0); /* -0.0 - n c folds to -n c */
    if (y != 0)
      return y;
  }
  return pe_exp_accurate(x);
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

__attribute__((noinline)) double pe_expm1_accurate(double x) {
  /* x + x^2/2 + ... rounds to x. */
  if (isnan(x) || fabs(x) < 0x1p-60)
    return x;
  if (x > 700)
    return pe_exp_accurate(x);
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

/* For 1 <= |x| <= 40, e^x - 1 from exp_approx: 2^k is exact (-58 <= k <=
   57), and so is the subtraction; e^x / |e^x - 1| <= 1.6 there, so the
   error stays below 2^-60.7 of the result, the accurate path's below
   2^-64.3. Nearer 0 the subtraction cancels. */
double pe_expm1(double x) {
  double y;
  if (fabs(x) >= 1 && fabs(x) <= 40) {
    PE_NEED_TABLES();
    int k;
    pe_dd v = exp_approx(x, -0.0, &k);
    double p = pow2(k);
    pe_dd d = pe_dd_two_sum(v.hi * p, -1);
    d.lo += v.lo * p;
    if (rounds_surely(d, fabs(d.hi) * 0x1p-60, &y))
      return y;
  }
  return pe_expm1_accurate(x);
}

/* ---- log ------------------------------------------------------------- */

/* ln 2 in two parts, the first of 42 bits so that its product with any
   exponent is exact (from mpmath). */
static const double ln2_hi = 0x1.62e42fefa3800p-1;
static const double ln2_lo = 0x1.ef35793c76730p-45;

/* x = 2^e m with m in [sqrt(1/2), sqrt(2)], c = j/128 nearest m, and
   m v - 1 = r = d + (c v - 1) with d = (m - c) v, for finite x > 0. */
typedef struct {
  double d;
  int e, j;
} pe_log_reduced;

static inline pe_log_reduced log_reduce(double x) {
  int e = 0;
  if (x < 0x1p-1022) {
    x *= 0x1p54;
    e = -54;
  }
  /* Without a branch, which random mantissas would mispredict: 2^e is the
     largest power of two with x / 2^e >= the double above sqrt(1/2); the
     offset 2^62 keeps the difference positive. */
  uint64_t bits;
  memcpy(&bits, &x, sizeof bits);
  int k =
      (int)((bits - 0x3fe6a09e667f3bceu + 0x4000000000000000u) >> 52) - 1024;
  e += k;
  bits -= (uint64_t)k << 52;
  double m;
  memcpy(&m, &bits, sizeof m);
  uint64_t bits_j;
  double c = round_bits(m * 128, &bits_j) * 0x1p-7;
  int j = (int)(bits_j & 255);
  /* m - c has at most 45 bits and v 8, so (m - c) v is exact. */
  return (pe_log_reduced){(m - c) * log_table[j - PE_LOG_FIRST].v, e, j};
}

/* ln x for finite x > 0, about 2^-68 relative. */
static inline pe_dd log_dd(double x) {
  pe_log_reduced d = log_reduce(x);
  int e = d.e, j = d.j;
  pe_dd r = pe_dd_two_sum(d.d, log_table[j - PE_LOG_FIRST].cv_minus_1);
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
  /* Both sums exact, and the same as by two_sum: |e ln 2| >= 0.69 > |ln v|
     where e != 0, and |ln v| >= 1.9 |r| where j != 128 (where j = 128,
     ln v = 0). */
  pe_dd a = pe_dd_fast_two_sum(e * ln2_hi, -ln_v.hi);
  pe_dd b = pe_dd_fast_two_sum(a.hi, s.hi);
  return pe_dd_fast_two_sum(b.hi,
                            b.lo + (a.lo + ((e * ln2_lo - ln_v.lo) + lo)));
}

__attribute__((noinline)) double pe_log_accurate(double x) {
  if (isnan(x) || x == INFINITY)
    return x;
  if (x < 0)
    return NAN;
  if (x == 0)
    return -INFINITY;
  PE_NEED_TABLES();
  return log_dd(x).hi;
}

/* The fast path: ln x = (e ln 2 + t + d) + (ln(1 + r) - r) with
   t = c v - 1 - ln v, the first sum exact in two doubles (|ln v| >=
   |c v - 1|; |e ln 2| >= 0.69 > |t| where e != 0, |t| > 1.9 |d| where
   j != 128, and t = 0 where j = 128), the rest by its series to
   r^9/9 with r rounded. Every term but the first is below r^2 <= 2^-7.9
   |ln x| (for every j; where e = 0 and j = 128, |ln x| is about |r| and
   r exact): r's rounding costs 2^-60.9 of |ln x|, r^2's, the last sum's
   and the test's own 2^-61.9 each, the rest (series to r^9/9 included)
   2^-66, under 2^-59.4 with the accurate path's 2^-65. */
double pe_log(double x) {
  double y;
  if (x > 0 && x < INFINITY) {
    PE_NEED_TABLES();
    pe_log_reduced d = log_reduce(x);
    pe_dd ln_v = log_table[d.j - PE_LOG_FIRST].ln_v;
    double cv_minus_1 = log_table[d.j - PE_LOG_FIRST].cv_minus_1;
    pe_dd t = pe_dd_fast_two_sum(-ln_v.hi, cv_minus_1);
    t.lo -= ln_v.lo;
    double r = d.d + cv_minus_1, r2 = r * r;
    double p = ((1.0 / 3 - r * (1.0 / 4)) + r2 * (1.0 / 5 - r * (1.0 / 6))) +
               r2 * r2 * ((1.0 / 7 - r * (1.0 / 8)) + r2 * (1.0 / 9));
    pe_dd a = pe_dd_fast_two_sum(d.e * ln2_hi, t.hi);
    pe_dd b = pe_dd_fast_two_sum(a.hi, d.d);
    b.lo = -0.5 * r2 + (((a.lo + b.lo) + (d.e * ln2_lo + t.lo)) + r * r2 * p);
    if (rounds_surely(b, fabs(b.hi) * 0x1p-59, &y))
      return y;
  }
  return pe_log_accurate(x);
}

/* ---- pow ------------------------------------------------------------- */

/* x^y = e^(hi + lo), hi + lo = y ln x in double-double; or the result, and
   1, where it is a special value. */
static inline int pow_reduce(double x, double y, pe_dd *arg, double *result) {
  *result = 1;
  if (y == 0 || x == 1)
    return 1;
  *result = x + y;
  if (isnan(x) || isnan(y))
    return 1;
  *result = NAN;
  if (x < 0)
    return 1;
  if (x == 0 || isinf(x) || isinf(y)) {
    *result = (x > 1) == (y > 0) ? INFINITY : 0;
    return 1;
  }
  PE_NEED_TABLES();
  pe_dd l = log_dd(x);
  double p = y * l.hi;
  *result = p > 0 ? INFINITY : 0;
  if (p > 710 || p < -746)
    return 1;
  *result = 1;
  if (fabs(p) < 0x1p-60)
    return 1;
  /* |y| < 2^63 here, since |ln x| >= 2^-53: the product is exact. */
  pe_dd q = pe_dd_two_product(y, l.hi);
  *arg = (pe_dd){q.hi, q.lo + y * l.lo};
  return 0;
}

double pe_pow_accurate(double x, double y) {
  pe_dd arg;
  double result;
  if (pow_reduce(x, y, &arg, &result))
    return result;
  return exp_accurate(arg.hi, arg.lo);
}

/* Both paths take e^(hi + lo) of the same hi + lo, so the fast one is
   exp's. */
double pe_pow(double x, double y) {
  pe_dd arg;
  double result;
  if (pow_reduce(x, y, &arg, &result))
    return result;
  result = exp_fast(arg.hi, arg.lo);
  return result != 0 ? result : exp_accurate(arg.hi, arg.lo);
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
