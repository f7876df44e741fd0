// One sequence-length rule for every function that takes positions: a
// dynamic or longrope scaling given no seqLen takes the largest position + 1,
// as transformers' forward takes max(position_ids) + 1, in rope, a rope
// plan, table, a table plan, ropeCache and a cache plan alike. Expectations
// come from float64 formulas written here and from the committed vectors of
// tests/vectors/generate_config_vectors.py (cacheSeqLen: the cache of the
// listed positions, computed at their largest + 1).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { before, test } from "node:test";
import {
  createRope,
  createRopeCache,
  createTable,
  fromConfig,
  init,
  rope,
  ropeCache,
  table,
} from "../../dist/index.js";

before(() => init());

const maxDiff = (a, b) => {
  let worst = 0;
  for (let i = 0; i < a.length; i++)
    worst = Math.max(worst, Math.abs(a[i] - b[i]));
  return worst;
};

// Rows whose rotation is the cos and sin of each pair: 1 at the pair's
// first column, 0 at its second, so the rotated row holds cos at the first
// and sin at the second ("halves": columns i and i + dim/2).
function unitRows(count, dim) {
  const rows = new Float64Array(count * dim);
  for (let j = 0; j < count; j++) rows.fill(1, j * dim, j * dim + dim / 2);
  return rows;
}

// cos and sin of the rotated unit rows, [count, dim/2] each.
function split(rows, count, dim) {
  const half = dim / 2;
  const cos = new Float64Array(count * half);
  const sin = new Float64Array(count * half);
  for (let j = 0; j < count; j++)
    for (let i = 0; i < half; i++) {
      cos[j * half + i] = rows[j * dim + i];
      sin[j * half + i] = rows[j * dim + half + i];
    }
  return { cos, sin };
}

// Every function's cos and sin at `positions` (a list), with these options.
function everyFunction(options, positions) {
  const { dim } = options;
  const n = positions.length;
  const rows = unitRows(n, dim);
  const plan = createRope(options);
  const cachePlan = createRopeCache({ ...options, dtype: "float64" });
  const tablePlan = createTable({
    dim,
    base: options.base,
    scaling: options.scaling,
    layout: "halves",
    dtype: "float64",
  });
  // A table's halves row is [sin | cos].
  const tableRows = (values) => {
    const out = { cos: new Float64Array((n * dim) / 2), sin: null };
    out.sin = new Float64Array((n * dim) / 2);
    for (let j = 0; j < n; j++)
      for (let i = 0; i < dim / 2; i++) {
        out.sin[(j * dim) / 2 + i] = values[j * dim + i];
        out.cos[(j * dim) / 2 + i] = values[j * dim + dim / 2 + i];
      }
    return out;
  };
  const results = {
    rope: split(rope(rows, positions, options), n, dim),
    "a rope plan": split(plan.apply(rows, positions), n, dim),
    ropeCache: ropeCache({ ...options, positions, dtype: "float64" }),
    "a cache plan": cachePlan.rows(positions),
    table: tableRows(
      table({
        dim,
        base: options.base,
        scaling: options.scaling,
        positions,
        layout: "halves",
        dtype: "float64",
      }),
    ),
    "a table plan": tableRows(tablePlan.rows(positions)),
  };
  plan.dispose();
  cachePlan.dispose();
  tablePlan.dispose();
  // A plan's call is the one-shot call, bit for bit.
  assert.deepEqual(results["a rope plan"], results.rope);
  assert.deepEqual(results["a cache plan"], results.ropeCache);
  assert.deepEqual(results["a table plan"], results.table);
  return results;
}

// Dynamic NTK as transformers' _compute_dynamic_ntk_parameters: the base
// grows to base · (factor · L / max − (factor − 1))^(dim / (dim − 2)), L =
// max(seqLen, max).
const DYNAMIC = {
  dim: 8,
  base: 10000,
  scaling: { type: "dynamic", factor: 2, maxPositionEmbeddings: 16 },
};
function dynamicAngle(p, i, seqLen) {
  const { factor, maxPositionEmbeddings: max } = DYNAMIC.scaling;
  const L = Math.max(seqLen, max);
  const base =
    DYNAMIC.base * (factor * (L / max) - (factor - 1)) ** (8 / (8 - 2));
  return p * base ** (-(2 * i) / 8);
}

