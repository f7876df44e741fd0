#!/usr/bin/env node
// `npx sinusoidal-pe`: tables, RoPE caches, decay integrals and relation
// checks from the command line, written as .npy, raw float32, CSV or JSON.
// Every option is checked by the library itself (on small probes that
// compute nothing large) before any file is opened; tables are then
// generated and written in row blocks, so their size is bounded by the disk,
// not by memory. A file is written beside its target and renamed into place
// once complete: an error or a signal never leaves a partial file under the
// target's name.
import {
  createWriteStream,
  openSync,
  readFileSync,
  renameSync,
  unlinkSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { version } from "../package.json";
import {
  decayIntegral,
  fromConfig,
  init,
  linearRelationError,
  ropeCache,
  table,
  toeplitzError,
} from "./slim-node.js";
import { encodeRows } from "./csv.js";
import {
  DESCRIPTORS,
  float16ToFloat32,
  fromNpy,
  littleEndianBytes,
  npyHeader,
} from "./npy.js";
import { blockRows } from "./out.js";
import { presets, resolvePreset } from "./presets.js";
import { kindOf, lengthOf } from "./typed-arrays.js";

const kebab = (name) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
const camel = (name) => name.replace(/-(\w)/g, (_, c) => c.toUpperCase());

// Every parameter of every preset is a flag: --max-period for maxPeriod.
// Boolean parameters are switches; the rest take a number.
const PRESET_FLAGS = new Map();
for (const [name, preset] of Object.entries(presets))
  for (const [key, initial] of Object.entries(preset.parameters)) {
    const flag = kebab(key);
    const entry = PRESET_FLAGS.get(flag) ?? {
      key,
      switch: typeof initial === "boolean",
      presets: [],
    };
    entry.presets.push(`${name} ${initial}`);
    PRESET_FLAGS.set(flag, entry);
  }

const OPTIONS = {
  positions: { type: "string" },
  "positions-file": { type: "string" },
  start: { type: "string" },
  dim: { type: "string" },
  preset: { type: "string" },
  schedule: { type: "string" },
  base: { type: "string" },
  "min-timescale": { type: "string" },
  "max-timescale": { type: "string" },
  shift: { type: "string" },
  scale: { type: "string" },
  "output-scale": { type: "string" },
  "odd-dim": { type: "string" },
  layout: { type: "string" },
  dtype: { type: "string" },
  scaling: { type: "string" },
  "rotary-dim": { type: "string" },
  "mrope-section": { type: "string" },
  "mrope-interleaved": { type: "boolean" },
  config: { type: "string" },
  "layer-type": { type: "string" },
  offsets: { type: "string" },
  theta: { type: "string" },
  alpha: { type: "string" },
  from: { type: "string" },
  to: { type: "string" },
  count: { type: "string" },
  method: { type: "string" },
  format: { type: "string" },
  output: { type: "string", short: "o" },
  "block-rows": { type: "string" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean" },
};
// Flags that are table options and preset parameters alike (--scale).
const SHARED_FLAGS = new Set(
  [...PRESET_FLAGS.keys()].filter((flag) => Object.hasOwn(OPTIONS, flag)),
);
for (const [flag, entry] of PRESET_FLAGS)
  OPTIONS[flag] ??= { type: entry.switch ? "boolean" : "string" };

// "  --flag X           preset default, …", wrapped at 78 columns under
// the description column, as the rest of the help.
const presetHelp = [...PRESET_FLAGS]
  .map(([flag, entry]) => {
    const words = entry.presets.join(", ").split(" ");
    const lines = [`  --${flag}${entry.switch ? "" : " X"}`.padEnd(23)];
    if (lines[0].length > 23) lines.push(" ".repeat(23));
    for (const word of words) {
      const line = lines.at(-1);
      if (line.length > 23 && line.length + word.length >= 78)
        lines.push(" ".repeat(23) + word);
      else
        lines[lines.length - 1] = (line.length > 23 ? line + " " : line) + word;
    }
    return lines.join("\n");
  })
  .join("\n");

const HELP = `Usage: sinusoidal-pe <command> [options]

Commands
  table       the encoding table, row-major [positions, dim]
  rope-cache  RoPE cos and sin caches, [2, positions, width]: cos, then sin
  decay       the decay integral f(x) = ∫₀¹ cos(x·θ(t)) dt over a grid of x
  check       the linear-relation and Toeplitz errors for the table options

Positions (table, rope-cache, check)
  --positions N        a count of rows: positions start … start + N − 1
  --positions P,P,…    explicit positions, comma-separated ("5," for one)
  --positions-file F   explicit positions: a 1-D .npy, or text with one
                       number per line (rope-cache: or three, M-RoPE's
                       t h w, with an M-RoPE section)
  --start P            first position of a count (default 0; not with
                       --preset, whose own parameters set it)

Table options (table, check)
  --dim D              columns, 1 … 1048576 (required)
  --preset NAME        paper, tensor2tensor, fairseq, whisper, diffusers,
                       guided-diffusion, marian or mlx
  --schedule NAME      paper (default), timescale or shifted
  --base B             paper and shifted schedules (default 10000)
  --min-timescale T    timescale schedule (default 1)
  --max-timescale T    timescale schedule (default 10000)
  --shift S            shifted schedule (default 1)
  --scale S            multiplies every angle (default 1)
  --output-scale S     multiplies every value (default 1)
  --odd-dim RULE       extra-sin (default), zero-pad or error
  --layout NAME        interleaved (default), interleaved-cos-first, halves
                       or halves-cos-first
  --dtype TYPE         float32 (default) or float64
  --scaling JSON       a RoPE context extension of the paper schedule: a
                       model's rope_scaling as in its config.json (snake_case
                       keys and rope_type are accepted) or in camelCase
  --offsets K,K,…      check: offsets k of PE(p + k) = R(k)·PE(p)
                       (default 1,-1,100)

Preset parameters (with --preset; each preset's default; a switch sets true)
${presetHelp}

RoPE cache options (rope-cache)
  --config FILE        a model's config.json (transformers v4 or v5): its
                       head dim, rotary dim, rope_theta and scaling, in place
                       of --dim, --rotary-dim, --base and --scaling
  --layer-type NAME    with --config: the layer type whose RoPE to write
                       (rope_parameters per layer type, e.g. full_attention)
  --dim D              the head dim, even, 2 … 1048576 (required without
                       --config)
  --rotary-dim R       the rotated part of the head (default --dim)
  --mrope-section S,S,S
                       M-RoPE: the pairs of the t, h and w streams
                       (Qwen2-VL's mrope_section, summing to rotary dim / 2)
  --mrope-interleaved  M-RoPE pairs interleaved as Qwen3-VL's, not chunked
  --base B             rope_theta (default 10000)
  --scaling JSON       rope_scaling, as above
  --layout NAME        half (default): [n, dim/2]; duplicated: [n, dim],
                       cat(freqs, freqs); interleaved: [n, dim]
  --dtype TYPE         float32 (default), float64 or float16 (bits in .npy,
                       float32 values in the other formats)

Decay options
  --theta FAMILY       exp (default): base^(−t), power: t^alpha, linear: t
  --base B             exp family (default 10000)
  --alpha A            power family (required with --theta power)
  --from X --to X --count N
                       the grid of x (evenly spaced, both ends included;
                       all three required)
  --method NAME        closed-form (default) or quadrature

Output
  --format FORMAT      npy (default): a NumPy file; f32: raw little-endian
                       float32; csv: one row per line; json: an array of rows
                       (check: text, or json)
  -o, --output FILE    write to FILE instead of standard output; FILE is
                       replaced only once complete
  --block-rows N       rows generated per block (default: about 16 MiB)
  -h, --help           this help
  --version            the version of sinusoidal-pe

Decay output has two columns, x and f(x), in float64 (float32 for f32).
A progress bar is drawn on standard error when it is a terminal.

Examples
  npx sinusoidal-pe table --positions 512 --dim 768 -o pe.npy
  npx sinusoidal-pe table --preset whisper --positions 1500 --dim 512 --format csv
  npx sinusoidal-pe table --preset diffusers --flip-sin-to-cos \\
    --downscale-freq-shift 0 --positions 0,250,999 --dim 320 -o t.npy
  npx sinusoidal-pe rope-cache --positions 4096 --dim 128 --base 500000 \\
    --layout duplicated --dtype float16 -o rope.npy
  npx sinusoidal-pe decay --from 0 --to 1000 --count 1001 --format json
  npx sinusoidal-pe check --positions 1000 --dim 512 --offsets 1,-7.5,4096
  npx sinusoidal-pe table --positions 131072 --dim 128 --base 500000 \\
    --layout halves-cos-first --scaling '{"rope_type": "llama3", "factor": 8,
    "low_freq_factor": 1, "high_freq_factor": 4,
    "original_max_position_embeddings": 8192}' -o llama31.npy
`;

const TABLE_KEYS = [
  "positions",
  "positions-file",
  "start",
  "dim",
  "preset",
  "schedule",
  "base",
  "min-timescale",
  "max-timescale",
  "shift",
  "scale",
  "output-scale",
  "odd-dim",
  "layout",
  "dtype",
  "scaling",
  ...[...PRESET_FLAGS.keys()].filter((flag) => !SHARED_FLAGS.has(flag)),
];
const ROPE_KEYS = [
  "positions",
  "positions-file",
  "start",
  "dim",
  "rotary-dim",
  "base",
  "scaling",
  "mrope-section",
  "mrope-interleaved",
  "layout",
  "dtype",
];
// What a model's config.json gives rope-cache, through fromConfig.
const CONFIG_KEYS = ["config", "layer-type"];
const FROM_CONFIG = [
  ...["dim", "rotary-dim", "base", "scaling"],
  ...["mrope-section", "mrope-interleaved"],
];
const DECAY_KEYS = ["theta", "base", "alpha", "method"];
const OUTPUT_KEYS = ["format", "output", "block-rows"];
const COMMAND_KEYS = {
  table: [...TABLE_KEYS, ...OUTPUT_KEYS],
  "rope-cache": [...ROPE_KEYS, ...CONFIG_KEYS, ...OUTPUT_KEYS],
  decay: [...DECAY_KEYS, "from", "to", "count", ...OUTPUT_KEYS],
  check: [...TABLE_KEYS, "offsets", "format", "output"],
};
const REQUIRED = {
  table: ["dim"],
  "rope-cache": ["dim"],
  decay: ["from", "to", "count"],
  check: ["dim"],
};
// Options whose values are names, passed on as text.
const NAMED_OPTIONS = [
  "preset",
  "schedule",
  "odd-dim",
  "layout",
  "dtype",
  "theta",
  "method",
];
const FORMATS = ["npy", "f32", "csv", "json"];
const BLOCK_BYTES = 2 ** 24;
const TEXT_BLOCK_VALUES = 2 ** 18;

class UsageError extends Error {}
const usage = (message) => new UsageError(`sinusoidal-pe: ${message}`);

// Numbers stay numbers; anything else reaches the library as text, so its
// message names the option and the allowed range.
function value(text) {
  if (text === undefined) return undefined;
  const number = Number(text);
  return text.trim() !== "" && !Number.isNaN(number) ? number : text;
}

// The library's names of options, mapped to what the user typed, so that
// every message names the flag: "oddDim" → --odd-dim, "scaling.factor" →
// the key of --scaling's JSON.
class Names {
  constructor() {
    this.flags = new Map();
    this.scaling = new Map();
    this.snakeScaling = false;
  }
  flag(key, flag) {
    this.flags.set(key, `--${flag}`);
  }
  scalingKey(libraryKey) {
    const written = this.scaling.get(libraryKey);
    if (written !== undefined) return written;
    return this.snakeScaling
      ? libraryKey.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)
      : libraryKey;
  }
  // Rewrites the quoted option names of a library message, up to the value
  // it shows ("got …"), which is the user's own text.
  translate(message) {
    const cut = message.search(/\bgot\b/);
    const head = cut < 0 ? message : message.slice(0, cut);
    const named = head.replace(/"([\w.]+)"/g, (quoted, key) => {
      if (this.flags.has(key)) return this.flags.get(key);
      if (key.startsWith("scaling."))
        return `--scaling key ${JSON.stringify(this.scalingKey(key.slice(8)))}`;
      if (this.scaling.has(key) && /"scaling"/.test(head))
        return JSON.stringify(this.scaling.get(key));
      return quoted;
    });
    return named + (cut < 0 ? "" : message.slice(cut));
  }
}

// --scaling: a JSON object, as a config.json's rope_scaling (snake_case,
// rope_type) or as the library takes it; the library checks its contents.
// Only snake_case keys are renamed: any other key, "__proto__" too, reaches
// the library as written, an own property, and is refused by its name.
function scalingOption(text, names) {
  let parsed;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw usage(
      `option --scaling must be a JSON object such as '{"type": "linear", "factor": 4}': ${error.message}`,
    );
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed))
    throw usage(`option --scaling must be a JSON object, got ${text}`);
  const scaling = {};
  for (const [key, v] of Object.entries(parsed)) {
    const snake = /^[a-z][a-z0-9]*(_[a-z0-9]+)+$/.test(key);
    if (snake || key === "rope_type") names.snakeScaling = true;
    const libraryKey =
      key === "rope_type"
        ? "type"
        : snake
          ? key.replace(/_(\w)/g, (_, c) => c.toUpperCase())
          : key;
    if (Object.hasOwn(scaling, libraryKey))
      throw usage(
        `option --scaling names ${JSON.stringify(libraryKey)} twice (as ${JSON.stringify(names.scaling.get(libraryKey))} and ${JSON.stringify(key)})`,
      );
    names.scaling.set(libraryKey, key);
    Object.defineProperty(scaling, libraryKey, {
      value: v,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return scaling;
}

// A comma-separated list of numbers, each finite; a trailing comma makes a
// single number a list ("5,").
function numberList(text, flag) {
  const entries = text.split(",");
  if (entries.length > 1 && entries.at(-1).trim() === "") entries.pop();
  return entries.map((entry, i) => {
    const number = value(entry.trim());
    if (typeof number !== "number")
      throw usage(
        `option --${flag} entry ${i + 1} must be a number, got ${JSON.stringify(entry)}`,
      );
    if (!Number.isFinite(number))
      throw usage(
        `option --${flag} entry ${i + 1} must be finite, got ${entry.trim()}`,
      );
    return number;
  });
}

// Explicit positions from --positions-file: a 1-D .npy or one number a
// line, or M-RoPE's three streams as three numbers a line (t h w).
function positionsFile(path) {
  const bytes = readFileSync(path);
  if (bytes[0] === 0x93) {
    const values = fromNpy(bytes, `option --positions-file ${path}`);
    values.forEach((v, i) => {
      if (!Number.isFinite(v))
        throw usage(
          `option --positions-file ${path}: value ${i} must be finite, got ${v}`,
        );
    });
    return values;
  }
  const lines = bytes.toString("utf8").split(/\r?\n/);
  if (lines.at(-1).trim() === "") lines.pop();
  const fields = lines.map((line) => line.trim().split(/[\s,]+/));
  const columns = fields.length > 0 && fields[0].length === 3 ? 3 : 1;
  const what =
    columns === 3 ? "three finite numbers (t h w)" : "a finite number";
  const read = (entries, i) => {
    const numbers = entries.map(value);
    if (
      entries.length !== columns ||
      numbers.some((n) => typeof n !== "number" || !Number.isFinite(n))
    )
      throw usage(
        `option --positions-file ${path}: line ${i + 1} must be ${what}, got ${JSON.stringify(lines[i])}`,
      );
    return numbers;
  };
  const rows = fields.map(read);
  if (columns === 1) return Float64Array.from(rows, ([p]) => p);
  const stream = (k) => Float64Array.from(rows, (row) => row[k]);
  return { t: stream(0), h: stream(1), w: stream(2) };
}

// The positions: a count (a number, or text the library refuses) or a list.
function positionsOption(values, names) {
  if (values.positions !== undefined && values["positions-file"] !== undefined)
    throw usage("options --positions and --positions-file exclude each other");
  if (values["positions-file"] !== undefined) {
    names.flag("positions", "positions-file");
    const list = positionsFile(values["positions-file"]);
    if (list.t === undefined) return { list };
    if (values["mrope-section"] === undefined && values.config === undefined)
      throw usage(
        `option --positions-file ${values["positions-file"]} holds three positions a line (M-RoPE's t h w): they apply to rope-cache with --mrope-section or a --config that has one`,
      );
    return { streams: list };
  }
  if (values.positions === undefined)
    throw usage("--positions is required (a count, or P,P,… positions)");
  names.flag("positions", "positions");
  if (values.positions.includes(","))
    return {
      list: Float64Array.from(numberList(values.positions, "positions")),
    };
  return { count: value(values.positions) };
}

// The library options of the flags in `keys` (positions aside).
function libraryOptions(values, keys, names) {
  const options = {};
  for (const key of keys) {
    if (key === "positions" || key === "positions-file") continue;
    if (values[key] === undefined) continue;
    const name = camel(key);
    names.flag(name, key);
    const text = values[key];
    options[name] =
      key === "scaling"
        ? scalingOption(text, names)
        : key === "mrope-section"
          ? numberList(text, key)
          : typeof text === "boolean" || NAMED_OPTIONS.includes(key)
            ? text
            : value(text);
  }
  return options;
}

function parse(argv) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: OPTIONS,
      allowPositionals: true,
      tokens: true,
    });
  } catch (error) {
    throw usage(error.message);
  }
  const { values, positionals, tokens } = parsed;
  const seen = new Set();
  for (const token of tokens)
    if (token.kind === "option") {
      if (seen.has(token.name))
        throw usage(
          `option --${token.name} is given more than once; give it once`,
        );
      seen.add(token.name);
    }
  if (values.version) return { version: true };
  if (values.help || positionals.length === 0) return { help: true };
  const [command, ...rest] = positionals;
  if (!Object.hasOwn(COMMAND_KEYS, command))
    throw usage(
      `unknown command "${command}"; commands: ${Object.keys(COMMAND_KEYS).join(", ")}`,
    );
  if (rest.length > 0) throw usage(`unexpected argument "${rest[0]}"`);
  for (const key of Object.keys(values)) {
    if (COMMAND_KEYS[command].includes(key)) continue;
    const preset = PRESET_FLAGS.get(key);
    throw usage(
      preset && command === "rope-cache"
        ? `option --${key} is a preset parameter, which does not apply to "${command}"`
        : `option --${key} does not apply to "${command}"`,
    );
  }
  if (values.config !== undefined) {
    for (const key of FROM_CONFIG)
      if (values[key] !== undefined)
        throw usage(
          `option --${key} comes from --config; give one or the other`,
        );
  } else if (values["layer-type"] !== undefined)
    throw usage("option --layer-type applies with --config");
  for (const key of REQUIRED[command])
    if (values[key] === undefined && values.config === undefined)
      throw usage(`--${key} is required`);
  if (values.preset === undefined)
    for (const key of Object.keys(values)) {
      const preset = PRESET_FLAGS.get(key);
      if (preset !== undefined && !SHARED_FLAGS.has(key))
        throw usage(
          `option --${key} is a parameter of preset ${preset.presets.map((p) => p.split(" ")[0]).join(", ")}: give --preset`,
        );
    }
  const format = values.format ?? (command === "check" ? "text" : "npy");
  const allowed = command === "check" ? ["text", "json"] : FORMATS;
  if (!allowed.includes(format))
    throw usage(
      `option --format must be one of ${allowed.join(", ")}, got "${format}"`,
    );
  let blockRows;
  if (values["block-rows"] !== undefined) {
    blockRows = Number(values["block-rows"]);
    if (!Number.isSafeInteger(blockRows) || blockRows < 1)
      throw usage(
        `option --block-rows must be a positive integer, got "${values["block-rows"]}"`,
      );
  }
  return { command, values, format, output: values.output, blockRows };
}

