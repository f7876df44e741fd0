/* cos/sin caches against quadruple-precision references for every layout,
   dtype and tail length, rows by count and by explicit (even and uneven)
   positions, outputs NaN-filled first; and the float16 rounding against an
   independent conversion in exact integer arithmetic. */
#include <float.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "half.h"
#include "reference.h"
#include "rope_cache.h"
#include "status.h"

/* ---- float16 reference: exact integer arithmetic --------------------- */

/* Nearest binary16 to a finite or infinite double, ties to even, from the
   double's integer significand m and exponent k (|x| = m 2^k). */
static uint16_t half_reference(double x) {
  uint64_t bits;
  memcpy(&bits, &x, sizeof bits);
  uint16_t sign = (uint16_t)((bits >> 48) & 0x8000);
  uint64_t biased = (bits >> 52) & 0x7ff, fraction = bits & ((1ull << 52) - 1);
  if (biased == 0x7ff)
    return fraction ? (uint16_t)(sign | 0x7e00) : (uint16_t)(sign | 0x7c00);
  if (biased == 0 && fraction == 0)
    return sign;
  uint64_t m = biased ? fraction | (1ull << 52) : fraction;
  int k = biased ? (int)biased - 1075 : -1074;
  /* The binade of x: 2^e <= |x| < 2^(e+1). */
  int e = k;
  for (uint64_t t = m; t > 1; t >>= 1)
    e++;
  /* Half spacing in the binade (subnormals share 2^-24). */
  int quantum = (e < -14 ? -14 : e) - 10;
  uint64_t q;
  int shift = quantum - k;
  if (shift <= 0) {
    q = shift < -20 ? UINT64_MAX : m << -shift; /* huge x: overflow below */
  } else if (shift > 60) {
    q = 0; /* below a quarter of 2^-24: rounds to zero */
  } else {
    q = m >> shift;
    uint64_t rest = m & ((1ull << shift) - 1), half = 1ull << (shift - 1);
    if (rest > half || (rest == half && (q & 1)))
      q++;
  }
  if (q >= 4096 && quantum >= 5)
    return sign | 0x7c00;
  /* q counts quanta: subnormal (q <= 1024) or 1024 ... 2048 in binade e. */
  uint32_t value;
  if (e < -14)
    value = (uint32_t)q;
  else
    value = ((uint32_t)(e + 15) << 10) + (uint32_t)q - 1024;
  return value >= 0x7c00 ? (uint16_t)(sign | 0x7c00) : (uint16_t)(sign | value);
}

static double half_value(uint16_t h) {
  double sign = h & 0x8000 ? -1 : 1;
  int exponent = (h >> 10) & 0x1f, significand = h & 0x3ff;
  if (exponent == 31)
    return significand ? NAN : sign * INFINITY;
  if (exponent == 0)
    return sign * ldexp(significand, -24);
  return sign * ldexp(1024 + significand, exponent - 25);
}

static int same_half(uint16_t a, uint16_t b) {
  /* Every NaN is the quiet NaN of the input's sign. */
  return a == b;
}

static int half_mismatches;
static void check_half(double x) {
  uint16_t got = pe_half_from_double(x), want = half_reference(x);
  if (!same_half(got, want) && half_mismatches++ < 10)
    CHECK(0, "half(%a) = %#06x, expected %#06x", x, got, want);
}

