#include "frequencies.h"

#include <math.h>
#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>

#include "status.h"

int32_t pe_frequency_count(uint32_t dim, int32_t odd_dim) {
  if (dim < 1 || dim > PE_MAX_DIM)
    return -PE_ERR_DIM;
  if (!PE_IN_ENUM(odd_dim, PE_ODD_DIM_COUNT))
    return -PE_ERR_ODD_DIM;
  if (dim % 2 == 1 && odd_dim == PE_ODD_ERROR)
    return -PE_ERR_ODD_DIM;
  return (int32_t)(dim / 2 + (dim % 2 == 1 && odd_dim == PE_ODD_EXTRA_SIN));
}

int32_t pe_frequencies(int32_t schedule, uint32_t dim, int32_t odd_dim,
                       double base, double min_timescale, double max_timescale,
                       double shift, double *out, uint32_t n) {
  int32_t count = pe_frequency_count(dim, odd_dim);
  if (count < 0)
    return -count;
  if ((uint32_t)count != n)
    return PE_ERR_ARGUMENT;
  if (n > 0 && (out == NULL || !pe_is_aligned(out, alignof(double))))
    return PE_ERR_NULL;
  double h = (double)(dim / 2);

  switch (schedule) {
  case PE_SCHEDULE_PAPER:
    if (!isfinite(base) || !(base > 1))
      return PE_ERR_BASE;
    for (uint32_t i = 0; i < n; i++)
      out[i] = pow(base, -(double)(2 * (uint64_t)i) / (double)dim);
    return PE_OK;
  case PE_SCHEDULE_TIMESCALE: {
    if (!isfinite(min_timescale) || !(min_timescale > 0) ||
        !isfinite(max_timescale) || !(max_timescale > 0))
      return PE_ERR_TIMESCALE;
    double increment = log(max_timescale / min_timescale) / fmax(h - 1, 1);
    for (uint32_t i = 0; i < n; i++) {
      out[i] = min_timescale * exp(-(double)i * increment);
      /* maxTimescale far below minTimescale makes the frequencies grow. */
      if (!isfinite(out[i]))
        return PE_ERR_TIMESCALE;
    }
    return PE_OK;
  }
  case PE_SCHEDULE_SHIFTED: {
    if (!isfinite(base) || !(base > 1))
      return PE_ERR_BASE;
    if (!isfinite(shift) || !(h - shift > 0))
      return n == 0 && isfinite(shift) ? PE_OK : PE_ERR_SHIFT;
    double log_base = log(base);
    for (uint32_t i = 0; i < n; i++)
      out[i] = exp(-log_base * (double)i / (h - shift));
    return PE_OK;
  }
  default:
    return PE_ERR_SCHEDULE;
  }
}

int32_t pe_check_frequencies(const double *omega, uint32_t n, uint32_t dim,
                             int32_t odd_dim) {
  int32_t count = pe_frequency_count(dim, odd_dim);
  if (count < 0)
    return -count;
  if ((uint32_t)count != n)
    return PE_ERR_FREQUENCIES;
  if (n > 0 && (omega == NULL || !pe_is_aligned(omega, alignof(double))))
    return PE_ERR_NULL;
  for (uint32_t i = 0; i < n; i++)
    if (!isfinite(omega[i]))
      return PE_ERR_FREQUENCIES;
  return PE_OK;
}
