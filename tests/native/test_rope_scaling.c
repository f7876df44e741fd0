/* The inverse frequencies and attention factor of every rope type against
   float64 formulas written here from the transformers source, and every
   parameter rule: a bad value gets its own status, and the library keeps
   working after it. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "rope_scaling.h"
#include "status.h"

#define PI 3.14159265358979323846

static void absent(double *p) {
  for (int k = 0; k < PE_ROPE_PARAMETERS; k++)
    p[k] = NAN;
}

/* The bits of the parameters these tests give: every slot not NaN. */
static uint32_t given(const double *p) {
  uint32_t bits = 0;
  for (int k = 0; k < PE_ROPE_PARAMETERS; k++)
    if (!isnan(p[k]))
      bits |= 1u << k;
  return bits;
}

static double unscaled(uint32_t i, uint32_t dim, double base) {
  return exp(-(2.0 * i / dim) * log(base));
}

static int close_rel(double a, double b) {
  return fabs(a - b) <= 4e-15 * fabs(b);
}

/* Calls the library; NaN-fills out first so an unwritten entry shows. */
static int32_t run(int32_t type, uint32_t dim, double base, const double *p,
                   const double *factors, uint32_t n_factors, double *out,
                   double *attention) {
  for (uint32_t i = 0; i < dim / 2; i++)
    out[i] = NAN;
  *attention = NAN;
  return pe_rope_frequencies(type, dim, base, p, PE_ROPE_PARAMETERS, given(p),
                             factors, n_factors, out, dim / 2, attention);
}

static void check_all(const char *what, const double *out,
                      const double *expected, uint32_t n, double attention,
                      double expected_attention) {
  int bad = 0;
  for (uint32_t i = 0; i < n; i++)
    bad += !close_rel(out[i], expected[i]);
  CHECK(bad == 0, "%s: %d of %u frequencies differ", what, bad, n);
  CHECK(close_rel(attention, expected_attention),
        "%s: attention %.17g vs %.17g", what, attention, expected_attention);
}

static void test_default_and_linear(void) {
  double p[PE_ROPE_PARAMETERS], out[512], expected[512], attention;
  for (uint32_t dim = 2; dim <= 1024; dim += dim < 16 ? 2 : 126) {
    absent(p);
    CHECK(run(PE_ROPE_DEFAULT, dim, 10000, p, NULL, 0, out, &attention) ==
              PE_OK,
          "default dim %u", dim);
    for (uint32_t i = 0; i < dim / 2; i++)
      expected[i] = unscaled(i, dim, 10000);
    check_all("default", out, expected, dim / 2, attention, 1);
    p[PE_ROPE_FACTOR] = 4;
    CHECK(run(PE_ROPE_LINEAR, dim, 500000, p, NULL, 0, out, &attention) ==
              PE_OK,
          "linear dim %u", dim);
    for (uint32_t i = 0; i < dim / 2; i++)
      expected[i] = unscaled(i, dim, 500000) / 4;
    check_all("linear", out, expected, dim / 2, attention, 1);
  }
}

static void test_dynamic(void) {
  double p[PE_ROPE_PARAMETERS], out[64], expected[64], attention;
  const uint32_t dim = 128;
  double seq_lens[] = {NAN, 100, 4096, 5000, 16384};
  for (int k = 0; k < 5; k++) {
    absent(p);
    p[PE_ROPE_FACTOR] = 2;
    p[PE_ROPE_MAX_POSITION_EMBEDDINGS] = 4096;
    p[PE_ROPE_SEQ_LEN] = seq_lens[k];
    CHECK(run(PE_ROPE_DYNAMIC, dim, 10000, p, NULL, 0, out, &attention) ==
              PE_OK,
          "dynamic seq %g", seq_lens[k]);
    double len = isnan(seq_lens[k]) || seq_lens[k] < 4096 ? 4096 : seq_lens[k];
    /* base' = base (f L / L0 - (f - 1))^(d / (d - 2)) */
    double ratio = 2 * len / 4096 - 1;
    double log_base = log(10000) + (128.0 / 126.0) * log(ratio);
    for (uint32_t i = 0; i < dim / 2; i++)
      expected[i] = exp(-(2.0 * i / dim) * log_base);
    check_all("dynamic", out, expected, dim / 2, attention, 1);
  }
}

