#include "rotation.h"

#include <math.h>
#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "angles.h"
#include "columns.h"
#include "frequencies.h"
#include "half.h"
#include "status.h"

/* Every kernel rotates pairs (x, y) by a = angle * w with
   x' = x cos a - y sin a, y' = y cos a + x sin a. R(k) of a sin-first layout
   is the rotation by -k*w, so it runs with w negated. */

/* Checks what every row kernel relies on. angles (count entries) or the
   single `angle` must be finite, and so must angle * w for every w. */
static int32_t check_rows(const void *out, const void *in, size_t elem,
                          uint32_t count, uint32_t dim, const double *angles,
                          double angle, const double *omega, uint32_t n_omega,
                          double scale, int32_t bad_angle) {
  uint64_t bytes = (uint64_t)count * dim * elem;
  if (bytes >= PE_MEMORY_BYTES)
    return PE_ERR_SIZE;
  if (count > 0 && (out == NULL || in == NULL || !pe_is_aligned(out, elem) ||
                    !pe_is_aligned(in, elem)))
    return PE_ERR_NULL;
  if (angles != NULL && !pe_is_aligned(angles, alignof(double)))
    return PE_ERR_NULL;
  uintptr_t o = (uintptr_t)out, i = (uintptr_t)in;
  if (o != i && o < i + bytes && i < o + bytes)
    return PE_ERR_ARGUMENT;
  if (!isfinite(scale))
    return PE_ERR_SCALE;
  double max_w = pe_max_frequency(omega, n_omega, scale);
  if (!isfinite(max_w))
    return PE_ERR_SCALE;
  return pe_angles_finite(angles, count, angle, 0, max_w) ? PE_OK : bad_angle;
}

/* sin and cos of pairs [i, i + 2). */
static inline __attribute__((always_inline)) void
state2(const pe_angle_block *b, uint32_t i, v128_t *s, v128_t *c) {
  *s = wasm_v128_load(b->sin + i);
  *c = wasm_v128_load(b->cos + i);
}

/* (x, y) <- (x c - y s, y c + x s) on two pairs in double. */
static inline __attribute__((always_inline)) void turn2(v128_t *x, v128_t *y,
                                                        v128_t s, v128_t c) {
  v128_t x_next = wasm_f64x2_sub(wasm_f64x2_mul(*x, c), wasm_f64x2_mul(*y, s));
  *y = wasm_f64x2_add(wasm_f64x2_mul(*y, c), wasm_f64x2_mul(*x, s));
  *x = x_next;
}

/* Whether the float32 rounding of the turned doubles of four pairs is
   certain by the exact test, each within its own bound 2e (|x| + |y|) (x,
   y the inputs, `in` as failed_groups keeps them; see turn_rows): the
   values that fail the screen, out of line. */
__attribute__((noinline)) static int turned_sure4(const double in[8], v128_t x0,
                                                  v128_t x1, v128_t y0,
                                                  v128_t y1, double e) {
  v128_t bound = wasm_f64x2_splat(2 * e), tiny = wasm_f64x2_splat(0x1p-1070);
  v128_t m0 = wasm_f64x2_add(wasm_f64x2_abs(wasm_v128_load(in)),
                             wasm_f64x2_abs(wasm_v128_load(in + 4)));
  v128_t m1 = wasm_f64x2_add(wasm_f64x2_abs(wasm_v128_load(in + 2)),
                             wasm_f64x2_abs(wasm_v128_load(in + 6)));
  v128_t e0 = wasm_f64x2_add(wasm_f64x2_mul(m0, bound), tiny);
  v128_t e1 = wasm_f64x2_add(wasm_f64x2_mul(m1, bound), tiny);
  v128_t sure = wasm_i32x4_splat(-1);
  pe_demote_checked(x0, e0, &sure);
  pe_demote_checked(y0, e0, &sure);
  pe_demote_checked(x1, e1, &sure);
  pe_demote_checked(y1, e1, &sure);
  return wasm_i32x4_all_true(sure);
}

/* Whether the four turned doubles of four pairs pass the screen (a state
   advanced by the recurrence within e of the exact values). */
static inline __attribute__((always_inline)) int
turned_pass4(v128_t x0, v128_t x1, v128_t y0, v128_t y1,
             const pe_f32_screen *screen) {
  v128_t acc = wasm_i32x4_splat(-1);
  acc = pe_f32_screen_add(acc, x0, screen);
  acc = pe_f32_screen_add(acc, x1, screen);
  acc = pe_f32_screen_add(acc, y0, screen);
  acc = pe_f32_screen_add(acc, y1, screen);
  return pe_f32_screen_passes(acc, screen);
}

