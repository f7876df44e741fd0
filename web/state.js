// The shared controls' state: limits, clamping, the option objects given to
// the library, and the URL hash that makes every view a link. Everything
// read from the hash is untrusted text: it is parsed into numbers or one of
// a fixed list of names, or dropped with a note.
import { lib } from "./library.js";

const { frequencies, LAYOUTS, presets } = lib;
import { LANGUAGES } from "./i18n.js";
import { columnMap } from "./layouts.js";

export const PRESETS = ["custom", ...Object.keys(presets)];

/** The shared controls: kind, limits and default. */
export const CONTROLS = {
  preset: { kind: "choice", choices: PRESETS, fallback: "custom" },
  dim: { kind: "integer", min: 2, max: 4096, fallback: 128 },
  positions: { kind: "integer", min: 1, max: 16384, fallback: 512 },
  base: { kind: "number", min: 1.001, max: 1e9, fallback: 10000 },
  layout: { kind: "choice", choices: LAYOUTS, fallback: "interleaved" },
  start: { kind: "number", min: -1e7, max: 1e7, fallback: 0 },
};

// Each preset's own name for the base of its frequencies, if it has one.
const BASE_PARAMETER = ["maxWavelength", "maxTimescale", "maxPeriod"];

/** The preset parameter that the base control sets, or undefined. */
export function baseParameter(preset) {
  if (preset === "custom") return undefined;
  const parameters = Object.keys(presets[preset].parameters);
  return BASE_PARAMETER.find((name) => parameters.includes(name));
}

/**
 * One control's value from text: `{ value }`, or `{ value, problem }` where
 * problem is "clamped" (outside the limits), "rounded" (a fraction where a
 * whole number is needed) or "invalid", and value the one used instead.
 */
export function readControl(key, text) {
  const control = CONTROLS[key];
  if (control.kind === "choice") {
    return control.choices.includes(text)
      ? { value: text }
      : { value: control.fallback, problem: "invalid" };
  }
  const trimmed = String(text).trim();
  const number = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(trimmed)
    ? Number(trimmed)
    : NaN;
  if (!Number.isFinite(number))
    return { value: control.fallback, problem: "invalid" };
  if (number < control.min || number > control.max)
    return {
      value: Math.min(control.max, Math.max(control.min, number)),
      problem: "clamped",
    };
  if (control.kind === "integer" && !Number.isInteger(number))
    return { value: Math.round(number), problem: "rounded" };
  return { value: number };
}

/** Options for table() at explicit positions, under the current schedule. */
export function optionsAt(state, positions) {
  const options = { ...state.schedule, positions };
  if (state.preset === "custom") options.layout = state.layout;
  return options;
}

/** The state handed to sections, with its option objects and frequencies. */
export function withOptions(values, lang) {
  const { preset, dim, positions, base, layout, start } = values;
  const schedule = preset === "custom" ? { dim, base } : { preset, dim };
  const parameter = baseParameter(preset);
  if (parameter !== undefined) schedule[parameter] = base;
  const options =
    preset === "custom"
      ? { ...schedule, positions, start, layout }
      : {
          ...schedule,
          positions:
            start === 0
              ? positions
              : Float64Array.from({ length: positions }, (_, r) => start + r),
        };
  let omega = null;
  let map = null;
  const tableSchedule =
    preset === "custom" ? { ...schedule, layout } : schedule;
  // Computed once, for every section that asks: the same for all of them.
  const frequenciesOnce = () => (omega ??= frequencies(schedule));
  const columns = () => (map ??= columnMap(tableSchedule));
  let shownLayout = layout;
  // A preset that refuses these values (whisper at an odd dim, say): the
  // page names the field, and the sections that need a table stand aside.
  let refused = null;
  if (preset !== "custom")
    try {
      frequenciesOnce();
      shownLayout = columns().layout;
    } catch {
      refused = {
        preset,
        dim,
        odd: dim % 2 === 1 && presets[preset].columns.oddDim === "error",
      };
    }
  return {
    lang,
    preset,
    dim,
    positions,
    base,
    layout: shownLayout,
    start,
    refused,
    options,
    schedule,
    frequencies: frequenciesOnce,
    // Which columns hold the sin and cos of which pair, from the table.
    columns,
  };
}

// Longer hashes are not links the page wrote.
const MAX_HASH = 2000;
const KEY = /^[a-z][a-z0-9]{0,20}(\.[a-z][a-zA-Z0-9]{0,30})?$/;

/**
 * The hash's entries as a Map, or `{ tooLong: true }`. Keys that are not
 * plain names are dropped (odd), and so are later copies of a key
 * (repeated: the first one counts); values stay text for the readers to
 * parse.
 */
export function parseHash(hash) {
  const text = String(hash).replace(/^#/, "");
  if (text.length > MAX_HASH)
    return { entries: new Map(), odd: [], repeated: [], tooLong: true };
  const entries = new Map();
  const odd = [];
  const repeated = [];
  for (const part of text.split("&")) {
    if (part === "") continue;
    const cut = part.indexOf("=");
    let key, value;
    try {
      key = decodeURIComponent(cut < 0 ? part : part.slice(0, cut));
      value = cut < 0 ? "" : decodeURIComponent(part.slice(cut + 1));
    } catch {
      odd.push(part);
      continue;
    }
    if (!KEY.test(key)) odd.push(key);
    else if (entries.has(key)) repeated.push(key);
    else entries.set(key, value);
  }
  return { entries, odd, repeated, tooLong: false };
}

// Keys of older links, and their names now: the context-extension panel
// was part of the decay section before it had a section of its own.
const RENAMED = new Map([
  ["decay.rope", "extension.rope"],
  ["decay.seqLen", "extension.seqLen"],
  ["decay.ropeRange", "extension.ropeRange"],
]);

/**
 * Hash entries with older keys under their names now, in place, without a
 * note: an old link still opens what it showed. Where the link has both, the
 * new key's value counts.
 */
export function renameOldKeys(entries) {
  const renamed = new Map();
  for (const [key, value] of entries) {
    const now = RENAMED.get(key);
    if (now === undefined) renamed.set(key, value);
    else if (!entries.has(now) && !renamed.has(now)) renamed.set(now, value);
  }
  return renamed;
}

/** Controls and language from hash entries, with the problems met. */
export function stateFromEntries(entries, defaultLang) {
  const values = {};
  const problems = [];
  for (const key of Object.keys(CONTROLS)) {
    if (!entries.has(key)) {
      values[key] = CONTROLS[key].fallback;
      continue;
    }
    const read = readControl(key, entries.get(key));
    values[key] = read.value;
    if (read.problem)
      problems.push({ key, value: entries.get(key), used: read.value });
  }
  let lang = defaultLang;
  if (entries.has("lang")) {
    if (LANGUAGES.includes(entries.get("lang"))) lang = entries.get("lang");
    else problems.push({ key: "lang", value: entries.get("lang"), used: lang });
  }
  return { values, lang, problems };
}

/**
 * The hash text of the controls, language and section parameters, ending
 * with the section the reader went to, if any: one link for both.
 */
export function hashOf(values, lang, params, section = "") {
  const parts = [["lang", lang]];
  for (const key of Object.keys(CONTROLS)) parts.push([key, values[key]]);
  for (const [key, value] of params) parts.push([key, value]);
  return (
    "#" +
    parts
      .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
      .join("&") +
    (section ? `&${section}` : "")
  );
}
