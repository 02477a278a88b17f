// @ts-check
/**
 * Step-through replay of a finished game: the server replays the stored actions from the
 * revealed seed (`GET /api/tables/{id}/replay?step=k`) and shows every hand. Below it, the
 * game's analysis (analysis.js): its decisions link back to the step they were made at.
 */
import { analysisPanel } from "./analysis.js";
import { api } from "./api.js";
import { cardEl, parseItem } from "./cards.js";
import { h, replace } from "./dom.js";
import { eventText } from "./events.js";
import { onLangChange, setTiles, t } from "./i18n.js";
import { unseen } from "./order.js";

/** @param {HTMLElement} root @param {string} tableId */
export async function replayPage(root, tableId) {
  let table;
  let rules;
  try {
    table = await api("GET", `/api/tables/${tableId}`);
    rules = await api("GET", `/api/tables/${tableId}/rules`);
  } catch {
    replace(root, h("div", { class: "panel error" }, t("table.not_found")));
    return { destroy() {} };
  }
  // A Rummikub game's events and analysis say tile and rack, as at its table.
  setTiles(!!rules.tiles);
  let step = 0;
  /** @type {any} */
  let frame = null;
  let alive = true;
  /** The frame before (what changed glows: the table, each hand). */
  /** @type {any} */
  let prev = null;
  /** @type {ReturnType<typeof setInterval> | null} */
  let playing = null;
  const stop = () => {
    if (playing) clearInterval(playing);
    playing = null;
  };

  const panel = analysisPanel(tableId, (k) => {
    stop();
    load(k);
  });

  const load = async (/** @type {number} */ k) => {
    try {
      const before = frame;
      frame = await api("GET", `/api/tables/${tableId}/replay?step=${k}`);
      prev = before && frame.step === before.step + 1 ? before : null;
      step = frame.step;
      if (step >= frame.steps) stop();
    } catch (e) {
      replace(root, h("div", { class: "panel error" }, String(/** @type {any} */ (e).message)));
      return;
    }
    if (alive) draw();
  };

  const onKey = (/** @type {KeyboardEvent} */ e) => {
    if (!frame || /** @type {HTMLElement} */ (e.target).tagName === "INPUT") return;
    if (e.key === " ") {
      e.preventDefault();
      toggle();
    } else if (e.key === "ArrowRight") load(step + 1);
    else if (e.key === "ArrowLeft") load(step - 1);
    else if (e.key === "Home") load(0);
    else if (e.key === "End") load(frame.steps);
  };
  document.addEventListener("keydown", onKey);
  /** Autoplay: one step every 1.2 seconds to the end (again: pause). */
  const toggle = () => {
    if (playing) stop();
    else if (frame) {
      if (step >= frame.steps) load(0);
      playing = setInterval(() => alive && load(step + 1), 1200);
    }
    if (frame) draw();
  };
  onLangChange(() => {
    if (!alive) return;
    panel.redraw();
    if (frame) draw();
  });

  const draw = () => {
    const v = frame.view;
    const flat = (/** @type {string[][]} */ melds) => melds.flat().map((tok) => parseItem(tok).card);
    const newOnTable = prev && v.table && prev.view.table ? unseen(flat(prev.view.table), flat(v.table)) : [];
    let at = 0;
    /** @param {string} tok */
    const tableCard = (tok) => {
      const el = cardEl(parseItem(tok).card, { ident: parseItem(tok).ident });
      if (newOnTable[at++]) el.classList.add("fresh");
      return el;
    };
    const names = frame.names;
    const fam = table.family;
    const slider = h("input", {
      type: "range",
      min: 0,
      max: frame.steps,
      value: step,
      id: "replay-slider",
      "aria-label": t("replay.step"),
      onchange: (/** @type {any} */ e) => load(Number(e.target.value)),
    });
    const board =
      fam === "indian"
        ? h(
            "div",
            { class: "piles" },
            h("div", { class: "pile" }, h("span", { class: "label" }, t("indian.indicator")), cardEl(v.indicator)),
            h("div", { class: "pile" }, h("span", { class: "label" }, t("board.stock")), h("div", { class: "stock-pile" }, h("span", null, String(v.stock)))),
            h("div", { class: "pile" }, h("span", { class: "label" }, t("board.discard")), h("div", { class: "fan" }, (v.discard_pile || []).slice(-8).map((/** @type {string} */ c) => cardEl(c, { small: true })))),
          )
        : h(
            "section",
            { class: "table-melds" },
            v.table.length
              ? v.table.map((/** @type {string[]} */ m) => h("div", { class: "meld" }, h("div", { class: "cards" }, m.map(tableCard))))
              : h("p", { class: "muted empty" }, t("board.empty_table")),
          );
    replace(
      root,
      h(
        "div",
        { class: "replay" },
        h("div", { class: "table-head" }, h("div", { class: "title" }, h("strong", null, table.title), h("span", { class: "muted" }, " · ", t("replay.title"), " · ", t(`preset.${table.preset}`)))),
        h(
          "div",
          { class: "panel replay-controls" },
          h("button", { class: "btn", onclick: () => load(0), "aria-label": t("replay.first") }, "⏮"),
          h("button", { class: "btn", id: "replay-prev", onclick: () => load(step - 1), "aria-label": t("replay.prev") }, "◀"),
          h("span", { class: "step", id: "replay-step" }, t("replay.position", { n: step, of: frame.steps })),
          h("button", { class: "btn", id: "replay-next", onclick: () => load(step + 1), "aria-label": t("replay.next") }, "▶"),
          h("button", { class: "btn", onclick: () => load(frame.steps), "aria-label": t("replay.last") }, "⏭"),
          h("button", { class: `btn ${playing ? "primary" : ""}`, id: "replay-play", "aria-pressed": playing ? "true" : "false", onclick: toggle }, playing ? `⏸ ${t("replay.pause")}` : `⏵ ${t("replay.play")}`),
          slider,
        ),
        h("p", { class: "replay-event", id: "replay-event" }, frame.event ? `${frame.event.seq}. ${eventText(frame.event, names)}` : t("replay.start")),
        board,
        h(
          "section",
          { class: "panel all-hands" },
          h("h3", null, t("replay.hands")),
          frame.hands.map((/** @type {string[] | null} */ hand, /** @type {number} */ i) =>
            h(
              "div",
              { class: `hand-row ${v.current === i ? "current" : ""}` },
              h("span", { class: "pname" }, names[i]),
              h(
                "div",
                { class: "mini-hand" },
                (() => {
                  const fresh = prev ? unseen(prev.hands[i] || [], hand || []) : [];
                  return (hand || []).map((c, k) => {
                    const el = cardEl(c, { small: true });
                    if (fresh[k]) el.classList.add("fresh");
                    return el;
                  });
                })(),
              ),
            ),
          ),
        ),
        panel.el,
        h("p", null, h("a", { class: "btn", href: `/api/tables/${tableId}/record`, download: `openrummy-${tableId}.json` }, t("final.download")), " ", h("a", { class: "btn", href: "#/" }, t("nav.lobby"))),
      ),
    );
    panel.setStep(step);
  };

  await load(0);
  panel.load();
  return {
    destroy() {
      alive = false;
      stop();
      panel.destroy();
      document.removeEventListener("keydown", onKey);
      setTiles(false);
    },
  };
}
