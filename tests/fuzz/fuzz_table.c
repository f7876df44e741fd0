/* Tables (and the frequency schedules that feed them) with arbitrary
   arguments. A successful call writes finite values within |amplitude|, and
   the zero column of zero-pad as exact zeros; a refused call writes
   nothing; a null or misaligned pointer is always refused. */
#include "fuzz_input.h"
#include "table.h"

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
  }
  free(out);
  free(before);
  free(positions);
  free(s.omega);
  return 0;
}
