import type { RopeScaling } from "./rope-scaling.js";

/** What `fromConfig` reads: the options of `ropeFrequencies`, `ropeCache` and `rope`. */
export interface ConfigRopeOptions {
  /** The head dim (head_dim, or hidden_size / num_attention_heads; DeepSeek's qk_rope_head_dim; Gemma 4's global_head_dim on full-attention layers). */
  dim: number;
  /** int(dim · partial_rotary_factor), or dim. */
  rotaryDim: number;
  /** rope_theta. */
  base: number;
  scaling: RopeScaling;
  /** M-RoPE's mrope_section, when the config has one. */
  mropeSection?: number[];
  /** M-RoPE's mrope_interleaved, when the config has one. */
  mropeInterleaved?: boolean;
}

export interface FromConfigOptions {
  /** The layer type ("full_attention", "sliding_attention") of a config whose RoPE differs by layer type (Gemma 2/3/4, ModernBERT). */
  layerType?: string;
}

/**
 * The RoPE options of a parsed config.json as transformers v4 (rope_theta,
 * rope_scaling, partial_rotary_factor) or v5 (rope_parameters, flat or per
 * layer type) writes it; a multimodal config's text_config is read. A field
 * it does not understand, a missing one, or a bad value is a TypeError or
 * RangeError naming the field.
 */
export function fromConfig(
  config: object,
  options?: FromConfigOptions,
): ConfigRopeOptions;
