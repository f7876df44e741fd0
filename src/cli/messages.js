// The library's refusals in the command line's words. Every library error
// about an input carries `option` (the option's path, "scaling.factor"),
// `code` (the rule) and `function`; the option is mapped to the flag the user
// typed ("oddDim" → --odd-dim, "scaling.factor" → the key of --scaling's JSON
// as written), and an option read from --config is named as the config's,
// never as a flag the user did not give.

import { STATUS, STATUS_NAMES } from "sinusoidal-pe-constants";
import { errorCodes } from "../error-codes.js";

/** What the user typed for each library option, filled in as flags are read. */
export class Names {
  constructor() {
    // Library option path → "--flag", for the flags the user gave, and for
    // every flag of the command (one the user may give: "--alpha is
    // required").
    this.given = new Map();
    this.known = new Map();
    // --scaling's keys: the library's name → the key as written.
    this.scaling = new Map();
    this.snakeScaling = false;
    // The --config file and the options read from it, which no flag gave.
    this.config = undefined;
    this.fromConfig = new Set();
    // Whether fromConfig is reading it, whose refusals name its fields.
    this.readingConfig = false;
  }
  flag(option, flag) {
    this.given.set(option, `--${flag}`);
  }
  commandFlag(option, flag) {
    this.known.set(option, `--${flag}`);
  }
  scalingKey(libraryKey) {
    const written = this.scaling.get(libraryKey);
    if (written !== undefined) return written;
    return this.snakeScaling
      ? libraryKey.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)
      : libraryKey;
  }
  // The words for the option `option` of a refusal by `fn`, or undefined
  // for a name that is no option of the command.
  of(option, fn) {
    // fromConfig names the config's fields, and its own option layerType.
    if (fn === "fromConfig" || this.readingConfig)
      return option === "layerType"
        ? (this.given.get(option) ?? this.known.get(option))
        : `"${option}" of --config ${this.config}`;
    if (this.given.has(option)) return this.given.get(option);
    if (this.fromConfig.has(option.split(/[.[]/)[0]))
      return `"${option}" of --config ${this.config}`;
    if (option.startsWith("scaling.") && this.given.has("scaling"))
      return `--scaling key ${JSON.stringify(this.scalingKey(option.slice(8)))}`;
    if (this.known.has(option)) return this.known.get(option);
    return undefined;
  }
}

/**
 * Whether `error` is the library's refusal of an input, a usage error of
 * the command line: a TypeError or RangeError with one of the library's
 * error codes. Any other is no fault of the user's flags.
 */
export function isLibraryRefusal(error) {
  return (
    (error instanceof TypeError || error instanceof RangeError) &&
    typeof error.code === "string" &&
    Object.hasOwn(errorCodes, error.code)
  );
}

/**
 * Whether the library refused only a probe's `out` (which fits no result)
 * or the size of one call's result, which blocks never reach: every other
 * refusal of a probe is the user's.
 */
export function isProbeRefusal(error) {
  const option = error?.option;
  return (
    option === "out" ||
    (typeof option === "string" && option.startsWith("out.")) ||
    error?.code === "ERR_SIZE"
  );
}

// Rules whose library text speaks to JavaScript callers, in the command
// line's own words: by code, for the options they concern.
const OWN_WORDS = {
  ERR_REQUIRED: (option, names) =>
    option === "layerType"
      ? `option --config ${names.config} holds RoPE parameters per layer type: give --layer-type with the one to write (as its rope_parameters names them, e.g. full_attention)`
      : undefined,
  ERR_UNKNOWN_OPTION: (option, names) =>
    option.startsWith("scaling.") && names.given.has("scaling")
      ? `option --scaling has the key ${JSON.stringify(names.scalingKey(option.slice(8)))}, which is no rope_scaling parameter`
      : undefined,
};

// The options a rule is about: the error's own, and for a rule of the core
// (code "ERR_TIMESCALE" for status PE_ERR_TIMESCALE) every option it names.
function optionsOf(error) {
  const status = STATUS_NAMES.indexOf(`PE_${error.code}`);
  const named = status < 0 ? [] : STATUS[status].options;
  return [error.option, ...named.filter((o) => o !== error.option)];
}

/**
 * The text of a library TypeError or RangeError for the command line: the
 * options it is about, wherever the message quotes them, put as the user's
 * flags (or as the --config they came from). Messages are never searched:
 * the options come from the error's `option` and `code`.
 */
export function describe(error, names) {
  const { option, code } = error;
  let { message } = error;
  if (typeof option !== "string") return message;
  const own = OWN_WORDS[code]?.(option, names);
  if (own !== undefined) return `sinusoidal-pe: ${own}`;
  // fromConfig's refusals name its config's fields, one of them `option`:
  // its first mention says which file.
  if (error.function === "fromConfig" || names.readingConfig) {
    const words = names.of(option, error.function);
    return words === undefined
      ? message
      : message.replace(`"${option}"`, () => words);
  }
  for (const name of optionsOf(error)) {
    const words = names.of(name, error.function);
    if (words !== undefined) message = message.replaceAll(`"${name}"`, words);
  }
  return message;
}
