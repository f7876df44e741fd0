// The page: header, shared controls and every section, the state kept in the
// URL hash, and one redraw per animation frame after any change.
import * as lib from "sinusoidal-pe";
import { createApp, note, pointerChannel } from "./app.js";
import { fitFormulas } from "./math.js";
import { element } from "./dom.js";
import { mountControls } from "./controls.js";
import { browserLanguage, quoted, strings, translate } from "./i18n.js";
import { sections } from "./sections/index.js";
import {
  CONTROLS,
  hashOf,
  parseHash,
  readControl,
  stateFromEntries,
  withOptions,
} from "./state.js";

const page = {
  lang: "en",
  values: {},
  params: new Map(),
  known: new Set(),
  mounted: [],
  dirty: new Set(),
  frame: null,
  state: null,
  controls: null,
  notes: null,
  section: "",
};

const darkScheme = matchMedia("(prefers-color-scheme: dark)");

const t = (key, vars) => translate(strings, page.lang, key, vars);

const SECTION_IDS = new Set(sections.map((section) => section.id));

/**
 * The section a hash points to: a bare section id among its entries
 * ("#rope", or "#dim=64&rope"), removed from them.
 */
function takeSection(entries) {
  let section = "";
  for (const [key, value] of entries)
    if (value === "" && SECTION_IDS.has(key)) {
      section = key;
      entries.delete(key);
    }
  return section;
}

function readLink() {
  const { entries, odd, repeated, tooLong } = parseHash(location.hash);
  page.section = takeSection(entries);
  const { values, lang, problems } = stateFromEntries(
    entries,
    browserLanguage(),
  );
  page.values = values;
  page.lang = lang;
  page.params = new Map(
    Array.from(entries).filter(
      ([key]) =>
        key.includes(".") && sections.some((s) => key.startsWith(`${s.id}.`)),
    ),
  );
  const messages = [];
  if (tooLong) messages.push(["longHash", {}]);
  for (const { key, value, used } of problems)
    messages.push(["badHash", { name: key, value: quoted(value), used }]);
  const unknown = [...odd];
  for (const key of entries.keys())
    if (
      key !== "lang" &&
      !Object.hasOwn(CONTROLS, key) &&
      !page.params.has(key)
    )
      unknown.push(key);
  for (const key of unknown)
    messages.push(["unknownKey", { key: quoted(key) }]);
  for (const key of new Set(repeated))
    messages.push(["repeatedKey", { key: quoted(key) }]);
  return messages;
}

/** Whether a hash names only a section: a jump, not a new state. */
function onlySection(hash) {
  const { entries, odd, repeated } = parseHash(hash);
  const section = takeSection(entries);
  return section !== "" && entries.size === 0 && !odd.length && !repeated.length
    ? section
    : "";
}

function goToSection(id) {
  page.section = id;
  page.scrollPending = "";
  document.getElementById(id)?.scrollIntoView();
  writeLink(true);
}

// A history update costs milliseconds, too much for every frame of a slider
// drag, and browsers ignore them beyond a rate (Chromium: 200 in 10 s): the
// link is written once the changes pause, at most a few times a second.
const LINK_PAUSE = 250;
const link = { timer: null, own: "" };

function updateLink() {
  clearTimeout(link.timer);
  link.timer = setTimeout(writeLink, LINK_PAUSE);
}

/**
 * Puts the state into the hash, unless (when not forced) a link the reader
 * followed is waiting for its hashchange: that link wins.
 */
function writeLink(force = false) {
  if (!force && location.hash !== link.own) return;
  const params = Array.from(page.params).filter(([key]) => page.known.has(key));
  const hash = hashOf(page.values, page.lang, params, page.section);
  link.own = hash;
  if (hash === location.hash) return;
  try {
    history.replaceState(null, "", hash);
  } catch {
    // Where history updates are refused, the hash can still be replaced.
    location.replace(hash);
  }
}

function render(messages) {
  const root = document.getElementById("page");
  root.replaceChildren();
  root.classList.toggle("pe-dark", darkScheme.matches);
  document.documentElement.lang = page.lang === "zh" ? "zh-Hans" : "en";
  document.title = t("title");
  page.known = new Set();
  page.mounted = [];

  const toggle = element("button", "lang-toggle", [t("langToggle")]);
  toggle.type = "button";
  toggle.dataset.testid = "lang-toggle";
  toggle.lang = page.lang === "zh" ? "en" : "zh-Hans";
  toggle.title = t("langToggleLabel");
  toggle.addEventListener("click", () => {
    page.lang = page.lang === "zh" ? "en" : "zh";
    render([]);
  });
  const header = element("header", "page-header", [
    element("div", "title-row", [element("h1", "", [t("title")]), toggle]),
    element("p", "lead", [t("lead")]),
  ]);

  const controlsBox = element("div", "controls-box");
  page.notes = element("div", "notes");
  page.notes.dataset.testid = "notes";
  page.state = withOptions(page.values, page.lang);
  page.controls = mountControls(
    controlsBox,
    t,
    page.values,
    page.state.layout,
    onControl,
  );
  controlsBox.append(page.notes);
  const bar = element("div", "controls-bar", [controlsBox]);

  const nav = element("nav", "toc");
  nav.setAttribute("aria-label", t("toc"));
  const list = element("ol");
  nav.append(list);
  const main = element("main", "sections");
  root.append(header, bar, nav, main);

  page.state = withOptions(page.values, page.lang);
  const pointer = pointerChannel();
  for (const section of sections) {
    const sectionRoot = element("section", "pe-section");
    sectionRoot.id = section.id;
    main.append(sectionRoot);
    const app = createApp({
      lib,
      lang: page.lang,
      section,
      root: sectionRoot,
      params: page.params,
      known: page.known,
      setParam(key, value) {
        page.params.set(key, value);
        updateLink();
      },
      state: () => page.state,
      pointer,
    });
    try {
      const view = section.mount(sectionRoot, app);
      page.mounted.push({ section, root: sectionRoot, view });
    } catch (error) {
      note(sectionRoot, t("failed", { message: error.message }), "failed");
    }
    const title = sectionRoot.querySelector("h2");
    if (title) {
      const link = element("a", "", [title.textContent]);
      link.href = `#${section.id}`;
      link.addEventListener("click", (event) => {
        event.preventDefault();
        goToSection(section.id);
      });
      list.append(element("li", "", [link]));
    }
  }
  root.append(element("footer", "page-footer", [t("footer")]));
  page.formulas?.disconnect();
  page.formulas = fitFormulas(root, t("wideFormula"));
  for (const [key, vars] of messages) addNote(t(key, vars));
  // Section keys are known once the sections have asked for them.
  for (const key of page.params.keys())
    if (!page.known.has(key)) {
      page.params.delete(key);
      addNote(t("unknownKey", { key: quoted(key) }));
    }
  writeLink(true);
  // Once more when every section is drawn: charts above it change height.
  page.scrollPending = page.section;
  if (page.section) document.getElementById(page.section)?.scrollIntoView();
  schedule();
}

