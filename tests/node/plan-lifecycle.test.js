// Every plan kind as one lifecycle: refused at creation by the function
// that makes it, bounded in module memory whatever the caller keeps, drops
// or disposes, refused by code after dispose() or on another receiver, and
// ended by `using`'s Symbol.dispose.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  allocationCount,
  api as pe,
  init,
  memoryBuffer,
} from "../../build/internals.js";
import {
  cosOfProduct,
  maxAbsDiff,
  paperFrequencies,
  sinOfProduct,
  tableStillRight,
} from "./reference.js";

await init();

const MiB = 2 ** 20;
const memoryBytes = () => memoryBuffer().byteLength;

const CREATE = {
  createRope: (options) => pe.createRope(options),
  createTable: (options) => pe.createTable(options),
  createRopeCache: (options) => pe.createRopeCache(options),
};

test("every plan kind refuses bad options when it is made, naming its create function once", () => {
  const cases = [
    [{ dim: 8, base: 1 }, "base", "ERR_BASE"],
    [{ dim: 8, scaling: { type: "linear", factor: 0 } }, "scaling.factor"],
  ];
  for (const [name, create] of Object.entries(CREATE))
    for (const [options, option, code] of cases)
      assert.throws(
        () => create(options),
        (error) => {
          assert.ok(error instanceof RangeError, error.message);
          assert.equal(error.function, name);
          assert.equal(error.option, option);
          if (code !== undefined) assert.equal(error.code, code);
          assert.ok(
            error.message.startsWith(`sinusoidal-pe: ${name}: option "`),
            error.message,
          );
          // No other public function is named.
          const rest = error.message.slice(`sinusoidal-pe: ${name}: `.length);
          assert.doesNotMatch(
            rest,
            /\b(rope|table|ropeCache|createRope|createTable|createRopeCache): /,
          );
          return true;
        },
      );
  // A table's own values checked by the core: its scale and output scale.
  for (const [options, option] of [
    [{ dim: 4, frequencies: [1e300, 1], scale: 1e10 }, "scale"],
    [{ dim: 8, outputScale: 1e39 }, "outputScale"],
  ])
    assert.throws(() => pe.createTable(options), {
      name: "RangeError",
      option,
      function: "createTable",
    });
  assert.ok(tableStillRight(pe));
});

test("10,000 plans never disposed, each applied to 64 KiB of rows, leave module memory bounded", () => {
  const rows = new Float32Array(64 * 256).fill(0.5);
  const expected = pe.rope(rows, 3, { dim: 256 });
  const before = memoryBytes();
  for (let i = 0; i < 10000; i++) {
    const result = pe.createRope({ dim: 256 }).apply(rows, 3);
    if (i % 1000 === 0) assert.deepEqual(result, expected);
    pe.createTable({ dim: 256 }).rows(64);
    pe.createRopeCache({ dim: 256 }).rows(64);
  }
  const grown = memoryBytes() - before;
  assert.ok(grown <= 16 * MiB, `memory grew by ${grown / MiB} MiB`);
});

test("3,000 plans disposed by a getter of their own call's positions leave module memory bounded", () => {
  const rows = new Float32Array(64 * 256).fill(0.5);
  const expected = pe.rope(rows, Array(64).fill(2), { dim: 256 });
  const before = memoryBytes();
  for (let i = 0; i < 3000; i++) {
    const plan = pe.createRope({ dim: 256 });
    const positions = Array(64).fill(2);
    Object.defineProperty(positions, 0, {
      get() {
        plan.dispose();
        return 2;
      },
    });
    // The call under way finishes; the plan is refused after it.
    assert.deepEqual(plan.apply(rows, positions), expected);
    assert.throws(() => plan.apply(rows, 2), { code: "ERR_DISPOSED" });
  }
  const grown = memoryBytes() - before;
  assert.ok(grown <= 16 * MiB, `memory grew by ${grown / MiB} MiB`);
});

test("plans' calls, of tensors larger than a block too, allocate no module memory once the first have run", () => {
  const queries = pe.createRope({ dim: 128, heads: 8, order: "bshd" });
  const keys = pe.createRope({ dim: 64, pairing: "interleaved" });
  const rows = pe.createTable({ dim: 256 });
  const caches = pe.createRopeCache({ dim: 128 });
  // 2 MiB of queries (blocks), one token's keys, 2 MiB of rows and caches.
  const prefill = new Float32Array(512 * 8 * 128).fill(0.5);
  const step = new Float32Array(8 * 64).fill(0.5);
  const out = new Float32Array(2048 * 256);
  const calls = (position) => {
    queries.apply(prefill, position, { inPlace: true });
    keys.apply(step, Array(8).fill(position), { inPlace: true });
    rows.rows(2048, { start: position, out });
    caches.rows(4096, { start: position });
  };
  calls(0);
  const before = allocationCount();
  for (let position = 1; position < 20; position++) calls(position);
  assert.equal(allocationCount() - before, 0);
  for (const plan of [queries, keys, rows, caches]) plan.dispose();
});