// Files being written, removed if the process is interrupted, and whether
// standard output has had part of a result.
const partialFiles = new Set();
let partialStdout = false;

// A writable that resolves each write once its data is handed on, so memory
// holds one block at a time. A file is written to a temporary name beside
// its target and renamed into place by `close`; `abort` removes it.
function sink(path) {
  let stream = process.stdout;
  let temporary = null;
  if (path !== undefined) {
    temporary = join(
      dirname(path),
      `.${basename(path)}.${process.pid}.partial`,
    );
    const fd = openSync(temporary, "wx");
    partialFiles.add(temporary);
    stream = createWriteStream(temporary, { fd });
  }
  let failure = null;
  const onError = (error) => {
    failure ??= error;
  };
  stream.on("error", onError);
  // One 'drain' (or 'error') listener per blocked write, removed when either
  // fires: listeners never accumulate, however long the reader stalls.
  const drained = () =>
    new Promise((resolve) => {
      const done = () => {
        stream.off("drain", done);
        stream.off("error", done);
        resolve();
      };
      stream.on("drain", done);
      stream.on("error", done);
    });
  return {
    async write(chunk) {
      if (failure) throw failure;
      if (temporary === null) partialStdout = true;
      if (!stream.write(chunk)) await drained();
      if (failure) throw failure;
    },
    async close() {
      if (temporary === null) {
        partialStdout = false;
        stream.off("error", onError);
        return;
      }
      await new Promise((resolve) => stream.end(resolve));
      if (failure) throw failure;
      renameSync(temporary, path);
      partialFiles.delete(temporary);
    },
    abort() {
      if (temporary === null) return;
      stream.destroy();
      removePartial(temporary);
    },
  };
}

