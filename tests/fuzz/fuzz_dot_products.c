/* Relative dot products and the Gram-matrix check with arbitrary
   arguments. A successful pe_dot_products gives finite sums within
   amplitude^2 floor(dim/2), and amplitude^2 floor(dim/2) itself at offset 0;
   a Gram check gives a deviation that is not NaN and the row indices of a
   pair of rows. A refused call writes nothing; a null or misaligned
   pointer is always refused. */
#include "dot_products.h"
#include "fuzz_input.h"

#define MAX_COUNT 600
#define GRAM_MAX_COUNT 24

static void fuzz_dot_products(input *in) {
  shape s = shape_of(in);
  uint32_t count = (uint32_t)take(in, 2) % MAX_COUNT;
  double from, step = number(in), scale = number(in), amplitude = number(in);
  double *offsets = points_of(in, count, &from);
  uint8_t spoil_out = (uint8_t)take(in, 1),
          spoil_offsets = (uint8_t)take(in, 1);
  double *out = malloc(sizeof(double) * count + 1);
  for (uint32_t j = 0; j < count; j++)
    out[j] = number(in);
  void *before = copy_of(out, sizeof(double) * count);
  double *out_arg = spoil_pointer(out, spoil_out);
  const double *offsets_arg =
      offsets ? spoil_pointer(offsets, spoil_offsets) : NULL;

  int32_t status =
      pe_dot_products(out_arg, offsets_arg, count, from, step, s.dim, s.odd_dim,
                      s.omega, s.n_omega, scale, amplitude);
  require_status(status);
  if (status != PE_OK) {
    require_untouched(out, before, sizeof(double) * count);
  } else {
    if (count > 0 &&
        (out_arg != out || (offsets_arg != NULL && offsets_arg != offsets)))
      fail("accepted a null or misaligned pointer", 0, 0);
    /* |g(k)| <= h, with g(0) = h; the recurrence over a chunk of offsets
       drifts by far less than the tolerance. */
    double top = amplitude * amplitude * (double)(s.dim / 2);
    require_bounded(out, count, top * (1 + 1e-9) + 0x1p-1070,
                    "dot product above amplitude^2 h");
    for (uint32_t j = 0; offsets_arg != NULL && j < count; j++)
      if (offsets_arg[j] == 0 &&
          !(fabs(out[j] - top) <= 1e-9 * top + 0x1p-1070))
        fail("dot product at offset 0 is not amplitude^2 h", j, out[j]);
  }
  free(out);
  free(before);
  free(offsets);
  free(s.omega);
}

static void fuzz_gram(input *in) {
  int f32 = take(in, 1) & 1;
  uint32_t dim = (uint32_t)take(in, 2) % 70;
  uint32_t count = (uint32_t)take(in, 1) % GRAM_MAX_COUNT;
  int32_t toeplitz = (int32_t)take(in, 1) % 3 - 1; /* any nonzero means yes */
  size_t cells = (size_t)count * dim;
  size_t n_g = toeplitz ? (count > 0 ? 2 * (size_t)count - 1 : 0)
                        : (size_t)count * count;
  double *table = malloc(sizeof(double) * cells + 1);
  float *table32 = malloc(sizeof(float) * cells + 1);
  double *g = malloc(sizeof(double) * n_g + 1);
  for (size_t k = 0; k < cells; k++)
    table32[k] = (float)(table[k] = number(in));
  for (size_t k = 0; k < n_g; k++)
    g[k] = number(in);
  double result[3] = {-1, -1, -1}, result_before[3] = {-1, -1, -1};
  double *result_arg = spoil_pointer(result, (uint8_t)take(in, 1));
  void *table_arg = spoil_pointer(f32 ? (void *)table32 : (void *)table,
                                  (uint8_t)take(in, 1));
  const double *g_arg = spoil_pointer(g, (uint8_t)take(in, 1));

  int32_t status = f32 ? pe_gram_deviation_f32(result_arg, table_arg, count,
                                               dim, g_arg, toeplitz)
                       : pe_gram_deviation_f64(result_arg, table_arg, count,
                                               dim, g_arg, toeplitz);
  require_status(status);
  if (status != PE_OK) {
    require_untouched(result, result_before, sizeof result);
  } else {
    if (result_arg != result || g_arg != g ||
        table_arg != (f32 ? (void *)table32 : (void *)table))
      fail("accepted a null or misaligned pointer", 0, 0);
    if (!(result[0] >= 0))
      fail("Gram deviation negative or NaN", 0, result[0]);
    for (int k = 1; k <= 2; k++)
      if (!(result[k] >= 0 && result[k] < count &&
            result[k] == floor(result[k])))
        fail("Gram deviation row is not a row", (size_t)k, result[k]);
  }
  free(table);
  free(table32);
  free(g);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  input in = {data, size};
  if (take(&in, 1) & 1)
    fuzz_gram(&in);
  else
    fuzz_dot_products(&in);
  return 0;
}
