/* The core's exp, expm1, log, pow and Gamma against libquadmath's 113-bit
   functions on seeded random arguments over their ranges: exp, expm1, log
   and pow must return the correctly rounded value wherever the exact value
   is more than 2^-64 (relative) from a rounding midpoint, Gamma be within
   0.52 ulp; and the special values. Each of the four has a fast path that
   defers to the double-double one near a rounding boundary: the two must
   agree bit for bit, on the arguments near a boundary most of all, and
   over millions of arguments in the ranges the core calls them with. */
#include <math.h>
#include <quadmath.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "exp_log.h"

static uint64_t state = 0x2545f4914f6cdd1dull;

static double uniform(double a, double b) {
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return a + (b - a) * ((double)(state >> 11) * 0x1p-53);
}

/* Whether got is the reference rounded to nearest, or (near a midpoint,
   where 113 bits cannot tell) one of the two neighbours. */
static int rounds_right(double got, __float128 ref, long *near_midpoint) {
  double want = (double)ref;
  if (got == want)
    return 1;
  if (isinf(want) || want == 0 || isnan(got))
    return 0;
  __float128 midpoint = ((__float128)got + want) / 2;
  if (fabsq(ref - midpoint) < fabsq(ref) * 0x1p-64Q &&
      (got == nextafter(want, INFINITY) || got == nextafter(want, -INFINITY))) {
    (*near_midpoint)++;
    return 1;
  }
  return 0;
}

/* Whether the exact value is within 2^-7 ulp of a rounding midpoint, where
   the fast paths (bounds of 2^-59 to 2^-60 relative, 2^-6 ulp and below)
   cannot all decide, so that their test must defer. */
static int near_boundary(__float128 ref) {
  double want = (double)ref;
  if (isinf(want) || want == 0)
    return 0;
  double up = nextafter(want, INFINITY), down = nextafter(want, -INFINITY);
  __float128 ulp = (__float128)up - want, mid_up = want + ulp / 2;
  __float128 mid_down = want - ((__float128)want - down) / 2;
  __float128 d = fminq(fabsq(ref - mid_up), fabsq(ref - mid_down));
  return d < ulp * 0x1p-7Q;
}

/* Bit for bit: signed zeros and NaNs too. */
static int same_bits(double a, double b) {
  return memcmp(&a, &b, sizeof a) == 0;
}

/* |got - ref| in ulps of the rounded reference. */
static double ulps(double got, __float128 ref) {
  double want = (double)ref;
  double ulp = nextafter(fabs(want), INFINITY) - fabs(want);
  return (double)fabsq(((__float128)got - ref) / ulp);
}

#define SAMPLES 200000

static const char *names[4] = {"exp", "expm1", "log", "pow"};

/* Function f's result at x (and y) checked against its reference and its
   accurate path; boundary counts the arguments near a rounding boundary. */
static void check_one(int f, double x, double y, double got, double accurate,
                      __float128 ref, long *near, long wrong[4], long differ[4],
                      long boundary[4]) {
  if (!rounds_right(got, ref, near) && wrong[f]++ < 3)
    CHECK(0, "%s(%a, %a) = %a", names[f], x, y, got);
  if (!same_bits(got, accurate) && differ[f]++ < 3)
    CHECK(0, "%s(%a, %a) = %a, accurate path %a", names[f], x, y, got,
          accurate);
  boundary[f] += near_boundary(ref);
}

