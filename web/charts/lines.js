// Line charts on a canvas: axes with ticks (linear or log), a legend, and a
// readout of the values nearest the pointer or, from the keyboard, a cursor
// moved with the arrow keys. NaN breaks a line. Series may share a colour
// (`colour`, an index into the style sheet's --series-0 … --series-7).
import {
  scaledMargin,
  fitCanvas,
  linearTicks,
  logTicks,
  powerLabel,
  SERIES_COLOURS,
  theme,
  tickLabel,
} from "./canvas.js";
import { element } from "../dom.js";

const MARGIN = { left: 56, right: 12, top: 10, bottom: 40 };
// A discrete series is drawn as points once they stand this many pixels
// apart.
const POINT_SPACING = 8;
// Room above and below the curves, as a fraction of the span (in decades on
// a log axis, where a flat curve at one end is common), so that no curve
// lies on the frame.
const PAD = 0.04;
const LOG_PAD = 0.08;

/** A series' colour: its own `colour` index, else its place in the list. */
const colourIndex = (series, i) => (series?.colour ?? i) % SERIES_COLOURS;

/**
 * spec: { frames (the page's draw queue), series: [{ label, colour, dash }],
 * xLabel, yLabel, label, testid, discrete (x takes whole values only), … }.
 */
export function lineChart(container, spec) {
  const { frames } = spec;
  const canvas = document.createElement("canvas");
  canvas.tabIndex = 0;
  canvas.setAttribute("role", "img");
  canvas.setAttribute(
    "aria-label",
    spec.label ?? `${spec.yLabel} / ${spec.xLabel}`,
  );
  if (spec.testid) canvas.dataset.testid = spec.testid;
  const legend = element(
    "ul",
    "legend",
    spec.series.map((s, i) => {
      const swatch = element("span", "swatch");
      swatch.style.borderTopColor = `var(--series-${colourIndex(s, i)})`;
      if (s.dash) swatch.classList.add("dashed");
      return element("li", "", [swatch, s.label]);
    }),
  );
  const readout = element("p", "readout");
  readout.setAttribute("aria-live", "polite");
  container.append(canvas, legend, readout);

  let xs = new Float64Array(0);
  let ys = [];
  let cursor = -1;
  let observedWidth = null;

  function set(newXs, newYs) {
    xs = newXs;
    ys = newYs;
    if (cursor >= xs.length) cursor = -1;
    draw();
  }

  function range(values, log) {
    let low = Infinity;
    let high = -Infinity;
    for (const list of values)
      for (let j = 0; j < list.length; j++) {
        const v = list[j];
        if (Number.isFinite(v) && (!log || v > 0)) {
          if (v < low) low = v;
          if (v > high) high = v;
        }
      }
    if (low === Infinity) return log ? [1, 10] : [0, 1];
    if (low === high) {
      if (log) return [low / 2, high * 2];
      const pad = Math.abs(low) * 0.1 || 1;
      return [low - pad, high + pad];
    }
    return [low, high];
  }

  function draw() {
    // The width the observer last saw: reading it from the page here would
    // lay the page out again after every other panel's change.
    const width = Math.max(240, observedWidth ?? container.clientWidth);
    const height = spec.height ?? Math.round(Math.min(320, width * 0.55));
    const { context } = fitCanvas(canvas, width, height);
    const colours = theme(canvas);
    const margin = scaledMargin(MARGIN, colours.textScale);
    const plot = {
      x: margin.left,
      y: margin.top,
      w: width - margin.left - margin.right,
      h: height - margin.top - margin.bottom,
    };
    const [x0, x1] = range([xs], spec.logX);
    let [y0, y1] = range(ys, spec.logY);
    if (spec.logY) {
      const pad = (y1 / y0) ** LOG_PAD;
      y0 /= pad;
      y1 *= pad;
    } else {
      const pad = (y1 - y0) * PAD;
      y0 -= pad;
      y1 += pad;
    }
    const scale = (log, low, high, from, size, flip) => {
      const a = log ? Math.log10(low) : low;
      const b = log ? Math.log10(high) : high;
      return (v) => {
        const t = ((log ? Math.log10(v) : v) - a) / (b - a || 1);
        return flip ? from + size - t * size : from + t * size;
      };
    };
    const sx = scale(spec.logX, x0, x1, plot.x, plot.w, false);
    const sy = scale(spec.logY, y0, y1, plot.y, plot.h, true);

    context.fillStyle = colours.background;
    context.fillRect(0, 0, width, height);
    context.font = colours.font;
    context.lineWidth = 1;
    context.strokeStyle = colours.grid;
    context.fillStyle = colours.text;
    context.textAlign = "center";
    context.textBaseline = "top";
    // Within one decade a log axis has no power of ten to mark; with decade
    // ticks every label is a power of ten.
    const decades = (log, low, high) => log && high / low >= 10;
    const ticks = (log, low, high) =>
      decades(log, low, high) ? logTicks(low, high) : linearTicks(low, high);
    const xTicks = ticks(spec.logX, x0, x1);
    const stepOf = (list) => list[1] - list[0] || undefined;
    const xStep = stepOf(xTicks);
    const xTickLabel = decades(spec.logX, x0, x1)
      ? powerLabel
      : (t) => tickLabel(t, xStep);
    const yTickLabel = decades(spec.logY, y0, y1) ? powerLabel : tickLabel;
    // The x labels as drawn, for tests and for readers of the markup.
    canvas.dataset.xTicks = xTicks.map(xTickLabel).join(" ");
    for (const t of xTicks) {
      const x = Math.round(sx(t)) + 0.5;
      context.beginPath();
      context.moveTo(x, plot.y);
      context.lineTo(x, plot.y + plot.h);
      context.stroke();
      context.fillText(xTickLabel(t), x, plot.y + plot.h + 4);
    }
    context.textAlign = "right";
    context.textBaseline = "middle";
    const yTicks = ticks(spec.logY, y0, y1);
    for (const t of yTicks) {
      const y = Math.round(sy(t)) + 0.5;
      context.beginPath();
      context.moveTo(plot.x, y);
      context.lineTo(plot.x + plot.w, y);
      context.stroke();
      context.fillText(yTickLabel(t), plot.x - 4, y);
    }
    context.strokeStyle = colours.axis;
    context.strokeRect(plot.x + 0.5, plot.y + 0.5, plot.w, plot.h);
    context.textAlign = "center";
    context.textBaseline = "bottom";
    context.fillText(spec.xLabel, plot.x + plot.w / 2, height - 2);
    context.save();
    context.translate(12 * colours.textScale, plot.y + plot.h / 2);
    context.rotate(-Math.PI / 2);
    context.textBaseline = "middle";
    context.fillText(spec.yLabel, 0, 0);
    context.restore();

    context.save();
    context.beginPath();
    context.rect(plot.x, plot.y, plot.w, plot.h);
    context.clip();
    context.lineWidth = 1.5;
    // Min/max decimation: within one pixel column only the lowest and
    // highest values can be seen, so each column gets one vertical run from
    // the lowest to the highest value (joined to the previous column's
    // last), however many points fall in it. A series with more points than
    // columns is drawn as these runs, rectangles the rasteriser fills
    // cheaply; a sparse one as a line through its points.
    let segments = 0;
    let markers = 0;
    ys.forEach((list, s) => {
      const colour = colours.series[colourIndex(spec.series[s], s)];
      const dash = spec.series[s]?.dash;
      const dense = list.length > plot.w;
      // Values at discrete x (pairs i) drawn far apart are points, not a
      // line that would invent values between them: a dot each, a ring for
      // a dashed series so that two series drawn over each other both show.
      if (spec.discrete && plot.w >= POINT_SPACING * list.length) {
        context.setLineDash([]);
        context.strokeStyle = colour;
        context.fillStyle = colour;
        for (let j = 0; j < list.length; j++) {
          if (!Number.isFinite(list[j]) || !Number.isFinite(xs[j])) continue;
          context.beginPath();
          context.arc(sx(xs[j]), sy(list[j]), dash ? 4.5 : 3, 0, 2 * Math.PI);
          if (dash) context.stroke();
          else context.fill();
          markers++;
        }
        return;
      }
      context.strokeStyle = colour;
      context.fillStyle = colour;
      context.setLineDash(dash ? [6, 4] : []);
      context.beginPath();
      let drawing = false;
      let column = NaN;
      let low = 0;
      let high = 0;
      let first = 0;
      let last = 0;
      let previous = NaN;
      let run = 0;
      const flush = () => {
        if (Number.isNaN(column)) return;
        segments++;
        if (dense) {
          const top = Math.min(low, Number.isNaN(previous) ? low : previous);
          const bottom = Math.max(
            high,
            Number.isNaN(previous) ? high : previous,
          );
          // Dashes along x: 6 pixels drawn, 4 left out.
          if (!dash || (column - plot.x) % 10 < 6)
            context.fillRect(column, top - 0.75, 1, bottom - top + 1.5);
          previous = last;
        } else {
          const x = column + 0.5;
          if (drawing) context.lineTo(x, first);
          else context.moveTo(x, first);
          if (high !== low) {
            context.lineTo(x, first === low ? high : low);
            context.lineTo(x, last);
            segments++;
          }
          drawing = true;
          // A long jagged path costs the rasteriser more than its parts
          // stroked one by one: one stroke per few dozen segments.
          if (++run === 32) {
            context.stroke();
            context.beginPath();
            context.moveTo(x, last);
            run = 0;
          }
        }
        column = NaN;
      };
      for (let j = 0; j < list.length; j++) {
        const v = list[j];
        const usable =
          Number.isFinite(v) &&
          Number.isFinite(xs[j]) &&
          (!spec.logY || v > 0) &&
          (!spec.logX || xs[j] > 0);
        if (!usable) {
          flush();
          drawing = false;
          previous = NaN;
          continue;
        }
        const y = sy(v);
        const at = Math.floor(sx(xs[j]));
        if (at !== column) {
          flush();
          column = at;
          low = high = first = y;
        } else if (y < low) low = y;
        else if (y > high) high = y;
        last = y;
      }
      flush();
      if (!dense) context.stroke();
      // A series of one point has no line to draw: a dot marks it.
      const points = [];
      for (let j = 0; j < list.length && points.length < 2; j++)
        if (Number.isFinite(list[j]) && Number.isFinite(xs[j])) points.push(j);
      if (points.length === 1) {
        const j = points[0];
        context.setLineDash([]);
        context.beginPath();
        context.arc(sx(xs[j]), sy(list[j]), 4, 0, 2 * Math.PI);
        context.fill();
        markers++;
      }
    });
    canvas.dataset.markers = String(markers);
    // For tests: how much was drawn, against the plot's width in pixels.
    canvas.dataset.segments = String(segments);
    canvas.dataset.plotWidth = String(Math.round(plot.w));
    context.setLineDash([]);
    if (cursor >= 0 && cursor < xs.length) {
      context.strokeStyle = colours.axis;
      const x = Math.round(sx(xs[cursor])) + 0.5;
      context.beginPath();
      context.moveTo(x, plot.y);
      context.lineTo(x, plot.y + plot.h);
      context.stroke();
    }
    context.restore();
    chart.plot = plot;
    chart.sx = sx;
  }

  function showCursor(index) {
    cursor = index;
    if (index < 0 || index >= xs.length) {
      readout.textContent = "";
    } else {
      const parts = spec.series.map(
        (s, i) => `${s.label}: ${formatValue(ys[i]?.[index])}`,
      );
      readout.textContent = `${spec.xLabel} = ${formatValue(xs[index])} · ${parts.join(" · ")}`;
    }
    frames.later(draw);
  }

  function nearest(clientX) {
    const box = canvas.getBoundingClientRect();
    const x = clientX - box.left;
    let best = -1;
    let distance = Infinity;
    // Points are few enough (at most a few thousand) for a linear scan.
    for (let j = 0; j < xs.length; j++) {
      const d = Math.abs(chart.sx(xs[j]) - x);
      if (d < distance) {
        distance = d;
        best = j;
      }
    }
    return best;
  }

  canvas.addEventListener("pointermove", (event) => {
    if (chart.sx) showCursor(nearest(event.clientX));
  });
  canvas.addEventListener("pointerleave", () => showCursor(-1));
  canvas.addEventListener("keydown", (event) => {
    if (xs.length === 0) return;
    const step = event.shiftKey ? Math.max(1, Math.round(xs.length / 20)) : 1;
    if (event.key === "ArrowRight")
      showCursor(Math.min(xs.length - 1, Math.max(0, cursor) + step));
    else if (event.key === "ArrowLeft") showCursor(Math.max(0, cursor - step));
    else return;
    event.preventDefault();
  });
  canvas.addEventListener("blur", () => showCursor(-1));

  const chart = { set, canvas, redraw: draw };
  const resizes = new ResizeObserver(() => {
    // A chart out of the page (its section ended, or a newer chart in its
    // place) draws nothing more and stops watching.
    if (!canvas.isConnected) {
      resizes.disconnect();
      return;
    }
    if (container.clientWidth === observedWidth) return;
    observedWidth = container.clientWidth;
    if (xs.length) draw();
  });
  resizes.observe(container);
  return chart;
}

function formatValue(value) {
  if (value === undefined || Number.isNaN(value)) return "—";
  return Number(value.toPrecision(6)).toString();
}
