/* Tables against a float64 reference written from the definitions, for every
   layout, odd-dim rule, tail length and a range of positions; outputs are
   NaN-filled first so an unwritten column shows. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "frequencies.h"
#include "reference.h"
#include "status.h"
#include "table.h"

static const char *layout_names[] = {"interleaved", "interleaved-cos-first",
                                     "halves", "halves-cos-first"};

/* Expected value of column col for position p, from the layout definitions:
   pairs (sin w_i p, cos w_i p) i < h, plus the odd column. */
static double reference(uint32_t dim, int layout, int odd_dim,
                        const double *omega, double scale, double p,
                        uint32_t col) {
  uint32_t h = dim / 2;
  int cos_first = layout == PE_LAYOUT_INTERLEAVED_COS_FIRST ||
                  layout == PE_LAYOUT_HALVES_COS_FIRST;
  int halves =
      layout == PE_LAYOUT_HALVES || layout == PE_LAYOUT_HALVES_COS_FIRST;
  /* [sin | cos] with an extra sin keeps it inside the sin block. */
  int extra_in_block = halves && !cos_first && odd_dim == PE_ODD_EXTRA_SIN;
  if (dim % 2 == 1 && col == dim - 1 && !extra_in_block)
    return odd_dim == PE_ODD_EXTRA_SIN ? sin_of_product(p, scale * omega[h])
                                       : 0.0;
  uint32_t i;
  int is_sin;
  if (!halves) {
    i = col / 2;
    is_sin = (col % 2 == 0) != cos_first;
  } else {
    uint32_t first =
        (odd_dim == PE_ODD_EXTRA_SIN && dim % 2 && !cos_first) ? h + 1 : h;
    is_sin = (col < first) != cos_first;
    i = col < first ? col : col - first;
  }
  double w = scale * omega[i];
  return is_sin ? sin_of_product(p, w) : cos_of_product(p, w);
}

static void paper_omega(double *omega, uint32_t n, uint32_t dim, double base) {
  for (uint32_t i = 0; i < n; i++)
    omega[i] = exp(-(2.0 * i / dim) * log(base));
}

static void check_table(uint32_t dim, int layout, int odd_dim, double base,
                        const double *positions, uint32_t count, double start,
                        double scale, double amplitude) {
  uint32_t n;
  int32_t status = pe_frequency_count(dim, odd_dim, &n);
  CHECK(status == PE_OK, "count for dim %u", dim);
  if (status != PE_OK)
    return;
  double *omega = malloc(sizeof(double) * (n + 1));
  CHECK(pe_frequencies(PE_SCHEDULE_PAPER, dim, odd_dim, base, 1, 1, 0, omega,
                       n) == PE_OK,
        "frequencies");
  double *expected_omega = malloc(sizeof(double) * (n + 1));
  paper_omega(expected_omega, n, dim, base);
  for (uint32_t i = 0; i < n; i++)
    CHECK(fabs(omega[i] - expected_omega[i]) <= 1e-14 * expected_omega[i],
          "omega[%u] dim %u base %g", i, dim, base);

  size_t size = (size_t)count * dim;
  float *f32 = malloc(sizeof(float) * size + 1);
  double *f64 = malloc(sizeof(double) * size + 1);
  for (size_t k = 0; k < size; k++) {
    f32[k] = NAN;
    f64[k] = NAN;
  }
  CHECK(pe_table_f32(f32, positions, count, start, dim, layout, odd_dim, omega,
                     n, scale, amplitude) == PE_OK,
        "table f32");
  CHECK(pe_table_f64(f64, positions, count, start, dim, layout, odd_dim, omega,
                     n, scale, amplitude) == PE_OK,
        "table f64");
  double err32 = 0, err64 = 0;
  size_t worst = 0;
  for (uint32_t j = 0; j < count; j++) {
    double p = positions ? positions[j] : start + j;
    for (uint32_t col = 0; col < dim; col++) {
      /* omega from the code under test: its own accuracy is checked above,
         and both sides must take the sin of the same p * w. */
      double want =
          amplitude * reference(dim, layout, odd_dim, omega, scale, p, col);
      size_t k = (size_t)j * dim + col;
      double e32 = fabs(f32[k] - want), e64 = fabs(f64[k] - want);
      if (!(e32 <= err32)) {
        err32 = isnan(e32) ? INFINITY : e32;
        worst = k;
      }
      if (!(e64 <= err64))
        err64 = isnan(e64) ? INFINITY : e64;
    }
  }
  CHECK(
      err32 <= 6e-8 * fabs(amplitude) && err64 <= 1e-13 * fabs(amplitude),
      "dim %u layout %s odd %d base %g count %u start %g: f32 err %g (at %zu) "
      "f64 err %g",
      dim, layout_names[layout], odd_dim, base, count, start, err32, worst,
      err64);
  free(f32);
  free(f64);
  free(omega);
  free(expected_omega);
}

