#include "table.h"

#include <float.h>
#include <math.h>
#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "angles.h"
#include "columns.h"
#include "frequencies.h"
#include "status.h"

/* The sin and cos values of pairs [from, n) of the block, at their columns
   for pairs i0 + from ... of a row: the tail of every vector loop, kept out
   of line (one to three pairs a row). */
__attribute__((noinline)) static void
store_pairs_f32(float *row, const pe_columns *cols, const double *sin,
                const double *cos, uint32_t i0, uint32_t from, uint32_t n) {
  for (uint32_t k = from; k < n; k++) {
    row[pe_first_column(cols, i0 + k)] = (float)sin[k];
    row[pe_second_column(cols, i0 + k)] = (float)cos[k];
  }
}

__attribute__((noinline)) static void
store_pairs_f64(double *row, const pe_columns *cols, const double *sin,
                const double *cos, uint32_t i0, uint32_t from, uint32_t n) {
  for (uint32_t k = from; k < n; k++) {
    row[pe_first_column(cols, i0 + k)] = sin[k];
    row[pe_second_column(cols, i0 + k)] = cos[k];
  }
}

/* Checks everything the kernels rely on. */
static int32_t validate(const void *out, size_t elem, const double *positions,
                        uint32_t count, double start, uint32_t dim,
                        int32_t layout, int32_t odd_dim, const double *omega,
                        uint32_t n_omega, double scale, double amplitude) {
  if (!PE_IN_ENUM(layout, PE_LAYOUT_COUNT))
    return PE_ERR_LAYOUT;
  int32_t status = pe_check_frequencies(omega, n_omega, dim, odd_dim);
  if (status != PE_OK)
    return status;
  if (!isfinite(scale))
    return PE_ERR_SCALE;
  if (!isfinite(amplitude))
    return PE_ERR_OUTPUT_SCALE;
  if ((uint64_t)count * dim * elem >= PE_MEMORY_BYTES)
    return PE_ERR_SIZE;
  if (count > 0 && (out == NULL || !pe_is_aligned(out, elem)))
    return PE_ERR_NULL;
  if (count > 0 && positions != NULL &&
      !pe_is_aligned(positions, alignof(double)))
    return PE_ERR_NULL;
  double max_w = pe_max_frequency(omega, n_omega, scale);
  if (!isfinite(max_w))
    return PE_ERR_SCALE;
  return pe_angles_finite(positions, count, start, 1, max_w) ? PE_OK
                                                             : PE_ERR_POSITIONS;
}

/* Rewrites pairs [i0 + i, i0 + i + 4) of the row at x with their exact
   values: recurrence values too near a float32 rounding boundary (rare,
   out of line). */
__attribute__((noinline)) static void
correct_row_f32(float *row, const pe_columns *cols, const pe_angle_block *b,
                uint32_t i0, uint32_t i, double x, double amplitude) {
  double sin[4], cos[4];
  pe_angle_pairs_exact(b, i, x, amplitude, sin, cos);
  store_pairs_f32(row, cols, sin, cos, i0 + i, 0, 4);
}

/* Stores the sin s0, s1 and cos c0, c1 of pairs i ... i + 3 (two in each
   vector) as float32 in a row of a constant layout. */
static inline __attribute__((always_inline)) void
store_steps_f32(float *row, int interleaved, int cos_first,
                const pe_columns *cols, uint32_t i, v128_t s0, v128_t c0,
                v128_t s1, v128_t c1) {
  if (interleaved) {
    v128_t s32[2] = {wasm_f32x4_demote_f64x2_zero(s0),
                     wasm_f32x4_demote_f64x2_zero(s1)};
    v128_t c32[2] = {wasm_f32x4_demote_f64x2_zero(c0),
                     wasm_f32x4_demote_f64x2_zero(c1)};
    float *d = row + PE_INTERLEAVED_STRIDE * i;
    for (uint32_t k = 0; k < 2; k++)
      wasm_v128_store(d + 4 * k,
                      cos_first
                          ? wasm_i32x4_shuffle(c32[k], s32[k], 0, 4, 1, 5)
                          : wasm_i32x4_shuffle(s32[k], c32[k], 0, 4, 1, 5));
  } else {
    wasm_v128_store(row + pe_first_column(cols, i), pe_demote4(s0, s1));
    wasm_v128_store(row + pe_second_column(cols, i), pe_demote4(c0, c1));
  }
}

