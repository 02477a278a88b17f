// The player's hand order and the undo steps (src/openrummy/web/js/order.js, undo.js).
// Run: node --test tests/js
import { test } from "node:test";
import assert from "node:assert/strict";
import { mergeOrder, mergeGroups, unseen, loadStored, saveStored, storageKey } from "../../src/openrummy/web/js/order.js";
import { Steps } from "../../src/openrummy/web/js/undo.js";

test("the player's order survives, new cards go to the end", () => {
  const r = mergeOrder(["KS", "2H", "JK", "2H"], ["2H", "2H", "JK", "KS", "7D"]);
  assert.deepEqual(r.cards, ["KS", "2H", "JK", "2H", "7D"]);
  assert.deepEqual(r.added, [false, false, false, false, true]);
});

test("played cards leave the order, duplicates are counted", () => {
  const r = mergeOrder(["KS", "2H", "2H", "JK"], ["2H", "JK", "9C", "9C"]);
  assert.deepEqual(r.cards, ["2H", "JK", "9C", "9C"]);
  assert.deepEqual(r.added, [false, false, true, true]);
});

test("an empty order is the server's order, every card new", () => {
  const r = mergeOrder([], ["R7", "K11"]);
  assert.deepEqual(r.cards, ["R7", "K11"]);
  assert.deepEqual(r.added, [true, true]);
});

test("the order is always a permutation of the hand", () => {
  const deck = ["AS", "2S", "3S", "JK", "10H", "KD"];
  let seed = 7;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  for (let n = 0; n < 300; n++) {
    const pick = () => Array.from({ length: Math.floor(rnd() * 9) }, () => deck[Math.floor(rnd() * deck.length)]);
    const order = pick();
    const hand = pick();
    const r = mergeOrder(order, hand);
    assert.deepEqual([...r.cards].sort(), [...hand].sort());
    // The kept cards come first, in the player's order.
    const kept = r.cards.filter((_, i) => !r.added[i]);
    let k = 0;
    for (const c of order) if (k < kept.length && kept[k] === c) k++;
    assert.equal(k, kept.length);
  }
});

test("Indian groups keep their cards; the new ones form a group at the end", () => {
  const r = mergeGroups([["4S", "5S", "6S"], ["9C", "9D"], ["KH"]], ["9C", "4S", "5S", "6S", "KH", "2D"]);
  assert.deepEqual(r.groups, [["4S", "5S", "6S"], ["9C"], ["KH"], ["2D"]]);
  assert.deepEqual(r.added, ["2D"]);
  assert.deepEqual(mergeGroups([["AS"]], ["AS"]).groups, [["AS"]]);
});

test("unseen marks what is not in the multiset seen before", () => {
  assert.deepEqual(unseen(["5H", "5H", "JK"], ["5H", "JK", "5H", "5H", "6H"]), [false, false, false, true, true]);
});

test("the stored order belongs to one round", () => {
  /** @type {Map<string, string>} */
  const store = new Map();
  globalThis.localStorage = { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => store.set(k, v) };
  const key = storageKey("hand", "t1", 2);
  assert.equal(key, "openrummy.hand.t1.2");
  saveStored(key, 3, ["KS", "2H"]);
  assert.deepEqual(loadStored(key, 3), ["KS", "2H"]);
  assert.equal(loadStored(key, 4), null);
  store.set(key, "{not json");
  assert.equal(loadStored(key, 3), null);
  delete globalThis.localStorage;
});

test("undo and redo walk the steps of a turn", () => {
  const steps = new Steps();
  let state = { melds: [["5H"]], hand: ["6H"] };
  assert.equal(steps.undo(state), null);
  steps.push(state);
  state = { melds: [["5H", "6H"]], hand: [] };
  steps.push(state);
  state = { melds: [["5H", "6H"], ["JK"]], hand: [] };
  assert.ok(steps.canUndo && !steps.canRedo);
  state = steps.undo(state);
  assert.deepEqual(state, { melds: [["5H", "6H"]], hand: [] });
  state = steps.undo(state);
  assert.deepEqual(state, { melds: [["5H"]], hand: ["6H"] });
  assert.ok(!steps.canUndo && steps.canRedo);
  state = steps.redo(state);
  assert.deepEqual(state, { melds: [["5H", "6H"]], hand: [] });
  // A new step after an undo drops what could be redone.
  steps.push(state);
  assert.ok(!steps.canRedo);
  assert.equal(steps.redo(state), null);
  // Snapshots are copies: changing the state later does not change them.
  state.melds[0].push("7H");
  assert.deepEqual(steps.undo(state), { melds: [["5H", "6H"]], hand: [] });
  steps.clear();
  assert.ok(!steps.canUndo && !steps.canRedo);
});
