// Rummikub's words: texts with a `.tiles` form say "tile" and "rack" at a tile table
// (src/openrummy/web/js/i18n.js). Run: node --test tests/js
import "./fake_dom.mjs";

import assert from "node:assert/strict";
import { test } from "node:test";

import { setLang, setTiles, t, tn } from "../../src/openrummy/web/js/i18n.js";
import { en } from "../../src/openrummy/web/js/lang/en.js";
import { de } from "../../src/openrummy/web/js/lang/de.js";

test("a tile table says tile, a card table card, in both languages", () => {
  setLang("en");
  setTiles(true);
  assert.equal(t("hand.title"), "Your rack");
  assert.equal(tn("manip.penalty", 3), "If you submit it, the table goes back and you draw 3 penalty tiles.");
  assert.equal(t("btn.done"), "Done"); // no tile form: the common text
  setLang("de");
  assert.equal(t("hint.none"), "Kein Zug möglich: zieh einen Stein.");
  setTiles(false);
  assert.equal(t("hint.none"), "Kein Zug möglich: zieh eine Karte.");
  setLang("en");
  assert.equal(t("hand.title"), "Your hand");
});

test("every tile form has its common text and both languages", () => {
  for (const dict of [en, de]) {
    for (const key of Object.keys(dict).filter((k) => k.endsWith(".tiles"))) {
      assert.ok(key.slice(0, -6) in dict, key);
      assert.ok(key in en && key in de, key);
    }
  }
});

// Texts a tile table never shows: Indian Rummy's, the discard pile's, the lobby's and the
// card puzzles' (a draw button of its own, btn.draw_tile, says tile).
const CARD_ONLY = /^(indian\.|preset|lobby\.|puzzle\.(answer_|set_help\.(robbers|indian))|btn\.(draw|take|discard_card|discard_pick)$|summary\.deadwood$)/;

/** The words of a text, without its placeholders ({card} is a tile at a tile table). */
const words = (/** @type {string | undefined} */ s) => (s ?? "").replace(/\{[^}]*\}/g, "");

test("every text that says card has a tile form, unless a tile table never shows it", () => {
  const says = (/** @type {string} */ key) => /\bcards?\b/i.test(words(en[key])) || /karte/i.test(words(de[key]));
  const missing = Object.keys(en).filter((key) => !key.endsWith(".tiles") && says(key) && !(`${key}.tiles` in en) && !CARD_ONLY.test(key));
  assert.deepEqual(missing, []);
  for (const key of Object.keys(en).filter((k) => k.endsWith(".tiles"))) assert.ok(!says(key), key);
});
