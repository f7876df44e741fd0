// One script tag puts any panel of the page into another page: a custom
// element per section (the README's table of panels lists them and their
// attributes), configured by the shared controls' attributes (dim,
// positions, base, layout, preset, start), each section's own link
// parameters under the same names (<pe-relation p="3" k="5">), lang (by
// default the host's), theme (light, dark or auto; by default the host's
// color-scheme, on a transparent background), look ("page" for the page's
// own fonts; by default the host's, chart text scaled with it) and compact
// (the charts without the prose). Each panel lives in a shadow root with the
// page's style sheet adopted inside it, so nothing of the host page changes
// style. A panel adds no heading: the host page's own introduces it.
import { lib } from "./library.js";
import css from "./style.css";
import {
  createApp,
  note,
  refusalText,
  standAside,
  underTheHood,
} from "./app.js";
import { fitFormulas } from "./math.js";
import {
  browserLanguage,
  LANGUAGES,
  quoted,
  strings,
  translate,
} from "./i18n.js";
// Each section as [id, load]: a panel loads its section on first use.
import panelSections from "site:panels";
import { panelTag } from "./panel-tag.js";
import { CONTROLS, readControl, withOptions } from "./state.js";
import { drawQueue } from "./draw-queue.js";
import { inWords } from "./parts/library-error.js";

// Two pasted snippets load this script twice: the second copy finds the
// elements defined and does nothing (defining them again would throw).
const first = !customElements.get("pe-why");
const ready = first ? lib.init() : null;

// One sheet, shared by every panel's shadow root.
let sheet = null;
function panelSheet() {
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
  }
  return sheet;
}

const THEMES = ["light", "dark", "auto"];

/**
 * The language a panel without `lang` speaks: its host's (the nearest
 * `lang` of the page around it), else the browser's.
 */
function hostLanguage(element) {
  const tag = element.parentElement?.closest("[lang]")?.getAttribute("lang");
  const match = LANGUAGES.find((lang) =>
    String(tag ?? "")
      .toLowerCase()
      .startsWith(lang),
  );
  return match ?? browserLanguage();
}

/**
 * The theme a panel without `theme` takes: its host's color-scheme, "auto"
 * when the host offers both, light when it says nothing.
 */
function hostTheme(element) {
  const words = getComputedStyle(element).colorScheme.split(/\s+/);
  if (!words.includes("dark")) return "light";
  return words.includes("light") ? "auto" : "dark";
}
const LOOKS = ["host", "page"];
const ATTRIBUTES = [
  ...Object.keys(CONTROLS),
  "lang",
  "theme",
  "look",
  "compact",
];
const darkScheme = matchMedia("(prefers-color-scheme: dark)");

const attributeMessage = {
  clamped: "attrOutside",
  rounded: "attrRounded",
  invalid: "attrInvalid",
};

/**
 * The panel's state from its attributes, with a note for every attribute
 * that cannot be used as written: a value outside the limits or not a
 * number gives way to the default, a fraction where a whole number is
 * needed is rounded.
 */
function readAttributes(element) {
  const messages = [];
  const langAttribute = element.getAttribute("lang");
  let lang = hostLanguage(element);
  if (langAttribute !== null) {
    if (LANGUAGES.includes(langAttribute)) lang = langAttribute;
    else
      messages.push(["attrLang", { value: quoted(langAttribute), used: lang }]);
  }
  const values = {};
  for (const [key, control] of Object.entries(CONTROLS)) {
    const text = element.getAttribute(key);
    values[key] = control.fallback;
    if (text === null) continue;
    const read = readControl(key, text);
    // As on the page: a value outside the limits is clamped to them, a
    // fraction rounded; only text that is no value gives the default.
    values[key] = read.value;
    if (read.problem)
      messages.push([
        attributeMessage[read.problem],
        {
          name: key,
          value: quoted(text),
          min: control.min ?? "",
          max: control.max ?? "",
          used: read.value,
        },
      ]);
  }
  const themeText = element.getAttribute("theme");
  let theme = hostTheme(element);
  if (themeText !== null) {
    if (THEMES.includes(themeText)) theme = themeText;
    else
      messages.push(["attrTheme", { value: quoted(themeText), used: theme }]);
  }
  const lookText = element.getAttribute("look");
  let look = "host";
  if (lookText !== null) {
    if (LOOKS.includes(lookText)) look = lookText;
    else messages.push(["attrLook", { value: quoted(lookText), used: look }]);
  }
  return { lang, values, theme, look, messages };
}

// One queue for every panel of the host page: panels are drawn a frame's
// budget at a time, those on screen first, a large one in steps, so that a
// page of many panels never stalls; a panel queued again drops the steps
// left of its older state.
const queue = drawQueue();

/**
 * A section's link parameters read from the panel's attributes: the key
 * "relation.p" is the attribute p (HTML attribute names ignore case, so
 * "decay.seqLen" is seqlen).
 */
function attributeParams(panel, section) {
  const name = (key) => key.slice(section.id.length + 1);
  return {
    has: (key) => panel.hasAttribute(name(key)),
    get: (key) => panel.getAttribute(name(key)),
    delete() {},
  };
}

// Attributes of any element, and the panel's own marks, are no parameters.
const NOT_PARAMETERS = /^(data-|aria-|id$|class$|style$|hidden$|title$)/;
const isParameter = (name) =>
  !ATTRIBUTES.includes(name) && !NOT_PARAMETERS.test(name);

