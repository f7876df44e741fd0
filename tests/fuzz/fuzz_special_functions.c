/* Ci and Si with arbitrary arguments, out of place and in place. A
   successful call gives finite values within bounds that follow from the
   definitions: for x < 2, Ci(x) = gamma + ln x - Cin(x) with
   0 <= Cin(x) <= x^2/4 and |Si(x) - x| <= |x|^3/18; for x >= 2,
   |Ci(x)| and |Si(x) - pi/2| are at most sqrt(1 + 1/x^2)/x (auxiliary
   functions f <= 1/x, g <= 1/x^2; plus the rounding of pi/2 and of the
   result, 4e-16); |Si| <= Si(pi) everywhere, Si is odd
   and has the sign of x. A refused call writes nothing; a null or
   misaligned pointer is always refused. */
#include "fuzz_input.h"
#include "special_functions.h"

#define MAX_POINTS 64
#define EULER_GAMMA 0.57721566490153286061
#define HALF_PI 1.57079632679489661923
#define SI_OF_PI 1.8519370519824661703

static void require_ci(double x, double ci, size_t i) {
  if (!isfinite(ci))
    fail("Ci not finite", i, ci);
  if (x < 2) {
    double log_part = EULER_GAMMA + log(x);
    double slack = 1e-15 * (fabs(log_part) + 1);
    if (!(ci <= log_part + slack && ci >= log_part - x * x / 4 - slack))
      fail("Ci outside gamma + ln x - [0, x^2/4]", i, ci);
  } else if (!(fabs(ci) <= sqrt(1 + 1 / (x * x)) / x * (1 + 1e-12))) {
    fail("|Ci(x)| above its bound for x >= 2", i, ci);
  }
}

static void require_si(double x, double si, size_t i) {
  double ax = fabs(x), as = x < 0 ? -si : si; /* Si(|x|) */
  if (!isfinite(si) || !(fabs(si) <= SI_OF_PI * (1 + 1e-15)))
    fail("|Si| above Si(pi)", i, si);
  if (x != 0 && !(as >= 0))
    fail("Si does not have the sign of x", i, si);
  if (ax < 2) {
    if (!(fabs(as - ax) <= ax * ax * ax / 18 + 1e-15 * ax))
      fail("|Si(x) - x| above |x|^3/18", i, si);
  } else if (!(fabs(as - HALF_PI) <=
               sqrt(1 + 1 / (ax * ax)) / ax * (1 + 1e-12) + 4e-16)) {
    fail("|Si(x) - pi/2| above its bound for x >= 2", i, si);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  input in = {data, size};
  uint8_t flags = (uint8_t)take(&in, 1);
  int is_si = flags & 1, in_place = flags & 2;
  uint32_t n = (uint32_t)take(&in, 1) % MAX_POINTS;
  double *x = malloc(sizeof(double) * n + 1);
  double *out = malloc(sizeof(double) * n + 1);
  for (uint32_t i = 0; i < n; i++) {
    x[i] = number(&in);
    out[i] = number(&in);
  }
  double *dst = in_place ? x : out;
  void *before = copy_of(dst, sizeof(double) * n);
  double *x_before = copy_of(x, sizeof(double) * n);
  double *x_arg = spoil_pointer(x, (uint8_t)take(&in, 1));
  double *dst_arg = spoil_pointer(dst, (uint8_t)take(&in, 1));

  int32_t status = is_si ? pe_si(x_arg, n, dst_arg) : pe_ci(x_arg, n, dst_arg);
  require_status(status);
  if (status != PE_OK) {
    require_untouched(dst, before, sizeof(double) * n);
  } else {
    if (n > 0 && (x_arg != x || dst_arg != dst))
      fail("accepted a null or misaligned pointer", 0, 0);
    for (uint32_t i = 0; i < n; i++) {
      if (is_si)
        require_si(x_before[i], dst[i], i);
      else
        require_ci(x_before[i], dst[i], i);
    }
    if (is_si) { /* odd: Si(-x) = -Si(x) exactly */
      double *negated = malloc(sizeof(double) * n + 1);
      for (uint32_t i = 0; i < n; i++)
        negated[i] = -x_before[i];
      if (pe_si(negated, n, negated) != PE_OK)
        fail("Si refused -x", 0, 0);
      for (uint32_t i = 0; i < n; i++)
        if (negated[i] != -dst[i])
          fail("Si(-x) != -Si(x)", i, negated[i]);
      free(negated);
    }
  }
  free(x);
  free(out);
  free(before);
  free(x_before);
  return 0;
}
