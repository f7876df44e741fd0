// Float64 references written from the definitions, independent of the
// library: used as expectations by the node tests.

export function paperFrequencies(dim, count, base = 10000) {
  return Array.from({ length: count }, (_, i) =>
    Math.pow(base, (-2 * i) / dim),
  );
}

export function timescaleFrequencies(dim, minTimescale, maxTimescale) {
  const h = Math.floor(dim / 2);
  const step = Math.log(maxTimescale / minTimescale) / Math.max(h - 1, 1);
  return Array.from(
    { length: h },
    (_, i) => minTimescale * Math.exp(-i * step),
  );
}

export function shiftedFrequencies(dim, base, shift) {
  const h = Math.floor(dim / 2);
  return Array.from({ length: h }, (_, i) =>
    Math.exp((-Math.log(base) * i) / (h - shift)),
  );
}

// a·b = hi + lo exactly: Dekker's product with Veltkamp's split.
export function twoProduct(a, b) {
  const split = (x) => {
    const c = 134217729 * x;
    const high = c - (c - x);
    return [high, x - high];
  };
  const [aHigh, aLow] = split(a);
  const [bHigh, bLow] = split(b);
  const hi = a * b;
  const lo = aHigh * bHigh - hi + aHigh * bLow + aLow * bHigh + aLow * bLow;
  return [hi, lo];
}

// sin and cos of the exact product a·b (not of its rounding to a double).
export function sinOfProduct(a, b) {
  const [hi, lo] = twoProduct(a, b);
  return Math.sin(hi) * Math.cos(lo) + Math.cos(hi) * Math.sin(lo);
}

export function cosOfProduct(a, b) {
  const [hi, lo] = twoProduct(a, b);
  return Math.cos(hi) * Math.cos(lo) - Math.sin(hi) * Math.sin(lo);
}

/**
 * One row of a table: value of every column at position p, given the
 * frequencies w (⌊dim/2⌋ of them, or one more for an extra sin column).
 */
export function referenceRow(p, w, { dim, layout = "interleaved", scale = 1 }) {
  const h = Math.floor(dim / 2);
  const extra = w.length > h;
  const sin = (i) => sinOfProduct(p, scale * w[i]);
  const cos = (i) => cosOfProduct(p, scale * w[i]);
  const row = [];
  switch (layout) {
    case "interleaved":
      for (let i = 0; i < h; i++) row.push(sin(i), cos(i));
      break;
    case "interleaved-cos-first":
      for (let i = 0; i < h; i++) row.push(cos(i), sin(i));
      break;
    case "halves":
      for (let i = 0; i < w.length; i++) row.push(sin(i));
      for (let i = 0; i < h; i++) row.push(cos(i));
      return extra || dim % 2 === 0 ? row : [...row, 0];
    case "halves-cos-first":
      for (let i = 0; i < h; i++) row.push(cos(i));
      for (let i = 0; i < h; i++) row.push(sin(i));
      break;
  }
  if (dim % 2 === 1) row.push(extra ? sin(h) : 0);
  return row;
}

export function maxAbsDiff(actual, expected, offset = 0) {
  let worst = 0;
  for (let k = 0; k < expected.length; k++) {
    const e = Math.abs(actual[offset + k] - expected[k]);
    if (!(e <= worst)) worst = Number.isNaN(e) ? Infinity : e;
  }
  return worst;
}

/**
 * Whether a table from the library `pe` (rows 2 and 3 of dim 4, float64)
 * matches sin and cos written here: the module still gives right values.
 */
export function tableStillRight(pe) {
  const got = pe.table({ positions: [2, 3], dim: 4, dtype: "float64" });
  return [2, 3]
    .flatMap((p) => [
      Math.sin(p),
      Math.cos(p),
      Math.sin(p / 100),
      Math.cos(p / 100),
    ])
    .every((want, i) => Math.abs(got[i] - want) < 1e-15);
}

/** n deterministic values in [-2, 2) from a linear congruential generator. */
export function seededValues(n, seed) {
  let state = seed >>> 0;
  return Array.from({ length: n }, () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return (state / 2 ** 32) * 4 - 2;
  });
}

// binary16 from its definition: every half is a double, and a double is
// rounded to the nearest half, ties to even.
export function halfToNumber(bits) {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> 10) & 0x1f;
  const fraction = bits & 0x3ff;
  if (exponent === 31) return fraction ? NaN : sign * Infinity;
  if (exponent === 0) return sign * fraction * 2 ** -24;
  return sign * (1024 + fraction) * 2 ** (exponent - 25);
}

function roundHalfEven(v) {
  const f = Math.floor(v);
  const d = v - f;
  return d > 0.5 || (d === 0.5 && f % 2 === 1) ? f + 1 : f;
}

export function numberToHalf(x) {
  if (Number.isNaN(x)) return 0x7e00;
  const sign = x < 0 || Object.is(x, -0) ? 0x8000 : 0;
  const a = Math.abs(x);
  // A subnormal may round up to 0x400, the smallest normal.
  if (a < 2 ** -14) return sign | roundHalfEven(a * 2 ** 24);
  let e = Math.floor(Math.log2(a));
  if (2 ** e > a) e--;
  if (2 ** (e + 1) <= a) e++;
  let m = roundHalfEven((a / 2 ** e - 1) * 1024);
  if (m === 1024) (e++, (m = 0));
  if (e > 15) return sign | 0x7c00;
  return sign | ((e + 15) << 10) | m;
}

// The flat index of element (b, h, s, d) of a 4-D tensor in each order.
export const TENSOR_INDEX = {
  bhsd: ({ H, S, D }, b, h, s, d) => ((b * H + h) * S + s) * D + d,
  bshd: ({ H, S, D }, b, h, s, d) => ((b * S + s) * H + h) * D + d,
};

/**
 * A float64 reference for a tensor of shape { B, H, S, D } in `order`:
 * each head row of `data` replaced by referenceRowOf(row, b, s).
 */
export function referenceTensor(data, shape, order, referenceRowOf) {
  const { B, H, S, D } = shape;
  const out = new Array(data.length);
  for (let b = 0; b < B; b++)
    for (let h = 0; h < H; h++)
      for (let s = 0; s < S; s++) {
        const at = TENSOR_INDEX[order](shape, b, h, s, 0);
        const row = referenceRowOf(data.slice(at, at + D), b, s);
        for (let d = 0; d < D; d++) out[at + d] = row[d];
      }
  return out;
}
