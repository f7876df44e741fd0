/* Status codes shared by every exported function. The C core owns every
   rule on values: it validates all of its arguments itself, and the JS
   layer, generated from this list, turns a status into the error class and
   message of its option and rule. */
#ifndef PE_STATUS_H
#define PE_STATUS_H

/* Marks a function the wasm module exports to JS. */
#ifdef __EMSCRIPTEN__
#include <emscripten/emscripten.h>
#define PE_EXPORT EMSCRIPTEN_KEEPALIVE
#else
#define PE_EXPORT
#endif

/* X(name, code, JS error class, option, rule). Codes are consecutive from
   0. `option` is the path of the option a status is about ("base",
   "scaling.factor"), several separated by spaces, or "" for none; `rule`
   states what the option must be, so that JS can say it with the function's
   name and the value the caller gave: `option "base" must be a finite
   number > 1, got 1`. Without an option, `rule` is the whole message. */
#define PE_STATUS_LIST(X)                                                      \
  X(PE_OK, 0, NONE, "", "")                                                    \
  X(PE_ERR_NULL, 1, TYPE, "", "a buffer pointer is null or misaligned")        \
  X(PE_ERR_DIM, 2, RANGE, "dim", "must be an integer in [1, 1048576]")         \
  X(PE_ERR_BASE, 3, RANGE, "base", "must be a finite number > 1")              \
  X(PE_ERR_LAYOUT, 4, RANGE, "layout", "must be one of the listed layouts")    \
  X(PE_ERR_SCHEDULE, 5, RANGE, "schedule",                                     \
    "must be one of the listed schedules")                                     \
  X(PE_ERR_ODD_DIM, 6, RANGE, "dim oddDim",                                    \
    "must be an even dim, or an odd dim with oddDim \"zero-pad\" or "          \
    "\"extra-sin\"")                                                           \
  X(PE_ERR_POSITIONS, 7, RANGE, "positions",                                   \
    "must be finite, and position × frequency too")                            \
  X(PE_ERR_FREQUENCIES, 8, RANGE, "frequencies",                               \
    "must hold one finite number per frequency of dim")                        \
  X(PE_ERR_SCALE, 9, RANGE, "scale",                                           \
    "must be a finite number, and scale × frequency too")                      \
  X(PE_ERR_TIMESCALE, 10, RANGE, "minTimescale maxTimescale",                  \
    "must be finite numbers > 0 that give finite frequencies")                 \
  X(PE_ERR_SHIFT, 11, RANGE, "shift",                                          \
    "must be finite, differ from floor(dim / 2) (the divisor is floor(dim / "  \
    "2) - shift) and give finite frequencies")                                 \
  X(PE_ERR_SIZE, 12, RANGE, "",                                                \
    "the result does not fit in the module's 4 GiB memory")                    \
  X(PE_ERR_COUNT, 13, RANGE, "", "a count is out of range")                    \
  X(PE_ERR_ARGUMENT, 14, RANGE, "", "an argument is out of range")             \
  X(PE_ERR_OFFSETS, 15, RANGE, "offsets",                                      \
    "must be finite, and offset × frequency too")                              \
  X(PE_ERR_PAIRING, 16, RANGE, "pairing",                                      \
    "must be one of the listed pairings, with a partner for every column (an " \
    "even dim)")                                                               \
  X(PE_ERR_THETA, 17, RANGE, "theta", "must be one of the listed families")    \
  X(PE_ERR_ALPHA, 18, RANGE, "alpha", "must be a finite number >= 1/1024")     \
  X(PE_ERR_OUTPUT_SCALE, 19, RANGE, "outputScale",                             \
    "must be a finite number whose values fit the result (float32: within "    \
    "±3.4028234663852886e38; dot products: a finite square)")                  \
  X(PE_ERR_ROPE_TYPE, 20, RANGE, "scaling.type",                               \
    "must be one of the listed rope types")                                    \
  X(PE_ERR_ROPE_PARAMETER, 21, TYPE, "scaling",                                \
    "must hold only the parameters its type takes")                            \
  X(PE_ERR_ROPE_FACTOR, 22, RANGE, "scaling.factor",                           \
    "must be a finite number > 0 with a finite reciprocal")                    \
  X(PE_ERR_ROPE_MAX_LENGTH, 23, RANGE, "scaling.maxPositionEmbeddings",        \
    "must be an integer in [1, 9007199254740991]")                             \
  X(PE_ERR_ROPE_SEQ_LEN, 24, RANGE, "scaling.seqLen",                          \
    "must be an integer in [0, 9007199254740991]")                             \
  X(PE_ERR_ROPE_ORIGINAL, 25, RANGE, "scaling.originalMaxPositionEmbeddings",  \
    "must be an integer in [1, 9007199254740991], and > 1 where longrope "     \
    "divides by its logarithm")                                                \
  X(PE_ERR_ROPE_BETA, 26, RANGE, "scaling.betaFast scaling.betaSlow",          \
    "must be finite numbers > 0")                                              \
  X(PE_ERR_ROPE_ATTENTION, 27, RANGE, "scaling.attentionFactor",               \
    "must be a finite number > 0 that fits the dtype")                         \
  X(PE_ERR_ROPE_MSCALE, 28, RANGE, "scaling.mscale scaling.mscaleAllDim",      \
    "must be finite numbers >= 0 that give a finite attention factor > 0")     \
  X(PE_ERR_ROPE_TRUNCATE, 29, TYPE, "scaling.truncate",                        \
    "must be true or false")                                                   \
  X(PE_ERR_ROPE_FREQ_FACTOR, 30, RANGE,                                        \
    "scaling.lowFreqFactor scaling.highFreqFactor",                            \
    "must be finite numbers > 0")                                              \
  X(PE_ERR_ROPE_SHORT_FACTOR, 31, RANGE, "scaling.shortFactor",                \
    "must hold rotaryDim / 2 numbers > 0 with finite reciprocals")             \
  X(PE_ERR_ROPE_LONG_FACTOR, 32, RANGE, "scaling.longFactor",                  \
    "must hold rotaryDim / 2 numbers > 0 with finite reciprocals")             \
  X(PE_ERR_DTYPE, 33, RANGE, "dtype", "must be one of the listed dtypes")      \
  X(PE_ERR_ROPE_PARTIAL, 34, RANGE, "scaling.partialRotaryFactor",             \
    "must be a finite number in [0, 1]")                                       \
  X(PE_ERR_MROPE_SECTION, 35, RANGE, "mropeSection",                           \
    "must hold 3 integers >= 0 summing to rotaryDim / 2")                      \
  X(PE_ERR_MROPE_STREAM, 36, RANGE, "",                                        \
    "a pair's position stream must be 0 (t), 1 (h) or 2 (w)")                  \
  X(PE_ERR_ROTARY_DIM, 37, RANGE, "rotaryDim dim",                             \
    "must give a rotary part (the whole head when no rotary dim is given) "    \
    "that is even, >= 2 and <= the head dim")                                  \
  X(PE_ERR_HEADS, 38, RANGE, "heads", "must be >= 1 and divide the rows")      \
  X(PE_ERR_ROPE_DYNAMIC_BASE, 39, RANGE, "scaling.factor scaling.seqLen",      \
    "must give a finite dynamic base, base * (factor * length / "              \
    "maxPositionEmbeddings - (factor - 1))^(dim / (dim - 2))")                 \
  X(PE_ERR_ROPE_LONGROPE_LENGTH, 40, RANGE, "scaling.maxPositionEmbeddings",   \
    "must be > 1 for rope type \"longrope\" with a factor > 1 but no "         \
    "originalMaxPositionEmbeddings or attentionFactor (it divides by its "     \
    "logarithm)")                                                              \
  X(PE_ERR_ROPE_DYNAMIC_DIM, 41, RANGE, "rotaryDim",                           \
    "must be >= 4 for rope type \"dynamic\" (its exponent is rotaryDim / "     \
    "(rotaryDim - 2); rotaryDim defaults to dim)")                             \
  X(PE_ERR_QUADRATURE_X, 42, RANGE, "x",                                       \
    "must stay within |x| <= 1000000 for the quadrature")                      \
  X(PE_ERR_CI_X, 43, RANGE, "x",                                               \
    "must be > 0 (Ci is real only for positive x)")                            \
  X(PE_ERR_NO_PARTNER, 44, RANGE, "dim oddDim",                                \
    "must be an even dim, or an odd dim with oddDim \"zero-pad\" (an "         \
    "\"extra-sin\" column has no partner for R(k) to turn it with)")

enum pe_status {
#define PE_STATUS_ENUMERATOR(name, code, error, option, rule) name = code,
  PE_STATUS_LIST(PE_STATUS_ENUMERATOR)
#undef PE_STATUS_ENUMERATOR
};

/* The number of status codes. */
#define PE_STATUS_ONE(name, code, error, option, rule) +1
enum { PE_STATUS_COUNT = 0 PE_STATUS_LIST(PE_STATUS_ONE) };
#undef PE_STATUS_ONE

#endif
