// A small attention head (head dim 8, four pairs) rotated by the module's
// rope: the reader picks the query position m and the key position n, sees
// every pair as a hand on a dial (before and after the turn), a table of
// each pair's frequency, angle and components, and q·k before and after
// rotation, beside the same score with both positions shifted: it depends
// on m − n only.
import { fitCanvas, theme } from "../charts/canvas.js";
import { randomPair } from "../parts/rope-scores.js";
import { reduceAngle } from "./relation.js";
import {
  element,
  field,
  minus,
  numberInput,
  scientific,
  setText,
  slider,
} from "../parts/section-parts.js";
import { player } from "../parts/player.js";
import { liveField } from "../parts/live-field.js";
import { codeView, complexView } from "../parts/rope-views.js";

export const HEAD_DIM = 8;
const PAIRS = HEAD_DIM / 2;
const RANGE = { min: -1e6, max: 1e6 };
// The shift applied to both positions to show the score unchanged.
const SHIFT = 1000;
// The "move together" slider's reach either side of where m and n were set.
const TOGETHER = 50;
// Play moves m and n on by one position every this many frames: the
// fastest pair's hands turn a radian a step, slow enough to follow.
const PLAY_FRAMES = 8;

/** Components (a, b) of pair i in a head of HEAD_DIM, for a pairing. */
export function pairComponents(i, pairing) {
  return pairing === "halves" ? [i, i + PAIRS] : [2 * i, 2 * i + 1];
}

const dot = (x, y) => {
  let sum = 0;
  for (let j = 0; j < x.length; j++) sum += x[j] * y[j];
  return sum;
};

// Values as the page writes them: 0.5533, −0.25, and 4.654 × 10⁻⁵ when
// small.
const short = (v, digits = 4) =>
  minus(
    v !== 0 && Math.abs(v) < 1e-3
      ? scientific(v, digits)
      : String(Number(v.toPrecision(digits))),
  );
// An angle less its whole turns, as the hand shows it.
const turnPart = (angle) => reduceAngle(angle).reduced;

/**
 * Mounts the head into `root`. pairing() gives the section's pairing,
 * seed() its vectors' seed. Returns update(state).
 */
