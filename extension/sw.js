// reprise service worker: relays the content scripts' steps to the daemon
// (a page's own scripts may not reach localhost; the extension's may), adds
// the pre-action frame of the tab, buffers while the daemon is away, and
// shows on the badge when a recording is on.
//
// A destructive step comes with an observation of its effect: the worker
// adds what it alone sees (the requests the step sent and their answers,
// the page a navigation led to) to what the page reports (texts that
// appeared, the form's reset, the labels of the fields whose values the
// page shows), and holds the step, with every step queued after it, until
// the effect settles. The values the step's form sent stay with the
// observation, in memory, only until then: the next page, if the step
// navigates, compares them with what it shows; they go nowhere else.
import { Nats } from "./nats.js";
import { HELLO, STEP, FRAME, INBOX_PREFIX } from "./subjects.js";

let client = null;
let recording = false;
const queue = [];            // steps not yet taken by the daemon, oldest first
const frameOf = new Map();   // capture id -> the frame id a step names ("" for none), once known
const uploaded = new Set();  // frame ids the daemon has
const lastFrame = new Map(); // tab id -> id of the tab's newest frame
let captureTimes = [];
let uploads = Promise.resolve();
let flushing = false;

async function nats() {
  if (client) return client;
  const { reprise } = await chrome.storage.local.get("reprise");
  if (!reprise) throw new Error("not paired: run `reprise extension pair`");
  client = new Nats(reprise.url, reprise.user, reprise.password, INBOX_PREFIX);
  client.connect().catch(() => { client = null; });
  return client;
}

// Steps the daemon did not take because no recording was on are kept this
// long: a restarted daemon resumes its recording within seconds.
const KEEP_SECONDS = 15;
const stale = (item) => item.ts < Date.now() / 1000 - KEEP_SECONDS;

// While steps are held for their effect, the hello says so, often: a
// recording that stops waits for them, and tells us to settle them now.
// Every step not yet taken by the daemon counts, on its way or held for
// its effect, and so do the frames holding a step not made yet (a field
// still being typed in): the hello asks for those when the recording stops.
const pendingIn = new Map(); // "tab:frame" -> {tab, frame}
const held = () => queue.length + pendingIn.size;
function askPending() {
  for (const [k, { tab, frame }] of pendingIn) {
    chrome.tabs.sendMessage(tab, { type: "flush" }, { frameId: frame }).catch(() => { pendingIn.delete(k); });
  }
}
let helloTimer = 0;
function helloSoon() {
  clearTimeout(helloTimer);
  helloTimer = setTimeout(hello, held() ? 250 : 2000);
}

async function hello() {
  let badge;
  try {
    const h = await (await nats()).request(HELLO, { held: held() });
    recording = !!h.recording;
    // FULL: the daemon is not keeping steps (its disk is full).
    badge = recording ? (h.store_failing ? "FULL" : "REC") : "";
    chrome.action.setTitle({ title: h.store_failing ? "reprise: the disk is full, steps are not being kept" : "reprise" });
    if (h.stopping) {
      for (const o of observations.values()) settle(o);
      askPending();
    }
    if (!recording) while (queue.length && !queue[0].obs && stale(queue[0])) queue.shift();
  } catch {
    client = null;
    badge = recording ? "…" : ""; // away: keep what is queued, and the last known state
  }
  chrome.action.setBadgeText({ text: badge });
  chrome.action.setBadgeBackgroundColor({ color: "#c62828" });
  if (queue.length) flush();
  helloSoon();
}

async function flush() {
  if (flushing) return;
  flushing = true;
  try {
    while (queue.length) {
      const item = queue[0];
      if (item.obs) {
        const o = observations.get(item.obs);
        if (o && !o.final) break; // its effect is still settling: it, and all after it, wait
        if (o) item.body.step.effect = o.effect;
        observations.delete(item.obs);
        item.obs = "";
      }
      const reply = await (await nats()).request(STEP, item.body);
      if (!reply.ok && reply.retry) break;  // the daemon is busy: keep it for the next round
      // A daemon just restarted may not have resumed the recording yet.
      if (!reply.ok && !reply.recording && !stale(item)) break;
      queue.shift();                        // taken, refused for good, or too old
    }
  } catch {
    client = null; // away: keep the queue and try again at the next hello
  } finally {
    flushing = false;
  }
}