function removePartial(path) {
  try {
    unlinkSync(path);
  } catch {
    // Already gone.
  }
  partialFiles.delete(path);
}

// Runs `write(out)` on the output, which stays untouched if it fails.
async function withOutput(path, write) {
  const out = sink(path);
  try {
    await write(out);
    await out.close();
  } catch (error) {
    out.abort();
    throw error;
  }
}

function progress(total) {
  if (!process.stderr.isTTY) return { update() {}, done() {} };
  const started = Date.now();
  let shown = false;
  return {
    update(done) {
      if (!shown && Date.now() - started < 500) return;
      shown = true;
      const width = 30;
      const filled = Math.round((done / total) * width);
      process.stderr.write(
        `\r[${"#".repeat(filled)}${".".repeat(width - filled)}] ${Math.floor((100 * done) / total)}% ${done}/${total} rows`,
      );
    },
    done() {
      if (shown) process.stderr.write("\n");
    },
  };
}

// Writes `parts` (one for a table; cos and sin for a cache), each `rows` ×
// `columns` values produced block by block by `rowsAt(first, count)`, in the
// chosen format: npy and f32 as [parts…, rows, columns], csv as the rows of
// each part in turn, json as nested arrays.
async function writeRows(out, format, { kind, rows, columns, parts, block }) {
  const nested = parts.length > 1;
  const bar = progress(rows * parts.length);
  if (format === "npy")
    await out.write(
      npyHeader(
        DESCRIPTORS[kind],
        nested ? [parts.length, rows, columns] : [rows, columns],
      ),
    );
  if (format === "json") await out.write(nested ? "[[" : "[");
  for (const [part, rowsAt] of parts.entries()) {
    if (format === "json" && part > 0) await out.write("],\n[");
    for (let first = 0; first < rows; first += block) {
      const count = Math.min(block, rows - first);
      let values = rowsAt(first, count);
      // float16 is written as bits in .npy, else as its float32 values.
      if (kind === "Uint16Array" && format !== "npy")
        values = float16ToFloat32(values);
      else if (format === "f32" && kind !== "Float32Array")
        values = Float32Array.from(values);
      if (format === "npy" || format === "f32")
        await out.write(littleEndianBytes(values));
      else
        await out.write(
          encodeRows(values, columns, {
            json: format === "json",
            continued: first > 0,
          }),
        );
      bar.update(part * rows + first + count);
    }
  }
  if (format === "json") await out.write(nested ? "]]\n" : "]\n");
  bar.done();
}

