// The constants that C and JS share, generated from the C headers: the C
// core is the one validator of values, and every status code it returns
// reaches its JS error class and a message that names the function, the
// option, its rule and the value got; every
// enum of the generated module is the range the C core accepts, in the same
// order; and the bounds are where the C core draws its lines.
import assert from "node:assert/strict";
import { test } from "node:test";
import { decayIntegral, init as initPackage, table } from "../../dist/index.js";
import {
  check,
  statusMessage,
  constants,
  init,
  memoryBuffer,
  wasm,
  withScratch,
} from "../../build/internals.js";

const {
  STATUS,
  STATUS_NAMES,
  LAYOUTS,
  ODD_DIMS,
  SCHEDULES,
  PAIRINGS,
  THETAS,
  ROPE_TYPES,
  CACHE_LAYOUTS,
  CACHE_DTYPES,
  ROPE_PARAMETER_SLOTS,
} = constants;

await init();
await initPackage();
const C = wasm();

const codeOf = (name) => {
  const code = STATUS_NAMES.indexOf(name);
  assert.ok(code >= 0, `status ${name}`);
  return code;
};

// Runs fn(doubles, floats) with scratch memory; doubles(values) and
// floats(values) copy values into module memory and return the pointer.
function withMemory(fn) {
  return withScratch((scratch) => {
    const doubles = (values) => {
      const pointer = scratch(8 * Math.max(values.length, 1), "test");
      new Float64Array(memoryBuffer(), pointer, values.length).set(values);
      return pointer;
    };
    const floats = (values) => {
      const pointer = scratch(4 * Math.max(values.length, 1), "test");
      new Float32Array(memoryBuffer(), pointer, values.length).set(values);
      return pointer;
    };
    return fn(doubles, floats);
  });
}

const zeros = (n) => new Array(n).fill(0);
const OMEGA = [1, 0.1, 0.01, 0.001]; // dim 8

// The parameter array of the C core and the bits of the slots given.
const ropeParameters = (params) => [
  ROPE_PARAMETER_SLOTS.map((key) => params[key] ?? 0),
  ROPE_PARAMETER_SLOTS.reduce(
    (bits, key, k) => (key in params ? bits | (1 << k) : bits),
    0,
  ),
];

// pe_rope_frequencies at dim 8 for a rope type (by name or index).
function ropeCall(type, params, factors = []) {
  const [values, given] = ropeParameters(params);
  return (d) =>
    C.pe_rope_frequencies(
      typeof type === "number" ? type : ROPE_TYPES.indexOf(type),
      8,
      1e4,
      d(values),
      ROPE_PARAMETER_SLOTS.length,
      given,
      factors.length > 0 ? d(factors) : 0,
      factors.length,
      d(zeros(4)),
      4,
      d([0]),
    );
}

// pe_rope_cache of one row at dim 8.
function cacheCall(dtype, layout, attention = 1) {
  return (d) =>
    C.pe_rope_cache(
      d(zeros(8)),
      d(zeros(8)),
      dtype,
      layout,
      0,
      1,
      0,
      d(OMEGA),
      4,
      attention,
    );
}

const YARN = { factor: 2, originalMaxPositionEmbeddings: 10 };
const LLAMA3 = { factor: 2, originalMaxPositionEmbeddings: 10 };

