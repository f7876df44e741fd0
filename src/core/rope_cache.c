#include "rope_cache.h"

#include <float.h>
#include <math.h>
#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "angles.h"
#include "bounds.h"
#include "columns.h"
#include "frequencies.h"
#include "half.h"
#include "status.h"

static const size_t element_size[] = {
    [PE_CACHE_FLOAT32] = sizeof(float),
    [PE_CACHE_FLOAT64] = sizeof(double),
    [PE_CACHE_FLOAT16] = sizeof(uint16_t),
};

/* Largest attention factor whose products with cos and sin fit the dtype. */
static const double max_attention[] = {
    [PE_CACHE_FLOAT32] = FLT_MAX,
    [PE_CACHE_FLOAT64] = DBL_MAX,
    [PE_CACHE_FLOAT16] = 65504.0,
};

/* The columns of the copies of value i of a cache row: i (half), or i and
   n + i (duplicated), or 2i and 2i + 1 (interleaved). */
static pe_columns cache_columns(int32_t layout, uint32_t n) {
  return pe_pair_columns(layout == PE_CACHE_INTERLEAVED, n);
}

/* Values [from, nb) of the block, at the columns of values i0 + from ...
   of a float32 or float64 row, once or twice: the tail of every vector
   loop, kept out of line. */
PE_FOR_SIZE __attribute__((noinline)) static void
store_values(void *row, int32_t dtype, int32_t layout, uint32_t n,
             const double *v, uint32_t i0, uint32_t from, uint32_t nb) {
  pe_columns c = cache_columns(layout, n);
  int twice = layout != PE_CACHE_HALF;
  for (uint32_t k = from; k < nb; k++) {
    uint32_t a = pe_first_column(&c, i0 + k), b = pe_second_column(&c, i0 + k);
    if (dtype == PE_CACHE_FLOAT32) {
      ((float *)row)[a] = (float)v[k];
      if (twice)
        ((float *)row)[b] = (float)v[k];
    } else {
      ((double *)row)[a] = v[k];
      if (twice)
        ((double *)row)[b] = v[k];
    }
  }
}

/* Four float32 values i ... i + 3 of a row, in a constant layout. */
static inline __attribute__((always_inline)) void
put4_f32(float *row, int32_t layout, uint32_t n, uint32_t i, v128_t v) {
  pe_columns c = cache_columns(layout, n);
  float *first = row + pe_first_column(&c, i);
  if (layout == PE_CACHE_INTERLEAVED) {
    wasm_v128_store(first, wasm_i32x4_shuffle(v, v, 0, 0, 1, 1));
    wasm_v128_store(first + 4, wasm_i32x4_shuffle(v, v, 2, 2, 3, 3));
  } else {
    wasm_v128_store(first, v);
    if (layout == PE_CACHE_DUPLICATED)
      wasm_v128_store(row + pe_second_column(&c, i), v);
  }
}

static inline __attribute__((always_inline)) void
put2_f64(double *row, int32_t layout, uint32_t n, uint32_t i, v128_t v) {
  pe_columns c = cache_columns(layout, n);
  double *first = row + pe_first_column(&c, i);
  if (layout == PE_CACHE_INTERLEAVED) {
    wasm_v128_store(first, wasm_i64x2_shuffle(v, v, 0, 0));
    wasm_v128_store(first + 2, wasm_i64x2_shuffle(v, v, 1, 1));
  } else {
    wasm_v128_store(first, v);
    if (layout == PE_CACHE_DUPLICATED)
      wasm_v128_store(row + pe_second_column(&c, i), v);
  }
}

/* Rewrites values [i0 + i, i0 + i + 4) of a float32 row at x with their
   exact values: recurrence values too near a float32 rounding boundary
   (rare, out of line). */
