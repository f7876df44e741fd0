// The decay section's families, grids and work cap. Every value drawn comes
// from the library's decayComparison: the exact finite-d sum beside (d/2)·f.

/** θ families of the comparison; `alpha` of "power" comes from its input. */
export const FAMILIES = [
  { key: "exp10000", theta: "exp", base: 10000 },
  { key: "exp1000", theta: "exp", base: 1000 },
  { key: "exp100", theta: "exp", base: 100 },
  { key: "power", theta: "power" },
  { key: "linear", theta: "linear" },
];
export const DEFAULT_FAMILIES = ["exp10000", "exp100"];
export const ALPHA = { min: 0.25, max: 4, fallback: 2 };
export const RANGES = [1e4, 1e5, 1e6];
export const SHORT_RANGE = 128;

/** "exp10000,power" → the known keys in it, or undefined if any is unknown. */
export function parseFamilies(text) {
  const keys = text === "" ? [] : text.split(",");
  return keys.every((key) => FAMILIES.some((f) => f.key === key))
    ? FAMILIES.filter((f) => keys.includes(f.key)).map((f) => f.key)
    : undefined;
}

export function parseAlpha(text) {
  const alpha = Number(text);
  return text !== "" && alpha >= ALPHA.min && alpha <= ALPHA.max
    ? alpha
    : undefined;
}

/** The options of decayComparison for one family at this dim. */
export function familyOptions(key, alpha) {
  const { theta, base } = FAMILIES.find((f) => f.key === key);
  if (theta === "exp") return { theta, base };
  if (theta === "power") return { theta, alpha };
  return { theta };
}

// Points × pairs × families per redraw: the exact sums cost one cos each,
// a few milliseconds for 2^19 of them.
const DECAY_WORK = 2 ** 19;
export const POINTS = { min: 128, max: 600 };

export function pointCount(dim, families) {
  const work = Math.max(1, Math.floor(dim / 2)) * Math.max(1, families);
  return Math.max(
    POINTS.min,
    Math.min(POINTS.max, Math.floor(DECAY_WORK / work)),
  );
}

/**
 * The x grid of a view: 0 … 128 or 0 … range, evenly spaced, or from 1 on a
 * logarithmic axis (an array then, since decayComparison grids are linear).
 */
export function xGrid(reach, count, logX) {
  if (!logX) return { from: 0, to: reach, count };
  const top = Math.log10(reach);
  return Float64Array.from(
    { length: count },
    (_, j) => 10 ** ((top * j) / (count - 1)),
  );
}
