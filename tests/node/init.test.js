import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import { test } from "node:test";
import { inflateSync } from "node:zlib";

// A fresh copy of the module per test: each import with a new query string
// has its own, uninitialised instance.
let copies = 0;
const fresh = () => import(`../../dist/index.js?copy=${copies++}`);
// The bytes that dist/index.js inlines (deflated, then base64).
const wasmBytes = async () =>
  inflateSync(
    Buffer.from((await import("../../build/wasm-base64.js")).default, "base64"),
  );

test("every call before init throws a clear error", async () => {
  const pe = await fresh();
  assert.throws(
    () => pe.table({ positions: 2, dim: 4 }),
    /call `await init\(\)` first/,
  );
  assert.throws(
    () => pe.frequencies({ dim: 4 }),
    /call `await init\(\)` first/,
  );
});

test("init is idempotent and concurrent calls share one instance", async () => {
  const pe = await fresh();
  await Promise.all([pe.init(), pe.init(), pe.init()]);
  const first = pe.table({ positions: 3, dim: 4 });
  await pe.init();
  assert.deepEqual(pe.table({ positions: 3, dim: 4 }), first);
});

test("the inlined module needs no fetch", async () => {
  const saved = globalThis.fetch;
  globalThis.fetch = () => {
    throw new Error("fetch called");
  };
  try {
    const pe = await fresh();
    await pe.init();
    assert.equal(
      pe.table({ positions: 2, dim: 2 })[3],
      Math.fround(Math.cos(1)),
    );
  } finally {
    globalThis.fetch = saved;
  }
});

test("init accepts a WebAssembly.Module, bytes, a Response and a URL", async () => {
  const bytes = await wasmBytes();
  const server = createServer((_, response) => {
    response.writeHead(200, { "content-type": "application/wasm" });
    response.end(bytes);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${server.address().port}/sinusoidal-pe.wasm`;
  try {
    const sources = [
      await WebAssembly.compile(bytes),
      bytes,
      new Uint8Array(bytes).buffer,
      new Response(bytes),
      url,
      new URL(url),
    ];
    for (const source of sources) {
      const pe = await fresh();
      await pe.init(source);
      assert.equal(
        pe.table({ positions: 2, dim: 2, dtype: "float64" })[2],
        Math.sin(1),
      );
    }
  } finally {
    server.close();
  }
});

test("a failed init can be retried", async () => {
  const pe = await fresh();
  await assert.rejects(pe.init(new Uint8Array([0, 1, 2, 3])));
  await assert.rejects(pe.init(42), TypeError);
  await pe.init();
  assert.equal(pe.table({ positions: 1, dim: 2 })[1], 1);
});

test("the built module really uses SIMD128 in its table kernels", async () => {
  const { execFileSync } = await import("node:child_process");
  const { mkdtempSync, writeFileSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const { join } = await import("node:path");
  // Disassemble exactly the bytes that dist/index.js inlines.
  const file = join(mkdtempSync(join(tmpdir(), "pe-")), "inlined.wasm");
  writeFileSync(file, await wasmBytes());
  const listing = execFileSync("wasm-objdump", ["-d", file], {
    maxBuffer: 1 << 26,
  }).toString();
  const body = (name) => {
    const start = listing.indexOf(`<${name}>:`);
    assert.ok(start >= 0, `${name} is in the module`);
    const end = listing.indexOf(">:\n", start + name.length + 4);
    return listing.slice(start, end < 0 ? undefined : end);
  };
  // float32 tables compute in their own body; float64 tables write vector
  // rows from the block state, seeded by the sin/cos shared out of line.
  const f32 = body("pe_table_f32");
  for (const op of ["f64x2.mul", "f64x2.add", "v128.store"])
    assert.ok(f32.includes(op), `pe_table_f32 uses ${op}`);
  assert.ok(f32.includes("f32x4.demote_f64x2_zero"));
  const f64 = body("pe_table_f64");
  for (const op of ["v128.load", "v128.store"])
    assert.ok(f64.includes(op), `pe_table_f64 uses ${op}`);
  // And the shipped entry point carries those same bytes.
  const entry = await readFile(
    new URL("../../dist/index.js", import.meta.url),
    "utf8",
  );
  const inline = (await import("../../build/wasm-base64.js")).default;
  assert.ok(entry.includes(inline));
});