static void test_half(void) {
  /* Known answers first, so the reference itself is pinned. */
  struct {
    double x;
    uint16_t h;
  } known[] = {
      {0.0, 0x0000},
      {-0.0, 0x8000},
      {1.0, 0x3c00},
      {-2.0, 0xc000},
      {65504.0, 0x7bff},
      {65519.99, 0x7bff},
      {65520.0, 0x7c00},
      {1e300, 0x7c00},
      {-INFINITY, 0xfc00},
      {NAN, 0x7e00},
      {0x1p-24, 0x0001},
      {0x1p-25, 0x0000},   /* tie to even: 0 */
      {0x1.8p-24, 0x0002}, /* tie to even: 2 */
      {0x1.0000000000001p-25, 0x0001},
      {0x1.ff8p-15, 0x03ff}, /* largest subnormal */
      {0x1.ffcp-15, 0x0400}, /* tie: to even, the smallest normal */
      {1 + 0x1p-11, 0x3c00}, /* tie to even */
      {1 + 0x3p-11, 0x3c02}, /* tie to even, upwards */
      /* Just above a tie: float32 would first round onto the tie and then
         to even (0x3c00); the nearest half is 0x3c01. */
      {1 + 0x1p-11 + 0x1p-40, 0x3c01},
      {0.1, 0x2e66},
  };
  for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
    CHECK(half_reference(known[i].x) == known[i].h,
          "reference half(%a) = %#06x, expected %#06x", known[i].x,
          half_reference(known[i].x), known[i].h);
    CHECK(pe_half_from_double(known[i].x) == known[i].h,
          "half(%a) = %#06x, expected %#06x", known[i].x,
          pe_half_from_double(known[i].x), known[i].h);
  }
  CHECK(pe_half_from_double(-NAN) == 0xfe00, "negative NaN");

  /* Every finite half, the ties between neighbours and the doubles next to
   each tie, for both signs. */
  for (uint32_t h = 0; h < 0x7c00; h++) {
    double v = half_value((uint16_t)h), next = half_value((uint16_t)(h + 1));
    double tie = (v + next) / 2; /* exact: halves have 11 bits */
    double points[] = {v,
                       tie,
                       nextafter(tie, 0),
                       nextafter(tie, INFINITY),
                       nextafter(v, INFINITY),
                       nextafter(v, 0)};
    for (int k = 0; k < 6; k++) {
      check_half(points[k]);
      check_half(-points[k]);
    }
  }
  /* Every float32 input class by a stride through all bit patterns:
     normals, subnormals, zeros, infinities and NaNs of both signs. */
  for (uint64_t bits = 0; bits <= UINT32_MAX; bits += 1021) {
    uint32_t b = (uint32_t)bits;
    float f;
    memcpy(&f, &b, sizeof f);
    check_half((double)f);
  }
  /* And every float32 in the binades where halves live, near 1 and at the
     subnormal edge: every rounding position of the significand. */
  for (uint32_t b = 0x3f800000; b < 0x40000000; b++) {
    float f;
    memcpy(&f, &b, sizeof f);
    check_half((double)f);
  }
  for (uint32_t b = 0x33000000; b < 0x38800000; b += 7) {
    float f;
    memcpy(&f, &b, sizeof f);
    check_half((double)f);
  }
  CHECK(half_mismatches == 0, "%d float16 roundings differ", half_mismatches);
}

/* ---- caches ------------------------------------------------------------ */

static const char *layout_names[] = {"half", "duplicated", "interleaved"};
static const char *dtype_names[] = {"float32", "float64", "float16"};
static const size_t sizes[] = {4, 8, 2};

static double read_value(const void *out, int32_t dtype, size_t index) {
  if (dtype == PE_CACHE_FLOAT32)
    return ((const float *)out)[index];
  if (dtype == PE_CACHE_FLOAT64)
    return ((const double *)out)[index];
  return half_value(((const uint16_t *)out)[index]);
}

/* Whether a cache value is the expected real value rounded once. */
static int acceptable(double got, double want, int32_t dtype,
                      double attention) {
  if (dtype == PE_CACHE_FLOAT64)
    return fabs(got - want) <= 1e-15;
  double ulp = dtype == PE_CACHE_FLOAT32
                   ? ldexp(1, ilogb(fmax(fabs(want), 0x1p-126)) - 23)
                   : ldexp(1, ilogb(fmax(fabs(want), 0x1p-14)) - 10);
  /* Half an ulp, plus the double computation's error: float32 output
     seeds with series truncated at 2e-9 (invisible next to its 3e-8
     rounding), float16 output with full double precision. */
  return fabs(got - want) <=
         ulp / 2 + (dtype == PE_CACHE_FLOAT32 ? 2.5e-9 * attention : 1e-13);
}

