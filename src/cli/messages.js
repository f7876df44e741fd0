// The library's refusals in the command line's words: each option the
// library names becomes the flag the user typed ("oddDim" → --odd-dim,
// "scaling.factor" → the key of --scaling's JSON as written); an option read
// from --config is named as the config's, never as a flag the user did not
// give.

/** What the user typed for each library option, filled in as flags are read. */
export class Names {
  constructor() {
    // Library option path → "--flag": the command's flags, with the one
    // the user gave where two flags set one option (--positions-file).
    this.flags = new Map();
    // --scaling's keys: the library's name → the key as written.
    this.scaling = new Map();
    this.snakeScaling = false;
    // The --config file and the options read from it, which no flag gave.
    this.config = undefined;
    this.fromConfig = new Set();
  }
  flag(option, flag) {
    this.flags.set(option, `--${flag}`);
  }
  scalingKey(libraryKey) {
    const written = this.scaling.get(libraryKey);
    if (written !== undefined) return written;
    return this.snakeScaling
      ? libraryKey.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)
      : libraryKey;
  }
  // The words for the library option `option`, or undefined for a name
  // that is no option of the command (a config field, a preset's value).
  of(option) {
    if (this.fromConfig.has(option.split(".")[0]))
      return `"${option}" of --config ${this.config}`;
    if (this.flags.has(option)) return this.flags.get(option);
    if (option.startsWith("scaling.") && this.flags.has("scaling"))
      return `--scaling key ${JSON.stringify(this.scalingKey(option.slice(8)))}`;
    return undefined;
  }
}

/**
 * Whether the library refused only the probe's `out` (which fits no result)
 * or the size of a result, which blocks never reach: every other refusal of
 * a probe is the user's.
 */
export function isProbeRefusal(error) {
  return (
    /option "out/.test(error?.message) || /address space/.test(error?.message)
  );
}

/**
 * The text of a refusal for the command line: a library TypeError or
 * RangeError with its option names put as the user's flags, up to the value
 * it shows ("got …"), which is the user's own text.
 */
export function describe(error, names) {
  const message = error.message;
  const cut = message.search(/\bgot\b/);
  const head = cut < 0 ? message : message.slice(0, cut);
  const named = head.replace(/"([\w.]+)"/g, (quoted, key) => {
    const flag = names.of(key);
    if (flag !== undefined) return flag;
    if (names.scaling.has(key) && /"scaling"/.test(head))
      return JSON.stringify(names.scaling.get(key));
    return quoted;
  });
  return named + (cut < 0 ? "" : message.slice(cut));
}
