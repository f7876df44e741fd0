/* Decay integral f(x) = int_0^1 cos(x theta(t)) dt: closed forms per family
   and an independent adaptive quadrature. Methods and regions:

   exp, theta = b^-t, L = ln b: f(x) = (Ci(x) - Ci(x/b)) / L.
     L <= 1/4 and xL <= 1/2: the phase moves by at most 1/2 radian, so
       f = (1/L) int_0^L cos(x e^-s) ds by 6-point Gauss-Legendre, written
       as cos(x + d(s)) with d = x expm1(-s) small to keep the phase exact;
     x < 2: f = 1 - (Cin(x) - Cin(x/b)) / L, no logarithms to cancel;
     otherwise the Ci difference, with x/b carried as a double-double when
       L < 1, since rounding x/b alone would cost 1.1e-16/L.
   power, theta = t^alpha, s = 1/alpha: f = 1F2(s/2; 1/2, 1+s/2; -x^2/4).
     x <= 7: the series sum_k (-x^2)^k / ((2k)! (1 + 2k alpha));
     x > 7: f = Gamma(s+1) cos(pi s/2) x^-s - s Re(e^{ix} B_s(x)), where
       B_a(x) = Gamma(a, -ix) / (e^{ix} x^a) for a = s - m in (0, 1] comes
       from Legendre's continued fraction for the incomplete gamma function
       (DLMF 8.9.2, even part), then B_{a+1} = i (a B_a + 1) / x, which is
       integration by parts, raises a to s;
     for s > 16 and 7 < x < 2s that form cancels (Gamma(s+1) x^-s is
       large); the quadrature below is used there.
   linear: sin(x) / x. */
#include "decay_integral.h"

#include "exp_log.h"
#include "frequencies.h"
#include "pi.h"
#include "sincos_f64x2.h"

#include <float.h>
#include <math.h>
#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>

#include "special_functions.h"
#include "status.h"

/* Output of src/core/fit/fit_sici.py (quad). */
/* 15-point Kronrod rule and its 7-point Gauss rule on [-1, 1] (nodes >= 0; the
 * rules are symmetric). */
static const double gk15_x[8] = {
    0.0,
    0.20778495500789848,
    0.4058451513773972,
    0.5860872354676911,
    0.7415311855993945,
    0.8648644233597691,
    0.9491079123427585,
    0.9914553711208126,
};
static const double gk15_wk[8] = {
    0.20948214108472782, 0.20443294007529889,  0.19035057806478542,
    0.1690047266392679,  0.14065325971552592,  0.10479001032225019,
    0.06309209262997856, 0.022935322010529224,
};
static const double gk15_wg[4] = {
    0.4179591836734694,
    0.3818300505051189,
    0.27970539148927664,
    0.1294849661688697,
};
/* 6-point Gauss-Legendre rule on [-1, 1] (nodes > 0). */
static const double gl6_x[3] = {
    0.2386191860831969,
    0.6612093864662645,
    0.932469514203152,
};
static const double gl6_w[3] = {
    0.46791393457269104,
    0.3607615730481386,
    0.17132449237917036,
};

/* ---- exp family -------------------------------------------------------- */

/* expm1(-s) at the six nodes s = (L/2)(1 -+ gl6_x[k]), the same for every
   x of a call. */
static void direct_nodes(double L, double e[6]) {
  double h = 0.5 * L;
  for (int k = 0; k < 3; k++) {
    e[2 * k] = pe_expm1(-h * (1.0 - gl6_x[k]));
    e[2 * k + 1] = pe_expm1(-h * (1.0 + gl6_x[k]));
  }
}

