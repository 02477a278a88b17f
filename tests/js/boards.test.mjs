// The turn being built at the table, with no browser: the manipulation board's transaction
// (moves, joker swaps, splits, reset, the play it sends; src/openrummy/web/js/manip.js) and
// the Indian board's groups (indian.js). `node --test tests/js/`.
import { toasts, FakeElement } from "./fake_dom.mjs";

import assert from "node:assert/strict";
import { test } from "node:test";

import { IndianBoard } from "../../src/openrummy/web/js/indian.js";
import { ManipBoard } from "../../src/openrummy/web/js/manip.js";

/**
 * A table page stand-in: the view, whose turn it is, and a count of renders.
 * @param {any} view @param {{myTurn?: boolean, options?: {[k: string]: string}}} [o]
 */
function context(view, o = {}) {
  return {
    root: new FakeElement("main"),
    view,
    myTurn: o.myTurn ?? true,
    seat: 0,
    token: null,
    id: "t1",
    rules: { options: o.options ?? {} },
    renders: 0,
    render() {
      this.renders += 1;
    },
    send: async () => ({ type: "ok" }),
  };
}

const VIEW = {
  table: [
    ["4S", "5S", "6S"],
    ["JK=7H", "7D", "7C"],
  ],
  hand: ["3S", "7H", "KD", "7S"],
  current: 0,
  phase: "play",
  legal: ["play", "draw"],
  match: { round: 1 },
};

/** @param {any} [view] @param {{myTurn?: boolean, options?: {[k: string]: string}}} [o] */
function board(view = VIEW, o = {}) {
  const ctx = context(view, o);
  const b = new ManipBoard(/** @type {any} */ (ctx));
  b.onView(view);
  return { b, ctx };
}

/** @param {ManipBoard} b @param {string} card */
function idOf(b, card) {
  for (const m of b.melds) for (const i of m.items) if (i.card === card) return i.id;
  const it = b.hand.find((i) => i.card === card);
  assert.ok(it, `${card} is on the board`);
  return it.id;
}

test("the board starts as the table and the hand of the view", () => {
  const { b } = board();
  assert.deepEqual(b.tableText(), ["[4S 5S 6S]", "[JK=7H 7D 7C]"]);
  assert.deepEqual(
    b.hand.map((i) => i.card),
    ["3S", "7H", "KD", "7S"],
  );
  assert.equal(b.playText(), "play [4S 5S 6S] [JK=7H 7D 7C]");
  assert.equal(b.dirty, false);
  assert.equal(b.canPlay, true);
});

test("hand cards laid onto a meld, into a new meld; reset undoes the turn", () => {
  const { b } = board();
  b.move([idOf(b, "3S")], "meld:m0", idOf(b, "4S"));
  assert.deepEqual(b.tableText(), ["[3S 4S 5S 6S]", "[JK=7H 7D 7C]"]);
  assert.equal(b.dirty, true);
  b.move([idOf(b, "KD")], "new", null);
  assert.deepEqual(b.tableText(), ["[3S 4S 5S 6S]", "[JK=7H 7D 7C]", "[KD]"]);
  assert.deepEqual(
    b.hand.map((i) => i.card),
    ["7H", "7S"],
  );
  // Back to the hand: a hand card may return, the meld it left disappears when empty.
  b.move([idOf(b, "KD")], "hand", null);
  assert.deepEqual(b.tableText(), ["[3S 4S 5S 6S]", "[JK=7H 7D 7C]"]);
  b.reset(false);
  assert.equal(b.playText(), "play [4S 5S 6S] [JK=7H 7D 7C]");
  assert.equal(b.hand.length, 4);
  assert.equal(b.dirty, false);
});

test("a table card never goes to the hand (only a retrieved joker may)", () => {
  const { b } = board();
  const before = toasts.length;
  b.move([idOf(b, "4S")], "hand", null);
  assert.deepEqual(b.tableText(), ["[4S 5S 6S]", "[JK=7H 7D 7C]"]);
  assert.equal(b.hand.length, 4);
  assert.equal(toasts.length, before + 1, "the player is told why");
  assert.equal(toasts.at(-1)?.[1], "warn");
});

test("table cards are rearranged freely within the turn; a split makes two melds", () => {
  const { b } = board();
  b.move([idOf(b, "7D")], "new", null);
  assert.deepEqual(b.tableText(), ["[4S 5S 6S]", "[JK=7H 7C]", "[7D]"]);
  b.reset(false);
  b.move([idOf(b, "3S")], "meld:m0", idOf(b, "4S"));
  b.split(b.melds[0], 2);
  assert.deepEqual(b.tableText(), ["[3S 4S]", "[5S 6S]", "[JK=7H 7D 7C]"]);
  b.split(b.melds[0], 0); // not a split: nothing moves
  assert.deepEqual(b.tableText(), ["[3S 4S]", "[5S 6S]", "[JK=7H 7D 7C]"]);
});

test("a joker swap: the natural takes its place, the joker comes to the hand", () => {
  const { b } = board();
  assert.equal(b.trySwap(idOf(b, "7H"), idOf(b, "JK")), true);
  assert.deepEqual(b.tableText(), ["[4S 5S 6S]", "[7H 7D 7C]"]);
  assert.ok(b.hand.some((i) => i.card === "JK" && i.retrieved && i.ident === null));
  assert.equal(b.playText(), "play [4S 5S 6S] [7H 7D 7C] retrieve 1:7H<-7H");
  // The retrieved joker is played again within the turn, as anything it can stand for.
  b.move([idOf(b, "JK"), idOf(b, "7S")], "meld:m1", null);
  assert.deepEqual(b.tableText(), ["[4S 5S 6S]", "[7H 7D 7C JK 7S]"]);
  b.chooseIdentity(1, "[7H 7D 7C 7S JK=7H]");
  assert.equal(b.playText(), "play [4S 5S 6S] [7H 7D 7C 7S JK=7H] retrieve 1:7H<-7H");
});

