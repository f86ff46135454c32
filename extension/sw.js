// reprise service worker: relays the content scripts' steps to the daemon
// (a page's own scripts may not reach localhost; the extension's may), adds
// the pre-action frame of the tab, buffers while the daemon is away, and
// shows on the badge when a recording is on.
import { Nats } from "./nats.js";

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
  client = new Nats(reprise.url, reprise.user, reprise.password, "_INBOX_ext");
  client.connect().catch(() => { client = null; });
  return client;
}

// Steps the daemon did not take because no recording was on are kept this
// long: a restarted daemon resumes its recording within seconds.
const KEEP_SECONDS = 15;
const stale = (item) => item.ts < Date.now() / 1000 - KEEP_SECONDS;

async function hello() {
  let badge;
  try {
    const h = await (await nats()).request("ingest.chrome.hello", {});
    recording = !!h.recording;
    badge = recording ? "REC" : "";
    if (!recording) while (queue.length && stale(queue[0])) queue.shift();
  } catch {
    client = null;
    badge = recording ? "…" : ""; // away: keep what is queued, and the last known state
  }
  chrome.action.setBadgeText({ text: badge });
  chrome.action.setBadgeBackgroundColor({ color: "#c62828" });
  if (queue.length) flush();
}

async function flush() {
  if (flushing) return;
  flushing = true;
  try {
    while (queue.length) {
      const reply = await (await nats()).request("ingest.chrome.step", queue[0].body);
      if (!reply.ok && reply.retry) break;  // the daemon is busy: keep it for the next round
      // A daemon just restarted may not have resumed the recording yet.
      if (!reply.ok && !reply.recording && !stale(queue[0])) break;
      queue.shift();                        // taken, refused for good, or too old
    }
  } catch {
    client = null; // away: keep the queue and try again at the next hello
  } finally {
    flushing = false;
  }
}

// Frames go to the daemon on their own, one at a time, never in a step's
// way: a step names its frame by id, and says when that frame is still on
// its way. An empty frame tells the daemon a capture failed.
function upload(id, frame) {
  uploads = uploads
    .then(async () => {
      const reply = await (await nats()).request("ingest.chrome.frame", { id, frame });
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

chrome.runtime.onMessage.addListener((msg, sender) => {
  const tab = sender.tab;
  if (!tab) return;
  if (msg.type === "pre") {
    if (!recording) return;
    capture(tab, msg.id);
    bounded(frameOf);
    bounded(uploaded);
  } else if (msg.type === "step") {
    const body = { id: msg.id, origin: msg.origin, step: msg.step };
    // Still capturing: the frame will carry this id. Captured or not tried:
    // the id of the frame the step gets, which may still be on its way.
    const frame = msg.frame ? (frameOf.has(msg.frame) ? frameOf.get(msg.frame) : msg.frame) : "";
    if (frame) {
      body.frame_id = frame;
      if (!uploaded.has(frame)) body.frame_pending = true;
    }
    queue.push({ body, ts: msg.step.ts });
    flush();
  }
});

setInterval(hello, 2000);
hello();