/* One value of a row of `dtype`, read exactly as a double. */
static inline __attribute__((always_inline)) double
load_value(const void *row, int32_t dtype, uint32_t column) {
  return dtype == PE_CACHE_FLOAT64 ? ((const double *)row)[column]
         : dtype == PE_CACHE_FLOAT16
             ? pe_half_to_double(((const uint16_t *)row)[column])
             : ((const float *)row)[column];
}

/* One value rounded once to `dtype`. */
static inline __attribute__((always_inline)) void
store_value(void *row, int32_t dtype, uint32_t column, double v) {
  if (dtype == PE_CACHE_FLOAT64)
    ((double *)row)[column] = v;
  else if (dtype == PE_CACHE_FLOAT16)
    ((uint16_t *)row)[column] = pe_half_from_double(v);
  else
    ((float *)row)[column] = (float)v;
}

/* Turns pairs [from, n) of a row of a constant dtype in double from the
   block state, each value rounded once: the tails of the vector loops, and
   whole float16 rows. */
static inline __attribute__((always_inline)) void
turn_pairs(void *dst, const void *src, int32_t dtype, const pe_columns *cols,
           const pe_angle_block *b, uint32_t i0, uint32_t from, uint32_t n) {
  for (uint32_t k = from; k < n; k++) {
    uint32_t xi = pe_first_column(cols, i0 + k);
    uint32_t yi = pe_second_column(cols, i0 + k);
    double x = load_value(src, dtype, xi), y = load_value(src, dtype, yi);
    store_value(dst, dtype, xi, x * b->cos[k] - y * b->sin[k]);
    store_value(dst, dtype, yi, y * b->cos[k] + x * b->sin[k]);
  }
}

/* The tails of float32 and float64 rows, kept out of line. */
PE_FOR_SIZE __attribute__((noinline)) static void
turn_tail_f32(float *dst, const float *src, const pe_columns *cols,
              const pe_angle_block *b, uint32_t i0, uint32_t from, uint32_t n) {
  turn_pairs(dst, src, PE_CACHE_FLOAT32, cols, b, i0, from, n);
}

PE_FOR_SIZE __attribute__((noinline)) static void
turn_tail_f64(double *dst, const double *src, const pe_columns *cols,
              const pe_angle_block *b, uint32_t i0, uint32_t from, uint32_t n) {
  turn_pairs(dst, src, PE_CACHE_FLOAT64, cols, b, i0, from, n);
}

/* Pairs [from, to) of a float32 row at `position` (from a multiple of 4)
   turned by their exact cos and sin, the values of a seeded row (rare, out
   of line): where a state advanced by the recurrence fails the screen. */
__attribute__((noinline)) static void
turn_exact_f32(float *dst, const float *src, const pe_columns *cols,
               const pe_angle_block *b, uint32_t i0, uint32_t from, uint32_t to,
               double position, double amplitude) {
  double sin[4], cos[4];
  for (uint32_t k = from; k < to; k += 4) {
    pe_angle_pairs_exact(b, k, position, amplitude, sin, cos);
    for (uint32_t j = k; j < to && j < k + 4; j++) {
      uint32_t xi = pe_first_column(cols, i0 + j);
      uint32_t yi = pe_second_column(cols, i0 + j);
      double x = src[xi], y = src[yi];
      dst[xi] = (float)(x * cos[j - k] - y * sin[j - k]);
      dst[yi] = (float)(y * cos[j - k] + x * sin[j - k]);
    }
  }
}

/* Pairs [i, i + 4) of a float32 row of a constant layout as doubles:
   their first (x) and second (y) values, pairs i, i + 1 in x0, y0 and
   i + 2, i + 3 in x1, y1. Halves take two values a load, converted
   straight from memory: two shuffles fewer for four pairs, in a turn
   bound by its conversions. */
