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

/** A file name that says which table or chart it holds. */
export function fileName(state, what) {
  const parts = [
    "pe",
    state.preset,
    `d${state.dim}`,
    `n${state.positions}`,
    state.preset === "custom" ? `base${state.base}` : null,
    state.layout,
    state.start === 0 ? null : `start${state.start}`,
    what,
  ];
  return parts
    .filter((part) => part !== null && part !== undefined)
    .join("-")
    .replace(/[^\w.+-]+/g, "_");
}

export function savePng(canvas, name) {
  canvas.toBlob((blob) => blob && download(blob, `${name}.png`), "image/png");
}

/** The table as CSV, one row per position; dimension indices as header. */
export function saveCsv(lib, values, cols, name) {
  const header = Array.from({ length: cols }, (_, c) => `d${c}`);
  download(
    new Blob([lib.toCsv(values, cols, header)], { type: "text/csv" }),
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
