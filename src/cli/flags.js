// The command line's flags: every option the commands take, the help that
// documents them, and the parsing of argv into a checked request. Values
// stay text here; the library checks them (see messages.js for how its
// refusals are put in terms of these flags).
import { parseArgs } from "node:util";
import { presets } from "../presets.js";

const kebab = (name) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
export const camel = (name) =>
  name.replace(/-(\w)/g, (_, c) => c.toUpperCase());

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
  "seq-len": { type: "string" },
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

export const HELP = `Usage: sinusoidal-pe <command> [options]

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
  --seq-len N          the sequence length a dynamic or longrope scaling is
                       computed for (its seq_len; default: the largest
                       position + 1, as transformers)
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
  --seq-len N          the sequence length of a dynamic or longrope scaling
                       (default: the largest position + 1, as transformers)
  --layout NAME        compact (default): [n, rotary dim / 2], each pair once;
                       halves: [n, rotary dim], cat(freqs, freqs);
                       interleaved: [n, rotary dim] (half and duplicated,
                       the older names, are compact and halves)
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
  -o, --output FILE    write to FILE instead of standard output: a file is
                       replaced only once complete (through a symbolic link,
                       the file it points to); a FIFO or device is written
                       directly. -o - is standard output, which npy and f32
                       reach on a terminal only so
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
    --layout halves --dtype float16 -o rope.npy
  npx sinusoidal-pe decay --from 0 --to 1000 --count 1001 --format json
  npx sinusoidal-pe check --positions 1000 --dim 512 --offsets 1,-7.5,4096
  npx sinusoidal-pe table --positions 131072 --dim 128 --base 500000 \\
    --layout halves-cos-first --scaling '{"rope_type": "llama3", "factor": 8,
    "low_freq_factor": 1, "high_freq_factor": 4,
    "original_max_position_embeddings": 8192}' -o llama31.npy
`;