/* The (sin, cos) state of the pairs of a block that advance two rows at a
   time: read from one copy and written to the other, so that the state of
   the row before stays at hand for the rows that fail the screen. */
typedef struct {
  double *sin, *cos;
} pair_state;

/* The groups of four pairs of two rows whose values failed the screen,
   by their first pair: at most one per group of the block. */
typedef struct {
  uint32_t at[PE_BLOCK / 4 + 1];
  uint32_t count;
} failed_groups;

/* The rows of the failed groups of pairs at x0 and x1: the two steps again
   from the state of the row before (the same bits), each row's values
   tested exactly and the uncertain ones' pairs rewritten with their exact
   values (rare, out of line: a call inside the hot loop would cost every
   group, not only the failed ones). */
__attribute__((noinline)) static void
settle_2_rows_f32(float *row, size_t stride, const pe_columns *cols,
                  const pe_angle_block *b, pair_state before, uint32_t i0,
                  const failed_groups *failed, double x0, double x1,
                  double amplitude, double e) {
  for (uint32_t f = 0; f < failed->count; f++) {
    uint32_t i = failed->at[f];
    v128_t s0 = wasm_v128_load(before.sin + i);
    v128_t c0 = wasm_v128_load(before.cos + i);
    v128_t s1 = wasm_v128_load(before.sin + i + 2);
    v128_t c1 = wasm_v128_load(before.cos + i + 2);
    for (uint32_t r = 0; r < 2; r++) {
      pe_angle_step(&s0, &c0, wasm_v128_load(b->step_sin + i),
                    wasm_v128_load(b->step_cos + i));
      pe_angle_step(&s1, &c1, wasm_v128_load(b->step_sin + i + 2),
                    wasm_v128_load(b->step_cos + i + 2));
      if (!pe_f32_sure4(s0, c0, s1, c1, e))
        correct_row_f32(row + r * stride, cols, b, i0, i, r ? x1 : x0,
                        amplitude);
    }
  }
}

/* Advances the groups of four pairs of [i0, i0 + n) by one step per row,
   from `before` into `after`, and writes two consecutive rows, at x0 and
   x1: the hot loop of evenly spaced float32 tables, fused so the state is
   read and written once per two rows. Groups whose values fail the screen
   are noted, with no branch, and settled after the loop, so that every
   value is the rounding of its exact sin/cos, as a seeded row's. Returns
   the pairs covered, a multiple of 4. */
