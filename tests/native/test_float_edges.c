/* Float edges through every entry point: subnormals, +-0, +-max double,
   angles next to each boundary of the vector sin/cos (quadrant switches at
   odd multiples of pi/4, the zeros of its reduced argument at multiples of
   pi/2, the fast-range limit PE_SINCOS_FAST_LIMIT, and the 2^26 bound of
   exact Cody-Waite products), positions at 2^k and 1 ulp either side for
   k <= 60, and Ci and Si next to the seams of their approximations. Every
   result is finite and within its documented tolerance of a quadruple
   precision reference, or refused with the right status and its output
   left untouched. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "decay_integral.h"
#include "dot_products.h"
#include "frequencies.h"
#include "reference.h"
#include "rotation.h"
#include "sincos_f64x2.h"
#include "special_functions.h"
#include "status.h"
#include "table.h"

/* Documented accuracies: float32 tables within 6e-8 of the exact value,
   float64 results within 1e-13. */
#define TOL_F32 6e-8
#define TOL_F64 1e-13

#define PI_Q 3.141592653589793238462643383279502884Q
#define EULER_GAMMA_Q 0.577215664901532860606512090082402431Q

static double worst_f32, worst_f64;

static void record(double error, double *worst) {
  if (error > *worst)
    *worst = error;
}

/* ---- the angles ------------------------------------------------------- */

#define MAX_ANGLES 2048
static double angles[MAX_ANGLES];
static int n_angles;

/* x and its finite neighbours up to 2 ulps away, with both signs. */
static void add_around(double x) {
  double lo = nextafter(nextafter(x, -INFINITY), -INFINITY);
  for (int k = 0; k < 5 && n_angles + 2 <= MAX_ANGLES; k++) {
    if (isfinite(lo)) {
      angles[n_angles++] = lo;
      angles[n_angles++] = -lo;
    }
    lo = nextafter(lo, INFINITY);
  }
}

/* The double nearest to m pi / 4. */
static double quarter_pi(double m) { return (double)(m * (PI_Q / 4)); }

static void collect_angles(void) {
  add_around(0);
  add_around(5e-324);
  add_around(DBL_MIN);
  add_around(1e-300);
  /* Quadrant switches ((2k + 1) pi/4) and zeros of r (k pi/2), near 0
     and near the top of the fast range. */
  for (int m = 1; m <= 16; m++)
    add_around(quarter_pi(m));
  double top = floor(PE_SINCOS_FAST_LIMIT / (PI_Q / 4));
  for (double m = top - 3; m <= top + 1; m++)
    add_around(quarter_pi(m));
  add_around(PE_SINCOS_FAST_LIMIT);
  add_around((double)(0x1p26 * (PI_Q / 2))); /* end of exact k * pi/2 parts */
  for (int k = 0; k <= 60; k++)
    add_around(ldexp(1, k));
  add_around(1e15);
  add_around(1e300);
  add_around(DBL_MAX);
}

/* ---- tables, rotations and dot products at the angles ------------------ */

static const double one = 1;

/* A one-pair table at position x (w = 1) is (sin x, cos x); with amplitude
   a it is a (sin x, cos x). */
static void check_table_angle(double x, double amplitude) {
  float f32[2] = {NAN, NAN};
  double f64[2] = {NAN, NAN};
  double s = sin_of_product(x, 1), c = cos_of_product(x, 1);
  int32_t st64 = pe_table_f64(f64, &x, 1, 0, 2, PE_LAYOUT_INTERLEAVED,
                              PE_ODD_ZERO_PAD, &one, 1, 1, amplitude);
  CHECK(st64 == PE_OK, "table f64 at %.17g: status %d", x, st64);
  double a = fabs(amplitude);
  double e64 = fmax(fabs(f64[0] - amplitude * s), fabs(f64[1] - amplitude * c));
  CHECK(e64 <= TOL_F64 * a + 1e-320, "table f64 at %.17g amplitude %g: %.3g", x,
        amplitude, e64);
  if (a == 1)
    record(e64, &worst_f64);
  int32_t st32 = pe_table_f32(f32, &x, 1, 0, 2, PE_LAYOUT_INTERLEAVED,
                              PE_ODD_ZERO_PAD, &one, 1, 1, amplitude);
  if (a > FLT_MAX) {
    CHECK(st32 == PE_ERR_OUTPUT_SCALE && isnan(f32[0]) && isnan(f32[1]),
          "table f32 amplitude %g: status %d", amplitude, st32);
    return;
  }
  CHECK(st32 == PE_OK, "table f32 at %.17g: status %d", x, st32);
  double e32 = fmax(fabs(f32[0] - amplitude * s), fabs(f32[1] - amplitude * c));
  CHECK(e32 <= TOL_F32 * a + 0x1p-149, "table f32 at %.17g amplitude %g: %.3g",
        x, amplitude, e32);
  if (a == 1)
    record(e32, &worst_f32);
}

