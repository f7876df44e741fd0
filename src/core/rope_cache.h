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

/* M-RoPE: the position stream (0 t, 1 h, 2 w) of each of the n pairs,
   from mrope_section = (s0, s1, s2), integers summing to n. Chunked
   (Qwen2-VL's apply_multimodal_rotary_pos_emb): pairs below s0 take t,
   below s0 + s1 h, the rest w. Interleaved (Qwen3-VL's
   apply_interleaved_mrope): t, except pairs 1, 4, 7, ... below 3 s1 take h
   and pairs 2, 5, 8, ... below 3 s2 take w. */
PE_EXPORT int32_t pe_mrope_streams(double s0, double s1, double s2,
                                   int32_t interleaved, uint8_t *streams,
                                   uint32_t n);

/* pe_rope_cache with a position per stream: row j of pair i is at
   positions[streams[i] * count + j] (positions holds the t, then the h,
   then the w stream, count each). */
PE_EXPORT int32_t pe_rope_cache_streams(void *cos_out, void *sin_out,
                                        int32_t dtype, int32_t layout,
                                        const double *positions, uint32_t count,
                                        const uint8_t *streams,
                                        const double *inv_freq, uint32_t n,
                                        double attention);

#endif
