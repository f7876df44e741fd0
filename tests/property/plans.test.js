// Plans equal the one-shot functions bit for bit: createRope(o).apply(x,
// positions, perCall) and rope(x, positions, { ...o, ...perCall }), and
// createTable(o).rows(positions, perCall) and table({ ...o, positions,
// ...perCall }), across options, dtypes, tensor orders, M-RoPE, presets and
// the per-call out and inPlace; a refusal is the same refusal. One plan
// serves every case of its options, so calls after other calls (and after
// refusals) are covered too.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import * as pe from "../../dist/index.js";

await pe.init();

const RUNS = Number(process.env.PROPERTY_RUNS ?? 200);
const SEED = Number(process.env.PROPERTY_SEED ?? 20261126);

function holds(property) {
  const run = fc.check(property, { numRuns: RUNS, seed: SEED });
  if (run.failed)
    assert.fail(
      `seed ${SEED}, path ${run.counterexamplePath}: ${fc.stringify(run.counterexample)}\n${run.errorInstance?.message ?? run.error}`,
    );
}

// A plan that cannot be made is refused as the one-shot call is: the same
// class, code and option (the message names createRope or createTable).
function refusedAlike(make, oneShot) {
  let plan;
  try {
    plan = make();
  } catch (error) {
    assert.throws(oneShot, (other) => {
      assert.equal(other.constructor, error.constructor);
      assert.equal(other.code, error.code);
      assert.equal(other.option, error.option);
      return true;
    });
    return null;
  }
  return plan;
}

// The outcome of a call: its values' bits, or its error's class, code,
// option and message.
function outcome(call) {
  try {
    const result = call();
    return {
      bits: new Uint8Array(
        result.buffer,
        result.byteOffset,
        result.byteLength,
      ).slice(),
    };
  } catch (error) {
    return {
      error: `${error.constructor.name} ${error.code} ${error.option} ${error.message}`,
    };
  }
}

const finite = (min, max) =>
  fc.double({ min, max, noNaN: true, noDefaultInfinity: true });

const scaling = fc.oneof(
  fc.constant(undefined),
  fc.record({ type: fc.constant("linear"), factor: finite(1, 64) }),
  fc.record({
    type: fc.constant("llama3"),
    factor: finite(1, 64),
    lowFreqFactor: fc.constant(1),
    highFreqFactor: fc.constant(4),
    originalMaxPositionEmbeddings: fc.constant(8192),
  }),
  fc.record({
    type: fc.constant("yarn"),
    factor: finite(1, 32),
    originalMaxPositionEmbeddings: fc.constant(4096),
  }),
);