/* Evenly spaced rows from start = x (the recurrence of float32 tables):
   start + j is exact below 2^52. */
static void check_table_run(double x) {
  enum { ROWS = 6 };
  float f32[2 * ROWS];
  double f64[2 * ROWS];
  CHECK(pe_table_f32(f32, NULL, ROWS, x, 2, PE_LAYOUT_INTERLEAVED,
                     PE_ODD_ZERO_PAD, &one, 1, 1, 1) == PE_OK &&
            pe_table_f64(f64, NULL, ROWS, x, 2, PE_LAYOUT_INTERLEAVED,
                         PE_ODD_ZERO_PAD, &one, 1, 1, 1) == PE_OK,
        "table run from %.17g", x);
  for (int j = 0; j < ROWS; j++) {
    double p = x + j, s = sin_of_product(p, 1), c = cos_of_product(p, 1);
    double e32 = fmax(fabs(f32[2 * j] - s), fabs(f32[2 * j + 1] - c));
    double e64 = fmax(fabs(f64[2 * j] - s), fabs(f64[2 * j + 1] - c));
    CHECK(e32 <= TOL_F32 && e64 <= TOL_F64,
          "table run from %.17g row %d: %.3g, %.3g", x, j, e32, e64);
    record(e32, &worst_f32);
    record(e64, &worst_f64);
  }
}

/* R(k) (sin-first: the rotation by -k) on (1, 0) is (cos k, -sin k); RoPE by
   position p on (1, 0) is (cos p, sin p); g(k) = cos k; the matrix
   R(k) = [[cos k, sin k], [-sin k, cos k]]. */
static void check_relation_angle(double k) {
  double s = sin_of_product(k, 1), c = cos_of_product(k, 1);
  double in64[2] = {1, 0}, out64[2] = {NAN, NAN};
  CHECK(pe_rotate_f64(out64, in64, 1, 2, &k, 0, PE_LAYOUT_INTERLEAVED,
                      PE_ODD_ZERO_PAD, &one, 1, 1) == PE_OK,
        "rotate f64 by %.17g", k);
  double e = fmax(fabs(out64[0] - c), fabs(out64[1] + s));
  CHECK(e <= TOL_F64, "rotate f64 by %.17g: %.3g", k, e);
  record(e, &worst_f64);

  float in32[2] = {1, 0}, out32[2] = {NAN, NAN};
  CHECK(pe_rope(out32, in32, PE_CACHE_FLOAT32, 1, 2, 2, 1, 1, &k, 0,
                PE_PAIRING_INTERLEAVED, &one, 1, 1, 1) == PE_OK,
        "rope by %.17g", k);
  e = fmax(fabs(out32[0] - c), fabs(out32[1] - s));
  CHECK(e <= TOL_F32, "rope by %.17g: %.3g", k, e);
  record(e, &worst_f32);

  double g = NAN;
  CHECK(pe_dot_products(&g, &k, 1, 0, 0, 2, PE_ODD_ZERO_PAD, &one, 1, 1, 1) ==
            PE_OK,
        "dot product at %.17g", k);
  CHECK(fabs(g - c) <= TOL_F64, "dot product at %.17g: %.3g", k, fabs(g - c));
  record(fabs(g - c), &worst_f64);

  double m[4] = {NAN, NAN, NAN, NAN};
  CHECK(pe_rotation_matrix_f64(m, k, 2, PE_LAYOUT_INTERLEAVED, PE_ODD_ZERO_PAD,
                               &one, 1, 1) == PE_OK,
        "rotation matrix at %.17g", k);
  e = fmax(fmax(fabs(m[0] - c), fabs(m[1] - s)),
           fmax(fabs(m[2] + s), fabs(m[3] - c)));
  CHECK(e <= TOL_F64, "rotation matrix at %.17g: %.3g", k, e);
}

