// Every float32 value of table, ropeCache, rope and rotate is the correctly
// rounded exact value, whatever the call path: the committed mpmath vectors
// (tests/vectors/generate_rounding_vectors.py) against listed positions, a
// count, a count with start, one row at a time, rows in chunks, into `out`,
// as a view, and RoPE and R(k) of unit vectors, in every layout.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import {
  LAYOUTS,
  ROPE_LAYOUTS,
  frequencies,
  init,
  rope,
  ropeCache,
  ropeFrequencies,
  rotate,
  table,
} from "../../dist/index.js";

await init();

const { cases, values } = JSON.parse(
  readFileSync(
    new URL("../vectors/rounding/rounding_vectors.json", import.meta.url),
  ),
);

// The float32 bits of pair i of a row string (eight hex digits a value).
const bitsAt = (row, i) => parseInt(row.slice(8 * i, 8 * i + 8), 16) >>> 0;

function rowsOf(c) {
  return c.positions ?? Array.from({ length: c.count }, (_, j) => c.start + j);
}

// Values whose exact result sits within the band of a rounding midpoint.
function bandOf(c) {
  return new Set(c.band.map(([row, pair, k]) => `${row},${pair},${k}`));
}

/**
 * Compares values of a float32 result with the vectors: `at(row, pair, k)`
 * gives the result's index of the sin (k 0) or cos (k 1) of a pair, or -1.
 * Returns the mismatches outside the band, a few of them described.
 */
function mismatches(c, result, rows, at) {
  const got = new Uint32Array(result.buffer, result.byteOffset, result.length);
  const band = bandOf(c);
  const wrong = [];
  for (let r = 0; r < rows.length; r++)
    for (let i = 0; i < c.omega.length; i++)
      for (let k = 0; k < 2; k++) {
        const index = at(r, i, k);
        if (index < 0 || band.has(`${rows[r]},${i},${k}`)) continue;
        const want = bitsAt((k ? c.cos : c.sin)[rows[r]], i);
        if (got[index] !== want)
          wrong.push(
            `row ${rows[r]} pair ${i} ${k ? "cos" : "sin"}: got 0x${got[index].toString(16)}, want 0x${want.toString(16)}`,
          );
      }
  return wrong;
}

function assertExact(c, result, rows, at, path) {
  const wrong = mismatches(c, result, rows, at);
  assert.equal(
    wrong.length,
    0,
    `${c.name}, ${path}: ${wrong.length} values not correctly rounded, e.g. ${wrong.slice(0, 3).join("; ")}`,
  );
}

// The column of the sin (k 0) or cos (k 1) of pair i in a table layout. An
// odd dim's extra sin (pair h) closes the sin block of "halves" and ends
// the row in the other layouts.
function tableColumn(layout, dim, i, k) {
  const h = Math.floor(dim / 2);
  const extra = dim % 2 === 1 ? 1 : 0;
  if (layout === "halves") return k === 0 ? i : i < h ? h + extra + i : -1;
  if (i >= h) return k === 0 && extra ? dim - 1 : -1;
  const first = layout.endsWith("cos-first") ? 1 - k : k;
  return layout.startsWith("interleaved") ? 2 * i + first : first * h + i;
}

// Every listed row index of a case, in chunks of random sizes.
function chunks(n, seed) {
  const out = [];
  let x = seed;
  for (let from = 0; from < n;) {
    x = (x * 1103515245 + 12345) % 2147483648;
    const size = Math.min(n - from, 1 + (x % 200));
    out.push([from, size]);
    from += size;
  }
  return out;
}

test("the vectors hold at least 10^5 float32 values", () => {
  assert.ok(values >= 1e5, `${values}`);
});

for (const c of cases.filter((c) => c.kind === "table")) {
  const rows = rowsOf(c).map((_, r) => r);
  const positions = rowsOf(c);
  const { dim } = c.options;
  const n = positions.length;

  test(`${c.name}: the vectors' frequencies are the package's`, () => {
    const omega = frequencies({ ...c.options });
    assert.deepEqual([...omega], c.omega);
  });

  for (const layout of LAYOUTS) {
    const options = { ...c.options, layout };
    const at = (r, i, k) => {
      const col = tableColumn(layout, dim, i, k);
      return col < 0 ? -1 : r * dim + col;
    };
    test(`${c.name}, ${layout}: listed positions, count, start, out, view`, () => {
      assertExact(c, table({ ...options, positions }), rows, at, "listed");
      if (c.start === undefined) return;
      const count = table({ ...options, positions: n, start: c.start });
      assertExact(
        c,
        count,
        rows,
        at,
        c.start === 0 ? "count" : "count and start",
      );
      const out = new Float32Array(n * dim).fill(NaN);
      table({ ...options, positions: n, start: c.start, out });
      assertExact(c, out, rows, at, "out");
      const view = table({
        ...options,
        positions: n,
        start: c.start,
        view: true,
      });
      assertExact(c, view, rows, at, "view");
    });
    test(`${c.name}, ${layout}: one row at a time and in chunks`, () => {
      const alone = new Float32Array(n * dim);
      for (let r = 0; r < n; r++)
        alone.set(table({ ...options, positions: [positions[r]] }), r * dim);
      assertExact(c, alone, rows, at, "one row at a time");
      if (c.start === undefined) return;
      const chunked = new Float32Array(n * dim);
      for (const [from, size] of chunks(n, dim + layout.length))
        table({
          ...options,
          positions: size,
          start: c.start + from,
          out: chunked.subarray(from * dim, (from + size) * dim),
        });
      assertExact(c, chunked, rows, at, "chunks of counts");
    });
  }

  if (dim % 2 === 0)
    test(`${c.name}: R(k) of the row at 0 is the row at k, correctly rounded`, () => {
      // The interleaved row at 0 is (0, 1) per pair; R(k) turns it into the
      // row at k, each value one product with 1 or 0.
      const base = new Float32Array(n * dim);
      for (let j = 0; j < n * dim; j += 2) base[j + 1] = 1;
      const turned = rotate(base, positions, {
        ...c.options,
        layout: "interleaved",
      });
      const at = (r, i, k) => r * dim + 2 * i + k;
      assertExact(c, turned, rows, at, "rotate of unit vectors");
    });
}

