// Arrays on SharedArrayBuffers: another buffer object can share their
// memory (a structuredClone of one, as a worker receives it), which no
// identity check sees, so results must be right however an input and an
// output, or two outputs, meet there.
import { test } from "node:test";
import assert from "node:assert/strict";
import { api as pe, init } from "../../build/internals.js";

await init();

const DIM = 64;
// 8192 rows of 64 float32: 2 MiB, turned in several blocks.
const COUNT = 8192;
const OPTIONS = { dim: DIM, base: 10000 };
const positions = Float64Array.from({ length: COUNT }, (_, i) => i * 0.75);
const values = (n) => Float32Array.from({ length: n }, (_, i) => Math.sin(i));

// Input rows at row `inputAt` of one SharedArrayBuffer and an out at row
// `outAt` of a clone of it: the same memory through two objects.
function sharedPair(inputAt, outAt) {
  const rows = COUNT + Math.max(inputAt, outAt);
  const memory = new SharedArrayBuffer(rows * DIM * 4);
  const input = new Float32Array(memory, inputAt * DIM * 4, COUNT * DIM);
  input.set(values(COUNT * DIM));
  const out = new Float32Array(
    structuredClone(memory),
    outAt * DIM * 4,
    COUNT * DIM,
  );
  return { input, out };
}

test("rope and a rope plan into an out on a clone of the input's SharedArrayBuffer give the values of a separate out", () => {
  const expected = pe.rope(values(COUNT * DIM), positions, OPTIONS);
  const plan = pe.createRope(OPTIONS);
  for (const [inputAt, outAt] of [
    [0, 3],
    [3, 0],
    [0, 0],
    [0, 1000],
  ]) {
    const viaRope = sharedPair(inputAt, outAt);
    pe.rope(viaRope.input, positions, { ...OPTIONS, out: viaRope.out });
    assert.deepEqual(viaRope.out, expected, `rope, rows ${inputAt} → ${outAt}`);
    const viaPlan = sharedPair(inputAt, outAt);
    plan.apply(viaPlan.input, positions, { out: viaPlan.out });
    assert.deepEqual(viaPlan.out, expected, `plan, rows ${inputAt} → ${outAt}`);
  }
  plan.dispose();
});

test("ropeCache's out.cos and out.sin on one SharedArrayBuffer through two objects: overlapping is refused, apart is right", () => {
  const length = COUNT * (DIM / 2);
  const options = { ...OPTIONS, positions: COUNT };
  const expected = pe.ropeCache(options);
  const memory = new SharedArrayBuffer(2 * length * 4);
  const clone = structuredClone(memory);
  const before = values(2 * length);
  new Float32Array(memory).set(before);
  for (const sinAt of [0, length / 2, 100])
    assert.throws(
      () =>
        pe.ropeCache({
          ...options,
          out: {
            cos: new Float32Array(memory, 0, length),
            sin: new Float32Array(clone, sinAt * 4, length),
          },
        }),
      { name: "RangeError", code: "ERR_OVERLAP", option: "out.sin" },
    );
  // The check that found the overlap left the memory as it was.
  assert.deepEqual(new Float32Array(memory), before);
  const apart = {
    cos: new Float32Array(memory, 0, length),
    sin: new Float32Array(clone, length * 4, length),
  };
  pe.ropeCache({ ...options, out: apart });
  assert.deepEqual(apart.cos, expected.cos);
  assert.deepEqual(apart.sin, expected.sin);
  // Two SharedArrayBuffers of their own at the same offsets are apart.
  const own = {
    cos: new Float32Array(new SharedArrayBuffer(length * 4)),
    sin: new Float32Array(new SharedArrayBuffer(length * 4)),
  };
  const plan = pe.createRopeCache(OPTIONS);
  plan.rows(COUNT, { out: own });
  assert.deepEqual(own.cos, expected.cos);
  assert.deepEqual(own.sin, expected.sin);
});
