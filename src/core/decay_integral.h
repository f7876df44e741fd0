/* The decay integral f(x) = int_0^1 cos(x theta(t)) dt, which the
   relative-only dot product of a sinusoidal encoding approximates:
   sum_i cos(x theta_i) ~ (d/2) f(x). f is even and f(0) = 1. */
#ifndef PE_DECAY_INTEGRAL_H
#define PE_DECAY_INTEGRAL_H

#include <stdint.h>

#include "bounds.h"
#include "enums.h"
#include "status.h"

/* Closed form of f at the n points x, written to out.
   base is read for PE_THETA_EXP only, alpha for PE_THETA_POWER only.
   Errors (every input is checked before anything is written, so on error
   the outputs are untouched):
     PE_ERR_COUNT      n > PE_MAX_COUNT
     PE_ERR_THETA      unknown theta
     PE_ERR_ALPHA      alpha not finite or below PE_DECAY_MIN_ALPHA
     PE_ERR_BASE       base not finite or <= 1
     PE_ERR_NULL       x or out null or not 8-byte aligned (when n > 0)
     PE_ERR_POSITIONS  some x[i] not finite
   out may alias x. Accuracy (absolute, against mpmath): within 1e-13 for
   the exp family with base in [1.0001, 1e8] and |x| <= 1e6, within 1e-10
   for the power family with alpha in [0.25, 4] and |x| <= 1e5 (measured:
   ~1e-15 and ~1e-14). For alpha < 1/16 and 7 < |x| < 2/alpha the power
   family falls back to the quadrature below, whose cost grows with |x|. */
PE_EXPORT int32_t pe_decay_integral(int32_t theta, double base, double alpha,
                                    const double *x, uint32_t n, double *out);

/* Independent estimate by adaptive Gauss-Kronrod quadrature in t over panels
   of a quarter oscillation, with a bound on its error per point
   (|Gauss - Kronrod| per panel plus a bound on rounding, which dominates:
   about |x| * 1e-15, far above the actual error). Cost grows linearly with
   |x|, about 2 ms per point at |x| = 1e4. Same errors as pe_decay_integral,
   plus PE_ERR_ARGUMENT when |x[i]| > PE_DECAY_QUADRATURE_MAX_X; values and
   errors may not alias each other. */
PE_EXPORT int32_t pe_decay_integral_quadrature(int32_t theta, double base,
                                               double alpha, const double *x,
                                               uint32_t n, double *values,
                                               double *errors);

/* theta(t_i) at t_i = 2i/dim, i < n = floor(dim/2): the frequencies whose
   sum_i cos(x theta_i) the integral approximates as (dim/2) f(x). For the
   exp family these are the paper schedule base^(-2i/dim). Errors as
   pe_decay_integral, plus PE_ERR_DIM (dim < 1 or > PE_MAX_DIM) and
   PE_ERR_ARGUMENT (n != floor(dim/2)). */
PE_EXPORT int32_t pe_decay_frequencies(int32_t theta, double base, double alpha,
                                       uint32_t dim, double *out, uint32_t n);

#endif
