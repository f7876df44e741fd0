// The page: header, shared controls and every section, the state kept in the
// URL hash, and one redraw per animation frame after any change.
import { lib } from "./library.js";
import {
  createApp,
  note,
  pointerChannel,
  refusalText,
  standAside,
  underTheHood,
} from "./app.js";
import { fitFormulas } from "./math.js";
import { element } from "./dom.js";
import { drawQueue } from "./draw-queue.js";
import { mountControls } from "./controls.js";
import { browserLanguage, quoted, strings, translate } from "./i18n.js";
import { sections } from "./sections/index.js";
import { panelTag } from "./panel-tag.js";
import { sourcesSection } from "./sources.js";
import {
  CONTROLS,
  hashOf,
  parseHash,
  renameOldKeys,
  stateFromEntries,
  withOptions,
} from "./state.js";
import { inWords } from "./parts/library-error.js";

const page = {
  lang: "en",
  values: {},
  params: new Map(),
  known: new Set(),
  mounted: [],
  mounting: false,
  formulas: [],
  state: null,
  controls: null,
  notes: null,
  section: "",
};

const darkScheme = matchMedia("(prefers-color-scheme: dark)");

const t = (key, vars) => translate(strings, page.lang, key, vars);

// Places a link can jump to: every section, and the sources after them.
const SECTION_IDS = new Set([
  ...sections.map((section) => section.id),
  "sources",
]);

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
  const parsed = parseHash(location.hash);
  const { odd, repeated, tooLong } = parsed;
  const entries = renameOldKeys(parsed.entries);
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
  // Until every section has asked for its keys, the link keeps them all.
  if (page.mounting) return;
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
  // The sections shown until now end: nothing of theirs is drawn again, and
  // their plans are disposed.
  for (const mounted of page.mounted) {
    queue.remove(mounted);
    mounted.app.teardown();
  }
  page.mounted = [];

  const toggle = element("button", "lang-toggle", [t("langToggle")]);
  toggle.type = "button";
  toggle.dataset.testid = "lang-toggle";
  toggle.lang = page.lang === "zh" ? "en" : "zh-Hans";
  toggle.title = t("langToggleLabel");
  toggle.addEventListener("click", () => {
    page.lang = page.lang === "zh" ? "en" : "zh";
    // The reader stays where they are reading, not where they last jumped.
    page.section = sectionInView();
    render([]);
  });
  const header = element("header", "page-header", [
    element("div", "title-row", [element("h1", "", [t("title")]), toggle]),
    element("p", "lead", [t("lead")]),
  ]);

  const controlsBox = element("div", "controls-box");
  page.notes = element("div", "notes");
  page.notes.dataset.testid = "notes";
  page.refusal = element("div", { className: "notes", testid: "refusal" });
  page.state = withOptions(page.values, page.lang);
  page.controls = mountControls(
    controlsBox,
    t,
    page.values,
    page.state.layout,
    { onChange: onControl, onProblem: controlProblem },
  );
  const bar = element("div", "controls-bar", [controlsBox]);
  // A section jumped to starts below the sticky controls, not under them.
  page.barSize?.disconnect();
  page.barSize = new ResizeObserver(() =>
    root.style.setProperty("--controls-height", `${bar.offsetHeight}px`),
  );
  page.barSize.observe(bar);

  const nav = element("nav", "toc");
  nav.setAttribute("aria-label", t("toc"));
  const list = element("ol");
  nav.append(list);
  const main = element("main", "sections");
  // A citation goes to its source's entry without changing the link, which
  // holds the state.
  main.addEventListener("click", (event) => {
    const cite = event.target.closest?.("a.cite");
    const id = cite?.getAttribute("href").slice(1);
    if (!id?.startsWith("source-")) return;
    event.preventDefault();
    document.getElementById(id)?.scrollIntoView();
  });
  // The notes sit below the sticky controls, not in them: they scroll away
  // with the page and never cover a section.
  root.append(header, page.notes, nav, main);

  page.state = withOptions(page.values, page.lang);
  const pointer = pointerChannel();
  page.mounted = sections.map((section) => {
    const sectionRoot = element("section", "pe-section");
    sectionRoot.id = section.id;
    main.append(sectionRoot);
    const link = element("a", "", [
      translate(section.strings, page.lang, "title"),
    ]);
    link.href = `#${section.id}`;
    link.addEventListener("click", (event) => {
      event.preventDefault();
      goToSection(section.id);
    });
    list.append(element("li", "", [link]));
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
      frames: queue,
    });
    // In view until the observer says otherwise.
    const mounted = {
      id: section.id,
      section,
      root: sectionRoot,
      app,
      inView: true,
    };
    mounted.view = null;
    mounted.steps = () => sectionSteps(mounted);
    mounted.done = (error) =>
      note(
        sectionRoot,
        error || mounted.broken
          ? t("failed", {
              message: inWords(error ?? mounted.broken, page.lang),
            })
          : "",
        "failed",
      );
    return mounted;
  });
  main.append(sourcesSection(t, page.lang));
  // The shared controls come after the opening sections, which need none of
  // them, just above the first section they change; from there they stay
  // in view.
  const first = page.mounted.find((m) => !m.section.presetFree);
  main.insertBefore(bar, first?.root ?? null);
  // Why the options are refused, under the field that causes it.
  main.insertBefore(page.refusal, first?.root ?? null);
  const sourcesLink = element("a", "", [t("sources")]);
  sourcesLink.href = "#sources";
  sourcesLink.addEventListener("click", (event) => {
    event.preventDefault();
    goToSection("sources");
  });
  list.append(element("li", "", [sourcesLink]));
  root.append(element("footer", "page-footer", [t("footer")]));
  for (const formulas of page.formulas) formulas.disconnect();
  page.formulas = [];
  for (const [key, vars] of messages) addNote(t(key, vars));
  showRefusal();
  // Sections are mounted in the drawing queue too, one step each, so that
  // the first draw of a large link is spread over frames like any change.
  page.mounting = true;
  page.scrollPending = page.section;
  if (page.section) document.getElementById(page.section)?.scrollIntoView();
  watchSections();
  schedule(true);
}