export function mountHead(root, app, { pairing, seed }) {
  const lib = app.lib;
  let m = app.param("rope.m", 5, readPosition);
  let n = app.param("rope.n", 2, readPosition);
  const positionField = (which) => {
    const input = numberInput(
      { value: which === "m" ? m : n, min: RANGE.min, max: RANGE.max, step: 1 },
      `rope-${which}`,
    );
    liveField(input, {
      read(text) {
        const value = readPosition(text.trim());
        return value === undefined ? { problem: "headBad" } : { value };
      },
      apply: (value) => change(which, value),
      shown: () => String(which === "m" ? m : n),
      report(problem, text) {
        fieldNote.hidden = !problem;
        if (problem)
          fieldNote.textContent = app.t("headBad", {
            value: text.slice(0, 20),
            min: RANGE.min,
            max: RANGE.max,
            kept: which === "m" ? m : n,
          });
      },
    });
    return field(app.t(which === "m" ? "headM" : "headN"), input);
  };
  const fieldNote = element("p", { className: "note", role: "status" });
  fieldNote.hidden = true;
  const mField = positionField("m");
  const nField = positionField("n");
  // Moves both positions by the same amount from where they were typed:
  // the hands turn, the score after rotation stays.
  let typed = { m, n };
  const together = slider(
    { value: 0, min: -TOGETHER, max: TOGETHER, step: 1 },
    app.t("headShift"),
  );
  together.dataset.testid = "rope-shift";
  const showTogether = () =>
    together.setAttribute("aria-valuetext", app.t("headShiftValue", { m, n }));
  showTogether();
  together.addEventListener("input", () => {
    play.stop();
    const shift = Number(together.value);
    m = Math.min(RANGE.max, Math.max(RANGE.min, typed.m + shift));
    n = Math.min(RANGE.max, Math.max(RANGE.min, typed.n + shift));
    mField.querySelector("input").value = String(m);
    nField.querySelector("input").value = String(n);
    app.setParam("m", m);
    app.setParam("n", n);
    showTogether();
    if (last) draw(last);
  });
  const playButton = element("button", {
    type: "button",
    testid: "rope-play",
    text: app.t("headPlay"),
  });
  // Both positions one further, every PLAY_FRAMES frames, from where they
  // are: the hands turn, the score after rotation stays.
  let ticks = 0;
  const play = player(playButton, {
    frames: app.frames,
    labels: { play: app.t("headPlay"), pause: app.t("headPause") },
    alive: () => root.isConnected,
    step() {
      if (++ticks % PLAY_FRAMES) return;
      if (Math.max(m, n) >= RANGE.max) return play.stop();
      m += 1;
      n += 1;
      typed = { m, n };
      together.value = "0";
      mField.querySelector("input").value = String(m);
      nField.querySelector("input").value = String(n);
      app.setParam("m", m);
      app.setParam("n", n);
      showTogether();
      if (last) draw(last);
    },
  });
  // A position field taken up by the reader stops play: its value is theirs.
  for (const box of [mField, nField])
    for (const type of ["focus", "input"])
      box.querySelector("input").addEventListener(type, () => play.stop());
  const complex = complexView(app);
  const code = codeView(app);
  const dials = element("div", { className: "sec-dials" });
  const table = element("table", {
    className: "pair-table",
    testid: "rope-pairs",
  });
  const scores = element("p", { className: "result", testid: "rope-qk" });
  root.append(
    element("h3", { text: app.t("headTitle") }),
    element("p", { className: "sec-text", text: app.t("headText") }),
    element("div", { className: "sec-controls" }, [
      mField,
      nField,
      field(app.t("headShift"), together),
      playButton,
    ]),
    fieldNote,
    // The complex numbers beside the dials, below them on a narrow screen.
    element("div", { className: "rope-views" }, [
      element("div", {}, [
        dials,
        element("p", { className: "caption", text: app.t("dialDrag") }),
      ]),
      complex.node,
    ]),
    element(
      "div",
      {
        className: "pair-table-box",
        tabindex: "0",
        role: "region",
        "aria-label": app.t("tableLabel"),
      },
      [table],
    ),
    scores,
    code.node,
  );

  function readPosition(text) {
    const v = Number(text);
    return text !== "" &&
      Number.isInteger(v) &&
      v >= RANGE.min &&
      v <= RANGE.max
      ? v
      : undefined;
  }

  function change(which, value) {
    play.stop();
    if (which === "m") m = value;
    else n = value;
    typed = { m, n };
    together.value = "0";
    showTogether();
    app.setParam(which, value);
    if (last) draw(last);
  }

  let last = null;
  // The query's solid hand on each dial, for dragging: its angle and ω.
  const hands = [];
  let dragging = -1;
  // A hand dragged round turns the query by the smallest turn to the
  // pointer: m moves by that turn over ω, in whole positions.
  function dragTo(canvas, event) {
    const hand = hands[dragging];
    if (!hand) return;
    const box = canvas.getBoundingClientRect();
    const x = event.clientX - box.left - box.width / 2;
    const y = box.top + box.height / 2 - event.clientY;
    if (Math.hypot(x, y) < 4) return;
    let turn = Math.atan2(y, x) - hand.angle;
    turn -= 2 * Math.PI * Math.round(turn / (2 * Math.PI));
    const next = Math.round(m + turn / hand.omega);
    if (next === m || next < RANGE.min || next > RANGE.max) return;
    m = next;
    typed = { m: m - Number(together.value), n: n - Number(together.value) };
    mField.querySelector("input").value = String(m);
    app.setParam("m", m);
    showTogether();
    if (last) draw(last);
  }

  // The head's plan, made when the base or the pairing changes: each draw
  // runs it once, on q and k at m and n and both shifted.
  let plan = null;
  function planFor(state) {
    const key = `${state.base} ${pairing()}`;
    if (plan?.key === key) return plan;
    plan?.rope.dispose();
    plan = {
      key,
      rope: lib.createRope({
        dim: HEAD_DIM,
        base: state.base,
        pairing: pairing(),
      }),
      omega: lib.frequencies({ dim: HEAD_DIM, base: state.base }),
    };
    return plan;
  }
  let vectors = null;
  const stacked = new Float32Array(4 * HEAD_DIM);
  const turned = new Float32Array(4 * HEAD_DIM);

  function draw(state) {
    last = state;
    const { rope, omega } = planFor(state);
    const options = { pairing: pairing() };
    if (vectors?.seed !== seed())
      vectors = { seed: seed(), ...randomPair(seed(), HEAD_DIM) };
    const { q, k } = vectors;
    [q, k, q, k].forEach((v, r) => stacked.set(v, r * HEAD_DIM));
    rope.apply(stacked, [m, n, m + SHIFT, n + SHIFT], { out: turned });
    const part = (r) => turned.subarray(r * HEAD_DIM, (r + 1) * HEAD_DIM);
    const [qm, kn, qShift, kShift] = [0, 1, 2, 3].map(part);
    const before = dot(q, k);
    const after = dot(qm, kn);
    const shifted = dot(qShift, kShift);

    const colours = theme(root);
    if (dials.childElementCount !== PAIRS)
      dials.replaceChildren(
        ...Array.from({ length: PAIRS }, (_, i) => {
          const canvas = element("canvas", {
            role: "img",
            className: "draggable",
            "aria-label": app.t("dialLabel", { i }),
            testid: `rope-dial-${i}`,
          });
          canvas.addEventListener("pointerdown", (event) => {
            play.stop();
            canvas.setPointerCapture(event.pointerId);
            dragging = i;
            dragTo(canvas, event);
          });
          canvas.addEventListener("pointermove", (event) => {
            if (dragging === i) dragTo(canvas, event);
          });
          const release = () => (dragging = -1);
          canvas.addEventListener("pointerup", release);
          canvas.addEventListener("pointercancel", release);
          return element("figure", { className: "sec-dial" }, [
            canvas,
            element("figcaption"),
          ]);
        }),
      );
    const rows = [];
    const complexPairs = [];
    for (let i = 0; i < PAIRS; i++) {
      const [a, b] = pairComponents(i, options.pairing);
      const figure = dials.children[i];
      // The angle from the key's hand to the query's, as part of a turn.
      let between = Math.atan2(qm[b], qm[a]) - Math.atan2(kn[b], kn[a]);
      between -= 2 * Math.PI * Math.round(between / (2 * Math.PI));
      // Before rotation the hands already stand apart; rotation adds
      // (m − n)·ωᵢ to that angle.
      const apart = Math.atan2(q[b], q[a]) - Math.atan2(k[b], k[a]);
      setText(
        figure.lastChild,
        app.t("dialCaption", {
          i,
          omega: short(omega[i]),
          turn: short((m - n) * omega[i], 3),
          before: short(
            apart - 2 * Math.PI * Math.round(apart / (2 * Math.PI)),
            3,
          ),
          between: short(between, 3),
        }),
      );
      figure.firstChild.dataset.between = String(between);
      figure.firstChild.dataset.before = String(apart);
      drawDial(figure.firstChild, colours, [
        { x: q[a], y: q[b], colour: colours.series[0], faint: true },
        { x: qm[a], y: qm[b], colour: colours.series[0] },
        { x: k[a], y: k[b], colour: colours.series[1], faint: true },
        { x: kn[a], y: kn[b], colour: colours.series[1] },
      ]);
      hands[i] = { angle: Math.atan2(qm[b], qm[a]), omega: omega[i] };
      complexPairs.push({
        i,
        angle: m * omega[i],
        q: [q[a], q[b]],
        turned: [qm[a], qm[b]],
        contribution: qm[a] * kn[a] + qm[b] * kn[b],
      });
      rows.push([
        String(i),
        `(${a}, ${b})`,
        short(omega[i]),
        `${short(turnPart(m * omega[i]))}, ${short(turnPart(n * omega[i]))}`,
        `(${short(q[a], 3)}, ${short(q[b], 3)})`,
        `(${short(qm[a], 3)}, ${short(qm[b], 3)})`,
        `(${short(k[a], 3)}, ${short(k[b], 3)})`,
        `(${short(kn[a], 3)}, ${short(kn[b], 3)})`,
        short(qm[a] * kn[a] + qm[b] * kn[b]),
      ]);
    }
    const head = [
      "pair i",
      "(a, b)",
      "ωᵢ",
      "mωᵢ · nωᵢ",
      "q",
      "R(m) q",
      "k",
      "R(n) k",
      "contribution",
    ].map((key) => app.t(`col ${key}`));
    table.replaceChildren(
      element("thead", {}, [
        element(
          "tr",
          {},
          head.map((text) => element("th", { text, scope: "col" })),
        ),
      ]),
      element(
        "tbody",
        {},
        rows.map((cells) =>
          element(
            "tr",
            {},
            cells.map((text) => element("td", { text })),
          ),
        ),
      ),
    );
    setText(
      scores,
      app.t("headScores", {
        before: short(before, 6),
        m,
        n,
        after: short(after, 6),
        mShift: m + SHIFT,
        nShift: n + SHIFT,
        shifted: short(shifted, 6),
        diff: m - n,
      }),
    );
    complex.show(complexPairs);
    code.show({
      pairing: options.pairing,
      base: state.base,
      m,
      q,
      library: qm,
    });
    scores.dataset.before = String(before);
    scores.dataset.after = String(after);
    scores.dataset.shifted = String(shifted);
    // The vectors themselves, for readers of the markup and for tests.
    scores.dataset.q = Array.from(q).join(" ");
    scores.dataset.k = Array.from(k).join(" ");
  }

  return { update: draw, redraw: () => last && draw(last) };
}

