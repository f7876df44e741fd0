// Presets: the sinusoidal embedding of a given library, expressed as table
// engine options. Frequencies are never computed here; each preset only picks
// the schedule, its parameters, the layout and the odd-dim rule. Each
// preset's `columns` is its layout and odd-dim rule as table options take
// them (the layout at the default parameters; `cosFirstWhen` names the
// boolean parameter that puts the cos block first): the resolvers read them
// from there, and the C column rule places the columns.
import {
  boolean,
  finiteNumber,
  integer,
  rangeError,
  typeError,
} from "./options.js";

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
    columns: { layout: "interleaved", oddDim: "extra-sin" },
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
    columns: { layout: "halves", oddDim: "zero-pad" },
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
    columns: { layout: "halves", oddDim: "zero-pad" },
    notes:
      "Positions are rows of get_embedding's table: a count n gives " +
      "get_embedding(n, d, paddingIdx); explicit positions are what forward() " +
      "indexes (utils.make_positions: paddingIdx + 1, paddingIdx + 2, ... for " +
      "tokens, paddingIdx for pads). With a count n, row paddingIdx is all " +
      "zeros, negative indices counting from the end, and an index outside " +
      "the n rows is a RangeError (the source's IndexError). With explicit " +
      "positions every row at position paddingIdx is zeros and a negative " +
      "paddingIdx is refused (the table's size is not known). Models use " +
      "paddingIdx = 1 (the dictionary's pad index).",
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
    columns: { layout: "halves", oddDim: "error" },
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
    columns: {
      layout: "halves",
      oddDim: "zero-pad",
      cosFirstWhen: "flipSinToCos",
    },
    notes:
      "Positions are timesteps and may be fractional. h - downscaleFreqShift " +
      "must not be 0: there the source divides by zero and yields NaN (d = 2, " +
      "3 with the default shift of 1); above h the frequencies grow, as in " +
      "the source. Stable Diffusion's UNet uses flipSinToCos = true, " +
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
    columns: { layout: "halves-cos-first", oddDim: "zero-pad" },
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
    columns: { layout: "halves", oddDim: "extra-sin" },
    notes:
      "Positions are pastKeyValuesLength, pastKeyValuesLength + 1, ... " +
      "(forward's past_key_values_length), or explicit position_ids.",
  },
  mlx: {
    source: {
      repository: "ml-explore/mlx",
      file: "python/mlx/nn/layers/positional_encoding.py",
      function: "SinusoidalPositionalEncoding",
      release: "v0.32.1 (3a6219917e45)",
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
      "refused, as the source raises ValueError for odd dims; d = 2 has the one frequency maxFreq",
    columns: { layout: "halves", oddDim: "error", cosFirstWhen: "cosFirst" },
    notes:
      "Every value is multiplied by scale, sqrt(2/d) when null (the " +
      "source's `scale if scale is not None else sqrt(2 / dims)`): 0 gives " +
      "zeros. mlx before v0.32 read 0 as the default, returned d - 1 " +
      "columns for an odd d and NaN for d = 2; to get its 0 behaviour, " +
      "leave scale null.",
  },
});

const NAMES = Object.keys(presets);

function refuse(name, dim, why) {
  throw rangeError(
    `preset "${name}" refuses option "dim" = ${dim}: ${why}`,
    "dim",
    "ERR_PRESET_DIM",
  );
}

