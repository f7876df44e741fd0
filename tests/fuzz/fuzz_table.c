/* Tables (and the frequency schedules that feed them) with arbitrary
   arguments. A successful call writes finite values within |amplitude|, and
   the zero column of zero-pad as exact zeros; its rows equal, bit for bit,
   the same rows computed alone and a tail of them computed as a count from
   its own start; a refused call writes nothing; a null or misaligned
   pointer is always refused. */
#include "fuzz_input.h"
#include "table.h"

/* Rows of a successful call, computed again alone (rows 0, count / 2 and
   count - 1 at their positions) and as a count from row count / 3 when its
   sums start + j are the call's: each must equal the call's, bit for bit. */
static void check_rows_alone(const void *out, int f64, const double *positions,
                             uint32_t count, double start, const shape *s,
                             int32_t layout, double scale, double amplitude) {
  size_t elem = f64 ? sizeof(double) : sizeof(float);
  size_t row_bytes = s->dim * elem;
  char *again = malloc((size_t)count * row_bytes + 1);
  const uint32_t rows[3] = {0, count / 2, count - 1};
  for (int r = 0; r < 3 && count > 0; r++) {
    uint32_t j = rows[r];
    double p = positions ? positions[j] : start + (double)j;
    int32_t status =
        f64 ? pe_table_f64((double *)again, &p, 1, 0, s->dim, layout,
                           s->odd_dim, s->omega, s->n_omega, scale, amplitude)
            : pe_table_f32((float *)again, &p, 1, 0, s->dim, layout, s->odd_dim,
                           s->omega, s->n_omega, scale, amplitude);
    if (status != PE_OK)
      fail("a row alone refused where its table was accepted", j, p);
    if (memcmp(again, (const char *)out + j * row_bytes, row_bytes) != 0)
      fail("a row alone differs from the same row of the table", j, p);
  }
  uint32_t from = count / 3;
  int same_sums = positions == NULL && count > 1;
  for (uint32_t j = from; same_sums && j < count; j++)
    same_sums =
        start + (double)j == (start + (double)from) + (double)(j - from);
  if (same_sums) {
    double tail_start = start + (double)from;
    uint32_t n = count - from;
    int32_t status =
        f64 ? pe_table_f64((double *)again, NULL, n, tail_start, s->dim, layout,
                           s->odd_dim, s->omega, s->n_omega, scale, amplitude)
            : pe_table_f32((float *)again, NULL, n, tail_start, s->dim, layout,
                           s->odd_dim, s->omega, s->n_omega, scale, amplitude);
    if (status != PE_OK)
      fail("a tail of rows refused where its table was accepted", from,
           tail_start);
    if (memcmp(again, (const char *)out + from * row_bytes, n * row_bytes) != 0)
      fail("a tail of rows differs from the same rows of the table", from,
           tail_start);
  }
  free(again);
}

/* Whether column col of an odd dim is the zero column of zero-pad. */
static int zero_column(const shape *s, uint32_t col) {
  return s->dim % 2 == 1 && s->odd_dim == PE_ODD_ZERO_PAD && col == s->dim - 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  input in = {data, size};
  uint8_t flags = (uint8_t)take(&in, 1);
  int f64 = flags & 1;
  shape s = shape_of(&in);
  int32_t layout = (int32_t)(take(&in, 1) % 6) - 1;
  uint32_t count = (uint32_t)take(&in, 2) % 300;
  if (s.dim > 0 && (size_t)count * s.dim > (1u << 15))
    count = (1u << 15) / s.dim;
  double start, scale = number(&in), amplitude = number(&in);
  double *positions = points_of(&in, count, &start);
  uint8_t spoil_out = (uint8_t)take(&in, 1);
  uint8_t spoil_positions = (uint8_t)take(&in, 1);

  size_t cells = (size_t)count * s.dim;
  size_t bytes = cells * (f64 ? sizeof(double) : sizeof(float));
  void *out = malloc(bytes + 1);
  memset(out, 0xa5, bytes); /* not a finite bound-respecting pattern */
  void *before = copy_of(out, bytes);
  void *out_arg = spoil_pointer(out, spoil_out);
  const double *positions_arg =
      positions ? spoil_pointer(positions, spoil_positions) : NULL;

  int32_t status =
      f64 ? pe_table_f64(out_arg, positions_arg, count, start, s.dim, layout,
                         s.odd_dim, s.omega, s.n_omega, scale, amplitude)
          : pe_table_f32(out_arg, positions_arg, count, start, s.dim, layout,
                         s.odd_dim, s.omega, s.n_omega, scale, amplitude);
  require_status(status);
  if (status != PE_OK) {
    require_untouched(out, before, bytes);
  } else {
    /* Null positions are valid: start + j. */
    if (count > 0 && (out_arg != out ||
                      (positions_arg != NULL && positions_arg != positions)))
      fail("accepted a null or misaligned pointer", 0, 0);
    /* sin and cos are within 1; the recurrence may overshoot by a few ulps,
       and float32 rounding by half an ulp (or a subnormal step). */
    double a = fabs(amplitude);
    if (f64)
      require_bounded(out, cells, a * (1 + 1e-12),
                      "table value above amplitude");
    else
      require_bounded_f32(out, cells, a * (1 + 1e-6) + 0x1p-149,
                          "table value above amplitude");
    for (uint32_t j = 0; j < count; j++)
      for (uint32_t col = 0; col < s.dim; col++) {
        size_t k = (size_t)j * s.dim + col;
        double v = f64 ? ((double *)out)[k] : ((float *)out)[k];
        if (zero_column(&s, col) && v != 0)
          fail("zero-pad column not zero", k, v);
      }
    check_rows_alone(out, f64, positions_arg ? positions : NULL, count, start,
                     &s, layout, scale, amplitude);
  }
  free(out);
  free(before);
  free(positions);
  free(s.omega);
  return 0;
}
