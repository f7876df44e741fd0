import assert from "node:assert/strict";
import { copyFileSync, mkdtempSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { pathToFileURL } from "node:url";
import { inflateSync } from "node:zlib";

const dist = new URL("../../dist/", import.meta.url);
const ENTRY_FILES = ["index.js", "slim.js", "slim-node.js", "library.js"];

// A fresh copy of the package per test, with its own, uninitialised
// instance: the entries share dist/library.js, so each copy is a directory
// of its own. `wasm` puts the shipped file beside them.
function freshDirectory({ wasm = false } = {}) {
  const dir = mkdtempSync(join(tmpdir(), "pe-entries-"));
  const files = wasm ? [...ENTRY_FILES, "sinusoidal-pe.wasm"] : ENTRY_FILES;
  for (const file of files) copyFileSync(new URL(file, dist), join(dir, file));
  return dir;
}
const entry = (dir, file) => import(pathToFileURL(join(dir, file)).href);
const fresh = () => entry(freshDirectory(), "index.js");
// The bytes that dist/index.js inlines (deflated, then base64).
const wasmBytes = async () =>
  inflateSync(
    Buffer.from((await import("../../build/wasm-base64.js")).default, "base64"),
  );

test("every call before init throws ERR_NOT_INITIALIZED naming the function, and init then works", async () => {
  const pe = await fresh();
  const calls = {
    table: () => pe.table({ positions: 2, dim: 4 }),
    frequencies: () => pe.frequencies({ dim: 4 }),
    createRope: () => pe.createRope({ dim: 4 }),
    ropeCache: () => pe.ropeCache({ positions: 2, dim: 4 }),
  };
  for (const [name, call] of Object.entries(calls))
    assert.throws(call, (error) => {
      assert.ok(!(error instanceof TypeError || error instanceof RangeError));
      assert.deepEqual(
        [error.code, error.function, error.option],
        ["ERR_NOT_INITIALIZED", name, undefined],
      );
      assert.equal(pe.errorCodes[error.code].error, "Error");
      return true;
    });
  // The message says what to do.
  assert.throws(
    calls.table,
    /^Error: sinusoidal-pe: table: .*call `await init\(\)` first/,
  );
  await pe.init();
  assert.equal(pe.table({ positions: 1, dim: 2 })[1], 1);
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

// A fresh copy of the library inits from its inline module and computes
// sin(1) right.
async function initAndCompute() {
  const pe = await fresh();
  await pe.init();
  assert.equal(
    pe.table({ positions: 2, dim: 2, dtype: "float64" })[2],
    Math.sin(1),
  );
}

test("in Node the inline module is inflated without Response or DecompressionStream", async () => {
  const saved = [globalThis.Response, globalThis.DecompressionStream];
  globalThis.Response = undefined;
  globalThis.DecompressionStream = undefined;
  try {
    await initAndCompute();
  } finally {
    [globalThis.Response, globalThis.DecompressionStream] = saved;
  }
});

test("without Node's builtins the inline module is inflated by a DecompressionStream", async () => {
  const saved = process.getBuiltinModule;
  process.getBuiltinModule = undefined;
  try {
    await initAndCompute();
  } finally {
    process.getBuiltinModule = saved;
  }
});

test("the slim entry carries no module: init() names what to pass, then takes the file", async () => {
  for (const file of ["slim.js", "library.js"]) {
    const text = await readFile(new URL(file, dist), "utf8");
    assert.ok(!/[A-Za-z0-9+/]{1000}/.test(text), `no base64 module in ${file}`);
  }
  const dir = freshDirectory();
  const slim = await entry(dir, "slim.js");
  await assert.rejects(slim.init(), (error) => {
    assert.ok(error instanceof TypeError);
    assert.match(error.message, /sinusoidal-pe\.wasm/);
    assert.match(error.message, /URL, a Response or the bytes/);
    return true;
  });
  // After the error the instance still loads from a source.
  await slim.init(await wasmBytes());
  assert.equal(
    slim.table({ positions: 2, dim: 2, dtype: "float64" })[3],
    Math.cos(1),
  );
});

test("the slim entry under Node reads the file beside it", async () => {
  const dir = freshDirectory({ wasm: true });
  const slim = await entry(dir, "slim-node.js");
  await slim.init();
  assert.equal(
    slim.table({ positions: 2, dim: 2, dtype: "float64" })[2],
    Math.sin(1),
  );
  // The default entry beside it shares that one instance.
  const whole = await entry(dir, "index.js");
  assert.equal(whole.table, slim.table);
});

test("the slim entry under Node says where it looked when the file is missing", async () => {
  const slim = await entry(freshDirectory(), "slim-node.js");
  await assert.rejects(slim.init(), /sinusoidal-pe\.wasm/);
  await slim.init(await wasmBytes());
  assert.equal(slim.table({ positions: 1, dim: 2 })[1], 1);
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

test("init of a source that cannot be fetched names it and the reason", async () => {
  const pe = await fresh();
  const missing = pathToFileURL(join(tmpdir(), "no-such-dir", "x.wasm"));
  await assert.rejects(pe.init(missing), (error) => {
    assert.equal(error.code, "ERR_FETCH");
    assert.ok(error.message.includes(missing.href), error.message);
    assert.match(error.message, /file: URLs/);
    return true;
  });
  // A loopback port that was just closed: nothing listens there.
  const server = createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  const closed = `http://127.0.0.1:${port}/sinusoidal-pe.wasm`;
  await assert.rejects(pe.init(closed), (error) => {
    assert.equal(error.code, "ERR_FETCH");
    assert.ok(error.message.includes(closed), error.message);
    assert.match(error.message, /ECONNREFUSED/);
    return true;
  });
  // A server that answers, but not with the file.
  const notFound = createServer((_, response) => {
    response.writeHead(404);
    response.end();
  });
  await new Promise((resolve) => notFound.listen(0, "127.0.0.1", resolve));
  const absent = `http://127.0.0.1:${notFound.address().port}/x.wasm`;
  try {
    await assert.rejects(pe.init(absent), (error) => {
      assert.equal(error.code, "ERR_FETCH");
      assert.equal(error.option, "source");
      assert.ok(error.message.includes(absent), error.message);
      assert.match(error.message, /status 404/);
      return true;
    });
  } finally {
    notFound.close();
  }
  await pe.init();
  assert.equal(pe.table({ positions: 1, dim: 2 })[1], 1);
});