static inline __attribute__((always_inline)) void
load4_f32(const float *src_x, const float *src_y, int interleaved, uint32_t i,
          v128_t *x0, v128_t *x1, v128_t *y0, v128_t *y1) {
  if (interleaved) {
    const float *p = src_x + PE_INTERLEAVED_STRIDE * i;
    v128_t a = wasm_v128_load(p), z = wasm_v128_load(p + 4);
    v128_t x = wasm_i32x4_shuffle(a, z, 0, 2, 4, 6);
    v128_t y = wasm_i32x4_shuffle(a, z, 1, 3, 5, 7);
    *x0 = wasm_f64x2_promote_low_f32x4(x);
    *x1 = wasm_f64x2_promote_low_f32x4(wasm_i32x4_shuffle(x, x, 2, 3, 2, 3));
    *y0 = wasm_f64x2_promote_low_f32x4(y);
    *y1 = wasm_f64x2_promote_low_f32x4(wasm_i32x4_shuffle(y, y, 2, 3, 2, 3));
  } else {
    *x0 = wasm_f64x2_promote_low_f32x4(wasm_v128_load64_zero(src_x + i));
    *x1 = wasm_f64x2_promote_low_f32x4(wasm_v128_load64_zero(src_x + i + 2));
    *y0 = wasm_f64x2_promote_low_f32x4(wasm_v128_load64_zero(src_y + i));
    *y1 = wasm_f64x2_promote_low_f32x4(wasm_v128_load64_zero(src_y + i + 2));
  }
}

/* Pairs [i, i + 4) stored back as load4_f32 read them, each rounded once. */
static inline __attribute__((always_inline)) void
store4_f32(float *dst_x, float *dst_y, int interleaved, uint32_t i, v128_t x0,
           v128_t x1, v128_t y0, v128_t y1) {
  v128_t x = pe_demote4(x0, x1), y = pe_demote4(y0, y1);
  if (interleaved) {
    float *q = dst_x + PE_INTERLEAVED_STRIDE * i;
    wasm_v128_store(q, wasm_i32x4_shuffle(x, y, 0, 4, 1, 5));
    wasm_v128_store(q + 4, wasm_i32x4_shuffle(x, y, 2, 6, 3, 7));
  } else {
    wasm_v128_store(dst_x + i, x);
    wasm_v128_store(dst_y + i, y);
  }
}

/* Rotates pairs [i0, i0 + n) of one float32 row by the block state, in a
   constant layout. */
static inline __attribute__((always_inline)) void
row_layout_f32(float *dst, const float *src, int interleaved,
               const pe_columns *cols, const pe_angle_block *b, uint32_t i0,
               uint32_t n) {
  uint32_t i = 0;
  /* The first (x) and second (y) columns of pair i0; pair i0 + i follows
     at stride * i, a constant in each loop. */
  const float *src_x = src + pe_first_column(cols, i0);
  const float *src_y = src + pe_second_column(cols, i0);
  float *dst_x = dst + pe_first_column(cols, i0);
  float *dst_y = dst + pe_second_column(cols, i0);
  for (; i + 4 <= n; i += 4) {
    v128_t s0, c0, s1, c1, x0, x1, y0, y1;
    state2(b, i, &s0, &c0);
    state2(b, i + 2, &s1, &c1);
    load4_f32(src_x, src_y, interleaved, i, &x0, &x1, &y0, &y1);
    turn2(&x0, &y0, s0, c0);
    turn2(&x1, &y1, s1, c1);
    store4_f32(dst_x, dst_y, interleaved, i, x0, x1, y0, y1);
  }
  /* Tail: one to three pairs, the same arithmetic in scalar form. */
  turn_tail_f32(dst, src, cols, b, i0, i, n);
}

static inline __attribute__((always_inline)) void
row_f32(float *dst, const float *src, const pe_columns *cols,
        const pe_angle_block *b, uint32_t i0, uint32_t n) {
  if (cols->stride == PE_INTERLEAVED_STRIDE)
    row_layout_f32(dst, src, 1, cols, b, i0, n);
  else
    row_layout_f32(dst, src, 0, cols, b, i0, n);
}

/* The groups of four pairs of a row whose turned values failed the screen:
   where each starts, and its inputs as doubles (x0, x1, y0, y1 of
   load4_f32), kept because the row may be turned in place. */
typedef struct {
  alignas(16) double inputs[PE_BLOCK / 4 + 1][8];
  uint32_t at[PE_BLOCK / 4 + 1];
  uint32_t count;
} failed_groups;

/* The failed groups of a float32 row at `position`: each group's turned
   doubles again from its inputs and the state (the same bits), tested
   exactly, and where a rounding is uncertain its four pairs turned by
   their exact cos and sin, the values of a seeded row (rare, out of
   line). */
