// The replay viewer: a record stepped through decision by decision or turn by turn, board
// and log in step, from any side's view or the game master's.
import { api, banner, renderLog, renderStatus } from "/static/common.js";
import { Board } from "/static/board.js";

const replayId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
const params = new URLSearchParams(location.search);
const board = new Board(document.getElementById("board"));
let data = null;
let want = null; // the step asked for last (the slider may run ahead of the answers)
let side = params.get("side") || "";

async function show(step) {
  want = step;
  try {
    const q = new URLSearchParams({ step: String(step) });
    if (side) q.set("side", side);
    const got = await api(`/api/replays/${encodeURIComponent(replayId)}?${q}`);
    if (want !== step) return;
    data = got;
    render();
  } catch (err) {
    banner(err.message);
  }
}

function render() {
  document.title = `${data.title} — replay`;
  document.getElementById("title").textContent = `${data.title} · replay`;
  document.getElementById("where").textContent = `turn ${data.turn}${data.phase ? " · " + (data.phase_name || data.phase) : ""}` +
    (data.result ? ` · over: ${data.result.level}` : "");
  const sel = document.getElementById("side");
  if (!sel.options.length) {
    sel.append(new Option("everyone (game master)", ""));
    for (const p of data.players) sel.append(new Option(p, p));
    sel.value = side;
  }
  const slider = document.getElementById("slider");
  slider.max = String(data.total);
  slider.value = String(data.step);
  document.getElementById("stepno").textContent = `decision ${data.step} of ${data.total}`;
  const last = data.step > 0 ? data.steps[data.step - 1] : null;
  const next = data.pending;
  document.getElementById("steptext").textContent =
    (last ? `Last: [${last.section}] ${last.text}` : "The opening position.") +
    (next ? `  ·  Next: ${next.player}${next.prompt ? " — " + next.prompt : ""} (rule ${next.section})` : "");
  board.show(data.svg);
  renderLog(document.getElementById("log"), data.log, side || null);
}

function turnStep(dir) {
  if (!data) return 0;
  const turnOf = (n) => (n > 0 ? data.steps[n - 1].turn : 0);
  const here = turnOf(data.step);
  if (dir > 0) {
    for (let n = data.step + 1; n <= data.total; n++) if (turnOf(n) > here) return n;
    return data.total;
  }
  let n = data.step - 1;
  while (n > 0 && turnOf(n) >= here) n--;
  const target = turnOf(n);
  while (n > 0 && turnOf(n - 1) === target) n--;
  return Math.max(n, 0);
}

const go = (n) => show(Math.min(Math.max(n, 0), data ? data.total : 0));
document.getElementById("first").addEventListener("click", () => go(0));
document.getElementById("last").addEventListener("click", () => go(data.total));
document.getElementById("prev").addEventListener("click", () => go(data.step - 1));
document.getElementById("next").addEventListener("click", () => go(data.step + 1));
document.getElementById("prev-turn").addEventListener("click", () => go(turnStep(-1)));
document.getElementById("next-turn").addEventListener("click", () => go(turnStep(1)));
document.getElementById("slider").addEventListener("input", (e) => go(Number(e.target.value)));
document.getElementById("side").addEventListener("change", (e) => {
  side = e.target.value;
  show(data ? data.step : 0);
});
document.getElementById("zoom-in").addEventListener("click", () => board.zoom(1 / 1.4));
document.getElementById("zoom-out").addEventListener("click", () => board.zoom(1.4));
document.getElementById("zoom-fit").addEventListener("click", () => board.fit());
document.getElementById("status-btn").addEventListener("click", () => {
  if (!data) return;
  renderStatus(document.getElementById("status-body"), data.status);
  document.getElementById("status-dialog").showModal();
});
document.addEventListener("keydown", (e) => {
  if (!data || e.target.tagName === "INPUT" && e.target.type !== "range") return;
  if (e.key === "ArrowRight") go(data.step + 1);
  if (e.key === "ArrowLeft") go(data.step - 1);
});

show(Number(params.get("step") || 0));
