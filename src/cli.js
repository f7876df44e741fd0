// `npx sinusoidal-pe`: tables, decay integrals and relation checks from the
// command line, written as .npy, raw float32, CSV or JSON. Tables are
// generated and written in row blocks, so their size is bounded by the disk,
// not by memory.
import { createWriteStream } from "node:fs";
import { once } from "node:events";
import { parseArgs } from "node:util";
import {
  decayIntegral,
  init,
  linearRelationError,
  npyHeader,
  table,
  toCsv,
  toeplitzError,
} from "./index.js";

const HELP = `Usage: sinusoidal-pe <command> [options]

Commands
  table    the encoding table, row-major [positions, dim]
  decay    the decay integral f(x) = ∫₀¹ cos(x·θ(t)) dt over a grid of x
  check    the linear-relation and Toeplitz errors for the table options

Table options (table, check)
  --positions N        number of rows (positions start … start + N − 1)
  --start P            first position (default 0; not with --preset)
  --dim D              columns, 1 … 1048576
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

Decay options
  --theta FAMILY       exp (default): base^(−t), power: t^alpha, linear: t
  --base B             exp family (default 10000)
  --alpha A            power family (default 1)
  --from X --to X --count N
                       the grid of x (evenly spaced, both ends included)
  --method NAME        closed-form (default) or quadrature

Output
  --format FORMAT      npy (default): a NumPy file; f32: raw little-endian
                       float32; csv: one row per line; json: an array of rows
                       (check: text, or json)
  -o, --output FILE    write to FILE instead of standard output
  --block-rows N       rows generated per block (default: about 16 MiB)
  -h, --help           this help

Decay output has two columns, x and f(x), in float64 (float32 for f32).
A progress bar is drawn on standard error when it is a terminal.

Examples
  npx sinusoidal-pe table --positions 512 --dim 768 -o pe.npy
  npx sinusoidal-pe table --preset whisper --positions 1500 --dim 512 --format csv
  npx sinusoidal-pe decay --from 0 --to 1000 --count 1001 --format json
  npx sinusoidal-pe check --positions 1000 --dim 512 --offsets 1,-7.5,4096
  npx sinusoidal-pe table --positions 131072 --dim 128 --base 500000 \\
    --layout halves-cos-first --scaling '{"rope_type": "llama3", "factor": 8,
    "low_freq_factor": 1, "high_freq_factor": 4,
    "original_max_position_embeddings": 8192}' -o llama31.npy
`;

const OPTIONS = {
  positions: { type: "string" },
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
};

const TABLE_KEYS = [
  "positions",
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
];
const COMMAND_KEYS = {
  table: [...TABLE_KEYS, "format", "output", "block-rows"],
  check: [...TABLE_KEYS, "offsets", "format", "output"],
  decay: [
    "theta",
    "base",
    "alpha",
    "from",
    "to",
    "count",
    "method",
    "format",
    "output",
    "block-rows",
  ],
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

// Numbers stay numbers; anything else reaches the library as text, so its
// message names the option and the allowed range.
function value(text) {
  if (text === undefined) return undefined;
  const number = Number(text);
  return text.trim() !== "" && !Number.isNaN(number) ? number : text;
}

const camel = (name) => name.replace(/[-_](\w)/g, (_, c) => c.toUpperCase());

// --scaling: a JSON object, as a config.json's rope_scaling (snake_case,
// rope_type) or as the library takes it; the library checks its contents.
function scalingOption(text) {
  let parsed;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new UsageError(
      `sinusoidal-pe: option --scaling must be a JSON object such as '{"type": "linear", "factor": 4}': ${error.message}`,
    );
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed))
    throw new UsageError(
      `sinusoidal-pe: option --scaling must be a JSON object, got ${text}`,
    );
  return Object.fromEntries(
    Object.entries(parsed).map(([key, v]) => [
      key === "rope_type" ? "type" : camel(key),
      v,
    ]),
  );
}

