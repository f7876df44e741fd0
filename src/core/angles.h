/* What every kernel over the angles x * scale * w_i shares: the argument
   checks on x, and a block of pairs whose (sin, cos) are seeded exactly and
   then advanced by the rotation recurrence. */
#ifndef PE_ANGLES_H
#define PE_ANGLES_H

#include <math.h>
#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>

#include "bounds.h"
#include "sincos_f64x2.h"

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

/* Loads w = w_scale * omega and the step rotation, padded to a multiple of
   4 pairs with zero frequencies; returns the padded count, which the seed
   and advance loops then cover. */
uint32_t pe_angle_block_load(pe_angle_block *b, const double *omega, uint32_t n,
                             double w_scale, double step);

/* (sin, cos)(x * w) times amplitude for every pair, exact to float64, or to
   float32 rounding with `for_f32`. */
void pe_angle_block_seed(pe_angle_block *b, uint32_t n_pad, double x,
                         double amplitude, int for_f32);

/* The same with pair i at its own x = xs[i] (16-byte aligned, n_pad of
   them; M-RoPE's streams), in one pass: each pair's value is bit for bit
   the one pe_angle_block_seed gives at its x. */
void pe_angle_block_seed_each(pe_angle_block *b, uint32_t n_pad,
                              const double *xs, double amplitude, int for_f32);

/* One step of two pairs in registers, (sw, cw) = (sin, cos)(step w):
   (sin, cos)(a + step w) = (s cw + c sw, c cw - s sw). */
static inline __attribute__((always_inline)) void
pe_angle_step(v128_t *s, v128_t *c, v128_t sw, v128_t cw) {
  v128_t s_next =
      wasm_f64x2_add(wasm_f64x2_mul(*s, cw), wasm_f64x2_mul(*c, sw));
  *c = wasm_f64x2_sub(wasm_f64x2_mul(*c, cw), wasm_f64x2_mul(*s, sw));
  *s = s_next;
}

#endif
