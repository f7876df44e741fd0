/* Ci and Si against the committed mpmath vectors
   (tests/vectors/generate_decay_vectors.py), identities, and every
   bad-input rule. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "special_functions.h"
#include "status.h"
#include "vectors.h"

#define EULER_GAMMA 0.57721566490153286061
#define HALF_PI 1.57079632679489661923

static void test_vectors(void) {
  double *d;
  size_t n = read_vectors("tests/vectors/decay/ci_si.txt", 3, &d);
  CHECK(n > 400, "ci_si rows %zu", n);
  double worst_ci_rel = 0, worst_ci_abs = 0, worst_si = 0;
  double *xs = malloc(n * sizeof(double)), *ci = malloc(n * sizeof(double)),
         *si = malloc(n * sizeof(double)), *si_neg = malloc(n * sizeof(double));
  for (size_t i = 0; i < n; i++)
    xs[i] = d[3 * i];
  CHECK(pe_ci(xs, (uint32_t)n, ci) == PE_OK, "pe_ci");
  CHECK(pe_si(xs, (uint32_t)n, si) == PE_OK, "pe_si");
  for (size_t i = 0; i < n; i++)
    xs[i] = -xs[i];
  CHECK(pe_si(xs, (uint32_t)n, si_neg) == PE_OK, "pe_si negative");
  for (size_t i = 0; i < n; i++) {
    double x = d[3 * i], rc = d[3 * i + 1], rs = d[3 * i + 2];
    double ec = fabs(ci[i] - rc), es = fabs(si[i] - rs);
    /* Relative 2e-15, with an absolute floor at the scale of Ci's
       oscillation (1/x), which only matters near its zeros. */
    double env = x < 1 ? 1 : 1 / x;
    CHECK(ec <= 2e-15 * fabs(rc) + 5e-16 * env, "Ci(%.17g) = %.17g, want %.17g",
          x, ci[i], rc);
    CHECK(es <= 2e-15 * fabs(rs), "Si(%.17g) = %.17g, want %.17g", x, si[i],
          rs);
    CHECK(si_neg[i] == -si[i], "Si odd at %.17g", x);
    CHECK(ci[i] == pe_ci1(x) && si[i] == pe_si1(x), "scalar = array at %g", x);
    if (fabs(rc) >= 0.1 * env) {
      if (ec / fabs(rc) > worst_ci_rel)
        worst_ci_rel = ec / fabs(rc);
    } else if (ec / env > worst_ci_abs) {
      worst_ci_abs = ec / env;
    }
    if (es / fabs(rs) > worst_si)
      worst_si = es / fabs(rs);
  }
  printf("Ci: max relative error %.3g where |Ci| >= env/10, max error / env "
         "%.3g near zeros (env = min(1, 1/x)); Si: max relative error %.3g\n",
         worst_ci_rel, worst_ci_abs, worst_si);
  free(xs);
  free(ci);
  free(si);
  free(si_neg);
  free(d);
}

static void test_identities(void) {
  /* Continuity across the split between series and auxiliary functions. */
  double below = nextafter(PE_CISI_SPLIT, 0), at = PE_CISI_SPLIT;
  CHECK(fabs(pe_ci1(below) - pe_ci1(at)) < 1e-15, "Ci continuous at split");
  CHECK(fabs(pe_si1(below) - pe_si1(at)) < 1e-15, "Si continuous at split");
  for (double x = 0.25; x < 40; x *= 1.37) {
    double cin = pe_cin1(x);
    CHECK(fabs(cin - (EULER_GAMMA + log(x) - pe_ci1(x))) <=
              4e-16 * (1 + fabs(log(x))),
          "Cin = gamma + ln x - Ci at %g", x);
    CHECK(pe_cin1(-x) == cin, "Cin even at %g", x);
    /* Ci' = cos x / x and Si' = sin x / x by central differences. */
    double h = 1e-6 * fmin(x, 1);
    double dci = (pe_ci1(x + h) - pe_ci1(x - h)) / (2 * h);
    double dsi = (pe_si1(x + h) - pe_si1(x - h)) / (2 * h);
    CHECK(fabs(dci - cos(x) / x) < 1e-9, "Ci' at %g", x);
    CHECK(fabs(dsi - sin(x) / x) < 1e-9, "Si' at %g", x);
  }
  /* Small-argument limits. */
  CHECK(pe_si1(1e-300) == 1e-300, "Si(tiny) = tiny");
  CHECK(fabs(pe_ci1(1e-300) - (EULER_GAMMA + log(1e-300))) < 1e-13,
        "Ci(tiny) = gamma + ln x");
  CHECK(pe_cin1(0) == 0, "Cin(0)");
  /* Large-argument limits. */
  CHECK(fabs(pe_si1(1e300) - HALF_PI) < 1e-15, "Si(1e300)");
  CHECK(fabs(pe_ci1(1e300)) < 1e-299, "Ci(1e300)");
}

