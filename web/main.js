// Wires the controls to the library and redraws once per animation frame.
"use strict";

(function () {
  const { init, table } = window.SinusoidalPE;
  const form = document.getElementById("controls");
  const canvas = document.getElementById("heatmap");
  const status = document.getElementById("status");
  let pending = false;

  function readOptions() {
    const field = (name) => form.elements.namedItem(name).value;
    return {
      positions: Number(field("positions")),
      start: Number(field("start")),
      dim: Number(field("dim")),
      base: Number(field("base")),
      layout: field("layout"),
    };
  }

  function redraw() {
    pending = false;
    const options = readOptions();
    try {
      const values = table({ ...options, view: true });
      window.Heatmap.drawHeatmap(
        canvas,
        values,
        options.positions,
        options.dim,
      );
      status.textContent = `${options.positions} × ${options.dim} table, ${options.layout}, base ${options.base}`;
      status.classList.remove("error");
    } catch (error) {
      status.textContent = error.message;
      status.classList.add("error");
    }
  }

  function schedule() {
    if (pending) return;
    pending = true;
    requestAnimationFrame(redraw);
  }

  init().then(() => {
    form.addEventListener("input", schedule);
    window.addEventListener("resize", schedule);
    redraw();
    document.body.dataset.ready = "true";
  });
})();