export const TABLE_KEYS = [
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
  "seq-len",
  ...[...PRESET_FLAGS.keys()].filter((flag) => !SHARED_FLAGS.has(flag)),
];
export const ROPE_KEYS = [
  "positions",
  "positions-file",
  "start",
  "dim",
  "rotary-dim",
  "base",
  "scaling",
  "seq-len",
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
export const DECAY_KEYS = ["theta", "base", "alpha", "method"];
const OUTPUT_KEYS = ["format", "output", "block-rows"];
export const COMMAND_KEYS = {
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

export class UsageError extends Error {}
export const usage = (message) => new UsageError(`sinusoidal-pe: ${message}`);

// Numbers stay numbers; anything else reaches the library as text, so its
// message names the option and the allowed range.
export function value(text) {
  if (text === undefined) return undefined;
  const number = Number(text);
  return text.trim() !== "" && !Number.isNaN(number) ? number : text;
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
export function numberList(text, flag) {
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

// The library options of the flags in `keys` (positions aside).
export function libraryOptions(values, keys, names) {
  const options = {};
  for (const key of keys) {
    // Positions are read by the commands, --seq-len goes into the scaling.
    if (["positions", "positions-file", "seq-len"].includes(key)) continue;
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

// The edit distance between two flag names (insertions, deletions,
// substitutions and swaps of neighbours), for "did you mean".
function distance(a, b) {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 1; j <= b.length; j++) rows[0][j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      rows[i][j] = Math.min(
        rows[i - 1][j] + 1,
        rows[i][j - 1] + 1,
        rows[i - 1][j - 1] + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        rows[i][j] = Math.min(rows[i][j], rows[i - 2][j - 2] + 1);
    }
  return rows[a.length][b.length];
}

// The flag closest to an unknown one: among the command's own flags first,
// then all of them; close means a few edits for its length, or the only
// flag that starts with what was typed.
function closestFlag(name, command) {
  const own = command === undefined ? [] : COMMAND_KEYS[command];
  for (const flags of [[...own, "help", "version"], Object.keys(OPTIONS)]) {
    let best;
    let bestDistance = Infinity;
    for (const flag of flags) {
      const d = distance(name, flag);
      if (d < bestDistance) [best, bestDistance] = [flag, d];
    }
    if (bestDistance <= Math.max(1, Math.floor(name.length / 3))) return best;
    const prefixed = flags.filter((flag) => flag.startsWith(name));
    if (name.length >= 3 && prefixed.length === 1) return prefixed[0];
  }
  return undefined;
}

// `written` is the argument as typed: "--dims=8", or "-dim", which
// parseArgs reads as the switches -d -i -m.
function unknownFlag(written, command) {
  const name = written.replace(/^--?/, "").replace(/=.*/s, "");
  const near = name.length > 1 ? closestFlag(name, command) : undefined;
  const shown = written.replace(/=.*/s, "");
  return usage(
    near === undefined
      ? `unknown option ${shown}; "sinusoidal-pe --help" lists the options`
      : `unknown option ${shown}; did you mean --${near}?`,
  );
}

// argv as tokens, each flag checked against OPTIONS here, so that every
// refusal is this tool's own message: an unknown flag with the closest
// known one, a missing value, a value given to a switch, a flag twice.
function tokens(argv) {
  const { tokens } = parseArgs({
    args: argv,
    options: OPTIONS,
    allowPositionals: true,
    strict: false,
    tokens: true,
  });
  const command = tokens.find((token) => token.kind === "positional")?.value;
  const known = Object.hasOwn(COMMAND_KEYS, command) ? command : undefined;
  const values = {};
  const positionals = [];
  for (const token of tokens) {
    if (token.kind === "positional") positionals.push(token.value);
    if (token.kind !== "option") continue;
    if (!Object.hasOwn(OPTIONS, token.name))
      throw unknownFlag(argv[token.index], known);
    const flag = token.rawName;
    if (Object.hasOwn(values, token.name))
      throw usage(`option ${flag} is given more than once; give it once`);
    if (OPTIONS[token.name].type === "boolean") {
      if (token.value !== undefined)
        throw usage(`option ${flag} is a switch and takes no value`);
      values[token.name] = true;
      continue;
    }
    // A value that is a flag of its own means the value was left out.
    const next = token.value;
    if (next === undefined) throw usage(`option ${flag} needs a value`);
    if (
      !token.inlineValue &&
      /^--?[a-z]/i.test(next) &&
      Number.isNaN(Number(next))
    )
      throw usage(
        `option ${flag} needs a value, got the option ${next} (a value that starts with "-" is given as --${token.name}=${next})`,
      );
    values[token.name] = next;
  }
  return { values, positionals };
}

// The request argv makes: a command with its checked flags, or help, or
// the version. No arguments at all is a usage error that shows the help.
export function parse(argv) {
  if (argv.length === 0)
    throw Object.assign(new UsageError(HELP), { isHelp: true });
  const { values, positionals } = tokens(argv);
  if (values.version) return { version: true };
  if (values.help) return { help: true };
  if (positionals.length === 0)
    throw usage(
      `give a command: ${Object.keys(COMMAND_KEYS).join(", ")}; "sinusoidal-pe --help" lists the options`,
    );
  const [command, ...rest] = positionals;
  if (!Object.hasOwn(COMMAND_KEYS, command)) {
    const near = Object.keys(COMMAND_KEYS).find(
      (name) => distance(command, name) <= 2,
    );
    throw usage(
      `unknown command "${command}"; ` +
        (near === undefined
          ? `commands: ${Object.keys(COMMAND_KEYS).join(", ")}`
          : `did you mean ${near}?`),
    );
  }
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
  if (
    values["seq-len"] !== undefined &&
    values.scaling === undefined &&
    values.config === undefined
  )
    throw usage(
      "option --seq-len applies with --scaling or --config (a dynamic or longrope scaling)",
    );
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
  if (values.output === "")
    throw usage(
      'option -o (--output) must name a file, or "-" for standard output; got an empty name',
    );
  let blockRows;
  if (values["block-rows"] !== undefined) {
    blockRows = Number(values["block-rows"]);
    if (!Number.isSafeInteger(blockRows) || blockRows < 1)
      throw usage(
        `option --block-rows must be a positive integer, got "${values["block-rows"]}"`,
      );
  }
  // "-" is standard output, as the tool writes when -o is not given.
  const output = values.output === "-" ? undefined : values.output;
  const binary = format === "npy" || format === "f32";
  return {
    command,
    values,
    format,
    output,
    // Binary data goes to a terminal only when asked for with -o -.
    binaryToTerminal: binary && values.output === undefined,
    blockRows,
  };
}
