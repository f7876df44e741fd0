// The package's internals, for tests that reach past the public API: the
// module's raw exports and memory, the status check and the constants
// generated from the C headers. `make` bundles this into build/internals.js.
export { memoryBuffer, wasm, withScratch } from "../../src/core.js";
export { init } from "../../src/index.js";
export { allocationCount, check, statusMessage } from "../../src/core.js";
export * as constants from "sinusoidal-pe-constants";
export * as kernels from "../../src/core.js";
// The public API in the same bundle, sharing the instance above.
export * as api from "../../src/index.js";
// The command line's mapping of library errors to its flags.
export { Names, describe, isLibraryRefusal } from "../../src/cli/messages.js";