static void test_angles(void) {
  collect_angles();
  for (int k = 0; k < n_angles; k++) {
    check_table_angle(angles[k], 1);
    check_relation_angle(angles[k]);
    if (fabs(angles[k]) < 0x1p52)
      check_table_run(angles[k]);
  }
  /* Amplitudes at the edges: +-0, subnormal, the float32 limit and past it,
     max double. */
  const double amplitudes[] = {0.0,     -0.0,    5e-324,
                               DBL_MIN, FLT_MAX, nextafter(FLT_MAX, INFINITY),
                               -1e300,  DBL_MAX};
  for (size_t i = 0; i < sizeof amplitudes / sizeof amplitudes[0]; i++)
    for (int k = 0; k < n_angles; k += 7)
      check_table_angle(angles[k], amplitudes[i]);
}

/* Positions or frequencies near max double, the other factor small: the
   exact product's split must not overflow. */
static void test_huge_factors(void) {
  const double huge[] = {DBL_MAX, -DBL_MAX, 1.5e300, 0x1.fffffffffffffp1000};
  const double small[] = {0.1, 1e-10, 0.7, 3e-300};
  for (int i = 0; i < 4; i++)
    for (int k = 0; k < 4; k++) {
      double p = huge[i], w = small[k], out[2] = {NAN, NAN}, g = NAN;
      double s = sin_of_product(p, w), c = cos_of_product(p, w);
      float out32[2] = {NAN, NAN};
      /* position huge, frequency small */
      CHECK(pe_table_f64(out, &p, 1, 0, 2, 0, 0, &w, 1, 1, 1) == PE_OK &&
                fmax(fabs(out[0] - s), fabs(out[1] - c)) <= TOL_F64,
            "table f64 at %g, w = %g: %.17g, want %.17g", p, w, out[0], s);
      CHECK(pe_table_f32(out32, &p, 1, 0, 2, 0, 0, &w, 1, 1, 1) == PE_OK &&
                fmax(fabs(out32[0] - s), fabs(out32[1] - c)) <= TOL_F32,
            "table f32 at %g, w = %g: %.9g, want %.9g", p, w, out32[0], s);
      CHECK(pe_dot_products(&g, &p, 1, 0, 0, 2, 0, &w, 1, 1, 1) == PE_OK &&
                fabs(g - c) <= TOL_F64,
            "dot product at %g, w = %g: %.17g, want %.17g", p, w, g, c);
      /* frequency huge (through scale), position small */
      double q = w, one_scale = 1;
      CHECK(pe_table_f64(out, &q, 1, 0, 2, 0, 0, &one_scale, 1, p, 1) ==
                    PE_OK &&
                fmax(fabs(out[0] - s), fabs(out[1] - c)) <= TOL_F64,
            "table f64 at %g, scale %g: %.17g, want %.17g", q, p, out[0], s);
    }
}

/* Products next to max double from two moderate factors, where the partial
   products of the split would overflow. */
static void test_products_near_max(void) {
  double p = 0x1.fffffffffffffp600, w = 0x1.ffffffffffffep422;
  double out[2] = {NAN, NAN};
  double s = sin_of_product(p, w), c = cos_of_product(p, w), one_scale = 1;
  CHECK(pe_table_f64(out, &p, 1, 0, 2, 0, 0, &one_scale, 1, w, 1) == PE_OK &&
            fmax(fabs(out[0] - s), fabs(out[1] - c)) <= TOL_F64,
        "table f64 at %a, scale %a: %.17g, want %.17g", p, w, out[0], s);
}

/* ---- positions 2^k and 1 ulp either side, on a real schedule ----------- */

