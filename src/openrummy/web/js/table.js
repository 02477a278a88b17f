// @ts-check
/**
 * A table: waiting room, live game (WebSocket protocol v1, docs/protocol.md), round
 * summaries, the end of the game with its revealed seed, and the game log.
 * The family's own board comes from manip.js or indian.js.
 */
import { api, keys, playerName, saveKeys, savePlayerName } from "./api.js";
import { cardEl } from "./cards.js";
import { clockText, timerParts } from "./clock.js";
import { OpponentTurns, roundDrops, tableChange } from "./turns.js";
import { unseen } from "./order.js";
import { $, dialog, h, replace, toast } from "./dom.js";
import { eventText } from "./events.js";
import { errorText, render, renderAll } from "./messages.js";
import { getLang, onLangChange, setTiles, t } from "./i18n.js";
import { IndianBoard } from "./indian.js";
import { ManipBoard } from "./manip.js";

/** @typedef {import("./events.js").GameEvent} GameEvent */

export class TableContext {
  /** @param {HTMLElement} root @param {string} tableId */
  constructor(root, tableId) {
    this.root = root;
    this.id = tableId;
    /** @type {any} */ this.table = null;
    /** @type {any} */ this.rules = null;
    /** @type {any} */ this.view = null;
    this.seq = 0;
    /** @type {number | null} */ this.seat = null;
    this.role = "spectator";
    /** @type {GameEvent[]} */ this.log = [];
    /** @type {WebSocket | null} */ this.ws = null;
    /** @type {number | null} */ this.deadline = null; // in our clock
    /** @type {any} */ this.reveal = null;
    this.lastRoundSeen = -1;
    /** @type {any} */ this.board = null;
    this.msgId = 0;
    /** @type {Map<string, (msg: any) => void>} */ this.pending = new Map();
    this.closed = false;
    this.retry = 0;
    /** @type {any} */ this.summary = null; // the round summary on show
    this.summaryOpen = false;
    this.finalShown = false;
    /** @type {string | null} */ this.failure = null;
    this.timer = setInterval(() => this.tick(), 500);
    /** @type {any} */ this.later = null;
    this.ticks = 0;
    /** @type {string | null} */ this.draftName = null;
    this.polling = false;
    this.wasMyTurn = false;
    /** @type {string | null} */ this.rematchId = null;
    /** The other players' moves since mine, to step through. */
    this.turns = new OpponentTurns();
    /** @type {ReturnType<typeof setInterval> | null} */ this.stepTimer = null;
    this.pageTitle = document.title;
    onLangChange(() => this.render());
  }

  get token() {
    return keys(this.id).token || null;
  }

  get names() {
    return (this.table?.seats || []).map((/** @type {any} */ s) => {
      // A computer player with the server's default name is named in the page's language.
      if (s.kind === "bot" && s.bot && s.name === `${s.bot.charAt(0).toUpperCase()}${s.bot.slice(1)} bot ${s.seat + 1}`) {
        return t("bot.default_name", { level: t(`bot.${s.bot}`), n: s.seat + 1 });
      }
      return s.name || t("seat.n", { n: s.seat + 1 });
    });
  }

  get myTurn() {
    return this.view && this.seat !== null && this.view.current === this.seat && !this.view.match?.outcome;
  }

  async start() {
    try {
      this.table = await api("GET", `/api/tables/${this.id}`);
      this.rules = await api("GET", `/api/tables/${this.id}/rules`);
    } catch (e) {
      replace(this.root, h("div", { class: "panel error" }, h("h2", null, t("table.not_found")), h("a", { href: "#/" }, t("nav.lobby"))));
      return;
    }
    setTiles(!!this.rules.tiles);
    this.board = this.rules.family === "indian" ? new IndianBoard(this) : new ManipBoard(this);
    this.connect();
    this.render();
  }

  destroy() {
    this.closed = true;
    delete this.root.dataset.live;
    this.board?.detach?.();
    clearInterval(this.timer);
    this.stopSteps();
    this.ws?.close();
    document.title = this.pageTitle;
    setTiles(false);
  }

