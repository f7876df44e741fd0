/* Dot products against sums of libm cosines and column-by-column dot
   products of tables written in the test, for every tail length, every way
   of giving offsets and both odd-dim rules; outputs are NaN-filled first. */
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "dot_products.h"
#include "frequencies.h"
#include "reference.h"
#include "status.h"

static double uniform(void) { return rand() / (RAND_MAX + 1.0) * 2 - 1; }

static double *omega_for(uint32_t dim, int odd_dim, uint32_t *n) {
  if (pe_frequency_count(dim, odd_dim, n) != PE_OK)
    *n = 0;
  double *omega = malloc(sizeof(double) * (*n + 1));
  pe_frequencies(PE_SCHEDULE_PAPER, dim, odd_dim, 10000, 1, 1, 0, omega, *n);
  return omega;
}

/* One row of an interleaved table, from the definition, with the extra sin
   column of an odd dim when omega has one more entry than dim / 2. */
static void reference_row(double *row, uint32_t dim, const double *omega,
                          uint32_t n, double scale, double p) {
  for (uint32_t i = 0; i < dim / 2; i++) {
    row[2 * i] = sin_of_product(p, scale * omega[i]);
    row[2 * i + 1] = cos_of_product(p, scale * omega[i]);
  }
  if (dim % 2 == 1)
    row[dim - 1] = n > dim / 2 ? sin_of_product(p, scale * omega[dim / 2]) : 0;
}

/* <PE(0), PE(k)> column by column. */
static double reference_g(uint32_t dim, const double *omega, uint32_t n,
                          double scale, double k) {
  static double a[1024], b[1024];
  double sum = 0;
  reference_row(a, dim, omega, n, scale, 0);
  reference_row(b, dim, omega, n, scale, k);
  for (uint32_t c = 0; c < dim; c++)
    sum += a[c] * b[c];
  return sum;
}

enum { GIVEN_RANGE, GIVEN_EVEN_ARRAY, GIVEN_RANDOM_ARRAY };

static void check_sums(uint32_t dim, int odd_dim, uint32_t count, int given,
                       double scale, double amplitude) {
  uint32_t n;
  double *omega = omega_for(dim, odd_dim, &n);
  double *k = malloc(sizeof(double) * count);
  double *out = malloc(sizeof(double) * count);
  double from = -250.5, step = 0.75;
  for (uint32_t j = 0; j < count; j++) {
    k[j] = given == GIVEN_RANDOM_ARRAY ? uniform() * 1e5 : from + j * step;
    out[j] = NAN;
  }
  CHECK(pe_dot_products(out, given == GIVEN_RANGE ? NULL : k, count, from, step,
                        dim, odd_dim, omega, n, scale, amplitude) == PE_OK,
        "dot products");
  double worst = 0;
  for (uint32_t j = 0; j < count; j++) {
    double want =
        amplitude * amplitude * reference_g(dim, omega, n, scale, k[j]);
    double e = fabs(out[j] - want);
    worst = isnan(e) || e > worst ? (isnan(e) ? INFINITY : e) : worst;
  }
  CHECK(worst <= 1e-13 * (dim / 2 + 1) * amplitude * amplitude,
        "dim %u odd %d count %u given %d scale %g: error %g", dim, odd_dim,
        count, given, scale, worst);
  free(k), free(out), free(omega);
}

static void test_every_tail(void) {
  for (uint32_t dim = 2; dim <= 40; dim++)
    for (int odd = 0; odd < 2; odd++)
      for (int given = 0; given < 3; given++) {
        check_sums(dim, odd, given == GIVEN_RANDOM_ARRAY ? 50 : 300, given, 1,
                   1);
        check_sums(dim, odd, 1, given, 1, 1);
        check_sums(dim, odd, 129, given, 0.5, 0.25);
      }
}

static void test_large_dims(void) {
  /* Beyond one register block, long ranges, and g(0) = h. */
  uint32_t n;
  double *omega = omega_for(768, PE_ODD_ZERO_PAD, &n);
  double g0;
  CHECK(pe_dot_products(&g0, NULL, 1, 0, 1, 768, PE_ODD_ZERO_PAD, omega, n, 1,
                        1) == PE_OK &&
            g0 == 384,
        "g(0) = h: %g", g0);
  free(omega);
  check_sums(768, PE_ODD_ZERO_PAD, 1000, GIVEN_RANGE, 1, 1);
  check_sums(769, PE_ODD_EXTRA_SIN, 100, GIVEN_RANDOM_ARRAY, 1, 1);
  check_sums(1000, PE_ODD_ZERO_PAD, 700, GIVEN_EVEN_ARRAY, 3, 1);
  /* Offsets past the vector sin/cos fast range. */
  double k[3] = {1e9, -3e10, 1e12}, out[3];
  omega = omega_for(16, PE_ODD_ZERO_PAD, &n);
  pe_dot_products(out, k, 3, 0, 0, 16, PE_ODD_ZERO_PAD, omega, n, 1, 1);
  for (int j = 0; j < 3; j++)
    CHECK(fabs(out[j] - reference_g(16, omega, n, 1, k[j])) <= 1e-12,
          "huge offset %g", k[j]);
  free(omega);
}