static void test_every_tail(void) {
  for (uint32_t dim = 1; dim <= 41; dim++)
    for (int layout = 0; layout < 4; layout++)
      for (int odd = 0; odd < 2; odd++)
        check_table(dim, layout, odd, 10000, NULL, 300, 0, 1, 1);
}

static void test_large_positions(void) {
  double positions[] = {0,        1,         -3.25,      1e6 + 0.5, 16777215,
                        16777216, -16777216, 8388607.75, 123456.789};
  uint32_t dims[] = {1, 2, 3, 5, 64, 768, 4097};
  double bases[] = {2, 10000, 1e9};
  for (unsigned d = 0; d < sizeof dims / sizeof *dims; d++)
    for (int layout = 0; layout < 4; layout++)
      for (unsigned b = 0; b < 3; b++)
        check_table(dims[d], layout, PE_ODD_EXTRA_SIN, bases[b], positions, 9,
                    0, 1, 1);
  /* The recurrence across many re-seeds near 2^24, and a fractional start. */
  check_table(768, PE_LAYOUT_INTERLEAVED, PE_ODD_ZERO_PAD, 10000, NULL, 1000,
              16777216 - 1000, 1, 1);
  check_table(513, PE_LAYOUT_HALVES, PE_ODD_ZERO_PAD, 10000, NULL, 700, -350.5,
              1, 1);
  check_table(65536, PE_LAYOUT_HALVES_COS_FIRST, PE_ODD_ZERO_PAD, 10000,
              positions, 9, 0, 1, 1);
  check_table(65536, PE_LAYOUT_INTERLEAVED, PE_ODD_ZERO_PAD, 10000, NULL, 3,
              16777213, 1, 1);
  /* Far beyond 2^24 (past the fast sin/cos range): still one rounding. */
  double huge[] = {1.5e8, -3e8 + 0.25, 1e12 + 0.5, -7e15, 99999999.75};
  for (int layout = 0; layout < 4; layout++)
    check_table(37, layout, PE_ODD_EXTRA_SIN, 10000, huge, 5, 0, 1, 1);
  check_table(64, PE_LAYOUT_INTERLEAVED, PE_ODD_ZERO_PAD, 10000, NULL, 300,
              -7e15, 1, 1);
  /* An evenly spaced array takes the recurrence; one whose real spacing
     is uneven must not. */
  double *even = malloc(sizeof(double) * 300);
  for (int j = 0; j < 300; j++)
    even[j] = 1048576 + 0.25 * j;
  check_table(96, PE_LAYOUT_INTERLEAVED, PE_ODD_ZERO_PAD, 10000, even, 300, 0,
              1, 1);
  double uneven[] = {-2.000129183185494e-12, 220129.81507478622,
                     440259.63014957244};
  check_table(2, PE_LAYOUT_INTERLEAVED, PE_ODD_ZERO_PAD, 2, uneven, 3, 0, 1, 1);
  free(even);
  /* Angle scale and output amplitude. */
  check_table(64, PE_LAYOUT_HALVES, PE_ODD_ZERO_PAD, 10000, NULL, 300, 2, 1000,
              0.25);
  check_table(33, PE_LAYOUT_INTERLEAVED_COS_FIRST, PE_ODD_EXTRA_SIN, 100,
              positions, 9, 0, 0.001, -2);
}