static inline __attribute__((always_inline)) uint32_t
advance_emit_f32(float *row, size_t stride, int interleaved, int cos_first,
                 const pe_columns *cols, const pe_angle_block *b,
                 pair_state before, pair_state after, uint32_t i0, uint32_t n,
                 double x0, double x1, double amplitude,
                 const pe_f32_screen *screen) {
  uint32_t i = 0;
  pe_f32_screen k = *screen; /* in locals: the row's stores may alias it */
  failed_groups failed;
  uint32_t count = 0; /* in a local: the row's stores may alias `failed` */
  for (; i + 4 <= n; i += 4) {
    v128_t s0 = wasm_v128_load(before.sin + i);
    v128_t c0 = wasm_v128_load(before.cos + i);
    v128_t s1 = wasm_v128_load(before.sin + i + 2);
    v128_t c1 = wasm_v128_load(before.cos + i + 2);
    v128_t sw0 = wasm_v128_load(b->step_sin + i);
    v128_t cw0 = wasm_v128_load(b->step_cos + i);
    v128_t sw1 = wasm_v128_load(b->step_sin + i + 2);
    v128_t cw1 = wasm_v128_load(b->step_cos + i + 2);
    v128_t acc = wasm_i32x4_splat(-1);
    for (uint32_t r = 0; r < 2; r++) {
      pe_angle_step(&s0, &c0, sw0, cw0);
      pe_angle_step(&s1, &c1, sw1, cw1);
      store_steps_f32(row + r * stride, interleaved, cos_first, cols, i0 + i,
                      s0, c0, s1, c1);
      acc = pe_f32_screen_add(acc, s0, &k);
      acc = pe_f32_screen_add(acc, c0, &k);
      acc = pe_f32_screen_add(acc, s1, &k);
      acc = pe_f32_screen_add(acc, c1, &k);
    }
    /* Written always, kept only where the group failed. */
    failed.at[count] = i;
    count += !pe_f32_screen_passes(acc, &k);
    wasm_v128_store(after.sin + i, s0);
    wasm_v128_store(after.cos + i, c0);
    wasm_v128_store(after.sin + i + 2, s1);
    wasm_v128_store(after.cos + i + 2, c1);
  }
  failed.count = count;
  if (count > 0)
    settle_2_rows_f32(row, stride, cols, b, before, i0, &failed, x0, x1,
                      amplitude, pe_recurrence_error(amplitude));
  return i;
}

/* Calls advance_emit_f32 for two rows with constant flags, so that each
   layout compiles to a loop with no branch and every step in registers;
   then the last one to three pairs, which stay in the block's own state,
   a step, a check and a store per row. */
static void advance_emit_2_rows_f32(float *row, size_t stride,
                                    const pe_columns *cols, pe_angle_block *b,
                                    pair_state before, pair_state after,
                                    uint32_t i0, uint32_t n, double x0,
                                    double x1, double amplitude,
                                    const pe_f32_screen *screen) {
  uint32_t i;
  if (cols->stride == 1)
    i = advance_emit_f32(row, stride, 0, 0, cols, b, before, after, i0, n, x0,
                         x1, amplitude, screen);
  else if (cols->first == 1)
    i = advance_emit_f32(row, stride, 1, 1, cols, b, before, after, i0, n, x0,
                         x1, amplitude, screen);
  else
    i = advance_emit_f32(row, stride, 1, 0, cols, b, before, after, i0, n, x0,
                         x1, amplitude, screen);
  double e = pe_recurrence_error(amplitude);
  for (uint32_t r = 0; i < n && r < 2; r++) {
    pe_angle_block_advance(b, i, n);
    pe_angle_block_settle(b, i, n, r ? x1 : x0, amplitude, e, 0);
    store_pairs_f32(row + r * stride, cols, b->sin, b->cos, i0, i, n);
  }
}

/* Stores the float32 sin s and cos c of pairs i ... i + 3 in a row. */
static inline __attribute__((always_inline)) void
store4_f32(float *row, const pe_columns *cols, uint32_t i, v128_t s, v128_t c) {
  if (cols->stride == PE_INTERLEAVED_STRIDE) {
    v128_t first = cols->first ? c : s, second = cols->first ? s : c;
    wasm_v128_store(row + PE_INTERLEAVED_STRIDE * i,
                    wasm_i32x4_shuffle(first, second, 0, 4, 1, 5));
    wasm_v128_store(row + PE_INTERLEAVED_STRIDE * i + 4,
                    wasm_i32x4_shuffle(first, second, 2, 6, 3, 7));
  } else {
    wasm_v128_store(row + pe_first_column(cols, i), s);
    wasm_v128_store(row + pe_second_column(cols, i), c);
  }
}

/* One row at an arbitrary position, pairs [i0, i0 + n): each value
   straight to float32, with no state kept (nothing follows from this row).
   `in_range` (a constant) as pe_angle_value2 takes it. The layout is a
   branch per four pairs, negligible beside their sin/cos. */
