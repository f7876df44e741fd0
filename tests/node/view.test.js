import assert from "node:assert/strict";
import { test } from "node:test";
import {
  ci,
  decayIntegral,
  dotProducts,
  frequencies,
  init,
  linearRelationError,
  rope,
  rotate,
  table,
  toeplitzError,
} from "../../dist/index.js";

await init();

test("a view reads the module's memory without a copy", () => {
  const copy = table({ positions: 16, dim: 8 });
  const view = table({ positions: 16, dim: 8, view: true });
  assert.deepEqual(Array.from(view), Array.from(copy));
  assert.notEqual(view.buffer, copy.buffer);
  assert.ok(
    view.buffer.byteLength > view.byteLength,
    "backed by the whole module memory",
  );
});

test("the next view detaches the previous one instead of showing its data", () => {
  const first = table({ positions: 4, dim: 4, view: true });
  const kept = Array.from(first);
  const second = table({ positions: 4, dim: 4, start: 100, view: true });
  assert.equal(first.length, 0);
  assert.equal(first[0], undefined);
  assert.throws(() => first.slice(), TypeError);
  assert.throws(() => [...first], TypeError);
  assert.equal(second.length, 16);
  assert.notDeepEqual(Array.from(second), kept);
});

test("copies stay valid whatever happens to the memory", () => {
  const copy = table({ positions: 4, dim: 4 });
  const before = Array.from(copy);
  table({ positions: 4096, dim: 1024, view: true }); // grows the memory
  table({ positions: 8, dim: 4, view: true });
  assert.deepEqual(Array.from(copy), before);
});

test("a failing call leaves the current view intact", () => {
  const view = table({ positions: 4, dim: 4, view: true });
  const before = Array.from(view);
  assert.throws(() => table({ positions: 4, dim: 4, base: -1, view: true }), {
    name: "RangeError",
    code: "ERR_BASE",
    option: "base",
  });
  assert.deepEqual(Array.from(view), before);
});

test("a detached view given back as input is refused, not read as empty", () => {
  const first = table({ positions: 4, dim: 4, view: true });
  table({ positions: 4, dim: 4, view: true });
  const detached = (option) => ({
    name: "TypeError",
    code: "ERR_DETACHED",
    option,
  });
  assert.throws(
    () => table({ positions: first, dim: 4 }),
    detached("positions"),
  );
  assert.throws(() => rope(first, 0, { dim: 4 }), detached("vectors"));
  assert.throws(
    () => dotProducts({ dim: 4, offsets: first }),
    detached("offsets"),
  );
  // An ordinary empty array is still fine.
  assert.equal(table({ positions: new Float64Array(0), dim: 4 }).length, 0);
});

test("a detached view given as frequencies or any list is the TypeError", () => {
  const stale = table({ positions: 1, dim: 4, dtype: "float64", view: true });
  table({ positions: 1, dim: 4, view: true });
  const calls = {
    frequencies: [
      () => table({ positions: 3, dim: 4, frequencies: stale }),
      () => frequencies({ dim: 4, frequencies: stale }),
      () => rotate(new Float32Array(4), 1, { dim: 4, frequencies: stale }),
      () => rope(new Float32Array(4), 1, { dim: 4, frequencies: stale }),
    ],
    offsets: [
      () => rotate(new Float32Array(4), stale, { dim: 4 }),
      () => linearRelationError({ dim: 4, positions: 2, offsets: stale }),
    ],
    positions: [
      () => rope(new Float32Array(4), stale, { dim: 4 }),
      () => toeplitzError({ dim: 4, positions: stale }),
    ],
    vectors: [() => rotate(stale, 1, { dim: 4 })],
    x: [() => decayIntegral({ x: stale }), () => ci(stale)],
  };
  for (const [name, list] of Object.entries(calls))
    for (const call of list)
      assert.throws(
        call,
        { name: "TypeError", code: "ERR_DETACHED", option: name },
        name,
      );
  assert.equal(table({ positions: 2, dim: 4 }).length, 8);
});
