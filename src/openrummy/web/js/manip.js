// @ts-check
/**
 * The manipulation table (Robbers' Rummy, Vatikan, Rummikub): take the table apart and put
 * it together again. A turn is built locally as one transaction (the complete new table
 * plus any joker swaps, RULES.md §2.1) and sent as `play [..] [..] retrieve i:X<-Y` on Done.
 * Every change is checked by the server (`POST /api/tables/{id}/check`): each meld's
 * validity and opening value, the joker identities that fit, and the engine's commit checks.
 */
import { ApiError, api } from "./api.js";
import { cardEl, cardLabel, parseCard, parseItem, sortKey } from "./cards.js";
import { dialog, h, toast } from "./dom.js";
import { enableDrag, enableKeys } from "./drag.js";
import { errorText, meldLabel, render } from "./messages.js";
import { getLang, t, tn } from "./i18n.js";
import { loadStored, mergeOrder, saveStored, storageKey, unseen } from "./order.js";
import { Steps } from "./undo.js";

/**
 * @typedef {{id: string, card: string, ident: string | null, origin: "hand" | "table",
 *   startMeld: number | null, startIdent: string | null, retrieved?: boolean}} Item
 * @typedef {{id: string, items: Item[]}} WorkMeld
 * @typedef {{melds: WorkMeld[], hand: Item[], retrievals: {jokerId: string, naturalId: string, text: string}[]}} Snapshot
 */

export class ManipBoard {
  /** @param {import("./table.js").TableContext} ctx */
  constructor(ctx) {
    this.ctx = ctx;
    /** @type {Item[]} */ this.hand = [];
    /** @type {WorkMeld[]} */ this.melds = [];
    /** @type {{melds: WorkMeld[], hand: Item[]}} */ this.start = { melds: [], hand: [] };
    /** @type {{jokerId: string, naturalId: string, text: string}[]} */ this.retrievals = [];
    /** @type {Set<string>} */ this.sel = new Set();
    /** @type {string | null} */ this.startKey = null;
    /** @type {any} */ this.check = null;
    this.checkSeq = 0;
    /** @type {any} */ this.hint = null;
    this.hintBusy = false;
    this.next = 1;
    this.busy = false;
    /** @type {(() => void) | null} */ this.detach = null;
    /** @type {ReturnType<typeof setTimeout> | null} */ this.checkTimer = null;
    /** @type {number | undefined} */ this.round = undefined;
    /** @type {Steps<Snapshot>} */ this.steps = new Steps();
    /** The cards the player has seen (hand, table): the others glow until the next move. */
    /** @type {string[] | null} */ this.seenHand = null;
    /** @type {string[] | null} */ this.seenTable = null;
    this.ackTable = false;
    /** The ids of the hand's cards in the player's order (with those laid on the table). */
    /** @type {string[]} */ this.orderIds = [];
    this.bind(ctx.root);
  }

