// The C core as JS calls it: the WebAssembly module loaded once, its linear
// memory (scratch allocations freed after each call, the workspace lent to
// one call at a time, the single buffer behind `view` results), one named
// wrapper per export whose status becomes an error, and the lifecycle of
// the plans that call it.
import {
  MEMORY_BYTES as MAX_BYTES,
  STATUS,
  STATUS_NAMES,
} from "sinusoidal-pe-constants";
import {
  bufferOf,
  byteOffsetOf,
  calling,
  lengthOf,
  rangeError,
  runningFunction,
  show,
  typeError,
} from "./options.js";

let instance = null;
let viewPointer = 0;

// Responses served as application/wasm compile while they download.
function compileResponse(response) {
  const type = response.headers.get("content-type") ?? "";
  if (
    typeof WebAssembly.compileStreaming === "function" &&
    type.split(";")[0].trim() === "application/wasm"
  )
    return WebAssembly.compileStreaming(response);
  return response.arrayBuffer().then((bytes) => WebAssembly.compile(bytes));
}

// A fetch that never got a response, said with the source it was given and
// the reason the platform gave (Node's fetch hides it in `cause`, and reads
// no file: URLs).
function fetchError(source, error) {
  const url = String(source);
  const reason = /^file:/i.test(url)
    ? "this platform's fetch reads no file: URLs; pass the file's bytes, or use sinusoidal-pe/slim, which reads the .wasm beside it in Node"
    : [error.cause?.code, error.cause?.message ?? error.message]
        .filter(Boolean)
        .join(": ");
  const failure = new Error(
    `sinusoidal-pe: init could not fetch ${url}: ${reason}`,
    { cause: error },
  );
  failure.option = "source";
  failure.code = "ERR_FETCH";
  return failure;
}

async function compile(source) {
  if (source instanceof WebAssembly.Module) return source;
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source))
    return WebAssembly.compile(source);
  if (typeof source === "string" || source instanceof URL) {
    let response;
    try {
      response = await fetch(source);
    } catch (error) {
      throw fetchError(source, error);
    }
    if (!response.ok) {
      const failure = new Error(
        `sinusoidal-pe: fetching ${source} failed with status ${response.status}`,
      );
      failure.option = "source";
      failure.code = "ERR_FETCH";
      throw failure;
    }
    return compileResponse(response);
  }
  if (typeof Response !== "undefined" && source instanceof Response)
    return compileResponse(source);
  throw typeError(
    "init(source) takes a WebAssembly.Module, bytes (ArrayBuffer or typed array), a URL or a Response",
    "source",
    "ERR_TYPE",
  );
}

// A Content-Security-Policy without 'wasm-unsafe-eval' refuses every compile
// and instantiation; say which directive is missing.
function explainRefusal(error) {
  if (
    !(error instanceof WebAssembly.CompileError) &&
    !(error instanceof EvalError)
  )
    return error;
  if (!/Content Security Policy|unsafe-eval|Refused/i.test(error.message))
    return error;
  const refusal = new Error(
    `sinusoidal-pe: the Content-Security-Policy refused to compile the WebAssembly module; allow it with 'wasm-unsafe-eval' in script-src (${error.message})`,
    { cause: error },
  );
  refusal.code = "ERR_CSP";
  return refusal;
}

// Growth detaches old buffers; views are always re-made from memory.buffer,
// so nothing needs to happen here.
const IMPORTS = { env: { emscripten_notify_memory_growth() {} } };

// `fallback` gives the module when init() has no source: the inline copy,
// or the file beside the entry in Node; without one, init() needs a source.
async function load(source, fallback) {
  try {
    if (source === undefined) {
      if (fallback === undefined)
        throw typeError(
          "this entry carries no inline module: pass init() the URL, a Response or the bytes of sinusoidal-pe.wasm, or a WebAssembly.Module",
          "source",
          "ERR_TYPE",
        );
      source = await fallback();
    }
    const module = await compile(source);
    const { exports } = await WebAssembly.instantiate(module, IMPORTS);
    exports._initialize();
    return { module, exports };
  } catch (error) {
    throw explainRefusal(error);
  }
}

// The compiled module, kept so that an instance dropped after a fault can
// be replaced; the live instance's exports; the init in flight.
let compiled = null;
let loading = null;

