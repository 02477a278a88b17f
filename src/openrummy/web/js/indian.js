// @ts-check
/**
 * The Indian Rummy table: draw from the stock or the discard pile, arrange the hand into
 * groups (drag and drop, or the hand solver's auto-arrange), discard, declare with a finish
 * card, or drop. The server judges the grouping as it changes (`POST …/hand`): each group's
 * kind, the deadwood points, and a declaration before it is made.
 */
import { api } from "./api.js";
import { cardEl, cardLabel, rankText } from "./cards.js";
import { dialog, h, toast } from "./dom.js";
import { enableDrag, enableKeys } from "./drag.js";
import { errorText, render } from "./messages.js";
import { t } from "./i18n.js";
import { loadStored, mergeGroups, saveStored, storageKey } from "./order.js";

/** @typedef {{id: string, card: string, fresh?: boolean}} Item */

export class IndianBoard {
  /** @param {import("./table.js").TableContext} ctx */
  constructor(ctx) {
    this.ctx = ctx;
    /** @type {Item[][]} */ this.groups = [];
    /** @type {Set<string>} */ this.sel = new Set();
    /** @type {any} */ this.judge = null;
    this.judgeSeq = 0;
    /** @type {string | null} */ this.handKey = null;
    this.next = 1;
    this.busy = false;
    /** @type {(() => void) | null} */ this.detach = null;
    /** @type {ReturnType<typeof setTimeout> | null} */ this.timer = null;
    /** @type {string | null} */ this.suggested = null;
    /** @type {number | undefined} */ this.round = undefined;
    const drag = enableDrag(ctx.root, {
      canDrag: (id) => !!this.find(id),
      selected: () => [...this.sel],
      onTap: (id) => this.tap(id),
      onDrop: (ids, target, before) => this.move(ids, target, before),
    });
    const keys = enableKeys(ctx.root, (id) => this.tap(id), (target) => this.sel.size && this.move([...this.sel], target, null));
    // Letters for the buttons: d draw, a auto-arrange (not while typing).
    const letters = (/** @type {KeyboardEvent} */ ev) => {
      const tag = /** @type {HTMLElement} */ (ev.target).tagName;
      if (ev.ctrlKey || ev.metaKey || ev.altKey || tag === "INPUT" || tag === "SELECT" || document.querySelector(".modal")) return;
      if (ev.key === "Escape" && this.sel.size) {
        this.sel.clear();
        this.ctx.render();
      } else if (ev.key === "a" && this.ctx.view?.hand) this.autoArrange();
      else if (ev.key === "d" && this.ctx.myTurn && this.ctx.view.legal.includes("draw")) this.act("draw");
    };
    document.addEventListener("keydown", letters);
    this.detach = () => {
      drag();
      keys();
      document.removeEventListener("keydown", letters);
    };
  }

  /** @param {import("./views.js").IndianView | null} view */
  onView(view) {
    const hand = view?.hand;
    if (!hand) {
      this.groups = [];
      return;
    }
    const round = view.match?.round ?? 0;
    const key = JSON.stringify([...hand].sort()) + "/" + round;
    if (key === this.handKey) return;
    const firstLook = this.handKey === null;
    const freshHand = firstLook || !this.handKey?.endsWith("/" + round);
    this.handKey = key;
    this.round = round;
    // The grouping is the player's: kept across turns, and across reloads and reconnections
    // (stored by this browser for the seat and the hand being played).
    /** @type {string[][]} */
    let before = freshHand ? [] : this.groups.map((g) => g.map((i) => i.card));
    if (firstLook && this.storeKey) before = loadStored(this.storeKey, round) || [];
    const { groups: cards } = mergeGroups(before, hand);
    const pool = this.groups.flat();
    const known = new Set(before.flat());
    this.groups = cards.map((g) =>
      g.map((card) => {
        const k = freshHand ? -1 : pool.findIndex((i) => i.card === card);
        if (k >= 0) return { ...pool.splice(k, 1)[0], fresh: false };
        return { id: `c${this.next++}`, card, fresh: !freshHand || (firstLook && before.length > 0 && !known.has(card)) };
      }),
    );
    this.saveGroups();
    this.judge = null;
    for (const id of [...this.sel]) if (!this.find(id)) this.sel.delete(id);
    this.scheduleJudge();
  }

  get storeKey() {
    return this.ctx.seat === null ? null : storageKey("groups", this.ctx.id, this.ctx.seat);
  }