test("a swap needs the card the joker stands for (or, in a set, a missing suit)", () => {
  const { b } = board();
  assert.equal(b.trySwap(idOf(b, "KD"), idOf(b, "JK")), false, "another rank");
  assert.equal(b.trySwap(idOf(b, "7H"), idOf(b, "5S")), false, "not a joker");
  // The joker stands for 7H in a set of 7D 7C: the 7S fits in its place as well.
  assert.equal(b.trySwap(idOf(b, "7S"), idOf(b, "JK")), true);
  assert.deepEqual(b.tableText(), ["[4S 5S 6S]", "[7S 7D 7C]"]);
  assert.deepEqual(
    b.retrievals.map((r) => r.text),
    ["1:7H<-7S"],
  );
});

test("a swap from the table only where the rules allow it", () => {
  const view = { ...VIEW, table: [["4H", "5H", "6H", "7H"], ["JK=7S", "7D", "7C"]], hand: ["2C"] };
  const strict = board(view).b;
  assert.equal(strict.trySwap(idOf(strict, "7H"), idOf(strict, "JK")), true, "handled (refused)");
  assert.deepEqual(strict.tableText(), ["[4H 5H 6H 7H]", "[JK=7S 7D 7C]"]);
  assert.equal(strict.retrievals.length, 0);
  const free = board(view, { options: { "joker.replacement_source": "HAND_OR_TABLE" } }).b;
  assert.equal(free.trySwap(idOf(free, "7H"), idOf(free, "JK")), true);
  assert.deepEqual(free.tableText(), ["[4H 5H 6H]", "[7H 7D 7C]"]);
  assert.deepEqual(
    free.retrievals.map((r) => r.text),
    ["1:7S<-7H@table"],
  );
});

test("outside one's turn only the hand is reordered", () => {
  const { b } = board({ ...VIEW, current: 1 }, { myTurn: false });
  assert.equal(b.canPlay, false);
  b.move([idOf(b, "3S")], "meld:m0", null);
  b.move([idOf(b, "3S")], "new", null);
  assert.deepEqual(b.tableText(), ["[4S 5S 6S]", "[JK=7H 7D 7C]"]);
  b.move([idOf(b, "7S")], "hand", idOf(b, "3S"));
  assert.deepEqual(
    b.hand.map((i) => i.card),
    ["7S", "3S", "7H", "KD"],
  );
  assert.equal(b.trySwap(idOf(b, "7H"), idOf(b, "JK")), false);
});

test("a new view of the round keeps the hand's cards and marks what the last play added", () => {
  const { b } = board();
  const ids = new Map(b.hand.map((i) => [i.card, i.id]));
  // The player drew the 9C and played the 7H into a new run (a new view of the same round).
  b.onView({ ...VIEW, hand: ["3S", "KD", "7S", "9C"], current: 1, table: [...VIEW.table, ["7H", "8H", "9H"]] });
  assert.deepEqual(
    [...b.hand.map((i) => i.card)].sort(),
    ["3S", "7S", "9C", "KD"],
  );
  assert.equal(b.hand.at(-1)?.card, "9C", "a new card comes last");
  for (const card of ["3S", "KD", "7S"]) assert.equal(b.hand.find((i) => i.card === card)?.id, ids.get(card), card);
  const fresh = b.melds.flatMap((m) => m.items.filter((i) => /** @type {any} */ (i).fresh).map((i) => i.card));
  assert.deepEqual(fresh, ["7H", "8H", "9H"]);
  assert.equal(b.dirty, false);
});

test("the Indian board: a fresh hand is one group; cards move between groups", () => {
  const view = { hand: ["2C", "3C", "4C", "9S", "9H", "KD"], phase: "discard", legal: ["discard"], match: { round: 1 } };
  const ctx = context(view);
  const b = new IndianBoard(/** @type {any} */ (ctx));
  b.onView(view);
  assert.deepEqual(
    b.groups.map((g) => g.map((i) => i.card)),
    [["2C", "3C", "4C", "9S", "9H", "KD"]],
  );
  const id = (/** @type {string} */ card) => b.groups.flat().find((i) => i.card === card)?.id ?? "";
  b.move([id("9S"), id("9H")], "newgroup", null);
  b.move([id("KD")], "newgroup", null);
  assert.deepEqual(
    b.groups.map((g) => g.map((i) => i.card)),
    [["2C", "3C", "4C"], ["9S", "9H"], ["KD"]],
  );
  b.move([id("KD")], "group:1", id("9S"));
  assert.deepEqual(
    b.groups.map((g) => g.map((i) => i.card)),
    [["2C", "3C", "4C"], ["KD", "9S", "9H"]],
  );
  // The next view of the round (a card drawn, one discarded) keeps the groups.
  b.onView({ ...view, hand: ["2C", "3C", "4C", "9S", "9H", "5C"] });
  assert.deepEqual(
    b.groups.map((g) => g.map((i) => i.card)),
    [["2C", "3C", "4C"], ["9S", "9H"], ["5C"]],
  );
  assert.deepEqual(
    b.groups.flat().filter((i) => i.fresh).map((i) => i.card),
    ["5C"],
  );
  // A new round deals a new hand: one group again.
  b.onView({ ...view, hand: ["AS", "2S", "3S"], match: { round: 2 } });
  assert.deepEqual(
    b.groups.map((g) => g.map((i) => i.card)),
    [["AS", "2S", "3S"]],
  );
});
