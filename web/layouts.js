// Where the sin and cos of each pair sit in a row: the library's own column
// rule (tableColumns, the C core's), for a preset's layout as for a chosen
// one; nothing here re-derives it. The output scale is read from the table
// at position 0, where every cos column holds it.
import { lib } from "./library.js";

const { table, tableColumns } = lib;

/**
 * The columns of a table under `schedule` (table options without
 * positions): { layout, kinds: ("sin" | "cos" | "zero")[], pairs: pair
 * index per column (-1 for padding), amplitude, columnsOf(i): { sin, cos }
 * (-1 where absent), complete(i) }.
 */
export function columnMap(schedule) {
  const { layout, kinds, pairs } = tableColumns(schedule);
  const sin = new Map();
  const cos = new Map();
  kinds.forEach((kind, j) => {
    if (kind === "sin") sin.set(pairs[j], j);
    if (kind === "cos") cos.set(pairs[j], j);
  });
  const firstCos = kinds.indexOf("cos");
  const amplitude =
    firstCos < 0
      ? 1
      : Math.abs(
          table({ ...schedule, positions: 1, dtype: "float64" })[firstCos],
        );
  return {
    layout,
    kinds,
    pairs,
    /** The output scale: the value of every cos column at position 0. */
    amplitude,
    columnsOf: (i) => ({ sin: sin.get(i) ?? -1, cos: cos.get(i) ?? -1 }),
    /** Whether pair i has both its columns. */
    complete: (i) => sin.has(i) && cos.has(i),
  };
}