static void test_schedules(void) {
  double w[8];
  /* timescale: min * exp(-i ln(max/min) / max(h-1, 1)), h = 4 */
  CHECK(pe_frequencies(PE_SCHEDULE_TIMESCALE, 8, PE_ODD_ZERO_PAD, 0, 2, 2e4, 0,
                       w, 4) == PE_OK,
        "timescale");
  for (int i = 0; i < 4; i++)
    CHECK(fabs(w[i] - 2 * pow(1e4, -i / 3.0)) <= 1e-15 * w[i], "timescale %d",
          i);
  /* h = 1: the denominator is clamped to 1, a single frequency min. */
  CHECK(pe_frequencies(PE_SCHEDULE_TIMESCALE, 2, PE_ODD_ZERO_PAD, 0, 1, 1e4, 0,
                       w, 1) == PE_OK &&
            w[0] == 1,
        "timescale h=1");
  /* shifted: exp(-ln(base) i / (h - shift)), h = 4, shift = 1 */
  CHECK(pe_frequencies(PE_SCHEDULE_SHIFTED, 8, PE_ODD_ZERO_PAD, 1e4, 0, 0, 1, w,
                       4) == PE_OK,
        "shifted");
  for (int i = 0; i < 4; i++)
    CHECK(fabs(w[i] - pow(1e4, -i / 3.0)) <= 1e-15 * w[i], "shifted %d", i);
  CHECK(pe_frequencies(PE_SCHEDULE_SHIFTED, 8, PE_ODD_ZERO_PAD, 1e4, 0, 0, 0, w,
                       4) == PE_OK &&
            fabs(w[3] - pow(1e4, -3 / 4.0)) <= 1e-15,
        "shifted 0");
}

static void test_bad_input(void) {
  double w[8] = {1, 0.1, 0.01, 0.001, 0, 0, 0, 0};
  float out[64];
  double pos[2] = {1, NAN};
  uint32_t n;
  CHECK(pe_frequency_count(0, 0, &n) == PE_ERR_DIM, "dim 0");
  CHECK(pe_frequency_count(PE_MAX_DIM + 1, 0, &n) == PE_ERR_DIM, "dim max");
  CHECK(pe_frequency_count(3, PE_ODD_ERROR, &n) == PE_ERR_ODD_DIM, "odd error");
  CHECK(pe_frequency_count(3, 7, &n) == PE_ERR_ODD_DIM, "odd unknown");
  CHECK(pe_frequency_count(3, -1, &n) == PE_ERR_ODD_DIM, "odd negative");
  CHECK(pe_frequencies(PE_SCHEDULE_PAPER, 8, 0, 1, 1, 1, 0, w, 4) ==
            PE_ERR_BASE,
        "base 1");
  CHECK(pe_frequencies(PE_SCHEDULE_PAPER, 8, 0, INFINITY, 1, 1, 0, w, 4) ==
            PE_ERR_BASE,
        "base inf");
  CHECK(pe_frequencies(PE_SCHEDULE_PAPER, 8, 0, 1e4, 1, 1, 0, w, 3) ==
            PE_ERR_ARGUMENT,
        "count");
  CHECK(pe_frequencies(PE_SCHEDULE_PAPER, 8, 0, 1e4, 1, 1, 0, NULL, 4) ==
            PE_ERR_NULL,
        "null");
  CHECK(pe_frequencies(9, 8, 0, 1e4, 1, 1, 0, w, 4) == PE_ERR_SCHEDULE,
        "schedule");
  CHECK(pe_frequencies(PE_SCHEDULE_TIMESCALE, 8, 0, 0, -1, 1, 0, w, 4) ==
            PE_ERR_TIMESCALE,
        "timescale");
  double grown[6];
  CHECK(pe_frequencies(PE_SCHEDULE_TIMESCALE, 12, 0, 0, 13013.5, 1e-309, 0,
                       grown, 6) == PE_ERR_TIMESCALE,
        "timescale overflow");
  CHECK(pe_frequencies(PE_SCHEDULE_SHIFTED, 8, 0, 1e4, 0, 0, 4, w, 4) ==
            PE_ERR_SHIFT,
        "shift = h");
  CHECK(pe_frequencies(PE_SCHEDULE_SHIFTED, 8, 0, 1e4, 0, 0, NAN, w, 4) ==
            PE_ERR_SHIFT,
        "shift nan");
  CHECK(pe_table_f32(out, NULL, 2, 0, 8, 4, 0, w, 4, 1, 1) == PE_ERR_LAYOUT,
        "layout");
  CHECK(pe_table_f32(out, NULL, 2, 0, 8, 0, 0, w, 3, 1, 1) ==
            PE_ERR_FREQUENCIES,
        "omega count");
  w[4] = NAN;
  CHECK(pe_table_f32(out, NULL, 2, 0, 10, 0, 0, w, 5, 1, 1) ==
            PE_ERR_FREQUENCIES,
        "omega nan");
  w[4] = 0;
  CHECK(pe_table_f32(out, pos, 2, 0, 8, 0, 0, w, 4, 1, 1) == PE_ERR_POSITIONS,
        "position nan");
  CHECK(pe_table_f32(out, NULL, 2, INFINITY, 8, 0, 0, w, 4, 1, 1) ==
            PE_ERR_POSITIONS,
        "start inf");
  CHECK(pe_table_f32(out, NULL, 2, 1e308, 8, 0, 0, w, 4, 10, 1) ==
            PE_ERR_POSITIONS,
        "angle overflow");
  CHECK(pe_table_f32(out, NULL, 2, 0, 8, 0, 0, w, 4, NAN, 1) == PE_ERR_SCALE,
        "scale");
  CHECK(pe_table_f32(out, NULL, 2, 0, 8, 0, 0, w, 4, 1, INFINITY) ==
            PE_ERR_OUTPUT_SCALE,
        "amplitude");
  CHECK(pe_table_f32(out, NULL, 2, 0, 8, 0, 0, w, 4, 1, 1e39) ==
            PE_ERR_OUTPUT_SCALE,
        "amplitude beyond float32");
  CHECK(pe_table_f32(NULL, NULL, 2, 0, 8, 0, 0, w, 4, 1, 1) == PE_ERR_NULL,
        "out null");
  CHECK(pe_table_f32((float *)((char *)out + 1), NULL, 2, 0, 8, 0, 0, w, 4, 1,
                     1) == PE_ERR_NULL,
        "out misaligned");
  CHECK(pe_table_f32(out, NULL, 1u << 31, 0, 8, 0, 0, w, 4, 1, 1) ==
            PE_ERR_SIZE,
        "size");
  /* Nothing is kept between calls: a valid call after the errors works. */
  CHECK(pe_table_f32(out, NULL, 2, 0, 8, 0, 0, w, 4, 1, 1) == PE_OK &&
            out[8] == (float)sin(1.0) && out[9] == (float)cos(1.0),
        "valid after errors");
}