function addNote(message) {
  page.notes.append(element("p", "note", [message]));
  page.notes.setAttribute("role", "status");
}

function onControl(key, text, committed) {
  const read = readControl(key, text);
  page.notes.replaceChildren();
  if (read.problem) {
    const control = CONTROLS[key];
    const message = {
      clamped: "clamped",
      rounded: "rounded",
      invalid: "notNumber",
    }[read.problem];
    addNote(
      t(message, {
        name: t(key),
        value: quoted(text),
        min: control.min,
        max: control.max,
        used: read.value,
      }),
    );
  }
  if (committed) page.controls.commit(key, read.value);
  if (page.values[key] === read.value) return;
  page.values = { ...page.values, [key]: read.value };
  page.state = withOptions(page.values, page.lang);
  page.controls.show(page.values, page.state.layout);
  updateLink();
  schedule();
}

/**
 * Marks every section for a redraw with the latest state. Sections are
 * drawn one frame at a time, those on screen first, within a budget per
 * frame: a change made meanwhile replaces the state the remaining ones
 * get, so nothing stale is drawn, and no section is drawn twice a frame.
 * A section whose drawing comes in steps (its update returns an iterator)
 * gets its steps over as many frames as the budget asks; a new state drops
 * the steps left of the old one.
 */
function schedule() {
  for (const mounted of page.mounted) {
    mounted.steps = null;
    page.dirty.add(mounted);
  }
  document.body.dataset.ready = "false";
  if (page.frame === null) page.frame = requestAnimationFrame(redraw);
}

// Script time per frame; style, layout, paint and the canvases' commit come
// after it, in the same task.
const FRAME_BUDGET = 6;

function onScreen(mounted) {
  const box = mounted.root.getBoundingClientRect();
  return box.bottom > 0 && box.top < innerHeight;
}

function redraw() {
  page.frame = null;
  const start = performance.now();
  const visible = new Map([...page.dirty].map((m) => [m, onScreen(m)]));
  const order = [...page.dirty].sort((a, b) => visible.get(b) - visible.get(a));
  for (const mounted of order) {
    if (performance.now() - start > FRAME_BUDGET) break;
    const begin = performance.now();
    try {
      if (!mounted.steps) {
        mounted.began = begin;
        const result = mounted.view?.update(page.state);
        mounted.steps = typeof result?.next === "function" ? result : null;
      }
      let finished = !mounted.steps;
      while (!finished && performance.now() - start <= FRAME_BUDGET)
        finished = mounted.steps.next().done;
      // One measure per frame's share of a section's drawing, and one for
      // the drawing from its first step to its last.
      performance.measure(`pe-step:${mounted.section.id}`, { start: begin });
      if (!finished) break;
      performance.measure(`pe-update:${mounted.section.id}`, {
        start: mounted.began,
      });
      mounted.steps = null;
      note(mounted.root, "", "failed");
    } catch (error) {
      mounted.steps = null;
      note(mounted.root, t("failed", { message: error.message }), "failed");
    }
    page.dirty.delete(mounted);
  }
  performance.measure("pe-update", { start });
  if (page.dirty.size) page.frame = requestAnimationFrame(redraw);
  else {
    if (page.scrollPending)
      document.getElementById(page.scrollPending)?.scrollIntoView();
    page.scrollPending = "";
    document.body.dataset.ready = "true";
  }
}

lib.init().then(
  () => {
    render(readLink());
    // A link edited or followed by the reader, not one this page wrote.
    window.addEventListener("hashchange", () => {
      if (location.hash === link.own) return;
      // An anchor, a table-of-contents entry say: go there, keep the state.
      const section = onlySection(location.hash);
      if (section) return goToSection(section);
      // Leaving a field commits it; the new link then overrides it.
      document.activeElement?.blur();
      render(readLink());
    });
    darkScheme.addEventListener("change", () => render([]));
  },
  // Without the module nothing can be shown; say why (a CSP without
  // 'wasm-unsafe-eval', for one).
  (error) => {
    document
      .getElementById("page")
      .append(element("p", "note", [error.message]));
    throw error;
  },
);