// One dial: the unit circle, each vector of the pair as a hand with an
// arrowhead, faint and dashed before rotation, solid after, and the arc
// from the key's solid hand to the query's, the angle the score sees.
const DIAL = 136;
function drawDial(canvas, colours, hands) {
  const { context } = fitCanvas(canvas, DIAL, DIAL);
  const c = DIAL / 2;
  context.fillStyle = colours.background;
  context.fillRect(0, 0, DIAL, DIAL);
  context.strokeStyle = colours.axis;
  context.lineWidth = 1;
  context.beginPath();
  context.arc(c, c, c - 6, 0, 2 * Math.PI);
  context.stroke();
  // Each hand scaled to the largest, so short pairs still show their angle.
  const reach = Math.max(...hands.map((h) => Math.hypot(h.x, h.y))) || 1;
  const angleOf = (hand) => Math.atan2(hand.y, hand.x);
  const [, query, , key] = hands;
  const from = angleOf(key);
  let turn = angleOf(query) - from;
  turn -= 2 * Math.PI * Math.round(turn / (2 * Math.PI));
  context.strokeStyle = colours.text;
  context.lineWidth = 1.5;
  context.beginPath();
  // Canvas angles run clockwise: negate to draw counter-clockwise.
  context.arc(c, c, 18, -from, -(from + turn), turn > 0);
  context.stroke();
  for (const hand of hands) {
    const r = ((c - 10) * Math.hypot(hand.x, hand.y)) / reach;
    const angle = angleOf(hand);
    const tipX = c + r * Math.cos(angle);
    const tipY = c - r * Math.sin(angle);
    context.strokeStyle = hand.colour;
    context.fillStyle = hand.colour;
    context.globalAlpha = hand.faint ? 0.55 : 1;
    context.lineWidth = hand.faint ? 2 : 3;
    context.setLineDash(hand.faint ? [3, 3] : []);
    context.beginPath();
    context.moveTo(c, c);
    context.lineTo(tipX, tipY);
    context.stroke();
    context.setLineDash([]);
    // The arrowhead, along the hand.
    const size = hand.faint ? 6 : 8;
    context.beginPath();
    context.moveTo(tipX, tipY);
    for (const side of [-0.45, 0.45])
      context.lineTo(
        tipX - size * Math.cos(angle + side),
        tipY + size * Math.sin(angle + side),
      );
    context.closePath();
    context.fill();
  }
  context.globalAlpha = 1;
}