/**
 * Compiles and instantiates the module; later calls return at once. A call
 * made while another source is loading waits for it, and loads its own
 * source if that one fails: each caller gets its own source's outcome.
 */
export function init(source, fallback) {
  if (instance) return Promise.resolve();
  // A fault dropped the instance: a fresh one from the compiled module,
  // made asynchronously, as every platform allows.
  if (compiled)
    return WebAssembly.instantiate(compiled, IMPORTS).then((fresh) => {
      if (instance === null) {
        fresh.exports._initialize();
        instance = fresh.exports;
      }
    });
  if (loading !== null && loading.source !== source)
    return loading.promise.then(
      () => undefined,
      () => init(source, fallback),
    );
  if (loading === null) {
    const promise = load(source, fallback).then(
      (loaded) => {
        compiled = loaded.module;
        instance = loaded.exports;
        loading = null;
      },
      (error) => {
        loading = null;
        throw error;
      },
    );
    loading = { source, promise };
  }
  return loading.promise;
}

// The module's own failures are Errors with a code of the registry, and
// name the public function running, as an input's refusals do; `what` is
// what the message names ("table", "the workspace").
function moduleError(message, code, cause, what = runningFunction()) {
  const error = new Error(
    `sinusoidal-pe: ${what === undefined ? "" : `${what}: `}${message}`,
    cause === undefined ? undefined : { cause },
  );
  error.code = code;
  error.function = runningFunction();
  return error;
}

export function wasm() {
  if (instance) return instance;
  if (!compiled)
    throw moduleError(
      "the module is not initialised; call `await init()` first",
      "ERR_NOT_INITIALIZED",
    );
  // A fault dropped the last instance: start a fresh one from the module.
  try {
    const { exports } = new WebAssembly.Instance(compiled, IMPORTS);
    exports._initialize();
    instance = exports;
  } catch (error) {
    throw moduleError(
      "the module was reset after an internal fault and could not be instantiated again synchronously here; call `await init()`",
      "ERR_NOT_INITIALIZED",
      error,
    );
  }
  return instance;
}

/**
 * Calls the export `name` of the live instance for the public function
 * `api`. The exports call no code of the caller's, so any exception from
 * one is a fault of the module (a trap, or a stack overflow) that may have
 * left its memory or stack pointer inconsistent: the instance is dropped,
 * its memory's buffer detached (so earlier views can show nothing stale),
 * and the next call runs on a fresh instance.
 */
export function call(name, api, args) {
  const exports = wasm();
  try {
    return invoke(exports[name], args);
  } catch (error) {
    if (instance === exports) {
      instance = null;
      viewPointer = 0;
      try {
        exports.memory.grow(0);
      } catch {
        // A memory that cannot even be refreshed is dropped all the same.
      }
    }
    throw moduleError(
      `internal fault in the WebAssembly module (${error?.message ?? error}); the module was reset, and views from earlier calls are detached`,
      "ERR_FAULT",
      error,
      api,
    );
  }
}

// fn(...args) for the exports, the longest of which takes 15 arguments (a
// test holds every export to it): a wasm function ignores the extra ones,
// and a spread call would copy its arguments into a new list every call.
function invoke(fn, a) {
  return fn(
    a[0],
    a[1],
    a[2],
    a[3],
    a[4],
    a[5],
    a[6],
    a[7],
    a[8],
    a[9],
    a[10],
    a[11],
    a[12],
    a[13],
    a[14],
  );
}

// The largest single request: the address space less room for the stack,
// the static data and the allocator's own bookkeeping.
export const MAX_REQUEST_BYTES = MAX_BYTES - 2 ** 20;

// Blocks taken from the module's allocator so far: what tests count to see
// that a loop of calls allocates nothing once the workspace has grown.
let allocations = 0;
export const allocationCount = () => allocations;

function allocate(bytes, what) {
  if (bytes > MAX_REQUEST_BYTES)
    throw rangeError(
      `${what} needs ${bytes} bytes, more than the module's 4 GiB address space allows`,
      undefined,
      "ERR_SIZE",
    );
  const pointer = call("malloc", what, [Math.max(bytes, 8)]) >>> 0;
  allocations++;
  if (pointer === 0)
    throw rangeError(
      `${what} needs ${bytes} bytes, but the largest block the module can allocate now is ${largestBlock(what)} bytes`,
      undefined,
      "ERR_MEMORY",
    );
  return pointer;
}

