/* The core's exp, expm1, log, pow and Gamma against libquadmath's 113-bit
   functions on seeded random arguments over their ranges: exp, expm1, log
   and pow must return the correctly rounded value wherever the exact value
   is more than 2^-64 (relative) from a rounding midpoint, Gamma be within
   0.52 ulp; and the special values. */
#include <math.h>
#include <quadmath.h>
#include <stdint.h>
#include <stdio.h>

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

/* |got - ref| in ulps of the rounded reference. */
static double ulps(double got, __float128 ref) {
  double want = (double)ref;
  double ulp = nextafter(fabs(want), INFINITY) - fabs(want);
  return (double)fabsq(((__float128)got - ref) / ulp);
}

#define SAMPLES 40000

static void test_random(void) {
  long near = 0, wrong[4] = {0};
  for (int i = 0; i < SAMPLES; i++) {
    double x = i % 4 == 0 ? uniform(-746, 710) : uniform(-40, 40);
    if (!rounds_right(pe_exp(x), expq(x), &near) && wrong[0]++ < 3)
      CHECK(0, "exp(%a) = %a", x, pe_exp(x));

    x = i % 3 == 0   ? uniform(-45, 710)
        : i % 3 == 1 ? uniform(-0.5, 0.5)
                     : ldexp(uniform(-1, 1), -(i % 64));
    if (!rounds_right(pe_expm1(x), expm1q(x), &near) && wrong[1]++ < 3)
      CHECK(0, "expm1(%a) = %a", x, pe_expm1(x));

    x = i % 3 == 0   ? exp(uniform(-745, 709))
        : i % 3 == 1 ? uniform(0.5, 2)
                     : ldexp(uniform(1, 2), -1023 - i % 52);
    if (!rounds_right(pe_log(x), logq(x), &near) && wrong[2]++ < 3)
      CHECK(0, "log(%a) = %a", x, pe_log(x));

    x = i % 2 ? uniform(0, 64) : exp(uniform(-30, 30));
    double y = i % 5 ? uniform(-25, 25) : uniform(-1, 1);
    if (!rounds_right(pe_pow(x, y), powq(x, y), &near) && wrong[3]++ < 3)
      CHECK(0, "pow(%a, %a) = %a", x, y, pe_pow(x, y));
  }
  const char *names[4] = {"exp", "expm1", "log", "pow"};
  for (int f = 0; f < 4; f++)
    CHECK(wrong[f] == 0, "%s: %ld of %d not correctly rounded", names[f],
          wrong[f], SAMPLES);
  /* The exact value is that close to a midpoint about once in 2^11. */
  CHECK(near < 4 * SAMPLES / 1000, "%ld near midpoints", near);

  double worst = 0;
  for (int i = 0; i < SAMPLES / 4; i++) {
    double x = uniform(1, 171), e = ulps(pe_tgamma(x), tgammaq(x));
    worst = e > worst ? e : worst;
  }
  CHECK(worst < 0.52, "Gamma: %.4f ulp", worst);
  printf("exp, expm1, log, pow: %d arguments each, correctly rounded (%ld "
         "near a midpoint); Gamma within %.4f ulp\n",
         SAMPLES, near, worst);
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
  return check_report("exp_log");
}