  saveGroups() {
    if (this.storeKey && this.round !== undefined) saveStored(this.storeKey, this.round, this.groups.map((g) => g.map((i) => i.card)));
  }

  /** @param {string} id */
  find(id) {
    for (const g of this.groups) {
      const i = g.findIndex((x) => x.id === id);
      if (i >= 0) return { group: g, index: i, item: g[i] };
    }
    return null;
  }

  get phase() {
    return this.ctx.view.phase;
  }

  get selectedCard() {
    if (this.sel.size !== 1) return null;
    return this.find([...this.sel][0])?.item.card ?? null;
  }

  /**
   * @param {string[]} ids @param {string} target @param {string | null} before
   */
  move(ids, target, before) {
    if (target === "discard") {
      if (ids.length === 1) this.discard(ids[0]);
      return;
    }
    const items = ids.map((id) => this.find(id)).filter((x) => x !== null);
    for (const f of items) if (f) f.group.splice(f.group.indexOf(f.item), 1);
    /** @type {Item[]} */
    let dest;
    if (target === "newgroup") {
      dest = [];
      this.groups.push(dest);
    } else {
      dest = this.groups[Number(target.split(":")[1])];
      if (!dest) return;
    }
    const at = before ? dest.findIndex((x) => x.id === before) : -1;
    dest.splice(at >= 0 ? at : dest.length, 0, ...items.map((f) => /** @type {Item} */ (f?.item)));
    this.groups = this.groups.filter((g) => g.length);
    this.sel.clear();
    this.judge = null;
    this.saveGroups();
    this.ctx.render();
    this.scheduleJudge();
  }

  scheduleJudge() {
    if (this.timer) clearTimeout(this.timer);
    if (!this.ctx.token || this.ctx.seat === null) return;
    this.timer = setTimeout(() => this.runJudge(), 120);
  }

  /** @param {{auto?: boolean, finish?: string | null}} [opts] */
  async askHand(opts = {}) {
    const groups = this.groups.map((g) => g.map((i) => i.card));
    return api("POST", `/api/tables/${this.ctx.id}/hand`, { groups, finish: opts.finish ?? null, auto: !!opts.auto }, this.ctx.token);
  }

  async runJudge() {
    const seq = ++this.judgeSeq;
    try {
      const res = await this.askHand();
      if (seq !== this.judgeSeq) return;
      this.judge = res;
    } catch {
      this.judge = null;
    }
    this.ctx.render();
  }

  async autoArrange() {
    const asked = this.handKey;
    try {
      const res = await this.askHand({ auto: true });
      const auto = res.auto;
      // The hand changed while the solver worked (a discard, a new deal): its answer is
      // for cards we no longer hold, and applying it would bring a thrown card back.
      if (!auto || this.handKey !== asked) return;
      const pool = this.groups.flat();
      const take = (/** @type {string} */ card) => {
        const k = pool.findIndex((i) => i.card === card);
        return k >= 0 ? pool.splice(k, 1)[0] : null;
      };
      /** @type {Item[][]} */
      const groups = [];
      for (const g of auto.groups) groups.push(g.map(take).filter(Boolean));
      const dead = (auto.deadwood || []).map(take).filter(Boolean);
      let throwItem = null;
      if (auto.discard) throwItem = take(auto.discard);
      if (dead.length) groups.push(dead);
      if (pool.length) groups.push(pool);
      if (throwItem) groups.push([throwItem]);
      this.groups = groups.filter((g) => g.length);
      this.saveGroups();
      this.sel.clear();
      if (throwItem) this.sel.add(throwItem.id);
      this.suggested = auto.discard;
      this.judge = null;
      if (auto.declare) toast(t("indian.can_declare", { card: cardLabel(auto.discard) }), "ok");
      this.ctx.render();
      this.scheduleJudge();
    } catch (e) {
      toast(String(/** @type {any} */ (e).message), "bad");
    }
  }

  /** @param {string} action */
  async act(action) {
    if (this.busy) return;
    this.busy = true;
    const res = await this.ctx.send(action);
    this.busy = false;
    if (res.type === "error") toast(errorText(res), "bad");
  }

  /** @param {string} [id] */
  discard(id) {
    const card = id ? this.find(id)?.item.card : this.selectedCard;
    if (!card || !this.ctx.myTurn || !this.ctx.view.legal.includes("discard")) return;
    this.act(`discard ${card}`);
  }