/* The exported column map against the reference's own reading of each
   layout: the value it names is the value the reference puts there. */
static void test_column_map(void) {
  int32_t codes[41];
  for (uint32_t dim = 1; dim <= 41; dim++)
    for (int layout = 0; layout < 4; layout++)
      for (int odd = 0; odd < 2; odd++) {
        uint32_t n;
        CHECK(pe_frequency_count(dim, odd, &n) == PE_OK, "count");
        double omega[22];
        paper_omega(omega, n, dim, 100);
        CHECK(pe_table_columns_of(codes, dim, layout, odd) == PE_OK,
              "column map dim %u", dim);
        for (uint32_t col = 0; col < dim; col++) {
          double p = 0.7, want = reference(dim, layout, odd, omega, 1, p, col);
          int32_t c = codes[col];
          double named = c < 0        ? 0.0
                         : c % 2 == 0 ? sin_of_product(p, omega[c / 2])
                                      : cos_of_product(p, omega[c / 2]);
          CHECK(c >= -1 && c < (int32_t)(2 * n) && named == want,
                "dim %u layout %s odd %d column %u: code %d", dim,
                layout_names[layout], odd, col, c);
        }
      }
  CHECK(pe_table_columns_of(codes, 4, 4, 0) == PE_ERR_LAYOUT, "layout");
  CHECK(pe_table_columns_of(codes, 5, 0, PE_ODD_ERROR) == PE_ERR_ODD_DIM,
        "odd dim");
  CHECK(pe_table_columns_of(codes, 0, 0, 0) == PE_ERR_DIM, "dim 0");
  CHECK(pe_table_columns_of(NULL, 4, 0, 0) == PE_ERR_NULL, "null");
}

int main(void) {
  test_schedules();
  test_every_tail();
  test_large_positions();
  test_bad_input();
  test_column_map();
  return check_report("table");
}
