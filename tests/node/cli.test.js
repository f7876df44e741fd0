// The command line: files it writes load in NumPy (Debian's python3-numpy)
// to the values table() returns, in every format, streamed in blocks.
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { decayIntegral, init, table } from "../../dist/index.js";

const cli = fileURLToPath(new URL("../../dist/cli.js", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "pe-cli-"));

before(() => init());

function sinusoidalPe(...args) {
  return spawnSync(process.execPath, [cli, ...args], {
    encoding: "utf8",
    maxBuffer: 1 << 28,
  });
}

function ok(...args) {
  const result = sinusoidalPe(...args);
  assert.equal(result.status, 0, result.stderr);
  return result.stdout;
}

// NumPy's view of a .npy file: dtype, shape and the values as float64 hex
// (exact), read by the system Python.
function numpyLoad(path) {
  const script = `
import json, sys, numpy as np
a = np.load(sys.argv[1])
print(json.dumps({"dtype": str(a.dtype), "shape": list(a.shape),
  "values": [float(v).hex() for v in a.ravel().astype(np.float64)]}))`;
  const out = execFileSync("/usr/bin/python3", ["-c", script, path]);
  const { dtype, shape, values } = JSON.parse(out);
  return { dtype, shape, values: values.map(fromHex) };
}

// Python's float.hex() back to a number, exactly.
function fromHex(text) {
  if (text === "0x0.0p+0") return 0;
  if (text === "-0x0.0p+0") return -0;
  const match = /^(-?)0x([01])\.([0-9a-f]+)p([+-]\d+)$/.exec(text);
  assert.ok(match, text);
  const [, sign, lead, fraction, exponent] = match;
  const mantissa =
    Number(lead) + parseInt(fraction, 16) / 16 ** fraction.length;
  return (sign ? -1 : 1) * mantissa * 2 ** Number(exponent);
}

for (const dtype of ["float32", "float64"]) {
  test(`table --format npy (${dtype}) loads in NumPy as table() returns it`, () => {
    const path = join(dir, `pe-${dtype}.npy`);
    ok(
      "table",
      "--positions",
      "300",
      "--dim",
      "10",
      "--dtype",
      dtype,
      "--base",
      "500",
      "-o",
      path,
    );
    const loaded = numpyLoad(path);
    assert.equal(loaded.dtype, dtype);
    assert.deepEqual(loaded.shape, [300, 10]);
    assert.deepEqual(
      loaded.values,
      Array.from(table({ positions: 300, dim: 10, dtype, base: 500 })),
    );
  });

  test(`a table written in several blocks (${dtype}) equals one call`, () => {
    const path = join(dir, `blocks-${dtype}.npy`);
    const options = {
      positions: 1000,
      start: 17,
      dim: 6,
      layout: "halves",
      dtype,
    };
    ok(
      "table",
      "--positions",
      "1000",
      "--start",
      "17",
      "--dim",
      "6",
      "--layout",
      "halves",
      "--dtype",
      dtype,
      "--block-rows",
      "128",
      "-o",
      path,
    );
    const loaded = numpyLoad(path);
    assert.deepEqual(loaded.shape, [1000, 6]);
    assert.deepEqual(loaded.values, Array.from(table(options)));
  });
}

test("a preset table in blocks loads in NumPy, within a float32 rounding of one call", () => {
  const path = join(dir, "whisper.npy");
  ok(
    "table",
    "--preset",
    "whisper",
    "--positions",
    "1500",
    "--dim",
    "8",
    "--block-rows",
    "256",
    "-o",
    path,
  );
  const loaded = numpyLoad(path);
  assert.equal(loaded.dtype, "float32");
  assert.deepEqual(loaded.shape, [1500, 8]);
  const want = table({ preset: "whisper", positions: 1500, dim: 8 });
  loaded.values.forEach((v, i) =>
    assert.ok(Math.abs(v - want[i]) <= 1.2e-7, `${i}: ${v} vs ${want[i]}`),
  );
});

