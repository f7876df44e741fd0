#include "frequencies.h"

#include <math.h>
#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>

#include "bounds.h"
#include "double_double.h"
#include "exp_log.h"
#include "simd.h"
#include "status.h"

int32_t pe_frequency_count(uint32_t dim, int32_t odd_dim, uint32_t *count) {
  if (dim < 1 || dim > PE_MAX_DIM)
    return PE_ERR_DIM;
  if (!PE_IN_ENUM(odd_dim, PE_ODD_DIM_COUNT))
    return PE_ERR_ODD_DIM;
  if (dim % 2 == 1 && odd_dim == PE_ODD_ERROR)
    return PE_ERR_ODD_DIM;
  *count = dim / 2 + (dim % 2 == 1 && odd_dim == PE_ODD_EXTRA_SIN);
  return PE_OK;
}

/* dim and odd_dim are valid, n is their frequency count (else
   wrong_count), and the n doubles at a are there and aligned. */
static int32_t check_frequency_array(const double *a, uint32_t n, uint32_t dim,
                                     int32_t odd_dim, int32_t wrong_count) {
  uint32_t count;
  int32_t status = pe_frequency_count(dim, odd_dim, &count);
  if (status != PE_OK)
    return status;
  if (count != n)
    return wrong_count;
  if (n > 0 && (a == NULL || !pe_is_aligned(a, alignof(double))))
    return PE_ERR_NULL;
  return PE_OK;
}

/* Frequencies per block of the paper schedule. */
#define PE_PAPER_BLOCK 32

/* w_i = base^(-2i/d) = exp(-i c) with c = 2 ln(base) / d in double-double.
   With i = a + b, a a multiple of PE_PAPER_BLOCK and b below it,
   w_i = exp(-a c) exp(-b c): one exp per block and per b, and one product
   per frequency. Each factor is within about 2^-100, and so is w_i. */
static void paper_frequencies(double base, uint32_t dim, double *out,
                              uint32_t n) {
  pe_dd c = pe_dd_div(pe_dd_mul_d(pe_dd_log(base), 2), (pe_dd){dim, 0});
  pe_dd_scaled within[PE_PAPER_BLOCK];
  for (uint32_t b = 0; b < PE_PAPER_BLOCK && b < n; b++)
    within[b] = pe_dd_exp(pe_dd_mul_d(c, -(double)b));
  for (uint32_t a = 0; a < n; a += PE_PAPER_BLOCK) {
    pe_dd_scaled block = pe_dd_exp(pe_dd_mul_d(c, -(double)a));
    for (uint32_t b = 0; b < PE_PAPER_BLOCK && a + b < n; b++) {
      pe_dd m = pe_dd_mul(block.m, within[b].m);
      /* m.hi is m rounded; scaling by 2^k is exact above 2^-1022. */
      out[a + b] = ldexp(m.hi, block.k + within[b].k);
    }
  }
}

int32_t pe_frequencies(int32_t schedule, uint32_t dim, int32_t odd_dim,
                       double base, double min_timescale, double max_timescale,
                       double shift, double *out, uint32_t n) {
  int32_t status = check_frequency_array(out, n, dim, odd_dim, PE_ERR_ARGUMENT);
  if (status != PE_OK)
    return status;
  double h = (double)(dim / 2);

  switch (schedule) {
  case PE_SCHEDULE_PAPER:
    if (!isfinite(base) || !(base > 1))
      return PE_ERR_BASE;
    paper_frequencies(base, dim, out, n);
    return PE_OK;
  case PE_SCHEDULE_TIMESCALE: {
    if (!isfinite(min_timescale) || !(min_timescale > 0) ||
        !isfinite(max_timescale) || !(max_timescale > 0))
      return PE_ERR_TIMESCALE;
    double increment = pe_log(max_timescale / min_timescale) / fmax(h - 1, 1);
    for (uint32_t i = 0; i < n; i++) {
      out[i] = min_timescale * pe_exp(-(double)i * increment);
      /* maxTimescale far below minTimescale makes the frequencies grow. */
      if (!isfinite(out[i]))
        return PE_ERR_TIMESCALE;
    }
    return PE_OK;
  }
  case PE_SCHEDULE_SHIFTED: {
    if (!isfinite(base) || !(base > 1))
      return PE_ERR_BASE;
    /* Any shift but h computes, as diffusers' get_timestep_embedding does
       (above h the frequencies grow); h divides by zero, and a divisor
       near zero on the wrong side overflows. */
    if (!isfinite(shift) || (n > 0 && h - shift == 0))
      return PE_ERR_SHIFT;
    double log_base = pe_log(base);
    for (uint32_t i = 0; i < n; i++) {
      out[i] = pe_exp(-log_base * (double)i / (h - shift));
      if (!isfinite(out[i]))
        return PE_ERR_SHIFT;
    }
    return PE_OK;
  }
  default:
    return PE_ERR_SCHEDULE;
  }
}

int32_t pe_check_frequencies(const double *omega, uint32_t n, uint32_t dim,
                             int32_t odd_dim) {
  int32_t status =
      check_frequency_array(omega, n, dim, odd_dim, PE_ERR_FREQUENCIES);
  if (status != PE_OK)
    return status;
  /* w * 0 is 0 for a finite w and NaN otherwise: one test for them all. */
  v128_t zero = wasm_f64x2_splat(0), sum = zero;
  uint32_t i = 0;
  for (; i + 2 <= n; i += 2)
    sum = wasm_f64x2_add(sum, wasm_f64x2_mul(wasm_v128_load(omega + i), zero));
  double total = wasm_f64x2_extract_lane(sum, 0) +
                 wasm_f64x2_extract_lane(sum, 1) + (i < n ? omega[i] * 0 : 0);
  return total == 0 ? PE_OK : PE_ERR_FREQUENCIES;
}
