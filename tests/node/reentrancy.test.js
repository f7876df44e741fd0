// Inputs whose getters or Proxy traps call the library while they are read:
// every function must read each option and element exactly once, before it
// allocates or views module memory, so such a call can neither change what
// the kernel reads nor leave a view of moved memory behind.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  ci,
  decayComparison,
  decayIntegral,
  dotProducts,
  frequencies,
  init,
  linearRelationError,
  rope,
  ropeCache,
  ropeFrequencies,
  rotate,
  rotationMatrix,
  si,
  table,
  toeplitzError,
} from "../../dist/index.js";

await init();

function memoryBytes() {
  return table({ positions: 1, dim: 2, view: true }).buffer.byteLength;
}

// Calls the library on a table larger than the whole module memory, which
// must grow it (detaching every view of the old memory); checked, so the
// test cannot pass by doing nothing.
function growMemory() {
  const before = memoryBytes();
  const dim = 1024;
  table({ positions: Math.ceil(before / (4 * dim)) + 1, dim, view: true });
  assert.ok(memoryBytes() > before, "the memory grew");
}

// Starts a view twice: the second frees the first and detaches every view
// of the memory without growing it.
function startView() {
  const first = table({ positions: 2, dim: 4, view: true });
  table({ positions: 2, dim: 4, view: true });
  assert.equal(first.length, 0, "the earlier view was detached");
}

const EFFECTS = { "grows the memory": growMemory, "starts a view": startView };

// Array-likes that count the reads of `length` and of each element, and run
// `effect` on the first read of element 1 (or 0 when there is one).
const WRAPPERS = {
  getters(values, effect) {
    const reads = { length: 0, elements: values.map(() => 0) };
    const trigger = Math.min(1, values.length - 1);
    const arrayLike = {
      get length() {
        reads.length++;
        return values.length;
      },
    };
    values.forEach((value, i) =>
      Object.defineProperty(arrayLike, i, {
        enumerable: true,
        get() {
          if (i === trigger && reads.elements[i] === 0) effect();
          reads.elements[i]++;
          return value;
        },
      }),
    );
    return { arrayLike, reads };
  },
  proxy(values, effect) {
    const reads = { length: 0, elements: values.map(() => 0) };
    const trigger = String(Math.min(1, values.length - 1));
    const arrayLike = new Proxy([...values], {
      get(target, key, receiver) {
        if (key === "length") reads.length++;
        else if (typeof key === "string" && /^\d+$/.test(key)) {
          if (key === trigger && reads.elements[key] === 0) effect();
          reads.elements[key]++;
        }
        return Reflect.get(target, key, receiver);
      },
    });
    return { arrayLike, reads };
  },
};

const paperOmega = (dim) =>
  Array.from({ length: dim / 2 }, (_, i) => 10000 ** ((-2 * i) / dim));
const rows = [0.5, -1, 2, 3.25, 4, -0.75, 1.5, 2];