__attribute__((noinline)) static void
settle_row_f32(float *dst, const pe_columns *cols, const pe_angle_block *b,
               uint32_t i0, const failed_groups *failed, double position,
               double amplitude, double e) {
  for (uint32_t f = 0; f < failed->count; f++) {
    uint32_t i = failed->at[f];
    const double *in = failed->inputs[f];
    v128_t s0, c0, s1, c1;
    state2(b, i, &s0, &c0);
    state2(b, i + 2, &s1, &c1);
    v128_t x0 = wasm_v128_load(in), x1 = wasm_v128_load(in + 2);
    v128_t y0 = wasm_v128_load(in + 4), y1 = wasm_v128_load(in + 6);
    turn2(&x0, &y0, s0, c0);
    turn2(&x1, &y1, s1, c1);
    if (turned_sure4(in, x0, x1, y0, y1, e))
      continue;
    double sin[4], cos[4];
    pe_angle_pairs_exact(b, i, position, amplitude, sin, cos);
    for (uint32_t k = 0; k < 4; k++) {
      double x = in[k], y = in[4 + k];
      dst[pe_first_column(cols, i0 + i + k)] = (float)(x * cos[k] - y * sin[k]);
      dst[pe_second_column(cols, i0 + i + k)] =
          (float)(y * cos[k] + x * sin[k]);
    }
  }
}

/* Advances the block state by one step and rotates pairs [i0, i0 + n) of
   one float32 row at `position` by it, in one pass (a constant layout).
   Four pairs whose turned doubles fail the screen are noted with no
   branch, their inputs kept, and settled after the loop; the tail pairs
   are turned by their exact values. So every value is the one of a seeded
   row. */
static inline __attribute__((always_inline)) void
advance_row_layout_f32(float *dst, const float *src, int interleaved,
                       const pe_columns *cols, pe_angle_block *b, uint32_t i0,
                       uint32_t n, uint32_t n_pad, const pe_f32_screen *screen,
                       double position, double amplitude) {
  uint32_t i = 0;
  pe_f32_screen k = *screen; /* in locals: the row's stores may alias it */
  const float *src_x = src + pe_first_column(cols, i0);
  const float *src_y = src + pe_second_column(cols, i0);
  float *dst_x = dst + pe_first_column(cols, i0);
  float *dst_y = dst + pe_second_column(cols, i0);
  failed_groups failed;
  uint32_t count = 0; /* in a local: the row's stores may alias `failed` */
  for (; i + 4 <= n; i += 4) {
    v128_t s0, c0, s1, c1, x0, x1, y0, y1;
    pe_angle_advance4(b, i, &s0, &c0, &s1, &c1);
    load4_f32(src_x, src_y, interleaved, i, &x0, &x1, &y0, &y1);
    /* Written always, kept only where the group fails. */
    double *kept = failed.inputs[count];
    wasm_v128_store(kept, x0);
    wasm_v128_store(kept + 2, x1);
    wasm_v128_store(kept + 4, y0);
    wasm_v128_store(kept + 6, y1);
    failed.at[count] = i;
    turn2(&x0, &y0, s0, c0);
    turn2(&x1, &y1, s1, c1);
    store4_f32(dst_x, dst_y, interleaved, i, x0, x1, y0, y1);
    count += !turned_pass4(x0, x1, y0, y1, &k);
  }
  failed.count = count;
  /* The padding's state and the tail's advance too. */
  pe_angle_block_advance(b, i, n_pad);
  if (failed.count > 0)
    settle_row_f32(dst, cols, b, i0, &failed, position, amplitude,
                   pe_recurrence_error(amplitude));
  if (i < n)
    turn_exact_f32(dst, src, cols, b, i0, i, n, position, amplitude);
}

static void advance_row_f32(float *dst, const float *src,
                            const pe_columns *cols, pe_angle_block *b,
                            uint32_t i0, uint32_t n, uint32_t n_pad,
                            const pe_f32_screen *screen, double position,
                            double amplitude) {
  if (cols->stride == PE_INTERLEAVED_STRIDE)
    advance_row_layout_f32(dst, src, 1, cols, b, i0, n, n_pad, screen, position,
                           amplitude);
  else
    advance_row_layout_f32(dst, src, 0, cols, b, i0, n, n_pad, screen, position,
                           amplitude);
}

