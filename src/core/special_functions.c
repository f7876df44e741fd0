/* Ci and Si in double precision, from the published method (A&S 5.2,
   DLMF 6.6, 6.12; the split into a small-argument series and auxiliary
   functions f, g is the one of Cephes sici.c). Coefficients were produced by
   src/core/fit/fit_sici.py, which states their fitting errors. */
#include "special_functions.h"

#include <float.h>
#include <math.h>
#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>

#include "bounds.h"
#include "exp_log.h"
#include "pi.h"
#include "status.h"

#define PE_EULER_GAMMA 0.57721566490153286061

/* Output of fit_sici.py (taylor, aux). */
/* Taylor coefficients of Cin(x)/x^2 and Si(x)/x in x^2. */
static const double cin_taylor[12] = {
    0.25,
    -0.010416666666666666,
    0.0002314814814814815,
    -3.1001984126984127e-06,
    2.755731922398589e-08,
    -1.7397297489890083e-10,
    8.193389712664089e-13,
    -2.9871733327421158e-15,
    8.677337204770125e-18,
    -2.0551588116560825e-20,
    4.0439960874775335e-23,
    -6.715573212900493e-26,
};
static const double si_taylor[12] = {
    1.0,
    -0.05555555555555555,
    0.0016666666666666668,
    -2.834467120181406e-05,
    3.0619243582206544e-07,
    -2.27746439867652e-09,
    1.2353110643708935e-11,
    -5.0981091545465446e-14,
    1.6537983849091297e-16,
    -4.326650129802279e-19,
    9.32044812542441e-22,
    -1.6818131176655147e-24,
};
/* x in [2, 4): x f(x) = P(v)/Q(v), v = (2/x)^2, degrees 8/8; fit
 * error 9.51e-20, with double coefficients 6.57e-17 */
static const double f2_p[9] = {
    0.9999970479517256, 29.4831944600936,   279.1587680062246,
    1096.1220061598929, 1910.1284274588195, 1454.2700810428196,
    438.6920749854661,  40.80440746102506,  0.5157717258413154,
};
static const double f2_q[9] = {
    1.0,
    29.98293178224446,
    292.66367017473715,
    1208.1742140070926,
    2277.053960111781,
    1956.9802059596718,
    716.2715782142255,
    93.88752975210363,
    2.8061706132025015,
};
/* x in [2, 4): x^2 g(x) = P(v)/Q(v), v = (2/x)^2, degrees 8/8; fit
 * error 2.81e-19, with double coefficients 1.88e-17 */
static const double g2_p[9] = {
    0.9999802173875173, 32.853032480866645, 340.87534327278763,
    1440.1531353268524, 2647.8327333915336, 2078.6959603671935,
    625.4221433494804,  53.869489720824575, 0.3673904132985204,
};
static const double g2_q[9] = {
    1.0,
    34.35112382161932,
    385.0096254407441,
    1833.8047125151206,
    4022.6533438413553,
    4084.552755609594,
    1812.6231220564443,
    302.42570995852293,
    12.863341343264064,
};
/* x in [4, 8): x f(x) = P(v)/Q(v), v = (4/x)^2, degrees 7/7; fit
 * error 7.54e-19, with double coefficients 1.62e-17 */
static const double f4_p[8] = {
    0.9999999731953046, 14.198601954225868, 65.46620715575064,
    123.59605131560748, 98.68676705690949,  30.8112958379933,
    2.95536450959325,   0.0388951322662294,
};
static const double f4_q[8] = {
    1.0,
    14.323600459953033,
    67.16295077956971,
    130.82344895900314,
    110.6619549042307,
    38.56428078182646,
    4.666120461840344,
    0.12323566350602212,
};
/* x in [4, 8): x^2 g(x) = P(v)/Q(v), v = (4/x)^2, degrees 7/7; fit
 * error 3.42e-18, with double coefficients 4.81e-17 */
static const double g4_p[8] = {
    0.9999997723502395, 15.81057347867451,   80.86608078225842,
    168.12226398222467, 145.96221971087584,  48.40723316764177,
    4.657176902030286,  0.04146873460554474,
};
static const double g4_q[8] = {
    1.0,
    16.185560114127362,
    86.46733057220412,
    194.18161657524038,
    192.80870621725728,
    81.20585063880381,
    12.523212700528024,
    0.47609740119445515,
};
/* x in [8, 16): x f(x) = P(v)/Q(v), v = (8/x)^2, degrees 6/6; fit
 * error 1.04e-18, with double coefficients 9.86e-18 */
static const double f8_p[7] = {
    0.9999999999171759,    5.756374521126791,  10.468540703012343,
    7.3470195893002135,    1.9379965129136971, 0.15457409631398694,
    0.0016942368381152068,
};
static const double f8_q[7] = {
    1.0,
    5.787624518075231,
    10.64354464888824,
    7.648464433417137,
    2.128145215522901,
    0.19492404572095914,
    0.0036236152967970194,
};
/* x in [8, 16): x^2 g(x) = P(v)/Q(v), v = (8/x)^2, degrees 6/6; fit
 * error 7.32e-18, with double coefficients 3.54e-17 */
static const double g8_p[7] = {
    0.9999999991314376,   6.425660460951705,  13.118391670494672,
    10.375067068819183,   3.0757851493853448, 0.26817590830596677,
    0.002464379065166867,
};
static const double g8_q[7] = {
    1.0,
    6.519410427941797,
    13.700290137341927,
    11.48768939836077,
    3.8551655337847324,
    0.4520390157445218,
    0.012342172046061863,
};
/* x in [16, inf): x f(x) = P(v)/Q(v), v = (16/x)^2, degrees 6/6; fit
 * error 1.82e-19, with double coefficients 3.11e-17 */
