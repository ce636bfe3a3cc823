// The table for phones: follows the companion's snapshots (Server-Sent Events) and draws
// them. A paired phone also enters actions (the end of this file); an unpaired one only
// looks. Every word comes from the snapshot or from the companion's answers.
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
  $("hints").textContent = (s.tokens || String(s.hints)) + "/8";
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
  $("table-variant").textContent = s.variant;
  $("result").hidden = !s.over;
  $("result-sentence").textContent = s.result_sentence;
  drawPlayLog(s);
  drawStory(s);
  drawDeal(s);
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
      // the suit's symbol on every card, as on the fireworks: colour is not enough
      const chip = el("div", "chip " + letter);
      chip.dataset.suit = letter;
      chip.appendChild(symbol(letter));
      chip.appendChild(el("span", "rank", String(card.rank)));
      if (card.mark) chip.appendChild(el("span", "mark" + (card.mark === "!" ? " critical" : ""), card.mark));
      row.appendChild(chip);
    }
    discards.appendChild(row);
  }
  drawAct(s);
}

// The finished game's BG Stats link: a QR code for another phone, a link for this one.
function drawPlayLog(s) {
  const link = $("play-log");
  link.hidden = !s.play_link;
  if (!s.play_link) return;
  if (link.href !== s.play_link) link.href = s.play_link;
  if ($("play-qr").src !== s.play_qr) $("play-qr").src = s.play_qr;
  $("play-qr").alt = s.labels.play_log;
  $("play-log-label").textContent = s.labels.play_log;
}

// The finished game's curve (uPlot, drawn once per game) and why its best score dropped.
let storyChart = null;
let storyKey = "";
const STORY_COLORS = ["#ffc43c", "#eceef4", "#6edc8c", "#4696ff"];
function drawStory(s) {
  const shown = s.over && s.story && s.story.length > 0;
  $("story").hidden = !shown;
  if (!shown) return;
  $("story-title").textContent = s.labels.story;
  const names = s.labels.story_legend.split(" · ");
  $("story-legend").replaceChildren(...names.map((name, i) => el("span", "", name)));
  $("story-legend").querySelectorAll("span").forEach((span, i) => { span.style.color = STORY_COLORS[i]; });
  $("story-drops").replaceChildren(...s.story_drops.map((line) => el("li", "", line)));
  const key = s.game + ":" + s.actions;
  if (key === storyKey || typeof uPlot === "undefined") return;
  storyKey = key;
  if (storyChart) storyChart.destroy();
  const target = $("chart-story");
  target.replaceChildren();
  const columns = [0, 1, 2, 3, 4].map((i) => s.story.map((point) => point[i]));
  const dim = "#a0a8bc", grid = "#303c5a";
  const axis = { stroke: dim, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 },
    font: "600 13px system-ui, sans-serif" };
  storyChart = new uPlot({
    width: Math.max(200, target.clientWidth || document.body.clientWidth - 44), height: 200,
    legend: { show: false }, cursor: { show: false },
    scales: { x: { time: false } },
    axes: [{ ...axis, incrs: [1, 2, 5, 10, 20, 50] }, { ...axis, size: 36, incrs: [1, 2, 5, 10] }],
    series: [{}, ...names.map((name, i) => ({ label: name, stroke: STORY_COLORS[i], width: 2 }))],
  }, columns, target);
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
  if (mine.shown.length) slots.appendChild(shownNode(mine)); // reveal.js: shown at the end
  else if (s.hand_memory) slots.appendChild(handNode(mine, true));
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
    row.appendChild(seat.shown.length ? shownNode(seat) : handNode(seat, false));
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
  // What storage found and no one has acknowledged yet (OK on the panel): said here too.
  const findings = s.findings || [];
  $("findings").hidden = findings.length === 0;
  $("findings").textContent = findings.join(" · ");
  $("no-game").hidden = s.playing || view === "history";
  $("no-game").textContent = L.no_game;
  $("turn").textContent = s.playing ? (s.over ? s.result_title : s.turn) : "Hanabi";
  for (const name of VIEWS) {
    $("view-" + name).hidden = name !== view || (!s.playing && name !== "history");
  }
  $("phone").hidden = view !== "table";
  if (view === "table") { drawPairing(s); drawSetup(s); } // setup.js: the next variant
  if (view === "history") { openHistory(); return; }
  if (!s.playing) return;
  document.body.dataset.actions = String(s.actions);
  if (view === "table") drawTable(s);
  else if (view === "mine") drawMine(s);
  else drawHands(s);
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
    const next = JSON.parse(event.data);
    tableMoved(next);
    snapshot = next;
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

