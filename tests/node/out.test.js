// The `out` option: every function that returns an array writes it into the
// caller's typed array instead, exactly or inside a larger buffer whose other
// elements stay as they were; every misuse is an error naming "out" that
// leaves the array untouched, and the module keeps working.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  ci,
  decayComparison,
  decayIntegral,
  dotProducts,
  frequencies,
  init,
  rope,
  ropeCache,
  ropeFrequencies,
  rotate,
  rotationMatrix,
  si,
  table,
} from "../../dist/index.js";
import { maxAbsDiff, paperFrequencies, referenceRow } from "./reference.js";

await init();

const GUARD = 5;

// Every function given `out`, with the call that returns a new array and the
// typed array type its result has.
const calls = {
  "table float32 (several blocks of rows)": {
    Typed: Float32Array,
    run: (out) => table({ positions: 700, start: 3, dim: 1030, out }),
  },
  "table float64, explicit positions, halves": {
    Typed: Float64Array,
    run: (out) =>
      table({
        positions: [0.5, 1e6, -3, 7],
        dim: 9,
        layout: "halves",
        dtype: "float64",
        out,
      }),
  },
  "table with a preset's padding row": {
    Typed: Float32Array,
    run: (out) =>
      table({
        preset: "fairseq",
        dim: 16,
        positions: [2, 1, 3],
        paddingIdx: 1,
        out,
      }),
  },
  frequencies: {
    Typed: Float64Array,
    run: (out) => frequencies({ dim: 10, base: 500, out }),
  },
  "rotate float32": {
    Typed: Float32Array,
    run: (out) => rotate([1, 2, 3, 4, 5, 6, 7, 8], [1.5, -2], { dim: 4, out }),
  },
  "rotate float64": {
    Typed: Float64Array,
    run: (out) =>
      rotate(Float64Array.of(1, 2, 3, 4), 1e3, {
        dim: 4,
        layout: "halves",
        out,
      }),
  },
  rope: {
    Typed: Float32Array,
    run: (out) =>
      rope(
        Float32Array.from({ length: 3 * 8 }, (_, i) => i - 4),
        [0, 5, 9],
        {
          dim: 8,
          pairing: "interleaved",
          out,
        },
      ),
  },
  rotationMatrix: {
    Typed: Float64Array,
    run: (out) => rotationMatrix(2.5, { dim: 6, out }),
  },
  dotProducts: {
    Typed: Float64Array,
    run: (out) =>
      dotProducts({ dim: 64, offsets: { from: 0, to: 99, count: 100 }, out }),
  },
  decayIntegral: {
    Typed: Float64Array,
    run: (out) =>
      decayIntegral({ theta: "power", alpha: 0.5, x: [0, 3, 10], out }),
  },
  "ci of an array": {
    Typed: Float64Array,
    run: (out) => ci([0.5, 2, 40], out === undefined ? undefined : { out }),
  },
  "ropeFrequencies' inverse frequencies": {
    Typed: Float64Array,
    run: (out) =>
      ropeFrequencies({
        dim: 16,
        base: 500000,
        scaling: { type: "yarn", factor: 4, originalMaxPositionEmbeddings: 64 },
        out,
      }).inverseFrequencies,
  },
  "si of an array": {
    Typed: Float64Array,
    run: (out) => si([-1, 0, 7], out === undefined ? undefined : { out }),
  },
};

function guarded(Typed, length) {
  const buffer = new Typed(length + 2 * GUARD).fill(NaN);
  return { buffer, out: buffer.subarray(GUARD, GUARD + length) };
}