static double exp_direct(const double e[6], double x) {
  v128_t c = wasm_f64x2_splat(0), s = wasm_f64x2_splat(0);
  for (int k = 0; k < 3; k++) {
    /* The two nodes +-gl6_x[k] in one vector sin/cos. */
    v128_t d = wasm_f64x2_make(x * e[2 * k], x * e[2 * k + 1]);
    v128_t sin_d, cos_d, w = wasm_f64x2_splat(gl6_w[k]);
    pe_sincos_f64x2(d, &sin_d, &cos_d);
    c = wasm_f64x2_add(c, wasm_f64x2_mul(w, cos_d));
    s = wasm_f64x2_add(s, wasm_f64x2_mul(w, sin_d));
  }
  v128_t sin_x, cos_x;
  pe_sincos_f64x2(wasm_f64x2_splat(x), &sin_x, &cos_x);
  double c_sum = wasm_f64x2_extract_lane(c, 0) + wasm_f64x2_extract_lane(c, 1);
  double s_sum = wasm_f64x2_extract_lane(s, 0) + wasm_f64x2_extract_lane(s, 1);
  return 0.5 * (wasm_f64x2_extract_lane(cos_x, 0) * c_sum -
                wasm_f64x2_extract_lane(sin_x, 0) * s_sum);
}

static double exp_family(double b, double L, const double nodes[6], double x) {
  if (x == 0.0)
    return 1.0;
  if (L <= 0.25 && x * L <= 0.5)
    return exp_direct(nodes, x);
  double q = x / b;
  if (x < PE_CISI_SPLIT)
    return 1.0 - (pe_cin1(x) - pe_cin1(q)) / L;
  /* sin and cos of x and q in one vector evaluation. */
  v128_t sines, cosines;
  pe_sincos_f64x2(wasm_f64x2_make(x, q), &sines, &cosines);
  double f, g;
  pe_cisi_aux(x, &f, &g);
  double ci_x = f * wasm_f64x2_extract_lane(sines, 0) -
                g * wasm_f64x2_extract_lane(cosines, 0);
  double ci_q;
  if (q < PE_CISI_SPLIT) {
    ci_q = pe_ci1(q);
  } else {
    pe_cisi_aux(q, &f, &g);
    double cq = wasm_f64x2_extract_lane(cosines, 1);
    ci_q = f * wasm_f64x2_extract_lane(sines, 1) - g * cq;
    /* x/b = q + r exactly enough, r = (x - q b) / b with q b = hi + lo
       exact; Ci'(q) = cos(q)/q. Formed at a quarter scale (exact), as q b
       overflows for x near the largest double. */
    if (L < 1.0) {
      v128_t hi, lo;
      pe_two_product_f64x2(wasm_f64x2_splat(0.25 * q), wasm_f64x2_splat(b), &hi,
                           &lo);
      double r = 4 *
                 ((0.25 * x - wasm_f64x2_extract_lane(hi, 0)) -
                  wasm_f64x2_extract_lane(lo, 0)) /
                 b;
      ci_q += cq / q * r;
    }
  }
  return (ci_x - ci_q) / L;
}

/* ---- power family ------------------------------------------------------ */

#define PE_SERIES_MAX_X 7.0
#define PE_SERIES_TERMS 26

struct power {
  double alpha, s, a; /* a = s - m in (0, 1] */
  int m;
  double c0;                         /* Gamma(s+1) cos(pi s / 2) */
  double inv[PE_SERIES_TERMS + 1];   /* 1 / (1 + 2k alpha) */
  double ratio[PE_SERIES_TERMS + 1]; /* 1 / ((2k-1) 2k) */
};

static void power_init(struct power *p, double alpha) {
  p->alpha = alpha;
  p->s = 1.0 / alpha;
  p->m = (int)ceil(p->s) - 1;
  p->a = p->s - p->m;
  p->c0 = p->s <= 170.0 ? pe_tgamma(p->s + 1.0) * cos(0.5 * PE_PI * p->s) : 0.0;
  for (int k = 1; k <= PE_SERIES_TERMS; k++) {
    p->inv[k] = 1.0 / (1.0 + 2.0 * k * alpha);
    p->ratio[k] = 1.0 / ((2.0 * k - 1.0) * (2.0 * k));
  }
}

