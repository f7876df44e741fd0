// The command line's flags and messages: unknown flags answered with the
// closest one, no arguments a usage error, binary data kept off a terminal,
// --seq-len, and the library's refusals in terms of the flags typed.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import {
  api,
  isLibraryRefusal,
  Names,
  describe,
} from "../../build/internals.js";
import { runCli } from "./cli-worker.js";

const cli = fileURLToPath(new URL("../../dist/cli.js", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "pe-cli-flags-"));

const run = (...args) => runCli(args);

function refused(result, message) {
  assert.equal(result.status, 2, `status ${result.status}: ${result.stderr}`);
  assert.match(result.stderr, message);
  assert.equal(result.stdout, "");
}

test("an unknown flag is answered with the closest flag, never parseArgs' text", async () => {
  const cases = [
    [["table", "--dims", "8", "--positions", "3"], "--dims", "--dim"],
    [["table", "--dims=8", "--positions", "3"], "--dims", "--dim"],
    [["table", "--postions", "3", "--dim", "4"], "--postions", "--positions"],
    [["table", "-dim", "4", "--positions", "3"], "-dim", "--dim"],
    [["rope-cache", "--layer-typ", "x"], "--layer-typ", "--layer-type"],
    [["rope-cache", "--seqlen", "9"], "--seqlen", "--seq-len"],
    [["decay", "--cout", "3"], "--cout", "--count"],
  ];
  for (const [args, typed, meant] of cases) {
    const result = await run(...args);
    refused(
      result,
      new RegExp(
        `^sinusoidal-pe: unknown option ${typed}; did you mean ${meant}\\?\\n`,
      ),
    );
    assert.doesNotMatch(result.stderr, /ERR_PARSE_ARGS|Unknown option '/);
  }
  refused(
    await run("tabel", "--dim", "4"),
    /^sinusoidal-pe: unknown command "tabel"; did you mean table\?\n/,
  );
  // Nothing close: no guess.
  refused(
    await run("table", "--frobnicate", "--dim", "4"),
    /^sinusoidal-pe: unknown option --frobnicate; "sinusoidal-pe --help" lists the options\n/,
  );
});

test("a flag without its value, or a value for a switch, is named", async () => {
  refused(
    await run("table", "--positions", "3", "--dim"),
    /^sinusoidal-pe: option --dim needs a value\n/,
  );
  refused(
    await run("table", "--dim", "--positions", "3"),
    /^sinusoidal-pe: option --dim needs a value, got the option --positions/,
  );
  refused(await run("--help=yes"), /^sinusoidal-pe: option --help is a switch/);
  refused(
    await run("table", "--positions", "3", "--dim", "4", "-o"),
    /^sinusoidal-pe: option -o needs a value\n/,
  );
  // A negative number is a value.
  const negative = await run(
    ...["table", "--positions", "1", "--dim", "2", "--start", "-1"],
    ...["--format", "csv"],
  );
  assert.equal(negative.status, 0, negative.stderr);
  const [sin, cos] = negative.stdout.trim().split(",").map(Number);
  assert.ok(
    Math.abs(sin - Math.sin(-1)) < 1e-7 && Math.abs(cos - Math.cos(-1)) < 1e-7,
  );
});

test("no arguments prints the help and exits 2", async () => {
  const result = await run();
  assert.equal(result.status, 2);
  assert.match(result.stderr, /^Usage: sinusoidal-pe <command> \[options\]\n/);
  assert.equal(result.stderr, (await run("--help")).stdout);
  assert.equal(result.stdout, "");
});

// The command run with a terminal (a pty from util-linux's `script`) as its
// standard output: what the terminal shows, and the command's status.
function onTerminal(...args) {
  const command = [process.execPath, cli, ...args]
    .map((arg) => `'${arg}'`)
    .join(" ");
  const result = spawnSync("script", ["-qec", command, "/dev/null"], {
    encoding: "latin1",
    timeout: 20000,
  });
  assert.equal(result.error, undefined, "script(1) runs");
  return { status: result.status, shown: result.stdout };
}

test("binary output is refused on a terminal unless -o - asks for it", () => {
  const args = ["table", "--positions", "2", "--dim", "4"];
  for (const format of ["npy", "f32"]) {
    const { status, shown } = onTerminal(...args, "--format", format);
    assert.equal(status, 2, shown);
    assert.match(
      shown,
      new RegExp(
        `sinusoidal-pe: --format ${format} is binary and standard output is a terminal: give -o FILE, or -o - to write it there anyway`,
      ),
    );
    assert.doesNotMatch(shown, /NUMPY/);
  }
  const asked = onTerminal(...args, "-o", "-");
  assert.equal(asked.status, 0, asked.shown);
  assert.match(asked.shown, /\x93NUMPY/);
  const text = onTerminal(...args, "--format", "csv");
  assert.equal(text.status, 0, text.shown);
  assert.match(text.shown, /^0,1,0,1\r?\n/);
});

// A longrope scaling over dim 8: factor 4096 / 1024 = 4.
const LONGROPE = {
  rope_type: "longrope",
  short_factor: [1, 1.5, 1, 1],
  long_factor: [2, 3, 4, 5],
  max_position_embeddings: 4096,
  original_max_position_embeddings: 1024,
};

// [cos, sin] rows from the CLI, as JSON float64.
async function cache(...args) {
  const result = await run(
    ...["rope-cache", "--dtype", "float64", "--format", "json"],
    ...args,
  );
  assert.equal(result.status, 0, result.stderr);
  return JSON.parse(result.stdout);
}

// |got − want| within 1e-12 for every value, want(p, i) for row p.
function close(rows, positions, want) {
  rows.forEach((row, j) =>
    row.forEach((v, i) => {
      const w = want(positions[j], i);
      assert.ok(Math.abs(v - w) < 1e-12, `p ${positions[j]} i ${i}: ${v} ${w}`);
    }),
  );
}

test("--seq-len picks longrope's factors and dynamic's base", async () => {
  const positions = [0, 5, 100];
  const w = (i, base = 10000) => base ** (-(2 * i) / 8);
  // longrope's attention factor: sqrt(1 + ln 4 / ln 1024).
  const attention = Math.sqrt(1 + Math.log(4) / Math.log(1024));
  for (const [seqLen, factors] of [
    [2048, LONGROPE.long_factor],
    [512, LONGROPE.short_factor],
  ]) {
    const [cos, sin] = await cache(
      ...["--dim", "8", "--positions", positions.join(",")],
      ...["--scaling", JSON.stringify(LONGROPE), "--seq-len", String(seqLen)],
    );
    close(
      cos,
      positions,
      (p, i) => attention * Math.cos((p * w(i)) / factors[i]),
    );
    close(
      sin,
      positions,
      (p, i) => attention * Math.sin((p * w(i)) / factors[i]),
    );
  }
  // Dynamic NTK: base · (factor · L / max − (factor − 1))^(dim / (dim − 2)),
  // L = max(seqLen, max) = 64: 10000 · 7^(4/3).
  const dynamic = {
    rope_type: "dynamic",
    factor: 2,
    max_position_embeddings: 16,
  };
  const [cos] = await cache(
    ...["--dim", "8", "--positions", positions.join(",")],
    ...["--scaling", JSON.stringify(dynamic), "--seq-len", "64"],
  );
  const base = 10000 * 7 ** (8 / 6);
  close(cos, positions, (p, i) => Math.cos(p * w(i, base)));
});

test("without --seq-len, a longrope cache in blocks is computed for the whole sequence", async () => {
  // 2048 rows in blocks of 256: every block uses the long factors, as one
  // call for positions 0 … 2047 does (2048 > the original 1024), the first
  // blocks too.
  const w = (i) => 10000 ** (-(2 * i) / 8);
  const attention = Math.sqrt(1 + Math.log(4) / Math.log(1024));
  const long = (p, i) =>
    attention * Math.cos((p * w(i)) / LONGROPE.long_factor[i]);
  const [cos] = await cache(
    ...["--dim", "8", "--positions", "2048", "--block-rows", "256"],
    ...["--scaling", JSON.stringify(LONGROPE)],
  );
  const rows = [0, 5, 255, 256, 1023, 1024, 2047];
  close(
    rows.map((p) => cos[p]),
    rows,
    long,
  );
  // Explicit positions, one a block: the largest of them sets the length.
  const [listed] = await cache(
    ...["--dim", "8", "--positions", "5,2000", "--block-rows", "1"],
    ...["--scaling", JSON.stringify(LONGROPE)],
  );
  close(listed, [5, 2000], long);
  // A short sequence keeps the short factors.
  const [short] = await cache(
    ...["--dim", "8", "--positions", "5,7", "--block-rows", "1"],
    ...["--scaling", JSON.stringify(LONGROPE)],
  );
  close(
    short,
    [5, 7],
    (p, i) => attention * Math.cos((p * w(i)) / LONGROPE.short_factor[i]),
  );
});

test("without --seq-len, the library's warning is on standard error, and a table follows the whole sequence too", async () => {
  const dynamic = {
    rope_type: "dynamic",
    factor: 2,
    max_position_embeddings: 16,
  };
  const warning =
    /^sinusoidal-pe: warning: scaling\.seqLen is the largest position \+ 1 = 101, beyond the original context of 16: the base grows with it/;
  // Dynamic NTK at L = 101: base · (2 · 101 / 16 − 1)^(8 / 6).
  const base = 10000 * (2 * (101 / 16) - 1) ** (8 / 6);
  const cos = (p, i) => Math.cos(p * base ** (-(2 * i) / 8));
  const table = await run(
    ...["table", "--dim", "8", "--positions", "101", "--block-rows", "16"],
    ...["--scaling", JSON.stringify(dynamic), "--layout", "halves"],
    ...["--dtype", "float64", "--format", "json"],
  );
  assert.equal(table.status, 0, table.stderr);
  assert.match(table.stderr, warning);
  assert.equal(table.stderr.split("\n").length, 2, "one warning, once");
  // [sin | cos] halves: the first block's rows too, at seqLen 101.
  const rows = JSON.parse(table.stdout);
  close(
    [0, 5, 15, 16, 100].map((p) => rows[p].slice(4)),
    [0, 5, 15, 16, 100],
    cos,
  );
  const rope = await run(
    ...["rope-cache", "--dim", "8", "--positions", "101"],
    ...["--scaling", JSON.stringify(dynamic), "--format", "csv"],
  );
  assert.equal(rope.status, 0, rope.stderr);
  assert.match(rope.stderr, warning);
  // From --start 10: positions 10 … 110, seqLen 111 in every block.
  const base111 = 10000 * (2 * (111 / 16) - 1) ** (8 / 6);
  const [started] = await cache(
    ...["--dim", "8", "--positions", "101", "--start", "10"],
    ...["--block-rows", "16", "--scaling", JSON.stringify(dynamic)],
  );
  close(
    [0, 15, 16, 100].map((row) => started[row]),
    [10, 25, 26, 110],
    (p, i) => Math.cos(p * base111 ** (-(2 * i) / 8)),
  );
  // Given --seq-len, or within the context, no warning.
  for (const args of [
    ["--positions", "101", "--seq-len", "101"],
    ["--positions", "16"],
  ]) {
    const quiet = await run(
      ...["table", "--dim", "8", "--scaling", JSON.stringify(dynamic)],
      ...[...args, "--format", "csv"],
    );
    assert.equal(quiet.status, 0, quiet.stderr);
    assert.equal(quiet.stderr, "");
  }
  // What transformers only logs about the scaling itself, from a table.
  const linear = await run(
    ...["table", "--dim", "8", "--positions", "4", "--format", "csv"],
    ...["--scaling", '{"rope_type": "linear", "factor": 0.5}'],
  );
  assert.equal(linear.status, 0, linear.stderr);
  assert.match(
    linear.stderr,
    /^sinusoidal-pe: warning: scaling\.factor is below 1/,
  );
});

test("--seq-len reaches a --config's scaling, and is refused where none takes it", async () => {
  const config = join(dir, "longrope.json");
  writeFileSync(
    config,
    JSON.stringify({
      hidden_size: 32,
      num_attention_heads: 4,
      rope_theta: 10000,
      max_position_embeddings: 4096,
      original_max_position_embeddings: 1024,
      rope_scaling: {
        type: "longrope",
        short_factor: LONGROPE.short_factor,
        long_factor: LONGROPE.long_factor,
      },
    }),
  );
  const attention = Math.sqrt(1 + Math.log(4) / Math.log(1024));
  const [cos] = await cache(
    "--config",
    config,
    "--positions",
    "0,7",
    "--seq-len",
    "4096",
  );
  close(
    cos,
    [0, 7],
    (p, i) =>
      attention *
      Math.cos((p * 10000 ** (-(2 * i) / 8)) / LONGROPE.long_factor[i]),
  );

  refused(
    await run("rope-cache", "--dim", "8", "--positions", "2", "--seq-len", "9"),
    /^sinusoidal-pe: option --seq-len applies with --scaling or --config/,
  );
  const plain = join(dir, "plain.json");
  writeFileSync(plain, JSON.stringify({ head_dim: 8, rope_theta: 10000 }));
  refused(
    await run(
      "rope-cache",
      "--config",
      plain,
      "--positions",
      "2",
      "--seq-len",
      "9",
    ),
    /option --seq-len does not apply to rope type "default"/,
  );
  refused(
    await run(
      ...["rope-cache", "--dim", "8", "--positions", "2", "--seq-len", "9"],
      ...["--scaling", '{"rope_type": "linear", "factor": 2}'],
    ),
    /option --seq-len does not apply to rope type "linear"/,
  );
  refused(
    await run(
      ...["rope-cache", "--dim", "8", "--positions", "2", "--seq-len", "-3"],
      ...["--scaling", JSON.stringify(LONGROPE)],
    ),
    /option --seq-len must be an integer in \[0, \d+\], got -3/,
  );
  refused(
    await run(
      ...["rope-cache", "--dim", "8", "--positions", "2", "--seq-len", "9"],
      ...["--scaling", JSON.stringify({ ...LONGROPE, seq_len: 9 })],
    ),
    /options --seq-len and --scaling key "seq_len" both give the sequence length; give one/,
  );
});

test("a rule about two options names both flags, from its code", async () => {
  refused(
    await run(
      ...["table", "--schedule", "timescale", "--dim", "8", "--positions", "2"],
      ...["--min-timescale", "0", "--max-timescale", "1"],
    ),
    /^sinusoidal-pe: table: options --min-timescale and --max-timescale must be finite numbers > 0/,
  );
});

test("what transformers only logs is a warning on standard error, and the cache is written", async () => {
  // Yarn-Mistral's rope_scaling carries "finetuned", which no rope type
  // takes: transformers logs it and computes.
  const config = join(dir, "yarn-finetuned.json");
  writeFileSync(
    config,
    JSON.stringify({
      model_type: "mistral",
      head_dim: 8,
      rope_theta: 10000,
      max_position_embeddings: 32768,
      rope_scaling: {
        type: "yarn",
        factor: 4,
        original_max_position_embeddings: 8192,
        finetuned: true,
      },
    }),
  );
  const result = await run(
    ...["rope-cache", "--config", config, "--positions", "1"],
    ...["--format", "csv"],
  );
  assert.equal(result.status, 0, result.stderr);
  assert.match(
    result.stderr,
    /^sinusoidal-pe: warning: config field "rope_scaling\.finetuned" /,
  );
  assert.equal(result.stderr.split("\n").length, 2, "one warning, once");
  // Row 0: cos 0 = 1 times yarn's attention factor 0.1 · ln 4 + 1.
  const attention = 0.1 * Math.log(4) + 1;
  for (const v of result.stdout.trim().split("\n")[0].split(",").map(Number))
    assert.ok(Math.abs(v - attention) < 1e-6, `${v}`);
});

test("a refusal about a --config value names the config, not a flag the user did not give", async () => {
  const config = join(dir, "odd-head.json");
  writeFileSync(config, JSON.stringify({ head_dim: 7, rope_theta: 10000 }));
  const result = await run(
    "rope-cache",
    "--config",
    config,
    "--positions",
    "2",
  );
  refused(result, /head_dim/);
  assert.doesNotMatch(result.stderr, /--dim\b/);
});

test("a usage error is a refusal with one of the library's codes; any other error is not the flags' fault", () => {
  const refusal = (call) => {
    try {
      call();
    } catch (error) {
      return error;
    }
  };
  assert.ok(isLibraryRefusal(refusal(() => api.table({ dim: 0 }))));
  assert.ok(isLibraryRefusal(refusal(() => api.ropeCache({ dim: "8" }))));
  assert.ok(!isLibraryRefusal(new TypeError("x is not a function")));
  const foreign = Object.assign(new TypeError("bad argument"), {
    code: "ERR_INVALID_ARG_TYPE",
  });
  assert.ok(!isLibraryRefusal(foreign));
  const plain = Object.assign(new Error("after dispose()"), {
    code: "ERR_DISPOSED",
  });
  assert.ok(!isLibraryRefusal(plain), "no plan is the flags' to dispose");
});

// describe() on errors as the library raises them: option, code, function.
function libraryError(Class, message, option, code, fn) {
  return Object.assign(new Class(`sinusoidal-pe: ${fn}: ${message}`), {
    option,
    code,
    function: fn,
  });
}

test("messages map error.option to the flag typed, or to the --config it came from", () => {
  const names = new Names();
  for (const flag of ["odd-dim", "positions", "scaling", "layer-type"])
    names.flag(
      flag.replace(/-(\w)/g, (_, c) => c.toUpperCase()),
      flag,
    );
  names.flag("scaling.seqLen", "seq-len");
  names.scaling.set("lowFreqFactor", "low_freq_factor");
  names.snakeScaling = true;
  const cases = [
    [
      libraryError(
        TypeError,
        'option "oddDim" must be one of "error", got "x"',
        "oddDim",
        "ERR_NOT_ONE_OF",
        "table",
      ),
      'sinusoidal-pe: table: option --odd-dim must be one of "error", got "x"',
    ],
    [
      libraryError(
        RangeError,
        'option "scaling.lowFreqFactor" must be > 0, got 0',
        "scaling.lowFreqFactor",
        "ERR_ROPE_FREQ_FACTOR",
        "table",
      ),
      'sinusoidal-pe: table: option --scaling key "low_freq_factor" must be > 0, got 0',
    ],
    [
      libraryError(
        RangeError,
        'option "scaling.seqLen" must be an integer, got 1.5',
        "scaling.seqLen",
        "ERR_ROPE_SEQ_LEN",
        "ropeCache",
      ),
      "sinusoidal-pe: ropeCache: option --seq-len must be an integer, got 1.5",
    ],
    [
      libraryError(
        TypeError,
        'unknown option "beta" for option "scaling"',
        "scaling.beta",
        "ERR_UNKNOWN_OPTION",
        "table",
      ),
      'sinusoidal-pe: option --scaling has the key "beta", which is no rope_scaling parameter',
    ],
  ];
  for (const [error, want] of cases) assert.equal(describe(error, names), want);

  // With --config: its fields and the options read from it.
  names.config = "c.json";
  names.fromConfig = new Set(["dim", "rotaryDim", "base"]);
  const configCases = [
    [
      libraryError(
        TypeError,
        'config field "rope_parameters" is per layer type (full_attention, sliding_attention): pass { layerType }',
        "layerType",
        "ERR_REQUIRED",
        "fromConfig",
      ),
      /^sinusoidal-pe: option --config c\.json holds RoPE parameters per layer type: give --layer-type/,
    ],
    [
      libraryError(
        RangeError,
        'config field "rope_scaling.factor" must be > 0, got 0',
        "rope_scaling.factor",
        "ERR_ROPE_FACTOR",
        "fromConfig",
      ),
      /^sinusoidal-pe: fromConfig: config field "rope_scaling\.factor" of --config c\.json must be > 0, got 0$/,
    ],
    [
      libraryError(
        RangeError,
        'option "rotaryDim" must be even, got 7',
        "rotaryDim",
        "ERR_ROTARY_DIM",
        "ropeCache",
      ),
      /^sinusoidal-pe: ropeCache: option "rotaryDim" of --config c\.json must be even, got 7$/,
    ],
    [
      libraryError(
        RangeError,
        'option "layerType" is "b", which "layer_types" does not list',
        "layerType",
        "ERR_NOT_ONE_OF",
        "fromConfig",
      ),
      /^sinusoidal-pe: fromConfig: option --layer-type is "b"/,
    ],
  ];
  for (const [error, want] of configCases) {
    const text = describe(error, names);
    assert.match(text, want);
    assert.doesNotMatch(text, /\{ layerType \}|--dim\b|--rotary-dim/);
  }
});