for (const [name, { Typed, run }] of Object.entries(calls)) {
  test(`${name}: out of the exact size, and inside a larger buffer`, () => {
    const expected = run(undefined);
    assert.ok(expected instanceof Typed);
    const exact = new Typed(expected.length).fill(NaN);
    assert.equal(run(exact), exact, "returns out itself");
    assert.deepEqual(exact, expected);

    const { buffer, out } = guarded(Typed, expected.length);
    assert.equal(run(out), out);
    assert.deepEqual(out, expected);
    for (const k of [...Array(GUARD).keys()]) {
      assert.ok(Number.isNaN(buffer[k]), `guard ${k} before stays NaN`);
      assert.ok(Number.isNaN(buffer.at(-1 - k)), `guard ${k} after stays NaN`);
    }

    // Longer than needed: the elements past the result are left alone.
    const longer = new Typed(expected.length + 3).fill(NaN);
    run(longer);
    assert.deepEqual(longer.subarray(0, expected.length), expected);
    assert.ok(longer.subarray(expected.length).every(Number.isNaN));
  });

  test(`${name}: a wrong type, too short, detached or module-memory out names "out"`, () => {
    const expected = run(undefined);
    const Other = Typed === Float32Array ? Float64Array : Float32Array;
    const misuses = [
      [new Other(expected.length), TypeError, "ERR_TYPE"],
      [Array(expected.length).fill(0), TypeError, "ERR_TYPE"],
      [new DataView(new ArrayBuffer(64)), TypeError, "ERR_TYPE"],
      [null, TypeError, "ERR_TYPE"],
      [new Typed(expected.length - 1), RangeError, "ERR_LENGTH"],
    ];
    const detached = new Typed(expected.length);
    structuredClone(detached.buffer, { transfer: [detached.buffer] });
    misuses.push([detached, TypeError, "ERR_DETACHED"]);
    const moduleView = table({ positions: 64, dim: 64, view: true });
    const inModule = new Typed(
      moduleView.buffer,
      0,
      Math.min(expected.length, 64),
    );
    const before = inModule.slice();
    misuses.push([inModule, TypeError, "ERR_MODULE_MEMORY"]);
    for (const [out, ErrorClass, code] of misuses) {
      const copy =
        ArrayBuffer.isView(out) &&
        out.byteLength > 0 &&
        !(out instanceof DataView)
          ? out.slice()
          : null;
      assert.throws(
        () => run(out),
        (error) => {
          assert.ok(
            error instanceof ErrorClass,
            `${error.name}: ${error.message}`,
          );
          assert.equal(error.code, code, error.message);
          assert.equal(error.option, "out", error.message);
          return true;
        },
      );
      if (copy !== null) assert.deepEqual(out, copy, "out untouched");
    }
    assert.deepEqual(inModule, before, "the module view was not written");
    assert.deepEqual(run(undefined), expected, "the module keeps working");
  });
}

test("a table that is not a view equals an independent float64 reference", () => {
  const dim = 1030;
  const out = new Float32Array(700 * dim);
  table({ positions: 700, start: 3, dim, out });
  const w = paperFrequencies(dim, dim / 2);
  for (const row of [0, 1, 127, 128, 129, 255, 256, 699]) {
    const expected = referenceRow(row + 3, w, { dim });
    assert.ok(maxAbsDiff(out, expected, row * dim) < 6e-8, `row ${row}`);
  }
});

test("tables with out equal the view bit for bit across block boundaries", () => {
  // start + j is a double for j < 511 only: one call over all rows would
  // compute each row on its own, a block of early rows by the recurrence.
  const start = 0.5 + 2 ** -44;
  // Not evenly spaced as a whole, but from its second row on.
  const ragged = Float64Array.from({ length: 1000 }, (_, i) => i || 0.3);
  for (const [positions, dim, dtype, offset] of [
    [2100, 4096, "float32", 17], // a view in three blocks, out in seventeen
    [300, 2050, "float64", 17],
    [129, 3, "float32", 17],
    [1000, 4096, "float32", start],
    [ragged, 4096, "float32", 0],
  ]) {
    const options = { positions, dim, dtype };
    if (offset !== 0) options.start = offset;
    const view = table({ ...options, view: true }).slice();
    const out = table({
      ...options,
      out: new (dtype === "float32" ? Float32Array : Float64Array)(view.length),
    });
    assert.deepEqual(
      out,
      view,
      `${view.length / dim} × ${dim} ${dtype} from ${positions === ragged ? "ragged positions" : offset}`,
    );
  }
});

test("out together with view: true is refused by name", () => {
  const out = new Float32Array(8).fill(NaN);
  assert.throws(() => table({ positions: 2, dim: 4, view: true, out }), {
    name: "TypeError",
    code: "ERR_COMBINATION",
    option: "out",
  });
  assert.ok(out.every(Number.isNaN));
});

test("an empty table with out returns out untouched", () => {
  const out = new Float32Array(3).fill(NaN);
  assert.equal(table({ positions: 0, dim: 4, out }), out);
  assert.ok(out.every(Number.isNaN));
});

test("an error in any block leaves out untouched: every angle is checked first", () => {
  const dim = 4096;
  const out = new Float32Array(300 * dim).fill(NaN);
  // The last rows are the ones whose angle overflows, in the third block.
  const positions = Float64Array.from({ length: 300 }, (_, i) =>
    i < 299 ? i : 1e308,
  );
  assert.throws(() => table({ positions, dim, scale: 10, out }), {
    name: "RangeError",
    code: "ERR_POSITIONS",
    option: "positions",
  });
  assert.ok(out.every(Number.isNaN), "nothing was written");
  assert.deepEqual(
    table({ positions: 2, dim: 4, out: new Float32Array(8) }),
    table({ positions: 2, dim: 4 }),
  );
});

