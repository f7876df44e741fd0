// Plans as their users meet them: made once, run many times, through memory
// growth and a module reset after an internal fault, refused cleanly after
// dispose(), and reading a call's inputs before checking any of them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { api as pe, init, kernels, wasm } from "../../build/internals.js";
import { tableStillRight } from "./reference.js";

await init();

const LLAMA3 = {
  dim: 16,
  base: 500000,
  scaling: {
    type: "llama3",
    factor: 8,
    lowFreqFactor: 1,
    highFreqFactor: 4,
    originalMaxPositionEmbeddings: 8192,
  },
};

const tokens = (n, heads, dim) =>
  Float32Array.from({ length: n * heads * dim }, (_, i) => Math.cos(i * 0.7));

test("a decode loop: one token a step through a plan equals rope and the float64 rotation", () => {
  const [heads, dim] = [4, 16];
  const options = { dim, base: 10000, heads, order: "bshd" };
  const plan = pe.createRope(options);
  const step = tokens(1, heads, dim);
  for (let past = 0; past < 40; past++) {
    const viaPlan = plan.apply(step, past);
    assert.deepEqual(viaPlan, pe.rope(step, past, options));
    // rotate_half in float64: pair (i, i + dim/2) turned by past · 10000^(-2i/dim).
    for (let h = 0; h < heads; h++)
      for (let i = 0; i < dim / 2; i++) {
        const angle = past * Math.pow(10000, (-2 * i) / dim);
        const [x, y] = [step[h * dim + i], step[h * dim + i + dim / 2]];
        const expected = [
          x * Math.cos(angle) - y * Math.sin(angle),
          y * Math.cos(angle) + x * Math.sin(angle),
        ];
        assert.ok(Math.abs(viaPlan[h * dim + i] - expected[0]) <= 2 ** -23);
        assert.ok(
          Math.abs(viaPlan[h * dim + i + dim / 2] - expected[1]) <= 2 ** -23,
        );
      }
  }
  plan.dispose();
});

test("a plan after dispose() is a clear error, and others go on", () => {
  const plan = pe.createRope({ dim: 8 });
  const other = pe.createRope({ dim: 8 });
  plan.dispose();
  plan.dispose(); // twice is harmless
  assert.throws(() => plan.apply(new Float32Array(8), 1), {
    name: "TypeError",
    code: "ERR_DISPOSED",
    function: "rope",
  });
  assert.deepEqual(
    other.apply(new Float32Array(8).fill(1), 0),
    new Float32Array(8).fill(1),
  );
  const rows = pe.createTable({ dim: 4 });
  rows.dispose();
  assert.throws(() => rows.rows(2), {
    code: "ERR_DISPOSED",
    function: "table",
  });
  assert.ok(tableStillRight(pe));
});