__attribute__((noinline)) static void
correct_f32(float *cos_row, float *sin_row, int32_t layout, uint32_t n,
            const pe_angle_block *b, uint32_t i0, uint32_t i, double x,
            double attention) {
  double sin[4], cos[4];
  pe_angle_pairs_exact(b, i, x, attention, sin, cos);
  store_values(cos_row, PE_CACHE_FLOAT32, layout, n, cos, i0 + i, 0, 4);
  store_values(sin_row, PE_CACHE_FLOAT32, layout, n, sin, i0 + i, 0, 4);
}

/* The groups of four pairs at failed[0 .. count) whose values failed the
   screen: each tested exactly, and rewritten with its exact values where
   the recurrence's error leaves a rounding uncertain (out of line). */
__attribute__((noinline)) static void
settle_f32(float *cos_row, float *sin_row, int32_t layout, uint32_t n,
           const pe_angle_block *b, uint32_t i0, const uint32_t *failed,
           uint32_t count, double x, double attention, double e) {
  for (uint32_t f = 0; f < count; f++) {
    uint32_t i = failed[f];
    if (!pe_f32_sure4(wasm_v128_load(b->sin + i), wasm_v128_load(b->cos + i),
                      wasm_v128_load(b->sin + i + 2),
                      wasm_v128_load(b->cos + i + 2), e))
      correct_f32(cos_row, sin_row, layout, n, b, i0, i, x, attention);
  }
}

/* Advances the pairs of the block by one step; with `emit` (a constant),
   also writes them as float32 in a constant layout, fused so that the state
   is read and written once per row: the hot loop of evenly spaced rows. A
   value that fails the screen (of the recurrence's error) and whose
   rounding that error leaves uncertain is replaced by its exact value at
   the row's position x, so every value is the rounding of its exact
   cos/sin, as a seeded row's. */
static inline __attribute__((always_inline)) void
advance_f32(pe_angle_block *b, uint32_t n_pad, float *cos_row, float *sin_row,
            int32_t layout, uint32_t n, uint32_t i0, uint32_t nb, int emit,
            double x, double attention, const pe_f32_screen *screen) {
  double e = pe_recurrence_error(attention);
  pe_f32_screen k = *screen; /* in locals: the row's stores may alias it */
  /* The groups of four pairs whose values fail the screen, noted with no
     branch and settled after the loop: a call inside it would cost every
     group, not only the failed ones. */
  uint32_t failed[PE_BLOCK / 4 + 1], n_failed = 0;
  for (uint32_t i = 0; i < n_pad; i += 4) {
    v128_t s0, c0, s1, c1;
    pe_angle_advance4(b, i, &s0, &c0, &s1, &c1);
    if (emit && i + 4 <= nb) {
      put4_f32(cos_row, layout, n, i0 + i, pe_demote4(c0, c1));
      put4_f32(sin_row, layout, n, i0 + i, pe_demote4(s0, s1));
      v128_t acc = wasm_i32x4_splat(-1);
      acc = pe_f32_screen_add(acc, s0, &k);
      acc = pe_f32_screen_add(acc, c0, &k);
      acc = pe_f32_screen_add(acc, s1, &k);
      acc = pe_f32_screen_add(acc, c1, &k);
      failed[n_failed] = i;
      n_failed += !pe_f32_screen_passes(acc, &k);
    }
  }
  if (emit && n_failed > 0)
    settle_f32(cos_row, sin_row, layout, n, b, i0, failed, n_failed, x,
               attention, e);
  /* The call is out of line: skip it when there is no tail (the hot loop
     runs once per row). */
  if (emit && (nb & 3u) != 0) {
    pe_angle_block_settle(b, nb & ~3u, nb, x, attention, e, 0);
    store_values(cos_row, PE_CACHE_FLOAT32, layout, n, b->cos, i0, nb & ~3u,
                 nb);
    store_values(sin_row, PE_CACHE_FLOAT32, layout, n, b->sin, i0, nb & ~3u,
                 nb);
  }
}

