/* Every kernel writes exactly its output: each buffer is framed by guard
   elements and filled with a NaN sentinel first; afterwards the guards must
   hold the sentinel bit for bit and every element in between must have been
   written. Pair counts cover every remainder 0 ... 3 of the 4-pair vector
   loops, within one block of pairs and past one (PE_BLOCK), and row counts
   the two-row loop, its single last row and a re-seed (PE_RESEED). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "angles.h"
#include "check.h"
#include "dot_products.h"
#include "frequencies.h"
#include "rope_cache.h"
#include "rotation.h"
#include "status.h"
#include "table.h"

#define GUARD 8 /* elements on each side */

/* A NaN of each element size that no kernel computes. */
static const uint16_t sentinel16 = 0x7e5a;
static const uint32_t sentinel32 = 0x7fc0dead;
static const uint64_t sentinel64 = 0x7ff8deadbeef0000ull;

typedef struct {
  unsigned char *frame;
  size_t elem, n;
} guarded;

static int is_sentinel(const unsigned char *p, size_t elem) {
  return elem == 2   ? memcmp(p, &sentinel16, 2) == 0
         : elem == 4 ? memcmp(p, &sentinel32, 4) == 0
                     : memcmp(p, &sentinel64, 8) == 0;
}

/* n elements of elem bytes between two guards, all sentinels. */
static void *guarded_new(guarded *g, size_t elem, size_t n) {
  g->elem = elem;
  g->n = n;
  g->frame = malloc((n + 2 * GUARD) * elem);
  for (size_t k = 0; k < n + 2 * GUARD; k++)
    memcpy(g->frame + k * elem,
           elem == 2   ? (const void *)&sentinel16
           : elem == 4 ? (const void *)&sentinel32
                       : (const void *)&sentinel64,
           elem);
  return g->frame + GUARD * elem;
}

/* Checks the guards and that every element was written, then frees. */
static void guarded_done(guarded *g, const char *what, uint32_t a, uint32_t b,
                         uint32_t c) {
  size_t untouched_guards = 0, unwritten = 0, first_unwritten = 0;
  for (size_t k = 0; k < GUARD; k++) {
    untouched_guards += is_sentinel(g->frame + k * g->elem, g->elem);
    untouched_guards +=
        is_sentinel(g->frame + (GUARD + g->n + k) * g->elem, g->elem);
  }
  for (size_t k = 0; k < g->n; k++)
    if (is_sentinel(g->frame + (GUARD + k) * g->elem, g->elem) &&
        unwritten++ == 0)
      first_unwritten = k;
  CHECK(untouched_guards == 2 * GUARD, "%s (%u, %u, %u): a guard was written",
        what, a, b, c);
  CHECK(unwritten == 0,
        "%s (%u, %u, %u): %zu of %zu elements unwritten, first %zu", what, a, b,
        c, unwritten, g->n, first_unwritten);
  free(g->frame);
}

/* Pair counts with every remainder mod 4, inside and past one block. */
static const uint32_t pair_counts[] = {1, 2,  3,  4,   5,   6,   7,  8,
                                       9, 10, 11, 256, 257, 258, 259};
#define PAIR_COUNTS (sizeof(pair_counts) / sizeof(pair_counts[0]))

/* Row counts: one row, the two-row loop with and without a single last row,
   and rows past a re-seed. */
static const uint32_t row_counts[] = {1, 2, 3, 4, 5, PE_RESEED + 2};
#define ROW_COUNTS (sizeof(row_counts) / sizeof(row_counts[0]))

static double *paper(uint32_t dim, int32_t odd_dim, uint32_t *n) {
  CHECK(pe_frequency_count(dim, odd_dim, n) == PE_OK, "count %u", dim);
  double *omega = malloc(sizeof(double) * (*n + 1));
  CHECK(pe_frequencies(PE_SCHEDULE_PAPER, dim, odd_dim, 10000, 1, 1, 0, omega,
                       *n) == PE_OK,
        "frequencies %u", dim);
  return omega;
}

/* Positions of each row walk: from an integer start (the recurrence), from a
   fractional start whose rows are not all doubles (row by row), explicit and
   evenly spaced (the recurrence), explicit and scattered (row by row). */
enum { FROM_START, FROM_FRACTION, EVEN, SCATTERED, WALKS };

static const double *walk(int kind, uint32_t count, double *storage,
                          double *start) {
  *start = kind == FROM_FRACTION ? 0.5 + 0x1p-44 : 3;
  for (uint32_t j = 0; j < count; j++)
    storage[j] = kind == EVEN ? 7 + 0.25 * j : 1000.0 / (j + 1) - 3.5 * j;
  return kind == EVEN || kind == SCATTERED ? storage : NULL;
}

