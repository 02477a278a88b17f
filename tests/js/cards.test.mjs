// The web client's card notation, labels and hand order (src/openrummy/web/js/cards.js) and
// its texts (i18n.js), with no browser: `node --test tests/js/`.
import "./fake_dom.mjs";

import assert from "node:assert/strict";
import { test } from "node:test";

import { cardLabel, isRed, parseCard, parseItem, rankText, sortKey } from "../../src/openrummy/web/js/cards.js";
import { getLang, LANGS, setLang, t, tn } from "../../src/openrummy/web/js/i18n.js";
import { de } from "../../src/openrummy/web/js/lang/de.js";
import { en } from "../../src/openrummy/web/js/lang/en.js";

test("cards and tiles read in the game's notation", () => {
  assert.deepEqual(parseCard("10H"), { text: "10H", joker: false, rank: 10, suit: "H", tile: false });
  assert.deepEqual(parseCard(" qs "), { text: "QS", joker: false, rank: 12, suit: "S", tile: false });
  assert.equal(parseCard("AS").rank, 1);
  assert.equal(parseCard("JD").rank, 11);
  assert.equal(parseCard("KC").rank, 13);
  assert.equal(parseCard("TD").rank, 10);
  assert.deepEqual(parseCard("JK"), { text: "JK", joker: true, rank: 0, suit: "", tile: false });
  assert.deepEqual(parseCard("R7"), { text: "R7", joker: false, rank: 7, suit: "R", tile: true });
  assert.deepEqual(parseCard("B13"), { text: "B13", joker: false, rank: 13, suit: "B", tile: true });
  // Not a card: no rank, no suit (shown as written, never guessed).
  for (const bad of ["1H", "11S", "ZZ", "R14", "R0", "", "10X"]) {
    const c = parseCard(bad);
    assert.equal(c.rank, 0, bad);
    assert.equal(c.joker, false, bad);
  }
});

test("a meld item is a card and, for a joker, what it stands for", () => {
  assert.deepEqual(parseItem("JK=7H"), { card: "JK", ident: "7H" });
  assert.deepEqual(parseItem("7H"), { card: "7H", ident: null });
  assert.deepEqual(parseItem("JK"), { card: "JK", ident: null });
});

test("red suits are hearts and diamonds; tiles have no suit colour", () => {
  assert.deepEqual(["2H", "3D", "4S", "5C", "JK", "R7"].map(isRed), [true, true, false, false, false, false]);
});

test("sorting by suit, then by rank; jokers last", () => {
  const hand = ["JK", "KD", "2S", "AH", "10S", "2H", "QC", "AS"];
  const bySuit = [...hand].sort((a, b) => sortKey(a, "suit") - sortKey(b, "suit"));
  assert.deepEqual(bySuit, ["AS", "2S", "10S", "AH", "2H", "KD", "QC", "JK"]);
  const byRank = [...hand].sort((a, b) => sortKey(a, "rank") - sortKey(b, "rank"));
  assert.deepEqual(byRank, ["AS", "AH", "2S", "2H", "10S", "QC", "KD", "JK"]);
  // Tiles: black, red, orange, blue take the places of the four suits.
  const tiles = ["B1", "K13", "O2", "R2", "JK", "K1"];
  const tilesBySuit = [...tiles].sort((a, b) => sortKey(a, "suit") - sortKey(b, "suit"));
  assert.deepEqual(tilesBySuit, ["K1", "K13", "R2", "O2", "B1", "JK"]);
  // Every card has its own key within a deck: the order never depends on the input order.
  const deck = ["S", "H", "D", "C"].flatMap((s) => ["A", 2, 3, 4, 5, 6, 7, 8, 9, 10, "J", "Q", "K"].map((r) => `${r}${s}`));
  for (const by of /** @type {const} */ (["suit", "rank"])) {
    assert.equal(new Set(deck.map((c) => sortKey(c, by))).size, 52, by);
  }
});

test("card labels in English and German", () => {
  setLang("en");
  assert.equal(cardLabel("10H"), "10♥");
  assert.equal(cardLabel("QS"), "Q♠");
  assert.equal(cardLabel("JK"), en["card.joker"]);
  assert.equal(cardLabel("JK=7H"), `${en["card.joker"]}=7♥`);
  assert.equal(cardLabel("R7"), `${en["colour.red"]} 7`);
  assert.equal(cardLabel("??"), "??");
  assert.equal(cardLabel(""), "");
  assert.equal(rankText(11), "J");
  setLang("de");
  try {
    assert.equal(getLang(), "de");
    assert.equal(cardLabel("QS"), "D♠");
    assert.equal(cardLabel("JC"), "B♣");
    assert.equal(cardLabel("KH"), "K♥");
    assert.equal(cardLabel("R7"), `${de["colour.red"]} 7`);
  } finally {
    setLang("en");
  }
});

test("texts: placeholders, plurals, an unknown language is refused", () => {
  setLang("en");
  assert.equal(t("no.such.key"), "no.such.key");
  const key = Object.keys(en).find((k) => k.endsWith(".one") && `${k.slice(0, -4)}.other` in en);
  assert.ok(key, "a plural text");
  const base = key.slice(0, -4);
  assert.equal(tn(base, 1), t(`${base}.one`, { n: 1 }));
  assert.equal(tn(base, 3), t(`${base}.other`, { n: 3 }));
  setLang("xx");
  assert.equal(getLang(), "en");
});

test("English and German have the same keys and the same placeholders", () => {
  assert.deepEqual(LANGS, ["en", "de"]);
  assert.deepEqual(Object.keys(de).sort(), Object.keys(en).sort());
  const holes = (/** @type {string} */ s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
  for (const [k, text] of Object.entries(en)) {
    assert.deepEqual(holes(/** @type {any} */ (de)[k]), holes(text), k);
  }
});