static void advance_emit_f32(pe_angle_block *b, uint32_t n_pad, float *cos_row,
                             float *sin_row, int32_t layout, uint32_t n,
                             uint32_t i0, uint32_t nb, double x,
                             double attention, const pe_f32_screen *screen) {
  if (layout == PE_CACHE_HALF)
    advance_f32(b, n_pad, cos_row, sin_row, PE_CACHE_HALF, n, i0, nb, 1, x,
                attention, screen);
  else if (layout == PE_CACHE_DUPLICATED)
    advance_f32(b, n_pad, cos_row, sin_row, PE_CACHE_DUPLICATED, n, i0, nb, 1,
                x, attention, screen);
  else
    advance_f32(b, n_pad, cos_row, sin_row, PE_CACHE_INTERLEAVED, n, i0, nb, 1,
                x, attention, screen);
}

/* float16 values of a constant layout: one rounding per value, stored once
   or twice. */
static inline __attribute__((always_inline)) void
emit_f16_layout(uint16_t *cos_row, uint16_t *sin_row, int32_t layout,
                uint32_t n, const pe_angle_block *b, uint32_t i0, uint32_t nb) {
  pe_columns cols = cache_columns(layout, n);
  /* Two pairs per conversion; the block state is padded past nb. */
  for (uint32_t i = 0; i < nb; i += 2) {
    v128_t c = pe_half_from_f64x2(wasm_v128_load(b->cos + i));
    v128_t s = pe_half_from_f64x2(wasm_v128_load(b->sin + i));
    uint16_t cv[2] = {(uint16_t)wasm_i64x2_extract_lane(c, 0),
                      (uint16_t)wasm_i64x2_extract_lane(c, 1)};
    uint16_t sv[2] = {(uint16_t)wasm_i64x2_extract_lane(s, 0),
                      (uint16_t)wasm_i64x2_extract_lane(s, 1)};
    for (uint32_t k = 0; k < 2 && i + k < nb; k++) {
      uint32_t first = pe_first_column(&cols, i0 + i + k);
      cos_row[first] = cv[k];
      sin_row[first] = sv[k];
      if (layout != PE_CACHE_HALF) {
        uint32_t second = pe_second_column(&cols, i0 + i + k);
        cos_row[second] = cv[k];
        sin_row[second] = sv[k];
      }
    }
  }
}

static void emit_f16(uint16_t *cos_row, uint16_t *sin_row, int32_t layout,
                     uint32_t n, const pe_angle_block *b, uint32_t i0,
                     uint32_t nb) {
  if (layout == PE_CACHE_HALF)
    emit_f16_layout(cos_row, sin_row, PE_CACHE_HALF, n, b, i0, nb);
  else if (layout == PE_CACHE_DUPLICATED)
    emit_f16_layout(cos_row, sin_row, PE_CACHE_DUPLICATED, n, b, i0, nb);
  else
    emit_f16_layout(cos_row, sin_row, PE_CACHE_INTERLEAVED, n, b, i0, nb);
}

/* Writes pairs [i0, i0 + nb) of a row from the block state. */
static void emit(void *cos_row, void *sin_row, int32_t dtype, int32_t layout,
                 uint32_t n, const pe_angle_block *b, uint32_t i0,
                 uint32_t nb) {
  uint32_t i = 0;
  if (dtype == PE_CACHE_FLOAT16) {
    emit_f16(cos_row, sin_row, layout, n, b, i0, nb);
    return;
  }
  if (dtype == PE_CACHE_FLOAT32)
    for (; i + 4 <= nb; i += 4) {
      put4_f32(cos_row, layout, n, i0 + i,
               pe_demote4(wasm_v128_load(b->cos + i),
                          wasm_v128_load(b->cos + i + 2)));
      put4_f32(sin_row, layout, n, i0 + i,
               pe_demote4(wasm_v128_load(b->sin + i),
                          wasm_v128_load(b->sin + i + 2)));
    }
  else if (dtype == PE_CACHE_FLOAT64)
    for (; i + 2 <= nb; i += 2) {
      put2_f64(cos_row, layout, n, i0 + i, wasm_v128_load(b->cos + i));
      put2_f64(sin_row, layout, n, i0 + i, wasm_v128_load(b->sin + i));
    }
  if (i < nb) {
    store_values(cos_row, dtype, layout, n, b->cos, i0, i, nb);
    store_values(sin_row, dtype, layout, n, b->sin, i0, i, nb);
  }
}

