// @ts-check
/**
 * The puzzles: `#/puzzles` (the sets, the player's rating, the puzzle of the day) and
 * `#/puzzles/{id}` (one puzzle on the game table's board).
 *
 * A puzzle is *place every card*: the table and the hand are laid out with the game page's
 * board (manip.js, drag.js), the same checks judge each change (`/api/puzzles/{id}/check`),
 * and Done sends the table to `/api/puzzles/{id}/submit`. The server judges it with the
 * engine: any valid table that places every card solves the puzzle. A valid table is a
 * rated attempt (Glicko-2, kept by the server); an invalid one gets the engine's reasons and
 * counts for nothing. The player is a token the server hands out once, kept in this
 * browser's localStorage like the seat tokens.
 */
import { ApiError, api, playerName } from "./api.js";
import { dialog, h, replace, toast } from "./dom.js";
import { onLangChange, getLang, setTiles, t, tn } from "./i18n.js";
import { IndianBoard } from "./indian.js";
import { ManipBoard } from "./manip.js";
import { cardLabel } from "./cards.js";
import { meldLabel, render } from "./messages.js";

const PLAYER_KEY = "openrummy.puzzle_player";
const SET_KEY = "openrummy.puzzle_set";
export const SETS = ["rummikub", "robbers", "indian"];

/**
 * A refused request in the player's language (the catalogue words the server's codes).
 * @param {any} e
 */
export function apiErrorText(e) {
  if (e instanceof ApiError) {
    const text = render({ reason: `server.${e.code}` });
    if (text && text !== `server.${e.code}`) return text;
  }
  return String(e?.message ?? e);
}

/** The puzzle player's token: made by the server on first use, kept in localStorage. */
export async function playerToken() {
  const saved = localStorage.getItem(PLAYER_KEY);
  if (saved) return saved;
  const name = playerName();
  const res = await api("POST", "/api/puzzles/players", name ? { name } : {});
  localStorage.setItem(PLAYER_KEY, res.token);
  return /** @type {string} */ (res.token);
}

/**
 * A request as the puzzle player; a token the server no longer knows is replaced once.
 * @param {string} method @param {string} path @param {any} [body]
 */
async function asPlayer(method, path, body) {
  try {
    return await api(method, path, body, await playerToken());
  } catch (e) {
    if (e instanceof ApiError && e.code === "no_player") {
      localStorage.removeItem(PLAYER_KEY);
      return await api(method, path, body, await playerToken());
    }
    throw e;
  }
}

/** @param {any} p the player as the server sends it */
function ratingLine(p) {
  return h(
    "p",
    { class: "puzzle-rating", id: "player-rating", "data-rating": p.rating },
    t("puzzle.your_rating", { rating: p.rating, deviation: p.deviation }),
    " · ",
    t("puzzle.played", { solved: p.solved, attempts: p.attempts }),
  );
}

/**
 * Open the next puzzle of a set (near the player's rating) or the puzzle of the day.
 * @param {string} set @param {"next" | "daily"} which @param {string | null} [after]
 */
async function openPuzzle(set, which, after = null) {
  localStorage.setItem(SET_KEY, set);
  try {
    const q = `set=${encodeURIComponent(set)}${after ? `&after=${encodeURIComponent(after)}` : ""}`;
    const p = await asPlayer("GET", `/api/puzzles/${which}?${q}`);
    location.hash = `#/puzzles/${p.id}`;
  } catch (e) {
    toast(apiErrorText(e), "bad");
  }
}

/**
 * `#/puzzles`: the sets, the player's rating, the puzzle of the day.
 * @param {HTMLElement} root
 */
