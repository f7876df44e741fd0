// The one registry of the library's error codes, as callers read it: each
// code an error carries, mapped to its error class ("TypeError",
// "RangeError" or "Error") and what it says is wrong. It is made once, at
// load, from the C core's statuses (src/core/status.h: a status's code is
// its name, its description what its options must be) and the rules only
// JS checks (src/core/error_codes.js); a rule has one code whichever side
// detects it.
import { JS_RULES, STATUS, STATUS_NAMES } from "sinusoidal-pe-constants";

const entry = (error, description) => Object.freeze({ error, description });

function statusEntry({ error, options, rule }) {
  if (options.length === 0) return entry(error, rule);
  const quoted = options.map((path) => `"${path}"`).join(" and ");
  const noun = options.length === 1 ? "option" : "options";
  return entry(error, `${noun} ${quoted} ${rule}`);
}

export const errorCodes = Object.freeze(
  Object.fromEntries([
    ...STATUS.slice(1).map((status, i) => [
      STATUS_NAMES[i + 1].replace(/^PE_/, ""),
      statusEntry(status),
    ]),
    ...JS_RULES.map(([code, error, description]) => [
      code,
      entry(error, description),
    ]),
  ]),
);
