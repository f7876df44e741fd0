// `import wasmUrl from "sinusoidal-pe/sinusoidal-pe.wasm"` in a bundled app
// (esbuild's file loader, webpack's asset/resource; Vite adds "?url"): the
// module file's URL as the bundler emits it, for the slim entry's init().

/**
 * The URL of the shipped module, as the bundler writes it: esbuild's is
 * relative to the bundle (`new URL(wasmUrl, import.meta.url)`), webpack's
 * and Vite's are absolute or relative to the page.
 */
declare const wasmUrl: string;
export default wasmUrl;
