// Heatmaps of row-major tables: a diverging colour map centred on 0 through a
// 256-entry lookup table written straight into ImageData, tables larger than
// the canvas averaged into one bin per device pixel (never sampled, which
// draws moiré), axes with ticks, a colour bar, and a readout of the cell under
// the pointer or of a cursor moved with the arrow keys.
import { element } from "../dom.js";
import {
  fitCanvas,
  linearTicks,
  scaledMargin,
  theme,
  tickLabel,
} from "./canvas.js";

const MARGIN = { left: 58, right: 70, top: 8, bottom: 40 };
const BAR = 12;
// Values binned per step (a millisecond or two of work): a large table is
// binned a step at a time in the page's draw queue, within its frame budget
// beside the sections' drawings.
const CHUNK = 2 ** 18;

// Blue through light grey to red, after Moreland's "cool to warm" map.
const STOPS = [
  [0, [59, 76, 192]],
  [0.25, [141, 176, 254]],
  [0.5, [221, 221, 221]],
  [0.75, [244, 154, 123]],
  [1, [180, 4, 38]],
];

/** 256 colours as packed RGBA words in the platform's byte order. */
function colourTable() {
  const bytes = new Uint8ClampedArray(256 * 4);
  for (let i = 0; i < 256; i++) {
    // Entries 127 and 128 are both the middle colour, so 0 maps to it.
    const t = i < 128 ? i / 254 : 0.5 + (i - 128) / 254;
    const upper = STOPS.findIndex(([at]) => at >= t);
    const [t1, c1] = STOPS[Math.max(upper, 1)];
    const [t0, c0] = STOPS[Math.max(upper, 1) - 1];
    const f = (t - t0) / (t1 - t0);
    for (let k = 0; k < 3; k++) bytes[4 * i + k] = c0[k] + f * (c1[k] - c0[k]);
    bytes[4 * i + 3] = 255;
  }
  return new Uint32Array(bytes.buffer);
}

const LUT = colourTable();

/**
 * One row of values as a strip of colours, one pixel per value, on the
 * heatmaps' map: values in [−reach, reach].
 */
export function colourStrip(values, reach) {
  const image = new ImageData(Math.max(1, values.length), 1);
  const words = new Uint32Array(image.data.buffer);
  const toIndex = 127.5 / reach;
  for (let j = 0; j < values.length; j++) {
    const index = (values[j] + reach) * toIndex;
    words[j] = LUT[index >= 0 ? (index <= 255 ? index | 0 : 255) : 0];
  }
  return image;
}

/**
 * spec: { frames (the page's draw queue), label, testid, square, readout(r,
 * c, value), onCursor(cell) }.
 */