const ropeCase = fc
  .record({
    pairs: fc.integer({ min: 1, max: 40 }),
    passThrough: fc.integer({ min: 0, max: 5 }),
    base: fc.constantFrom(10000, 500000, 1e6),
    scaling,
    pairing: fc.constantFrom(undefined, "halves", "interleaved"),
    dtype: fc.constantFrom(Float32Array, Float64Array, Uint16Array),
    order: fc.constantFrom(undefined, "bshd", "bhsd"),
    heads: fc.integer({ min: 1, max: 4 }),
    batch: fc.integer({ min: 1, max: 3 }),
    seq: fc.integer({ min: 1, max: 6 }),
    big: fc.boolean(),
    mrope: fc.boolean(),
    positions: fc.constantFrom("first", "list", "int64", "streams"),
    perCall: fc.constantFrom("none", "out", "inPlace"),
    seed: fc.integer({ min: 1, max: 2 ** 30 }),
  })
  .map((c) => {
    const rotaryDim = 2 * c.pairs;
    const dim = rotaryDim + c.passThrough;
    const options = { dim, base: c.base };
    if (c.passThrough > 0) options.rotaryDim = rotaryDim;
    if (c.scaling !== undefined) options.scaling = c.scaling;
    if (c.pairing !== undefined) options.pairing = c.pairing;
    if (c.mrope && c.pairs >= 3) {
      const third = Math.floor(c.pairs / 3);
      options.mropeSection = [c.pairs - 2 * third, third, third];
    }
    // A tensor over a copy chunk of 1 MiB takes the chunked path.
    const seq = c.big
      ? Math.ceil(2 ** 20 / (8 * dim * c.heads * c.batch)) + 3
      : c.seq;
    if (c.order !== undefined)
      Object.assign(options, {
        order: c.order,
        heads: c.heads,
        batch: c.batch,
      });
    const rows = c.order === undefined ? seq : seq * c.heads * c.batch;
    const tokens = c.order === undefined ? rows : seq;
    let state = c.seed;
    const random = () => (state = (state * 48271) % 2147483647) / 2147483647;
    const values = Float64Array.from(
      { length: rows * dim },
      () => random() * 4 - 2,
    );
    const x =
      c.dtype === Uint16Array
        ? Uint16Array.from(values, (v) => 0x3c00 ^ Math.floor(random() * 0x3ff))
        : c.dtype.from(values);
    const list = Float64Array.from(
      { length: tokens },
      (_, j) => j + Math.floor(random() * 3000),
    );
    const positions =
      c.positions === "first"
        ? Math.floor(random() * 100000)
        : c.positions === "int64"
          ? BigInt64Array.from(list, (p) => BigInt(p))
          : c.positions === "streams" && options.mropeSection !== undefined
            ? {
                t: list,
                h: list.map((p, j) => p + (j % 3)),
                w: list.map((p, j) => p + (j % 5)),
              }
            : list;
    return { options, x, positions, perCall: c.perCall };
  });

test("a rope plan's apply equals rope, bit for bit, error for error", () => {
  holds(
    fc.property(ropeCase, ({ options, x, positions, perCall }) => {
      const plan = refusedAlike(
        () => pe.createRope(options),
        () => pe.rope(x.slice(), positions, options),
      );
      if (plan === null) return;
      const call = (extra) => {
        const copy = x.slice();
        const out = new x.constructor(x.length);
        const given =
          extra === "out"
            ? { out }
            : extra === "inPlace"
              ? { inPlace: true }
              : undefined;
        return { copy, given };
      };
      const a = call(perCall);
      const b = call(perCall);
      const viaPlan = outcome(() => plan.apply(a.copy, positions, a.given));
      const oneShot = outcome(() =>
        pe.rope(b.copy, positions, { ...options, ...b.given }),
      );
      plan.dispose();
      assert.deepEqual(viaPlan, oneShot);
      // In place, the input itself holds the result.
      if (perCall === "inPlace" && viaPlan.bits !== undefined)
        assert.deepEqual(a.copy, b.copy);
    }),
  );
});

const tableCase = fc
  .record({
    dim: fc.integer({ min: 1, max: 96 }),
    kind: fc.constantFrom("paper", "timescale", "scaling", "preset"),
    preset: fc.constantFrom(
      "paper",
      "tensor2tensor",
      "fairseq",
      "diffusers",
      "mlx",
      "marian",
    ),
    layout: fc.constantFrom("interleaved", "halves", "halves-cos-first"),
    dtype: fc.constantFrom("float32", "float64"),
    scale: fc.constantFrom(undefined, 0.5, 3),
    positions: fc.oneof(
      fc.integer({ min: 0, max: 700 }),
      fc.array(finite(-1e6, 1e6), { maxLength: 40 }),
    ),
    start: fc.constantFrom(undefined, 0, 17, 0.25),
    out: fc.boolean(),
  })
  .map((c) => {
    let options;
    if (c.kind === "preset")
      options = { preset: c.preset, dim: c.dim + (c.dim % 2) };
    else {
      options = { dim: c.dim, layout: c.layout, dtype: c.dtype };
      if (c.scale !== undefined) options.scale = c.scale;
      if (c.kind === "timescale")
        Object.assign(options, {
          schedule: "timescale",
          minTimescale: 1,
          maxTimescale: 1e4,
        });
      if (c.kind === "scaling")
        Object.assign(options, {
          dim: c.dim + (c.dim % 2),
          base: 500000,
          scaling: { type: "linear", factor: 4 },
        });
    }
    const perCall = {};
    if (c.start !== undefined && typeof c.positions === "number")
      perCall.start = c.start;
    return { options, positions: c.positions, perCall, out: c.out };
  });

