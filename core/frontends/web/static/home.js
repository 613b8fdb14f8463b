// The home page: the games with their scenarios, options and sides; resume; replay.
import { api, banner, h } from "/static/common.js";

let games = [];

function sideSelect(game, side) {
  const choices = [["here", "a person here"], ["link", "a person with a seat link"]];
  for (const bot of game.bots) choices.push([`bot:${bot}`, `bot: ${bot}`]);
  const dflt = side === game.human_side ? "here" : `bot:${game.default_bots[side] || "random"}`;
  return h("select", { "data-side": side },
    choices.map(([v, t]) => h("option", { value: v, selected: v === dflt }, t)));
}

function sidesOf(form) {
  const sides = {};
  for (const sel of form.querySelectorAll("select[data-side]")) if (!sel.disabled) sides[sel.dataset.side] = sel.value;
  return sides;
}

function optionInput(opt) {
  if (opt.choices.length) {
    return h("select", { "data-option": opt.id },
      opt.choices.map((c, k) => h("option", { value: JSON.stringify(c), selected: JSON.stringify(c) === JSON.stringify(opt.default) }, opt.labels[k] ?? String(c))));
  }
  return h("input", { "data-option": opt.id, value: JSON.stringify(opt.default), size: 12 });
}

function optionsOf(form) {
  const out = {};
  for (const node of form.querySelectorAll("[data-option]")) {
    let v = node.value;
    try { v = JSON.parse(v); } catch (err) { /* a bare word is a string */ }
    out[node.dataset.option] = v;
  }
  return out;
}

// Go to the seat at this browser, or list the links when every person plays elsewhere.
function opened(res) {
  const here = res.seats.find((s) => s.kind === "here");
  if (here) {
    location.href = here.url;
    return;
  }
  const box = document.getElementById("created");
  box.hidden = false;
  box.replaceChildren(h("h2", {}, "Match started: send each player their seat link"),
    ...res.seats.map((s) => {
      const url = new URL(s.url, location.href).href;
      return h("p", {}, h("b", {}, s.sides.join(", ")), " ", h("a", { href: url, class: "seat-url" }, url));
    }));
  box.scrollIntoView();
}

function gameCard(game) {
  if (!game.playable) {
    return h("div", { class: "game unplayable", "data-game": game.id },
      h("h3", {}, game.title), h("p", { class: "muted" }, game.description || "Not yet playable."));
  }
  const form = h("form", { class: "game", "data-game": game.id });
  // the scenario first, the one a new player is offered (the shortest) chosen
  const scenario = h("select", { name: "scenario" },
    game.scenarios.map((s) => h("option", { value: s.id, title: s.description, selected: s.id === game.starter_scenario }, s.name)));
  const about = h("p", { class: "muted scenario-about" });
  // a side the rules play in the chosen scenario never decides: no seat to give
  const seats = game.players.map((side) => h("label", { class: "seat", "data-seat": side }, `${side}: `, sideSelect(game, side)));
  const ruled = game.players.map((side) => h("p", { class: "muted ruled", "data-ruled": side }, `${side}: played by the rules`));
  const showScenario = () => {
    const chosen = game.scenarios.find((s) => s.id === scenario.value) || game.scenarios[0];
    about.textContent = chosen.description || "";
    game.players.forEach((side, i) => {
      const auto = (chosen.automatic || []).includes(side);
      seats[i].hidden = auto;
      seats[i].querySelector("select").disabled = auto;
      ruled[i].hidden = !auto;
    });
  };
  scenario.addEventListener("change", showScenario);
  const variants = game.options.length ? h("details", { class: "variants" }, h("summary", {}, "Rule variants"),
    game.options.map((opt) => h("label", { class: "variant", title: opt.id }, h("span", {}, opt.description), " ", optionInput(opt)))) : null;
  form.append(...[
    h("h3", {}, game.title),
    game.description ? h("p", { class: "muted" }, game.description) : null,
    h("label", {}, "Scenario ", scenario), about,
    seats, ruled, variants,
    h("label", {}, "Seed ", h("input", { name: "seed", size: 8, placeholder: "random" })),
    h("button", { type: "submit", class: "start" }, "Start")].flat().filter(Boolean));
  showScenario();
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    banner("");
    const seedText = form.querySelector("[name=seed]").value.trim();
    const seed = seedText === "" ? null : Number(seedText);
    if (seedText !== "" && !Number.isInteger(seed)) {
      banner(`the seed must be a whole number, not ${seedText}`);
      return;
    }
    try {
      opened(await api("/api/matches", { method: "POST", body: {
        game: game.id, scenario: scenario.value, seed, options: optionsOf(form), sides: sidesOf(form) } }));
    } catch (err) {
      banner(err.message);
    }
  });
  return form;
}

async function readJson(input) {
  const file = input.files && input.files[0];
  if (!file) return null;
  const text = await file.text();
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new Error(`${file.name} is not JSON`);
  }
}

function findGame(header) {
  return games.find((g) => g.id === header.game);
}

async function onResumeFile() {
  banner("");
  const box = document.getElementById("resume-sides");
  box.replaceChildren();
  let save;
  try {
    save = await readJson(document.getElementById("resume-file"));
  } catch (err) {
    banner(err.message);
    return;
  }
  if (!save) return;
  const game = save.header && findGame(save.header);
  if (!game) {
    banner(`this server does not offer the game of that save (${save.header && save.header.game}); start it with that game`);
    return;
  }
  const form = h("form", { class: "resume" }, h("p", {}, `${game.title}, ${save.decisions.length} decisions taken.`),
    game.players.map((side) => h("label", {}, `${side}: `, sideSelect(game, side))),
    h("button", { type: "submit", id: "resume-go" }, "Resume"));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      opened(await api("/api/matches/resume", { method: "POST", body: { save, sides: sidesOf(form) } }));
    } catch (err) {
      banner(err.message);
    }
  });
  box.append(form);
}

async function onReplayFile() {
  banner("");
  try {
    const record = await readJson(document.getElementById("replay-file"));
    if (!record) return;
    const res = await api("/api/replays", { method: "POST", body: { record } });
    location.href = `/replay/${res.id}`;
  } catch (err) {
    banner(err.message);
  }
}

function fillRowScenarios() {
  const game = games.find((g) => g.id === document.getElementById("row-game").value);
  document.getElementById("row-scenario").replaceChildren(
    ...(game ? game.scenarios : []).map((s) => h("option", { value: s.id }, s.name)));
}

async function onRowOpen() {
  banner("");
  try {
    const res = await api("/api/replays", { method: "POST", body: {
      row: document.getElementById("row-line").value.trim(),
      game: document.getElementById("row-game").value,
      scenario: document.getElementById("row-scenario").value } });
    location.href = `/replay/${res.id}`;
  } catch (err) {
    banner(err.message);
  }
}

async function main() {
  document.getElementById("resume-file").addEventListener("change", onResumeFile);
  document.getElementById("replay-file").addEventListener("change", onReplayFile);
  try {
    games = (await api("/api/games")).games;
  } catch (err) {
    banner(err.message);
    return;
  }
  document.getElementById("games").replaceChildren(...games.map(gameCard));
  const playable = games.filter((g) => g.playable);
  document.getElementById("row-game").replaceChildren(...playable.map((g) => h("option", { value: g.id }, g.title)));
  fillRowScenarios();
  document.getElementById("row-game").addEventListener("change", fillRowScenarios);
  document.getElementById("row-open").addEventListener("click", onRowOpen);
  document.body.dataset.ready = "1";
}

main();