static int32_t validate(const void *cos_out, const void *sin_out, int32_t dtype,
                        int32_t layout, const double *positions, uint32_t count,
                        double start, const double *inv_freq, uint32_t n,
                        double attention) {
  if (!PE_IN_ENUM(dtype, PE_CACHE_DTYPE_COUNT))
    return PE_ERR_DTYPE;
  if (!PE_IN_ENUM(layout, PE_CACHE_LAYOUT_COUNT))
    return PE_ERR_LAYOUT;
  if (n < 1 || n > PE_MAX_DIM / 2)
    return PE_ERR_DIM;
  if (inv_freq == NULL || !pe_is_aligned(inv_freq, alignof(double)))
    return PE_ERR_NULL;
  for (uint32_t i = 0; i < n; i++)
    if (!isfinite(inv_freq[i]))
      return PE_ERR_FREQUENCIES;
  if (!isfinite(attention) || !(attention > 0) ||
      attention > max_attention[dtype])
    return PE_ERR_ROPE_ATTENTION;
  size_t elem = element_size[dtype];
  uint64_t width = layout == PE_CACHE_HALF ? n : 2 * (uint64_t)n;
  if ((uint64_t)count * width * elem > UINT32_MAX)
    return PE_ERR_SIZE;
  if (count > 0 &&
      (cos_out == NULL || sin_out == NULL || !pe_is_aligned(cos_out, elem) ||
       !pe_is_aligned(sin_out, elem) ||
       (positions != NULL && !pe_is_aligned(positions, alignof(double)))))
    return PE_ERR_NULL;
  double max_w = pe_max_frequency(inv_freq, n, 1);
  return pe_angles_finite(positions, count, start, 1, max_w) ? PE_OK
                                                             : PE_ERR_POSITIONS;
}

int32_t pe_rope_cache(void *cos_out, void *sin_out, int32_t dtype,
                      int32_t layout, const double *positions, uint32_t count,
                      double start, const double *inv_freq, uint32_t n,
                      double attention) {
  int32_t status = validate(cos_out, sin_out, dtype, layout, positions, count,
                            start, inv_freq, n, attention);
  if (status != PE_OK)
    return status;
  size_t elem = element_size[dtype];
  size_t row_bytes = (layout == PE_CACHE_HALF ? n : 2 * (size_t)n) * elem;
  pe_row_plan plan =
      pe_plan_rows(positions, count, start, 1, dtype != PE_CACHE_FLOAT64, 1);
  pe_f32_screen screen = pe_f32_screen_of(pe_recurrence_error(attention));
  pe_angle_block b;
  for (uint32_t i0 = 0; i0 < n; i0 += PE_BLOCK) {
    uint32_t nb = n - i0 < PE_BLOCK ? n - i0 : PE_BLOCK;
    uint32_t n_pad =
        pe_rows_advance(&plan, count)
            ? pe_angle_block_load(&b, inv_freq + i0, nb, 1, plan.step)
            : pe_angle_block_frequencies(&b, inv_freq + i0, nb, 1);
    for (uint32_t j = 0; j < count; j++) {
      char *cos_row = (char *)cos_out + j * row_bytes;
      char *sin_row = (char *)sin_out + j * row_bytes;
      double x = pe_row_position(&plan, j);
      if (!pe_row_seeded(&plan, j)) {
        if (dtype == PE_CACHE_FLOAT32) {
          advance_emit_f32(&b, n_pad, (float *)cos_row, (float *)sin_row,
                           layout, n, i0, nb, x, attention, &screen);
          continue;
        }
        /* float16 rounds the state: settled first, as float32 values are
           checked in the fused loop. */
        advance_f32(&b, n_pad, NULL, NULL, layout, n, i0, nb, 0, x, attention,
                    &screen);
        pe_angle_block_settle(&b, 0, nb, x, attention,
                              pe_recurrence_error(attention), 1);
      } else {
        pe_angle_block_seed(&b, n_pad, x, attention);
      }
      emit(cos_row, sin_row, dtype, layout, n, &b, i0, nb);
    }
  }
  return PE_OK;
}

