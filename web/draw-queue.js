// One queue of drawings for a page: its sections, or every panel embedded in
// it. Drawings run one frame at a time, those on screen first, within a
// script budget per frame; style, layout, paint and the canvases' commit
// come after it, in the same task. A drawing may come in steps (an iterator,
// each next() a step): its steps are spread over as many frames as the
// budget asks. Queuing a drawing again drops the steps left of the old one,
// so only the latest state is drawn, at most once per frame. Small tasks
// (a cursor's redraw, a frame of an animation) run once in the next frame,
// before the drawings and within the same budget: this queue is the page's
// one caller of requestAnimationFrame.

// Bounded: observers see each measure as made; the timeline keeps at most 1000.
import { measure } from "./timeline.js";

// Script time per frame.
const FRAME_BUDGET = 6;

function onScreen(item) {
  const box = item.root.getBoundingClientRect();
  return box.bottom > 0 && box.top < innerHeight;
}

/**
 * A queue for items { id, root, steps(), done(error) }: steps() starts a
 * drawing (an iterator of its steps, or undefined when drawn at once);
 * done(error) hears how it ended (error undefined when it was drawn).
 * onIdle() runs once the queue is empty.
 */
export function drawQueue({ onIdle = () => {} } = {}) {
  const dirty = new Set();
  const tasks = new Set();
  // The scope that queued a task or a drawing, if one did.
  const owners = new WeakMap();
  let frame = null;

  function request() {
    if (frame === null) frame = requestAnimationFrame(run);
  }

  // Each task queued runs once; a task that queues itself again (the next
  // frame of an animation) runs again in the next frame, not in this one.
  function runTasks(start) {
    const ran = new Set();
    for (const task of tasks) {
      if (ran.has(task)) continue;
      if (ran.size && performance.now() - start > FRAME_BUDGET) break;
      tasks.delete(task);
      ran.add(task);
      try {
        task();
      } catch (error) {
        reportError(error);
      }
    }
  }

  // Runs the item's steps, the first whatever more() says, the others
  // while it says yes; true once its drawing has ended.
  function advance(item, more) {
    if (!item.running) {
      item.began = performance.now();
      const result = item.steps();
      item.running = typeof result?.next === "function" ? result : null;
    }
    let finished = !item.running;
    let stepped = false;
    while (!finished && (!stepped || more())) {
      finished = item.running.next().done;
      stepped = true;
    }
    return finished;
  }

  function finish(item, failure) {
    item.running = null;
    dirty.delete(item);
    item.done(failure);
  }

  function run() {
    frame = null;
    const start = performance.now();
    const inBudget = () => performance.now() - start <= FRAME_BUDGET;
    runTasks(start);
    const visible = new Map([...dirty].map((item) => [item, onScreen(item)]));
    const order = [...dirty].sort((a, b) => visible.get(b) - visible.get(a));
    for (const item of order) {
      // The first step of a frame runs whatever the clock says: every frame
      // makes progress.
      if (item !== order[0] && !inBudget()) break;
      const begin = performance.now();
      let failure;
      try {
        const finished = advance(item, inBudget);
        // One measure per frame's share of a drawing, and one for the
        // drawing from its first step to its last.
        measure(`pe-step:${item.id}`, { start: begin });
        if (!finished) break;
        measure(`pe-update:${item.id}`, { start: item.began });
      } catch (error) {
        failure = error;
      }
      finish(item, failure);
    }
    measure("pe-update", { start });
    if (dirty.size || tasks.size) request();
    if (!dirty.size) onIdle();
  }

  const queue = {
    /** Queues the item's drawing with the state it will read then. */
    add(item) {
      item.running = null;
      dirty.add(item);
      request();
    },
    /** Runs task() once in the next frame (once however often queued). */
    later(task) {
      tasks.add(task);
      request();
    },
    /** Forgets a task queued and not yet run. */
    cancel(task) {
      tasks.delete(task);
    },
    /** Forgets an item (a panel taken out of the page). */
    remove(item) {
      item.running = null;
      dirty.delete(item);
    },
    get idle() {
      return dirty.size === 0;
    },
    /**
     * Draws everything queued to its end now, whatever the budget, with
     * what those drawings queue in turn (a large heatmap's binning): the
     * page before it is printed.
     */
    flush() {
      for (let item; (item = dirty.values().next().value);) {
        let failure;
        try {
          advance(item, () => true);
        } catch (error) {
          failure = error;
        }
        finish(item, failure);
      }
      onIdle();
    },
    /**
     * The queue as one owner uses it (a section in a page): end() forgets
     * what it queued and is still waiting, and it queues nothing after.
     */
    scope() {
      const owner = {};
      let ended = false;
      return {
        later(task) {
          if (ended) return;
          owners.set(task, owner);
          queue.later(task);
        },
        cancel: queue.cancel,
        add(item) {
          if (ended) return;
          owners.set(item, owner);
          queue.add(item);
        },
        remove: queue.remove,
        get idle() {
          return queue.idle;
        },
        end() {
          ended = true;
          for (const task of tasks)
            if (owners.get(task) === owner) queue.cancel(task);
          for (const item of dirty)
            if (owners.get(item) === owner) queue.remove(item);
        },
      };
    },
  };
  return queue;
}
