// The manipulation board's turn as a player keeps it: the hand order across views, undo and
// redo, a joker swap before opening (src/openrummy/web/js/manip.js). Run: node --test tests/js
import { toasts, FakeElement } from "./fake_dom.mjs";

import assert from "node:assert/strict";
import { test } from "node:test";

import { readFileSync } from "node:fs";

import { ManipBoard } from "../../src/openrummy/web/js/manip.js";
import { setCatalogue } from "../../src/openrummy/web/js/messages.js";

setCatalogue(JSON.parse(readFileSync(new URL("../../src/openrummy/messages/catalogue.json", import.meta.url), "utf-8")));

let tables = 0;

/** A board at a table of its own (the hand order is stored per table and seat). */
/** @param {any} view @param {{[k: string]: any}} [options] */
function board(view, options = { "joker.retrieval": true, "joker.retrieval_requires_opened": true }) {
  const ctx = {
    root: new FakeElement("main"),
    view,
    myTurn: view.current === 0,
    seat: 0,
    token: null,
    id: `turn-test-${++tables}`,
    rules: { options },
    render() {},
    send: async () => ({ type: "ok" }),
  };
  const b = new ManipBoard(/** @type {any} */ (ctx));
  b.onView(view);
  return { b, ctx };
}

/** @param {{[k: string]: any}} over */
const view = (over) => ({
  table: [["JK=7H", "7D", "7C"]],
  hand: ["3S", "7H", "KD", "7S", "4S"],
  current: 0,
  phase: "play",
  legal: ["play", "draw"],
  opened: [false, true],
  seat: 0,
  stock: 40,
  match: { round: 0 },
  ...over,
});

/** @param {ManipBoard} b @param {string} card */
const idOf = (b, card) => {
  for (const m of b.melds) for (const i of m.items) if (i.card === card) return i.id;
  return /** @type {any} */ (b.hand.find((i) => i.card === card)).id;
};
const cards = (/** @type {ManipBoard} */ b) => b.hand.map((i) => i.card);

test("the hand order survives the next views; a card laid and taken back keeps its place", () => {
  const { b, ctx } = board(view({}));
  b.move([idOf(b, "4S")], "hand", idOf(b, "3S")); // to the front
  assert.deepEqual(cards(b), ["4S", "3S", "7H", "KD", "7S"]);
  b.move([idOf(b, "3S")], "new", null); // laid, then the turn is thrown away by a draw
  const drew = view({ hand: ["3S", "7H", "KD", "7S", "4S", "9C"], current: 1, legal: [] });
  ctx.view = drew;
  ctx.myTurn = false;
  b.onView(drew);
  assert.deepEqual(cards(b), ["4S", "3S", "7H", "KD", "7S", "9C"]);
  assert.deepEqual(
    b.hand.filter((/** @type {any} */ i) => i.fresh).map((i) => i.card),
    ["9C"],
  );
  // Reordered during the other's turn, kept when the turn comes back.
  b.move([idOf(b, "9C")], "hand", idOf(b, "4S"));
  const back = view({ hand: ["3S", "7H", "KD", "7S", "4S", "9C"], table: [["JK=7H", "7D", "7C"], ["2H", "3H", "4H"]] });
  ctx.view = back;
  ctx.myTurn = true;
  b.onView(back);
  assert.deepEqual(cards(b), ["9C", "4S", "3S", "7H", "KD", "7S"]);
  // The moved card was the player's move: its glow is gone; the others' new meld glows.
  assert.equal(b.hand.filter((/** @type {any} */ i) => i.fresh).length, 0);
  assert.deepEqual(
    b.melds.flatMap((m) => m.items).filter((/** @type {any} */ i) => i.fresh).map((i) => i.card),
    ["2H", "3H", "4H"],
  );
});

test("undo and redo step through the turn; a new step drops the redo", () => {
  const { b } = board(view({}));
  b.move([idOf(b, "7S")], "meld:m0", null);
  b.move([idOf(b, "KD")], "new", null);
  assert.deepEqual(b.tableText(), ["[JK=7H 7D 7C 7S]", "[KD]"]);
  b.undo();
  assert.deepEqual(b.tableText(), ["[JK=7H 7D 7C 7S]"]);
  b.undo();
  assert.deepEqual(b.tableText(), ["[JK=7H 7D 7C]"]);
  assert.deepEqual(cards(b), ["3S", "7H", "KD", "7S", "4S"]);
  b.redo();
  assert.deepEqual(b.tableText(), ["[JK=7H 7D 7C 7S]"]);
  b.resetTurn();
  assert.deepEqual(b.tableText(), ["[JK=7H 7D 7C]"]);
  b.undo(); // the reset is a step too
  assert.deepEqual(b.tableText(), ["[JK=7H 7D 7C 7S]"]);
});

test("before opening a swap keeps the joker on the table and says why; after, it is retrieved", () => {
  toasts.length = 0;
  const { b } = board(view({}));
  assert.equal(b.trySwap(idOf(b, "7H"), idOf(b, "JK")), true);
  assert.deepEqual(b.tableText(), ["[7H 7D 7C]", "[JK]"]);
  assert.equal(b.retrievals.length, 0);
  assert.ok(!cards(b).includes("JK"));
  assert.match(toasts[toasts.length - 1][0], /stays on the table/);
  const opened = board(view({ opened: [true, true] })).b;
  assert.equal(opened.trySwap(idOf(opened, "7H"), idOf(opened, "JK")), true);
  assert.deepEqual(opened.tableText(), ["[7H 7D 7C]"]);
  assert.ok(cards(opened).includes("JK"));
  assert.match(opened.playText(), / retrieve 0:7H<-7H$/);
});

test("before opening a card dropped on a set's joker for another missing suit, or on a joker moved this turn, is told why", () => {
  toasts.length = 0;
  const { b } = board(view({ table: [["JK=7S", "7D", "7C"]] }));
  assert.equal(b.trySwap(idOf(b, "7H"), idOf(b, "JK")), true);
  assert.deepEqual(b.tableText(), ["[7H 7D 7C]", "[JK]"]);
  assert.match(toasts[toasts.length - 1][0], /stays on the table \(you may retrieve a joker only after you have opened\)/);
  // The joker is taken into a meld the player builds, then a card is dropped on it.
  toasts.length = 0;
  const moved = board(view({ table: [["JK=7H", "7D", "7C"]], hand: ["3S", "4S", "5S", "7H"] })).b;
  moved.move([idOf(moved, "3S"), idOf(moved, "4S"), idOf(moved, "JK")], "new", null);
  moved.chooseIdentity(1, "[3S 4S JK=5S]");
  assert.equal(moved.trySwap(idOf(moved, "5S"), idOf(moved, "JK")), true);
  assert.deepEqual(moved.tableText(), ["[7D 7C]", "[3S 4S 5S]", "[JK]"]);
  assert.equal(moved.retrievals.length, 0);
  assert.match(toasts[toasts.length - 1][0], /stays on the table/);
  // Once opened, a joker moved this turn is not retrieved: the card is only placed.
  const later = board(view({ table: [["JK=7H", "7D", "7C"]], hand: ["3S", "4S", "5S"], opened: [true, true] })).b;
  later.move([idOf(later, "3S"), idOf(later, "4S"), idOf(later, "JK")], "new", null);
  later.chooseIdentity(1, "[3S 4S JK=5S]");
  assert.equal(later.trySwap(idOf(later, "5S"), idOf(later, "JK")), false);
});