static void test_powers_of_two(void) {
  enum { DIM = 64, H = DIM / 2 };
  double omega[H];
  CHECK(pe_frequencies(PE_SCHEDULE_PAPER, DIM, PE_ODD_ZERO_PAD, 10000, 1, 1, 0,
                       omega, H) == PE_OK,
        "paper frequencies");
  for (int k = 0; k <= 60; k++) {
    double p = ldexp(1, k);
    double positions[3] = {nextafter(p, 0), p, nextafter(p, INFINITY)};
    for (int layout = 0; layout < PE_LAYOUT_COUNT; layout++) {
      float f32[3 * DIM];
      double f64[3 * DIM];
      CHECK(pe_table_f32(f32, positions, 3, 0, DIM, layout, PE_ODD_ZERO_PAD,
                         omega, H, 1, 1) == PE_OK &&
                pe_table_f64(f64, positions, 3, 0, DIM, layout, PE_ODD_ZERO_PAD,
                             omega, H, 1, 1) == PE_OK,
            "table at 2^%d", k);
      int interleaved = layout == PE_LAYOUT_INTERLEAVED ||
                        layout == PE_LAYOUT_INTERLEAVED_COS_FIRST;
      int cos_first = layout == PE_LAYOUT_INTERLEAVED_COS_FIRST ||
                      layout == PE_LAYOUT_HALVES_COS_FIRST;
      double e32 = 0, e64 = 0;
      for (int j = 0; j < 3; j++)
        for (int i = 0; i < H; i++) {
          int first = interleaved ? 2 * i : i;
          int second = interleaved ? 2 * i + 1 : i + H;
          int sin_col = cos_first ? second : first;
          int cos_col = cos_first ? first : second;
          double s = sin_of_product(positions[j], omega[i]);
          double c = cos_of_product(positions[j], omega[i]);
          e32 = fmax(e32, fmax(fabs(f32[j * DIM + sin_col] - s),
                               fabs(f32[j * DIM + cos_col] - c)));
          e64 = fmax(e64, fmax(fabs(f64[j * DIM + sin_col] - s),
                               fabs(f64[j * DIM + cos_col] - c)));
        }
      CHECK(e32 <= TOL_F32 && e64 <= TOL_F64,
            "table at 2^%d +- 1 ulp, layout %d: %.3g, %.3g", k, layout, e32,
            e64);
      record(e32, &worst_f32);
      record(e64, &worst_f64);
    }
  }
}

/* ---- refusals ------------------------------------------------------------ */

static void test_refusals(void) {
  const double bad[] = {INFINITY, -INFINITY, NAN};
  const double two = 2;
  for (int i = 0; i < 3; i++) {
    double x = bad[i], out64[2] = {NAN, NAN}, in64[2] = {1, 0};
    float out32[2] = {NAN, NAN}, in32[2] = {1, 0};
    CHECK(pe_table_f64(out64, &x, 1, 0, 2, 0, 0, &one, 1, 1, 1) ==
              PE_ERR_POSITIONS,
          "table at %g", x);
    CHECK(pe_table_f32(out32, NULL, 1, x, 2, 0, 0, &one, 1, 1, 1) ==
              PE_ERR_POSITIONS,
          "table from %g", x);
    CHECK(pe_table_f64(out64, NULL, 1, 0, 2, 0, 0, &one, 1, x, 1) ==
              PE_ERR_SCALE,
          "table scale %g", x);
    CHECK(pe_table_f64(out64, NULL, 1, 0, 2, 0, 0, &one, 1, 1, x) ==
              PE_ERR_OUTPUT_SCALE,
          "table amplitude %g", x);
    CHECK(pe_table_f64(out64, NULL, 1, 0, 2, 0, 0, &x, 1, 1, 1) ==
              PE_ERR_FREQUENCIES,
          "table frequency %g", x);
    CHECK(pe_rotate_f64(out64, in64, 1, 2, &x, 0, 0, 0, &one, 1, 1) ==
              PE_ERR_OFFSETS,
          "rotate by %g", x);
    CHECK(pe_rope(out32, in32, PE_CACHE_FLOAT32, 1, 2, 2, 1, 1, &x, 0, 0, &one,
                  1, 1, 1) == PE_ERR_POSITIONS,
          "rope at %g", x);
    CHECK(pe_dot_products(out64, &x, 1, 0, 0, 2, 0, &one, 1, 1, 1) ==
              PE_ERR_OFFSETS,
          "dot product at %g", x);
    CHECK(pe_dot_products(out64, NULL, 2, 0, x, 2, 0, &one, 1, 1, 1) ==
              PE_ERR_OFFSETS,
          "dot products step %g", x);
    CHECK(isnan(out64[0]) && isnan(out64[1]) && isnan(out32[0]) &&
              isnan(out32[1]),
          "refusals at %g left the outputs alone", x);
  }
  /* Finite arguments whose product with a frequency overflows. */
  double out64[2] = {NAN, NAN}, max = DBL_MAX, in64[2] = {1, 0};
  CHECK(pe_table_f64(out64, &max, 1, 0, 2, 0, 0, &two, 1, 1, 1) ==
            PE_ERR_POSITIONS,
        "table at DBL_MAX, w = 2");
  CHECK(pe_table_f64(out64, NULL, 1, 1, 2, 0, 0, &two, 1, DBL_MAX, 1) ==
            PE_ERR_SCALE,
        "table scale DBL_MAX, w = 2");
  CHECK(pe_rotate_f64(out64, in64, 1, 2, &max, 0, 0, 0, &two, 1, 1) ==
            PE_ERR_OFFSETS,
        "rotate by DBL_MAX, w = 2");
  CHECK(pe_dot_products(out64, NULL, 1, 0, 1, 2, 0, &one, 1, 1, 1e200) ==
            PE_ERR_OUTPUT_SCALE,
        "dot products amplitude 1e200");
  CHECK(isnan(out64[0]) && isnan(out64[1]), "outputs left alone");
}

