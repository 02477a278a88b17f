// Render messages with the web page's messages.js, for tests/test_messages.py.
// Usage: node render_messages.mjs WEB_JS_DIR < {"catalogue": {...}, "lang": "de", "tiles": false, "messages": [...], "cards": [...], "melds": [...]}
// With "tiles": the page at a tile table (Rummikub), as the table page sets it.
// Prints {"texts": [...], "cards": {...}, "melds": {...}}.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const input = JSON.parse(readFileSync(0, "utf-8"));
globalThis.localStorage = { getItem: () => input.lang, setItem: () => {} };
globalThis.navigator = { languages: [input.lang], language: input.lang };
globalThis.document = { documentElement: { lang: input.lang } };
const dir = pathToFileURL(process.argv[2] + "/").href;
const { render, setCatalogue, meldLabel } = await import(dir + "messages.js");
const { cardLabel } = await import(dir + "cards.js");
const { setTiles } = await import(dir + "i18n.js");
setCatalogue(input.catalogue);
setTiles(!!input.tiles);
const out = {
  texts: input.messages.map((m) => render(m.message, m.names ?? undefined, input.lang)),
  cards: Object.fromEntries(input.cards.map((c) => [c, cardLabel(c)])),
  melds: Object.fromEntries(input.melds.map((m) => [m, meldLabel(m)])),
};
process.stdout.write(JSON.stringify(out));