test("out may be the input of rotate and rope: the same as inPlace", () => {
  const x = Float32Array.from({ length: 4 * 16 }, (_, i) => Math.sin(i));
  const positions = [0, 3, 7.5, -2];
  const inPlace = rope(x.slice(), positions, { dim: 16, inPlace: true });
  const aliased = x.slice();
  assert.equal(rope(aliased, positions, { dim: 16, out: aliased }), aliased);
  assert.deepEqual(aliased, inPlace);

  const y = Float64Array.from({ length: 3 * 6 }, (_, i) => i / 7);
  const rotated = rotate(y, [1, 2, 3], { dim: 6 });
  // A larger buffer's subarray at the input's own elements also aliases it.
  const buffer = new Float64Array(3 * 6 + 2).fill(NaN);
  buffer.set(y, 1);
  const rows = buffer.subarray(1, 1 + 3 * 6);
  const out = buffer.subarray(1);
  assert.equal(rotate(rows, [1, 2, 3], { dim: 6, out }), out);
  assert.deepEqual(rows, rotated);
  assert.ok(Number.isNaN(buffer[0]) && Number.isNaN(buffer.at(-1)));
});

test("out that overlaps the input elsewhere, or with inPlace, is refused by name", () => {
  const buffer = new Float32Array(5 * 8).fill(1);
  const before = buffer.slice();
  const rows = buffer.subarray(0, 4 * 8);
  for (const [options, name, code] of [
    [{ dim: 8, out: buffer.subarray(8) }, "RangeError", "ERR_OVERLAP"],
    [{ dim: 8, out: buffer.subarray(4) }, "RangeError", "ERR_OVERLAP"],
    [{ dim: 8, out: rows, inPlace: true }, "TypeError", "ERR_COMBINATION"],
  ]) {
    assert.throws(() => rope(rows, 1, options), { name, code, option: "out" });
    assert.deepEqual(buffer, before, "nothing was written");
  }
  // Right after the input is not an overlap.
  const after = new Float32Array(9 * 8);
  const input = after.subarray(0, 4 * 8);
  input.fill(0.5);
  const out = after.subarray(4 * 8, 8 * 8);
  rope(input, 1, { dim: 8, out });
  assert.deepEqual(out, rope(input, 1, { dim: 8 }));
});

test("rope's and rotate's out follows the input's type (a Float32Array for plain arrays)", () => {
  const out = new Float32Array(4);
  assert.equal(rope([1, 0, 0, 1], 1, { dim: 4, out }), out);
  for (const turn of [rope, rotate])
    assert.throws(() => turn(Float64Array.of(1, 0, 0, 1), 1, { dim: 4, out }), {
      name: "TypeError",
      code: "ERR_TYPE",
      option: "out",
    });
});

test("out is refused where it does not apply, by name", () => {
  // ci and si of a number, and the quadrature, have an out that does not
  // apply; decayComparison has none.
  const cases = [
    [() => ci(2, { out: new Float64Array(1) }), "ERR_NOT_APPLICABLE"],
    [() => si(2, { out: new Float64Array(1) }), "ERR_NOT_APPLICABLE"],
    [
      () =>
        decayIntegral({
          x: [1, 2],
          method: "quadrature",
          out: new Float64Array(2),
        }),
      "ERR_NOT_APPLICABLE",
    ],
    [
      () => decayComparison({ dim: 8, x: [1], out: new Float64Array(1) }),
      "ERR_UNKNOWN_OPTION",
    ],
  ];
  for (const [call, code] of cases)
    assert.throws(call, { name: "TypeError", code, option: "out" });
  assert.throws(() => ci([1], { typo: 1 }), {
    code: "ERR_UNKNOWN_OPTION",
    option: "typo",
  });
  assert.equal(ci(1), ci([1])[0]);
});

test("a getter that grows the memory while out is read once and filled", () => {
  const out = new Float32Array(6 * 8).fill(NaN);
  let reads = 0;
  const options = {
    get out() {
      reads++;
      return out;
    },
    get dim() {
      // A table larger than the whole memory: it must grow.
      const before = table({ positions: 1, dim: 2, view: true }).buffer
        .byteLength;
      table({ positions: Math.ceil(before / 4096) + 1, dim: 1024, view: true });
      assert.ok(
        table({ positions: 1, dim: 2, view: true }).buffer.byteLength > before,
      );
      return 8;
    },
    positions: 6,
  };
  assert.equal(table(options), out);
  assert.equal(reads, 1);
  assert.deepEqual(out, table({ positions: 6, dim: 8 }));
});