/* ---- Ci and Si ----------------------------------------------------------- */

/* Quadruple-precision references: the power series below 24, where its
   terms (at most e^24) lose 11 of 34 digits; the asymptotic series of the
   auxiliary functions from 1000 on, where its smallest term is e^-1000. */
static void cisi_reference(double x, double *ci, double *si) {
  __float128 X = x;
  if (x < 24) {
    __float128 term = X, s = X, cin = 0, x2 = X * X, t2 = 1;
    for (int k = 1; k < 200; k++) {
      term *= -x2 / ((2 * k) * (2 * k + 1)); /* (-1)^k x^(2k+1)/(2k+1)! */
      s += term / (2 * k + 1);
      t2 *= -x2 / ((2 * k - 1) * (2 * k)); /* (-1)^k x^(2k)/(2k)! */
      cin -= t2 / (2 * k);
    }
    *si = (double)s;
    *ci = (double)(EULER_GAMMA_Q + logq(X) - cin);
    return;
  }
  __float128 f = 0, g = 0, tf = 1 / X, tg = 1 / (X * X);
  for (int k = 0; k < 60; k++) {
    f += tf;
    g += tg;
    tf *= -(__float128)(2 * k + 1) * (2 * k + 2) / (X * X);
    tg *= -(__float128)(2 * k + 2) * (2 * k + 3) / (X * X);
  }
  __float128 sx = sinq(X), cx = cosq(X);
  *ci = (double)(f * sx - g * cx);
  *si = (double)(PI_Q / 2 - f * cx - g * sx);
}

static void check_cisi(double x) {
  double ci_want, si_want, ci = NAN, si = NAN, si_neg = NAN, minus = -x;
  cisi_reference(x, &ci_want, &si_want);
  CHECK(pe_ci(&x, 1, &ci) == PE_OK && pe_si(&x, 1, &si) == PE_OK &&
            pe_si(&minus, 1, &si_neg) == PE_OK,
        "Ci, Si at %.17g", x);
  /* The documented accuracy: relative where |Ci| is at least a tenth of
     its envelope min(1, 1/x), absolute near its zeros; a few subnormal
     steps where the result underflows. */
  double env = x < 1 ? 1 : 1 / x;
  CHECK(isfinite(ci) &&
            fabs(ci - ci_want) <= 2e-15 * fabs(ci_want) + 5e-16 * env + 1e-322,
        "Ci(%.17g) = %.17g, want %.17g", x, ci, ci_want);
  CHECK(isfinite(si) && fabs(si - si_want) <= 2e-15 * fabs(si_want),
        "Si(%.17g) = %.17g, want %.17g", x, si, si_want);
  CHECK(si_neg == -si, "Si odd at %.17g", x);
}

static void test_cisi(void) {
  /* The seams of the approximations: series below PE_CISI_SPLIT, then
     auxiliary-function fits on [2, 4), [4, 8), [8, 16) and [16, inf). */
  const double seams[] = {PE_CISI_SPLIT, 4, 8, 16};
  for (size_t i = 0; i < 4; i++) {
    double x = nextafter(nextafter(seams[i], 0), 0);
    for (int k = 0; k < 5; k++, x = nextafter(x, INFINITY))
      check_cisi(x);
  }
  const double tiny[] = {5e-324, 1e-320, DBL_MIN, 1e-300, 1e-100, 1e-8};
  for (size_t i = 0; i < sizeof tiny / sizeof tiny[0]; i++)
    check_cisi(tiny[i]);
  check_cisi(0.61650548562981);        /* the first zero of Ci */
  for (int k = 10; k <= 1023; k += 13) /* 2^k and past the fast range */
    check_cisi(ldexp(1, k));
  check_cisi(1e8);
  check_cisi(nextafter(1e8, INFINITY));
  check_cisi(DBL_MAX);

  double x[3] = {0.0, -0.0, -1}, out[3] = {NAN, NAN, NAN};
  CHECK(pe_ci(x, 1, out) == PE_ERR_CI_X &&
            pe_ci(x + 1, 1, out) == PE_ERR_CI_X &&
            pe_ci(x + 2, 1, out) == PE_ERR_CI_X && isnan(out[0]),
        "Ci refuses x <= 0");
  CHECK(pe_si(x, 2, out) == PE_OK && out[0] == 0 && !signbit(out[0]) &&
            out[1] == 0 && signbit(out[1]),
        "Si(+-0) = +-0");
  const double bad[] = {INFINITY, -INFINITY, NAN};
  for (int i = 0; i < 3; i++) {
    double v = bad[i], r = NAN;
    CHECK(pe_ci(&v, 1, &r) == PE_ERR_POSITIONS &&
              pe_si(&v, 1, &r) == PE_ERR_POSITIONS && isnan(r),
          "Ci, Si refuse %g", v);
  }
}