static const double f16_p[7] = {
    1.0,
    3.180168943591627,
    3.215785621475923,
    1.257064679991349,
    0.18417606457670155,
    0.008112219624390233,
    4.88990594440274e-05,
};
static const double f16_q[7] = {
    1.0,
    3.187981443591627,
    3.2403255155664903,
    1.2812551647524946,
    0.19312665350065955,
    0.0092642440444941,
    8.393722673711931e-05,
};
/* x in [16, inf): x^2 g(x) = P(v)/Q(v), v = (16/x)^2, degrees 6/6; fit
 * error 2.28e-18, with double coefficients 2.83e-17 */
static const double g16_p[7] = {
    1.0,
    3.554800584328563,
    4.067960315171697,
    1.8263992190174503,
    0.31220295601768555,
    0.01611833782091871,
    9.665861391898053e-05,
};
static const double g16_q[7] = {
    1.0,
    3.5782380843285617,
    4.149994215585755,
    1.9174131662339151,
    0.3505339004572072,
    0.02180375626964463,
    0.00029899911520118197,
};

static inline __attribute__((always_inline)) double poly(const double *c, int n,
                                                         double v) {
  double r = c[n - 1];
  for (int i = n - 2; i >= 0; i--)
    r = r * v + c[i];
  return r;
}

#define PE_LENGTH(c) ((int)(sizeof(c) / sizeof(c[0])))
#define PE_POLY(c, v) poly(c, PE_LENGTH(c), v)

double pe_cin1(double x) {
  double ax = fabs(x);
  if (ax < PE_CISI_SPLIT) {
    double y = ax * ax;
    return y * PE_POLY(cin_taylor, y);
  }
  if (isnan(x))
    return x;
  return PE_EULER_GAMMA + pe_log(ax) - pe_ci1(ax);
}

/* f and g on the range [a, 2a) of the fits above, whose four polynomials
   have n coefficients each: x f(x) = fp(v)/fq(v), x^2 g(x) = gp(v)/gq(v),
   v = (a/x)^2. Inlined with a constant n, so each range is unrolled. One
   division for 1/x and one for both denominators; a is a power of two, so
   the scaling by a is exact. 1/x^2 may underflow to 0 for huge x, which is
   the limit of g. */
static inline __attribute__((always_inline)) void
cisi_range(double x, double a, const double *fp, const double *fq,
           const double *gp, const double *gq, int n, double *f, double *g) {
  double inv = 1.0 / x, v = (a * inv) * (a * inv);
  double pf = poly(fp, n, v), qf = poly(fq, n, v);
  double pg = poly(gp, n, v), qg = poly(gq, n, v);
  double r = 1.0 / (qf * qg);
  *f = pf * qg * r * inv;
  *g = pg * qf * r * inv * inv;
}

void pe_cisi_aux(double x, double *f, double *g) {
  if (x < 4.0)
    cisi_range(x, 2.0, f2_p, f2_q, g2_p, g2_q, PE_LENGTH(f2_p), f, g);
  else if (x < 8.0)
    cisi_range(x, 4.0, f4_p, f4_q, g4_p, g4_q, PE_LENGTH(f4_p), f, g);
  else if (x < 16.0)
    cisi_range(x, 8.0, f8_p, f8_q, g8_p, g8_q, PE_LENGTH(f8_p), f, g);
  else
    cisi_range(x, 16.0, f16_p, f16_q, g16_p, g16_q, PE_LENGTH(f16_p), f, g);
}

double pe_ci1(double x) {
  if (!(x > 0.0))
    return NAN;
  if (x < PE_CISI_SPLIT) {
    double y = x * x;
    /* The two terms cancel only near the zero at x = 0.6165, where the error
       stays absolute (~1e-17). */
    return (PE_EULER_GAMMA + pe_log(x)) - y * PE_POLY(cin_taylor, y);
  }
  if (isinf(x))
    return 0.0;
  double f, g;
  pe_cisi_aux(x, &f, &g);
  return f * sin(x) - g * cos(x);
}

double pe_si1(double x) {
  double ax = fabs(x), r;
  if (ax < PE_CISI_SPLIT) {
    r = ax * PE_POLY(si_taylor, ax * ax);
  } else if (isinf(ax)) {
    r = 0.5 * PE_PI;
  } else if (isnan(ax)) {
    return x;
  } else {
    double f, g;
    pe_cisi_aux(ax, &f, &g);
    r = (0.5 * PE_PI) - (f * cos(ax) + g * sin(ax));
  }
  return copysign(r, x);
}

static int32_t check_array(const double *x, uint32_t n, const double *out,
                           int positive) {
  if (n > PE_MAX_COUNT)
    return PE_ERR_COUNT;
  if (n == 0)
    return PE_OK;
  if (!x || !out || !pe_is_aligned(x, alignof(double)) ||
      !pe_is_aligned(out, alignof(double)))
    return PE_ERR_NULL;
  for (uint32_t i = 0; i < n; i++) {
    if (!isfinite(x[i]))
      return PE_ERR_POSITIONS;
    if (positive && !(x[i] > 0.0))
      return PE_ERR_CI_X;
  }
  return PE_OK;
}

int32_t pe_ci(const double *x, uint32_t n, double *out) {
  int32_t st = check_array(x, n, out, 1);
  if (st != PE_OK)
    return st;
  for (uint32_t i = 0; i < n; i++)
    out[i] = pe_ci1(x[i]);
  return PE_OK;
}

int32_t pe_si(const double *x, uint32_t n, double *out) {
  int32_t st = check_array(x, n, out, 0);
  if (st != PE_OK)
    return st;
  for (uint32_t i = 0; i < n; i++)
    out[i] = pe_si1(x[i]);
  return PE_OK;
}