static void test_tables(void) {
  double storage[PE_RESEED + 2];
  for (size_t d = 0; d < PAIR_COUNTS; d++)
    for (uint32_t extra = 0; extra < 2; extra++) {
      uint32_t dim = 2 * pair_counts[d] + extra;
      for (int32_t odd = 0; odd < 2; odd++) {
        uint32_t n;
        double *omega = paper(dim, odd, &n);
        for (int32_t layout = 0; layout < PE_LAYOUT_COUNT; layout++)
          for (size_t r = 0; r < ROW_COUNTS; r++)
            for (int kind = 0; kind < WALKS; kind++) {
              uint32_t count = row_counts[r];
              double start;
              const double *positions = walk(kind, count, storage, &start);
              guarded g32, g64;
              float *f32 = guarded_new(&g32, 4, (size_t)count * dim);
              double *f64 = guarded_new(&g64, 8, (size_t)count * dim);
              CHECK(pe_table_f32(f32, positions, count, start, dim, layout, odd,
                                 omega, n, 1, 1) == PE_OK,
                    "table f32");
              CHECK(pe_table_f64(f64, positions, count, start, dim, layout, odd,
                                 omega, n, 1, 1) == PE_OK,
                    "table f64");
              guarded_done(&g32, "pe_table_f32 dim, layout, rows", dim,
                           (uint32_t)layout, count);
              guarded_done(&g64, "pe_table_f64 dim, layout, rows", dim,
                           (uint32_t)layout, count);
            }
        free(omega);
      }
    }
}

static const size_t dtype_size[] = {4, 8, 2};

/* Finite input rows of any dtype: values in [-1, 1) (float16 1.0 ...). */
static void *rows_in(int32_t dtype, size_t n) {
  void *x = malloc(n * dtype_size[dtype] + 16);
  for (size_t k = 0; k < n; k++) {
    double v = (double)((k * 37) % 64) / 32 - 1;
    if (dtype == PE_CACHE_FLOAT32)
      ((float *)x)[k] = (float)v;
    else if (dtype == PE_CACHE_FLOAT64)
      ((double *)x)[k] = v;
    else
      ((uint16_t *)x)[k] = (uint16_t)(0x3800 + (k * 37) % 0x400);
  }
  return x;
}

static void test_rotations(void) {
  double storage[PE_RESEED + 2];
  for (size_t d = 0; d < PAIR_COUNTS; d++)
    for (uint32_t extra = 0; extra < 2; extra++) {
      uint32_t dim = 2 * pair_counts[d] + extra, n;
      double *omega = paper(dim, PE_ODD_ZERO_PAD, &n);
      for (int32_t layout = 0; layout < PE_LAYOUT_COUNT; layout++)
        for (size_t r = 0; r < ROW_COUNTS; r++)
          for (int kind = 0; kind < WALKS; kind++) {
            uint32_t count = row_counts[r];
            double start;
            const double *offsets = walk(kind, count, storage, &start);
            for (int32_t dtype = 0; dtype < PE_CACHE_DTYPE_COUNT; dtype++) {
              size_t size = (size_t)count * dim;
              void *in = rows_in(dtype, size);
              guarded g;
              void *out = guarded_new(&g, dtype_size[dtype], size);
              int32_t status =
                  dtype == PE_CACHE_FLOAT32
                      ? pe_rotate_f32(out, in, count, dim, offsets, start,
                                      layout, PE_ODD_ZERO_PAD, omega, n, 1)
                  : dtype == PE_CACHE_FLOAT64
                      ? pe_rotate_f64(out, in, count, dim, offsets, start,
                                      layout, PE_ODD_ZERO_PAD, omega, n, 1)
                      : pe_rotate_f16(out, in, count, dim, offsets, start,
                                      layout, PE_ODD_ZERO_PAD, omega, n, 1);
              CHECK(status == PE_OK, "rotate dtype %d", dtype);
              /* The zero column of an odd dim is left to the caller. */
              if (dim % 2 == 1)
                for (uint32_t j = 0; j < count; j++)
                  memcpy((char *)out +
                             ((size_t)j * dim + dim - 1) * dtype_size[dtype],
                         (char *)in +
                             ((size_t)j * dim + dim - 1) * dtype_size[dtype],
                         dtype_size[dtype]);
              guarded_done(&g, "pe_rotate dim, dtype, rows", dim,
                           (uint32_t)dtype, count);
              free(in);
            }
          }
      free(omega);
    }
}