static void row_f64(double *dst, const double *src, const pe_columns *cols,
                    const pe_angle_block *b, uint32_t i0, uint32_t n) {
  uint32_t i = 0;
  v128_t s, c;
  if (cols->stride == PE_INTERLEAVED_STRIDE) {
    for (; i + 2 <= n; i += 2) {
      state2(b, i, &s, &c);
      const double *p = src + pe_first_column(cols, i0 + i);
      v128_t a = wasm_v128_load(p), z = wasm_v128_load(p + 2);
      v128_t x = wasm_i64x2_shuffle(a, z, 0, 2);
      v128_t y = wasm_i64x2_shuffle(a, z, 1, 3);
      turn2(&x, &y, s, c);
      double *q = dst + pe_first_column(cols, i0 + i);
      wasm_v128_store(q, wasm_i64x2_shuffle(x, y, 0, 2));
      wasm_v128_store(q + 2, wasm_i64x2_shuffle(x, y, 1, 3));
    }
  } else {
    for (; i + 2 <= n; i += 2) {
      state2(b, i, &s, &c);
      v128_t x = wasm_v128_load(src + pe_first_column(cols, i0 + i));
      v128_t y = wasm_v128_load(src + pe_second_column(cols, i0 + i));
      turn2(&x, &y, s, c);
      wasm_v128_store(dst + pe_first_column(cols, i0 + i), x);
      wasm_v128_store(dst + pe_second_column(cols, i0 + i), y);
    }
  }
  turn_tail_f64(dst, src, cols, b, i0, i, n);
}

/* Rotates pairs [i0, i0 + n) of one row of IEEE half bits: each value is
   read exactly, turned in double and rounded once. */
static void row_f16(uint16_t *dst, const uint16_t *src, const pe_columns *cols,
                    const pe_angle_block *b, uint32_t i0, uint32_t n) {
  turn_pairs(dst, src, PE_CACHE_FLOAT16, cols, b, i0, 0, n);
}

/* M-RoPE: seeds each pair of the block at its stream's position (xyz: t,
   h, w; streams[i] of pair i0 + i, as pe_mrope_streams assigns them), in
   one pass. A text token (t = h = w) gets the values of a seeded plain
   row. */
static void seed_streams(pe_angle_block *b, uint32_t n_pad, const double *xyz,
                         const uint8_t *streams, uint32_t n, double amplitude) {
  alignas(16) double xs[PE_BLOCK];
  for (uint32_t i = 0; i < n_pad; i++)
    xs[i] = i < n ? xyz[streams[i]] : 0;
  pe_angle_block_seed_each(b, n_pad, xs, amplitude);
}

/* max |v| over count float32 values; NaN or infinity when one is. By the
   bits with the sign cleared, which order as the magnitudes do (a NaN
   above infinity): an integer max per four values, where f32x4.max's
   rules on NaN and zeros cost V8 a dozen instructions. */
static double largest_f32(const float *v, size_t count) {
  v128_t magnitude = wasm_i32x4_splat(0x7fffffff), m = wasm_i32x4_splat(0);
  size_t k = 0;
  for (; k + 4 <= count; k += 4)
    m = wasm_u32x4_max(m, wasm_v128_and(wasm_v128_load(v + k), magnitude));
  uint32_t lanes[4], bits = 0;
  wasm_v128_store(lanes, m);
  for (uint32_t j = 0; j < 4 + count - k; j++) {
    uint32_t b;
    if (j < 4)
      b = lanes[j];
    else
      memcpy(&b, v + k + j - 4, sizeof b);
    b &= 0x7fffffff;
    bits = b > bits ? b : bits;
  }
  if (bits > 0x7f800000)
    return NAN;
  float largest;
  memcpy(&largest, &bits, sizeof largest);
  return largest;
}

static size_t element_size(int32_t dtype) {
  return dtype == PE_CACHE_FLOAT64   ? sizeof(double)
         : dtype == PE_CACHE_FLOAT16 ? sizeof(uint16_t)
                                     : sizeof(float);
}

/* The one row driver of R(k) and RoPE; it assumes validated arguments.
   Rows of dim values come in groups of `repeat` rows sharing one angle
   (angles[group], or `angle` for all when angles is null), `span` rows
   apart: row r of group g is row (g / span) * span * repeat + r * span +
   g % span, so span 1 is consecutive rows (the heads of a token in a
   batch x seq x heads tensor) and span = seq the heads of a token in a
   batch x heads x seq one, whose angles are then computed once. The first
   `rotary` columns form rotary / 2 pairs, turned by angle * w_scale * w_i
   with cos and sin times amplitude, and the other columns are copied.
   Every group is seeded (pe_angle_value2), never advanced by the
   recurrence: a row's values then depend on its own angle alone, whatever
   rows share the call, and a unit vector turns into the exact cos and sin
   rounded once; the seed is shared by the group's rows. With
   `streams` (M-RoPE: the stream of each pair), angles holds the t, h and w
   of each group, angles[3 * group + stream], and every group is seeded. */