// -- phones as input (issue 22): pairing, then hint / play / discard / undo ------------
// The same flows as the panel: every step's words are the panel's own (the snapshot's
// labels); what an action will do and why it is refused come from the companion
// (/api/preview, /api/act), never from here.

const TOKEN_KEY = "hanabi-phone-token";
// the log's colour words (GAME-LOG.md), by suit letter: what /api/act reads, never shown
const COLOR_WORDS = { R: "red", Y: "yellow", G: "green", B: "blue", W: "white", M: "multicolor" };
const RANKS = [1, 2, 3, 4, 5];
// a request without an answer (network error, 503) is sent again with the same id, after
const RETRY_MS = [500, 1000, 2000, 4000];
// longer than the companion waits for its loop (10 s, then 503): its answer comes first
const ANSWER_TIMEOUT_MS = 15000;
// A pairing waits for the panel's OK ("Pair Di's phone? OK"): the server waits 90 s.
const PAIR_TIMEOUT_MS = 95000;

let phoneName = null; // the name this phone was paired under
let pairing = false; // the pairing form is open
let pairError = null;
let flow = null; // the action being entered (see startFlow)
let answerLine = null; // the last answer: { text, warn }

function token() {
  return localStorage.getItem(TOKEN_KEY);
}

function forgetToken() {
  localStorage.removeItem(TOKEN_KEY);
  phoneName = null;
}

function said(label, name) {
  return label.split("{name}").join(name);
}

function colorName(s, letter) {
  const suit = s.suits.find((each) => each.letter === letter);
  return suit ? suit.name : COLOR_WORDS[letter];
}

function requestId() {
  const bytes = new Uint8Array(18);
  crypto.getRandomValues(bytes);
  // 24 characters of [A-Za-z0-9_-] (base64url)
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_");
}

// One POST: { status, data } with status 0 when no answer came (network, timeout).
async function post(path, body, withToken, timeoutMs = ANSWER_TIMEOUT_MS) {
  const headers = { "Content-Type": "application/json" };
  if (withToken) headers["X-Phone-Token"] = token() || "";
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), timeoutMs);
  try {
    const answer = await fetch(path + location.search, {
      method: "POST", headers, body: JSON.stringify(body), cache: "no-store", signal: abort.signal,
    });
    let data = {};
    try { data = await answer.json(); } catch (error) { /* no JSON: the status says it */ }
    return { status: answer.status, data };
  } catch (error) {
    return { status: 0, data: {} };
  } finally {
    clearTimeout(timer);
  }
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// A lost answer or a busy table (503) is asked again with the very same body, a few
// times, waiting longer each time: an action keeps its id, so it is recorded once.
async function postAgain(path, body) {
  let answer = await post(path, body, true);
  for (const wait of RETRY_MS) {
    if (answer.status !== 0 && answer.status !== 503) break;
    await sleep(wait);
    answer = await post(path, body, true);
  }
  return answer;
}

async function checkToken() {
  if (!token()) return;
  try {
    const answer = await fetch("/api/phone" + location.search, {
      headers: { "X-Phone-Token": token() }, cache: "no-store",
    });
    if (!answer.ok) return; // the companion knows no pairing (yet): keep the token
    const data = await answer.json();
    if (data.paired) phoneName = data.name;
    else unpaired(null); // removed on the panel (or another table's): pair again
  } catch (error) { /* the companion is away: keep the token */ }
  draw();
}

