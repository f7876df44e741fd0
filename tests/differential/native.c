/* The native side of the differential check: reads cases written by
   run.js from a file, calls the exported function each names, and writes
   its status and outputs, so run.js can compare them with the same calls
   on the shipped .wasm.

   A case, little-endian: ten int32 (kind, dim, count, layout, odd_dim,
   variant, n_omega, n_points, n_in, n_out), six doubles (start, scale,
   amplitude, base, alpha, step), then n_omega frequencies, n_points
   positions, offsets or x (none: a null pointer) and n_in input values.
   A result: int32 status, int32 n_out, then n_out doubles (float32 outputs
   widened, exactly; float16 bits as integers).

   ropeFrequencies: variant is the rope type, the points its parameters and
   the input its factor lists; out holds the frequencies, then the attention
   factor. ropeCache: variant is the dtype, layout the cache layout, omega
   the inverse frequencies, amplitude the attention factor; out holds the
   cos cache, then the sin cache. mropeCache: as ropeCache, with the points
   the t, h and w streams (count each) and the input s0, s1, s2 and
   interleaved, from which pe_mrope_streams assigns the pairs. mropeRope:
   float32 rows turned by pe_rope_streams, the points the t, h and w of each
   row, the input the rows, then s0, s1, s2 and interleaved. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "decay_integral.h"
#include "dot_products.h"
#include "frequencies.h"
#include "rope_cache.h"
#include "rope_scaling.h"
#include "rotation.h"
#include "special_functions.h"
#include "table.h"

enum {
  TABLE_F32,
  TABLE_F64,
  ROTATE_F32,
  ROTATE_F64,
  ROPE_F32,
  ROTATION_MATRIX,
  DOT_PRODUCTS,
  DECAY_INTEGRAL,
  CI,
  SI,
  FREQUENCIES,
  ROPE_FREQUENCIES,
  ROPE_CACHE,
  MROPE_CACHE,
  MROPE_ROPE
};

typedef struct {
  int32_t kind, dim, count, layout, odd_dim, variant, n_omega, n_points, n_in,
      n_out;
  double start, scale, amplitude, base, alpha, step;
} header;

static double *read_doubles(FILE *in, int32_t n) {
  double *p = malloc(sizeof(double) * (size_t)n + 8);
  if (n > 0 && fread(p, sizeof(double), (size_t)n, in) != (size_t)n) {
    fprintf(stderr, "native: truncated case file\n");
    exit(2);
  }
  return p;
}

/* Both caches into out (n_out = 2 cells), widened to double. */
static int32_t rope_cache(const header *h, const double *omega,
                          const double *points, const double *in, double *out) {
  size_t cells = (size_t)h->n_out / 2;
  size_t elem = h->variant == PE_CACHE_FLOAT64   ? sizeof(double)
                : h->variant == PE_CACHE_FLOAT32 ? sizeof(float)
                                                 : sizeof(uint16_t);
  char *cos_out = malloc(cells * elem + 8), *sin_out = malloc(cells * elem + 8);
  int32_t status;
  if (h->kind == MROPE_CACHE) {
    uint8_t *streams = malloc((size_t)h->n_omega + 1);
    status = pe_mrope_streams(in[0], in[1], in[2], (int32_t)in[3], streams,
                              (uint32_t)h->n_omega);
    if (status == PE_OK)
      status = pe_rope_cache_streams(cos_out, sin_out, h->variant, h->layout,
                                     points, (uint32_t)h->count, streams, omega,
                                     (uint32_t)h->n_omega, h->amplitude);
    free(streams);
  } else
    status = pe_rope_cache(cos_out, sin_out, h->variant, h->layout, points,
                           (uint32_t)h->count, h->start, omega,
                           (uint32_t)h->n_omega, h->amplitude);
  for (size_t k = 0; k < cells && status == PE_OK; k++)
    for (int sin = 0; sin < 2; sin++) {
      const char *rows = sin ? sin_out : cos_out;
      double *v = out + (sin ? cells : 0) + k;
      if (h->variant == PE_CACHE_FLOAT64)
        *v = ((const double *)rows)[k];
      else if (h->variant == PE_CACHE_FLOAT32)
        *v = ((const float *)rows)[k];
      else
        *v = ((const uint16_t *)rows)[k];
    }
  free(cos_out);
  free(sin_out);
  return status;
}

/* M-RoPE rows: the section is the input's last four values. */
static int32_t mrope_rope(const header *h, const double *omega,
                          const double *points, const double *in,
                          const float *in32, float *out32) {
  const double *s = in + h->n_in - 4;
  uint8_t *streams = malloc((size_t)h->n_omega + 1);
  int32_t status = pe_mrope_streams(s[0], s[1], s[2], (int32_t)s[3], streams,
                                    (uint32_t)h->n_omega);
  if (status == PE_OK)
    status = pe_rope_streams(out32, in32, PE_CACHE_FLOAT32, (uint32_t)h->count,
                             (uint32_t)h->dim, (uint32_t)h->dim, 1, 1, points,
                             streams, h->variant, omega, (uint32_t)h->n_omega,
                             h->scale, h->amplitude);
  free(streams);
  return status;
}

