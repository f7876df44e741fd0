// Typed arrays whose own properties lie. Every public function, every
// typed-array argument, every property a caller can override on an instance
// (plus Symbol.species through `constructor`), each as a wrong value, a
// getter that throws, and a getter that re-enters the library and detaches
// module memory. Each call must return what the same call returns on an
// honest array, or a clean TypeError/RangeError that leaves `out` untouched;
// no overridden property may be read at all; and the module must give right
// values afterwards.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as pe from "../../dist/index.js";
import { tableStillRight } from "./reference.js";

await pe.init();

const f32 = (values) => Float32Array.from(values);
const f64 = (values) => Float64Array.from(values);
const nan32 = (n) => new Float32Array(n).fill(NaN);
const nan64 = (n) => new Float64Array(n).fill(NaN);

// Each function: its typed-array arguments (made fresh for every case) and
// the call. The first argument is the one under attack in a case; the rest
// stay honest.
const FUNCTIONS = {
  table: {
    inputs: {
      positions: () => f64([0, 1.5, 7]),
      frequencies: () => f64([1, 0.1]),
      out: () => nan32(12),
    },
    call: (a) =>
      pe.table({
        positions: a.positions,
        dim: 4,
        frequencies: a.frequencies,
        out: a.out,
      }),
  },
  frequencies: {
    inputs: { frequencies: () => f64([1, 0.1]), out: () => nan64(2) },
    call: (a) =>
      pe.frequencies({ dim: 4, frequencies: a.frequencies, out: a.out }),
  },
  rotate: {
    inputs: {
      vectors: () => f32([1, 2, 3, 4, 5, 6, 7, 8]),
      offsets: () => f64([3, -2]),
      frequencies: () => f64([1, 0.1]),
      out: () => nan32(8),
    },
    call: (a) =>
      pe.rotate(a.vectors, a.offsets, {
        dim: 4,
        frequencies: a.frequencies,
        out: a.out,
      }),
  },
  "rotate (float64)": {
    inputs: {
      vectors: () => f64([1, 2, 3, 4, 5, 6, 7, 8]),
      offsets: () => f64([3, -2]),
      out: () => nan64(8),
    },
    call: (a) => pe.rotate(a.vectors, a.offsets, { dim: 4, out: a.out }),
  },
  rope: {
    inputs: {
      vectors: () => f32([1, 2, 3, 4, 5, 6, 7, 8]),
      positions: () => f64([5, 9]),
      frequencies: () => f64([1, 0.1]),
      out: () => nan32(8),
    },
    call: (a) =>
      pe.rope(a.vectors, a.positions, {
        dim: 4,
        frequencies: a.frequencies,
        out: a.out,
      }),
  },
  "rope (float16 tensor, partial rotary)": {
    inputs: {
      vectors: () =>
        Uint16Array.from([1, 2, 3, 4, 5, 6, 7, 8], (v) => 0x3c00 + v),
      positions: () => f64([5, 9]),
      out: () => new Uint16Array(8),
    },
    call: (a) =>
      pe.rope(a.vectors, a.positions, {
        dim: 4,
        rotaryDim: 2,
        heads: 1,
        order: "bshd",
        out: a.out,
      }),
  },
  "rotate (float16)": {
    inputs: {
      vectors: () =>
        Uint16Array.from([1, 2, 3, 4, 5, 6, 7, 8], (v) => 0x3c00 + v),
      offsets: () => f64([3, -2]),
      out: () => new Uint16Array(8),
    },
    call: (a) => pe.rotate(a.vectors, a.offsets, { dim: 4, out: a.out }),
  },
  rotationMatrix: {
    inputs: { frequencies: () => f64([1, 0.1]), out: () => nan64(16) },
    call: (a) =>
      pe.rotationMatrix(3, { dim: 4, frequencies: a.frequencies, out: a.out }),
  },
  linearRelationError: {
    inputs: {
      positions: () => f64([0, 4, 9]),
      offsets: () => f64([1, 5]),
      frequencies: () => f64([1, 0.1]),
    },
    call: (a) =>
      pe.linearRelationError({
        dim: 4,
        positions: a.positions,
        offsets: a.offsets,
        frequencies: a.frequencies,
      }),
  },
  dotProducts: {
    inputs: {
      offsets: () => f64([0, 1, 2.5]),
      frequencies: () => f64([1, 0.1]),
      out: () => nan64(3),
    },
    call: (a) =>
      pe.dotProducts({
        dim: 4,
        offsets: a.offsets,
        frequencies: a.frequencies,
        out: a.out,
      }),
  },
  toeplitzError: {
    inputs: {
      positions: () => f64([0, 3, 4]),
      frequencies: () => f64([1, 0.1]),
    },
    call: (a) =>
      pe.toeplitzError({
        dim: 4,
        positions: a.positions,
        frequencies: a.frequencies,
      }),
  },
  decayIntegral: {
    inputs: { x: () => f64([0, 1, 30]), out: () => nan64(3) },
    call: (a) => pe.decayIntegral({ x: a.x, out: a.out }),
  },
  decayComparison: {
    inputs: { x: () => f64([0, 1, 30]) },
    call: (a) => pe.decayComparison({ dim: 8, x: a.x }),
  },
  ci: {
    inputs: { x: () => f64([0.5, 2, 40]), out: () => nan64(3) },
    call: (a) => pe.ci(a.x, { out: a.out }),
  },
  si: {
    inputs: { x: () => f64([0.5, 2, 40]), out: () => nan64(3) },
    call: (a) => pe.si(a.x, { out: a.out }),
  },
  ropeFrequencies: {
    inputs: {
      shortFactor: () => f64([1, 1.5]),
      longFactor: () => f64([2, 3]),
      out: () => nan64(2),
    },
    call: (a) =>
      pe.ropeFrequencies({
        dim: 4,
        scaling: {
          type: "longrope",
          maxPositionEmbeddings: 64,
          originalMaxPositionEmbeddings: 16,
          shortFactor: a.shortFactor,
          longFactor: a.longFactor,
        },
        out: a.out,
      }),
  },
  ropeCache: {
    inputs: {
      positions: () => f64([0, 2, 7]),
      cos: () => nan32(6),
      sin: () => nan32(6),
    },
    call: (a) =>
      pe.ropeCache({
        dim: 4,
        positions: a.positions,
        out: { cos: a.cos, sin: a.sin },
      }),
  },
};