/* YaRN written from the paper's ramp: pairs below the fast boundary keep
   their frequency, pairs beyond the slow one are divided by the factor. */
static void yarn_reference(uint32_t dim, double base, double factor,
                           double original, double beta_fast, double beta_slow,
                           int truncate, double *expected) {
  double low = dim * log(original / (beta_fast * 2 * PI)) / (2 * log(base));
  double high = dim * log(original / (beta_slow * 2 * PI)) / (2 * log(base));
  if (truncate) {
    low = floor(low);
    high = ceil(high);
  }
  if (low < 0)
    low = 0;
  if (high > dim - 1)
    high = dim - 1;
  if (low == high)
    high += 0.001;
  for (uint32_t i = 0; i < dim / 2; i++) {
    double t = (i - low) / (high - low);
    double ramp = t < 0 ? 0 : t > 1 ? 1 : t;
    double w = unscaled(i, dim, base);
    expected[i] = w * (1 - ramp) + (w / factor) * ramp;
  }
}

static void test_yarn(void) {
  double p[PE_ROPE_PARAMETERS], out[64], expected[64], attention;
  absent(p);
  p[PE_ROPE_FACTOR] = 4;
  p[PE_ROPE_ORIGINAL_MAX_POSITION_EMBEDDINGS] = 32768;
  CHECK(run(PE_ROPE_YARN, 128, 1e6, p, NULL, 0, out, &attention) == PE_OK,
        "yarn");
  yarn_reference(128, 1e6, 4, 32768, 32, 1, 1, expected);
  check_all("yarn qwen", out, expected, 64, attention, 1 + 0.1 * log(4));

  /* maxPositionEmbeddings stands in for the original length. */
  absent(p);
  p[PE_ROPE_FACTOR] = 4;
  p[PE_ROPE_MAX_POSITION_EMBEDDINGS] = 32768;
  CHECK(run(PE_ROPE_YARN, 128, 1e6, p, NULL, 0, out, &attention) == PE_OK,
        "yarn max");
  check_all("yarn max", out, expected, 64, attention, 1 + 0.1 * log(4));

  /* DeepSeek's mscale pair, untruncated ramp, explicit betas. */
  absent(p);
  p[PE_ROPE_FACTOR] = 40;
  p[PE_ROPE_ORIGINAL_MAX_POSITION_EMBEDDINGS] = 4096;
  p[PE_ROPE_MSCALE] = 1;
  p[PE_ROPE_MSCALE_ALL_DIM] = 0.707;
  p[PE_ROPE_BETA_FAST] = 16;
  p[PE_ROPE_BETA_SLOW] = 2;
  p[PE_ROPE_TRUNCATE] = 0;
  CHECK(run(PE_ROPE_YARN, 64, 10000, p, NULL, 0, out, &attention) == PE_OK,
        "yarn mscale");
  yarn_reference(64, 10000, 40, 4096, 16, 2, 0, expected);
  check_all("yarn mscale", out, expected, 32, attention,
            (1 + 0.1 * log(40)) / (1 + 0.0707 * log(40)));

  p[PE_ROPE_ATTENTION_FACTOR] = 0.5;
  CHECK(run(PE_ROPE_YARN, 64, 10000, p, NULL, 0, out, &attention) == PE_OK,
        "yarn attention");
  CHECK(attention == 0.5, "explicit attention factor %g", attention);
}