static void turn_rows(void *out, const void *in, int32_t dtype, uint32_t count,
                      uint32_t dim, uint32_t rotary, uint32_t repeat,
                      uint32_t span, const double *angles, double angle,
                      const uint8_t *streams, int32_t pairing,
                      const double *omega, double w_scale, double amplitude) {
  uint32_t h = rotary / 2, groups = count / repeat;
  size_t elem = element_size(dtype);
  pe_columns cols = pe_pair_columns(pairing == PE_PAIRING_INTERLEAVED, h);
  /* One angle for every row (angles null): sin/cos once per block. With
     streams, angles holds a t, h, w triple per group. */
  /* float32 rows of an angle each (one head a token) at evenly spaced
     angles (two or more) advance by the recurrence between seeds, as
     tables do. The turned doubles then differ from a seeded row's by at
     most (|x| + |y|) times the recurrence's error e, plus two roundings of
     each product and sum in both, which 2e covers: a screen of the bound
     2e times twice the largest |input| passes only values that round as
     the seeded row's would; the others take the exact test of their own
     bound, and four pairs with one that fails it are turned by their
     exact values. Inputs with a NaN or an infinity keep every row seeded
     (0 times an infinite input is NaN only for an exact zero cos or sin). */
  int advance = dtype == PE_CACHE_FLOAT32 && streams == NULL &&
                angles != NULL && repeat == 1 && span == 1;
  pe_row_plan plan = pe_plan_rows(angles, groups, 0, 1, advance, 1);
  pe_f32_screen screen;
  if (plan.recurrence) {
    double bound = 4 * largest_f32(in, (size_t)count * dim) *
                       pe_recurrence_error(amplitude) +
                   0x1p-1070;
    plan.recurrence = isfinite(bound);
    if (plan.recurrence)
      screen = pe_f32_screen_of(bound);
  }
  pe_angle_block b;
  for (uint32_t i0 = 0; i0 < h; i0 += PE_BLOCK) {
    uint32_t n = h - i0 < PE_BLOCK ? h - i0 : PE_BLOCK;
    uint32_t n_pad =
        pe_rows_advance(&plan, groups)
            ? pe_angle_block_load(&b, omega + i0, n, w_scale, plan.step)
            : pe_angle_block_frequencies(&b, omega + i0, n, w_scale);
    if (angles == NULL)
      pe_angle_block_seed(&b, n_pad, angle, amplitude);
    for (uint32_t g = 0; g < groups; g++) {
      int advanced = plan.recurrence && !pe_row_seeded(&plan, g);
      if (advanced) {
        /* One row a group (repeat and span 1): advanced and turned in one
           pass. */
        size_t at = (size_t)g * dim;
        advance_row_f32((float *)out + at, (const float *)in + at, &cols, &b,
                        i0, n, n_pad, &screen, angles[g], amplitude);
        continue;
      }
      if (streams != NULL)
        seed_streams(&b, n_pad, angles + 3 * (size_t)g, streams + i0, n,
                     amplitude);
      else if (angles != NULL)
        pe_angle_block_seed(&b, n_pad, angles[g], amplitude);
      size_t first = (size_t)(g / span) * span * repeat + g % span;
      for (uint32_t r = 0; r < repeat; r++) {
        size_t at = (first + (size_t)r * span) * dim;
        if (dtype == PE_CACHE_FLOAT64)
          row_f64((double *)out + at, (const double *)in + at, &cols, &b, i0,
                  n);
        else if (dtype == PE_CACHE_FLOAT16)
          row_f16((uint16_t *)out + at, (const uint16_t *)in + at, &cols, &b,
                  i0, n);
        else
          row_f32((float *)out + at, (const float *)in + at, &cols, &b, i0, n);
      }
    }
  }
  if (out != in && rotary < dim)
    for (uint32_t j = 0; j < count; j++)
      memcpy((char *)out + ((size_t)j * dim + rotary) * elem,
             (const char *)in + ((size_t)j * dim + rotary) * elem,
             (dim - rotary) * elem);
}

/* The pairing and sign of R(k) for a table layout, after checking that
   every column has a partner (or is the zero column of PE_ODD_ZERO_PAD). */
