// kop playground: plain JavaScript, no build step, nothing loaded from elsewhere.
"use strict";

const kop = { t: {} };          // timings the browser tests read (performance.now() in ms)
window.kop = kop;

const $ = (id) => document.getElementById(id);
const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));

async function api(path, body) {
  const opts = body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  let res;
  try { res = await fetch(path, opts); } catch (e) { return { error: { message: "the server does not answer: " + e } }; }
  try { return await res.json(); } catch (e) { return { error: { message: `the server answered ${res.status} without JSON` } }; }
}

function showError(id, err) { $(id).textContent = err ? err.message : ""; }

function putSvg(id, svg) {
  const box = $(id);
  box.innerHTML = svg || "";
  const el = box.querySelector("svg");
  if (el) { el.removeAttribute("width"); el.removeAttribute("height"); }
  return el;
}

// ---------------------------------------------------------------- tabs
function showPage(name) {
  document.querySelectorAll("#tabs button").forEach((b) => b.classList.toggle("active", b.dataset.page === name));
  document.querySelectorAll(".page").forEach((p) => p.classList.toggle("active", p.id === "page-" + name));
  if (name === "story") storyStatus();
  if (name === "experiment") expPoll();
  history.replaceState(null, "", "#" + name);
}
document.querySelectorAll("#tabs button").forEach((b) => b.addEventListener("click", () => showPage(b.dataset.page)));

// ---------------------------------------------------------------- files
let FILES = [];
async function loadFiles() {
  const r = await api("/api/files");
  if (r.error) return;
  FILES = r.files;
  const fill = (id, kind) => {
    for (const f of FILES.filter((f) => f.kind === kind)) {
      const o = document.createElement("option"); o.value = f.path; o.textContent = f.path; $(id).appendChild(o);
    }
  };
  fill("theory-files", "theory"); fill("model-files", "model"); fill("story-files", "story"); fill("match-game", "theory");
}
async function readFile(path) { return api("/api/file?path=" + encodeURIComponent(path)); }

// ---------------------------------------------------------------- theory editor
const KEYWORDS = new Set(("actual agents among announce ask at believes check common communication core decided define " +
  "dominates entails exactly expect game in include know knows law level max min model nothing number observes of on " +
  "order play players satisfiable scenario select tree valid value vocabulary where within worlds").split(" "));
