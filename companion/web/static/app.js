// The table for phones: follows the companion's snapshots (Server-Sent Events) and draws
// them. Read-only: nothing here changes the game. Every word comes from the snapshot.
"use strict";

const SEAT_KEY = "hanabi-seat";
const VIEW_KEY = "hanabi-view";
const VIEWS = ["table", "mine", "hands", "history"];
let snapshot = null;
// the tab the phone was on (a phone that wakes up or reloads stays on "My hand")
let view = VIEWS.includes(localStorage.getItem(VIEW_KEY)) ? localStorage.getItem(VIEW_KEY) : "table";
let source = null;
let retry = null;

const $ = (id) => document.getElementById(id);

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function symbol(letter) {
  return el("span", "sym sym-" + letter);
}

function chosenSeat() {
  const stored = localStorage.getItem(SEAT_KEY);
  if (stored === null || !snapshot) return null;
  const seat = Number(stored);
  return Number.isInteger(seat) && seat >= 0 && seat < snapshot.seats.length ? seat : null;
}

function slotNode(slot) {
  const node = el("div", "slot" + (slot.color ? " " + slot.color : "") + (slot.touched ? " touched" : ""));
  node.dataset.slot = slot.number;
  node.appendChild(el("span", "num", String(slot.number)));
  if (slot.color) {
    node.appendChild(symbol(slot.color));
  } else if (slot.not_colors.length) {
    const no = el("div", "nocolors");
    for (const letter of slot.not_colors) no.appendChild(symbol(letter));
    node.appendChild(no);
  } else {
    node.appendChild(el("div", "nocolors", "\u00a0"));
  }
  if (slot.rank) node.appendChild(el("div", "rank", String(slot.rank)));
  else if (slot.not_ranks.length) node.appendChild(el("div", "not", slot.not_ranks.join("")));
  else node.appendChild(el("div", "rank", "\u00a0"));
  return node;
}

function handNode(seat, big) {
  const hand = el("div", "hand" + (big ? " big" : ""));
  for (const slot of seat.hand) hand.appendChild(slotNode(slot));
  return hand;
}

function drawTable(s) {
  const L = s.labels;
  $("hints-label").textContent = L.hints;
  $("fuses-label").textContent = L.fuses;
  $("deck-label").textContent = L.deck;
  $("hints").textContent = s.hints + "/8";
  $("fuses").textContent = s.fuses + "/" + s.max_fuses;
  $("deck").textContent = String(s.deck);
  const fireworks = $("fireworks");
  fireworks.replaceChildren();
  for (const suit of s.suits) {
    const card = el("div", "card " + suit.letter + (suit.top ? "" : " empty") + (suit.dead ? " dead" : ""));
    card.title = suit.name;
    card.dataset.suit = suit.letter;
    card.appendChild(symbol(suit.letter));
    card.appendChild(el("span", "rank", suit.top ? String(suit.top) : "–"));
    fireworks.appendChild(card);
  }
  $("score").textContent = s.score_line;
  $("result").hidden = !s.over;
  $("result-sentence").textContent = s.result_sentence;
  $("recent-title").textContent = L.recent;
  const recent = $("recent");
  // numbered by turn, newest first, as the panel's actions page numbers them
  recent.reversed = true;
  recent.start = s.actions;
  recent.replaceChildren(...s.recent.map((line) => el("li", "", line)));
  $("discards-title").textContent = s.discards_title;
  const discards = $("discards");
  discards.replaceChildren();
  if (!s.discards.length) discards.appendChild(el("p", "empty-note", L.no_discards));
  for (const [letter, cards] of s.discards) {
    const row = el("div", "suit");
    for (const card of cards) {
      const chip = el("div", "chip " + letter, String(card.rank));
      if (card.mark) chip.appendChild(el("span", "mark" + (card.mark === "!" ? " critical" : ""), card.mark));
      row.appendChild(chip);
    }
    discards.appendChild(row);
  }
}