// A C call that returns each status, the error class a user must see and
// what its message must name; written here, apart from the header.
const CASES = {
  PE_ERR_NULL: [
    TypeError,
    /pointer/,
    () => C.pe_frequencies(0, 8, 0, 1e4, 1, 1, 0, 0, 4),
  ],
  PE_ERR_DIM: [
    RangeError,
    /"dim"/,
    (d) => C.pe_frequencies(0, 0, 0, 1e4, 1, 1, 0, d([0]), 0),
  ],
  PE_ERR_BASE: [
    RangeError,
    /"base"/,
    (d) => C.pe_frequencies(0, 8, 0, 1, 1, 1, 0, d(zeros(4)), 4),
  ],
  PE_ERR_LAYOUT: [
    RangeError,
    /"layout"/,
    (d) =>
      C.pe_table_f64(
        d(zeros(8)),
        0,
        1,
        0,
        8,
        LAYOUTS.length,
        0,
        d(OMEGA),
        4,
        1,
        1,
      ),
  ],
  PE_ERR_SCHEDULE: [
    RangeError,
    /"schedule"/,
    (d) =>
      C.pe_frequencies(SCHEDULES.length, 8, 0, 1e4, 1, 1, 0, d(zeros(4)), 4),
  ],
  PE_ERR_ODD_DIM: [
    RangeError,
    /"oddDim"/,
    (d) =>
      C.pe_frequencies(
        0,
        7,
        ODD_DIMS.indexOf("error"),
        1e4,
        1,
        1,
        0,
        d(zeros(3)),
        3,
      ),
  ],
  PE_ERR_POSITIONS: [
    RangeError,
    /positions/,
    (d) =>
      C.pe_table_f64(d(zeros(8)), d([NaN]), 1, 0, 8, 0, 0, d(OMEGA), 4, 1, 1),
  ],
  PE_ERR_FREQUENCIES: [
    RangeError,
    /"frequencies"/,
    (d) => C.pe_table_f64(d(zeros(8)), 0, 1, 0, 8, 0, 0, d(OMEGA), 3, 1, 1),
  ],
  PE_ERR_SCALE: [
    RangeError,
    /"scale"/,
    (d) => C.pe_table_f64(d(zeros(8)), 0, 1, 0, 8, 0, 0, d(OMEGA), 4, NaN, 1),
  ],
  PE_ERR_TIMESCALE: [
    RangeError,
    /"minTimescale"/,
    (d) => C.pe_frequencies(1, 8, 0, 1e4, 0, 1e4, 1, d(zeros(4)), 4),
  ],
  PE_ERR_SHIFT: [
    RangeError,
    /"shift"/,
    (d) => C.pe_frequencies(2, 8, 0, 1e4, 1, 1, 4, d(zeros(4)), 4),
  ],
  PE_ERR_SIZE: [
    RangeError,
    /4 GiB/,
    (d) => C.pe_table_f32(d([0]), 0, 2 ** 30, 0, 8, 0, 0, d(OMEGA), 4, 1, 1),
  ],
  PE_ERR_COUNT: [
    RangeError,
    /count/,
    (d) => C.pe_ci(d([1]), constants.MAX_COUNT + 1, d([0])),
  ],
  // 3 frequencies for a dim of 4 pairs.
  PE_ERR_ARGUMENT: [
    RangeError,
    /argument/,
    (d) => C.pe_frequencies(0, 8, 0, 1e4, 1, 1, 0, d(zeros(4)), 3),
  ],
  PE_ERR_OFFSETS: [
    RangeError,
    /offsets/,
    (d) =>
      C.pe_rotate_f64(
        d(zeros(8)),
        d(zeros(8)),
        1,
        8,
        d([NaN]),
        0,
        0,
        0,
        d(OMEGA),
        4,
        1,
      ),
  ],
  PE_ERR_PAIRING: [
    RangeError,
    /"pairing"/,
    (d, f) =>
      C.pe_rope(
        f(zeros(8)),
        f(zeros(8)),
        0,
        1,
        8,
        8,
        1,
        1,
        0,
        1,
        PAIRINGS.length,
        d(OMEGA),
        4,
        1,
        1,
      ),
  ],
  PE_ERR_THETA: [
    RangeError,
    /"theta"/,
    (d) => C.pe_decay_integral(THETAS.length, 10, 1, d([1]), 1, d([0])),
  ],
  PE_ERR_ALPHA: [
    RangeError,
    /"alpha"/,
    (d) =>
      C.pe_decay_integral(THETAS.indexOf("power"), 10, 0, d([1]), 1, d([0])),
  ],
  PE_ERR_OUTPUT_SCALE: [
    RangeError,
    /"outputScale"/,
    (d) =>
      C.pe_table_f64(d(zeros(8)), 0, 1, 0, 8, 0, 0, d(OMEGA), 4, 1, Infinity),
  ],
  PE_ERR_ROPE_TYPE: [
    RangeError,
    /"scaling.type"/,
    ropeCall(ROPE_TYPES.length, {}),
  ],
  PE_ERR_ROPE_PARAMETER: [
    TypeError,
    /"scaling"/,
    ropeCall("default", { factor: 2 }),
  ],
  PE_ERR_ROPE_FACTOR: [
    RangeError,
    /"scaling.factor"/,
    ropeCall("linear", { factor: 0 }),
  ],
  PE_ERR_ROPE_MAX_LENGTH: [
    RangeError,
    /"scaling.maxPositionEmbeddings"/,
    ropeCall("dynamic", { factor: 2, maxPositionEmbeddings: 0 }),
  ],
  PE_ERR_ROPE_SEQ_LEN: [
    RangeError,
    /"scaling.seqLen"/,
    ropeCall("dynamic", { factor: 2, maxPositionEmbeddings: 10, seqLen: -1 }),
  ],
  PE_ERR_ROPE_DYNAMIC_BASE: [
    RangeError,
    /"scaling.factor" and "scaling.seqLen" must give a finite dynamic base/,
    ropeCall("dynamic", {
      factor: 1e308,
      maxPositionEmbeddings: 10,
      seqLen: 20,
    }),
  ],
  // ln(maxPositionEmbeddings) = 0 divides the attention factor.
  PE_ERR_ROPE_LONGROPE_LENGTH: [
    RangeError,
    /"scaling.maxPositionEmbeddings" must be > 1 for rope type "longrope"/,
    ropeCall(
      "longrope",
      { maxPositionEmbeddings: 1, factor: 2 },
      new Array(8).fill(1),
    ),
  ],
  PE_ERR_ROPE_DYNAMIC_DIM: [
    RangeError,
    /"rotaryDim" must be >= 4 for rope type "dynamic"/,
    (d) =>
      C.pe_rope_frequencies(
        ROPE_TYPES.indexOf("dynamic"),
        2,
        1e4,
        d(ropeParameters({ factor: 2, maxPositionEmbeddings: 10 })[0]),
        ROPE_PARAMETER_SLOTS.length,
        ropeParameters({ factor: 2, maxPositionEmbeddings: 10 })[1],
        0,
        0,
        d([0]),
        1,
        d([0]),
      ),
  ],
  PE_ERR_QUADRATURE_X: [
    RangeError,
    /"x" must stay within \|x\| <= 1000000/,
    (d) =>
      C.pe_decay_integral_quadrature(
        THETAS.indexOf("linear"),
        0,
        0,
        d([2e6]),
        1,
        d([0]),
        d([0]),
      ),
  ],
  PE_ERR_CI_X: [
    RangeError,
    /"x" must be > 0/,
    (d) => C.pe_ci(d([0]), 1, d([0])),
  ],
  PE_ERR_NO_PARTNER: [
    RangeError,
    /"extra-sin" column has no partner/,
    (d) =>
      C.pe_rotate_f64(
        d(zeros(5)),
        d(zeros(5)),
        1,
        5,
        0,
        1,
        0,
        ODD_DIMS.indexOf("extra-sin"),
        d([1, 0.1, 0.01]),
        3,
        1,
      ),
  ],
  PE_ERR_ROPE_ORIGINAL: [
    RangeError,
    /"scaling.originalMaxPositionEmbeddings"/,
    ropeCall("llama3", {
      ...LLAMA3,
      originalMaxPositionEmbeddings: 0,
      lowFreqFactor: 1,
      highFreqFactor: 4,
    }),
  ],
  PE_ERR_ROPE_BETA: [
    RangeError,
    /"scaling.betaFast"/,
    ropeCall("yarn", { ...YARN, betaFast: 0, betaSlow: 2 }),
  ],
  PE_ERR_ROPE_ATTENTION: [
    RangeError,
    /"scaling.attentionFactor"/,
    ropeCall("yarn", { ...YARN, attentionFactor: -1 }),
  ],
  PE_ERR_ROPE_MSCALE: [
    RangeError,
    /"scaling.mscale"/,
    ropeCall("yarn", { ...YARN, mscale: -1 }),
  ],
  PE_ERR_ROPE_TRUNCATE: [
    TypeError,
    /"scaling.truncate"/,
    ropeCall("yarn", { ...YARN, truncate: 0.5 }),
  ],
  PE_ERR_ROPE_FREQ_FACTOR: [
    RangeError,
    /"scaling.lowFreqFactor"/,
    ropeCall("llama3", { ...LLAMA3, lowFreqFactor: 2, highFreqFactor: 0 }),
  ],
  PE_ERR_ROPE_SHORT_FACTOR: [
    RangeError,
    /"scaling.shortFactor"/,
    ropeCall("longrope", { maxPositionEmbeddings: 10 }, zeros(8)),
  ],
  PE_ERR_ROPE_LONG_FACTOR: [
    RangeError,
    /"scaling.longFactor"/,
    ropeCall(
      "longrope",
      { maxPositionEmbeddings: 10 },
      [1, 1, 1, 1, 0, 0, 0, 0],
    ),
  ],
  PE_ERR_DTYPE: [RangeError, /"dtype"/, cacheCall(CACHE_DTYPES.length, 0)],
  PE_ERR_ROPE_PARTIAL: [
    RangeError,
    /"scaling.partialRotaryFactor"/,
    ropeCall("proportional", { partialRotaryFactor: 1.5 }),
  ],
  PE_ERR_MROPE_SECTION: [
    RangeError,
    /"mropeSection"/,
    (d) => C.pe_mrope_streams(1, 1, 1, 0, d(zeros(4)), 4),
  ],
  PE_ERR_MROPE_STREAM: [
    RangeError,
    /stream/,
    (d) => {
      const streams = d([0]);
      new Uint8Array(memoryBuffer(), streams, 4).set([0, 1, 2, 3]);
      return C.pe_rope_cache_streams(
        d(zeros(8)),
        d(zeros(8)),
        0,
        0,
        d(zeros(3)),
        1,
        streams,
        d(OMEGA),
        4,
        1,
      );
    },
  ],
  // rotary 6 of a row of 4.
  PE_ERR_ROTARY_DIM: [
    RangeError,
    /"rotaryDim"/,
    (d, f) =>
      C.pe_rope(
        f(zeros(8)),
        f(zeros(8)),
        0,
        2,
        4,
        6,
        1,
        1,
        0,
        1,
        0,
        d([1, 0.1, 0.01]),
        3,
        1,
        1,
      ),
  ],
  // 3 rows in groups of 2 heads.
  PE_ERR_HEADS: [
    RangeError,
    /"heads"/,
    (d, f) =>
      C.pe_rope(
        f(zeros(12)),
        f(zeros(12)),
        0,
        3,
        4,
        4,
        2,
        1,
        0,
        1,
        0,
        d([1, 0.1]),
        2,
        1,
        1,
      ),
  ],
};