const TOKEN = /(#.*$)|("(?:[^"\\]|\\.)*")|((?:Kw|K|M|B|P|E|C|D)_[A-Za-z0-9_]+|[ECD]\{[^}]*\}|->|<->|[~&|!\[\]])|(\b\d+(?:\.\d+)?(?:\/\d+)?\b)|([A-Za-z_][A-Za-z0-9_]*)/g;

function highlightLine(line, errCol) {
  // errCol: 1-based column to underline (to the end of its word), or null
  let out = "", last = 0, m;
  const spans = [];
  TOKEN.lastIndex = 0;
  while ((m = TOKEN.exec(line)) !== null) {
    if (m[0] === "") { TOKEN.lastIndex++; continue; }
    let cls = m[1] ? "tok-com" : m[2] ? "tok-str" : m[3] ? "tok-op" : m[4] ? "tok-num" : KEYWORDS.has(m[5]) ? "tok-kw" : null;
    spans.push([m.index, m.index + m[0].length, cls]);
  }
  let errFrom = -1, errTo = -1;
  if (errCol !== null) {
    errFrom = Math.min(errCol - 1, line.length);
    const rest = line.slice(errFrom).match(/^\S+/);
    errTo = errFrom + (rest ? rest[0].length : 0);
  }
  // split into characters classes, then group runs
  const cls = new Array(line.length).fill(null);
  for (const [a, b, c] of spans) for (let i = a; i < b; i++) cls[i] = c;
  let i = 0;
  while (i < line.length) {
    let j = i;
    const inErr = (k) => k >= errFrom && k < errTo;
    while (j < line.length && cls[j] === cls[i] && inErr(j) === inErr(i)) j++;
    let piece = esc(line.slice(i, j));
    if (cls[i]) piece = `<span class="${cls[i]}">${piece}</span>`;
    if (inErr(i)) piece = `<span class="err">${piece}</span>`;
    out += piece; i = j;
  }
  if (errCol !== null && errFrom >= errTo) out += '<span class="err"> </span>';   // at the end of the line
  return out;
}

let theoryError = null;
let theoryPath = null;      // the file the editor's text came from: the theory's files are read from its folder
function renderHighlight() {
  const text = $("theory-text").value;
  const lines = text.split("\n");
  const el = theoryError && theoryError.line ? theoryError : null;
  const html = lines.map((l, k) => highlightLine(l, el && el.line === k + 1 ? el.column : null)).join("\n");
  $("theory-highlight").innerHTML = html + "\n";
  syncScroll();
}
function syncScroll() {
  $("theory-highlight").scrollTop = $("theory-text").scrollTop;
  $("theory-highlight").scrollLeft = $("theory-text").scrollLeft;
}

let checkTimer = null, answerTimer = null, checkSeq = 0, answerSeq = 0;
const CHECK_DELAY = 30, ANSWER_DELAY = 150;

function theoryTyped() {
  kop.t.typed = performance.now();
  renderHighlight();
  clearTimeout(checkTimer);
  checkTimer = setTimeout(checkTheory, CHECK_DELAY);
}

async function checkTheory() {
  const seq = ++checkSeq;
  const text = $("theory-text").value;
  const r = await api("/api/theory/check", { text, path: theoryPath });
  if (seq !== checkSeq) return;
  if (r.error) { theoryError = r.error; }
  else theoryError = r.ok ? null : r.errors[0];
  renderHighlight();
  showError("theory-error", theoryError);
  $("page-theory").classList.toggle("stale", !!theoryError);    // the answers shown are those of an earlier text
  if (theoryError) { kop.t.underlined = performance.now(); kop.t.checkCpu = r.cpu_ms; $("theory-status").textContent = "error"; return; }
  $("theory-status").textContent = "parsed";
  clearTimeout(answerTimer);
  answerTimer = setTimeout(answerTheory, ANSWER_DELAY);
}

async function answerTheory() {
  const seq = ++answerSeq;
  const text = $("theory-text").value;
  const scenario = $("theory-scenario").value || null;
  $("theory-status").textContent = "answering…";
  const r = await api("/api/theory/answers", { text, scenario, path: theoryPath });
  if (seq !== answerSeq || text !== $("theory-text").value) return;
  if (r.error) {
    showError("theory-error", r.error); $("theory-status").textContent = "error";
    if (r.error.line) { theoryError = r.error; renderHighlight(); kop.t.underlined = performance.now(); }
    return;
  }
  showError("theory-error", null);
  $("page-theory").classList.remove("stale");
  renderAnswers(r);
  kop.t.report = performance.now(); kop.t.reportCpu = r.cpu_ms;
  $("theory-status").textContent = "answered";
}

function renderAnswers(r) {
  const sel = $("theory-scenario"), keep = sel.value;
  sel.innerHTML = "";
  r.scenarios.forEach((s, i) => {
    const o = document.createElement("option"); o.value = s.name === null ? "" : s.name;
    o.textContent = s.name === null ? "(base knowledge)" : s.name; sel.appendChild(o);
  });
  if ([...sel.options].some((o) => o.value === keep)) sel.value = keep;
  putSvg("theory-svg", r.svg);
  if (!r.svg && r.picture_note) $("theory-svg").textContent = r.picture_note;
  const s = r.scenarios[r.chosen || 0];
  if (s) {
    const lv = s.report.levels;
    $("theory-levels").innerHTML = Object.keys(lv).map((p) => `<span>level ${esc(p)}: ${esc(lv[p])}</span>`).join("") +
      `<span>recommended: ${esc(s.report.recommended)} → (${esc(s.report.outcome.join(","))})</span>` +
      `<span>with communication: ${s.report.outcome_with_communication ? "(" + esc(s.report.outcome_with_communication.join(",")) + ")" : "none"}</span>`;
    $("theory-report").textContent = s.text;
  } else { $("theory-levels").innerHTML = ""; $("theory-report").textContent = r.kind === "model" ? `the model after the theory's announcements: ${r.worlds} worlds` : ""; }
  $("theory-answers").innerHTML = r.answers.map((a) =>
    `<li class="${a.ok === false ? "bad" : a.ok === true ? "good" : ""}">[${esc(a.where)}]${a.scenario ? " (" + esc(a.scenario) + ")" : ""} ${esc(a.text)}</li>`).join("");
}

$("theory-text").addEventListener("input", theoryTyped);
$("theory-text").addEventListener("scroll", syncScroll);
$("theory-text").addEventListener("keydown", (e) => {
  if (e.key === "Tab") { e.preventDefault(); document.execCommand("insertText", false, "    "); }
});
$("theory-scenario").addEventListener("change", answerTheory);
$("theory-files").addEventListener("change", async () => {
  const p = $("theory-files").value; if (!p) return;
  const r = await readFile(p);
  if (r.error) { showError("theory-error", r.error); return; }
  theoryPath = p; $("theory-text").value = r.text; $("theory-scenario").innerHTML = ""; theoryTyped();
});

// ---------------------------------------------------------------- model
const model = { text: "", actual: null, updates: [], step: 0, formula: "" };
const SAMPLE_MODEL = JSON.stringify({ format: "kop-model/1", agents: ["ann", "bob"], worlds: { w1: ["h"], w2: [], w3: ["h", "c"] },
  relations: { ann: [["w1", "w2", "w3"]], bob: [["w1"], ["w2", "w3"]] }, actual: ["w1"],
  plausibility: { ann: { w1: 0, w2: 1, w3: 2 } }, probability: { ann: { w1: "1/2", w2: "1/4", w3: "1/4" } } }, null, 1);

async function drawModel() {
  model.text = $("model-text").value;
  model.formula = $("model-formula").value.trim();
  const t0 = performance.now();
  const r = await api("/api/model", { model: model.text, actual: model.actual, updates: model.updates,
                                       step: model.step, formula: model.formula || null });
  if (r.error) { showError("model-error", r.error); return; }
  showError("model-error", null);
  const svg = putSvg("model-svg", r.svg);
  kop.t.modelDrawn = performance.now(); kop.t.modelMs = kop.t.modelDrawn - t0; kop.t.modelCpu = r.cpu_ms;
  if (svg) for (const w of r.worlds) {
    const el = svg.querySelector("#" + w.id);
    if (el) { el.addEventListener("click", () => { model.actual = w.name; drawModel(); }); el.dataset.world = w.name; }
  }
  $("model-step").textContent = `step ${r.step} of ${r.steps.length - 1}`;
  $("model-steps").innerHTML = r.steps.map((s, i) => `<li class="${i === r.step ? "current" : i > r.step ? "future" : ""}">` +
    (s.kind === "start" ? "the model" : `${esc(s.kind)} ${esc(s.formula)}`) + ` — ${s.worlds} worlds</li>`).join("");
  const f = model.formula ? `<p>${esc(model.formula)} holds at ${r.holds.length} of ${r.worlds.length} worlds` +
    (r.holds_at_actual === null ? "" : `; at the actual world: ${r.holds_at_actual ? "yes" : "no"}`) + "</p>" : "";
  $("model-info").innerHTML = f + `<p>actual: ${esc(r.actual.join(", ") || "none")}</p>` +
    Object.entries(r.partitions).map(([a, cells]) => `<div>${esc(a)}: ${cells.map((c) => "{" + esc(c.join(", ")) + "}").join(" ")}</div>`).join("");
  $("model-status").textContent = `${r.worlds.length} worlds drawn in ${Math.round(kop.t.modelMs)} ms`;
}

$("model-files").addEventListener("change", async () => {
  const p = $("model-files").value; if (!p) return;
  const r = await readFile(p);
  if (r.error) { showError("model-error", r.error); return; }
  $("model-text").value = r.text; Object.assign(model, { actual: null, updates: [], step: 0 }); drawModel();
});
$("model-apply").addEventListener("click", () => {
  const f = $("model-update").value.trim(); if (!f) return;
  model.updates = model.updates.slice(0, model.step);
  model.updates.push({ kind: $("model-kind").value, formula: f }); model.step = model.updates.length;
  drawModel().then(() => { if ($("model-error").textContent) { model.updates.pop(); model.step = model.updates.length; } });
});
$("model-back").addEventListener("click", () => { if (model.step > 0) { model.step--; drawModel(); } });
$("model-forward").addEventListener("click", () => { if (model.step < model.updates.length) { model.step++; drawModel(); } });
let formulaTimer = null;
$("model-formula").addEventListener("input", () => { clearTimeout(formulaTimer); formulaTimer = setTimeout(drawModel, 250); });
$("model-text").addEventListener("change", () => { Object.assign(model, { actual: null, updates: [], step: 0 }); drawModel(); });

// ---------------------------------------------------------------- story
const story = { data: null, at: 0 };
async function storyStatus() {
  const r = await api("/api/story/status");
  const off = r.error || !r.available;
  $("story-disabled").hidden = !off;
  $("story-disabled").textContent = off ? (r.error ? r.error.message : r.message) : "";
  document.querySelectorAll("#story-body button, #story-body input, #story-body textarea, #story-body select")
    .forEach((el) => { el.disabled = !!off; });
  $("story-body").classList.toggle("off", !!off);
}
async function readStory() {
  const r = await api("/api/story", { text: $("story-text").value, order: Number($("story-order").value) });
  if (r.error) { showError("story-error", r.error); return; }
  showError("story-error", null); story.data = r; story.at = 0; renderStory();
}
function renderStory() {
  const d = story.data; if (!d) return;
  const n = d.events.length;
  $("story-step").textContent = n ? `event ${story.at + 1} of ${n}` : "no events";
  $("story-events").innerHTML = d.events.map((e, i) => `<li class="${i === story.at ? "current" : i > story.at ? "future" : ""}">${esc(e.text)}</li>`).join("");
  const e = d.events[story.at];
  $("story-beliefs").innerHTML = e ? "<tr><th>agent</th><th>believes (order " + esc(d.order) + ")</th></tr>" +
    d.agents.map((a) => `<tr><td>${esc(a)}</td><td>${(e.beliefs[a] || []).map(esc).join("<br>") || "—"}</td></tr>`).join("") : "";
}
$("story-read").addEventListener("click", readStory);
$("story-back").addEventListener("click", () => { if (story.at > 0) { story.at--; renderStory(); } });
$("story-forward").addEventListener("click", () => { if (story.data && story.at < story.data.events.length - 1) { story.at++; renderStory(); } });
$("story-files").addEventListener("change", async () => {
  const p = $("story-files").value; if (!p) return;
  const r = await readFile(p); if (r.error) { showError("story-error", r.error); return; }
  $("story-text").value = r.text;
});

// ---------------------------------------------------------------- match
const match = { data: null, at: 0 };
async function playMatch() {
  const levels = {};
  for (const part of $("match-levels").value.split(/[,\s]+/).filter(Boolean)) {
    const [p, d] = part.split("=");
    if (!p || d === undefined || !/^\d+$/.test(d)) { showError("match-error", { message: `levels: expected PLAYER=d, not ${part}` }); return; }
    levels[p] = Number(d);
  }
  const r = await api("/api/match", { path: $("match-game").value || null, levels, communication: $("match-comm").checked });
  if (r.error) { showError("match-error", r.error); return; }
  showError("match-error", null); match.data = r; match.at = r.log.length; putSvg("match-svg", r.svg); renderMatch();
}
function headline(e) {
  // a move's text is "who plays what, predicting what: its reasons"; the reasons are listed below it
  if (!e.reasons || !e.reasons.length) return e.text;
  const k = e.text.indexOf(": ");
  return k < 0 ? e.text : e.text.slice(0, k);
}
function renderMatch() {
  const d = match.data; if (!d) return;
  $("match-step").textContent = `move ${match.at} of ${d.log.length}` + (match.at === d.log.length ? ` — outcome (${d.outcome.join(",")})` : "");
  $("match-log").innerHTML = d.log.map((e, i) => `<li class="${i === match.at - 1 ? "current" : i >= match.at ? "future" : ""}">` +
    `${esc(headline(e))}${(e.reasons || []).map((x) => `<div class="reason">${esc(x)}</div>`).join("")}</li>`).join("");
  const svg = $("match-svg").querySelector("svg"); if (!svg) return;
  svg.querySelectorAll(".visited").forEach((el) => el.classList.remove("visited"));
  let k = 0;
  for (let i = 0; i < match.at; i++) if (d.log[i].kind !== "announcement") k++;
  d.path.slice(0, k + 1).forEach((n) => { const el = svg.querySelector("#kop-node-" + n); if (el) el.classList.add("visited"); });
}
$("match-play").addEventListener("click", playMatch);
$("match-back").addEventListener("click", () => { if (match.data && match.at > 0) { match.at--; renderMatch(); } });
$("match-forward").addEventListener("click", () => { if (match.data && match.at < match.data.log.length) { match.at++; renderMatch(); } });

// ---------------------------------------------------------------- experiment
let expTimer = null;
async function expStart() {
  const num = (id) => Number($(id).value);
  const body = $("exp-kind").value === "jamroga"
    ? { experiment: "jamroga", figure: num("exp-figure"), games: num("exp-games") }
    : { experiment: "bodkin", players: num("exp-players"), branching: num("exp-branching"),
        depths: [num("exp-from"), num("exp-to")], trees: num("exp-trees") };
  const r = await api("/api/experiment/start", body);
  if (r.error) { showError("exp-error", r.error); return; }
  showError("exp-error", null); renderExp(r); expPoll();
}
async function expPoll() {
  clearTimeout(expTimer);
  const r = await api("/api/experiment");
  if (r.error) { showError("exp-error", r.error); return; }
  renderExp(r);
  if (r.state === "running") expTimer = setTimeout(expPoll, 300);
}
const ALGOS = [["naive", "#7f7f7f"], ["bnb", "#1f77b4"], ["lower_eval", "#2ca02c"], ["bimodal_unimodal", "#d62728"]];
function renderExp(r) {
  $("exp-progress").max = Math.max(r.total, 1); $("exp-progress").value = r.done;
  const unit = r.experiment === "jamroga" ? "games" : "depths";
  $("exp-status").textContent = `${r.state}: ${r.done} of ${r.total} ${unit}` + (r.seconds ? `, ${r.seconds} s` : "") + (r.error ? ` — ${r.error}` : "");
  $("exp-plot").innerHTML = r.experiment === "jamroga" ? bars(r.rows) : plot(r.points);
}
function bars(rows) {
  const W = 640, row = 34, L = 130, T = 24, H = T + rows.length * row + 30, X0 = L + (W - L - 50) / 2, S = (W - L - 50) / 200;
  let s = `<svg id="exp-svg" xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-size="11">`;
  s += `<line x1="${X0}" y1="${T - 6}" x2="${X0}" y2="${H - 24}" stroke="#333"/>`;
  for (const v of [-100, -50, 0, 50, 100]) s += `<text x="${X0 + v * S}" y="${H - 10}" text-anchor="middle">${v}%</text>`;
  s += `<rect x="${L}" y="4" width="10" height="10" fill="#1f77b4"/><text x="${L + 14}" y="13">kop</text>` +
       `<rect x="${L + 50}" y="4" width="10" height="10" fill="#bbbbbb"/><text x="${L + 64}" y="13">paper</text>`;
  rows.forEach((r, i) => {
    const y = T + i * row;
    s += `<text x="${L - 8}" y="${y + 17}" text-anchor="end">${esc(r.a)} vs ${esc(r.b)}</text>`;
    const bar = (v, dy, c, cls) => `<rect class="${cls}" x="${Math.min(X0, X0 + v * S)}" y="${y + dy}" width="${Math.abs(v * S)}" height="11" fill="${c}"/>`;
    s += bar(r.triumph, 4, "#1f77b4", "series") + bar(r.paper.triumph, 16, "#bbbbbb", "paper");
    s += `<text x="${X0 + r.triumph * S + (r.triumph < 0 ? -4 : 4)}" y="${y + 13}" text-anchor="${r.triumph < 0 ? "end" : "start"}">${r.triumph}</text>`;
  });
  return s + "</svg>";
}
function plot(points) {
  const W = 560, H = 320, L = 48, B = 36, T = 14, R = 150;
  if (!points.length) return `<svg id="exp-svg" width="${W}" height="${H}"></svg>`;
  const xs = points.map((p) => p.depth), ys = points.flatMap((p) => ALGOS.map(([a]) => p[a]));
  const x0 = Math.min(...xs), x1 = Math.max(...xs, x0 + 1), y1 = Math.max(...ys, 1);
  const X = (x) => L + (x - x0) / (x1 - x0) * (W - L - R), Y = (y) => H - B - y / y1 * (H - B - T);
  let s = `<svg id="exp-svg" xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-size="11">`;
  s += `<line x1="${L}" y1="${H - B}" x2="${W - R}" y2="${H - B}" stroke="#333"/><line x1="${L}" y1="${T}" x2="${L}" y2="${H - B}" stroke="#333"/>`;
  for (let d = x0; d <= x1; d++) s += `<text x="${X(d)}" y="${H - B + 14}" text-anchor="middle">${d}</text>`;
  for (let k = 0; k <= 4; k++) { const y = y1 * k / 4; s += `<text x="${L - 6}" y="${Y(y) + 4}" text-anchor="end">${y.toFixed(1)}</text>`; }
  s += `<text x="${(L + W - R) / 2}" y="${H - 4}" text-anchor="middle">depth d</text>`;
  ALGOS.forEach(([a, c], i) => {
    const pts = points.map((p) => `${X(p.depth)},${Y(p[a])}`).join(" ");
    s += `<polyline class="series" data-algorithm="${a}" fill="none" stroke="${c}" stroke-width="2" points="${pts}"/>`;
    s += points.map((p) => `<circle cx="${X(p.depth)}" cy="${Y(p[a])}" r="3" fill="${c}"/>`).join("");
    s += `<line x1="${W - R + 12}" y1="${T + 10 + i * 18}" x2="${W - R + 32}" y2="${T + 10 + i * 18}" stroke="${c}" stroke-width="2"/>` +
         `<text x="${W - R + 36}" y="${T + 14 + i * 18}">${a}</text>`;
  });
  return s + "</svg>";
}
$("exp-start").addEventListener("click", expStart);
$("exp-kind").addEventListener("change", () => {
  const j = $("exp-kind").value === "jamroga";
  $("exp-bodkin").hidden = j; $("exp-jamroga").hidden = !j; $("exp-hint-bodkin").hidden = j; $("exp-hint-jamroga").hidden = !j;
});
$("exp-stop").addEventListener("click", async () => { await api("/api/experiment/stop", {}); expPoll(); });

// ---------------------------------------------------------------- start
loadFiles();
$("model-text").value = SAMPLE_MODEL;
$("theory-text").value = "# a theory: edit it, or open a shipped one above\nplayers A max, B min\ngame root: A {\n  R: B { (4,7) (8,9) }\n  T: B { (9,4) (1,5) }\n}\ncore A = 1\ncore B = 0\nask dominates A\n";
renderHighlight();
checkTheory();
drawModel();
const start = location.hash.slice(1);
if (["theory", "model", "story", "match", "experiment"].includes(start)) showPage(start);
