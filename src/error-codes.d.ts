/**
 * The code of every error the library raises about an input or a plan's
 * use: the `code` of each TypeError or RangeError (and of a plan's use
 * after `dispose()`), one per rule whichever side of the library detects
 * it; and of the module's own failures, Errors (a fetch that failed, a
 * call before `init()`, a fault). `errorCodes` maps each to its error
 * class and what it says is wrong.
 */
export type ErrorCode =
  | "ERR_NULL"
  | "ERR_DIM"
  | "ERR_BASE"
  | "ERR_LAYOUT"
  | "ERR_SCHEDULE"
  | "ERR_ODD_DIM"
  | "ERR_POSITIONS"
  | "ERR_FREQUENCIES"
  | "ERR_SCALE"
  | "ERR_TIMESCALE"
  | "ERR_SHIFT"
  | "ERR_SIZE"
  | "ERR_COUNT"
  | "ERR_ARGUMENT"
  | "ERR_OFFSETS"
  | "ERR_PAIRING"
  | "ERR_THETA"
  | "ERR_ALPHA"
  | "ERR_OUTPUT_SCALE"
  | "ERR_ROPE_TYPE"
  | "ERR_ROPE_PARAMETER"
  | "ERR_ROPE_FACTOR"
  | "ERR_ROPE_MAX_LENGTH"
  | "ERR_ROPE_SEQ_LEN"
  | "ERR_ROPE_ORIGINAL"
  | "ERR_ROPE_BETA"
  | "ERR_ROPE_ATTENTION"
  | "ERR_ROPE_MSCALE"
  | "ERR_ROPE_TRUNCATE"
  | "ERR_ROPE_FREQ_FACTOR"
  | "ERR_ROPE_SHORT_FACTOR"
  | "ERR_ROPE_LONG_FACTOR"
  | "ERR_DTYPE"
  | "ERR_ROPE_PARTIAL"
  | "ERR_MROPE_SECTION"
  | "ERR_MROPE_STREAM"
  | "ERR_ROTARY_DIM"
  | "ERR_HEADS"
  | "ERR_ROPE_DYNAMIC_BASE"
  | "ERR_ROPE_LONGROPE_LENGTH"
  | "ERR_ROPE_DYNAMIC_DIM"
  | "ERR_QUADRATURE_X"
  | "ERR_CI_X"
  | "ERR_NO_PARTNER"
  | "ERR_TYPE"
  | "ERR_NOT_OBJECT"
  | "ERR_NOT_NUMBER"
  | "ERR_NOT_STRING"
  | "ERR_NOT_BOOLEAN"
  | "ERR_NOT_ARRAY"
  | "ERR_NOT_INTEGER"
  | "ERR_NOT_FINITE"
  | "ERR_OUT_OF_RANGE"
  | "ERR_NOT_ONE_OF"
  | "ERR_UNKNOWN_OPTION"
  | "ERR_NOT_APPLICABLE"
  | "ERR_REQUIRED"
  | "ERR_COMBINATION"
  | "ERR_CONFLICT"
  | "ERR_LENGTH"
  | "ERR_TOO_LONG"
  | "ERR_OVERLAP"
  | "ERR_MODULE_MEMORY"
  | "ERR_DETACHED"
  | "ERR_OUT_OF_BOUNDS"
  | "ERR_REVOKED"
  | "ERR_NO_ROPE"
  | "ERR_NPY"
  | "ERR_PRESET_DIM"
  | "ERR_MEMORY"
  | "ERR_DISPOSED"
  | "ERR_RECEIVER"
  | "ERR_FETCH"
  | "ERR_CSP"
  | "ERR_NOT_INITIALIZED"
  | "ERR_FAULT"
  | "ERR_STATUS";

/** What a code says, and the class of the errors that carry it. */
export interface ErrorCodeEntry {
  readonly error: "TypeError" | "RangeError" | "Error";
  readonly description: string;
}

/** Every error code, frozen: its error class and a short description. */
export const errorCodes: Readonly<Record<ErrorCode, ErrorCodeEntry>>;
