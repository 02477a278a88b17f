// @ts-check
/**
 * The game log in the player's language. The server sends each event as data
 * (`event.data`: `{code: "opened", seat: 1, value: 75, ...}`) with the action in notation
 * (`event.action`); the message catalogue words it (see messages.js).
 */
import { render } from "./messages.js";
import { t } from "./i18n.js";

/**
 * @typedef {{seq: number, seat: number, actor: string, action: string, text: string, accepted: boolean, at: number, data?: {[key: string]: any}, after?: {[key: string]: any}[]}} GameEvent
 */

/**
 * @param {GameEvent} ev
 * @param {string[]} names
 * @returns {string}
 */
export function eventText(ev, names) {
  let out = ev.data ? render(ev.data, names) : ev.text || "";
  if (ev.actor === "standin") out += " " + t("ev.standin");
  if (ev.actor === "server" && ev.action !== "timeout") out += " " + t("ev.server");
  return out;
}