function libraryOptions(values, keys) {
  const options = {};
  for (const key of keys) {
    if (values[key] === undefined) continue;
    const text = values[key];
    options[camel(key)] =
      key === "scaling"
        ? scalingOption(text)
        : NAMED_OPTIONS.includes(key)
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
    });
  } catch (error) {
    throw new UsageError(`sinusoidal-pe: ${error.message}`);
  }
  const { values, positionals } = parsed;
  if (values.help || positionals.length === 0) return { help: true };
  const [command, ...rest] = positionals;
  if (!Object.hasOwn(COMMAND_KEYS, command))
    throw new UsageError(
      `sinusoidal-pe: unknown command "${command}"; commands: table, decay, check`,
    );
  if (rest.length > 0)
    throw new UsageError(`sinusoidal-pe: unexpected argument "${rest[0]}"`);
  for (const key of Object.keys(values))
    if (!COMMAND_KEYS[command].includes(key))
      throw new UsageError(
        `sinusoidal-pe: option --${key} does not apply to "${command}"`,
      );
  const format = values.format ?? (command === "check" ? "text" : "npy");
  const allowed = command === "check" ? ["text", "json"] : FORMATS;
  if (!allowed.includes(format))
    throw new UsageError(
      `sinusoidal-pe: option --format must be one of ${allowed.join(", ")}, got "${format}"`,
    );
  let blockRows;
  if (values["block-rows"] !== undefined) {
    blockRows = Number(values["block-rows"]);
    if (!Number.isInteger(blockRows) || blockRows < 1)
      throw new UsageError(
        `sinusoidal-pe: option --block-rows must be a positive integer, got "${values["block-rows"]}"`,
      );
  }
  return { command, values, format, output: values.output, blockRows };
}

