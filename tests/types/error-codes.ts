// The registry of error codes as a TypeScript caller meets it: `code` is a
// union of the registry's codes, so a misspelt code fails to compile, and
// the registry maps each code to its class and description.
import {
  errorCodes,
  type ErrorCode,
  type ErrorCodeEntry,
  type InputErrorFields,
} from "sinusoidal-pe";
import { errorCodes as slimCodes } from "sinusoidal-pe/slim";

function ruleOf(error: unknown): string {
  const { code } = error as InputErrorFields;
  if (code === "ERR_DIM") return "dim out of range";
  // @ts-expect-error: no code is spelt "ERR_DIMM"
  if (code === "ERR_DIMM") return "never";
  const entry: ErrorCodeEntry = errorCodes[code];
  return `${entry.error}: ${entry.description}`;
}

const base: ErrorCode = "ERR_BASE";
// @ts-expect-error: ERR_TOO_LARGE is no code (a result too large is ERR_SIZE)
const gone: ErrorCode = "ERR_TOO_LARGE";
const kind: "TypeError" | "RangeError" | "Error" = slimCodes.ERR_DISPOSED.error;
// @ts-expect-error: the registry is read-only
errorCodes.ERR_BASE = { error: "Error", description: "" };

export { ruleOf, base, gone, kind };