static void test_longrope(void) {
  enum { DIM = 96, N = DIM / 2 };
  double p[PE_ROPE_PARAMETERS], out[N], expected[N], attention;
  double factors[2 * N];
  for (int i = 0; i < N; i++) {
    factors[i] = 1 + 0.05 * i;     /* short */
    factors[N + i] = 1 + 0.75 * i; /* long */
  }
  double seq_lens[] = {NAN, 4096, 4097};
  for (int k = 0; k < 3; k++) {
    absent(p);
    p[PE_ROPE_MAX_POSITION_EMBEDDINGS] = 131072;
    p[PE_ROPE_ORIGINAL_MAX_POSITION_EMBEDDINGS] = 4096;
    p[PE_ROPE_SEQ_LEN] = seq_lens[k];
    CHECK(run(PE_ROPE_LONGROPE, DIM, 10000, p, factors, 2 * N, out,
              &attention) == PE_OK,
          "longrope seq %g", seq_lens[k]);
    const double *ext = seq_lens[k] > 4096 ? factors + N : factors;
    for (int i = 0; i < N; i++)
      expected[i] = unscaled(i, DIM, 10000) / ext[i];
    check_all("longrope phi3", out, expected, N, attention,
              sqrt(1 + log(32.0) / log(4096.0)));
  }
  /* The factor form: original = maxPositionEmbeddings. */
  absent(p);
  p[PE_ROPE_MAX_POSITION_EMBEDDINGS] = 4096;
  p[PE_ROPE_FACTOR] = 8;
  p[PE_ROPE_SEQ_LEN] = 8000;
  CHECK(run(PE_ROPE_LONGROPE, DIM, 10000, p, factors, 2 * N, out, &attention) ==
            PE_OK,
        "longrope factor");
  for (int i = 0; i < N; i++)
    expected[i] = unscaled(i, DIM, 10000) / factors[N + i];
  check_all("longrope factor", out, expected, N, attention,
            sqrt(1 + log(8.0) / log(4096.0)));
}

/* Which parameters are given is a bitmask: a given NaN is refused by its
   parameter's status, never taken for absent; a slot whose bit is clear is
   not read, whatever it holds; a bit past the slots is refused. */
static void test_given(void) {
  double p[PE_ROPE_PARAMETERS], out[64], attention;
  for (int k = 0; k < PE_ROPE_PARAMETERS; k++)
    p[k] = 12345; /* slots not given hold anything */
  p[PE_ROPE_FACTOR] = 4;
  p[PE_ROPE_ORIGINAL_MAX_POSITION_EMBEDDINGS] = 4096;
  p[PE_ROPE_ATTENTION_FACTOR] = NAN;
  uint32_t yarn =
      1u << PE_ROPE_FACTOR | 1u << PE_ROPE_ORIGINAL_MAX_POSITION_EMBEDDINGS;
  CHECK(pe_rope_frequencies(PE_ROPE_YARN, 128, 1e4, p, PE_ROPE_PARAMETERS, yarn,
                            NULL, 0, out, 64, &attention) == PE_OK &&
            close_rel(attention, 0.1 * log(4.0) + 1),
        "yarn reads only its given slots: attention %.17g", attention);
  CHECK(pe_rope_frequencies(PE_ROPE_YARN, 128, 1e4, p, PE_ROPE_PARAMETERS,
                            yarn | 1u << PE_ROPE_ATTENTION_FACTOR, NULL, 0, out,
                            64, &attention) == PE_ERR_ROPE_ATTENTION,
        "a given NaN attention factor is refused");
  p[PE_ROPE_BETA_SLOW] = NAN;
  CHECK(pe_rope_frequencies(PE_ROPE_YARN, 128, 1e4, p, PE_ROPE_PARAMETERS,
                            yarn | 1u << PE_ROPE_BETA_SLOW, NULL, 0, out, 64,
                            &attention) == PE_ERR_ROPE_BETA,
        "a given NaN betaSlow is refused");
  CHECK(pe_rope_frequencies(PE_ROPE_YARN, 128, 1e4, p, PE_ROPE_PARAMETERS,
                            yarn | 1u << PE_ROPE_PARAMETERS, NULL, 0, out, 64,
                            &attention) == PE_ERR_ARGUMENT,
        "a bit past the slots is refused");
  CHECK(pe_rope_frequencies(PE_ROPE_YARN, 128, 1e4, p, PE_ROPE_PARAMETERS,
                            yarn | 1u << PE_ROPE_LOW_FREQ_FACTOR, NULL, 0, out,
                            64, &attention) == PE_ERR_ROPE_PARAMETER,
        "a given parameter of another type is refused");
}

