// An n × n matrix over positions start … start + n − 1 drawn as a heatmap on
// a colour scale symmetric about 0, so that a sign reads the same in every
// matrix of the page.
import { largestMagnitude } from "./row-products.js";

/** labels: { row, col }, the axes' names. */
export function showSquareMatrix(heatmap, matrix, n, start, labels) {
  const reach = largestMagnitude(matrix) || 1;
  heatmap.set(matrix, n, n, {
    min: -reach,
    max: reach,
    rowLabel: labels.row,
    colLabel: labels.col,
    rowStart: start,
    colStart: start,
  });
}
