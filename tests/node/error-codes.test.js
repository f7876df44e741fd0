// The one registry of error codes: errorCodes, exported by both entries,
// names every code an error of the library carries with its class; a rule
// that both the reading in JS and the C core check has one code whichever
// detects it; the source raises no code outside the registry, and the
// registry keeps no code that nothing raises; docs/api.md lists them all.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import * as pe from "../../dist/index.js";
import * as slim from "../../dist/slim.js";
import { constants, init, kernels } from "../../build/internals.js";
import {
  errorCodesSection,
  readPage,
  renderErrorCodes,
} from "./error-codes-doc.js";

await pe.init();
await init();

const { errorCodes } = pe;
const CLASSES = { TypeError, RangeError, Error };
const root = fileURLToPath(new URL("../../", import.meta.url));

test("errorCodes: every code once, frozen, with its class and a description, the same from both entries", () => {
  assert.deepEqual(slim.errorCodes, errorCodes);
  assert.ok(Object.isFrozen(errorCodes));
  for (const [code, entry] of Object.entries(errorCodes)) {
    assert.match(code, /^ERR_[A-Z0-9_]+$/);
    assert.ok(Object.isFrozen(entry), code);
    assert.deepEqual(Object.keys(entry).sort(), ["description", "error"]);
    assert.ok(Object.hasOwn(CLASSES, entry.error), `${code}: ${entry.error}`);
    assert.ok(entry.description.length > 10, code);
  }
  // Every status of the core is a code, of the class its header gives.
  const { STATUS, STATUS_NAMES } = constants;
  for (let status = 1; status < STATUS.length; status++) {
    const code = STATUS_NAMES[status].replace(/^PE_/, "");
    assert.equal(errorCodes[code]?.error, STATUS[status].error, code);
  }
});

// Throws of `call`: its class, code and option.
function refusal(call) {
  try {
    call();
  } catch (error) {
    return {
      error: error.constructor.name,
      code: error.code,
      option: error.option,
    };
  }
  assert.fail(`not refused: ${call}`);
}

const f32 = (n) => new Float32Array(n);
const linear = (factor) => ({ type: "linear", factor });

