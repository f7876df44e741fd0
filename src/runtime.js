// Loads the WebAssembly module once and manages its linear memory: scratch
// allocations freed after each call, and the single buffer behind `view`
// results.
import { MEMORY_BYTES as MAX_BYTES } from "sinusoidal-pe-constants";
import { rangeError, typeError } from "./options.js";

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
  return new Error(
    `sinusoidal-pe: the Content-Security-Policy refused to compile the WebAssembly module; allow it with 'wasm-unsafe-eval' in script-src (${error.message})`,
    { cause: error },
  );
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
  if (compiled) return Promise.resolve().then(() => void wasm());
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

export function wasm() {
  if (instance) return instance;
  if (!compiled)
    throw new Error(
      "sinusoidal-pe: the module is not initialised; call `await init()` first",
    );
  // A fault dropped the last instance: start a fresh one from the module.
  try {
    const { exports } = new WebAssembly.Instance(compiled, IMPORTS);
    exports._initialize();
    instance = exports;
  } catch (error) {
    throw new Error(
      "sinusoidal-pe: the module was reset after an internal fault and could not be instantiated again synchronously here; call `await init()`",
      { cause: error },
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
    return exports[name](...args);
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
    throw new Error(
      `sinusoidal-pe: ${api}: internal fault in the WebAssembly module (${error?.message ?? error}); the module was reset, and views from earlier calls are detached`,
      { cause: error },
    );
  }
}

// The largest single request: the address space less room for the stack,
// the static data and the allocator's own bookkeeping.
export const MAX_REQUEST_BYTES = MAX_BYTES - 2 ** 20;

function allocate(bytes, what) {
  if (bytes > MAX_REQUEST_BYTES)
    throw rangeError(
      `${what} needs ${bytes} bytes, more than the module's 4 GiB address space allows`,
      undefined,
      "ERR_SIZE",
    );
  const pointer = call("malloc", what, [Math.max(bytes, 8)]) >>> 0;
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

/**
 * Module memory kept between calls (a plan's): reserve(bytes) returns a
 * block of at least `bytes`, the same one while it is large enough and the
 * instance that owns it lives; after an internal fault replaced the
 * instance, a new block is taken from the new one. release() frees it.
 */
export class Reservation {
  #what;
  #pointer = 0;
  #bytes = 0;
  #owner = null;
  // Whether the last reserve() gave a new block: what was kept there is gone.
  fresh = true;

  constructor(what) {
    this.#what = what;
  }

  reserve(bytes) {
    const exports = wasm();
    this.fresh = !(this.#owner === exports && this.#bytes >= bytes);
    if (!this.fresh) return this.#pointer;
    this.release();
    this.#pointer = allocate(bytes, this.#what);
    this.#bytes = bytes;
    this.#owner = exports;
    return this.#pointer;
  }

  release() {
    // A block of an instance dropped after a fault went with it.
    if (this.#pointer !== 0 && this.#owner === instance)
      call("free", this.#what, [this.#pointer]);
    this.#pointer = 0;
    this.#bytes = 0;
    this.#owner = null;
    this.fresh = true;
  }
}

export function memoryBuffer() {
  return wasm().memory.buffer;
}