test("a getter that detaches out after it was read: a TypeError naming out", () => {
  const out = new Float64Array(4);
  const options = {
    out,
    get offsets() {
      structuredClone(out.buffer, { transfer: [out.buffer] });
      return [1, 2, 3, 4];
    },
    dim: 8,
  };
  assert.throws(() => dotProducts(options), {
    name: "TypeError",
    code: "ERR_DETACHED",
    option: "out",
  });
  assert.deepEqual(dotProducts({ dim: 8, offsets: [0] }), Float64Array.of(4));
});

test("a Proxy over the positions that detaches out: refused, nothing written", () => {
  const holder = new Float32Array(8).fill(NaN);
  const out = holder.subarray(0, 8);
  const positions = new Proxy([0, 1], {
    get(target, key) {
      if (key === "1")
        structuredClone(holder.buffer, { transfer: [holder.buffer] });
      return target[key];
    },
  });
  assert.throws(() => table({ positions, dim: 4, out }), {
    name: "TypeError",
    code: "ERR_DETACHED",
    option: "out",
  });
  assert.deepEqual(table({ positions: [0, 1], dim: 4 }).length, 8);
});

test("a shadowed length or set on out cannot mislead the checks", () => {
  const out = new Float32Array(2);
  Object.defineProperty(out, "length", { value: 1000 });
  out.set = () => {
    throw new Error("never called");
  };
  // The length the message quotes is the array's own.
  assert.throws(() => table({ positions: 2, dim: 4, out }), {
    name: "RangeError",
    code: "ERR_LENGTH",
    option: "out",
    message: /"out" must hold at least 8 elements, got 2/,
  });
  const big = new Float32Array(8);
  big.set = out.set;
  assert.equal(table({ positions: 2, dim: 4, out: big }), big);
  assert.deepEqual(Float32Array.from(big), table({ positions: 2, dim: 4 }));
});

test("ropeCache fills the caller's cos and sin in every dtype, each inside a larger buffer", () => {
  const options = {
    positions: [0, 3, 1000],
    dim: 8,
    base: 1e6,
    scaling: { type: "yarn", factor: 4, originalMaxPositionEmbeddings: 64 },
    layout: "interleaved",
  };
  for (const [dtype, Typed, empty] of [
    ["float32", Float32Array, NaN],
    ["float64", Float64Array, NaN],
    ["float16", Uint16Array, 0xffff],
  ]) {
    const expected = ropeCache({ ...options, dtype });
    const length = expected.cos.length;
    const buffer = new Typed(2 * length + 3 * GUARD).fill(empty);
    const out = {
      cos: buffer.subarray(GUARD, GUARD + length),
      sin: buffer.subarray(2 * GUARD + length, 2 * GUARD + 2 * length),
    };
    const got = ropeCache({ ...options, dtype, out });
    assert.equal(got.cos, out.cos);
    assert.equal(got.sin, out.sin);
    assert.deepEqual(out.cos, expected.cos);
    assert.deepEqual(out.sin, expected.sin);
    const guards = [
      ...buffer.subarray(0, GUARD),
      ...buffer.subarray(GUARD + length, 2 * GUARD + length),
      ...buffer.subarray(2 * GUARD + 2 * length),
    ];
    assert.ok(
      guards.every((v) => Object.is(v, empty)),
      `${dtype}: guards untouched`,
    );
  }
});