static void test_llama3(void) {
  double p[PE_ROPE_PARAMETERS], out[64], expected[64], attention;
  absent(p);
  p[PE_ROPE_FACTOR] = 8;
  p[PE_ROPE_LOW_FREQ_FACTOR] = 1;
  p[PE_ROPE_HIGH_FREQ_FACTOR] = 4;
  p[PE_ROPE_ORIGINAL_MAX_POSITION_EMBEDDINGS] = 8192;
  CHECK(run(PE_ROPE_LLAMA3, 128, 500000, p, NULL, 0, out, &attention) == PE_OK,
        "llama3");
  int kept = 0, divided = 0;
  for (int i = 0; i < 64; i++) {
    double w = unscaled(i, 128, 500000), wavelength = 2 * PI / w;
    if (wavelength < 8192 / 4.0) {
      expected[i] = w;
      kept++;
    } else if (wavelength > 8192 / 1.0) {
      expected[i] = w / 8;
      divided++;
    } else {
      double s = (8192 / wavelength - 1) / 3;
      expected[i] = (1 - s) * w / 8 + s * w;
    }
  }
  CHECK(kept > 0 && divided > 0, "llama3 has both ends: %d %d", kept, divided);
  check_all("llama3", out, expected, 64, attention, 1);

  /* Equal factors: the smooth band is empty (the source's torch.where
     drops its division by zero), so wavelengths above 8192 / 2 are divided
     by 8 and the others kept, all finite. */
  p[PE_ROPE_LOW_FREQ_FACTOR] = 2;
  p[PE_ROPE_HIGH_FREQ_FACTOR] = 2;
  CHECK(run(PE_ROPE_LLAMA3, 128, 500000, p, NULL, 0, out, &attention) == PE_OK,
        "llama3 with equal factors");
  for (int i = 0; i < 64; i++) {
    double w = unscaled(i, 128, 500000);
    expected[i] = 2 * PI / w > 8192 / 2.0 ? w / 8 : w;
  }
  check_all("llama3 equal factors", out, expected, 64, attention, 1);
}

typedef struct {
  int32_t type;
  int parameter; /* -1: none */
  double value;
  int32_t status;
} bad_case;

