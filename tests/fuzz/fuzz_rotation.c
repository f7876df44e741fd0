/* R(k) rows in float32, float64 and float16, RoPE in any dtype (valid or
   not) with any rotary width and heads per position, and the dense
   rotation matrix, with arbitrary arguments, out-of-place, in place and on
   overlapping buffers. A successful call keeps the length of every pair
   whose length is finite (RoPE multiplies it by |amplitude|, the attention
   factor), copies the zero column of zero-pad and RoPE's columns past
   rotary unchanged, and leaves a separate input alone; the
   matrix holds cos and sin entries whose rows have unit length. A refused
   call writes nothing; a null or misaligned pointer, or buffers that
   overlap without being equal, are always refused. */
#include "fuzz_input.h"
#include "half.h"
#include "rotation.h"

#define MATRIX_MAX_DIM 64

typedef enum { SEPARATE, IN_PLACE, OVERLAPPING } aliasing;

/* |(x', y')| against gain |(x, y)|, for pairs whose new length is finite
   with room to spare. Rotating in double and rounding each component once
   costs at most a few ulps of the output type, or its smallest subnormal. */
static void require_pair_lengths(double x, double y, double x2, double y2,
                                 double gain, double ulp, double tiny,
                                 double max) {
  /* A pair of subnormals has a subnormal hypot, a few bits only: it is
     scaled up exactly first (and the gain down) so `before` keeps its
     precision when the gain makes it normal. */
  double up = hypot(x, y) < DBL_MIN ? 0x1p600 : 1;
  double before = gain / up * hypot(x * up, y * up), after = hypot(x2, y2);
  if (!(before < 0.99 * max))
    return;
  /* cos and sin are scaled by the amplitude first, as transformers scales
     its cache, each rounded: a subnormal product is off by up to 2^-1075,
     times the pair's values. */
  double scaled = (fabs(x) + fabs(y)) * 0x1p-1074;
  if (!(fabs(after - before) <= 4 * ulp * before + tiny + scaled))
    fail("rotation changed a pair's length", 0, after - before);
}

static size_t element_size(int32_t dtype) {
  return dtype == PE_CACHE_FLOAT64   ? sizeof(double)
         : dtype == PE_CACHE_FLOAT16 ? sizeof(uint16_t)
                                     : sizeof(float);
}

static double value_at(const void *x, int32_t dtype, size_t k) {
  return dtype == PE_CACHE_FLOAT64 ? ((const double *)x)[k]
         : dtype == PE_CACHE_FLOAT16
             ? pe_half_to_double(((const uint16_t *)x)[k])
             : ((const float *)x)[k];
}

/* Pairs of the first `rotary` columns keep their lengths (times gain); the
   columns from `kept` on are copied bit for bit. */
static void check_rows(const void *out, const void *in, int32_t dtype,
                       uint32_t count, uint32_t dim, uint32_t rotary,
                       uint32_t kept, int32_t pairing, double gain) {
  uint32_t h = rotary / 2;
  size_t elem = element_size(dtype);
  double ulp = dtype == PE_CACHE_FLOAT64   ? 0x1p-53
               : dtype == PE_CACHE_FLOAT16 ? 0x1p-11
                                           : 0x1p-24;
  double tiny = dtype == PE_CACHE_FLOAT64   ? 0x1p-1070
                : dtype == PE_CACHE_FLOAT16 ? 0x1p-22
                                            : 0x1p-146;
  double max = dtype == PE_CACHE_FLOAT64   ? DBL_MAX
               : dtype == PE_CACHE_FLOAT16 ? 65504
                                           : FLT_MAX;
  for (uint32_t j = 0; j < count; j++) {
    size_t row = (size_t)j * dim;
    for (uint32_t i = 0; i < h; i++) {
      size_t a = row + (pairing == PE_PAIRING_INTERLEAVED ? 2 * i : i);
      size_t b = a + (pairing == PE_PAIRING_INTERLEAVED ? 1 : h);
      require_pair_lengths(value_at(in, dtype, a), value_at(in, dtype, b),
                           value_at(out, dtype, a), value_at(out, dtype, b),
                           gain, ulp, tiny, max);
    }
    for (size_t k = row + kept; k < row + dim; k++)
      if (memcmp((const char *)out + k * elem, (const char *)in + k * elem,
                 elem) != 0)
        fail("a column outside the pairs changed", k, 0);
  }
}

