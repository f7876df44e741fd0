/* Status codes shared by every exported function. The C core validates all
   of its arguments itself; the JS layer maps a code to a TypeError or a
   RangeError naming the option. */
#ifndef PE_STATUS_H
#define PE_STATUS_H

/* Marks a function the wasm module exports to JS. */
#ifdef __EMSCRIPTEN__
#include <emscripten/emscripten.h>
#define PE_EXPORT EMSCRIPTEN_KEEPALIVE
#else
#define PE_EXPORT
#endif

enum pe_status {
  PE_OK = 0,
  PE_ERR_NULL = 1,        /* a required pointer is null or misaligned */
  PE_ERR_DIM = 2,         /* dim < 1 or above PE_MAX_DIM */
  PE_ERR_BASE = 3,        /* base not finite or <= 1 */
  PE_ERR_LAYOUT = 4,      /* unknown layout */
  PE_ERR_SCHEDULE = 5,    /* unknown schedule */
  PE_ERR_ODD_DIM = 6,     /* unknown odd-dim rule, or odd dim under "error" */
  PE_ERR_POSITIONS = 7,   /* a position (or start) is not finite */
  PE_ERR_FREQUENCIES = 8, /* explicit frequencies: wrong count or not finite */
  PE_ERR_SCALE = 9,       /* angle scale not finite */
  PE_ERR_TIMESCALE = 10,  /* min/max timescale not finite or <= 0 */
  PE_ERR_SHIFT = 11,      /* shift not finite or h - shift <= 0 */
  PE_ERR_SIZE = 12,       /* result does not fit in wasm32 memory */
  PE_ERR_COUNT = 13,      /* count of rows or points out of range */
  PE_ERR_ARGUMENT = 14,   /* any other out-of-range argument */
  PE_ERR_OFFSETS = 15,    /* an offset is not finite, or offset * w is not */
  PE_ERR_PAIRING = 16,    /* unknown pairing, or a column without a partner */
  /* RoPE scaling parameters, one code each so errors can name them. */
  PE_ERR_ROPE_TYPE = 17,        /* unknown rope type */
  PE_ERR_ROPE_PARAMETER = 18,   /* a parameter the rope type does not take */
  PE_ERR_ROPE_FACTOR = 19,      /* factor missing, not finite or < 1 */
  PE_ERR_ROPE_MAX_LENGTH = 20,  /* maxPositionEmbeddings missing or < 1 */
  PE_ERR_ROPE_SEQ_LEN = 21,     /* seqLen not finite or < 0 */
  PE_ERR_ROPE_ORIGINAL = 22,    /* originalMaxPositionEmbeddings out of range */
  PE_ERR_ROPE_BETA = 23,        /* betaFast/betaSlow not > 0, or fast < slow */
  PE_ERR_ROPE_ATTENTION = 24,   /* attentionFactor not finite and > 0 */
  PE_ERR_ROPE_MSCALE = 25,      /* mscale/mscaleAllDim not finite and >= 0 */
  PE_ERR_ROPE_TRUNCATE = 26,    /* truncate neither 0 nor 1 */
  PE_ERR_ROPE_FREQ_FACTOR = 27, /* low/highFreqFactor not > 0, or high <= low */
  PE_ERR_ROPE_SHORT_FACTOR = 28, /* shortFactor: wrong count or not > 0 */
  PE_ERR_ROPE_LONG_FACTOR = 29,  /* longFactor: wrong count or not > 0 */
  PE_ERR_DTYPE = 30,             /* unknown dtype */
};

#endif
