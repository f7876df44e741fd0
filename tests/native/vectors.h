/* Reads the committed reference vectors of the native tests. */
#ifndef PE_TEST_VECTORS_H
#define PE_TEST_VECTORS_H

#include <stdio.h>
#include <stdlib.h>

#include "check.h"

/* Reads whitespace-separated rows of ncol numbers, skipping '#' lines.
   Returns the row count; *data is malloc'ed. */
static size_t read_vectors(const char *path, int ncol, double **data) {
  FILE *fh = fopen(path, "r");
  size_t cap = 1024, n = 0;
  *data = malloc(cap * ncol * sizeof(double));
  if (!fh) {
    CHECK(0, "cannot open %s (run from the repository root)", path);
    return 0;
  }
  char line[1024];
  while (fgets(line, sizeof line, fh)) {
    if (line[0] == '#' || line[0] == '\n')
      continue;
    if (n == cap) {
      cap *= 2;
      *data = realloc(*data, cap * ncol * sizeof(double));
    }
    char *p = line, *end;
    for (int c = 0; c < ncol; c++) {
      (*data)[n * ncol + c] = strtod(p, &end);
      CHECK(end != p, "bad number in %s row %zu", path, n);
      p = end;
    }
    n++;
  }
  fclose(fh);
  return n;
}

#endif
