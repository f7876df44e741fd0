/* The decay integral (closed forms and quadrature) and its frequencies
   with arbitrary arguments. A successful call gives |f(x)| <= 1, f(0) = 1,
   and within the documented ranges the closed form agrees with the
   quadrature to the documented accuracy plus the quadrature's own error
   bound; frequencies lie in [0, 1]. A refused call writes nothing; a null
   or misaligned pointer is always refused. */
#include "decay_integral.h"
#include "fuzz_input.h"

#define MAX_POINTS 48
#define QUADRATURE_POINTS 3

/* The documented accuracy of the closed form, or 0 where none is stated. */
static double documented_accuracy(int32_t theta, double base, double alpha,
                                  double x) {
  switch (theta) {
  case PE_THETA_EXP:
    return base >= 1.0001 && base <= 1e8 && fabs(x) <= 1e6 ? 1e-13 : 0;
  case PE_THETA_POWER:
    return alpha >= 0.25 && alpha <= 4 && fabs(x) <= 1e5 ? 1e-10 : 0;
  default:
    return 1e-15;
  }
}

static void require_decay_values(const double *x, const double *f, uint32_t n) {
  require_bounded(f, n, 1 + 1e-12, "|f(x)| above 1");
  for (uint32_t i = 0; i < n; i++)
    if (x[i] == 0 && f[i] != 1)
      fail("f(0) is not 1", i, f[i]);
}

static void fuzz_closed_form(input *in, int32_t theta, double base,
                             double alpha) {
  uint32_t n = (uint32_t)take(in, 1) % MAX_POINTS;
  int in_place = take(in, 1) & 1;
  double *x = malloc(sizeof(double) * n + 1);
  double *out = malloc(sizeof(double) * n + 1);
  for (uint32_t i = 0; i < n; i++) {
    x[i] = number(in);
    out[i] = number(in);
  }
  double *dst = in_place ? x : out;
  void *before = copy_of(dst, sizeof(double) * n);
  double *x_before = copy_of(x, sizeof(double) * n);
  double *x_arg = spoil_pointer(x, (uint8_t)take(in, 1));
  double *dst_arg = spoil_pointer(dst, (uint8_t)take(in, 1));

  int32_t status = pe_decay_integral(theta, base, alpha, x_arg, n, dst_arg);
  require_status(status);
  if (status != PE_OK) {
    require_untouched(dst, before, sizeof(double) * n);
  } else {
    if (n > 0 && (x_arg != x || dst_arg != dst))
      fail("accepted a null or misaligned pointer", 0, 0);
    require_decay_values(x_before, dst, n);
    /* Against the quadrature, on the first few points it can afford. */
    double q[QUADRATURE_POINTS], e[QUADRATURE_POINTS];
    for (uint32_t i = 0; i < n && i < QUADRATURE_POINTS; i++) {
      double tol = documented_accuracy(theta, base, alpha, x_before[i]);
      if (tol == 0 || fabs(x_before[i]) > 2000)
        continue;
      if (pe_decay_integral_quadrature(theta, base, alpha, x_before + i, 1, q,
                                       e) != PE_OK)
        fail("quadrature refused what the closed form accepted", i, 0);
      if (!(fabs(dst[i] - q[0]) <= tol + e[0]))
        fail("closed form and quadrature disagree", i, dst[i] - q[0]);
    }
  }
  free(x);
  free(out);
  free(before);
  free(x_before);
}

static void fuzz_quadrature(input *in, int32_t theta, double base,
                            double alpha) {
  uint32_t n = (uint32_t)take(in, 1) % (QUADRATURE_POINTS + 1);
  double x[QUADRATURE_POINTS], values[QUADRATURE_POINTS],
      errors[QUADRATURE_POINTS];
  for (uint32_t i = 0; i < QUADRATURE_POINTS; i++) {
    x[i] = number(in);
    /* Its cost grows with |x|: keep accepted points modest, and let the
       refused ones (beyond PE_DECAY_QUADRATURE_MAX_X) through. */
    if (fabs(x[i]) <= PE_DECAY_QUADRATURE_MAX_X)
      x[i] = fmod(x[i], 2000.0);
    values[i] = errors[i] = number(in);
  }
  double values_before[QUADRATURE_POINTS], errors_before[QUADRATURE_POINTS];
  memcpy(values_before, values, sizeof values);
  memcpy(errors_before, errors, sizeof errors);
  double *values_arg = spoil_pointer(values, (uint8_t)take(in, 1));
  double *errors_arg = spoil_pointer(errors, (uint8_t)take(in, 1));

  int32_t status = pe_decay_integral_quadrature(theta, base, alpha, x, n,
                                                values_arg, errors_arg);
  require_status(status);
  if (status != PE_OK) {
    require_untouched(values, values_before, sizeof values);
    require_untouched(errors, errors_before, sizeof errors);
  } else {
    if (n > 0 && (values_arg != values || errors_arg != errors))
      fail("accepted a null or misaligned pointer", 0, 0);
    require_bounded(errors, n, 1, "quadrature error bound not in [0, 1]");
    for (uint32_t i = 0; i < n; i++)
      if (!(errors[i] >= 0 && fabs(values[i]) <= 1 + errors[i]))
        fail("quadrature value above 1 + its error bound", i, values[i]);
  }
}

static void fuzz_frequencies(input *in, int32_t theta, double base,
                             double alpha) {
  uint32_t d = (uint32_t)take(in, 2);
  uint32_t dim = d & 0x8000 ? d % 1100 : d % 40;
  uint32_t n = take(in, 1) & 1 ? dim / 2 : (uint32_t)take(in, 1) % 8;
  double *out = malloc(sizeof(double) * n + 1);
  for (uint32_t i = 0; i < n; i++)
    out[i] = number(in);
  void *before = copy_of(out, sizeof(double) * n);
  double *out_arg = spoil_pointer(out, (uint8_t)take(in, 1));
  int32_t status = pe_decay_frequencies(theta, base, alpha, dim, out_arg, n);
  require_status(status);
  if (status != PE_OK) {
    require_untouched(out, before, sizeof(double) * n);
  } else {
    if (n > 0 && out_arg != out)
      fail("accepted a null or misaligned pointer", 0, 0);
    for (uint32_t i = 0; i < n; i++)
      if (!(out[i] >= 0 && out[i] <= 1))
        fail("decay frequency not in [0, 1]", i, out[i]);
  }
  free(out);
  free(before);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  input in = {data, size};
  uint8_t which = (uint8_t)take(&in, 1) % 3;
  int32_t theta = (int32_t)(take(&in, 1) % 5) - 1;
  double base = number(&in), alpha = number(&in);
  if (which == 0)
    fuzz_closed_form(&in, theta, base, alpha);
  else if (which == 1)
    fuzz_quadrature(&in, theta, base, alpha);
  else
    fuzz_frequencies(&in, theta, base, alpha);
  return 0;
}
