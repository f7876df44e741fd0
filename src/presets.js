// Presets: the sinusoidal embedding of a given library, expressed as table
// engine options. Frequencies are never computed here; each preset only picks
// the schedule, its parameters, the layout and the odd-dim rule.

function deepFreeze(value) {
  if (value !== null && typeof value === "object") {
    for (const key of Object.keys(value)) deepFreeze(value[key]);
    Object.freeze(value);
  }
  return value;
}

export const presets = deepFreeze({
  paper: {
    source: {
      repository: "keras-team/keras-hub",
      file: "keras_hub/src/layers/modeling/sine_position_encoding.py",
      function: "SinePositionEncoding",
    },
    parameters: { maxWavelength: 10000, startIndex: 0 },
    frequency: "omega_i = maxWavelength^(-2i/d)",
    layout: "interleaved: sin(p omega_0), cos(p omega_0), sin(p omega_1), ...",
    oddDim:
      "ceil(d/2) sin columns: the last column is sin(p omega_h), h = floor(d/2)",
    notes:
      "Vaswani et al. 2017. Same values as harvardnlp/annotated-transformer " +
      "PositionalEncoding (which fails for odd d) and HF DistilBERT " +
      "create_sinusoidal_embeddings (same odd-d rule). Positions are " +
      "startIndex, startIndex + 1, ... (keras call(inputs, start_index)); " +
      "startIndex cannot be combined with explicit positions.",
  },
  tensor2tensor: {
    source: {
      repository: "tensorflow/tensor2tensor",
      file: "tensor2tensor/layers/common_attention.py",
      function: "get_timing_signal_1d",
    },
    parameters: { minTimescale: 1, maxTimescale: 10000, startIndex: 0 },
    frequency:
      "omega_i = minTimescale * exp(-i * ln(maxTimescale / minTimescale) / max(h - 1, 1)), h = floor(d/2)",
    layout: "halves: [sin | cos], h columns each",
    oddDim: "a zero last column",
    notes:
      "The code multiplies by minTimescale although its docstring speaks of " +
      "timescales (a reading that would divide); the preset matches the " +
      "code, which differs only when minTimescale != 1. Positions are " +
      "startIndex, startIndex + 1, ... (an integer).",
  },
  fairseq: {
    source: {
      repository: "facebookresearch/fairseq",
      file: "fairseq/modules/sinusoidal_positional_embedding.py",
      function: "SinusoidalPositionalEmbedding.get_embedding",
    },
    parameters: { paddingIdx: null },
    frequency: "omega_i = exp(-i * ln(10000) / (h - 1)), h = floor(d/2)",
    layout: "halves: [sin | cos], h columns each",
    oddDim: "a zero last column; d = 2 and 3 raise (division by h - 1 = 0)",
    notes:
      "Positions are rows of get_embedding's table: a count n gives " +
      "get_embedding(n, d, paddingIdx); explicit positions are what forward() " +
      "indexes (utils.make_positions: paddingIdx + 1, paddingIdx + 2, ... for " +
      "tokens, paddingIdx for pads). The row at position paddingIdx is all " +
      "zeros. Models use paddingIdx = 1 (the dictionary's pad index).",
  },
  whisper: {
    source: {
      repository: "openai/whisper",
      file: "whisper/model.py",
      function: "sinusoids",
    },
    parameters: { maxTimescale: 10000 },
    frequency: "omega_i = exp(-i * ln(maxTimescale) / (h - 1)), h = d/2",
    layout: "halves: [sin | cos], h columns each",
    oddDim: "error (assert channels % 2 == 0); d = 2 gives NaN and is refused",
    notes:
      "The audio encoder's fixed positional_embedding: sinusoids(n_audio_ctx, " +
      "n_audio_state), positions 0 ... n_audio_ctx - 1. The text decoder's " +
      "positional embedding is learned.",
  },
  diffusers: {
    source: {
      repository: "huggingface/diffusers",
      file: "src/diffusers/models/embeddings.py",
      function: "get_timestep_embedding",
    },
    parameters: {
      flipSinToCos: false,
      downscaleFreqShift: 1,
      scale: 1,
      maxPeriod: 10000,
    },
    frequency:
      "omega_i = exp(-ln(maxPeriod) * i / (h - downscaleFreqShift)), h = floor(d/2); angle = scale * t * omega_i",
    layout: "halves: [sin | cos], or [cos | sin] when flipSinToCos",
    oddDim: "a zero last column (after the flip)",
    notes:
      "Positions are timesteps and may be fractional. h - downscaleFreqShift " +
      "must be positive: at 0 the source yields NaN (d = 2, 3 with the " +
      "default shift of 1). Stable Diffusion's UNet uses flipSinToCos = true, " +
      "downscaleFreqShift = 0.",
  },
  "guided-diffusion": {
    source: {
      repository: "openai/guided-diffusion",
      file: "guided_diffusion/nn.py",
      function: "timestep_embedding",
    },
    parameters: { maxPeriod: 10000 },
    frequency: "omega_i = exp(-ln(maxPeriod) * i / h), h = floor(d/2)",
    layout: "halves: [cos | sin]",
    oddDim:
      "a zero last column; dim 1 is refused (the source returns no column)",
    notes:
      "Identical in openai/improved-diffusion; equals diffusers with " +
      "flipSinToCos = true, downscaleFreqShift = 0. Positions are timesteps " +
      "and may be fractional.",
  },
  marian: {
    source: {
      repository: "huggingface/transformers",
      file: "src/transformers/models/marian/modeling_marian.py",
      function: "MarianSinusoidalPositionalEmbedding",
    },
    parameters: { pastKeyValuesLength: 0 },
    frequency: "omega_i = 10000^(-2i/d)",
    layout:
      "halves: [sin | cos], the sin block has ceil(d/2) columns, the cos block floor(d/2)",
    oddDim: "the sin block's last column is sin(p omega_h), h = floor(d/2)",
    notes:
      "Positions are pastKeyValuesLength, pastKeyValuesLength + 1, ... " +
      "(forward's past_key_values_length), or explicit position_ids.",
  },
  mlx: {
    source: {
      repository: "ml-explore/mlx",
      file: "python/mlx/nn/layers/positional_encoding.py",
      function: "SinusoidalPositionalEncoding",
    },
    parameters: {
      minFreq: 0.0001,
      maxFreq: 1,
      scale: null,
      cosFirst: false,
      fullTurns: false,
    },
    frequency:
      "omega_i = maxFreq * (minFreq / maxFreq)^(i / (h - 1)), h = d/2, times 2 pi when fullTurns",
    layout: "halves: [sin | cos], or [cos | sin] when cosFirst",
    oddDim:
      "refused: the source returns 2 * floor(d/2) columns (ask for d - 1); d = 2 gives NaN",
    notes:
      "Every value is multiplied by scale, which defaults to sqrt(2/d) when " +
      "null or 0 (the source's `scale or sqrt(2 / dims)`).",
  },
});

