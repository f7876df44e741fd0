// The precision section's measurements: the largest error of the float32
// angle evaluation (what framework code computes, reproduced here because
// it is what is shown) and of the library's float32 table, per band of
// positions from 1 to 10^6, against sin and cos of the double angle.

/**
 * The library's float32 table is one rounding of the value: each entry is
 * one of the two float32 numbers around it, so it is off by less than one
 * ulp of the value, at most 2⁻²⁴ for the values below 1 in magnitude that a
 * table holds (values scaled above 1, as by a RoPE attention factor, have a
 * larger ulp).
 */
export const MODULE_BOUND = 2 ** -24;
/**
 * The reference's own error: the angle p·ωᵢ rounded to double is off by at
 * most half an ulp of 10⁶ (5.8e-11), and sin and cos add one rounding.
 */
export const REFERENCE_ERROR = 1e-10;
export const DECADES = 6;
export const BANDS_PER_DECADE = 10;

// Rows × pairs per redraw: four sin/cos evaluations per pair in page code.
const PRECISION_WORK = 2 ** 14;
const ROWS_PER_BAND = { min: 1, max: 8 };

export function rowsPerBand(pairs) {
  const bands = DECADES * BANDS_PER_DECADE;
  return Math.max(
    ROWS_PER_BAND.min,
    Math.min(ROWS_PER_BAND.max, Math.floor(PRECISION_WORK / (bands * pairs))),
  );
}

/**
 * Bands [10^(j/10), 10^((j+1)/10)), j = 0 … 59: the geometric centre of each
 * and `perBand` integer positions spread through it.
 */
export function positionBands(perBand) {
  const bands = DECADES * BANDS_PER_DECADE;
  const centres = new Float64Array(bands);
  const positions = new Float64Array(bands * perBand);
  for (let j = 0; j < bands; j++) {
    centres[j] = 10 ** ((j + 0.5) / BANDS_PER_DECADE);
    for (let r = 0; r < perBand; r++)
      positions[j * perBand + r] = Math.round(
        10 ** ((j + (r + 0.5) / perBand) / BANDS_PER_DECADE),
      );
  }
  return { centres, positions };
}

/**
 * Per band, the largest |value − reference| over its positions and every
 * pair, for the float32-angle method and for `moduleTable` (interleaved
 * sin, cos rows of the same positions and frequencies). Reference: Math.sin
 * and Math.cos of the double angle p·ω_i, whose rounding (≤ 1.2e-10 at
 * p = 10^6) is far below both errors.
 */
export function bandErrors(omega, positions, perBand, moduleTable) {
  const pairs = omega.length;
  const omega32 = Float32Array.from(omega);
  const bands = positions.length / perBand;
  const naive = new Float64Array(bands);
  const module = new Float64Array(bands);
  for (let row = 0; row < positions.length; row++) {
    const p = positions[row];
    const p32 = Math.fround(p);
    const band = Math.floor(row / perBand);
    let worstNaive = naive[band];
    let worstModule = module[band];
    for (let i = 0, at = row * 2 * pairs; i < pairs; i++, at += 2) {
      const angle = p * omega[i];
      const s = Math.sin(angle);
      const c = Math.cos(angle);
      const angle32 = Math.fround(p32 * omega32[i]);
      worstNaive = Math.max(
        worstNaive,
        Math.abs(Math.fround(Math.sin(angle32)) - s),
        Math.abs(Math.fround(Math.cos(angle32)) - c),
      );
      worstModule = Math.max(
        worstModule,
        Math.abs(moduleTable[at] - s),
        Math.abs(moduleTable[at + 1] - c),
      );
    }
    naive[band] = worstNaive;
    module[band] = worstModule;
  }
  return { naive, module };
}
