/* Rotations against scalar float64 references written from the definitions
   (the R(k) of each layout, HF rotate_half, GPT-J rotate_every_two), for
   every tail length, every way of giving angles, in place and not; outputs
   are NaN-filled first so an unwritten column shows. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "angles.h"
#include "check.h"
#include "frequencies.h"
#include "half.h"
#include "reference.h"
#include "rope_cache.h"
#include "rotation.h"
#include "status.h"
#include "table.h"

static double uniform(void) { return rand() / (RAND_MAX + 1.0) * 2 - 1; }

/* Half a float32 ulp at |x|: the rounding bound of one float32 result. */
static double half_ulp(double x) {
  float f = (float)fabs(x);
  return ((double)nextafterf(f, INFINITY) - f) / 2;
}

static double *omega_for(uint32_t dim, int odd_dim, uint32_t *n) {
  if (pe_frequency_count(dim, odd_dim, n) != PE_OK)
    *n = 0;
  double *omega = malloc(sizeof(double) * (*n + 1));
  pe_frequencies(PE_SCHEDULE_PAPER, dim, odd_dim, 10000, 1, 1, 0, omega, *n);
  return omega;
}

/* Column of the sin and cos of pair i in a layout (even dim or zero-pad). */
static void pair_columns(int layout, uint32_t dim, uint32_t i,
                         uint32_t *sin_col, uint32_t *cos_col) {
  uint32_t h = dim / 2;
  switch (layout) {
  case PE_LAYOUT_INTERLEAVED:
    *sin_col = 2 * i, *cos_col = 2 * i + 1;
    break;
  case PE_LAYOUT_INTERLEAVED_COS_FIRST:
    *cos_col = 2 * i, *sin_col = 2 * i + 1;
    break;
  case PE_LAYOUT_HALVES:
    *sin_col = i, *cos_col = h + i;
    break;
  default:
    *cos_col = i, *sin_col = h + i;
  }
}

/* R(k) x from (sin, cos)(p + k) = (s cos kw + c sin kw, c cos kw - s sin kw).
 */
static void reference_rotate(double *out, const double *x, uint32_t dim,
                             int layout, const double *omega, double scale,
                             double k) {
  for (uint32_t col = 0; col < dim; col++)
    out[col] = x[col]; /* the zero column of an odd dim */
  for (uint32_t i = 0; i < dim / 2; i++) {
    uint32_t sc, cc;
    pair_columns(layout, dim, i, &sc, &cc);
    double c = cos_of_product(k, scale * omega[i]);
    double s = sin_of_product(k, scale * omega[i]);
    out[sc] = x[sc] * c + x[cc] * s;
    out[cc] = x[cc] * c - x[sc] * s;
  }
}

/* HF Llama: x * cat(cos, cos) + rotate_half(x) * cat(sin, sin), with
   rotate_half(x) = cat(-x2, x1). GPT-J: x * cos + rotate_every_two(x) * sin
   with cos, sin repeat_interleave'd and rotate_every_two(x)[2i] = -x[2i+1],
   [2i+1] = x[2i]. */
static void reference_rope(double *out, const double *x, uint32_t dim,
                           int pairing, const double *omega, double p) {
  uint32_t h = dim / 2;
  for (uint32_t col = 0; col < dim; col++) {
    uint32_t i = pairing == PE_PAIRING_HALVES ? col % h : col / 2;
    double rotated;
    if (pairing == PE_PAIRING_HALVES)
      rotated = col < h ? -x[col + h] : x[col - h];
    else
      rotated = col % 2 == 0 ? -x[col + 1] : x[col - 1];
    out[col] = x[col] * cos_of_product(p, omega[i]) +
               rotated * sin_of_product(p, omega[i]);
  }
}

enum { OFFSETS_ONE, OFFSETS_EVEN, OFFSETS_RANDOM };

static void fill_offsets(double *k, uint32_t count, int kind) {
  for (uint32_t j = 0; j < count; j++)
    k[j] = kind == OFFSETS_EVEN ? -37.5 + 1.25 * j : uniform() * 5000;
}

/* Random rows through pe_rotate_f32 / pe_rotate_f64, out of place and in
   place, against reference_rotate. */
