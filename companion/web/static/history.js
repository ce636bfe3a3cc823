// The page for phones' History tab: every stored game, one game's actions, the charts
// (uPlot). Loaded after app.js, whose helpers ($, el) and snapshot it reads.
"use strict";

// -- the history: every stored game, one game's actions, the charts (uPlot) ------------

let history = null;
let historyFor = null; // the table (game and action count) the history was read at
let group = 0;
const charts = [];

async function openHistory() {
  const at = snapshot ? snapshot.game + "/" + snapshot.actions + "/" + snapshot.language : "";
  if (history && (historyFor === at || !$("game-detail").hidden)) return;
  historyFor = at;
  const answer = await fetch("/history.json" + location.search, { cache: "no-store" });
  if (!answer.ok) return;
  history = await answer.json();
  drawHistory();
}

function chart(target, options, data) {
  const width = Math.max(200, target.clientWidth || document.body.clientWidth - 24);
  const dim = "#a0a8bc", grid = "#303c5a";
  const axis = { stroke: dim, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 },
    font: "600 13px system-ui, sans-serif" };
  const made = new uPlot({
    width, height: 190, legend: { show: false }, cursor: { show: false },
    // whole numbers on both axes: games, scores, counts
    axes: [{ ...axis, incrs: [1, 2, 5, 10, 20, 50, 100] }, { ...axis, size: 36, incrs: [1, 2, 5, 10, 20, 50] }],
    ...options,
  }, data, target);
  charts.push(made);
  return made;
}

function drawCharts() {
  while (charts.length) charts.pop().destroy();
  const series = history.series[group];
  for (const id of ["chart-scores", "chart-distribution"]) $(id).replaceChildren();
  if (!series || typeof uPlot === "undefined") return;
  const L = history.labels;
  const played = series.scores.map((_, index) => index + 1);
  chart($("chart-scores"), {
    scales: { x: { time: false }, y: { range: [0, series.max] } },
    series: [{ label: L.games }, { label: L.score, stroke: "#ffc43c", width: 3,
      points: { show: true, size: 7, fill: "#ffc43c" } }],
  }, [played, series.scores]);
  const scores = series.distribution.map((_, score) => score);
  chart($("chart-distribution"), {
    scales: { x: { time: false, range: [-0.5, series.max + 0.5] }, y: { range: [0, Math.max(...series.distribution) + 1] } },
    series: [{ label: L.score }, { label: L.games, fill: "#4696ff", stroke: "#4696ff",
      paths: uPlot.paths.bars({ size: [0.8, 40] }), points: { show: false } }],
  }, [scores, series.distribution]);
}

function drawHistory() {
  const L = history.labels;
  $("history-list").hidden = false;
  $("game-detail").hidden = true;
  const groups = $("groups");
  groups.replaceChildren();
  history.series.forEach((series, index) => {
    const button = el("button", "", series.group + " (" + series.scores.length + ")");
    button.type = "button";
    button.setAttribute("aria-pressed", String(index === group));
    button.addEventListener("click", () => { group = index; drawHistory(); });
    groups.appendChild(button);
  });
  if (group >= history.series.length) group = 0;
  $("chart-scores-title").textContent = L.scores_over_time;
  $("chart-distribution-title").textContent = L.score_distribution;
  // nothing to chart before the first game ends: one sentence, no empty chart boxes
  const charted = history.series.length > 0;
  $("charts-empty").textContent = L.no_charts;
  $("charts-empty").hidden = charted;
  for (const id of ["chart-scores-title", "chart-scores", "chart-distribution-title",
    "chart-distribution", "stats-title"]) {
    $(id).hidden = !charted;
  }
  drawCharts();
  $("stats-title").textContent = L.stats;
  const stats = $("stats");
  stats.replaceChildren();
  for (const row of history.stats) {
    const line = el("tr");
    line.appendChild(el("td", "", row.group));
    line.appendChild(el("td", "", row.figures));
    stats.appendChild(line);
  }
  // the figures per player name (issue 34), after the set-ups'
  const players = $("players");
  players.replaceChildren();
  $("players-title").textContent = L.players;
  $("players-title").hidden = !(history.players && history.players.length);
  for (const row of history.players || []) {
    const line = el("tr");
    line.appendChild(el("td", "", row.name));
    line.appendChild(el("td", "", row.figures));
    players.appendChild(line);
  }
  $("games-title").textContent = L.history;
  const games = $("games");
  games.replaceChildren();
  $("games-title").hidden = !history.games.length; // no game at all: the sentence says it
  for (const game of history.games) {
    const row = el("button", "game-row" + (game.resumable ? " unfinished" : "") + (game.damaged ? " damaged" : ""), game.first);
    row.type = "button";
    row.dataset.game = game.id;
    if (game.second) row.appendChild(el("span", "second", game.second));
    if (!game.damaged) row.addEventListener("click", () => openGame(game.id));
    games.appendChild(row);
  }
}

async function openGame(id) {
  const answer = await fetch("/games/" + id + ".json" + location.search, { cache: "no-store" });
  if (!answer.ok) return;
  const game = await answer.json();
  const L = history.labels;
  $("history-list").hidden = true;
  $("game-detail").hidden = false;
  $("game-back").textContent = "‹ " + L.back;
  $("game-title").textContent = game.names.join(", ");
  $("game-variant").textContent = game.variant + " · " + game.score + " / " + game.max;
  const log = $("game-log");
  log.textContent = L.download;
  log.href = "/games/" + id + ".log" + location.search;
  log.setAttribute("download", "hanabi-game-" + id + ".jsonl");
  $("game-actions").replaceChildren(...game.actions.map((line) => el("li", "", line)));
  window.scrollTo(0, 0);
}