// ---- Frames ------------------------------------------------------------

// Frames go to the daemon on their own, one at a time, never in a step's
// way: a step names its frame by id, and says when that frame is still on
// its way. An empty frame tells the daemon a capture failed.
function upload(id, frame) {
  uploads = uploads
    .then(async () => {
      const reply = await (await nats()).request(FRAME, { id, frame });
      if (reply.ok && frame) uploaded.add(id);
    })
    .catch(() => {});
}

const bounded = (m) => { while (m.size > 64) m.delete(m.keys().next().value); };

// Chrome allows two captures of the visible tab a second. A capture that
// would be refused is not tried: its steps name the tab's newest frame,
// older but still from before the action.
const CAPTURES_PER_SECOND = 2;

function capture(tab, id) {
  const now = Date.now();
  captureTimes = captureTimes.filter((t) => now - t < 1000);
  const fallback = () => frameOf.set(id, lastFrame.get(tab.id) || "");
  if (captureTimes.length >= CAPTURES_PER_SECOND) return fallback();
  captureTimes.push(now);
  // A few milliseconds' wait lets the step that the same input committed
  // (the fill of the field being left) reach the daemon first: a capture
  // keeps the browser busy for tens of milliseconds.
  new Promise((r) => setTimeout(r, 4))
    .then(() => chrome.tabs.captureVisibleTab(tab.windowId, { format: "png" }))
    .then((url) => {
      frameOf.set(id, id);
      lastFrame.set(tab.id, id);
      upload(id, url.slice(url.indexOf(",") + 1));
    })
    .catch(() => { fallback(); upload(id, ""); });
}

// ---- Effects -------------------------------------------------------------

// How an effect settles: while a request the step sent is unanswered (at
// most 30 s), then until 1.5 s pass with nothing new (1.5 s at least), or
// until the person's next action in the tab.
const QUIET_MS = 1500;
const PENDING_CAP_MS = 30000;

const observations = new Map(); // step id -> observation
const recent = [];               // requests of the last seconds, for steps announced after them
let ticker = 0;

// The values a destructive step's form sent, as the page gave them:
// labels and values, at most 50, for the next page to compare.
function echoOf(echo) {
  if (!Array.isArray(echo)) return [];
  return echo.filter((c) => c && typeof c.label === "string" && c.label && typeof c.value === "string" && c.value)
    .slice(0, 50).map((c) => ({ label: c.label, value: c.value }));
}

function observe(id, tab, t0, url, echo) {
  const o = { id, tab, t0, url0: url, url, texts: [], reset: false, reqs: [], last: t0, final: false, effect: null,
    echo: echoOf(echo), echoed: [] };
  for (const r of recent) if (r.tab === tab && r.t >= t0) o.reqs.push(r);
  observations.set(id, o);
  if (!ticker) ticker = setInterval(tick, 100);
  hello(); // at once: a recording stopping now must know to wait for this step
}
const open = (tab) => Array.from(observations.values()).filter((o) => o.tab === tab && !o.final);

function tick() {
  const now = Date.now();
  for (const o of observations.values()) {
    if (o.final) continue;
    const waiting = o.reqs.some((r) => !r.done) && now - o.t0 < PENDING_CAP_MS;
    if (!waiting && now - Math.max(o.last, o.t0) >= QUIET_MS && now - o.t0 >= QUIET_MS || now - o.t0 >= PENDING_CAP_MS + QUIET_MS) settle(o);
  }
  if (!Array.from(observations.values()).some((o) => !o.final)) { clearInterval(ticker); ticker = 0; }
}

