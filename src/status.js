// Turns a status code of the C core into an exception. The codes, their
// error classes and messages come from the C header (src/core/status.h); the
// JS layer validates first, so these are a second line of defence.
import { STATUS } from "sinusoidal-pe-constants";
import { rangeError, typeError } from "./options.js";

export function check(status, where) {
  if (status === 0) return;
  const known = STATUS[status];
  if (known === undefined)
    throw rangeError(`${where}: unexpected status ${status}`);
  const make = known.error === "TypeError" ? typeError : rangeError;
  throw make(`${where}: ${known.message}`);
}
