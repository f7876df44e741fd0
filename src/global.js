// The classic-script entry (global `SinusoidalPE`) for pages that load the
// library with a plain <script> tag. Its init() imports the module build that
// sits beside this script, so both share one copy of the code and of the
// inline WebAssembly module; after `await SinusoidalPE.init()` the global
// holds the whole API.
(() => {
  // Workers that importScripts() this file have no currentScript; there the
  // script's own URL is the first one in a stack trace taken while it runs.
  const fromStack = /(?:https?|file):\/\/[^\s)]+?\.js/.exec(
    new Error().stack ?? "",
  );
  const here =
    globalThis.document?.currentScript?.src ?? fromStack?.[0] ?? location.href;
  let loaded = false;
  const api = {
    async init(source) {
      const library = await import(new URL("./index.js", here).href);
      await library.init(source);
      Object.assign(api, library);
      loaded = true;
    },
  };
  // Until init() has loaded the library, a function of it is a stand-in
  // that says what to do ("then" stays undefined: the global is no promise).
  const notYet = (name) => () => {
    throw Object.assign(
      new Error(
        `sinusoidal-pe: SinusoidalPE.${name} is not loaded yet; call \`await SinusoidalPE.init()\` first`,
      ),
      { code: "ERR_NOT_INITIALIZED", function: name },
    );
  };
  globalThis.SinusoidalPE = new Proxy(api, {
    get: (target, key) =>
      loaded || key in target || typeof key !== "string" || key === "then"
        ? target[key]
        : notYet(key),
  });
})();