export async function puzzlesIndex(root) {
  replace(root, h("div", { class: "panel" }, t("table.loading")));
  /** @type {any} */
  let me;
  /** @type {any[]} */
  let sets;
  try {
    [me, sets] = await Promise.all([asPlayer("GET", "/api/puzzles/me"), api("GET", "/api/puzzles")]);
  } catch (e) {
    replace(root, h("div", { class: "panel error" }, apiErrorText(e)));
    return;
  }
  replace(
    root,
    h(
      "div",
      { class: "puzzles-index" },
      h("section", { class: "panel" }, h("h2", null, "🧩 ", t("puzzle.sets_title")), h("p", null, t("puzzle.intro")), ratingLine(me)),
      sets.map((s) =>
        h(
          "section",
          { class: "panel puzzle-set", "data-set": s.set },
          h("h3", null, t(`puzzle.set.${s.set}`)),
          h("p", null, t(`puzzle.set_help.${s.set}`)),
          h("p", { class: "muted" }, tn("puzzle.count", s.count)),
          h(
            "div",
            { class: "row" },
            h("button", { class: "btn primary", id: `next-${s.set}`, onclick: () => openPuzzle(s.set, "next") }, t("puzzle.next")),
            h("button", { class: "btn", id: `daily-${s.set}`, onclick: () => openPuzzle(s.set, "daily") }, "📅 ", t("puzzle.daily")),
          ),
        ),
      ),
    ),
  );
}

/** The board of the game page, told to judge against the puzzle instead of a table. */
class PuzzleBoard extends ManipBoard {
  /** @param {PuzzlePage} page */
  constructor(page) {
    super(/** @type {any} */ (page));
    this.page = page;
  }

  checkPath() {
    return `/api/puzzles/${this.page.id}/check`;
  }

  async askHint() {
    if (this.hintBusy) return;
    this.hintBusy = true;
    this.page.render();
    try {
      const res = await asPlayer("POST", `/api/puzzles/${this.page.id}/hint`, { lang: getLang() });
      this.hint = { found: true, count: this.page.puzzle.hand.length, goes_out: true, steps: res.step ? [res.step] : [], table: null, applied: true };
      this.page.hinted = true;
    } catch (e) {
      toast(apiErrorText(e), "bad");
    }
    this.hintBusy = false;
    this.page.render();
  }

  hintPanel() {
    const el = super.hintPanel();
    if (this.hint?.solution) {
      const title = el.querySelector("h3");
      if (title) title.textContent = `📖 ${t("puzzle.solution")}`;
    }
    return el;
  }

  actionBar() {
    if (!this.page.finished) return super.actionBar();
    return h("div", { class: "action-bar", role: "toolbar" }, h("span", { class: "muted" }, t("puzzle.finished_bar")));
  }

  /** Send the table: the server judges it and rates a valid one. */
  async done() {
    if (!(await this.judgedBeforeSending())) return;
    const left = this.check?.valid ? this.check.left : 0;
    if (left > 0 && !this.page.rated) {
      const ok = await dialog({
        title: t("puzzle.left_title"),
        tone: "warn",
        body: [h("p", null, tn("puzzle.left_body", left))],
        buttons: [
          { label: t("btn.back"), value: false },
          { label: t("manip.submit_anyway"), value: true, kind: "danger" },
        ],
      });
      if (!ok) return;
    }
    this.busy = true;
    await this.page.submit(this.tableText(), this.retrievals.map((r) => r.text));
    this.busy = false;
  }
}

/** The Indian Rummy board of the game page: the hand judged against the puzzle, no
 * auto-arrangement (it would give the answer away), actions sent as the puzzle's answer. */
class PuzzleIndianBoard extends IndianBoard {
  /** @param {PuzzlePage} page */
  constructor(page) {
    super(/** @type {any} */ (page));
    this.page = page;
  }

  /** @param {{auto?: boolean, finish?: string | null}} [opts] */
  async askHand(opts = {}) {
    const groups = this.groups.map((g) => g.map((i) => i.card));
    return api("POST", `/api/puzzles/${this.page.id}/hand`, { groups, finish: opts.finish ?? null, auto: false });
  }

  async autoArrange() {}

