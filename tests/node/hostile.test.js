// Hostile inputs: getters that throw or change between reads, Proxies,
// holes, shared memory, null prototypes, valueOf/toString tricks, BigInt and
// symbols. Each is refused by name or read exactly once, and the module
// gives the right values afterwards.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as pe from "../../dist/index.js";

await pe.init();

const reference = () =>
  pe.table({ positions: [2, 3], dim: 4, dtype: "float64" });
const expected = Array.from(reference());

function stillWorks() {
  assert.deepEqual(Array.from(reference()), expected);
}

// Every function that takes options: its valid defaults, and the call. The
// options object is built by the test and handed over as is, so getters and
// prototypes reach the library untouched.
const CALLS = {
  table: [{ positions: 3, dim: 8 }, (o) => pe.table(o)],
  frequencies: [{ dim: 8 }, (o) => pe.frequencies(o)],
  rotate: [{ dim: 8 }, (o) => pe.rotate(new Float32Array(8), 1, o)],
  rope: [{ dim: 8 }, (o) => pe.rope(new Float32Array(8), 1, o)],
  rotationMatrix: [{ dim: 8 }, (o) => pe.rotationMatrix(1, o)],
  linearRelationError: [
    { dim: 8, positions: 4, offsets: [1] },
    (o) => pe.linearRelationError(o),
  ],
  dotProducts: [{ dim: 8, offsets: [1, 2] }, (o) => pe.dotProducts(o)],
  toeplitzError: [{ dim: 8, positions: 4 }, (o) => pe.toeplitzError(o)],
  decayIntegral: [{ x: [1, 2] }, (o) => pe.decayIntegral(o)],
  decayComparison: [{ dim: 8, x: [1, 2] }, (o) => pe.decayComparison(o)],
};

function optionsOf(
  defaults,
  { prototype = Object.prototype, getters = {}, values = {} } = {},
) {
  const options = Object.assign(Object.create(prototype), defaults, values);
  for (const [key, get] of Object.entries(getters))
    Object.defineProperty(options, key, {
      get,
      enumerable: true,
      configurable: true,
    });
  return options;
}

for (const [name, [defaults, call]] of Object.entries(CALLS)) {
  const key = "dim" in defaults ? "dim" : "x";
  test(`${name}: a throwing getter's error reaches the caller, and the module goes on`, () => {
    const getters = {
      [key]() {
        throw new SyntaxError("from the getter");
      },
    };
    assert.throws(() => call(optionsOf(defaults, { getters })), SyntaxError);
    stillWorks();
  });

  test(`${name}: an options object with a null prototype works`, () => {
    const options = optionsOf(defaults, { prototype: null });
    assert.equal(Object.getPrototypeOf(options), null);
    assert.doesNotThrow(() => call(options));
    stillWorks();
  });

  for (const [label, value] of [
    ["a BigInt", 8n],
    ["a symbol", Symbol("value")],
    ["an object with valueOf and toString", "trap"],
    ["a string", "8"],
  ])
    test(`${name}: ${key} as ${label} is a TypeError naming it, never coerced`, () => {
      let coerced = false;
      const given =
        value === "trap"
          ? {
              valueOf: () => ((coerced = true), 8),
              toString: () => ((coerced = true), "8"),
            }
          : value;
      // dim takes a number; x a number, an array of them or an evenly
      // spaced grid { from, to, count }, whose keys an object is read as.
      const expected =
        key === "dim"
          ? { code: "ERR_NOT_NUMBER", option: key }
          : value === "trap"
            ? { code: "ERR_UNKNOWN_OPTION", option: "x.valueOf" }
            : { code: "ERR_NOT_ARRAY", option: key };
      assert.throws(
        () => call(optionsOf(defaults, { values: { [key]: given } })),
        { name: "TypeError", ...expected },
      );
      assert.equal(coerced, false);
      stillWorks();
    });
}

test("an option that changes between reads is read once", () => {
  let reads = 0;
  const options = {
    positions: [1, 2],
    get dim() {
      reads++;
      return reads === 1 ? 4 : 4096;
    },
    dtype: "float64",
  };
  const values = pe.table(options);
  assert.equal(reads, 1);
  assert.equal(values.length, 8);
});

test("array elements that change between reads are each read once", () => {
  const reads = [0, 0, 0];
  const positions = { length: 3 };
  for (let i = 0; i < 3; i++)
    Object.defineProperty(positions, i, {
      get() {
        reads[i]++;
        return reads[i] === 1 ? i : 1e6;
      },
    });
  const values = pe.table({ positions, dim: 2, dtype: "float64" });
  assert.deepEqual(reads, [1, 1, 1]);
  assert.deepEqual(Array.from(values), [
    0,
    1,
    Math.sin(1),
    Math.cos(1),
    Math.sin(2),
    Math.cos(2),
  ]);
});

