// The four commands: each reads its flags into library options, lets the
// library check them on small probes, then streams its result to the output.
import {
  decayIntegral,
  fromConfig,
  linearRelationError,
  ropeCache,
  table,
  toeplitzError,
} from "../slim-node.js";
import { resolvePreset } from "../presets.js";
import { kindOf, lengthOf } from "../options.js";
import { readBounded, withOutput } from "./files.js";
import { positionsFile } from "./positions.js";
import {
  DECAY_KEYS,
  libraryOptions,
  numberList,
  ROPE_KEYS,
  TABLE_KEYS,
  usage,
  value,
} from "./flags.js";
import { isProbeRefusal } from "./messages.js";
import { blockRowsFor, writeRows } from "./rows.js";

// A config.json is read whole, up to a bound: it is at most a few hundred
// kB (8 MiB is room for any).
const CONFIG_BYTES = 2 ** 23;

// The positions: a count (a number, or text the library refuses) or a list.
async function positionsOption(values, names) {
  if (values.positions !== undefined && values["positions-file"] !== undefined)
    throw usage("options --positions and --positions-file exclude each other");
  if (values["positions-file"] !== undefined) {
    names.flag("positions", "positions-file");
    const list = await positionsFile(values["positions-file"]);
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

// The library's checks of a count of rows, run without computing them: the
// probe's `out` fits no result, and the library refuses it only after every
// check of the count (or refuses a result too large for one call, which
// blocks never are). Every other refusal is the user's.
const PROBE_OUT = new Int8Array(0);
function checkCount(compute, options, out = PROBE_OUT) {
  try {
    compute({ ...options, out });
  } catch (error) {
    if (!isProbeRefusal(error)) throw error;
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
  let options = withSeqLen(
    libraryOptions(values, TABLE_KEYS, names),
    values,
    names,
  );
  const positions = await positionsOption(values, names);
  options = forWholeSequence(
    options,
    largestPosition(positions, options.start),
    ({ dim, base, scaling }) => ({ dim, base, scaling }),
  );
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

// What transformers would only log (a config's unknown keys, a factor
// below 1), on standard error, each once.
const warned = new Set();
function warn(warnings = []) {
  for (const warning of warnings)
    if (!warned.has(warning)) {
      warned.add(warning);
      process.stderr.write(`sinusoidal-pe: warning: ${warning}\n`);
    }
}

// The RoPE options of a config.json, read by the library's fromConfig; its
// messages name the config's fields.
async function configOptions(values, names) {
  const path = values.config;
  names.config = path;
  const bytes = await readBounded("--config", path, {
    limit: CONFIG_BYTES,
    what: "8 MiB, which no config.json is",
  });
  let config;
  try {
    config = JSON.parse(bytes.toString("utf8"));
  } catch (error) {
    throw usage(`option --config ${path}: ${error.message}`);
  }
  const layerType = values["layer-type"];
  names.readingConfig = true;
  const options = fromConfig(
    config,
    layerType === undefined ? {} : { layerType },
  );
  names.readingConfig = false;
  warn(options.warnings);
  names.fromConfig = new Set(Object.keys(options));
  return options;
}

// --seq-len joins the scaling, from --scaling or from --config.
function withSeqLen(options, values, names) {
  const text = values["seq-len"];
  if (text === undefined) return options;
  const { scaling } = options;
  if (scaling === undefined || scaling === null)
    throw usage(
      `option --seq-len applies to a dynamic or longrope scaling, and --config ${values.config} has no rope scaling`,
    );
  if (Object.hasOwn(scaling, "seqLen"))
    throw usage(
      `options --seq-len and --scaling key ${JSON.stringify(names.scalingKey("seqLen"))} both give the sequence length; give one`,
    );
  names.flag("scaling.seqLen", "seq-len");
  return { ...options, scaling: { ...scaling, seqLen: value(text) } };
}

// The largest position of the whole output, or -Infinity for none (or for
// a count the library will refuse).
function largestPosition(positions, start = 0) {
  const lists = positions.streams
    ? Object.values(positions.streams)
    : positions.list
      ? [positions.list]
      : [];
  if (lists.length > 0) {
    let largest = -Infinity;
    for (const list of lists)
      for (const p of list) if (p > largest) largest = p;
    return largest;
  }
  const { count } = positions;
  return typeof count === "number" && typeof start === "number" && count > 0
    ? start + count - 1
    : -Infinity;
}

// A dynamic or longrope schedule depends on the length of the sequence it
// serves; without --seq-len the library takes it from the positions of one
// call (the largest + 1, as transformers' max(position_ids) + 1). The
// output is computed in blocks, so that length is given for the whole
// output, where the scaling takes one (the library refuses it elsewhere).
// The library's warnings about the whole output, that rule's among them,
// come from one call at its largest position, through `scheduleOf` (the
// options ropeCache takes of the command's).
function forWholeSequence(options, largest, scheduleOf = (o) => o) {
  const { scaling } = options;
  if (scaling === undefined || scaling === null || !(largest >= 0))
    return options;
  const whole = Object.hasOwn(scaling, "seqLen")
    ? options
    : { ...options, scaling: { ...scaling, seqLen: Math.floor(largest) + 1 } };
  try {
    const atLargest = { positions: [largest], start: undefined };
    warn(ropeCache({ ...scheduleOf(options), ...atLargest }).warnings);
    ropeCache({ ...scheduleOf(whole), positions: 1 });
  } catch {
    // A scaling without a sequence length, or options the calls below
    // refuse with the user's own values.
    return options;
  }
  return whole;
}

async function ropeCacheCommand({ values, format, output, blockRows }, names) {
  let options = withSeqLen(
    {
      ...(values.config === undefined
        ? {}
        : await configOptions(values, names)),
      ...libraryOptions(values, ROPE_KEYS, names),
    },
    values,
    names,
  );
  const positions = await positionsOption(values, names);
  options = forWholeSequence(
    options,
    largestPosition(positions, options.start),
  );
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
    checkCount(
      ropeCache,
      { ...options, positions: rows },
      { cos: PROBE_OUT, sin: PROBE_OUT },
    );
    const start = options.start ?? 0;
    if (rows > 1) cache({ positions: 1, start: start + rows - 1 });
    rowsAt = (row, count) => cache({ positions: count, start: start + row });
  }
  warn(piece.warnings);
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
  const options = withSeqLen(
    libraryOptions(values, TABLE_KEYS, names),
    values,
    names,
  );
  const positions = await positionsOption(values, names);
  options.positions = positions.list ?? positions.count;
  const offsets =
    values.offsets === undefined
      ? [1, -1, 100]
      : numberList(values.offsets, "offsets");
  if (values.offsets !== undefined) names.flag("offsets", "offsets");
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

export const COMMANDS = {
  table: tableCommand,
  "rope-cache": ropeCacheCommand,
  decay: decayCommand,
  check: checkCommand,
};