// Rows per block: the library's own block rule (whole re-seed periods, so
// blocks of integer positions give the values of one call) at about 16 MiB,
// or 2^18 values of text.
function blockRowsFor(format, rows, rowBytes, bytesPerValue, asked) {
  if (asked !== undefined) return asked;
  const budget =
    format === "csv" || format === "json"
      ? TEXT_BLOCK_VALUES * bytesPerValue
      : BLOCK_BYTES;
  return Math.max(1, blockRows(rows, rowBytes, budget));
}

// The library's checks of a count of rows, run without computing them: the
// probe's `out` fits no result, and the library refuses it only after every
// check of the count (or refuses a result too large for one call, which
// blocks never are). Every other refusal is the user's.
const PROBE_OUT = new Int8Array(0);
function checkCount(compute, options, out = PROBE_OUT) {
  try {
    compute({ ...options, out });
  } catch (error) {
    const probe =
      /option "out/.test(error?.message) ||
      /address space/.test(error?.message);
    if (!probe) throw error;
  }
}

// The position of largest magnitude: the one whose angles are largest.
function extreme(list) {
  let worst = list[0];
  for (const p of list) if (Math.abs(p) > Math.abs(worst)) worst = p;
  return worst;
}

// f32 holds float32 values: float16 ones exactly, float64 ones not.
function formatCheck(format, kind) {
  if (format === "f32" && kind === "Float64Array")
    throw usage(
      `--format f32 writes float32 values; use --dtype float32 or --format npy`,
    );
}