// A call that must keep working after every error.
function sinOfOne() {
  return withMemory((d) => {
    const out = d(zeros(2));
    assert.equal(
      C.pe_table_f64(out, d([1]), 1, 0, 2, 0, 0, d([1]), 1, 1, 1),
      0,
    );
    return new Float64Array(memoryBuffer(), out, 2)[0];
  });
}

// The caller's options with a distinct value at each of the paths.
function optionsAt(paths) {
  const given = {};
  paths.forEach((path, i) => {
    const keys = path.split(".");
    let at = given;
    for (const key of keys.slice(0, -1)) at = at[key] ??= {};
    at[keys.at(-1)] = 1000.25 + i;
  });
  return given;
}

// Statuses about no option: a broken pointer, a size, a count or an
// argument of the core's own making, or a stream the core assigned.
const WITHOUT_OPTION = [
  "PE_ERR_NULL",
  "PE_ERR_SIZE",
  "PE_ERR_COUNT",
  "PE_ERR_ARGUMENT",
  "PE_ERR_MROPE_STREAM",
];

test("every status code of the C core reaches its JS error and message", () => {
  const reached = new Set();
  for (const [name, [ErrorClass, names, call]] of Object.entries(CASES)) {
    const status = withMemory(call);
    assert.equal(status, codeOf(name), `${name}: C returned ${status}`);
    reached.add(status);
    const { options, rule } = STATUS[status];
    assert.ok(rule.length > 0, `${name} states its rule`);
    assert.equal(options.length === 0, WITHOUT_OPTION.includes(name), name);
    // The message names the function, the option(s), the rule and the
    // value got (each value the caller gave, by its option's path).
    const subject =
      options.length === 0
        ? ""
        : `${options.length === 1 ? "option" : "options"} ${options.map((o) => `"${o}"`).join(" and ")} `;
    const got =
      options.length === 0
        ? ""
        : options.length === 1
          ? ", got 1000.25"
          : `, got ${options.map((o, i) => `"${o}" = ${1000.25 + i}`).join(", ")}`;
    assert.throws(
      () => check(status, "where", optionsAt(options)),
      (error) => {
        assert.ok(error instanceof ErrorClass, `${name}: ${error.name}`);
        // The rule's code is the status's name; its option, the first of
        // the rule's (each of which the caller gave here).
        assert.equal(error.code, name.slice("PE_".length), name);
        assert.equal(error.option, options[0], name);
        assert.equal(
          error.message,
          `sinusoidal-pe: where: ${subject}${rule}${got}`,
        );
        assert.match(error.message, names, name);
        return true;
      },
    );
    // Without the caller's values, the rest of the message stands.
    assert.throws(
      () => check(status, "where"),
      (error) =>
        error.code === name.slice("PE_".length) &&
        error.option === options[0] &&
        error.message === `sinusoidal-pe: where: ${subject}${rule}` &&
        error.message === `sinusoidal-pe: where: ${statusMessage(status)}`,
    );
    assert.equal(sinOfOne(), Math.sin(1), `the module works after ${name}`);
  }
  assert.equal(STATUS_NAMES.length, STATUS.length);
  const codes = [...STATUS.keys()].filter((code) => code !== 0);
  assert.deepEqual(
    [...reached].sort((a, b) => a - b),
    codes,
  );
  assert.equal(STATUS_NAMES[0], "PE_OK");
  assert.doesNotThrow(() => check(0, "where"));
  assert.throws(() => check(STATUS.length, "where"), RangeError);
});

