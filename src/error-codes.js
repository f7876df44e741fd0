// The one registry of the library's error codes, as callers read it: each
// code an error carries, mapped to its error class ("TypeError",
// "RangeError" or "Error") and what it says is wrong. Generated from the C
// core's statuses (src/core/status.h) and the rules only JS checks
// (src/core/error_codes.js); a rule has one code whichever side detects it.
import { ERROR_CODES } from "sinusoidal-pe-constants";

export const errorCodes = ERROR_CODES;