  // -- connection -------------------------------------------------------------------------
  connect() {
    if (this.closed) return;
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${proto}://${location.host}/ws/tables/${this.id}`);
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 0;
      ws.send(JSON.stringify({ type: "hello", v: 2, token: this.token }));
    };
    ws.onmessage = (ev) => this.onMessage(JSON.parse(ev.data));
    ws.onclose = () => {
      if (this.closed) return;
      delete this.root.dataset.live;
      this.retry = Math.min(this.retry + 1, 6);
      setTimeout(() => this.connect(), 300 * 2 ** this.retry);
    };
  }

  /** @param {any} msg */
  onMessage(msg) {
    switch (msg.type) {
      case "welcome":
        this.table = msg.table;
        this.role = msg.role;
        this.seat = msg.seat;
        this.log = msg.log || [];
        // Rounds that ended before this page came are not summarised again.
        if (this.lastRoundSeen < 0) this.lastRoundSeen = msg.view?.match?.last_round?.index ?? -1;
        this.setView(msg.view, msg.seq, msg.now, msg.deadline);
        if (msg.table.game?.seed) this.reveal = { seed: msg.table.game.seed, commitment: msg.table.game.commitment, record: `/api/tables/${this.id}/record` };
        this.render();
        // The page is live: what it shows is the server's state, drawn once more from here on
        // only when that state changes (a button drawn now stays under the pointer).
        this.root.dataset.live = "1";
        break;
      case "update": {
        this.log.push(msg.event);
        if (this.log.length > 400) this.log.shift();
        const mine = msg.event.seat === this.seat;
        if (mine && !msg.event.accepted && this.rules.family === "manipulation") {
          const data = msg.event.data || {};
          const n = data.penalty ?? this.rules.penalty_draw;
          this.failure = t("fail.banner", { reason: data.violations ? renderAll(data.violations) : msg.event.text, n });
        } else if (mine) this.failure = null;
        this.turns.record(this.view, msg.event, msg.view, this.seat);
        if (!this.turns.open) this.stopSteps();
        this.setView(msg.view, msg.seq, msg.now, msg.deadline);
        this.resolve(msg.reply_to, msg);
        this.render();
        break;
      }
      case "table":
        this.table = msg.table;
        if (msg.table.status !== "open" && !this.view) this.ws?.send(JSON.stringify({ type: "sync" }));
        this.render();
        break;
      case "notice":
        toast(msg.data ? render(msg.data, this.names) : msg.text);
        break;
      case "reveal":
        this.reveal = msg;
        this.render();
        break;
      case "error":
        this.resolve(msg.reply_to, msg);
        if (msg.code === "stale") this.ws?.send(JSON.stringify({ type: "sync" }));
        toast(errorText(msg), "bad");
        break;
      default:
        break;
    }
  }

  /** @param {any} view @param {number} seq @param {number} now @param {number | null} deadline */
  setView(view, seq, now, deadline) {
    this.view = view;
    this.seq = seq;
    this.deadline = deadline ? Date.now() / 1000 + (deadline - now) : null;
    const last = view?.match?.last_round;
    if (last && last.index > this.lastRoundSeen) {
      this.lastRoundSeen = last.index;
      this.summary = last;
      this.summaryOpen = true;
    }
    this.board?.onView(view);
  }

  /** @param {any} replyTo @param {any} msg */
  resolve(replyTo, msg) {
    if (replyTo === null || replyTo === undefined) return;
    const f = this.pending.get(String(replyTo));
    if (f) {
      this.pending.delete(String(replyTo));
      f(msg);
    }
  }

  /**
   * Send an action in the game's notation; resolves with the server's update or error.
   * @param {string} action
   * @returns {Promise<any>}
   */
  send(action) {
    const id = `a${++this.msgId}`;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.ws?.send(JSON.stringify({ type: "action", id, seq: this.seq, action }));
      setTimeout(() => {
        if (this.pending.delete(id)) resolve({ type: "error", code: "timeout", message: "no answer" });
      }, 15000);
    });
  }

  /** While seats fill, look at the table now and then too: a join may cross our hello. */
  async pollWaiting() {
    if (this.closed || this.table?.status !== "open" || this.polling) return;
    this.polling = true;
    try {
      const info = await api("GET", `/api/tables/${this.id}`);
      if (JSON.stringify(info) !== JSON.stringify(this.table) && this.table?.status === "open") {
        this.table = info;
        if (info.status !== "open") this.ws?.send(JSON.stringify({ type: "sync" }));
        this.render();
      }
    } catch {
      /* the next look will do */
    }
    this.polling = false;
  }

  tick() {
    if (++this.ticks % 4 === 0) this.pollWaiting();
    if (this.ticks % 6 === 0) this.pollRematch();
    const el = document.getElementById("turn-timer");
    if (!el) return;
    if (this.deadline === null || !this.view || this.view.match?.outcome) {
      el.textContent = "";
      return;
    }
    // Indian Rummy's time bank: the turn's own time first, then the seat's bank.
    const bank = this.view.time_bank ? this.view.time_bank[this.view.current] : null;
    const parts = timerParts(this.deadline - Date.now() / 1000, bank);
    el.textContent = `⏱ ${clockText(parts.turn)}` + (bank ? ` · ${t("timer.bank", { time: clockText(parts.bank) })}` : "");
    el.classList.toggle("low", parts.turn + parts.bank <= 15);
    el.classList.toggle("in-bank", parts.inBank);
  }

  /** After the game: has another player asked for a rematch? */
  async pollRematch() {
    if (this.closed || this.rematchId || this.seat === null || !(this.view?.match?.outcome || this.table?.status === "closed")) return;
    try {
      const r = await api("GET", `/api/tables/${this.id}/rematch`);
      this.rematchId = r.table_id;
      this.render();
    } catch {
      /* none yet */
    }
  }

  /** The same seats and rules with a new seed: create the table, or take my seat at it. */
  async rematch() {
    try {
      const r = await api("POST", `/api/tables/${this.id}/rematch`, undefined, this.token);
      saveKeys(r.table_id, { seat: r.seat, token: r.token, name: keys(this.id).name, ...(r.creator_token ? { creator: r.creator_token } : {}) });
      location.hash = `#/t/${r.table_id}`;
    } catch (err) {
      toast(String(/** @type {any} */ (err).message), "bad");
    }
  }

  rematchButton() {
    if (this.seat === null || !this.token) return null;
    return h("button", { class: "btn", id: "rematch-btn", onclick: () => this.rematch() }, this.rematchId ? t("final.rematch_join") : t("final.rematch"));
  }

  /** Give up my seat (a stand-in plays on in a running game) and go to the lobby. */
  async leave() {
    const running = this.table.status === "running";
    const ok = await dialog({
      title: t("table.leave_title"),
      tone: "warn",
      body: h("p", null, running ? t("table.leave_running") : t("table.leave_open")),
      buttons: [
        { label: t("btn.back"), value: false },
        { label: t("table.leave"), value: true, kind: "danger" },
      ],
    });
    if (!ok) return;
    try {
      await api("POST", `/api/tables/${this.id}/leave`, undefined, this.token);
      saveKeys(this.id, { seat: null, token: null });
      location.hash = "#/";
    } catch (err) {
      toast(String(/** @type {any} */ (err).message), "bad");
    }
  }

  /** The host closes the table (an open one is cancelled and leaves the lobby's list). */
  async closeTable() {
    const open = this.table.status === "open";
    const ok = await dialog({
      title: open ? t("table.cancel_title") : t("table.close_title"),
      tone: "warn",
      body: h("p", null, open ? t("table.cancel_body") : t("table.close_body")),
      buttons: [
        { label: t("btn.back"), value: false },
        { label: open ? t("table.cancel") : t("table.close"), value: true, kind: "danger" },
      ],
    });
    if (!ok) return;
    try {
      await api("POST", `/api/tables/${this.id}/close`, undefined, keys(this.id).creator);
      location.hash = "#/";
    } catch (err) {
      toast(String(/** @type {any} */ (err).message), "bad");
    }
  }

  /** The tab's title carries a badge on my turn, and a sound plays if the player wants one. */
  notifyTurn() {
    const mine = !!this.myTurn;
    document.title = mine ? `● ${t("status.your_turn")} — ${this.table?.title ?? "OpenRummy"}` : this.table?.title ? `${this.table.title} — OpenRummy` : this.pageTitle;
    if (mine && !this.wasMyTurn && soundOn()) beep();
    this.wasMyTurn = mine;
  }

  /** Buttons of the table head: sound, leave, close or cancel. */
  tableButtons() {
    const k = keys(this.id);
    const live = this.table.status === "open" || this.table.status === "running";
    const sound = soundOn();
    return h(
      "div",
      { class: "row table-buttons" },
      this.seat !== null
        ? h(
            "button",
            {
              class: "btn small",
              id: "sound-btn",
              "aria-pressed": sound ? "true" : "false",
              title: t("table.sound_help"),
              onclick: () => {
                setSound(!sound);
                this.render();
              },
            },
            sound ? "🔔 " : "🔕 ",
            t("table.sound"),
          )
        : null,
      live && k.token && this.seat !== null ? h("button", { class: "btn small", id: "leave-btn", onclick: () => this.leave() }, t("table.leave")) : null,
      live && k.creator ? h("button", { class: "btn small danger", id: "close-btn", onclick: () => this.closeTable() }, this.table.status === "open" ? t("table.cancel") : t("table.close")) : null,
    );
  }

  // -- rendering --------------------------------------------------------------------------
  render() {
    if (!this.table || this.closed) return;
    if (document.body.classList.contains("is-dragging")) {
      // Never pull the board from under a dragging hand: render when the card is dropped.
      clearTimeout(this.later);
      this.later = setTimeout(() => this.render(), 120);
      return;
    }
    const active = /** @type {HTMLElement | null} */ (document.activeElement);
    const focusKey = active?.dataset?.id || active?.dataset?.drop || active?.dataset?.key || null;
    if (this.table.status === "open") replace(this.root, this.waitingRoom());
    else if (!this.view) replace(this.root, h("div", { class: "panel" }, t("table.loading")));
    else replace(this.root, this.game());
    this.notifyTurn();
    if (focusKey) {
      const el = /** @type {HTMLElement | null} */ (
        this.root.querySelector(`[data-id="${CSS.escape(focusKey)}"], [data-drop="${CSS.escape(focusKey)}"], [data-key="${CSS.escape(focusKey)}"]`)
      );
      el?.focus();
    }
    this.tick();
  }

  waitingRoom() {
    const k = keys(this.id);
    const link = `${location.origin}/#/t/${this.id}`;
    const free = this.table.seats.filter((/** @type {any} */ s) => s.kind === "human" && !s.taken);
    const seated = k.token && k.seat !== undefined && k.seat !== null;
    // What is typed survives a re-render (a seat may be taken while one types).
    const nameInput = /** @type {HTMLInputElement} */ (
      h("input", {
        id: "join-name",
        "data-key": "join-name",
        value: this.draftName ?? playerName(),
        maxlength: 32,
        placeholder: t("lobby.your_name"),
        oninput: (/** @type {any} */ e) => {
          this.draftName = e.target.value;
        },
      })
    );
    return h(
      "div",
      { class: "panel waiting" },
      h("div", { class: "row spread" }, h("h2", null, this.table.title), this.tableButtons()),
      h("p", { class: "muted" }, presetTitle(this.table.preset), " · ", t("waiting.status")),
      h(
        "ol",
        { class: "seat-list" },
        this.table.seats.map((/** @type {any} */ s) =>
          h(
            "li",
            { class: s.seat === k.seat ? "me" : "" },
            s.kind === "bot" ? `🤖 ${s.name} (${t(`bot.${s.bot}`)})` : s.taken ? `👤 ${s.name}` : h("span", { class: "muted" }, t("waiting.free")),
          ),
        ),
      ),
      h(
        "div",
        { class: "share" },
        h("label", { for: "share-link" }, t("waiting.share")),
        h(
          "div",
          { class: "row" },
          h("input", { id: "share-link", readonly: true, value: link, onclick: (/** @type {any} */ e) => e.target.select() }),
          h(
            "button",
            {
              class: "btn small",
              type: "button",
              onclick: async () => {
                try {
                  await navigator.clipboard.writeText(link);
                  toast(t("waiting.copied"), "ok");
                } catch {
                  /** @type {HTMLInputElement} */ (document.getElementById("share-link")).select();
                }
              },
            },
            t("waiting.copy"),
          ),
        ),
      ),
      !seated && free.length
        ? h(
            "form",
            {
              class: "row",
              onsubmit: async (/** @type {Event} */ e) => {
                e.preventDefault();
                const name = nameInput.value.trim();
                if (!name) return nameInput.focus();
                savePlayerName(name);
                try {
                  const r = await api("POST", `/api/tables/${this.id}/join`, { name });
                  saveKeys(this.id, { seat: r.seat, token: r.token, name });
                  this.ws?.send(JSON.stringify({ type: "hello", v: 2, token: r.token }));
                } catch (err) {
                  toast(String(/** @type {any} */ (err).message), "bad");
                }
              },
            },
            nameInput,
            h("button", { class: "btn primary", type: "submit", id: "join-btn" }, t("waiting.join")),
          )
        : null,
      k.creator
        ? h(
            "div",
            { class: "row" },
            h("button", { class: "btn primary", id: "start-btn", onclick: () => this.startGame(free.length > 0) }, free.length ? t("waiting.start_bots") : t("waiting.start")),
          )
        : h("p", { class: "muted" }, t("waiting.host_starts")),
    );
  }

  /** @param {boolean} fill */
  async startGame(fill) {
    const k = keys(this.id);
    try {
      const family = this.table.family;
      const body = fill ? { fill_with_bots: family === "indian" ? "strategic" : "simple" } : {};
      await api("POST", `/api/tables/${this.id}/start`, body, k.creator);
    } catch (err) {
      toast(String(/** @type {any} */ (err).message), "bad");
    }
  }

  game() {
    const v = this.view;
    const over = !!v.match?.outcome;
    const page = h(
      "div",
      { class: `table-page fam-${this.rules.family}` },
      this.headBar(),
      this.playersBar(),
      h("div", { class: "main-col" }, this.turns.open ? this.stepsPanel() : null, this.table.status === "closed" ? h("div", { class: "notice fail row spread", role: "status" }, t("table.closed"), this.rematchButton()) : null, this.board.render(), this.failure ? h("div", { class: "notice fail", role: "alert", id: "fail-banner" }, this.failure) : null),
      h("aside", { class: "side-col" }, this.scoreboard(), this.logPanel()),
    );
    if (over && !this.summaryOpen) page.appendChild(this.finalPanel());
    if (this.summaryOpen && this.summary) page.appendChild(this.summaryPanel(this.summary, over));
    return page;
  }

  headBar() {
    const v = this.view;
    let status;
    if (v.match?.outcome) status = t("status.over");
    else if (this.myTurn) status = t("status.your_turn");
    else status = t("status.turn_of", { name: this.names[v.current] || "?" });
    return h(
      "div",
      { class: "table-head" },
      h("div", { class: "title" }, h("strong", null, this.table.title), h("span", { class: "muted" }, " · ", presetTitle(this.table.preset), " · ", this.roundText())),
      h("div", { class: `status ${this.myTurn ? "mine" : ""}`, id: "turn-status", "aria-live": "polite" }, status, " ", h("span", { id: "turn-timer", class: "timer" })),
      this.role === "spectator" ? h("span", { class: "badge" }, t("table.watching")) : null,
      h(
        "button",
        { class: "btn small", id: "last-turn-btn", disabled: !this.turns.steps.length, title: t("steps.replay_help"), onclick: () => this.playSteps() },
        "⏪ ",
        t("steps.replay"),
      ),
      this.tableButtons(),
    );
  }

  /** Step through the other players' last moves, one step every 1.2 seconds. */
  playSteps() {
    this.stopSteps();
    this.turns.start();
    if (this.turns.open) {
      this.stepTimer = setInterval(() => {
        if (!this.turns.move(1)) this.stopSteps();
        this.render();
      }, 1200);
    }
    this.render();
  }

  stopSteps() {
    if (this.stepTimer) clearInterval(this.stepTimer);
    this.stepTimer = null;
  }

  /** The step on show: what it did, and the table (or the piles) after it, its cards glowing. */
  stepsPanel() {
    const step = /** @type {import("./turns.js").TurnStep} */ (this.turns.current);
    const { before, after, event } = step;
    const seat = event.seat;
    let board;
    if (this.rules.family === "indian") {
      const pile = after.discard_pile || [];
      const fresh = unseen(before.discard_pile || [], pile);
      board = h(
        "div",
        { class: "piles" },
        h("div", { class: "pile" }, h("span", { class: "label" }, t("board.stock")), h("div", { class: "stock-pile" }, h("span", null, String(after.stock)))),
        h(
          "div",
          { class: "pile" },
          h("span", { class: "label" }, t("board.discard")),
          h("div", { class: "fan" }, pile.slice(-8).map((/** @type {string} */ c, /** @type {number} */ k) => cardEl(c, { small: true, extra: fresh[pile.length - Math.min(8, pile.length) + k] ? "fresh" : "" }))),
        ),
      );
    } else {
      const melds = tableChange(before.table, after.table);
      board = h(
        "div",
        { class: "table-melds steps-table" },
        melds.length
          ? melds.map((m) => h("div", { class: "meld" }, h("div", { class: "cards" }, m.map((c) => cardEl(c.tok.split("=")[0], { small: true, ident: c.tok.split("=")[1] || null, extra: c.fresh ? "fresh" : "" })))))
          : h("p", { class: "muted empty" }, t("board.empty_table")),
      );
    }
    const sizes = [before.hand_sizes?.[seat], after.hand_sizes?.[seat]];
    return h(
      "section",
      { class: "panel turn-steps", id: "turn-steps", "aria-live": "polite" },
      h(
        "div",
        { class: "row spread" },
        h("strong", { id: "turn-step-pos" }, t("steps.position", { n: this.turns.at + 1, of: this.turns.steps.length })),
        h(
          "div",
          { class: "row" },
          h("button", { class: "btn small", id: "turn-step-prev", "aria-label": t("replay.prev"), onclick: () => { this.stopSteps(); this.turns.move(-1); this.render(); } }, "◀"),
          h("button", { class: "btn small", id: "turn-step-next", "aria-label": t("replay.next"), onclick: () => { this.stopSteps(); this.turns.move(1); this.render(); } }, "▶"),
          h("button", { class: "btn small", id: "turn-step-close", onclick: () => { this.stopSteps(); this.turns.close(); this.render(); } }, t("btn.close")),
        ),
      ),
      h("p", { id: "turn-step-event" }, eventText(event, this.names)),
      sizes[0] !== undefined && sizes[0] !== null && sizes[0] !== sizes[1] ? h("p", { class: "muted" }, t("steps.hand", { name: this.names[seat] ?? "?", from: sizes[0], to: sizes[1] ?? 0 })) : null,
      board,
    );
  }

  roundText() {
    const m = this.view.match || {};
    // After the last round the match's counter has moved on: name the round that was played.
    const n = m.outcome && m.last_round ? m.last_round.index + 1 : (m.round ?? 0) + 1;
    if (m.format === "POINTS" || m.format === "SINGLE_ROUND") return t("round.single");
    if (m.rounds && m.format?.startsWith("ROUNDS")) return t("round.n_of", { n: Math.min(n, m.rounds), of: m.rounds });
    return t("round.n", { n });
  }

  playersBar() {
    const v = this.view;
    return h(
      "div",
      { class: "players", role: "list" },
      this.names.map((/** @type {string} */ name, /** @type {number} */ i) => {
        const s = this.table.seats[i];
        const size = v.hand_sizes?.[i];
        const bits = [];
        if (this.rules.family === "manipulation" && this.rules.opening_required) bits.push(v.opened?.[i] ? h("span", { class: "tag ok", title: t("player.opened") }, "✓ " + t("player.opened")) : h("span", { class: "tag" }, t("player.not_opened")));
        // The last player standing is "declared" in the engine's statuses without declaring.
        const declaredForReal = v.statuses?.[i] !== "DECLARED" || !v.outcome || v.outcome.termination === "DECLARED";
        if (this.rules.family === "indian" && v.statuses?.[i] && v.statuses[i] !== "ACTIVE" && declaredForReal) bits.push(h("span", { class: "tag" }, t(`status.${v.statuses[i]}`)));
        if (s?.away) bits.push(h("span", { class: "tag warn" }, t("player.away")));
        return h(
          "div",
          { class: `player ${v.current === i && !v.match?.outcome ? "current" : ""} ${i === this.seat ? "me" : ""}`, role: "listitem", "data-seat": i },
          h("span", { class: "avatar", "aria-hidden": "true" }, s?.kind === "bot" ? "🤖" : "👤"),
          h("span", { class: "pname" }, name),
          size !== null && size !== undefined ? h("span", { class: "count", title: t("player.cards") }, `🂠 ${size}`) : null,
          bits,
        );
      }),
      h("div", { class: "pile-info" }, h("span", { title: t("board.stock") }, `${this.rules.tiles ? t("board.pool") : t("board.stock")}: ${v.stock}`)),
    );
  }

  scoreboard() {
    const m = this.view.match;
    if (!m) return null;
    const chips = m.chips;
    return h(
      "section",
      { class: "panel scoreboard" },
      h("h3", null, t("score.title")),
      h(
        "table",
        null,
        h("thead", null, h("tr", null, h("th", null, t("score.player")), h("th", null, chips ? t("score.chips") : t("score.total")))),
        h(
          "tbody",
          null,
          this.names.map((/** @type {string} */ n, /** @type {number} */ i) =>
            h("tr", { class: m.eliminated?.includes(i) ? "out" : "" }, h("td", null, n), h("td", { class: "num" }, String(chips ? chips[i] : m.totals[i]))),
          ),
        ),
      ),
      m.pool_threshold ? h("p", { class: "muted" }, t("score.pool", { n: m.pool_threshold })) : null,
      m.format ? h("p", { class: "muted" }, t(`format.${m.format}`)) : null,
    );
  }

  logPanel() {
    const fam = this.rules.family;
    const items = this.log.slice(-60).reverse();
    return h(
      "section",
      { class: "panel log" },
      h("h3", null, t("log.title")),
      h("ol", { class: "log-list", id: "game-log", reversed: true }, items.map((e) => h("li", { class: e.accepted ? "" : "bad" }, eventText(e, this.names)))),
    );
  }

  /**
   * After a round: everyone's cards, the round's scores, the totals.
   * @param {any} last @param {boolean} over
   */
  summaryPanel(last, over) {
    const m = this.view.match;
    const names = this.names;
    const rows = last.seats.map((/** @type {number} */ seat, /** @type {number} */ i) =>
      h(
        "tr",
        { class: last.winners.includes(seat) ? "winner" : "" },
        h("th", { scope: "row" }, last.winners.includes(seat) ? "🏆 " : "", names[seat]),
        h("td", { class: "hand-cell" }, this.handCell(last, seat, i)),
        h("td", { class: "num" }, String(last.scores[i])),
        h("td", { class: "num" }, String(m.chips ? m.chips[seat] : m.totals[seat])),
      ),
    );
    const title = this.rules.family === "indian" ? t("summary.hand_over", { n: last.index + 1 }) : t("summary.round_over", { n: last.index + 1 });
    const failed = this.failedDeclarations(last.index);
    const drops = roundDrops(this.log, last.index, this.seat);
    let ending = t(`end.${last.termination}`);
    if (last.termination === "LAST_STANDING" && failed.size) ending = t("end.invalid_declaration", { names: [...failed.keys()].map((s) => names[s]).join(", "), n: this.rules.invalid_penalty ?? "" });
    else if (last.termination === "LAST_STANDING" && drops.dropped.length) {
      // Say who dropped; a hand won before one's first turn (a computer player dropped at once) says that too.
      ending = t("end.dropped", { names: drops.dropped.map((s) => names[s]).join(", "), winner: last.winners.map((/** @type {number} */ s) => names[s]).join(", ") });
      if (this.seat !== null && !drops.played && last.winners.includes(this.seat)) ending += " " + t("end.before_your_turn");
    }
    return h(
      "div",
      { class: "overlay", role: "dialog", "aria-modal": "true", "aria-label": title, id: "round-summary" },
      h(
        "div",
        { class: "modal wide" },
        h("h2", null, title),
        h("p", { id: "summary-ending" }, ending),
        h(
          "table",
          { class: "summary" },
          h("thead", null, h("tr", null, h("th", null, t("score.player")), h("th", null, t("summary.cards")), h("th", null, this.rules.family === "indian" ? t("summary.hand_score") : t("summary.score")), h("th", null, m.chips ? t("score.chips") : t("score.total")))),
          h("tbody", null, rows),
        ),
        m.eliminated?.length ? h("p", { class: "muted" }, t("summary.eliminated", { names: m.eliminated.map((/** @type {number} */ s) => names[s]).join(", ") })) : null,
        h(
          "div",
          { class: "modal-buttons" },
          h(
            "button",
            {
              class: "btn primary",
              id: "next-round",
              onclick: () => {
                this.summaryOpen = false;
                this.render();
              },
            },
            over ? t("summary.see_result") : t("summary.next"),
          ),
        ),
      ),
    );
  }

  /**
   * A seat's cards at the end of a round: in its groups when the hand's outcome still shows
   * them (Indian Rummy: the declaration, the losers' best grouping), else as they were held.
   * @param {any} last @param {number} seat @param {number} i
   */
  handCell(last, seat, i) {
    const out = this.view.outcome;
    let groups = out ? out.groups?.[seat] : null;
    // An invalid declaration: the groups as declared (the action's notation).
    const declared = this.failedDeclarations(last.index).get(seat);
    if ((!groups || !groups.length) && declared) groups = declared;
    if (groups && groups.length) {
      const inGroups = groups.flat().length;
      const loose = [...(last.hands[i] || [])];
      for (const g of groups) for (const tok of g) {
        const k = loose.indexOf(tok.split("=")[0]);
        if (k >= 0) loose.splice(k, 1);
      }
      return h(
        "div",
        { class: "mini-groups" },
        groups.map((/** @type {string[]} */ g) => h("div", { class: "mini-hand group-box" }, g.map((tok) => cardEl(tok.split("=")[0], { small: true, ident: tok.split("=")[1] || null })))),
        inGroups && loose.length ? h("div", { class: "mini-hand deadwood-box", title: t("summary.deadwood") }, loose.map((c) => cardEl(c, { small: true }))) : null,
      );
    }
    const cards = last.hands[i] || [];
    return cards.length ? h("div", { class: "mini-hand" }, cards.map((/** @type {string} */ c) => cardEl(c, { small: true }))) : h("span", { class: "muted" }, "—");
  }

  /**
   * Indian Rummy: the invalid declarations of round `index` (0-based), by seat, each with
   * the groups declared, read from the game log (an event's action is in notation).
   * @param {number} index
   * @returns {Map<number, string[][]>}
   */
  failedDeclarations(index) {
    /** @type {Map<number, string[][]>} */
    const out = new Map();
    let round = 0;
    for (const e of this.log) {
      if (round === index && e.data?.code === "declare_failed") {
        const groups = [...(e.action || "").matchAll(/\[([^\]]*)\]/g)].map((g) => g[1].split(" ").filter(Boolean));
        out.set(e.seat, groups);
      }
      if ((e.after || []).some((a) => a.code === "round_over")) round += 1;
    }
    return out;
  }

  finalPanel() {
    const m = this.view.match;
    const o = m.outcome;
    const names = this.names;
    const winners = o.winners.map((/** @type {number} */ w) => names[w]).join(", ");
    const totals = o.totals;
    const rev = this.reveal || (this.table.game?.seed ? { seed: this.table.game.seed, commitment: this.table.game.commitment, record: `/api/tables/${this.id}/record` } : null);
    return h(
      "div",
      { class: "overlay", id: "final", role: "dialog", "aria-label": t("final.title") },
      h(
        "div",
        { class: "modal wide" },
        h("h2", null, t("final.title")),
        h("p", { class: "winner-line" }, winners ? t("final.winner", { names: winners }) : t("final.no_winner")),
        h("p", { class: "muted" }, o.decision ? t("final.decided", { how: render(o.decision) }) : o.decided_by ? t("final.decided", { how: o.decided_by }) : ""),
        h(
          "table",
          { class: "summary" },
          h("thead", null, h("tr", null, h("th", null, t("score.player")), h("th", null, m.chips ? t("score.chips") : t("score.total")), o.settlement ? h("th", null, t("final.settlement")) : null)),
          h("tbody", null, names.map((/** @type {string} */ n, /** @type {number} */ i) => h("tr", { class: o.winners.includes(i) ? "winner" : "" }, h("th", { scope: "row" }, n), h("td", { class: "num" }, String(totals[i])), o.settlement ? h("td", { class: "num" }, String(o.settlement[i])) : null))),
        ),
        rev
          ? h(
              "div",
              { class: "fair" },
              h("h3", null, t("final.fair")),
              h("p", null, t("final.seed"), " ", h("code", { id: "revealed-seed" }, rev.seed)),
              h("p", null, t("final.commitment"), " ", h("code", null, rev.commitment)),
              h("p", { class: "muted" }, t("final.verify")),
              h("code", { class: "cmd" }, `rummy replay record.json --verify --commitment ${rev.commitment}`),
            )
          : h("p", { class: "muted" }, t("final.waiting_seed")),
        h(
          "div",
          { class: "modal-buttons" },
          h("a", { class: "btn", href: `/api/tables/${this.id}/record`, download: `openrummy-${this.id}.json`, id: "record-link" }, t("final.download")),
          h("a", { class: "btn", href: `#/replay/${this.id}` }, t("final.replay")),
          this.rematchButton(),
          h("a", { class: "btn primary", href: "#/" }, t("nav.lobby")),
        ),
      ),
    );
  }
}