// A table's rows: a count from `start` (or from a preset's own first
// position), or explicit positions. Presets take no `start`: their blocks
// are explicit positions, with the preset's first position and padding row
// (from the library's own resolution of the preset) moved into them.
function tableRows(options, positions) {
  if (positions.list !== undefined) {
    const { list } = positions;
    const probe = list.length > 0 ? [extreme(list)] : [];
    table({ ...options, positions: probe });
    return {
      rows: list.length,
      rowsAt: (row, count) =>
        table({ ...options, positions: list.subarray(row, row + count) }),
    };
  }
  const rows = positions.count;
  if (options.preset === undefined) {
    table({ ...options, positions: 1 });
    checkCount(table, { ...options, positions: rows });
    const start = options.start ?? 0;
    if (rows > 1) table({ ...options, positions: 1, start: start + rows - 1 });
    return {
      rows,
      rowsAt: (row, count) =>
        table({ ...options, positions: count, start: start + row }),
    };
  }
  checkCount(table, { ...options, positions: rows });
  const { preset, dim, dtype, ...parameters } = options;
  const { start, padding } = resolvePreset(preset, parameters, dim);
  const own = { ...options };
  let first = 0;
  if (start !== null) {
    delete own[start.key];
    first = start.value;
  }
  if (padding !== null)
    own.paddingIdx = first + (padding < 0 ? rows + padding : padding);
  const at = (row, count) => {
    const list = new Float64Array(count);
    for (let i = 0; i < count; i++) list[i] = first + row + i;
    return list;
  };
  if (rows > 0) table({ ...own, positions: at(rows - 1, 1) });
  return {
    rows,
    rowsAt: (row, count) =>
      count === rows
        ? table({ ...options, positions: rows })
        : table({ ...own, positions: at(row, count) }),
  };
}

