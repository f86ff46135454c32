// A small NATS client over WebSocket: just what the extension needs to make
// requests as its own user. The daemon's listener is NATS's own WebSocket
// behind an Origin gate, so this speaks the plain NATS text protocol.
export class Nats {
  constructor(url, user, password, inboxPrefix) {
    this.url = url; this.user = user; this.password = password;
    this.inbox = `${inboxPrefix}.${crypto.randomUUID().replace(/-/g, "")}`;
    this.next = 1; this.waiting = new Map(); this.buf = new Uint8Array(0);
    this.enc = new TextEncoder(); this.dec = new TextDecoder();
    this.ready = null;
  }

  connect() {
    if (this.ready) return this.ready;
    this.ready = new Promise((resolve, reject) => {
      this.connected = false;
      const ws = new WebSocket(this.url);
      ws.binaryType = "arraybuffer";
      this.ws = ws;
      ws.onmessage = (ev) => this.onData(new Uint8Array(ev.data), resolve, reject);
      ws.onerror = () => reject(new Error("daemon unreachable"));
      ws.onclose = () => this.fail(new Error("connection closed"), reject);
    });
    return this.ready;
  }

  fail(err, reject) {
    this.ready = null;
    for (const w of this.waiting.values()) w.reject(err);
    this.waiting.clear();
    reject(err);
  }

  send(bytes) { this.ws.send(bytes); }

  onData(chunk, resolve, reject) {
    const b = new Uint8Array(this.buf.length + chunk.length);
    b.set(this.buf); b.set(chunk, this.buf.length);
    this.buf = b;
    for (;;) {
      const eol = this.indexOfCRLF(0);
      if (eol < 0) return;
      const line = this.dec.decode(this.buf.subarray(0, eol));
      if (line.startsWith("MSG ")) {
        const parts = line.split(" ");
        const size = Number(parts[parts.length - 1]);
        if (this.buf.length < eol + 2 + size + 2) return; // wait for the payload
        const payload = this.buf.slice(eol + 2, eol + 2 + size);
        this.buf = this.buf.slice(eol + 2 + size + 2);
        const w = this.waiting.get(parts[1]);
        if (w) { this.waiting.delete(parts[1]); w.resolve(JSON.parse(this.dec.decode(payload))); }
        continue;
      }
      this.buf = this.buf.slice(eol + 2);
      if (line.startsWith("INFO ")) {
        // The server may send INFO again later (an update): CONNECT once.
        if (this.connected) continue;
        this.connected = true;
        const connect = { user: this.user, pass: this.password, verbose: false, pedantic: false, protocol: 1, name: "reprise-extension" };
        this.send(this.enc.encode(`CONNECT ${JSON.stringify(connect)}\r\nSUB ${this.inbox}.* 1\r\nPING\r\n`));
      } else if (line === "PONG") {
        resolve(this);
      } else if (line === "PING") {
        this.send(this.enc.encode("PONG\r\n"));
      } else if (line.startsWith("-ERR")) {
        this.fail(new Error(line), reject);
        this.ws.close();
      }
    }
  }

  indexOfCRLF(from) {
    for (let i = from; i + 1 < this.buf.length; i++) if (this.buf[i] === 13 && this.buf[i + 1] === 10) return i;
    return -1;
  }

  async request(subject, obj, timeoutMs = 5000) {
    await this.connect();
    const reply = `${this.inbox}.${this.next++}`;
    const payload = this.enc.encode(JSON.stringify(obj));
    const head = this.enc.encode(`PUB ${subject} ${reply} ${payload.length}\r\n`);
    const msg = new Uint8Array(head.length + payload.length + 2);
    msg.set(head); msg.set(payload, head.length); msg.set([13, 10], head.length + payload.length);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => { this.waiting.delete(reply); reject(new Error("timeout")); }, timeoutMs);
      this.waiting.set(reply, { resolve: (v) => { clearTimeout(timer); resolve(v); }, reject: (e) => { clearTimeout(timer); reject(e); } });
      this.send(msg);
    });
  }
}
