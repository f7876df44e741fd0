// The workspace a plan's calls share: what a plan's last call left at its
// start (the frequencies) is reused only where this call's memory begins
// there too. Run in a process of its own, so the workspace starts empty and
// grows only to these calls' needs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { api as pe, init } from "../../build/internals.js";

await init();

const wave = (n) => Float32Array.from({ length: n }, (_, i) => Math.sin(i));

test("a plan's call larger than the workspace its small calls left equals the one-shot call", () => {
  const options = { dim: 128, base: 10000 };
  const plan = pe.createRope(options);
  // Two small calls: the first sizes the workspace, the second leaves its
  // frequencies there under the plan's tag.
  plan.apply(wave(128), 3);
  plan.apply(wave(128), 4);
  // Rows that fit one chunk but not that workspace: a block of its own.
  const rows = wave(128 * 2000);
  assert.deepEqual(plan.apply(rows, 7), pe.rope(rows, 7, options));
  plan.dispose();
});

test("a table plan's call larger than the workspace its small calls left equals table", () => {
  const options = { dim: 256, base: 10000 };
  const plan = pe.createTable(options);
  plan.rows(1, { start: 3 });
  plan.rows(1, { start: 4 });
  assert.deepEqual(
    plan.rows(3000, { start: 5 }),
    pe.table({ ...options, positions: 3000, start: 5 }),
  );
  plan.dispose();
});
