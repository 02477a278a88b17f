// @ts-check
/**
 * Drag and drop with pointer events (mouse, pen and touch alike), and the keyboard's
 * equivalent: select cards, then choose a target.
 *
 * Draggable elements carry `data-id`; targets carry `data-drop` (a key the page
 * understands: "meld:2", "new", "hand", …). A press that does not move is a tap (select);
 * a drag takes the pressed card, or every selected card when the pressed one is selected.
 */

/**
 * @typedef {{
 *   canDrag: (id: string) => boolean,
 *   selected: () => string[],
 *   onTap: (id: string, ev: PointerEvent) => void,
 *   onDrop: (ids: string[], target: string, beforeId: string | null, targetEl: HTMLElement, overId: string | null) => void,
 * }} DragOptions
 */

const THRESHOLD = 6;

/**
 * @param {HTMLElement} root
 * @param {DragOptions} opts
 * @returns {() => void} detach
 */
export function enableDrag(root, opts) {
  /** @type {{id: string, el: HTMLElement, x: number, y: number, pointer: number} | null} */
  let press = null;
  /** @type {{ids: string[], ghost: HTMLElement, over: HTMLElement | null} | null} */
  let drag = null;

  /** @param {PointerEvent} ev */
  const down = (ev) => {
    if (ev.button !== 0) return;
    const el = /** @type {HTMLElement | null} */ (/** @type {HTMLElement} */ (ev.target).closest("[data-id]"));
    if (!el || !root.contains(el)) return;
    const id = el.dataset.id || "";
    press = { id, el, x: ev.clientX, y: ev.clientY, pointer: ev.pointerId };
    ev.preventDefault();
  };

  /** @param {PointerEvent} ev */
  const move = (ev) => {
    if (!press || ev.pointerId !== press.pointer) return;
    if (!drag) {
      if (Math.hypot(ev.clientX - press.x, ev.clientY - press.y) < THRESHOLD) return;
      if (!opts.canDrag(press.id)) return;
      const sel = opts.selected();
      const ids = sel.includes(press.id) ? sel : [press.id];
      const ghost = document.createElement("div");
      ghost.className = "drag-ghost";
      for (const id of ids) {
        const src = root.querySelector(`[data-id="${CSS.escape(id)}"]`);
        if (src) {
          ghost.appendChild(src.cloneNode(true));
          src.classList.add("dragging");
        }
      }
      document.body.appendChild(ghost);
      document.body.classList.add("is-dragging");
      drag = { ids, ghost, over: null };
    }
    drag.ghost.style.transform = `translate(${ev.clientX - 12}px, ${ev.clientY - 18}px)`;
    const under = document.elementFromPoint(ev.clientX, ev.clientY);
    const target = /** @type {HTMLElement | null} */ (under ? under.closest("[data-drop]") : null);
    if (target !== drag.over) {
      drag.over?.classList.remove("drop-over");
      target?.classList.add("drop-over");
      drag.over = target;
    }
    showCaret(target, under, ev.clientX);
  };

  /** A bar where the cards will land among the target's cards. */
  const caret = document.createElement("div");
  caret.className = "drop-caret";
  /** @param {HTMLElement | null} target @param {Element | null} under @param {number} x */
  const showCaret = (target, under, x) => {
    const card = /** @type {HTMLElement | null} */ (under ? under.closest("[data-id]") : null);
    const cards = target ? [...target.querySelectorAll("[data-id]")].filter((c) => !c.classList.contains("dragging")) : [];
    if (!target || !cards.length) {
      caret.remove();
      return;
    }
    let ref = cards[cards.length - 1].getBoundingClientRect();
    let left = ref.right + 2;
    if (card && target.contains(card)) {
      const box = card.getBoundingClientRect();
      ref = box;
      left = x < box.left + box.width / 2 ? box.left - 4 : box.right + 2;
    }
    caret.style.left = `${left}px`;
    caret.style.top = `${ref.top}px`;
    caret.style.height = `${ref.height}px`;
    if (!caret.isConnected) document.body.appendChild(caret);
  };

  /** @param {PointerEvent} ev */
  const up = (ev) => {
    if (!press || ev.pointerId !== press.pointer) return;
    const p = press;
    press = null;
    if (!drag) {
      opts.onTap(p.id, ev);
      return;
    }
    const d = drag;
    drag = null;
    caret.remove();
    d.ghost.remove();
    document.body.classList.remove("is-dragging");
    root.querySelectorAll(".dragging").forEach((e) => e.classList.remove("dragging"));
    d.over?.classList.remove("drop-over");
    const under = document.elementFromPoint(ev.clientX, ev.clientY);
    const target = /** @type {HTMLElement | null} */ (under ? under.closest("[data-drop]") : null);
    if (!target) return;
    const key = target.dataset.drop || "";
    // Where in the target: before the card under the pointer, or after it on its right half.
    let before = null;
    let overId = null;
    const card = /** @type {HTMLElement | null} */ (under ? under.closest("[data-id]") : null);
    if (card && target.contains(card)) {
      overId = card.dataset.id || null;
      const box = card.getBoundingClientRect();
      if (ev.clientX < box.left + box.width / 2) before = card.dataset.id || null;
      else {
        const cards = [...target.querySelectorAll("[data-id]")];
        const next = cards[cards.indexOf(card) + 1];
        before = next ? /** @type {HTMLElement} */ (next).dataset.id || null : null;
      }
    }
    opts.onDrop(d.ids.filter((i) => i !== before), key, before, target, overId);
  };

  const cancel = () => {
    caret.remove();
    if (drag) {
      drag.ghost.remove();
      drag.over?.classList.remove("drop-over");
      document.body.classList.remove("is-dragging");
      root.querySelectorAll(".dragging").forEach((e) => e.classList.remove("dragging"));
    }
    press = null;
    drag = null;
  };

  root.addEventListener("pointerdown", down);
  window.addEventListener("pointermove", move);
  window.addEventListener("pointerup", up);
  window.addEventListener("pointercancel", cancel);
  return () => {
    root.removeEventListener("pointerdown", down);
    window.removeEventListener("pointermove", move);
    window.removeEventListener("pointerup", up);
    window.removeEventListener("pointercancel", cancel);
  };
}

/**
 * Keyboard: Enter or Space on a focused card taps it; on a focused target it drops the
 * selection there.
 * @param {HTMLElement} root
 * @param {(id: string) => void} onTap
 * @param {(target: string) => void} onTarget
 * @returns {() => void} detach
 */
export function enableKeys(root, onTap, onTarget) {
  const onKey = (/** @type {KeyboardEvent} */ ev) => {
    if (ev.key !== "Enter" && ev.key !== " ") return;
    const el = /** @type {HTMLElement} */ (ev.target);
    if (el.dataset.id) {
      ev.preventDefault();
      onTap(el.dataset.id);
    } else if (el.dataset.drop && el.classList.contains("target")) {
      ev.preventDefault();
      onTarget(el.dataset.drop);
    }
  };
  root.addEventListener("keydown", onKey);
  return () => root.removeEventListener("keydown", onKey);
}
