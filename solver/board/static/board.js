// The analysis board's page: it only shows.  Every rule and every value comes from the
// server's JSON endpoints (bideuchre.board.views); the URL query holds the whole position.
"use strict";

const SEATS = ["N", "E", "S", "W"];
const SUIT = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RANK = { "9": "9", T: "10", J: "J", Q: "Q", K: "K", A: "A" };
const KEYS = ["preset", "rule", "deck", "deal", "dealer", "strain", "leader", "lone", "played",
              "line", "declarer", "bid"];
const DECKS = ["single24", "double32", "double40", "double48"];

const $ = (id) => document.getElementById(id);
const client = Math.random().toString(36).slice(2);
let reqNo = 0;
const inflight = {};            // endpoint -> AbortController of its latest request
const thinking = new Map();     // endpoint -> what is being computed
let presets = null;
let state = emptyState();
let viewSeat = "";              // "" all hands (double dummy), else the seat whose view is shown
let view = null, values = null, table = null, tableKey = "", replay = null, replayKey = "";
let review = null, sd = null;
let showPv = false, editing = false, editPick = null;

function emptyState() {
  const s = {};
  for (const k of KEYS) s[k] = k === "rule" ? [] : "";
  return s;
}

// ------------------------------------------------------------------------------------------
// URL <-> state

function stateFromURL() {
  const q = new URLSearchParams(location.search);
  const s = emptyState();
  for (const k of KEYS) s[k] = k === "rule" ? q.getAll("rule") : (q.get(k) || "");
  viewSeat = q.get("view") || "";
  return s;
}

function writeURL() {
  const q = new URLSearchParams();
  for (const k of KEYS) {
    if (k === "rule") state.rule.forEach((r) => q.append("rule", r));
    else if (state[k]) q.set(k, state[k]);
  }
  if (viewSeat) q.set("view", viewSeat);
  history.replaceState(null, "", location.pathname + "?" + q.toString());
}

const cards = (text) => (text ? text.split(/\s+/).filter(Boolean) : []);
const posKey = () => JSON.stringify([state, viewSeat]);

// ------------------------------------------------------------------------------------------
// Requests

class Refused extends Error {}

function setThinking(name, what) {
  if (what) thinking.set(name, what); else thinking.delete(name);
  document.body.dataset.pending = String(thinking.size);
  const t = $("thinking");
  t.textContent = thinking.size ? "thinking: " + [...thinking.values()].join(", ") + "…" : "";
  t.classList.toggle("on", thinking.size > 0);
}

async function api(name, extra = {}, what = "") {
  // POST the state (plus extra) to /api/<name>; a newer call of the same endpoint supersedes
  // this one (the fetch is aborted; the server drops it if it has not started).  Returns the
  // JSON, or null when superseded; throws Refused with the server's one-line message.
  if (inflight[name]) inflight[name].abort();
  const ctl = new AbortController();
  inflight[name] = ctl;
  const body = Object.assign({}, state, extra, { client, req: ++reqNo });
  setThinking(name, what || name);
  try {
    const r = await fetch("/api/" + name, {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body), signal: ctl.signal,
    });
    const data = await r.json();
    if (r.status === 409) return null;
    if (!r.ok) throw new Refused(data.error || r.statusText);
    return data;
  } catch (e) {
    if (e.name === "AbortError") return null;
    throw e instanceof Refused ? e : new Refused(String(e.message || e));
  } finally {
    if (inflight[name] === ctl) {
      delete inflight[name];
      setThinking(name, "");
    }
  }
}

function say(message, ok = false) {
  const m = $("message");
  m.textContent = message;
  m.classList.toggle("ok", ok);
}

// ------------------------------------------------------------------------------------------
// The position

async function refresh() {
  writeURL();
  syncControls();
  const key = posKey();
  if (!state.deal) {
    view = values = null;
    render();
    return;
  }
  // the values are asked for at once, beside the view (they need not wait for it)
  const pending = state.strain ? api("values", { pv: showPv }, "card values").catch((e) => e) : null;
  let v;
  try {
    v = await api("view", {}, "position");
  } catch (e) {
    if (key === posKey()) { say(e.message); view = null; values = null; render(); }
    return;
  }
  if (!v || key !== posKey()) return;
  view = v;
  values = null;
  sd = null;
  render();
  const jobs = [loadTable()];
  if (view.strain) {
    jobs.push(pending.then((x) => {
      if (key !== posKey()) return;
      if (x instanceof Error) say(x.message);
      else if (x) { values = x; render(); }
    }).then(loadReplay));
    if (viewSeat && !view.over) jobs.push(loadSd(key));
  }
  await Promise.all(jobs);
}

