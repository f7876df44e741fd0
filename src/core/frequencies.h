/* Frequency schedules: the one definition of the angular frequencies w_i of
   every table, rotation and dot product. */
#ifndef PE_FREQUENCIES_H
#define PE_FREQUENCIES_H

#include <stdint.h>

#include "bounds.h"
#include "enums.h"
#include "status.h"

/* Number of frequencies a table of this shape uses: floor(d/2), or ceil(d/2)
   for odd d with PE_ODD_EXTRA_SIN. Returns a negative pe_status on error. */
PE_EXPORT int32_t pe_frequency_count(uint32_t dim, int32_t odd_dim);

/* Writes the n frequencies of the schedule; n must equal
   pe_frequency_count(dim, odd_dim). */
PE_EXPORT int32_t pe_frequencies(int32_t schedule, uint32_t dim,
                                 int32_t odd_dim, double base,
                                 double min_timescale, double max_timescale,
                                 double shift, double *out, uint32_t n);

/* Checks an explicit frequency array: n entries, all finite. */
PE_EXPORT int32_t pe_check_frequencies(const double *omega, uint32_t n,
                                       uint32_t dim, int32_t odd_dim);

#endif