static inline __attribute__((always_inline)) void
position_emit_f32(float *row, const pe_columns *cols, pe_angle_block *b,
                  uint32_t i0, uint32_t n, double position, double amplitude,
                  int in_range) {
  v128_t p = wasm_f64x2_splat(position), a = wasm_f64x2_splat(amplitude);
  uint32_t i = 0;
  for (; i + 4 <= n; i += 4) {
    v128_t s0, c0, s1, c1;
    pe_angle_value2(p, wasm_v128_load(b->w + i), a, &s0, &c0, in_range);
    pe_angle_value2(p, wasm_v128_load(b->w + i + 2), a, &s1, &c1, in_range);
    store4_f32(row, cols, i0 + i, pe_demote4(s0, s1), pe_demote4(c0, c1));
  }
  /* Tail: one to three pairs, through the block state. */
  if (i < n) {
    v128_t s, c;
    for (uint32_t k = i; k < n; k += 2) {
      pe_angle_value2(p, wasm_v128_load(b->w + k), a, &s, &c, in_range);
      wasm_v128_store(b->sin + k, s);
      wasm_v128_store(b->cos + k, c);
    }
    store_pairs_f32(row, cols, b->sin, b->cos, i0, i, n);
  }
}

static void position_emit_rows_f32(float *row, const pe_columns *cols,
                                   pe_angle_block *b, uint32_t i0, uint32_t n,
                                   double position, double amplitude) {
  if (pe_dekker_in_range(fabs(position), b->max_w))
    position_emit_f32(row, cols, b, i0, n, position, amplitude, 1);
  else
    position_emit_f32(row, cols, b, i0, n, position, amplitude, 0);
}

/* Writes pairs [i0, i0 + n) of one row from the block state. */
static void emit_f32(float *row, const pe_columns *cols,
                     const pe_angle_block *b, uint32_t i0, uint32_t n) {
  uint32_t i = 0;
  if (cols->stride == PE_INTERLEAVED_STRIDE) {
    float *dst = row + PE_INTERLEAVED_STRIDE * i0;
    for (; i + 2 <= n; i += 2) {
      v128_t s = wasm_f32x4_demote_f64x2_zero(wasm_v128_load(b->sin + i));
      v128_t c = wasm_f32x4_demote_f64x2_zero(wasm_v128_load(b->cos + i));
      v128_t v = cols->first ? wasm_i32x4_shuffle(c, s, 0, 4, 1, 5)
                             : wasm_i32x4_shuffle(s, c, 0, 4, 1, 5);
      wasm_v128_store(dst + PE_INTERLEAVED_STRIDE * i, v);
    }
  } else {
    float *dst_sin = row + pe_first_column(cols, i0);
    float *dst_cos = row + pe_second_column(cols, i0);
    for (; i + 4 <= n; i += 4) {
      wasm_v128_store(dst_sin + i, pe_demote4(wasm_v128_load(b->sin + i),
                                              wasm_v128_load(b->sin + i + 2)));
      wasm_v128_store(dst_cos + i, pe_demote4(wasm_v128_load(b->cos + i),
                                              wasm_v128_load(b->cos + i + 2)));
    }
  }
  store_pairs_f32(row, cols, b->sin, b->cos, i0, i, n);
}

static void emit_f64(double *row, const pe_columns *cols,
                     const pe_angle_block *b, uint32_t i0, uint32_t n) {
  uint32_t i = 0;
  if (cols->stride == PE_INTERLEAVED_STRIDE) {
    double *dst = row + PE_INTERLEAVED_STRIDE * i0;
    for (; i + 2 <= n; i += 2) {
      v128_t s = wasm_v128_load(b->sin + i);
      v128_t c = wasm_v128_load(b->cos + i);
      v128_t lo = cols->first ? wasm_i64x2_shuffle(c, s, 0, 2)
                              : wasm_i64x2_shuffle(s, c, 0, 2);
      v128_t hi = cols->first ? wasm_i64x2_shuffle(c, s, 1, 3)
                              : wasm_i64x2_shuffle(s, c, 1, 3);
      wasm_v128_store(dst + PE_INTERLEAVED_STRIDE * i, lo);
      wasm_v128_store(dst + PE_INTERLEAVED_STRIDE * i + 2, hi);
    }
  } else {
    double *dst_sin = row + pe_first_column(cols, i0);
    double *dst_cos = row + pe_second_column(cols, i0);
    for (; i + 2 <= n; i += 2) {
      wasm_v128_store(dst_sin + i, wasm_v128_load(b->sin + i));
      wasm_v128_store(dst_cos + i, wasm_v128_load(b->cos + i));
    }
  }
  store_pairs_f64(row, cols, b->sin, b->cos, i0, i, n);
}

