// The module inlined in the default entry: deflated (zlib format), then
// base64-encoded. Node inflates it with zlib, synchronously and in a few
// milliseconds; elsewhere a DecompressionStream inflates it. Node's builtins
// are reached through process.getBuiltinModule, never an import, so browsers
// and bundlers see no dependency on them.
import wasmBase64 from "sinusoidal-pe-wasm";

function nodeBuiltin(name) {
  try {
    return globalThis.process?.getBuiltinModule?.(name);
  } catch {
    return undefined;
  }
}

export function inlineModule() {
  const zlib = nodeBuiltin("zlib");
  const buffer = nodeBuiltin("buffer");
  if (zlib && buffer)
    return zlib.inflateSync(buffer.Buffer.from(wasmBase64, "base64"));
  const binary = atob(wasmBase64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  const inflated = new Response(bytes).body.pipeThrough(
    new DecompressionStream("deflate"),
  );
  return new Response(inflated).arrayBuffer();
}
