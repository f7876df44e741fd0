// The library as the page calls it. Every call that reads a set of options
// (a one-shot function, or a plan's creation) is marked on the performance
// timeline as "pe-call:<name>", and every plan's end as "pe-dispose:<name>";
// a plan's run is not marked. The page's per-frame work is plan runs only:
// a reader of the timeline (or a test) sees what a change costs, as the draw
// queue's measures show its frames.
import * as library from "sinusoidal-pe";
// Bounded: observers see each mark as made; the timeline keeps at most 1000.
import { mark } from "./timeline.js";

// Functions whose calls read no options: the module's loading.
const UNMARKED = new Set(["init"]);

// A plan's methods, passed through; its dispose() marked.
function markedPlan(name, plan) {
  const marked = {};
  for (const method of ["apply", "rows"])
    if (typeof plan[method] === "function")
      marked[method] = plan[method].bind(plan);
  marked.dispose = () => {
    mark(`pe-dispose:${name}`);
    plan.dispose();
  };
  return Object.freeze(marked);
}

function marked(name, fn) {
  const isPlan = name.startsWith("create");
  return (...args) => {
    mark(`pe-call:${name}`);
    const result = fn(...args);
    return isPlan ? markedPlan(name, result) : result;
  };
}

export const lib = Object.freeze(
  Object.fromEntries(
    Object.entries(library).map(([name, value]) => [
      name,
      typeof value === "function" && !UNMARKED.has(name)
        ? marked(name, value)
        : value,
    ]),
  ),
);
