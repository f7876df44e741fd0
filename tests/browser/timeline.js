// The page's marks and measures as an observer sees them: the page keeps
// only a bounded number on its timeline, so a test that counts them counts
// what it is told as they are made, not what is left.

/**
 * Run before the page's scripts (launch's init): the names of every mark and
 * measure the page makes, in order. window.timelineSeen() returns the list,
 * up to the latest entry.
 */
export function recordTimeline() {
  const seen = [];
  const names = (entries) => entries.map((entry) => entry.name);
  const observer = new PerformanceObserver((list) =>
    seen.push(...names(list.getEntries())),
  );
  observer.observe({ entryTypes: ["mark", "measure"] });
  window.timelineSeen = () => {
    seen.push(...names(observer.takeRecords()));
    return seen;
  };
}

/** The names recorded so far. */
export const timelineSeen = (page) =>
  page.evaluate(() => window.timelineSeen());

/** Counts the entries of one kind among `names`, by name: { name: count }. */
export function count(names, kind) {
  const counts = {};
  for (const entry of names)
    if (entry.startsWith(kind)) {
      const name = entry.slice(kind.length);
      counts[name] = (counts[name] ?? 0) + 1;
    }
  return counts;
}
