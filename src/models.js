// The census of RoPE in transformers' model code: for each model_type, what
// its modeling code does to q and k, as read from the files that
// `SOURCES` names. fromConfig reads the rotation facts; docs/models.md is
// rendered from both tables (tests/census/render.js).
//
// A rotation entry holds only what differs from Llama's rule:
//   pairing        "interleaved": adjacent pairs (2i, 2i + 1); else halves
//                  (i, i + h), rotate_half
//   interleaveFlag the config field that switches adjacent pairs on and its
//                  default: [field, default]
//   theta          the class default rope_theta (10000 when absent)
//   partial        the class default partial_rotary_factor
//   rotaryDim      the class default rotary_dim (its field named so)
//   originalMax    the class default original_max_position_embeddings,
//                  which overrides the rope dict's as a top-level field does
//   mrope          "sections" (Qwen2-VL) or "interleaved" (Qwen3-VL)
//   text           a wrapper: RoPE is its text_config's, of this model type
//   none           no RoPE on token positions: what it uses instead
//   vision         RoPE over image patches or video only: which
export const MODELS = {
  codegen: { pairing: "interleaved", rotaryDim: 64 },
  cohere: { pairing: "interleaved" },
  cohere2: { pairing: "interleaved" },
  deepseek_v2: { pairing: "interleaved" },
  deepseek_v3: { interleaveFlag: ["rope_interleave", true] },
  falcon: {},
  glm: { pairing: "interleaved", partial: 0.5 },
  glm4: { pairing: "interleaved", partial: 0.5 },
  gpt_neox: { partial: 0.25 },
  gpt_neox_japanese: { partial: 1 },
  gptj: { pairing: "interleaved", rotaryDim: 64 },
  helium: { pairing: "interleaved" },
  llama: {},
  llama4: { text: "llama4_text" },
  llama4_text: { pairing: "interleaved", theta: 500000 },
  mistral: {},
  mixtral: { theta: 1000000 },
  persimmon: { theta: 25000, partial: 0.5 },
  phi: { partial: 0.5 },
  phi3: { originalMax: 4096 },
  qwen2: {},
  qwen2_5_vl: { text: "qwen2_5_vl_text" },
  qwen2_5_vl_text: { mrope: "sections" },
  qwen2_vl: { text: "qwen2_vl_text" },
  qwen2_vl_text: { mrope: "sections" },
  qwen3_vl: { text: "qwen3_vl_text" },
  qwen3_vl_moe: { text: "qwen3_vl_moe_text" },
  qwen3_vl_moe_text: { mrope: "interleaved" },
  qwen3_vl_text: { mrope: "interleaved" },
  stablelm: { partial: 0.25 },

  albert: { none: "learned absolute position embeddings" },
  bart: { none: "learned absolute position embeddings" },
  bert: { none: "learned absolute position embeddings" },
  bloom: { none: "ALiBi attention biases" },
  distilbert: { none: "learned absolute position embeddings" },
  electra: { none: "learned absolute position embeddings" },
  gpt2: { none: "learned absolute position embeddings" },
  gpt_bigcode: { none: "learned absolute position embeddings" },
  mpt: { none: "ALiBi attention biases" },
  opt: { none: "learned absolute position embeddings" },
  roberta: { none: "learned absolute position embeddings" },
  t5: { none: "relative position buckets" },
  "xlm-roberta": { none: "learned absolute position embeddings" },
};

// Where each entry was read: the modeling and configuration files of
// huggingface/transformers, at the commits named.
export const SOURCES = {};

/** The census entry of a model type, or undefined outside the census. */
export function modelOf(type) {
  return type !== undefined && Object.hasOwn(MODELS, type)
    ? MODELS[type]
    : undefined;
}
