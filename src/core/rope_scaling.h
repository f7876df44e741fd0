/* RoPE context extension: the inverse frequencies and attention factor of
   each rope type of Hugging Face transformers (modeling_rope_utils.py),
   computed in float64. Every kernel that takes `omega` can take them. */
#ifndef PE_ROPE_SCALING_H
#define PE_ROPE_SCALING_H

#include <stdint.h>

#include "enums.h"
#include "status.h"

/* Indices into the parameter array. Which parameters are given is a
   bitmask of its own (bit k for parameter k): no value stands for absent,
   and a given NaN is refused. */
enum pe_rope_parameter {
  PE_ROPE_FACTOR = 0,
  PE_ROPE_MAX_POSITION_EMBEDDINGS = 1,
  PE_ROPE_SEQ_LEN = 2,
  PE_ROPE_ORIGINAL_MAX_POSITION_EMBEDDINGS = 3,
  PE_ROPE_BETA_FAST = 4,
  PE_ROPE_BETA_SLOW = 5,
  PE_ROPE_ATTENTION_FACTOR = 6,
  PE_ROPE_MSCALE = 7,
  PE_ROPE_MSCALE_ALL_DIM = 8,
  PE_ROPE_TRUNCATE = 9, /* 0 or 1; absent means 1 */
  PE_ROPE_LOW_FREQ_FACTOR = 10,
  PE_ROPE_HIGH_FREQ_FACTOR = 11,
  PE_ROPE_PARTIAL_ROTARY_FACTOR = 12,
  PE_ROPE_PARAMETERS = 13, /* length of the array */
};

/* longrope's per-pair factor lists, passed apart from the parameter array
   (numbered after its slots, so that one table names every parameter). */
enum pe_rope_factor_list {
  PE_ROPE_SHORT_FACTOR = PE_ROPE_PARAMETERS,
  PE_ROPE_LONG_FACTOR = PE_ROPE_PARAMETERS + 1,
};

/* The parameters each rope type takes, in the order messages list them,
   and whether the type requires it: X(type, parameter, required). A type
   refuses every parameter not listed for it. JS reads the same table
   (generated from this file) to name what a type takes and requires. Two
   rules of presence are the types' own: yarn needs originalMaxPosition-
   Embeddings or maxPositionEmbeddings, and longrope a factor, an
   originalMaxPositionEmbeddings or an attentionFactor. */
#define PE_ROPE_PARAMETER_TABLE(X)                                             \
  X(PE_ROPE_LINEAR, PE_ROPE_FACTOR, 1)                                         \
  X(PE_ROPE_DYNAMIC, PE_ROPE_FACTOR, 1)                                        \
  X(PE_ROPE_DYNAMIC, PE_ROPE_MAX_POSITION_EMBEDDINGS, 1)                       \
  X(PE_ROPE_DYNAMIC, PE_ROPE_SEQ_LEN, 0)                                       \
  X(PE_ROPE_YARN, PE_ROPE_FACTOR, 1)                                           \
  X(PE_ROPE_YARN, PE_ROPE_ORIGINAL_MAX_POSITION_EMBEDDINGS, 0)                 \
  X(PE_ROPE_YARN, PE_ROPE_MAX_POSITION_EMBEDDINGS, 0)                          \
  X(PE_ROPE_YARN, PE_ROPE_BETA_FAST, 0)                                        \
  X(PE_ROPE_YARN, PE_ROPE_BETA_SLOW, 0)                                        \
  X(PE_ROPE_YARN, PE_ROPE_ATTENTION_FACTOR, 0)                                 \
  X(PE_ROPE_YARN, PE_ROPE_MSCALE, 0)                                           \
  X(PE_ROPE_YARN, PE_ROPE_MSCALE_ALL_DIM, 0)                                   \
  X(PE_ROPE_YARN, PE_ROPE_TRUNCATE, 0)                                         \
  X(PE_ROPE_LONGROPE, PE_ROPE_SHORT_FACTOR, 1)                                 \
  X(PE_ROPE_LONGROPE, PE_ROPE_LONG_FACTOR, 1)                                  \
  X(PE_ROPE_LONGROPE, PE_ROPE_FACTOR, 0)                                       \
  X(PE_ROPE_LONGROPE, PE_ROPE_MAX_POSITION_EMBEDDINGS, 1)                      \
  X(PE_ROPE_LONGROPE, PE_ROPE_ORIGINAL_MAX_POSITION_EMBEDDINGS, 0)             \
  X(PE_ROPE_LONGROPE, PE_ROPE_ATTENTION_FACTOR, 0)                             \
  X(PE_ROPE_LONGROPE, PE_ROPE_SEQ_LEN, 0)                                      \
  X(PE_ROPE_LLAMA3, PE_ROPE_FACTOR, 1)                                         \
  X(PE_ROPE_LLAMA3, PE_ROPE_LOW_FREQ_FACTOR, 1)                                \
  X(PE_ROPE_LLAMA3, PE_ROPE_HIGH_FREQ_FACTOR, 1)                               \
  X(PE_ROPE_LLAMA3, PE_ROPE_ORIGINAL_MAX_POSITION_EMBEDDINGS, 1)               \
  X(PE_ROPE_PROPORTIONAL, PE_ROPE_FACTOR, 0)                                   \
  X(PE_ROPE_PROPORTIONAL, PE_ROPE_PARTIAL_ROTARY_FACTOR, 0)

/* Writes the dim/2 inverse frequencies of the rope type into out and its
   attention factor (the multiplier of cos and sin) into *attention. dim is
   the rotary dim, even and >= 2; params holds PE_ROPE_PARAMETERS values,
   of which those with their bit set in `given` are read; factors holds
   longrope's short then long factors (dim/2 each, n_factors = dim) and is
   empty for the other types. */
PE_EXPORT int32_t pe_rope_frequencies(int32_t type, uint32_t dim, double base,
                                      const double *params, uint32_t n_params,
                                      uint32_t given, const double *factors,
                                      uint32_t n_factors, double *out,
                                      uint32_t n, double *attention);

/* Inputs the source computes with only a logged warning: a factor below 1;
   YaRN's betaFast below betaSlow (the ramp runs backwards); Llama 3's
   highFreqFactor not above lowFreqFactor (no band is smoothed). */
#define PE_ROPE_WARNING_LIST(X)                                                \
  X(PE_WARN_ROPE_FACTOR_BELOW_ONE,                                             \
    "scaling.factor is below 1: transformers computes it but logs that it "    \
    "must be >= 1 (the frequencies grow instead of shrinking)")                \
  X(PE_WARN_ROPE_BETA_ORDER,                                                   \
    "scaling.betaFast is below scaling.betaSlow: transformers computes it "    \
    "but logs that betaFast must be greater (the ramp runs backwards)")        \
  X(PE_WARN_ROPE_FREQ_ORDER,                                                   \
    "scaling.highFreqFactor is not above scaling.lowFreqFactor: "              \
    "transformers computes it but logs that it must be greater (no band is "   \
    "smoothed)")

#define PE_ENUMERATOR(name, message) name,
enum pe_rope_warning { PE_ROPE_WARNING_LIST(PE_ENUMERATOR) };
#undef PE_ENUMERATOR

/* Bit w set for each pe_rope_warning w that the type's parameters raise (0
   for arguments pe_rope_frequencies would refuse outright). */
PE_EXPORT uint32_t pe_rope_warnings(int32_t type, const double *params,
                                    uint32_t n_params, uint32_t given);

#endif