static void check_rotate(uint32_t dim, int layout, uint32_t count, int kind,
                         double scale) {
  uint32_t n;
  double *omega = omega_for(dim, PE_ODD_ZERO_PAD, &n);
  size_t size = (size_t)count * dim;
  float *in = malloc(sizeof(float) * size), *out = malloc(sizeof(float) * size);
  float *inplace = malloc(sizeof(float) * size);
  double *in64 = malloc(sizeof(double) * size);
  double *out64 = malloc(sizeof(double) * size);
  double *k = malloc(sizeof(double) * count),
         *want = malloc(sizeof(double) * dim);
  for (size_t e = 0; e < size; e++) {
    in[e] = inplace[e] = (float)uniform();
    in64[e] = in[e];
    out[e] = NAN;
    out64[e] = NAN;
  }
  /* The zero column of an odd dim is zero in a table. */
  if (dim % 2 == 1)
    for (uint32_t j = 0; j < count; j++)
      in[(size_t)j * dim + dim - 1] = inplace[(size_t)j * dim + dim - 1] =
          (float)(in64[(size_t)j * dim + dim - 1] = 0);
  fill_offsets(k, count, kind);
  const double *offsets = kind == OFFSETS_ONE ? NULL : k;
  double one = 3.75;
  CHECK(pe_rotate_f32(out, in, count, dim, offsets, one, layout,
                      PE_ODD_ZERO_PAD, omega, n, scale) == PE_OK,
        "rotate f32");
  CHECK(pe_rotate_f32(inplace, inplace, count, dim, offsets, one, layout,
                      PE_ODD_ZERO_PAD, omega, n, scale) == PE_OK,
        "rotate in place");
  CHECK(pe_rotate_f64(out64, in64, count, dim, offsets, one, layout,
                      PE_ODD_ZERO_PAD, omega, n, scale) == PE_OK,
        "rotate f64");
  int bad32 = 0, bad64 = 0, differs = 0;
  double worst = 0;
  for (uint32_t j = 0; j < count; j++) {
    double x[64];
    for (uint32_t c = 0; c < dim; c++)
      x[c] = in[(size_t)j * dim + c];
    reference_rotate(want, x, dim, layout, omega, scale,
                     offsets ? offsets[j] : one);
    for (uint32_t c = 0; c < dim; c++) {
      size_t e = (size_t)j * dim + c;
      double e32 = fabs(out[e] - want[c]), e64 = fabs(out64[e] - want[c]);
      bad32 += !(e32 <= half_ulp(want[c]) + 1e-12);
      bad64 += !(e64 <= 1e-15);
      differs += memcmp(&out[e], &inplace[e], sizeof(float)) != 0;
      worst = fmax(worst, e64);
    }
  }
  CHECK(bad32 == 0 && bad64 == 0 && differs == 0,
        "dim %u layout %d count %u offsets %d: %d float32 and %d float64 "
        "values off (worst f64 %g), %d differ in place",
        dim, layout, count, kind, bad32, bad64, worst, differs);
  free(in), free(out), free(inplace), free(in64), free(out64), free(k);
  free(want), free(omega);
}

static void check_rope(uint32_t dim, int pairing, uint32_t count, int kind,
                       double amplitude) {
  uint32_t n;
  double *omega = omega_for(dim, PE_ODD_ZERO_PAD, &n);
  size_t size = (size_t)count * dim;
  float *in = malloc(sizeof(float) * size), *out = malloc(sizeof(float) * size);
  double *p = malloc(sizeof(double) * count), want[64], x[64];
  for (size_t e = 0; e < size; e++) {
    in[e] = (float)(uniform() * 4);
    out[e] = NAN;
  }
  fill_offsets(p, count, kind);
  const double *positions = kind == OFFSETS_ONE ? NULL : p;
  CHECK(pe_rope(out, in, PE_CACHE_FLOAT32, count, dim, dim, 1, 1, positions, 17,
                pairing, omega, n, 1, amplitude) == PE_OK,
        "rope");
  int bad = 0;
  for (uint32_t j = 0; j < count; j++) {
    for (uint32_t c = 0; c < dim; c++)
      x[c] = in[(size_t)j * dim + c];
    reference_rope(want, x, dim, pairing, omega, positions ? p[j] : 17);
    for (uint32_t c = 0; c < dim; c++) {
      want[c] *= amplitude;
      bad += !(fabs(out[(size_t)j * dim + c] - want[c]) <=
               half_ulp(want[c]) + 1e-11 * fabs(amplitude));
    }
  }
  CHECK(bad == 0, "rope dim %u pairing %d count %u positions %d: %d off", dim,
        pairing, count, kind, bad);
  free(in), free(out), free(p), free(omega);
}

