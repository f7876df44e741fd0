// Writes the JS module of the constants that C and JS share, read from the
// C headers that define them: the status codes with their error class and
// the options and rule each names (status.h), the enums' option values
// (enums.h), the slots of the rope parameters and the parameters each rope
// type takes (rope_scaling.h) and the bounds (bounds.h).
// Usage: node src/core/constants_to_js.js build/constants.js
import { readFileSync, writeFileSync } from "node:fs";
import { JS_RULES } from "./error_codes.js";

const header = (name) =>
  readFileSync(new URL(name, import.meta.url), "utf8").replace(/\\\n/g, " ");

// The body of `#define <name>(X) ...` with its continuation lines joined.
function xList(text, name) {
  const match = new RegExp(`#define ${name}\\(X\\)(.*)`).exec(text);
  if (!match) throw new Error(`${name} not found`);
  return match[1];
}

// Adjacent C string literals, concatenated. Only \" and \\ are escapes here.
function cString(literals) {
  return [...literals.matchAll(/"((?:[^"\\]|\\.)*)"/g)]
    .map(([, body]) =>
      body.replace(/\\(.)/g, (escape, c) => {
        if (c !== '"' && c !== "\\") throw new Error(`escape ${escape}`);
        return c;
      }),
    )
    .join("");
}

const STRINGS = String.raw`((?:\s*"(?:[^"\\]|\\.)*")+)`;

// Each status with its name, the options it is about (paths, several
// separated by spaces in the header) and its rule.
function statuses(text) {
  const entry = new RegExp(
    String.raw`X\(\s*(\w+)\s*,\s*(\d+)\s*,\s*(NONE|TYPE|RANGE)\s*,\s*"([\w. ]*)"\s*,${STRINGS}\s*\)`,
    "g",
  );
  const classes = { NONE: null, TYPE: "TypeError", RANGE: "RangeError" };
  const list = [...xList(text, "PE_STATUS_LIST").matchAll(entry)].map(
    ([, name, code, kind, paths, rule]) => {
      return {
        code: Number(code),
        name,
        error: classes[kind],
        options: paths.split(" ").filter((path) => path !== ""),
        rule: cString(rule),
      };
    },
  );
  list.forEach((status, i) => {
    if (status.code !== i) throw new Error(`${status.name} is not code ${i}`);
  });
  return list;
}

// The entries of an enum list as [enumerator, option value] pairs.
function enumEntries(text, name) {
  const entry = new RegExp(String.raw`X\(\s*(\w+)\s*,${STRINGS}\s*\)`, "g");
  const entries = [...xList(text, name).matchAll(entry)].map(
    ([, enumerator, value]) => [enumerator, cString(value)],
  );
  if (entries.length === 0) throw new Error(`${name} is empty`);
  return entries;
}

function enumValues(text, name) {
  return enumEntries(text, name).map(([, value]) => value);
}

// PE_ROPE_MAX_POSITION_EMBEDDINGS -> maxPositionEmbeddings.
const camelCase = (word) =>
  word.toLowerCase().replace(/_([a-z])/g, (_, c) => c.toUpperCase());

// The rope parameter table: for each rope type (every one, in order), the
// parameters it takes and those it requires, by their option names.
function ropeParameters(table, ropeTypes) {
  const result = Object.fromEntries(
    ropeTypes.map(([, type]) => [type, { takes: [], requires: [] }]),
  );
  const typeOf = Object.fromEntries(ropeTypes);
  const entry = /X\(\s*(\w+)\s*,\s*PE_ROPE_(\w+)\s*,\s*([01])\s*\)/g;
  for (const [, type, parameter, required] of xList(
    table,
    "PE_ROPE_PARAMETER_TABLE",
  ).matchAll(entry)) {
    const row = result[typeOf[type]];
    if (row === undefined) throw new Error(`${type} is no rope type`);
    row.takes.push(camelCase(parameter));
    if (required === "1") row.requires.push(camelCase(parameter));
  }
  return result;
}

// `#define PE_NAME value`, where value is a number or a constant expression
// of numbers, parentheses, << and arithmetic.
function bounds(text) {
  const result = {};
  for (const [, name, expression] of text.matchAll(
    /^#define PE_(\w+) (.+?)\s*(?:\/\*.*)?$/gm,
  )) {
    const js = expression
      .replace(/\b(\d+)(?:u|ull|ul|l)\b/gi, "$1")
      .replace(/(\d+)\s*<<\s*(\d+)/g, "$1 * 2 ** $2");
    if (!/^[\d\s.()*/+\-e]+$/.test(js))
      throw new Error(`PE_${name}: cannot read ${expression}`);
    result[name] = Function(`return ${js};`)();
  }
  return result;
}

