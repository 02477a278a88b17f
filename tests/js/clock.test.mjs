// The turn timer with a time bank (src/openrummy/web/js/clock.js).
// Run: node --test tests/js
import { test } from "node:test";
import assert from "node:assert/strict";
import { clockText, timerParts } from "../../src/openrummy/web/js/clock.js";

test("the turn's own time counts down first, the bank waits", () => {
  assert.deepEqual(timerParts(42, 30), { turn: 12, bank: 30, inBank: false });
  assert.deepEqual(timerParts(30.2, 30), { turn: 1, bank: 30, inBank: false });
});

test("once the turn's time is over the bank counts down", () => {
  assert.deepEqual(timerParts(25, 30), { turn: 0, bank: 25, inBank: true });
  assert.deepEqual(timerParts(-3, 30), { turn: 0, bank: 0, inBank: true });
});

test("without a bank the timer is the turn's time", () => {
  assert.deepEqual(timerParts(9.5, null), { turn: 10, bank: 0, inBank: false });
  assert.deepEqual(timerParts(9.5, 0), { turn: 10, bank: 0, inBank: false });
});

test("seconds read as m:ss", () => {
  assert.equal(clockText(0), "0:00");
  assert.equal(clockText(75), "1:15");
  assert.equal(clockText(-4), "0:00");
});