static void test_rules(void) {
  double p[PE_ROPE_PARAMETERS], out[64], attention, factors[128];
  for (int i = 0; i < 128; i++)
    factors[i] = 1;
  /* A valid base configuration per type, then one bad value at a time. */
  static const bad_case cases[] = {
      {PE_ROPE_DEFAULT, PE_ROPE_FACTOR, 2, PE_ERR_ROPE_PARAMETER},
      {PE_ROPE_LINEAR, PE_ROPE_FACTOR, NAN, PE_ERR_ROPE_FACTOR},
      {PE_ROPE_LINEAR, PE_ROPE_FACTOR, 0, PE_ERR_ROPE_FACTOR},
      {PE_ROPE_LINEAR, PE_ROPE_FACTOR, INFINITY, PE_ERR_ROPE_FACTOR},
      {PE_ROPE_LINEAR, PE_ROPE_SEQ_LEN, 10, PE_ERR_ROPE_PARAMETER},
      {PE_ROPE_DYNAMIC, PE_ROPE_MAX_POSITION_EMBEDDINGS, NAN,
       PE_ERR_ROPE_MAX_LENGTH},
      {PE_ROPE_DYNAMIC, PE_ROPE_MAX_POSITION_EMBEDDINGS, 0.5,
       PE_ERR_ROPE_MAX_LENGTH},
      {PE_ROPE_DYNAMIC, PE_ROPE_MAX_POSITION_EMBEDDINGS, 8192.5,
       PE_ERR_ROPE_MAX_LENGTH},
      {PE_ROPE_DYNAMIC, PE_ROPE_SEQ_LEN, -1, PE_ERR_ROPE_SEQ_LEN},
      {PE_ROPE_DYNAMIC, PE_ROPE_SEQ_LEN, 0.5, PE_ERR_ROPE_SEQ_LEN},
      {PE_ROPE_DYNAMIC, PE_ROPE_SEQ_LEN, 1e308, PE_ERR_ROPE_SEQ_LEN},
      {PE_ROPE_DYNAMIC, PE_ROPE_SEQ_LEN, 9007199254740992.0,
       PE_ERR_ROPE_SEQ_LEN},
      {PE_ROPE_DYNAMIC, PE_ROPE_FACTOR, 1e308, PE_ERR_ROPE_DYNAMIC_BASE},
      {PE_ROPE_YARN, PE_ROPE_BETA_FAST, 0, PE_ERR_ROPE_BETA},
      {PE_ROPE_YARN, PE_ROPE_BETA_FAST, INFINITY, PE_ERR_ROPE_BETA},
      {PE_ROPE_YARN, PE_ROPE_BETA_SLOW, -1, PE_ERR_ROPE_BETA},
      {PE_ROPE_YARN, PE_ROPE_ATTENTION_FACTOR, 0, PE_ERR_ROPE_ATTENTION},
      {PE_ROPE_YARN, PE_ROPE_MSCALE, -1, PE_ERR_ROPE_MSCALE},
      {PE_ROPE_YARN, PE_ROPE_MSCALE_ALL_DIM, INFINITY, PE_ERR_ROPE_MSCALE},
      {PE_ROPE_YARN, PE_ROPE_TRUNCATE, 0.5, PE_ERR_ROPE_TRUNCATE},
      {PE_ROPE_YARN, PE_ROPE_ORIGINAL_MAX_POSITION_EMBEDDINGS, 0,
       PE_ERR_ROPE_ORIGINAL},
      {PE_ROPE_YARN, PE_ROPE_LOW_FREQ_FACTOR, 1, PE_ERR_ROPE_PARAMETER},
      {PE_ROPE_LONGROPE, PE_ROPE_FACTOR, 0, PE_ERR_ROPE_FACTOR},
      {PE_ROPE_LONGROPE, PE_ROPE_ORIGINAL_MAX_POSITION_EMBEDDINGS, 1,
       PE_ERR_ROPE_ORIGINAL},
      {PE_ROPE_LONGROPE, PE_ROPE_MAX_POSITION_EMBEDDINGS, NAN,
       PE_ERR_ROPE_MAX_LENGTH},
      {PE_ROPE_LLAMA3, PE_ROPE_HIGH_FREQ_FACTOR, -1, PE_ERR_ROPE_FREQ_FACTOR},
      {PE_ROPE_LLAMA3, PE_ROPE_LOW_FREQ_FACTOR, 0, PE_ERR_ROPE_FREQ_FACTOR},
      {PE_ROPE_LLAMA3, PE_ROPE_ORIGINAL_MAX_POSITION_EMBEDDINGS, NAN,
       PE_ERR_ROPE_ORIGINAL},
      {PE_ROPE_LLAMA3, PE_ROPE_FACTOR, -1, PE_ERR_ROPE_FACTOR},
      {PE_ROPE_PROPORTIONAL, PE_ROPE_PARTIAL_ROTARY_FACTOR, 1.5,
       PE_ERR_ROPE_PARTIAL},
      {PE_ROPE_PROPORTIONAL, PE_ROPE_PARTIAL_ROTARY_FACTOR, -0.1,
       PE_ERR_ROPE_PARTIAL},
      {PE_ROPE_PROPORTIONAL, PE_ROPE_FACTOR, 0, PE_ERR_ROPE_FACTOR},
      {PE_ROPE_PROPORTIONAL, PE_ROPE_SEQ_LEN, 1, PE_ERR_ROPE_PARAMETER},
      {PE_ROPE_LINEAR, PE_ROPE_PARTIAL_ROTARY_FACTOR, 0.5,
       PE_ERR_ROPE_PARAMETER},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    const bad_case *c = &cases[k];
    absent(p);
    switch (c->type) {
    case PE_ROPE_LINEAR:
      p[PE_ROPE_FACTOR] = 2;
      break;
    case PE_ROPE_DYNAMIC:
      p[PE_ROPE_FACTOR] = 2;
      p[PE_ROPE_MAX_POSITION_EMBEDDINGS] = 4096;
      break;
    case PE_ROPE_YARN:
      p[PE_ROPE_FACTOR] = 4;
      p[PE_ROPE_ORIGINAL_MAX_POSITION_EMBEDDINGS] = 4096;
      break;
    case PE_ROPE_LONGROPE:
      p[PE_ROPE_MAX_POSITION_EMBEDDINGS] = 131072;
      p[PE_ROPE_ORIGINAL_MAX_POSITION_EMBEDDINGS] = 4096;
      break;
    case PE_ROPE_LLAMA3:
      p[PE_ROPE_FACTOR] = 8;
      p[PE_ROPE_LOW_FREQ_FACTOR] = 1;
      p[PE_ROPE_HIGH_FREQ_FACTOR] = 4;
      p[PE_ROPE_ORIGINAL_MAX_POSITION_EMBEDDINGS] = 8192;
      break;
    }
    uint32_t n_factors = c->type == PE_ROPE_LONGROPE ? 128 : 0;
    CHECK(run(c->type, 128, 10000, p, factors, n_factors, out, &attention) ==
              PE_OK,
          "case %zu: the base configuration is valid", k);
    p[c->parameter] = c->value;
    int32_t status =
        run(c->type, 128, 10000, p, factors, n_factors, out, &attention);
    CHECK(status == c->status, "case %zu: status %d, expected %d", k, status,
          c->status);
    /* run() NaN-filled both outputs: a refused call writes nothing. */
    int written = !isnan(attention);
    for (uint32_t i = 0; i < 64; i++)
      written |= !isnan(out[i]);
    CHECK(!written, "case %zu: a refused call wrote its outputs", k);
  }
  /* 0.1 mscale ln(factor) + 1 overflows (ln 1e6 > 10): an attention of
     inf / 2.4, then 2.4 / inf = 0. */
  absent(p);
  p[PE_ROPE_FACTOR] = 1e6;
  p[PE_ROPE_ORIGINAL_MAX_POSITION_EMBEDDINGS] = 4096;
  p[PE_ROPE_MSCALE] = DBL_MAX;
  p[PE_ROPE_MSCALE_ALL_DIM] = 1;
  CHECK(run(PE_ROPE_YARN, 128, 1e4, p, NULL, 0, out, &attention) ==
            PE_ERR_ROPE_MSCALE,
        "yarn mscale overflow");
  p[PE_ROPE_MSCALE] = 1;
  p[PE_ROPE_MSCALE_ALL_DIM] = DBL_MAX;
  CHECK(run(PE_ROPE_YARN, 128, 1e4, p, NULL, 0, out, &attention) ==
            PE_ERR_ROPE_MSCALE,
        "yarn mscaleAllDim overflow");
  /* Arguments outside the parameters. */
  absent(p);
  CHECK(run(PE_ROPE_TYPE_COUNT, 128, 10000, p, NULL, 0, out, &attention) ==
            PE_ERR_ROPE_TYPE,
        "type");
  CHECK(run(-1, 128, 10000, p, NULL, 0, out, &attention) == PE_ERR_ROPE_TYPE,
        "type");
  CHECK(run(0, 127, 10000, p, NULL, 0, out, &attention) == PE_ERR_ODD_DIM,
        "odd dim");
  CHECK(run(0, 0, 10000, p, NULL, 0, out, &attention) == PE_ERR_DIM, "dim 0");
  CHECK(run(0, 128, 1, p, NULL, 0, out, &attention) == PE_ERR_BASE, "base 1");
  CHECK(run(0, 128, NAN, p, NULL, 0, out, &attention) == PE_ERR_BASE, "base");
  CHECK(run(0, 128, 1e4, p, factors, 128, out, &attention) ==
            PE_ERR_ROPE_PARAMETER,
        "factors for default");
  CHECK(pe_rope_frequencies(0, 128, 1e4, p, 3, 0, NULL, 0, out, 64,
                            &attention) == PE_ERR_NULL,
        "short params");
  CHECK(pe_rope_frequencies(0, 128, 1e4, p, PE_ROPE_PARAMETERS, 0, NULL, 0, out,
                            63, &attention) == PE_ERR_ARGUMENT,
        "n");
  CHECK(pe_rope_frequencies(0, 128, 1e4, p, PE_ROPE_PARAMETERS, 0, NULL, 0,
                            NULL, 64, &attention) == PE_ERR_NULL,
        "out");
  p[PE_ROPE_MAX_POSITION_EMBEDDINGS] = 4096;
  p[PE_ROPE_FACTOR] = 2;
  CHECK(run(PE_ROPE_DYNAMIC, 2, 1e4, p, NULL, 0, out, &attention) ==
            PE_ERR_ROPE_DYNAMIC_DIM,
        "dynamic needs dim >= 4");
  absent(p);
  p[PE_ROPE_MAX_POSITION_EMBEDDINGS] = 4096;
  CHECK(run(PE_ROPE_LONGROPE, 128, 1e4, p, factors, 127, out, &attention) ==
            PE_ERR_ROPE_SHORT_FACTOR,
        "factor count");
  factors[70] = 0;
  p[PE_ROPE_FACTOR] = 2;
  CHECK(run(PE_ROPE_LONGROPE, 128, 1e4, p, factors, 128, out, &attention) ==
            PE_ERR_ROPE_LONG_FACTOR,
        "long factor 0");
  factors[70] = 1;
  factors[3] = NAN;
  CHECK(run(PE_ROPE_LONGROPE, 128, 1e4, p, factors, 128, out, &attention) ==
            PE_ERR_ROPE_SHORT_FACTOR,
        "short factor NaN");
  factors[3] = 0x1p-1030; /* w_0 / factor would overflow */
  CHECK(run(PE_ROPE_LONGROPE, 128, 1e4, p, factors, 128, out, &attention) ==
            PE_ERR_ROPE_SHORT_FACTOR,
        "short factor with an infinite reciprocal");
  factors[3] = 1;
  p[PE_ROPE_FACTOR] = NAN;
  CHECK(run(PE_ROPE_LONGROPE, 128, 1e4, p, factors, 128, out, &attention) ==
            PE_ERR_ROPE_FACTOR,
        "longrope needs factor without original or attention");
  p[PE_ROPE_ATTENTION_FACTOR] = 1.2;
  CHECK(run(PE_ROPE_LONGROPE, 128, 1e4, p, factors, 128, out, &attention) ==
            PE_OK,
        "longrope with attention only");
}

