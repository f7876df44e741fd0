#include "rope_scaling.h"

#include <math.h>
#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>

#include "bounds.h"
#include "exp_log.h"
#include "frequencies.h"
#include "pi.h"
#include "status.h"

#define PE_BIT(p) (1u << (p))

/* The parameters the type takes, as bits; any other present one is
   refused. */
static uint32_t accepted(int32_t type) {
  uint32_t bits = 0;
#define PE_ACCEPT(t, parameter, required)                                      \
  if (type == (t))                                                             \
    bits |= PE_BIT(parameter);
  PE_ROPE_PARAMETER_TABLE(PE_ACCEPT)
#undef PE_ACCEPT
  return bits;
}

/* Inside this file an absent parameter is NaN: the caller's NaN, which no
   rule accepts, is refused before (normalized). */
static int present(double v) { return !isnan(v); }

/* The status that names each parameter, for a given one that is NaN. */
static int32_t status_of(uint32_t k) {
  static const int32_t statuses[PE_ROPE_PARAMETERS] = {
      [PE_ROPE_FACTOR] = PE_ERR_ROPE_FACTOR,
      [PE_ROPE_MAX_POSITION_EMBEDDINGS] = PE_ERR_ROPE_MAX_LENGTH,
      [PE_ROPE_SEQ_LEN] = PE_ERR_ROPE_SEQ_LEN,
      [PE_ROPE_ORIGINAL_MAX_POSITION_EMBEDDINGS] = PE_ERR_ROPE_ORIGINAL,
      [PE_ROPE_BETA_FAST] = PE_ERR_ROPE_BETA,
      [PE_ROPE_BETA_SLOW] = PE_ERR_ROPE_BETA,
      [PE_ROPE_ATTENTION_FACTOR] = PE_ERR_ROPE_ATTENTION,
      [PE_ROPE_MSCALE] = PE_ERR_ROPE_MSCALE,
      [PE_ROPE_MSCALE_ALL_DIM] = PE_ERR_ROPE_MSCALE,
      [PE_ROPE_TRUNCATE] = PE_ERR_ROPE_TRUNCATE,
      [PE_ROPE_LOW_FREQ_FACTOR] = PE_ERR_ROPE_FREQ_FACTOR,
      [PE_ROPE_HIGH_FREQ_FACTOR] = PE_ERR_ROPE_FREQ_FACTOR,
      [PE_ROPE_PARTIAL_ROTARY_FACTOR] = PE_ERR_ROPE_PARTIAL,
  };
  return statuses[k];
}

/* Copies the given parameters (bit k of `given` set for parameter k) into
   p, the absent ones as NaN. A given parameter the type does not take is
   refused, and so is a given NaN, by the parameter's own status. */
static int32_t normalized(int32_t type, const double *params, uint32_t given,
                          double *p) {
  if (given >> PE_ROPE_PARAMETERS != 0)
    return PE_ERR_ARGUMENT;
  for (uint32_t k = 0; k < PE_ROPE_PARAMETERS; k++) {
    p[k] = NAN;
    if (!(given & PE_BIT(k)))
      continue;
    if (!(accepted(type) & PE_BIT(k)))
      return PE_ERR_ROPE_PARAMETER;
    if (isnan(params[k]))
      return status_of(k);
    p[k] = params[k];
  }
  return PE_OK;
}

/* A present value must be finite and >= min; an absent one must not be
   required. */
static int valid_at_least(double v, double min, int required) {
  if (!present(v))
    return !required;
  return isfinite(v) && v >= min;
}

/* A length (maxPositionEmbeddings, seqLen): an integer in [min, 2^53 - 1],
   as the integer fields of a model config. */
static int valid_length(double v, double min, int required) {
  if (!present(v))
    return !required;
  return v >= min && v <= 9007199254740991.0 && v == floor(v);
}

static int valid_above(double v, double min, int required) {
  if (!present(v))
    return !required;
  return isfinite(v) && v > min;
}

/* A factor > 0 whose reciprocal is finite: w / factor with w <= 1 then
   stays finite. Below 1 is computed, as in the source (with a warning). */
static int valid_factor(double v, int required) {
  return valid_above(v, 0, required) && (!present(v) || isfinite(1 / v));
}

/* YaRN's magnitude correction: 0.1 m ln(s) + 1 for s > 1. */
static double yarn_mscale(double scale, double m) {
  return scale <= 1 ? 1.0 : 0.1 * m * pe_log(scale) + 1.0;
}

/* The pair index at which the wavelength makes `rotations` turns over the
   original context. */
static double yarn_correction_dim(double rotations, uint32_t dim, double base,
                                  double original) {
  return (double)dim * pe_log(original / (rotations * 2 * PE_PI)) /
         (2 * pe_log(base));
}

