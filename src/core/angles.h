/* What every kernel over the angles x * scale * w_i shares: the argument
   checks on x, and a block of pairs whose (sin, cos) are seeded exactly and
   then advanced by the rotation recurrence. */
#ifndef PE_ANGLES_H
#define PE_ANGLES_H

#include <math.h>
#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "bounds.h"
#include "sincos_f64x2.h"
#include "status.h"

/* Code that runs once per call or per row's last pairs (plans, checks,
   tails) is built for size where the compiler can (clang's minsize). */
#ifdef __clang__
#define PE_FOR_SIZE __attribute__((minsize))
#else
#define PE_FOR_SIZE
#endif

/* Pairs per block: the block's five arrays of doubles (10 KiB) stay in L1
   while rows stream through. A multiple of 4, the padding of a block. */
#define PE_BLOCK 256

/* Whether x[j] = x[0] + j * step for every j in real arithmetic, step =
   x[1] - x[0]: the recurrence then forms exactly the angles of x. */
int pe_evenly_spaced(const double *x, uint32_t count);

/* Whether start + j is exactly a double for every j < count. Every sum lies
   between start and the last one, so it is exact if the last sum is and all
   stay below 2^53, where integers are exact. */
static inline int pe_integer_steps_exact(double start, uint32_t count) {
  double span = (double)(count > 0 ? count - 1 : 0), last = start + span;
  double span_part = last - start;
  double error = (start - (last - span_part)) + (span - span_part);
  return error == 0 && fabs(start) < 0x1p53 && fabs(last) < 0x1p53;
}

/* How a kernel walks its count rows: each row seeded from an exact sin/cos
   of its position, or advanced from the row before by the recurrence. */
typedef struct {
  const double *positions; /* null: row j is at first + j * step */
  double first, step;
  int recurrence; /* rows advance, re-seeded every PE_RESEED rows */
} pe_row_plan;

/* The one row plan of every kernel: rows at positions[j], or at first +
   j * step when positions is null. Evenly spaced positions (two or more)
   become first + j * step, whose angles the recurrence forms exactly. The
   recurrence is taken when `allowed` (float32 and float16 output; float64
   would show its drift) and the rows are first + j * step: then, with
   `exact_rows`, only if every such row is exactly a double (the position
   of a re-seeded row, which the recurrence's exact angles would otherwise
   miss); without it (sums over offsets defined in real arithmetic), always. */
pe_row_plan pe_plan_rows(const double *positions, uint32_t count, double first,
                         double step, int allowed, int exact_rows);

/* Whether any of `count` rows of a plan advances from the row before: only
   then does a block need its step rotation. */
static inline int pe_rows_advance(const pe_row_plan *plan, uint32_t count) {
  return plan->recurrence && count > 1;
}

/* Whether row j of a plan starts from an exact sin/cos. */
static inline int pe_row_seeded(const pe_row_plan *plan, uint32_t j) {
  return !plan->recurrence || j % PE_RESEED == 0;
}

/* The position of row j of a plan. */
static inline double pe_row_position(const pe_row_plan *plan, uint32_t j) {
  return plan->positions != NULL ? plan->positions[j]
                                 : plan->first + (double)j * plan->step;
}

/* max |scale * w_i|: not finite when scale or a product overflows. */
double pe_max_frequency(const double *omega, uint32_t n, double scale);

/* Whether every x and x * max_w is finite, for x = xs[j], or x = first +
   j * step when xs is null (j < count). */
int pe_angles_finite(const double *xs, uint32_t count, double first,
                     double step, double max_w);

/* The check of every angle x * scale * w_i of a call that writes its result
   in blocks, made before the first block so that an error leaves the result
   untouched: x = xs[j], or first + j when xs is null (j < count). Returns
   `bad` (PE_ERR_POSITIONS or PE_ERR_OFFSETS, the option x belongs to) for
   the first x that is not finite or gives an angle that is not, with
   report[0] = j; PE_OK otherwise. report[1] = max |scale * w_i|. A scale
   or frequencies whose products are not finite are left to the kernel's
   own checks, which name them. */
PE_EXPORT int32_t pe_check_angles(const double *xs, uint32_t count,
                                  double first, const double *omega,
                                  uint32_t n_omega, double scale, int32_t bad,
                                  double *report);

/* w = w_scale * omega, the step rotation (sin, cos)(step * w) and the
   current (sin, cos) of every pair of the block, all in double. */
typedef struct {
  alignas(16) double w[PE_BLOCK];
  alignas(16) double step_sin[PE_BLOCK];
  alignas(16) double step_cos[PE_BLOCK];
  alignas(16) double sin[PE_BLOCK];
  alignas(16) double cos[PE_BLOCK];
  double max_w; /* max |w| of the block */
} pe_angle_block;

/* Loads w = w_scale * omega and max_w, padded to a multiple of 4 pairs
   with zero frequencies; returns the padded count, which the seed and
   advance loops then cover. Enough for blocks that are only seeded. */