static void check_cache(int32_t dtype, int32_t layout, uint32_t n,
                        const double *positions, uint32_t count, double start,
                        double attention) {
  double *w = malloc(sizeof(double) * n);
  for (uint32_t i = 0; i < n; i++)
    w[i] = exp(-(2.0 * i / (2 * n)) * log(10000.0)) * (i % 3 ? 1 : 0.25);
  uint32_t width = layout == PE_CACHE_HALF ? n : 2 * n;
  size_t total = (size_t)count * width;
  /* NaN fill (0x7e00 for float16), one extra row of guard. */
  size_t bytes = (total + width) * sizes[dtype];
  void *cos_out = malloc(bytes), *sin_out = malloc(bytes);
  memset(cos_out, 0xff, bytes);
  memset(sin_out, 0xff, bytes);
  int32_t status = pe_rope_cache(cos_out, sin_out, dtype, layout, positions,
                                 count, start, w, n, attention);
  CHECK(status == PE_OK, "%s %s n %u: status %d", dtype_names[dtype],
        layout_names[layout], n, status);
  int bad = 0;
  for (uint32_t j = 0; j < count && status == PE_OK; j++) {
    double p = positions ? positions[j] : start + j;
    for (uint32_t col = 0; col < width; col++) {
      uint32_t i = layout == PE_CACHE_INTERLEAVED ? col / 2
                   : col < n                      ? col
                                                  : col - n;
      double want_cos = attention * cos_of_product(p, w[i]);
      double want_sin = attention * sin_of_product(p, w[i]);
      size_t at = (size_t)j * width + col;
      double c = read_value(cos_out, dtype, at);
      double s = read_value(sin_out, dtype, at);
      if (!acceptable(c, want_cos, dtype, attention) ||
          !acceptable(s, want_sin, dtype, attention)) {
        if (bad++ < 3)
          CHECK(0,
                "%s %s n %u row %u col %u: cos %.17g (want %.17g) sin "
                "%.17g (want %.17g)",
                dtype_names[dtype], layout_names[layout], n, j, col, c,
                want_cos, s, want_sin);
      }
    }
  }
  CHECK(bad == 0, "%s %s n %u count %u: %d bad values", dtype_names[dtype],
        layout_names[layout], n, count, bad);
  /* The guard row stays untouched. */
  unsigned char *guard = (unsigned char *)cos_out + total * sizes[dtype];
  int touched = 0;
  for (size_t k = 0; k < width * sizes[dtype]; k++)
    touched |= guard[k] != 0xff;
  CHECK(!touched, "%s %s n %u: wrote past the end", dtype_names[dtype],
        layout_names[layout], n);
  free(cos_out);
  free(sin_out);
  free(w);
}

static void test_caches(void) {
  /* Uneven fractional positions, some large. */
  double uneven[37];
  for (int j = 0; j < 37; j++)
    uneven[j] = (j * 7919 % 1000) * 1.37 + (j % 5 == 0 ? 1e6 + 0.5 : 0);
  /* Evenly spaced explicit positions (take the recurrence). */
  double even[300];
  for (int j = 0; j < 300; j++)
    even[j] = 1000.5 + 2.0 * j;
  uint32_t ns[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 64, 257, 300};
  for (int32_t dtype = 0; dtype < 3; dtype++)
    for (int32_t layout = 0; layout < 3; layout++)
      for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
        uint32_t n = ns[k];
        uint32_t count = n > 64 ? 131 : 300; /* crosses the re-seed */
        check_cache(dtype, layout, n, NULL, count, 0, 1);
        check_cache(dtype, layout, n, NULL, 40, 130000, 1.1386294361119891);
        check_cache(dtype, layout, n, uneven, 37, 0, 1.2);
        check_cache(dtype, layout, n, even, n > 64 ? 130 : 300, 0, 0.9);
        /* Rows at 2^53 + 2 + j, not all doubles: a row's position is the
           rounded sum, which the recurrence's exact steps would miss. */
        check_cache(dtype, layout, n, NULL, 40, 0x1p53 + 2, 1);
      }
}