const GENERIC = new Set(["preset", "positions", "dim", "dtype", "view"]);
const NAMES = Object.keys(presets);

// Same prefix as the package's other messages.
const typeError = (message) => new TypeError(`sinusoidal-pe: ${message}`);
const rangeError = (message) => new RangeError(`sinusoidal-pe: ${message}`);

function describe(value) {
  return typeof value === "string" ? JSON.stringify(value) : String(value);
}

// `preset "x": key` prefixes every message so the caller sees both names.
function where(name, key) {
  return `preset "${name}": ${key}`;
}

function number(name, key, value, { above, integer = false } = {}) {
  if (typeof value !== "number") {
    throw typeError(
      `${where(name, key)} must be a number, got ${describe(value)}`,
    );
  }
  const kind = integer ? "an integer" : "a finite number";
  const range = above === undefined ? "" : ` > ${above}`;
  const ok =
    Number.isFinite(value) &&
    (!integer || Number.isInteger(value)) &&
    (above === undefined || value > above);
  if (!ok) {
    throw rangeError(
      `${where(name, key)} must be ${kind}${range}, got ${describe(value)}`,
    );
  }
  return value;
}

function nonNegativeInteger(name, key, value) {
  if (typeof value !== "number") {
    throw typeError(
      `${where(name, key)} must be a number, got ${describe(value)}`,
    );
  }
  if (!Number.isInteger(value) || value < 0) {
    throw rangeError(
      `${where(name, key)} must be an integer >= 0, got ${describe(value)}`,
    );
  }
  return value;
}