uint32_t pe_angle_block_frequencies(pe_angle_block *b, const double *omega,
                                    uint32_t n, double w_scale);

/* pe_angle_block_frequencies and the step rotation, for blocks that
   advance by the recurrence. */
uint32_t pe_angle_block_load(pe_angle_block *b, const double *omega, uint32_t n,
                             double w_scale, double step);

/* The one definition of a value: (sin, cos)(x * w) of the exact product,
   times a, in two lanes, each lane's value a function of its own x, w and a
   alone. Every seed, every row at a listed position and every correction
   of a recurrence value is this, so a float32 element is its rounding
   whatever path produced it. `in_range` (a constant) may be set where
   pe_dekker_in_range holds for every lane: the product then skips the
   overflow scaling, with the same bits. */
static inline __attribute__((always_inline)) void
pe_angle_value2(v128_t x, v128_t w, v128_t a, v128_t *s, v128_t *c,
                int in_range) {
  v128_t hi, lo;
  if (in_range)
    pe_dekker_f64x2(x, w, &hi, &lo);
  else
    pe_two_product_f64x2(x, w, &hi, &lo);
  pe_sincos_f64x2_full(hi, lo, s, c);
  *s = wasm_f64x2_mul(*s, a);
  *c = wasm_f64x2_mul(*c, a);
}

/* (sin, cos)(x * w) times amplitude for every pair: pe_angle_value2. */
void pe_angle_block_seed(pe_angle_block *b, uint32_t n_pad, double x,
                         double amplitude);

/* The same with pair i at its own x = xs[i] (16-byte aligned, n_pad of
   them; M-RoPE's streams). */
void pe_angle_block_seed_each(pe_angle_block *b, uint32_t n_pad,
                              const double *xs, double amplitude);

/* pe_angle_value2 of the pairs [i, i + 4) of the block at x, into sin[0..3]
   and cos[0..3]: the correction of recurrence values whose float32 rounding
   is uncertain (rare, out of line). */
void pe_angle_pairs_exact(const pe_angle_block *b, uint32_t i, double x,
                          double amplitude, double *sin, double *cos);

/* A bound on |recurrence value - pe_angle_value2| per unit of amplitude,
   for up to PE_RESEED steps from a seed. The recurrence follows the exact
   angles; per step its error grows by at most about 5 * 2^-53 (in each
   component two products and their sum rounded, 2 * 2^-53 of the
   amplitude; the step's cos and sin off by 1.5 * 2^-53 each, 2.1 * 2^-53
   as a matrix), so 128 steps, the seed and pe_angle_value2's own error stay
   below 650 * 2^-53. 2^-42 is three times that. */
#define PE_RECURRENCE_ERROR 0x1p-42

/* The bound for values times `amplitude`; below DBL_MIN each rounding errs
   by up to 2^-1075 however small the value, so a subnormal amplitude's
   values carry an absolute 2^-1064 (128 steps of three roundings and the
   seed) beside the relative bound. */
static inline double pe_recurrence_error(double amplitude) {
  return PE_RECURRENCE_ERROR * fabs(amplitude) + 0x1p-1064;
}

/* Whether rounding v to float32 is uncertain when v may be off by up to e:
   the two ends of [v - e, v + e] round apart (rounding is monotonic, so
   when they agree every value between them, the exact one too, rounds to
   the same float), bit for bit, so that -0 and +0 differ too. */
static inline int pe_f32_uncertain(double v, double e) {
  float low = (float)(v - e), high = (float)(v + e);
  return memcmp(&low, &high, sizeof low) != 0;
}

/* Lanes 0, 1 of x0 and x1 as four float32, each rounded once. */
static inline __attribute__((always_inline)) v128_t pe_demote4(v128_t x0,
                                                               v128_t x1) {
  return wasm_i32x4_shuffle(wasm_f32x4_demote_f64x2_zero(x0),
                            wasm_f32x4_demote_f64x2_zero(x1), 0, 1, 4, 5);
}

/* The float32 rounding of the two lanes of v (lanes 0, 1); `sure` keeps all
   ones only in lanes whose rounding pe_f32_uncertain would not flag (lanes
   2, 3 compare zeros, always equal). */
static inline __attribute__((always_inline)) v128_t
pe_demote_checked(v128_t v, v128_t e, v128_t *sure) {
  v128_t low = wasm_f32x4_demote_f64x2_zero(wasm_f64x2_sub(v, e));
  v128_t high = wasm_f32x4_demote_f64x2_zero(wasm_f64x2_add(v, e));
  *sure = wasm_v128_and(*sure, wasm_i32x4_eq(low, high));
  return low;
}