// Every array-like input of every function: `call(input)` puts the input in
// its place, `values` are the plain numbers it stands for.
const INPUTS = [
  {
    name: "table positions",
    values: [1, 2, 3, 1e4],
    call: (positions) => table({ positions, dim: 6, dtype: "float64" }),
  },
  {
    name: "table positions (float32, view)",
    values: [0.5, 7, -3],
    call: (positions) => table({ positions, dim: 8, view: true }).slice(),
  },
  {
    name: "table frequencies",
    values: [1, 0.25, 0.01],
    call: (frequencies) => table({ positions: 5, dim: 6, frequencies }),
  },
  {
    name: "frequencies() frequencies",
    values: [2, 0.5],
    call: (f) => frequencies({ dim: 4, frequencies: f }),
  },
  {
    name: "preset table positions (fairseq, paddingIdx)",
    values: [2, 3, 1, 4],
    call: (positions) =>
      table({ preset: "fairseq", dim: 8, positions, paddingIdx: 1 }),
  },
  {
    name: "preset table positions (diffusers timesteps)",
    values: [0.5, 999, 10],
    call: (positions) => table({ preset: "diffusers", dim: 8, positions }),
  },
  {
    name: "rotate vectors",
    values: rows,
    call: (vectors) => rotate(vectors, 3, { dim: 4 }),
  },
  {
    name: "rotate offsets",
    values: [1, -2.5],
    call: (offsets) => rotate(new Float32Array(rows), offsets, { dim: 4 }),
  },
  {
    name: "rotate frequencies",
    values: [1, 0.5],
    call: (frequencies) =>
      rotate(new Float64Array(rows), [1, 2], { dim: 4, frequencies }),
  },
  {
    name: "rope vectors",
    values: rows,
    call: (vectors) => rope(vectors, [0, 7], { dim: 4 }),
  },
  {
    name: "rope positions",
    values: [3, 1e5],
    call: (positions) =>
      rope(new Float32Array(rows), positions, {
        dim: 4,
        pairing: "interleaved",
      }),
  },
  {
    name: "rope frequencies",
    values: paperOmega(4),
    call: (frequencies) =>
      rope(new Float32Array(rows), 2, { dim: 4, frequencies }),
  },
  {
    name: "rope preset vectors",
    values: rows,
    call: (vectors) => rope(vectors, [1, 2], { preset: "whisper", dim: 4 }),
  },
  {
    name: "rotationMatrix frequencies",
    values: [1, 0.1, 0.01],
    call: (frequencies) => rotationMatrix(2, { dim: 6, frequencies }),
  },
  {
    name: "linearRelationError positions",
    values: [0, 10, 100.5],
    call: (positions) =>
      linearRelationError({ dim: 8, positions, offsets: [1, -3] }),
  },
  {
    name: "linearRelationError offsets",
    values: [1, -3, 0.5],
    call: (offsets) => linearRelationError({ dim: 8, positions: 5, offsets }),
  },
  {
    name: "linearRelationError frequencies",
    values: [1, 0.5, 0.25, 0.125],
    call: (frequencies) =>
      linearRelationError({
        dim: 8,
        positions: 4,
        offsets: [2],
        frequencies,
        dtype: "float64",
      }),
  },
  {
    name: "dotProducts offsets",
    values: [0, 1, 1000, -7.5],
    call: (offsets) => dotProducts({ dim: 64, offsets }),
  },
  {
    name: "dotProducts frequencies",
    values: [1, 0.3],
    call: (frequencies) =>
      dotProducts({ dim: 4, offsets: [1, 2], frequencies }),
  },
  {
    name: "toeplitzError positions",
    values: [0, 3, 11, 2.5],
    call: (positions) => toeplitzError({ dim: 16, positions }),
  },
  {
    name: "toeplitzError frequencies",
    values: [1, 0.5],
    call: (frequencies) => toeplitzError({ dim: 4, positions: 5, frequencies }),
  },
  {
    name: "decayIntegral x",
    values: [0, 1, 50, 1e4],
    call: (x) => decayIntegral({ theta: "exp", x }),
  },
  {
    name: "decayIntegral x (quadrature)",
    values: [0.5, 5],
    call: (x) =>
      decayIntegral({ theta: "power", alpha: 2, x, method: "quadrature" }),
  },
  {
    name: "decayComparison x",
    values: [0, 10, 1000],
    call: (x) => decayComparison({ dim: 64, x }),
  },
  {
    name: "ropeCache positions",
    values: [0, 3.5, 1e5],
    call: (positions) =>
      ropeCache({ positions, dim: 8, layout: "duplicated", dtype: "float64" }),
  },
  {
    name: "ropeFrequencies longrope shortFactor",
    values: [1, 1.5, 2, 4],
    call: (shortFactor) =>
      ropeFrequencies({
        dim: 8,
        scaling: {
          type: "longrope",
          shortFactor,
          longFactor: [1, 2, 3, 4],
          maxPositionEmbeddings: 8192,
          originalMaxPositionEmbeddings: 4096,
        },
      }),
  },
  { name: "ci x", values: [0.5, 1, 30], call: (x) => ci(x) },
  { name: "si x", values: [-2, 0, 1], call: (x) => si(x) },
];

for (const input of INPUTS)
  for (const [wrapperName, wrap] of Object.entries(WRAPPERS))
    for (const [effectName, effect] of Object.entries(EFFECTS))
      test(`${input.name}: ${wrapperName} whose read ${effectName}`, () => {
        const expected = input.call([...input.values]);
        const { arrayLike, reads } = wrap(input.values, effect);
        assert.deepEqual(input.call(arrayLike), expected);
        assert.equal(reads.length, 1, "length read once");
        assert.deepEqual(
          reads.elements,
          input.values.map(() => 1),
          "each element read once",
        );
      });

// An options object whose getters (or Proxy traps) call the library: each
// option is read once, and the result is the plain call's.
function countingOptions(options, effect) {
  const reads = {};
  const proxy = new Proxy(options, {
    get(target, key, receiver) {
      if (typeof key === "string") {
        reads[key] = (reads[key] ?? 0) + 1;
        if (key === "dim" && reads[key] === 1) effect();
      }
      return Reflect.get(target, key, receiver);
    },
  });
  return { proxy, reads };
}

