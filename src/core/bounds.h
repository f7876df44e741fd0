/* The bounds every exported function checks its arguments against. JS reads
   the same values (generated from this file), so both layers agree. */
#ifndef PE_BOUNDS_H
#define PE_BOUNDS_H

#include <stdint.h>

/* Largest dim of a table, rotation or dot product. */
#define PE_MAX_DIM (1u << 20)

/* Largest dim of a dense rotation matrix (1024 x 1024 doubles are 8 MiB). */
#define PE_MAX_MATRIX_DIM 1024u

/* Largest number of points of the decay integral, Ci and Si. */
#define PE_MAX_COUNT (1u << 28)

/* The wasm32 address space: no buffer reaches this many bytes. */
#define PE_MEMORY_BYTES (1ull << 32)

/* Smallest alpha of the power family: below it the closed form would fall
   back to quadrature over too long a range of x. */
#define PE_DECAY_MIN_ALPHA (1.0 / 1024.0)

/* Largest |x| the quadrature accepts: its cost grows linearly with |x|. */
#define PE_DECAY_QUADRATURE_MAX_X 1e6

/* Evenly spaced angles advance by one rotation per row and re-seed from an
   exact sin/cos every PE_RESEED rows; the float64 recurrence drifts by about
   1e-16 per step, and a float32 value its drift could round either way is
   recomputed from its own position (angles.h), so every value is the one a
   row alone gives, whatever the blocks. */
#define PE_RESEED 128

/* Whether p is a multiple of alignment, a power of two. */
static inline int pe_is_aligned(const void *p, uintptr_t alignment) {
  return ((uintptr_t)p & (alignment - 1)) == 0;
}

#endif