  /** Declare with the selected card: the server says whether it is valid (nothing is lost). */
  async declare() {
    const finish = this.selectedCard;
    if (!finish) {
      toast(t("indian.pick_finish"), "warn");
      return;
    }
    await this.act(`declare ${finish} ${this.groupText(finish)}`);
  }

  actionBar() {
    if (this.page.finished) return h("div", { class: "action-bar", role: "toolbar" }, h("span", { class: "muted" }, t("puzzle.finished_bar")));
    const bar = super.actionBar();
    bar.querySelector("#auto-btn")?.remove();
    if (this.page.puzzle.kind === "safe_throw") bar.querySelector("#declare-btn")?.remove();
    return bar;
  }
}

/** One puzzle on screen: what the board reads as its "table context". */
export class PuzzlePage {
  /** @param {HTMLElement} root @param {string} id */
  constructor(root, id) {
    this.root = root;
    this.id = id;
    /** @type {any} */ this.puzzle = null;
    /** @type {any} */ this.rules = null;
    /** @type {any} */ this.view = null;
    /** @type {any} */ this.me = null;
    /** @type {any} */ this.result = null;
    /** @type {any} */ this.solution = null;
    /** @type {any} */ this.hint = null;
    /** @type {PuzzleBoard | PuzzleIndianBoard | null} */ this.board = null;
    /** @type {string | null} */ this.token = null;
    this.seat = 0;
    this.finished = false;
    this.rated = false;
    this.hinted = false;
    this.closed = false;
    onLangChange(() => {
      if (!this.closed && this.board) this.render();
    });
  }

  get myTurn() {
    return !this.finished;
  }

  get indian() {
    return this.puzzle?.rules?.family === "indian";
  }

  get names() {
    return [this.me?.name || t("lobby.you")];
  }

  /**
   * The board acts: in an Indian puzzle its action (a throw, a draw, a declaration) is the
   * answer; a place-every-card puzzle sends its table with Done instead.
   * @param {string} action
   */
  async send(action) {
    if (!this.indian || this.finished) return { type: "ignored" };
    try {
      this.record(await asPlayer("POST", `/api/puzzles/${this.id}/answer`, { answer: action }));
    } catch (e) {
      toast(apiErrorText(e), "bad");
    }
    this.render();
    return { type: "answered" };
  }

  /** @param {any} res the server's verdict on an answer */
  record(res) {
    this.result = res;
    this.me = res.player;
    if (res.rated) {
      this.rated = true;
      this.puzzle.rating = res.puzzle_rating;
    }
    if (res.solved) this.finished = true;
  }

  async start() {
    try {
      this.token = await playerToken();
      this.puzzle = await asPlayer("GET", `/api/puzzles/${encodeURIComponent(this.id)}`);
      this.me = await asPlayer("GET", "/api/puzzles/me");
    } catch (e) {
      replace(this.root, h("div", { class: "panel error" }, h("h2", null, t("puzzle.not_found")), h("p", null, apiErrorText(e)), h("a", { href: "#/puzzles" }, t("nav.puzzles"))));
      return;
    }
    if (this.closed) return;
    this.token = localStorage.getItem(PLAYER_KEY);
    const p = this.puzzle;
    this.rules = p.rules;
    this.rated = !!p.attempt?.rated;
    this.hinted = !!p.attempt?.hinted;
    setTiles(!!this.rules.tiles);
    if (this.indian) {
      this.view = indianView(p);
      this.board = new PuzzleIndianBoard(this);
      this.board.onView(this.view);
      this.render();
      return;
    }
    this.view = {
      family: "manipulation",
      game: p.game,
      seat: 0,
      players: 1,
      dealer: 0,
      current: 0,
      phase: "START",
      table: p.table.map((/** @type {string} */ m) => m.replace(/[[\]]/g, " ").trim().split(/\s+/).filter(Boolean)),
      hand_sizes: [p.hand.length],
      stock: 0,
      discard_top: null,
      discard_size: 0,
      opened: [true],
      pass_count: 0,
      retrieved: [null],
      time_left: null,
      legal: ["play"],
      hand: p.hand,
      outcome: null,
    };
    this.board = new PuzzleBoard(this);
    this.board.onView(this.view);
    this.render();
  }