static void test_random(void) {
  long near = 0, wrong[4] = {0}, differ[4] = {0}, boundary[4] = {0};
  for (int i = 0; i < SAMPLES; i++) {
    double x = i % 4 == 0 ? uniform(-746, 710) : uniform(-40, 40);
    check_one(0, x, 0, pe_exp(x), pe_exp_accurate(x), expq(x), &near, wrong,
              differ, boundary);

    x = i % 3 == 0   ? uniform(-45, 710)
        : i % 3 == 1 ? uniform(-0.5, 0.5)
                     : ldexp(uniform(-1, 1), -(i % 64));
    if (i % 5 == 0)
      x = uniform(-40, 40);
    check_one(1, x, 0, pe_expm1(x), pe_expm1_accurate(x), expm1q(x), &near,
              wrong, differ, boundary);

    x = i % 3 == 0   ? exp(uniform(-745, 709))
        : i % 3 == 1 ? uniform(0.5, 2)
                     : ldexp(uniform(1, 2), -1023 - i % 52);
    check_one(2, x, 0, pe_log(x), pe_log_accurate(x), logq(x), &near, wrong,
              differ, boundary);

    x = i % 2 ? uniform(0, 64) : exp(uniform(-30, 30));
    double y = i % 5 ? uniform(-25, 25) : uniform(-1, 1);
    check_one(3, x, y, pe_pow(x, y), pe_pow_accurate(x, y), powq(x, y), &near,
              wrong, differ, boundary);
  }
  for (int f = 0; f < 4; f++) {
    CHECK(wrong[f] == 0, "%s: %ld of %d not correctly rounded", names[f],
          wrong[f], SAMPLES);
    CHECK(differ[f] == 0, "%s: %ld of %d differ from the accurate path",
          names[f], differ[f], SAMPLES);
    /* About 1 in 64 of the exact values: the comparison reaches them. */
    CHECK(boundary[f] > SAMPLES / 200, "%s: %ld near a boundary", names[f],
          boundary[f]);
  }
  /* The exact value is that close to a midpoint about once in 2^11. */
  CHECK(near < 4 * SAMPLES / 1000, "%ld near midpoints", near);

  double worst = 0;
  for (int i = 0; i < SAMPLES / 4; i++) {
    double x = uniform(1, 171), e = ulps(pe_tgamma(x), tgammaq(x));
    worst = e > worst ? e : worst;
  }
  CHECK(worst < 0.52, "Gamma: %.4f ulp", worst);
  printf(
      "exp, expm1, log, pow: %d arguments each, correctly rounded (%ld "
      "near a midpoint) and as the accurate paths (%ld, %ld, %ld, %ld within "
      "2^-7 ulp of a boundary); Gamma within %.4f ulp\n",
      SAMPLES, near, boundary[0], boundary[1], boundary[2], boundary[3], worst);
}

#define PATH_SAMPLES 2000000

/* Fast and accurate paths bit for bit, without references, on many more
   arguments: over the functions' ranges, and where the core calls them
   (the decay integral's e^(-L t), expm1(-L), ln of x / b, x^-s for x > 7
   and t^alpha; the schedules' exp and log). */
