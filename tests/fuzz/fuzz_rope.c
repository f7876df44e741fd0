/* RoPE context extension with arbitrary arguments: the inverse frequencies
   and attention factor of every rope type, and the cos/sin caches built from
   them (or from any frequencies). A refused call writes nothing; a null or
   misaligned pointer is always refused. A successful one gives finite
   frequencies within the bounds each type's definition implies and a finite
   attention factor > 0; caches stay within the attention factor, repeat
   their values as the layout says, agree with a float64 reference from libm,
   and round to float32 and float16 within those types' rounding. */
#include "fuzz_input.h"
#include "rope_cache.h"
#include "rope_scaling.h"

#define BIT(p) (1u << (p))

/* The parameters each type takes (the README's table), so that most inputs
   get past the check of which ones are present. */
static const uint32_t takes[PE_ROPE_TYPE_COUNT] = {
    [PE_ROPE_DEFAULT] = 0,
    [PE_ROPE_LINEAR] = BIT(PE_ROPE_FACTOR),
    [PE_ROPE_DYNAMIC] = BIT(PE_ROPE_FACTOR) |
                        BIT(PE_ROPE_MAX_POSITION_EMBEDDINGS) |
                        BIT(PE_ROPE_SEQ_LEN),
    [PE_ROPE_YARN] = BIT(PE_ROPE_FACTOR) |
                     BIT(PE_ROPE_MAX_POSITION_EMBEDDINGS) |
                     BIT(PE_ROPE_ORIGINAL_MAX_POSITION_EMBEDDINGS) |
                     BIT(PE_ROPE_BETA_FAST) | BIT(PE_ROPE_BETA_SLOW) |
                     BIT(PE_ROPE_ATTENTION_FACTOR) | BIT(PE_ROPE_MSCALE) |
                     BIT(PE_ROPE_MSCALE_ALL_DIM) | BIT(PE_ROPE_TRUNCATE),
    [PE_ROPE_LONGROPE] = BIT(PE_ROPE_FACTOR) |
                         BIT(PE_ROPE_MAX_POSITION_EMBEDDINGS) |
                         BIT(PE_ROPE_ORIGINAL_MAX_POSITION_EMBEDDINGS) |
                         BIT(PE_ROPE_ATTENTION_FACTOR) | BIT(PE_ROPE_SEQ_LEN),
    [PE_ROPE_LLAMA3] =
        BIT(PE_ROPE_FACTOR) | BIT(PE_ROPE_ORIGINAL_MAX_POSITION_EMBEDDINGS) |
        BIT(PE_ROPE_LOW_FREQ_FACTOR) | BIT(PE_ROPE_HIGH_FREQ_FACTOR),
    [PE_ROPE_PROPORTIONAL] =
        BIT(PE_ROPE_FACTOR) | BIT(PE_ROPE_PARTIAL_ROTARY_FACTOR),
};

static const double pi = 3.141592653589793;

/* A parameter value: any number, or one of the sizes real configs use
   (factors, lengths, betas), where the interesting paths are. */
static double parameter(input *in) {
  uint8_t how = (uint8_t)take(in, 1);
  if (how & 1)
    return number(in);
  static const double usual[] = {0,     1,    2,    4,    8,     32,     0.5,
                                 0.707, 1e-3, 4096, 8192, 32768, 131072, 1e6};
  return usual[(how >> 1) % (sizeof usual / sizeof usual[0])];
}

static void require_bits(const void *a, const void *b, size_t bytes,
                         const char *what, size_t index) {
  if (memcmp(a, b, bytes) != 0)
    fail(what, index, 0);
}

/* Rounding to float64 costs half an ulp relative: allow a few roundings,
   and a few steps of the smallest subnormal below DBL_MIN. */
static int at_most(double x, double bound) {
  return x <= bound * (1 + 4 * DBL_EPSILON) + 0x1p-1072;
}

static int at_least(double x, double bound) {
  return x >= bound * (1 - 4 * DBL_EPSILON) - 0x1p-1072;
}

/* Checks a successful pe_rope_frequencies against its type's definition,
   given the unscaled schedule u (the paper one of the same base). */