/* Gemma 4: pairs below floor(partial * head_dim / 2) keep the full head's
   base^(-2i/head_dim) over factor, the others are 0. */
static void test_proportional(void) {
  double p[PE_ROPE_PARAMETERS], out[256], expected[256], attention;
  struct {
    uint32_t dim;
    double partial, factor;
    uint32_t angles;
  } cases[] = {{256, 0.25, NAN, 32}, {256, 0.25, 8, 32},   {512, 0.25, 1, 64},
               {10, 0.3, 2, 1},      {256, NAN, NAN, 128}, {64, 0, NAN, 0}};
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    absent(p);
    p[PE_ROPE_PARTIAL_ROTARY_FACTOR] = cases[k].partial;
    p[PE_ROPE_FACTOR] = cases[k].factor;
    uint32_t dim = cases[k].dim;
    double factor = isnan(cases[k].factor) ? 1 : cases[k].factor;
    for (uint32_t i = 0; i < dim / 2; i++)
      expected[i] = i < cases[k].angles ? unscaled(i, dim, 1e6) / factor : 0;
    CHECK(run(PE_ROPE_PROPORTIONAL, dim, 1e6, p, NULL, 0, out, &attention) ==
              PE_OK,
          "proportional case %zu", k);
    int bad = 0;
    for (uint32_t i = 0; i < dim / 2; i++)
      bad += expected[i] == 0 ? out[i] != 0 : !close_rel(out[i], expected[i]);
    CHECK(bad == 0 && attention == 1, "proportional case %zu: %d differ", k,
          bad);
  }
}

