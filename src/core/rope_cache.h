/* cos/sin caches of rotary embeddings for inference runtimes: rows of
   positions, columns in the layout a runtime consumes, values multiplied by
   the attention factor and rounded once to float32, float64 or float16. */
#ifndef PE_ROPE_CACHE_H
#define PE_ROPE_CACHE_H

#include <stdint.h>

#include "status.h"

enum pe_rope_layout {
  PE_ROPE_HALF = 0,        /* [n, dim/2]: onnxruntime's cos_cache/sin_cache */
  PE_ROPE_DUPLICATED = 1,  /* [n, dim]: cat(freqs, freqs), as HF returns */
  PE_ROPE_INTERLEAVED = 2, /* [n, dim]: each value twice (GPT-J, RoFormer) */
};

enum pe_dtype {
  PE_DTYPE_FLOAT32 = 0,
  PE_DTYPE_FLOAT64 = 1,
  PE_DTYPE_FLOAT16 = 2, /* IEEE half bits in uint16 */
};

/* Writes cos and sin of position * inv_freq[i], times attention, for rows at
   positions[row], or at start + row when positions is null. n = dim/2
   inverse frequencies (from pe_rope_frequencies, or any finite ones). */
PE_EXPORT int32_t pe_rope_cache(void *cos_out, void *sin_out, int32_t dtype,
                                int32_t layout, const double *positions,
                                uint32_t count, double start,
                                const double *inv_freq, uint32_t n,
                                double attention);

#endif