/* The rope parameters a case gives: its slots that are not NaN (run.js
   passes the same bits). */
static uint32_t given_of(const double *points, uint64_t n) {
  uint32_t bits = 0;
  for (uint64_t k = 0; k < n && k < 32; k++)
    if (!isnan(points[k]))
      bits |= 1u << k;
  return bits;
}

static int32_t run(const header *h, const double *omega, const double *points,
                   const double *in, float *in32, float *out32, double *out) {
  uint32_t dim = (uint32_t)h->dim, count = (uint32_t)h->count;
  uint32_t n_omega = (uint32_t)h->n_omega;
  for (int32_t k = 0; k < h->n_in; k++)
    in32[k] = (float)in[k];
  switch (h->kind) {
  case TABLE_F32:
    return pe_table_f32(out32, points, count, h->start, dim, h->layout,
                        h->odd_dim, omega, n_omega, h->scale, h->amplitude);
  case TABLE_F64:
    return pe_table_f64(out, points, count, h->start, dim, h->layout,
                        h->odd_dim, omega, n_omega, h->scale, h->amplitude);
  case ROTATE_F32:
    return pe_rotate_f32(out32, in32, count, dim, points, h->start, h->layout,
                         h->odd_dim, omega, n_omega, h->scale);
  case ROTATE_F64:
    return pe_rotate_f64(out, in, count, dim, points, h->start, h->layout,
                         h->odd_dim, omega, n_omega, h->scale);
  case ROPE_F32:
    return pe_rope(out32, in32, PE_CACHE_FLOAT32, count, dim, dim, 1, 1, points,
                   h->start, h->variant, omega, n_omega, h->scale,
                   h->amplitude);
  case ROTATION_MATRIX:
    return pe_rotation_matrix_f64(out, h->start, dim, h->layout, h->odd_dim,
                                  omega, n_omega, h->scale);
  case DOT_PRODUCTS:
    return pe_dot_products(out, points, count, h->start, h->step, dim,
                           h->odd_dim, omega, n_omega, h->scale, h->amplitude);
  case DECAY_INTEGRAL:
    return pe_decay_integral(h->variant, h->base, h->alpha, points, count, out);
  case CI:
    return pe_ci(points, count, out);
  case SI:
    return pe_si(points, count, out);
  case FREQUENCIES:
    return pe_frequencies(h->variant, dim, h->odd_dim, h->base, h->alpha,
                          h->step, h->scale, out, (uint32_t)h->n_out);
  case ROPE_FREQUENCIES:
    return pe_rope_frequencies(
        h->variant, dim, h->base, points, (uint32_t)h->n_points,
        given_of(points, h->n_points), h->n_in > 0 ? in : NULL,
        (uint32_t)h->n_in, out, dim / 2, out + dim / 2);
  case ROPE_CACHE:
  case MROPE_CACHE:
    return rope_cache(h, omega, points, in, out);
  case MROPE_ROPE:
    return mrope_rope(h, omega, points, in, in32, out32);
  default:
    fprintf(stderr, "native: unknown case kind %d\n", h->kind);
    exit(2);
  }
}

static int is_f32(int32_t kind) {
  return kind == TABLE_F32 || kind == ROTATE_F32 || kind == ROPE_F32 ||
         kind == MROPE_ROPE;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: native CASES RESULTS\n");
    return 2;
  }
  FILE *in = fopen(argv[1], "rb"), *results = fopen(argv[2], "wb");
  if (!in || !results) {
    fprintf(stderr, "native: cannot open %s or %s\n", argv[1], argv[2]);
    return 2;
  }
  header h;
  while (fread(&h, sizeof h, 1, in) == 1) {
    double *omega = read_doubles(in, h.n_omega);
    double *points = read_doubles(in, h.n_points);
    double *values = read_doubles(in, h.n_in);
    float *in32 = malloc(sizeof(float) * (size_t)h.n_in + 4);
    float *out32 = malloc(sizeof(float) * (size_t)h.n_out + 4);
    double *out = malloc(sizeof(double) * (size_t)h.n_out + 8);
    for (int32_t k = 0; k < h.n_out; k++) {
      out32[k] = NAN;
      out[k] = NAN;
    }
    int32_t status = run(&h, omega, h.n_points > 0 ? points : NULL, values,
                         in32, out32, out);
    if (is_f32(h.kind))
      for (int32_t k = 0; k < h.n_out; k++)
        out[k] = out32[k];
    fwrite(&status, sizeof status, 1, results);
    fwrite(&h.n_out, sizeof h.n_out, 1, results);
    fwrite(out, sizeof(double), (size_t)h.n_out, results);
    free(omega);
    free(points);
    free(values);
    free(in32);
    free(out32);
    free(out);
  }
  fclose(in);
  return fclose(results) != 0;
}
