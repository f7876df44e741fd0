// A request the module cannot place says what limits it: the largest block
// it can still allocate, not the 4 GiB address space it is within.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as pe from "../../dist/index.js";
import { tableStillRight } from "./reference.js";

await pe.init();

test("a 2.08 GiB view is refused naming the largest block the module can allocate", () => {
  const positions = (520 * 2 ** 20) / 8;
  assert.throws(
    () => pe.table({ positions, dim: 8, view: true }),
    (error) => {
      assert.ok(error instanceof RangeError);
      const match =
        /needs 2181038080 bytes, but the largest block the module can allocate now is (\d+) bytes/.exec(
          error.message,
        );
      assert.ok(match, error.message);
      assert.ok(Number(match[1]) < 2181038080);
      return true;
    },
  );
  assert.ok(tableStillRight(pe));
});
