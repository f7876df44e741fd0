/* The paper schedule base^(-2i/d) against committed mpmath values rounded to
   the nearest double (tests/vectors/generate_frequency_vectors.py): every
   frequency must be exactly that double. Bases and dims beyond the vectors
   are checked against quadruple precision. */
#include <float.h>
#include <math.h>
#include <quadmath.h>
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "frequencies.h"
#include "status.h"
#include "vectors.h"

/* Frequencies of one (base, dim), all ceil(dim/2) of them. */
static double *paper(double base, uint32_t dim, uint32_t *n) {
  int32_t odd_dim = dim % 2 ? PE_ODD_EXTRA_SIN : PE_ODD_ZERO_PAD;
  CHECK(pe_frequency_count(dim, odd_dim, n) == PE_OK, "count dim %u", dim);
  double *w = malloc(sizeof(double) * (*n + 1));
  CHECK(pe_frequencies(PE_SCHEDULE_PAPER, dim, odd_dim, base, 1, 1, 0, w, *n) ==
            PE_OK,
        "base %g dim %u", base, dim);
  return w;
}

/* Distance in units in the last place of the expected value. */
static double ulps(double got, double want) {
  return fabs(got - want) / (nextafter(want, INFINITY) - want);
}

static void against_vectors(void) {
  double *rows;
  size_t count = read_vectors("tests/vectors/frequencies/paper.txt", 4, &rows);
  CHECK(count > 8000, "vector rows: %zu", count);
  double old_worst = 0;
  uint32_t n = 0, dim = 0;
  double base = 0, *w = NULL;
  for (size_t r = 0; r < count; r++) {
    const double *row = rows + 4 * r;
    if (row[0] != base || row[1] != dim) {
      free(w);
      base = row[0];
      dim = (uint32_t)row[1];
      w = paper(base, dim, &n);
    }
    uint32_t i = (uint32_t)row[2];
    CHECK(i < n && w[i] == row[3], "base %g dim %u i %u: %a, want %a", base,
          dim, i, i < n ? w[i] : NAN, row[3]);
    double naive = pow(base, -(double)(2 * i) / dim);
    old_worst = fmax(old_worst, ulps(naive, row[3]));
  }
  free(w);
  free(rows);
  printf("paper schedule: %zu frequencies correctly rounded; "
         "pow(base, -2i/d) is off by up to %.1f ulp\n",
         count, old_worst);
}

/* Random bases up to DBL_MAX and dims up to 2^20, against powq rounded to
   double: equal wherever the result is a normal double, within one ulp of
   the subnormal spacing below. */
static void against_quad(void) {
  const double edges[] = {0x1.0000000000001p0, 1.5, 2.718281828459045, 1e300,
                          DBL_MAX};
  srand(8);
  for (int trial = 0; trial < 200; trial++) {
    double base = trial < 5
                      ? edges[trial]
                      : exp(log(DBL_MAX) * pow(rand() / (double)RAND_MAX, 3));
    if (!(base > 1))
      base = nextafter(1, 2);
    uint32_t dim = 1 + (uint32_t)(rand() % (trial < 190 ? 5000 : PE_MAX_DIM));
    uint32_t n;
    double *w = paper(base, dim, &n);
    for (uint32_t i = 0; i < n; i += 1 + n / 200) {
      __float128 exponent = -(__float128)(2 * i) / dim;
      double want = (double)powq((__float128)base, exponent);
      int normal = want >= DBL_MIN;
      CHECK(normal ? w[i] == want : fabs(w[i] - want) <= 0x1p-1074,
            "base %a dim %u i %u: %a, want %a", base, dim, i, w[i], want);
    }
    free(w);
  }
}

int main(void) {
  against_vectors();
  against_quad();
  return check_report("frequencies");
}
