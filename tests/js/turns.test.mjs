// The opponents' turns step by step (src/openrummy/web/js/turns.js).
// Run: node --test tests/js
import { test } from "node:test";
import assert from "node:assert/strict";
import { OpponentTurns, roundDrops, tableChange } from "../../src/openrummy/web/js/turns.js";

const v = (/** @type {number} */ n) => ({ n });
const ev = (/** @type {number} */ seat, /** @type {string} */ action) => ({ seat, action });

test("the steps are the other players' events since my own last move", () => {
  const turns = new OpponentTurns();
  turns.record(v(0), ev(1, "play"), v(1), 0);
  turns.record(v(1), ev(1, "end"), v(2), 0);
  assert.deepEqual(turns.steps.map((s) => s.event.action), ["play", "end"]);
  turns.record(v(2), ev(0, "draw"), v(3), 0); // my move: kept until the next opponent's
  assert.equal(turns.steps.length, 2);
  turns.record(v(3), ev(2, "draw"), v(4), 0);
  turns.record(v(4), ev(1, "play"), v(5), 0);
  assert.deepEqual(turns.steps.map((s) => [s.event.seat, s.before.n, s.after.n]), [[2, 3, 4], [1, 4, 5]]);
});

test("stepping moves within the steps; my move closes the step-through", () => {
  const turns = new OpponentTurns();
  turns.start();
  assert.equal(turns.open, false); // nothing to show yet
  turns.record(v(0), ev(1, "draw"), v(1), 0);
  turns.record(v(1), ev(1, "discard 7H"), v(2), 0);
  turns.start();
  assert.equal(turns.current?.event.action, "draw");
  assert.equal(turns.move(-1), false);
  assert.equal(turns.move(1), true);
  assert.equal(turns.current?.event.action, "discard 7H");
  assert.equal(turns.move(1), false);
  turns.record(v(2), ev(0, "draw"), v(3), 0);
  assert.equal(turns.open, false);
});

test("a spectator steps through the last player's turn", () => {
  const turns = new OpponentTurns();
  turns.record(v(0), ev(0, "draw"), v(1), null);
  turns.record(v(1), ev(0, "discard 7H"), v(2), null);
  turns.record(v(2), ev(1, "draw"), v(3), null);
  assert.deepEqual(turns.steps.map((s) => s.event.action), ["draw"]);
});

test("the table after a step marks the cards it put there", () => {
  const marks = tableChange([["5H", "6H", "7H"]], [["5H", "6H", "7H", "8H"], ["JK=9S", "9H", "9D"]]);
  assert.deepEqual(
    marks.map((m) => m.map((c) => c.fresh)),
    [[false, false, false, true], [true, true, true]],
  );
  assert.equal(marks[1][0].tok, "JK=9S");
});

test("a hand won because the others dropped before my first turn says so", () => {
  const log = [
    { seat: 1, actor: "bot", data: { code: "dropped" }, after: [{ code: "round_over" }] },
    { seat: 0, actor: "seat", data: { code: "drew" } },
    { seat: 1, actor: "bot", data: { code: "dropped" }, after: [{ code: "round_over" }] },
  ];
  assert.deepEqual(roundDrops(log, 0, 0), { dropped: [1], played: false });
  assert.deepEqual(roundDrops(log, 1, 0), { dropped: [1], played: true });
  assert.deepEqual(roundDrops(log, 1, null), { dropped: [1], played: false });
});
