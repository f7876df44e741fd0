/* Frequency schedules: the one definition of the angular frequencies w_i of
   every table, rotation and dot product. */
#ifndef PE_FREQUENCIES_H
#define PE_FREQUENCIES_H

#include <stdint.h>

#include "bounds.h"
#include "enums.h"
#include "status.h"

/* *count = the number of frequencies a table of this shape uses: floor(d/2),
   or ceil(d/2) for odd d with PE_ODD_EXTRA_SIN. */
int32_t pe_frequency_count(uint32_t dim, int32_t odd_dim, uint32_t *count);

/* Writes the n frequencies of the schedule; n must be their count. The paper
   schedule's base^(-2i/d) is correctly rounded (computed to about 2^-100,
   so only a value that close to a rounding boundary could round the other
   way), except below 2^-1022 where doubles lose precision. */
PE_EXPORT int32_t pe_frequencies(int32_t schedule, uint32_t dim,
                                 int32_t odd_dim, double base,
                                 double min_timescale, double max_timescale,
                                 double shift, double *out, uint32_t n);

/* Checks an explicit frequency array: n entries, all finite. */
int32_t pe_check_frequencies(const double *omega, uint32_t n, uint32_t dim,
                             int32_t odd_dim);

#endif