/* Terms peak near 2k = x at e^x / sqrt(2 pi x): the loss stays ~1e-13. */
static double power_series(const struct power *p, double x) {
  double y = x * x, t = 1.0, sum = 1.0;
  for (int k = 1; k <= PE_SERIES_TERMS; k++) {
    t *= -y * p->ratio[k];
    sum += t * p->inv[k];
    if (fabs(t) < 1e-18)
      break;
  }
  return sum;
}

/* Depth 3 + 150/x gives the continued fraction 1e-14 relative for every
   a in (0, 1] and x >= 6 (checked against mpmath's gammainc). */
static double power_large(const struct power *p, double x) {
  double a = p->a, tr = 0.0, ti = 0.0;
  for (int k = 3 + (int)(150.0 / x); k >= 1; k--) {
    double dr = 2.0 * k + 1.0 - a - tr, di = -x - ti;
    double scale = k * (k - a) / (dr * dr + di * di);
    tr = dr * scale;
    ti = -di * scale;
  }
  double dr = 1.0 - a - tr, di = -x - ti;
  double inv = 1.0 / (dr * dr + di * di);
  double br = dr * inv, bi = -di * inv;
  double sig = a;
  for (int j = 0; j < p->m; j++, sig += 1.0) {
    double ur = sig * br + 1.0, ui = sig * bi;
    br = -ui / x;
    bi = ur / x;
  }
  return p->c0 * pe_pow(x, -p->s) - p->s * (cos(x) * br - sin(x) * bi);
}

static int power_large_ok(const struct power *p, double x) {
  return p->s <= 16.0 || x >= 2.0 * p->s;
}

/* ---- adaptive Gauss-Kronrod quadrature ---------------------------------- */

struct family {
  int32_t theta;
  double x, L, alpha, s; /* L for exp; alpha, s = 1/alpha for power */
  double fall;           /* exp: 1 - e^-L, the phase's fall over [0, 1] per x */
};

static double phase(const struct family *f, double t) {
  switch (f->theta) {
  case PE_THETA_EXP:
    return f->x * pe_exp(-f->L * t);
  case PE_THETA_POWER:
    return f->x * pe_pow(t, f->alpha);
  default:
    return f->x * t;
  }
}

/* Relative error bound of a computed phase in units of DBL_EPSILON, node
   rounding included (|theta'(t)| t / theta(t) <= L t or alpha). */
static double phase_eps(const struct family *f, double t) {
  switch (f->theta) {
  case PE_THETA_EXP:
    return 4.0 + f->L * t;
  case PE_THETA_POWER:
    return 4.0 + f->alpha;
  default:
    return 4.0;
  }
}

/* Neumaier-compensated sum plus accumulated error bound. */
struct accum {
  double sum, comp, err;
};

static void accum_add(struct accum *a, double v) {
  double t = a->sum + v;
  if (fabs(a->sum) >= fabs(v))
    a->comp += (a->sum - t) + v;
  else
    a->comp += (v - t) + a->sum;
  a->sum = t;
}

static void gk15(const struct family *f, double lo, double hi, double *k,
                 double *g, double *round) {
  double c = 0.5 * (lo + hi), h = 0.5 * (hi - lo);
  double sk = 0.0, sg = 0.0, sr = 0.0;
  for (int i = 0; i < 8; i++) {
    for (int sign = -1; sign <= (i == 0 ? -1 : 1); sign += 2) {
      double t = c + sign * h * gk15_x[i];
      double ph = phase(f, t), v = cos(ph);
      sk += gk15_wk[i] * v;
      if (i % 2 == 0)
        sg += gk15_wg[i / 2] * v;
      sr += gk15_wk[i] * (2.0 * fabs(ph) * phase_eps(f, t) + 20.0);
    }
  }
  *k = h * sk;
  *g = h * sg;
  *round = h * sr * DBL_EPSILON;
}

