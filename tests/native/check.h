/* Minimal test harness for the native C tests: counts checks, prints a
   closing line "name: N passed, N failed", and check_report's result is the
   exit status, nonzero when a check failed, which make test-native reads. */
#ifndef PE_TEST_CHECK_H
#define PE_TEST_CHECK_H

#include <math.h>
#include <stdio.h>

static int check_passed, check_failed;

#define CHECK(cond, ...)                                                       \
  do {                                                                         \
    if (cond) {                                                                \
      check_passed++;                                                          \
    } else {                                                                   \
      check_failed++;                                                          \
      fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__);                                            \
      fputc('\n', stderr);                                                     \
    }                                                                          \
  } while (0)

static inline int check_report(const char *name) {
  printf("%s: %d passed, %d failed\n", name, check_passed, check_failed);
  return check_failed != 0;
}

#endif