// Index i of an enum is accepted and means the named choice; -1 and the
// length are refused.
function eachIndex(list) {
  return [-1, ...list.keys(), list.length];
}

test("rope cache layouts and dtypes: the C core accepts exactly the listed ones", () => {
  for (const i of eachIndex(CACHE_LAYOUTS))
    assert.equal(
      withMemory(cacheCall(0, i)),
      CACHE_LAYOUTS[i] === undefined ? codeOf("PE_ERR_LAYOUT") : 0,
      `layout ${CACHE_LAYOUTS[i] ?? i}`,
    );
  for (const i of eachIndex(CACHE_DTYPES))
    assert.equal(
      withMemory(cacheCall(i, 0)),
      CACHE_DTYPES[i] === undefined ? codeOf("PE_ERR_DTYPE") : 0,
      `dtype ${CACHE_DTYPES[i] ?? i}`,
    );
  // float16's largest finite value bounds the attention factor there only.
  const float16 = CACHE_DTYPES.indexOf("float16");
  const float32 = CACHE_DTYPES.indexOf("float32");
  assert.equal(
    withMemory(cacheCall(float16, 0, 70000)),
    codeOf("PE_ERR_ROPE_ATTENTION"),
  );
  assert.equal(withMemory(cacheCall(float32, 0, 70000)), 0);
});