/* Half a binary16 ulp at |x| (normals and subnormals). */
static double half_ulp_f16(double x) {
  double a = fabs(x);
  int e = a < 0x1p-14 ? -14 : ilogb(a);
  return ldexp(1.0, e - 11);
}

/* rope on rows of dim values of any dtype: the first `rotary` columns
   against the reference, the rest copied exactly; `repeat` rows share a
   position, `span` rows apart. Every value within one rounding of the
   reference. */
static void check_rope_rows(uint32_t dim, uint32_t rotary, uint32_t repeat,
                            uint32_t span, int dtype, int pairing, int kind) {
  uint32_t n, groups = 6, count = groups * repeat;
  double *omega = omega_for(rotary, PE_ODD_ZERO_PAD, &n);
  size_t size = (size_t)count * dim;
  double *x = malloc(sizeof(double) * size), want[96], p[6];
  float *in32 = malloc(sizeof(float) * size),
        *out32 = malloc(sizeof(float) * size);
  double *in64 = malloc(sizeof(double) * size),
         *out64 = malloc(sizeof(double) * size);
  uint16_t *in16 = malloc(sizeof(uint16_t) * size),
           *out16 = malloc(sizeof(uint16_t) * size);
  for (size_t e = 0; e < size; e++) {
    in32[e] = (float)(uniform() * 4);
    in16[e] = pe_half_from_double(in32[e]);
    x[e] = dtype == PE_CACHE_FLOAT16 ? pe_half_to_double(in16[e]) : in32[e];
    in64[e] = x[e];
    out32[e] = NAN, out64[e] = NAN, out16[e] = 0x7e00;
  }
  fill_offsets(p, groups, kind);
  const double *positions = kind == OFFSETS_ONE ? NULL : p;
  void *out = dtype == PE_CACHE_FLOAT64   ? (void *)out64
              : dtype == PE_CACHE_FLOAT16 ? (void *)out16
                                          : (void *)out32;
  const void *in = dtype == PE_CACHE_FLOAT64   ? (void *)in64
                   : dtype == PE_CACHE_FLOAT16 ? (void *)in16
                                               : (void *)in32;
  CHECK(pe_rope(out, in, dtype, count, dim, rotary, repeat, span, positions, 17,
                pairing, omega, n, 1, 1) == PE_OK,
        "rope rows");
  int bad = 0;
  for (uint32_t j = 0; j < count; j++) {
    const double *row = x + (size_t)j * dim;
    /* Row j is head (j % (span * repeat)) / span of group g: blocks of
       span groups, each holding every head's rows of those groups. */
    uint32_t g = j / (span * repeat) * span + j % span;
    reference_rope(want, row, rotary, pairing, omega, positions ? p[g] : 17);
    for (uint32_t c = rotary; c < dim; c++)
      want[c] = row[c];
    for (uint32_t c = 0; c < dim; c++) {
      size_t e = (size_t)j * dim + c;
      double got = dtype == PE_CACHE_FLOAT64   ? out64[e]
                   : dtype == PE_CACHE_FLOAT16 ? pe_half_to_double(out16[e])
                                               : out32[e];
      double bound = c >= rotary                 ? 0
                     : dtype == PE_CACHE_FLOAT64 ? 1e-15 * (1 + fabs(want[c]))
                     : dtype == PE_CACHE_FLOAT16 ? half_ulp_f16(want[c]) + 1e-12
                                                 : half_ulp(want[c]) + 1e-11;
      bad += !(fabs(got - want[c]) <= bound);
    }
  }
  CHECK(bad == 0,
        "rope dim %u rotary %u repeat %u span %u dtype %d pairing %d "
        "positions %d: %d off",
        dim, rotary, repeat, span, dtype, pairing, kind, bad);
  free(x), free(in32), free(out32), free(in64), free(out64), free(in16);
  free(out16), free(omega);
}

static void test_rope_rows(void) {
  for (int dtype = 0; dtype < PE_CACHE_DTYPE_COUNT; dtype++)
    for (int pairing = 0; pairing < 2; pairing++)
      for (int kind = 0; kind < 3; kind++)
        for (uint32_t rotary = 2; rotary <= 24; rotary += 2) {
          check_rope_rows(24, rotary, 1, 1, dtype, pairing, kind);
          for (uint32_t span = 1; span <= 6; span += span == 3 ? 3 : 1)
            check_rope_rows(rotary + 3, rotary, 4, span, dtype, pairing, kind);
        }
}

