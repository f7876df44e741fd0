// Module hooks that let Node import src/ as it is, unbundled: the two
// specifiers the build aliases resolve to the files the build writes.
const ALIASES = {
  "sinusoidal-pe-constants": "../../build/constants.js",
  "sinusoidal-pe-wasm": "../../build/wasm-base64.js",
};

export async function resolve(specifier, context, next) {
  if (Object.hasOwn(ALIASES, specifier))
    return {
      url: new URL(ALIASES[specifier], import.meta.url).href,
      shortCircuit: true,
    };
  return next(specifier, context);
}
