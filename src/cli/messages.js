// The library's refusals in the command line's words. Every library error
// about an input carries `option` (the option's path, "scaling.factor"),
// `code` (the rule) and `function`; the option is mapped to the flag the user
// typed ("oddDim" → --odd-dim, "scaling.factor" → the key of --scaling's JSON
// as written), and an option read from --config is named as the config's,
// never as a flag the user did not give.

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
 * Whether the library refused only a probe's `out` (which fits no result)
 * or the size of one call's result, which blocks never reach: every other
 * refusal of a probe is the user's.
 */
export function isProbeRefusal(error) {
  const option = error?.option;
  return (
    option === "out" ||
    (typeof option === "string" && option.startsWith("out.")) ||
    error?.code === "ERR_SIZE" ||
    error?.code === "ERR_TOO_LARGE"
  );
}

// Rules whose library text speaks to JavaScript callers, in the command
// line's own words: by code, for the options they concern.
const OWN_WORDS = {
  ERR_REQUIRED: (option, names) =>
    option === "layerType"
      ? `option --config ${names.config} holds RoPE parameters per layer type: give --layer-type with the one to write (as its rope_parameters names them, e.g. full_attention)`
      : undefined,
};

/**
 * The text of a library TypeError or RangeError for the command line: its
 * option, wherever the message quotes it, put as the user's flag.
 */
export function describe(error, names) {
  const { option, code, message } = error;
  if (typeof option !== "string") return unnamed(error, names);
  const own = OWN_WORDS[code]?.(option, names);
  if (own !== undefined) return `sinusoidal-pe: ${own}`;
  const words = names.of(option, error.function);
  const quoted = `"${option}"`;
  if (words === undefined || !message.includes(quoted))
    return unnamed(error, names);
  return message.replaceAll(quoted, words);
}

// An error that carries no option the command knows (the rules of
// rope_scaling and of config.json reading give none yet): the names it
// quotes are put as the command's flags, up to the value it shows
// ("got …"), which is the user's own text.
function unnamed(error, names) {
  const { message } = error;
  const cut = message.search(/\bgot\b/);
  const head = cut < 0 ? message : message.slice(0, cut);
  const named = head.replace(/"([\w.]+)"/g, (quoted, key) => {
    // fromConfig's messages name config fields and its own options.
    const config = error.function === "fromConfig" || names.readingConfig;
    if (config && key !== "layerType") return quoted;
    const words = names.of(key, error.function);
    if (words !== undefined) return words;
    if (names.scaling.has(key) && /"scaling"/.test(head))
      return JSON.stringify(names.scaling.get(key));
    return quoted;
  });
  return named + (cut < 0 ? "" : message.slice(cut));
}
