// A minimal stand-in for the browser globals that the web client's modules touch when they
// load or build elements (document, localStorage, navigator, fetch): enough to run the
// DOM-free logic under `node --test`. Import it before any module of src/openrummy/web/js.

class FakeElement {
  /** @param {string} tag */
  constructor(tag) {
    this.tagName = tag.toUpperCase();
    /** @type {any[]} */ this.children = [];
    /** @type {{[k: string]: string}} */ this.attributes = {};
    /** @type {{[k: string]: string}} */ this.dataset = {};
    this.style = {};
    this.textContent = "";
    /** @type {Set<string>} */
    const classes = new Set();
    this.classList = {
      add: (/** @type {string[]} */ ...c) => c.forEach((x) => classes.add(x)),
      remove: (/** @type {string[]} */ ...c) => c.forEach((x) => classes.delete(x)),
      contains: (/** @type {string} */ c) => classes.has(c),
      toggle: (/** @type {string} */ c, /** @type {boolean} */ on) => (on ? classes.add(c) : classes.delete(c)),
    };
  }
  /** @param {any} c */
  appendChild(c) {
    this.children.push(c);
    return c;
  }
  /** @param {any[]} cs */
  append(...cs) {
    cs.forEach((c) => this.appendChild(c));
  }
  replaceChildren() {
    this.children = [];
  }
  remove() {}
  /** @param {string} k @param {string} v */
  setAttribute(k, v) {
    this.attributes[k] = v;
  }
  /** @param {string} k */
  getAttribute(k) {
    return this.attributes[k] ?? null;
  }
  addEventListener() {}
  removeEventListener() {}
  contains() {
    return false;
  }
  querySelector() {
    return null;
  }
  querySelectorAll() {
    return [];
  }
  focus() {}
}

/** Toasts shown (text, tone), newest last. */
export const toasts = /** @type {[string, string][]} */ ([]);

const body = new FakeElement("body");
const g = /** @type {any} */ (globalThis);
g.document = {
  body,
  documentElement: { lang: "en" },
  createElement: (/** @type {string} */ tag) => new FakeElement(tag),
  createTextNode: (/** @type {string} */ text) => ({ nodeType: 3, textContent: text }),
  getElementById: (/** @type {string} */ id) => {
    if (id !== "toasts") return null;
    const box = new FakeElement("div");
    box.appendChild = (/** @type {any} */ el) => {
      const text = el.children.map((/** @type {any} */ c) => c.textContent).join("");
      toasts.push([text, String(el.attributes.class || "").replace("toast", "").trim()]);
      return el;
    };
    return box;
  },
  addEventListener() {},
  removeEventListener() {},
  querySelector: () => null,
};
g.window = { addEventListener() {}, removeEventListener() {} };
const stored = new Map([["openrummy.lang", "en"]]);
g.localStorage = {
  getItem: (/** @type {string} */ k) => stored.get(k) ?? null,
  setItem: (/** @type {string} */ k, /** @type {string} */ v) => void stored.set(k, v),
};
// Newer Node versions have their own navigator and fetch: replace them, do not assign.
Object.defineProperty(globalThis, "navigator", {
  value: { languages: ["en"], language: "en" },
  configurable: true,
  writable: true,
});
// No server here: a check or hint request fails, as it does when the server is unreachable.
Object.defineProperty(globalThis, "fetch", {
  value: async () => {
    throw new Error("no server in unit tests");
  },
  configurable: true,
  writable: true,
});

export { FakeElement };
