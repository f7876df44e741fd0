// A fault inside the module (a trap) must never leave the instance in use:
// the call reports an internal fault with the public function's name, views
// from before it detach, and the next call runs on a fresh instance with
// right values. No public input can reach a trap, so the kernels are called
// here directly with a pointer past the end of memory.
import { test } from "node:test";
import assert from "node:assert/strict";
import { api, init, kernels, wasm } from "../../build/internals.js";
import { tableStillRight } from "./reference.js";

await init();

const PAST_THE_END = 2 ** 32 - 2 ** 16;

function trap() {
  return () =>
    kernels.tableF64({
      api: "table",
      out: PAST_THE_END,
      count: 4,
      dim: 4,
      layout: 0,
      oddDim: 0,
      omega: PAST_THE_END,
      pairs: 2,
      scale: 1,
      amplitude: 1,
    });
}

const FAULT = { code: "ERR_FAULT" };

test("a trap is reported as an internal fault naming the function, code ERR_FAULT", () => {
  assert.throws(trap(), (error) => {
    assert.ok(!(error instanceof TypeError || error instanceof RangeError));
    assert.equal(error.code, "ERR_FAULT");
    assert.equal(api.errorCodes[error.code].error, "Error");
    assert.match(error.message, /^sinusoidal-pe: table: internal fault/);
    assert.ok(error.cause instanceof WebAssembly.RuntimeError);
    return true;
  });
  assert.ok(tableStillRight(api));
});

test("after a fault the instance is replaced and earlier views detach", () => {
  const before = wasm();
  const view = api.table({ positions: 64, dim: 8, view: true });
  assert.equal(view.length, 512);
  assert.throws(trap(), FAULT);
  assert.equal(view.length, 0, "a view from before the fault is detached");
  assert.ok(tableStillRight(api));
  assert.notEqual(wasm(), before, "a fresh instance");
  const fresh = api.table({ positions: 64, dim: 8, view: true });
  assert.equal(fresh.length, 512);
});

test("many faults in a row leave the module working", () => {
  for (let i = 0; i < 50; i++) {
    assert.throws(trap(), FAULT);
    api.rope(new Float32Array(8).fill(1), 3, { dim: 8 });
  }
  assert.ok(tableStillRight(api));
});

test("init after a fault resolves with a fresh instance", async () => {
  assert.throws(trap(), FAULT);
  await init();
  assert.ok(tableStillRight(api));
});

test("where a fresh instance cannot be made synchronously, the call says to await init(), which makes one", async () => {
  assert.throws(trap(), FAULT);
  const { Instance } = WebAssembly;
  const refusal = new RangeError("no synchronous instantiation here");
  WebAssembly.Instance = function () {
    throw refusal;
  };
  try {
    assert.throws(
      () => api.table({ positions: 2, dim: 4 }),
      (error) => {
        assert.ok(!(error instanceof TypeError || error instanceof RangeError));
        assert.deepEqual(
          [error.code, error.function],
          ["ERR_NOT_INITIALIZED", "table"],
        );
        assert.equal(error.cause, refusal);
        return true;
      },
    );
    await init();
    assert.ok(tableStillRight(api));
  } finally {
    WebAssembly.Instance = Instance;
  }
  assert.ok(tableStillRight(api));
});
