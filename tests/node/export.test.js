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
  const refusal = (name, code, option) => ({ name, code, option });
  assert.throws(
    () => toNpy(new Float32Array(6), [4, 2]),
    refusal("RangeError", "ERR_LENGTH", "shape"),
  );
  assert.throws(
    () => toNpy(new Int32Array(4), [4]),
    refusal("TypeError", "ERR_TYPE", "values"),
  );
  assert.throws(
    () => toNpy(new Float32Array(4), [4.5]),
    refusal("RangeError", "ERR_NOT_INTEGER", "shape[0]"),
  );
  assert.throws(
    () => toNpy(new Float32Array(4), "4"),
    refusal("TypeError", "ERR_NOT_ARRAY", "shape"),
  );
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
  assert.throws(() => toCsv(values, 2), {
    name: "RangeError",
    code: "ERR_LENGTH",
    option: "values",
  });
  assert.throws(() => toCsv(new Int8Array(2), 1), {
    name: "TypeError",
    code: "ERR_TYPE",
    option: "values",
  });
});

test("npyHeader refuses a descriptor other than <f4, <f8, <f2", () => {
  const injected = "<f4', 'fortran_order': True, 'shape': (9,), 'x': '";
  const descriptor = (name, code) => ({ name, code, option: "descriptor" });
  assert.throws(() => npyHeader(injected, [1]), {
    ...descriptor("RangeError", "ERR_NOT_ONE_OF"),
    message: /descriptor must be one of "<f4", "<f8", "<f2", got "<f4', /,
  });
  assert.throws(
    () => npyHeader(">f4", [1]),
    descriptor("RangeError", "ERR_NOT_ONE_OF"),
  );
  assert.throws(
    () => npyHeader(undefined, [1]),
    descriptor("TypeError", "ERR_NOT_STRING"),
  );
  // A shape that holds more values than a safe integer counts.
  assert.throws(() => npyHeader("<f4", [2 ** 30, 2 ** 30]), {
    name: "RangeError",
    code: "ERR_OUT_OF_RANGE",
    option: "shape",
  });
  assert.throws(() => npyHeader("<f4", [2, -1]), {
    name: "RangeError",
    code: "ERR_OUT_OF_RANGE",
    option: "shape[1]",
  });
});

// NumPy's own header reader (format 2.0), without building the array:
// a shape of 30000 dimensions is beyond what an ndarray may have.
function numpyHeader(bytes) {
  const path = join(mkdtempSync(join(tmpdir(), "pe-npy-")), "h.npy");
  writeFileSync(path, bytes);
  const script =
    "import sys, json, numpy as np\n" +
    "f = open(sys.argv[1], 'rb')\n" +
    "version = np.lib.format.read_magic(f)\n" +
    "read = np.lib.format.read_array_header_2_0 if version == (2, 0) else np.lib.format.read_array_header_1_0\n" +
    "try:\n" +
    "    shape, fortran, dtype = read(f, max_header_size=10**7)\n" +
    "except TypeError:\n" +
    "    shape, fortran, dtype = read(f)\n" +
    "print(json.dumps({'version': list(version), 'shape': list(shape), 'fortran': fortran, 'dtype': str(dtype), 'offset': f.tell()}))";
  return JSON.parse(execFileSync(PYTHON, ["-c", script, path]).toString());
}

test("a header past 65535 bytes is format 2.0 (uint32 length), as NumPy reads it", () => {
  const shape = new Array(30000).fill(1);
  const header = npyHeader("<f8", shape);
  assert.deepEqual(
    [...header.subarray(0, 8)],
    [0x93, 78, 85, 77, 80, 89, 2, 0],
  );
  const length = new DataView(header.buffer).getUint32(8, true);
  assert.equal(12 + length, header.length);
  assert.equal(header.length % 64, 0);
  assert.ok(header.length > 65535);
  const read = numpyHeader(toNpy(new Float64Array([0.25]), shape));
  assert.deepEqual(read.version, [2, 0]);
  assert.equal(read.shape.length, 30000);
  assert.ok(read.shape.every((n) => n === 1));
  assert.equal(read.fortran, false);
  assert.equal(read.dtype, "float64");
  assert.equal(read.offset, header.length);
  // Up to 65535 bytes the header stays format 1.0.
  const small = numpyHeader(npyHeader("<f4", [3, 4]));
  assert.deepEqual(small.version, [1, 0]);
  assert.deepEqual(small.shape, [3, 4]);
});

