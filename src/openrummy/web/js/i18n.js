// @ts-check
/**
 * Texts in English and German. The language comes from the saved choice, else from the
 * browser (`navigator.languages`); `setLang` switches it and re-renders the page.
 */
import { en } from "./lang/en.js";
import { de } from "./lang/de.js";

/** @type {{[lang: string]: {[key: string]: string}}} */
const DICTS = { en, de };
export const LANGS = ["en", "de"];

/** @returns {string} */
function initialLang() {
  const saved = localStorage.getItem("openrummy.lang");
  if (saved && LANGS.includes(saved)) return saved;
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const base = l.slice(0, 2).toLowerCase();
    if (LANGS.includes(base)) return base;
  }
  return "en";
}

let lang = initialLang();
/** @type {(() => void)[]} */
const listeners = [];

export function getLang() {
  return lang;
}

/** @param {string} l */
export function setLang(l) {
  if (!LANGS.includes(l) || l === lang) return;
  lang = l;
  localStorage.setItem("openrummy.lang", l);
  document.documentElement.lang = l;
  for (const f of listeners) f();
}

/** Rummikub: texts that have a `.tiles` form say "tile" and "rack" (set by the table page). */
let tiles = false;

/** @param {boolean} on */
export function setTiles(on) {
  tiles = on;
}

/** Whether the page is at a tile table (the message catalogue's `tiles` forms apply). */
export function getTiles() {
  return tiles;
}

/** @param {() => void} f */
export function onLangChange(f) {
  listeners.push(f);
}

/**
 * The text for `key` in the current language, `{name}` placeholders filled from `params`.
 * @param {string} key
 * @param {{[k: string]: string | number}} [params]
 * @returns {string}
 */
export function t(key, params) {
  const dict = DICTS[lang];
  let s = (tiles ? dict[`${key}.tiles`] ?? DICTS.en[`${key}.tiles`] : undefined) ?? dict[key] ?? DICTS.en[key] ?? key;
  if (params) {
    for (const [k, v] of Object.entries(params)) s = s.split(`{${k}}`).join(String(v));
  }
  return s;
}

/**
 * Singular or plural text: `key.one` / `key.other`.
 * @param {string} key
 * @param {number} n
 * @param {{[k: string]: string | number}} [params]
 */
export function tn(key, n, params = {}) {
  return t(`${key}.${n === 1 ? "one" : "other"}`, { n, ...params });
}

document.documentElement.lang = lang;