/* The columns that are not a (sin, cos) pair: the sin of w_h (extra-sin) or
   the zero column (zero-pad) of an odd dim. */
static double odd_column(uint32_t dim, uint32_t n_omega, const double *omega,
                         double scale, double position, double amplitude) {
  if (n_omega == dim / 2)
    return 0;
  v128_t s, c;
  pe_angle_value2(wasm_f64x2_splat(position),
                  wasm_f64x2_splat(scale * omega[dim / 2]),
                  wasm_f64x2_splat(amplitude), &s, &c, 0);
  return wasm_f64x2_extract_lane(s, 0);
}

/* The float32 rows j of pairs [i0, i0 + n): the recurrence where the plan
   takes it, two rows at a time, and exact values at every other row. Every
   value is the float32 rounding of pe_angle_value2 at its position. */
static void rows_f32(float *out, uint32_t count, uint32_t dim,
                     const pe_columns *cols, const pe_row_plan *plan,
                     pe_angle_block *b, uint32_t i0, uint32_t n, uint32_t n_pad,
                     double amplitude) {
  double e = pe_recurrence_error(amplitude);
  pe_f32_screen screen = pe_f32_screen_of(e);
  /* The whole groups of pairs advance two rows at a time between the
     block's state and this second copy; `in_copy` says where they are. */
  alignas(16) double copy_sin[PE_BLOCK], copy_cos[PE_BLOCK];
  pair_state own = {b->sin, b->cos}, copy = {copy_sin, copy_cos};
  int in_copy = 0;
  for (uint32_t j = 0; j < count;) {
    float *row = out + (size_t)j * dim;
    double x = pe_row_position(plan, j);
    if (!plan->recurrence) {
      /* No state: nothing follows from this row. */
      position_emit_rows_f32(row, cols, b, i0, n, x, amplitude);
      j++;
    } else if (pe_row_seeded(plan, j)) {
      pe_angle_block_seed(b, n_pad, x, amplitude);
      in_copy = 0;
      emit_f32(row, cols, b, i0, n);
      j++;
    } else if (j + 1 < count && !pe_row_seeded(plan, j + 1)) {
      advance_emit_2_rows_f32(row, dim, cols, b, in_copy ? copy : own,
                              in_copy ? own : copy, i0, n, x,
                              pe_row_position(plan, j + 1), amplitude, &screen);
      in_copy = !in_copy;
      j += 2;
    } else {
      if (in_copy) {
        memcpy(b->sin, copy_sin, (n & ~3u) * sizeof(double));
        memcpy(b->cos, copy_cos, (n & ~3u) * sizeof(double));
        in_copy = 0;
      }
      pe_angle_block_advance(b, 0, n_pad);
      pe_angle_block_settle(b, 0, n, x, amplitude, e, 0);
      emit_f32(row, cols, b, i0, n);
      j++;
    }
  }
}

/* The float64 rows of pairs [i0, i0 + n), each seeded: the recurrence's
   drift would show in float64. */
static void rows_f64(double *out, uint32_t count, uint32_t dim,
                     const pe_columns *cols, const pe_row_plan *plan,
                     pe_angle_block *b, uint32_t i0, uint32_t n, uint32_t n_pad,
                     double amplitude) {
  for (uint32_t j = 0; j < count; j++) {
    pe_angle_block_seed(b, n_pad, pe_row_position(plan, j), amplitude);
    emit_f64(out + (size_t)j * dim, cols, b, i0, n);
  }
}

