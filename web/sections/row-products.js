// Products of table rows, the matrices the dot-product and RoPE sections
// draw: entry (a, b) is the float64 dot product of row a of one block with
// row b of another.

/**
 * P[a, b] = Σ_j left[a, j] · right[b, j], row-major n × n, for n rows of
 * `dim` values each; when `right` is `left` only half is computed. Four
 * partial sums keep the floating-point adders busy.
 */
export function rowProducts(left, right, n, dim) {
  const products = new Float64Array(n * n);
  const symmetric = left === right;
  const quads = dim - (dim % 4);
  for (let a = 0; a < n; a++) {
    const x = a * dim;
    for (let b = symmetric ? a : 0; b < n; b++) {
      const y = b * dim;
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      let j = 0;
      for (; j < quads; j += 4) {
        s0 += left[x + j] * right[y + j];
        s1 += left[x + j + 1] * right[y + j + 1];
        s2 += left[x + j + 2] * right[y + j + 2];
        s3 += left[x + j + 3] * right[y + j + 3];
      }
      for (; j < dim; j++) s0 += left[x + j] * right[y + j];
      const sum = s0 + s1 + (s2 + s3);
      products[a * n + b] = sum;
      if (symmetric) products[b * n + a] = sum;
    }
  }
  return products;
}