// Parameters each rope type accepts, its required ones included.
const VALID = {
  default: {},
  linear: { factor: 2 },
  dynamic: { factor: 2, maxPositionEmbeddings: 10 },
  yarn: YARN,
  longrope: { maxPositionEmbeddings: 10, attentionFactor: 1 },
  llama3: { ...LLAMA3, lowFreqFactor: 1, highFreqFactor: 4 },
  proportional: {},
};

test("rope types: the C core accepts exactly the listed ones", () => {
  for (const i of eachIndex(ROPE_TYPES)) {
    const name = ROPE_TYPES[i];
    assert.notEqual(VALID[name ?? "default"], undefined, `type ${name}`);
    const factors = name === "longrope" ? new Array(8).fill(1) : [];
    assert.equal(
      withMemory(ropeCall(i, VALID[name] ?? {}, factors)),
      name === undefined ? codeOf("PE_ERR_ROPE_TYPE") : 0,
      `type ${name ?? i}`,
    );
  }
});

// The table of what each rope type takes and requires is generated from
// rope_scaling.h; the C core refuses any other parameter, and a call
// without a required one.
test("rope parameter table: the C core takes what it lists, and refuses the rest", () => {
  const { ROPE_TYPE_PARAMETERS } = constants;
  assert.deepEqual(Object.keys(ROPE_TYPE_PARAMETERS), [...ROPE_TYPES]);
  const ONE = Object.fromEntries(ROPE_PARAMETER_SLOTS.map((key) => [key, 1]));
  for (const type of ROPE_TYPES) {
    const { takes, requires } = ROPE_TYPE_PARAMETERS[type];
    const lists = type === "longrope" ? ["shortFactor", "longFactor"] : [];
    // Every parameter is a slot of the array or one of longrope's lists.
    for (const key of takes)
      assert.ok(ROPE_PARAMETER_SLOTS.includes(key) || lists.includes(key), key);
    for (const key of requires) assert.ok(takes.includes(key), key);
    const factors = type === "longrope" ? new Array(8).fill(1) : [];
    assert.equal(withMemory(ropeCall(type, VALID[type], factors)), 0, type);
    for (const key of ROPE_PARAMETER_SLOTS) {
      if (takes.includes(key)) continue;
      assert.equal(
        withMemory(
          ropeCall(type, { ...VALID[type], [key]: ONE[key] }, factors),
        ),
        codeOf("PE_ERR_ROPE_PARAMETER"),
        `${type} refuses ${key}`,
      );
    }
    for (const key of requires) {
      const without = { ...VALID[type] };
      delete without[key];
      const status = lists.includes(key)
        ? withMemory(ropeCall(type, without, []))
        : withMemory(ropeCall(type, without, factors));
      assert.notEqual(status, 0, `${type} requires ${key}`);
    }
    // Only longrope takes factor lists.
    if (lists.length === 0)
      assert.equal(
        withMemory(ropeCall(type, VALID[type], new Array(8).fill(1))),
        codeOf("PE_ERR_ROPE_PARAMETER"),
        `${type} takes no factor lists`,
      );
  }
});

