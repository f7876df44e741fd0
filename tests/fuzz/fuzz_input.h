/* What every fuzz target shares: decoding arguments from the fuzz input, the
   frequencies of a table shape, and the contract checks that abort (so
   libFuzzer keeps the input) when a call breaks one. */
#ifndef PE_FUZZ_INPUT_H
#define PE_FUZZ_INPUT_H

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frequencies.h"
#include "status.h"

typedef struct {
  const uint8_t *data;
  size_t size;
} input;

/* Little-endian, zero once the input is spent. */
static uint64_t take(input *in, size_t bytes) {
  uint64_t v = 0;
  for (size_t k = 0; k < bytes && in->size > 0; k++, in->data++, in->size--)
    v |= (uint64_t)in->data[0] << (8 * k);
  return v;
}

/* Values where the code changes paths or the arithmetic changes regime. */
static const double fuzz_specials[] = {0.0,      -0.0,
                                       1.0,      -1.0,
                                       0.5,      2.0,
                                       1e8,      -1e8,
                                       1e8 + 1,  1.0 / 1024.0,
                                       1e-300,   DBL_MIN,
                                       5e-324,   DBL_MAX,
                                       -DBL_MAX, INFINITY,
                                       NAN,      0x1p+960,
                                       0x1p+26,  0x1p+52,
                                       0x1p+60,  1.5707963267948966,
                                       7.0,      10000.0,
                                       1e6,      FLT_MAX,
                                       1e-8,     3.4028235677973366e38};

#define FUZZ_SPECIALS (sizeof fuzz_specials / sizeof fuzz_specials[0])

/* Mostly ordinary values, sometimes special ones (nudged by a few ulps),
   any magnitude, or any bit pattern. */
static double number(input *in) {
  uint64_t bits = take(in, 8);
  double v;
  switch (bits & 7) {
  case 0:
    memcpy(&v, &bits, sizeof v);
    return v;
  case 1: {
    v = fuzz_specials[(bits >> 3) % FUZZ_SPECIALS];
    int ulps = (int)((bits >> 8) & 7) - 3;
    for (; ulps > 0; ulps--)
      v = nextafter(v, INFINITY);
    for (; ulps < 0; ulps++)
      v = nextafter(v, -INFINITY);
    return v;
  }
  case 2: /* 2^e (1 + m), e across the whole double range */
    v = ldexp(1.0 + (double)(bits >> 32) * 0x1p-32,
              (int)((bits >> 3) % 2100) - 1075);
    return (bits >> 14) & 1 ? -v : v;
  default:
    return (double)(int32_t)(bits >> 8) / (double)(1 + ((bits >> 3) & 31));
  }
}

/* A valid pointer, or sometimes null or misaligned by one byte: the core
   must refuse those with PE_ERR_NULL before it touches memory. */
static void *spoil_pointer(void *p, uint8_t how) {
  switch (how & 15) {
  case 0:
    return NULL;
  case 1:
    return (char *)p + 1;
  default:
    return p;
  }
}

static void fail(const char *what, size_t index, double value) {
  fprintf(stderr, "contract broken: %s at %zu (value %.17g)\n", what, index,
          value);
  abort();
}

static void require_status(int32_t status) {
  if (status < 0 || status >= PE_STATUS_COUNT)
    fail("unknown status", 0, status);
}

/* A refused call wrote nothing: compare with a copy taken before it. */
static void require_untouched(const void *after, const void *before,
                              size_t bytes) {
  if (bytes > 0 && memcmp(after, before, bytes) != 0)
    fail("output written by a refused call", 0, 0);
}

static void *copy_of(const void *p, size_t bytes) {
  void *c = malloc(bytes + 1);
  if (bytes > 0)
    memcpy(c, p, bytes);
  return c;
}

/* Every value finite and |value| <= bound. */
static void require_bounded(const double *x, size_t n, double bound,
                            const char *what) {
  for (size_t k = 0; k < n; k++)
    if (!isfinite(x[k]) || !(fabs(x[k]) <= bound))
      fail(what, k, x[k]);
}

static void require_bounded_f32(const float *x, size_t n, double bound,
                                const char *what) {
  for (size_t k = 0; k < n; k++)
    if (!isfinite(x[k]) || !(fabs((double)x[k]) <= bound))
      fail(what, k, x[k]);
}

/* A table shape and its frequencies: from a schedule (any arguments, so
   pe_frequencies is fuzzed too), or explicit values from the input. */
typedef struct {
  uint32_t dim, n_omega;
  int32_t odd_dim;
  double *omega;
} shape;

/* dim mostly small, sometimes past one block of PE_BLOCK pairs. */
static shape shape_of(input *in) {
  shape s;
  uint32_t d = (uint32_t)take(in, 2);
  s.dim = d & 0x8000 ? d % 1100 : d % 40;
  s.odd_dim = (int32_t)(take(in, 1) % 5) - 1;
  s.n_omega = 0;
  if (pe_frequency_count(s.dim, s.odd_dim, &s.n_omega) != PE_OK)
    s.n_omega = (uint32_t)take(in, 1) % 4; /* some length, refused */
  s.omega = malloc(sizeof(double) * (s.n_omega + 1));
  int32_t schedule = (int32_t)(take(in, 1) % 5) - 1;
  double base = number(in), lo = number(in), hi = number(in);
  double shift = number(in);
  int32_t status = pe_frequencies(schedule, s.dim, s.odd_dim, base, lo, hi,
                                  shift, s.omega, s.n_omega);
  require_status(status);
  if (status == PE_OK) {
    /* The paper and shifted schedules decrease from w_0 = 1, except a
       shift above dim / 2 (the frequencies then grow, as diffusers
       computes them); the timescale one only promises finite values. */
    int growing =
        schedule == PE_SCHEDULE_TIMESCALE ||
        (schedule == PE_SCHEDULE_SHIFTED && !((double)(s.dim / 2) - shift > 0));
    double bound = growing ? DBL_MAX : 1.0;
    for (uint32_t i = 0; i < s.n_omega; i++)
      if (!isfinite(s.omega[i]) || !(s.omega[i] >= 0) ||
          !(s.omega[i] <= bound * (1 + 1e-15)))
        fail("frequency out of bounds", i, s.omega[i]);
  } else {
    for (uint32_t i = 0; i < s.n_omega; i++)
      s.omega[i] = number(in);
  }
  return s;
}

/* Positions or offsets for count rows: null (start + j), values from the
   input (repeated once it runs out), or evenly spaced (the recurrence
   paths), with one entry nudged in some of them. */
static double *points_of(input *in, uint32_t count, double *start) {
  uint8_t mode = (uint8_t)take(in, 1);
  *start = number(in);
  if (count == 0 || (mode & 3) == 0)
    return NULL;
  double *p = malloc(sizeof(double) * count);
  if ((mode & 3) == 1) {
    uint32_t given = 1 + (uint32_t)take(in, 1) % 16;
    for (uint32_t j = 0; j < count; j++)
      p[j] = j < given ? number(in) : p[j % given];
  } else {
    double step = number(in);
    for (uint32_t j = 0; j < count; j++)
      p[j] = *start + (double)j * step;
    if ((mode & 3) == 3)
      p[take(in, 2) % count] = number(in);
  }
  return p;
}

#endif