static void check_matrix(const double *m, uint32_t dim) {
  require_bounded(m, (size_t)dim * dim, 1 + 1e-15, "matrix entry above 1");
  for (uint32_t r = 0; r < dim; r++) {
    double sum = 0;
    for (uint32_t c = 0; c < dim; c++)
      sum += m[(size_t)r * dim + c] * m[(size_t)r * dim + c];
    if (!(fabs(sum - 1) <= 1e-14))
      fail("matrix row not of unit length", r, sum);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  input in = {data, size};
  /* 0 to 2: R(k) in float32, float64, float16; 3: RoPE; 4: the matrix. */
  uint8_t which = (uint8_t)take(&in, 1) % 5;
  shape s = shape_of(&in);
  int32_t layout = (int32_t)(take(&in, 1) % 6) - 1; /* pairing for RoPE */
  uint32_t count = (uint32_t)take(&in, 2) % 300;
  if (s.dim > 0 && (size_t)count * s.dim > (1u << 14))
    count = (1u << 14) / s.dim;
  double start, scale = number(&in);
  double amplitude = 1;
  /* RoPE's own: any dtype and repeat, valid or not; rotary up to dim + 2. */
  int32_t dtype = which == 1   ? PE_CACHE_FLOAT64
                  : which == 2 ? PE_CACHE_FLOAT16
                               : PE_CACHE_FLOAT32;
  uint32_t rotary = s.dim - s.dim % 2, repeat = 1, span = 1, n_rope = s.n_omega;
  if (which == 3) {
    amplitude = number(&in);
    dtype = (int32_t)(take(&in, 1) % 5) - 1;
    rotary = (uint32_t)take(&in, 2) % (s.dim + 3);
    repeat = (uint32_t)take(&in, 1) % 5;
    /* Mostly whole groups of heads, and rotary / 2 of the frequencies. */
    span = (uint32_t)take(&in, 1) % 4;
    /* Mostly whole groups of heads, in whole spans of groups. */
    if (repeat > 0 && span > 0 && take(&in, 1) % 4 != 0)
      count -= count % (repeat * span);
    if (rotary / 2 <= s.n_omega && take(&in, 1) % 8 != 0)
      n_rope = rotary / 2;
  }
  double *angles = points_of(&in, count, &start);
  aliasing mode = (aliasing)(take(&in, 1) % 3);
  uint8_t spoil_out = (uint8_t)take(&in, 1), spoil_in = (uint8_t)take(&in, 1);
  uint8_t spoil_angles = (uint8_t)take(&in, 1);

  if (which == 4)
    dtype = PE_CACHE_FLOAT64;
  size_t elem = element_size(dtype);
  size_t cells = which == 4 ? (size_t)s.dim * s.dim : (size_t)count * s.dim;
  if (which == 4 && s.dim > MATRIX_MAX_DIM)
    cells = 0; /* the matrix is refused unread past PE_MAX_MATRIX_DIM */
  size_t shift =
      mode == OVERLAPPING && cells > 1 ? 1 + take(&in, 2) % (cells - 1) : 0;
  /* One allocation holds both buffers, so overlap is possible. */
  char *buf = malloc((2 * cells + shift) * elem + 1);
  for (size_t k = 0; k < 2 * cells + shift; k++) {
    double v = number(&in);
    if (dtype == PE_CACHE_FLOAT64)
      ((double *)buf)[k] = v;
    else if (dtype == PE_CACHE_FLOAT16)
      ((uint16_t *)buf)[k] = pe_half_from_double(v);
    else
      ((float *)buf)[k] = (float)v;
  }
  char *src = buf;
  char *dst = mode == IN_PLACE      ? buf
              : mode == OVERLAPPING ? buf + shift * elem
                                    : buf + (cells + shift) * elem;
  size_t all = (2 * cells + shift) * elem;
  void *before = copy_of(buf, all);
  void *dst_arg = spoil_pointer(dst, spoil_out);
  void *src_arg = spoil_pointer(src, spoil_in);
  const double *angles_arg =
      angles ? spoil_pointer(angles, spoil_angles) : NULL;

  int32_t status;
  int32_t pairing = layout == PE_LAYOUT_INTERLEAVED ||
                            layout == PE_LAYOUT_INTERLEAVED_COS_FIRST
                        ? PE_PAIRING_INTERLEAVED
                        : PE_PAIRING_HALVES;
  switch (which) {
  case 0:
    status = pe_rotate_f32(dst_arg, src_arg, count, s.dim, angles_arg, start,
                           layout, s.odd_dim, s.omega, s.n_omega, scale);
    break;
  case 1:
    status = pe_rotate_f64(dst_arg, src_arg, count, s.dim, angles_arg, start,
                           layout, s.odd_dim, s.omega, s.n_omega, scale);
    break;
  case 2:
    status = pe_rotate_f16(dst_arg, src_arg, count, s.dim, angles_arg, start,
                           layout, s.odd_dim, s.omega, s.n_omega, scale);
    break;
  case 3:
    pairing = layout; /* any value, valid or not */
    status =
        pe_rope(dst_arg, src_arg, dtype, count, s.dim, rotary, repeat, span,
                angles_arg, start, pairing, s.omega, n_rope, scale, amplitude);
    break;
  default:
    status = cells > 0 ? pe_rotation_matrix_f64((double *)dst_arg, start, s.dim,
                                                layout, s.odd_dim, s.omega,
                                                s.n_omega, scale)
                       : PE_ERR_DIM;
    break;
  }
  require_status(status);
  if (status != PE_OK) {
    require_untouched(buf, before, all);
  } else if (which == 4) {
    if (dst_arg != dst)
      fail("accepted a null or misaligned pointer", 0, 0);
    check_matrix((const double *)dst, s.dim);
  } else {
    int spoilt = dst_arg != dst || src_arg != src ||
                 (angles_arg != NULL && angles_arg != angles);
    if (count > 0 && spoilt)
      fail("accepted a null or misaligned pointer", 0, 0);
    if (count > 0 && shift > 0) /* one cell gives no overlap, only in place */
      fail("accepted overlapping buffers", 0, 0);
    /* The input as it was, from the copy (in place overwrote it). */
    const char *was = (const char *)before + (size_t)(src - buf);
    if (mode == SEPARATE && memcmp(src, was, cells * elem) != 0)
      fail("input changed", 0, 0);
    if (!isfinite(amplitude))
      fail("accepted a non-finite amplitude", 0, amplitude);
    /* R(k) leaves the zero column of an odd dim, RoPE the columns past
       rotary. */
    check_rows(dst, was, dtype, count, s.dim, rotary, rotary, pairing,
               fabs(amplitude));
  }
  free(buf);
  free(before);
  free(angles);
  free(s.omega);
  return 0;
}