static void test_paths(void) {
  long differ[4] = {0};
  for (long i = 0; i < PATH_SAMPLES; i++) {
    double x = i % 3 == 0   ? uniform(-750, 712)
               : i % 3 == 1 ? -uniform(0, 14) * uniform(0, 1)
                            : uniform(-2, 2);
    if (!same_bits(pe_exp(x), pe_exp_accurate(x)) && differ[0]++ < 3)
      CHECK(0, "exp(%a): fast and accurate paths differ", x);

    x = i % 4 == 0   ? uniform(-50, 710)
        : i % 4 == 1 ? -uniform(0, 14)
        : i % 4 == 2 ? uniform(-40, 40)
                     : ldexp(uniform(-1, 1), -(int)(i % 70));
    if (!same_bits(pe_expm1(x), pe_expm1_accurate(x)) && differ[1]++ < 3)
      CHECK(0, "expm1(%a): fast and accurate paths differ", x);

    uint64_t bits = state >> (i % 2); /* any double >= 0, or any at all */
    memcpy(&x, &bits, sizeof x);
    /* Near 1 but for x within 2^-8 of it, ln x is least against the
       series' terms: the fast path's bound is tightest there. */
    x = i % 5 == 0   ? x
        : i % 5 == 1 ? uniform(0, 0.2) * uniform(0, 1)
        : i % 5 == 2 ? 1 + ldexp(uniform(-1, 1), -(int)(i % 60))
        : i % 5 == 3 ? uniform(0.97, 1.03)
                     : uniform(1, 1e6);
    if (!same_bits(pe_log(x), pe_log_accurate(x)) && differ[2]++ < 3)
      CHECK(0, "log(%a): fast and accurate paths differ", x);

    double y;
    switch (i % 4) {
    case 0: /* x^-s, s = 1/alpha */
      x = uniform(7, 2e3);
      y = -1 / uniform(1.0 / 1024, 4);
      break;
    case 1: /* t^alpha */
      x = uniform(0, 1);
      y = uniform(1.0 / 1024, 4);
      break;
    case 2: /* y ln x up to the ends of the range */
      x = exp(uniform(-40, 40));
      y = uniform(-760, 720) / log(x);
      break;
    default:
      x = uniform(0, 100);
      y = uniform(-200, 200);
    }
    if (!same_bits(pe_pow(x, y), pe_pow_accurate(x, y)) && differ[3]++ < 3)
      CHECK(0, "pow(%a, %a): fast and accurate paths differ", x, y);
  }
  printf("fast and accurate paths: %d arguments each, %ld, %ld, %ld, %ld "
         "differ\n",
         PATH_SAMPLES, differ[0], differ[1], differ[2], differ[3]);
  CHECK(differ[0] + differ[1] + differ[2] + differ[3] == 0,
        "fast paths differ");
}

static void test_special_values(void) {
  CHECK(pe_exp(0) == 1 && pe_exp(-INFINITY) == 0, "exp at 0, -inf");
  CHECK(pe_exp(INFINITY) == INFINITY && pe_exp(710) == INFINITY, "exp +inf");
  CHECK(pe_exp(-746) == 0 && pe_exp(-745) == 0x1p-1074, "exp's underflow");
  CHECK(pe_exp(709.782712893383973096) == 0x1.fffffffffff2ap+1023, "near max");
  CHECK(isnan(pe_exp(NAN)) && isnan(pe_expm1(NAN)), "exp NaN");
  CHECK(pe_expm1(-INFINITY) == -1 && pe_expm1(INFINITY) == INFINITY, "expm1");
  CHECK(pe_expm1(0x1p-70) == 0x1p-70 && signbit(pe_expm1(-0.0)), "expm1 tiny");
  CHECK(pe_log(1) == 0 && pe_log(0) == -INFINITY, "log at 1, 0");
  CHECK(pe_log(INFINITY) == INFINITY && isnan(pe_log(-1)), "log inf, < 0");
  CHECK(pe_log(0x1p-1074) == -0x1.74385446d71c3p+9, "log of the least");
  CHECK(pe_log(2) == 0x1.62e42fefa39efp-1, "log 2");
  CHECK(pe_pow(0, 2) == 0 && pe_pow(0, -2) == INFINITY, "pow at 0");
  CHECK(pe_pow(1, NAN) == 1 && pe_pow(NAN, 0) == 1, "pow's ones");
  CHECK(isnan(pe_pow(-2, 2)) && isnan(pe_pow(NAN, 1)), "pow NaN");
  CHECK(pe_pow(INFINITY, -1) == 0 && pe_pow(0.5, INFINITY) == 0, "pow inf");
  CHECK(pe_pow(2, 1024) == INFINITY && pe_pow(2, -1074) == 0x1p-1074,
        "pow's range");
  CHECK(pe_pow(2, 0.5) == 0x1.6a09e667f3bcdp+0, "sqrt 2");
  CHECK(pe_tgamma(1) == 1 && pe_tgamma(5) == 24 && pe_tgamma(171) > 7e306,
        "Gamma at integers");
  CHECK(isnan(pe_tgamma(0.5)) && isnan(pe_tgamma(172)), "Gamma's range");
}

int main(void) {
  test_special_values();
  test_random();
  test_paths();
  return check_report("exp_log");
}
