// The frequencies of a schedule are computed by the C core once and kept
// here, JS-owned, by the values that define them: every later call with
// the same schedule copies them into module memory instead of computing
// them again (a double-double schedule costs microseconds, a copy of a few
// hundred bytes nanoseconds). The values are those of the first
// computation, bit for bit.

// Schedules kept at once: a page or a model uses a handful.
const LIMIT = 64;
const cache = new Map();

// A number as a key: String gives each double its shortest exact form,
// except -0.
const keyOf = (x) => (Object.is(x, -0) ? "-0" : String(x));

/** A key for a list of numbers and arrays of numbers. */
export function scheduleKey(parts) {
  let key = "";
  for (const part of parts)
    if (typeof part === "number") key += keyOf(part) + ",";
    else {
      key += "[";
      for (let i = 0; i < part.length; i++) key += keyOf(part[i]) + ",";
      key += "]";
    }
  return key;
}

/**
 * The cached entry of `key`, or `compute()`'s, kept for later calls. An
 * entry is { omega: Float64Array, attention, warnings }; a refusal is not
 * kept, so it is raised again by the next call.
 */
export function cachedFrequencies(key, compute) {
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const entry = compute();
  if (cache.size >= LIMIT) cache.delete(cache.keys().next().value);
  cache.set(key, entry);
  return entry;
}
