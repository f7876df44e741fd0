// One named wrapper per function the C core exports: each takes an object of
// named arguments and passes them in the order of the C signature, so every
// long positional call is written once, here. Pointers are byte offsets into
// module memory. Besides the C arguments, every call names `api`, the public
// function it serves, and may give `given`, the caller's options (JS-owned):
// `check` turns a status into an exception that names that function, the
// option and its rule, and the value the caller gave.
import { STATUS, STATUS_NAMES } from "sinusoidal-pe-constants";
import { rangeError, show, typeError } from "./options.js";
import { call } from "./runtime.js";

// A status code of the C core, the one owner of the rules on values, becomes
// an exception: the header (src/core/status.h) names the options a status
// is about and their rule; the message adds the public function and the
// values the caller gave, read from the JS-owned copy of its options.
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

// `optional` lists the arguments that may be left out, with their value
// then (0 as a pointer means "not given"). A kernel that is not `checked`
// returns its status for the caller to word.
function kernel(name, parameters, optional = {}, checked = true) {
  // The argument list of a call, filled in place: an export runs no code of
  // the caller's, so no call of the same kernel can begin before it ends.
  const list = new Array(parameters.length);
  return (args) => {
    if (typeof args.api !== "string")
      throw new TypeError(`sinusoidal-pe: ${name} called without its api`);
    for (let i = 0; i < parameters.length; i++) {
      const value = args[parameters[i]];
      list[i] = value === undefined ? optional[parameters[i]] : value;
    }
    const status = call(name, args.api, list);
    if (!checked) return status;
    check(status, args.api, args.given);
  };
}

// The angles x · scale · w_i of a call that writes in blocks, all checked
// before its first block: `xs` a pointer to `count` x, or 0 for start,
// start + 1, ...; `bad` the status of a bad x; `report` a pointer to two
// doubles, the first bad x's index and the largest |scale · w_i|.
export const checkAngles = kernel(
  "pe_check_angles",
  ["xs", "count", "start", "omega", "pairs", "scale", "bad", "report"],
  { xs: 0, start: 0 },
  false,
);

export const frequencies = kernel("pe_frequencies", [
  "schedule",
  "dim",
  "oddDim",
  "base",
  "minTimescale",
  "maxTimescale",
  "shift",
  "out",
  "count",
]);

// positions: a pointer, or 0 for rows at start, start + 1, ...
const TABLE = [
  ["out", "positions", "count", "start", "dim", "layout", "oddDim"],
  ["omega", "pairs", "scale", "amplitude"],
].flat();
const ROWS_FROM_START = { positions: 0, start: 0 };
export const tableF32 = kernel("pe_table_f32", TABLE, ROWS_FROM_START);
export const tableF64 = kernel("pe_table_f64", TABLE, ROWS_FROM_START);

// out: dim int32 codes, 2i for the sin of pair i, 2i + 1 for its cos, -1
// for a zero column.
export const tableColumns = kernel("pe_table_columns_of", [
  "out",
  "dim",
  "layout",
  "oddDim",
]);

// offsets: a pointer to one per row, or 0 for `offset` on every row.
const ROTATE = [
  ["out", "input", "count", "dim", "offsets", "offset", "layout", "oddDim"],
  ["omega", "pairs", "scale"],
].flat();
const ONE_OFFSET = { offsets: 0, offset: 0 };
export const rotateF32 = kernel("pe_rotate_f32", ROTATE, ONE_OFFSET);
export const rotateF64 = kernel("pe_rotate_f64", ROTATE, ONE_OFFSET);
export const rotateF16 = kernel("pe_rotate_f16", ROTATE, ONE_OFFSET);

// positions: a pointer to one per group of `repeat` rows, `span` rows
// apart (1: consecutive), or 0 for `position` on every row; dtype indexes
// the cache dtypes.
export const ropeDims = kernel("pe_rope_dims", ["dim", "rotary"]);

export const rope = kernel(
  "pe_rope",
  [
    ["out", "input", "dtype", "count", "dim", "rotary", "repeat", "span"],
    ["positions", "position", "pairing", "omega", "pairs", "scale"],
    ["amplitude"],
  ].flat(),
  { span: 1, positions: 0, position: 0 },
);

// M-RoPE on rows: positions holds the t, h and w of each group of `repeat`
// rows; streams the stream of each pair (from mropeStreams).
export const ropeStreams = kernel(
  "pe_rope_streams",
  [
    ["out", "input", "dtype", "count", "dim", "rotary", "repeat", "span"],
    ["positions", "streams", "pairing", "omega", "pairs", "scale"],
    ["amplitude"],
  ].flat(),
  { span: 1 },
);

export const rotationMatrixF64 = kernel("pe_rotation_matrix_f64", [
  "out",
  "offset",
  "dim",
  "layout",
  "oddDim",
  "omega",
  "pairs",
  "scale",
]);

// offsets: a pointer, or 0 for from, from + step, ...
export const dotProducts = kernel(
  "pe_dot_products",
  [
    ["out", "offsets", "count", "from", "step", "dim", "oddDim"],
    ["omega", "pairs", "scale", "amplitude"],
  ].flat(),
  { offsets: 0, from: 0, step: 0 },
);

// toeplitz: 1 for the Toeplitz deviation, 0 for the deviation from g.
const GRAM = ["result", "table", "count", "dim", "g", "toeplitz"];
export const gramDeviationF32 = kernel("pe_gram_deviation_f32", GRAM);
export const gramDeviationF64 = kernel("pe_gram_deviation_f64", GRAM);

const DECAY = ["theta", "base", "alpha", "x", "count"];
export const decayIntegral = kernel("pe_decay_integral", [...DECAY, "out"]);
export const decayIntegralQuadrature = kernel("pe_decay_integral_quadrature", [
  ...DECAY,
  "values",
  "errors",
]);
export const decayFrequencies = kernel("pe_decay_frequencies", [
  "theta",
  "base",
  "alpha",
  "dim",
  "out",
  "count",
]);

export const ci = kernel("pe_ci", ["x", "count", "out"]);
export const si = kernel("pe_si", ["x", "count", "out"]);

// present: bit k set for each parameter slot k given; factors: a pointer to
// the longrope factor list, or 0 for none.
export const ropeFrequencies = kernel(
  "pe_rope_frequencies",
  [
    ["type", "dim", "base", "params", "paramCount", "present", "factors"],
    ["factorCount", "out", "count", "attention"],
  ].flat(),
  { factors: 0, factorCount: 0 },
);

// positions: a pointer, or 0 for rows at start, start + 1, ...
export const ropeCache = kernel(
  "pe_rope_cache",
  [
    ["cos", "sin", "dtype", "layout", "positions", "count", "start"],
    ["inverseFrequencies", "pairs", "attention"],
  ].flat(),
  ROWS_FROM_START,
);

// M-RoPE: the stream (t, h, w) of each pair, and a cache whose pairs take
// their own stream's positions (t, then h, then w, count each).
export const mropeStreams = kernel("pe_mrope_streams", [
  ...["s0", "s1", "s2", "interleaved", "streams", "pairs"],
]);
export const ropeCacheStreams = kernel(
  "pe_rope_cache_streams",
  [
    ["cos", "sin", "dtype", "layout", "positions", "count", "streams"],
    ["inverseFrequencies", "pairs", "attention"],
  ].flat(),
);
