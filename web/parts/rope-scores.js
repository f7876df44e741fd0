// The RoPE section's computations around the library's `rope`: seeded random
// query and key vectors, the score matrix of the rotated rows (the product
// is the thing shown) and how far that matrix is from constant diagonals.
import { rowProducts } from "./row-products.js";

// n² · dim multiply-adds per pairing, a few milliseconds at most.
const SCORE_WORK = 2 ** 19;
export const SCORE_MAX = 48;

/**
 * Tolerance of the diagonal check for unit q and k: rope rounds each rotated
 * component once to float32, which moves a score by at most 2⁻²³ (by
 * Cauchy–Schwarz), so two scores on one diagonal differ by at most 2⁻²²;
 * float64 sums add nothing visible.
 */
export const SCORE_TOLERANCE = 3e-7;

export function scoreSize(dim) {
  return Math.max(
    4,
    Math.min(SCORE_MAX, Math.floor(Math.sqrt(SCORE_WORK / Math.max(dim, 1)))),
  );
}

/** mulberry32: a small, well-mixed 32-bit generator, so a seed reproduces. */
export function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Two unit vectors q and k of length dim, normally distributed directions. */
export function randomPair(seed, dim) {
  const next = generator(seed);
  const normal = () =>
    Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
  const unit = () => {
    const v = Float64Array.from({ length: dim }, normal);
    const norm = Math.hypot(...v) || 1;
    return Float32Array.from(v, (x) => x / norm);
  };
  return { q: unit(), k: unit() };
}

/** n copies of a row, one per position. */
function repeat(row, n) {
  const rows = new Float32Array(n * row.length);
  for (let r = 0; r < n; r++) rows.set(row, r * row.length);
  return rows;
}

/**
 * S[a, b] = q_{m_a} · k_{n_b}: q rotated to positions start + a, k to
 * start + b, both by the library's rope; row-major n × n, float64 sums.
 */
export function scoreMatrix(lib, q, k, n, start, options) {
  const positions = Float64Array.from({ length: n }, (_, r) => start + r);
  const dim = q.length;
  const qs = lib.rope(repeat(q, n), positions, { ...options, dim });
  const ks = lib.rope(repeat(k, n), positions, { ...options, dim });
  // float64 copies (exact) keep rowProducts to one kind of array.
  return rowProducts(new Float64Array(qs), new Float64Array(ks), n, dim);
}

/** max over the matrix of |S[a, b] − S at the start of the diagonal a − b|. */
export function diagonalError(scores, n) {
  let worst = 0;
  for (let a = 0; a < n; a++)
    for (let b = 0; b < n; b++) {
      const first = a >= b ? (a - b) * n : b - a;
      worst = Math.max(worst, Math.abs(scores[a * n + b] - scores[first]));
    }
  return worst;
}

/** max |S − T| of two matrices of the same size. */
export function largestDifference(s, t) {
  let worst = 0;
  for (let j = 0; j < s.length; j++)
    worst = Math.max(worst, Math.abs(s[j] - t[j]));
  return worst;
}