/* ---- the decay integral ----------------------------------------------------
 */

/* f(x) = (Ci(x) - Ci(x/b)) / ln b, both Ci from the references above. */
static void test_decay(void) {
  const double b = 10000, tiny[] = {0.0, -0.0, 5e-324, DBL_MIN, 1e-300, 1e-8};
  for (size_t i = 0; i < sizeof tiny / sizeof tiny[0]; i++)
    for (int32_t theta = 0; theta < PE_THETA_COUNT; theta++) {
      double f = NAN, x = tiny[i];
      CHECK(pe_decay_integral(theta, b, 0.5, &x, 1, &f) == PE_OK &&
                fabs(f - 1) <= x * x + 1e-16,
            "decay %d at %g: %.17g", theta, x, f);
    }
  const double large[] = {1e8,
                          nextafter(1e8, 0),
                          nextafter(1e8, INFINITY),
                          0x1p40,
                          0x1p60,
                          1e300,
                          DBL_MAX};
  for (size_t i = 0; i < sizeof large / sizeof large[0]; i++) {
    double x = large[i], f = NAN, ci_x, ci_q, unused, minus = -x, f_minus = NAN;
    cisi_reference(x, &ci_x, &unused);
    cisi_reference(x / b, &ci_q, &unused);
    double want = (ci_x - ci_q) / log(b);
    CHECK(pe_decay_integral(PE_THETA_EXP, b, 0, &x, 1, &f) == PE_OK &&
              pe_decay_integral(PE_THETA_EXP, b, 0, &minus, 1, &f_minus) ==
                  PE_OK &&
              fabs(f - want) <= TOL_F64 && f == f_minus,
          "decay exp at %.17g: %.17g, want %.17g", x, f, want);
    for (int32_t theta = PE_THETA_POWER; theta < PE_THETA_COUNT; theta++) {
      CHECK(pe_decay_integral(theta, b, 0.5, &x, 1, &f) == PE_OK &&
                isfinite(f) && fabs(f) <= 1,
            "decay %d at %.17g: %.17g", theta, x, f);
    }
  }
}

/* Each lane's sin and cos depend on its own angle alone, whatever the other
   lane holds (an angle past the fast range, where that lane goes to libm):
   M-RoPE seeds pairs at different positions side by side, and each must
   equal its plain row bit for bit. */
static void test_lanes_alone(void) {
  const double partners[] = {0.5, -3e8, 1e9, 0x1p60, 1e300, 0.0};
  int bad = 0;
  for (int k = 0; k < n_angles; k++)
    for (size_t j = 0; j < sizeof partners / sizeof partners[0]; j++) {
      double a = angles[k], b = partners[j];
      v128_t s_alone, c_alone, s_mixed, c_mixed;
      pe_sincos_f64x2(wasm_f64x2_splat(a), &s_alone, &c_alone);
      pe_sincos_f64x2(wasm_f64x2_make(b, a), &s_mixed, &c_mixed);
      double want[2] = {wasm_f64x2_extract_lane(s_alone, 0),
                        wasm_f64x2_extract_lane(c_alone, 0)};
      double got[2] = {wasm_f64x2_extract_lane(s_mixed, 1),
                       wasm_f64x2_extract_lane(c_mixed, 1)};
      bad += memcmp(want, got, sizeof want) != 0;
    }
  CHECK(bad == 0, "%d angles change with the other lane's angle", bad);
}

int main(void) {
  test_angles();
  test_lanes_alone();
  test_powers_of_two();
  test_huge_factors();
  test_products_near_max();
  test_refusals();
  test_cisi();
  test_decay();
  printf("float edges: %d angles; worst error against quadruple precision "
         "%.3g (float32), %.3g (float64)\n",
         n_angles, worst_f32, worst_f64);
  return check_report("float edges");
}
