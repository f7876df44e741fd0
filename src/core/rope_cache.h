/* cos/sin caches of rotary embeddings for inference runtimes: rows of
   positions, columns in the layout a runtime consumes, values multiplied by
   the attention factor and rounded once to float32, float64 or float16. */
#ifndef PE_ROPE_CACHE_H
#define PE_ROPE_CACHE_H

#include <stdint.h>

#include "enums.h"
#include "status.h"

/* Writes cos and sin of position * inv_freq[i], times attention, for rows at
   positions[row], or at start + row when positions is null. n = dim/2
   inverse frequencies (from pe_rope_frequencies, or any finite ones). */
PE_EXPORT int32_t pe_rope_cache(void *cos_out, void *sin_out, int32_t dtype,
                                int32_t layout, const double *positions,
                                uint32_t count, double start,
                                const double *inv_freq, uint32_t n,
                                double attention);

#endif