// The largest block malloc can still return, found by bisection (on the
// error path only): what limits a refused request, for its message.
function largestBlock(what) {
  let low = 0;
  let high = MAX_REQUEST_BYTES;
  while (high - low > 2 ** 16) {
    const middle = low + Math.floor((high - low) / 2);
    const pointer = call("malloc", what, [middle]) >>> 0;
    if (pointer === 0) high = middle;
    else {
      call("free", what, [pointer]);
      low = middle;
    }
  }
  return low;
}

/**
 * Runs fn(scratch) where scratch(bytes, what) allocates module memory that is
 * freed when fn returns or throws, so an error never leaks memory.
 */
export function withScratch(fn) {
  const exports = wasm();
  const pointers = [];
  try {
    return fn((bytes, what) => {
      const pointer = allocate(bytes, what);
      pointers.push(pointer);
      return pointer;
    });
  } finally {
    // After a fault the instance that owned these is gone with them.
    if (instance === exports)
      for (const pointer of pointers) call("free", "free", [pointer]);
  }
}

/**
 * Allocates the buffer behind a `view` result. The previous view's buffer is
 * freed and that view is detached (length 0; its methods and iteration throw),
 * so it can never show the data of a later call.
 */
export function allocateView(bytes, what) {
  if (viewPointer !== 0) {
    call("free", what, [viewPointer]);
    viewPointer = 0;
    wasm().memory.grow(0);
  }
  viewPointer = allocate(bytes, what);
  return viewPointer;
}

// The workspace: one block of module memory kept between calls and lent to
// one call at a time, so that a call allocates nothing once the block has
// grown to its needs, and no plan, used or dropped, holds module memory of
// its own. It grows to the largest need up to WORKSPACE_BYTES; what a call
// needs beyond the block comes from blocks of its own, freed when it ends.
const WORKSPACE_BYTES = 8 * 2 ** 20;
// `used` is what the call it is lent to took (a field, not a variable,
// so that counting allocates nothing).
const workspace = { pointer: 0, bytes: 0, owner: null, wanted: 0, used: 0 };
let lent = false;
// The caller's tag of the last call that ended normally: what that call
// wrote first is still there for the next call of the same tag.
let lastTag = null;

// The block brought to the size earlier calls wanted, in the live instance.
function readyWorkspace(exports) {
  if (workspace.owner !== exports) {
    // A block of an instance dropped after a fault went with it.
    workspace.pointer = 0;
    workspace.bytes = 0;
    workspace.owner = exports;
    lastTag = null;
  }
  if (workspace.wanted <= workspace.bytes) return;
  if (workspace.pointer !== 0)
    call("free", "the workspace", [workspace.pointer]);
  lastTag = null;
  workspace.pointer = call("malloc", "the workspace", [workspace.wanted]) >>> 0;
  allocations++;
  // Refused, the call takes blocks of its own, as it would have anyway.
  workspace.bytes = workspace.pointer === 0 ? 0 : workspace.wanted;
  workspace.wanted = workspace.bytes;
}

// The blocks of its own that the call the workspace is lent to needed
// beyond it.
const ownBlocks = [];

function lend(bytes, what) {
  // A multiple of 8 bytes, at least 8: doubles stay aligned.
  const size = bytes <= 8 ? 8 : bytes + (-bytes & 7);
  const at = workspace.used;
  workspace.used = at + size;
  if (at + size <= workspace.bytes) return workspace.pointer + at;
  const pointer = allocate(bytes, what);
  ownBlocks.push(pointer);
  return pointer;
}

/**
 * Runs fn(scratch, keptAt) on the workspace: scratch(bytes, what) allocates
 * as withScratch's does, from the workspace while it holds room, and
 * keptAt(pointer) says that `pointer`, the first `scratch` of this call,
 * is where the last call of the same `tag` (a plan's) left its first
 * scratch, its contents unchanged: not when this call's first need is
 * larger than the workspace and takes a block of its own. A call made
 * while the workspace is lent (by user code run inside another) takes
 * scratch. `arg` is passed on as fn's third argument, so that a call per
 * token can pass a function of its own module and make no closure.
 */
