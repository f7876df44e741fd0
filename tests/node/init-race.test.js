// Each caller of init gets its own source's outcome: a valid init made while
// a failing one is in flight succeeds, and the failing one still fails.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as pe from "../../dist/index.js";

test("a valid init beside a failing one in flight: each gets its own outcome", async () => {
  const bad = pe.init(new Uint8Array([0, 97, 115, 109, 9, 9, 9, 9]));
  const good = pe.init();
  const [badOutcome, goodOutcome] = await Promise.allSettled([bad, good]);
  assert.equal(badOutcome.status, "rejected");
  assert.ok(badOutcome.reason instanceof WebAssembly.CompileError);
  assert.equal(goodOutcome.status, "fulfilled");
  assert.equal(pe.table({ positions: [0], dim: 2, dtype: "float64" })[1], 1);
});