async function loadSd(key) {
  try {
    const v = await api("sd", { seat: viewSeat }, "single-dummy values");
    if (v && key === posKey()) { sd = v; render(); }
  } catch (e) {
    if (key === posKey()) say(e.message);
  }
}

async function loadTable() {
  const k = JSON.stringify([state.preset, state.rule, state.deck, state.deal, state.dealer]);
  if (k === tableKey && table) return;
  tableKey = k;
  table = null;
  renderTable();
  try {
    const t = await api("table", {}, "DD table and par");
    if (t && k === tableKey) { table = t; renderTable(); }
  } catch (e) {
    if (k === tableKey) $("dd").textContent = e.message;
  }
}

async function loadReplay() {
  const line = state.line || state.played;
  const k = JSON.stringify([state.preset, state.rule, state.deck, state.deal, state.dealer,
                            state.strain, state.leader, state.lone, state.declarer, state.bid, line]);
  if (k === replayKey) return;
  replayKey = k;
  replay = null;
  review = null;
  renderLine();
  if (!cards(line).length) return;
  try {
    const r = await api("replay", { played: line, line }, "replay");
    if (r && k === replayKey) { replay = r; renderLine(); }
  } catch (e) {
    if (k === replayKey) $("line").textContent = e.message;
  }
}

// ------------------------------------------------------------------------------------------
// Moves

function fullLine() {
  const line = cards(state.line);
  const played = cards(state.played);
  return line.length > played.length && line.slice(0, played.length).join(" ") === played.join(" ")
    ? line : played;
}

function setPlayed(list) {
  const line = fullLine();
  state.played = list.join(" ");
  const prefix = line.slice(0, list.length).join(" ") === list.join(" ");
  state.line = prefix && line.length > list.length ? line.join(" ") : "";
  refresh();
}

function playCard(card) {
  if (!view || !view.legal.includes(card)) return;
  const played = cards(state.played);
  const line = fullLine();
  played.push(card);
  if (line.length >= played.length && line.slice(0, played.length).join(" ") === played.join(" ")) {
    state.played = played.join(" ");       // on the line: keep it for redo
    state.line = line.length > played.length ? line.join(" ") : "";
  } else {
    state.played = played.join(" ");       // off the line: a new line
    state.line = "";
  }
  refresh();
}

function undo() { const p = cards(state.played); if (p.length) setPlayed(p.slice(0, -1)); }
function redo() { const p = cards(state.played), l = fullLine(); if (l.length > p.length) setPlayed(l.slice(0, p.length + 1)); }
function toStart() { if (cards(state.played).length) setPlayed([]); }
function toEnd() { const l = fullLine(); if (l.length > cards(state.played).length) setPlayed(l); }
function toTrick(k) {
  if (!view) return;
  const l = fullLine();
  setPlayed(l.slice(0, Math.min(l.length, (k - 1) * view.trick_size)));
}
function stepTrick(d) {
  if (!view) return;
  const n = cards(state.played).length, size = view.trick_size;
  const cur = Math.floor(n / size) + 1;
  toTrick(d < 0 ? (n % size ? cur : cur - 1) : cur + 1);
}
function playBest() {
  if (values && values.cards.length) playCard(values.cards.find((c) => c.optimal).card);
}

// ------------------------------------------------------------------------------------------
// Drawing

function cardFace(el, token) {
  const s = token[0], r = token[1];
  el.classList.add("card", "suit-" + s);
  el.innerHTML = `<span class="rank">${RANK[r]}</span><span class="pip">${SUIT[s]}</span>`;
}

function bySuitHighFirst(list) {
  const out = [];
  for (const s of "SHDC") {
    const suit = list.filter((c) => c[0] === s);
    suit.reverse();
    out.push(...suit);
  }
  return out;
}

function render() {
  // what the page shows, for tests and benchmarks: the cards played, and those the values are of
  document.body.dataset.position = view && view.strain ? view.played.map((p) => p.card).join(" ") : "";
  document.body.dataset.values = values && cardValues().size ? values.played.join(" ") : "";
  renderSeats();
  renderCenter();
  renderBar();
  renderPv();
  renderLine();
  $("edit").classList.toggle("on", editing);
}