static void check_frequencies(int32_t type, const double *p,
                              const double *factors, const double *out,
                              const double *u, uint32_t n, double attention) {
  double factor = p[PE_ROPE_FACTOR];
  if (!isfinite(attention) || !(attention > 0))
    fail("attention factor not finite and > 0", 0, attention);
  for (uint32_t i = 0; i < n; i++)
    if (!isfinite(out[i]) || !(out[i] >= 0))
      fail("frequency not finite and >= 0", i, out[i]);
  int given = !isnan(p[PE_ROPE_ATTENTION_FACTOR]);
  if (given && attention != p[PE_ROPE_ATTENTION_FACTOR])
    fail("attention factor differs from the given one", 0, attention);
  if (type != PE_ROPE_YARN && type != PE_ROPE_LONGROPE && attention != 1)
    fail("attention factor of a type without one", 0, attention);
  switch (type) {
  case PE_ROPE_DEFAULT:
    require_bits(out, u, n * sizeof(double), "default differs from paper", 0);
    break;
  case PE_ROPE_LINEAR:
    for (uint32_t i = 0; i < n; i++)
      if (out[i] != u[i] / factor)
        fail("linear differs from unscaled / factor", i, out[i]);
    break;
  case PE_ROPE_DYNAMIC:
    /* A larger base: w_0 = 1, and no frequency above its unscaled one
       beyond the rounding of factor * L / max - (factor - 1) >= 1, a few
       ulps of the factor. */
    if (out[0] != 1)
      fail("dynamic w_0 is not 1", 0, out[0]);
    for (uint32_t i = 0; i < n; i++)
      if (!at_most(out[i], u[i] * (1 + 8 * factor * DBL_EPSILON)))
        fail("dynamic frequency above the unscaled one", i, out[i]);
    break;
  case PE_ROPE_YARN:
  case PE_ROPE_LLAMA3:
    /* A blend of w and w / factor with weights in [0, 1] (a factor below
       1, computed with a warning, swaps the ends). */
    for (uint32_t i = 0; i < n; i++)
      if (!at_least(out[i], fmin(u[i], u[i] / factor)) ||
          !at_most(out[i], fmax(u[i], u[i] / factor)))
        fail("frequency outside [unscaled / factor, unscaled]", i, out[i]);

    if (type == PE_ROPE_YARN && !given &&
        (isnan(p[PE_ROPE_MSCALE]) || p[PE_ROPE_MSCALE] == 0 ||
         isnan(p[PE_ROPE_MSCALE_ALL_DIM]) || p[PE_ROPE_MSCALE_ALL_DIM] == 0) &&
        !(attention >= 1 && at_most(attention, fmax(1, 0.1 * log(factor) + 1))))
      fail("yarn attention outside [1, 0.1 ln(factor) + 1]", 0, attention);
    if (type == PE_ROPE_LLAMA3) {
      /* Long wavelengths divided, then short ones kept: exact by
         definition, in the source's order (which decides when
         highFreqFactor < lowFreqFactor). */
      double original = p[PE_ROPE_ORIGINAL_MAX_POSITION_EMBEDDINGS];
      for (uint32_t i = 0; i < n; i++) {
        double wavelength = 2 * pi / u[i];
        if (wavelength > original / p[PE_ROPE_LOW_FREQ_FACTOR]) {
          if (out[i] != u[i] / factor)
            fail("llama3 low frequency not divided by the factor", i, out[i]);
        } else if (wavelength < original / p[PE_ROPE_HIGH_FREQ_FACTOR] &&
                   out[i] != u[i])
          fail("llama3 high frequency changed", i, out[i]);
      }
    }
    break;
  case PE_ROPE_PROPORTIONAL: {
    /* The first floor(partial dim / 2) pairs over factor, the rest 0. */
    double f = isnan(factor) ? 1 : factor;
    double partial = p[PE_ROPE_PARTIAL_ROTARY_FACTOR];
    double angles = isnan(partial) ? n : floor(partial * (2.0 * n) / 2);
    for (uint32_t i = 0; i < n; i++)
      if (out[i] != ((double)i < angles ? u[i] / f : 0))
        fail("proportional differs from its definition", i, out[i]);
    break;
  }
  case PE_ROPE_LONGROPE: {
    /* w_i divided by every factor of one list, the short or the long. */
    int short_ok = 1, long_ok = 1;
    for (uint32_t i = 0; i < n; i++) {
      short_ok = short_ok && out[i] == u[i] / factors[i];
      long_ok = long_ok && out[i] == u[i] / factors[n + i];
    }
    if (!short_ok && !long_ok)
      fail("longrope not unscaled / one factor list", 0, 0);
    if (isnan(p[PE_ROPE_SEQ_LEN]) && !short_ok)
      fail("longrope without seqLen took the long factors", 0, 0);
    if (!given && !(attention >= 1))
      fail("longrope attention below 1", 0, attention);
    break;
  }
  }
}