/* What the source computes with only a logged warning is computed, and
   flagged; valid inputs raise no warning. */
static void test_warnings(void) {
  double p[PE_ROPE_PARAMETERS], out[64], expected[64], attention;
  absent(p);
  p[PE_ROPE_FACTOR] = 0.5;
  CHECK(run(PE_ROPE_LINEAR, 128, 1e4, p, NULL, 0, out, &attention) == PE_OK,
        "linear factor 0.5 computes");
  for (uint32_t i = 0; i < 64; i++)
    expected[i] = unscaled(i, 128, 1e4) * 2;
  check_all("linear 0.5", out, expected, 64, attention, 1);
  CHECK(pe_rope_warnings(PE_ROPE_LINEAR, p, PE_ROPE_PARAMETERS, given(p)) ==
            1u << PE_WARN_ROPE_FACTOR_BELOW_ONE,
        "linear 0.5 warns");
  p[PE_ROPE_FACTOR] = 2;
  CHECK(pe_rope_warnings(PE_ROPE_LINEAR, p, PE_ROPE_PARAMETERS, given(p)) == 0,
        "linear 2 does not warn");

  absent(p);
  p[PE_ROPE_FACTOR] = 4;
  p[PE_ROPE_ORIGINAL_MAX_POSITION_EMBEDDINGS] = 4096;
  p[PE_ROPE_BETA_FAST] = 1;
  p[PE_ROPE_BETA_SLOW] = 32;
  CHECK(run(PE_ROPE_YARN, 128, 1e4, p, NULL, 0, out, &attention) == PE_OK,
        "yarn betaFast 1, betaSlow 32 computes");
  yarn_reference(128, 1e4, 4, 4096, 1, 32, 1, expected);
  check_all("yarn reversed betas", out, expected, 64, attention,
            0.1 * log(4) + 1);
  CHECK(pe_rope_warnings(PE_ROPE_YARN, p, PE_ROPE_PARAMETERS, given(p)) ==
            1u << PE_WARN_ROPE_BETA_ORDER,
        "yarn reversed betas warn");
  p[PE_ROPE_BETA_FAST] = NAN;
  p[PE_ROPE_BETA_SLOW] = 33; /* above the default betaFast 32 */
  CHECK(pe_rope_warnings(PE_ROPE_YARN, p, PE_ROPE_PARAMETERS, given(p)) ==
            1u << PE_WARN_ROPE_BETA_ORDER,
        "yarn betaSlow above the default betaFast warns");

  /* Llama 3 with highFreqFactor 1 < lowFreqFactor 4: wavelengths above
     original / 4 are divided by factor, the rest kept, none smoothed. */
  absent(p);
  p[PE_ROPE_FACTOR] = 8;
  p[PE_ROPE_LOW_FREQ_FACTOR] = 4;
  p[PE_ROPE_HIGH_FREQ_FACTOR] = 1;
  p[PE_ROPE_ORIGINAL_MAX_POSITION_EMBEDDINGS] = 8192;
  CHECK(run(PE_ROPE_LLAMA3, 128, 5e5, p, NULL, 0, out, &attention) == PE_OK,
        "llama3 high < low computes");
  for (uint32_t i = 0; i < 64; i++) {
    double w = unscaled(i, 128, 5e5);
    expected[i] = 2 * PI / w > 8192.0 / 4 ? w / 8 : w;
  }
  check_all("llama3 reversed", out, expected, 64, attention, 1);
  CHECK(pe_rope_warnings(PE_ROPE_LLAMA3, p, PE_ROPE_PARAMETERS, given(p)) ==
            1u << PE_WARN_ROPE_FREQ_ORDER,
        "llama3 reversed warns");
  CHECK(pe_rope_warnings(PE_ROPE_TYPE_COUNT, p, PE_ROPE_PARAMETERS, given(p)) ==
                0 &&
            pe_rope_warnings(PE_ROPE_LLAMA3, NULL, PE_ROPE_PARAMETERS, 0) ==
                0 &&
            pe_rope_warnings(PE_ROPE_LLAMA3, p, 3, given(p)) == 0,
        "warnings of refused arguments are 0");
}

int main(void) {
  test_default_and_linear();
  test_dynamic();
  test_yarn();
  test_longrope();
  test_given();
  test_llama3();
  test_rules();
  test_proportional();
  test_warnings();
  return check_report("test_rope_scaling");
}
