// One word for each way of placing a pair's partners, in tables, rope and
// caches: "halves" (i and i + h) and "interleaved" (2i and 2i + 1); the
// cache that holds each pair once is "compact". The cache layouts' older
// names stay accepted: "half" is "compact", "duplicated" is "halves".
import assert from "node:assert/strict";
import { before, test } from "node:test";
import { init, ROPE_LAYOUTS, ropeCache, rope, table } from "sinusoidal-pe";

before(() => init());

const DIM = 8;
const h = DIM / 2;
const options = { dim: DIM, positions: [0, 1.5, 7] };

test("the cache layouts are compact, halves and interleaved", () => {
  assert.deepEqual(ROPE_LAYOUTS, ["compact", "halves", "interleaved"]);
  assert.deepEqual(ropeCache(options).shape, [3, h]);
  assert.deepEqual(ropeCache({ ...options, layout: "compact" }).shape, [3, h]);
});

test("the older names give the same caches, bit for bit", () => {
  for (const [old, word] of [
    ["half", "compact"],
    ["duplicated", "halves"],
  ]) {
    const a = ropeCache({ ...options, layout: old });
    const b = ropeCache({ ...options, layout: word });
    assert.deepEqual(a.cos, b.cos);
    assert.deepEqual(a.sin, b.sin);
    assert.deepEqual(a.shape, b.shape);
  }
});

test('a cache and a table in "halves" place pair i at columns i and i + h, as rope pairs them', () => {
  const cache = ropeCache({ ...options, layout: "halves" });
  const compact = ropeCache(options);
  // [sin | cos]: the cos half of a halves table is a halves cache's first half.
  const pe = table({ ...options, layout: "halves" });
  for (let r = 0; r < 3; r++)
    for (let i = 0; i < h; i++) {
      const c = compact.cos[r * h + i];
      assert.equal(cache.cos[r * DIM + i], c);
      assert.equal(cache.cos[r * DIM + i + h], c);
      assert.equal(pe[r * DIM + h + i], c);
      assert.equal(pe[r * DIM + i], compact.sin[r * h + i]);
    }
  // rope with pairing "halves" is x·cos + rotate_half(x)·sin on that cache.
  const x = Float64Array.from({ length: DIM }, (_, k) => k + 1);
  const turned = rope(x, 1.5, { dim: DIM, pairing: "halves" });
  const c = ropeCache({
    dim: DIM,
    positions: [1.5],
    layout: "halves",
    dtype: "float64",
  });
  for (let k = 0; k < DIM; k++) {
    const half = k < h ? -x[k + h] : x[k - h];
    const want = x[k] * c.cos[k] + half * c.sin[k];
    assert.ok(Math.abs(turned[k] - want) < 1e-12, `column ${k}`);
  }
});

test("an unknown cache layout names the three words, and the module works afterwards", () => {
  assert.throws(() => ropeCache({ ...options, layout: "rows" }), {
    name: "RangeError",
    code: "ERR_LAYOUT",
    option: "layout",
    message: /"layout" must be one of "compact", "halves", "interleaved"/,
  });
  assert.deepEqual(ropeCache(options).shape, [3, h]);
});