#define PE_MAX_DEPTH 48
#define PE_MAX_EVALS 256   /* Gauss-Kronrod evaluations per initial panel */
#define PE_PANEL_TOL 1e-13 /* accepted |G - K| per unit length of t */

/* Bisects until |G - K| is below the tolerance or within twice the rounding
   bound (splitting cannot reduce rounding), or the budget is spent; the
   bound stays honest either way since every accepted |G - K| is added. */
static void integrate_panel(const struct family *f, double lo, double hi,
                            struct accum *acc) {
  double slo[PE_MAX_DEPTH + 2], shi[PE_MAX_DEPTH + 2];
  int sdepth[PE_MAX_DEPTH + 2], top = 1, evals = 0;
  slo[0] = lo;
  shi[0] = hi;
  sdepth[0] = 0;
  while (top > 0) {
    top--;
    double a = slo[top], b = shi[top];
    int d = sdepth[top];
    double k, g, r;
    gk15(f, a, b, &k, &g, &r);
    evals++;
    double e = fabs(k - g), mid = 0.5 * (a + b);
    if (e <= PE_PANEL_TOL * (b - a) + 2.0 * r || d >= PE_MAX_DEPTH ||
        evals >= PE_MAX_EVALS || !(mid > a && mid < b)) {
      accum_add(acc, k);
      acc->err += e + r;
      continue;
    }
    /* Depth-first: the stack never holds more than PE_MAX_DEPTH + 1 panels. */
    slo[top] = mid;
    shi[top] = b;
    sdepth[top] = d + 1;
    slo[top + 1] = a;
    shi[top + 1] = mid;
    sdepth[top + 1] = d + 1;
    top += 2;
  }
}

#define PE_PHASE_STEP (0.5 * PE_PI)

/* Where the phase has moved by j steps from its value at t = 0 (1 past the
   end). */
static double phase_break(const struct family *f, double j) {
  double moved = j * PE_PHASE_STEP;
  switch (f->theta) {
  case PE_THETA_EXP:
    if (moved >= f->x * f->fall)
      return 1.0;
    return -log1p(-moved / f->x) / f->L;
  case PE_THETA_POWER:
    return moved >= f->x ? 1.0 : pe_pow(moved / f->x, f->s);
  default:
    return moved >= f->x ? 1.0 : moved / f->x;
  }
}

static double quadrature_point(struct family *f, double x, double *err) {
  f->x = fabs(x);
  if (f->x == 0.0) {
    *err = 0.0;
    return 1.0;
  }
  /* Panels of a quarter oscillation, and for exp at most 1/L long so that
     the amplitude of the exponential is resolved too. */
  double maxlen = f->theta == PE_THETA_EXP && f->L > 1.0 ? 1.0 / f->L : 1.0;
  struct accum acc = {0.0, 0.0, 0.0};
  double t = 0.0, j = 1.0;
  while (t < 1.0) {
    double next = phase_break(f, j);
    if (next > t + maxlen)
      next = t + maxlen;
    else
      j += 1.0;
    if (next > 1.0)
      next = 1.0;
    if (!(next > t))
      continue;
    integrate_panel(f, t, next, &acc);
    t = next;
  }
  double v = acc.sum + acc.comp;
  *err = acc.err + 4.0 * DBL_EPSILON * fabs(v);
  return v;
}

/* ---- validation and entry points -------------------------------------- */

static int32_t check_args(int32_t theta, double base, double alpha,
                          const double *x, uint32_t n, const double *out,
                          const double *out2, int need_out2, double max_x) {
  if (n > PE_MAX_COUNT)
    return PE_ERR_COUNT;
  if (theta == PE_THETA_EXP) {
    if (!isfinite(base) || !(base > 1.0))
      return PE_ERR_BASE;
  } else if (theta == PE_THETA_POWER) {
    if (!isfinite(alpha) || !(alpha >= PE_DECAY_MIN_ALPHA))
      return PE_ERR_ALPHA;
  } else if (theta != PE_THETA_LINEAR) {
    return PE_ERR_THETA;
  }
  if (n == 0)
    return PE_OK;
  if (!x || !out || !pe_is_aligned(x, alignof(double)) ||
      !pe_is_aligned(out, alignof(double)))
    return PE_ERR_NULL;
  if (need_out2 && (!out2 || !pe_is_aligned(out2, alignof(double))))
    return PE_ERR_NULL;
  for (uint32_t i = 0; i < n; i++) {
    if (!isfinite(x[i]))
      return PE_ERR_POSITIONS;
    if (fabs(x[i]) > max_x)
      return PE_ERR_QUADRATURE_X;
  }
  return PE_OK;
}