// LongRoPE as _compute_longrope_parameters: w_i / longFactor[i] past the
// original context, / shortFactor[i] within it; attention sqrt(1 + ln factor
// / ln original), factor = max / original.
const LONGROPE = {
  dim: 8,
  base: 10000,
  scaling: {
    type: "longrope",
    shortFactor: [1, 1.5, 2, 3],
    longFactor: [2, 4, 8, 16],
    maxPositionEmbeddings: 4096,
    originalMaxPositionEmbeddings: 1024,
  },
};
const LONGROPE_ATTENTION = Math.sqrt(1 + Math.log(4) / Math.log(1024));
function longropeAngle(p, i, seqLen) {
  const { shortFactor, longFactor } = LONGROPE.scaling;
  const factors = seqLen > 1024 ? longFactor : shortFactor;
  return (p * 10000 ** (-(2 * i) / 8)) / factors[i];
}

for (const [name, options, angle, attention, original] of [
  ["dynamic", DYNAMIC, dynamicAngle, 1, 16],
  ["longrope", LONGROPE, longropeAngle, LONGROPE_ATTENTION, 1024],
])
  test(`${name} without seqLen: every function takes the largest position + 1, past the original context and within it`, () => {
    for (const positions of [
      [0, 3, original - 1], // within: the original frequencies
      [5, original], // the largest reaches the context: seqLen original + 1
      [2, 100, 3 * original + 7],
    ]) {
      const seqLen = Math.max(...positions) + 1;
      const expected = { cos: [], sin: [] };
      for (const p of positions)
        for (let i = 0; i < 4; i++) {
          expected.cos.push(attention * Math.cos(angle(p, i, seqLen)));
          expected.sin.push(attention * Math.sin(angle(p, i, seqLen)));
        }
      for (const [fn, got] of Object.entries(everyFunction(options, positions)))
        for (const part of ["cos", "sin"]) {
          const error = maxDiff(got[part], expected[part]);
          assert.ok(
            error < 1e-12,
            `${fn} ${part} at ${positions}: ${error.toExponential(2)} off`,
          );
        }
    }
  });

test("a plan without seqLen decides per call; with seqLen, once at creation", () => {
  const rows = unitRows(1, 8);
  const plan = createRope(DYNAMIC);
  const cosAt = (result) => result[1];
  // Past the context, then within it: each call's own positions decide.
  assert.ok(
    Math.abs(
      cosAt(plan.apply(rows, [100])) - Math.cos(dynamicAngle(100, 1, 101)),
    ) < 1e-12,
  );
  assert.ok(
    Math.abs(cosAt(plan.apply(rows, [5])) - Math.cos(dynamicAngle(5, 1, 16))) <
      1e-12,
  );
  // A decode step: one token at a number position, after the KV cache.
  const step = plan.apply(rows, 200);
  assert.ok(
    Math.abs(cosAt(step) - Math.cos(dynamicAngle(200, 1, 201))) < 1e-12,
  );
  plan.dispose();
  const fixed = createRope({
    ...DYNAMIC,
    scaling: { ...DYNAMIC.scaling, seqLen: 64 },
  });
  for (const p of [5, 100, 200])
    assert.ok(
      Math.abs(
        cosAt(fixed.apply(rows, [p])) - Math.cos(dynamicAngle(p, 1, 64)),
      ) < 1e-12,
    );
  fixed.dispose();
});

test("a tensor's positions and M-RoPE's streams: the largest of all of them", () => {
  const heads = 2;
  const seq = 3;
  const rows = unitRows(heads * seq, 8);
  // Tokens at 98, 99, 100 after a KV cache of 98: seqLen 101 for every
  // token, the first ones too.
  const tensor = rope(rows, 98, { ...DYNAMIC, heads, order: "bshd" });
  for (let s = 0; s < seq; s++)
    assert.ok(
      Math.abs(
        tensor[s * heads * 8 + 1] - Math.cos(dynamicAngle(98 + s, 1, 101)),
      ) < 1e-12,
      `token ${s}`,
    );
  // M-RoPE: the largest of t, h and w.
  const streams = rope(
    unitRows(1, 8),
    { t: [3], h: [3], w: [100] },
    { ...DYNAMIC, mropeSection: [2, 1, 1] },
  );
  const cache = ropeCache({
    ...DYNAMIC,
    mropeSection: [2, 1, 1],
    positions: { t: [3], h: [3], w: [100] },
    dtype: "float64",
  });
  assert.ok(Math.abs(streams[0] - Math.cos(dynamicAngle(3, 0, 101))) < 1e-12);
  assert.ok(Math.abs(streams[3] - Math.cos(dynamicAngle(100, 3, 101))) < 1e-12);
  assert.ok(maxDiff(split(streams, 1, 8).cos, cache.cos) < 1e-15);
});