/* Both dtypes, by element size: the checks, the blocks of pairs and the odd
   column are the same. Inlined, so each export is its own dtype's kernel. */
static inline __attribute__((always_inline)) int32_t
table(void *out, size_t elem, const double *positions, uint32_t count,
      double start, uint32_t dim, int32_t layout, int32_t odd_dim,
      const double *omega, uint32_t n_omega, double scale, double amplitude) {
  int f32 = elem == sizeof(float);
  int32_t status = validate(out, elem, positions, count, start, dim, layout,
                            odd_dim, omega, n_omega, scale, amplitude);
  if (status != PE_OK)
    return status;
  /* Values up to |amplitude| must fit a float32. */
  if (f32 && fabs(amplitude) > FLT_MAX)
    return PE_ERR_OUTPUT_SCALE;
  uint32_t h = dim / 2;
  pe_columns cols = pe_table_columns(layout, dim, n_omega);
  pe_row_plan plan = pe_plan_rows(positions, count, start, 1, f32, 1);
  pe_angle_block b;
  for (uint32_t i0 = 0; i0 < h; i0 += PE_BLOCK) {
    uint32_t n = h - i0 < PE_BLOCK ? h - i0 : PE_BLOCK;
    uint32_t n_pad =
        pe_rows_advance(&plan, count)
            ? pe_angle_block_load(&b, omega + i0, n, scale, plan.step)
            : pe_angle_block_frequencies(&b, omega + i0, n, scale);
    if (f32)
      rows_f32(out, count, dim, &cols, &plan, &b, i0, n, n_pad, amplitude);
    else
      rows_f64(out, count, dim, &cols, &plan, &b, i0, n, n_pad, amplitude);
  }
  if (dim % 2 == 1) {
    uint32_t odd = pe_table_odd_column(layout, dim, n_omega);
    for (uint32_t j = 0; j < count; j++) {
      size_t at = (size_t)j * dim + odd;
      double value = odd_column(dim, n_omega, omega, scale,
                                pe_row_position(&plan, j), amplitude);
      if (f32)
        ((float *)out)[at] = (float)value;
      else
        ((double *)out)[at] = value;
    }
  }
  return PE_OK;
}

int32_t pe_table_f32(float *out, const double *positions, uint32_t count,
                     double start, uint32_t dim, int32_t layout,
                     int32_t odd_dim, const double *omega, uint32_t n_omega,
                     double scale, double amplitude) {
  return table(out, sizeof(float), positions, count, start, dim, layout,
               odd_dim, omega, n_omega, scale, amplitude);
}

int32_t pe_table_f64(double *out, const double *positions, uint32_t count,
                     double start, uint32_t dim, int32_t layout,
                     int32_t odd_dim, const double *omega, uint32_t n_omega,
                     double scale, double amplitude) {
  return table(out, sizeof(double), positions, count, start, dim, layout,
               odd_dim, omega, n_omega, scale, amplitude);
}

PE_FOR_SIZE int32_t pe_table_columns_of(int32_t *out, uint32_t dim,
                                        int32_t layout, int32_t odd_dim) {
  if (!PE_IN_ENUM(layout, PE_LAYOUT_COUNT))
    return PE_ERR_LAYOUT;
  uint32_t n_omega;
  int32_t status = pe_frequency_count(dim, odd_dim, &n_omega);
  if (status != PE_OK)
    return status;
  if (out == NULL || !pe_is_aligned(out, alignof(int32_t)))
    return PE_ERR_NULL;
  pe_columns cols = pe_table_columns(layout, dim, n_omega);
  for (uint32_t i = 0; i < dim / 2; i++) {
    out[pe_first_column(&cols, i)] = (int32_t)(2 * i);
    out[pe_second_column(&cols, i)] = (int32_t)(2 * i + 1);
  }
  if (dim % 2 == 1)
    out[pe_table_odd_column(layout, dim, n_omega)] =
        n_omega > dim / 2 ? (int32_t)(dim - 1) : -1;
  return PE_OK;
}
