// Products of table rows, the matrices the dot-product and RoPE sections
// draw: entry (a, b) is the float64 dot product of row a of one block with
// row b of another.

/**
 * P[a, b] = Σ_j left[a, j] · right[b, j], row-major n × n, for n rows of
 * `dim` values each; when `right` is `left` only the upper half is computed.
 * Entries come in 2 × 2 blocks, so that each value loaded serves two
 * products and four independent sums keep the floating-point adders busy.
 */
export function rowProducts(left, right, n, dim) {
  const products = new Float64Array(n * n);
  const symmetric = left === right;
  for (let a = 0; a < n; a += 2) {
    // With n odd the last block repeats its row: the same values, written twice.
    const a1 = Math.min(a + 1, n - 1);
    const x0 = a * dim;
    const x1 = a1 * dim;
    for (let b = symmetric ? a : 0; b < n; b += 2) {
      const b1 = Math.min(b + 1, n - 1);
      const y0 = b * dim;
      const y1 = b1 * dim;
      let s00 = 0;
      let s01 = 0;
      let s10 = 0;
      let s11 = 0;
      for (let j = 0; j < dim; j++) {
        const l0 = left[x0 + j];
        const l1 = left[x1 + j];
        const r0 = right[y0 + j];
        const r1 = right[y1 + j];
        s00 += l0 * r0;
        s01 += l0 * r1;
        s10 += l1 * r0;
        s11 += l1 * r1;
      }
      products[a * n + b] = s00;
      products[a * n + b1] = s01;
      products[a1 * n + b] = s10;
      products[a1 * n + b1] = s11;
      if (symmetric) {
        products[b * n + a] = s00;
        products[b1 * n + a] = s01;
        products[b * n + a1] = s10;
        products[b1 * n + a1] = s11;
      }
    }
  }
  return products;
}

/** The largest |entry|: the colour range of a product matrix. */
export function largestMagnitude(values) {
  let reach = 0;
  for (let j = 0; j < values.length; j++)
    reach = Math.max(reach, Math.abs(values[j]));
  return reach;
}