const notKept = () => false;
// Whether the call the workspace is lent to has the last call's tag, and
// whether its first scratch, at `pointer`, is where that call left it.
let sameTag = false;
const keptAt = (pointer) => sameTag && pointer === workspace.pointer;

export function withWorkspace(fn, tag = null, arg = undefined) {
  if (lent) return inScratch(fn, arg);
  const exports = wasm();
  readyWorkspace(exports);
  sameTag = tag !== null && lastTag === tag;
  lastTag = null;
  lent = true;
  workspace.used = 0;
  try {
    const result = fn(lend, keptAt, arg);
    // What a call wrote in blocks of its own is gone with them.
    lastTag = workspace.used <= workspace.bytes ? tag : null;
    return result;
  } finally {
    lent = false;
    const { used } = workspace;
    if (used > workspace.bytes && used <= WORKSPACE_BYTES)
      workspace.wanted = used;
    // After a fault the instance that owned these is gone with them.
    if (ownBlocks.length !== 0) {
      if (instance === exports)
        for (const pointer of ownBlocks) call("free", "free", [pointer]);
      ownBlocks.length = 0;
    }
  }
}

// withWorkspace's fn on scratch: a function of its own, so that the
// closure's context is made only on this path.
function inScratch(fn, arg) {
  return withScratch((scratch) => fn(scratch, notKept, arg));
}

export function memoryBuffer() {
  return wasm().memory.buffer;
}

// The last view of module memory made by moduleView, per kind.
const views = new Map();

/**
 * A `Typed` view of `length` elements at byte `pointer` of module memory:
 * the one made last for the same place while the memory has not moved, so
 * that a call per token makes no new view. For the library's own reads and
 * writes only: no caller ever holds it.
 */
export function moduleView(Typed, pointer, length) {
  const buffer = memoryBuffer();
  const last = views.get(Typed);
  // Read through the intrinsics, as any typed array is: the prototype's
  // getters may have been replaced.
  if (
    last !== undefined &&
    bufferOf(last) === buffer &&
    byteOffsetOf(last) === pointer &&
    lengthOf(last) === length
  )
    return last;
  const view = new Typed(buffer, pointer, length);
  views.set(Typed, view);
  return view;
}

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

// How a caller names its options: the library's option paths by default;
// fromConfig names its config's fields.
const OPTIONS = { one: "option", many: "options", name: (path) => path };

// ", got 1" or ', got "minTimescale" = 0, "maxTimescale" = 1': the values of
// the status's options. Arrays are not repeated in a message, and nothing
// is said when no value is known.
function got(options, values, names) {
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
    .map((path, i) => `"${names.name(path)}" = ${shown[i] ?? "an array"}`)
    .filter((_, i) => shown[i] !== "nothing");
  return `, got ${pairs.join(", ")}`;
}

/**
 * What a status says: `option "base" must be a finite number > 1`, or the
 * rule alone for a status about no option; with `values` (the caller's
 * options, JS-owned), the values got. `names` names the options as the
 * caller knows them: { one, many, name(path) }.
 */
export function statusMessage(status, values, names = OPTIONS) {
  const { options, rule } = STATUS[status];
  if (options.length === 0) return rule;
  const quoted = options.map((path) => `"${names.name(path)}"`).join(" and ");
  const noun = options.length === 1 ? names.one : names.many;
  return `${noun} ${quoted} ${rule}${got(options, values, names)}`;
}

// An error names the public function running, the one the caller called;
// `where` only when none is (a kernel called from outside the API).
export function named(where, message) {
  return runningFunction() === undefined ? `${where}: ${message}` : message;
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
      named(where, `unexpected status ${status}`),
      undefined,
      "ERR_STATUS",
    );
  const make = known.error === "TypeError" ? typeError : rangeError;
  const message = statusMessage(status, values);
  // Of a rule on several options, the option is the first the caller gave.
  const option =
    known.options.find((path) => valueAt(values, path) !== undefined) ??
    known.options[0];
  // The rule's code is the C status's name without its prefix: "ERR_BASE".
  throw make(
    named(where, message),
    option,
    STATUS_NAMES[status].replace(/^PE_/, ""),
  );
}

