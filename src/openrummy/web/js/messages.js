// @ts-check
/**
 * Events, violations and reasons in the player's language, from the server's message
 * catalogue (`/messages/catalogue.json`, the same file the engine renders its English with).
 * A message is data: `{code: "opened", seat: 1, value: 75, ...}` or
 * `{code: "C6", reason: "retrieve_before_open"}`; templates name its parameters in braces,
 * `{n|one|other}` picks a plural form (`#` is the number).
 */
import { cardLabel } from "./cards.js";
import { getLang, getTiles } from "./i18n.js";

/**
 * At a tile table (Rummikub, `setTiles` of i18n.js) an entry's `tiles` form says tile and rack.
 * @typedef {{[lang: string]: any}} Texts
 * @typedef {Texts & {params: string[], parts?: string[], tiles?: Texts}} Entry
 * @typedef {Texts & {when: string, tiles?: Texts}} Part
 * @typedef {{params: {[name: string]: string}, words: {[key: string]: Texts & {tiles?: Texts}}, events: {[code: string]: Entry}, parts: {[name: string]: Part}, reasons: {[key: string]: Entry}}} Catalogue
 * @typedef {{[key: string]: any}} Message
 */

/** @type {Catalogue | null} */
let catalogue = null;

/** Load the catalogue once (the page waits for it before its first render). */
export async function loadCatalogue() {
  if (catalogue) return catalogue;
  const res = await fetch("/messages/catalogue.json");
  if (!res.ok) throw new Error(`message catalogue: HTTP ${res.status}`);
  catalogue = /** @type {Catalogue} */ (await res.json());
  return catalogue;
}

/** @param {Catalogue} data */
export function setCatalogue(data) {
  catalogue = data;
}

/**
 * A meld in notation (`[5H 6H JK=7H]`) as card labels.
 * @param {string} meld
 */
export function meldLabel(meld) {
  const inner = meld.startsWith("[") && meld.endsWith("]") ? meld.slice(1, -1) : meld;
  return `[${inner.split(" ").filter(Boolean).map(cardLabel).join(" ")}]`;
}

/**
 * A message in words; `names` replace seat numbers.
 * @param {Message | null | undefined} msg
 * @param {string[]} [names]
 * @param {string} [lang]
 * @returns {string}
 */
export function render(msg, names, lang = getLang()) {
  if (!msg) return "";
  const cat = catalogue;
  if (!cat) return String(msg.reason ?? msg.code ?? "");
  const entry = msg.reason !== undefined ? cat.reasons[msg.reason] : cat.events[msg.code];
  if (!entry) return String(msg.reason ?? msg.code ?? "");
  let text = fill(words(entry, lang), msg, names, lang);
  for (const name of entry.parts || []) {
    const part = cat.parts[name];
    if (msg[part.when]) text += fill(words(part, lang), msg, names, lang);
  }
  return text;
}

/**
 * An entry's template (or a word) in a language: its tile form at a tile table.
 * @param {Texts & {tiles?: Texts}} entry
 * @param {string} lang
 * @returns {string}
 */
function words(entry, lang) {
  const form = getTiles() && entry.tiles ? entry.tiles : entry;
  return form[lang] ?? form.en;
}

/**
 * A server error in words: the engine's reason as data (`why`) when it carries one, else its
 * message.
 * @param {{message?: string, why?: Message | null}} err
 */
export function errorText(err) {
  return err.why ? render(err.why) : String(err.message ?? "");
}

/**
 * Several violations (or reasons) in words, one after the other.
 * @param {Message[]} list
 * @param {string[]} [names]
 */
export function renderAll(list, names) {
  return list.map((m) => render(m, names)).join("; ");
}

/**
 * @param {string} template
 * @param {Message} msg
 * @param {string[] | undefined} names
 * @param {string} lang
 */
function fill(template, msg, names, lang) {
  let out = "";
  let rest = template;
  for (;;) {
    const start = rest.indexOf("{");
    if (start < 0) return out + rest;
    const end = rest.indexOf("}", start);
    out += rest.slice(0, start);
    const [name, one, other] = rest.slice(start + 1, end).split("|");
    const value = msg[name];
    if (one !== undefined) out += (value === 1 ? one : other).split("#").join(String(value));
    else out += format(name, value, names, lang);
    rest = rest.slice(end + 1);
  }
}

/**
 * @param {string} name
 * @param {any} value
 * @param {string[] | undefined} names
 * @param {string} lang
 */
function format(name, value, names, lang) {
  const cat = /** @type {Catalogue} */ (catalogue);
  const kind = cat.params[name];
  if (value === undefined || value === null) return "";
  if (kind === "seat") return seat(value, names, lang);
  if (kind === "seats") return value.map((/** @type {number} */ s) => seat(s, names, lang)).join(", ");
  if (kind === "card") return cardLabel(value);
  if (kind === "cards") return value.map(cardLabel).join(" ");
  if (kind === "meld") return meldLabel(value);
  if (kind === "melds") return value.map(meldLabel).join(" ");
  if (kind === "word") return cat.words[value] ? words(cat.words[value], lang) : String(value);
  if (kind === "message") return render(value, names, lang);
  if (kind === "messages") return value.map((/** @type {Message} */ v) => render(v, names, lang)).join("; ");
  return String(value);
}

/**
 * @param {number} s
 * @param {string[] | undefined} names
 * @param {string} lang
 */
function seat(s, names, lang) {
  if (names && names[s] !== undefined) return names[s];
  const word = /** @type {Catalogue} */ (catalogue).words.seat;
  return (word[lang] ?? word.en).split("#").join(String(s));
}