static int32_t relation_of(int32_t layout, int32_t odd_dim, uint32_t dim,
                           const double *omega, uint32_t n_omega,
                           int32_t *pairing, double *sign) {
  if (!PE_IN_ENUM(layout, PE_LAYOUT_COUNT))
    return PE_ERR_LAYOUT;
  int32_t status = pe_check_frequencies(omega, n_omega, dim, odd_dim);
  if (status != PE_OK)
    return status;
  if (dim % 2 == 1 && odd_dim != PE_ODD_ZERO_PAD)
    return PE_ERR_NO_PARTNER;
  /* x is the lower column of a pair: the sin of sin-first layouts. */
  pe_columns cols = pe_table_columns(layout, dim, n_omega);
  *pairing = cols.stride == PE_INTERLEAVED_STRIDE ? PE_PAIRING_INTERLEAVED
                                                  : PE_PAIRING_HALVES;
  *sign = cols.first > cols.second ? 1.0 : -1.0;
  return PE_OK;
}

/* R(k) on rows of any dtype: the layout's pairing and sign, every check,
   then the row driver. */
static int32_t rotate_rows(void *out, const void *in, int32_t dtype,
                           uint32_t count, uint32_t dim, const double *offsets,
                           double offset, int32_t layout, int32_t odd_dim,
                           const double *omega, uint32_t n_omega,
                           double scale) {
  int32_t pairing;
  double sign;
  int32_t status =
      relation_of(layout, odd_dim, dim, omega, n_omega, &pairing, &sign);
  if (status == PE_OK)
    status = check_rows(out, in, element_size(dtype), count, dim, offsets,
                        offset, omega, n_omega, scale, PE_ERR_OFFSETS);
  if (status != PE_OK)
    return status;
  turn_rows(out, in, dtype, count, dim, dim - dim % 2, 1, 1, offsets, offset,
            NULL, pairing, omega, sign * scale, 1);
  return PE_OK;
}

int32_t pe_rotate_f32(float *out, const float *in, uint32_t count, uint32_t dim,
                      const double *offsets, double offset, int32_t layout,
                      int32_t odd_dim, const double *omega, uint32_t n_omega,
                      double scale) {
  return rotate_rows(out, in, PE_CACHE_FLOAT32, count, dim, offsets, offset,
                     layout, odd_dim, omega, n_omega, scale);
}

int32_t pe_rotate_f64(double *out, const double *in, uint32_t count,
                      uint32_t dim, const double *offsets, double offset,
                      int32_t layout, int32_t odd_dim, const double *omega,
                      uint32_t n_omega, double scale) {
  return rotate_rows(out, in, PE_CACHE_FLOAT64, count, dim, offsets, offset,
                     layout, odd_dim, omega, n_omega, scale);
}

int32_t pe_rotate_f16(uint16_t *out, const uint16_t *in, uint32_t count,
                      uint32_t dim, const double *offsets, double offset,
                      int32_t layout, int32_t odd_dim, const double *omega,
                      uint32_t n_omega, double scale) {
  return rotate_rows(out, in, PE_CACHE_FLOAT16, count, dim, offsets, offset,
                     layout, odd_dim, omega, n_omega, scale);
}

int32_t pe_rope_dims(uint32_t dim, uint32_t rotary) {
  if (dim < 1 || dim > PE_MAX_DIM)
    return PE_ERR_DIM;
  if (rotary < 2 || rotary > dim || rotary % 2 == 1)
    return PE_ERR_ROTARY_DIM;
  return PE_OK;
}

/* Every check of pe_rope; positions are checked as one per group. Shared,
   not inlined, by pe_rope and pe_rope_streams. */
__attribute__((noinline)) static int32_t
check_rope(void *out, const void *in, int32_t dtype, uint32_t count,
           uint32_t dim, uint32_t rotary, uint32_t repeat, uint32_t span,
           const double *positions, double position, int32_t pairing,
           const double *omega, uint32_t n_omega, double scale,
           double amplitude) {
  if (!PE_IN_ENUM(dtype, PE_CACHE_DTYPE_COUNT))
    return PE_ERR_DTYPE;
  if (!PE_IN_ENUM(pairing, PE_PAIRING_COUNT))
    return PE_ERR_PAIRING;
  int32_t dims = pe_rope_dims(dim, rotary);
  if (dims != PE_OK)
    return dims;
  if (repeat < 1 || count % repeat != 0)
    return PE_ERR_HEADS;
  if (span < 1 || (count / repeat) % span != 0)
    return PE_ERR_COUNT;
  if ((uint64_t)count * dim * element_size(dtype) >= PE_MEMORY_BYTES)
    return PE_ERR_SIZE;
  int32_t status =
      pe_check_frequencies(omega, n_omega, rotary, PE_ODD_ZERO_PAD);
  /* Checked as count / repeat rows of repeat * dim values: one angle each. */
  if (status == PE_OK)
    status = check_rows(out, in, element_size(dtype), count / repeat,
                        repeat * dim, positions, position, omega, n_omega,
                        scale, PE_ERR_POSITIONS);
  if (status != PE_OK)
    return status;
  if (!isfinite(amplitude))
    return PE_ERR_OUTPUT_SCALE;
  return PE_OK;
}