for (const c of cases.filter((c) => c.kind === "ropeCache")) {
  const rows = rowsOf(c).map((_, r) => r);
  const positions = rowsOf(c);
  const n = positions.length;
  const h = c.omega.length;

  test(`${c.name}: the vectors' frequencies are the package's`, () => {
    const f = ropeFrequencies({ ...c.options });
    assert.deepEqual([...f.inverseFrequencies], c.omega);
    assert.equal(f.attentionFactor, c.amplitude);
  });

  for (const layout of ROPE_LAYOUTS) {
    // compact: each pair once; halves: at i and i + h; interleaved: 2i, 2i + 1.
    const width = layout === "compact" ? h : 2 * h;
    const columns = (i) =>
      layout === "compact"
        ? [i]
        : layout === "halves"
          ? [i, i + h]
          : [2 * i, 2 * i + 1];
    // Both copies of a value are checked: the value at the second copy
    // must equal the first, which is checked against the vectors.
    const check = (result, path) => {
      for (const copy of layout === "compact" ? [0] : [0, 1]) {
        const at = (r, i) => r * width + columns(i)[copy];
        assertExact(
          c,
          result.sin,
          rows,
          (r, i, k) => (k === 0 ? at(r, i) : -1),
          `${path} sin`,
        );
        assertExact(
          c,
          result.cos,
          rows,
          (r, i, k) => (k === 1 ? at(r, i) : -1),
          `${path} cos`,
        );
      }
    };
    const options = { ...c.options, layout };
    test(`${c.name}, ${layout}: listed positions, count, start, out`, () => {
      check(ropeCache({ ...options, positions }), "listed");
      if (c.start === undefined) return;
      check(
        ropeCache({ ...options, positions: n, start: c.start }),
        c.start === 0 ? "count" : "count and start",
      );
      const out = {
        cos: new Float32Array(n * width).fill(NaN),
        sin: new Float32Array(n * width).fill(NaN),
      };
      ropeCache({ ...options, positions: n, start: c.start, out });
      check(out, "out");
    });
    test(`${c.name}, ${layout}: one row at a time and in chunks`, () => {
      const alone = {
        cos: new Float32Array(n * width),
        sin: new Float32Array(n * width),
      };
      for (let r = 0; r < n; r++) {
        const one = ropeCache({ ...options, positions: [positions[r]] });
        alone.cos.set(one.cos, r * width);
        alone.sin.set(one.sin, r * width);
      }
      check(alone, "one row at a time");
      if (c.start === undefined) return;
      const chunked = {
        cos: new Float32Array(n * width),
        sin: new Float32Array(n * width),
      };
      for (const [from, size] of chunks(n, width)) {
        const part = {
          cos: chunked.cos.subarray(from * width, (from + size) * width),
          sin: chunked.sin.subarray(from * width, (from + size) * width),
        };
        ropeCache({
          ...options,
          positions: size,
          start: c.start + from,
          out: part,
        });
      }
      check(chunked, "chunks of counts");
    });
  }

  for (const pairing of ["halves", "interleaved"]) {
    test(`${c.name}: float32 rope of unit vectors, ${pairing} pairs`, () => {
      // (x, y) = (1, 0) turns into (cos, sin) times the attention factor.
      const dim = 2 * h;
      const q = new Float32Array(n * dim);
      const xAt = (r, i) => r * dim + (pairing === "halves" ? i : 2 * i);
      const yAt = (r, i) =>
        r * dim + (pairing === "halves" ? i + h : 2 * i + 1);
      for (let r = 0; r < n; r++) for (let i = 0; i < h; i++) q[xAt(r, i)] = 1;
      const turned = rope(q, positions, { ...c.options, pairing });
      assertExact(
        c,
        turned,
        rows,
        (r, i, k) => (k === 0 ? yAt(r, i) : xAt(r, i)),
        `rope ${pairing}`,
      );
      // One token at a time, as a decode loop turns its query.
      const alone = new Float32Array(n * dim);
      for (let r = 0; r < n; r++)
        alone.set(
          rope(q.subarray(r * dim, (r + 1) * dim), positions[r], {
            ...c.options,
            pairing,
          }),
          r * dim,
        );
      assertExact(
        c,
        alone,
        rows,
        (r, i, k) => (k === 0 ? yAt(r, i) : xAt(r, i)),
        `rope ${pairing} one token at a time`,
      );
    });
  }
}