test("a Proxy array is read element by element, once each", () => {
  const got = [];
  const positions = new Proxy([4, 5, 6], {
    get(target, key, receiver) {
      got.push(String(key));
      return Reflect.get(target, key, receiver);
    },
  });
  const values = pe.table({ positions, dim: 2, dtype: "float64" });
  for (const index of ["0", "1", "2"])
    assert.equal(
      got.filter((k) => k === index).length,
      1,
      `element ${index} read ${got.filter((k) => k === index).length} times`,
    );
  assert.equal(values[4], Math.sin(6));
});

test("an array with holes is refused, naming the hole", () => {
  // eslint-disable-next-line no-sparse-arrays
  assert.throws(() => pe.table({ positions: [1, , 3], dim: 2 }), {
    name: "TypeError",
    code: "ERR_NOT_NUMBER",
    option: "positions[1]",
  });
  assert.throws(() => pe.dotProducts({ dim: 4, offsets: [1, , 3] }), {
    name: "TypeError",
    code: "ERR_NOT_NUMBER",
    option: "offsets[1]",
  });
  stillWorks();
});

test("typed arrays over SharedArrayBuffer are read like any other", () => {
  const shared = new Float64Array(new SharedArrayBuffer(3 * 8));
  shared.set([7, 8, 9]);
  const values = pe.table({ positions: shared, dim: 2, dtype: "float64" });
  assert.equal(values[0], Math.sin(7));
  const rows = new Float32Array(new SharedArrayBuffer(2 * 4));
  rows.set([0, 1]); // PE(0) in the interleaved layout
  const moved = pe.rotate(rows, 2, { dim: 2 });
  assert.ok(Math.abs(moved[0] - Math.sin(2)) < 1e-7);
  assert.ok(Math.abs(moved[1] - Math.cos(2)) < 1e-7);
  const x = new Float64Array(new SharedArrayBuffer(8));
  x[0] = 3;
  assert.equal(pe.decayIntegral({ theta: "linear", x })[0], Math.sin(3) / 3);
});

test("BigInt arrays and symbols inside arrays are refused by name", () => {
  assert.throws(() => pe.rotate(new BigInt64Array(2), 1, { dim: 2 }), {
    name: "TypeError",
    code: "ERR_TYPE",
    option: "vectors",
  });
  assert.throws(() => pe.table({ positions: [1, Symbol("p")], dim: 2 }), {
    name: "TypeError",
    code: "ERR_NOT_NUMBER",
    option: "positions[1]",
  });
  assert.throws(() => pe.decayIntegral({ x: [1n] }), {
    name: "TypeError",
    code: "ERR_NOT_NUMBER",
    option: "x[0]",
  });
  stillWorks();
});

test("a hostile length is refused before anything is allocated", () => {
  for (const length of [-1, 1.5, 2 ** 53, NaN, "3", { valueOf: () => 3 }]) {
    const before = pe.table({ positions: 1, dim: 2, view: true }).buffer
      .byteLength;
    assert.throws(
      () => pe.table({ positions: { length, 0: 1 }, dim: 2 }),
      (error) => error instanceof TypeError || error instanceof RangeError,
    );
    assert.equal(
      pe.table({ positions: 1, dim: 2, view: true }).buffer.byteLength,
      before,
    );
  }
  stillWorks();
});

// A typed array's length is a getter that reads only a typed array: through
// a Proxy with the default handler it throws the engine's own TypeError.
// Every input that takes an array of numbers refuses such a Proxy by name;
// a handler that reads from the typed array itself makes an array-like,
// read as any other (an int64 one then holds BigInts, which no plain array
// of numbers does).
const x16 = () => Float32Array.from({ length: 16 }, (_, i) => i / 16 - 0.5);
const positionsOf = (T) =>
  T === BigInt64Array ? BigInt64Array.of(3n, 7n) : T.of(3, 7);
const POSITION_INPUTS = [
  ["rope", (p) => pe.rope(x16(), p, { dim: 8 }), "positions"],
  [
    "createRope().apply",
    (p) => pe.createRope({ dim: 8 }).apply(x16(), p),
    "positions",
  ],
  ["ropeCache", (p) => pe.ropeCache({ positions: p, dim: 8 }), "positions"],
  [
    "createRopeCache().rows",
    (p) => pe.createRopeCache({ dim: 8 }).rows(p),
    "positions",
  ],
  ["table", (p) => pe.table({ positions: p, dim: 8 }), "positions"],
  [
    "createTable().rows",
    (p) => pe.createTable({ dim: 8 }).rows(p),
    "positions",
  ],
  [
    "rope's M-RoPE streams",
    (p) => pe.rope(x16(), { t: p, h: [1, 2], w: [4, 5] }, mrope),
    "positions.t",
  ],
  [
    "ropeCache's M-RoPE streams",
    (p) =>
      pe.ropeCache({ positions: { t: [1, 2], h: p, w: [4, 5] }, ...mrope }),
    "positions.h",
  ],
];
const mrope = { dim: 8, mropeSection: [2, 1, 1] };
const ROW_INPUTS = [
  ["rope", (x) => pe.rope(x, [3, 7], { dim: 8 })],
  ["rotate", (x) => pe.rotate(x, 2, { dim: 8 })],
  ["createRope().apply", (x) => pe.createRope({ dim: 8 }).apply(x, [3, 7])],
];
const KINDS = [Float32Array, Float64Array, BigInt64Array];