function cardValues() {
  const m = new Map();
  if (values && view && values.played.join(" ") === view.played.map((p) => p.card).join(" ")) {
    for (const g of values.cards) for (const c of g.cards) m.set(c, g);
  }
  return m;
}

function sdValues() {
  const m = new Map();
  if (sd && sd.cards) for (const g of sd.cards) for (const c of [g.card, ...g.equivalent]) m.set(c, g);
  return m;
}

function renderSeats() {
  const vals = cardValues(), sds = sdValues();
  for (const seat of SEATS) {
    const box = $("seat-" + seat);
    box.innerHTML = "";
    box.classList.remove("to-move", "out");
    if (!view) { box.innerHTML = `<div class="label">${seat}</div>`; continue; }
    const label = document.createElement("div");
    label.className = "label";
    const tags = [];
    if (view.dealer === seat) tags.push("dealer");
    if (view.out === seat) tags.push("sits out");
    if (view.lone === seat) tags.push("lone");
    if (state.declarer === seat) tags.push("declarer");
    if (view.to_move === seat) tags.push("to play");
    label.innerHTML = `<b>${seat}</b> <span>${tags.join(" · ")}</span>`;
    box.appendChild(label);
    if (view.to_move === seat) box.classList.add("to-move");
    if (view.out === seat) box.classList.add("out");
    const hand = document.createElement("div");
    hand.className = "hand";
    const left = {};
    for (const c of (view.remaining ? view.remaining[seat] : view.hands[seat])) left[c] = (left[c] || 0) + 1;
    const hidden = viewSeat && viewSeat !== seat;
    for (const c of bySuitHighFirst(view.hands[seat])) {
      const el = document.createElement("span");
      const unplayed = left[c] > 0;
      if (unplayed) left[c] -= 1;
      if (hidden && unplayed) {
        el.className = "card back";
        hand.appendChild(el);
        continue;
      }
      cardFace(el, c);
      el.dataset.card = c;
      el.dataset.seat = seat;
      if (!unplayed) el.dataset.played = "1";
      if (editing && !view.played.length) {
        el.classList.add("editable");
        if (editPick && editPick.seat === seat && editPick.card === c) el.classList.add("picked");
        el.addEventListener("click", () => editClick(seat, c));
      } else if (unplayed && view.to_move === seat && view.legal.includes(c)) {
        el.classList.add("legal");
        el.addEventListener("click", () => playCard(c));
        const g = viewSeat ? sds.get(c) : vals.get(c);
        if (g && !viewSeat) {
          el.dataset.value = String(g.mine);
          el.classList.add(g.optimal ? "best" : "worse");
          el.title = g.optimal ? `best: ${g.mine} tricks` : `${g.mine} tricks, loses ${g.cost}`;
          el.insertAdjacentHTML("beforeend", `<span class="val">${g.mine}</span>`);
        } else if (g) {
          el.dataset.sd = g.tricks.toFixed(2);
          const best = g.card === sd.recommend || (sd.cards[0].equivalent || []).includes(c);
          el.classList.add(best ? "best" : "worse");
          const pm = g.p_make == null ? "" : ` · P(make) ${(100 * g.p_make).toFixed(0)}%`;
          el.title = `${g.tricks.toFixed(2)} ± ${g.se.toFixed(2)} tricks${pm}`;
          el.insertAdjacentHTML("beforeend", `<span class="val">${g.tricks.toFixed(1)}</span>`);
        }
      }
      hand.appendChild(el);
    }
    box.appendChild(hand);
  }
}

function renderCenter() {
  const t = $("trick");
  t.innerHTML = "";
  const sc = $("score");
  if (!view || !view.strain) {
    sc.innerHTML = view ? "choose a strain to play" : "paste a deal or open a link";
    return;
  }
  let shown = view.trick, old = false;
  if (!shown.length && view.played.length) {          // the last trick, until the next lead
    const last = view.played.slice(-view.trick_size);
    shown = last.map((p) => ({ seat: p.seat, card: p.card }));
    old = true;
  }
  for (const p of shown) {
    const el = document.createElement("span");
    cardFace(el, p.card);
    el.classList.add("at-" + p.seat);
    if (old) el.classList.add("old");
    el.dataset.trickCard = p.card;
    el.dataset.trickSeat = p.seat;
    t.appendChild(el);
  }
  const strain = `<span class="strain suit-${view.strain}">${view.strain_symbol}</span>`;
  const v = values ? `double dummy: <b>NS ${values.value.NS}</b> · <b>EW ${values.value.EW}</b>` : "";
  const who = view.lone ? ` lone ${view.lone}` : state.declarer ? ` ${state.declarer} declares${state.bid ? " " + state.bid : ""}` : "";
  sc.innerHTML = `${strain}<b>${who}</b><br>tricks won: NS ${view.won.NS} · EW ${view.won.EW}<br>${v}`;
}