/**
 * The two lines that put the section, as the reader has set it, into
 * another page: the shared controls it follows and its own parameters as
 * attributes of the same names as the link's.
 */
function embedSnippet(id) {
  const attributes = [];
  // Only the shared controls the panel follows: it would ignore the others.
  const { shared } = sections.find((section) => section.id === id).panel;
  for (const [key, control] of Object.entries(CONTROLS))
    if (shared.includes(key) && page.values[key] !== control.fallback)
      attributes.push([key, page.values[key]]);
  for (const [key, value] of page.params)
    if (key.startsWith(`${id}.`) && page.known.has(key))
      attributes.push([key.slice(id.length + 1), value]);
  if (page.lang !== "en") attributes.push(["lang", page.lang]);
  const escape = (text) =>
    String(text).replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`);
  const list = attributes
    .map(([key, value]) => ` ${key}="${escape(value)}"`)
    .join("");
  const tag = panelTag(id);
  return `<script src="embed.js"></script>\n<${tag}${list}></${tag}>`;
}

/** "Embed this": the snippet of a section, and a button that copies it. */
function embedPart(mounted) {
  const code = element("code", { testid: `embed-${mounted.id}` });
  const copy = element("button", { type: "button", text: t("copy") });
  copy.addEventListener("click", () => {
    navigator.clipboard?.writeText(code.textContent).then(
      () => (copy.textContent = t("copied")),
      () => getSelection().selectAllChildren(code),
    );
  });
  const part = element("details", "embed-this", [
    element("summary", "", [t("embedThis")]),
    element("p", "caption", [t("embedHelp")]),
    element("pre", "", [code]),
    copy,
  ]);
  mounted.root.append(part);
  mounted.embedCode = code;
}

/** Mounts a section: its text, controls and empty charts. */
function mount(mounted) {
  try {
    mounted.view = mounted.section.mount(mounted.root, mounted.app);
    underTheHood(mounted.root, mounted.section, page.lang);
    embedPart(mounted);
    page.formulas.push(fitFormulas(mounted.root, t("wideFormula")));
  } catch (error) {
    // A broken section runs nothing more: what it made so far ends now.
    mounted.app.teardown();
    mounted.view = { update() {} };
    mounted.broken = error;
  }
}

/** Once every section is mounted: the link, and its keys no section knows. */
function allMounted() {
  page.mounting = false;
  // Section keys are known once the sections have asked for them.
  for (const key of page.params.keys())
    if (!page.known.has(key)) {
      page.params.delete(key);
      addNote(t("unknownKey", { key: quoted(key) }));
    }
  writeLink(true);
}

/** The dim field marked, and why, when the preset refuses the options. */
function showRefusal() {
  const refused = page.state.refused;
  page.controls.mark("dim", refused ? t("evenDim") : "");
  note(page.refusal, refused ? refusalText(refused, page.lang) : "", "refused");
}

/** A note about the link or a control, with a button that dismisses it. */
function addNote(message) {
  const node = element("p", "note dismissable", [
    element("span", "", [message]),
  ]);
  const close = element("button", {
    type: "button",
    className: "note-dismiss",
    testid: "note-dismiss",
    "aria-label": t("dismiss"),
    text: "×",
  });
  close.addEventListener("click", () => node.remove());
  node.append(close);
  page.notes.append(node);
  page.notes.setAttribute("role", "status");
}

/** The section at the top of the window, under the sticky controls. */
function sectionInView() {
  // Below the controls where they are stuck at the top, else the window's.
  const bar = document.querySelector(".controls-bar")?.getBoundingClientRect();
  const top = bar && bar.top <= 1 ? bar.bottom : 0;
  let current = "";
  for (const node of document.querySelectorAll("main > section"))
    if (node.getBoundingClientRect().top <= top + 8) current = node.id;
  return current;
}

/** A shared control's new value: the state, the link and every section. */
function onControl(key, value) {
  page.notes.replaceChildren();
  if (page.values[key] === value) return;
  page.values = { ...page.values, [key]: value };
  page.state = withOptions(page.values, page.lang);
  page.controls.show(page.values, page.state.layout);
  showRefusal();
  updateLink();
  schedule();
}

/** What a committed field did with text it had to correct, as a note. */
function controlProblem(key, problem, text, used) {
  if (!problem) return;
  const control = CONTROLS[key];
  const message = {
    clamped: "clamped",
    rounded: "rounded",
    invalid: "notNumber",
  }[problem];
  addNote(
    t(message, {
      name: t(key),
      value: quoted(text),
      min: control.min,
      max: control.max,
      used,
    }),
  );
}

/**
 * Queues the sections for a redraw with the latest state: a change made
 * meanwhile replaces the state the remaining ones get, so nothing stale is
 * drawn, and no section is drawn twice a frame. A change draws only the
 * sections on screen (and those not yet mounted): the others are marked
 * stale and draw when they come into view, so a drag pays for what the
 * reader sees. `everywhere` draws them all (a new page).
 */
function schedule(everywhere = false) {
  for (const mounted of page.mounted) {
    const draw = everywhere || !mounted.view || mounted.inView;
    mounted.root.toggleAttribute("data-stale", !draw);
    // An older drawing left off screen ends: the section draws anew in view.
    if (!draw) {
      queue.remove(mounted);
      continue;
    }
    document.body.dataset.ready = "false";
    queue.add(mounted);
  }
}

/**
 * Follows which sections are on screen, or within a quarter of a screen of
 * it; a stale one that comes into view is queued then.
 */
function watchSections() {
  page.inView?.disconnect();
  const byRoot = new Map(page.mounted.map((m) => [m.root, m]));
  page.inView = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        const mounted = byRoot.get(entry.target);
        mounted.inView = entry.isIntersecting;
        if (!mounted.inView || !mounted.root.hasAttribute("data-stale"))
          continue;
        mounted.root.removeAttribute("data-stale");
        document.body.dataset.ready = "false";
        queue.add(mounted);
      }
    },
    { rootMargin: "25% 0px" },
  );
  for (const mounted of page.mounted) page.inView.observe(mounted.root);
}

/** A section's drawing: its mount the first time, then its update's steps. */
function* sectionSteps(mounted) {
  if (!mounted.view) {
    mount(mounted);
    if (page.mounted.every((m) => m.view)) allMounted();
    yield;
  }
  if (standAside(mounted.root, mounted.section, page.state, page.lang)) return;
  const result = mounted.view.update(page.state);
  if (typeof result?.next === "function") yield* result;
  if (mounted.embedCode)
    mounted.embedCode.textContent = embedSnippet(mounted.id);
}

const queue = drawQueue({
  onIdle() {
    if (page.scrollPending)
      document.getElementById(page.scrollPending)?.scrollIntoView();
    page.scrollPending = "";
    document.body.dataset.ready = "true";
  },
});

// A printout shows every section as the page's state has it: those left
// stale off screen are drawn first, at once.
window.addEventListener("beforeprint", () => {
  for (const mounted of page.mounted)
    if (mounted.root.hasAttribute("data-stale")) {
      mounted.root.removeAttribute("data-stale");
      queue.add(mounted);
    }
  queue.flush();
});

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
  // 'wasm-unsafe-eval', for one), in the link's or the browser's language.
  (error) => {
    readLink();
    document
      .getElementById("page")
      .append(element("p", "note", [inWords(error, page.lang)]));
    throw error;
  },
);
