/* Cosine and sine integrals, Ci(x) = -int_x^inf cos t / t dt and
   Si(x) = int_0^x sin t / t dt, in double precision. */
#ifndef PE_SPECIAL_FUNCTIONS_H
#define PE_SPECIAL_FUNCTIONS_H

#include <stdint.h>

#include "status.h"

/* Below this argument the Taylor series are used, at and above it the
   auxiliary functions f and g. */
#define PE_CISI_SPLIT 2.0

/* Array forms. Ci is real only for x > 0: x <= 0 gives PE_ERR_ARGUMENT.
   Si accepts any finite x (it is odd). Non-finite x gives PE_ERR_POSITIONS,
   a null or misaligned pointer (when n > 0) PE_ERR_NULL, n > PE_MAX_COUNT
   PE_ERR_COUNT. Every input is checked before anything is written, so on
   error out is untouched. out may alias x. */
PE_EXPORT int32_t pe_ci(const double *x, uint32_t n, double *out);
PE_EXPORT int32_t pe_si(const double *x, uint32_t n, double *out);

/* Scalar forms: Ci(x) for x > 0 (NaN for x <= 0 or NaN, 0 at +inf);
   Si(x) for all x (+-pi/2 at +-inf). */
double pe_ci1(double x);
double pe_si1(double x);

/* Cin(x) = int_0^x (1 - cos t) / t dt = gamma + ln|x| - Ci(|x|), an entire
   even function; free of cancellation for |x| < PE_CISI_SPLIT. */
double pe_cin1(double x);

/* Auxiliary functions for x >= PE_CISI_SPLIT (DLMF 6.2.17-18):
   Ci(x) = f sin x - g cos x, Si(x) = pi/2 - f cos x - g sin x. */
void pe_cisi_aux(double x, double *f, double *g);

#endif
