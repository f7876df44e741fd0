// Loads the WebAssembly module once and manages its linear memory: scratch
// allocations freed after each call, and the single buffer behind `view`
// results.
import { MEMORY_BYTES as MAX_BYTES } from "sinusoidal-pe-constants";
import { rangeError, typeError } from "./options.js";

let instance = null;
let loading = null;
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

async function compile(source) {
  if (source instanceof WebAssembly.Module) return source;
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source))
    return WebAssembly.compile(source);
  if (typeof source === "string" || source instanceof URL) {
    const response = await fetch(source);
    if (!response.ok)
      throw new Error(
        `sinusoidal-pe: fetching ${source} failed with status ${response.status}`,
      );
    return compileResponse(response);
  }
  if (typeof Response !== "undefined" && source instanceof Response)
    return compileResponse(source);
  throw typeError(
    "init(source) takes a WebAssembly.Module, bytes (ArrayBuffer or typed array), a URL or a Response",
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
  return new Error(
    `sinusoidal-pe: the Content-Security-Policy refused to compile the WebAssembly module; allow it with 'wasm-unsafe-eval' in script-src (${error.message})`,
    { cause: error },
  );
}

// `fallback` gives the module when init() has no source: the inline copy,
// or the file beside the entry in Node; without one, init() needs a source.
async function load(source, fallback) {
  try {
    if (source === undefined) {
      if (fallback === undefined)
        throw typeError(
          "this entry carries no inline module: pass init() the URL, a Response or the bytes of sinusoidal-pe.wasm, or a WebAssembly.Module",
        );
      source = await fallback();
    }
    const module = await compile(source);
    const result = await WebAssembly.instantiate(module, {
      // Growth detaches old buffers; views are always re-made from
      // memory.buffer, so nothing needs to happen here.
      env: { emscripten_notify_memory_growth() {} },
    });
    result.exports._initialize();
    return result.exports;
  } catch (error) {
    throw explainRefusal(error);
  }
}

/** Compiles and instantiates the module; later calls return at once. */
export function init(source, fallback) {
  if (instance) return Promise.resolve();
  loading ??= load(source, fallback).then(
    (exports) => {
      instance = exports;
    },
    (error) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

export function wasm() {
  if (!instance)
    throw new Error(
      "sinusoidal-pe: the module is not initialised; call `await init()` first",
    );
  return instance;
}

// The largest single request: the address space less room for the stack,
// the static data and the allocator's own bookkeeping.
export const MAX_REQUEST_BYTES = MAX_BYTES - 2 ** 20;

function allocate(bytes, what) {
  const exports = wasm();
  if (bytes > MAX_REQUEST_BYTES)
    throw rangeError(
      `${what} needs ${bytes} bytes, more than the module's 4 GiB address space allows`,
    );
  const pointer = exports.malloc(Math.max(bytes, 8)) >>> 0;
  if (pointer === 0)
    throw rangeError(
      `${what} needs ${bytes} bytes, which do not fit in the module's 4 GiB memory`,
    );
  return pointer;
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
    for (const pointer of pointers) exports.free(pointer);
  }
}

/**
 * Allocates the buffer behind a `view` result. The previous view's buffer is
 * freed and that view is detached (length 0; its methods and iteration throw),
 * so it can never show the data of a later call.
 */
export function allocateView(bytes, what) {
  const exports = wasm();
  if (viewPointer !== 0) {
    exports.free(viewPointer);
    viewPointer = 0;
    exports.memory.grow(0);
  }
  viewPointer = allocate(bytes, what);
  return viewPointer;
}

export function memoryBuffer() {
  return wasm().memory.buffer;
}
