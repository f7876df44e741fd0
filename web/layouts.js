// Where the sin and cos of each pair sit in a row, read from the library's
// own table rather than from any description: at position 0 every sin
// column is 0 and every cos column is not; at a small position ε a sin
// column holds about ε·ωᵢ (times the preset's output scale), which names its
// pair. Cos columns come in pair order, as in every layout; columns that are
// 0 at both positions are padding.
import { table } from "sinusoidal-pe";

const EPSILON = 1e-3;

/**
 * The columns of a table under `schedule` (table options without
 * positions): { kinds: ("sin" | "cos" | "zero")[], pairs: pair index per
 * column (-1 for padding), columnsOf(i): { sin, cos } (-1 where absent) }.
 */
export function columnMap(schedule, frequencies) {
  const rows = table({
    ...schedule,
    positions: Float64Array.from([0, EPSILON]),
    dtype: "float64",
  });
  const dim = rows.length / 2;
  let amplitude = 0;
  for (let j = 0; j < dim; j++)
    amplitude = Math.max(amplitude, Math.abs(rows[j]));
  const kinds = [];
  const pairs = new Int32Array(dim).fill(-1);
  let cosSeen = 0;
  const nearest = nearestFinder(frequencies);
  for (let j = 0; j < dim; j++) {
    if (rows[j] !== 0) {
      kinds.push("cos");
      pairs[j] = cosSeen++;
    } else if (rows[dim + j] !== 0) {
      kinds.push("sin");
      pairs[j] = nearest(rows[dim + j] / (amplitude * EPSILON));
    } else kinds.push("zero");
  }
  const sin = new Map();
  const cos = new Map();
  kinds.forEach((kind, j) => {
    if (kind === "sin") sin.set(pairs[j], j);
    if (kind === "cos") cos.set(pairs[j], j);
  });
  return {
    kinds,
    pairs,
    /** The output scale: the value of every cos column at position 0. */
    amplitude,
    columnsOf: (i) => ({ sin: sin.get(i) ?? -1, cos: cos.get(i) ?? -1 }),
    /** Whether pair i has both its columns. */
    complete: (i) => sin.has(i) && cos.has(i),
  };
}

// The pair whose frequency is nearest on a log scale, by binary search over
// the frequencies sorted once: a linear scan per column would cost h² logs.
function nearestFinder(frequencies) {
  const order = Array.from(frequencies, (_, i) => i).sort(
    (a, b) => frequencies[a] - frequencies[b],
  );
  const sorted = order.map((i) => frequencies[i]);
  const distance = (k, omega) => Math.abs(Math.log(sorted[k] / omega));
  return (omega) => {
    let low = 0;
    let high = sorted.length - 1;
    while (high - low > 1) {
      const mid = (low + high) >> 1;
      if (sorted[mid] < omega) low = mid;
      else high = mid;
    }
    return order[distance(low, omega) <= distance(high, omega) ? low : high];
  };
}

/** The layout's name (LAYOUTS) that a column map follows. */
export function layoutName(map) {
  const [first, second] = map.kinds;
  const cosFirst = first === "cos";
  const interleaved = second !== undefined && second !== first;
  return `${interleaved ? "interleaved" : "halves"}${cosFirst ? "-cos-first" : ""}`;
}