static void test_every_tail(void) {
  for (uint32_t dim = 2; dim <= 40; dim++)
    for (int layout = 0; layout < 4; layout++)
      for (int kind = 0; kind < 3; kind++) {
        check_rotate(dim, layout, kind == OFFSETS_RANDOM ? 20 : 300, kind, 1);
        if (dim % 2 == 0 && layout < 2)
          check_rope(dim, layout, kind == OFFSETS_RANDOM ? 20 : 300, kind,
                     dim % 4 == 0 ? 1 : 1.2079441541679836);
      }
  check_rotate(40, PE_LAYOUT_HALVES, 50, OFFSETS_RANDOM, 1e-3);
  check_rotate(33, PE_LAYOUT_INTERLEAVED, 50, OFFSETS_EVEN, 7);
}

/* PE(p + k) against R(k) PE(p), both from the library, at large p and k. */
static double relation_error(uint32_t dim, int layout, int odd_dim,
                             const double *p, uint32_t count, double k,
                             int f64) {
  uint32_t n;
  double *omega = omega_for(dim, odd_dim, &n);
  size_t size = (size_t)count * dim;
  double *shifted = malloc(sizeof(double) * count);
  for (uint32_t j = 0; j < count; j++)
    shifted[j] = p[j] + k;
  double worst = 0;
  if (f64) {
    double *a = malloc(sizeof(double) * size),
           *b = malloc(sizeof(double) * size);
    pe_table_f64(a, p, count, 0, dim, layout, odd_dim, omega, n, 1, 1);
    pe_rotate_f64(a, a, count, dim, NULL, k, layout, odd_dim, omega, n, 1);
    pe_table_f64(b, shifted, count, 0, dim, layout, odd_dim, omega, n, 1, 1);
    for (size_t e = 0; e < size; e++)
      worst = fmax(worst, fabs(a[e] - b[e]));
    free(a), free(b);
  } else {
    float *a = malloc(sizeof(float) * size), *b = malloc(sizeof(float) * size);
    pe_table_f32(a, p, count, 0, dim, layout, odd_dim, omega, n, 1, 1);
    pe_rotate_f32(a, a, count, dim, NULL, k, layout, odd_dim, omega, n, 1);
    pe_table_f32(b, shifted, count, 0, dim, layout, odd_dim, omega, n, 1, 1);
    for (size_t e = 0; e < size; e++)
      worst = fmax(worst, fabs((double)a[e] - b[e]));
    free(a), free(b);
  }
  free(shifted), free(omega);
  return worst;
}

/* M-RoPE rows: pair i of group g turned by its own stream's position
   p[3 g + stream(i)], the streams from pe_mrope_streams; checked per pair
   against the reference (one rounding), and rows whose three positions
   agree against pe_rope on the same rows, bit for bit. */
