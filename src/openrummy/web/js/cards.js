// @ts-check
/**
 * Cards and tiles in the game's notation (`10H`, `JK`, `JK=7H`, `R7`), rendered as
 * elements. Ranks are shown in the player's language (German B/D/K for J/Q/K).
 */
import { h } from "./dom.js";
import { getLang, t } from "./i18n.js";

/**
 * @typedef {{text: string, joker: boolean, rank: number, suit: string, tile: boolean}} CardInfo
 * suit: one of S H D C for cards (tiles: K R O B mapped onto the same letters' colours).
 */

/** @type {{[suit: string]: string}} */
const SUIT_SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
/** @type {{[letter: string]: string}} */
const TILE_COLOUR = { K: "black", R: "red", O: "orange", B: "blue" };
const RANK_EN = { 1: "A", 11: "J", 12: "Q", 13: "K" };
const RANK_DE = { 1: "A", 11: "B", 12: "D", 13: "K" };

/**
 * Read one card or tile (`10H`, `QS`, `JK`, `R7`, `B13`).
 * @param {string} text
 * @returns {CardInfo}
 */
export function parseCard(text) {
  const s = text.trim().toUpperCase();
  if (s === "JK") return { text: "JK", joker: true, rank: 0, suit: "", tile: false };
  const tile = /^([KROB])(1[0-3]|[1-9])$/.exec(s);
  if (tile) return { text: s, joker: false, rank: Number(tile[2]), suit: tile[1], tile: true };
  const m = /^(10|[2-9AJQKT])([SHDC])$/.exec(s);
  if (!m) return { text: s, joker: false, rank: 0, suit: "", tile: false };
  const r = m[1];
  const rank = r === "A" ? 1 : r === "J" ? 11 : r === "Q" ? 12 : r === "K" ? 13 : r === "T" ? 10 : Number(r);
  return { text: s, joker: false, rank, suit: m[2], tile: false };
}

/**
 * A meld item: `7H`, `JK`, `JK=7H` (a joker and what it stands for).
 * @param {string} token
 * @returns {{card: string, ident: string | null}}
 */
export function parseItem(token) {
  const [card, ident] = token.split("=");
  return { card, ident: ident || null };
}

/** @param {number} rank */
export function rankText(rank) {
  const names = getLang() === "de" ? RANK_DE : RANK_EN;
  return /** @type {any} */ (names)[rank] || String(rank);
}

/**
 * The card as a short text for sentences: `10♥`, `D♠` in German, `red 7` for a tile.
 * @param {string} text
 * @returns {string}
 */
export function cardLabel(text) {
  if (!text) return "";
  const [card, ident] = text.split("=");
  const c = parseCard(card);
  let out;
  if (c.joker) out = t("card.joker");
  else if (c.tile) out = `${t(`colour.${TILE_COLOUR[c.suit]}`)} ${c.rank}`;
  else if (!c.rank) out = card;
  else out = `${rankText(c.rank)}${SUIT_SYMBOL[c.suit]}`;
  return ident ? `${out}=${cardLabel(ident)}` : out;
}

/** @param {string} text */
export function isRed(text) {
  const c = parseCard(text);
  return !c.tile && (c.suit === "H" || c.suit === "D");
}

/**
 * A card face. `ident` is what a joker stands for (shown small on the card).
 * @param {string} text
 * @param {{ident?: string | null, id?: string, small?: boolean, wild?: boolean, extra?: string}} [opts]
 * @returns {HTMLElement}
 */
export function cardEl(text, opts = {}) {
  const c = parseCard(text);
  const cls = ["card"];
  if (opts.small) cls.push("small");
  if (opts.extra) cls.push(opts.extra);
  /** @type {HTMLElement} */
  let el;
  const label = cardLabel(opts.ident ? `${text}=${opts.ident}` : text);
  if (c.joker) {
    cls.push("joker");
    el = h(
      "div",
      { class: cls.join(" ") },
      h("span", { class: "corner" }, "★"),
      h("span", { class: "pip" }, "★"),
      h("span", { class: "jk-word" }, "JOKER"),
      opts.ident ? h("span", { class: "ident" }, "=" + cardLabel(opts.ident)) : null,
    );
  } else if (c.tile) {
    cls.push("tile", `tc-${TILE_COLOUR[c.suit]}`);
    el = h("div", { class: cls.join(" ") }, h("span", { class: "num" }, String(c.rank)), h("span", { class: "dot" }));
  } else {
    cls.push(isRed(text) ? "red" : "black");
    const sym = SUIT_SYMBOL[c.suit] || "?";
    el = h(
      "div",
      { class: cls.join(" ") },
      h("span", { class: "corner" }, rankText(c.rank), h("br"), sym),
      h("span", { class: "pip" }, sym),
    );
  }
  if (opts.wild) el.classList.add("wild");
  el.setAttribute("aria-label", label);
  el.title = label;
  el.dataset.card = text;
  if (opts.ident) el.dataset.ident = opts.ident;
  if (opts.id) el.dataset.id = opts.id;
  return el;
}

/**
 * Sort keys: by suit then rank, or by rank then suit. Jokers last.
 * @param {string} text
 * @param {"suit" | "rank"} by
 */
export function sortKey(text, by) {
  const c = parseCard(text);
  if (c.joker) return 10_000;
  const suit = "SHDCKROB".indexOf(c.suit) % 4;
  return by === "suit" ? suit * 100 + c.rank : c.rank * 10 + suit;
}
