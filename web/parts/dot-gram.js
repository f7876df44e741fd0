// The Gram block of the dot-product section: which positions and how many.
// The library checks the Toeplitz property (toeplitzError); the matrix drawn
// is the product of a library table with its own transpose (rowProducts),
// because that product is the thing shown.

// n² · dim multiply-adds per redraw, a few milliseconds at most.
const GRAM_WORK = 2 ** 21;
export const GRAM_MAX = 64;

/** Positions in the Gram block for this dim: at most 64, fewer for big dims. */
export function gramSize(dim) {
  return Math.max(
    2,
    Math.min(GRAM_MAX, Math.floor(Math.sqrt(GRAM_WORK / Math.max(dim, 1)))),
  );
}

/** Evenly spaced offsets −K … K, K = positions − 1, at most 4001 of them. */
export function offsetGrid(positions) {
  const reach = Math.max(8, positions - 1);
  // Whole offsets only: every one while they number at most 4001, else
  // every step-th.
  const step = Math.ceil((2 * reach) / 4000);
  const half = Math.floor(reach / step);
  return { from: -half * step, to: half * step, count: 2 * half + 1, step };
}

/**
 * Tolerance of the float64 Toeplitz check: each entry sums h products of
 * values within 1e-16 of exact, so its rounding grows with h; 1e-14 per pair
 * leaves a wide margin (measured: 3e-12 at h = 2048).
 */
export function toeplitzTolerance(pairs) {
  return Math.max(1, pairs) * 1e-14;
}

/**
 * Table options for the rows sin, cos of p·ω_i of these frequencies; an odd
 * dim keeps its extra sin column (one ω more than pairs) or zero column.
 */
export function plainRows(omega, dim) {
  const oddDim = 2 * omega.length > dim ? "extra-sin" : "zero-pad";
  return { dim, frequencies: omega, oddDim };
}
