// @ts-check
/**
 * Building DOM nodes. Every text goes in as a text node (never as HTML): player names and
 * table titles are user input.
 */

/**
 * @typedef {string | number | Node | null | undefined | false} Child
 * @typedef {{[key: string]: any}} Attrs
 */

/**
 * Create an element: `h("button", {class: "x", onclick: f}, "text", child)`.
 * Keys starting with "on" are listeners; `dataset` and `style` take objects; other keys are
 * attributes (`true` sets an empty attribute, `false`/`null` leaves it out).
 * @param {string} tag
 * @param {Attrs | null} [attrs]
 * @param {...(Child | Child[])} children
 * @returns {HTMLElement}
 */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  if (attrs) {
    for (const [key, value] of Object.entries(attrs)) {
      if (value === undefined || value === null || value === false) continue;
      if (key.startsWith("on") && typeof value === "function") {
        el.addEventListener(key.slice(2), value);
      } else if (key === "dataset") {
        for (const [k, v] of Object.entries(value)) el.dataset[k] = String(v);
      } else if (key === "style" && typeof value === "object") {
        Object.assign(el.style, value);
      } else if (key === "value" && "value" in el) {
        /** @type {any} */ (el).value = value;
      } else if (key === "checked" || key === "selected" || key === "disabled") {
        /** @type {any} */ (el)[key] = Boolean(value);
        if (value) el.setAttribute(key, "");
      } else {
        el.setAttribute(key, value === true ? "" : String(value));
      }
    }
  }
  append(el, children);
  return el;
}

/**
 * @param {Node} el
 * @param {(Child | Child[])[]} children
 */
export function append(el, children) {
  for (const c of children.flat(3)) {
    if (c === null || c === undefined || c === false) continue;
    el.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
  }
}

/**
 * Replace an element's children.
 * @param {Element} el
 * @param {...(Child | Child[])} children
 */
export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
}

/** @param {string} selector @param {ParentNode} [root] @returns {HTMLElement} */
export function $(selector, root = document) {
  return /** @type {HTMLElement} */ (root.querySelector(selector));
}

/**
 * A modal dialog; resolves with the value of the button pressed (or null when dismissed).
 * @param {{title: string, body?: (Child | Child[]), buttons: {label: string, value: any, kind?: string}[], tone?: string}} opts
 * @returns {Promise<any>}
 */
export function dialog(opts) {
  return new Promise((resolve) => {
    const back = h("div", { class: "modal-back", role: "presentation" });
    const close = (/** @type {any} */ v) => {
      back.remove();
      document.removeEventListener("keydown", onKey);
      resolve(v);
    };
    const onKey = (/** @type {KeyboardEvent} */ e) => {
      if (e.key === "Escape") close(null);
    };
    const buttons = opts.buttons.map((b) =>
      h("button", { class: `btn ${b.kind || ""}`, onclick: () => close(b.value) }, b.label),
    );
    const box = h(
      "div",
      { class: `modal ${opts.tone || ""}`, role: "dialog", "aria-modal": "true", "aria-label": opts.title },
      h("h2", null, opts.title),
      h("div", { class: "modal-body" }, opts.body || null),
      h("div", { class: "modal-buttons" }, buttons),
    );
    back.appendChild(box);
    document.body.appendChild(back);
    document.addEventListener("keydown", onKey);
    const focus = buttons[buttons.length - 1];
    if (focus) focus.focus();
  });
}

/**
 * A short message at the bottom of the page.
 * @param {string} text
 * @param {string} [tone]
 */
export function toast(text, tone = "") {
  let box = document.getElementById("toasts");
  if (!box) {
    box = h("div", { id: "toasts", "aria-live": "polite" });
    document.body.appendChild(box);
  }
  const t = h("div", { class: `toast ${tone}` }, text);
  box.appendChild(t);
  setTimeout(() => t.remove(), 6000);
}
