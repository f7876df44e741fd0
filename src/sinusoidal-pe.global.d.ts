// The classic script declares one global, `SinusoidalPE`: after
// `await SinusoidalPE.init()` it holds the whole API of the default entry.
// Importing the script from a module gives nothing else.
type Library = typeof import("./index.js");

declare global {
  /** The library, loaded by `await SinusoidalPE.init()`; until then every function but init throws. */
  var SinusoidalPE: Library;
}

export {};