// A Float32Array whose own properties lie about it.
function disguised(values) {
  const array = Float32Array.from(values);
  for (const key of ["constructor", "buffer", "byteOffset", "length"])
    Object.defineProperty(array, key, {
      get() {
        throw new Error(`${key} was read`);
      },
    });
  return array;
}

test("toNpy and toCsv read typed arrays through the intrinsics only", () => {
  const values = [0.5, -1.25, 3, 1 / 3];
  const loaded = loadWithNumpy(toNpy(disguised(values), [2, 2]));
  assert.equal(loaded.dtype, "float32");
  assert.equal(loaded.values, hex(Float32Array.from(values)));
  assert.equal(toCsv(disguised(values), 2), "0.5,-1.25\n3,0.33333334\n");
  // An object that only claims to be a Float32Array is refused.
  const impostor = Object.create(Float32Array.prototype);
  assert.throws(() => toCsv(impostor, 1), TypeError);
  assert.throws(() => toNpy(impostor, [0]), TypeError);
});

// The shortest decimal that rounds back to v as a float32, found by trying
// every precision: the definition, written independently of the library.
function shortestFloat32(v) {
  if (Object.is(v, -0)) return "-0";
  for (let precision = 1; precision <= 9; precision++) {
    const text = String(Number(v.toPrecision(precision)));
    if (Math.fround(Number(text)) === v) return text;
  }
  throw new Error(`no round trip for ${v}`);
}

test("toCsv: float32 edge values round-trip with their shortest digits", () => {
  const edges = [
    0,
    -0,
    2 ** -149, // smallest subnormal
    -(2 ** -149),
    2 ** -126 - 2 ** -149, // largest subnormal
    2 ** -126, // smallest normal
    3.4028234663852886e38, // largest float32
    -3.4028234663852886e38,
    16777216,
    16777217 - 1,
    0.1,
    1 / 3,
    Math.fround(0.30000001192092896),
    Math.fround(1.0000001), // next after 1: 9 digits
    Math.fround(9.999999e-7),
    Math.fround(1e-7),
    Math.fround(123456789),
    Math.fround(1e21),
    Math.fround(1e-6),
  ].map(Math.fround);
  // Random bit patterns, finite ones only.
  const bits = new Uint32Array(20000);
  let seed = 12345;
  for (let i = 0; i < bits.length; i++) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    bits[i] = seed ^ (Math.imul(seed, 2654435761) >>> 7);
  }
  const random = [...new Float32Array(bits.buffer)].filter(Number.isFinite);
  const values = Float32Array.from([...edges, ...random]);
  const fields = toCsv(values, values.length).trim().split(",");
  assert.equal(fields.length, values.length);
  fields.forEach((text, i) => {
    assert.ok(
      Object.is(Math.fround(Number(text)), values[i]),
      `${text} vs ${values[i]}`,
    );
    assert.equal(text, shortestFloat32(values[i]), `digits of ${values[i]}`);
  });
});

test("toCsv: float64 values keep JavaScript's shortest digits, and -0 its sign", () => {
  const values = new Float64Array([
    -0,
    0,
    5e-324,
    Number.MAX_VALUE,
    0.1 + 0.2,
    -1e21,
    1e-7,
  ]);
  const fields = toCsv(values, values.length).trim().split(",");
  assert.deepEqual(fields, [
    "-0",
    "0",
    "5e-324",
    "1.7976931348623157e+308",
    "0.30000000000000004",
    "-1e+21",
    "1e-7",
  ]);
});