static int32_t yarn(uint32_t dim, double base, const double *p, double *out,
                    uint32_t n, double *attention) {
  double factor = p[PE_ROPE_FACTOR];
  if (!valid_factor(factor, 1))
    return PE_ERR_ROPE_FACTOR;
  double original = p[PE_ROPE_ORIGINAL_MAX_POSITION_EMBEDDINGS];
  if (!present(original))
    original = p[PE_ROPE_MAX_POSITION_EMBEDDINGS];
  if (!valid_length(original, 1, 1))
    return present(p[PE_ROPE_ORIGINAL_MAX_POSITION_EMBEDDINGS])
               ? PE_ERR_ROPE_ORIGINAL
               : PE_ERR_ROPE_MAX_LENGTH;
  double beta_fast = p[PE_ROPE_BETA_FAST], beta_slow = p[PE_ROPE_BETA_SLOW];
  if (!valid_above(beta_fast, 0, 0) || !valid_above(beta_slow, 0, 0))
    return PE_ERR_ROPE_BETA;
  /* betaFast < betaSlow is computed as the source does (a ramp that runs
     backwards), with a warning. */
  beta_fast = present(beta_fast) ? beta_fast : 32;
  beta_slow = present(beta_slow) ? beta_slow : 1;
  double mscale = p[PE_ROPE_MSCALE], mscale_all_dim = p[PE_ROPE_MSCALE_ALL_DIM];
  if (!valid_at_least(mscale, 0, 0) || !valid_at_least(mscale_all_dim, 0, 0))
    return PE_ERR_ROPE_MSCALE;
  double truncate = p[PE_ROPE_TRUNCATE];
  if (present(truncate) && truncate != 0 && truncate != 1)
    return PE_ERR_ROPE_TRUNCATE;
  double given = p[PE_ROPE_ATTENTION_FACTOR];
  if (!valid_above(given, 0, 0))
    return PE_ERR_ROPE_ATTENTION;

  /* Both must be non-zero, as the source tests their truth. */
  if (present(given))
    *attention = given;
  else if (present(mscale) && mscale != 0 && present(mscale_all_dim) &&
           mscale_all_dim != 0)
    *attention =
        yarn_mscale(factor, mscale) / yarn_mscale(factor, mscale_all_dim);
  else
    *attention = yarn_mscale(factor, 1);
  /* A huge mscale overflows the logarithm's product: inf, 0 or NaN. */
  if (!isfinite(*attention) || !(*attention > 0))
    return PE_ERR_ROPE_MSCALE;

  double low = yarn_correction_dim(beta_fast, dim, base, original);
  double high = yarn_correction_dim(beta_slow, dim, base, original);
  if (!present(truncate) || truncate == 1) {
    low = floor(low);
    high = ceil(high);
  }
  if (out == NULL)
    return PE_OK;
  low = fmax(low, 0);
  high = fmin(high, (double)(dim - 1));
  if (low == high)
    high += 0.001; /* as the source: no zero-width ramp */
  for (uint32_t i = 0; i < n; i++) {
    double ramp = fmin(fmax(((double)i - low) / (high - low), 0), 1);
    double extrapolation = 1 - ramp;
    out[i] = out[i] / factor * (1 - extrapolation) + out[i] * extrapolation;
  }
  return PE_OK;
}

static int32_t longrope(const double *p, const double *factors,
                        uint32_t n_factors, double *out, uint32_t n,
                        double *attention) {
  if (factors == NULL || n_factors != 2 * n ||
      !pe_is_aligned(factors, alignof(double)))
    return factors == NULL || n_factors != 2 * n ? PE_ERR_ROPE_SHORT_FACTOR
                                                 : PE_ERR_NULL;
  /* w_i <= w_0 = 1, so a finite 1 / factor keeps w_i / factor finite. */
  for (uint32_t i = 0; i < 2 * n; i++)
    if (!isfinite(factors[i]) || !(factors[i] > 0) || !isfinite(1 / factors[i]))
      return i < n ? PE_ERR_ROPE_SHORT_FACTOR : PE_ERR_ROPE_LONG_FACTOR;
  double max_length = p[PE_ROPE_MAX_POSITION_EMBEDDINGS];
  if (!valid_length(max_length, 1, 1))
    return PE_ERR_ROPE_MAX_LENGTH;
  double factor = p[PE_ROPE_FACTOR];
  double original = p[PE_ROPE_ORIGINAL_MAX_POSITION_EMBEDDINGS];
  double given = p[PE_ROPE_ATTENTION_FACTOR];
  double seq_len = p[PE_ROPE_SEQ_LEN];
  if (!valid_above(given, 0, 0))
    return PE_ERR_ROPE_ATTENTION;
  if (!valid_length(seq_len, 0, 0))
    return PE_ERR_ROPE_SEQ_LEN;
  if (present(original)) {
    /* transformers v5: a factor given is used as given; without one, the
       factor is the ratio of the two lengths (Phi-3's form). */
    if (!valid_length(original, 1, 1))
      return PE_ERR_ROPE_ORIGINAL;
    if (!valid_factor(factor, 0))
      return PE_ERR_ROPE_FACTOR;
    if (!present(factor))
      factor = max_length / original;
  } else {
    original = max_length;
    if (!valid_factor(factor, !present(given)))
      return PE_ERR_ROPE_FACTOR;
  }
  if (present(given))
    *attention = given;
  else
    *attention =
        factor <= 1 ? 1.0 : sqrt(1 + pe_log(factor) / pe_log(original));
  /* ln(original) = 0: name the length the caller gave. */
  if (!isfinite(*attention))
    return present(p[PE_ROPE_ORIGINAL_MAX_POSITION_EMBEDDINGS])
               ? PE_ERR_ROPE_ORIGINAL
               : PE_ERR_ROPE_LONGROPE_LENGTH;
  if (out == NULL)
    return PE_OK;
  const double *ext =
      present(seq_len) && seq_len > original ? factors + n : factors;
  for (uint32_t i = 0; i < n; i++)
    out[i] = out[i] / ext[i];
  return PE_OK;
}