test("a table plan's rows equal table, bit for bit, error for error", () => {
  holds(
    fc.property(tableCase, ({ options, positions, perCall, out }) => {
      const plan = refusedAlike(
        () => pe.createTable(options),
        () => pe.table({ ...options, positions }),
      );
      if (plan === null) return;
      const sized = () => {
        if (!out) return perCall;
        const count =
          typeof positions === "number" ? positions : positions.length;
        const Typed = options.dtype === "float64" ? Float64Array : Float32Array;
        return { ...perCall, out: new Typed(count * options.dim) };
      };
      const viaPlan = outcome(() => plan.rows(positions, sized()));
      const oneShot = outcome(() =>
        pe.table({ ...options, positions, ...sized() }),
      );
      plan.dispose();
      assert.deepEqual(viaPlan, oneShot);
    }),
  );
});

const cacheCase = fc
  .record({
    pairs: fc.integer({ min: 1, max: 40 }),
    base: fc.constantFrom(10000, 500000),
    scaling: fc.oneof(
      scaling,
      fc.record({
        type: fc.constant("dynamic"),
        factor: finite(1, 8),
        maxPositionEmbeddings: fc.constant(64),
      }),
    ),
    layout: fc.constantFrom("half", "duplicated", "interleaved"),
    dtype: fc.constantFrom("float32", "float64", "float16"),
    mrope: fc.boolean(),
    count: fc.integer({ min: 0, max: 300 }),
    kind: fc.constantFrom("count", "list", "streams"),
    start: fc.constantFrom(undefined, 0, 17, 0.5),
    out: fc.boolean(),
  })
  .map((c) => {
    const options = {
      dim: 2 * c.pairs,
      base: c.base,
      layout: c.layout,
      dtype: c.dtype,
    };
    if (c.scaling !== undefined) options.scaling = c.scaling;
    if (c.mrope && c.pairs >= 3) {
      const third = Math.floor(c.pairs / 3);
      options.mropeSection = [c.pairs - 2 * third, third, third];
    }
    const list = Float64Array.from({ length: c.count }, (_, j) => 3 * j + 1);
    const positions =
      c.kind === "count"
        ? c.count
        : c.kind === "streams" && options.mropeSection !== undefined
          ? { t: list, h: list.map((p, j) => p + (j % 3)), w: list }
          : list;
    const perCall = {};
    if (c.start !== undefined && c.kind === "count") perCall.start = c.start;
    return { options, positions, perCall, out: c.out, count: c.count };
  });

test("a cache plan's rows equal ropeCache, bit for bit, error for error", () => {
  const cacheOutcome = (call) => {
    try {
      const { cos, sin, warnings } = call();
      return { cos: outcome(() => cos), sin: outcome(() => sin), warnings };
    } catch (error) {
      return outcome(() => {
        throw error;
      });
    }
  };
  holds(
    fc.property(cacheCase, ({ options, positions, perCall, out, count }) => {
      const plan = refusedAlike(
        () => pe.createRopeCache(options),
        () => pe.ropeCache({ ...options, positions }),
      );
      if (plan === null) return;
      const sized = () => {
        if (!out) return perCall;
        const width = options.layout === "half" ? options.dim / 2 : options.dim;
        const Typed = {
          float32: Float32Array,
          float64: Float64Array,
          float16: Uint16Array,
        }[options.dtype];
        const cos = new Typed(count * width);
        const sin = new Typed(count * width);
        return { ...perCall, out: { cos, sin } };
      };
      const viaPlan = cacheOutcome(() => plan.rows(positions, sized()));
      const oneShot = cacheOutcome(() =>
        pe.ropeCache({ ...options, positions, ...sized() }),
      );
      plan.dispose();
      assert.deepEqual(viaPlan, oneShot);
    }),
  );
});
