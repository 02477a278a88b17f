// @ts-check
/**
 * The analysis panel of the replay: the **Analyse** button, a progress bar while the server
 * judges the game in its workers (`POST` then polling `GET /api/tables/{id}/analysis`), and
 * once done (at once, when the analysis was stored before): the win-chance graph (SVG), the
 * decisions with their grade marks (a move list), each player's accuracy, and for a
 * selected decision the exact best play as the table solver's steps.
 */
import { api } from "./api.js";
import { cardEl, parseItem } from "./cards.js";
import { h, replace } from "./dom.js";
import { getLang, t } from "./i18n.js";
import { errorText, render } from "./messages.js";

/** Line colours of the players in the graph (colour-blind safe). */
const COLOURS = ["#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9"];
const POLL_MS = 700;

/**
 * @typedef {{value: number, low: number, high: number, samples: number}} Chance
 * @typedef {{index: number, round: number, seat: number, action: string, forced: boolean, best: string | null,
 *   facts: any[], before: Chance | null, after: Chance | null, grade: string | null, accuracy: number | null}} Decision
 * @typedef {{game: string, players: string[], finished: boolean, actions: number, samples: number, seed: number,
 *   accuracy: (number | null)[], grades: {[g: string]: number}[], decisions: Decision[],
 *   steps: {[index: string]: {[lang: string]: string[]}}}} Analysis
 */

/**
 * The graph: one line per player through the win chance after each of their graded
 * decisions, a dot where a decision lost ground (coloured by its grade), and a marker at
 * the replay's step.
 * @param {Analysis} a
 * @param {number} step
 * @param {(index: number) => void} onPick
 */
export function winChanceGraph(a, step, onPick) {
  const W = 640;
  const H = 180;
  const pad = { l: 34, r: 8, t: 8, b: 22 };
  const n = Math.max(1, a.actions);
  const x = (/** @type {number} */ i) => pad.l + ((W - pad.l - pad.r) * i) / n;
  const y = (/** @type {number} */ v) => pad.t + (H - pad.t - pad.b) * (1 - v);
  const NS = "http://www.w3.org/2000/svg";
  /** @param {string} tag @param {{[k: string]: string | number}} attrs @param {string} [text] */
  const el = (tag, attrs, text) => {
    const e = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, class: "analysis-graph", id: "analysis-graph", role: "img" });
  svg.setAttribute("aria-label", render({ reason: "analysis.chart.title" }));
  for (const v of [0, 0.5, 1]) {
    svg.append(el("line", { x1: pad.l, x2: W - pad.r, y1: y(v), y2: y(v), class: "grid" }));
    svg.append(el("text", { x: pad.l - 4, y: y(v) + 4, class: "axis", "text-anchor": "end" }, `${Math.round(v * 100)}%`));
  }
  svg.append(el("text", { x: W - pad.r, y: H - 4, class: "axis", "text-anchor": "end" }, render({ reason: "analysis.chart.x" })));
  svg.append(el("line", { x1: x(step), x2: x(step), y1: pad.t, y2: H - pad.b, class: "now", id: "analysis-now" }));
  a.players.forEach((_name, seat) => {
    const pts = a.decisions.filter((d) => d.seat === seat && d.after);
    if (!pts.length) return;
    const colour = COLOURS[seat % COLOURS.length];
    const path = pts.map((d) => `${x(d.index + 1).toFixed(1)},${y(/** @type {Chance} */ (d.after).value).toFixed(1)}`).join(" ");
    svg.append(el("polyline", { points: path, fill: "none", stroke: colour, "stroke-width": 2, class: "line", "data-seat": seat }));
    for (const d of pts) {
      if (!d.grade || d.grade === "good") continue;
      const dot = el("circle", { cx: x(d.index + 1), cy: y(/** @type {Chance} */ (d.after).value), r: 5, class: `mark ${d.grade}`, stroke: colour });
      dot.append(el("title", {}, `${d.index + 1}. ${a.players[d.seat]}: ${render({ reason: `analysis.grade.${d.grade}` })}`));
      dot.addEventListener("click", () => onPick(d.index));
      svg.append(dot);
    }
  });
  return svg;
}