static void test_errors(void) {
  double w[4] = {1, 0.1, 0.01, 0.001}, positions[2] = {1, NAN};
  float cos_out[16], sin_out[16];
  CHECK(pe_rope_cache(cos_out, sin_out, 3, 0, NULL, 2, 0, w, 4, 1) ==
            PE_ERR_DTYPE,
        "dtype");
  CHECK(pe_rope_cache(cos_out, sin_out, 0, 3, NULL, 2, 0, w, 4, 1) ==
            PE_ERR_LAYOUT,
        "layout");
  CHECK(pe_rope_cache(cos_out, sin_out, 0, 0, NULL, 2, 0, w, 0, 1) ==
            PE_ERR_DIM,
        "no frequencies");
  CHECK(pe_rope_cache(cos_out, sin_out, 0, 0, NULL, 2, 0, NULL, 4, 1) ==
            PE_ERR_NULL,
        "null frequencies");
  CHECK(pe_rope_cache(NULL, sin_out, 0, 0, NULL, 2, 0, w, 4, 1) == PE_ERR_NULL,
        "null cos");
  CHECK(pe_rope_cache(cos_out, (char *)sin_out + 1, 0, 0, NULL, 2, 0, w, 4,
                      1) == PE_ERR_NULL,
        "misaligned sin");
  CHECK(pe_rope_cache(cos_out, sin_out, 0, 0, NULL, 2, 0, w, 4, 0) ==
            PE_ERR_ROPE_ATTENTION,
        "attention 0");
  CHECK(pe_rope_cache(cos_out, sin_out, 2, 0, NULL, 2, 0, w, 4, 70000) ==
            PE_ERR_ROPE_ATTENTION,
        "attention beyond float16");
  CHECK(pe_rope_cache(cos_out, sin_out, 0, 0, NULL, 2, 0, w, 4, INFINITY) ==
            PE_ERR_ROPE_ATTENTION,
        "attention inf");
  CHECK(pe_rope_cache(cos_out, sin_out, 0, 0, positions, 2, 0, w, 4, 1) ==
            PE_ERR_POSITIONS,
        "NaN position");
  CHECK(pe_rope_cache(cos_out, sin_out, 0, 0, NULL, 2, 1e308, w, 4, 1) == PE_OK,
        "large finite angles are fine");
  w[0] = 1e300;
  CHECK(pe_rope_cache(cos_out, sin_out, 0, 0, NULL, 2, 1e10, w, 4, 1) ==
            PE_ERR_POSITIONS,
        "angle overflow");
  w[0] = INFINITY;
  CHECK(pe_rope_cache(cos_out, sin_out, 0, 0, NULL, 2, 0, w, 4, 1) ==
            PE_ERR_FREQUENCIES,
        "infinite frequency");
  w[0] = 1;
  CHECK(pe_rope_cache(cos_out, sin_out, 1, 1, NULL, UINT32_MAX, 0, w, 4, 1) ==
            PE_ERR_SIZE,
        "size");
  CHECK(pe_rope_cache(NULL, NULL, 0, 0, NULL, 0, 0, w, 4, 1) == PE_OK,
        "zero rows");
  /* Still works after errors. */
  CHECK(pe_rope_cache(cos_out, sin_out, 0, 0, NULL, 2, 0, w, 4, 1) == PE_OK &&
            cos_out[4] == (float)cos(1.0) && sin_out[0] == 0,
        "works after errors");
}

/* The stream of each pair, written as the source's slicing: chunks of
   mrope_section in turn; or t everywhere, then h on slice(1, 3 s1, 3) and
   w on slice(2, 3 s2, 3). */
static void streams_reference(const uint32_t *s, int interleaved,
                              uint8_t *streams, uint32_t n) {
  if (!interleaved) {
    uint32_t i = 0;
    for (uint8_t k = 0; k < 3; k++)
      for (uint32_t c = 0; c < s[k]; c++)
        streams[i++] = k;
    return;
  }
  memset(streams, 0, n);
  for (uint8_t k = 1; k < 3; k++)
    for (uint32_t i = k; i < 3 * s[k] && i < n; i += 3)
      streams[i] = k;
}

static void test_mrope_streams(void) {
  static const uint32_t sections[][3] = {
      {16, 24, 24}, {24, 20, 20}, {8, 12, 12}, {0, 0, 5}, {5, 0, 0}, {1, 2, 3}};
  uint8_t got[64], want[64];
  for (size_t k = 0; k < sizeof sections / sizeof sections[0]; k++)
    for (int interleaved = 0; interleaved < 2; interleaved++) {
      const uint32_t *s = sections[k];
      uint32_t n = s[0] + s[1] + s[2];
      streams_reference(s, interleaved, want, n);
      CHECK(pe_mrope_streams(s[0], s[1], s[2], interleaved, got, n) == PE_OK &&
                memcmp(got, want, n) == 0,
            "streams of section %zu, interleaved %d", k, interleaved);
    }
  CHECK(pe_mrope_streams(16, 24, 23, 0, got, 64) == PE_ERR_MROPE_SECTION,
        "sections must sum to n");
  CHECK(pe_mrope_streams(16.5, 23.5, 24, 0, got, 64) == PE_ERR_MROPE_SECTION,
        "sections are integers");
  CHECK(pe_mrope_streams(-1, 41, 24, 0, got, 64) == PE_ERR_MROPE_SECTION,
        "sections are >= 0");
  CHECK(pe_mrope_streams(NAN, 40, 24, 0, got, 64) == PE_ERR_MROPE_SECTION,
        "NaN section");
  CHECK(pe_mrope_streams(16, 24, 24, 2, got, 64) == PE_ERR_ARGUMENT,
        "interleaved is 0 or 1");
  CHECK(pe_mrope_streams(16, 24, 24, 0, NULL, 64) == PE_ERR_NULL, "null");
}

/* Each pair of an M-RoPE row equals the plain cache's value at its own
   stream's position, bit for bit (both are one exact seed); text positions
   (t = h = w) are the plain cache. */
