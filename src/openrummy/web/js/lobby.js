// @ts-check
/**
 * The lobby: create a table (game, options that matter, match format, seats of people and
 * bots, time limit), and the open, running and finished tables to join, watch or replay.
 */
import { api, keys, playerName, saveKeys, savePlayerName } from "./api.js";
import { h, replace, toast } from "./dom.js";
import { t } from "./i18n.js";
import { render } from "./messages.js";

const FORMATS = {
  manipulation: ["ROUNDS_LOWEST_TOTAL", "FIRST_TO_N_OUTS", "SINGLE_ROUND"],
  rummikub: ["ROUNDS_HIGHEST_TOTAL", "SINGLE_ROUND"],
  // Pools are sent by their earlier one-word names (POOL_101 = match.format POOL with
  // pool.threshold 101), which the engine still reads.
  indian: ["POINTS", "POOL_61", "POOL_101", "POOL_201", "DEALS"],
};

/** The difficulty levels players choose from, weakest first (docs/strength.md). */
const LEVELS = ["easy", "medium", "hard", "expert"];

/** @param {HTMLElement} root */
export async function lobbyPage(root) {
  replace(root, h("div", { class: "panel" }, t("table.loading")));
  /** @type {any[]} */
  let presets = [];
  try {
    presets = await api("GET", "/api/presets");
  } catch (e) {
    replace(root, h("div", { class: "panel error" }, t("lobby.offline")));
    return;
  }
  const form = createForm(presets);
  const lists = h("div", { class: "tables-col" });
  replace(root, h("div", { class: "lobby" }, h("section", { class: "panel create" }, h("h2", null, t("lobby.new_table")), form), lists));
  await fillLists(lists);
  // Tables open, start and end while the lobby is on screen: look again now and then.
  const timer = setInterval(() => {
    if (!document.body.contains(lists)) return clearInterval(timer);
    fillLists(lists).catch(() => {});
  }, 5000);
}

/** @param {HTMLElement} box */
async function fillLists(box) {
  const [live, done] = await Promise.all([api("GET", "/api/tables?status=open&status=running&limit=50"), api("GET", "/api/tables?status=finished&limit=20")]);
  const row = (/** @type {any} */ tb) => {
    const k = keys(tb.id);
    const seats = tb.seats.map((/** @type {any} */ s) => (s.kind === "bot" ? "🤖" : s.taken ? "👤" : "○")).join("");
    let action;
    if (tb.status === "finished") action = h("a", { class: "btn small", href: `#/replay/${tb.id}` }, t("lobby.replay"));
    else if (k.token) action = h("a", { class: "btn small primary", href: `#/t/${tb.id}` }, t("lobby.continue"));
    else if (tb.status === "open" && tb.seats.some((/** @type {any} */ s) => s.kind === "human" && !s.taken)) action = h("a", { class: "btn small primary", href: `#/t/${tb.id}` }, t("lobby.join"));
    else action = h("a", { class: "btn small", href: `#/t/${tb.id}` }, t("lobby.watch"));
    return h("li", { class: "table-row" }, h("div", null, h("strong", null, tb.title), h("div", { class: "muted" }, t(`preset.${tb.preset}`), " · ", seats, " · ", t(`tstatus.${tb.status}`))), action);
  };
  const section = (/** @type {string} */ title, /** @type {any[]} */ list) =>
    h("section", { class: "panel" }, h("h2", null, title), list.length ? h("ul", { class: "table-list" }, list.map(row)) : h("p", { class: "muted" }, t("lobby.none")));
  replace(
    box,
    section(t("lobby.open_tables"), live.filter((/** @type {any} */ x) => x.status === "open")),
    section(t("lobby.running_tables"), live.filter((/** @type {any} */ x) => x.status === "running")),
    section(t("lobby.finished_tables"), done),
  );
}

/**
 * @param {any[]} presets
 */
