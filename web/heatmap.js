// Draws a row-major [rows, cols] table of values in [-1, 1] on a canvas:
// one pixel per cell in an offscreen image, scaled up without smoothing.
// Classic script (no modules) so the page also works from file://.
"use strict";

(function () {
  // Diverging palette: blue (-1) through white (0) to red (+1).
  function colour(value) {
    const t = Math.max(-1, Math.min(1, value));
    const fade = Math.round(255 * (1 - Math.abs(t)));
    return t < 0 ? [fade, fade, 255] : [255, fade, fade];
  }

  // Matches the backing store to the CSS size times devicePixelRatio.
  function fitCanvas(canvas, cssWidth, cssHeight) {
    const ratio = window.devicePixelRatio || 1;
    canvas.style.width = `${cssWidth}px`;
    canvas.style.height = `${cssHeight}px`;
    canvas.width = Math.round(cssWidth * ratio);
    canvas.height = Math.round(cssHeight * ratio);
  }

  function drawHeatmap(canvas, values, rows, cols) {
    const image = new ImageData(cols, rows);
    const pixels = image.data;
    for (let k = 0; k < rows * cols; k++) {
      const [r, g, b] = colour(values[k]);
      pixels[4 * k] = r;
      pixels[4 * k + 1] = g;
      pixels[4 * k + 2] = b;
      pixels[4 * k + 3] = 255;
    }
    const cells = document.createElement("canvas");
    cells.width = cols;
    cells.height = rows;
    cells.getContext("2d").putImageData(image, 0, 0);
    const width = Math.min(canvas.parentElement.clientWidth || 800, 960);
    fitCanvas(canvas, width, Math.round(width * 0.6));
    const context = canvas.getContext("2d");
    context.imageSmoothingEnabled = false;
    context.drawImage(cells, 0, 0, canvas.width, canvas.height);
  }

  window.Heatmap = { drawHeatmap, colour };
})();