static void test_mrope_cache(void) {
  enum { N = 20, COUNT = 9 };
  uint32_t section[3] = {6, 7, 7};
  double w[N], positions[3 * COUNT];
  for (uint32_t i = 0; i < N; i++)
    w[i] = exp(-(2.0 * i / (2 * N)) * log(1e6));
  for (uint32_t j = 0; j < COUNT; j++) {
    positions[j] = j * 3.5 + (j % 2 ? 1000 : 0);
    positions[COUNT + j] = j % 4;
    positions[2 * COUNT + j] = 77.25 - j;
  }
  uint8_t streams[N];
  for (int interleaved = 0; interleaved < 2; interleaved++)
    for (int32_t dtype = 0; dtype < 3; dtype++)
      for (int32_t layout = 0; layout < 3; layout++) {
        pe_mrope_streams(section[0], section[1], section[2], interleaved,
                         streams, N);
        uint32_t width = layout == PE_CACHE_HALF ? N : 2 * N;
        size_t bytes = (size_t)COUNT * width * sizes[dtype];
        char *cos_m = malloc(bytes), *sin_m = malloc(bytes);
        char *cos_p = malloc(bytes), *sin_p = malloc(bytes);
        CHECK(pe_rope_cache_streams(cos_m, sin_m, dtype, layout, positions,
                                    COUNT, streams, w, N, 1.25) == PE_OK,
              "mrope cache");
        int bad = 0;
        for (uint32_t k = 0; k < 3; k++) {
          /* One row at a time: a single row is always seeded. */
          for (uint32_t j = 0; j < COUNT; j++)
            pe_rope_cache(cos_p + j * width * sizes[dtype],
                          sin_p + j * width * sizes[dtype], dtype, layout,
                          &positions[k * COUNT + j], 1, 0, w, N, 1.25);
          for (uint32_t j = 0; j < COUNT; j++)
            for (uint32_t col = 0; col < width; col++) {
              uint32_t i = layout == PE_CACHE_INTERLEAVED ? col / 2
                           : col < N                      ? col
                                                          : col - N;
              if (streams[i] != k)
                continue;
              size_t at = ((size_t)j * width + col) * sizes[dtype];
              bad += memcmp(cos_m + at, cos_p + at, sizes[dtype]) != 0;
              bad += memcmp(sin_m + at, sin_p + at, sizes[dtype]) != 0;
            }
        }
        CHECK(bad == 0, "mrope %s %s interleaved %d: %d differ",
              dtype_names[dtype], layout_names[layout], interleaved, bad);
        /* Text: t = h = w is the plain cache of the same positions. */
        double text[3 * COUNT];
        for (uint32_t k = 0; k < 3; k++)
          memcpy(text + k * COUNT, positions, sizeof(double) * COUNT);
        pe_rope_cache_streams(cos_m, sin_m, dtype, layout, text, COUNT, streams,
                              w, N, 1.25);
        pe_rope_cache(cos_p, sin_p, dtype, layout, positions, COUNT, 0, w, N,
                      1.25);
        CHECK(memcmp(cos_m, cos_p, bytes) == 0 &&
                  memcmp(sin_m, sin_p, bytes) == 0,
              "text positions are plain RoPE: %s %s", dtype_names[dtype],
              layout_names[layout]);
        free(cos_m);
        free(sin_m);
        free(cos_p);
        free(sin_p);
      }
  float out[2 * N];
  double bad_positions[3] = {1, NAN, 2};
  CHECK(pe_rope_cache_streams(out, out + N, 0, 0, bad_positions, 1, streams, w,
                              N, 1) == PE_ERR_POSITIONS,
        "a NaN h position");
  CHECK(pe_rope_cache_streams(out, out + N, 0, 0, NULL, 1, streams, w, N, 1) ==
            PE_ERR_NULL,
        "null positions");
  CHECK(pe_rope_cache_streams(out, out + N, 0, 0, positions, 1, NULL, w, N,
                              1) == PE_ERR_NULL,
        "null streams");
  streams[3] = 3;
  CHECK(pe_rope_cache_streams(out, out + N, 0, 0, positions, 1, streams, w, N,
                              1) == PE_ERR_MROPE_STREAM,
        "stream 3");
  streams[3] = 0;
  CHECK(pe_rope_cache_streams(out, out + N, 0, 0, positions, 1, streams, w, N,
                              1) == PE_OK,
        "works after errors");
}

int main(void) {
  test_half();
  test_caches();
  test_errors();
  test_mrope_streams();
  test_mrope_cache();
  return check_report("test_rope_cache");
}