/** @param {Chance | null} c */
const pct = (c) => (c ? `${Math.round(c.value * 100)}%` : "");

/**
 * The panel, kept across the replay's redraws: `el` is re-attached by the page, `setStep`
 * marks the replay's position.
 * @param {string} tableId
 * @param {(step: number) => void} goTo  show the replay at this step
 */
export function analysisPanel(tableId, goTo) {
  const el = h("section", { class: "panel analysis", id: "analysis" });
  /** @type {Analysis | null} */
  let analysis = null;
  /** @type {{done: number, total: number} | null} */
  let progress = null;
  /** @type {string | null} */
  let error = null;
  /** @type {number | null} */
  let picked = null;
  let step = 0;
  /** Only the decisions with findings (facts, or a grade below good) in the list. */
  let onlyFindings = true;
  let alive = true;
  /** @type {ReturnType<typeof setTimeout> | null} */
  let timer = null;

  /** @param {any} state */
  const take = (state) => {
    if (state.status === "done") {
      analysis = state.analysis;
      progress = null;
    } else if (state.status === "running") {
      progress = { done: state.done, total: state.total };
      if (alive && !timer) timer = setTimeout(poll, POLL_MS);
    } else if (state.status === "failed") {
      progress = null;
      error = t("analysis.failed"); // the server's words (English) are for programs and logs
    }
    draw();
  };
  const poll = async () => {
    timer = null;
    if (!alive) return;
    try {
      take(await api("GET", `/api/tables/${tableId}/analysis`));
    } catch (e) {
      error = String(/** @type {any} */ (e).message);
      draw();
    }
  };
  const start = async () => {
    error = null;
    progress = { done: 0, total: 1 };
    draw();
    try {
      take(await api("POST", `/api/tables/${tableId}/analysis`));
    } catch (e) {
      progress = null;
      const err = /** @type {any} */ (e);
      error = t("analysis.refused", { message: errorText(err) });
      draw();
    }
  };

  /** @param {number} index */
  const pick = (index) => {
    picked = index;
    goTo(index);
    draw();
  };

  /** Mark the decision taken at the replay's position (step k is before action k). */
  const markNow = () => {
    for (const li of el.querySelectorAll("#analysis-moves .move")) {
      li.classList.toggle("now", /** @type {HTMLElement} */ (li).dataset.index === String(step));
    }
  };

  const draw = () => {
    if (!analysis) {
      replace(
        el,
        h("h3", null, t("analysis.title")),
        progress
          ? h(
              "div",
              { class: "analysis-progress" },
              h("progress", { id: "analysis-progress", max: Math.max(1, progress.total), value: progress.done }),
              h("span", { class: "muted" }, t("analysis.running", { done: progress.done, total: progress.total })),
            )
          : h("button", { class: "btn primary", id: "analyse-btn", onclick: start }, t("analysis.button")),
        h("p", { class: "muted" }, t("analysis.explain")),
        error ? h("p", { class: "error", id: "analysis-error" }, error) : null,
      );
      return;
    }
    const a = analysis;
    const lang = getLang();
    const chosen = picked === null ? null : a.decisions.find((d) => d.index === picked) || null;
    const noteworthy = a.decisions.filter((d) => d.facts.length || (d.grade && d.grade !== "good"));
    const listed = onlyFindings && noteworthy.length ? noteworthy : a.decisions;
    replace(
      el,
      h("h3", null, t("analysis.title")),
      h("p", { class: "muted" }, t("analysis.settings", { samples: a.samples, seed: a.seed })),
      winChanceGraph(a, step, pick),
      h(
        "ul",
        { class: "analysis-legend" },
        a.players.map((name, seat) =>
          h(
            "li",
            null,
            h("span", { class: "swatch", style: `background:${COLOURS[seat % COLOURS.length]}` }),
            a.accuracy[seat] === null
              ? render({ reason: "analysis.no_accuracy", seat }, a.players)
              : render(
                  { reason: "analysis.accuracy", seat, value: a.accuracy[seat], count: Object.values(a.grades[seat]).reduce((x, y) => x + y, 0) },
                  a.players,
                ),
          ),
        ),
      ),
      chosen ? bestPlay(a, chosen, lang) : null,
      h(
        "label",
        { class: "analysis-filter" },
        h("input", {
          type: "checkbox",
          id: "analysis-only-findings",
          checked: onlyFindings,
          onchange: (/** @type {any} */ e) => {
            onlyFindings = e.target.checked;
            draw();
          },
        }),
        " ",
        t("analysis.only_findings", { n: noteworthy.length, of: a.decisions.length }),
      ),
      h(
        "ol",
        { class: "analysis-moves", id: "analysis-moves" },
        listed.map((d) =>
          h(
            "li",
            {
              class: `move ${d.grade || "ungraded"} ${picked === d.index ? "picked" : ""}`,
              "data-index": d.index,
              tabindex: 0,
              onclick: () => pick(d.index),
              onkeydown: (/** @type {KeyboardEvent} */ e) => e.key === "Enter" && pick(d.index),
            },
            h("span", { class: "no" }, `${d.index + 1}.`),
            h("span", { class: "who" }, a.players[d.seat]),
            h("code", { class: "act" }, d.action.length > 48 ? `${d.action.slice(0, 45)}…` : d.action),
            d.before && d.after ? h("span", { class: "chance" }, `${pct(d.before)} → ${pct(d.after)}`) : null,
            h(
              "span",
              { class: `grade-mark ${d.grade || ""}` },
              d.forced ? render({ reason: "analysis.forced" }) : d.grade ? render({ reason: `analysis.grade.${d.grade}` }) : "–",
            ),
            d.facts.length ? h("span", { class: "facts" }, d.facts.map((f) => render(f, a.players)).join("; ")) : null,
          ),
        ),
      ),
    );
    markNow();
  };

  return {
    el,
    /** Ask for a stored analysis (or one in progress) when the page opens. */
    async load() {
      try {
        take(await api("GET", `/api/tables/${tableId}/analysis`));
      } catch {
        draw();
      }
    },
    /** @param {number} k */
    setStep(k) {
      step = k;
      markNow();
      const now = el.querySelector("#analysis-now");
      if (now && analysis) {
        const svg = /** @type {SVGSVGElement} */ (el.querySelector("svg"));
        const w = svg.viewBox.baseVal.width;
        const xx = 34 + ((w - 34 - 8) * k) / Math.max(1, analysis.actions);
        now.setAttribute("x1", String(xx));
        now.setAttribute("x2", String(xx));
      }
    },
    redraw: () => draw(),
    destroy() {
      alive = false;
      if (timer) clearTimeout(timer);
    },
  };
}