int32_t pe_rope(void *out, const void *in, int32_t dtype, uint32_t count,
                uint32_t dim, uint32_t rotary, uint32_t repeat, uint32_t span,
                const double *positions, double position, int32_t pairing,
                const double *omega, uint32_t n_omega, double scale,
                double amplitude) {
  int32_t status =
      check_rope(out, in, dtype, count, dim, rotary, repeat, span, positions,
                 position, pairing, omega, n_omega, scale, amplitude);
  if (status != PE_OK)
    return status;
  turn_rows(out, in, dtype, count, dim, rotary, repeat, span, positions,
            position, NULL, pairing, omega, scale, amplitude);
  return PE_OK;
}

int32_t pe_rope_streams(void *out, const void *in, int32_t dtype,
                        uint32_t count, uint32_t dim, uint32_t rotary,
                        uint32_t repeat, uint32_t span, const double *positions,
                        const uint8_t *streams, int32_t pairing,
                        const double *omega, uint32_t n_omega, double scale,
                        double amplitude) {
  int32_t status =
      check_rope(out, in, dtype, count, dim, rotary, repeat, span, NULL, 0,
                 pairing, omega, n_omega, scale, amplitude);
  if (status != PE_OK)
    return status;
  if (count > 0 && (positions == NULL || streams == NULL ||
                    !pe_is_aligned(positions, alignof(double))))
    return PE_ERR_NULL;
  for (uint32_t i = 0; i < rotary / 2 && count > 0; i++)
    if (streams[i] > 2)
      return PE_ERR_MROPE_STREAM;
  double max_w = pe_max_frequency(omega, rotary / 2, scale);
  if (!pe_angles_finite(positions, 3 * (count / repeat), 0, 0, max_w))
    return PE_ERR_POSITIONS;
  turn_rows(out, in, dtype, count, dim, rotary, repeat, span, positions, 0,
            streams, pairing, omega, scale, amplitude);
  return PE_OK;
}

int32_t pe_rotation_matrix_f64(double *out, double offset, uint32_t dim,
                               int32_t layout, int32_t odd_dim,
                               const double *omega, uint32_t n_omega,
                               double scale) {
  if (dim < 1 || dim > PE_MAX_MATRIX_DIM)
    return PE_ERR_DIM;
  int32_t pairing;
  double sign;
  int32_t status =
      relation_of(layout, odd_dim, dim, omega, n_omega, &pairing, &sign);
  if (status != PE_OK)
    return status;
  if (out == NULL || !pe_is_aligned(out, alignof(double)))
    return PE_ERR_NULL;
  /* The same checks as the row kernels, on one row. */
  status = check_rows(out, out, sizeof(double), 1, dim, NULL, offset, omega,
                      n_omega, scale, PE_ERR_OFFSETS);
  if (status != PE_OK)
    return status;
  memset(out, 0, sizeof(double) * dim * dim);
  uint32_t h = dim / 2;
  pe_columns cols = pe_pair_columns(pairing == PE_PAIRING_INTERLEAVED, h);
  for (uint32_t i = 0; i < h; i++) {
    /* The same double angle as the row kernels, so R(k) x equals rotate. */
    v128_t s, c;
    pe_sincos_product_f64x2(wasm_f64x2_splat(offset),
                            wasm_f64x2_splat(sign * scale * omega[i]), &s, &c);
    double sin_a = wasm_f64x2_extract_lane(s, 0);
    double cos_a = wasm_f64x2_extract_lane(c, 0);
    uint32_t x = pe_first_column(&cols, i), y = pe_second_column(&cols, i);
    out[(size_t)x * dim + x] = cos_a;
    out[(size_t)x * dim + y] = -sin_a;
    out[(size_t)y * dim + x] = sin_a;
    out[(size_t)y * dim + y] = cos_a;
  }
  if (dim % 2 == 1)
    out[(size_t)dim * dim - 1] = 1;
  return PE_OK;
}
