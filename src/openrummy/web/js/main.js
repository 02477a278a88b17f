// @ts-check
/**
 * The page's entry: the top bar (language switch) and the routes
 * `#/` (lobby), `#/t/{id}` (a table), `#/replay/{id}` (a finished game),
 * `#/puzzles` and `#/puzzles/{id}` (the puzzles).
 */
import { h, replace } from "./dom.js";
import { LANGS, getLang, onLangChange, setLang, t } from "./i18n.js";
import { lobbyPage } from "./lobby.js";
import { loadCatalogue } from "./messages.js";
import { puzzlePage, puzzlesIndex } from "./puzzles.js";
import { replayPage } from "./replay.js";
import { tablePage } from "./table.js";

/** @type {{destroy: () => void} | null} */
let current = null;
const app = /** @type {HTMLElement} */ (document.getElementById("app"));
const bar = /** @type {HTMLElement} */ (document.getElementById("topbar"));

function topbar() {
  replace(
    bar,
    h("a", { href: "#/", class: "brand" }, h("span", { class: "logo", "aria-hidden": "true" }, "🃏"), " OpenRummy"),
    h("nav", { class: "pages" }, h("a", { href: "#/puzzles", id: "nav-puzzles", class: "nav-link" }, "🧩 ", t("nav.puzzles"))),
    h(
      "nav",
      { class: "lang", "aria-label": t("nav.language") },
      LANGS.map((l) =>
        h("button", { class: `lang-btn ${l === getLang() ? "on" : ""}`, "aria-pressed": l === getLang() ? "true" : "false", "data-lang": l, onclick: () => setLang(l) }, l.toUpperCase()),
      ),
    ),
  );
  document.title = `OpenRummy — ${t("app.tagline")}`;
}

async function route() {
  current?.destroy();
  current = null;
  const hash = location.hash.replace(/^#\/?/, "");
  const [page, id] = hash.split("/");
  if (page === "t" && id) current = tablePage(app, id);
  else if (page === "replay" && id) current = await replayPage(app, id);
  else if (page === "puzzles" && id) current = puzzlePage(app, id);
  else if (page === "puzzles") await puzzlesIndex(app);
  else {
    await lobbyPage(app);
  }
}

onLangChange(() => {
  topbar();
  const hash = location.hash.replace(/^#\/?/, "");
  if (!hash.startsWith("t/") && !hash.startsWith("replay/") && !hash.startsWith("puzzles/")) route();
});
window.addEventListener("hashchange", route);
topbar();
// Events and reasons are worded from the message catalogue: load it before the first page.
loadCatalogue()
  .catch((e) => console.error(e))
  .finally(route);