static void test_special_values(void) {
  CHECK(isnan(pe_ci1(0.0)) && isnan(pe_ci1(-1.0)) && isnan(pe_ci1(NAN)),
        "Ci undefined for x <= 0");
  CHECK(pe_ci1(INFINITY) == 0.0, "Ci(inf) = 0");
  CHECK(pe_si1(INFINITY) == HALF_PI && pe_si1(-INFINITY) == -HALF_PI,
        "Si(+-inf)");
  CHECK(pe_si1(0.0) == 0.0 && signbit(pe_si1(-0.0)), "Si(+-0)");
  CHECK(isnan(pe_si1(NAN)), "Si(nan)");
}

static void test_bad_input(void) {
  double buf[5] = {1, 2, 3, 4, 5}, out[5];
  double *odd = (double *)((char *)buf + 1);
  for (int i = 0; i < 5; i++)
    out[i] = -7;
  for (int which = 0; which < 2; which++) {
    int (*fn)(const double *, uint32_t, double *) = which ? pe_si : pe_ci;
    CHECK(fn(NULL, 0, NULL) == PE_OK, "n = 0 with null");
    CHECK(fn(NULL, 1, out) == PE_ERR_NULL, "null x");
    CHECK(fn(buf, 1, NULL) == PE_ERR_NULL, "null out");
    CHECK(fn(odd, 1, out) == PE_ERR_NULL, "misaligned x");
    CHECK(fn(buf, 1, (double *)((char *)out + 4)) == PE_ERR_NULL,
          "misaligned out");
    CHECK(fn(buf, (1u << 28) + 1, out) == PE_ERR_COUNT, "count");
    CHECK(fn(NULL, UINT32_MAX, NULL) == PE_ERR_COUNT, "count before null");
    double bad[3] = {1, NAN, 2};
    CHECK(fn(bad, 3, out) == PE_ERR_POSITIONS, "nan");
    bad[1] = INFINITY;
    CHECK(fn(bad, 3, out) == PE_ERR_POSITIONS, "inf");
    bad[1] = -INFINITY;
    CHECK(fn(bad, 3, out) == PE_ERR_POSITIONS, "-inf");
    for (int i = 0; i < 5; i++)
      CHECK(out[i] == -7, "output untouched on error");
  }
  double nonpos[3] = {1, 0, 2};
  CHECK(pe_ci(nonpos, 3, out) == PE_ERR_CI_X, "Ci(0)");
  nonpos[1] = -1;
  CHECK(pe_ci(nonpos, 3, out) == PE_ERR_CI_X, "Ci(-1)");
  CHECK(pe_si(nonpos, 3, out) == PE_OK && out[1] == -pe_si1(1),
        "Si accepts negatives");
  /* Still works afterwards, and in place. */
  double inplace[2] = {1, 2};
  CHECK(pe_ci(inplace, 2, inplace) == PE_OK &&
            fabs(inplace[0] - 0.33740392290096813) < 1e-16,
        "Ci(1) in place");
}

int main(void) {
  test_vectors();
  test_identities();
  test_special_values();
  test_bad_input();
  return check_report("special_functions");
}