async function tableCommand({ values, format, output, blockRows }, names) {
  const options = libraryOptions(values, TABLE_KEYS, names);
  const positions = positionsOption(values, names);
  const kind = options.dtype === "float64" ? "Float64Array" : "Float32Array";
  formatCheck(format, kind);
  const { rows, rowsAt } = tableRows(options, positions);
  const dim = options.dim;
  const size = kind === "Float64Array" ? 8 : 4;
  const block = blockRowsFor(format, rows, dim * size, size, blockRows);
  await withOutput(output, (out) =>
    writeRows(out, format, {
      kind,
      rows,
      columns: dim,
      parts: [rowsAt],
      block,
    }),
  );
}

// The RoPE options of a config.json, read by the library's fromConfig; its
// messages name the config's fields.
function configOptions(values) {
  const path = values.config;
  let config;
  try {
    config = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw usage(`option --config ${path}: ${error.message}`);
  }
  const layerType = values["layer-type"];
  return fromConfig(config, layerType === undefined ? {} : { layerType });
}

async function ropeCacheCommand({ values, format, output, blockRows }, names) {
  const options = {
    ...(values.config === undefined ? {} : configOptions(values)),
    ...libraryOptions(values, ROPE_KEYS, names),
  };
  const positions = positionsOption(values, names);
  const cache = (at) => ropeCache({ ...options, ...at });
  let rows, piece, rowsAt;
  if (positions.streams !== undefined) {
    // M-RoPE: the t, h and w of each row; the first call checks the
    // largest of each stream.
    const { streams } = positions;
    const slice = (from, to) => ({
      positions: Object.fromEntries(
        Object.entries(streams).map(([k, list]) => [
          k,
          list.subarray(from, to),
        ]),
      ),
    });
    rows = streams.t.length;
    piece = cache({
      positions: Object.fromEntries(
        Object.entries(streams).map(([k, list]) => [
          k,
          rows > 0 ? [extreme(list)] : [],
        ]),
      ),
    });
    rowsAt = (row, count) => cache(slice(row, row + count));
  } else if (positions.list !== undefined) {
    const { list } = positions;
    rows = list.length;
    piece = cache({ positions: rows > 0 ? [extreme(list)] : [] });
    rowsAt = (row, count) =>
      cache({ positions: list.subarray(row, row + count) });
  } else {
    rows = positions.count;
    piece = cache({ positions: 1 });
    checkCount(ropeCache, { ...options, positions: rows }, {});
    const start = options.start ?? 0;
    if (rows > 1) cache({ positions: 1, start: start + rows - 1 });
    rowsAt = (row, count) => cache({ positions: count, start: start + row });
  }
  const kind = kindOf(piece.cos);
  formatCheck(format, kind);
  const width =
    rows > 0 ? lengthOf(piece.cos) : lengthOf(cache({ positions: 1 }).cos);
  const size = { Float32Array: 4, Float64Array: 8, Uint16Array: 2 }[kind];
  const block = blockRowsFor(format, rows, 2 * width * size, size, blockRows);
  await withOutput(output, (out) =>
    writeRows(out, format, {
      kind,
      rows,
      columns: width,
      parts: [
        (row, count) => rowsAt(row, count).cos,
        (row, count) => rowsAt(row, count).sin,
      ],
      block,
    }),
  );
}