function unpaired(text) {
  // the phone was removed on the panel (or never known): pair again
  forgetToken();
  flow = null;
  answerLine = null;
  offerPairing(text);
}

// The pairing form, its name the seat this phone picked in "My hand" (when it did).
function offerPairing(text) {
  pairing = true;
  pairError = text || null;
  const seat = chosenSeat();
  const seats = snapshot.seats || [];
  if (!$("pair-name").value && seat !== null && seats[seat]) $("pair-name").value = seats[seat].name;
}

// -- the flows ---------------------------------------------------------------------------

function otherSeats(s) {
  return s.seats.map((_, index) => index).filter((index) => index !== s.current);
}

function startFlow(kind) {
  const s = snapshot;
  // refused whatever is entered after (all 8 hint tokens for a discard): said at the first
  // tap, in the companion's words, as the panel says it at its first key
  const refused = kind === "undo" ? null : (s.refused || {})[kind];
  if (refused) {
    closeFlow(refused, true);
    return;
  }
  flow = {
    kind, game: s.game, position: s.actions, player: s.current,
    step: "", to: null, clue: null, slots: [], slot: null, color: null, rank: null,
    announce: null, preview: null, asked: 0, sending: false, sent: null, message: null,
  };
  answerLine = null;
  if (kind === "undo") flow.step = "undo";
  else if (kind === "hint") {
    const others = otherSeats(s);
    if (others.length === 1) { flow.to = others[0]; flow.step = "clue"; } else flow.step = "to";
  } else flow.step = s.hand_memory ? "slot" : "card";
  flow.first = flow.step;
  draw();
}

function closeFlow(text, warn) {
  flow = null;
  answerLine = text ? { text, warn } : null;
  draw();
}

// What the flow has entered, as the log's action (null while something is missing).
function flowAction() {
  const f = flow;
  if (f.kind === "undo") return { action: "undo" };
  if (f.kind === "hint") {
    if (f.to === null || f.clue === null) return null;
    const hint = { action: "hint", to: f.to };
    if (typeof f.clue === "number") hint.rank = f.clue; else hint.color = COLOR_WORDS[f.clue];
    if (snapshot.hand_memory) {
      if (f.step !== "slots") return null;
      hint.slots = [...f.slots];
    }
    return hint;
  }
  if (f.color === null || f.rank === null) return null;
  const action = { action: f.kind, card: f.color + f.rank };
  if (snapshot.hand_memory) action.slot = f.slot;
  if (f.announce) action.announce = COLOR_WORDS[f.announce];
  return action;
}

function back() {
  const f = flow;
  f.preview = null;
  f.message = null;
  if (f.step === "slots") { f.step = "clue"; f.clue = null; }
  else if (f.step === "clue") { f.step = "to"; f.clue = null; f.slots = []; }
  else if (f.step === "card") { f.step = "slot"; f.color = f.rank = f.announce = null; }
  draw();
}

// What confirming would do, asked of the companion each time the entry changes.
async function askPreview() {
  const f = flow;
  const action = flowAction();
  f.preview = null;
  f.message = null;
  if (!action || f.kind === "undo") return;
  const asked = ++f.asked;
  const answer = await postAgain("/api/preview", { game: f.game, position: f.position, action });
  if (flow !== f || f.asked !== asked) return; // the entry changed meanwhile
  if (answer.status === 200) f.preview = { ok: Boolean(answer.data.ok), text: answer.data.text || "" };
  else if (answer.status === 401) unpaired(answer.data.text);
  else if (answer.status === 409) { closeFlow(answer.data.text || snapshot.labels.moved_on, true); return; }
  else f.message = { text: answer.data.text || snapshot.labels.no_answer, warn: true };
  draw();
}

async function confirmFlow() {
  const f = flow;
  const action = flowAction();
  if (!action || f.sending) return;
  await sendFlow(f, action);
}

