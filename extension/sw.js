// reprise service worker: relays the content scripts' steps to the daemon
// (a page's own scripts may not reach localhost; the extension's may), adds
// the pre-action frame of the tab, buffers while the daemon is away, and
// shows on the badge when a recording is on.
import { Nats } from "./nats.js";

let client = null;
let recording = false;
const queue = [];           // steps not yet taken by the daemon, oldest first
const frames = new Map();   // tab id -> the newest pre-action frame (base64 PNG)
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
const stale = (item) => item.step.ts < Date.now() / 1000 - KEEP_SECONDS;

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
      const reply = await (await nats()).request("ingest.chrome.step", queue[0]);
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

chrome.runtime.onMessage.addListener((msg, sender) => {
  const tab = sender.tab;
  if (!tab) return;
  if (msg.type === "pre") {
    if (!recording) return;
    chrome.tabs.captureVisibleTab(tab.windowId, { format: "png" })
      .then((url) => frames.set(tab.id, url.slice(url.indexOf(",") + 1)))
      .catch(() => {});
  } else if (msg.type === "step") {
    const frame = frames.get(tab.id);
    frames.delete(tab.id);
    queue.push({ id: msg.id, origin: msg.origin, step: msg.step, frame });
    flush();
  }
});

setInterval(hello, 2000);
hello();