// settle makes o's effect final and lets its step, and those after it, go.
function settle(o) {
  if (o.final) return;
  o.final = true;
  const counted = o.reqs.filter((r) => !r.foreign);
  const last = counted[counted.length - 1];
  const e = {};
  if (o.url && o.url !== o.url0) e.url = o.url;
  if (o.texts.length) e.texts = o.texts.slice(0, 16);
  if (o.reset) e.form_reset = true;
  if (last && last.status) e.status = last.status;
  if (o.echoed.length) e.echoed = o.echoed.slice(0, 50);
  o.echo = []; // the values are done with
  const ms = Math.round(o.last - o.t0);
  if (ms > 0) e.millis = ms;
  o.effect = e;
  flush();
  helloSoon();
}
const touch = (o) => { o.last = Math.max(o.last, Date.now()); };

function addTexts(o, texts) {
  let changed = false;
  for (const t of texts || []) {
    if (typeof t !== "string" || !t || o.texts.includes(t) || o.texts.length >= 16) continue;
    o.texts.push(t);
    changed = true;
  }
  return changed;
}

// The requests a step may send: documents (a form's post, a navigation)
// and XHR or fetch other than GET, in the tab, from the action on.
const FILTER = { urls: ["<all_urls>"], types: ["main_frame", "sub_frame", "xmlhttprequest"] };
const byRequest = new Map();
chrome.webRequest.onBeforeRequest.addListener((d) => {
  if (d.tabId < 0 || d.type === "xmlhttprequest" && d.method === "GET") return;
  // A redirect goes on as the same request (a post's 303 to the page it
  // made): one request, done when its last leg is, not a first leg left
  // unanswered that holds the step's effect open for 30 s.
  const leg = byRequest.get(d.requestId);
  if (leg) {
    leg.url = d.url;
    return;
  }
  const r = { id: d.requestId, tab: d.tabId, t: d.timeStamp, url: d.url, main: d.type === "main_frame", done: false, status: 0, foreign: false };
  byRequest.set(d.requestId, r);
  recent.push(r);
  while (recent.length > 200 || recent.length && recent[0].t < Date.now() - 10000) byRequest.delete(recent.shift().id);
  for (const o of open(d.tabId)) if (r.t >= o.t0) o.reqs.push(r);
}, FILTER);
chrome.webRequest.onBeforeRedirect.addListener((d) => {
  const r = byRequest.get(d.requestId);
  if (!r) return;
  r.status = d.statusCode;
  r.url = d.redirectUrl;
}, FILTER);
chrome.webRequest.onCompleted.addListener((d) => {
  const r = byRequest.get(d.requestId);
  if (!r) return;
  r.done = true;
  r.status = d.statusCode;
  for (const o of open(d.tabId)) {
    if (!o.reqs.includes(r)) continue;
    if (r.main && !r.foreign && o.url !== d.url) { o.urlBefore = o.url; o.url = d.url; }
    touch(o);
  }
}, FILTER);
chrome.webRequest.onErrorOccurred.addListener((d) => {
  const r = byRequest.get(d.requestId);
  if (!r) return;
  r.done = true;
  for (const o of open(d.tabId)) if (o.reqs.includes(r)) touch(o);
}, FILTER);

// A navigation the page did not make (the person typed an address, used a
// bookmark, reloaded) ends the observation before it: what it loads is not
// the step's effect.
const PAGE_MADE = new Set(["link", "form_submit"]);
const lastCommit = new Map(); // tab id -> whether its last main-frame commit was the page's doing
chrome.webNavigation.onCommitted.addListener((d) => {
  if (d.frameId !== 0) return;
  const pageMade = PAGE_MADE.has(d.transitionType) || (d.transitionQualifiers || []).some((q) => q === "client_redirect" || q === "server_redirect");
  lastCommit.set(d.tabId, pageMade);
  if (pageMade) return;
  for (const o of open(d.tabId)) {
    for (const r of o.reqs) if (r.main && r.url === d.url) r.foreign = true;
    if (o.url === d.url) o.url = o.urlBefore || o.url0;
    settle(o);
  }
});