test("ropeCache's out: every misuse names out.cos, out.sin or out, and writes nothing", () => {
  const options = { positions: 4, dim: 8 };
  const n = 4 * 4;
  const shared = new Float32Array(2 * n);
  const misuses = [
    [
      { cos: new Float64Array(n), sin: new Float32Array(n) },
      TypeError,
      "ERR_TYPE",
      "out.cos",
    ],
    [
      { cos: new Float32Array(n), sin: new Float32Array(n - 1) },
      RangeError,
      "ERR_LENGTH",
      "out.sin",
    ],
    [{ cos: new Float32Array(n) }, TypeError, "ERR_REQUIRED", "out.sin"],
    [
      { cos: new Float32Array(n), sin: new Float32Array(n), tan: 1 },
      TypeError,
      "ERR_UNKNOWN_OPTION",
      "out.tan",
    ],
    [new Float32Array(2 * n), TypeError, "ERR_NOT_OBJECT", "out"],
    [null, TypeError, "ERR_NOT_OBJECT", "out"],
    [
      { cos: shared.subarray(0, n), sin: shared.subarray(n - 1) },
      RangeError,
      "ERR_OVERLAP",
      "out.sin",
    ],
    [{ cos: shared, sin: shared }, RangeError, "ERR_OVERLAP", "out.sin"],
  ];
  for (const [out, ErrorClass, code, option] of misuses)
    assert.throws(
      () => ropeCache({ ...options, out }),
      (error) =>
        error instanceof ErrorClass &&
        error.code === code &&
        error.option === option,
      `${code} ${option}`,
    );
  assert.ok(
    shared.every((v) => v === 0),
    "nothing written",
  );
  // Apart within one buffer is fine.
  const { cos, sin } = ropeCache({
    ...options,
    out: { cos: shared.subarray(0, n), sin: shared.subarray(n) },
  });
  assert.deepEqual(cos, ropeCache(options).cos);
  assert.deepEqual(sin, ropeCache(options).sin);
});

test("ropeCache's out.cos and out.sin are read once, even when reading them grows the memory", () => {
  const cos = new Float32Array(3 * 4);
  const sin = new Float32Array(3 * 4);
  const reads = { cos: 0, sin: 0 };
  const grow = () => {
    const before = table({ positions: 1, dim: 2, view: true }).buffer
      .byteLength;
    table({ positions: Math.ceil(before / 4096) + 1, dim: 1024, view: true });
  };
  const out = {
    get cos() {
      reads.cos++;
      grow();
      return cos;
    },
    get sin() {
      reads.sin++;
      grow();
      return sin;
    },
  };
  const got = ropeCache({ positions: 3, dim: 8, out });
  assert.deepEqual(reads, { cos: 1, sin: 1 });
  assert.equal(got.cos, cos);
  assert.deepEqual(cos, ropeCache({ positions: 3, dim: 8 }).cos);
  assert.deepEqual(sin, ropeCache({ positions: 3, dim: 8 }).sin);
});

test("the core checks every angle of a call before its first block, and the error quotes the first bad one", () => {
  const refused = (fn, option, code, quoted) =>
    assert.throws(fn, (error) => {
      assert.ok(error instanceof RangeError, error.message);
      assert.equal(error.option, option);
      assert.equal(error.code, code);
      assert.ok(
        error.message.includes(`must be a finite angle: ${quoted} × `),
        error.message,
      );
      return true;
    });
  // rope over chunks, in place: the bad token is in the last chunk.
  const dim = 128;
  const tokens = 3000;
  const x = Float32Array.from({ length: tokens * dim }, (_, i) => i % 7);
  const before = x.slice();
  const at = Float64Array.from({ length: tokens }, (_, i) =>
    i === tokens - 2 ? -1e308 : i,
  );
  refused(
    () => rope(x, at, { dim, scale: 10, inPlace: true }),
    "positions",
    "ERR_POSITIONS",
    "-1e+308",
  );
  assert.deepEqual(x, before);
  // rope of a small tensor, one kernel call per sequence: the second
  // sequence's position is bad, and the first sequence's rows stay as
  // they were.
  const small = Float32Array.from({ length: 2 * 3 * 2 * 8 }, (_, i) => i);
  const smallBefore = small.slice();
  refused(
    () =>
      rope(small, [0, 1, 2, 1e308, 4, 5], {
        dim: 8,
        scale: 10,
        order: "bshd",
        batch: 2,
        heads: 2,
        inPlace: true,
      }),
    "positions",
    "ERR_POSITIONS",
    "1e+308",
  );
  assert.deepEqual(small, smallBefore);
  // One decode token: the kernel refuses, the check words it.
  refused(
    () => rope(new Float32Array(8), [1e308], { dim: 8, scale: 10 }),
    "positions",
    "ERR_POSITIONS",
    "1e+308",
  );
  // rotate's offsets, over chunks.
  const rows = new Float64Array(3000 * 64).fill(0.5);
  const offsets = Float64Array.from({ length: 3000 }, (_, i) =>
    i === 2999 ? 1e308 : i,
  );
  refused(
    () => rotate(rows, offsets, { dim: 64, scale: 100, inPlace: true }),
    "offsets",
    "ERR_OFFSETS",
    "1e+308",
  );
  assert.ok(rows.every((v) => v === 0.5));
  // The module keeps working.
  assert.deepEqual(
    ropeCache({ dim: 4, positions: 2 }).cos,
    ropeCache({ dim: 4, positions: [0, 1] }).cos,
  );
});