const resolvers = {
  paper(p) {
    const engine = {
      schedule: "paper",
      base: finiteNumber(p.maxWavelength, "maxWavelength", {
        above: 1,
        code: "ERR_BASE",
      }),
    };
    const start = finiteNumber(p.startIndex, "startIndex");
    return { engine, start: { key: "startIndex", value: start } };
  },

  tensor2tensor(p) {
    const engine = {
      schedule: "timescale",
      minTimescale: finiteNumber(p.minTimescale, "minTimescale", {
        above: 0,
        code: "ERR_TIMESCALE",
      }),
      maxTimescale: finiteNumber(p.maxTimescale, "maxTimescale", {
        above: 0,
        code: "ERR_TIMESCALE",
      }),
    };
    const start = integer(p.startIndex, "startIndex");
    return { engine, start: { key: "startIndex", value: start } };
  },

  fairseq(p, dim) {
    const padding =
      p.paddingIdx === null ? null : integer(p.paddingIdx, "paddingIdx");
    if (Math.floor(dim / 2) === 1)
      refuse("fairseq", dim, "get_embedding divides by floor(dim/2) - 1 = 0");
    const engine = {
      schedule: "timescale",
      minTimescale: 1,
      maxTimescale: 10000,
    };
    return { engine, padding };
  },

  whisper(p, dim) {
    const maxTimescale = finiteNumber(p.maxTimescale, "maxTimescale", {
      above: 0,
      code: "ERR_TIMESCALE",
    });
    if (dim % 2 === 1)
      refuse("whisper", dim, "sinusoids asserts channels % 2 == 0");
    if (dim === 2)
      refuse("whisper", dim, "sinusoids divides by dim/2 - 1 = 0 (NaN)");
    const engine = {
      schedule: "timescale",
      minTimescale: 1,
      maxTimescale,
    };
    return { engine };
  },

  diffusers(p, dim) {
    boolean(p.flipSinToCos, "flipSinToCos");
    const shift = finiteNumber(p.downscaleFreqShift, "downscaleFreqShift", {
      code: "ERR_SHIFT",
    });
    const h = Math.floor(dim / 2);
    if (h > 0 && h - shift === 0)
      throw rangeError(
        `option "downscaleFreqShift" must differ from floor(dim/2) = ${h}, got ${shift} (the source divides by floor(dim/2) - downscaleFreqShift)`,
        "downscaleFreqShift",
        "ERR_SHIFT",
      );
    const engine = {
      schedule: "shifted",
      base: finiteNumber(p.maxPeriod, "maxPeriod", {
        above: 1,
        code: "ERR_BASE",
      }),
      shift,
      scale: finiteNumber(p.scale, "scale", { code: "ERR_SCALE" }),
    };
    return { engine };
  },

  "guided-diffusion"(p, dim) {
    if (dim === 1)
      refuse(
        "guided-diffusion",
        1,
        "the source pads with zeros_like(embedding[:, :1]), which has no column when dim is 1",
      );
    const engine = {
      schedule: "shifted",
      base: finiteNumber(p.maxPeriod, "maxPeriod", {
        above: 1,
        code: "ERR_BASE",
      }),
      shift: 0,
    };
    return { engine };
  },

  marian(p) {
    const start = integer(p.pastKeyValuesLength, "pastKeyValuesLength", 0);
    const engine = {
      schedule: "paper",
      base: 10000,
    };
    return { engine, start: { key: "pastKeyValuesLength", value: start } };
  },

  mlx(p, dim) {
    const minFreq = finiteNumber(p.minFreq, "minFreq", { above: 0 });
    const maxFreq = finiteNumber(p.maxFreq, "maxFreq", { above: 0 });
    // The frequencies run from maxFreq to minFreq through powers of their
    // ratio, which must stay finite both ways.
    const ratio = maxFreq / minFreq;
    if (!Number.isFinite(ratio) || !Number.isFinite(1 / ratio))
      throw rangeError(
        `options "maxFreq" and "minFreq" must have a ratio whose value and reciprocal are finite, got maxFreq ${maxFreq} / minFreq ${minFreq} = ${ratio}`,
        "maxFreq",
        "ERR_OUT_OF_RANGE",
      );
    const scale =
      p.scale === null
        ? null
        : finiteNumber(p.scale, "scale", { code: "ERR_OUTPUT_SCALE" });
    boolean(p.cosFirst, "cosFirst");
    const fullTurns = boolean(p.fullTurns, "fullTurns");
    if (dim % 2 === 1)
      refuse(
        "mlx",
        dim,
        "the source raises ValueError: dims must be positive and even",
      );
    // omega_i = maxFreq * exp(-i ln(maxFreq/minFreq) / (h - 1)): the timescale
    // schedule with minTimescale 1, its angle scaled by maxFreq (and 2 pi).
    // At dim 2 its one frequency is maxFreq, as the source's.
    const engine = {
      schedule: "timescale",
      minTimescale: 1,
      maxTimescale: ratio,
      scale: fullTurns ? 2 * Math.PI * maxFreq : maxFreq,
    };
    const outputScale = scale ?? Math.sqrt(2 / dim);
    return { engine, outputScale };
  },
};

/**
 * Maps a preset's name, its parameters (`given`: a plain object holding only
 * the preset's parameters) and a valid dim to { engine, outputScale, start, padding }:
 * schedule options for the engine; a factor for every output value; the
 * first position when positions are a count ({ key, value }), and fairseq's
 * padding index (see paddingRows). Unknown parameters are refused.
 */
export function resolvePreset(name, given, dim) {
  if (typeof name !== "string")
    throw typeError(
      `option "preset" must be one of ${NAMES.join(", ")}, got ${name === null ? "null" : typeof name}`,
      "preset",
      "ERR_NOT_STRING",
    );
  if (!Object.hasOwn(presets, name))
    throw rangeError(
      `option "preset" must be one of ${NAMES.join(", ")}, got ${JSON.stringify(name)}`,
      "preset",
      "ERR_NOT_ONE_OF",
    );
  const { parameters } = presets[name];
  for (const key of Object.keys(given))
    if (!Object.hasOwn(parameters, key))
      throw typeError(
        `option "${key}" is not a parameter of preset "${name}" (its parameters: ${Object.keys(parameters).join(", ")})`,
        key,
        "ERR_NOT_APPLICABLE",
      );
  const values = { ...parameters };
  for (const key of Object.keys(given))
    if (given[key] !== undefined) values[key] = given[key];
  const {
    engine,
    outputScale = 1,
    start = null,
    padding = null,
  } = resolvers[name](values, dim);
  const { layout, oddDim, cosFirstWhen } = presets[name].columns;
  return {
    engine: {
      ...engine,
      layout:
        cosFirstWhen && values[cosFirstWhen] ? `${layout}-cos-first` : layout,
      oddDim,
    },
    outputScale,
    start,
    padding,
  };
}

/**
 * The rows that fairseq's padding index zeroes. A count n of positions is
 * get_embedding(n, dim, paddingIdx): row paddingIdx, counted from the end
 * when negative, and an index outside the n rows is an error, as the
 * source's IndexError. Explicit positions are indices into that table, of
 * unknown size: rows at position paddingIdx are zeroed, and a negative index
 * is refused.
 */
export function paddingRows(padding, count, positions) {
  if (padding === null) return [];
  if (positions === null) {
    if (padding < -count || padding >= count)
      throw rangeError(
        `option "paddingIdx" must be in [${-count}, ${count - 1}] for a table of ${count} positions (get_embedding raises IndexError), got ${padding}`,
        "paddingIdx",
        "ERR_OUT_OF_RANGE",
      );
    return [padding < 0 ? count + padding : padding];
  }
  if (padding < 0)
    throw rangeError(
      `option "paddingIdx" must be >= 0 with explicit positions (a negative index counts from the end of a table, which explicit positions do not have), got ${padding}`,
      "paddingIdx",
      "ERR_OUT_OF_RANGE",
    );
  const rows = [];
  for (let r = 0; r < count; r++) if (positions[r] === padding) rows.push(r);
  return rows;
}
