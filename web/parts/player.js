// A play button: while pressed, step() runs once a frame through the page's
// draw queue (no timer of its own), until the button is pressed again,
// stop() is called (a reader's own input), the reader scrolls its section
// out of view, or the section leaves the page.

/**
 * button: the play button; frames: the draw queue; step(): one frame's
 * move; labels: { play, pause }; alive(): whether to go on (the section is
 * still in the page). Returns { stop(), playing }.
 */
export function player(button, { frames, step, labels, alive }) {
  let playing = false;
  // What plays is the section's: once none of it is on screen, play stops.
  const watched = button.closest(".pe-section") ?? button;
  const view = new IntersectionObserver((entries) => {
    if (entries.some((entry) => !entry.isIntersecting)) stop();
  });

  function frame() {
    if (!playing) return;
    if (!alive()) return stop();
    step();
    if (playing) frames.later(frame);
  }

  function show() {
    button.textContent = playing ? labels.pause : labels.play;
    button.setAttribute("aria-pressed", String(playing));
  }

  function stop() {
    if (!playing) return;
    playing = false;
    frames.cancel(frame);
    view.disconnect();
    show();
  }

  button.setAttribute("aria-pressed", "false");
  button.addEventListener("click", () => {
    if (playing) return stop();
    playing = true;
    show();
    view.observe(watched);
    frames.later(frame);
  });

  return {
    stop,
    get playing() {
      return playing;
    },
  };
}