/* A screen of float32 roundings by the bits of the double, cheaper than
   rounding both ends of [v - e, v + e]: the constants of one error bound e.
   Let L be the low 29 bits of a double v, the bits that float32 drops, and
   u64 its ulp. The float32 midpoint nearest v within its binade is where L
   = 2^28; the others, below the binade's first float32 or above the next,
   lie at least 2^27 u64 away. So where |L - 2^28| >= 2^PE_SCREEN_BITS >
   e / u64, with PE_SCREEN_BITS < 27, no midpoint lies within e of v and v
   rounds as every value within e of it. u64 is at least the ulp of the
   screen's smallest magnitude 2^m, chosen for e / 2^(m - 52) < 2^20 and in
   float32's normal range; smaller values (and zeros) fail the screen. A
   value fails it with chance about 2^-8 (the band of L) plus 0.64 * 2^m /
   amplitude (magnitudes below 2^m), and then takes the exact test. */
#define PE_SCREEN_BITS 20

/* As four 32-bit lanes (low, high word of each double): `bias` adds 2^28 +
   2^20 to L, so that L lies in the band exactly when bits 21 to 28 of the
   sum are zero, which `mask` keeps; in the high words `mask` keeps the
   exponent. `floor` is 1 in the low words and 2^m's exponent in the high
   words. */
typedef struct {
  v128_t bias, mask, floor;
} pe_f32_screen;

pe_f32_screen pe_f32_screen_of(double e);

/* Adds the two values of v to a screen's accumulator acc (all ones at
   first): lane by lane, the smallest masked sum and the smallest exponent.
   Every value added passes when all lanes reach floor. */
static inline __attribute__((always_inline)) v128_t
pe_f32_screen_add(v128_t acc, v128_t v, const pe_f32_screen *screen) {
  return wasm_u32x4_min(
      acc, wasm_v128_and(wasm_i32x4_add(v, screen->bias), screen->mask));
}

static inline __attribute__((always_inline)) int
pe_f32_screen_passes(v128_t acc, const pe_f32_screen *screen) {
  return wasm_i32x4_all_true(wasm_u32x4_ge(acc, screen->floor));
}

/* Whether no lane of the four vectors is uncertain in float32 by
   pe_f32_uncertain: the exact test of values that fail the screen. */
static inline int pe_f32_sure4(v128_t v0, v128_t v1, v128_t v2, v128_t v3,
                               double e) {
  v128_t ev = wasm_f64x2_splat(e), sure = wasm_i32x4_splat(-1);
  pe_demote_checked(v0, ev, &sure);
  pe_demote_checked(v1, ev, &sure);
  pe_demote_checked(v2, ev, &sure);
  pe_demote_checked(v3, ev, &sure);
  return wasm_i32x4_all_true(sure);
}

/* Replaces the state of every pair of [from, to) whose sin or cos is
   uncertain in float32 (or in float16 with `half`; error bound e) by
   pe_angle_value2 at x: then every rounding of the state to that type is
   the rounding of that one value. */
void pe_angle_block_settle(pe_angle_block *b, uint32_t from, uint32_t to,
                           double x, double amplitude, double e, int half);

/* One step of two pairs in registers, (sw, cw) = (sin, cos)(step w):
   (sin, cos)(a + step w) = (s cw + c sw, c cw - s sw). */
static inline __attribute__((always_inline)) void
pe_angle_step(v128_t *s, v128_t *c, v128_t sw, v128_t cw) {
  v128_t s_next =
      wasm_f64x2_add(wasm_f64x2_mul(*s, cw), wasm_f64x2_mul(*c, sw));
  *c = wasm_f64x2_sub(wasm_f64x2_mul(*c, cw), wasm_f64x2_mul(*s, sw));
  *s = s_next;
}

/* Pairs [i, i + 4) of the block advanced one step in place, their new
   (sin, cos) also left in registers: (s0, c0) pairs i, i + 1 and (s1, c1)
   pairs i + 2, i + 3. */
static inline __attribute__((always_inline)) void
pe_angle_advance4(pe_angle_block *b, uint32_t i, v128_t *s0, v128_t *c0,
                  v128_t *s1, v128_t *c1) {
  *s0 = wasm_v128_load(b->sin + i);
  *c0 = wasm_v128_load(b->cos + i);
  *s1 = wasm_v128_load(b->sin + i + 2);
  *c1 = wasm_v128_load(b->cos + i + 2);
  pe_angle_step(s0, c0, wasm_v128_load(b->step_sin + i),
                wasm_v128_load(b->step_cos + i));
  pe_angle_step(s1, c1, wasm_v128_load(b->step_sin + i + 2),
                wasm_v128_load(b->step_cos + i + 2));
  wasm_v128_store(b->sin + i, *s0);
  wasm_v128_store(b->cos + i, *c0);
  wasm_v128_store(b->sin + i + 2, *s1);
  wasm_v128_store(b->cos + i + 2, *c1);
}

/* One step of pairs [from, to) of the block in place, by whole vectors of
   two (the state is padded): single rows, tails, padding (out of line). */
void pe_angle_block_advance(pe_angle_block *b, uint32_t from, uint32_t to);

#endif