  /** Drag and drop and the keyboard, bound once to the page (renders replace the board). */
  bind(/** @type {HTMLElement} */ root) {
    const drag = enableDrag(root, {
      canDrag: (id) => {
        const f = this.find(id);
        return !!f && (this.canPlay || !f.meld);
      },
      selected: () => [...this.sel],
      onTap: (id) => this.tap(id),
      onDrop: (ids, target, before, _el, overId) => {
        if (overId && ids.length === 1 && this.trySwap(ids[0], overId)) return;
        this.move(ids, target, before);
      },
    });
    const keys = enableKeys(root, (id) => this.tap(id), (target) => this.sel.size && this.move([...this.sel], target, null));
    const esc = (/** @type {KeyboardEvent} */ ev) => {
      if (ev.key === "Escape" && this.sel.size) {
        this.sel.clear();
        this.ctx.render();
        return;
      }
      const typing = ["INPUT", "SELECT", "TEXTAREA"].includes(/** @type {HTMLElement} */ (ev.target).tagName);
      if ((ev.ctrlKey || ev.metaKey) && !ev.altKey && !typing && this.canPlay && !document.querySelector(".modal")) {
        const k = ev.key.toLowerCase();
        if (k === "z" || k === "y") {
          ev.preventDefault();
          if (k === "y" || ev.shiftKey) this.redo();
          else this.undo();
          return;
        }
      }
      // Letters for the buttons: h hint, r reset, d draw (not while typing).
      const tag = /** @type {HTMLElement} */ (ev.target).tagName;
      if (ev.ctrlKey || ev.metaKey || ev.altKey || tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
      if (!this.ctx.myTurn || document.querySelector(".modal")) return;
      const legal = this.ctx.view.legal || [];
      if (ev.key === "h" && this.canPlay) this.askHint();
      else if (ev.key === "r" && this.canPlay) this.resetTurn();
      else if (ev.key === "u" && this.canPlay) this.undo();
      else if (ev.key === "U" && this.canPlay) this.redo();
      else if (ev.key === "d" && legal.includes("draw")) this.endTurn("draw");
    };
    document.addEventListener("keydown", esc);
    this.detach = () => {
      drag();
      keys();
      document.removeEventListener("keydown", esc);
    };
  }

  get canPlay() {
    const v = this.ctx.view;
    return this.ctx.myTurn && v.legal.includes("play");
  }

  get dirty() {
    return JSON.stringify(this.tableText()) !== JSON.stringify(this.start.melds.map((m) => meldText(m)));
  }

  /** @param {string} prefix */
  newId(prefix) {
    return `${prefix}${this.next++}`;
  }

  /** @param {import("./views.js").ManipulationView | null} view */
  onView(view) {
    if (!view || view.hand === null || view.hand === undefined) {
      this.hand = [];
      this.melds = this.tableFromView(view);
      return;
    }
    const key = JSON.stringify([view.table, view.hand, view.current, view.phase, view.match?.round]);
    if (key === this.startKey) return;
    this.startKey = key;
    const round = view.match?.round ?? 0;
    const newRound = this.round !== round;
    this.round = round;
    // The player's order of the hand (RULES are not involved: it is theirs). In memory: the
    // hand as it is now, then the hand cards laid on the table this turn; after a reload or a
    // reconnection: the order this browser stored for the seat.
    const old = newRound ? [] : this.orderItems();
    const order = old.length ? old.map((i) => i.card) : (this.storeKey ? loadStored(this.storeKey, round) : null) || [];
    const { cards } = mergeOrder(order, view.hand);
    if (newRound || this.seenHand === null) {
      this.seenHand = [...cards];
      this.seenTable = view.table.flat().map((/** @type {string} */ tok) => parseItem(tok).card);
    }
    if (this.ackTable) {
      // The table after one's own play is what the player has seen.
      this.seenTable = view.table.flat().map((/** @type {string} */ tok) => parseItem(tok).card);
      this.ackTable = false;
    }
    const pool = [...old];
    const hand = cards.map((card) => {
      const k = pool.findIndex((i) => i.card === card);
      if (k < 0) return this.handItem(card);
      const it = pool.splice(k, 1)[0];
      return { id: it.id, card, ident: null, origin: /** @type {"hand"} */ ("hand"), startMeld: null, startIdent: null };
    });
    unseen(this.seenHand || [], cards).forEach((f, i) => {
      if (f) /** @type {any} */ (hand[i]).fresh = true;
    });
    const melds = this.tableFromView(view);
    const tableItems = melds.flatMap((m) => m.items);
    unseen(this.seenTable || [], tableItems.map((i) => i.card)).forEach((f, i) => {
      if (f) /** @type {any} */ (tableItems[i]).fresh = true;
    });
    this.start = { melds, hand };
    this.orderIds = hand.map((i) => i.id);
    this.steps.clear();
    this.reset(false);
    this.saveOrder();
    if (this.canPlay) this.scheduleCheck();
  }

  get storeKey() {
    return this.ctx.seat === null ? null : storageKey("hand", this.ctx.id, this.ctx.seat);
  }

  /**
   * The hand in the player's order: as it is now, with each hand card laid on the table this
   * turn back after the card it followed in the player's order before.
   */
  orderItems() {
    const out = [...this.hand];
    const ids = new Set(out.map((i) => i.id));
    const byId = new Map(this.start.hand.map((i) => [i.id, i]));
    /** @type {string | null} */
    let prev = null;
    for (const id of [...this.orderIds, ...byId.keys()]) {
      const it = byId.get(id);
      if (it && !ids.has(id)) {
        const k = prev === null ? 0 : out.findIndex((x) => x.id === prev) + 1;
        out.splice(k, 0, it);
        ids.add(id);
      }
      if (ids.has(id)) prev = id;
    }
    return out;
  }

  saveOrder() {
    this.orderIds = this.orderItems().map((i) => i.id);
    if (this.storeKey && this.round !== undefined) saveStored(this.storeKey, this.round, this.orderItems().map((i) => i.card));
  }

  /**
   * The player moves: what was new has been seen (the glow clears).
   * @param {boolean} [acted] an action goes to the server (its table is then seen too)
   */
  acknowledge(acted = false) {
    this.seenHand = this.start.hand.map((i) => i.card);
    this.seenTable = this.start.melds.flatMap((m) => m.items.map((i) => i.card));
    if (acted) this.ackTable = true;
    for (const it of [...this.start.hand, ...this.hand, ...this.start.melds.flatMap((m) => m.items), ...this.melds.flatMap((m) => m.items)]) {
      delete (/** @type {any} */ (it).fresh);
    }
  }

  /** @returns {Snapshot} */
  snapshot() {
    return { melds: this.melds, hand: this.hand, retrievals: this.retrievals };
  }

  /** Before a change of the turn being built: an undo step. */
  step() {
    this.steps.push(this.snapshot());
  }

  /** @param {Snapshot} s */
  restore(s) {
    this.melds = s.melds;
    this.hand = s.hand;
    this.retrievals = s.retrievals;
    this.sel.clear();
    this.hint = null;
    this.changed();
  }

  undo() {
    const s = this.steps.undo(this.snapshot());
    if (s) this.restore(s);
  }

  redo() {
    const s = this.steps.redo(this.snapshot());
    if (s) this.restore(s);
  }

  /** Reset turn (an undo step of its own: undo brings the work back). */
  resetTurn() {
    if (!this.dirty && !this.retrievals.length) return;
    this.step();
    this.reset();
  }

  /** @param {string} card @param {boolean} [fresh] @returns {Item} */
  handItem(card, fresh = false) {
    const it = /** @type {Item} */ ({ id: this.newId("h"), card, ident: null, origin: "hand", startMeld: null, startIdent: null });
    if (fresh) /** @type {any} */ (it).fresh = true;
    return it;
  }

  /** @param {import("./views.js").ManipulationView | null} view @returns {WorkMeld[]} */
  tableFromView(view) {
    if (!view) return [];
    return view.table.map((/** @type {string[]} */ meld, /** @type {number} */ m) => ({
      id: `m${m}`,
      items: meld.map((tok, k) => {
        const { card, ident } = parseItem(tok);
        return { id: `t${m}-${k}`, card, ident, origin: "table", startMeld: m, startIdent: ident };
      }),
    }));
  }

  /** @param {boolean} [render] */
  reset(render = true) {
    this.melds = this.start.melds.map((m) => ({ id: m.id, items: m.items.map((i) => ({ ...i })) }));
    this.hand = this.start.hand.map((i) => ({ ...i }));
    this.retrievals = [];
    this.sel.clear();
    this.hint = null;
    this.check = null;
    if (render) {
      this.ctx.render();
      this.scheduleCheck();
    }
  }

  // -- the transaction ----------------------------------------------------------------------
  tableText() {
    return this.melds.map((m) => meldText(m));
  }

  playText() {
    const melds = this.tableText().join(" ") || "[]";
    const ret = this.retrievals.map((r) => r.text);
    return `play ${melds}${ret.length ? " retrieve " + ret.join(" ") : ""}`;
  }

  /** @param {string} id @returns {{item: Item, meld: WorkMeld | null, index: number} | null} */
  find(id) {
    for (const m of this.melds) {
      const i = m.items.findIndex((x) => x.id === id);
      if (i >= 0) return { item: m.items[i], meld: m, index: i };
    }
    const i = this.hand.findIndex((x) => x.id === id);
    return i >= 0 ? { item: this.hand[i], meld: null, index: i } : null;
  }

  /**
   * Move cards to a target: "hand", "new" or "meld:<id>", before the card `before`.
   * @param {string[]} ids @param {string} target @param {string | null} before
   */
  move(ids, target, before) {
    const playing = this.canPlay;
    let items = ids.map((id) => this.find(id)).filter((x) => x !== null);
    this.acknowledge();
    if (!playing) {
      // Outside one's turn only the hand can be reordered.
      if (target !== "hand" || items.some((f) => f?.meld)) return;
    }
    if (target === "hand") {
      const stuck = items.filter((f) => f && f.item.origin === "table" && !f.item.retrieved);
      if (stuck.length) toast(t("manip.table_stays"), "warn");
      items = items.filter((f) => f && (f.item.origin === "hand" || f.item.retrieved));
    }
    if (!items.length) return;
    if (playing) this.step();
    // Take them out where they are.
    const moving = [];
    for (const f of items) {
      if (!f) continue;
      const list = f.meld ? f.meld.items : this.hand;
      const k = list.indexOf(f.item);
      if (k >= 0) list.splice(k, 1);
      // A joker that moves, also within its meld, is open again: the check fills in what it
      // stands for when one identity fits, else the player chooses under the meld.
      if (f.item.card === "JK") f.item.ident = null;
      moving.push(f.item);
    }
    /** @type {Item[]} */
    let dest;
    if (target === "hand") dest = this.hand;
    else if (target === "new") {
      /** @type {WorkMeld} */
      const m = { id: this.newId("n"), items: [] };
      this.melds.push(m);
      dest = m.items;
    } else {
      const m = this.melds.find((x) => `meld:${x.id}` === target);
      if (!m) return;
      dest = m.items;
    }
    const at = before ? dest.findIndex((x) => x.id === before) : -1;
    dest.splice(at >= 0 ? at : dest.length, 0, ...moving);
    this.melds = this.melds.filter((m) => m.items.length);
    this.sel.clear();
    this.hint = null;
    this.changed();
  }

  /**
   * Swap a table joker for the natural card it stands for (RULES.md §2.4). Before the player
   * may retrieve one, any table joker (where it started or where the player moved it this
   * turn) stays on the table and the toast says why; after, only a joker still where the turn
   * found it is retrieved.
   * @param {string} naturalId @param {string} jokerId
   * @returns {boolean} whether it was a swap
   */
  trySwap(naturalId, jokerId) {
    const j = this.find(jokerId);
    const n = this.find(naturalId);
    if (!j || !n || !j.meld || j.item.card !== "JK" || n.item.card === "JK") return false;
    if (j.item.origin !== "table" || j.item.retrieved || j.item.startMeld === null || !j.item.ident) return false;
    const want = parseCard(j.item.ident);
    const have = parseCard(n.item.card);
    if (want.rank !== have.rank) return false;
    const naturals = j.meld.items.filter((x) => x.card !== "JK").map((x) => parseCard(x.card));
    const isSet = naturals.length > 0 && naturals.every((c) => c.rank === want.rank);
    if (want.suit !== have.suit && !(isSet && !naturals.some((c) => c.suit === have.suit))) return false;
    if (!this.canPlay) return false;
    const opts = this.ctx.rules.options;
    const view = this.ctx.view;
    const opened = this.ctx.seat !== null && !!view.opened?.[this.ctx.seat];
    const mayRetrieve = opts["joker.retrieval"] !== false && !(opts["joker.retrieval_requires_opened"] && !opened);
    const moved = j.item.ident !== j.item.startIdent || j.meld.id !== `m${j.item.startMeld}`;
    if (mayRetrieve && moved) return false;
    if (mayRetrieve && n.item.origin === "table" && opts["joker.replacement_source"] !== "HAND_OR_TABLE") {
      toast(t("manip.swap_from_hand"), "warn");
      return true;
    }
    this.acknowledge();
    this.step();
    if (!mayRetrieve) {
      // Retrieval is not allowed now (RULES.md §2.2 C6): the natural still takes the joker's
      // place (a rearrangement, whichever meld the natural comes from), but the joker stays on
      // the table, in a meld of its own, to be built on.
      (n.meld ? n.meld.items : this.hand).splice(n.meld ? n.meld.items.indexOf(n.item) : this.hand.indexOf(n.item), 1);
      j.meld.items.splice(j.meld.items.indexOf(j.item), 1, n.item);
      j.item.ident = null;
      this.melds.push({ id: this.newId("n"), items: [j.item] });
      this.melds = this.melds.filter((m) => m.items.length);
      this.sel.clear();
      const reason = render({ code: "C6", reason: opts["joker.retrieval"] === false ? "no_retrieval" : "retrieve_before_open" });
      toast(t("manip.joker_stays", { reason }), "warn");
      this.changed();
      return true;
    }
    // The natural takes the joker's place; the joker goes to the hand (to be played again).
    (n.meld ? n.meld.items : this.hand).splice(n.meld ? n.meld.items.indexOf(n.item) : this.hand.indexOf(n.item), 1);
    const k = j.meld.items.indexOf(j.item);
    j.meld.items.splice(k, 1, n.item);
    const joker = j.item;
    const text = `${joker.startMeld}:${joker.startIdent}<-${n.item.card}${n.item.origin === "table" ? "@table" : ""}`;
    joker.ident = null;
    joker.retrieved = true;
    this.hand.push(joker);
    this.retrievals.push({ jokerId: joker.id, naturalId: n.item.id, text });
    this.melds = this.melds.filter((m) => m.items.length);
    this.sel.clear();
    toast(t("manip.swapped", { card: cardLabel(n.item.card) }), "ok");
    this.changed();
    return true;
  }

  changed() {
    this.saveOrder();
    this.ctx.render();
    this.scheduleCheck();
  }

  scheduleCheck() {
    if (!this.canPlay) return;
    if (this.checkTimer) clearTimeout(this.checkTimer);
    this.checkTimer = setTimeout(() => this.runCheck(), 120);
  }

  /** The helper that judges the table being built (the puzzle page has its own). */
  checkPath() {
    return `/api/tables/${this.ctx.id}/check`;
  }

  async runCheck() {
    const seq = ++this.checkSeq;
    const table = this.tableText();
    const handOnly = this.melds.map((m) => m.items.every((i) => i.origin === "hand"));
    try {
      const res = await api("POST", this.checkPath(), { table, hand_only: handOnly, retrievals: this.retrievals.map((r) => r.text) }, this.ctx.token);
      if (seq !== this.checkSeq || JSON.stringify(table) !== JSON.stringify(this.tableText())) return;
      // Adopt the identities the server found (the only ones that fit) and the meld order.
      res.melds.forEach((/** @type {any} */ e, /** @type {number} */ k) => {
        if (e.valid && e.meld !== table[k]) adopt(this.melds[k], e.meld);
      });
      res.table = JSON.stringify(this.tableText());
      this.check = res;
    } catch (e) {
      this.check = null;
      // The server's helpers are busy (or this player's share is used up): the same table is
      // judged again shortly, so the meters never stay on an unanswered check.
      if (e instanceof ApiError && e.code === "busy" && seq === this.checkSeq) {
        if (this.checkTimer) clearTimeout(this.checkTimer);
        this.checkTimer = setTimeout(() => this.runCheck(), 500);
      }
    }
    this.ctx.render();
  }

  /**
   * Split a meld before its `at`-th card: the tail becomes a meld of its own.
   * @param {WorkMeld} m @param {number} at
   */
  split(m, at) {
    const k = this.melds.indexOf(m);
    if (k < 0 || at <= 0 || at >= m.items.length) return;
    this.acknowledge();
    this.step();
    const tail = m.items.splice(at);
    this.melds.splice(k + 1, 0, { id: this.newId("n"), items: tail });
    this.sel.clear();
    this.hint = null;
    this.changed();
  }

  /** @param {number} k @param {string} meld */
  chooseIdentity(k, meld) {
    this.step();
    adopt(this.melds[k], meld);
    this.changed();
  }

  // -- actions ------------------------------------------------------------------------------
  /**
   * Before Done sends the table: false (with a toast) when nothing was placed; else the
   * judgement of exactly this table is waited for (the last check may be on its way).
   * @returns {Promise<boolean>}
   */
  async judgedBeforeSending() {
    if (this.busy) return false;
    if (!this.dirty && !this.retrievals.length) {
      toast(t("manip.nothing_placed"), "warn");
      return false;
    }
    if (!this.check || this.check.table !== JSON.stringify(this.tableText())) {
      if (this.checkTimer) clearTimeout(this.checkTimer);
      this.busy = true;
      await this.runCheck();
      this.busy = false;
    }
    return true;
  }

  async done() {
    if (!(await this.judgedBeforeSending())) return;
    const problems = this.problems();
    if (problems.length) {
      const n = Math.min(this.ctx.rules.penalty_draw, this.ctx.view.stock);
      const ok = await dialog({
        title: t("manip.will_fail"),
        tone: "warn",
        body: [h("ul", null, problems.map((/** @type {string} */ text) => h("li", null, text))), h("p", null, tn("manip.penalty", n))],
        buttons: [
          { label: t("btn.back"), value: false },
          { label: t("manip.submit_anyway"), value: true, kind: "danger" },
        ],
      });
      if (!ok) return;
    }
    await this.act(this.playText());
  }

  /** Why the current table would fail, in words: invalid melds, then the engine's commit checks. */
  problems() {
    const c = this.check;
    if (!c) return [];
    const out = c.melds.filter((/** @type {any} */ m) => !m.valid).map((/** @type {any} */ m) => `${meldLabel(m.meld)}: ${meldProblem(m)}`);
    return out.length ? out : c.checked ? c.violations.map((/** @type {any} */ v) => (v.reason !== undefined ? render(v) : v.text)) : [];
  }

  /**
   * Draw (or pass, or end the turn): a half-built table is thrown away, so ask first.
   * @param {string} action
   */
  async endTurn(action) {
    if (this.canPlay && (this.dirty || this.retrievals.length)) {
      const ok = await dialog({
        title: t("manip.discard_work"),
        tone: "warn",
        body: [h("p", null, t("manip.discard_work_body"))],
        buttons: [
          { label: t("btn.back"), value: false },
          { label: t(`manip.${action}_anyway`), value: true, kind: "danger" },
        ],
      });
      if (!ok) return;
    }
    await this.act(action);
  }

  /** @param {string} action */
  async act(action) {
    this.acknowledge(true);
    this.busy = true;
    const res = await this.ctx.send(action);
    this.busy = false;
    if (res.type === "error") toast(errorText(res), "bad");
  }

  async askHint() {
    if (this.hintBusy) return;
    this.hintBusy = true;
    this.ctx.render();
    try {
      this.hint = await api("POST", `/api/tables/${this.ctx.id}/hint`, { lang: getLang() }, this.ctx.token);
    } catch (e) {
      toast(String(/** @type {any} */ (e).message), "bad");
    }
    this.hintBusy = false;
    this.ctx.render();
  }

  applyHint() {
    const hint = this.hint;
    if (!hint?.table) return;
    this.step();
    this.reset(false);
    const tablePool = this.melds.flatMap((m) => m.items);
    const handPool = [...this.hand];
    /** @type {WorkMeld[]} */
    const melds = [];
    for (const meld of hint.table) {
      /** @type {Item[]} */
      const items = [];
      for (const tok of meldTokens(meld)) {
        const { card, ident } = parseItem(tok);
        let k = tablePool.findIndex((i) => i.card === card);
        let it;
        if (k >= 0) it = tablePool.splice(k, 1)[0];
        else {
          k = handPool.findIndex((i) => i.card === card);
          if (k < 0) continue;
          it = handPool.splice(k, 1)[0];
        }
        it.ident = card === "JK" ? ident : it.ident;
        items.push(it);
      }
      const same = this.start.melds.find((m) => m.items.length === items.length && m.items.every((x, i) => x.id === items[i].id));
      melds.push({ id: same ? same.id : this.newId("n"), items });
    }
    this.melds = melds;
    this.hand = handPool;
    this.hint = { ...hint, applied: true };
    this.changed();
  }

  // -- rendering ----------------------------------------------------------------------------
  render() {
    const v = this.ctx.view;
    const playing = this.canPlay;
    const seated = v.hand !== null && v.hand !== undefined;
    const check = this.check;
    const wrap = h("div", { class: `board manip ${playing ? "playing" : ""}` });
    if (playing && check?.opening?.required) {
      const o = check.opening;
      const points = o.type === "POINTS";
      const pct = points ? Math.min(100, Math.round((100 * o.value) / Math.max(1, o.threshold))) : o.met ? 100 : 0;
      wrap.appendChild(
        h(
          "div",
          { class: `opening ${o.met ? "ok" : ""}`, id: "opening-meter" },
          h("span", null, points ? t("manip.opening", { value: o.value, threshold: o.threshold }) : t("manip.opening_run", { n: o.run_length }), o.met ? " ✓" : ""),
          h("div", { class: "bar" }, h("div", { class: "fill", style: { width: `${pct}%` } })),
        ),
      );
    }
    // Busy while the table on show waits for its judgement (the check of this very table).
    const judging = playing && (!check || check.table !== JSON.stringify(this.tableText()));
    const tableEl = h("section", { class: "table-melds", "aria-label": t("board.table"), "aria-busy": judging ? "true" : "false" });
    if (!this.melds.length) tableEl.appendChild(h("p", { class: "muted empty" }, t("board.empty_table")));
    this.melds.forEach((m, k) => tableEl.appendChild(this.meldEl(m, k, playing)));
    if (playing) {
      tableEl.appendChild(
        h(
          "button",
          { class: "new-meld target", "data-drop": "new", id: "new-meld", onclick: () => this.sel.size && this.move([...this.sel], "new", null) },
          h("span", null, "+ ", t("manip.new_meld")),
        ),
      );
    }
    wrap.appendChild(tableEl);
    if (v.discard_top !== null && v.discard_top !== undefined) {
      wrap.appendChild(h("div", { class: "discard-row" }, h("span", { class: "muted" }, t("board.discard")), cardEl(v.discard_top, { small: true })));
    }
    if (this.hint) wrap.appendChild(this.hintPanel());
    // The buttons and the hand stay in view at the bottom of the window, however many melds.
    if (seated) wrap.appendChild(h("div", { class: "hand-dock" }, this.actionBar(), this.handEl(playing)));
    return wrap;
  }

  /** @param {string} id */
  tap(id) {
    if (this.sel.size === 1) {
      const [only] = [...this.sel];
      const target = this.find(id);
      if (target?.item.card === "JK" && target.meld && only !== id && this.trySwap(only, id)) return;
    }
    if (this.sel.has(id)) this.sel.delete(id);
    else {
      const f = this.find(id);
      if (f?.meld && !this.canPlay) return;
      this.sel.add(id);
    }
    this.ctx.render();
  }

  /** @param {WorkMeld} m @param {number} k @param {boolean} playing */
  meldEl(m, k, playing) {
    const e = playing ? this.check?.melds?.[k] : null;
    const unchanged = this.start.melds.some((s) => s.id === m.id && meldText(s) === meldText(m));
    const state = !e || (unchanged && e.valid) ? "" : e.valid ? "valid" : "invalid";
    let badge = null;
    if (e && !unchanged) {
      if (e.valid) {
        const kind = e.kind === "RUN" ? t("meld.run") : t("meld.set");
        badge = h("span", { class: "badge ok" }, `✓ ${kind}`, e.opening && this.check.opening.required ? ` · ${e.value}` : "");
      } else badge = h("span", { class: "badge bad", role: "status" }, "✗ ", meldProblem(e));
    }
    /** @type {HTMLElement[]} */
    const cards = [];
    m.items.forEach((it, i) => {
      if (playing && i > 0 && m.items.length >= 4) {
        // Between two cards: split the meld here (a shortcut for dragging the tail out).
        cards.push(h("button", { class: "split", tabindex: -1, title: t("manip.split_here"), "aria-label": t("manip.split_here"), onclick: () => this.split(m, i) }, "✂"));
      }
      cards.push(this.cardFor(it, playing));
    });
    const el = h(
      "div",
      { class: `meld ${state} ${playing && !unchanged ? "changed" : ""}`, "data-drop": `meld:${m.id}`, "data-meld": k, "aria-label": t("board.meld_n", { n: k + 1 }) },
      h("div", { class: "cards" }, cards, playing ? h("button", { class: "slot target", "data-drop": `meld:${m.id}`, "aria-label": t("manip.add_here"), title: t("manip.add_here"), onclick: () => this.sel.size && this.move([...this.sel], `meld:${m.id}`, null) }, "+") : null),
      badge,
    );
    if (e?.choices?.length > 1) {
      const sel = /** @type {HTMLSelectElement} */ (
        h(
          "select",
          { class: "joker-choice", "aria-label": t("manip.joker_means"), onchange: (/** @type {any} */ ev) => ev.target.value && this.chooseIdentity(k, ev.target.value) },
          h("option", { value: "" }, t("manip.joker_means")),
          e.choices.map((/** @type {string} */ c) => h("option", { value: c }, meldTokens(c).map((x) => cardLabel(x)).join(" "))),
        )
      );
      el.appendChild(sel);
    }
    return el;
  }

  /** @param {Item} it @param {boolean} playing */
  cardFor(it, playing) {
    const el = cardEl(it.card, { ident: it.ident, id: it.id });
    el.tabIndex = 0;
    el.setAttribute("role", "button");
    el.setAttribute("aria-pressed", this.sel.has(it.id) ? "true" : "false");
    if (this.sel.has(it.id)) el.classList.add("selected");
    if (playing && it.origin === "hand" && this.melds.some((m) => m.items.includes(it))) el.classList.add("placed");
    if (/** @type {any} */ (it).fresh) el.classList.add("fresh");
    if (it.retrieved) el.classList.add("retrieved");
    return el;
  }

  actionBar() {
    const v = this.ctx.view;
    const legal = v.legal || [];
    const my = this.ctx.myTurn;
    const bar = h("div", { class: "action-bar", role: "toolbar", "aria-label": t("board.actions") });
    if (!my) {
      bar.appendChild(h("span", { class: "muted" }, v.match?.outcome ? t("status.over") : t("status.waiting_for", { name: this.ctx.names[v.current] || "?" })));
      return bar;
    }
    if (legal.includes("play")) {
      bar.appendChild(h("button", { class: "btn", id: "undo-btn", disabled: !this.steps.canUndo, title: t("btn.undo_keys"), onclick: () => this.undo() }, "⟲ ", t("btn.undo")));
      bar.appendChild(h("button", { class: "btn", id: "redo-btn", disabled: !this.steps.canRedo, title: t("btn.redo_keys"), onclick: () => this.redo() }, "⟳ ", t("btn.redo")));
      bar.appendChild(h("button", { class: "btn", id: "reset-btn", disabled: !this.dirty && !this.retrievals.length, onclick: () => this.resetTurn() }, "↺ ", t("btn.reset")));
      bar.appendChild(h("button", { class: "btn", id: "hint-btn", disabled: this.hintBusy, onclick: () => this.askHint() }, "💡 ", this.hintBusy ? t("btn.thinking") : t("btn.hint")));
      bar.appendChild(h("button", { class: `btn primary ${this.problems().length && this.dirty ? "warn" : ""}`, id: "done-btn", disabled: !this.dirty && !this.retrievals.length, onclick: () => this.done() }, "✔ ", t("btn.done")));
    }
    if (legal.includes("draw")) bar.appendChild(h("button", { class: "btn", id: "draw-btn", onclick: () => this.endTurn("draw") }, "🂠 ", this.ctx.rules.tiles ? t("btn.draw_tile") : t("btn.draw")));
    if (legal.includes("take")) bar.appendChild(h("button", { class: "btn", id: "take-btn", onclick: () => this.act("take") }, t("btn.take", { card: cardLabel(v.discard_top) })));
    if (legal.includes("pass")) bar.appendChild(h("button", { class: "btn", id: "pass-btn", onclick: () => this.endTurn("pass") }, t("btn.pass")));
    if (legal.includes("end")) bar.appendChild(h("button", { class: "btn", id: "end-btn", onclick: () => this.endTurn("end") }, t("btn.end")));
    if (legal.includes("discard")) {
      const one = this.sel.size === 1 ? this.find([...this.sel][0]) : null;
      bar.appendChild(
        h("button", { class: "btn primary", id: "discard-btn", disabled: !one || !!one.meld, onclick: () => one && this.act(`discard ${one.item.card}`) }, one ? t("btn.discard_card", { card: cardLabel(one.item.card) }) : t("btn.discard_pick")),
      );
    }
    return bar;
  }

  hintPanel() {
    const hint = this.hint;
    return h(
      "section",
      { class: "panel hint", id: "hint-panel", "aria-live": "polite" },
      h("h3", null, "💡 ", t("hint.title")),
      hint.found
        ? [
            h("p", null, tn("hint.places", hint.count), hint.goes_out ? " " + t("hint.goes_out") : ""),
            h("ol", { class: "steps" }, hintSteps(hint).map((s) => h("li", null, s))),
          ]
        : h("p", null, t("hint.none")),
      h(
        "div",
        { class: "row" },
        hint.found && !hint.applied ? h("button", { class: "btn primary", id: "apply-hint", onclick: () => this.applyHint() }, t("hint.apply")) : null,
        h(
          "button",
          {
            class: "btn",
            onclick: () => {
              this.hint = null;
              this.ctx.render();
            },
          },
          t("btn.close"),
        ),
      ),
    );
  }

  /** @param {boolean} playing */
  handEl(playing) {
    const sortBtn = (/** @type {"suit" | "rank"} */ by) =>
      h(
        "button",
        {
          class: "btn small",
          onclick: () => {
            this.hand.sort((a, b) => sortKey(a.card, by) - sortKey(b.card, by));
            this.saveOrder();
            this.ctx.render();
          },
        },
        t(`hand.sort_${by}`),
      );
    return h(
      "section",
      { class: "hand-area", "aria-label": t("hand.title") },
      h("div", { class: "hand-head" }, h("h3", null, t("hand.title"), ` (${this.hand.length})`), h("div", { class: "row" }, sortBtn("suit"), sortBtn("rank"))),
      h(
        "div",
        { class: "hand target", "data-drop": "hand", id: "hand", tabindex: playing ? 0 : -1 },
        this.hand.map((it) => this.cardFor(it, playing)),
      ),
    );
  }
}

/** @param {WorkMeld} m */
function meldText(m) {
  return "[" + m.items.map((i) => (i.card === "JK" && i.ident ? `JK=${i.ident}` : i.card)).join(" ") + "]";
}

/** @param {string} meld @returns {string[]} */
function meldTokens(meld) {
  return meld.replace(/[[\]]/g, " ").trim().split(/\s+/).filter(Boolean);
}

/**
 * Take a meld's order and joker identities from notation (same cards, maybe reordered).
 * @param {WorkMeld} m @param {string} text
 */
function adopt(m, text) {
  const pool = [...m.items];
  const out = [];
  for (const tok of meldTokens(text)) {
    const { card, ident } = parseItem(tok);
    const k = pool.findIndex((i) => i.card === card);
    if (k < 0) return;
    const it = pool.splice(k, 1)[0];
    if (card === "JK") it.ident = ident;
    out.push(it);
  }
  if (pool.length) return;
  m.items = out;
}

/**
 * Why a meld of the check is not valid, in words (the check sends the reason as data).
 * @param {{problem?: any, reason?: string}} entry
 */
function meldProblem(entry) {
  return entry.problem ? render(entry.problem) : entry.reason || "";
}

/**
 * A hint's steps in the page's language: the server's step messages (cards in notation) worded
 * by the catalogue, so tiles read as the table shows them ("black 11"), never as codes.
 * @param {{steps?: string[], step_messages?: any[]}} hint
 * @returns {string[]}
 */
export function hintSteps(hint) {
  const numbered = hint.step_messages ? hint.step_messages.map((m) => render(m)) : hint.steps || [];
  return numbered.map((s) => s.replace(/^\d+\.\s*/, ""));
}