// The flow's action sent (an entry's, a hand shown: reveal.js), and its answer said.
async function sendFlow(f, action) {
  const wanted = JSON.stringify(action);
  // the same action confirmed again (its answer never came) keeps its id: recorded once
  if (!f.sent || f.sent.action !== wanted) f.sent = { id: requestId(), action: wanted };
  const body = { id: f.sent.id, game: f.game, position: f.position, action };
  f.sending = true;
  f.message = null;
  draw();
  const answer = await postAgain("/api/act", body);
  f.sending = false;
  if (flow !== f) return;
  const text = answer.data.text || "";
  if (answer.status === 200 && answer.data.ok) closeFlow(text, false);
  else if (answer.status === 401) { unpaired(text); draw(); }
  else if (answer.status === 0 || answer.status === 503) {
    f.message = { text: text || snapshot.labels.no_answer, warn: true };
    draw();
  } else closeFlow(text || snapshot.labels.no_answer, true);
}

// A new table while an entry is open (another phone, the panel): the entry was made on
// a position that is gone; close it and say so (the companion would refuse it anyway).
function tableMoved(next) {
  if (flow && !flow.sending && (next.game !== flow.game || next.actions !== flow.position)) {
    flow = null;
    answerLine = { text: next.labels.moved_on, warn: true };
  }
}

// -- drawing them ----------------------------------------------------------------------

function button(text, className, onClick) {
  const node = el("button", className, text);
  node.type = "button";
  node.addEventListener("click", onClick);
  return node;
}

function colorButton(s, letter, pressed, onClick) {
  const node = button("", "pick color " + letter, onClick);
  node.dataset.color = letter;
  node.setAttribute("aria-pressed", String(pressed));
  node.appendChild(symbol(letter));
  node.appendChild(el("span", "color-name", colorName(s, letter)));
  return node;
}

function rankButtons(chosen, onPick) {
  const row = el("div", "pick-row ranks");
  for (const rank of RANKS) {
    const node = button(String(rank), "pick rank", () => onPick(rank));
    node.dataset.rank = String(rank);
    node.setAttribute("aria-pressed", String(chosen === rank));
    row.appendChild(node);
  }
  return row;
}

// A hand as "My hand" draws it (slot 1 at the left), each slot a button.
function pickHand(s, seat, picked, onPick, small) {
  const hand = el("div", "hand pick-hand" + (small ? " small" : " big"));
  const size = s.hand_sizes ? s.hand_sizes[seat] : s.seats[seat].hand.length;
  for (const slot of s.seats[seat].hand.slice(0, size)) {
    const node = slotNode(slot);
    node.setAttribute("role", "button");
    node.tabIndex = 0;
    const on = picked.includes(slot.number);
    node.classList.toggle("picked", on);
    node.setAttribute("aria-pressed", String(on));
    node.addEventListener("click", () => onPick(slot.number));
    node.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") { event.preventDefault(); onPick(slot.number); }
    });
    hand.appendChild(node);
  }
  return hand;
}