test("layouts: the C core places the columns as each name says", () => {
  const w = [1, 0.5];
  for (const i of eachIndex(LAYOUTS)) {
    const name = LAYOUTS[i];
    const [status, row] = withMemory((d) => {
      const out = d(zeros(4));
      const status = C.pe_table_f64(
        out,
        d([1.5]),
        1,
        0,
        4,
        i,
        0,
        d(w),
        2,
        1,
        1,
      );
      return [status, [...new Float64Array(memoryBuffer(), out, 4)]];
    });
    if (name === undefined) {
      assert.equal(status, codeOf("PE_ERR_LAYOUT"), `layout ${i}`);
      continue;
    }
    assert.equal(status, 0, name);
    const sin = w.map((v) => Math.sin(1.5 * v));
    const cos = w.map((v) => Math.cos(1.5 * v));
    const [first, second] = name.endsWith("cos-first")
      ? [cos, sin]
      : [sin, cos];
    const expected = name.startsWith("interleaved")
      ? [first[0], second[0], first[1], second[1]]
      : [...first, ...second];
    for (let c = 0; c < 4; c++)
      assert.ok(Math.abs(row[c] - expected[c]) < 1e-15, `${name} column ${c}`);
  }
});

test("odd-dim rules: the frequency count of dim 7 follows each name", () => {
  const expected = { "zero-pad": 3, "extra-sin": 4, error: null };
  for (const i of eachIndex(ODD_DIMS)) {
    const name = ODD_DIMS[i];
    const count = name === undefined ? null : expected[name];
    assert.notEqual(count, undefined, `unexpected odd-dim rule ${name}`);
    const status = withMemory((d) =>
      C.pe_frequencies(0, 7, i, 1e4, 1, 1, 0, d(zeros(4)), count ?? 3),
    );
    assert.equal(
      status,
      count === null ? codeOf("PE_ERR_ODD_DIM") : 0,
      `${name ?? i}`,
    );
  }
});