  async declare() {
    const finish = this.selectedCard;
    if (!finish) {
      toast(t("indian.pick_finish"), "warn");
      return;
    }
    let verdict = null;
    try {
      verdict = (await this.askHand({ finish })).declaration;
    } catch (e) {
      verdict = { valid: false, reason: String(/** @type {any} */ (e).message), problem: null };
    }
    const penalty = this.ctx.rules.invalid_penalty;
    const ok = await dialog({
      title: t("indian.declare_title", { card: cardLabel(finish) }),
      tone: verdict?.valid ? "" : "warn",
      body: verdict?.valid ? h("p", null, t("indian.declare_valid")) : [h("p", { class: "bad" }, t("indian.declare_invalid", { reason: verdict?.problem ? render(verdict.problem) : verdict?.reason || "" })), h("p", null, t("indian.declare_penalty", { n: penalty }))],
      buttons: [
        { label: t("btn.back"), value: false },
        { label: verdict?.valid ? t("indian.declare_go") : t("indian.declare_anyway"), value: true, kind: verdict?.valid ? "primary" : "danger" },
      ],
    });
    if (!ok) return;
    await this.act(`declare ${finish} ${this.groupText(finish)}`);
  }

  /** @param {string | null} finish the card left out of the groups */
  groupText(finish) {
    let skip = finish;
    const out = [];
    for (const g of this.groups) {
      const cards = [];
      for (const it of g) {
        if (skip && it.card === skip) {
          skip = null;
          continue;
        }
        cards.push(it.card);
      }
      if (cards.length) out.push(`[${cards.join(" ")}]`);
    }
    return out.join(" ");
  }

  async drop() {
    const v = this.ctx.view;
    const cost = v.draws[this.ctx.seat ?? 0] ? this.ctx.rules.drop.middle : this.ctx.rules.drop.first;
    const ok = await dialog({
      title: t("indian.drop_title"),
      tone: "warn",
      body: h("p", null, t("indian.drop_body", { n: cost })),
      buttons: [
        { label: t("btn.back"), value: false },
        { label: t("indian.drop_go", { n: cost }), value: true, kind: "danger" },
      ],
    });
    if (ok) await this.act("drop");
  }

  /** @param {string} id */
  tap(id) {
    if (this.sel.has(id)) this.sel.delete(id);
    else this.sel.add(id);
    this.ctx.render();
  }

  // -- rendering ----------------------------------------------------------------------------
  render() {
    const v = this.ctx.view;
    const seated = !!v.hand;
    const my = this.ctx.myTurn;
    const legal = v.legal || [];
    const wrap = h("div", { class: "board indian" });
    const wildRank = v.wild_rank ? rankText(v.wild_rank) : "";
    const pile = v.discard_pile || [];
    wrap.appendChild(
      h(
        "section",
        { class: "piles", "aria-label": t("board.piles") },
        h("div", { class: "pile" }, h("span", { class: "label" }, t("indian.indicator")), cardEl(v.indicator), h("span", { class: "muted" }, t("indian.wild", { rank: wildRank }))),
        h(
          "div",
          { class: "pile" },
          h("span", { class: "label" }, t("board.stock")),
          h("button", { class: "stock-pile", id: "stock", disabled: !(my && legal.includes("draw")), onclick: () => this.act("draw"), "aria-label": t("indian.draw_stock") }, h("span", null, String(v.stock))),
        ),
        h(
          "div",
          { class: "pile discard-pile target", "data-drop": "discard", id: "discard-pile" },
          h("span", { class: "label" }, t("board.discard"), ` (${pile.length})`),
          h(
            "div",
            { class: "fan" },
            pile.slice(-8).map((/** @type {string} */ c, /** @type {number} */ i, /** @type {string[]} */ arr) => {
              const top = i === arr.length - 1;
              const el = cardEl(c, { small: !top });
              if (top && my && legal.includes("take")) {
                return h("button", { class: "take-top", id: "take-btn", onclick: () => this.act("take"), "aria-label": t("btn.take", { card: cardLabel(c) }) }, el);
              }
              return el;
            }),
          ),
        ),
      ),
    );
    if (seated) {
      const j = this.judge;
      const dw = j?.deadwood;
      wrap.appendChild(
        h(
          "div",
          { class: "deadwood", id: "deadwood", "aria-live": "polite" },
          dw ? [h("strong", null, t("indian.deadwood", { n: dw.points })), " ", h("span", { class: "muted" }, dw.credited ? t("indian.credited") : t("indian.not_credited"))] : t("indian.deadwood_unknown"),
        ),
      );
      const groupsEl = h("section", { class: "groups", "aria-label": t("hand.title") });
      this.groups.forEach((g, i) => {
        const info = j?.groups?.[i];
        const kind = info?.valid ? t(`group.${info.kind}`) : g.length >= 3 ? t("group.none") : "";
        groupsEl.appendChild(
          h(
            "div",
            { class: `group ${info?.valid ? "valid" : ""} ${info?.kind === "PURE_SEQUENCE" ? "pure" : ""}`, "data-drop": `group:${i}` },
            h("div", { class: "cards" }, g.map((it) => this.cardFor(it)), h("button", { class: "slot target", "data-drop": `group:${i}`, "aria-label": t("indian.add_here"), onclick: () => this.sel.size && this.move([...this.sel], `group:${i}`, null) }, "+")),
            h("span", { class: "group-label" }, kind),
          ),
        );
      });
      groupsEl.appendChild(h("button", { class: "new-group target", "data-drop": "newgroup", id: "new-group", onclick: () => this.sel.size && this.move([...this.sel], "newgroup", null) }, "+ ", t("indian.new_group")));
      wrap.appendChild(this.actionBar());
      wrap.appendChild(groupsEl);
    }
    return wrap;
  }