test("rows past one block (1 MiB) take the sequence of the whole call", () => {
  // 20001 float64 rows of 8: positions 0 … 20000, seqLen 20001 > 1024.
  const n = 20001;
  const positions = Float64Array.from({ length: n }, (_, j) => j);
  const rows = unitRows(n, 8);
  const turned = rope(rows, positions, LONGROPE);
  const plan = createRope(LONGROPE);
  assert.deepEqual(plan.apply(rows, positions), turned);
  plan.dispose();
  for (const p of [0, 1023, 16383, 16384, 20000])
    for (let i = 0; i < 4; i++) {
      const want = LONGROPE_ATTENTION * Math.cos(longropeAngle(p, i, n));
      assert.ok(Math.abs(turned[p * 8 + i] - want) < 1e-12, `p ${p} i ${i}`);
    }
});

test("every cache result carries the same warning, the plan's rows too", () => {
  const one = ropeCache({ ...LONGROPE, positions: [5, 2000] });
  const plan = createRopeCache(LONGROPE);
  assert.deepEqual(plan.rows([5, 2000]).warnings, one.warnings);
  assert.equal(one.warnings.length, 1);
  assert.match(
    one.warnings[0],
    /^scaling\.seqLen is the largest position \+ 1 = 2001, beyond the original context of 1024: the long factors are used/,
  );
  assert.deepEqual(plan.rows([5, 1023]).warnings, []);
  plan.dispose();
});

// The committed vectors: Phi-3.5 (longrope, 96 wide) and a dynamic NTK
// Llama, at positions up to 131071, computed by transformers' formulas
// (float64) for seqLen 131072.
const here = new URL("../vectors/", import.meta.url);
const { cases } = JSON.parse(
  readFileSync(new URL("config/config_vectors.json", here), "utf8"),
);
for (const c of cases.filter(
  (c) => c.cacheSeqLen !== undefined && c.seqLen === null,
))
  test(`${c.config}: rope, its plan, ropeCache and table give the committed cache of seqLen ${c.cacheSeqLen}`, () => {
    const config = JSON.parse(
      readFileSync(new URL(`configs/${c.config}`, here), "utf8"),
    );
    const options = fromConfig(config);
    assert.equal(Math.max(...c.positions) + 1, c.cacheSeqLen);
    const expected = { cos: c.cos.flat(), sin: c.sin.flat() };
    const results = everyFunction(
      { dim: options.rotaryDim, base: options.base, scaling: options.scaling },
      c.positions,
    );
    for (const [fn, got] of Object.entries(results))
      for (const part of ["cos", "sin"]) {
        // The vectors' own rounding and the angle's, |p| ≤ 131071 times a
        // frequency within an ulp or two.
        const error = maxDiff(got[part], expected[part]);
        assert.ok(error < 1e-9, `${fn} ${part}: ${error.toExponential(2)} off`);
      }
    // A decode step at the last position alone, a tensor of one token.
    const last = c.positions.at(-1);
    const step = rope(unitRows(1, options.rotaryDim), last, {
      ...options,
      dim: options.rotaryDim,
      heads: 1,
      order: "bshd",
    });
    const half = options.rotaryDim / 2;
    assert.ok(
      maxDiff(step.subarray(0, half), c.cos.at(-1)) < 1e-9,
      "one token at the last position",
    );
  });

test("a table plan called within the context, then past it, follows each call's positions", () => {
  const options = {
    dim: 8,
    scaling: { type: "dynamic", factor: 2, maxPositionEmbeddings: 16 },
    dtype: "float64",
  };
  const plan = createTable(options);
  const short = [0, 3, 7];
  const long = [0, 50, 100];
  assert.deepEqual(plan.rows(short), table({ ...options, positions: short }));
  assert.deepEqual(plan.rows(long), table({ ...options, positions: long }));
  // And back: the first call's frequencies again.
  assert.deepEqual(plan.rows(short), table({ ...options, positions: short }));
  plan.dispose();
});