// A writable that resolves each write once its data is handed on, so memory
// holds one block at a time.
function sink(path) {
  const stream = path === undefined ? process.stdout : createWriteStream(path);
  let failure = null;
  stream.on("error", (error) => {
    failure = error;
  });
  return {
    async write(chunk) {
      if (failure) throw failure;
      if (!stream.write(chunk))
        await Promise.race([once(stream, "drain"), once(stream, "error")]);
      if (failure) throw failure;
    },
    async close() {
      if (stream === process.stdout) return;
      stream.end();
      await once(stream, "finish");
      if (failure) throw failure;
    },
  };
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

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

function bytesOf(values) {
  if (!LITTLE_ENDIAN) {
    const swapped = new DataView(new ArrayBuffer(values.byteLength));
    const setter = values instanceof Float32Array ? "setFloat32" : "setFloat64";
    values.forEach((v, i) =>
      swapped[setter](i * values.BYTES_PER_ELEMENT, v, true),
    );
    return new Uint8Array(swapped.buffer);
  }
  return new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
}

// Writes rows × columns values produced block by block by `rowsAt(first,
// count)` in the chosen format.
async function writeRows(out, format, rows, columns, Typed, rowsAt, block) {
  const bar = progress(rows);
  if (format === "npy")
    await out.write(
      npyHeader(Typed === Float32Array ? "<f4" : "<f8", [rows, columns]),
    );
  if (format === "json") await out.write("[");
  for (let first = 0; first < rows; first += block) {
    const count = Math.min(block, rows - first);
    let values = rowsAt(first, count);
    if (format === "f32" && !(values instanceof Float32Array))
      values = Float32Array.from(values);
    if (format === "npy" || format === "f32") await out.write(bytesOf(values));
    else {
      const csv = toCsv(values, columns);
      if (format === "csv") await out.write(csv);
      else {
        const lines = csv.slice(0, -1).split("\n");
        const json = lines.map((line) => `[${line}]`).join(",\n");
        await out.write((first === 0 ? "" : ",\n") + json);
      }
    }
    bar.update(first + count);
  }
  if (format === "json") await out.write("]\n");
  bar.done();
}

function blockRowsFor(format, columns, bytesPerValue, asked) {
  if (asked !== undefined) return asked;
  const values =
    format === "csv" || format === "json"
      ? TEXT_BLOCK_VALUES
      : BLOCK_BYTES / bytesPerValue;
  const rows = Math.max(1, Math.floor(values / columns));
  // Evenly spaced rows are re-seeded every 128 rows; blocks on that grid give
  // the same values as one call.
  return rows >= 128 ? rows - (rows % 128) : rows;
}

async function tableCommand({ values, format, output, blockRows }) {
  const options = libraryOptions(values, TABLE_KEYS);
  if (format === "f32" && options.dtype === "float64")
    throw new UsageError(
      `sinusoidal-pe: --format f32 writes float32 values; use --dtype float32 or --format npy`,
    );
  // Small calls validate every option before anything is written.
  const rows = options.positions;
  if (!Number.isInteger(rows) || rows < 1) table(options); // throws its message
  const first = table({ ...options, positions: 1 });
  const dim = first.length;
  const Typed = first.constructor;
  const block = blockRowsFor(format, dim, Typed.BYTES_PER_ELEMENT, blockRows);
  const start = options.start ?? 0;
  const rowsAt = (row, count) => {
    if (count === rows) return table(options);
    if (options.preset === undefined)
      return table({ ...options, positions: count, start: start + row });
    const positions = new Float64Array(count);
    for (let i = 0; i < count; i++) positions[i] = row + i;
    return table({ ...options, positions });
  };
  const out = sink(output);
  await writeRows(out, format, rows, dim, Typed, rowsAt, block);
  await out.close();
}

async function decayCommand({ values, format, output, blockRows }) {
  const options = libraryOptions(values, ["theta", "base", "alpha", "method"]);
  const x = {
    from: value(values.from),
    to: value(values.to),
    count: value(values.count),
  };
  // Small calls validate the family and both ends before anything is written.
  if (!Number.isInteger(x.count) || x.count < 2)
    decayIntegral({ ...options, x });
  for (const end of [x.from, x.to])
    decayIntegral({ ...options, x: { from: end, to: end, count: 1 } });
  const step = x.count === 1 ? 0 : (x.to - x.from) / (x.count - 1);
  const block = blockRowsFor(format, 2, 8, blockRows);
  const rowsAt = (row, count) => {
    const points = new Float64Array(count);
    for (let j = 0; j < count; j++) points[j] = x.from + (row + j) * step;
    const result = decayIntegral({ ...options, x: points });
    const f = result instanceof Float64Array ? result : result.values;
    const pairs = new Float64Array(2 * count);
    for (let j = 0; j < count; j++) {
      pairs[2 * j] = points[j];
      pairs[2 * j + 1] = f[j];
    }
    return pairs;
  };
  const out = sink(output);
  await writeRows(out, format, x.count, 2, Float64Array, rowsAt, block);
  await out.close();
}

async function checkCommand({ values, format, output }) {
  const options = libraryOptions(values, TABLE_KEYS);
  const offsets =
    values.offsets === undefined
      ? [1, -1, 100]
      : values.offsets.split(",").map(value);
  const relation = linearRelationError({ ...options, offsets });
  const toeplitz = toeplitzError(options);
  const text =
    format === "json"
      ? JSON.stringify({ linearRelation: relation, toeplitz }, null, 2) + "\n"
      : `linear relation: max |R(k)·PE(p) − PE(p+k)| = ${relation.maxAbsError.toExponential(2)} ` +
        `at p = ${relation.position}, k = ${relation.offset}, column ${relation.index}\n` +
        `Toeplitz: max |⟨PE(m), PE(n)⟩ − g(m − n)| = ${toeplitz.maxAbsError.toExponential(2)} ` +
        `at m = ${toeplitz.m}, n = ${toeplitz.n}\n`;
  const out = sink(output);
  await out.write(text);
  await out.close();
}

const COMMANDS = {
  table: tableCommand,
  decay: decayCommand,
  check: checkCommand,
};

export async function main(argv) {
  try {
    const request = parse(argv);
    if (request.help) {
      process.stdout.write(HELP);
      return 0;
    }
    await init();
    await COMMANDS[request.command](request);
    return 0;
  } catch (error) {
    if (error?.code === "EPIPE") return 0;
    const known =
      error instanceof UsageError ||
      error instanceof TypeError ||
      error instanceof RangeError;
    if (known) {
      process.stderr.write(
        `${error.message}\nRun "sinusoidal-pe --help" for the options.\n`,
      );
      return 2;
    }
    // A file that cannot be written: the system's message is enough.
    if (error?.syscall === undefined) throw error;
    process.stderr.write(`sinusoidal-pe: ${error.message}\n`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
