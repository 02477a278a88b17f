// Follow hints with the table's gestures, on the page's own turn model (ManipBoard of
// src/openrummy/web/js/manip.js) with a stand-in DOM: drag a hand card onto a meld or onto
// New meld, drag a table card to another meld, drop a natural card on the joker it stands
// for, choose a joker's identity under its meld. Never "Apply to the table".
// For tests/test_web_hints.py.
// Usage: node hint_gestures.mjs WEB_JS_DIR < {"catalogue", "positions": [{"view", "rules", "steps", "swap_first"}]}
// A step is solve.explain_steps' Step: {takes: [[meld, [cards]]], from_hand, target, swap, result}.
// Prints [{"play": "play [..] retrieve ..", "toasts": [...]}].
import { FakeElement, toasts } from "./fake_dom.mjs";

import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const input = JSON.parse(readFileSync(0, "utf-8"));
const dir = pathToFileURL(process.argv[2] + "/").href;
const { ManipBoard } = await import(dir + "manip.js");
const { setCatalogue } = await import(dir + "messages.js");
const { parseCard } = await import(dir + "cards.js");
setCatalogue(input.catalogue);

/** @param {string} text */
const tokens = (text) => text.replace(/[[\]]/g, " ").trim().split(/\s+/).filter(Boolean);
const bare = (/** @type {string} */ tok) => tok.split("=")[0];

const out = [];
for (const pos of input.positions) {
  toasts.length = 0;
  const ctx = {
    id: "t",
    root: new FakeElement("main"),
    view: pos.view,
    rules: pos.rules,
    seat: pos.view.seat,
    myTurn: true,
    token: null,
    names: [],
    render() {},
  };
  const board = new ManipBoard(ctx);
  board.onView(pos.view);
  const used = new Set();
  const items = () => [...board.melds.flatMap((m) => m.items), ...board.hand];
  // A player may do the joker swaps first (drop the card on the joker), then the rest.
  const steps = pos.swap_first ? [...pos.steps.filter((st) => st.swap), ...pos.steps.filter((st) => !st.swap)] : pos.steps;
  for (const st of steps) {
    /** @type {string | null} */
    let target = st.target === null ? null : `meld:m${st.target}`;
    if (target && !board.melds.some((m) => `meld:${m.id}` === target)) target = null;
    const place = (/** @type {any} */ it) => {
      if (target === null) {
        board.move([it.id], "new", null);
        target = `meld:${board.melds[board.melds.length - 1].id}`;
      } else board.move([it.id], target, null);
    };
    const hand = [...st.from_hand];
    if (st.swap && target) {
      // Drop the card the joker stands for on the joker: the documented swap.
      const meld = board.melds.find((m) => `meld:${m.id}` === target);
      // The joker of a set may stand for another missing suit than the card's ("put AD into
      // [JK=AS AH AC] in place of the joker"): the card the joker stands for first, else any
      // joker of the meld of the card's rank.
      for (const c of [...hand]) {
        const natural = board.hand.find((i) => i.card === c && i.origin === "hand");
        const jokers = (meld?.items || []).filter((i) => i.card === "JK" && i.ident);
        const rank = (/** @type {string} */ x) => parseCard(x).rank;
        const joker = jokers.find((i) => bare(i.ident) === c) || jokers.find((i) => rank(bare(i.ident)) === rank(c));
        if (natural && joker && board.trySwap(natural.id, joker.id)) {
          hand.splice(hand.indexOf(c), 1);
          break;
        }
      }
    }
    for (const [from, cards] of st.takes) {
      for (const c of cards) {
        const it = items().find((i) => i.origin === "table" && i.startMeld === from && i.card === c && !used.has(i.id));
        if (!it) throw new Error(`no ${c} from meld ${from}`);
        used.add(it.id);
        place(it);
      }
    }
    for (const c of hand) {
      const it = board.hand.find((i) => i.card === c && i.origin === "hand");
      if (!it) throw new Error(`no ${c} in the hand`);
      place(it);
    }
    // Choose the joker's identity (and the order) the hint shows, as under a meld.
    const k = board.melds.findIndex((m) => `meld:${m.id}` === target);
    const want = tokens(st.result).map(bare).sort().join(" ");
    if (k >= 0 && board.melds[k].items.map((i) => i.card).sort().join(" ") === want) board.chooseIdentity(k, st.result);
  }
  out.push({ play: board.playText(), toasts: toasts.map(([text]) => text) });
  board.detach?.();
}
process.stdout.write(JSON.stringify(out));
process.exit(0);