static void check_rope_streams(int dtype, int pairing, int interleaved,
                               uint32_t repeat) {
  enum { DIM = 44, ROTARY = 40, GROUPS = 9 };
  uint32_t n, count = GROUPS * repeat, size = count * DIM;
  double *omega = omega_for(ROTARY, PE_ODD_ZERO_PAD, &n);
  uint8_t streams[ROTARY / 2];
  CHECK(pe_mrope_streams(6, 7, 7, interleaved, streams, n) == PE_OK, "streams");
  double p[3 * GROUPS], text[GROUPS];
  for (uint32_t g = 0; g < GROUPS; g++) {
    /* Image tokens (t, h, w apart), then text tokens (all equal); the t
       stream is not evenly spaced, so pe_rope seeds every row too. */
    int image = g < 5;
    p[3 * g] = image ? 3 + 0.25 * g * g : 4 + g;
    p[3 * g + 1] = image ? 3 + g % 2 + 0.5 * g : p[3 * g];
    p[3 * g + 2] = image ? 40 - 3.25 * g : p[3 * g];
    text[g] = p[3 * g];
  }
  size_t elem = dtype == PE_CACHE_FLOAT64   ? 8
                : dtype == PE_CACHE_FLOAT16 ? 2
                                            : 4;
  char *in = malloc(elem * size), *out = malloc(elem * size),
       *plain = malloc(elem * size);
  double *x = malloc(sizeof(double) * size);
  for (uint32_t e = 0; e < size; e++) {
    float v = (float)(uniform() * 4);
    if (dtype == PE_CACHE_FLOAT16) {
      ((uint16_t *)in)[e] = pe_half_from_double(v);
      x[e] = pe_half_to_double(((uint16_t *)in)[e]);
    } else if (dtype == PE_CACHE_FLOAT64)
      ((double *)in)[e] = x[e] = v;
    else
      ((float *)in)[e] = v, x[e] = v;
  }
  memset(out, 0xff, elem * size);
  CHECK(pe_rope_streams(out, in, dtype, count, DIM, ROTARY, repeat, 1, p,
                        streams, pairing, omega, n, 1, 1) == PE_OK,
        "rope streams");
  CHECK(pe_rope(plain, in, dtype, count, DIM, ROTARY, repeat, 1, text, 0,
                pairing, omega, n, 1, 1) == PE_OK,
        "rope text");
  int bad = 0, differ = 0;
  for (uint32_t j = 0; j < count; j++) {
    const double *row = x + (size_t)j * DIM;
    double want[DIM];
    for (uint32_t c = 0; c < DIM; c++)
      want[c] = row[c];
    for (uint32_t i = 0; i < n; i++) {
      double pos = p[3 * (j / repeat) + streams[i]];
      double w[1] = {omega[i]}, pair_in[2], pair_out[2];
      uint32_t xi = pairing == PE_PAIRING_HALVES ? i : 2 * i;
      uint32_t yi = pairing == PE_PAIRING_HALVES ? i + n : 2 * i + 1;
      pair_in[0] = row[xi], pair_in[1] = row[yi];
      reference_rope(pair_out, pair_in, 2, PE_PAIRING_HALVES, w, pos);
      want[xi] = pair_out[0], want[yi] = pair_out[1];
    }
    for (uint32_t c = 0; c < DIM; c++) {
      size_t e = (size_t)j * DIM + c;
      double got = dtype == PE_CACHE_FLOAT64 ? ((double *)out)[e]
                   : dtype == PE_CACHE_FLOAT16
                       ? pe_half_to_double(((uint16_t *)out)[e])
                       : ((float *)out)[e];
      double bound = c >= ROTARY                 ? 0
                     : dtype == PE_CACHE_FLOAT64 ? 1e-15 * (1 + fabs(want[c]))
                     : dtype == PE_CACHE_FLOAT16 ? half_ulp_f16(want[c]) + 1e-12
                                                 : half_ulp(want[c]) + 1e-11;
      bad += !(fabs(got - want[c]) <= bound);
    }
    if (j / repeat >= 5)
      differ +=
          memcmp(out + j * DIM * elem, plain + j * DIM * elem, DIM * elem) != 0;
  }
  CHECK(bad == 0 && differ == 0,
        "rope streams dtype %d pairing %d interleaved %d repeat %u: %d off, "
        "%d text rows differ from plain rope",
        dtype, pairing, interleaved, repeat, bad, differ);
  /* Bad streams and positions are refused, and nothing is written. */
  uint8_t wrong[ROTARY / 2];
  memcpy(wrong, streams, sizeof wrong);
  wrong[3] = 3;
  CHECK(pe_rope_streams(out, in, dtype, count, DIM, ROTARY, repeat, 1, p, wrong,
                        pairing, omega, n, 1, 1) == PE_ERR_MROPE_STREAM,
        "stream 3");
  double saved = p[3 * 4 + 2];
  p[3 * 4 + 2] = NAN;
  CHECK(pe_rope_streams(out, in, dtype, count, DIM, ROTARY, repeat, 1, p,
                        streams, pairing, omega, n, 1, 1) == PE_ERR_POSITIONS,
        "NaN w position");
  p[3 * 4 + 2] = saved;
  CHECK(pe_rope_streams(out, in, dtype, count, DIM, ROTARY, repeat, 1, NULL,
                        streams, pairing, omega, n, 1, 1) == PE_ERR_NULL,
        "null positions");
  CHECK(pe_rope_streams(out, in, dtype, count, DIM, ROTARY, repeat, 1, p, NULL,
                        pairing, omega, n, 1, 1) == PE_ERR_NULL,
        "null streams");
  free(in), free(out), free(plain), free(x), free(omega);
}

static void test_rope_streams(void) {
  for (int dtype = 0; dtype < PE_CACHE_DTYPE_COUNT; dtype++)
    for (int pairing = 0; pairing < 2; pairing++)
      for (int interleaved = 0; interleaved < 2; interleaved++) {
        check_rope_streams(dtype, pairing, interleaved, 1);
        check_rope_streams(dtype, pairing, interleaved, 3);
      }
}