/**
 * The exact best play of a decision: the solver's steps, and its table.
 * @param {Analysis} a
 * @param {Decision} d
 * @param {string} lang
 */
function bestPlay(a, d, lang) {
  const steps = a.steps[String(d.index)];
  const melds = d.best && d.best.startsWith("play") ? d.best.match(/\[[^\]]*\]/g) || [] : [];
  return h(
    "div",
    { class: "analysis-best", id: "analysis-best" },
    h("h4", null, t("analysis.decision", { n: d.index + 1, name: a.players[d.seat] })),
    d.best ? h("p", null, t("analysis.best"), " ", h("code", null, d.best.startsWith("play") ? "" : d.best)) : h("p", null, t("analysis.was_best")),
    steps ? h("ul", { class: "solver-steps" }, (steps[lang] || steps.en).map((s) => h("li", null, s))) : null,
    melds.length
      ? h(
          "div",
          { class: "table-melds best-table" },
          melds.map((m) =>
            h(
              "div",
              { class: "meld" },
              h(
                "div",
                { class: "cards" },
                m
                  .slice(1, -1)
                  .split(" ")
                  .filter(Boolean)
                  .map((tok) => cardEl(parseItem(tok).card, { ident: parseItem(tok).ident, small: true })),
              ),
            ),
          ),
        )
      : null,
  );
}