function createForm(presets) {
  const state = {
    preset: "robbers",
    rules: /** @type {any} */ (null),
    seats: /** @type {string[]} */ (["me", "bot:medium", "bot:medium", "bot:medium"]),
    bots: /** @type {any[]} */ ([]),
  };
  const body = h("div");
  const nameInput = /** @type {HTMLInputElement} */ (h("input", { id: "create-name", value: playerName() || t("lobby.default_name"), maxlength: 32, required: true }));
  const presetSel = /** @type {HTMLSelectElement} */ (
    h(
      "select",
      { id: "preset", onchange: () => load(presetSel.value) },
      ["manipulation", "indian"].map((fam) =>
        h(
          "optgroup",
          { label: t(`family.${fam}`) },
          presets.filter((p) => p.family === fam).map((p) => h("option", { value: p.name, selected: p.name === state.preset }, t(`preset.${p.name}`))),
        ),
      ),
    )
  );

  const load = async (/** @type {string} */ name) => {
    state.preset = name;
    state.rules = await api("GET", `/api/presets/${name}/rules`);
    const fam = state.rules.family;
    state.bots = await api("GET", `/api/bots?family=${fam}`);
    const defaultBot = "medium";
    const n = Math.min(fam === "indian" ? 2 : 4, state.rules.options["players.max"]);
    state.seats = ["me", ...Array.from({ length: n - 1 }, () => `bot:${defaultBot}`)];
    draw();
    // The preset whose form is on screen (a choice made before it loaded is redrawn).
    body.dataset.loaded = name;
  };

  // The four levels (the research bots they are made of stay with `rummy simulate`).
  const familyBots = () => LEVELS.filter((name) => state.bots.some((b) => b.name === name && b.difficulty)).map((name) => ({ name }));
  /** What a level does in this game, from the message catalogue. */
  const levelText = (/** @type {string} */ name) => {
    const kind = state.rules.family === "indian" ? "indian" : state.rules.tiles ? "rummikub" : "cards";
    return render({ reason: `level.${kind}.${name}` });
  };

  const draw = () => {
    const r = state.rules;
    const o = r.options;
    const fam = r.family;
    const fmts = fam === "indian" ? FORMATS.indian : r.tiles ? FORMATS.rummikub : FORMATS.manipulation;
    const min = o["players.min"];
    const max = o["players.max"];
    const field = (/** @type {string} */ id, /** @type {string} */ label, /** @type {HTMLElement} */ input, /** @type {string} */ help = "") =>
      h("div", { class: "field" }, h("label", { for: id }, label), input, help ? h("small", { class: "muted" }, help) : null);
    const seconds = (/** @type {string} */ id, /** @type {string[]} */ choices) =>
      h("select", { id }, choices.map((s) => h("option", { value: s }, s ? t("lobby.seconds", { n: s }) : t("lobby.no_limit"))));
    const num = (/** @type {string} */ id, /** @type {any} */ value, /** @type {number} */ lo, /** @type {number} */ hi) => h("input", { id, type: "number", min: lo, max: hi, value: value ?? "" });
    const seatRows = state.seats.map((s, i) =>
      h(
        "li",
        null,
        h("span", { class: "seat-no" }, `${i + 1}.`),
        i === 0
          ? h("span", null, "👤 ", t("lobby.you"))
          : h(
              "select",
              {
                "aria-label": t("seat.n", { n: i + 1 }),
                class: "seat-kind",
                onchange: (/** @type {any} */ e) => {
                  state.seats[i] = e.target.value;
                },
              },
              h("option", { value: "human", selected: s === "human" }, t("lobby.seat_person")),
              familyBots().map((b) => h("option", { value: `bot:${b.name}`, selected: s === `bot:${b.name}`, title: levelText(b.name) }, `🤖 ${t(`bot.${b.name}`)}: ${levelText(b.name)}`)),
            ),
      ),
    );
    replace(
      body,
      field("preset", t("lobby.game"), presetSel, t(`preset_help.${state.preset}`)),
      field("create-name", t("lobby.your_name"), nameInput),
      h(
        "div",
        { class: "field" },
        h("label", null, t("lobby.seats")),
        h("ol", { class: "seat-edit" }, seatRows),
        h(
          "div",
          { class: "row" },
          h(
            "button",
            {
              type: "button",
              class: "btn small",
              disabled: state.seats.length >= max,
              onclick: () => {
                state.seats.push("bot:medium");
                draw();
              },
            },
            "+ ",
            t("lobby.add_seat"),
          ),
          h(
            "button",
            {
              type: "button",
              class: "btn small",
              disabled: state.seats.length <= min,
              onclick: () => {
                state.seats.pop();
                draw();
              },
            },
            "− ",
            t("lobby.remove_seat"),
          ),
        ),
      ),
      h(
        "details",
        { class: "options", open: window.innerWidth > 760 },
        h("summary", null, t("lobby.options")),
        field("opt-format", t("lobby.format"), h("select", { id: "opt-format" }, fmts.map((f) => h("option", { value: f, selected: f === o["match.format"] }, t(`format.${f}`))))),
        fam === "manipulation"
          ? [
              o["match.rounds"] !== undefined ? field("opt-rounds", t("lobby.rounds"), num("opt-rounds", o["match.rounds"], 1, 20)) : null,
              r.opening_type === "POINTS" ? field("opt-threshold", t("lobby.threshold"), num("opt-threshold", o["opening.threshold"], 0, 100)) : null,
              field("opt-jokers", t("lobby.jokers"), num("opt-jokers", o["deck.printed_jokers"], 0, 6)),
              field("opt-penalty", t(r.tiles ? "lobby.penalty_tiles" : "lobby.penalty"), num("opt-penalty", o["fail.penalty_draw"], 0, 5)),
              field(
                "opt-time",
                t("lobby.time_limit"),
                h("select", { id: "opt-time" }, ["", "60", "120", "180"].map((s) => h("option", { value: s }, s ? t("lobby.seconds", { n: s }) : t("lobby.no_limit")))),
              ),
            ]
          : [
              field("opt-deals", t("lobby.deals"), num("opt-deals", o["deals.count"], 1, 12)),
              // Indian Rummy: a turn time plus a time bank per player and hand, as the apps have.
              field("opt-time", t("lobby.time_limit"), seconds("opt-time", ["", "15", "30", "45", "60"])),
              field("opt-bank", t("lobby.time_bank"), seconds("opt-bank", ["", "30", "60", "120"]), t("lobby.time_bank_help")),
            ],
        field(
          "opt-pause",
          t("lobby.bot_speed"),
          h("select", { id: "opt-pause" }, h("option", { value: "1.2" }, t("lobby.speed_slow")), h("option", { value: "0.7", selected: true }, t("lobby.speed_normal")), h("option", { value: "0.2" }, t("lobby.speed_fast"))),
        ),
      ),
      h("button", { class: "btn primary big", type: "submit", id: "create-btn" }, t("lobby.create")),
    );
  };

  const submit = async (/** @type {Event} */ e) => {
    e.preventDefault();
    const r = state.rules;
    const val = (/** @type {string} */ id) => /** @type {HTMLInputElement | null} */ (document.getElementById(id))?.value ?? "";
    const name = nameInput.value.trim() || t("lobby.default_name");
    savePlayerName(name);
    /** @type {{[k: string]: any}} */
    const options = {};
    const setNum = (/** @type {string} */ key, /** @type {string} */ id) => {
      const v = val(id);
      if (v !== "" && Number(v) !== r.options[key]) options[key] = Number(v);
    };
    if (r.family === "manipulation") {
      setNum("match.rounds", "opt-rounds");
      setNum("opening.threshold", "opt-threshold");
      setNum("deck.printed_jokers", "opt-jokers");
      setNum("fail.penalty_draw", "opt-penalty");
    } else {
      setNum("deals.count", "opt-deals");
      if (val("opt-time") && val("opt-bank")) options["turn.time_bank_s"] = Number(val("opt-bank"));
    }
    const seats = state.seats.map((s) => (s === "me" || s === "human" ? { kind: "human" } : { kind: "bot", bot: s.slice(4) }));
    const format = val("opt-format");
    const time = val("opt-time");
    try {
      const res = await api("POST", "/api/tables", {
        preset: state.preset,
        options,
        match_format: format && format !== r.options["match.format"] ? format : null,
        turn_time_limit: time ? Number(time) : null,
        seats,
        title: `${t(`preset.${state.preset}`)} · ${name}`.slice(0, 60),
        creator_seat: 0,
        creator_name: name,
        bot_pause: Number(val("opt-pause") || "0.7"),
      });
      const id = res.table.id;
      saveKeys(id, { creator: res.creator_token, seat: res.seat, token: res.seat_token, name });
      if (seats.every((s, i) => i === 0 || s.kind === "bot")) {
        await api("POST", `/api/tables/${id}/start`, {}, res.creator_token);
      }
      location.hash = `#/t/${id}`;
    } catch (err) {
      toast(String(/** @type {any} */ (err).message), "bad");
    }
  };

  const form = h("form", { id: "create-form", onsubmit: submit }, body);
  load(state.preset);
  return form;
}