/* A table written here, its Gram matrix against g from the library. */
static void test_gram(void) {
  enum { COUNT = 37, DIM = 21 };
  for (int odd = 0; odd < 2; odd++) {
    uint32_t n;
    double *omega = omega_for(DIM, odd, &n);
    double table[COUNT * DIM], g[2 * COUNT - 1], result[3] = {NAN, NAN, NAN};
    float table32[COUNT * DIM];
    for (int j = 0; j < COUNT; j++)
      reference_row(table + j * DIM, DIM, omega, n, 1, 5 + j);
    for (int e = 0; e < COUNT * DIM; e++)
      table32[e] = (float)table[e];
    pe_dot_products(g, NULL, 2 * COUNT - 1, -(COUNT - 1), 1, DIM, odd, omega, n,
                    1, 1);
    /* The extra sin column adds sin(m w_h) sin(n w_h): not Toeplitz. */
    double want = 0;
    for (int a = 0; a < COUNT; a++)
      for (int b = 0; b < COUNT; b++)
        if (odd == PE_ODD_EXTRA_SIN)
          want = fmax(
              want, fabs(table[a * DIM + DIM - 1] * table[b * DIM + DIM - 1]));
    CHECK(pe_gram_deviation_f64(result, table, COUNT, DIM, g, 1) == PE_OK,
          "gram");
    CHECK(fabs(result[0] - want) <= 1e-13, "odd %d: deviation %g, want %g", odd,
          result[0], want);
    CHECK(pe_gram_deviation_f32(result, table32, COUNT, DIM, g, 1) == PE_OK &&
              fabs(result[0] - want) <= 2e-6,
          "gram f32 odd %d: %g", odd, result[0]);
    if (odd == PE_ODD_ZERO_PAD) {
      /* A perturbed entry is found at its place, both ways round. */
      table[7 * DIM + 3] += 0.5;
      pe_gram_deviation_f64(result, table, COUNT, DIM, g, 1);
      CHECK(result[0] > 0.25 && (result[1] == 7 || result[2] == 7),
            "perturbed: %g at %g, %g", result[0], result[1], result[2]);
      /* The full expected matrix form. */
      table[7 * DIM + 3] -= 0.5;
      double *full = malloc(sizeof(double) * COUNT * COUNT);
      for (int a = 0; a < COUNT; a++)
        for (int b = 0; b < COUNT; b++)
          full[a * COUNT + b] = g[a - b + COUNT - 1];
      full[3 * COUNT + 30] += 1;
      pe_gram_deviation_f64(result, table, COUNT, DIM, full, 0);
      CHECK(fabs(result[0] - 1) < 1e-12 && result[1] == 3 && result[2] == 30,
            "full: %g at %g, %g", result[0], result[1], result[2]);
      free(full);
    }
    free(omega);
  }
}

static void test_bad_input(void) {
  double w[4] = {1, 0.1, 0.01, 0.001}, out[4], k[3] = {1, NAN, 2};
  double t[16] = {0}, result[3];
  CHECK(pe_dot_products(out, NULL, 3, 0, 1, 8, 0, w, 3, 1, 1) ==
            PE_ERR_FREQUENCIES,
        "count of frequencies");
  CHECK(pe_dot_products(out, NULL, 3, 0, 1, 0, 0, w, 0, 1, 1) == PE_ERR_DIM,
        "dim");
  CHECK(pe_dot_products(NULL, NULL, 3, 0, 1, 8, 0, w, 4, 1, 1) == PE_ERR_NULL,
        "null");
  CHECK(pe_dot_products((double *)((char *)out + 4), NULL, 2, 0, 1, 8, 0, w, 4,
                        1, 1) == PE_ERR_NULL,
        "misaligned");
  CHECK(pe_dot_products(out, k, 3, 0, 1, 8, 0, w, 4, 1, 1) == PE_ERR_OFFSETS,
        "nan offset");
  CHECK(pe_dot_products(out, NULL, 3, 0, INFINITY, 8, 0, w, 4, 1, 1) ==
            PE_ERR_OFFSETS,
        "inf step");
  CHECK(pe_dot_products(out, NULL, 3, 1e308, 1e308, 8, 0, w, 4, 1, 1) ==
            PE_ERR_OFFSETS,
        "last offset overflows");
  CHECK(pe_dot_products(out, NULL, 3, 0, 1, 8, 0, w, 4, NAN, 1) == PE_ERR_SCALE,
        "scale");
  CHECK(pe_dot_products(out, NULL, 3, 0, 1, 8, 0, w, 4, 1, 1e300) ==
            PE_ERR_OUTPUT_SCALE,
        "amplitude squared overflows");
  /* amplitude^2 is finite, but h times it is not. */
  CHECK(pe_dot_products(out, NULL, 3, 0, 1, 8, 0, w, 4, 1, 1e154) ==
            PE_ERR_OUTPUT_SCALE,
        "scaled sums overflow");
  CHECK(pe_dot_products(out, NULL, UINT32_MAX, 0, 1, 8, 0, w, 4, 1, 1) ==
            PE_ERR_SIZE,
        "size");
  CHECK(pe_gram_deviation_f64(result, t, 0, 8, out, 1) == PE_ERR_COUNT,
        "gram count");
  CHECK(pe_gram_deviation_f64(result, NULL, 2, 8, out, 1) == PE_ERR_NULL,
        "gram null");
  CHECK(pe_gram_deviation_f64(result, t, 2, 0, out, 1) == PE_ERR_DIM,
        "gram dim");
  CHECK(pe_gram_deviation_f64(result, t, 70000, 70000, out, 0) == PE_ERR_SIZE,
        "gram size");
  /* Still working afterwards. */
  CHECK(pe_dot_products(out, NULL, 2, 0, 1, 2, 0, w, 1, 1, 1) == PE_OK &&
            out[0] == 1 && fabs(out[1] - cos(1)) < 1e-16,
        "after errors");
}

int main(void) {
  srand(11);
  test_every_tail();
  test_large_dims();
  test_gram();
  test_bad_input();
  return check_report("dot_products");
}