static void family_init(struct family *f, int32_t theta, double base,
                        double alpha) {
  f->theta = theta;
  f->x = 0.0;
  f->L = theta == PE_THETA_EXP ? pe_log(base) : 0.0;
  f->fall = -pe_expm1(-f->L);
  f->alpha = theta == PE_THETA_POWER ? alpha : 1.0;
  f->s = 1.0 / f->alpha;
}

int32_t pe_decay_integral(int32_t theta, double base, double alpha,
                          const double *x, uint32_t n, double *out) {
  int32_t st = check_args(theta, base, alpha, x, n, out, NULL, 0, INFINITY);
  if (st != PE_OK)
    return st;
  if (theta == PE_THETA_EXP) {
    double L = pe_log(base), nodes[6];
    direct_nodes(L, nodes);
    for (uint32_t i = 0; i < n; i++)
      out[i] = exp_family(base, L, nodes, fabs(x[i]));
  } else if (theta == PE_THETA_POWER) {
    struct power p;
    struct family f;
    power_init(&p, alpha);
    family_init(&f, theta, base, alpha);
    for (uint32_t i = 0; i < n; i++) {
      double ax = fabs(x[i]), err;
      if (ax <= PE_SERIES_MAX_X)
        out[i] = power_series(&p, ax);
      else if (power_large_ok(&p, ax))
        out[i] = power_large(&p, ax);
      else
        out[i] = quadrature_point(&f, ax, &err);
    }
  } else {
    for (uint32_t i = 0; i < n; i++)
      out[i] = x[i] == 0.0 ? 1.0 : sin(x[i]) / x[i];
  }
  return PE_OK;
}

int32_t pe_decay_integral_quadrature(int32_t theta, double base, double alpha,
                                     const double *x, uint32_t n,
                                     double *values, double *errors) {
  int32_t st = check_args(theta, base, alpha, x, n, values, errors, 1,
                          PE_DECAY_QUADRATURE_MAX_X);
  if (st != PE_OK)
    return st;
  struct family f;
  family_init(&f, theta, base, alpha);
  for (uint32_t i = 0; i < n; i++) {
    double e, v = quadrature_point(&f, x[i], &e);
    values[i] = v;
    errors[i] = e;
  }
  return PE_OK;
}

int32_t pe_decay_frequencies(int32_t theta, double base, double alpha,
                             uint32_t dim, double *out, uint32_t n) {
  int32_t st = check_args(theta, base, alpha, NULL, 0, NULL, NULL, 0, INFINITY);
  if (st != PE_OK)
    return st;
  if (dim < 1 || dim > PE_MAX_DIM)
    return PE_ERR_DIM;
  if (n != dim / 2)
    return PE_ERR_ARGUMENT;
  /* The exp family at t_i = 2i/d is exactly the paper schedule. */
  if (theta == PE_THETA_EXP)
    return pe_frequencies(PE_SCHEDULE_PAPER, dim, PE_ODD_ZERO_PAD, base, 1, 1,
                          0, out, n);
  if (n > 0 && (!out || !pe_is_aligned(out, alignof(double))))
    return PE_ERR_NULL;
  struct family f;
  family_init(&f, theta, base, alpha);
  f.x = 1.0;
  for (uint32_t i = 0; i < n; i++)
    out[i] = phase(&f, 2.0 * i / dim);
  return PE_OK;
}
