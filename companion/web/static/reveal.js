// The hands shown at the end (issue 34): a paired phone shows its own seat's hand, card by
// card, slot 1 first; the companion checks each card as it comes (a preview of the cards so
// far: a card its slot cannot be, or with no copy left, is refused in its words) and
// records the whole hand. What the end says of the hands shown, and the hands themselves
// under "Every hand". Read with app.js (its flow, its answers, its buttons).
"use strict";

// "Show my hand" under the Table tab: a game with hand memory over, this phone's seat
// not shown yet (no seat picked: "My hand" asks it first).
function canShowHand(s) {
  const seat = chosenSeat();
  return s.over && s.hand_memory && !s.deal_known && (seat === null || !s.revealed.includes(seat));
}

function startReveal() {
  const s = snapshot;
  const seat = chosenSeat();
  if (seat === null) { // whose hand: the seat this phone picks in "My hand"
    view = "mine";
    localStorage.setItem(VIEW_KEY, view);
    draw();
    return;
  }
  flow = {
    kind: "reveal", game: s.game, position: s.actions, seat, step: "cards", first: "cards",
    cards: [], color: null, rank: null, preview: null, asked: 0, sending: false, sent: null,
    message: null,
  };
  answerLine = null;
  draw();
}

function revealAction(f) {
  return { action: "reveal", player: f.seat, cards: f.cards.map((card) => card.color + card.rank) };
}

// A card is whole: it joins the hand, and the companion is asked about the cards so far.
async function revealCard() {
  const f = flow;
  if (f.color === null || f.rank === null) { draw(); return; }
  f.cards.push({ color: f.color, rank: f.rank });
  f.color = f.rank = null;
  f.preview = null;
  f.message = null;
  draw();
  const asked = ++f.asked;
  const action = revealAction(f);
  const answer = await postAgain("/api/preview", { game: f.game, position: f.position, action });
  if (flow !== f || f.asked !== asked) return; // the entry changed meanwhile
  if (answer.status === 200 && answer.data.ok) {
    f.preview = { ok: true, text: answer.data.text || "" };
  } else if (answer.status === 200) { // refused: the card goes, its slot is asked again
    f.cards.pop();
    f.message = { text: answer.data.text || "", warn: true };
  } else if (answer.status === 401) unpaired(answer.data.text);
  else if (answer.status === 409) { closeFlow(answer.data.text || snapshot.labels.moved_on, true); return; }
  else { f.cards.pop(); f.message = { text: answer.data.text || snapshot.labels.no_answer, warn: true }; }
  draw();
}

async function confirmReveal() {
  const f = flow;
  if (f.sending) return;
  await sendFlow(f, revealAction(f)); // app.js: as an entry's action is sent
}

function slotSaid(label, slot) {
  return label.split("{slot}").join(String(slot));
}

// The hand being shown: each card entered (a tap takes it and those after it back), the
// slot asked picked, the others as the hints left them.
function revealHand(s, f, size) {
  const hand = el("div", "hand pick-hand big reveal-hand");
  s.seats[f.seat].hand.slice(0, size).forEach((slot, index) => {
    let node;
    if (index < f.cards.length) {
      const card = f.cards[index];
      node = el("div", "slot shown " + card.color);
      node.appendChild(el("span", "num", String(slot.number)));
      node.appendChild(symbol(card.color));
      node.appendChild(el("div", "rank", String(card.rank)));
      node.setAttribute("role", "button");
      node.tabIndex = 0;
      node.addEventListener("click", () => {
        f.cards = f.cards.slice(0, index);
        f.color = f.rank = null;
        f.preview = f.message = null;
        f.asked++;
        draw();
      });
    } else {
      node = slotNode(slot);
      if (index === f.cards.length) { node.classList.add("picked"); node.setAttribute("aria-current", "true"); }
    }
    node.dataset.slot = String(index + 1);
    hand.appendChild(node);
  });
  return hand;
}

function drawReveal(s, box) {
  const L = s.labels;
  const f = flow;
  const size = s.hand_sizes[f.seat];
  box.appendChild(el("p", "flow-title", L.show_hand));
  box.appendChild(el("p", "flow-chosen", s.seats[f.seat].name));
  box.appendChild(revealHand(s, f, size));
  const pick = (text) => box.appendChild(el("h3", "flow-ask", text));
  if (f.cards.length < size) {
    const slot = f.cards.length + 1;
    pick(slotSaid(L.reveal_pick_color, slot));
    const colors = el("div", "pick-row colors");
    for (const letter of s.card_colors || []) {
      colors.appendChild(colorButton(s, letter, f.color === letter, () => { f.color = letter; revealCard(); }));
    }
    box.appendChild(colors);
    pick(slotSaid(L.reveal_pick_rank, slot));
    box.appendChild(rankButtons(f.rank, (rank) => { f.rank = rank; revealCard(); }));
  } else {
    box.appendChild(el("p", "flow-note", L.reveal_confirm));
  }
  if (f.cards.length) box.appendChild(el("p", "flow-note", L.reveal_tap_change));
  if (f.message) box.appendChild(el("p", "preview" + (f.message.warn ? " warning" : ""), f.message.text));
  const row = el("div", "flow-row");
  row.appendChild(button(L.cancel, "secondary", () => closeFlow(null)));
  if (f.cards.length === size && f.preview && f.preview.ok) {
    const ok = button(f.sending ? L.sending : L.confirm, "primary confirm", confirmReveal);
    ok.disabled = f.sending;
    row.appendChild(ok);
  }
  box.appendChild(row);
}

// What the end says of the hands shown ("the whole deal is known"): under the result.
function drawDeal(s) {
  const line = $("deal");
  line.hidden = !s.reveal_line;
  line.textContent = s.reveal_line || "";
  line.classList.toggle("known", Boolean(s.deal_known));
  drawReplay(s);
}

// The Hanab Live replay, once the deal is known: a QR code for another phone, a link for
// this one; or the sentence saying why the game cannot go there.
function drawReplay(s) {
  const box = $("replay");
  box.hidden = !(s.replay_link || s.replay_why_not);
  if (box.hidden) return;
  const key = s.replay_link || s.replay_why_not;
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.replaceChildren();
  if (!s.replay_link) {
    box.appendChild(el("p", "replay-why", s.replay_why_not));
    return;
  }
  const link = el("a", "play-log");
  link.id = "replay-link";
  link.href = s.replay_link;
  const img = document.createElement("img");
  img.id = "replay-qr";
  img.src = s.replay_qr;
  img.alt = s.labels.replay;
  link.appendChild(img);
  link.appendChild(el("span", "", s.labels.replay));
  box.appendChild(link);
}

// A hand shown at the end, as cards, in "Every hand" and "My hand".
function shownNode(seat) {
  const hand = el("div", "hand shown-hand");
  seat.shown.forEach((code, index) => {
    const node = el("div", "slot shown " + code[0]);
    node.appendChild(el("span", "num", String(index + 1)));
    node.appendChild(symbol(code[0]));
    node.appendChild(el("div", "rank", code.slice(1)));
    hand.appendChild(node);
  });
  return hand;
}