static double half_value(uint16_t h) {
  int e = (h >> 10) & 31, m = h & 1023;
  double v = e == 31  ? (m ? NAN : INFINITY)
             : e == 0 ? ldexp(m, -24)
                      : ldexp(m + 1024, e - 25);
  return h & 0x8000 ? -v : v;
}

/* Spacing of a binary format with `digits` significand bits and smallest
   normal exponent emin, at |x|. */
static double ulp_at(double x, int digits, int emin) {
  int e;
  frexp(x, &e);
  return ldexp(1, (e - 1 < emin ? emin : e - 1) - (digits - 1));
}

static double cache_value(const void *rows, int32_t dtype, size_t k) {
  switch (dtype) {
  case PE_CACHE_FLOAT32:
    return ((const float *)rows)[k];
  case PE_CACHE_FLOAT64:
    return ((const double *)rows)[k];
  default:
    return half_value(((const uint16_t *)rows)[k]);
  }
}

/* Every element of a successful cache against the float64 half-layout
   reference ref (count rows of n): the layout's copies identical, values
   within the dtype's rounding of the reference. */
static void check_cache(const void *rows, const double *ref, int32_t dtype,
                        int32_t layout, uint32_t count, uint32_t n,
                        double attention) {
  size_t elem = dtype == PE_CACHE_FLOAT32   ? sizeof(float)
                : dtype == PE_CACHE_FLOAT64 ? sizeof(double)
                                            : sizeof(uint16_t);
  size_t width = layout == PE_CACHE_HALF ? n : 2 * (size_t)n;
  const char *bytes = rows;
  for (uint32_t j = 0; j < count; j++)
    for (uint32_t i = 0; i < n; i++) {
      size_t a = (size_t)j * width +
                 (layout == PE_CACHE_INTERLEAVED ? 2 * (size_t)i : i);
      if (layout != PE_CACHE_HALF) {
        size_t b = layout == PE_CACHE_INTERLEAVED ? a + 1 : a + n;
        require_bits(bytes + a * elem, bytes + b * elem, elem,
                     "the two copies of a value differ", a);
      }
      double v = cache_value(rows, dtype, a), want = ref[(size_t)j * n + i];
      double err = fabs(v - want);
      int ok;
      if (dtype == PE_CACHE_FLOAT64)
        ok = memcmp(&v, &want, sizeof v) == 0; /* layouts only move it */
      else if (dtype == PE_CACHE_FLOAT16)
        /* One rounding of a value within ~1e-14 a of the reference. */
        ok = err <= 0.5 * ulp_at(want, 11, -14) + 1e-12 * attention;
      else
        /* Rounding, plus the angle x * w rounded once (|x w| <= 1e8 gives
           1.1e-8) where the float32 path skips the exact product. */
        ok = err <= 0.5 * ulp_at(want, 24, -126) + 0x1p-26 * attention;
      if (!isfinite(v) || !ok)
        fail("cache value off the float64 reference", a, v - want);
    }
}

/* The float64 reference against libm: cos and sin of the exact product
   x w = p + e, to first order in e (where e^2 is negligible). */
/* Rows 0, count / 2 and count - 1 of a cache, computed again alone at
   their positions, equal the cache's bit for bit. */