export function heatmap(container, spec) {
  const { frames } = spec;
  const canvas = document.createElement("canvas");
  canvas.tabIndex = 0;
  canvas.setAttribute("role", "img");
  if (spec.label) canvas.setAttribute("aria-label", spec.label);
  if (spec.testid) canvas.dataset.testid = spec.testid;
  const readout = element("p", "readout");
  readout.setAttribute("aria-live", "polite");
  container.append(canvas, readout);

  const cells = document.createElement("canvas");
  const bar = document.createElement("canvas");
  bar.width = 1;
  bar.height = 256;
  const barImage = new ImageData(1, 256);
  const barWords = new Uint32Array(barImage.data.buffer);
  for (let i = 0; i < 256; i++) barWords[i] = LUT[255 - i];
  bar.getContext("2d").putImageData(barImage, 0, 0);

  let values = null;
  let rows = 0;
  let cols = 0;
  let options = {};
  let reach = 1;
  let binned = { sums: new Float64Array(0), w: 0, h: 0, rowBins: null };
  let image = null;
  let cursor = null;
  let observedWidth = null;
  let layout = null;

  // A large table's binning, a drawing of the queue: queued again for a new
  // table, it drops the steps left of the older one, so only the latest
  // table is ever drawn.
  const binning = {
    id: "heatmap",
    root: canvas,
    steps: () => binSteps(),
    done(error) {
      if (error) reportError(error);
    },
  };
  let source = null;

  /** Draws the table; returns the size of the binned image shown. */
  function set(newValues, newRows, newCols, newOptions = {}) {
    values = newValues;
    return stream(
      newRows,
      newCols,
      (r, n) => newValues.subarray(r * newCols, (r + n) * newCols),
      newOptions,
    );
  }

  /**
   * Draws a table whose rows come from `fetch(firstRow, count)`, a few
   * million values at a time: a large table is binned over several frames,
   * drawn as its rows arrive, and a newer table cancels the rest.
   */
  function setRows(newRows, newCols, fetch, newOptions = {}) {
    values = null;
    return stream(newRows, newCols, fetch, newOptions);
  }

  function stream(newRows, newCols, fetch, newOptions) {
    rows = newRows;
    cols = newCols;
    options = newOptions;
    source = fetch;
    const low = Number.isFinite(options.min) ? options.min : -1;
    const high = Number.isFinite(options.max) ? options.max : 1;
    reach = Math.max(Math.abs(low), Math.abs(high)) || 1;
    if (!spec.label)
      canvas.setAttribute(
        "aria-label",
        `${options.rowLabel ?? ""} × ${options.colLabel ?? ""}`,
      );
    if (cursor && (cursor.r >= rows || cursor.c >= cols)) cursor = null;
    layout = measure();
    start();
    if (cursor) describe();
    return { w: binned.w, h: binned.h };
  }

  function start() {
    prepare();
    // A table of one step is drawn now; a larger one from the next frame,
    // apart from the work that asked for it.
    if (rows * cols <= CHUNK) {
      frames.remove(binning);
      if (rows > 0) {
        accumulate(source(0, rows), 0, rows);
        colour(0, binned.h);
      }
      draw();
      canvas.dataset.complete = "true";
    } else {
      canvas.dataset.complete = "false";
      frames.add(binning);
    }
  }

  // Rows binned a chunk a step; what they reached is shown once a frame.
  function* binSteps() {
    const chunk = Math.max(1, Math.floor(CHUNK / cols));
    for (let r = 0; r < rows;) {
      const n = Math.min(rows - r, chunk);
      accumulate(source(r, n), r, n);
      colour(binOf(r), binOf(r + n - 1) + 1);
      r += n;
      if (r < rows) {
        frames.later(draw);
        yield;
      }
    }
    frames.cancel(draw);
    draw();
    canvas.dataset.complete = "true";
  }

  // The bin row that table row r falls in.
  const binOf = (r) => Math.floor((r * binned.h) / rows);

  function measure() {
    // The width the observer last saw: reading it from the page here would
    // lay the page out again after every other panel's change.
    const width = Math.max(260, observedWidth ?? container.clientWidth);
    const margin = scaledMargin(MARGIN, theme(canvas).textScale);
    const plotW = width - margin.left - margin.right;
    const square = spec.square ?? rows === cols;
    const plotH = square
      ? Math.min(plotW, 360)
      : Math.round(Math.min(420, Math.max(180, plotW * 0.6)));
    const ratio = globalThis.devicePixelRatio || 1;
    return {
      width,
      height: plotH + margin.top + margin.bottom,
      plot: { x: margin.left, y: margin.top, w: plotW, h: plotH },
      pixelsW: Math.max(1, Math.round(plotW * ratio)),
      pixelsH: Math.max(1, Math.round(plotH * ratio)),
    };
  }

  // The table is averaged into at most one bin per device pixel, never
  // sampled (sampling draws moiré).
  function prepare() {
    const w = Math.min(cols, layout.pixelsW);
    const h = Math.min(rows, layout.pixelsH);
    if (binned.w !== w || binned.h !== h) {
      binned = { w, h, sums: new Float64Array(w * h) };
      image = new ImageData(w, h);
      cells.width = w;
      cells.height = h;
    }
    binned.sums.fill(0);
    new Uint32Array(image.data.buffer).fill(0);
    cells.getContext("2d").clearRect(0, 0, w, h);
    binned.colBin = new Int32Array(cols);
    binned.colCount = new Float64Array(w);
    for (let c = 0; c < cols; c++) {
      binned.colBin[c] = Math.floor((c * w) / cols);
      binned.colCount[binned.colBin[c]]++;
    }
    binned.rowCount = new Float64Array(h);
  }

  function accumulate(block, first, count) {
    const { sums, colBin, rowCount, w, h } = binned;
    for (let r = 0; r < count; r++) {
      const y = binOf(first + r);
      rowCount[y]++;
      const row = y * w;
      for (let c = 0, at = r * cols; c < cols; c++, at++)
        sums[row + colBin[c]] += block[at];
    }
  }

  // Colours bin rows y0 … y1 − 1, those the last rows binned reached; bins
  // no row has reached yet stay transparent.
  function colour(y0, y1) {
    const { sums, rowCount, colCount, w } = binned;
    const words = new Uint32Array(image.data.buffer);
    const toIndex = 127.5 / reach;
    for (let y = y0; y < y1; y++)
      for (let x = 0, at = y * w; x < w; x++, at++) {
        const mean = sums[at] / (rowCount[y] * colCount[x]);
        const index = (mean + reach) * toIndex;
        words[at] =
          LUT[
            index >= 0 ? (index <= 255 ? index | 0 : 255) : index < 0 ? 0 : 127
          ];
      }
    cells.getContext("2d").putImageData(image, 0, 0, 0, y0, w, y1 - y0);
  }

  function draw() {
    if (!layout) return;
    const { width, height, plot } = layout;
    const { context } = fitCanvas(canvas, width, height);
    const colours = theme(canvas);
    context.fillStyle = colours.background;
    context.fillRect(0, 0, width, height);
    context.imageSmoothingEnabled = false;
    context.drawImage(cells, plot.x, plot.y, plot.w, plot.h);
    context.imageSmoothingEnabled = true;
    context.drawImage(bar, plot.x + plot.w + 10, plot.y, BAR, plot.h);

    context.font = colours.font;
    context.fillStyle = colours.text;
    context.strokeStyle = colours.axis;
    context.lineWidth = 1;
    context.strokeRect(plot.x + 0.5, plot.y + 0.5, plot.w, plot.h);
    const rowStart = options.rowStart ?? 0;
    const colStart = options.colStart ?? 0;
    context.textAlign = "right";
    context.textBaseline = "middle";
    const rowTicks = linearTicks(rowStart, rowStart + rows - 1, 6);
    const rowStep = rowTicks[1] - rowTicks[0] || undefined;
    // The labels as drawn, for tests and for readers of the markup.
    canvas.dataset.rowTicks = rowTicks
      .filter((t) => Number.isInteger(t) || rows <= 1)
      .map((t) => tickLabel(t, rowStep))
      .join(" ");
    for (const t of rowTicks) {
      if (!Number.isInteger(t) && rows > 1) continue;
      const y = plot.y + ((t - rowStart + 0.5) / rows) * plot.h;
      tick(context, plot.x, y, -4, 0);
      context.fillText(tickLabel(t, rowStep), plot.x - 6, y);
    }
    context.textAlign = "center";
    context.textBaseline = "top";
    const colTicks = linearTicks(colStart, colStart + cols - 1, 6);
    const colStep = colTicks[1] - colTicks[0] || undefined;
    canvas.dataset.colTicks = colTicks
      .filter((t) => Number.isInteger(t) || cols <= 1)
      .map((t) => tickLabel(t, colStep))
      .join(" ");
    for (const t of colTicks) {
      if (!Number.isInteger(t) && cols > 1) continue;
      const x = plot.x + ((t - colStart + 0.5) / cols) * plot.w;
      tick(context, x, plot.y + plot.h, 0, 4);
      context.fillText(tickLabel(t, colStep), x, plot.y + plot.h + 6);
    }
    context.textAlign = "left";
    context.textBaseline = "middle";
    const barX = plot.x + plot.w + 10 + BAR;
    // The bar's labels: its top, middle and bottom values, or the scale's
    // own words where the values stand for something else (bits: 1 and 0).
    const scale =
      options.scale ??
      [reach, 0, -reach].map((v) => tickLabel(Number(v.toPrecision(3))));
    canvas.dataset.scale = scale.join(" ");
    [plot.y, plot.y + plot.h / 2, plot.y + plot.h].forEach((y, i) => {
      if (scale[i] === "") return;
      tick(context, barX, y, 3, 0);
      context.fillText(scale[i], barX + 5, y);
    });
    context.textAlign = "center";
    context.textBaseline = "bottom";
    context.fillText(options.colLabel ?? "", plot.x + plot.w / 2, height - 2);
    context.save();
    context.translate(12 * colours.textScale, plot.y + plot.h / 2);
    context.rotate(-Math.PI / 2);
    context.textBaseline = "middle";
    context.fillText(options.rowLabel ?? "", 0, 0);
    context.restore();

    if (cursor) {
      const cw = Math.max(3, plot.w / cols);
      const ch = Math.max(3, plot.h / rows);
      const x = plot.x + (cursor.c / cols) * plot.w;
      const y = plot.y + (cursor.r / rows) * plot.h;
      context.strokeStyle = colours.text;
      context.lineWidth = 1.5;
      context.strokeRect(x, y, cw, ch);
    }
  }

  function tick(context, x, y, dx, dy) {
    context.beginPath();
    context.moveTo(x, y);
    context.lineTo(x + dx, y + dy);
    context.stroke();
  }

  // The value at a cell: the table's own while it is readable, else its bin.
  function valueAt(r, c) {
    if (values && values.length === rows * cols) return values[r * cols + c];
    const x = Math.floor((c * binned.w) / cols);
    const y = Math.floor((r * binned.h) / rows);
    return (
      binned.sums[y * binned.w + x] / (binned.rowCount[y] * binned.colCount[x])
    );
  }

  function describe() {
    if (!cursor) {
      readout.textContent = "";
      return;
    }
    const { r, c } = cursor;
    readout.textContent = spec.readout
      ? spec.readout(r, c, valueAt(r, c))
      : `${options.rowLabel ?? ""} ${(options.rowStart ?? 0) + r} · ${options.colLabel ?? ""} ${(options.colStart ?? 0) + c} · ${Number(valueAt(r, c).toPrecision(7))}`;
  }

  // A cell the reader moved to: shown, and told to spec.onCursor.
  function moveCursor(next) {
    showCursor(next);
    spec.onCursor?.(cursor);
  }

  function showCursor(next) {
    if (next?.r === cursor?.r && next?.c === cursor?.c) return;
    cursor = next;
    describe();
    frames.later(draw);
  }

  function pointAt(event) {
    if (!layout || rows === 0) return;
    const box = canvas.getBoundingClientRect();
    const { plot } = layout;
    const c = Math.floor(((event.clientX - box.left - plot.x) / plot.w) * cols);
    const r = Math.floor(((event.clientY - box.top - plot.y) / plot.h) * rows);
    moveCursor(r >= 0 && r < rows && c >= 0 && c < cols ? { r, c } : null);
  }
  // A tap or click focuses the canvas too: the cell under it is read, not
  // the first cell a keyboard focus starts from.
  let pointed = false;
  canvas.addEventListener("pointerdown", (event) => {
    pointed = true;
    pointAt(event);
  });
  canvas.addEventListener("pointermove", pointAt);
  canvas.addEventListener("pointerleave", (event) => {
    if (event.pointerType === "mouse") moveCursor(null);
  });
  canvas.addEventListener("focus", () => {
    if (!pointed) moveCursor(cursor ?? { r: 0, c: 0 });
    pointed = false;
  });
  canvas.addEventListener("blur", () => moveCursor(null));
  canvas.addEventListener("keydown", (event) => {
    if (!cursor) return;
    const rowStep = Math.max(1, Math.round(rows / binned.h));
    const colStep = Math.max(1, Math.round(cols / binned.w));
    const big = event.shiftKey ? 10 : 1;
    let { r, c } = cursor;
    if (event.key === "ArrowDown") r += rowStep * big;
    else if (event.key === "ArrowUp") r -= rowStep * big;
    else if (event.key === "ArrowRight") c += colStep * big;
    else if (event.key === "ArrowLeft") c -= colStep * big;
    else return;
    event.preventDefault();
    moveCursor({
      r: Math.min(rows - 1, Math.max(0, r)),
      c: Math.min(cols - 1, Math.max(0, c)),
    });
  });

  const resizes = new ResizeObserver(() => {
    // A chart out of the page (its section ended, or a newer chart in its
    // place) draws nothing more and stops watching: its rows may come from a disposed plan.
    if (!canvas.isConnected) {
      resizes.disconnect();
      return;
    }
    if (container.clientWidth === observedWidth) return;
    observedWidth = container.clientWidth;
    if (!source) return;
    layout = measure();
    // A view that has since been detached cannot be binned again: rescale.
    if (values === null || values.length === rows * cols) start();
    else draw();
  });
  resizes.observe(container);

  /** Shows the cell { r, c } (or none: null) that another view points at. */
  function mark(cell) {
    const inside =
      cell && cell.r >= 0 && cell.r < rows && cell.c >= 0 && cell.c < cols;
    showCursor(inside ? cell : null);
  }

  return { set, setRows, mark, canvas };
}