function renderBar() {
  const st = $("status");
  if (!view || !view.strain) { st.textContent = ""; }
  else if (view.over) st.textContent = `the hand is over: NS ${view.won.NS} · EW ${view.won.EW}`;
  else st.textContent = `trick ${view.trick_number} · ${view.to_move} to play`;
  const list = $("trick-list");
  list.innerHTML = "";
  if (!view || !view.strain) return;
  const total = Math.ceil(fullLine().length / view.trick_size);
  const cur = Math.floor(view.played.length / view.trick_size) + 1;
  for (let k = 1; k <= Math.max(total + (view.over ? 0 : 1), 1) && k <= view.tricks_per_hand; k++) {
    const b = document.createElement("button");
    b.textContent = k;
    b.dataset.trick = k;
    if (k === cur && !view.over) b.classList.add("current");
    b.addEventListener("click", () => toTrick(k));
    list.appendChild(b);
  }
}

function trickCards(t) {
  return t.cards.map((c, i) => `<span class="mini suit-${c[0]}">${t.seats[i]} ${SUIT[c[0]]}${RANK[c[1]]}</span>`).join(" ");
}

function renderPv() {
  const el = $("pv");
  $("pvbtn").classList.toggle("on", showPv);
  if (!showPv || !values || !values.pv) { el.innerHTML = ""; return; }
  el.innerHTML = "<h3>principal line (best play by all)</h3>" + values.pv.map(
    (t) => `<div>${t.trick}. ${trickCards(t)} → <b>${t.winner}</b></div>`).join("");
}

function renderLine() {
  const el = $("line");
  if (!replay) { el.innerHTML = view && view.strain ? "<p class=dim>no cards played yet</p>" : ""; return; }
  const n = view ? view.played.length : 0;
  let html = `<p>DD before the first card: NS ${replay.start.NS} · EW ${replay.start.EW}</p><table class="line"><tr><th>trick</th><th>cards (loss)</th></tr>`;
  let trick = 0;
  replay.steps.forEach((s, i) => {
    if (s.trick !== trick) { html += (trick ? "</td></tr>" : "") + `<tr><td>${s.trick}</td><td>`; trick = s.trick; }
    const rv = review ? review.steps[i].sd : null;
    const cls = ["step", i < n ? "done" : "", i === n - 1 ? "here" : "", s.cost ? "lost" : ""].join(" ");
    const loss = s.cost ? ` <span class="cost">−${s.cost}</span>` : "";
    const verdict = rv && rv.verdict ? ` <span class="verdict ${rv.verdict}">${rv.verdict}</span>` : "";
    const tip = s.cost ? `loses ${s.cost}; better: ${(s.best || []).join(" ")}` : "keeps the DD value";
    html += `<a class="${cls}" data-step="${i}" title="${tip}">${s.seat} <span class="suit-${s.card[0]}">${SUIT[s.card[0]]}${RANK[s.card[1]]}</span>${loss}${verdict}</a> `;
  });
  html += "</td></tr></table>";
  const lost = Object.entries(replay.lost).filter(([, v]) => v).map(([s, v]) => `${s} ${v}`).join(", ");
  html += `<p>tricks lost by mistakes: ${lost || "none"}</p>`;
  if (replay.contract) {
    const c = replay.contract;
    html += `<p>contract ${c.declarer} ${c.bid} ${c.strain}: ${c.made ? "made" : "set"} · NS ${c.points.NS} · EW ${c.points.EW}${c.complete ? "" : " (projected)"}</p>`;
  }
  if (review) {
    html += "<p>single dummy per seat: " + Object.entries(review.sd_summary.summary).map(
      ([s, r]) => `${s} ${r.mistakes} mistakes, ${r.unlucky} unlucky`).join(" · ") + "</p>";
  }
  el.innerHTML = html;
  el.querySelectorAll("[data-step]").forEach((a) => a.addEventListener("click", () => {
    setPlayed(fullLine().slice(0, Number(a.dataset.step) + 1));
  }));
}