const panels = new Set();
darkScheme.addEventListener("change", () => {
  for (const panel of panels)
    if (panel.dataset.theme === "auto") panel.schedule();
});

class Panel extends HTMLElement {
  static observedAttributes = ATTRIBUTES;

  connectedCallback() {
    panels.add(this);
    if (!this.shadowRoot) {
      this.attachShadow({ mode: "open" });
      this.shadowRoot.adoptedStyleSheets = [panelSheet()];
    }
    // A section's own parameters are read at its mount: a change to one of
    // them mounts the panel again.
    this.watcher ??= new MutationObserver((records) => {
      if (records.some(({ attributeName }) => isParameter(attributeName))) {
        this.remount = true;
        if (this.mounted) this.schedule();
      }
    });
    this.watcher.observe(this, { attributes: true });
    Promise.all([ready, this.constructor.load()]).then(
      () => this.isConnected && this.schedule(),
      (error) => this.failed(error),
    );
  }

  /** Without the module the panel can show nothing but why. */
  failed(error) {
    const { lang } = readAttributes(this);
    const said = document.createElement("p");
    said.className = "note";
    said.textContent = inWords(error, lang);
    this.shadowRoot.replaceChildren(said);
    this.dataset.error = error?.code ?? "";
    this.dataset.ready = "true";
  }

  disconnectedCallback() {
    panels.delete(this);
    this.watcher?.disconnect();
    if (this.drawing) queue.remove(this.drawing);
    // Its section ends with it; put back in a page, it is mounted again.
    this.mounted?.app.teardown();
    this.mounted = null;
  }

  // Changes are drawn with the attributes as they are when the panel's turn
  // comes: ten attributes set at once draw once.
  attributeChangedCallback() {
    if (this.isConnected && this.mounted) this.schedule();
  }

  schedule() {
    this.dataset.ready = "false";
    this.drawing ??= {
      id: this.localName,
      root: this,
      steps: () => this.steps(),
      done: (error) => this.done(error),
    };
    queue.add(this.drawing);
  }

  /** The panel's drawing: attributes read, a mount if needed, the update. */
  *steps() {
    const { lang, values, theme, look, messages } = readAttributes(this);
    const dark = theme === "dark" || (theme === "auto" && darkScheme.matches);
    this.dataset.theme = theme;
    const state = withOptions(values, lang);
    // A new language needs new text everywhere; anything else is an update.
    if (!this.mounted || this.mounted.lang !== lang || this.remount) {
      this.remount = false;
      this.mount(lang, state);
      yield;
    }
    const { frame, root, view } = this.mounted;
    frame.classList.toggle("pe-dark", dark);
    // A theme asked for paints its own background; else the host's shows.
    frame.classList.toggle("own-theme", this.hasAttribute("theme"));
    frame.classList.toggle("own-look", look === "page");
    frame.classList.toggle("compact", this.hasAttribute("compact"));
    const said = messages.map(([key, vars]) =>
      translate(strings, lang, key, vars),
    );
    if (state.refused && !this.constructor.section.presetFree)
      said.push(refusalText(state.refused, lang));
    note(root, said.join(" "), "attributes", { first: true });
    this.mounted.state = state;
    if (standAside(root, this.constructor.section, state, lang)) {
      // The attribute note says why; the section's own would repeat it.
      root.querySelector(":scope > .note[data-slot=refused]")?.remove();
      return;
    }
    const steps = view.update(state);
    if (typeof steps?.next === "function") yield* steps;
  }

  done(error) {
    if (this.mounted)
      note(
        this.mounted.root,
        error
          ? translate(strings, this.mounted.lang, "failed", {
              message: inWords(error, this.mounted.lang),
            })
          : "",
        "failed",
        { first: true },
      );
    this.dataset.renders = String(Number(this.dataset.renders ?? 0) + 1);
    this.dataset.ready = "true";
  }

  mount(lang, state) {
    const section = this.constructor.section;
    const root = document.createElement("section");
    root.className = "pe-section";
    // A named group, not a landmark: two panels of one kind on a page would
    // otherwise be two regions of the same name.
    root.setAttribute("role", "group");
    const frame = document.createElement("div");
    frame.className = "pe-embed";
    frame.lang = lang === "zh" ? "zh-Hans" : "en";
    frame.append(root);
    this.mounted?.app.teardown();
    this.mounted = null;
    this.shadowRoot.replaceChildren(frame);
    const mounted = { lang, frame, root, state, view: null, app: null };
    const app = createApp({
      lib,
      lang,
      section,
      root,
      params: attributeParams(this, section),
      known: new Set(),
      setParam() {},
      state: () => mounted.state,
      frames: queue,
      embedded: true,
    });
    mounted.app = app;
    try {
      mounted.view = section.mount(root, app);
    } catch (error) {
      // What the section made before it failed ends with it.
      app.teardown();
      throw error;
    }
    underTheHood(root, section, lang);
    this.formulas?.disconnect();
    this.formulas = fitFormulas(root, translate(strings, lang, "wideFormula"));
    this.mounted = mounted;
  }
}

if (first)
  for (const [id, load] of panelSections) {
    let loading = null;
    customElements.define(
      panelTag(id),
      class extends Panel {
        static section = null;
        static load() {
          loading ??= load().then((section) => {
            this.section = section;
          });
          return loading;
        }
      },
    );
  }
