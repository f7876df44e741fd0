/* Status codes shared by every exported function. The C core validates all
   of its arguments itself; the JS layer, generated from this list, throws
   the error class and message of a code, prefixed with the function name. */
#ifndef PE_STATUS_H
#define PE_STATUS_H

/* Marks a function the wasm module exports to JS. */
#ifdef __EMSCRIPTEN__
#include <emscripten/emscripten.h>
#define PE_EXPORT EMSCRIPTEN_KEEPALIVE
#else
#define PE_EXPORT
#endif

/* X(name, code, JS error class, message). Codes are consecutive from 0. */
#define PE_STATUS_LIST(X)                                                      \
  X(PE_OK, 0, NONE, "")                                                        \
  X(PE_ERR_NULL, 1, TYPE, "a buffer pointer is null or misaligned")            \
  X(PE_ERR_DIM, 2, RANGE, "option \"dim\" is out of range")                    \
  X(PE_ERR_BASE, 3, RANGE, "option \"base\" must be finite and > 1")           \
  X(PE_ERR_LAYOUT, 4, RANGE, "option \"layout\" is unknown")                   \
  X(PE_ERR_SCHEDULE, 5, RANGE, "option \"schedule\" is unknown")               \
  X(PE_ERR_ODD_DIM, 6, RANGE,                                                  \
    "option \"oddDim\" is unknown, or refuses this odd dim")                   \
  X(PE_ERR_POSITIONS, 7, RANGE,                                                \
    "positions must be finite, and position × frequency too")                  \
  X(PE_ERR_FREQUENCIES, 8, RANGE,                                              \
    "option \"frequencies\" has the wrong length or a non-finite value")       \
  X(PE_ERR_SCALE, 9, RANGE,                                                    \
    "option \"scale\" must be finite, and scale × frequency too")              \
  X(PE_ERR_TIMESCALE, 10, RANGE,                                               \
    "options \"minTimescale\" and \"maxTimescale\" must be finite, > 0 and "   \
    "give finite frequencies")                                                 \
  X(PE_ERR_SHIFT, 11, RANGE,                                                   \
    "option \"shift\" must be finite, differ from floor(dim / 2) (the "        \
    "divisor is floor(dim / 2) - shift) and give finite frequencies")          \
  X(PE_ERR_SIZE, 12, RANGE,                                                    \
    "the result does not fit in the module's 4 GiB memory")                    \
  X(PE_ERR_COUNT, 13, RANGE, "a count is out of range")                        \
  X(PE_ERR_ARGUMENT, 14, RANGE, "an argument is out of range")                 \
  X(PE_ERR_OFFSETS, 15, RANGE,                                                 \
    "offsets must be finite, and offset × frequency too")                      \
  X(PE_ERR_PAIRING, 16, RANGE,                                                 \
    "option \"pairing\" is unknown, or a column has no partner to rotate "     \
    "with (odd dim)")                                                          \
  X(PE_ERR_THETA, 17, RANGE, "option \"theta\" is unknown")                    \
  X(PE_ERR_ALPHA, 18, RANGE, "option \"alpha\" must be finite and >= 1/1024")  \
  X(PE_ERR_OUTPUT_SCALE, 19, RANGE,                                            \
    "option \"outputScale\" must be finite, and fit the output type")          \
  X(PE_ERR_ROPE_TYPE, 20, RANGE, "option \"scaling.type\" is unknown")         \
  X(PE_ERR_ROPE_PARAMETER, 21, TYPE,                                           \
    "option \"scaling\" has a parameter its type does not take")               \
  X(PE_ERR_ROPE_FACTOR, 22, RANGE,                                             \
    "option \"scaling.factor\" must be finite and > 0, with a finite "         \
    "reciprocal")                                                              \
  X(PE_ERR_ROPE_MAX_LENGTH, 23, RANGE,                                         \
    "option \"scaling.maxPositionEmbeddings\" must be finite and >= 1")        \
  X(PE_ERR_ROPE_SEQ_LEN, 24, RANGE,                                            \
    "option \"scaling.seqLen\" must be finite and >= 0")                       \
  X(PE_ERR_ROPE_ORIGINAL, 25, RANGE,                                           \
    "option \"scaling.originalMaxPositionEmbeddings\" is out of range")        \
  X(PE_ERR_ROPE_BETA, 26, RANGE,                                               \
    "options \"scaling.betaFast\" and \"scaling.betaSlow\" must be finite "    \
    "and > 0")                                                                 \
  X(PE_ERR_ROPE_ATTENTION, 27, RANGE,                                          \
    "option \"scaling.attentionFactor\" must be finite, > 0 and fit the "      \
    "dtype")                                                                   \
  X(PE_ERR_ROPE_MSCALE, 28, RANGE,                                             \
    "options \"scaling.mscale\" and \"scaling.mscaleAllDim\" must be "         \
    "finite and >= 0")                                                         \
  X(PE_ERR_ROPE_TRUNCATE, 29, TYPE,                                            \
    "option \"scaling.truncate\" must be true or false")                       \
  X(PE_ERR_ROPE_FREQ_FACTOR, 30, RANGE,                                        \
    "options \"scaling.lowFreqFactor\" and \"scaling.highFreqFactor\" must "   \
    "be finite, > 0 and differ (the smooth band divides by high - low)")       \
  X(PE_ERR_ROPE_SHORT_FACTOR, 31, RANGE,                                       \
    "option \"scaling.shortFactor\" must hold dim / 2 numbers > 0 with "       \
    "finite reciprocals")                                                      \
  X(PE_ERR_ROPE_LONG_FACTOR, 32, RANGE,                                        \
    "option \"scaling.longFactor\" must hold dim / 2 numbers > 0 with "        \
    "finite reciprocals")                                                      \
  X(PE_ERR_DTYPE, 33, RANGE, "option \"dtype\" is unknown")                    \
  X(PE_ERR_ROPE_PARTIAL, 34, RANGE,                                            \
    "option \"scaling.partialRotaryFactor\" must be finite, >= 0 and <= 1")    \
  X(PE_ERR_MROPE_SECTION, 35, RANGE,                                           \
    "option \"mropeSection\" must hold 3 integers >= 0 summing to "            \
    "rotaryDim / 2")                                                           \
  X(PE_ERR_MROPE_STREAM, 36, RANGE,                                            \
    "a pair's position stream must be 0 (t), 1 (h) or 2 (w)")                  \
  X(PE_ERR_ROTARY_DIM, 37, RANGE,                                              \
    "option \"rotaryDim\" must be even, >= 2 and <= dim")                      \
  X(PE_ERR_HEADS, 38, RANGE,                                                   \
    "option \"heads\" must be >= 1 and divide the rows")                       \
  X(PE_ERR_ROPE_DYNAMIC_BASE, 39, RANGE,                                       \
    "options \"scaling.factor\" and \"scaling.seqLen\" give a dynamic base "   \
    "that overflows (base * (factor * length / maxPositionEmbeddings - "       \
    "(factor - 1))^(dim / (dim - 2)))")

enum pe_status {
#define PE_STATUS_ENUMERATOR(name, code, error, message) name = code,
  PE_STATUS_LIST(PE_STATUS_ENUMERATOR)
#undef PE_STATUS_ENUMERATOR
};

/* The number of status codes. */
#define PE_STATUS_ONE(name, code, error, message) +1
enum { PE_STATUS_COUNT = 0 PE_STATUS_LIST(PE_STATUS_ONE) };
#undef PE_STATUS_ONE

#endif