function renderTable() {
  const el = $("dd");
  if (!table) { el.innerHTML = state.deal ? "<p class=dim>solving…</p>" : ""; return; }
  const strains = Object.keys(table.dd.N);
  const sym = {};
  if (presets) for (const p of Object.values(presets.presets)) for (const s of p.strains) sym[s.name] = s.symbol;
  let html = "<table class=dd><tr><th></th>" + strains.map((s) => `<th class="suit-${s}">${sym[s] || s}</th>`).join("") + "</tr>";
  for (const seat of SEATS) {
    html += `<tr><th>${seat}</th>` + strains.map((s) => `<td data-dd="${seat}${s}" title="${seat} declares ${sym[s] || s}: play it">${table.dd[seat][s]}</td>`).join("") + "</tr>";
  }
  html += "</table>";
  const par = table.par;
  html += par ? `<p class=par>par: <b>${par.declarer} ${par.bid} <span class="suit-${par.strain}">${sym[par.strain] || par.strain}</span></b> · ${par.tricks} tricks · NS ${signed(par.points.NS)} · EW ${signed(par.points.EW)}</p>`
              : "<p class=par>par: thrown in (all pass)</p>";
  el.innerHTML = html;
  el.querySelectorAll("[data-dd]").forEach((td) => td.addEventListener("click", () => {
    const seat = td.dataset.dd[0], strain = td.dataset.dd.slice(1);
    Object.assign(state, { strain, declarer: seat, leader: "", lone: "", played: "", line: "" });
    refresh();
  }));
}

const signed = (x) => (x > 0 ? "+" + x : String(x));

// ------------------------------------------------------------------------------------------
// Controls

function options(select, items, value) {
  select.innerHTML = items.map(([v, t]) => `<option value="${v}">${t}</option>`).join("");
  select.value = value;
}

function syncControls() {
  if (!presets) return;
  const name = state.preset || "standard";
  const p = presets.presets[name] || presets.presets.standard;
  options($("preset"), Object.keys(presets.presets).map((n) => [n, n]), name);
  options($("deck"), [["", `${p.deck} (preset)`], ...DECKS.filter((d) => d !== p.deck).map((d) => [d, d])], state.deck);
  const dealer = state.dealer || (view ? view.dealer : "");
  options($("dealer"), [["", "–"], ...SEATS.map((s) => [s, s])], dealer);
  options($("strain"), [["", "–"], ...p.strains.map((s) => [s.name, s.symbol])], state.strain);
  options($("leader"), [["", "by the rules"], ...SEATS.map((s) => [s, s])], state.leader);
  options($("lone"), [["", "none"], ...(p.lone ? SEATS.map((s) => [s, s]) : [])], state.lone);
  options($("view"), [["", "all hands (DD)"], ...SEATS.map((s) => [s, s + " only (SD)"])], viewSeat);
  if (document.activeElement !== $("rules")) $("rules").value = state.rule.join(" ");
  $("rules").title = "table options KEY=VALUE (as --rule), this preset's:\n" +
    p.options.map((o) => `${o.key}=${o.value}  (${o.allowed}): ${o.meaning}`).join("\n");
  const bs = $("bid-seat");
  if (!bs.options.length) options(bs, SEATS.map((s) => [s, s]), "S");
}

function control(id, key, resetPlay = true) {
  $(id).addEventListener("change", (e) => {
    state[key] = e.target.value;
    if (resetPlay) { state.played = ""; state.line = ""; }
    if (key === "preset") { state.rule = []; state.deck = ""; state.strain = ""; state.lone = ""; }
    if (key === "leader" || key === "lone") state.declarer = state.declarer && key === "lone" ? e.target.value : state.declarer;
    refresh();
  });
}

async function loadText(text) {
  say("");
  try {
    const index = Math.max(1, parseInt($("record-index").value, 10) || 1);
    const r = await api("parse", { text, index }, "reading");
    if (!r) return;
    state = Object.assign(emptyState(), r.state);
    $("exported").textContent = "";
    say(r.records ? `read record ${index} of ${r.records}${r.event ? ": " + r.event : ""}` : "deal read", true);
    tableKey = "";
    refresh();
  } catch (e) {
    say(e.message);
  }
}