  destroy() {
    this.closed = true;
    this.board?.detach?.();
    setTiles(false);
  }

  /** @param {string[]} table @param {string[]} retrievals */
  async submit(table, retrievals) {
    try {
      this.record(await asPlayer("POST", `/api/puzzles/${this.id}/submit`, { table, retrievals }));
    } catch (e) {
      toast(apiErrorText(e), "bad");
    }
    this.render();
  }

  async giveUp() {
    if (!this.rated) {
      const ok = await dialog({
        title: t("puzzle.give_up_title"),
        tone: "warn",
        body: [h("p", null, t("puzzle.give_up_body"))],
        buttons: [
          { label: t("btn.back"), value: false },
          { label: t("puzzle.give_up"), value: true, kind: "danger" },
        ],
      });
      if (!ok) return;
    }
    try {
      const res = await asPlayer("POST", `/api/puzzles/${this.id}/solution`, { lang: getLang() });
      if (res.rated) {
        this.rated = true;
        this.me = res.player;
        this.puzzle.rating = res.puzzle_rating;
        this.result = { ...res, valid: true, solved: false, messages: [], gave_up: true };
      }
      if (this.indian) this.solution = res;
      else if (this.board instanceof PuzzleBoard) this.board.hint = { found: true, count: this.puzzle.hand.length, goes_out: true, steps: res.steps, table: res.table, solution: true };
    } catch (e) {
      toast(apiErrorText(e), "bad");
    }
    this.render();
  }

  /** Indian: the first group of the declaration. */
  async askHint() {
    try {
      this.hint = await asPlayer("POST", `/api/puzzles/${this.id}/hint`, { lang: getLang() });
      this.hinted = true;
    } catch (e) {
      toast(apiErrorText(e), "bad");
    }
    this.render();
  }

  /** Indian: the answer, in words. */
  solutionPanel() {
    const s = this.solution;
    const kind = this.puzzle.kind;
    /** @type {any[]} */
    const lines = [];
    if (kind === "winning_draw") lines.push(s.draw === "take" ? t("puzzle.answer_take", { card: cardLabel(this.puzzle.discard[this.puzzle.discard.length - 1]) }) : t("puzzle.answer_draw"));
    if (kind === "safe_throw") lines.push(t("puzzle.answer_throw", { card: cardLabel(s.card) }));
    if (kind === "declare") lines.push(t("puzzle.answer_declare", { card: cardLabel(s.card) }));
    if (kind !== "safe_throw" && s.groups?.length) lines.push(s.groups.map(meldLabel).join(" "));
    return h("section", { class: "panel hint", id: "solution-panel" }, h("h3", null, "📖 ", t("puzzle.solution")), lines.map((l) => h("p", null, l)));
  }

  resultPanel() {
    const r = this.result;
    if (!r) return null;
    const change = r.rated ? h("p", { id: "rating-change" }, t("puzzle.rating_change", { before: r.rating_before, after: r.player.rating, change: r.change > 0 ? `+${r.change}` : String(r.change) })) : null;
    if (!r.valid) {
      return h(
        "div",
        { class: "notice fail", role: "alert", id: "puzzle-result", "data-result": "invalid" },
        h("p", null, t("puzzle.invalid")),
        h("ul", null, r.messages.map((/** @type {any} */ m) => h("li", null, render(m)))),
      );
    }
    if (r.solved) {
      return h(
        "div",
        { class: "notice ok", role: "status", id: "puzzle-result", "data-result": "solved" },
        h("strong", null, "🎉 ", t("puzzle.solved")),
        change ?? h("p", null, t("puzzle.unrated")),
      );
    }
    return h(
      "div",
      { class: "notice fail", role: "status", id: "puzzle-result", "data-result": r.gave_up ? "gave_up" : "not_solved" },
      h("strong", null, t("puzzle.not_solved")),
      r.messages?.length ? h("p", null, r.messages.map((/** @type {any} */ m) => render(m)).join("; ")) : null,
      change ?? h("p", null, t("puzzle.unrated")),
    );
  }