// Each rule with calls that the reading in JS refuses (a type, NaN, a
// length, before the core is called) and calls only the core refuses (a
// value of the right type and shape); every one must carry the rule's code.
const RULES = [
  [
    "ERR_DIM",
    "dim",
    [
      () => pe.table({ positions: 1, dim: 0 }),
      () => pe.table({ positions: 1, dim: 2.5 }),
      () => pe.ropeCache({ positions: 1, dim: 2 ** 21 }),
      () => pe.decayComparison({ x: 1, dim: 1 }),
    ],
    [() => kernels.ropeDims({ api: "rope", dim: 2 ** 21, rotary: 2 })],
  ],
  [
    "ERR_ROTARY_DIM",
    "rotaryDim",
    [() => pe.rope(f32(8), 0, { dim: 8, rotaryDim: 1.5 })],
    [() => pe.rope(f32(8), 0, { dim: 8, rotaryDim: 3 })],
  ],
  [
    "ERR_BASE",
    "base",
    [() => pe.ropeCache({ positions: 1, dim: 8, base: NaN })],
    [
      () => pe.ropeCache({ positions: 1, dim: 8, base: 1 }),
      () => pe.table({ positions: 1, dim: 8, base: NaN }),
    ],
  ],
  [
    "ERR_ROPE_FACTOR",
    "scaling.factor",
    [() => pe.ropeCache({ positions: 1, dim: 8, scaling: linear(NaN) })],
    [() => pe.ropeCache({ positions: 1, dim: 8, scaling: linear(0) })],
  ],
  [
    "ERR_POSITIONS",
    "positions[1]",
    [() => pe.table({ positions: [0, NaN], dim: 8 })],
    [],
  ],
  [
    "ERR_POSITIONS",
    "positions",
    [() => pe.rope(f32(8), NaN, { dim: 8 })],
    [() => pe.table({ positions: [1e308], dim: 8, scale: 10 })],
  ],
  [
    "ERR_OFFSETS",
    "offsets[0]",
    [() => pe.dotProducts({ dim: 8, offsets: [NaN] })],
    [],
  ],
  [
    "ERR_FREQUENCIES",
    "frequencies",
    [() => pe.table({ positions: 1, dim: 8, frequencies: [1, 2, 3] })],
    [],
  ],
  [
    "ERR_LAYOUT",
    "layout",
    [
      () => pe.table({ positions: 1, dim: 8, layout: "x" }),
      () => pe.ropeCache({ positions: 1, dim: 8, layout: "x" }),
    ],
    [
      () =>
        kernels.tableColumns({
          api: "tableColumns",
          out: 0,
          dim: 4,
          layout: 9,
        }),
    ],
  ],
  [
    "ERR_PAIRING",
    "pairing",
    [
      () => pe.rope(f32(8), 0, { dim: 8, pairing: "x" }),
      () => pe.fromConfig({ model_type: "llama" }, { pairing: "x" }),
    ],
    [],
  ],
  [
    "ERR_ROPE_TYPE",
    "scaling.type",
    [() => pe.ropeCache({ positions: 1, dim: 8, scaling: { type: "x" } })],
    [],
  ],
  [
    "ERR_ROPE_TYPE",
    "rope_scaling.rope_type",
    [
      () =>
        pe.fromConfig({
          model_type: "llama",
          rope_scaling: { rope_type: "x" },
        }),
    ],
    [],
  ],
  [
    "ERR_ROPE_PARAMETER",
    "scaling.betaFast",
    [
      () =>
        pe.ropeCache({
          positions: 1,
          dim: 8,
          scaling: { ...linear(2), betaFast: 1 },
        }),
    ],
    [],
  ],
  [
    "ERR_MROPE_SECTION",
    "mropeSection",
    [() => pe.ropeCache({ positions: 1, dim: 8, mropeSection: [1, 1] })],
    [() => pe.ropeCache({ positions: 1, dim: 8, mropeSection: [1, 1, 1] })],
  ],
  [
    "ERR_HEADS",
    "heads",
    [
      () => pe.rope(f32(8), 0, { dim: 8, heads: 0, order: "bshd" }),
      () => pe.rope(f32(16), [0], { dim: 8, heads: 3, order: "bshd" }),
    ],
    [],
  ],
  [
    "ERR_ROPE_ATTENTION",
    "scaling",
    [
      () =>
        pe.table({
          positions: 1,
          dim: 8,
          outputScale: 3e38,
          scaling: {
            type: "yarn",
            factor: 1e10,
            originalMaxPositionEmbeddings: 8,
          },
        }),
    ],
    [],
  ],
  [
    "ERR_ROPE_ATTENTION",
    "scaling.attentionFactor",
    [],
    [
      () =>
        pe.ropeCache({
          positions: 1,
          dim: 8,
          dtype: "float16",
          scaling: {
            type: "yarn",
            factor: 2,
            originalMaxPositionEmbeddings: 8,
            attentionFactor: 1e6,
          },
        }),
    ],
  ],
  [
    "ERR_SIZE",
    "positions",
    [
      () => pe.table({ positions: 2 ** 12, dim: 2 ** 20 }),
      () => pe.ropeCache({ positions: 2 ** 12, dim: 2 ** 20 }),
    ],
    [],
  ],
  [
    "ERR_TIMESCALE",
    "minTimescale",
    [
      () =>
        pe.table({
          preset: "tensor2tensor",
          positions: 1,
          dim: 8,
          minTimescale: 0,
        }),
    ],
    [
      () =>
        pe.table({
          positions: 1,
          dim: 8,
          schedule: "timescale",
          minTimescale: 0,
        }),
    ],
  ],
];

test("a rule has one code whichever side detects it", () => {
  for (const [code, option, js, core] of RULES) {
    const expected = { error: errorCodes[code].error, code, option };
    for (const call of [...js, ...core])
      assert.deepEqual(refusal(call), expected, String(call));
  }
  // The module keeps working.
  assert.equal(pe.table({ positions: [0], dim: 2, dtype: "float64" })[1], 1);
});

test("every plan used after dispose() throws ERR_DISPOSED", () => {
  const plans = [
    [pe.createRope({ dim: 8 }), (plan) => plan.apply(f32(8), 0)],
    [pe.createTable({ dim: 8 }), (plan) => plan.rows(1)],
    [pe.createRopeCache({ dim: 8 }), (plan) => plan.rows(1)],
  ];
  for (const [plan, use] of plans) {
    plan.dispose();
    assert.deepEqual(
      refusal(() => use(plan)),
      {
        error: "TypeError",
        code: "ERR_DISPOSED",
        option: undefined,
      },
    );
  }
});

// The source files of the library, the command line and the page.
function sources(dir) {
  return readdirSync(join(root, dir), { recursive: true })
    .filter((file) => file.endsWith(".js"))
    .map((file) => join(dir, file));
}
const SOURCES = [...sources("src"), ...sources("web")].filter(
  (file) => !file.endsWith("error_codes.js"),
);