// Rows of x rotated in float64: pair i at angle p · w_i, its columns
// (i, i + dim / 2) with pairing "halves", (2i, 2i + 1) with "interleaved".
function rotated(x, positions, { dim, base, pairing = "halves" }) {
  const w = paperFrequencies(dim, dim / 2, base);
  const out = [];
  positions.forEach((p, row) => {
    const values = Array.from(x.subarray(row * dim, (row + 1) * dim));
    for (let i = 0; i < dim / 2; i++) {
      const [j, k] =
        pairing === "halves" ? [i, i + dim / 2] : [2 * i, 2 * i + 1];
      const [c, s] = [cosOfProduct(p, w[i]), sinOfProduct(p, w[i])];
      const [a, b] = [x[row * dim + j], x[row * dim + k]];
      values[j] = a * c - b * s;
      values[k] = a * s + b * c;
    }
    out.push(...values);
  });
  return out;
}

test("plans whose calls alternate with other calls in the workspace each equal their one-shot call bit for bit", () => {
  const slow = { dim: 64, base: 500000 };
  const fast = { dim: 64, base: 100, pairing: "interleaved" };
  const a = pe.createRope(slow);
  const b = pe.createRope(fast);
  const rows = pe.createTable({ dim: 64 });
  const x = Float32Array.from({ length: 4 * 64 }, (_, i) => Math.sin(i));
  const steps = [0, 1, 2, 3].map((step) => [step, 3 * step, 7, 1000 + step]);
  const slowRows = steps.map((at) => pe.rope(x, at, slow));
  const fastRows = steps.map((at) => pe.rope(x, at, fast));
  // The one-shot calls themselves against the rotation in float64.
  steps.forEach((at, step) => {
    for (const [options, got] of [
      [slow, slowRows[step]],
      [fast, fastRows[step]],
    ])
      assert.ok(
        maxAbsDiff(got, rotated(x, at, options)) < 1e-5,
        `base ${options.base}, step ${step}`,
      );
  });
  steps.forEach((at, step) => {
    // One plan's call after the other's, after a table's, twice in a row.
    assert.deepEqual(a.apply(x, at), slowRows[step], `a, step ${step}`);
    if (step % 2 === 0) rows.rows(300, { start: step });
    const first = b.apply(x, at);
    const second = b.apply(x, at);
    assert.deepEqual(first, fastRows[step], `b, step ${step}`);
    assert.deepEqual(second, fastRows[step], `b again, step ${step}`);
  });
});

test("a plan's method on another receiver is a coded TypeError, and the plan goes on", () => {
  const rope = pe.createRope({ dim: 8 });
  const table = pe.createTable({ dim: 8 });
  const cache = pe.createRopeCache({ dim: 8 });
  const rows = new Float32Array(8).fill(1);
  for (const [method, receivers, name] of [
    [rope.apply, [{}, table, null, undefined, 5], "rope"],
    [table.rows, [{}, rope, cache], "table"],
    [cache.rows, [{}, table, Object.create(cache)], "ropeCache"],
    [rope.dispose, [{}, cache], "rope"],
  ])
    for (const receiver of receivers)
      assert.throws(() => method.call(receiver, rows, 1), {
        name: "TypeError",
        code: "ERR_RECEIVER",
        function: name,
      });
  assert.deepEqual(rope.apply(rows, 0), rows);
  assert.equal(table.rows(2).length, 16);
  assert.equal(cache.rows(2).cos.length, 8);
});

test("Symbol.dispose ends every plan kind as dispose() does", () => {
  for (const [name, create] of Object.entries(CREATE)) {
    const plan = create({ dim: 8 });
    assert.equal(typeof plan[Symbol.dispose], "function", name);
    plan[Symbol.dispose]();
    plan[Symbol.dispose]();
    const run =
      name === "createRope"
        ? () => plan.apply([1, 2, 3, 4, 5, 6, 7, 8], 1)
        : () => plan.rows(1);
    assert.throws(run, { name: "TypeError", code: "ERR_DISPOSED" }, name);
  }
});

test("a plan kind's dispose() on a plan of another kind is refused by code and ends neither plan", () => {
  const plans = {
    rope: pe.createRope({ dim: 8 }),
    table: pe.createTable({ dim: 8 }),
    ropeCache: pe.createRopeCache({ dim: 8 }),
  };
  const runs = {
    rope: (plan) => plan.apply(Float64Array.of(1, 0, 0, 0, 0, 0, 0, 0), 0),
    table: (plan) => plan.rows(1),
    ropeCache: (plan) => plan.rows(1).cos,
  };
  const before = Object.fromEntries(
    Object.entries(plans).map(([name, plan]) => [name, runs[name](plan)]),
  );
  for (const [name, plan] of Object.entries(plans))
    for (const [other, receiver] of Object.entries(plans))
      if (other !== name)
        assert.throws(
          () => plan.dispose.call(receiver),
          { name: "TypeError", code: "ERR_RECEIVER", function: name },
          `${name}'s dispose() on a ${other} plan`,
        );
  for (const [name, plan] of Object.entries(plans)) {
    assert.deepEqual(runs[name](plan), before[name], name);
    // Its own dispose() still ends it.
    plan.dispose();
    assert.throws(() => runs[name](plan), { code: "ERR_DISPOSED" }, name);
  }
});