static void test_rope(void) {
  double storage[PE_RESEED + 2];
  for (size_t d = 0; d < PAIR_COUNTS; d++) {
    uint32_t h = pair_counts[d], n;
    double *omega = paper(2 * h, PE_ODD_ERROR, &n);
    /* The whole row rotated, or two columns copied after the pairs. */
    for (uint32_t copied = 0; copied <= 2; copied += 2)
      for (int32_t pairing = 0; pairing < PE_PAIRING_COUNT; pairing++)
        for (size_t r = 0; r < ROW_COUNTS; r++)
          for (uint32_t repeat = 1; repeat <= 2; repeat++)
            for (int kind = 0; kind < WALKS; kind++) {
              uint32_t groups = row_counts[r], dim = 2 * h + copied;
              uint32_t count = groups * repeat;
              double start;
              const double *positions = walk(kind, groups, storage, &start);
              for (int32_t dtype = 0; dtype < PE_CACHE_DTYPE_COUNT; dtype++) {
                size_t size = (size_t)count * dim;
                void *in = rows_in(dtype, size);
                guarded g;
                void *out = guarded_new(&g, dtype_size[dtype], size);
                CHECK(pe_rope(out, in, dtype, count, dim, 2 * h, repeat, 1,
                              positions, start, pairing, omega, n, 1,
                              1) == PE_OK,
                      "rope");
                guarded_done(&g, "pe_rope rotary, dtype, rows", 2 * h,
                             (uint32_t)dtype, count);
                free(in);
              }
            }
    free(omega);
  }
}

static void test_rope_caches(void) {
  double storage[3 * (PE_RESEED + 2)];
  for (size_t d = 0; d < PAIR_COUNTS; d++) {
    uint32_t n = pair_counts[d];
    double *inv_freq = malloc(sizeof(double) * n);
    for (uint32_t i = 0; i < n; i++)
      inv_freq[i] = exp(-(2.0 * i / (2 * n)) * log(10000));
    uint8_t *streams = malloc(n);
    CHECK(pe_mrope_streams(n - n / 2, n / 4, n / 2 - n / 4, 0, streams, n) ==
              PE_OK,
          "streams");
    for (int32_t layout = 0; layout < PE_CACHE_LAYOUT_COUNT; layout++)
      for (int32_t dtype = 0; dtype < PE_CACHE_DTYPE_COUNT; dtype++)
        for (size_t r = 0; r < ROW_COUNTS; r++)
          for (int kind = 0; kind <= WALKS; kind++) {
            uint32_t count = row_counts[r];
            size_t width = layout == PE_CACHE_HALF ? n : 2 * (size_t)n;
            double start;
            /* Past the walks: M-RoPE's three streams. */
            const double *positions = walk(kind == WALKS ? SCATTERED : kind,
                                           3 * count, storage, &start);
            guarded gc, gs;
            void *c = guarded_new(&gc, dtype_size[dtype], count * width);
            void *s = guarded_new(&gs, dtype_size[dtype], count * width);
            int32_t status =
                kind == WALKS
                    ? pe_rope_cache_streams(c, s, dtype, layout, positions,
                                            count, streams, inv_freq, n, 1)
                    : pe_rope_cache(c, s, dtype, layout, positions, count,
                                    start, inv_freq, n, 1);
            CHECK(status == PE_OK, "rope cache");
            guarded_done(&gc, "pe_rope_cache cos n, layout, rows", n,
                         (uint32_t)layout, count);
            guarded_done(&gs, "pe_rope_cache sin n, layout, rows", n,
                         (uint32_t)layout, count);
          }
    free(streams);
    free(inv_freq);
  }
}

/* Dot products in chunks of 256 offsets, and the dense matrix. */
static void test_dot_products_and_matrix(void) {
  double offsets[260];
  for (uint32_t j = 0; j < 260; j++)
    offsets[j] = 0.5 * j;
  for (uint32_t dim = 1; dim <= 19; dim++) {
    uint32_t n;
    double *omega = paper(dim, PE_ODD_ZERO_PAD, &n);
    for (uint32_t count = 1; count <= 260; count += count < 8 ? 1 : 63) {
      for (int explicit = 0; explicit < 2; explicit ++) {
        guarded g;
        double *out = guarded_new(&g, 8, count);
        CHECK(pe_dot_products(out, explicit ? offsets : NULL, count, 0, 0.5,
                              dim, PE_ODD_ZERO_PAD, omega, n, 1, 1) == PE_OK,
              "dot products");
        guarded_done(&g, "pe_dot_products dim, count, explicit", dim, count,
                     (uint32_t) explicit);
      }
    }
    for (int32_t layout = 0; layout < PE_LAYOUT_COUNT; layout++) {
      guarded g;
      double *out = guarded_new(&g, 8, (size_t)dim * dim);
      CHECK(pe_rotation_matrix_f64(out, 2.5, dim, layout, PE_ODD_ZERO_PAD,
                                   omega, n, 1) == PE_OK,
            "matrix");
      guarded_done(&g, "pe_rotation_matrix_f64 dim, layout", dim,
                   (uint32_t)layout, 0);
    }
    free(omega);
  }
}

int main(void) {
  test_tables();
  test_rotations();
  test_rope();
  test_rope_caches();
  test_dot_products_and_matrix();
  return check_report("tails");
}