static int32_t llama3(const double *p, double *out, uint32_t n) {
  double factor = p[PE_ROPE_FACTOR];
  double original = p[PE_ROPE_ORIGINAL_MAX_POSITION_EMBEDDINGS];
  double low = p[PE_ROPE_LOW_FREQ_FACTOR], high = p[PE_ROPE_HIGH_FREQ_FACTOR];
  if (!valid_factor(factor, 1))
    return PE_ERR_ROPE_FACTOR;
  if (!valid_length(original, 1, 1))
    return PE_ERR_ROPE_ORIGINAL;
  /* high < low is computed as the source does (no band is smoothed), with a
     warning; so is high == low, whose smooth band is empty: the source's
     torch.where drops the band's division by zero. */
  if (!valid_above(low, 0, 1) || !valid_above(high, 0, 1))
    return PE_ERR_ROPE_FREQ_FACTOR;
  if (out == NULL)
    return PE_OK;
  double low_wavelength = original / low, high_wavelength = original / high;
  /* In the source's order: long wavelengths are divided by factor, then
     those in [high, low] wavelength are smoothed. */
  for (uint32_t i = 0; i < n; i++) {
    double w = out[i], wavelength = 2 * PE_PI / w;
    if (wavelength > low_wavelength) {
      out[i] = w / factor;
    } else if (!(wavelength < high_wavelength) && high != low) {
      double smooth = (original / wavelength - low) / (high - low);
      out[i] = (1 - smooth) * w / factor + smooth * w;
    }
  }
  return PE_OK;
}

/* Gemma 4: the first floor(partial * dim / 2) pairs keep base^(-2i/dim)
   of the full dim, the others stop rotating (0); all are divided by factor
   (default 1). */
static int32_t proportional(uint32_t dim, const double *p, double *out,
                            uint32_t n) {
  double factor = present(p[PE_ROPE_FACTOR]) ? p[PE_ROPE_FACTOR] : 1;
  double partial = p[PE_ROPE_PARTIAL_ROTARY_FACTOR];
  if (!valid_factor(factor, 1))
    return PE_ERR_ROPE_FACTOR;
  if (present(partial) && !(partial >= 0 && partial <= 1))
    return PE_ERR_ROPE_PARTIAL;
  if (out == NULL)
    return PE_OK;
  /* int(partial_rotary_factor * head_dim // 2): the product rounds once,
     halving and flooring are exact. */
  double angles = present(partial) ? floor(partial * (double)dim / 2) : n;
  for (uint32_t i = 0; i < n; i++)
    out[i] = (double)i < angles ? out[i] / factor : 0.0;
  return PE_OK;
}

/* The type's checks, its attention factor, and with out non-null its
   scaling of the unscaled schedule in out. */
static int32_t scale(int32_t type, uint32_t dim, double base, const double *p,
                     const double *factors, uint32_t n_factors, double *out,
                     uint32_t n, double *attention) {
  switch (type) {
  case PE_ROPE_LINEAR: {
    double factor = p[PE_ROPE_FACTOR];
    if (!valid_factor(factor, 1))
      return PE_ERR_ROPE_FACTOR;
    for (uint32_t i = 0; out != NULL && i < n; i++)
      out[i] /= factor;
    return PE_OK;
  }
  case PE_ROPE_YARN:
    return yarn(dim, base, p, out, n, attention);
  case PE_ROPE_LONGROPE:
    return longrope(p, factors, n_factors, out, n, attention);
  case PE_ROPE_LLAMA3:
    return llama3(p, out, n);
  case PE_ROPE_PROPORTIONAL:
    return proportional(dim, p, out, n);
  default:
    return PE_OK;
  }
}

