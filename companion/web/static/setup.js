// The next game's variant, chosen on a phone (issue 35, decision 0124): while the panel
// shows the set-up, a paired phone searches Hanab Live's variants by a few letters (the
// companion's own search: /api/variants) and taps one; the panel's set-up takes it, and
// Start stays the panel's. Read with app.js (its snapshot, its post, its labels).
"use strict";

const SEARCH_DELAY_MS = 200; // typing: ask once the letters stop for this long
let setupFound = null; // { text, count, names } for the letters typed
let setupStatus = null; // the companion's answer to the last choice: { text, warn }
let setupTimer = null;
let setupAsked = null; // the letters of the search under way

async function searchVariants() {
  const text = $("setup-search").value;
  setupAsked = text;
  const query = new URLSearchParams(location.search);
  query.set("q", text);
  try {
    const answer = await fetch("/api/variants?" + query.toString(), { cache: "no-store" });
    if (!answer.ok || setupAsked !== text) return; // a newer search is under way
    const data = await answer.json();
    setupFound = { text, count: data.count, names: data.names };
  } catch (error) {
    return; // offline: the live page says so
  }
  drawSetup(snapshot);
}

function typedSearch() {
  clearTimeout(setupTimer);
  setupTimer = setTimeout(searchVariants, SEARCH_DELAY_MS);
}

async function chooseVariant(name) {
  setupStatus = null;
  const answer = await postAgain("/api/setup", { variant: name });
  const text = answer.data.text || snapshot.labels.no_answer;
  setupStatus = { text, warn: !(answer.status === 200 && answer.data.ok) };
  if (answer.status === 401) unpaired(text);
  draw();
}

function drawSetup(s) {
  const L = s.labels;
  const box = $("setup");
  box.hidden = !s.setting_up;
  if (!s.setting_up) { setupStatus = null; return; }
  const paired = Boolean(token());
  $("setup-title").textContent = L.setup_title;
  $("setup-next").textContent = said(L.setup_next, s.next_variant);
  $("setup-pair").hidden = paired;
  $("setup-pair").textContent = L.setup_pair;
  $("setup-search").hidden = !paired;
  $("setup-search").placeholder = L.setup_search;
  $("setup-search").setAttribute("aria-label", L.setup_search);
  const list = $("setup-results");
  list.hidden = !paired;
  if (paired && setupFound === null) { searchVariants(); return; }
  list.replaceChildren();
  const found = setupFound || { text: "", count: 0, names: [] };
  list.dataset.search = found.text; // the letters this list answers (the tests wait on it)
  for (const name of found.names) {
    const chosen = (name || L.variant_none) === s.next_variant;
    const node = button(name || L.variant_none, "pick variant-pick", () => chooseVariant(name));
    node.setAttribute("aria-pressed", String(chosen));
    list.appendChild(node);
  }
  const more = found.count - found.names.length;
  $("setup-more").hidden = !paired || (more <= 0 && found.count > 0);
  $("setup-more").textContent = found.count === 0 ? L.setup_none_found : said(L.setup_more, String(more));
  $("setup-status").hidden = !setupStatus;
  $("setup-status").textContent = setupStatus ? setupStatus.text : "";
  $("setup-status").classList.toggle("warning", Boolean(setupStatus && setupStatus.warn));
}

document.addEventListener("DOMContentLoaded", () => {
  $("setup-search").addEventListener("input", typedSearch);
});
