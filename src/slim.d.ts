// The slim entry: the API of the default entry, without the inline module.
import type { WasmSource } from "./index.js";

export * from "./index.js";

/**
 * Compiles and instantiates the module once; later calls resolve at once.
 * Pass the shipped `sinusoidal-pe/sinusoidal-pe.wasm`: its URL (a bundler
 * asset's), a `Response`, its bytes or a compiled `WebAssembly.Module`. In
 * Node, `init()` with no source reads the file from beside this entry. Under
 * a Content-Security-Policy the compile needs 'wasm-unsafe-eval' (refused,
 * it rejects with code `ERR_CSP`). Every other function is synchronous and
 * throws before `init`.
 */
export function init(source?: WasmSource): Promise<void>;
