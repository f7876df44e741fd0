// Where the sin and cos of each pair sit in a row, for every layout.
import { presets } from "sinusoidal-pe";

/** The layout a table has: the control's for custom, the preset's own otherwise. */
export function layoutOf(preset, layout) {
  if (preset === "custom") return layout;
  const text = presets[preset].layout;
  if (text.startsWith("interleaved")) return "interleaved";
  return /^halves: \[cos/.test(text) ? "halves-cos-first" : "halves";
}

/** Pair index of column j and whether it holds the sin or the cos. */
export function columnPair(j, dim, layout) {
  const h = Math.floor(dim / 2);
  let i, second;
  if (layout.startsWith("interleaved")) {
    i = Math.floor(j / 2);
    second = j % 2 === 1;
  } else {
    i = j < h ? j : j - h;
    second = j >= h;
  }
  if (i >= h) return { i: h, kind: "sin" };
  const cosFirst = layout.endsWith("cos-first");
  return { i, kind: second !== cosFirst ? "cos" : "sin" };
}

/** Columns { sin, cos } of pair i. */
export function pairColumns(i, dim, layout) {
  const h = Math.floor(dim / 2);
  const [first, second] = layout.startsWith("interleaved")
    ? [2 * i, 2 * i + 1]
    : [i, h + i];
  return layout.endsWith("cos-first")
    ? { sin: second, cos: first }
    : { sin: first, cos: second };
}