test("f32, csv and json hold the same values", () => {
  const args = ["table", "--positions", "5", "--dim", "4", "--start", "3"];
  const want = Array.from(table({ positions: 5, dim: 4, start: 3 }));
  const raw = readFileSync(
    (ok(...args, "--format", "f32", "-o", join(dir, "pe.f32")),
    join(dir, "pe.f32")),
  );
  assert.deepEqual(
    Array.from(new Float32Array(raw.buffer, raw.byteOffset, raw.length / 4)),
    want,
  );
  const csv = ok(...args, "--format", "csv");
  const rows = csv
    .trim()
    .split("\n")
    .map((line) => line.split(",").map(Number));
  assert.equal(rows.length, 5);
  assert.deepEqual(rows.flat().map(Math.fround), want);
  const json = JSON.parse(ok(...args, "--format", "json", "--block-rows", "2"));
  assert.equal(json.length, 5);
  assert.deepEqual(json.flat().map(Math.fround), want);
});

test("csv from the command line loads in NumPy", () => {
  const path = join(dir, "pe.csv");
  ok(
    "table",
    "--positions",
    "64",
    "--dim",
    "8",
    "--dtype",
    "float64",
    "--format",
    "csv",
    "-o",
    path,
  );
  const out = execFileSync("/usr/bin/python3", [
    "-c",
    "import sys, numpy as np; a = np.loadtxt(sys.argv[1], delimiter=','); print(a.shape, a[5, 0].hex())",
    path,
  ]).toString();
  assert.match(out, /^\(64, 8\) /);
  const value = fromHex(out.trim().split(" ").pop());
  assert.equal(
    value,
    table({ positions: 64, dim: 8, dtype: "float64" })[5 * 8],
  );
});

test("decay writes x and f(x) over the grid, in blocks, to NumPy", () => {
  const path = join(dir, "decay.npy");
  ok(
    "decay",
    "--base",
    "100",
    "--from",
    "0",
    "--to",
    "50",
    "--count",
    "301",
    "--block-rows",
    "64",
    "-o",
    path,
  );
  const loaded = numpyLoad(path);
  assert.equal(loaded.dtype, "float64");
  assert.deepEqual(loaded.shape, [301, 2]);
  const x = Array.from({ length: 301 }, (_, j) => 0 + j * (50 / 300));
  const f = decayIntegral({ theta: "exp", base: 100, x });
  for (let j = 0; j < 301; j++) {
    assert.equal(loaded.values[2 * j], x[j]);
    assert.equal(loaded.values[2 * j + 1], f[j]);
  }
  // f(0) = 1 for every family: the integral of cos 0.
  assert.equal(loaded.values[1], 1);
  const json = JSON.parse(
    ok(
      "decay",
      "--theta",
      "linear",
      "--from",
      "1",
      "--to",
      "2",
      "--count",
      "2",
      "--format",
      "json",
    ),
  );
  assert.deepEqual(
    json.map(([x]) => x),
    [1, 2],
  );
  json.forEach(([x, f]) => assert.ok(Math.abs(f - Math.sin(x) / x) <= 1e-15));
});

test("check prints the linear-relation and Toeplitz errors", () => {
  const text = ok(
    "check",
    "--positions",
    "200",
    "--dim",
    "64",
    "--offsets",
    "1,-7.5,100",
  );
  assert.match(text, /linear relation: max .* = \d\.\d\de-\d+ at p = /);
  assert.match(text, /Toeplitz: max .* = \d\.\d\de-\d+ at m = /);
  const json = JSON.parse(
    ok(
      "check",
      "--positions",
      "200",
      "--dim",
      "64",
      "--dtype",
      "float64",
      "--format",
      "json",
    ),
  );
  assert.ok(json.linearRelation.maxAbsError < 1e-14, JSON.stringify(json));
  assert.ok(json.toeplitz.maxAbsError < 1e-12, JSON.stringify(json));
});