static void test_linear_relation(void) {
  double p[64];
  for (int j = 0; j < 64; j++)
    p[j] = j < 32 ? j : floor(uniform() * 1048575) + (j % 4) * 0.25;
  double offsets[] = {0, 1, -1, 0.5, -1000.25, 65536, -1048575, 1048575};
  for (unsigned o = 0; o < sizeof offsets / sizeof *offsets; o++)
    for (int layout = 0; layout < 4; layout++) {
      double k = offsets[o];
      double e32 = relation_error(64, layout, PE_ODD_ZERO_PAD, p, 64, k, 0);
      double e64 = relation_error(65, layout, PE_ODD_ZERO_PAD, p, 64, k, 1);
      /* float64: the angles are exact products and p + k is a double, so
         the relation holds to rounding. */
      CHECK(e32 <= 2.4e-7 && e64 <= 1e-12,
            "linear relation layout %d k %g: f32 %g f64 %g", layout, k, e32,
            e64);
    }
  /* Small positions: the float64 relation holds to 1e-12. */
  double small[] = {0, 1, 2, 3, 100.5, -200, 1000};
  for (int layout = 0; layout < 4; layout++)
    CHECK(relation_error(512, layout, PE_ODD_ZERO_PAD, small, 7, 10.25, 1) <=
              1e-12,
          "f64 small layout %d", layout);
}

static void test_matrix(void) {
  uint32_t dims[] = {1, 2, 5, 8, 33};
  for (unsigned d = 0; d < 5; d++)
    for (int layout = 0; layout < 4; layout++) {
      uint32_t dim = dims[d], n;
      double *omega = omega_for(dim, PE_ODD_ZERO_PAD, &n);
      double *r = malloc(sizeof(double) * dim * dim);
      for (uint32_t e = 0; e < dim * dim; e++)
        r[e] = NAN;
      CHECK(pe_rotation_matrix_f64(r, -12.5, dim, layout, PE_ODD_ZERO_PAD,
                                   omega, n, 2) == PE_OK,
            "matrix");
      double x[64], want[64], worst = 0;
      for (uint32_t c = 0; c < dim; c++)
        x[c] = uniform();
      if (dim % 2 == 1)
        x[dim - 1] = 0.5;
      reference_rotate(want, x, dim, layout, omega, 2, -12.5);
      for (uint32_t row = 0; row < dim; row++) {
        double y = 0;
        for (uint32_t c = 0; c < dim; c++)
          y += r[row * dim + c] * x[c];
        worst = fmax(worst, fabs(y - want[row]));
      }
      CHECK(worst <= 1e-15, "matrix dim %u layout %d: %g", dim, layout, worst);
      free(r), free(omega);
    }
  double w[1] = {1}, out[4];
  CHECK(pe_rotation_matrix_f64(out, 1, PE_MAX_MATRIX_DIM + 2, 0,
                               PE_ODD_ZERO_PAD, w, 1, 1) == PE_ERR_DIM,
        "matrix dim limit");
  CHECK(pe_rotation_matrix_f64(NULL, 1, 2, 0, PE_ODD_ZERO_PAD, w, 1, 1) ==
            PE_ERR_NULL,
        "matrix null");
  CHECK(pe_rotation_matrix_f64(out, NAN, 2, 0, PE_ODD_ZERO_PAD, w, 1, 1) ==
            PE_ERR_OFFSETS,
        "matrix nan");
}

