// The command line: files it writes load in NumPy (Debian's python3-numpy)
// to the values table() returns, in every format, streamed in blocks.
import assert from "node:assert/strict";
import { execFileSync, spawn, spawnSync } from "node:child_process";
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { before, test } from "node:test";
import { fileURLToPath } from "node:url";
import {
  decayIntegral,
  init,
  presets,
  ropeCache,
  table,
} from "../../dist/index.js";
import { runCli } from "./cli-worker.js";

const cli = fileURLToPath(new URL("../../dist/cli.js", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "pe-cli-"));

before(() => init());

const sinusoidalPe = (...args) => runCli(args);

// The arguments of a command with a flag per option, in order:
// { blockRows: 128 } is --block-rows 128, and true a flag alone.
function command(name, options) {
  return [
    name,
    ...Object.entries(options).flatMap(([key, value]) => {
      const flag = `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
      return value === true ? [flag] : [flag, String(value)];
    }),
  ];
}

async function ok(...args) {
  const result = await sinusoidalPe(...args);
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

// Runs the command writing the scratch file `name`, and loads that in NumPy.
async function written(name, args) {
  const path = join(dir, name);
  await ok(...args, "-o", path);
  return numpyLoad(path);
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
  test(`table --format npy (${dtype}) loads in NumPy as table() returns it`, async () => {
    const loaded = await written(
      `pe-${dtype}.npy`,
      command("table", { positions: 300, dim: 10, dtype, base: 500 }),
    );
    assert.equal(loaded.dtype, dtype);
    assert.deepEqual(loaded.shape, [300, 10]);
    assert.deepEqual(
      loaded.values,
      Array.from(table({ positions: 300, dim: 10, dtype, base: 500 })),
    );
  });

  test(`a table written in several blocks (${dtype}) equals one call`, async () => {
    const options = {
      positions: 1000,
      start: 17,
      dim: 6,
      layout: "halves",
      dtype,
    };
    const loaded = await written(
      `blocks-${dtype}.npy`,
      command("table", { ...options, blockRows: 128 }),
    );
    assert.deepEqual(loaded.shape, [1000, 6]);
    assert.deepEqual(loaded.values, Array.from(table(options)));
  });
}

test("a table past one default block (16 MiB) equals one call, bit for bit", () => {
  // 70000 × 64 float32 is 17.9 MB: two blocks of the library's block rule.
  const result = spawnSync(
    process.execPath,
    [
      cli,
      ...command("table", {
        positions: 70000,
        start: 3,
        dim: 64,
        format: "f32",
      }),
    ],
    { maxBuffer: 1 << 26 },
  );
  assert.equal(result.status, 0, String(result.stderr));
  const want = table({ positions: 70000, start: 3, dim: 64 });
  assert.equal(result.stdout.length, want.byteLength);
  assert.ok(
    Buffer.from(want.buffer, want.byteOffset, want.byteLength).equals(
      result.stdout,
    ),
  );
});

test("a preset table in blocks loads in NumPy, within a float32 rounding of one call", async () => {
  const loaded = await written(
    "whisper.npy",
    command("table", {
      preset: "whisper",
      positions: 1500,
      dim: 8,
      blockRows: 256,
    }),
  );
  assert.equal(loaded.dtype, "float32");
  assert.deepEqual(loaded.shape, [1500, 8]);
  const want = table({ preset: "whisper", positions: 1500, dim: 8 });
  loaded.values.forEach((v, i) =>
    assert.ok(Math.abs(v - want[i]) <= 1.2e-7, `${i}: ${v} vs ${want[i]}`),
  );
});

test("f32, csv and json hold the same values", async () => {
  const args = command("table", { positions: 5, dim: 4, start: 3 });
  const want = Array.from(table({ positions: 5, dim: 4, start: 3 }));
  const raw = readFileSync(
    (await ok(...args, "--format", "f32", "-o", join(dir, "pe.f32")),
    join(dir, "pe.f32")),
  );
  assert.deepEqual(
    Array.from(new Float32Array(raw.buffer, raw.byteOffset, raw.length / 4)),
    want,
  );
  const csv = await ok(...args, "--format", "csv");
  const rows = csv
    .trim()
    .split("\n")
    .map((line) => line.split(",").map(Number));
  assert.equal(rows.length, 5);
  assert.deepEqual(rows.flat().map(Math.fround), want);
  const json = JSON.parse(
    await ok(...args, "--format", "json", "--block-rows", "2"),
  );
  assert.equal(json.length, 5);
  assert.deepEqual(json.flat().map(Math.fround), want);
});

test("csv from the command line loads in NumPy", async () => {
  const path = join(dir, "pe.csv");
  await ok(
    ...command("table", {
      positions: 64,
      dim: 8,
      dtype: "float64",
      format: "csv",
    }),
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

test("decay writes x and f(x) over the grid, in blocks, to NumPy", async () => {
  const loaded = await written(
    "decay.npy",
    command("decay", {
      base: 100,
      from: 0,
      to: 50,
      count: 301,
      blockRows: 64,
    }),
  );
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
    await ok(
      ...command("decay", {
        theta: "linear",
        from: 1,
        to: 2,
        count: 2,
        format: "json",
      }),
    ),
  );
  assert.deepEqual(
    json.map(([x]) => x),
    [1, 2],
  );
  json.forEach(([x, f]) => assert.ok(Math.abs(f - Math.sin(x) / x) <= 1e-15));
});

test("check prints the linear-relation and Toeplitz errors", async () => {
  const text = await ok(
    ...command("check", { positions: 200, dim: 64, offsets: "1,-7.5,100" }),
  );
  assert.match(text, /linear relation: max .* = \d\.\d\de-\d+ at p = /);
  assert.match(text, /Toeplitz: max .* = \d\.\d\de-\d+ at m = /);
  const json = JSON.parse(
    await ok(
      ...command("check", {
        positions: 200,
        dim: 64,
        dtype: "float64",
        format: "json",
      }),
    ),
  );
  assert.ok(json.linearRelation.maxAbsError < 1e-14, JSON.stringify(json));
  assert.ok(json.toeplitz.maxAbsError < 1e-12, JSON.stringify(json));
});

test("--scaling takes a config.json's rope_scaling: the table of that schedule", async () => {
  const options = {
    positions: 5,
    start: 8190,
    dim: 16,
    base: 500000,
    layout: "halves",
    dtype: "float64",
  };
  const loaded = await written(
    "llama31.npy",
    command("table", {
      ...options,
      scaling: JSON.stringify({
        factor: 8.0,
        high_freq_factor: 4.0,
        low_freq_factor: 1.0,
        original_max_position_embeddings: 8192,
        rope_type: "llama3",
      }),
    }),
  );
  const scaling = {
    type: "llama3",
    factor: 8,
    lowFreqFactor: 1,
    highFreqFactor: 4,
    originalMaxPositionEmbeddings: 8192,
  };
  assert.deepEqual(loaded.shape, [5, 16]);
  assert.deepEqual(loaded.values, [...table({ ...options, scaling })]);
  // The schedule was scaled: the unscaled table differs.
  const plain = table({ positions: 5, start: 8190, dim: 16, base: 500000 });
  assert.notDeepEqual([...plain], loaded.values);
});

test("--help documents every option", async () => {
  const help = await ok("--help");
  const source = readFileSync(
    new URL("../../src/cli/flags.js", import.meta.url),
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
  // No arguments at all: the help, on standard error, as a usage error.
  const bare = await sinusoidalPe();
  assert.equal(bare.status, 2);
  assert.equal(bare.stderr, help);
  assert.equal(bare.stdout, "");
});

test("a bad option exits non-zero with the library's message and no stack trace", async () => {
  const cases = [
    [
      command("table", { positions: 4, dim: 8, base: 1 }),
      /option --base must be a finite number > 1, got 1/,
    ],
    [command("table", { positions: 4, dim: 0 }), /option --dim/],
    [["table", "--dim", "8"], /--positions is required/],
    [command("table", { positions: 4, dim: 8, layout: "rows" }), /layout/],
    [
      command("table", { positions: 4, dim: 8, format: "xml" }),
      /--format must be one of npy, f32, csv, json/,
    ],
    [
      command("table", { positions: 4, dim: 8, frobnicate: true }),
      /frobnicate/,
    ],
    [
      command("table", { positions: 4, dim: 8, alpha: 2 }),
      /--alpha does not apply to "table"/,
    ],
    [command("decay", { from: 0, to: 1, count: 0 }), /option --count/],
    [
      command("decay", {
        theta: "power",
        alpha: -1,
        from: 0,
        to: 1,
        count: 3,
      }),
      /alpha/,
    ],
    [["rotate"], /unknown command "rotate"/],
    [
      command("table", { positions: 4, dim: 8, scaling: "{factor: 4}" }),
      /--scaling must be a JSON object/,
    ],
    [
      command("table", { positions: 4, dim: 8, scaling: '"linear"' }),
      /--scaling must be a JSON object/,
    ],
    [
      command("table", {
        positions: 4,
        dim: 8,
        scaling: '{"rope_type": "linear"}',
      }),
      /option --scaling key "factor" is required/,
    ],
    [
      [
        ...command("table", { positions: 4, dim: 8 }),
        "-o",
        join(dir, "no/such/dir.npy"),
      ],
      /sinusoidal-pe: option -o \S+no\/such\/dir\.npy: the directory \S+no\/such does not exist \(ENOENT\)\n$/,
    ],
  ];
  for (const [args, message] of cases) {
    const result = await sinusoidalPe(...args);
    assert.notEqual(result.status, 0, args.join(" "));
    assert.match(result.stderr, message);
    assert.doesNotMatch(result.stderr, /\n\s+at /, "no stack trace");
    assert.equal(result.stdout, "", "nothing written");
  }
});

// ---- limits checked before anything is opened -------------------------------

const constants = await import("../../build/constants.js");

// Runs the command with a time limit: a command that streams without end
// is stopped (status null) rather than hanging the test.
const bounded = (args) => runCli(args, { timeout: 20000, maxBuffer: 1 << 20 });

function refused(result, message) {
  assert.equal(result.status, 2, `status ${result.status}: ${result.stderr}`);
  assert.match(result.stderr, message);
  assert.doesNotMatch(result.stderr, /\n\s+at /, "no stack trace");
}

// The files of `folder` other than `keep`: a partial file left behind.
const leftovers = (folder, keep) =>
  readdirSync(folder).filter((name) => !keep.includes(name));

test("a refused count leaves an existing output file as it was", async () => {
  const folder = mkdtempSync(join(tmpdir(), "pe-keep-"));
  const path = join(folder, "keep.npy");
  writeFileSync(path, "precious");
  refused(
    await bounded([
      ...command("table", { positions: "1e300", dim: 8 }),
      "-o",
      path,
    ]),
    /option --positions must be an integer in \[0, 4294967295\], got 1e\+300/,
  );
  assert.equal(readFileSync(path, "utf8"), "precious");
  assert.deepEqual(leftovers(folder, ["keep.npy"]), []);
});

test("an endless count is refused before anything is written, in every format", async () => {
  for (const format of ["csv", "json", "f32", "npy"]) {
    const result = await bounded(
      command("table", { positions: "1e300", dim: 8, format }),
    );
    refused(result, /option --positions must be an integer/);
    assert.equal(result.stdout, "", format);
  }
});

test("a count beyond the library's table limit is refused", async () => {
  // The largest count table() takes: 2^32 - 1 rows.
  const result = await bounded(
    command("table", { positions: 4294967296, dim: 8 }),
  );
  refused(
    result,
    /--positions must be an integer in \[0, 4294967295\], got 4294967296/,
  );
  assert.equal(result.stdout, "");
});

test("a rope cache too large for one call streams in blocks", () => {
  // 2^32 - 1 rows: past one call's 4 GiB, within the count the library takes.
  const result = spawnSync(
    "/bin/sh",
    [
      "-c",
      `"${process.execPath}" "${cli}" rope-cache --positions 4294967295 --dim 8 --format csv | head -2`,
    ],
    { encoding: "utf8", timeout: 20000 },
  );
  assert.equal(result.status, 0, result.stderr);
  assert.equal(result.stderr, "");
  assert.equal(result.stdout.split("\n")[0], "1,1,1,1");
});

test("decay refuses counts beyond the library's MAX_COUNT before writing", async () => {
  assert.equal(constants.MAX_COUNT, 2 ** 28);
  for (const count of [String(constants.MAX_COUNT + 1), "1e20"]) {
    const result = await bounded(
      command("decay", { from: 0, to: 1, count, format: "csv" }),
    );
    refused(
      result,
      new RegExp(
        `option --count must be an integer in \\[1, ${constants.MAX_COUNT}\\], got ${Number(count)}`,
      ),
    );
    assert.equal(result.stdout, "");
  }
});

test("check refuses a count that Toeplitz cannot take before computing anything", async () => {
  const result = await bounded(
    command("check", { positions: 5000, dim: 1048576 }),
  );
  refused(
    result,
    /option --positions must be an integer in \[1, 4096\], got 5000/,
  );
});

test("a flag given twice is an error that names it", async () => {
  const result = await bounded([
    "table",
    "--positions",
    "4",
    "--dim",
    "8",
    "--positions",
    "5",
  ]);
  refused(result, /option --positions is given more than once/);
  assert.equal(result.stdout, "");
});

test('--scaling reports a "__proto__" key as written', async () => {
  const result = await bounded(
    command("table", {
      positions: 4,
      dim: 8,
      scaling:
        '{"rope_type": "linear", "factor": 2, "__proto__": {"factor": 3}}',
    }),
  );
  refused(
    result,
    /option --scaling has the key "__proto__", which is no rope_scaling parameter/,
  );
  // A snake_case key is reported as written too.
  refused(
    await bounded(
      command("table", {
        positions: 4,
        dim: 8,
        scaling: '{"rope_type": "linear", "factor": 2, "low_freq": 1}',
      }),
    ),
    /option --scaling has the key "low_freq", which is no rope_scaling parameter/,
  );
});

test("an output file replaces the target only once complete", async () => {
  const folder = mkdtempSync(join(tmpdir(), "pe-replace-"));
  const path = join(folder, "pe.npy");
  writeFileSync(path, "old");
  await ok(...command("table", { positions: 3, dim: 4 }), "-o", path);
  assert.deepEqual(numpyLoad(path).shape, [3, 4]);
  assert.deepEqual(leftovers(folder, ["pe.npy"]), []);
});

// Starts a long write into `folder`, waits for its partial file, then sends
// the signal.
async function interrupted(signal) {
  const folder = mkdtempSync(join(tmpdir(), "pe-signal-"));
  const path = join(folder, "big.npy");
  writeFileSync(path, "before");
  const child = spawn(process.execPath, [
    cli,
    ...command("table", { positions: 4000000, dim: 1024 }),
    "-o",
    path,
  ]);
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const exited = new Promise((resolve) =>
    child.on("exit", (code, killedBy) => resolve({ code, killedBy })),
  );
  for (let i = 0; i < 600 && leftovers(folder, ["big.npy"]).length === 0; i++)
    await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(leftovers(folder, ["big.npy"]).length, 1, "writing started");
  child.kill(signal);
  const { code } = await exited;
  return { code, stderr, folder, path };
}

// Every signal that ends a process and can be caught: 128 + its number.
for (const [signal, status] of [
  ["SIGINT", 130],
  ["SIGTERM", 143],
  ["SIGHUP", 129],
  ["SIGQUIT", 131],
  ["SIGUSR2", 140],
])
  test(`${signal} mid-write removes the partial file and says so`, async () => {
    const { code, stderr, folder, path } = await interrupted(signal);
    assert.equal(code, status);
    assert.match(stderr, new RegExp(`interrupted by ${signal}`));
    assert.match(stderr, /partial output was removed/);
    assert.equal(readFileSync(path, "utf8"), "before");
    assert.deepEqual(leftovers(folder, ["big.npy"]), []);
  });

// ---- model work ---------------------------------------------------------------

test("--positions takes explicit positions, comma-separated", async () => {
  const loaded = await written(
    "explicit.npy",
    command("table", { positions: "0,1,999,-2.5", dim: 6 }),
  );
  assert.deepEqual(loaded.shape, [4, 6]);
  // PE(p)[2i] = sin(p w_i), [2i + 1] = cos(p w_i), w_i = 10000^(-2i/6).
  const positions = [0, 1, 999, -2.5];
  positions.forEach((p, r) => {
    for (let i = 0; i < 3; i++) {
      const w = 10000 ** (-(2 * i) / 6);
      assert.ok(
        Math.abs(loaded.values[r * 6 + 2 * i] - Math.sin(p * w)) < 1e-6,
      );
      assert.ok(
        Math.abs(loaded.values[r * 6 + 2 * i + 1] - Math.cos(p * w)) < 1e-6,
      );
    }
  });
  refused(
    await bounded(command("table", { positions: "1,x", dim: 4 })),
    /option --positions entry 2 must be a number, got "x"/,
  );
});

test("--positions-file reads one number a line, or a 1-D .npy", async () => {
  const positions = [3, 0, 17, 4096];
  const want = Array.from(table({ positions, dim: 8 }));
  const text = join(dir, "positions.txt");
  writeFileSync(text, positions.join("\n") + "\n");
  const fromText = join(dir, "from-text.npy");
  await ok(
    ...command("table", { positionsFile: text, dim: 8 }),
    "-o",
    fromText,
  );
  assert.deepEqual(numpyLoad(fromText).values, want);
  for (const dtype of ["int64", "float32", "int32"]) {
    const npy = join(dir, `positions-${dtype}.npy`);
    execFileSync("/usr/bin/python3", [
      "-c",
      `import sys, numpy as np; np.save(sys.argv[1], np.array([${positions}], dtype=np.${dtype}))`,
      npy,
    ]);
    const out = join(dir, `from-${dtype}.npy`);
    await ok(...command("table", { positionsFile: npy, dim: 8 }), "-o", out);
    assert.deepEqual(numpyLoad(out).values, want, dtype);
  }
  const square = join(dir, "positions-2d.npy");
  execFileSync("/usr/bin/python3", [
    "-c",
    "import sys, numpy as np; np.save(sys.argv[1], np.zeros((2, 2)))",
    square,
  ]);
  refused(
    await bounded(command("table", { positionsFile: square, dim: 8 })),
    /--positions-file .* is not a 1-D \.npy of numbers: its shape is not 1-D/,
  );
  refused(
    await bounded(
      command("table", { positions: 3, positionsFile: text, dim: 8 }),
    ),
    /options --positions and --positions-file exclude each other/,
  );
  writeFileSync(text, "1\nnope\n");
  refused(
    await bounded(command("table", { positionsFile: text, dim: 8 })),
    /--positions-file .*line 2 must be a finite number, got "nope"/,
  );
});

test("every preset parameter is a flag, documented in --help", async () => {
  const help = await ok("--help");
  for (const preset of Object.values(presets))
    for (const key of Object.keys(preset.parameters)) {
      const flag = key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
      assert.ok(help.includes(`--${flag}`), `--${flag} in help`);
    }
});

test("preset parameter flags reach the preset", async () => {
  const loaded = await written(
    "diffusers.npy",
    command("table", {
      preset: "diffusers",
      flipSinToCos: true,
      downscaleFreqShift: 0,
      maxPeriod: 5000,
      positions: "0,10,999",
      dim: 8,
      dtype: "float64",
    }),
  );
  // [cos | sin] of t · w_i, w_i = exp(-ln(5000) i / 4).
  [0, 10, 999].forEach((t, r) => {
    for (let i = 0; i < 4; i++) {
      const angle = t * Math.exp((-Math.log(5000) * i) / 4);
      assert.ok(Math.abs(loaded.values[r * 8 + i] - Math.cos(angle)) < 1e-12);
      assert.ok(
        Math.abs(loaded.values[r * 8 + 4 + i] - Math.sin(angle)) < 1e-12,
      );
    }
  });
  refused(
    await bounded(command("table", { maxPeriod: 5000, positions: 2, dim: 8 })),
    /--max-period is a parameter of preset diffusers, guided-diffusion: give --preset/,
  );
  refused(
    await bounded(
      command("table", {
        preset: "whisper",
        maxPeriod: 5000,
        positions: 2,
        dim: 8,
      }),
    ),
    /--max-period is not a parameter of preset "whisper"/,
  );
});

test("a preset's first position carries across blocks", async () => {
  const loaded = await written(
    "paper-start.npy",
    command("table", {
      preset: "paper",
      startIndex: 1000,
      positions: 300,
      dim: 4,
      blockRows: 128,
    }),
  );
  for (let r = 0; r < 300; r++)
    for (let i = 0; i < 2; i++) {
      const angle = (1000 + r) * 10000 ** (-(2 * i) / 4);
      assert.ok(
        Math.abs(loaded.values[r * 4 + 2 * i] - Math.sin(angle)) < 2e-6,
      );
    }
});

for (const [dtype, numpyType] of [
  ["float32", "float32"],
  ["float16", "float16"],
  ["float64", "float64"],
])
  test(`rope-cache writes [2, n, width] cos then sin (${dtype})`, async () => {
    // The older names "half" and "duplicated" are "compact" and "halves".
    const layouts = ["compact", "halves", "interleaved", "half", "duplicated"];
    for (const layout of layouts) {
      const kind = { half: "compact", duplicated: "halves" }[layout] ?? layout;
      const loaded = await written(
        `rope-${dtype}-${layout}.npy`,
        command("rope-cache", {
          positions: 300,
          start: 5,
          dim: 8,
          base: 500,
          layout,
          dtype,
          blockRows: 128,
        }),
      );
      const width = kind === "compact" ? 4 : 8;
      assert.equal(loaded.dtype, numpyType);
      assert.deepEqual(loaded.shape, [2, 300, width]);
      const tolerance = { float16: 1e-3, float32: 1e-6, float64: 1e-13 }[dtype];
      for (let r = 0; r < 300; r++)
        for (let c = 0; c < width; c++) {
          const i = kind === "compact" ? c : kind === "halves" ? c % 4 : c >> 1;
          const angle = (5 + r) * 500 ** (-(2 * i) / 8);
          const cos = loaded.values[r * width + c];
          const sin = loaded.values[(300 + r) * width + c];
          assert.ok(Math.abs(cos - Math.cos(angle)) <= tolerance, `${r} ${c}`);
          assert.ok(Math.abs(sin - Math.sin(angle)) <= tolerance, `${r} ${c}`);
        }
    }
  });

test("rope-cache takes --scaling and explicit positions, as ropeCache()", async () => {
  const scaling = { type: "linear", factor: 4 };
  const { cos, sin } = ropeCache({
    positions: [0, 7, 4000],
    dim: 16,
    scaling,
    dtype: "float64",
  });
  const loaded = await written(
    "rope-linear.npy",
    command("rope-cache", {
      positions: "0,7,4000",
      dim: 16,
      dtype: "float64",
      scaling: '{"rope_type": "linear", "factor": 4}',
    }),
  );
  assert.deepEqual(loaded.shape, [2, 3, 8]);
  assert.deepEqual(loaded.values, [...cos, ...sin]);
  // linear: w_i / 4.
  assert.ok(
    Math.abs(cos[8 + 1] - Math.cos((7 * 10000 ** (-2 / 16)) / 4)) < 1e-15,
  );
  const json = JSON.parse(
    await ok(
      ...command("rope-cache", { positions: 2, dim: 4, format: "json" }),
    ),
  );
  assert.equal(json.length, 2);
  assert.deepEqual(json[0][0], [1, 1]);
  assert.deepEqual(json[1][0], [0, 0]);
  // float16 in text: the float32 values of the half bits, exactly.
  const halfPath = join(dir, "rope-half.npy");
  const args = command("rope-cache", {
    positions: 50,
    dim: 6,
    dtype: "float16",
  });
  await ok(...args, "-o", halfPath);
  const halves = numpyLoad(halfPath).values;
  const csv = await ok(...args, "--format", "csv");
  assert.deepEqual(
    csv
      .trim()
      .split(/[,\n]/)
      .map((text) => Math.fround(Number(text))),
    halves,
  );
  const raw = readFileSync(
    (await ok(...args, "--format", "f32", "-o", join(dir, "half.f32")),
    join(dir, "half.f32")),
  );
  assert.deepEqual(
    Array.from(new Float32Array(raw.buffer, raw.byteOffset, raw.length / 4)),
    halves,
  );
  refused(
    await bounded(command("rope-cache", { positions: 2, dim: 5 })),
    /--dim must give a rotary part.*got --dim = 5$/m,
  );
});

test("--version prints the package's version", async () => {
  const { version } = JSON.parse(
    readFileSync(new URL("../../package.json", import.meta.url), "utf8"),
  );
  assert.equal(await ok("--version"), `${version}\n`);
});

test("messages name the flag the user typed", async () => {
  refused(
    await bounded(command("table", { positions: 4, dim: 8, oddDim: "nope" })),
    /option --odd-dim must be one of "zero-pad", "extra-sin", "error", got "nope"/,
  );
  refused(await bounded(["table", "--positions", "4"]), /--dim is required/);
  refused(
    await bounded(command("decay", { from: 0, to: 1 })),
    /--count is required/,
  );
  refused(
    await bounded(command("table", { positions: 4, dim: 8, outputScale: "x" })),
    /option --output-scale must be a number/,
  );
});

test("--alpha: the help says it is required, and it is", async () => {
  assert.match(await ok("--help"), /--alpha A\s+power family \(required/);
  refused(
    await bounded(
      command("decay", { theta: "power", from: 0, to: 1, count: 3 }),
    ),
    /option --alpha is required/,
  );
});

test("a stalled reader raises no listener warning", () => {
  const result = spawnSync(
    "/bin/sh",
    [
      "-c",
      `"${process.execPath}" "${cli}" table --positions 200000 --dim 1024 | (sleep 2; cat >/dev/null)`,
    ],
    { encoding: "utf8", timeout: 120000 },
  );
  assert.equal(result.status, 0, result.stderr);
  assert.doesNotMatch(result.stderr, /MaxListenersExceededWarning/);
});

test("a write that fails at the end leaves no partial file", async () => {
  const folder = mkdtempSync(join(tmpdir(), "pe-fail-"));
  const target = join(folder, "taken");
  mkdirSync(target);
  const result = await bounded([
    ...command("table", { positions: 300, dim: 8 }),
    "-o",
    target,
  ]);
  assert.equal(result.status, 1, result.stderr);
  assert.match(
    result.stderr,
    /sinusoidal-pe: option -o \S+taken: it is a directory \(EISDIR\)/,
  );
  assert.deepEqual(readdirSync(folder), ["taken"]);
  assert.deepEqual(readdirSync(target), []);
});

test("one explicit position takes a trailing comma", async () => {
  const csv = await ok(
    ...command("table", { positions: "5,", dim: 4, format: "csv" }),
  );
  const row = csv.trim().split(",").map(Number);
  const want = [Math.sin(5), Math.cos(5), Math.sin(5 / 100), Math.cos(5 / 100)];
  row.forEach((v, i) =>
    assert.ok(Math.abs(v - want[i]) < 1e-6, `${v} ${want[i]}`),
  );
  assert.equal(csv.trim().split("\n").length, 1);
});

test("fairseq's padding row, counted from the end, stays in place across blocks", async () => {
  const loaded = await written("fairseq.npy", [
    ...command("table", {
      preset: "fairseq",
      positions: 300,
      dim: 8,
      blockRows: 128,
    }),
    // A negative value is given as --flag=value.
    "--padding-idx=-1",
  ]);
  assert.deepEqual(loaded.shape, [300, 8]);
  // Row 299 is zeros; row r holds [sin | cos] of r · w_i, w_i = 10000^(-i/3).
  for (let r = 0; r < 300; r++)
    for (let i = 0; i < 4; i++) {
      const angle = r * 10000 ** (-i / 3);
      const [sin, cos] =
        r === 299 ? [0, 0] : [Math.sin(angle), Math.cos(angle)];
      assert.ok(Math.abs(loaded.values[r * 8 + i] - sin) < 2e-6, `${r} ${i}`);
      assert.ok(
        Math.abs(loaded.values[r * 8 + 4 + i] - cos) < 2e-6,
        `${r} ${i}`,
      );
    }
});

test("rope-cache --config reads a model's config.json through fromConfig", async () => {
  // Phi-2: head dim 2560 / 32 = 80, partial rotary 0.4 → 32 rotated columns.
  const path = join(dir, "phi-2-config.json");
  writeFileSync(
    path,
    JSON.stringify({
      hidden_size: 2560,
      num_attention_heads: 32,
      partial_rotary_factor: 0.4,
      rope_theta: 10000,
    }),
  );
  const [cos, sin] = JSON.parse(
    await ok(
      ...command("rope-cache", {
        config: path,
        positions: "0,7",
        format: "json",
      }),
    ),
  );
  for (const [row, p] of [0, 7].entries()) {
    assert.equal(cos[row].length, 16);
    for (let i = 0; i < 16; i++) {
      const w = 10000 ** (-(2 * i) / 32);
      assert.ok(Math.abs(cos[row][i] - Math.cos(p * w)) < 1e-7);
      assert.ok(Math.abs(sin[row][i] - Math.sin(p * w)) < 1e-7);
    }
  }
  refused(
    await sinusoidalPe(
      ...command("rope-cache", { config: path, dim: 8, positions: 2 }),
    ),
    /--dim comes from --config/,
  );
  refused(
    await sinusoidalPe(
      ...command("rope-cache", { dim: 8, layerType: "x", positions: 2 }),
    ),
    /--layer-type applies with --config/,
  );
  writeFileSync(path, JSON.stringify({ head_dim: 64, rope_theta: "x" }));
  refused(
    await sinusoidalPe(
      ...command("rope-cache", { config: path, positions: 2 }),
    ),
    /config field "rope_theta" (of --config \S+ )?must be a number, got "x"/,
  );
  // A rule of the core on two fields: the first names the file.
  writeFileSync(
    path,
    JSON.stringify({
      head_dim: 64,
      rope_theta: 500000,
      rope_scaling: {
        rope_type: "llama3",
        factor: 8,
        low_freq_factor: 1,
        high_freq_factor: 0,
        original_max_position_embeddings: 8192,
      },
    }),
  );
  refused(
    await sinusoidalPe(
      ...command("rope-cache", { config: path, positions: 2 }),
    ),
    /fromConfig: config fields "rope_scaling\.low_freq_factor" of --config \S+ and "rope_scaling\.high_freq_factor" must be finite numbers > 0, got "rope_scaling\.low_freq_factor" = 1, "rope_scaling\.high_freq_factor" = 0$/m,
  );
  // A file that cannot be read: status 1, naming it.
  const missing = await sinusoidalPe(
    ...command("rope-cache", {
      config: join(dir, "missing.json"),
      positions: 2,
    }),
  );
  assert.equal(missing.status, 1);
  assert.match(
    missing.stderr,
    /option --config \S+missing\.json: no such file or directory \(ENOENT\)/,
  );
});

test("rope-cache takes M-RoPE's t h w as three numbers a line of --positions-file", async () => {
  const file = join(dir, "thw.txt");
  const [t, h, w] = [
    [0, 1, 2, 7],
    [0, 1, 3, 7],
    [0, 2, 1, 7],
  ];
  writeFileSync(file, t.map((_, j) => `${t[j]} ${h[j]} ${w[j]}\n`).join(""));
  // Chunked [2, 1, 1] over 4 pairs: pairs 0, 1 take t, pair 2 h, pair 3 w.
  // Interleaved [2, 1, 1]: pair 1 takes h (1 < 3), pair 2 w (2 < 3), the
  // rest t.
  for (const [flags, streamOf] of [
    [[], [0, 0, 1, 2]],
    [["--mrope-interleaved"], [0, 1, 2, 0]],
  ]) {
    const [cos, sin] = JSON.parse(
      await ok(
        ...command("rope-cache", { dim: 8, mropeSection: "2,1,1" }),
        ...flags,
        "--positions-file",
        file,
        "--dtype",
        "float64",
        "--format",
        "json",
      ),
    );
    for (let j = 0; j < 4; j++)
      for (let i = 0; i < 4; i++) {
        const p = [t, h, w][streamOf[i]][j];
        const angle = p * 10000 ** (-(2 * i) / 8);
        assert.ok(Math.abs(cos[j][i] - Math.cos(angle)) < 1e-15, `${j} ${i}`);
        assert.ok(Math.abs(sin[j][i] - Math.sin(angle)) < 1e-15, `${j} ${i}`);
      }
  }
  // A Qwen3-VL config.json gives the section and the interleaving; text
  // positions (one a line) give plain RoPE.
  const config = join(dir, "qwen3-vl.json");
  writeFileSync(
    config,
    readFileSync(
      new URL("../vectors/configs/qwen3-vl-8b.v5.json", import.meta.url),
    ),
  );
  const streams = JSON.parse(
    await ok(
      ...command("rope-cache", { config, positionsFile: file, format: "json" }),
    ),
  );
  assert.equal(streams[0][2].length, 64);
  // Pair 1 of row 2 takes h = 3; pair 0 takes t = 2.
  const w1 = 5000000 ** (-2 / 128);
  assert.ok(Math.abs(streams[0][2][1] - Math.cos(3 * w1)) < 1e-7);
  assert.ok(Math.abs(streams[0][2][0] - Math.cos(2)) < 1e-7);
  const text = JSON.parse(
    await ok(
      ...command("rope-cache", {
        config,
        positions: "0,1,2,7",
        format: "json",
      }),
    ),
  );
  assert.deepEqual(text[0][3], streams[0][3]); // t = h = w = 7
  // Refusals name the flag.
  refused(
    await bounded(command("rope-cache", { dim: 8, positionsFile: file })),
    /--positions-file .* holds three positions a line .* --mrope-section/,
  );
  refused(
    await bounded(command("table", { dim: 8, positionsFile: file })),
    /three positions a line/,
  );
  refused(
    await bounded([
      ...command("rope-cache", { dim: 8, mropeSection: "2,2,1" }),
      ...["--positions-file", file],
    ]),
    /--mrope-section must hold 3 integers >= 0 summing to rotaryDim \/ 2 \(4 pairs\), got \[2, 2, 1\]/,
  );
  refused(
    await bounded([
      ...command("rope-cache", { config, mropeSection: "2,1,1" }),
      ...["--positions", "2"],
    ]),
    /--mrope-section comes from --config/,
  );
  const ragged = join(dir, "ragged.txt");
  writeFileSync(ragged, "0 0 0\n1 1\n");
  refused(
    await bounded([
      ...command("rope-cache", { dim: 8, mropeSection: "2,1,1" }),
      ...["--positions-file", ragged],
    ]),
    /line 2 must be three finite numbers \(t h w\), got "1 1"/,
  );
});