// The top-level arguments of the call whose "(" is at `open`, as source
// texts: strings, templates (with their ${} parts), regular expressions and
// brackets are stepped over whole.
function argumentsAt(text, open) {
  const args = [];
  let start = open + 1;
  let depth = 0;
  // The template literals open around the position, innermost last, with
  // the bracket depth at which each ${} part began.
  const templates = [];
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (templates.length > 0 && templates.at(-1) === null) {
      // Inside a template's text.
      if (c === "\\") i++;
      else if (c === "`") templates.pop();
      else if (c === "$" && text[i + 1] === "{") {
        templates[templates.length - 1] = depth;
        depth++;
        i++;
      }
      continue;
    }
    if (c === '"' || c === "'") {
      for (i++; text[i] !== c; i++) if (text[i] === "\\") i++;
    } else if (c === "`") templates.push(null);
    else if (c === "/" && /[(,=:[!&|?{};]\s*$/.test(text.slice(open, i))) {
      let inClass = false;
      for (i++; inClass || text[i] !== "/"; i++) {
        if (text[i] === "\\") i++;
        else if (text[i] === "[") inClass = true;
        else if (text[i] === "]") inClass = false;
      }
    } else if ("([{".includes(c)) depth++;
    else if (")]}".includes(c)) {
      depth--;
      if (c === "}" && templates.length > 0 && templates.at(-1) === depth)
        templates[templates.length - 1] = null;
      else if (depth === 0) {
        args.push(text.slice(start, i));
        return args.map((arg) => arg.trim()).filter((arg) => arg !== "");
      }
    } else if (c === "," && depth === 1) {
      args.push(text.slice(start, i));
      start = i + 1;
    }
  }
  throw new Error(`unbalanced call at ${open}`);
}

// Each typeError(...) or rangeError(...) call of a source text, and each
// configError(typeError | rangeError, ...): [class, code], the code a
// literal's name, the text of an expression, or undefined when none is
// given. A maker chosen at run time ((a ? typeError : rangeError)(...)) is
// reported with the class null.
function raised(text) {
  const found = [];
  for (const match of text.matchAll(
    /\b(?:(typeError|rangeError)\(|configError\(\s*(typeError|rangeError)\b|(?:typeError|rangeError)\)\()/g,
  )) {
    if (/function\s+$/.test(text.slice(0, match.index))) continue;
    const maker = match[1] ?? match[2];
    const args = argumentsAt(text, match.index + match[0].lastIndexOf("("));
    const code = match[2] !== undefined ? args[3] : args[2];
    found.push([
      maker === undefined
        ? null
        : maker === "typeError"
          ? "TypeError"
          : "RangeError",
      /^"ERR_[A-Z0-9_]+"$/.test(code ?? "") ? code.slice(1, -1) : code,
    ]);
  }
  return found;
}

test("the source raises only registered codes, each with its class, and the registry keeps none that nothing raises", () => {
  const named = new Set();
  let calls = 0;
  for (const file of SOURCES) {
    const text = readFileSync(join(root, file), "utf8");
    for (const [, code] of text.matchAll(/"(ERR_[A-Z0-9_]+)"/g)) {
      assert.ok(Object.hasOwn(errorCodes, code), `${file}: ${code}`);
      named.add(code);
    }
    for (const [error, code] of raised(text)) {
      calls++;
      assert.notEqual(code, undefined, `${file}: an error without a code`);
      // A code given by a literal: registered, of the class raised.
      if (Object.hasOwn(errorCodes, code) && error !== null)
        assert.equal(errorCodes[code].error, error, `${file}: ${code}`);
    }
  }
  assert.ok(calls > 100, `${calls} calls read`);
  // The rules only JS checks are each raised by name somewhere; the
  // core's statuses are raised by number.
  const statuses = new Set(
    constants.STATUS_NAMES.map((name) => name.replace(/^PE_/, "")),
  );
  const unraised = Object.keys(errorCodes).filter(
    (code) => !statuses.has(code) && !named.has(code),
  );
  assert.deepEqual(unraised, []);
});

test("the declarations' ErrorCode union is the registry's codes", () => {
  const declarations = readFileSync(
    join(root, "dist/error-codes.d.ts"),
    "utf8",
  );
  const union = /export type ErrorCode =([^;]*);/.exec(declarations)[1];
  const declared = [...union.matchAll(/"(ERR_[A-Z0-9_]+)"/g)].map(([, c]) => c);
  assert.deepEqual(declared.sort(), Object.keys(errorCodes).sort());
});

test("docs/api.md lists every code with its class and rule", () => {
  assert.equal(errorCodesSection(readPage()), renderErrorCodes());
  for (const code of Object.keys(errorCodes))
    assert.ok(readPage().includes(`\`${code}\``), code);
});