function drawFlow(s) {
  const L = s.labels;
  const f = flow;
  const box = $("flow");
  box.hidden = false;
  box.dataset.step = f.step;
  box.replaceChildren();
  if (f.kind === "reveal") { drawReveal(s, box); return; } // reveal.js
  const who = s.seats[f.player] ? s.seats[f.player].name : "";
  const titles = { hint: L.gives_hint, play: L.plays, discard: L.discards_card };
  if (f.kind === "undo") {
    // with hands shown at the end, undo takes the last of them back (reveal.js)
    box.appendChild(el("p", "flow-title", s.revealed.length ? L.undo_reveal_title : L.undo_title));
    box.appendChild(el("p", "flow-what", s.undo_what || s.recent[0] || ""));
  } else {
    box.appendChild(el("p", "flow-title", said(titles[f.kind], who)));
    const chosen = [];
    if (f.kind === "hint" && f.to !== null && f.step !== "to") chosen.push("→ " + s.seats[f.to].name);
    if (f.kind === "hint" && f.clue !== null && f.step === "slots") {
      chosen.push(typeof f.clue === "number" ? String(f.clue) : colorName(s, f.clue));
    }
    if (f.slot !== null && f.step === "card") chosen.push(L.slot.split("{slot}").join(String(f.slot)));
    if (chosen.length) box.appendChild(el("p", "flow-chosen", chosen.join(" · ")));
  }
  const pick = (text) => box.appendChild(el("h3", "flow-ask", text));
  if (f.step === "to") {
    pick(L.pick_receiver);
    const row = el("div", "pick-row seats" + (s.hand_memory ? " with-hands" : ""));
    for (const seat of otherSeats(s)) {
      const node = button(s.seats[seat].name, "pick seat", () => { f.to = seat; f.step = "clue"; draw(); });
      node.dataset.seat = String(seat);
      if (!s.hand_memory) { row.appendChild(node); continue; }
      // with hand memory each receiver's cards too: a tap on one picks the player and
      // that slot at once, as a tap on a hand does on the panel
      const receiver = el("div", "receiver");
      receiver.dataset.seat = String(seat);
      receiver.appendChild(node);
      receiver.appendChild(pickHand(s, seat, [], (number) => {
        f.to = seat;
        f.slots = [number];
        f.step = "clue";
        draw();
      }, true));
      row.appendChild(receiver);
    }
    box.appendChild(row);
  } else if (f.step === "clue") {
    pick(L.pick_clue);
    const colors = el("div", "pick-row colors");
    const choose = (clue) => {
      f.clue = clue;
      if (s.hand_memory) f.step = "slots"; // a card tapped at "to whom?" stays picked
      draw();
      askPreview();
    };
    for (const letter of s.clue_colors || []) {
      colors.appendChild(colorButton(s, letter, f.clue === letter, () => choose(letter)));
    }
    box.appendChild(colors);
    box.appendChild(rankButtons(f.clue, choose));
  } else if (f.step === "slots") {
    pick(L.pick_slots);
    box.appendChild(pickHand(s, f.to, f.slots, (number) => {
      f.slots = f.slots.includes(number) ? f.slots.filter((n) => n !== number) : [...f.slots, number].sort((a, b) => a - b);
      draw();
      askPreview();
    }));
  } else if (f.step === "slot") {
    pick(L.pick_slot);
    box.appendChild(pickHand(s, f.player, [], (number) => { f.slot = number; f.step = "card"; draw(); }));
  } else if (f.step === "card") {
    pick(L.pick_color);
    const colors = el("div", "pick-row colors");
    for (const letter of s.card_colors || []) {
      colors.appendChild(colorButton(s, letter, f.color === letter, () => { f.color = letter; draw(); askPreview(); }));
    }
    box.appendChild(colors);
    pick(L.pick_rank);
    box.appendChild(rankButtons(f.rank, (rank) => { f.rank = rank; draw(); askPreview(); }));
    if (f.kind === "play" && s.timed_display) {
      pick(L.pick_announce);
      const announce = el("div", "pick-row colors announce");
      for (const letter of s.clue_colors || []) {
        announce.appendChild(colorButton(s, letter, f.announce === letter, () => {
          f.announce = f.announce === letter ? null : letter; // a second tap: no colour
          draw();
          askPreview();
        }));
      }
      box.appendChild(announce);
      const announced = f.announce ? L.announced.split("{color}").join(colorName(s, f.announce)) : L.no_announce;
      box.appendChild(el("p", "flow-note", announced));
    }
  }
  // what confirming will do; a refusal in the warning colour and no OK
  const preview = f.preview;
  const quiet = f.kind === "hint" && f.step === "slots" && !f.slots.length && preview && !preview.ok;
  if (preview && !quiet) box.appendChild(el("p", "preview" + (preview.ok ? "" : " warning"), preview.text));
  if (f.message) box.appendChild(el("p", "preview" + (f.message.warn ? " warning" : ""), f.message.text));
  const row = el("div", "flow-row");
  row.appendChild(button(L.cancel, "secondary", () => closeFlow(null)));
  if (f.step !== f.first && !f.sending) row.appendChild(button("‹ " + L.back, "secondary", back));
  const ready = f.kind === "undo" || (preview && preview.ok);
  if (ready) {
    const ok = button(f.sending ? L.sending : (f.kind === "undo" ? L.act_undo : L.confirm), "primary confirm", confirmFlow);
    ok.disabled = f.sending;
    row.appendChild(ok);
  }
  box.appendChild(row);
  if (f.shown !== f.step) {
    // each new step at the top of the screen, under the tabs: all of it within reach
    f.shown = f.step;
    box.scrollIntoView({ block: "start" });
  }
}

