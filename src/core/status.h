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
};

#endif
