/** θ families: "exp" θ(t) = base^(−t), "power" θ(t) = t^alpha, "linear" θ(t) = t. */
export type Theta = "exp" | "power" | "linear";
export const THETAS: readonly Theta[];

/** Evenly spaced points from `from` to `to` inclusive; 1 ≤ count ≤ 2^28. */
export interface Grid {
  from: number;
  to: number;
  count: number;
}

export interface FamilyOptions {
  /** Default "exp". */
  theta?: Theta;
  /** "exp" only: finite and > 1; default 10000 (the paper). */
  base?: number;
  /** "power" only, required: finite and ≥ 1/1024. */
  alpha?: number;
}

export interface DecayIntegralOptions extends FamilyOptions {
  /** Finite reals, or a grid. f is even and f(0) = 1. */
  x: number | ArrayLike<number> | Grid;
  /**
   * "closed-form" (default): the cosine integral for "exp", the ₁F₂ series
   * or Γ(s)cos(πs/2) minus a continued-fraction tail for "power", sin x / x
   * for "linear". "quadrature": adaptive Gauss–Kronrod, |x| ≤ 1e6.
   */
  method?: "closed-form" | "quadrature";
}

/** f(x) = ∫₀¹ cos(x·θ(t)) dt at every x, written into `out` (closed form only). */
export function decayIntegral<Out extends Float64Array>(
  options: DecayIntegralOptions & {
    method?: "closed-form";
    /** A Float64Array of at least one element per x to fill and return. */
    out: Out;
  },
): NoInfer<Out>;
/** f(x) = ∫₀¹ cos(x·θ(t)) dt at every x. */
export function decayIntegral(
  options: DecayIntegralOptions & { method?: "closed-form" },
): Float64Array<ArrayBuffer>;
/** An independent estimate with a bound on its error at every x. */
export function decayIntegral(
  options: DecayIntegralOptions & { method: "quadrature" },
): { values: Float64Array<ArrayBuffer>; errors: Float64Array<ArrayBuffer> };

/** Cosine integral Ci(x) = −∫ₓ^∞ cos t / t dt, x > 0. */
export function ci(x: number): number;
export function ci<Out extends Float64Array>(
  x: ArrayLike<number>,
  options: {
    /** A Float64Array of at least one element per x to fill and return. */
    out: Out;
  },
): NoInfer<Out>;
export function ci(
  x: ArrayLike<number>,
  options?: Record<string, never>,
): Float64Array<ArrayBuffer>;

/** Sine integral Si(x) = ∫₀ˣ sin t / t dt. */
export function si(x: number): number;
export function si<Out extends Float64Array>(
  x: ArrayLike<number>,
  options: {
    /** A Float64Array of at least one element per x to fill and return. */
    out: Out;
  },
): NoInfer<Out>;
export function si(
  x: ArrayLike<number>,
  options?: Record<string, never>,
): Float64Array<ArrayBuffer>;

export interface DecayComparisonOptions extends FamilyOptions {
  /** Even or odd, 2 ≤ dim ≤ 2^20: ⌊dim/2⌋ frequencies θ_i = θ(2i/dim). */
  dim: number;
  /** Finite reals, or a grid. */
  x: number | ArrayLike<number> | Grid;
}

/** The exact finite-d sum Σ_i cos(x·θ_i) beside (d/2)·f(x), on one grid. */
export function decayComparison(options: DecayComparisonOptions): {
  x: Float64Array<ArrayBuffer>;
  sum: Float64Array<ArrayBuffer>;
  integral: Float64Array<ArrayBuffer>;
};