/** Is the turn sound on? (Off unless the player turned it on.) */
function soundOn() {
  return localStorage.getItem("openrummy.sound") === "on";
}

/** @param {boolean} on */
function setSound(on) {
  localStorage.setItem("openrummy.sound", on ? "on" : "off");
  if (on) beep();
}

/** A short, soft two-note chime (Web Audio, no sound file). */
function beep() {
  try {
    const AC = window.AudioContext;
    if (!AC) return;
    const ac = new AC();
    const now = ac.currentTime;
    [660, 880].forEach((f, i) => {
      const osc = ac.createOscillator();
      const gain = ac.createGain();
      osc.frequency.value = f;
      gain.gain.setValueAtTime(0.0001, now + i * 0.12);
      gain.gain.exponentialRampToValueAtTime(0.15, now + i * 0.12 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.12 + 0.25);
      osc.connect(gain).connect(ac.destination);
      osc.start(now + i * 0.12);
      osc.stop(now + i * 0.12 + 0.3);
    });
    setTimeout(() => ac.close(), 800);
  } catch {
    /* no sound then */
  }
}

/** @param {string} preset */
export function presetTitle(preset) {
  return t(`preset.${preset}`);
}

/**
 * @param {HTMLElement} root
 * @param {string} tableId
 * @returns {TableContext}
 */
export function tablePage(root, tableId) {
  const ctx = new TableContext(root, tableId);
  ctx.start();
  return ctx;
}

export { getLang, $, dialog };
