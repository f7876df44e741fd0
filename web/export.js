// Downloads: a chart as PNG, the current table as CSV or NumPy .npy. The
// encoders are the library's (toCsv, toNpy).

/** Saves a Blob under `name` through a temporary object URL. */
export function download(blob, name) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * A file name that says which table or chart it holds; `layout` names the
 * arrangement the chart shows when it is not the table's (RoPE's pairing).
 */
export function fileName(state, what, layout = state.layout) {
  const parts = [
    "pe",
    state.preset,
    `d${state.dim}`,
    `n${state.positions}`,
    state.preset === "custom" ? `base${state.base}` : null,
    layout,
    state.start === 0 ? null : `start${state.start}`,
    what,
  ];
  return parts
    .filter((part) => part !== null && part !== undefined)
    .join("-")
    .replace(/[^\w.+-]+/g, "_");
}

/**
 * The chart as a PNG that stands on its own: its title above it and its
 * legend (colour and label of every series) below, in the chart's colours.
 * legend: [{ label, colour, dashed }].
 */
export function composeChart(canvas, { title = "", legend = [], colours }) {
  const ratio = canvas.width / (canvas.clientWidth || canvas.width) || 1;
  const width = canvas.width / ratio;
  const line = 18;
  const font = colours.font;
  const measure = document.createElement("canvas").getContext("2d");
  measure.font = font;
  // Legend entries flow into rows as wide as the chart.
  const rows = [[]];
  let x = 8;
  for (const entry of legend) {
    const w = 30 + measure.measureText(entry.label).width + 16;
    if (x + w > width - 8 && rows.at(-1).length) {
      rows.push([]);
      x = 8;
    }
    rows.at(-1).push({ ...entry, x });
    x += w;
  }
  const top = title ? line + 8 : 0;
  const bottom = legend.length ? rows.length * line + 8 : 0;
  const out = document.createElement("canvas");
  out.width = canvas.width;
  out.height = Math.round((canvas.height / ratio + top + bottom) * ratio);
  const context = out.getContext("2d");
  context.scale(ratio, ratio);
  context.fillStyle = colours.background;
  context.fillRect(0, 0, width, out.height / ratio);
  context.font = `bold ${font}`;
  context.fillStyle = colours.text;
  context.textBaseline = "middle";
  if (title) context.fillText(title, 8, line / 2 + 4, width - 16);
  context.drawImage(canvas, 0, top, width, canvas.height / ratio);
  context.font = font;
  rows.forEach((row, r) => {
    const y = top + canvas.height / ratio + 4 + r * line + line / 2;
    for (const entry of row) {
      context.strokeStyle = entry.colour;
      context.lineWidth = 2;
      context.setLineDash(entry.dashed ? [6, 4] : []);
      context.beginPath();
      context.moveTo(entry.x, y);
      context.lineTo(entry.x + 24, y);
      context.stroke();
      context.fillStyle = colours.text;
      context.fillText(entry.label, entry.x + 30, y);
    }
  });
  return out;
}

export function savePng(canvas, name) {
  canvas.toBlob((blob) => blob && download(blob, `${name}.png`), "image/png");
}

/**
 * The table as CSV, one row per position, the position first; the header
 * names the position column and the dimensions.
 */
export function saveCsv(lib, values, positions, cols, name) {
  const rows = positions.length;
  // float32 values stay float32 (and print short) when every position is
  // a float32 too.
  const narrow =
    values.BYTES_PER_ELEMENT === 4 &&
    Array.from(positions).every((p) => Math.fround(p) === p);
  const withPositions = new (narrow ? Float32Array : Float64Array)(
    rows * (cols + 1),
  );
  for (let r = 0; r < rows; r++) {
    withPositions[r * (cols + 1)] = positions[r];
    withPositions.set(
      values.subarray(r * cols, (r + 1) * cols),
      r * (cols + 1) + 1,
    );
  }
  const header = [
    "position",
    ...Array.from({ length: cols }, (_, c) => `d${c}`),
  ];
  download(
    new Blob([lib.toCsv(withPositions, cols + 1, header)], {
      type: "text/csv",
    }),
    `${name}.csv`,
  );
}

export function saveNpy(lib, values, rows, cols, name) {
  download(
    new Blob([lib.toNpy(values, [rows, cols])], {
      type: "application/octet-stream",
    }),
    `${name}.npy`,
  );
}