async function decayCommand({ values, format, output, blockRows }, names) {
  const options = libraryOptions(values, DECAY_KEYS, names);
  for (const end of ["from", "to", "count"]) names.flag(`x.${end}`, end);
  const x = {
    from: value(values.from),
    to: value(values.to),
    count: value(values.count),
  };
  // The whole grid through the library's checks (count, ends, the
  // quadrature's range), then the family at both ends.
  checkCount(decayIntegral, { ...options, x });
  for (const end of [x.from, x.to])
    decayIntegral({ ...options, x: { from: end, to: end, count: 1 } });
  const step = x.count === 1 ? 0 : (x.to - x.from) / (x.count - 1);
  const block = blockRowsFor(format, x.count, 16, 8, blockRows);
  const rowsAt = (row, count) => {
    const points = new Float64Array(count);
    for (let j = 0; j < count; j++) points[j] = x.from + (row + j) * step;
    const result = decayIntegral({ ...options, x: points });
    const f = kindOf(result) === "Float64Array" ? result : result.values;
    const pairs = new Float64Array(2 * count);
    for (let j = 0; j < count; j++) {
      pairs[2 * j] = points[j];
      pairs[2 * j + 1] = f[j];
    }
    return pairs;
  };
  await withOutput(output, (out) =>
    writeRows(out, format, {
      kind: "Float64Array",
      rows: x.count,
      columns: 2,
      parts: [rowsAt],
      block,
    }),
  );
}