function boolean(name, key, value) {
  if (typeof value !== "boolean") {
    throw typeError(
      `${where(name, key)} must be true or false, got ${describe(value)}`,
    );
  }
  return value;
}

// A start offset applies to a count of positions only; with explicit
// positions a nonzero offset is an error and a zero one is left out.
function start(name, key, options, value) {
  if (typeof options.positions === "number") return value;
  if (value !== 0) {
    throw typeError(
      `${where(name, key)} applies when positions is a count; ` +
        `add it to the explicit positions instead`,
    );
  }
  return undefined;
}

// The dim-dependent checks run only on a valid dim; the engine rejects others.
function knownDim(options) {
  const { dim } = options;
  return Number.isInteger(dim) && dim >= 1 ? dim : undefined;
}

function refuse(name, dim, why) {
  throw rangeError(`${where(name, "dim")} ${dim} is refused: ${why}`);
}

function zeroRowsAt(positions, value) {
  if (typeof positions === "number") {
    return Number.isInteger(positions) && value < positions ? [value] : [];
  }
  const rows = [];
  const length = positions?.length;
  if (!Number.isInteger(length)) return rows;
  for (let k = 0; k < length; k++) if (positions[k] === value) rows.push(k);
  return rows;
}

const resolvers = {
  paper(p, options) {
    const engine = {
      schedule: "paper",
      base: number("paper", "maxWavelength", p.maxWavelength, { above: 1 }),
      start: start(
        "paper",
        "startIndex",
        options,
        number("paper", "startIndex", p.startIndex),
      ),
      layout: "interleaved",
      oddDim: "extra-sin",
    };
    return { engine };
  },

  tensor2tensor(p, options) {
    const name = "tensor2tensor";
    const engine = {
      schedule: "timescale",
      minTimescale: number(name, "minTimescale", p.minTimescale, { above: 0 }),
      maxTimescale: number(name, "maxTimescale", p.maxTimescale, { above: 0 }),
      start: start(
        name,
        "startIndex",
        options,
        number(name, "startIndex", p.startIndex, { integer: true }),
      ),
      layout: "halves",
      oddDim: "zero-pad",
    };
    return { engine };
  },

  fairseq(p, options) {
    const { paddingIdx } = p;
    if (paddingIdx !== null)
      nonNegativeInteger("fairseq", "paddingIdx", paddingIdx);
    const dim = knownDim(options);
    if (dim !== undefined && Math.floor(dim / 2) === 1) {
      refuse("fairseq", dim, "get_embedding divides by floor(dim/2) - 1 = 0");
    }
    const engine = {
      schedule: "timescale",
      minTimescale: 1,
      maxTimescale: 10000,
      layout: "halves",
      oddDim: "zero-pad",
    };
    const zeroRows =
      paddingIdx === null ? [] : zeroRowsAt(options.positions, paddingIdx);
    return { engine, zeroRows };
  },

  whisper(p, options) {
    const maxTimescale = number("whisper", "maxTimescale", p.maxTimescale, {
      above: 0,
    });
    const dim = knownDim(options);
    if (dim !== undefined && dim % 2 === 1) {
      refuse("whisper", dim, "sinusoids asserts channels % 2 == 0");
    }
    if (dim === 2) {
      refuse("whisper", dim, "sinusoids divides by dim/2 - 1 = 0 (NaN)");
    }
    const engine = {
      schedule: "timescale",
      minTimescale: 1,
      maxTimescale,
      layout: "halves",
      oddDim: "error",
    };
    return { engine };
  },

  diffusers(p, options) {
    const name = "diffusers";
    const flip = boolean(name, "flipSinToCos", p.flipSinToCos);
    const shift = number(name, "downscaleFreqShift", p.downscaleFreqShift);
    const dim = knownDim(options);
    const h = dim === undefined ? 0 : Math.floor(dim / 2);
    if (h > 0 && !(h - shift > 0)) {
      throw rangeError(
        `${where(name, "downscaleFreqShift")} must be < floor(dim/2) = ${h}, ` +
          `got ${shift} (the source divides by floor(dim/2) - downscaleFreqShift)`,
      );
    }
    const engine = {
      schedule: "shifted",
      base: number(name, "maxPeriod", p.maxPeriod, { above: 1 }),
      shift,
      scale: number(name, "scale", p.scale),
      layout: flip ? "halves-cos-first" : "halves",
      oddDim: "zero-pad",
    };
    return { engine };
  },

  "guided-diffusion"(p, options) {
    if (options.dim === 1) {
      refuse(
        "guided-diffusion",
        1,
        "the source pads with zeros_like(embedding[:, :1]), which has no column when dim is 1",
      );
    }
    const engine = {
      schedule: "shifted",
      base: number("guided-diffusion", "maxPeriod", p.maxPeriod, { above: 1 }),
      shift: 0,
      layout: "halves-cos-first",
      oddDim: "zero-pad",
    };
    return { engine };
  },

  marian(p, options) {
    const offset = nonNegativeInteger(
      "marian",
      "pastKeyValuesLength",
      p.pastKeyValuesLength,
    );
    const engine = {
      schedule: "paper",
      base: 10000,
      start: start("marian", "pastKeyValuesLength", options, offset),
      layout: "halves",
      oddDim: "extra-sin",
    };
    return { engine };
  },

  mlx(p, options) {
    const name = "mlx";
    const minFreq = number(name, "minFreq", p.minFreq, { above: 0 });
    const maxFreq = number(name, "maxFreq", p.maxFreq, { above: 0 });
    const ratio = maxFreq / minFreq;
    if (!Number.isFinite(ratio)) {
      throw rangeError(
        `${where(name, "maxFreq")} / minFreq must be finite, got ${ratio}`,
      );
    }
    if (p.scale !== null) number(name, "scale", p.scale);
    const cosFirst = boolean(name, "cosFirst", p.cosFirst);
    const fullTurns = boolean(name, "fullTurns", p.fullTurns);
    const dim = knownDim(options);
    if (dim !== undefined && dim % 2 === 1) {
      refuse(
        name,
        dim,
        `the source returns 2 * floor(dim/2) = ${dim - 1} columns; ask for dim ${dim - 1}`,
      );
    }
    if (dim === 2) {
      refuse(name, dim, "the source divides by dim/2 - 1 = 0 (NaN)");
    }
    // omega_i = maxFreq * exp(-i ln(maxFreq/minFreq) / (h - 1)): the timescale
    // schedule with minTimescale 1, its angle scaled by maxFreq (and 2 pi).
    const engine = {
      schedule: "timescale",
      minTimescale: 1,
      maxTimescale: ratio,
      scale: fullTurns ? 2 * Math.PI * maxFreq : maxFreq,
      layout: cosFirst ? "halves-cos-first" : "halves",
      oddDim: "error",
    };
    const outputScale = p.scale || (dim === undefined ? 1 : Math.sqrt(2 / dim));
    return { engine, outputScale };
  },
};