  /** @param {Item} it */
  cardFor(it) {
    const el = cardEl(it.card, { id: it.id, wild: this.isWild(it.card) });
    el.tabIndex = 0;
    el.setAttribute("role", "button");
    el.setAttribute("aria-pressed", this.sel.has(it.id) ? "true" : "false");
    if (this.sel.has(it.id)) el.classList.add("selected");
    if (it.fresh) el.classList.add("fresh");
    return el;
  }

  /** @param {string} card */
  isWild(card) {
    const v = this.ctx.view;
    if (card === "JK") return true;
    const r = card.slice(0, -1);
    const rank = r === "A" ? 1 : r === "J" ? 11 : r === "Q" ? 12 : r === "K" ? 13 : Number(r);
    return rank === v.wild_rank;
  }

  actionBar() {
    const v = this.ctx.view;
    const legal = v.legal || [];
    const my = this.ctx.myTurn;
    const bar = h("div", { class: "action-bar", role: "toolbar", "aria-label": t("board.actions") });
    if (my && legal.includes("draw")) bar.appendChild(h("button", { class: "btn primary", id: "draw-btn", onclick: () => this.act("draw") }, "🂠 ", t("indian.draw_stock")));
    if (my && legal.includes("take")) bar.appendChild(h("button", { class: "btn", id: "take-btn2", onclick: () => this.act("take") }, t("btn.take", { card: cardLabel(v.discard_top) })));
    if (my && legal.includes("drop")) {
      const cost = v.draws[this.ctx.seat ?? 0] ? this.ctx.rules.drop.middle : this.ctx.rules.drop.first;
      bar.appendChild(h("button", { class: "btn danger", id: "drop-btn", onclick: () => this.drop() }, t("indian.drop_btn", { n: cost })));
    }
    if (my && legal.includes("discard")) {
      const card = this.selectedCard;
      bar.appendChild(h("button", { class: "btn primary", id: "discard-btn", disabled: !card, onclick: () => this.discard() }, card ? t("btn.discard_card", { card: cardLabel(card) }) : t("btn.discard_pick")));
      bar.appendChild(h("button", { class: "btn", id: "declare-btn", disabled: !card, onclick: () => this.declare() }, "📣 ", card ? t("indian.declare_with", { card: cardLabel(card) }) : t("indian.declare")));
    }
    if (my && legal.includes("show")) bar.appendChild(h("button", { class: "btn primary", id: "show-btn", onclick: () => this.act(`show ${this.groupText(null)}`) }, t("indian.show")));
    bar.appendChild(h("button", { class: "btn", id: "auto-btn", onclick: () => this.autoArrange() }, "✨ ", t("indian.auto")));
    if (!my) bar.appendChild(h("span", { class: "muted" }, v.match?.outcome ? t("status.over") : t("status.waiting_for", { name: this.ctx.names[v.current] || "?" })));
    return bar;
  }
}