int32_t pe_rope_frequencies(int32_t type, uint32_t dim, double base,
                            const double *given_params, uint32_t n_params,
                            uint32_t given, const double *factors,
                            uint32_t n_factors, double *out, uint32_t n,
                            double *attention) {
  if (!PE_IN_ENUM(type, PE_ROPE_TYPE_COUNT))
    return PE_ERR_ROPE_TYPE;
  if (dim < 2 || dim > PE_MAX_DIM)
    return PE_ERR_DIM;
  if (dim % 2 != 0)
    return PE_ERR_ODD_DIM;
  if (n != dim / 2)
    return PE_ERR_ARGUMENT;
  if (given_params == NULL || n_params != PE_ROPE_PARAMETERS || out == NULL ||
      attention == NULL || !pe_is_aligned(given_params, alignof(double)) ||
      !pe_is_aligned(out, alignof(double)) ||
      !pe_is_aligned(attention, alignof(double)))
    return PE_ERR_NULL;
  double params[PE_ROPE_PARAMETERS];
  int32_t refused = normalized(type, given_params, given, params);
  if (refused != PE_OK)
    return refused;
  if (!(accepted(type) & PE_BIT(PE_ROPE_SHORT_FACTOR)) && n_factors != 0)
    return PE_ERR_ROPE_PARAMETER;
  if (!isfinite(base) || !(base > 1))
    return PE_ERR_BASE;

  if (type == PE_ROPE_DYNAMIC) {
    /* NTK-aware: the base grows once the sequence outgrows the maximum. */
    double factor = params[PE_ROPE_FACTOR];
    double max_length = params[PE_ROPE_MAX_POSITION_EMBEDDINGS];
    double seq_len = params[PE_ROPE_SEQ_LEN];
    if (!valid_factor(factor, 1))
      return PE_ERR_ROPE_FACTOR;
    if (!valid_length(max_length, 1, 1))
      return PE_ERR_ROPE_MAX_LENGTH;
    if (!valid_length(seq_len, 0, 0))
      return PE_ERR_ROPE_SEQ_LEN;
    if (dim < 4)
      return PE_ERR_ROPE_DYNAMIC_DIM; /* the exponent dim / (dim - 2) */
    double length = present(seq_len) ? fmax(seq_len, max_length) : max_length;
    base *= pe_pow(factor * length / max_length - (factor - 1),
                   (double)dim / (double)(dim - 2));
    if (!isfinite(base))
      return PE_ERR_ROPE_DYNAMIC_BASE;
  }
  /* A refused call writes nothing: every check runs (out = NULL) before
     the unscaled schedule goes into out. */
  double a = 1.0;
  int32_t status =
      scale(type, dim, base, params, factors, n_factors, NULL, n, &a);
  if (status == PE_OK)
    status = pe_frequencies(PE_SCHEDULE_PAPER, dim, PE_ODD_ERROR, base, 1, 1, 0,
                            out, n);
  if (status != PE_OK)
    return status;
  scale(type, dim, base, params, factors, n_factors, out, n, &a);
  *attention = a;
  return PE_OK;
}

uint32_t pe_rope_warnings(int32_t type, const double *given_params,
                          uint32_t n_params, uint32_t given) {
  double params[PE_ROPE_PARAMETERS];
  if (!PE_IN_ENUM(type, PE_ROPE_TYPE_COUNT) || given_params == NULL ||
      n_params != PE_ROPE_PARAMETERS ||
      !pe_is_aligned(given_params, alignof(double)) ||
      normalized(type, given_params, given, params) != PE_OK)
    return 0;
  uint32_t warnings = 0;
  double factor = params[PE_ROPE_FACTOR];
  if (type != PE_ROPE_DEFAULT && type != PE_ROPE_PROPORTIONAL && factor < 1)
    warnings |= PE_BIT(PE_WARN_ROPE_FACTOR_BELOW_ONE);
  if (type == PE_ROPE_YARN) {
    double fast = params[PE_ROPE_BETA_FAST], slow = params[PE_ROPE_BETA_SLOW];
    if ((present(fast) ? fast : 32) < (present(slow) ? slow : 1))
      warnings |= PE_BIT(PE_WARN_ROPE_BETA_ORDER);
  }
  if (type == PE_ROPE_LLAMA3 &&
      params[PE_ROPE_HIGH_FREQ_FACTOR] <= params[PE_ROPE_LOW_FREQ_FACTOR])
    warnings |= PE_BIT(PE_WARN_ROPE_FREQ_ORDER);
  return warnings;
}