  render() {
    if (this.closed || !this.board) return;
    const p = this.puzzle;
    const set = p.set;
    const head = h(
      "section",
      { class: "panel puzzle-head" },
      h(
        "div",
        { class: "row spread" },
        h("h2", null, "🧩 ", t("puzzle.title", { game: t(`preset.${p.game}`) }), " ", h("span", { class: "muted", id: "puzzle-rating" }, t("puzzle.rating", { rating: p.rating }))),
        h("a", { href: "#/puzzles", class: "btn small" }, t("puzzle.all")),
      ),
      h("p", { class: "puzzle-task" }, render({ reason: `puzzle.task.${p.kind}`, count: p.hand.length, card: p.discard?.[p.discard.length - 1] })),
      ratingLine(this.me),
      this.rated && !this.result ? h("p", { class: "muted" }, t("puzzle.unrated")) : null,
      h(
        "div",
        { class: "row" },
        this.indian && p.kind === "declare" ? h("button", { class: "btn", id: "puzzle-hint-btn", onclick: () => this.askHint() }, "💡 ", t("btn.hint")) : null,
        h("button", { class: "btn", id: "solution-btn", onclick: () => this.giveUp() }, "📖 ", t("puzzle.show_solution")),
        h("button", { class: `btn ${this.finished ? "primary" : ""}`, id: "next-btn", onclick: () => openPuzzle(set, "next", this.id) }, t("puzzle.next"), " →"),
        h("button", { class: "btn", id: "daily-btn", onclick: () => openPuzzle(set, "daily") }, "📅 ", t("puzzle.daily")),
      ),
      this.resultPanel(),
      this.hint ? h("p", { class: "notice", id: "puzzle-hint" }, "💡 ", t("puzzle.hint_group", { group: meldLabel(this.hint.group) })) : null,
      this.solution ? this.solutionPanel() : null,
    );
    replace(this.root, h("div", { class: `puzzle-page fam-${this.rules.family} ${this.finished ? "finished" : ""}` }, head, h("div", { class: "main-col" }, this.board.render())));
  }
}

/**
 * `#/puzzles/{id}`.
 * @param {HTMLElement} root @param {string} id
 */
export function puzzlePage(root, id) {
  const page = new PuzzlePage(root, id);
  page.start();
  return page;
}

/**
 * An Indian puzzle as the view the board reads: the hand after the draw (declare, the one
 * safe throw: discard or declare) or before it (the draw that wins: take or draw).
 * @param {any} p
 * @returns {any}
 */
function indianView(p) {
  const drawing = p.kind === "winning_draw";
  const pile = p.discard || [];
  return {
    family: "indian",
    game: p.game,
    seat: 0,
    players: 2,
    dealer: 1,
    current: 0,
    phase: drawing ? "START" : "DISCARD",
    indicator: p.indicator,
    wild_rank: p.wild_rank,
    hand_sizes: [p.hand.length, null],
    stock: 20,
    discard_pile: pile,
    discard_top: pile.length ? pile[pile.length - 1] : null,
    statuses: ["ACTIVE", "ACTIVE"],
    draws: [drawing ? 0 : 1, 0],
    penalties: [null, null],
    taken: null,
    may_discard_taken: false,
    legal: drawing ? ["draw", "take"] : p.kind === "declare" ? ["discard", "declare"] : ["discard"],
    hand: p.hand,
    time_left: null,
    outcome: null,
  };
}
