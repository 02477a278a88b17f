// @ts-check
/**
 * The game log in the player's language. The server sends each event in English words
 * (`event.text`) with the action in notation (`event.action`); the page words it again from
 * the action, and translates the engine's reasons where it knows them.
 */
import { cardLabel, prettyCards } from "./cards.js";
import { getLang, t, tn } from "./i18n.js";

/**
 * @typedef {{seq: number, seat: number, actor: string, action: string, text: string, accepted: boolean, at: number}} GameEvent
 */

/**
 * @param {GameEvent} ev
 * @param {string[]} names
 * @param {string} family
 * @returns {string}
 */
export function eventText(ev, names, family) {
  const name = names[ev.seat] ?? `#${ev.seat}`;
  const a = ev.action;
  const txt = ev.text || "";
  const num = (/** @type {RegExp} */ re) => {
    const m = re.exec(txt);
    return m ? Number(m[1]) : 0;
  };
  let out;
  if (a === "draw") {
    out = txt.includes("hand is void") ? t("ev.void") : t(family === "indian" ? "ev.draw_stock" : "ev.draw", { name });
  } else if (a === "take") {
    const m = /took (\S+) from/.exec(txt);
    out = t("ev.take", { name, card: m ? cardLabel(m[1]) : "" });
  } else if (a.startsWith("discard ")) {
    out = t("ev.discard", { name, card: cardLabel(a.slice(8)) });
  } else if (a === "pass") out = t("ev.pass", { name });
  else if (a === "end") out = t("ev.end", { name });
  else if (a === "abandon" || a === "timeout") {
    out = t(a === "timeout" ? "ev.timeout" : "ev.abandon", { name });
    const n = num(/drew (\d+) as a penalty/);
    if (!ev.accepted && n) out += " " + tn("ev.penalty", n);
  } else if (a === "drop") {
    const m = /\((first|middle) drop, (\d+)\)/.exec(txt);
    out = t(m && m[1] === "middle" ? "ev.drop_middle" : "ev.drop_first", { name, points: m ? m[2] : "" });
  } else if (a.startsWith("play")) {
    if (ev.accepted) {
      out = tn("ev.play", num(/placed (\d+) card/), { name });
      const opened = num(/opened with (\d+)/);
      if (opened) out += " " + t("ev.opened", { value: opened });
      const jokers = num(/retrieving (\d+) joker/);
      if (jokers) out += " " + tn("ev.retrieved", jokers);
      if (/went out/.test(txt)) out += " " + t("ev.out");
    } else {
      const m = /play failed \((.*)\); drew (\d+) as a penalty/.exec(txt);
      out = t("ev.play_failed", { name, reason: m ? reasonText(m[1]) : "" });
      if (m) out += " " + tn("ev.penalty", Number(m[2]));
    }
  } else if (a.startsWith("declare")) {
    if (ev.accepted) out = t("ev.declared", { name });
    else {
      const m = /was invalid \((.*)\): (\d+) points/.exec(txt);
      out = t("ev.declare_invalid", { name, reason: m ? reasonText(m[1]) : "", points: m ? m[2] : "" });
    }
  } else if (a.startsWith("show")) out = t("ev.show", { name });
  else out = prettyCards(txt);
  if (ev.actor === "standin") out += " " + t("ev.standin");
  if (ev.actor === "server" && a !== "timeout") out += " " + t("ev.server");
  return out;
}