function drawAct(s) {
  const L = s.labels;
  const paired = Boolean(token());
  $("act").hidden = !paired;
  if (paired) {
    const names = { hint: L.act_hint, play: L.act_play, discard: L.act_discard, undo: L.act_undo };
    for (const node of $("act-buttons").children) {
      const kind = node.dataset.act;
      node.textContent = names[kind];
      node.disabled = kind === "undo" ? s.actions === 0 : s.over || s.current < 0;
      node.classList.toggle("refused", Boolean((s.refused || {})[kind])); // a tap says why
    }
    $("act-buttons").hidden = flow !== null;
    $("show-hand").hidden = flow !== null || !canShowHand(s); // reveal.js
    $("show-hand").textContent = L.show_hand;
    if (flow) drawFlow(s); else $("flow").hidden = true;
    const line = $("act-status");
    line.hidden = !answerLine;
    line.textContent = answerLine ? answerLine.text : "";
    line.classList.toggle("warning", Boolean(answerLine && answerLine.warn));
  }
}

// Under the Table tab, with or without a game: pair this phone, or say it is paired.
function drawPairing(s) {
  const L = s.labels;
  const paired = Boolean(token());
  $("pair-open").hidden = paired || pairing;
  $("pair-open").textContent = L.pair_open;
  $("pair-form").hidden = paired || !pairing;
  $("pair-code-label").textContent = L.pair_code;
  $("pair-name-label").textContent = L.pair_name;
  $("pair-cancel").textContent = L.cancel;
  $("pair-submit").textContent = L.pair;
  $("pair-error").hidden = !pairError;
  $("pair-error").textContent = pairError || "";
  $("paired-as").hidden = !paired || !phoneName;
  $("paired-as").textContent = phoneName ? said(L.paired_as, phoneName) : "";
}

function openPairing() {
  offerPairing(null);
  draw();
  $("pair-code").focus();
}

async function pair(event) {
  event.preventDefault();
  const code = $("pair-code").value.trim();
  const name = $("pair-name").value.trim();
  $("pair-submit").disabled = true;
  pairError = snapshot.labels.pair_waiting; // the companion asks "Pair Di's phone? OK"
  draw();
  const answer = await post("/api/pair", { code, name }, false, PAIR_TIMEOUT_MS);
  $("pair-submit").disabled = false;
  if (answer.status === 200 && answer.data.ok && answer.data.token) {
    localStorage.setItem(TOKEN_KEY, answer.data.token);
    phoneName = answer.data.name || name;
    pairing = false;
    pairError = null;
    $("pair-code").value = "";
    answerLine = { text: answer.data.text || "", warn: false };
  } else {
    pairError = answer.data.text || snapshot.labels.no_answer;
  }
  draw();
}

document.addEventListener("DOMContentLoaded", () => {
  for (const node of $("act-buttons").children) {
    node.addEventListener("click", () => startFlow(node.dataset.act));
  }
  $("pair-open").addEventListener("click", openPairing);
  $("show-hand").addEventListener("click", startReveal);
  $("pair-cancel").addEventListener("click", () => { pairing = false; pairError = null; draw(); });
  $("pair-form").addEventListener("submit", pair);
  checkToken();
});
