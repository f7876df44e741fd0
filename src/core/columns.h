/* The one column rule of every row layout: the two members of pair i sit at
   columns first + stride * i and second + stride * i. Interleaved layouts
   have stride 2 and first, second in {0, 1}; halves have stride 1 and one
   block at 0, the other at the width of the block before it. Tables place
   (sin, cos), rotations (x, y) and RoPE caches their two copies by it. */
#ifndef PE_COLUMNS_H
#define PE_COLUMNS_H

#include <stdint.h>

#include "enums.h"

/* The stride of interleaved layouts; halves have stride 1. */
#define PE_INTERLEAVED_STRIDE 2u

typedef struct {
  uint32_t first, second, stride;
} pe_columns;

static inline uint32_t pe_first_column(const pe_columns *c, uint32_t i) {
  return c->first + c->stride * i;
}

static inline uint32_t pe_second_column(const pe_columns *c, uint32_t i) {
  return c->second + c->stride * i;
}

/* Pairs (2i, 2i + 1), or (i, second_block + i). */
static inline pe_columns pe_pair_columns(int interleaved,
                                         uint32_t second_block) {
  pe_columns c = {0, interleaved ? 1 : second_block,
                  interleaved ? PE_INTERLEAVED_STRIDE : 1};
  return c;
}

/* The (sin, cos) columns of a table layout (enum pe_layout) of dim columns
   and n_omega frequencies. [sin | cos] with an extra sin (n_omega > dim / 2)
   has a sin block of n_omega columns; [cos | sin] puts the sin block after
   dim / 2 cos columns. */
static inline pe_columns pe_table_columns(int32_t layout, uint32_t dim,
                                          uint32_t n_omega) {
  int cos_first = layout == PE_LAYOUT_INTERLEAVED_COS_FIRST ||
                  layout == PE_LAYOUT_HALVES_COS_FIRST;
  if (layout == PE_LAYOUT_INTERLEAVED ||
      layout == PE_LAYOUT_INTERLEAVED_COS_FIRST) {
    pe_columns c = {(uint32_t)cos_first, (uint32_t)!cos_first,
                    PE_INTERLEAVED_STRIDE};
    return c;
  }
  pe_columns c = {cos_first ? dim / 2 : 0, cos_first ? 0 : n_omega, 1};
  return c;
}

/* The column of an odd dim that is not in a pair: the extra sin of
   [sin | cos] ends the sin block; otherwise (the zero column, or the extra
   sin of any other layout) it is the last column. */
static inline uint32_t pe_table_odd_column(int32_t layout, uint32_t dim,
                                           uint32_t n_omega) {
  return layout == PE_LAYOUT_HALVES && n_omega > dim / 2 ? dim / 2 : dim - 1;
}

#endif