// The members of `enum <name>` as `PE_<PREFIX>_WORD_WORD = i`, in camelCase
// and in order of i; `last` is the length marker that ends the list.
function enumMembers(text, name, prefix, last) {
  const body = new RegExp(`enum ${name} \\{([^}]*)\\}`).exec(text);
  if (!body) throw new Error(`enum ${name} not found`);
  const members = [];
  for (const [, word, value] of body[1].matchAll(
    new RegExp(`PE_${prefix}_(\\w+) = (\\d+)`, "g"),
  )) {
    if (Number(value) !== members.length)
      throw new Error(`PE_${prefix}_${word} is not ${members.length}`);
    if (word === last) return members;
    members.push(camelCase(word));
  }
  throw new Error(`enum ${name} has no PE_${prefix}_${last}`);
}

// The rules only JS checks, refused where one has the code of a status:
// every code is defined once, whichever list holds it.
function jsRules(list) {
  const statusCodes = new Set(list.map(({ name }) => name.replace(/^PE_/, "")));
  const seen = new Set();
  for (const [code, error] of JS_RULES) {
    if (statusCodes.has(code) || seen.has(code))
      throw new Error(`${code} is defined twice`);
    if (!["TypeError", "RangeError", "Error"].includes(error))
      throw new Error(`${code}: no error class ${error}`);
    seen.add(code);
  }
  return JS_RULES;
}

const enums = header("enums.h");
const lists = {
  LAYOUTS: "PE_LAYOUT_LIST",
  ODD_DIMS: "PE_ODD_DIM_LIST",
  SCHEDULES: "PE_SCHEDULE_LIST",
  DTYPES: "PE_DTYPE_LIST",
  PAIRINGS: "PE_PAIRING_LIST",
  THETAS: "PE_THETA_LIST",
  METHODS: "PE_METHOD_LIST",
  ROPE_TYPES: "PE_ROPE_TYPE_LIST",
  CACHE_LAYOUTS: "PE_CACHE_LAYOUT_LIST",
  CACHE_DTYPES: "PE_CACHE_DTYPE_LIST",
};

const frozen = (value) => `Object.freeze(${JSON.stringify(value)})`;
const lines = [
  "// Generated by src/core/constants_to_js.js from src/core/status.h,",
  "// enums.h, rope_scaling.h and bounds.h. Edit those, not this file.",
  "",
  "// STATUS[code]: { error, options, rule } of every status of the C core;",
  '// error is "TypeError", "RangeError" or null (for PE_OK), options the',
  "// paths of the options it is about, rule what they must be.",
  `export const STATUS = Object.freeze([\n${statuses(header("status.h"))
    .map(
      ({ error, options, rule }) => `  ${frozen({ error, options, rule })},\n`,
    )
    .join("")}]);`,
  "",
  "// STATUS_NAMES[code]: the C enumerator of each status.",
  `export const STATUS_NAMES = ${frozen(
    statuses(header("status.h")).map(({ name }) => name),
  )};`,
  "",
  "// JS_RULES: [code, error class, description] of each rule only JS checks;",
  "// with STATUS, the registry of error codes (src/error-codes.js).",
  `export const JS_RULES = ${frozen(jsRules(statuses(header("status.h"))))};`,
  "",
  "// Option values in the order of the C enums: value i is passed as i.",
  ...Object.entries(lists).map(
    ([name, list]) =>
      `export const ${name} = ${frozen(enumValues(enums, list))};`,
  ),
  "",
  "// The parameters of a rope type, in the slots of the C core's array.",
  `export const ROPE_PARAMETER_SLOTS = ${frozen(
    enumMembers(
      header("rope_scaling.h"),
      "pe_rope_parameter",
      "ROPE",
      "PARAMETERS",
    ),
  )};`,
  "",
  "// The parameters (option names) each rope type takes and requires.",
  `export const ROPE_TYPE_PARAMETERS = ${frozen(
    ropeParameters(
      header("rope_scaling.h"),
      enumEntries(enums, "PE_ROPE_TYPE_LIST"),
    ),
  )};`,
  "",
  "// The messages of the rope warnings: bit i of pe_rope_warnings is entry i.",
  `export const ROPE_WARNINGS = ${frozen(
    enumValues(header("rope_scaling.h"), "PE_ROPE_WARNING_LIST"),
  )};`,
  "",
  ...Object.entries(bounds(header("bounds.h"))).map(
    ([name, value]) => `export const ${name} = ${value};`,
  ),
  "",
];
writeFileSync(process.argv[2], lines.join("\n"));