test("--scaling takes a config.json's rope_scaling: the table of that schedule", () => {
  const path = join(dir, "llama31.npy");
  ok(
    "table",
    "--positions",
    "5",
    "--start",
    "8190",
    "--dim",
    "16",
    "--base",
    "500000",
    "--layout",
    "halves",
    "--dtype",
    "float64",
    "--scaling",
    JSON.stringify({
      factor: 8.0,
      high_freq_factor: 4.0,
      low_freq_factor: 1.0,
      original_max_position_embeddings: 8192,
      rope_type: "llama3",
    }),
    "-o",
    path,
  );
  const scaling = {
    type: "llama3",
    factor: 8,
    lowFreqFactor: 1,
    highFreqFactor: 4,
    originalMaxPositionEmbeddings: 8192,
  };
  const expected = table({
    positions: 5,
    start: 8190,
    dim: 16,
    base: 500000,
    layout: "halves",
    dtype: "float64",
    scaling,
  });
  const loaded = numpyLoad(path);
  assert.deepEqual(loaded.shape, [5, 16]);
  assert.deepEqual(loaded.values, [...expected]);
  // The schedule was scaled: the unscaled table differs.
  const plain = table({ positions: 5, start: 8190, dim: 16, base: 500000 });
  assert.notDeepEqual([...plain], loaded.values);
});

test("--help documents every option", () => {
  const help = ok("--help");
  const source = readFileSync(
    new URL("../../src/cli.js", import.meta.url),
    "utf8",
  );
  const options = [
    ...source.matchAll(/^ {2}"?([a-z-]+)"?: \{ type: "(?:string|boolean)"/gm),
  ].map((m) => m[1]);
  assert.ok(options.length > 20, options.join(" "));
  for (const option of options)
    assert.ok(help.includes(`--${option}`), `--${option} is documented`);
  for (const format of ["npy", "f32", "csv", "json"])
    assert.match(help, new RegExp(`\\b${format}\\b`));
  assert.equal(ok(), help);
});

test("a bad option exits non-zero with the library's message and no stack trace", () => {
  const cases = [
    [
      ["table", "--positions", "4", "--dim", "8", "--base", "1"],
      /option --base must be a finite number > 1, got 1/,
    ],
    [["table", "--positions", "4", "--dim", "0"], /option --dim/],
    [["table", "--dim", "8"], /--positions is required/],
    [["table", "--positions", "4", "--dim", "8", "--layout", "rows"], /layout/],
    [
      ["table", "--positions", "4", "--dim", "8", "--format", "xml"],
      /--format must be one of npy, f32, csv, json/,
    ],
    [["table", "--positions", "4", "--dim", "8", "--frobnicate"], /frobnicate/],
    [
      ["table", "--positions", "4", "--dim", "8", "--alpha", "2"],
      /--alpha does not apply to "table"/,
    ],
    [["decay", "--from", "0", "--to", "1", "--count", "0"], /option --count/],
    [
      [
        "decay",
        "--theta",
        "power",
        "--alpha",
        "-1",
        "--from",
        "0",
        "--to",
        "1",
        "--count",
        "3",
      ],
      /alpha/,
    ],
    [["rotate"], /unknown command "rotate"/],
    [
      ["table", "--positions", "4", "--dim", "8", "--scaling", "{factor: 4}"],
      /--scaling must be a JSON object/,
    ],
    [
      ["table", "--positions", "4", "--dim", "8", "--scaling", '"linear"'],
      /--scaling must be a JSON object/,
    ],
    [
      [
        "table",
        "--positions",
        "4",
        "--dim",
        "8",
        "--scaling",
        '{"rope_type": "linear"}',
      ],
      /option --scaling key "factor" is required/,
    ],
    [
      [
        "table",
        "--positions",
        "4",
        "--dim",
        "8",
        "-o",
        join(dir, "no/such/dir.npy"),
      ],
      /sinusoidal-pe: ENOENT/,
    ],
  ];
  for (const [args, message] of cases) {
    const result = sinusoidalPe(...args);
    assert.notEqual(result.status, 0, args.join(" "));
    assert.match(result.stderr, message);
    assert.doesNotMatch(result.stderr, /\n\s+at /, "no stack trace");
    assert.equal(result.stdout, "", "nothing written");
  }
});