async function checkCommand({ values, format, output }, names) {
  const options = libraryOptions(values, TABLE_KEYS, names);
  const positions = positionsOption(values, names);
  options.positions = positions.list ?? positions.count;
  const offsets =
    values.offsets === undefined
      ? [1, -1, 100]
      : numberList(values.offsets, "offsets");
  names.flag("offsets", "offsets");
  // Both checks refuse their options before they compute: the cheaper
  // probes first, so a refusal never waits for the other's work.
  const first =
    positions.list === undefined
      ? { positions: 1 }
      : { positions: [extreme(positions.list)] };
  linearRelationError({ ...options, ...first, offsets });
  toeplitzError({ ...options, ...first });
  const toeplitz = toeplitzError(options);
  const relation = linearRelationError({ ...options, offsets });
  const text =
    format === "json"
      ? JSON.stringify({ linearRelation: relation, toeplitz }, null, 2) + "\n"
      : `linear relation: max |R(k)·PE(p) − PE(p+k)| = ${relation.maxAbsError.toExponential(2)} ` +
        `at p = ${relation.position}, k = ${relation.offset}, column ${relation.index}\n` +
        `Toeplitz: max |⟨PE(m), PE(n)⟩ − g(m − n)| = ${toeplitz.maxAbsError.toExponential(2)} ` +
        `at m = ${toeplitz.m}, n = ${toeplitz.n}\n`;
  await withOutput(output, (out) => out.write(text));
}

const COMMANDS = {
  table: tableCommand,
  "rope-cache": ropeCacheCommand,
  decay: decayCommand,
  check: checkCommand,
};

// SIGINT and SIGTERM remove a file being written and say so; the exit
// status is the shell's for the signal (128 + its number).
for (const [signal, status] of [
  ["SIGINT", 130],
  ["SIGTERM", 143],
])
  process.on(signal, () => {
    const removed = [...partialFiles];
    for (const path of removed) removePartial(path);
    process.stderr.write(
      `\nsinusoidal-pe: interrupted by ${signal}; ` +
        (removed.length > 0
          ? `the partial output was removed and the target left as it was\n`
          : partialStdout
            ? `the output is incomplete\n`
            : `nothing was written\n`),
    );
    process.exit(status);
  });

export async function main(argv) {
  const names = new Names();
  try {
    const request = parse(argv);
    for (const key of COMMAND_KEYS[request.command] ?? [])
      names.flag(camel(key), key);
    if (request.version) {
      process.stdout.write(`${version}\n`);
      return 0;
    }
    if (request.help) {
      process.stdout.write(HELP);
      return 0;
    }
    await init();
    await COMMANDS[request.command](request, names);
    return 0;
  } catch (error) {
    if (error?.code === "EPIPE") return 0;
    const known =
      error instanceof UsageError ||
      error instanceof TypeError ||
      error instanceof RangeError;
    if (known) {
      process.stderr.write(
        `${names.translate(error.message)}\nRun "sinusoidal-pe --help" for the options.\n`,
      );
      return 2;
    }
    // A file that cannot be read or written: the system's message is enough.
    if (error?.syscall === undefined) throw error;
    process.stderr.write(`sinusoidal-pe: ${error.message}\n`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