/** English reasons of the engine (melds.py, commit.py) and their German wording. */
const REASONS_DE = /** @type {[RegExp, string][]} */ ([
  [/^(C\d): (.*)$/, "$1: $2"],
  [/^(\[.*?\]) is not valid: (.*)$/, "$1 ist ungültig: $2"],
  [/^(.*) is not a sequence of consecutive ranks$/, "$1 ist keine lückenlose Folge"],
  [/^(.*) is not a run with the ace low only$/, "$1 ist keine Reihe (das Ass zählt nur niedrig)"],
  [/^(.*) is not a run: the ace is high or low, not both$/, "$1 ist keine Reihe: das Ass ist hoch oder niedrig, nicht beides"],
  [/^(\d+) cards? — a meld needs at least 3$/, "$1 Karte(n) — eine Kombination braucht mindestens 3"],
  [/^a meld needs at least (\d+) natural cards?$/, "eine Kombination braucht mindestens $1 natürliche Karte(n)"],
  [/^neither a set \(one rank\) nor a run \(one suit\)$/, "weder ein Satz (ein Rang) noch eine Reihe (eine Farbe)"],
  [/^a set has at most (\d+) cards, this one has (\d+)$/, "ein Satz hat höchstens $1 Karten, dieser hat $2"],
  [/^a set may not repeat a suit.*$/, "ein Satz darf keine Farbe doppelt enthalten"],
  [/^a run needs at least (\d+) cards$/, "eine Reihe braucht mindestens $1 Karten"],
  [/^a run may not repeat a rank$/, "eine Reihe darf keinen Rang doppelt enthalten"],
  [/^the joker has no declared identity.*$/, "der Joker hat keine angesagte Bedeutung"],
  [/^choose what the joker stands for$/, "wähle, wofür der Joker steht"],
  [/^no identity of the joker makes this a meld$/, "keine Bedeutung des Jokers ergibt eine Kombination"],
  [/^a play must place at least one card from your hand$/, "ein Zug muss mindestens eine Karte aus der Hand legen"],
  [/^(.*) would leave the table \(table cards never go to a hand\)$/, "$1 würde den Tisch verlassen (Tischkarten gehen nie auf die Hand)"],
  [/^the play came after (.*) s; the limit is (.*) s$/, "der Zug kam nach $1 s; das Limit ist $2 s"],
  [/^you may retrieve a joker only after you have opened$/, "einen Joker darfst du erst nach der Eröffnung tauschen"],
  [/^a retrieved joker must be played again in the same turn$/, "ein getauschter Joker muss im selben Zug wieder ausgelegt werden"],
  [/^a retrieved joker must go into (.*) this turn$/, "ein getauschter Joker muss in diesem Zug in $1"],
  [/^the opening is worth (\d+); it needs (\d+).*$/, "die Eröffnung ist $1 wert; nötig sind $2"],
  [/^(.*) is not a meld: (.*)$/, "$1 ist keine Kombination: $2"],
  [/^the melds from your hand are worth (\d+)$/, "die Figuren aus deiner Hand sind $1 Punkte wert"],
  [/^the opening needs (\d+)$/, "die Eröffnung braucht $1"],
  [/^you place (\d+) × (.*) but hold (\d+)$/, "du legst $1 × $2, hast aber nur $3"],
  [/^(.*) is not in your hand$/, "$1 ist nicht auf deiner Hand"],
  [/^on your opening turn the table must stay as it was \((.*) was changed\)$/, "im Eröffnungszug bleibt der Tisch, wie er war ($1 wurde verändert)"],
  [/^lay only melds from your hand$/, "lege nur Figuren aus deiner Hand aus"],
  [/^your opening must include a run of at least (\d+) cards from your hand$/, "deine Eröffnung braucht eine Reihe von mindestens $1 Karten aus der Hand"],
  [/^cards added to other players' melds must come from your hand$/, "Karten an fremden Figuren müssen aus deiner Hand kommen"],
  [/^the groups must show exactly your cards without the finish card: (.*)$/, "die Gruppen müssen genau deine Karten ohne die Schlusskarte zeigen: $1"],
  [/^not a valid declaration$/, "keine gültige Meldung"],
  [/^no pure sequence \(a sequence without wild cards is required\)$/, "keine reine Sequenz (eine Sequenz ohne Joker ist Pflicht)"],
  [/^only (\d+) pure sequences \((\d+) needed\)$/, "nur $1 reine Sequenzen ($2 nötig)"],
  [/^only (\d+) sequences? \((\d+) needed, one pure\)$/, "nur $1 Sequenz(en) ($2 nötig, eine davon rein)"],
  [/^only (\d+) sets? \((\d+) needed\)$/, "nur $1 Satz/Sätze ($2 nötig)"],
  [/^the groups cannot be read so as to meet the requirement$/, "die Gruppen erfüllen die Bedingung nicht"],
  [/^no grouping of these cards meets the requirement$/, "keine Gruppierung dieser Karten erfüllt die Bedingung"],
]);

/**
 * An engine reason in the player's language, cards in symbols.
 * @param {string} reason
 * @returns {string}
 */
export function reasonText(reason) {
  if (getLang() !== "de") return prettyCards(reason);
  const parts = reason.split("; ").map((part) => {
    for (const [re, rep] of REASONS_DE) {
      const m = re.exec(part);
      if (!m) continue;
      // Translate the captured pieces too (nested reasons: "C1: [..] is not valid: …").
      return rep.replace(/\$(\d)/g, (_, k) => reasonText(m[Number(k)] || ""));
    }
    return part;
  });
  return prettyCards(parts.join("; "));
}