// Maps { preset, <the library's parameters>, positions, dim, dtype, view } to
// { options, outputScale, zeroRows }: table engine options, a factor for every
// output value, and the rows that must be all zeros.
export function resolvePreset(options) {
  if (options === null || typeof options !== "object") {
    throw typeError(`options must be an object, got ${describe(options)}`);
  }
  const name = options.preset;
  if (typeof name !== "string") {
    throw typeError(
      `preset must be a string (one of ${NAMES.join(", ")}), got ${describe(name)}`,
    );
  }
  if (!Object.hasOwn(presets, name)) {
    throw rangeError(
      `preset must be one of ${NAMES.join(", ")}, got ${describe(name)}`,
    );
  }
  const { parameters } = presets[name];
  for (const key of Object.keys(options)) {
    if (!GENERIC.has(key) && !Object.hasOwn(parameters, key)) {
      const known = Object.keys(parameters).join(", ");
      throw typeError(
        `${key} is not a parameter of preset "${name}" (its parameters: ${known})`,
      );
    }
  }
  const values = { ...parameters };
  for (const key of Object.keys(parameters)) {
    if (options[key] !== undefined) values[key] = options[key];
  }

  const {
    engine,
    outputScale = 1,
    zeroRows = [],
  } = resolvers[name](values, options);
  const result = {};
  for (const key of ["positions", "dim", "dtype", "view"]) {
    if (options[key] !== undefined) result[key] = options[key];
  }
  for (const [key, value] of Object.entries(engine)) {
    if (value !== undefined) result[key] = value;
  }
  return { options: result, outputScale, zeroRows };
}