test("schedules: the C core computes each named formula", () => {
  const formulas = {
    paper: (i) => 100 ** (-i / 4),
    timescale: (i) => Math.exp((-i * Math.log(1000)) / 3),
    shifted: (i) => Math.exp((-Math.log(100) * i) / 3),
  };
  for (const i of eachIndex(SCHEDULES)) {
    const name = SCHEDULES[i];
    const [status, w] = withMemory((d) => {
      const out = d(zeros(4));
      const status = C.pe_frequencies(i, 8, 0, 100, 1, 1000, 1, out, 4);
      return [status, [...new Float64Array(memoryBuffer(), out, 4)]];
    });
    if (name === undefined) {
      assert.equal(status, codeOf("PE_ERR_SCHEDULE"), `schedule ${i}`);
      continue;
    }
    assert.equal(status, 0, name);
    assert.ok(formulas[name], `unexpected schedule ${name}`);
    for (let k = 0; k < 4; k++)
      assert.ok(Math.abs(w[k] - formulas[name](k)) < 1e-15, `${name} ${k}`);
  }
});

test("pairings: rope turns the columns each name pairs", () => {
  const a = 0.75; // position 0.75, w_0 = 1
  for (const i of eachIndex(PAIRINGS)) {
    const name = PAIRINGS[i];
    const [status, row] = withMemory((d, f) => {
      const out = f(zeros(4));
      const status = C.pe_rope(
        out,
        f([1, 0, 0, 0]),
        0,
        1,
        4,
        4,
        1,
        1,
        0,
        a,
        i,
        d([1, 0]),
        2,
        1,
        1,
      );
      return [status, [...new Float32Array(memoryBuffer(), out, 4)]];
    });
    if (name === undefined) {
      assert.equal(status, codeOf("PE_ERR_PAIRING"), `pairing ${i}`);
      continue;
    }
    assert.equal(status, 0, name);
    const partner = { interleaved: 1, halves: 2 }[name];
    assert.ok(partner, `unexpected pairing ${name}`);
    const expected = [Math.cos(a), 0, 0, 0];
    expected[partner] = Math.sin(a);
    for (let c = 0; c < 4; c++)
      assert.ok(Math.abs(row[c] - expected[c]) < 1e-7, `${name} column ${c}`);
  }
});

test("thetas: the decay frequencies follow each named family", () => {
  const families = {
    exp: (t) => 100 ** -t,
    power: (t) => t ** 2,
    linear: (t) => t,
  };
  for (const i of eachIndex(THETAS)) {
    const name = THETAS[i];
    const [status, w] = withMemory((d) => {
      const out = d(zeros(4));
      const status = C.pe_decay_frequencies(i, 100, 2, 8, out, 4);
      return [status, [...new Float64Array(memoryBuffer(), out, 4)]];
    });
    if (name === undefined) {
      assert.equal(status, codeOf("PE_ERR_THETA"), `theta ${i}`);
      continue;
    }
    assert.equal(status, 0, name);
    assert.ok(families[name], `unexpected theta ${name}`);
    for (let k = 0; k < 4; k++)
      assert.ok(Math.abs(w[k] - families[name]((2 * k) / 8)) < 1e-15, name);
  }
});