// One named wrapper per function the C core exports: each takes an object of
// named arguments and passes them in the order of the C signature, so every
// long positional call is written once, here. Pointers are byte offsets into
// module memory. Besides the C arguments, every call names `api`, the public
// function it serves, and may give `given`, the caller's options (JS-owned):
// `check` turns a status into an exception that names that function, the
// option and its rule, and the value the caller gave.

// `optional` lists the arguments that may be left out, with their value
// then (0 as a pointer means "not given"). A kernel that is not `checked`
// returns its status for the caller to word.
function kernel(name, parameters, optional = {}, checked = true) {
  // The argument list of a call, filled in place: an export runs no code of
  // the caller's, so no call of the same kernel can begin before it ends.
  const list = new Array(parameters.length);
  const run = (args) => {
    if (typeof args.api !== "string")
      throw new TypeError(`sinusoidal-pe: ${name} called without its api`);
    for (let i = 0; i < parameters.length; i++) {
      const value = args[parameters[i]];
      list[i] = value === undefined ? optional[parameters[i]] : value;
    }
    return ran(call(name, args.api, list), args.api, args.given);
  };
  const ran = (status, api, given) => {
    if (!checked) return status;
    check(status, api, given);
  };
  // The same call from a list in the C signature's order, filled by the
  // caller at the positions `slotsOf` gives: calls made per token skip
  // reading arguments by name, a lookup of a different key each time.
  run.parameters = parameters;
  run.withList = (list, api, given) => ran(call(name, api, list), api, given);
  return run;
}

/** The position of each named argument of a kernel in its list. */
export function slotsOf(kernel) {
  return Object.fromEntries(kernel.parameters.map((name, i) => [name, i]));
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

/**
 * The base of every plan class: one lifecycle for every kind of plan. A
 * plan keeps the state it was made with, read only by its own kind's
 * methods, until dispose() or `using` ends it; then only dispose() may be
 * called again. `kind` describes the kind, and only its module holds it:
 * { kind, create, api }, the plan's name ("rope plan"), the function that
 * makes one and the function its errors name. A subclass opens the plan
 * in each method with `openPlan` and has a dispose() of its own that calls
 * `disposePlan`, so that a method called on a plan of another kind is
 * refused by code though the kinds share this base.
 */
export class Plan {
  #kind;
  // null once disposed.
  #state;

  constructor(kind, state) {
    this.#kind = kind;
    this.#state = state;
  }

  // The state of a plan of this kind: undefined for any other object, null
  // once disposed. Static methods, each asking for the kind itself, so that
  // no other code reads or ends a plan's state; not a static block, so that
  // a bundle that makes no plan leaves the class out.
  static stateOf(plan, kind) {
    return #kind in plan && plan.#kind === kind ? plan.#state : undefined;
  }

  static end(plan, kind) {
    openPlan(plan, kind, "dispose");
    plan.#state = null;
  }

  // What `using` calls (a key bundlers know to be free of side effects).
  [Symbol.dispose]() {
    this.dispose();
  }
}

/**
 * The state of `plan` for the method `method` of a plan of this kind;
 * another receiver, or a disposed plan, is refused by code.
 */
export function openPlan(plan, kind, method) {
  const state =
    (typeof plan === "object" && plan !== null) || typeof plan === "function"
      ? Plan.stateOf(plan, kind)
      : undefined;
  if (state === undefined)
    throw typeError(
      `${kind.kind} method ${method}() called on ${plan === null || plan === undefined ? String(plan) : typeof plan === "object" ? "another object" : `a ${typeof plan}`}: call it on a plan made by ${kind.create}()`,
      undefined,
      "ERR_RECEIVER",
    );
  // Only dispose() may be called again.
  if (state === null && method !== "dispose")
    throw typeError(
      `${method}() of a disposed ${kind.kind}: make a new plan with ${kind.create}()`,
      undefined,
      "ERR_DISPOSED",
    );
  return state;
}

/** A plan's dispose(): a second does nothing. */
export function disposePlan(plan, kind) {
  calling(kind.api, Plan.end, [plan, kind]);
}