test("options a call gives are refused at plan creation, naming where they go", () => {
  for (const [make, option] of [
    [() => pe.createRope({ dim: 8, out: new Float32Array(8) }), "out"],
    [() => pe.createRope({ dim: 8, inPlace: true }), "inPlace"],
    [() => pe.createTable({ dim: 8, positions: 4 }), "positions"],
    [() => pe.createTable({ dim: 8, view: true }), "view"],
  ])
    assert.throws(make, (error) => {
      assert.ok(error instanceof TypeError);
      assert.equal(error.option, option);
      assert.equal(error.code, "ERR_NOT_APPLICABLE");
      assert.equal(
        error.function,
        make.toString().includes("Rope") ? "createRope" : "createTable",
      );
      assert.match(error.message, /per call|a plan's rows/);
      return true;
    });
  const plan = pe.createRope({ dim: 8 });
  assert.throws(
    () => plan.apply(new Float32Array(8), 1, { dim: 16 }),
    (error) =>
      error instanceof TypeError &&
      error.option === "dim" &&
      error.code === "ERR_UNKNOWN_OPTION" &&
      error.function === "rope",
  );
  assert.ok(tableStillRight(pe));
});

test("a plan survives memory growth", () => {
  const options = { ...LLAMA3, heads: 2, order: "bhsd" };
  const plan = pe.createRope(options);
  const x = tokens(3, 2, 16);
  const before = plan.apply(x, 7);
  const bytes = wasm().memory.buffer.byteLength;
  // A view of 64 MiB grows the memory past its size.
  pe.table({ positions: 16384, dim: 1024, view: true });
  assert.ok(wasm().memory.buffer.byteLength > bytes);
  assert.deepEqual(plan.apply(x, 7), before);
  const tablePlan = pe.createTable({ dim: 32 });
  const rows = tablePlan.rows([1, 2.5]);
  pe.table({ positions: 16384, dim: 2048, view: true });
  assert.deepEqual(tablePlan.rows([1, 2.5]), rows);
});

test("a plan survives the module's reset after an internal fault", () => {
  const plan = pe.createRope({ ...LLAMA3, heads: 2, order: "bshd" });
  const x = tokens(2, 2, 16);
  const before = plan.apply(x, 100);
  const instance = wasm();
  // No public input reaches a trap: a kernel called past the end does.
  assert.throws(
    () =>
      kernels.tableF64({
        api: "table",
        out: 2 ** 32 - 2 ** 16,
        count: 4,
        dim: 4,
        layout: 0,
        oddDim: 0,
        omega: 2 ** 32 - 2 ** 16,
        pairs: 2,
        scale: 1,
        amplitude: 1,
      }),
    { code: "ERR_FAULT" },
  );
  assert.notEqual(wasm(), instance, "a fresh instance");
  assert.deepEqual(plan.apply(x, 100), before);
  plan.dispose();
  assert.ok(tableStillRight(pe));
});

test("rope reads the positions before checking the rows: a getter that detaches them is refused by name", () => {
  for (const call of [
    (x, positions) => pe.rope(x, positions, { dim: 4 }),
    (x, positions) => pe.createRope({ dim: 4 }).apply(x, positions),
  ]) {
    const x = new Float32Array(new ArrayBuffer(32), 0, 8);
    const positions = {
      length: 2,
      get 0() {
        structuredClone(x.buffer, { transfer: [x.buffer] });
        return 1;
      },
      1: 2,
    };
    assert.throws(
      () => call(x, positions),
      (error) =>
        error instanceof TypeError &&
        error.option === "vectors" &&
        error.code === "ERR_DETACHED" &&
        /vectors is a detached view/.test(error.message),
    );
    // One that shrinks a resizable buffer under the rows: out of bounds.
    const buffer = new ArrayBuffer(32, { maxByteLength: 32 });
    const y = new Float32Array(buffer, 0, 8);
    const shrinking = [1, 2];
    Object.defineProperty(shrinking, 1, {
      get() {
        buffer.resize(8);
        return 2;
      },
    });
    assert.throws(
      () => call(y, shrinking),
      (error) =>
        error instanceof TypeError && error.code === "ERR_OUT_OF_BOUNDS",
    );
  }
  assert.ok(tableStillRight(pe));
});

test("a getter in a call's options that calls the library again leaves the plan intact", () => {
  const plan = pe.createRope({ dim: 8 });
  const x = new Float32Array(16).fill(0.5);
  const expected = pe.rope(x, [3, 4], { dim: 8 });
  const out = new Float32Array(16);
  const perCall = {
    get out() {
      assert.deepEqual(plan.apply(x, [3, 4]), expected);
      pe.table({ positions: 4096, dim: 512, view: true });
      return out;
    },
  };
  assert.equal(plan.apply(x, [3, 4], perCall), out);
  assert.deepEqual(out, expected);
});

test("a plan's per-call options are read as any options are: each own value once, undefined as absent, other keys refused", () => {
  const x = new Float32Array(16).fill(0.5);
  const rope = pe.createRope({ dim: 8 });
  const table = pe.createTable({ dim: 8 });
  const cache = pe.createRopeCache({ dim: 8 });
  const reads = [];
  const counted = (target) =>
    new Proxy(target, {
      get(object, key) {
        // The kind check reads Symbol.toStringTag, as for every options
        // object; the options are the string keys.
        if (typeof key === "string") reads.push(key);
        return object[key];
      },
    });
  const out = new Float32Array(16);
  assert.equal(rope.apply(x, 3, counted({ out, inPlace: undefined })), out);
  assert.deepEqual(out, pe.rope(x, 3, { dim: 8 }));
  assert.deepEqual(reads, ["out", "inPlace"]);
  reads.length = 0;
  const rows = new Float32Array(16);
  table.rows(2, counted({ start: 5, out: rows }));
  assert.deepEqual(rows, pe.table({ positions: 2, start: 5, dim: 8 }));
  assert.deepEqual(reads, ["start", "out"]);
  // Inherited keys are not options; an own key with undefined is absent.
  const inherited = Object.create({ inPlace: true });
  inherited.unknown = undefined;
  const copy = x.slice();
  assert.notEqual(rope.apply(copy, 3, inherited), copy);
  assert.deepEqual(copy, x);
  for (const [call, where] of [
    [() => rope.apply(x, 3, { inPlace: true, outt: out }), "apply()"],
    [() => table.rows(1, { begin: 1 }), "rows()"],
    [() => cache.rows(1, { outt: {} }), "rows()"],
  ])
    assert.throws(call, (error) => {
      assert.equal(error.code, "ERR_UNKNOWN_OPTION");
      assert.match(
        error.message,
        new RegExp(`plan's ${where.replace(/[()]/g, "\\$&")}`),
      );
      return true;
    });
  assert.throws(
    () => table.rows(1, [1]),
    (error) => error.code === "ERR_NOT_OBJECT" && error.option === "perCall",
  );
  assert.ok(tableStillRight(pe));
});

test("a table plan writes rows of a growing cache into the caller's array", () => {
  const plan = pe.createTable({ dim: 64, dtype: "float64" });
  const out = new Float64Array(64);
  for (let p = 0; p < 50; p++) {
    assert.equal(plan.rows([p], { out }), out);
    assert.deepEqual(
      out,
      pe.table({ positions: [p], dim: 64, dtype: "float64" }),
    );
    assert.ok(Math.abs(out[0] - Math.sin(p)) <= 2 ** -52);
    assert.ok(Math.abs(out[1] - Math.cos(p)) <= 2 ** -52);
  }
  assert.deepEqual(
    plan.rows(3, { start: 10 }),
    pe.table({ positions: 3, start: 10, dim: 64, dtype: "float64" }),
  );
});

test("a table plan keeps its memory between calls of any size and quotes a refused position without writing", () => {
  const options = { dim: 24, scale: 10 };
  const plan = pe.createTable(options);
  const many = Float64Array.from({ length: 3000 }, (_, i) => i * 0.75);
  for (const positions of [[7], many, [5, 9], 40, many.subarray(0, 3)])
    assert.deepEqual(plan.rows(positions), pe.table({ ...options, positions }));
  const out = new Float32Array(2 * 24).fill(NaN);
  assert.throws(
    () => plan.rows([1, 1e308], { out }),
    (error) => {
      assert.ok(error instanceof RangeError, error.message);
      assert.equal(error.option, "positions");
      assert.ok(
        error.message.includes("must be a finite angle: 1e+308 × "),
        error.message,
      );
      return true;
    },
  );
  assert.ok(out.every(Number.isNaN), "nothing was written");
  assert.deepEqual(
    plan.rows([1, 2], { out }),
    pe.table({ ...options, positions: [1, 2] }),
  );
});

test("a cache plan follows each call's sequence and keeps its own options", () => {
  const options = {
    dim: 32,
    base: 10000,
    scaling: { type: "dynamic", factor: 4, maxPositionEmbeddings: 64 },
  };
  const plan = pe.createRopeCache(options);
  for (const positions of [10, 300, 10, [5, 1000], 64]) {
    const viaPlan = plan.rows(positions);
    const oneShot = pe.ropeCache({ ...options, positions });
    assert.deepEqual(viaPlan, oneShot);
  }
  // A short sequence after a long one is the unscaled schedule again.
  const short = plan.rows(10);
  assert.deepEqual(short.warnings, []);
  assert.deepEqual(short.cos, pe.ropeCache({ dim: 32, positions: 10 }).cos);
  // A KV cache's rows one token at a time, into reused arrays.
  const llama = pe.createRopeCache({ dim: 16, base: 500000, layout: "half" });
  const out = { cos: new Float32Array(8), sin: new Float32Array(8) };
  for (let p = 0; p < 20; p++) {
    const row = llama.rows(1, { start: p, out });
    assert.equal(row.cos, out.cos);
    assert.deepEqual(
      row.cos,
      pe.ropeCache({ dim: 16, base: 500000, positions: [p] }).cos,
    );
  }
  llama.dispose();
  assert.throws(() => llama.rows(1), {
    code: "ERR_DISPOSED",
    function: "ropeCache",
  });
});

test("toNpy reads the shape before checking the values: a getter that detaches them is refused by name", () => {
  const values = new Float32Array(4);
  const shape = [
    2,
    {
      valueOf() {
        return 2;
      },
    },
  ];
  Object.defineProperty(shape, 1, {
    get() {
      structuredClone(values.buffer, { transfer: [values.buffer] });
      return 2;
    },
  });
  assert.throws(
    () => pe.toNpy(values, shape),
    (error) =>
      error instanceof TypeError &&
      error.option === "values" &&
      error.code === "ERR_DETACHED",
  );
  assert.equal(pe.toNpy(new Float32Array(4), [2, 2]).length, 128 + 16);
});
