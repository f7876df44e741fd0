// What every chart shares: HiDPI sizing, theme colours from the style sheet,
// tick positions and tick labels.

/** Margins around a plot grown with its text (theme's textScale). */
export function scaledMargin(margin, textScale) {
  return Object.fromEntries(
    Object.entries(margin).map(([side, px]) => [
      side,
      Math.round(px * textScale),
    ]),
  );
}

/**
 * Sizes the canvas to `width` × `height` CSS pixels with a backing store of
 * devicePixelRatio times as many, and returns its 2D context scaled to CSS
 * pixels.
 */
export function fitCanvas(canvas, width, height) {
  const ratio = globalThis.devicePixelRatio || 1;
  const w = Math.max(1, Math.round(width * ratio));
  const h = Math.max(1, Math.round(height * ratio));
  if (canvas.width !== w || canvas.height !== h) {
    canvas.width = w;
    canvas.height = h;
  }
  canvas.style.width = `${width}px`;
  canvas.style.height = `${height}px`;
  const context = canvas.getContext("2d");
  context.setTransform(ratio, 0, 0, ratio, 0, 0);
  return { context, ratio };
}

/** How many series colours the style sheet defines (--series-0 …). */
export const SERIES_COLOURS = 8;

// Colours are read once per element and colour scheme: a computed style read
// after the page has changed costs a style recalculation on every redraw.
const themes = new WeakMap();

/** Chart colours from the CSS custom properties (light or dark theme). */
export function theme(element) {
  const dark = element.closest(".pe-dark") !== null;
  const known = themes.get(element);
  if (known?.dark === dark) return known.colours;
  const style = getComputedStyle(element);
  const read = (name, fallback) =>
    style.getPropertyValue(name).trim() || fallback;
  const textScale = Math.min(
    2,
    Math.max(0.75, parseFloat(style.fontSize) / 16 || 1),
  );
  const colours = {
    background: read("--chart-bg", "#fff"),
    text: read("--chart-text", "#222"),
    axis: read("--chart-axis", "#888"),
    grid: read("--chart-grid", "#ddd"),
    series: Array.from({ length: SERIES_COLOURS }, (_, i) =>
      read(`--series-${i}`, "#36c"),
    ),
    // Chart text is three quarters of the text around it: 12 px on the
    // page's 16 px, larger in a panel on a host of larger type.
    textScale,
    font: `${12 * textScale}px ${style.fontFamily || "sans-serif"}`,
  };
  themes.set(element, { dark, colours });
  return colours;
}

/**
 * About `count` round tick values covering [low, high], each computed from
 * its own index with one rounding: a running sum would gather rounding
 * (0.2 + 0.2 + 0.2 reads 0.6000000000000001), and so would i · 0.2. Below 1
 * a tick is i / n for the whole number n = 1 / step, as d3's ticks are.
 */
export function linearTicks(low, high, count = 5) {
  if (!(high > low)) return [low];
  const rough = (high - low) / count;
  const exponent = Math.floor(Math.log10(rough));
  const multiple =
    [1, 2, 2.5, 5, 10].find((m) => m * 10 ** exponent >= rough) ?? 10;
  const ticks = [];
  if (exponent < 0) {
    const inverse = Math.round(10 ** -exponent / multiple);
    const first = Math.ceil(low * inverse - 1e-9);
    const last = Math.floor(high * inverse + 1e-9);
    for (let i = first; i <= last; i++) ticks.push(i === 0 ? 0 : i / inverse);
  } else {
    const step = multiple * 10 ** exponent;
    const first = Math.ceil(low / step - 1e-9);
    const last = Math.floor(high / step + 1e-9);
    for (let i = first; i <= last; i++) ticks.push(i === 0 ? 0 : i * step);
  }
  return ticks;
}

/** Powers of ten in [low, high] (positive), thinned to about `count`. */
export function logTicks(low, high, count = 6) {
  const first = Math.ceil(Math.log10(low) - 1e-9);
  const last = Math.floor(Math.log10(high) + 1e-9);
  const every = Math.max(1, Math.ceil((last - first + 1) / count));
  const ticks = [];
  for (let e = first; e <= last; e += every) ticks.push(10 ** e);
  return ticks.length ? ticks : [low];
}

/**
 * A tick label: short, exponent form for very large or small values. Given
 * the ticks' spacing, whole ticks of a whole spacing are written out in
 * full, so that neighbours never read the same (10000100, not 10⁷).
 */
export function tickLabel(value, step) {
  // The minus sign, not a hyphen, as the page's text writes it.
  return hyphenated(value, step).replace(/^-/, "\u2212");
}

// The label as JavaScript writes numbers, a hyphen before a negative one.
function hyphenated(value, step) {
  const size = Math.abs(value);
  if (value === 0) return "0";
  if (
    step !== undefined &&
    Number.isInteger(step) &&
    Number.isInteger(value) &&
    size < 1e15 &&
    size / step >= 10
  )
    return String(value);
  if (size >= 1e5 || size < 1e-3) {
    const [mantissa, exponent] = value.toExponential(1).split("e");
    const m = mantissa.replace(/\.0$/, "");
    return `${m === "1" ? "" : m + "×"}10${superscript(exponent)}`;
  }
  return String(Number(value.toPrecision(4)));
}

/** A power of ten as 10ⁿ, the way a log axis with decade ticks is read. */
export function powerLabel(value) {
  return `10${superscript(String(Math.round(Math.log10(value))))}`;
}

const SUPERSCRIPTS = {
  "-": "⁻",
  "+": "",
  0: "⁰",
  1: "¹",
  2: "²",
  3: "³",
  4: "⁴",
  5: "⁵",
  6: "⁶",
  7: "⁷",
  8: "⁸",
  9: "⁹",
};

/** Digits and signs as superscripts: 10 and "-12" read as 10⁻¹². */
export function superscript(text) {
  return Array.from(text, (c) => SUPERSCRIPTS[c] ?? c).join("");
}