// Wrong values for each property a caller can set on an instance.
const WRONG = {
  constructor: Uint8Array,
  "Symbol.species": { [Symbol.species]: Uint8Array },
  length: 4096,
  buffer: new ArrayBuffer(64),
  byteOffset: 4,
  byteLength: 1,
  BYTES_PER_ELEMENT: 1,
  subarray: () => new Float32Array(4096).fill(7),
  slice: () => new Float32Array(4096).fill(7),
  set: () => {},
  fill: () => {},
  [Symbol.toStringTag]: "Uint16Array",
  [Symbol.iterator]: function* () {
    yield 1e9;
  },
};
const keyOf = (label) => (label === "Symbol.species" ? "constructor" : label);
const labelOf = (key) =>
  typeof key === "symbol" ? key.description.replace(/^Symbol\./, "") : key;

// Re-enters the library: two views in a row free and re-allocate module
// memory and detach its buffer, as growth would.
function reenter() {
  pe.table({ positions: 64, dim: 64, view: true });
  pe.table({ positions: 64, dim: 64, view: true });
  pe.rope(new Float32Array(8), 3, { dim: 8 });
}

const MODES = {
  "a wrong value": (value) => ({ value, writable: true, configurable: true }),
  "a getter that throws": () => ({
    get() {
      throw new SyntaxError("from the getter");
    },
    configurable: true,
  }),
  "a getter that re-enters the library": (value) => ({
    get() {
      reenter();
      return value;
    },
    configurable: true,
  }),
};

// A plain copy of everything an argument holds, read through views the
// test made before any property was overridden.
function snapshotOf(twins) {
  const copy = {};
  for (const [name, twin] of Object.entries(twins))
    copy[name] = Array.from(twin);
  return copy;
}

function plain(result) {
  if (ArrayBuffer.isView(result)) return Array.from(new Float64Array(result));
  if (result && typeof result === "object") {
    const copy = {};
    for (const [key, value] of Object.entries(result)) copy[key] = plain(value);
    return copy;
  }
  return result;
}

const counts = { right: 0, refused: 0, broken: 0 };

function runCase({ fn, call, inputs, argument, key, mode }) {
  const make = () => {
    const args = {};
    const twins = {};
    for (const [name, fresh] of Object.entries(inputs)) {
      args[name] = fresh();
      twins[name] = new args[name].constructor(
        args[name].buffer,
        args[name].byteOffset,
        args[name].length,
      );
    }
    return { args, twins };
  };
  const honest = make();
  const expected = plain(call(honest.args));
  const expectedInputs = snapshotOf(honest.twins);

  const { args, twins } = make();
  const before = snapshotOf(twins);
  let reads = 0;
  const descriptor = MODES[mode](WRONG[key]);
  const counted = descriptor.get
    ? {
        ...descriptor,
        get() {
          reads++;
          return descriptor.get();
        },
      }
    : descriptor;
  Object.defineProperty(args[argument], keyOf(key), counted);
  const where = `${fn}: ${argument}.${labelOf(key)} as ${mode}`;
  let outcome;
  try {
    outcome = { result: plain(call(args)) };
  } catch (error) {
    outcome = { error };
  }
  try {
    assert.equal(reads, 0, `${where}: the overridden property was read`);
    if (outcome.error) {
      assert.ok(
        outcome.error instanceof TypeError ||
          outcome.error instanceof RangeError,
        `${where}: ${outcome.error}`,
      );
      assert.match(outcome.error.message, /^sinusoidal-pe: /, where);
      assert.deepEqual(snapshotOf(twins), before, `${where}: an input changed`);
      counts.refused++;
    } else {
      assert.deepEqual(outcome.result, expected, where);
      assert.deepEqual(snapshotOf(twins), expectedInputs, where);
      counts.right++;
    }
    assert.ok(
      tableStillRight(pe),
      `${where}: the module gives wrong values after`,
    );
  } catch (failure) {
    counts.broken++;
    throw failure;
  }
}

// "Symbol.species" is a wrong `constructor` with a species; the getter modes
// of it are the same as those of `constructor`.
const PROPERTY_KEYS = Reflect.ownKeys(WRONG);

for (const [fn, { inputs, call }] of Object.entries(FUNCTIONS))
  for (const argument of Object.keys(inputs))
    test(`${fn}: every overridden property of ${argument} is ignored`, () => {
      for (const key of PROPERTY_KEYS)
        for (const mode of Object.keys(MODES)) {
          if (key === "Symbol.species" && mode !== "a wrong value") continue;
          runCase({ fn, call, inputs, argument, key, mode });
        }
    });

test("the counts of the override cases", () => {
  const total = counts.right + counts.refused + counts.broken;
  // Printed for the reliability report; every case above ran.
  console.log(
    `typed-array overrides: ${total} cases, ${counts.right} right, ${counts.refused} refused, ${counts.broken} broken`,
  );
  assert.ok(total > 0);
  assert.equal(counts.broken, 0);
});