static void check_rows_alone(const void *cos_out, const void *sin_out,
                             int32_t dtype, int32_t layout,
                             const double *positions, uint32_t count,
                             double start, const double *inv_freq, uint32_t n,
                             double attention) {
  size_t elem = dtype == PE_CACHE_FLOAT64   ? sizeof(double)
                : dtype == PE_CACHE_FLOAT16 ? sizeof(uint16_t)
                                            : sizeof(float);
  size_t row_bytes = (layout == PE_CACHE_HALF ? n : 2 * (size_t)n) * elem;
  char *cos_row = malloc(row_bytes + 1), *sin_row = malloc(row_bytes + 1);
  const uint32_t rows[3] = {0, count / 2, count - 1};
  for (int r = 0; r < 3 && count > 0; r++) {
    uint32_t j = rows[r];
    double p = positions ? positions[j] : start + (double)j;
    if (pe_rope_cache(cos_row, sin_row, dtype, layout, &p, 1, 0, inv_freq, n,
                      attention) != PE_OK)
      fail("a cache row alone refused where its cache was accepted", j, p);
    require_bits(cos_row, (const char *)cos_out + j * row_bytes, row_bytes,
                 "a cos row alone differs from the cache's", j);
    require_bits(sin_row, (const char *)sin_out + j * row_bytes, row_bytes,
                 "a sin row alone differs from the cache's", j);
  }
  free(cos_row);
  free(sin_row);
}

static void check_reference(const double *cos_ref, const double *sin_ref,
                            const double *positions, uint32_t count,
                            double start, const double *w, uint32_t n,
                            double a) {
  for (uint32_t j = 0; j < count; j++) {
    double x = positions ? positions[j] : start + (double)j;
    for (uint32_t i = 0; i < n; i++) {
      double p = x * w[i], e = fma(x, w[i], -p);
      if (!(fabs(e) <= 1e-8))
        continue; /* first order no longer enough */
      double c = a * (cos(p) - sin(p) * e), s = a * (sin(p) + cos(p) * e);
      size_t k = (size_t)j * n + i;
      if (!(fabs(cos_ref[k] - c) <= 1e-13 * a) ||
          !(fabs(sin_ref[k] - s) <= 1e-13 * a))
        fail("float64 cache off cos/sin from libm", k, cos_ref[k] - c);
    }
  }
}

/* M-RoPE: the streams of a section, and a cache whose every pair is the
   one-row plain cache at its own stream's position, bit for bit. */
