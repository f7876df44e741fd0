/* The named choices of the API. Each list gives the C enumerator and the JS
   option value; the value is the position in the list, which JS passes to
   the core, and PE_<KIND>_COUNT bounds the valid range. */
#ifndef PE_ENUMS_H
#define PE_ENUMS_H

#include <stdint.h>

/* Columns of a table row: sin, cos per pair (the paper); cos, sin per pair;
   [sin | cos]; [cos | sin]. */
#define PE_LAYOUT_LIST(X)                                                      \
  X(PE_LAYOUT_INTERLEAVED, "interleaved")                                      \
  X(PE_LAYOUT_INTERLEAVED_COS_FIRST, "interleaved-cos-first")                  \
  X(PE_LAYOUT_HALVES, "halves")                                                \
  X(PE_LAYOUT_HALVES_COS_FIRST, "halves-cos-first")

/* The column without a partner of an odd dim d: a zero last column;
   ceil(d/2) sin columns, the last one of w_h; or odd d refused. */
#define PE_ODD_DIM_LIST(X)                                                     \
  X(PE_ODD_ZERO_PAD, "zero-pad")                                               \
  X(PE_ODD_EXTRA_SIN, "extra-sin")                                             \
  X(PE_ODD_ERROR, "error")

/* Frequencies, h = floor(d/2): w_i = base^(-2i/d);
   w_i = min exp(-i ln(max/min) / max(h - 1, 1));
   w_i = exp(-ln(base) i / (h - shift)). */
#define PE_SCHEDULE_LIST(X)                                                    \
  X(PE_SCHEDULE_PAPER, "paper")                                                \
  X(PE_SCHEDULE_TIMESCALE, "timescale")                                        \
  X(PE_SCHEDULE_SHIFTED, "shifted")

/* Output element types: JS calls the _f32 or the _f64 function. */
#define PE_DTYPE_LIST(X)                                                       \
  X(PE_DTYPE_FLOAT32, "float32")                                               \
  X(PE_DTYPE_FLOAT64, "float64")

/* Columns RoPE rotates together: (2i, 2i+1), GPT-J's rotate_every_two; or
   (i, i + d/2), HF Llama's rotate_half. */
#define PE_PAIRING_LIST(X)                                                     \
  X(PE_PAIRING_INTERLEAVED, "interleaved")                                     \
  X(PE_PAIRING_HALVES, "halves")

/* Frequency families theta(t) of the decay integral: base^-t, base > 1 (the
   paper: 10000); t^alpha, alpha > 0; t, whose f(x) is sin(x) / x. */
#define PE_THETA_LIST(X)                                                       \
  X(PE_THETA_EXP, "exp")                                                       \
  X(PE_THETA_POWER, "power")                                                   \
  X(PE_THETA_LINEAR, "linear")

/* How the decay integral is evaluated: JS calls pe_decay_integral or
   pe_decay_integral_quadrature. */
#define PE_METHOD_LIST(X)                                                      \
  X(PE_METHOD_CLOSED_FORM, "closed-form")                                      \
  X(PE_METHOD_QUADRATURE, "quadrature")

/* Context-extension types of RoPE (Hugging Face's rope_type): base^(-2i/d);
   divided by factor; NTK-aware base growing with the sequence; YaRN;
   LongRoPE's per-pair factors; Llama 3's smooth band; Gemma 4's
   proportional: base^(-2i/d) on the first partialRotaryFactor of the pairs,
   0 on the rest, all divided by factor. */
#define PE_ROPE_TYPE_LIST(X)                                                   \
  X(PE_ROPE_DEFAULT, "default")                                                \
  X(PE_ROPE_LINEAR, "linear")                                                  \
  X(PE_ROPE_DYNAMIC, "dynamic")                                                \
  X(PE_ROPE_YARN, "yarn")                                                      \
  X(PE_ROPE_LONGROPE, "longrope")                                              \
  X(PE_ROPE_LLAMA3, "llama3")                                                  \
  X(PE_ROPE_PROPORTIONAL, "proportional")

/* Columns of a RoPE cache row: [n, dim/2] (onnxruntime's cos_cache);
   [n, dim], cat(freqs, freqs) as HF returns; [n, dim], each value twice
   (GPT-J, RoFormer). */
#define PE_CACHE_LAYOUT_LIST(X)                                                \
  X(PE_CACHE_HALF, "half")                                                     \
  X(PE_CACHE_DUPLICATED, "duplicated")                                         \
  X(PE_CACHE_INTERLEAVED, "interleaved")

/* Element types of a RoPE cache; float16 is IEEE half bits in uint16. */
#define PE_CACHE_DTYPE_LIST(X)                                                 \
  X(PE_CACHE_FLOAT32, "float32")                                               \
  X(PE_CACHE_FLOAT64, "float64")                                               \
  X(PE_CACHE_FLOAT16, "float16")

#define PE_ENUMERATOR(name, value) name,
enum pe_layout { PE_LAYOUT_LIST(PE_ENUMERATOR) PE_LAYOUT_COUNT };
enum pe_odd_dim { PE_ODD_DIM_LIST(PE_ENUMERATOR) PE_ODD_DIM_COUNT };
enum pe_schedule { PE_SCHEDULE_LIST(PE_ENUMERATOR) PE_SCHEDULE_COUNT };
enum pe_dtype { PE_DTYPE_LIST(PE_ENUMERATOR) PE_DTYPE_COUNT };
enum pe_pairing { PE_PAIRING_LIST(PE_ENUMERATOR) PE_PAIRING_COUNT };
enum pe_theta { PE_THETA_LIST(PE_ENUMERATOR) PE_THETA_COUNT };
enum pe_method { PE_METHOD_LIST(PE_ENUMERATOR) PE_METHOD_COUNT };
enum pe_rope_type { PE_ROPE_TYPE_LIST(PE_ENUMERATOR) PE_ROPE_TYPE_COUNT };
enum pe_cache_layout {
  PE_CACHE_LAYOUT_LIST(PE_ENUMERATOR) PE_CACHE_LAYOUT_COUNT
};
enum pe_cache_dtype { PE_CACHE_DTYPE_LIST(PE_ENUMERATOR) PE_CACHE_DTYPE_COUNT };
#undef PE_ENUMERATOR

/* Whether value is a member of an enum with `count` members. */
#define PE_IN_ENUM(value, count) ((value) >= 0 && (value) < (int32_t)(count))

#endif