const OPTION_CALLS = [
  {
    name: "table",
    options: { positions: [1, 2], dim: 8, layout: "halves", scale: 2 },
    call: (o) => table(o),
  },
  {
    name: "table (preset)",
    options: { preset: "marian", dim: 6, positions: 3, pastKeyValuesLength: 2 },
    call: (o) => table(o),
  },
  { name: "frequencies", options: { dim: 16, base: 500 }, call: frequencies },
  {
    name: "rotate",
    options: { dim: 4, layout: "halves-cos-first" },
    call: (o) => rotate(new Float32Array(rows), 2, o),
  },
  {
    name: "rope (preset)",
    options: { preset: "diffusers", dim: 4, pairing: "interleaved" },
    call: (o) => rope(new Float32Array(rows), [1, 2], o),
  },
  {
    name: "rotationMatrix",
    options: { dim: 6, schedule: "shifted", shift: 1 },
    call: (o) => rotationMatrix(1.5, o),
  },
  {
    name: "linearRelationError",
    options: { dim: 8, positions: 3, start: 2, offsets: [1] },
    call: linearRelationError,
  },
  {
    name: "dotProducts",
    options: { dim: 8, offsets: { from: 0, to: 10, count: 11 } },
    call: dotProducts,
  },
  {
    name: "toeplitzError",
    options: { dim: 8, positions: 6, dtype: "float32" },
    call: toeplitzError,
  },
  {
    name: "decayComparison",
    options: { dim: 32, theta: "power", alpha: 0.5, x: [1, 2] },
    call: decayComparison,
  },
  {
    name: "ropeFrequencies",
    options: { dim: 16, base: 500000, scaling: { type: "linear", factor: 4 } },
    call: ropeFrequencies,
  },
  {
    name: "ropeCache",
    options: {
      dim: 8,
      positions: 5,
      start: 2,
      layout: "interleaved",
      dtype: "float16",
      scaling: { type: "yarn", factor: 4, originalMaxPositionEmbeddings: 32 },
    },
    call: ropeCache,
  },
];

for (const { name, options, call } of OPTION_CALLS)
  for (const [effectName, effect] of Object.entries(EFFECTS))
    test(`${name} options: a Proxy whose read of dim ${effectName}`, () => {
      const expected = call({ ...options });
      const { proxy, reads } = countingOptions(options, effect);
      assert.deepEqual(call(proxy), expected);
      for (const key of Object.keys(options))
        assert.equal(reads[key], 1, `option "${key}" read once`);
    });

test("an evenly spaced grid whose getters call the library is read once", () => {
  const reads = { from: 0, to: 0, count: 0 };
  const x = {
    get from() {
      reads.from++;
      growMemory();
      return 0;
    },
    get to() {
      reads.to++;
      startView();
      return 100;
    },
    get count() {
      reads.count++;
      return 5;
    },
  };
  assert.deepEqual(
    decayIntegral({ x }),
    decayIntegral({ x: [0, 25, 50, 75, 100] }),
  );
  assert.deepEqual(reads, { from: 1, to: 1, count: 1 });
});

test("a live view given as input is read before the call moves the memory", () => {
  const positions = table({
    positions: 4,
    dim: 1,
    dtype: "float64",
    oddDim: "extra-sin",
    view: true,
  });
  const copy = positions.slice();
  // This call's own view frees the memory behind `positions`.
  const got = table({ positions, dim: 4, view: true }).slice();
  assert.deepEqual(got, table({ positions: copy, dim: 4 }));

  const vectors = table({ positions: 3, dim: 4, view: true });
  const plain = vectors.slice();
  assert.deepEqual(
    rotate(vectors, 2, { dim: 4 }),
    rotate(plain, 2, { dim: 4 }),
  );
  assert.throws(
    () =>
      rope(table({ positions: 3, dim: 4, view: true }), 1, {
        dim: 4,
        inPlace: true,
      }),
    { name: "TypeError", code: "ERR_MODULE_MEMORY", option: "vectors" },
  );
});

// The two cases that once returned wrong values.
test("table: positions whose getter grows the memory give their own rows", () => {
  table({ positions: [7, 8, 9], dim: 2, dtype: "float64" });
  const pos = {
    length: 3,
    0: 1,
    get 1() {
      table({ positions: 8192, dim: 8192 });
      return 2;
    },
    2: 3,
  };
  const got = table({ positions: pos, dim: 2, dtype: "float64" });
  const want = [1, 2, 3].flatMap((p) => [Math.sin(p), Math.cos(p)]);
  for (let i = 0; i < want.length; i++)
    assert.ok(Math.abs(got[i] - want[i]) <= 1e-15, `value ${i}: ${got[i]}`);
});

test("rope: vectors whose getter grows the memory are rotated, no detached set", () => {
  const values = [1, 0, 0, 1, 0.5, -2, 3, 1];
  const vectors = { length: 8 };
  values.forEach((v, i) =>
    Object.defineProperty(vectors, i, {
      get() {
        if (i === 5) growMemory(); // on every read, as a careless getter would
        return v;
      },
    }),
  );
  const got = rope(vectors, [0, 1], { dim: 4, pairing: "interleaved" });
  // GPT-J pairs (2i, 2i + 1) rotated by position · w_i, w = [1, 1/100].
  const w = [1, 0.01];
  const want = [];
  [0, 1].forEach((p, r) => {
    for (let i = 0; i < 2; i++) {
      const [x, y] = values.slice(4 * r + 2 * i, 4 * r + 2 * i + 2);
      const a = p * w[i];
      want.push(
        x * Math.cos(a) - y * Math.sin(a),
        y * Math.cos(a) + x * Math.sin(a),
      );
    }
  });
  for (let i = 0; i < want.length; i++)
    assert.ok(Math.abs(got[i] - want[i]) <= 3e-7, `value ${i}: ${got[i]}`);
});