static int is_count(double s) {
  return s >= 0 && s <= UINT32_MAX && s == floor(s);
}

/* M-RoPE is built for size (PE_FOR_SIZE): its rows are seeded, never
   streamed by the recurrence, so the seed dominates its time. */

PE_FOR_SIZE int32_t pe_mrope_streams(double s0, double s1, double s2,
                                     int32_t interleaved, uint8_t *streams,
                                     uint32_t n) {
  if (!is_count(s0) || !is_count(s1) || !is_count(s2) ||
      s0 + s1 + s2 != (double)n)
    return PE_ERR_MROPE_SECTION;
  if (interleaved != 0 && interleaved != 1)
    return PE_ERR_ARGUMENT;
  if (n > 0 && streams == NULL)
    return PE_ERR_NULL;
  for (uint32_t i = 0; i < n; i++) {
    if (interleaved)
      streams[i] = i % 3 == 1 && i < 3 * s1   ? 1
                   : i % 3 == 2 && i < 3 * s2 ? 2
                                              : 0;
    else
      streams[i] = i < s0 ? 0 : i < s0 + s1 ? 1 : 2;
  }
  return PE_OK;
}

PE_FOR_SIZE int32_t pe_rope_cache_streams(
    void *cos_out, void *sin_out, int32_t dtype, int32_t layout,
    const double *positions, uint32_t count, const uint8_t *streams,
    const double *inv_freq, uint32_t n, double attention) {
  if (count > 0 && positions == NULL)
    return PE_ERR_NULL;
  int32_t status = validate(cos_out, sin_out, dtype, layout, positions, count,
                            0, inv_freq, n, attention);
  if (status != PE_OK)
    return status;
  if (streams == NULL)
    return PE_ERR_NULL;
  for (uint32_t i = 0; i < n; i++)
    if (streams[i] > 2)
      return PE_ERR_MROPE_STREAM;
  double max_w = pe_max_frequency(inv_freq, n, 1);
  for (uint32_t k = 1; k < 3 && count > 0; k++)
    if (!pe_angles_finite(positions + (size_t)k * count, count, 0, 1, max_w))
      return PE_ERR_POSITIONS;
  size_t elem = element_size[dtype];
  size_t row_bytes = (layout == PE_CACHE_HALF ? n : 2 * (size_t)n) * elem;
  /* Each pair of a row is seeded at its own stream's position: every value
     is one exact seed, as in pe_rope_cache's seeded rows. */
  pe_angle_block b;
  alignas(16) double xs[PE_BLOCK];
  for (uint32_t i0 = 0; i0 < n; i0 += PE_BLOCK) {
    uint32_t nb = n - i0 < PE_BLOCK ? n - i0 : PE_BLOCK;
    /* Every row is seeded: no step rotation. */
    uint32_t n_pad = pe_angle_block_frequencies(&b, inv_freq + i0, nb, 1);
    for (uint32_t j = 0; j < count; j++) {
      for (uint32_t i = 0; i < n_pad; i++)
        xs[i] = i < nb ? positions[(size_t)streams[i0 + i] * count + j] : 0;
      pe_angle_block_seed_each(&b, n_pad, xs, attention);
      emit((char *)cos_out + j * row_bytes, (char *)sin_out + j * row_bytes,
           dtype, layout, n, &b, i0, nb);
    }
  }
  return PE_OK;
}