static void test_bad_input(void) {
  double w[4] = {1, 0.1, 0.01, 0.001}, k[3] = {1, NAN, 2};
  float a[24] = {0}, b[24] = {0};
  double w3[3] = {1, 0.1, 0.01};
  /* Layout, odd dims, frequencies. */
  CHECK(pe_rotate_f32(b, a, 3, 8, NULL, 1, 4, 0, w, 4, 1) == PE_ERR_LAYOUT,
        "layout");
  CHECK(pe_rotate_f32(b, a, 3, 8, NULL, 1, 0, 9, w, 4, 1) == PE_ERR_ODD_DIM,
        "odd rule");
  CHECK(pe_rotate_f32(b, a, 3, 5, NULL, 1, 0, PE_ODD_EXTRA_SIN, w3, 3, 1) ==
            PE_ERR_NO_PARTNER,
        "extra sin has no partner");
  CHECK(pe_rotate_f32(b, a, 3, 5, NULL, 1, 0, PE_ODD_ERROR, w, 2, 1) ==
            PE_ERR_ODD_DIM,
        "odd under error");
  CHECK(pe_rotate_f32(b, a, 3, 8, NULL, 1, 0, 0, w, 3, 1) == PE_ERR_FREQUENCIES,
        "frequency count");
  CHECK(pe_rotate_f32(b, a, 3, 0, NULL, 1, 0, 0, w, 0, 1) == PE_ERR_DIM,
        "dim 0");
  /* Pointers and sizes. */
  CHECK(pe_rotate_f32(NULL, a, 3, 8, NULL, 1, 0, 0, w, 4, 1) == PE_ERR_NULL,
        "null out");
  CHECK(pe_rotate_f32(b, NULL, 3, 8, NULL, 1, 0, 0, w, 4, 1) == PE_ERR_NULL,
        "null in");
  CHECK(pe_rotate_f32((float *)((char *)b + 2), a, 2, 8, NULL, 1, 0, 0, w, 4,
                      1) == PE_ERR_NULL,
        "misaligned");
  CHECK(pe_rotate_f32(a + 1, a, 2, 8, NULL, 1, 0, 0, w, 4, 1) ==
            PE_ERR_ARGUMENT,
        "overlap");
  CHECK(pe_rotate_f32(b, a, UINT32_MAX, 8, NULL, 1, 0, 0, w, 4, 1) ==
            PE_ERR_SIZE,
        "size");
  CHECK(pe_rotate_f32(b, a, 0, 8, NULL, 1, 0, 0, w, 4, 1) == PE_OK, "empty");
  /* Non-finite numbers. */
  CHECK(pe_rotate_f32(b, a, 3, 8, k, 0, 0, 0, w, 4, 1) == PE_ERR_OFFSETS,
        "nan offset");
  CHECK(pe_rotate_f32(b, a, 3, 8, NULL, INFINITY, 0, 0, w, 4, 1) ==
            PE_ERR_OFFSETS,
        "inf offset");
  CHECK(pe_rotate_f32(b, a, 3, 8, NULL, 1e308, 0, 0, w, 4, 1e10) ==
            PE_ERR_OFFSETS,
        "angle overflow");
  CHECK(pe_rotate_f32(b, a, 3, 8, NULL, 1, 0, 0, w, 4, NAN) == PE_ERR_SCALE,
        "scale");
  CHECK(pe_rotate_f64(NULL, NULL, 3, 8, NULL, 1, 0, 0, w, 4, 1) == PE_ERR_NULL,
        "f64 null");
  /* rope: pairing and odd dims. */
  CHECK(pe_rope(b, a, PE_CACHE_FLOAT32, 3, 8, 8, 1, 1, NULL, 1, 2, w, 4, 1,
                1) == PE_ERR_PAIRING,
        "pairing");
  CHECK(pe_rope(b, a, PE_CACHE_FLOAT32, 3, 7, 7, 1, 1, NULL, 1, 0, w3, 3, 1,
                1) == PE_ERR_ROTARY_DIM,
        "rope odd rotary");
  CHECK(pe_rope(b, a, PE_CACHE_FLOAT32, 3, 8, 10, 1, 1, NULL, 1, 0, w, 5, 1,
                1) == PE_ERR_ROTARY_DIM,
        "rotary above dim");
  CHECK(pe_rope(b, a, PE_CACHE_FLOAT32, 3, 8, 0, 1, 1, NULL, 1, 0, w, 0, 1,
                1) == PE_ERR_ROTARY_DIM,
        "rotary 0");
  CHECK(pe_rope(b, a, PE_CACHE_FLOAT32, 3, 8, 8, 2, 1, NULL, 1, 0, w, 4, 1,
                1) == PE_ERR_HEADS,
        "rows not a multiple of the heads");
  CHECK(pe_rope(b, a, PE_CACHE_FLOAT32, 3, 8, 8, 0, 1, NULL, 1, 0, w, 4, 1,
                1) == PE_ERR_HEADS,
        "no heads");
  CHECK(pe_rope(b, a, PE_CACHE_FLOAT32, 3, 8, 8, 1, 2, NULL, 1, 0, w, 4, 1,
                1) == PE_ERR_COUNT,
        "groups not a multiple of the span");
  CHECK(pe_rope(b, a, PE_CACHE_FLOAT32, 3, 8, 8, 1, 0, NULL, 1, 0, w, 4, 1,
                1) == PE_ERR_COUNT,
        "span 0");
  CHECK(pe_rope(b, a, 3, 3, 8, 8, 1, 1, NULL, 1, 0, w, 4, 1, 1) == PE_ERR_DTYPE,
        "rope dtype");
  CHECK(pe_rope(b, a, PE_CACHE_FLOAT32, 3, 8, 8, 1, 1, k, 1, 0, w, 4, 1, 1) ==
            PE_ERR_POSITIONS,
        "rope nan");
  CHECK(pe_rope(b, a, PE_CACHE_FLOAT32, 3, 8, 8, 1, 1, NULL, 1, 0, w, 3, 1,
                1) == PE_ERR_FREQUENCIES,
        "rope count");
  CHECK(pe_rope(b, a, PE_CACHE_FLOAT32, 3, 8, 8, 1, 1, NULL, 1, 0, w, 4, 1,
                INFINITY) == PE_ERR_OUTPUT_SCALE,
        "rope amplitude");
  CHECK(pe_rope(b, a, PE_CACHE_FLOAT32, 3, 8, 8, 1, 1, NULL, 1, 0, w, 4, 1,
                NAN) == PE_ERR_OUTPUT_SCALE,
        "rope amplitude nan");
  /* Still working afterwards. */
  a[0] = 1;
  CHECK(pe_rope(b, a, PE_CACHE_FLOAT32, 1, 2, 2, 1, 1, NULL, 0.5, 0, w, 1, 1,
                1) == PE_OK &&
            fabs(b[0] - cos(0.5)) < 1e-7 && fabs(b[1] - sin(0.5)) < 1e-7,
        "rope after errors");
}

