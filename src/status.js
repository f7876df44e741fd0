// Turns a status code of the C core, the one owner of the rules on values,
// into an exception. The header (src/core/status.h) names the options a
// status is about and their rule; the message adds the public function and
// the values the caller gave, read from the JS-owned copy of its options.
import { STATUS, STATUS_NAMES } from "sinusoidal-pe-constants";
import { rangeError, show, typeError } from "./options.js";

// The value at a path such as "scaling.factor" in the caller's options.
function valueAt(values, path) {
  let value = values;
  for (const key of path.split(".")) {
    if (
      value === null ||
      typeof value !== "object" ||
      !Object.hasOwn(value, key)
    )
      return undefined;
    value = value[key];
  }
  return value;
}

// ", got 1" or ", got minTimescale = 0, maxTimescale = 1": the values of
// the status's options. Arrays are not repeated in a message, and nothing
// is said when no value is known.
function got(options, values) {
  if (values === undefined || options.length === 0) return "";
  const shown = options.map((path) => {
    const value = valueAt(values, path);
    return value !== null && typeof value === "object"
      ? undefined
      : value === undefined
        ? "nothing"
        : show(value);
  });
  if (shown.every((text) => text === undefined || text === "nothing"))
    return "";
  if (options.length === 1) return `, got ${shown[0]}`;
  // Of several options, those the caller gave.
  const pairs = options
    .map((path, i) => `${path} = ${shown[i] ?? "an array"}`)
    .filter((_, i) => shown[i] !== "nothing");
  return `, got ${pairs.join(", ")}`;
}

/**
 * What a status says without the caller's values: `option "base" must be a
 * finite number > 1`, or the rule alone for a status about no option.
 */
export function statusMessage(status) {
  const { options, rule } = STATUS[status];
  if (options.length === 0) return rule;
  const quoted = options.map((path) => `"${path}"`).join(" and ");
  return `${options.length === 1 ? "option" : "options"} ${quoted} ${rule}`;
}

/**
 * Throws the error of a non-zero status for the public function `where`;
 * `values` are the caller's options (JS-owned, defaults filled in), from
 * which the message takes the value got.
 */
export function check(status, where, values) {
  if (status === 0) return;
  // A call's resolved options describe themselves only for an error.
  if (typeof values?.describe === "function") values = values.describe();
  const known = STATUS[status];
  if (known === undefined)
    throw rangeError(
      `${where}: unexpected status ${status}`,
      undefined,
      "ERR_STATUS",
    );
  const make = known.error === "TypeError" ? typeError : rangeError;
  const message = statusMessage(status) + got(known.options, values);
  // Of a rule on several options, the option is the first the caller gave.
  const option =
    known.options.find((path) => valueAt(values, path) !== undefined) ??
    known.options[0];
  // The rule's code is the C status's name without its prefix: "ERR_BASE".
  throw make(
    `${where}: ${message}`,
    option,
    STATUS_NAMES[status].replace(/^PE_/, ""),
  );
}