// ---- Messages from the tabs ----------------------------------------------

chrome.runtime.onMessage.addListener((msg, sender, reply) => {
  const tab = sender.tab;
  if (!tab) return;
  switch (msg.type) {
    case "pre":
      if (msg.action) for (const o of open(tab.id)) settle(o);
      if (!recording) return;
      capture(tab, msg.id);
      bounded(frameOf);
      bounded(uploaded);
      return;
    case "action":
      for (const o of open(tab.id)) settle(o);
      return;
    case "pending": {
      const k = tab.id + ":" + sender.frameId;
      if (msg.pending) pendingIn.set(k, { tab: tab.id, frame: sender.frameId });
      else pendingIn.delete(k);
      hello(); // at once: a recording stopping now must know to ask for it
      return;
    }
    case "step": {
      const body = { id: msg.id, origin: msg.origin, step: msg.step };
      // Still capturing: the frame will carry this id. Captured or not tried:
      // the id of the frame the step gets, which may still be on its way.
      const frame = msg.frame ? (frameOf.has(msg.frame) ? frameOf.get(msg.frame) : msg.frame) : "";
      if (frame) {
        body.frame_id = frame;
        if (!uploaded.has(frame)) body.frame_pending = true;
      }
      const item = { body, ts: msg.step.ts, obs: "" };
      if (msg.obs && typeof msg.obs.t0 === "number") {
        item.obs = msg.id;
        observe(msg.id, tab.id, msg.obs.t0, msg.step.enrichment ? msg.step.enrichment.url : "", msg.obs.echo);
      }
      queue.push(item);
      flush();
      return;
    }
    case "effect": {
      const o = observations.get(msg.obs);
      if (!o || o.final || o.tab !== tab.id) return;
      // The page says what is shown now: texts that went away go, texts
      // the next page showed on arrival stay.
      const before = o.texts.join("\n");
      o.texts = (o.arrived || []).slice();
      addTexts(o, msg.texts);
      let changed = o.texts.join("\n") !== before;
      if (!!msg.form_reset !== o.reset) { o.reset = !!msg.form_reset; changed = true; }
      if (msg.url && msg.url !== o.url) { o.urlBefore = o.url; o.url = msg.url; changed = true; }
      // The fields whose values the page shows now: labels of the step's
      // own values only.
      const echoed = Array.isArray(msg.echoed) ? o.echo.map((c) => c.label).filter((l) => msg.echoed.includes(l)) : [];
      if (echoed.join("\n") !== o.echoed.join("\n")) { o.echoed = echoed; changed = true; }
      if (changed) o.last = Math.max(o.last, Math.min(Number(msg.at) || Date.now(), Date.now()));
      return;
    }
    case "arrived": {
      // The next page of a step's effect: its address and its headings,
      // alerts and status texts; it keeps reporting what appears later.
      const os = open(tab.id);
      const o = os[os.length - 1];
      if (!o || sender.frameId !== 0 || lastCommit.get(tab.id) === false) { reply({}); return; }
      o.urlBefore = o.url;
      o.url = msg.url;
      o.texts = [];
      addTexts(o, msg.texts);
      o.arrived = o.texts.slice();
      o.echoed = [];
      touch(o);
      // The values the step sent, for the page to compare: to our own
      // content script in the tab's top frame, never to the page.
      reply({ obs: o.id, echo: o.echo });
      return;
    }
  }
});

hello();

// What the worker holds, for a test or a person looking at the worker in
// chrome://extensions: counts and flags, never a step.
globalThis.repriseState = () => ({ recording, queued: queue.length, held: held(), flushing, connected: !!client,
  observing: Array.from(observations.values()).filter((o) => !o.final).length });