/* The angle check of calls written in blocks: the first bad x by index, the
   largest frequency, the option's status, and the refusals of bad
   arguments. */
static void test_check_angles(void) {
  const double omega[3] = {1, -4, 0.5};
  double report[2] = {-1, -1};
  double xs[6] = {0, 1, -2, 1e300, 5, INFINITY};
  CHECK(pe_check_angles(xs, 3, 0, omega, 3, 2, PE_ERR_POSITIONS, report) ==
            PE_OK,
        "finite angles pass");
  CHECK(report[1] == 8, "largest |scale w| = 8, got %g", report[1]);
  CHECK(pe_check_angles(xs, 6, 0, omega, 3, 1, PE_ERR_POSITIONS, report) ==
            PE_ERR_POSITIONS,
        "1e300 * 4 is finite, infinity is not");
  CHECK(report[0] == 5, "first bad x is 5, got %g", report[0]);
  CHECK(pe_check_angles(xs, 6, 0, omega, 3, 1e10, PE_ERR_OFFSETS, report) ==
            PE_ERR_OFFSETS,
        "1e300 * 4e10 overflows");
  CHECK(report[0] == 3, "first bad x is 3, got %g", report[0]);
  /* Evenly spaced x from `first`: the last one overflows. */
  CHECK(pe_check_angles(NULL, 4, 1e308, omega, 3, 0.25, PE_ERR_POSITIONS,
                        report) == PE_OK,
        "1e308 + 3 times 1 is finite");
  CHECK(pe_check_angles(NULL, 4, -1e308, omega, 3, 1, PE_ERR_POSITIONS,
                        report) == PE_ERR_POSITIONS,
        "-1e308 * 4 overflows");
  CHECK(report[0] == 0, "first bad x is 0, got %g", report[0]);
  CHECK(pe_check_angles(NULL, 0, INFINITY, omega, 3, 1, PE_ERR_POSITIONS,
                        report) == PE_OK,
        "no x, nothing to refuse");
  /* A scale whose products overflow is left to the kernel, which names it. */
  CHECK(pe_check_angles(xs, 3, 0, omega, 3, 1e308, PE_ERR_POSITIONS, report) ==
            PE_OK,
        "scale overflow is the kernel's to name");
  CHECK(pe_check_angles(xs, 3, 0, omega, 3, 1, PE_ERR_SCALE, report) ==
            PE_ERR_ARGUMENT,
        "a bad x's status is positions or offsets");
  CHECK(pe_check_angles(xs, 3, 0, omega, 3, 1, PE_ERR_POSITIONS, NULL) ==
            PE_ERR_NULL,
        "no report");
  CHECK(pe_check_angles(xs, 3, 0, NULL, 3, 1, PE_ERR_POSITIONS, report) ==
            PE_ERR_NULL,
        "no frequencies");
  CHECK(pe_check_angles((const double *)((const char *)xs + 1), 2, 0, omega, 3,
                        1, PE_ERR_POSITIONS, report) == PE_ERR_NULL,
        "misaligned x");
}

int main(void) {
  srand(7);
  test_every_tail();
  test_rope_rows();
  test_rope_streams();
  test_linear_relation();
  test_matrix();
  test_bad_input();
  test_check_angles();
  return check_report("rotation");
}
