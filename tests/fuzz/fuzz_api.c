/* Feeds arbitrary arguments to every exported function: any bit pattern for
   the doubles (NaN, infinities, huge values), any enum and count values, and
   buffers of exactly the size the arguments ask for. Whatever the input, a
   call must return a known status without tripping AddressSanitizer or
   UBSan, and a successful call must write finite values. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "decay_integral.h"
#include "dot_products.h"
#include "frequencies.h"
#include "rotation.h"
#include "special_functions.h"
#include "status.h"
#include "table.h"

typedef struct {
  const uint8_t *data;
  size_t size;
} input;

static uint64_t take(input *in, size_t bytes) {
  uint64_t v = 0;
  for (size_t k = 0; k < bytes && in->size > 0; k++, in->data++, in->size--)
    v |= (uint64_t)in->data[0] << (8 * k);
  return v;
}

/* Mostly ordinary values, sometimes any bit pattern. */
static double number(input *in) {
  uint64_t bits = take(in, 8);
  if ((bits & 7) != 0)
    return (double)(int32_t)(bits >> 8) / (double)(1 + ((bits >> 3) & 31));
  double v;
  memcpy(&v, &bits, sizeof v);
  return v;
}

static void require_finite(const double *x, size_t n) {
  for (size_t k = 0; k < n; k++)
    if (!isfinite(x[k]))
      abort();
}

static void require_finite_f32(const float *x, size_t n) {
  for (size_t k = 0; k < n; k++)
    if (!isfinite(x[k]))
      abort();
}

/* Every call returns one of the status codes, whatever its input. */
static int32_t known(int32_t status) {
  if (status < 0 || status >= PE_STATUS_COUNT)
    abort();
  return status;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  input in = {data, size};
  int which = (int)take(&in, 1) % 8;
  uint32_t dim = (uint32_t)take(&in, 2) % 70;
  int32_t odd_dim = (int32_t)(take(&in, 1) % 5) - 1;
  int32_t layout = (int32_t)(take(&in, 1) % 6) - 1;
  int32_t schedule = (int32_t)(take(&in, 1) % 5) - 1;
  uint32_t count = (uint32_t)take(&in, 1) % 20;
  double base = number(&in), lo = number(&in), hi = number(&in);
  double shift = number(&in), scale = number(&in), amplitude = number(&in);
  double points[20];
  for (uint32_t j = 0; j < count; j++)
    points[j] = number(&in);
  int use_points = take(&in, 1) & 1;

  uint32_t n_omega = 0;
  if (pe_frequency_count(dim, odd_dim, &n_omega) != PE_OK)
    n_omega = 0;
  double *omega = malloc(sizeof(double) * (n_omega + 1));
  int32_t status = known(pe_frequencies(schedule, dim, odd_dim, base, lo, hi,
                                        shift, omega, n_omega));
  if (status == PE_OK)
    require_finite(omega, n_omega);
  else
    for (uint32_t i = 0; i < n_omega; i++)
      omega[i] = number(&in);

  size_t cells = (size_t)count * dim;
  float *f32 = malloc(sizeof(float) * (cells + 1));
  double *f64 = malloc(sizeof(double) * (cells + 1));
  for (size_t k = 0; k < cells; k++)
    f32[k] = (float)(f64[k] = number(&in));
  const double *positions = use_points ? points : NULL;
  double start = points[0] * (count > 0);
  double out[20 * 3 + 3], errors[20];

  switch (which) {
  case 0:
    if (known(pe_table_f32(f32, positions, count, start, dim, layout, odd_dim,
                           omega, n_omega, scale, amplitude)) == PE_OK)
      require_finite_f32(f32, cells);
    break;
  case 1:
    if (known(pe_table_f64(f64, positions, count, start, dim, layout, odd_dim,
                           omega, n_omega, scale, amplitude)) == PE_OK)
      require_finite(f64, cells);
    break;
  case 2:
    known(pe_rotate_f32(f32, f32, count, dim, positions, start, layout, odd_dim,
                        omega, n_omega, scale));
    known(pe_rope_f32(f32, f32, count, dim, positions, start, layout, omega,
                      n_omega, scale));
    break;
  case 3:
    known(pe_rotate_f64(f64, f64, count, dim, positions, start, layout, odd_dim,
                        omega, n_omega, scale));
    if (dim <= 16) {
      double matrix[16 * 16];
      if (known(pe_rotation_matrix_f64(matrix, start, dim, layout, odd_dim,
                                       omega, n_omega, scale)) == PE_OK)
        require_finite(matrix, (size_t)dim * dim);
    }
    break;
  case 4:
    if (known(pe_dot_products(out, positions, count, start, shift, dim, odd_dim,
                              omega, n_omega, scale, amplitude)) == PE_OK)
      require_finite(out, count);
    break;
  case 5: {
    double g[20 * 20]; /* count^2 expected values, or 2 count - 1 */
    for (int k = 0; k < 20 * 20; k++)
      g[k] = number(&in);
    known(pe_gram_deviation_f64(out, f64, count, dim, g, layout & 1));
    known(pe_gram_deviation_f32(out, f32, count, dim, g, layout & 1));
    break;
  }
  case 6:
    if (known(pe_decay_integral(schedule, base, lo, points, count, out)) ==
        PE_OK)
      require_finite(out, count);
    if (known(pe_ci(points, count, out)) == PE_OK)
      require_finite(out, count);
    if (known(pe_si(points, count, out)) == PE_OK)
      require_finite(out, count);
    if (known(pe_decay_frequencies(schedule, base, lo, dim, out,
                                   dim / 2 < 20 ? dim / 2 : 20)) == PE_OK)
      require_finite(out, dim / 2 < 20 ? dim / 2 : 20);
    break;
  case 7:
    /* The quadrature's cost grows with |x|: keep the points modest. */
    for (uint32_t j = 0; j < count && j < 3; j++)
      points[j] = fmod(points[j], 2000.0);
    if (known(pe_decay_integral_quadrature(schedule, base, lo, points,
                                           count < 3 ? count : 3, out,
                                           errors)) == PE_OK)
      require_finite(out, count < 3 ? count : 3);
    break;
  }
  free(omega);
  free(f32);
  free(f64);
  return 0;
}