function drawMine(s) {
  const L = s.labels;
  const seat = chosenSeat();
  $("seat-picker").hidden = seat !== null;
  $("my-hand").hidden = seat === null;
  if (seat === null) {
    $("pick-title").textContent = L.pick_seat;
    const buttons = $("seat-buttons");
    buttons.replaceChildren();
    s.seats.forEach((each, index) => {
      const button = el("button", "", each.name);
      button.type = "button";
      button.addEventListener("click", () => { localStorage.setItem(SEAT_KEY, String(index)); draw(); });
      buttons.appendChild(button);
    });
    return;
  }
  const mine = s.seats[seat];
  $("my-name").textContent = mine.name;
  const slots = $("my-slots");
  slots.replaceChildren();
  if (s.hand_memory) slots.appendChild(handNode(mine, true));
  else slots.appendChild(el("p", "empty-note", L.no_hand_memory));
  $("change-seat").textContent = L.change_seat;
}

function drawHands(s) {
  const all = $("all-hands");
  all.replaceChildren();
  if (!s.hand_memory) { all.appendChild(el("p", "empty-note", s.labels.no_hand_memory)); return; }
  for (const seat of s.seats) {
    const row = el("div", "seat" + (seat.current ? " current" : ""));
    row.appendChild(el("p", "name", seat.name));
    row.appendChild(handNode(seat, false));
    all.appendChild(row);
  }
}

function draw() {
  const s = snapshot;
  if (!s) return;
  document.documentElement.lang = s.language;
  const L = s.labels;
  const labels = { table: L.table, mine: L.my_hand, hands: L.everyone, history: L.history };
  for (const button of $("tabs").children) {
    button.textContent = labels[button.dataset.view];
    button.setAttribute("aria-pressed", String(button.dataset.view === view));
  }
  $("offline").textContent = L.offline;
  $("no-game").hidden = s.playing || view === "history";
  $("no-game").textContent = L.no_game;
  $("turn").textContent = s.playing ? (s.over ? s.result_title : s.turn) : "Hanabi";
  for (const name of VIEWS) {
    $("view-" + name).hidden = name !== view || (!s.playing && name !== "history");
  }
  if (view === "history") { openHistory(); return; }
  if (!s.playing) return;
  document.body.dataset.actions = String(s.actions);
  if (view === "table") drawTable(s);
  else if (view === "mine") drawMine(s);
  else drawHands(s);
}

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
    line.appendChild(el("td", "", row.best + " / " + row.average + " (" + row.games + ")"));
    stats.appendChild(line);
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

function showOffline(on) {
  $("offline").hidden = !on;
}

async function explainClosed() {
  // The stream was refused (a new table code?): say the server's own sentence.
  try {
    const answer = await fetch("/snapshot.json" + location.search, { cache: "no-store" });
    if (answer.status === 403) {
      $("turn").textContent = (await answer.text()).trim();
      document.body.dataset.refused = "true";
    }
  } catch (error) { /* the companion is away: keep trying */ }
}

function connect() {
  if (source) source.close();
  source = new EventSource("/events" + location.search);
  source.addEventListener("table", (event) => {
    snapshot = JSON.parse(event.data);
    document.body.dataset.eventId = event.lastEventId;
    showOffline(false);
    draw();
  });
  source.addEventListener("open", () => showOffline(false));
  source.addEventListener("error", () => {
    showOffline(true);
    if (source.readyState === EventSource.CLOSED) {
      explainClosed();
      clearTimeout(retry);
      retry = setTimeout(connect, 3000);
    }
  });
}

document.addEventListener("DOMContentLoaded", () => {
  for (const button of $("tabs").children) {
    button.addEventListener("click", () => {
      view = button.dataset.view;
      localStorage.setItem(VIEW_KEY, view);
      draw();
      window.scrollTo(0, 0);
    });
  }
  $("change-seat").addEventListener("click", () => { localStorage.removeItem(SEAT_KEY); draw(); });
  $("game-back").addEventListener("click", () => drawHistory());
  connect();
});
