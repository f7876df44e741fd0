// The slim entry under Node: init() with no source reads the shipped
// sinusoidal-pe.wasm beside this file.
import { readFile } from "node:fs/promises";
import { init as initFrom } from "./slim.js";

export * from "./slim.js";

const besideThis = () =>
  readFile(new URL("./sinusoidal-pe.wasm", import.meta.url));

/** Compiles and instantiates the module (the file beside this entry, or `source`) once; later calls resolve at once. */
export function init(source) {
  return initFrom(source, besideThis);
}