async function editClick(seat, card) {
  if (!editPick) { editPick = { seat, card }; render(); return; }
  const a = editPick;
  editPick = null;
  if (a.seat === seat) { render(); return; }
  const hands = {};
  for (const s of SEATS) hands[s] = view.hands[s].slice();
  hands[a.seat].splice(hands[a.seat].indexOf(a.card), 1, card);
  hands[seat].splice(hands[seat].indexOf(card), 1, a.card);
  try {
    const r = await api("edit", { hands }, "checking the deal");
    if (!r) return;
    state.deal = r.deal;
    state.played = state.line = "";
    say("");
    refresh();
  } catch (e) {
    say(e.message);
    render();
  }
}

function bindControls() {
  control("preset", "preset");
  control("deck", "deck");
  control("dealer", "dealer");
  control("strain", "strain");
  control("leader", "leader");
  control("lone", "lone");
  $("view").addEventListener("change", (e) => { viewSeat = e.target.value; refresh(); });
  $("rules").addEventListener("change", (e) => { state.rule = cards(e.target.value); state.played = state.line = ""; refresh(); });
  $("start").addEventListener("click", toStart);
  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", redo);
  $("end").addEventListener("click", toEnd);
  $("best").addEventListener("click", playBest);
  $("pvbtn").addEventListener("click", () => { showPv = !showPv; refresh(); });
  $("edit").addEventListener("click", () => {
    editing = !editing; editPick = null;
    if (editing && view && view.played.length) say("edit the deal from the start: go back to the first card (⏮) first");
    render();
  });
  $("load").addEventListener("click", () => loadText($("paste").value));
  $("upload").addEventListener("change", async (e) => {
    const f = e.target.files[0];
    if (f) loadText(await f.text());
  });
  $("export").addEventListener("click", async () => {
    try {
      const r = await api("export", {}, "export");
      if (r) $("exported").textContent = r.deal + "\n\n" + r.record;
    } catch (e) { say(e.message); }
  });
  $("review").addEventListener("click", async () => {
    const line = state.line || state.played;
    const k = replayKey;
    try {
      const r = await api("review", { played: line, line }, "single-dummy review");
      if (r && k === replayKey) { review = r; renderLine(); }
    } catch (e) { say(e.message); }
  });
  $("bid-go").addEventListener("click", bidAdvice);
  document.addEventListener("keydown", (e) => {
    if (["INPUT", "TEXTAREA", "SELECT"].includes(document.activeElement.tagName)) return;
    const k = { ArrowLeft: undo, ArrowRight: redo, Home: toStart, End: toEnd,
                ArrowUp: () => stepTrick(-1), ArrowDown: () => stepTrick(1), " ": playBest,
                p: () => $("pvbtn").click() }[e.key];
    if (k) { e.preventDefault(); k(); }
  });
}

async function bidAdvice() {
  const el = $("bid");
  el.innerHTML = "";
  try {
    const a = await api("bid", { seat: $("bid-seat").value, auction: $("auction").value }, "bid advice");
    if (!a) return;
    const rows = a.actions.map((x) => `<tr class="${x.action === a.recommend ? "best" : ""}"><td>${x.action}${x.strain ? " " + x.strain : ""}</td><td>${x.ev.toFixed(2)} ± ${x.se.toFixed(2)}</td><td>${x.p_make == null ? "" : (100 * x.p_make).toFixed(0) + "%"}</td><td>${(100 * x.p_declare).toFixed(0)}%</td></tr>`).join("");
    const close = a.close ? " (too close to call)" : "";
    el.innerHTML = `<p>${a.seat} holds ${a.hand}: bid <b>${a.recommend}${a.strain ? " " + a.strain : ""}</b>${close} · ${a.samples} deals, stopped: ${a.sampling.stopped}</p>` +
      `<table class=bid><tr><th>action</th><th>EV (points)</th><th>P(make)</th><th>P(declare)</th></tr>${rows}</table>`;
  } catch (e) {
    el.textContent = e.message;
  }
}

async function main() {
  bindControls();
  state = stateFromURL();
  try {
    const r = await fetch("/api/presets");
    presets = await r.json();
  } catch (e) {
    say("cannot reach the board's server: " + e);
  }
  await refresh();
  document.body.dataset.readyMs = String(Math.round(performance.now()));   // first complete view
  document.body.dataset.ready = "1";
}

main();