static void fuzz_mrope(input *in) {
  double s0 = parameter(in), s1 = parameter(in), s2 = parameter(in);
  int32_t interleaved = (int32_t)(take(in, 1) % 3);
  uint32_t n = (uint32_t)take(in, 1) % 40;
  uint8_t *streams = malloc(n + 1);
  memset(streams, 0xee, n + 1);
  int32_t status = pe_mrope_streams(s0, s1, s2, interleaved, streams, n);
  require_status(status);
  if (status == PE_OK) {
    uint32_t counts[3] = {0, 0, 0};
    for (uint32_t i = 0; i < n; i++) {
      if (streams[i] > 2)
        fail("a stream other than t, h, w", i, streams[i]);
      counts[streams[i]]++;
    }
    if (!interleaved && (counts[0] != s0 || counts[1] != s1 || counts[2] != s2))
      fail("chunked streams do not follow the section", 0, counts[0]);
  } else {
    for (uint32_t i = 0; i < n; i++)
      streams[i] = (uint8_t)(take(in, 1) % 4);
  }
  uint32_t count = (uint32_t)take(in, 1) % 6;
  double *positions = malloc(sizeof(double) * (3 * count + 1));
  for (uint32_t k = 0; k < 3 * count; k++)
    positions[k] = parameter(in);
  double *w = malloc(sizeof(double) * (n + 1));
  for (uint32_t i = 0; i < n; i++)
    w[i] = parameter(in) / 1e3;
  int32_t dtype = (int32_t)(take(in, 1) % 3);
  int32_t layout = (int32_t)(take(in, 1) % 3);
  double attention = take(in, 1) & 1 ? 1 : 1.25;
  size_t width = layout == PE_CACHE_HALF ? n : 2 * (size_t)n;
  size_t elem = dtype == PE_CACHE_FLOAT32   ? sizeof(float)
                : dtype == PE_CACHE_FLOAT64 ? sizeof(double)
                                            : sizeof(uint16_t);
  size_t bytes = count * width * elem + 1;
  char *cos_m = malloc(bytes), *sin_m = malloc(bytes);
  char *cos_p = malloc(width * elem + 1), *sin_p = malloc(width * elem + 1);
  status = pe_rope_cache_streams(cos_m, sin_m, dtype, layout, positions, count,
                                 streams, w, n, attention);
  require_status(status);
  for (uint32_t j = 0; status == PE_OK && j < count; j++)
    for (uint32_t k = 0; k < 3; k++) {
      if (pe_rope_cache(cos_p, sin_p, dtype, layout, &positions[k * count + j],
                        1, 0, w, n, attention) != PE_OK)
        fail("a stream's plain row refused", j, positions[k * count + j]);
      for (size_t col = 0; col < width; col++) {
        size_t i = layout == PE_CACHE_INTERLEAVED ? col / 2
                   : col < n                      ? col
                                                  : col - n;
        if (streams[i] != k)
          continue;
        require_bits(cos_m + (j * width + col) * elem, cos_p + col * elem, elem,
                     "M-RoPE cos differs from its stream's row", col);
        require_bits(sin_m + (j * width + col) * elem, sin_p + col * elem, elem,
                     "M-RoPE sin differs from its stream's row", col);
      }
    }
  free(streams);
  free(positions);
  free(w);
  free(cos_m);
  free(sin_m);
  free(cos_p);
  free(sin_p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  input in = {data, size};
  uint8_t flags = (uint8_t)take(&in, 1);
  int32_t type = (int32_t)(take(&in, 1) % (PE_ROPE_TYPE_COUNT + 2)) - 1;
  uint32_t d = (uint32_t)take(&in, 2);
  uint32_t dim = d & 0x8000 ? d % 1100 : d % 40;
  double base = flags & 2 ? number(&in) : 10000;

  double params[PE_ROPE_PARAMETERS + 1];
  uint32_t mask = (uint32_t)take(&in, 2);
  if (!(flags & 4) && PE_IN_ENUM(type, PE_ROPE_TYPE_COUNT))
    mask &= takes[type];
  for (uint32_t k = 0; k < PE_ROPE_PARAMETERS; k++)
    params[k] = mask & BIT(k) ? parameter(&in) : NAN;
  uint32_t n_params =
      flags & 8 ? (uint32_t)take(&in, 1) % 16 : PE_ROPE_PARAMETERS;
  uint32_t n = dim / 2;
  if (flags & 16)
    n = (uint32_t)take(&in, 2) % 600;

  /* longrope's lists: positive values of any size, or any numbers. */
  uint32_t n_factors = type == PE_ROPE_LONGROPE ? 2 * n : 0;
  if (flags & 32)
    n_factors = (uint32_t)take(&in, 2) % 1200;
  double *factors = malloc(sizeof(double) * (n_factors + 1));
  uint8_t factor_kind = (uint8_t)take(&in, 1);
  for (uint32_t k = 0; k < n_factors; k++)
    factors[k] = factor_kind & 1 ? number(&in) : fabs(parameter(&in));

  double *out = malloc(sizeof(double) * (n + 1));
  memset(out, 0xa5, sizeof(double) * n);
  double *before = copy_of(out, sizeof(double) * n);
  double attention = -3, attention_before = attention;
  uint8_t spoil = (uint8_t)take(&in, 1), spoil2 = (uint8_t)take(&in, 1);
  const double *params_arg = spoil_pointer(params, spoil);
  const double *factors_arg =
      n_factors > 0 || (spoil & 16) ? spoil_pointer(factors, spoil >> 4) : NULL;
  double *out_arg = spoil_pointer(out, spoil2);
  double *attention_arg = spoil_pointer(&attention, spoil2 >> 4);

  int32_t status =
      pe_rope_frequencies(type, dim, base, params_arg, n_params, mask,
                          factors_arg, n_factors, out_arg, n, attention_arg);
  require_status(status);
  if (status != PE_OK) {
    require_untouched(out, before, sizeof(double) * n);
    require_untouched(&attention, &attention_before, sizeof attention);
  } else {
    if (params_arg != params || out_arg != out || attention_arg != &attention ||
        (type == PE_ROPE_LONGROPE && factors_arg != factors))
      fail("accepted a null or misaligned pointer", 0, 0);
    double *u = malloc(sizeof(double) * (n + 1));
    if (pe_frequencies(PE_SCHEDULE_PAPER, dim, PE_ODD_ERROR, base, 1, 1, 0, u,
                       n) != PE_OK)
      fail("accepted a shape the paper schedule refuses", 0, dim);
    check_frequencies(type, params, factors, out, u, n, attention);
    free(u);
  }

  /* The cache: of those frequencies, or of any from the input. */
  uint32_t n_cache = n;
  double *inv_freq = out, cache_attention = attention;
  if (status != PE_OK || (flags & 64)) {
    n_cache = (uint32_t)take(&in, 2) % (flags & 128 ? 600 : 40);
    inv_freq = malloc(sizeof(double) * (n_cache + 1));
    for (uint32_t i = 0; i < n_cache; i++)
      inv_freq[i] = number(&in);
    cache_attention = flags & 128 ? number(&in) : 1;
  }
  int32_t dtype = (int32_t)(take(&in, 1) % 5) - 1;
  int32_t layout = (int32_t)(take(&in, 1) % 5) - 1;
  uint32_t count = (uint32_t)take(&in, 2) % 300;
  if (n_cache > 0 && (size_t)count * n_cache > (1u << 13))
    count = (1u << 13) / n_cache;
  double start;
  double *positions = points_of(&in, count, &start);
  uint8_t spoil3 = (uint8_t)take(&in, 1), spoil4 = (uint8_t)take(&in, 1);

  size_t cells = (size_t)count * 2 * n_cache; /* the widest layout */
  size_t bytes = cells * sizeof(double);
  char *cos_out = malloc(bytes + 1), *sin_out = malloc(bytes + 1);
  memset(cos_out, 0xa5, bytes);
  memset(sin_out, 0x5a, bytes);
  void *cos_before = copy_of(cos_out, bytes);
  void *sin_before = copy_of(sin_out, bytes);
  void *cos_arg = spoil_pointer(cos_out, spoil3);
  void *sin_arg = spoil_pointer(sin_out, spoil3 >> 4);
  const double *positions_arg =
      positions ? spoil_pointer(positions, spoil4) : NULL;
  const double *inv_freq_arg = spoil_pointer(inv_freq, spoil4 >> 4);

  status = pe_rope_cache(cos_arg, sin_arg, dtype, layout, positions_arg, count,
                         start, inv_freq_arg, n_cache, cache_attention);
  require_status(status);
  if (status != PE_OK) {
    require_untouched(cos_out, cos_before, bytes);
    require_untouched(sin_out, sin_before, bytes);
  } else {
    if (inv_freq_arg != inv_freq ||
        (count > 0 && (cos_arg != cos_out || sin_arg != sin_out ||
                       (positions_arg && positions_arg != positions))))
      fail("accepted a null or misaligned pointer", 0, 0);
    if (!isfinite(cache_attention) || !(cache_attention > 0))
      fail("accepted an attention factor not finite and > 0", 0,
           cache_attention);
    /* A spoilt null positions pointer is valid: rows from start. */
    const double *rows_at = positions_arg ? positions : NULL;
    size_t ref_cells = (size_t)count * n_cache;
    double *cos_ref = malloc(sizeof(double) * (ref_cells + 1));
    double *sin_ref = malloc(sizeof(double) * (ref_cells + 1));
    if (pe_rope_cache(cos_ref, sin_ref, PE_CACHE_FLOAT64, PE_CACHE_HALF,
                      rows_at, count, start, inv_freq, n_cache,
                      cache_attention) != PE_OK)
      fail("float64 half cache refused where another was accepted", 0, 0);
    double a = cache_attention;
    require_bounded(cos_ref, ref_cells, a * (1 + 1e-15), "|cos| above a");
    require_bounded(sin_ref, ref_cells, a * (1 + 1e-15), "|sin| above a");
    check_reference(cos_ref, sin_ref, rows_at, count, start, inv_freq, n_cache,
                    a);
    check_cache(cos_out, cos_ref, dtype, layout, count, n_cache, a);
    check_cache(sin_out, sin_ref, dtype, layout, count, n_cache, a);
    check_rows_alone(cos_out, sin_out, dtype, layout, rows_at, count, start,
                     inv_freq, n_cache, a);
    free(cos_ref);
    free(sin_ref);
  }

  free(cos_out);
  free(sin_out);
  free(cos_before);
  free(sin_before);
  free(positions);
  if (inv_freq != out)
    free(inv_freq);
  free(out);
  free(before);
  free(factors);
  fuzz_mrope(&in);
  return 0;
}
