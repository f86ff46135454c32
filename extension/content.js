// reprise content script: turns what the person does in this page into
// semantic steps (fill, select, click, submit, navigate, upload) and hands
// them to the service worker. Committed values only, never keystrokes; no
// value at all for password and one-time-code fields. The DOM model
// (dom.js, loaded first) says what a control is, its group, its options
// and its state, the same way the replayer reads them.
//
// One step per thing the person set: a field's fill when they leave it, a
// choice's select (a radio group, a list, a combobox, a menu) when they
// leave the widget or its popup closes, a checkbox's or switch's end
// state. Whatever is pending is sent before any other step, so steps keep
// the person's order. Before each destructive step (a submit, a click on a
// button that is not a toggle) every control is checked against the last
// state a step explained: a difference no event explained becomes an
// inferred step. The destructive step carries the form's field inventory,
// and what followed it (the effect) is observed here and by the service
// worker, which holds the step until the effect settles. The effect says
// which fields' values the settled page shows (echoed): the values are
// compared here, in the browser, and only the fields' labels leave it.
(() => {
  if (window.__reprise) return;
  window.__reprise = true;
  const D = RepriseDOM;

  // ---- Frames and gestures --------------------------------------------

  // Each pointerdown and focus asks the service worker for a pre-action
  // frame, named by an id. A field names the frame from when it got focus
  // (its value commits only when the person leaves it); any other step
  // names the newest one.
  const deep = (e) => (e.composedPath && e.composedPath()[0]) || e.target;
  let cursor = [0, 0];
  let latestFrame = "";
  let latestAt = 0;
  const focusFrames = new Map(); // unit key -> frame id from when it got focus
  // The person's last gesture: where and when. A widget's state that
  // changes soon after a gesture inside it is the person's doing.
  let gesture = { el: null, t: -Infinity };
  const GESTURE_MS = 1500;
  // While an effect is observed in this tab, the person's next action ends it.
  let observing = 0; // until when (performance.now())

  function pre(action) {
    latestFrame = crypto.randomUUID();
    latestAt = performance.now();
    chrome.runtime.sendMessage({ type: "pre", id: latestFrame, action: !!action && observing > performance.now() }).catch(() => {});
  }
  function acted() {
    if (observing > performance.now()) {
      observing = 0;
      stopEffect();
      chrome.runtime.sendMessage({ type: "action" }).catch(() => {});
    }
  }
  addEventListener("pointerdown", (e) => {
    if (!e.isTrusted) return;
    cursor = [Math.round(e.clientX), Math.round(e.clientY)];
    gesture = { el: deep(e), t: performance.now() };
    pre(true);
    observing = 0;
    stopEffect();
  }, true);
  addEventListener("focusin", (e) => {
    if (performance.now() - latestAt > 100) pre(false); // a click's focus shares its frame
    const u = D.unitOf(D.controlOf(deep(e)));
    if (u && !pending.has(u.key)) focusFrames.set(u.key, latestFrame);
  }, true);

  // ---- What steps explained ---------------------------------------------

  const explained = new Map(); // unit key -> the state the last step (or the first sight) explained
  const firstSeen = new Map(); // unit key -> the state when first seen, for form_reset
  const knownOpts = new Map(); // choice key -> options seen (a popup may leave the page)
  function see(units) {
    for (const u of units) {
      if (u.kind === "action" || explained.has(u.key)) continue;
      const s = D.stateOf(u, known(u));
      explained.set(u.key, s);
      firstSeen.set(u.key, s);
      if (u.kind === "choice") remember(u);
    }
  }
  const known = (u) => (knownOpts.get(u.key) || []).map((o) => o.label);
  // Lists that showed the keyboard's options only (an open list whose
  // listbox has no size: antd's, which names the active option and its
  // neighbours): their options are not the closed set the person saw.
  const shadowLists = new Set();
  function remember(u) {
    const lb = (u.how === "combo" || u.how === "autocomplete") && D.popupOf(u.el);
    if (lb && u.el.getAttribute("aria-expanded") === "true" && !D.visible(lb)) shadowLists.add(u.key);
    const os = D.optionsOf(u).filter((o) => o.label || o.value);
    if (!os.length) return;
    const have = knownOpts.get(u.key) || [];
    const labels = new Set(have.map((o) => o.label));
    for (const o of os) {
      // An option first seen without its text (the page still building it)
      // is the same option once its text comes: one option, named.
      const unnamed = o.label && o.value ? have.find((h) => !h.label && h.value === o.value) : null;
      if (unnamed) { unnamed.label = o.label; labels.add(o.label); continue; }
      if (!o.label && o.value && have.some((h) => h.value === o.value)) continue;
      if (!labels.has(o.label) && have.length < 1000) { have.push({ label: o.label, value: o.value }); labels.add(o.label); }
    }
    knownOpts.set(u.key, have);
  }

  // ---- Steps ------------------------------------------------------------

  function valueOf(u) {
    const el = u.el;
    if (u.kind === "text" && D.isSecret(el)) return { raw: "", type: "secret", is_parameter: null };
    const s = D.stateOf(u, known(u));
    switch (u.kind) {
      case "choice": case "toggle": return { raw: s, type: "enum", is_parameter: null };
      case "date": return { raw: s, type: "date", is_parameter: null };
      case "range": return { raw: s, type: "number", is_parameter: null };
      case "file": return { raw: Array.from(el.files || []).map((f) => `${f.name} (${f.size} bytes)`).join(", "), type: "file", is_parameter: null };
    }
    const kind = { email: "email", number: "number", date: "date", "datetime-local": "date", month: "date" }[D.typeOf(el)] || "text";
    return { raw: s, type: kind, is_parameter: null };
  }

  // The options a step on a choice offers: the closed set, or none for an
  // autocomplete (its list depends on what is typed).
  function optionsFor(u) {
    if (u.kind !== "choice" || u.how === "autocomplete" || shadowLists.has(u.key)) return undefined;
    remember(u);
    const os = (knownOpts.get(u.key) || []).slice(0, 1000).map((o) => {
      const out = { label: o.label.slice(0, 200) };
      if (o.value !== "" && o.value !== o.label) out.value = String(o.value).slice(0, 200);
      return out;
    }).filter((o) => o.label || o.value);
    return os.length ? os : undefined;
  }

  function enrichment(u) {
    if (!u) return { kind: "dom", selectors: [], ax_path: null, role: "", label: "", url: location.href };
    const label = D.labelOf(u);
    const e = { kind: "dom", selectors: D.selectorsOf(u, label), ax_path: null, role: u.kind === "action" ? D.roleOf(u.el) : u.role, label, url: location.href };
    const os = optionsFor(u);
    if (os) e.options = os;
    if (D.isMulti(u)) e.multiple = true;
    const c = D.containerOf(u, label, e.role);
    if (c) e.container = c;
    return e;
  }

  // The opener of a popup a person clicked, held until we know what it
  // opened: dropped when the next step is the choice it opens.
  let heldOpener = null;

  // emit sends one step; key is the unit it explains (and its state).
  function emit(action, u, value, extra) {
    if (heldOpener) {
      const o = heldOpener;
      heldOpener = null;
      if (!u || o.key !== u.key) post(o.step, o.frame, null);
    }
    const step = {
      seq: 0, ts: Date.now() / 1000, actor: "human", action, screenshot_ref: "",
      cursor, active_app: "Chromium", active_window: document.title,
      enrichment: enrichment(u), value: value || null, narration: null, outcome: "ok",
      redacted: !!(value && value.type === "secret"),
    };
    if (extra && extra.inferred) step.inferred = true;
    if (extra && extra.fields) step.fields = extra.fields;
    if (extra && extra.url) step.enrichment.url = extra.url; // where the action was, if the page moved since
    if (extra && extra.keyed) step.enrichment.keyed = true;
    if (extra && extra.dialog) step.enrichment.dialog = extra.dialog;
    if (extra && extra.half) step.enrichment.half = extra.half;
    if (u && u.kind !== "action") explained.set(u.key, D.stateOf(u, known(u)));
    const frame = action === "navigate" ? "" : (extra && extra.frame) || latestFrame;
    return post(step, frame, extra && extra.obs, extra && extra.id);
  }
  function post(step, frame, obs, id) {
    id = id || crypto.randomUUID();
    chrome.runtime.sendMessage({ type: "step", id, origin: location.origin, step, frame, obs: obs || undefined }).catch(() => {});
    return id;
  }
  // A range's two dates, picked in one calendar and shown by one control:
  // one fill step for each end, its half named, start first.
  const halves = (v) => (v && v.type === "date" && /^[^/]*\/[^/]*$/.test(v.raw) ? v.raw.split("/") : null);
  // fillStep sends the fill of u: one step, or a range's two.
  function fillStep(u, extra) {
    const v = valueOf(u), h = u.how === "picker" ? halves(v) : null;
    if (!h) return emit("fill", u, v, extra);
    emit("fill", u, { raw: h[0], type: "date", is_parameter: null }, Object.assign({}, extra, { half: "start" }));
    emit("fill", u, { raw: h[1], type: "date", is_parameter: null }, Object.assign({}, extra, { half: "end" }));
  }

  // ---- Pending: one step per visit of a control or widget -----------------

  const pending = new Map(); // unit key -> {unit, kind, frame, picked, n}
  // Text fields whose page reacted to the person's keys: it rewrote what
  // was typed (a mask, a formatter) or refused a key (a filter). Replay
  // types these key by key; any other field it may set whole.
  const keyed = new WeakSet();
  let pends = 0;
  function pend(u, kind) {
    let p = pending.get(u.key);
    if (!p) {
      // How to name the control, taken now: a page may replace it (a
      // framework re-rendering the widget) before the step is sent.
      p = { unit: u, kind, frame: focusFrames.get(u.key) || latestFrame, picked: "", n: ++pends, enr: enrichment(u) };
      pending.set(u.key, p);
      pendingChanged();
    }
    p.unit = u;
    if (u.kind === "choice") remember(u);
    p.state = D.stateOf(u, known(u));
    p.value = valueOf(u);
    return p;
  }
  // flush sends key's step, if it makes one; the worker hears that the
  // frame holds nothing more only once the step is on its way.
  function flush(key) {
    flushStep(key);
    pendingChanged();
  }
  function flushStep(key) {
    const p = pending.get(key);
    if (!p) return;
    pending.delete(key);
    // What was pending before it goes first: steps keep the person's order.
    for (const [k, q] of Array.from(pending)) if (q.n < p.n) flush(k);
    const u = p.unit;
    if (!u.el.isConnected && !(u.members || []).some((m) => m.isConnected)) {
      // Replaced since: the step as the control last was.
      if (p.enr && p.value && p.state !== explained.get(u.key)) {
        const action = p.kind === "choice" ? "select" : p.kind === "toggle" ? "click" : "fill";
        const h = u.how === "picker" ? halves(p.value) : null;
        if (h) {
          h.forEach((raw, i) => post(Object.assign(stepFor(action, null), { enrichment: Object.assign({}, p.enr, { half: i ? "end" : "start" }),
            value: { raw, type: "date", is_parameter: null } }), p.frame));
        } else post(Object.assign(stepFor(action, null), { enrichment: p.enr, value: p.value, redacted: p.value.type === "secret" }), p.frame);
      }
      return;
    }
    const before = explained.get(u.key);
    const now = D.stateOf(u, known(u));
    switch (p.kind) {
      case "fill": {
        const k = keyed.has(u.el);
        keyed.delete(u.el);
        if (now !== before) fillStep(u, { frame: p.frame, keyed: k });
        return;
      }
      case "toggle":
        emit("click", u, valueOf(u), { frame: p.frame });
        return;
      case "range":
        if (now !== before) emit("fill", u, valueOf(u), { frame: p.frame });
        return;
      case "activate": {
        // A tab or tree item made current, by click or keys: a click on
        // the one current now.
        const cur = p.unit.members && p.unit.members.find((m) => m.getAttribute("aria-selected") === "true");
        const el = cur || p.clicked;
        if (el && el.isConnected) emit("click", D.unitOf(el) || p.unit, null, { frame: p.frame });
        return;
      }
      case "choice": {
        if (D.isMulti(u)) {
          // A set: what it holds now, whatever was typed to find it.
          if (now !== before) emit("select", u, { raw: now, type: "enum", is_parameter: null }, { frame: p.frame });
          return;
        }
        if (u.how === "autocomplete") {
          // The option picked, or a text that is one of the options seen;
          // else what was typed is a free text, a fill.
          if (now === before && !p.picked) return;
          const chosen = D.chosenOf(u, known(u));
          const picked = chosen && (p.picked && D.same(p.picked, chosen.label) ? p.picked : known(u).find((l) => D.same(l, chosen.label)));
          if (picked) emit("select", u, { raw: picked, type: "enum", is_parameter: null }, { frame: p.frame });
          else if (now !== before) emit("fill", u, { raw: D.textValue(u.el), type: "text", is_parameter: null }, { frame: p.frame });
          return;
        }
        if (now === before && !p.picked) return; // browsed and came back
        emit("select", u, { raw: now || p.picked, type: "enum", is_parameter: null }, { frame: p.frame });
        return;
      }
    }
  }
  function flushAll(except) {
    for (const k of Array.from(pending.keys())) if (k !== except) flush(k);
  }
  // The service worker knows which frames hold a step not sent yet (a
  // field still being typed in): a recording that stops asks them for it.
  let saidPending = false;
  function pendingChanged() {
    if ((pending.size > 0) === saidPending) return;
    saidPending = pending.size > 0;
    chrome.runtime.sendMessage({ type: "pending", pending: saidPending }).catch(() => {});
  }
  chrome.runtime.onMessage.addListener((msg) => { if (msg && msg.type === "flush") flushAll(); });
  // Flush what focus has left, once the page has handled the move (a
  // field may reformat itself on blur).
  // A set whose chip the pointer went down on keeps its step: the focus
  // left the picker's field for the chip's remove control, and the click
  // that removes the tag is still to come. So does a control the person's
  // gesture is in: a click on a box's label moves no focus into the group,
  // and the box after it is the same step.
  function flushLeft() {
    const chip = gesture.el && performance.now() - gesture.t < GESTURE_MS ? D.chipOwner(gesture.el) : null;
    setTimeout(() => {
      const a = D.deepActive(document);
      for (const [k, p] of Array.from(pending)) {
        if (D.unitContains(p.unit, a) || attributed(p.unit) || picking(p.unit) || (chip && p.unit.el === chip)) continue;
        flush(k);
      }
    }, 0);
  }
  // Whether a date is still being picked in the calendar its control
  // opened: the focus may leave it (a day re-rendered under the pointer)
  // while a range waits for its end. Its step goes when it closes.
  const picking = (u) => u.how === "picker" && (u.el.getAttribute("aria-expanded") === "true" || (!!u.popup && D.visible(u.popup)));
  addEventListener("focusout", flushLeft, true);
  addEventListener("pagehide", () => flushAll(), true);
  addEventListener("visibilitychange", () => { if (document.visibilityState === "hidden") flushAll(); }, true);

  // Whether the person's last gesture, a moment ago, was in a calendar.
  const calendarGesture = () => !!gesture.el && performance.now() - gesture.t < GESTURE_MS && D.inCalendar(gesture.el);
  const attributed = (u) => !!gesture.el && performance.now() - gesture.t < GESTURE_MS && D.unitContains(u, gesture.el);
  const focusedIn = (u) => D.unitContains(u, D.deepActive(document));

  // ---- Native controls: input and change events ---------------------------

  // In the capture phase, before the page's own listeners: what the browser
  // put in the field. In the bubble phase, after them (the same dispatch):
  // whether they changed it, or refused the key.
  let put = { ev: null, value: "" };
  const textControl = (e) => {
    const ctl = D.controlOf(deep(e));
    const u = ctl && e.isTrusted && D.unitOf(ctl);
    return u && u.kind === "text" && u.el === ctl ? ctl : null;
  };
  addEventListener("input", (e) => {
    const ctl = textControl(e);
    if (ctl && /^insert/.test(e.inputType || "")) put = { ev: e, value: D.textValue(ctl) };
  }, true);
  addEventListener("input", (e) => {
    const ctl = textControl(e);
    if (ctl && put.ev === e && D.textValue(ctl) !== put.value) keyed.add(ctl);
  });
  for (const t of ["keydown", "beforeinput"]) {
    addEventListener(t, (e) => {
      const printable = t === "beforeinput" || (e.key.length === 1 && !e.ctrlKey && !e.metaKey && !e.altKey);
      const ctl = printable && e.defaultPrevented && textControl(e);
      if (ctl) keyed.add(ctl);
    });
  }

  function onValue(e) {
    const ctl = D.controlOf(deep(e));
    const u = D.unitOf(ctl);
    if (!u) return;
    switch (u.kind) {
      case "file":
        if (e.type !== "change") return;
        flushAll();
        emit("upload", u, valueOf(u));
        return;
      case "text": case "date": pend(u, "fill"); break;
      case "range": pend(u, "range"); break;
      case "toggle": pend(u, "toggle"); break;
      case "choice": {
        const p = pend(u, "choice");
        if (u.how === "autocomplete" && e.type === "input") p.picked = "";
        break;
      }
      default: return;
    }
    if (!focusedIn(u) && !attributed(u)) flushLeft(); // set without a visit (a script, a picker)
  }
  addEventListener("input", onValue, true);
  addEventListener("change", onValue, true);

  // ---- Widgets: state that changes after a gesture inside them ---------

  const STATE_ATTRS = ["aria-checked", "aria-selected", "aria-pressed", "aria-valuenow", "aria-expanded"];
  function onMutations(records) {
    const cache = new Map();
    for (const r of records) {
      if (r.type === "attributes") {
        const el = r.target;
        if (r.attributeName === "aria-expanded") {
          const u = D.unitFor(el, cache);
          if (u && u.kind === "choice") {
            remember(u);
            // A list closed on a choice made: the step, unless the choice
            // holds a set, which the person goes on picking.
            if (el.getAttribute("aria-expanded") === "false" && pending.has(u.key) && !D.isMulti(u)) setTimeout(() => flush(u.key), 0);
          }
          // A calendar closed on the date (or the range) picked in it.
          if (u && u.how === "picker" && el.getAttribute("aria-expanded") === "false" && pending.has(u.key)) setTimeout(() => flush(u.key), 0);
          continue;
        }
        const u = D.unitFor(el, cache);
        if (!u) continue;
        if (u.kind === "choice") remember(u);
        if (u.kind === "action") {
          // A tab or tree item made current by the person's keys or click.
          const list = D.closest(el, LISTS);
          if (r.attributeName === "aria-selected" && el.getAttribute("aria-selected") === "true" && list &&
            attributed({ el: list, members: [] })) activated(el);
          continue;
        }
        // A date picked in a calendar: the gesture was in its popup.
        const picked = u.kind === "date" && calendarGesture();
        if (!attributed(u) && !picked) continue; // no gesture explains it: the safety net will
        if (u.kind === "date") pend(u, "fill");
        else if (u.kind === "choice") pend(u, "choice");
        else if (u.kind === "toggle") pend(u, "toggle");
        else if (u.kind === "range") pend(u, "range");
      } else {
        const el = r.target.nodeType === 1 ? r.target : r.target.parentElement;
        const combo = el && D.closest(el, "[role=combobox]");
        if (combo && !/^(INPUT|TEXTAREA)$/.test(combo.tagName)) {
          const u = D.unitOf(combo, cache);
          if (u && u.kind === "choice" && attributed(u)) pend(u, "choice");
        }
        // A date picked in a calendar, shown by the control that opened
        // it: its fill, sent once the calendar closes (a range's start
        // is shown before its end is picked).
        const ctl = el && D.controlOf(el);
        const pu = ctl && D.roleOf(ctl) === "button" && D.unitOf(ctl, cache);
        if (pu && pu.how === "picker" && calendarGesture()) {
          pend(pu, "fill");
          if (ctl.getAttribute("aria-expanded") !== "true") setTimeout(() => flush(pu.key), 0);
        }
        // While the parser is still adding the page, a control may be half
        // built (a select whose option has no text yet): the first look,
        // at DOMContentLoaded, sees it whole.
        if (document.readyState !== "loading") for (const n of r.addedNodes || []) if (n.nodeType === 1) see(D.unitsIn([n], cache));
      }
    }
  }
  new MutationObserver(onMutations).observe(document, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: STATE_ATTRS });

  // A tab or tree item made current: one click step on the one current
  // when the person moves on (arrowing through tabs is one step).
  const LISTS = "[role=tablist],[role=tree],[role=grid],[role=treegrid]";
  function activated(el, clicked) {
    const list = D.closest(el, LISTS) || el;
    const key = list;
    let p = pending.get(key);
    if (!p) {
      p = { unit: { kind: "group", el: list, key, members: Array.from(list.querySelectorAll("[role=tab],[role=treeitem],[role=gridcell]")) },
        kind: "activate", frame: latestFrame, n: ++pends };
      pending.set(key, p);
    }
    if (clicked) p.clicked = clicked;
  }

  // ---- Clicks and keys ----------------------------------------------------

  const WIDGETS = "[role=listbox],[role=menu],[role=menubar],[role=combobox],[role=grid],[role=tree],[role=treegrid],[role=tablist],[role=toolbar]";
  let lastActivated = { el: null, t: -Infinity };

  // Whether a click on ctl is a destructive step: a button that is not a
  // toggle, does not open or disclose anything, and is in no widget.
  const destructive = (ctl) => D.roleOf(ctl) === "button" && ctl.getAttribute("aria-expanded") === null &&
    ctl.getAttribute("aria-pressed") === null && !D.opener(ctl) && !D.closest(D.up(ctl), WIDGETS);

  // A click (or a key that clicks) on a control that acts; pre is what
  // prepare() saw before the page handled the key, for a key.
  function activate(ctl, pre) {
    lastActivated = { el: ctl, t: performance.now() };
    // A day clicked in a calendar, its month turned, the calendar opened:
    // the date field's own step says what was picked. A field the page
    // set from the calendar fires no input event (antd's DatePicker): it
    // is the step, in its place, if the focus stayed in it.
    if (D.inCalendar(ctl)) {
      const set = () => {
        const a = D.deepActive(document), au = a && D.unitOf(a);
        if (au && (au.kind === "text" || au.kind === "date") && D.stateOf(au, known(au)) !== explained.get(au.key)) pend(au, "fill");
      };
      // Once the page's own handlers ran: as the click leaves the window
      // (a timer could come after the person's next click, which the
      // browser serves first), or later if the page stopped it.
      addEventListener("click", set, { once: true });
      setTimeout(set, 0);
      return;
    }
    const u = D.unitOf(ctl);
    if (!u) return;
    if (u.kind === "choice") {
      // An option picked in a list: the choice's step says which.
      const opt = D.closest(ctl, "[role=option],[role=menuitemradio]");
      if (opt) pend(u, "choice").picked = D.nameOf(opt);
      return;
    }
    if (u.kind !== "action") return; // fields, boxes, switches: their state says it
    const role = D.roleOf(ctl);
    if (role === "tab" || role === "treeitem" || role === "gridcell") { activated(ctl, ctl); return; }
    flushAll();
    // (A dialog's opener is held only as a disclosure, aria-expanded: a
    // Delete that opens its confirm is the destructive step it was.)
    if (D.opener(ctl) || /^(dialog|grid)$/.test(ctl.getAttribute("aria-haspopup") || "") && ctl.getAttribute("aria-expanded") !== null) {
      // A button that opens a list, a menu or a calendar: held until we
      // know whether the person chose in it (then the choice, or the
      // date picked, is the step).
      heldOpener = { key: ctl, step: null, frame: latestFrame };
      heldOpener.step = stepFor("click", u);
      return;
    }
    if (!destructive(ctl)) { emit("click", u, null); return; }
    destructiveClick(ctl, u, pre);
  }
  // A click in the list a combobox opened, on an item the page gave no
  // role (antd's options, a roleless row): the combobox's step says what
  // it took, as a pick of the item's title or text.
  function popupPick(t) {
    for (const h of document.querySelectorAll("[aria-expanded=true]")) {
      const lb = D.popupOf(h);
      if (!lb) continue;
      let c = lb;
      for (let i = 0; i < 3 && c.parentElement && !D.contains(c.parentElement, h) && c.parentElement !== document.body; i++) c = c.parentElement;
      if (!D.contains(c, t)) continue;
      const u = D.unitOf(h);
      if (!u || u.kind !== "choice") return;
      const item = t.closest ? t.closest("[title]") : null;
      pend(u, "choice").picked = D.norm((item && c.contains(item) && item.getAttribute("title")) || D.text(t));
      return;
    }
  }
  function stepFor(action, u) {
    return { seq: 0, ts: Date.now() / 1000, actor: "human", action, screenshot_ref: "", cursor, active_app: "Chromium",
      active_window: document.title, enrichment: enrichment(u), value: null, narration: null, outcome: "ok", redacted: false };
  }

  // When Enter last picked in a combobox: the form's implicit submission
  // that key may cause (a click on the default button, detail 0, then a
  // submit) is the browser's, not the person's, and files nothing they
  // meant to file.
  let comboEnter = -Infinity;
  const byComboEnter = (e) => performance.now() - comboEnter < 300 && (e.type === "submit" || e.detail === 0);
  addEventListener("click", (e) => {
    if (byComboEnter(e)) return;
    const t = deep(e);
    if (e.isTrusted) gesture = { el: t, t: performance.now() };
    // A chip's remove control changes its tag picker's set: the picker's
    // step says what it holds, and the control is no button of its own.
    const owner = D.chipOwner(t);
    if (owner) {
      const u = D.unitOf(owner);
      if (u && u.kind === "choice") pend(u, "choice");
      return;
    }
    const ctl = D.controlOf(t);
    if (ctl) activate(ctl, null);
    else popupPick(t);
  }, true);

  // Keys that click a control the page built from a div: Enter and Space on
  // a role=button, tab, menu item or tree item fire no click of their own.
  const ARIA_CLICKABLE = new Set(["button", "link", "tab", "menuitem", "menuitemradio", "option", "treeitem", "gridcell"]);
  addEventListener("keydown", (e) => {
    if (!e.isTrusted || e.repeat) return;
    const t = deep(e);
    gesture = { el: t, t: performance.now() };
    acted();
    const ctl = D.controlOf(t);
    if (!ctl) return;
    // Enter on a combobox picks its active option.
    if (e.key === "Enter" && D.roleOf(ctl) === "combobox") {
      comboEnter = performance.now();
      const u = D.unitOf(ctl);
      const opt = D.byId(ctl, ctl.getAttribute("aria-activedescendant"));
      if (u && u.kind === "choice" && opt) pend(u, "choice").picked = D.nameOf(opt);
      return;
    }
    if ((e.key === "Enter" || e.key === " ") && ARIA_CLICKABLE.has(D.roleOf(ctl)) && !/^(BUTTON|A|INPUT|SELECT|TEXTAREA)$/.test(ctl.tagName)) {
      const at = performance.now();
      // The page handles the key after this listener: what the form held
      // is read now, in case the key submits it.
      const u = D.unitOf(ctl);
      const pre = u && u.kind === "action" && destructive(ctl) ? prepare(ctl) : null;
      setTimeout(() => { if (lastActivated.el !== ctl || lastActivated.t < at) activate(ctl, pre); }, 50);
    }
  }, true);

  // ---- Destructive steps ----------------------------------------------

  // The safety net: every control whose state differs from the last one a
  // step explained, though no event showed the person change it, becomes
  // a step made from its state, marked inferred, before the destructive
  // step. A hidden control (a native select a widget mirrors) is not one
  // the person set: its new state is only noted.
  function safetyNet() {
    const cache = new Map();
    for (const u of D.unitsIn(D.roots(document, false), cache)) {
      if (u.kind === "action" || u.kind === "file") continue;
      const s = D.stateOf(u, known(u));
      if (!explained.has(u.key)) { explained.set(u.key, s); firstSeen.set(u.key, s); continue; }
      if (explained.get(u.key) === s) continue;
      if (!D.unitVisible(u) || D.mirror(u)) { explained.set(u.key, s); continue; }
      const action = u.kind === "choice" ? "select" : u.kind === "toggle" ? "click" : "fill";
      if (action === "fill") fillStep(u, { inferred: true });
      else emit(action, u, valueOf(u), { inferred: true });
    }
  }

  // The field inventory: every control of the form (or the page) a person
  // could set, named, never with its value.
  const inventory = (form) => D.inventory(form, optionsFor);
  // What the form holds at a destructive step, for its echo: each field's
  // label and value (a text field's text, a choice's chosen label), never
  // a secret's, a card's or a file's, only values of 3 characters or more
  // that the page does not show already (before is its text), of fields
  // whose label no other field of the form has, at most 50. Held in
  // memory only: here, and by the worker while a navigation is on its way
  // to the next page, which compares them too. Never in a step, a
  // message to the daemon or chrome.storage: the effect reports labels.
  function typed(form, before) {
    const out = [], count = new Map();
    const shows = D.shown(before);
    for (const u of D.unitsOfForm(form, document)) {
      if (!D.settable(u)) continue;
      let v;
      if (u.kind === "text") {
        if (D.isSecret(u.el) || /\bcc-/.test(D.attr(u.el, "autocomplete") || "")) continue;
        v = D.textValue(u.el);
      } else if (u.kind === "choice" && !(u.how === "select" && u.el.multiple)) v = D.stateOf(u, known(u));
      else continue;
      const label = cut(D.labelOf(u));
      if (!label) continue;
      count.set(label, (count.get(label) || 0) + 1);
      v = D.norm(v);
      if (v.length < 3 || v.length > 2000 || shows(v)) continue;
      out.push({ label, value: v });
    }
    return out.filter((c) => count.get(c.label) === 1).slice(0, 50);
  }
  // The labels of the values the page's text shows.
  function echoedIn(page, echo) {
    if (!echo || !echo.length) return [];
    const shows = D.shown(page);
    return echo.filter((c) => shows(c.value)).map((c) => c.label);
  }
  function atFirstSight(form) {
    return D.unitsOfForm(form, document).filter((u) => u.kind !== "action").every((u) =>
      firstSeen.has(u.key) ? D.stateOf(u, known(u)) === firstSeen.get(u.key) : D.atDefault(u));
  }

  // Before a destructive step: what is pending, then the inferred steps;
  // the step itself carries the inventory. The effect is watched from
  // here, before the page handles the action, and reported once the step
  // is sent (the worker learns of the step first).
  function prepare(el) {
    flushAll();
    safetyNet();
    const form = el && el.tagName === "FORM" ? el : D.formOf(el);
    const pre = { id: crypto.randomUUID(), form, fields: inventory(form), dirty: !atFirstSight(form), t0: Date.now(),
      before: pageText(), url: location.href };
    pre.echo = typed(form, pre.before);
    startEffect(pre.id, pre, false);
    return pre;
  }
  function sendDestructive(action, u, pre, dialog) {
    // The values go to the worker with the observation, in memory, for
    // the next page to compare if the step navigates; the step has none.
    emit(action, u, null, { fields: pre.fields, obs: { t0: pre.t0, echo: pre.echo }, id: pre.id, url: pre.url, dialog });
    if (effect && effect.id === pre.id) {
      effect.posted = true;
      checkEffect();
    }
  }

  let clickPending = null;
  function destructiveClick(ctl, u, pre) {
    // A click still being decided is decided now: Chromium may run this
    // click (input comes first) before the earlier one's timer, and this
    // click's handlers have not run yet, so whatever was submitted so far
    // was the earlier click's doing.
    settleClick();
    pre = pre || prepare(ctl);
    const mine = clickPending = { el: ctl, u, pre, submitted: null };
    // The click's own submit, if any, fires before this runs: then the
    // click is a plain step and the submit the destructive one.
    setTimeout(() => { if (clickPending === mine) settleClick(); }, 0);
  }
  function settleClick() {
    const c = clickPending;
    clickPending = null;
    if (!c) return;
    const dialog = c.dismissed ? "dismiss" : undefined;
    if (c.submitted) {
      emit("click", c.u, null, { url: c.pre.url, dialog });
      sendDestructive("submit", { kind: "action", el: c.submitted, role: "form", key: c.submitted }, c.pre);
    } else sendDestructive("click", c.u, c.pre, dialog);
  }
  // A confirm or prompt the click opened and the person cancelled:
  // dialogs.js, in the page's own world (a content script cannot see the
  // page's dialogs), tells by an event on the document while the click's
  // handlers run, before the click is settled.
  document.addEventListener("reprise-dialog-dismissed", () => { if (clickPending) clickPending.dismissed = true; }, true);
  addEventListener("submit", (e) => {
    if (byComboEnter(e) && !clickPending) return;
    const form = deep(e);
    if (clickPending) {
      // The click being decided caused it (its own button, or a dialog's
      // Confirm whose handler submits the form): the submit is the
      // destructive step, of this form, watched since the click.
      clickPending.submitted = form;
      clickPending.pre.fields = inventory(form);
      clickPending.pre.echo = typed(form, clickPending.pre.before);
      if (effect && effect.id === clickPending.pre.id) {
        effect.form = form;
        effect.dirty = !atFirstSight(form);
        effect.echo = clickPending.pre.echo;
      }
      return;
    }
    const pre = prepare(form);
    sendDestructive("submit", { kind: "action", el: form, role: "form", key: form }, pre);
  }, true);

  // ---- The effect: what followed a destructive step ---------------------

  const TEXT_HOSTS = "[role=alert],[role=alertdialog],[role=status],[role=log],[aria-live]:not([aria-live=off]),[role=dialog],dialog,h1,h2,h3,h4,h5,h6,[role=banner]";
  // Where new text is a control's state, not a message: fields, lists,
  // buttons and the like.
  const QUIET = "input,select,textarea,option,button,[role=listbox],[role=option],[role=combobox],[role=menu],[role=button],[role=switch]," +
    "[role=checkbox],[role=radio],[role=tab],[role=menuitem],[role=menuitemradio],[role=menuitemcheckbox],[role=slider],[role=spinbutton]," +
    "[contenteditable],script,style,template,noscript";
  const pageText = () => D.norm(document.body ? document.body.innerText : "");
  const enc = new TextEncoder();
  // Cut to about 200 characters, and never past 500 bytes.
  function cut(t) {
    t = t.slice(0, 200);
    while (enc.encode(t).length > 500) t = t.slice(0, -1);
    return t;
  }
  const rank = (el) => (el.matches("[role=alert],[role=alertdialog],[role=status],[role=log],[aria-live]") ? 0
    : el.matches("[role=dialog],dialog") ? 1 : /^H[1-6]$/.test(el.tagName) ? 2 : /banner|toast|notice|success|message|flash/i.test(el.className || "") ? 3 : 4);

  let effect = null;
  let effectMO = null;
  let effectTimer = 0;
  // startEffect watches, until the next action or for 30 s, the texts
  // that appear and whether the form went back to its first state.
  function startEffect(id, pre, posted) {
    stopEffect();
    effect = { id, form: pre.form, dirty: pre.dirty, before: pre.before, texts: [], seen: new Set(), reset: false, url: location.href, sent: "", posted,
      echo: pre.echo || [] };
    observing = performance.now() + 30000;
    effectMO = new MutationObserver(onEffect);
    effectMO.observe(document, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ["hidden", "style", "class", "open", "aria-hidden"] });
    effectTimer = setInterval(() => {
      if (performance.now() > observing) return stopEffect();
      checkEffect();
    }, 150);
    addEventListener("reset", checkSoon, true);
  }
  const checkSoon = () => setTimeout(checkEffect, 0);
  function stopEffect() {
    if (effectMO) effectMO.disconnect();
    if (effectTimer) clearInterval(effectTimer);
    removeEventListener("reset", checkSoon, true);
    effectMO = null;
    effectTimer = 0;
    if (effect) effect = null;
  }
  function onEffect(records) {
    if (!effect) return;
    for (const r of records) {
      const nodes = r.type === "childList" ? Array.from(r.addedNodes) : [r.target];
      for (const n of nodes) {
        const el = n.nodeType === 1 ? n : n.parentElement;
        if (!el || D.closest(el, QUIET)) continue;
        noteText(D.closest(el, TEXT_HOSTS) || el);
      }
    }
    checkEffect();
  }
  function noteText(el) {
    if (!D.visible(el)) return;
    const t = D.text(el, 400);
    if (!t || effect.seen.has(t) || effect.before.includes(t)) return;
    effect.seen.add(t);
    if (effect.texts.length < 64) effect.texts.push({ t: cut(t), r: rank(el) });
  }
  function checkEffect() {
    if (!effect) return;
    if (effect.dirty && effect.form !== undefined) effect.reset = atFirstSight(effect.form);
    if (!effect.posted) return;
    // Only what is still shown: a "Saving…" that gave way to "Customer
    // created" is not what success looks like, and a check that wants both
    // at once never holds.
    const shown = pageText();
    const texts = effect.texts.filter((x) => shown.includes(D.norm(x.t))).sort((a, b) => a.r - b.r).slice(0, 16).map((x) => x.t);
    const msg = { type: "effect", obs: effect.id, texts, form_reset: effect.reset, url: location.href, echoed: echoedIn(shown, effect.echo) };
    const key = JSON.stringify(msg);
    if (key === effect.sent) return;
    effect.sent = key;
    msg.at = Date.now();
    chrome.runtime.sendMessage(msg).catch(() => {});
  }

  // A new page after a destructive step: its headings, alerts and status
  // texts, and later ones, belong to that step's effect.
  function arrived() {
    const found = [];
    for (const el of document.querySelectorAll(TEXT_HOSTS)) {
      const t = D.visible(el) && D.text(el, 400);
      if (t && !found.some((f) => f.t === cut(t))) found.push({ t: cut(t), r: rank(el) });
    }
    const texts = found.sort((a, b) => a.r - b.r).slice(0, 16).map((f) => f.t);
    chrome.runtime.sendMessage({ type: "arrived", url: location.href, texts }).then((reply) => {
      if (!reply || !reply.obs) return;
      // The values the step sent, from the worker: what this page shows
      // of them is the step's echo.
      startEffect(reply.obs, { form: undefined, dirty: false, before: pageText(), echo: reply.echo }, true);
      for (const t of texts) effect.seen.add(t);
    }).catch(() => {});
  }

  // ---- Navigations --------------------------------------------------------

  // The page load, and single-page-app route changes.
  if (window === window.top) {
    let last = location.href;
    const navigated = () => {
      if (location.href === last) return;
      // A route change the click being decided caused comes after its steps.
      if (clickPending) { setTimeout(navigated, 0); return; }
      last = location.href;
      flushAll();
      emit("navigate", null, { raw: location.href, type: "text", is_parameter: null });
      if (effect) checkEffect();
    };
    addEventListener("DOMContentLoaded", () => {
      emit("navigate", null, { raw: location.href, type: "text", is_parameter: null });
      arrived();
    });
    addEventListener("popstate", navigated);
    addEventListener("hashchange", navigated);
    // history.pushState fires no DOM event; the Navigation API reports it,
    // and a poll covers browsers without that API.
    if (window.navigation) navigation.addEventListener("currententrychange", navigated);
    setInterval(navigated, 250);
  }
  // The controls as the page first shows them: what no step has set yet.
  const firstLook = () => see(D.unitsIn(D.roots(document, false)));
  if (document.readyState === "loading") addEventListener("DOMContentLoaded", firstLook);
  else firstLook();
})();
