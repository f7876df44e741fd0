// The page's marks and measures on the performance timeline. A browser keeps
// every entry until it is cleared, so a page open for an hour of drags would
// keep an hour of them. Observers (a PerformanceObserver, the browser's
// performance recording) see each entry as it is made; what is kept for
// later reading is bounded.

// Entries of each kind kept at most.
const KEPT = 1000;

/**
 * make(name, ...) through a bound: once KEPT entries are made, the ones made
 * through it are cleared (clear(name) for each name it made).
 */
function bounded(make, clear) {
  const names = new Set();
  let made = 0;
  return (name, ...rest) => {
    if (made === KEPT) {
      for (const used of names) clear(used);
      names.clear();
      made = 0;
    }
    names.add(name);
    made++;
    return make(name, ...rest);
  };
}

export const mark = bounded(
  (name) => performance.mark(name),
  (name) => performance.clearMarks(name),
);

export const measure = bounded(
  (name, options) => performance.measure(name, options),
  (name) => performance.clearMeasures(name),
);
