// .npy and CSV encodings, read back by NumPy (Debian's python3-numpy) and by
// a parser written here from the format's specification.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { init, npyHeader, table, toCsv, toNpy } from "../../dist/index.js";

await init();

const PYTHON = "/usr/bin/python3";

// NumPy loads the file; it prints dtype, shape and the values as float64 bytes.
function loadWithNumpy(bytes) {
  const path = join(mkdtempSync(join(tmpdir(), "pe-npy-")), "t.npy");
  writeFileSync(path, bytes);
  const script =
    "import sys, json, numpy as np\n" +
    "a = np.load(sys.argv[1])\n" +
    "print(json.dumps({'dtype': str(a.dtype), 'shape': list(a.shape), 'c': bool(a.flags.c_contiguous), 'values': a.astype('<f8').ravel().tobytes().hex()}))";
  return JSON.parse(execFileSync(PYTHON, ["-c", script, path]).toString());
}

// Values as the hex of their float64 bytes, little-endian, as NumPy prints them.
const hex = (values) =>
  Buffer.from(Float64Array.from(values).buffer).toString("hex");

for (const dtype of ["float32", "float64"]) {
  test(`toNpy: a ${dtype} table loads in NumPy with its dtype, shape and values`, () => {
    const values = table({ positions: 37, dim: 10, dtype });
    const loaded = loadWithNumpy(toNpy(values, [37, 10]));
    assert.equal(loaded.dtype, dtype);
    assert.deepEqual(loaded.shape, [37, 10]);
    assert.equal(loaded.c, true);
    assert.equal(loaded.values, hex(values));
  });
}

test("toNpy: float16 bits load as float16", () => {
  // 0x3c00 = 1, 0xc000 = -2, 0x7bff = 65504, 0x0001 = 2^-24
  const bits = new Uint16Array([0x3c00, 0xc000, 0x7bff, 0x0001]);
  const loaded = loadWithNumpy(toNpy(bits, [4]));
  assert.equal(loaded.dtype, "float16");
  assert.deepEqual(loaded.shape, [4]);
  assert.equal(loaded.values, hex([1, -2, 65504, 2 ** -24]));
});

test("npyHeader: magic, version, a 64-byte aligned length, a newline", () => {
  for (const shape of [[0], [1], [3, 4], [131072, 512], [2, 3, 4]]) {
    const header = npyHeader("<f4", shape);
    assert.deepEqual(
      [...header.subarray(0, 8)],
      [0x93, 78, 85, 77, 80, 89, 1, 0],
    );
    assert.equal(header.length % 64, 0);
    const length = header[8] | (header[9] << 8);
    assert.equal(10 + length, header.length);
    const text = String.fromCharCode(...header.subarray(10));
    assert.ok(text.endsWith("\n"));
    const tuple =
      shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(", ")})`;
    assert.ok(text.includes(`'shape': ${tuple}`), text);
  }
});

test("toNpy refuses a shape that does not match, and other array types", () => {
  assert.throws(() => toNpy(new Float32Array(6), [4, 2]), RangeError);
  assert.throws(() => toNpy(new Int32Array(4), [4]), TypeError);
  assert.throws(() => toNpy(new Float32Array(4), [4.5]), RangeError);
  assert.throws(() => toNpy(new Float32Array(4), "4"), TypeError);
});

test("toCsv: every value parses back to the same number", () => {
  for (const dtype of ["float32", "float64"]) {
    const values = table({ positions: [0, 1.5, 1e5, -7], dim: 9, dtype });
    const text = toCsv(values, 9, [
      "a",
      "b",
      "c",
      "d",
      "e",
      "f",
      "g",
      "h",
      "i",
    ]);
    const lines = text.trimEnd().split("\n");
    assert.equal(lines.length, 5);
    const parsed = lines
      .slice(1)
      .flatMap((line) => line.split(",").map(Number));
    const round = dtype === "float32" ? Math.fround : (v) => v;
    assert.deepEqual(parsed.map(round), Array.from(values));
  }
});

test("toCsv: float32 values take at most 9 significant digits", () => {
  const values = new Float32Array([0.1, 1 / 3, 1e-30, -2.5, 0]);
  const fields = toCsv(values, 5).trim().split(",");
  assert.deepEqual(fields.slice(0, 1), ["0.1"]);
  for (const f of fields)
    assert.ok(f.replace(/^-|e.*$|\./g, "").replace(/^0+/, "").length <= 9, f);
  assert.throws(() => toCsv(values, 2), RangeError);
  assert.throws(() => toCsv(new Int8Array(2), 1), TypeError);
});