test("dtypes and methods pick the C function each name says", () => {
  for (const dtype of constants.DTYPES) {
    const result = table({ positions: 1, dim: 2, dtype });
    assert.equal(result.constructor.name, `F${dtype.slice(1)}Array`);
  }
  for (const method of constants.METHODS) {
    const result = decayIntegral({ theta: "linear", x: [1], method });
    const value = method === "quadrature" ? result.values[0] : result[0];
    assert.ok(Math.abs(value - Math.sin(1)) < 1e-13, method);
    assert.equal(method === "quadrature", !(result instanceof Float64Array));
  }
});

test("bounds: the C core accepts each limit and refuses one past it", () => {
  const NULL = codeOf("PE_ERR_NULL");
  const { MAX_DIM, MAX_MATRIX_DIM, MAX_COUNT, MEMORY_BYTES } = constants;
  // A null output past every other check: the limit itself is accepted.
  assert.equal(
    C.pe_frequencies(0, MAX_DIM, 0, 1e4, 1, 1, 0, 0, MAX_DIM / 2),
    NULL,
  );
  assert.equal(
    C.pe_frequencies(0, MAX_DIM + 2, 0, 1e4, 1, 1, 0, 0, MAX_DIM / 2 + 1),
    codeOf("PE_ERR_DIM"),
  );
  withMemory((d) => {
    const w = d(new Array(MAX_MATRIX_DIM / 2 + 1).fill(1));
    assert.equal(
      C.pe_rotation_matrix_f64(
        0,
        1,
        MAX_MATRIX_DIM,
        0,
        0,
        w,
        MAX_MATRIX_DIM / 2,
        1,
      ),
      NULL,
    );
    assert.equal(
      C.pe_rotation_matrix_f64(
        0,
        1,
        MAX_MATRIX_DIM + 2,
        0,
        0,
        w,
        MAX_MATRIX_DIM / 2 + 1,
        1,
      ),
      codeOf("PE_ERR_DIM"),
    );
    const omega = d(OMEGA);
    const rows = MEMORY_BYTES / (8 * 8);
    assert.equal(
      C.pe_table_f64(0, 0, rows - 1, 0, 8, 0, 0, omega, 4, 1, 1),
      NULL,
    );
    assert.equal(
      C.pe_table_f64(0, 0, rows, 0, 8, 0, 0, omega, 4, 1, 1),
      codeOf("PE_ERR_SIZE"),
    );
  });
  assert.equal(C.pe_ci(0, MAX_COUNT, 0), NULL);
  assert.equal(C.pe_ci(0, MAX_COUNT + 1, 0), codeOf("PE_ERR_COUNT"));

  const power = THETAS.indexOf("power");
  const alpha = constants.DECAY_MIN_ALPHA;
  assert.equal(C.pe_decay_integral(power, 10, alpha, 0, 0, 0), 0);
  assert.equal(
    C.pe_decay_integral(power, 10, alpha * (1 - 2 ** -53), 0, 0, 0),
    codeOf("PE_ERR_ALPHA"),
  );
  assert.match(STATUS[codeOf("PE_ERR_ALPHA")].rule, /1\/1024/);
  assert.equal(alpha, 1 / 1024);

  const linear = THETAS.indexOf("linear");
  const maxX = constants.DECAY_QUADRATURE_MAX_X;
  withMemory((d) => {
    assert.equal(
      C.pe_decay_integral_quadrature(
        linear,
        0,
        0,
        d([maxX]),
        1,
        d([0]),
        d([0]),
      ),
      0,
    );
    assert.equal(
      C.pe_decay_integral_quadrature(
        linear,
        0,
        0,
        d([maxX * (1 + 2 ** -52)]),
        1,
        d([0]),
        d([0]),
      ),
      codeOf("PE_ERR_QUADRATURE_X"),
    );
  });
});

test("every export of the module takes at most the 15 arguments the library passes it", async () => {
  await init();
  const exports = Object.entries(wasm()).filter(
    ([, value]) => typeof value === "function",
  );
  assert.ok(exports.length > 20);
  for (const [name, fn] of exports)
    assert.ok(fn.length <= 15, `${name} takes ${fn.length} arguments`);
});