function refusedAs(call, Class, code, option) {
  assert.throws(call, (error) => {
    assert.ok(error instanceof Class, error.message);
    assert.deepEqual([error.code, error.option], [code, option]);
    assert.doesNotMatch(error.message, /incompatible receiver|on a proxy/);
    return true;
  });
}

// A Proxy that reads every key from its typed array (getters included),
// counting the reads of each.
function forwarding(typed, reads = new Map()) {
  return new Proxy(typed, {
    get(target, key) {
      reads.set(key, (reads.get(key) ?? 0) + 1);
      return Reflect.get(target, key);
    },
  });
}

test("a Proxy around a typed array, as positions or M-RoPE streams: refused by name, or read as an array-like when its handler reads the typed array", () => {
  for (const T of KINDS)
    for (const [label, call, option] of POSITION_INPUTS) {
      refusedAs(
        () => call(new Proxy(positionsOf(T), {})),
        TypeError,
        "ERR_NOT_ARRAY",
        option,
      );
      const reads = new Map();
      const proxy = forwarding(positionsOf(T), reads);
      if (T === BigInt64Array) {
        refusedAs(
          () => call(proxy),
          TypeError,
          "ERR_NOT_NUMBER",
          `${option}[0]`,
        );
        continue;
      }
      assert.deepEqual(call(proxy), call(positionsOf(T)), `${T.name} ${label}`);
      assert.deepEqual(
        [reads.get("length"), reads.get("0"), reads.get("1")],
        [1, 1, 1],
        `${T.name} ${label}: each read once`,
      );
    }
  stillWorks();
});

test("a Proxy around a typed array, as rows: refused by name, or read as an array-like when its handler reads the typed array", () => {
  for (const T of KINDS)
    for (const [label, call] of ROW_INPUTS) {
      const typed = T === BigInt64Array ? new T(16) : T.from(x16(), (v) => v);
      refusedAs(
        () => call(new Proxy(typed, {})),
        TypeError,
        "ERR_TYPE",
        "vectors",
      );
      if (T === BigInt64Array) continue;
      // Read as any array-like: into a Float32Array.
      assert.deepEqual(
        call(forwarding(typed)),
        call(Array.from(typed)),
        `${T.name} ${label}`,
      );
    }
  stillWorks();
});

test("an object made from a typed array's prototype is refused by name", () => {
  refusedAs(
    () =>
      pe.table({ positions: Object.create(Float64Array.prototype), dim: 4 }),
    TypeError,
    "ERR_NOT_ARRAY",
    "positions",
  );
  stillWorks();
});

test("a Proxy around a typed array whose handler throws: the caller's error reaches the caller", () => {
  const proxy = new Proxy(new Float64Array(2), {
    get() {
      throw new SyntaxError("from the handler");
    },
  });
  assert.throws(() => pe.table({ positions: proxy, dim: 4 }), SyntaxError);
  stillWorks();
});

test("a revoked Proxy given as an input is refused by name, ERR_REVOKED", () => {
  const { proxy, revoke } = Proxy.revocable([1, 2], {});
  revoke();
  const cases = [
    [() => pe.table({ positions: proxy, dim: 4 }), "positions"],
    [() => pe.table(proxy), "options"],
    [() => pe.ropeCache({ positions: 2, dim: 4, scaling: proxy }), "scaling"],
    [() => pe.rope(x16(), proxy, { dim: 8 }), "positions"],
    [() => pe.rope(x16(), proxy, mrope), "positions"],
    [
      () => pe.rope(x16(), { t: [1, 2], h: proxy, w: [1, 2] }, mrope),
      "positions.h",
    ],
    [() => pe.rope(proxy, [3, 7], { dim: 8 }), "vectors"],
    [() => pe.createRope({ dim: 8 }).apply(proxy, 0), "vectors"],
    [() => pe.ropeCache({ positions: 2, dim: 4, out: proxy }), "out"],
    [() => pe.decayIntegral({ x: proxy }), "x"],
    [() => pe.dotProducts({ dim: 4, offsets: proxy }), "offsets"],
    [() => pe.toCsv(proxy, { dim: 2 }), "values"],
  ];
  for (const [call, option] of cases)
    refusedAs(call, TypeError, "ERR_REVOKED", option);
  // An `out` is refused by its type, named without reading it.
  assert.throws(() => pe.table({ positions: 2, dim: 4, out: proxy }), {
    code: "ERR_TYPE",
    option: "out",
    message: /got a revoked Proxy/,
  });
  stillWorks();
});
