import type { RopeScaling } from "./rope-scaling.js";

/** What `fromConfig` reads: the options of `ropeFrequencies`, `ropeCache` and `rope`. */
export interface ConfigRopeOptions {
  /** The head dim (head_dim, or hidden_size / num_attention_heads, GPT-J's n_embd / n_head; DeepSeek's qk_rope_head_dim; Gemma 4's global_head_dim on full-attention layers). */
  dim: number;
  /** int(dim · partial_rotary_factor) (a top-level factor over the rope dict's; GPT-NeoX's rotary_pct), GPT-J's rotary_dim, or dim. */
  rotaryDim: number;
  /** rope_theta: the rope dict's, else the config's, else the model class's default. */
  base: number;
  scaling: RopeScaling;
  /** The pairs the model's code rotates, from the census of transformers' RoPE models (docs/models.md): "interleaved" for adjacent columns (GPT-J, CodeGen, Cohere, GLM, Helium, Llama 4, DeepSeek-V2, DeepSeek-V3 while rope_interleave holds), "halves" for rotate_half (Llama and most others); a model type outside the census is read as "halves" with a warning, unless `pairing` is given. */
  pairing: "halves" | "interleaved";
  /** M-RoPE's mrope_section, when the config has one. */
  mropeSection?: number[];
  /** M-RoPE's layout: Qwen3-VL's always interleaved, Qwen2-VL's never, else mrope_interleaved. */
  mropeInterleaved?: boolean;
  /** What transformers would only log (unknown rope keys, a field it overrides): not enumerable, so `{ ...options }` spreads into every function. */
  readonly warnings: readonly string[];
}

export interface FromConfigOptions {
  /** The layer type ("full_attention", "sliding_attention") of a config whose RoPE differs by layer type (Gemma 2/3/4, ModernBERT). */
  layerType?: string;
  /** The pairs the model rotates, for a model type outside the census (whose reading then carries no assumption); given for a census model, it is used with a warning where the census disagrees. */
  pairing?: "halves" | "interleaved";
}

/**
 * The RoPE options of a parsed config.json as transformers v5 reads it,
 * v4 (rope_theta, rope_scaling, partial_rotary_factor) or v5
 * (rope_parameters, flat or per layer type) alike; a multimodal config's
 * text_config is read. Only the fields RoPE uses are read, each once. A
 * missing or bad value, or a model without RoPE, is a TypeError or
 * RangeError naming the field (`error.option` its path); keys transformers
 * ignores are listed in `warnings`.
 */
export function fromConfig(
  config: object,
  options?: FromConfigOptions,
): ConfigRopeOptions;
