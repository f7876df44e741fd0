// Results go to the browser's own APIs as they are: Blob, Response and
// WebGPU's GPUQueue.writeBuffer take BufferSource, which (TypeScript ≥ 5.7)
// needs arrays on a plain ArrayBuffer. Compiled strict under lib.dom and
// @webgpu/types; lines marked @ts-expect-error are inputs the runtime
// refuses, so they must fail to type.
import {
  frequencies,
  init,
  rope,
  ropeCache,
  rotate,
  table,
  toNpy,
} from "sinusoidal-pe";
import wasmUrl from "sinusoidal-pe/sinusoidal-pe.wasm";

await init(new URL(wasmUrl, import.meta.url));

const pe = table({ positions: 512, dim: 768 });
const wide = table({ positions: 4, dim: 8, dtype: "float64" });
const npy = toNpy(pe, [512, 768]);
const cache = ropeCache({ dim: 128, positions: 4096 });
const halfCache = ropeCache({ dim: 128, positions: 4096, dtype: "float16" });
const { cos, sin, shape } = cache;
const dims: [number, number] = shape;

new Blob([npy], { type: "application/octet-stream" });
new Blob([pe, wide, cos, sin, halfCache.cos]);
new Response(toNpy(halfCache.sin, halfCache.shape));
new Response(table({ positions: 4, dim: 8, view: true }));

declare const device: GPUDevice;
const buffer = device.createBuffer({
  size: cos.byteLength,
  usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
});
device.queue.writeBuffer(buffer, 0, cos);
device.queue.writeBuffer(buffer, 0, halfCache.sin);
device.queue.writeBuffer(buffer, 0, pe);
device.queue.writeBuffer(buffer, 0, frequencies({ dim: 8 }));
device.queue.writeBuffer(buffer, 0, rope(new Float32Array(8), 1, { dim: 8 }));
device.queue.writeBuffer(buffer, 0, rope([1, 2, 3, 4], 1, { dim: 4 }));
device.queue.writeBuffer(buffer, 0, rotate(new Uint16Array(8), 1, { dim: 8 }));

// float16 rows as half bits or a Float16Array, the result of the same kind,
// consistently for rope, rotate, out and toNpy.
const bits = new Uint16Array(8);
const f16 = new Float16Array(8);
const turnedBits: Uint16Array<ArrayBuffer> = rope(bits, 1, { dim: 8 });
const turned16: Float16Array<ArrayBuffer> = rope(f16, 1, { dim: 8 });
const moved16: Float16Array<ArrayBuffer> = rotate(f16, 1, { dim: 8 });
rope(f16, 1, { dim: 8, out: new Float16Array(8) });
ropeCache({
  dim: 8,
  positions: 1,
  dtype: "float16",
  out: { cos: f16, sin: f16 },
});
new Blob([toNpy(f16, [8]), turned16]);
// @ts-expect-error: float16 rows are written into float16, not float32
rope(f16, 1, { dim: 8, out: new Float32Array(8) });
// @ts-expect-error: a Float16Array result is no Float32Array
const narrowed: Float32Array = rope(f16, 1, { dim: 8 });

// Integer typed arrays are refused at run time, and so at compile time.
// @ts-expect-error: rope reads float rows, not Int8Array
rope(new Int8Array(8), 1, { dim: 8 });
// @ts-expect-error: nor Uint8Array
rotate(new Uint8Array(8), 1, { dim: 8 });
// @ts-expect-error: nor Int32Array
rope(new Int32Array(8), 1, { dim: 8 });
// @ts-expect-error: toNpy writes float arrays only
toNpy(new Int16Array(8), [8]);
// @ts-expect-error: a table is float32 or float64, never float16
table({ positions: 1, dim: 8, dtype: "float16" });
// @ts-expect-error: the float16 dtype of a cache is its only half type
ropeCache({ dim: 8, positions: 1, out: { cos: f16, sin: f16 } });

// A caller's shared out keeps its type; a new result is on an ArrayBuffer.
const shared = new Float32Array(new SharedArrayBuffer(32 * 4));
const filled: Float32Array<SharedArrayBuffer> = table({
  positions: 4,
  dim: 8,
  out: shared,
});
// @ts-expect-error: a SharedArrayBuffer is no BufferSource
new Blob([filled]);
// In place, the result is the rows themselves, with their own buffer type.
const sharedRows: Float32Array<SharedArrayBuffer> = rope(shared, 1, {
  dim: 8,
  inPlace: true,
});
const sharedMoved: Float32Array<SharedArrayBuffer> = rotate(shared, 1, {
  dim: 8,
  inPlace: true,
});

export { dims, turnedBits, moved16, narrowed, sharedRows, sharedMoved };
