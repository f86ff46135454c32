// The page side of the browser executor: one function (D, S, op, args),
// where D is the DOM model the recorder uses too (extension/dom.js) and S
// this document's state between calls (the element found, its unit, the
// forms' first-seen states). It runs in an isolated world of the page, so
// the page's scripts can neither see nor change D or S. Nothing here
// returns a field's value to Go: read-backs and conditions compare in the
// page and answer with a boolean.
(D, S, op, a) => {
  const norm = D.norm;
  const text = D.text;
  const sameName = (got, want) => D.same(got, want) || (norm(want).length >= 120 && D.same(norm(got).slice(0, 120), want));
  const all = (rs) => rs.flatMap((r) => Array.from(r.querySelectorAll("*")));

  const simpleXPath = /^(\/[a-zA-Z][\w-]*\[\d+\])+$/;
  function xpath(rs, v) {
    if (simpleXPath.test(v)) {
      const steps = v.slice(1).split("/").map((s) => { const m = /^(.+)\[(\d+)\]$/.exec(s); return [m[1].toUpperCase(), +m[2]]; });
      return rs.map((root) => {
        let n = root;
        for (const [tag, i] of steps) {
          let k = 0, next = null;
          for (const c of n.children) if (c.tagName.toUpperCase() === tag && ++k === i) { next = c; break; }
          if (!next) return null;
          n = next;
        }
        return n;
      }).filter(Boolean);
    }
    const out = [];
    for (const root of rs) {
      if (root.nodeType !== 9) continue;
      try {
        const snap = root.evaluate(v, root, null, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null);
        for (let i = 0; i < snap.snapshotLength; i++) out.push(snap.snapshotItem(i));
      } catch (_) { return []; }
    }
    return out;
  }
  function css(rs, sel) {
    try { return rs.flatMap((r) => Array.from(r.querySelectorAll(sel))); } catch (_) { return null; }
  }
  function parseRoleText(v) {
    const m = /^([\w-]+)\[name=(['"])([\s\S]*)\2\]$/.exec(v);
    return m ? { role: m[1], name: m[3].replace(/\\(['"\\])/g, "$1") } : null;
  }

  // The elements of the dates in sections named name whose element has
  // no name of its own (a range's halves, named by their sections): found
  // by the name the model gives them, as the recorder did.
  const dateUnits = (rs, role, name) => D.unitsIn(rs).filter((u) => u.kind === "date" && (!role || role === u.role) && sameName(D.labelOf(u), name)).map((u) => u.el);

  function candidates(rs, s) {
    const v = s.value || "";
    switch (s.strategy) {
      case "id": {
        const got = css(rs, v.startsWith("#") ? v : "#" + CSS.escape(v));
        if (got) return got;
        const id = v.replace(/^#/, "");
        return all(rs).filter((el) => el.id === id);
      }
      case "name":
        if (v.startsWith("[")) return css(rs, v) || [];
        return all(rs).filter((el) => el.getAttribute("name") === v);
      case "label":
      {
        const els = all(rs).filter((el) => el.tagName !== "LABEL" && D.namesOf(el).some((l) => sameName(l, v)));
        return els.length ? els : dateUnits(rs, "", v);
      }
      case "role+text": {
        const rt = parseRoleText(v);
        if (!rt) return [];
        const els = all(rs).filter((el) => D.roleOf(el) === rt.role && (D.namesOf(el).some((l) => sameName(l, rt.name)) || sameName(text(el), rt.name)));
        return els.length ? els : dateUnits(rs, rt.role, rt.name);
      }
      case "xpath": return xpath(rs, v);
      case "css": return css(rs, v) || [];
    }
    return [];
  }

  // A choice's handle found by itself (a labelled select or combobox), as
  // opposed to one of its options or radios.
  const isHandle = (el) => el.tagName === "SELECT" || el.tagName === "FIELDSET" ||
    ["combobox", "listbox", "radiogroup", "menu"].includes(D.roleOf(el)) || D.opener(el);

  // In group mode a selector's matches are the choices they belong to, once
  // each: name=plan matching three radios is one radio group. A label or
  // role+text also matches a choice by its group's name.
  function groupHits(rs, s, cache, every) {
    const m = new Map();
    const add = (u) => { if (u && u.kind === "choice" && D.unitVisible(u)) m.set(u.key, u); };
    if (s.strategy === "label" || s.strategy === "role+text") {
      const rt = s.strategy === "role+text" ? parseRoleText(s.value || "") : { role: "", name: s.value || "" };
      if (!rt) return m;
      for (const u of every()) {
        if (rt.role && rt.role !== u.role && rt.role !== D.roleOf(u.el)) continue;
        if (sameName(D.labelOf(u), rt.name) || D.namesOf(u.el).some((l) => sameName(l, rt.name))) add(u);
      }
      for (const el of candidates(rs, s)) if (isHandle(el)) add(D.unitFor(el, cache, true));
    } else for (const el of candidates(rs, s)) if (el.nodeType === 1) add(D.unitFor(el, cache, true));
    return m;
  }

  // A selector that says where an element is rather than what it is: a
  // recorded XPath (always a path of positions), a CSS selector that counts
  // siblings. It finds a candidate; it proves nothing by itself.
  const positional = (s) => !s || s.strategy === "xpath" || (s.strategy === "css" && /:(nth-|first-|last-|only-)/.test(s.value || ""));

  // fits says whether the candidate el (its unit u) is the step's element
  // as recorded in ex: the same role and the same accessible name. Without
  // a recorded name, a destructive step never takes a candidate that only a
  // positional selector found. No ex (a check, a look) asks no proof.
  function fits(u, el, s, ex) {
    if (!ex) return true;
    if (ex.role) {
      const roles = [D.roleOf(el), u && u.role, u && u.el && D.roleOf(u.el)];
      const formOK = ex.role === "form" && el.tagName === "FORM";
      if (!formOK && !roles.includes(ex.role)) return false;
    }
    if (ex.name) {
      const names = D.namesOf(el).concat([text(el, 400), u && u.el ? D.labelOf(u) : "", u && u.el && u.el !== el ? D.nameOf(u.el) : ""]);
      return names.some((n) => n && sameName(n, ex.name));
    }
    return !(ex.destructive && positional(s));
  }
  // What a refused candidate is, for the person: its role and name, cut.
  const whatIs = (el) => ({ role: D.roleOf(el) || D.tag(el), name: norm(D.nameOf(el) || text(el, 60)).slice(0, 60) });

  function find(sels, group, ex) {
    S.target = null;
    S.unit = null;
    if (document.readyState !== "complete") return { ready: false, counts: [], hit: -1 };
    const rs = D.roots(document, true);
    const cache = new Map();
    let units = null;
    const every = () => units || (units = D.unitsIn(rs, cache).map((u) => (u.kind === "action" && D.opener(u.el) ? D.unitFor(u.el, cache, true) : u))
      .filter((u) => u && u.kind === "choice"));
    const counts = [], unproven = [];
    for (const s of sels) {
      if (group) {
        const hits = groupHits(rs, s, cache, every);
        counts.push(hits.size);
        if (hits.size !== 1) continue;
        const u = hits.values().next().value;
        if (fits(u, u.el, s, ex)) return found(u, counts, unproven);
        unproven.push({ at: counts.length - 1, ...whatIs(u.el) });
        continue;
      }
      const seen = new Set(candidates(rs, s).filter((el) => el.nodeType === 1 && D.visible(el)));
      counts.push(seen.size);
      if (seen.size === 1) {
        // The element itself; its unit when it is the unit's own element
        // (a field, a checkbox, a select), for how to act on it.
        const el = seen.values().next().value;
        const u = D.unitOf(el, cache);
        if (!fits(u, el, s, ex)) {
          unproven.push({ at: counts.length - 1, ...whatIs(el) });
          continue;
        }
        return found(u && u.el === el ? u : { kind: u && u.kind === "choice" ? "member" : "", el, key: el }, counts, unproven);
      }
    }
    return { ready: true, counts, hit: -1, unproven };
  }
  function found(u, counts, unproven) {
    S.unit = u;
    S.target = u.el;
    S.option = null;
    baseline(D.formOf(u.el));
    const el = u.el;
    return {
      ready: true, counts, hit: counts.length - 1, unproven: unproven || [],
      tag: el.tagName.toLowerCase(), type: (el.getAttribute("type") || "").toLowerCase(), editable: !!el.isContentEditable,
      kind: u.kind || "", how: u.how || "", popup: el.getAttribute("aria-haspopup") || "",
    };
  }

  // A form's state when the executor first saw it, for form_reset.
  function snapshot(form) {
    const m = new Map();
    for (const u of D.unitsOfForm(form, document)) m.set(u.key, D.stateOf(u));
    return m;
  }
  function baseline(form) {
    const k = form || document;
    if (!S.base.has(k)) S.base.set(k, snapshot(form));
  }
  function formReset(el) {
    const form = D.formOf(el);
    const base = S.base.get(form || document);
    return D.unitsOfForm(form, document).filter((u) => u.kind !== "action").every((u) =>
      base && base.has(u.key) ? D.stateOf(u) === base.get(u.key) : D.atDefault(u));
  }

  const target = () => {
    const el = S.target;
    if (!el || !el.isConnected) throw new Error("stale");
    return el;
  };
  // The native setter, so a framework that wraps the value property (React)
  // sees the change as the browser's own.
  function setValue(el, v) {
    const proto = Object.getPrototypeOf(el);
    const d = Object.getOwnPropertyDescriptor(proto, "value");
    if (d && d.set) d.set.call(el, v); else el.value = v;
    el.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
    el.dispatchEvent(new Event("change", { bubbles: true }));
  }

  // Inputs a value is not set on: clicked, picked or given files.
  const NO_SET = { checkbox: true, radio: true, file: true, button: true, submit: true, reset: true, image: true, hidden: true };

  // The point to click in the top page's coordinates, and whether a click
  // there lands on the element (or its label) rather than on an overlay.
  function point(el) {
    el.scrollIntoView({ block: "center", inline: "center" });
    const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const hit = r.width > 0 && r.height > 0 ? el.getRootNode().elementFromPoint(x, y) : null;
    const lands = !!hit && (hit === el || el.contains(hit) || (hit.closest && hit.closest("label") && hit.closest("label").control === el));
    return { ...inTop(el, x, y), lands };
  }
  // pointOf is where a person clicks el, with a two-state control's state.
  function pointOf(el) {
    const state = S.unit && S.unit.kind === "toggle" ? D.toggled(el) : el.tagName === "INPUT" && el.type === "radio" ? el.checked : null;
    return { ...point(el), state };
  }
  // inTop turns x, y in el's frame into the top page's coordinates.
  function inTop(el, x, y) {
    for (let w = el.ownerDocument.defaultView; w && w.frameElement; w = w.parent) {
      const f = w.frameElement, fr = f.getBoundingClientRect(), cs = getComputedStyle(f);
      x += fr.left + f.clientLeft + parseFloat(cs.paddingLeft);
      y += fr.top + f.clientTop + parseFloat(cs.paddingTop);
    }
    return { x, y };
  }
  // Where a person clicks to pick an option: the option, or for a native
  // radio that is hidden or covered, its label.
  function optionPoint(o) {
    const p = point(o.el);
    if (p.lands || o.el.tagName !== "INPUT") return p;
    for (const l of o.el.labels || []) {
      if (!D.visible(l)) continue;
      const q = point(l);
      const hit = l.getRootNode().elementFromPoint(q.x, q.y);
      if (hit && (hit === l || l.contains(hit))) return { x: q.x, y: q.y, lands: true };
    }
    return p;
  }

  // The option of u that the wanted text names: its label or value,
  // exactly first, then by the matching form.
  function match(opts, want) {
    return opts.find((o) => norm(o.label) === norm(want)) || opts.find((o) => o.value !== "" && o.value === want) ||
      opts.find((o) => D.same(o.label, want)) || opts.find((o) => o.value !== "" && D.same(o.value, want)) || null;
  }
  const chosenCount = (u) => (u.how === "select" ? Array.from(u.el.options).filter((o) => o.selected).length : D.optionsOf(u).filter((o) => o.selected).length);

  // Whether u shows want chosen, and nothing else ("" wants nothing, or a
  // native empty option such as "Choose...").
  //
  // An autocomplete shows what reprise typed into it whether or not a
  // suggestion was taken, so its text proves nothing alone: it holds want
  // only once a click reached a suggestion that names want (picked), and
  // still shows it.
  function holdsChoice(u, want, known) {
    const c = D.chosenOf(u, known);
    if (want === "") return !c || (c.value === "" && (u.how === "select" || u.how === "radio")) || (u.how === "autocomplete" && !D.shownText(u.el));
    if (!c || !(D.same(c.label, want) || (c.value !== "" && D.same(c.value, want)))) return false;
    if (u.how === "autocomplete" && !(S.picked && S.picked.get(u.el) === norm(want))) return false;
    return u.how === "combo" || u.how === "autocomplete" || chosenCount(u) <= 1;
  }

  // choose plans one move of a person picking want in the choice found:
  // {done}, {fail: reason}, {click: point} on an option, {open: point} on
  // the handle, {type: true} into an autocomplete (then phase "typed"), or
  // {wait: true} while a popup fills. Reasons never quote the value.
  function choose(want, known, phase) {
    const u = S.unit;
    if (!u || !u.el.isConnected) throw new Error("stale");
    if (u.el.disabled || u.el.getAttribute("aria-disabled") === "true") return { fail: "the list is disabled" };
    const opts = D.optionsOf(u);
    if (want === "") {
      const empty = (u.how === "select" || u.how === "radio") && opts.find((o) => o.value === "" && !o.disabled);
      if (empty && !empty.selected) return pick(u, empty);
      if (holdsChoice(u, "", known)) return { done: true };
      if (u.how === "autocomplete") return { clear: true };
      return { fail: "the row leaves it empty, but an option is chosen and the list has no empty choice" };
    }
    if (holdsChoice(u, want, known) && phase !== "typed") return { done: true };
    switch (u.how) {
      case "select": case "radio": case "ariaradio": case "listbox": {
        const o = match(opts, want);
        if (!o) return { fail: "no option of the list has that label or value" };
        if (o.disabled) return { fail: "the option is disabled" };
        return pick(u, o);
      }
      case "autocomplete": {
        if (phase !== "typed") {
          if (S.picked) S.picked.delete(u.el);
          return { type: true };
        }
        watchPicks(u, want);
        // Suggestions come late, re-render and filter on each key: an
        // option is clicked only on a list that did not change since the
        // last look, and the step fails only on a settled list without it.
        const lb = D.popupOf(u.el) || (u.popup && u.popup.isConnected ? u.popup : null);
        if (!settledList(lb)) return { wait: true, fail: "the list of suggestions never settled" };
        const shown = opts.filter((o) => D.visible(o.el));
        const o = match(shown, want);
        if (o) return pick(u, o);
        if (activeOption(u, want)) {
          if (!S.picked) S.picked = new WeakMap();
          S.picked.set(u.el, norm(want)); // Enter picks it: the read-back then sees what the list shows
          return { enter: true };
        }
        // Options out of the pointer's reach (antd's) are walked by the
        // keyboard, once the list holds any.
        if (!shown.length && u.el.getAttribute("aria-activedescendant") && lb && lb.querySelector("[role=option]")) {
          return { key: "ArrowDown", fail: "no suggestion of the list has that label" };
        }
        return { wait: true, fail: "no suggestion of the list has that label", empty: !shown.length };
      }
      case "combo": case "menu": {
        const open = u.popup && u.popup.isConnected ? u.popup : D.popupOf(u.el);
        const shown = open && D.visible(open) ? opts.filter((o) => D.visible(o.el)) : [];
        if (!shown.length) {
          // A list whose items the pointer cannot reach by role (antd's)
          // names its active option: the keyboard walks it to want.
          if ((phase === "opened" || phase === "arrowed") && u.el.getAttribute("aria-expanded") === "true" && u.el.getAttribute("aria-activedescendant")) {
            if (activeOption(u, want)) return { enter: true };
            return { key: "ArrowDown", fail: "no option of the list has that label or value" };
          }
          if (phase === "opened" || phase === "arrowed") return { wait: true, fail: "the list did not open" };
          return { open: point(u.el) };
        }
        const o = match(shown, want);
        if (!o) return { fail: "no option of the list has that label or value" };
        if (o.disabled) return { fail: "the option is disabled" };
        return pick(u, o);
      }
    }
    return { fail: "the element is not a list of options" };
  }
  // ---- Sets -----------------------------------------------------------

  const items = (want) => want.split("\n").map(norm).filter(Boolean);
  function sameSet(got, want) {
    return got.length === want.length && want.every((w) => got.some((g) => D.same(g, w))) && got.every((g) => want.some((w) => D.same(g, w)));
  }
  // chooseMany plans one move of a person making the set u holds exactly
  // want's items (one per line): a multiple select has its options set; a
  // list's option or a group's box whose state is wrong is clicked; a tag
  // picker's unwanted chip is removed by its own control, and a missing
  // item is typed into its field (keys), then its suggestion clicked.
  // Reasons never quote an item.
  function chooseMany(want, phase) {
    const u = S.unit;
    if (!u || !u.el.isConnected) throw new Error("stale");
    if (u.kind !== "choice") return { fail: "the element is not a list of options" };
    if (u.el.disabled || u.el.getAttribute("aria-disabled") === "true") return { fail: "the list is disabled" };
    const wanted = items(want), have = D.chosenSet(u);
    const missing = wanted.filter((w) => !have.some((h) => D.same(h, w)));
    const extra = have.filter((h) => !wanted.some((w) => D.same(h, w)));
    if (!missing.length && !extra.length) return { done: true, close: u.el.getAttribute("aria-expanded") === "true" };
    const opts = D.optionsOf(u);
    switch (u.how) {
      case "select": {
        for (const w of wanted) if (!match(opts, w)) return { fail: "no option of the list has that label or value" };
        const el = u.el;
        el.focus();
        for (const o of opts) o.el.selected = wanted.some((w) => o === match(opts, w));
        el.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
        el.dispatchEvent(new Event("change", { bubbles: true }));
        el.blur();
        return { done: true };
      }
      case "listbox": case "checks": case "ariaradio": {
        const o = match(opts, extra[0] || missing[0]);
        if (!o) return { fail: "no option of the list has that label or value" };
        if (o.disabled) return { fail: "the option is disabled" };
        // Something lies over it (a list or a calendar still closing): a
        // person waits for it to go rather than click what covers it.
        const pt = optionPoint(o);
        return pt.lands ? { click: pt } : { wait: true, fail: "another element lies over the option" };
      }
      case "combo": case "autocomplete": {
        if (extra.length) {
          const chip = D.chipsOf(u.el).find((c) => D.same(c.label, extra[0]));
          if (chip) return { click: point(chip.remove) };
        }
        const item = missing[0] || extra[0];
        const lb = D.popupOf(u.el) || (u.popup && u.popup.isConnected ? u.popup : null);
        const shown = lb && D.visible(lb) ? opts.filter((o) => D.visible(o.el)) : [];
        if (phase !== "typed:" + item) {
          if (u.how === "combo") {
            const o = match(shown, item);
            if (o) return { click: optionPoint(o) };
            return phase === "opened" ? { wait: true, fail: "the list did not open" } : { open: point(u.el) };
          }
          return { type: true, keys: item, phase: "typed:" + item };
        }
        if (!settledList(lb)) return { wait: true, fail: "the list of suggestions never settled" };
        const o = match(shown, item);
        if (o) return o.disabled ? { fail: "the option is disabled" } : { click: optionPoint(o) };
        if (activeOption(u, item)) return { enter: true };
        // Options out of the pointer's reach (antd's) are walked by the
        // keyboard, once the list holds any.
        if (!shown.length && u.el.getAttribute("aria-activedescendant") && lb && lb.querySelector("[role=option]")) {
          return { key: "ArrowDown", fail: "no suggestion of the list has that label" };
        }
        return { wait: true, fail: "no suggestion of the list has that label", empty: !shown.length };
      }
    }
    return { fail: "the element is not a list of options" };
  }

  // activeOption is the option the combobox's aria-activedescendant names,
  // when its name is want: the option the keyboard would pick (a list
  // whose visible items carry no role, as antd's, names its active one
  // for assistive technology only).
  function activeOption(u, want) {
    const ad = D.byId(u.el, u.el.getAttribute("aria-activedescendant"));
    return ad && D.roleOf(ad) === "option" && ad.getAttribute("aria-disabled") !== "true" && D.same(D.nameOf(ad), want) ? ad : null;
  }

  // ---- Dates in sections ---------------------------------------------

  // dateSections are the sections of the date found, in the page's order,
  // with where to click each and the digits it takes for the ISO date
  // want: a person reads the field's own order and types each part.
  function dateSections(want) {
    const u = S.unit;
    if (!u || u.kind !== "date" || !u.el.isConnected) throw new Error("stale");
    const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(want);
    if (!m) return { fail: "the value is not a date" };
    const digits = { year: m[1], month: m[2], day: m[3] };
    return { sections: D.dateSections(u).map((x, i) => ({ index: i, keys: digits[x.part], ...point(x.el) })) };
  }

  // ---- Dates picked in a calendar -----------------------------------

  // pickDate plans one move of a person picking the ISO date want in the
  // calendar the control found opens; half, for a range, says which end
  // ("start" or "end"). A move is {open} (click the control), {click} on
  // the calendar's own previous or next button, found by what names it
  // (phase "paged:<months away>"), {click} on the day whose own name or
  // data says it is want, in a month the calendar shows: never a day shown
  // from the month next to it, never a day counted by its place (phase
  // "clicked"), {close} (Escape: the date shows and the calendar is still
  // open), {wait} while the calendar answers, {done}, or {fail}. phase is
  // what the previous move was. Every click waits until its target is
  // still. Reasons never quote the date.
  function pickDate(want, half, phase) {
    const el = target();
    if (!/^\d{4}-\d{2}-\d{2}$/.test(want)) return { fail: "the value is not a date written YYYY-MM-DD" };
    if (el.disabled || el.getAttribute("aria-disabled") === "true") return { fail: "the date's control is disabled" };
    const u = D.unitOf(el) || {};
    const picker = u.how === "picker";
    // Only a calendar this control opened: another on the page is not its.
    const mine = el.hasAttribute("aria-expanded") ? el.getAttribute("aria-expanded") === "true" : S.openedPicker === el;
    const cal = picker && u.popup ? u.popup : mine ? D.calendarOf({ el }) : null;
    const shows = (h) => (picker ? D.dateOf(u, h) : "");
    // What the control shows once the move is made.
    let held;
    if (half === "start") held = shows("start") === want && shows("end") === "";
    else if (half === "end") held = shows("start") !== "" && shows("end") === want;
    else held = shows() === want;
    if (held) {
      // A range's start is picked in a calendar that stays open for its end.
      if (half === "start" || !cal) return { done: true };
      return phase === "closed" ? { wait: true, fail: "the calendar did not close" } : { close: true };
    }
    // A click the day never took (the calendar moved under the pointer) is
    // made again once the calendar had its time; never for a range, whose
    // second click on a day would start it anew.
    if (phase === "clicked" && !(half === "" && cal && performance.now() - S.clickedAt > pageRetry && S.dayClicks < 3)) {
      return { wait: true, fail: "the control does not show the date picked" };
    }
    if (half === "end" && !(shows("start") !== "" && shows("end") === "")) {
      return { fail: "the range's first day is not picked: its start step must come first" };
    }
    if (!cal) {
      if (phase === "opened") return { wait: true, fail: "the control opened no calendar" };
      S.openedPicker = el;
      return { open: point(el) };
    }
    const days = D.calendarDays(cal), months = D.shownMonths(days);
    if (!months.length) return { wait: true, fail: "the calendar's days do not say their dates" };
    const month = want.slice(0, 7);
    const away = (m) => Math.abs((+m.slice(0, 4) * 12 + +m.slice(5, 7)) - (+month.slice(0, 4) * 12 + +month.slice(5, 7)));
    const dist = Math.min(...months.map(away));
    if (dist === 0) {
      const day = days.find((d) => d.iso === want && !d.outside);
      if (!day) return { fail: "the calendar shows the month but not the day" };
      if (day.disabled) return { fail: "the day is disabled in the calendar" };
      if (!still(day.el)) return { wait: true, fail: "the calendar kept moving" };
      S.clickedAt = performance.now();
      S.dayClicks = phase === "clicked" ? S.dayClicks + 1 : 1;
      return { click: point(day.el), phase: "clicked", rest: restPoint(el, cal) };
    }
    const was = /^paged:(\d+)$/.exec(phase || "");
    // A click the button never took (the popup moved under the pointer on
    // a busy machine) turns nothing: after a while the button is clicked
    // again. Should the first click land late after all, the month goes
    // one too far, and the next move turns it back.
    if (was && +was[1] === dist && (performance.now() - S.pagedAt < pageRetry || S.pageRetries >= 3)) {
      return { wait: true, fail: "the calendar did not turn its month" };
    }
    if (was && +was[1] < dist && !S.pageRetries) return { fail: "the calendar's button turned its month away from the date" };
    // The month turned: the calendar may change its height, and its popup
    // move, a frame later; the next point is read once it is still.
    if (was && +was[1] !== dist) {
      S.pickEl = null;
      return { wait: true, phase: "turned", fail: "the calendar kept moving" };
    }
    const dir = month < months[0] ? "previous" : "next";
    const pager = D.pagerOf(cal, dir);
    if (!pager) return { fail: `the calendar has no one button that says ${dir}` };
    if (!still(pager)) return { wait: true, fail: "the calendar kept moving" };
    S.pageRetries = was ? S.pageRetries + 1 : phase === "turned" ? S.pageRetries : 0;
    S.pagedAt = performance.now();
    return { click: point(pager), phase: "paged:" + dist };
  }
  // restPoint is where the pointer rests once a day is clicked: on the
  // control, off the calendar. A calendar may preview the day under the
  // pointer in its control (antd's does) before any click takes it, so
  // what the control shows proves a pick only once the pointer left the
  // calendar. Null when the control lies under the calendar or out of view.
  function restPoint(el, cal) {
    const r = el.getBoundingClientRect(), c = cal.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    if (r.width === 0 || x < 0 || y < 0 || x > innerWidth || y > innerHeight) return null;
    if (x >= c.left && x <= c.right && y >= c.top && y <= c.bottom) return null;
    return inTop(el, x, y);
  }
  // pageRetry is how long, in ms, a calendar has to turn its month after
  // its button is clicked before the button is clicked again, three times
  // at most for one date.
  const pageRetry = 1500;
  // still says whether el, in view, is where it was at the previous look:
  // a popup places itself, and moves, after it shows and after a scroll,
  // so a point read while it moves is not where it will be when clicked.
  function still(el) {
    const r = el.getBoundingClientRect();
    if (r.top < 0 || r.bottom > innerHeight || r.left < 0 || r.right > innerWidth) el.scrollIntoView({ block: "nearest", inline: "nearest" });
    const at = [r.left, r.top, r.width, r.height].map(Math.round).join(","), now = performance.now();
    if (S.pickEl !== el || S.pickAt !== at) {
      S.pickEl = el;
      S.pickAt = at;
      S.pickSince = now;
    }
    // Unmoved over a few frames, not only between two quick looks.
    return now - S.pickSince >= 100;
  }

  // settledList says whether the list lb is as it was at the previous
  // look: a list seen for the first time, or that changed since (options
  // added, removed, re-rendered, relabelled), is not settled yet. No list
  // at all is settled: there is nothing to wait on.
  function settledList(lb) {
    if (!lb) {
      if (S.listMO) S.listMO.disconnect();
      S.watchedList = null;
      return true;
    }
    if (S.watchedList !== lb) {
      if (S.listMO) S.listMO.disconnect();
      S.watchedList = lb;
      S.listMO = new MutationObserver(() => {});
      S.listMO.observe(lb, { subtree: true, childList: true, characterData: true, attributes: true });
      return false;
    }
    return S.listMO.takeRecords().length === 0 && lb.isConnected && !busy(lb);
  }
  // A list that says its options are on their way (aria-busy on it or in
  // it, a spinner a remote search shows): not settled, whatever it shows.
  const busy = (lb) => [lb, lb.parentElement].some((n) => n && (n.getAttribute("aria-busy") === "true" ||
    !!n.querySelector("[aria-busy=true],[role=progressbar]")));
  // watchPicks notes, for the autocomplete u, a click that reaches one of
  // its suggestions naming want: the page's own click event, seen from
  // this world, on whatever element is under the pointer when it lands (a
  // list that re-rendered under it may have put another there, or none).
  function watchPicks(u, want) {
    if (!S.picked) { S.picked = new WeakMap(); S.pickDocs = new WeakSet(); }
    S.pickFor = { el: u.el, want };
    const doc = u.el.ownerDocument;
    if (S.pickDocs.has(doc)) return;
    S.pickDocs.add(doc);
    doc.addEventListener("click", (e) => {
      const f = S.pickFor, t = e.composedPath()[0];
      const o = t && t.closest ? t.closest("[role=option]") : null;
      if (!f || !o) return;
      const val = o.getAttribute("value") ?? (o.dataset ? o.dataset.value : undefined) ?? "";
      if (D.same(D.nameOf(o), f.want) || (val !== "" && D.same(val, f.want))) S.picked.set(f.el, norm(f.want));
    }, true);
  }
  function pick(u, o) {
    S.option = o.el;
    if (u.how === "select") {
      const el = u.el;
      el.focus();
      if (!o.el.selected) {
        o.el.selected = true;
        el.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
        el.dispatchEvent(new Event("change", { bubbles: true }));
      }
      el.blur();
      return { done: true };
    }
    return { click: optionPoint(o) };
  }

  // A field read back: the value typed, or for a field that reformats
  // what is typed (a phone shown as "(555) 123-4567"), the same letters
  // and digits in the same order, with the same decimal mark: "1.5" shown
  // as "15" is another number. A mark between digits is decimal when it
  // is the last and its kind appears once ("1,234.50"); dots or commas
  // that repeat ("973.565.9208", "05.03.1990") only group digits.
  function sameText(got, want) {
    if (got === want) return true;
    const core = (s) => s.replace(/[^\p{L}\p{N}]/gu, "");
    return core(want) !== "" && core(got) === core(want) && decimal(got) === decimal(want);
  }
  function decimal(s) {
    const marks = Array.from(s.matchAll(/\p{N}([.,])(?=\p{N})/gu));
    if (!marks.length) return "";
    const last = marks[marks.length - 1];
    if (marks.filter((m) => m[1] === last[1]).length > 1) return "";
    const after = /^\p{N}*/u.exec(s.slice(last.index + 2))[0];
    return last[1] + after.length;
  }
  function readBack(kind, want, known, half) {
    const u = S.unit, el = S.target;
    if (kind === "value" && el && el.isConnected) {
      // A date picked in a calendar: the date its control shows now, read
      // as a date (an empty picker was a plain button when found).
      const pu = D.roleOf(el) === "button" ? D.unitOf(el) : null;
      if (pu && pu.how === "picker") return D.dateOf(pu, half || undefined) === want.slice(0, 10);
      if (half) return false;
    }
    if (u && u.kind === "date" && kind === "value") return D.dateOf(u) === want.slice(0, 10);
    switch (kind) {
      case "set": return !!u && u.kind === "choice" && sameSet(D.chosenSet(u), items(want));
      // A list a step filled (an imported change on a select) holds the
      // option whose label or value is the one wanted.
      case "value": return u && u.kind === "choice" && u.el === el && el.tagName === "SELECT" ? holdsChoice(u, want, known) : sameText(D.textValue(el), want);
      case "selected": return u && u.kind === "choice" ? holdsChoice(u, want, known) : false;
      case "checked": return String(D.toggled(el) === true) === want;
    }
    throw new Error("unknown read-back kind");
  }

  // ---- The row read back again before its destructive step ---------------

  // keep remembers a field the row filled and read back (it.kind and
  // it.expect as readBack takes them) or gave files to (it.files: names
  // and sizes), with how to find it again: S.filled lives in this
  // document's isolated world, out of the page's reach, and dies with it.
  function keep(el, u, it) {
    if (!S.filled) S.filled = new Map();
    S.filled.set(it.index, { ...it, el, unit: u });
  }
  function sameFiles(el, want) {
    const got = Array.from(el.files || []).map((f) => f.name + "\u0000" + f.size).sort();
    const exp = want.map((f) => f.name + "\u0000" + f.size).sort();
    return got.length === exp.length && got.every((g, i) => g === exp[i]);
  }
  // recheck reads back, in one call, every field row filled on this page,
  // in step order: held, changed (the value, the choice, the state or the
  // files are not what was filled) or gone (the element left the page and
  // its selectors find no other). An element a framework replaced is found
  // again by the step's own selectors and proof. Nothing returns a value.
  function recheck(row) {
    const out = [];
    const items = Array.from((S.filled || new Map()).values()).filter((it) => it.row === row).sort((a, b) => a.index - b.index);
    for (const it of items) {
      let el = it.el, u = it.unit;
      if (!el || !el.isConnected) {
        const f = it.sels && it.sels.length ? find(it.sels, it.group, it.proof) : { hit: -1 };
        el = f.hit >= 0 ? S.target : null;
        u = f.hit >= 0 ? S.unit : null;
      }
      let res = "held";
      if (!el) res = "gone";
      else if (it.files) res = sameFiles(el, it.files) ? "held" : "changed";
      else {
        S.target = el; S.unit = u;
        res = readBack(it.kind, it.expect, it.known || [], it.half) ? "held" : "changed";
      }
      out.push({ index: it.index, what: it.what, res });
    }
    S.target = null; S.unit = null;
    return out;
  }

  function deepText() {
    let t = "";
    for (const r of D.roots(document, true)) {
      if (r.nodeType === 9) t += " " + (r.body ? r.body.innerText : "");
      else for (const c of r.children) t += " " + (c.innerText || "");
    }
    return norm(t);
  }
  function cond(kind, v, before, sels) {
    switch (kind) {
      case "url_changed": return location.href !== before;
      case "url_unchanged": return location.href === before;
      case "url_contains": return location.href.includes(v);
      case "text": return document.readyState !== "loading" && deepText().includes(norm(v));
      case "element": return (css(D.roots(document, true), v) || []).length > 0;
      case "form_reset": {
        let el = S.target;
        if ((!el || !el.isConnected) && sels) { find(sels, false); el = S.target; }
        return !!el && el.isConnected && formReset(el);
      }
    }
    throw new Error("unknown condition kind");
  }

  // What the page says about a refused submit: an alert, a live region, an
  // element styled as an error, or the browser's own validation message.
  function message() {
    const rs = D.roots(document, true);
    const els = css(rs, '[role=alert], [aria-live]:not([aria-live=off]), [class*=error i], [class*=invalid i], [class*=alert i]') || [];
    for (const el of els) if (D.visible(el) && text(el)) return text(el, 200);
    for (const f of css(rs, "form") || []) {
      const bad = f.querySelector(":invalid:not(form):not(fieldset)");
      if (bad && bad.validationMessage) return norm(bad.validationMessage).slice(0, 200);
    }
    return "";
  }

  // describe finds the element sels name and says what the recorder would
  // have recorded about it (extension/content.js's enrichment): its unit's
  // role, label, kind, its own selectors, a choice's closed set of options,
  // for a box whether it is checked now, and (with fields) its form's
  // fields as the recorder lists them. A radio or an option found by
  // itself is described as its choice, member naming its option. No field's
  // value comes back: options and a box's state are the page's, not typed.
  function describe(sels, fields) {
    const f = find(sels, false, null);
    if (!f.ready || f.hit < 0) return { ready: f.ready, hit: false };
    let el = S.target, u = S.unit, member = "";
    // A click on a label is a click on its control, as the browser takes
    // it: what a tool that records clicks by their text wrote.
    if (!u.kind && el.tagName === "LABEL" && el.control) {
      el = el.control;
      const cu = D.unitOf(el, new Map());
      u = cu && cu.el === el ? cu : { kind: cu && cu.kind === "choice" ? "member" : "", el, key: el };
    }
    if (u.kind === "member") {
      u = D.unitOf(el, new Map());
      const o = u && D.optionsOf(u).find((o) => o.el === el || D.contains(o.el, el));
      if (!o) return { ready: true, hit: false };
      member = o.label;
    }
    if (!u.kind) u = { kind: "", el, role: D.roleOf(el), key: el };
    const label = u.kind ? D.labelOf(u) : norm(D.nameOf(el));
    const role = u.kind === "action" || !u.kind ? D.roleOf(u.el) : u.role;
    const out = { ready: true, hit: true, kind: u.kind, how: u.how || "", role, label, member, multiple: D.isMulti(u),
      selectors: u.kind ? D.selectorsOf(u, label) : [], options: [], state: "" };
    if (u.kind === "choice") out.options = closedOptions(u) || [];
    if (u.kind === "toggle") out.state = D.toggled(u.el) === true ? "true" : "false";
    const c = u.kind ? D.containerOf(u, label, role) : null;
    if (c) out.container = c;
    // The element's form, listed as the recorder lists it at a
    // destructive step: the fields a column may fill though no step set
    // them.
    if (fields) {
      const form = D.formOf(el);
      if (form) out.fields = D.inventory(form, closedOptions);
    }
    return out;
  }

  // closedOptions is a choice's closed set of options as the page shows
  // them (none for an autocomplete), undefined when it has none.
  function closedOptions(u) {
    if (u.kind !== "choice" || u.how === "autocomplete") return undefined;
    const out = [], seen = new Set();
    for (const o of D.optionsOf(u)) {
      if ((!o.label && !o.value) || seen.has(o.label) || out.length >= 1000) continue;
      seen.add(o.label);
      const x = { label: o.label.slice(0, 200) };
      if (o.value !== "" && o.value !== o.label) x.value = String(o.value).slice(0, 200);
      out.push(x);
    }
    return out.length ? out : undefined;
  }

  // ---- The selector model's view of the page ------------------------------

  // Roles the DOM gives by tag that the selector model names; other tags
  // are listed only as controls, with a role attribute, or as text.
  const TAG_ROLES = { ul: "list", ol: "list", li: "listitem", table: "table", tr: "row", td: "cell", th: "columnheader",
    label: "label", legend: "label", p: "paragraph", dialog: "dialog", form: "form", fieldset: "group" };
  const ownText = (el) => norm(Array.from(el.childNodes).filter((c) => c.nodeType === 3).map((c) => c.data).join(" "));
  function listRole(el) {
    const r = D.roleOf(el);
    if (D.isControl(el) || el.hasAttribute("role") || r === "heading" || r === "group" || r === "radiogroup") return r;
    return TAG_ROLES[D.tag(el)] || (ownText(el) ? "statictext" : "");
  }
  const submits = (el) => !!el.form && ((el.tagName === "BUTTON" && el.type === "submit") || (el.tagName === "INPUT" && (el.type === "submit" || el.type === "image")));
  function valueOf(el, role) {
    if (D.isSecret(el)) return "";
    if (role === "textbox" || role === "searchbox" || role === "spinbutton") return D.textValue(el);
    if (D.tag(el) === "select") return Array.from(el.selectedOptions).map((o) => norm(o.label)).join(", ");
    return "";
  }

  // An element's role and name depend on the DOM alone, so a listing keeps
  // them until anything changes under a root it walked (each root observed
  // from its first walk, a resize counted as a change too): a step after a
  // step that changed nothing reads them once. Bounds, visibility and
  // values are read fresh every time.
  function known(el) {
    if (!S.known) {
      S.known = new WeakMap();
      S.gen = 0;
      S.observers = [];
      S.observed = new WeakSet();
      addEventListener("resize", () => S.gen++);
    }
    let k = S.known.get(el);
    if (!k || k.gen !== S.gen) S.known.set(el, (k = { gen: S.gen, role: listRole(el), name: null }));
    return k;
  }
  function observe(root) {
    if (!S.known || S.observed.has(root)) return;
    S.observed.add(root);
    const mo = new MutationObserver(() => S.gen++);
    mo.observe(root, { subtree: true, childList: true, attributes: true, characterData: true });
    S.observers.push(mo);
  }
  // changed takes the changes not yet delivered, so a listing never reads
  // a name kept from before a change made in the same task.
  function changed() {
    for (const mo of S.observers || []) if (mo.takeRecords().length) S.gen++;
  }

  // elements lists the visible elements a selector can name, in tree order
  // (a parent before its children), across open shadow roots and visible
  // same-origin frames, with bounds in the top page's document pixels.
  // S.listed keeps them for pick. o.paths adds XPaths, o.values fields'
  // values (never a secret's), for `reprise elements` and checks. o.named,
  // when given, keeps only the elements of those roles (and any whose id is
  // o.ids): a resolution can match, look through or be near no other, and
  // reading the rest is most of a listing's time. Go never logs values.
  function elements(limit, o) {
    const paths = !!o.paths, named = o.named ? new Set(o.named) : null, ids = new Set(o.ids || []);
    S.listed = [];
    if (document.readyState === "loading") return { ready: false, title: document.title, els: [] };
    const out = [], at = new Map();
    let more = false;
    // The XPath of each element is its parent's plus its tag's count among
    // the siblings so far: one walk, no climbing back up per element.
    changed();
    const walk = (root, parent, dx, dy, path) => {
      observe(root);
      const seen = new Map();
      for (const el of root.children) {
        const t = el.tagName.toLowerCase(), n = (seen.get(t) || 0) + 1;
        seen.set(t, n);
        visit(el, parent, dx, dy, paths ? `${path}/${t}[${n}]` : "");
      }
    };
    function visit(el, parent, dx, dy, path) {
      if (out.length >= limit) { more = true; return; }
      const k = known(el);
      let role = k.role;
      if (role && named && !named.has(role) && !(el.id && ids.has(el.id))) role = "";
      let me = parent;
      // D.visible's test, with the one bounding box kept for the listing.
      const r = role && (!el.checkVisibility || el.checkVisibility({ visibilityProperty: true })) ? el.getBoundingClientRect() : null;
      if (r && r.width > 0 && r.height > 0) {
        const isText = role === "statictext" || role === "label";
        me = out.length;
        at.set(el, me);
        S.listed.push(el);
        out.push({
          role, parent, label: -1, id: el.id || "", path,
          name: k.name !== null ? k.name : (k.name = isText ? norm(el.textContent).slice(0, 200) : D.nameOf(el)),
          value: o.values ? valueOf(el, role) : "",
          // What a healed element is checked against besides its role and
          // name: a password field, a control that submits its form.
          secure: D.isSecret(el), submit: submits(el),
          x: r.left + dx, y: r.top + dy, w: r.width, h: r.height,
        });
      }
      if (el.shadowRoot) walk(el.shadowRoot, me, dx, dy, path);
      if ((el.tagName === "IFRAME" || el.tagName === "FRAME") && D.visible(el)) {
        let d = null;
        try { d = el.contentDocument; } catch (_) { /* cross-origin */ }
        if (d && d.documentElement) {
          const fr = el.getBoundingClientRect(), cs = getComputedStyle(el);
          walk(d, me, dx + fr.left + el.clientLeft + parseFloat(cs.paddingLeft), dy + fr.top + el.clientTop + parseFloat(cs.paddingTop), path);
        }
      }
      walk(el, me, dx, dy, path);
    }
    walk(document, -1, window.scrollX, window.scrollY, "");
    // The label each element is linked to: aria-labelledby, then for= and
    // wrapping labels, when that label is listed.
    S.listed.forEach((el, i) => {
      const by = D.attr(el, "aria-labelledby");
      const cands = by ? [D.byId(el, norm(by).split(" ")[0])] : Array.from(el.labels || []);
      for (const l of cands) if (l && at.has(l) && l !== el) { out[i].label = at.get(l); break; }
    });
    return { ready: document.readyState === "complete", title: document.title, els: out, more };
  }

  // pickListed makes the listed element i the target of the next ops, as find
  // does; in group mode, its choice (a select, a radio group, a listbox).
  // ex, when given, is the proof a target that names no role and name
  // needs (see fits).
  function pickListed(i, group, ex) {
    S.target = null;
    S.unit = null;
    const el = (S.listed || [])[i];
    if (!el || !el.isConnected || !D.visible(el)) return { ready: false, counts: [], hit: -1 };
    const cache = new Map();
    if (group) {
      const u = D.unitFor(el, cache, true);
      if (!u || u.kind !== "choice") return { ready: true, counts: [0], hit: -1 };
      return fits(u, u.el, null, ex) ? found(u, [1]) : { ready: true, counts: [1], hit: -1, unproven: [{ at: 0, ...whatIs(u.el) }] };
    }
    const u = D.unitOf(el, cache);
    if (!fits(u, el, null, ex)) return { ready: true, counts: [1], hit: -1, unproven: [{ at: 0, ...whatIs(el) }] };
    return found(u && u.el === el ? u : { kind: u && u.kind === "choice" ? "member" : "", el, key: el }, [1]);
  }

  // batch runs a run of fill and select steps in one call: each found (by
  // the listed element Go matched its target to, else by its selectors),
  // given its value as setValue and a native select do (input and change
  // events, in order), and read back. It stops at the first step it cannot
  // finish alone (not found yet, a list that opens, a control to click, a
  // field whose value did not hold once set, which Go then types key by
  // key) and after a step that changed the page's structure, since what
  // Go matched the next targets on may no longer be the page. Results
  // carry no value.
  function batch(items) {
    const out = [];
    const roots = D.roots(document, true);
    const mo = new MutationObserver(() => {});
    for (const r of roots) mo.observe(r, { subtree: true, childList: true, characterData: true, attributes: true,
      attributeFilter: ["id", "role", "hidden", "style", "name", "for", "disabled", "aria-label", "aria-labelledby", "aria-hidden", "aria-expanded"] });
    try {
      for (const it of items) {
        let f = it.pick >= 0 ? pickListed(it.pick, it.group, it.pickProof) : null;
        const via = f && f.hit >= 0 ? "target" : "dom";
        if (!f || f.hit < 0) f = it.selectors.length ? find(it.selectors, it.group, it.proof) : { ready: true, counts: [], hit: -1 };
        const r = { ready: f.ready, counts: f.counts, hit: f.hit, via, res: "again" };
        out.push(r);
        if (!f.ready || f.hit < 0) break;
        const u = S.unit, el = S.target;
        if (f.kind === "choice" && (it.action === "select" || f.how !== "autocomplete")) {
          if (!choose(it.value, it.known, "").done) break;
        } else if (it.action === "fill" && !it.keys && (f.tag === "textarea" || (f.tag === "input" && !NO_SET[f.type])) && !el.isContentEditable) {
          el.focus(); setValue(el, it.value); el.blur();
        } else break;
        r.res = !it.kind ? "done" : !el.isConnected ? "stale" : readBack(it.kind, it.expect, it.known) ? "held" : "failed";
        if (r.res === "held" && it.keep) keep(el, u, { ...it.keep, kind: it.kind, expect: it.expect, known: it.known, sels: it.selectors, group: it.group, proof: it.proof });
        if (r.res !== "held" && r.res !== "done" || mo.takeRecords().length || u !== S.unit) break;
      }
    } finally { mo.disconnect(); }
    return out;
  }

  // The forms' states when the executor first looks at the page, for
  // form_reset: at its first op, not when its world was made (the page's
  // forms may not exist yet).
  if (!S.looked) {
    S.looked = true;
    baseline(null);
    for (const f of document.forms) baseline(f);
  }
  switch (op) {
    case "batch": return batch(a.items);
    case "find": {
      // A click's point comes with its element: one call fewer per click.
      const f = find(a.selectors, !!a.group, a.proof);
      if (a.point && f.ready && f.hit >= 0) f.point = pointOf(target());
      return f;
    }
    case "describe": return describe(a.selectors, a.fields);
    // A string: Chrome hands a large object back by value far slower than
    // a JSON text of it.
    case "elements": return JSON.stringify(elements(a.limit || 400, a));
    case "pick": return pickListed(a.index, !!a.group, a.proof);
    case "target": return target();
    case "focus": {
      // Focus and select the current text, so typing replaces it as a
      // person's select-all-and-type would.
      const el = target();
      el.focus();
      if (el.isContentEditable) {
        const sel = el.ownerDocument.getSelection(), rng = el.ownerDocument.createRange();
        rng.selectNodeContents(el); sel.removeAllRanges(); sel.addRange(rng);
      } else if (el.select) el.select();
      return { focused: D.deepActive(document) === el, empty: !D.textValue(el) };
    }
    case "blur": target().blur(); return true;
    case "set": { const el = target(); el.focus(); setValue(el, a.value); el.blur(); return true; }
    case "point": return pointOf(target());
    case "click": target().click(); return true;
    case "fileinput": {
      // The file input an upload gives its files to: the element itself
      // (or a label's control), else the one input inside it or inside its
      // nearest ancestor that holds any.
      let el = target();
      const isFile = (x) => x && x.tagName === "INPUT" && x.type === "file";
      if (el.tagName === "LABEL" && isFile(el.control)) el = el.control;
      if (isFile(el)) { S.file = el; return { self: true, multiple: el.multiple, count: 1 }; }
      let inputs = [];
      for (let a = el; a && !inputs.length; a = a.parentElement) inputs = Array.from(a.querySelectorAll("input[type=file]"));
      S.file = inputs.length === 1 ? inputs[0] : null;
      return { self: false, multiple: !!(S.file && S.file.multiple), count: inputs.length };
    }
    case "fileobj": return S.file;
    case "clickoption": if (!S.option || !S.option.isConnected) throw new Error("stale"); S.option.click(); return true;
    case "checked": return D.toggled(target());
    case "listopen": return !!S.unit && S.unit.el.isConnected && S.unit.el.getAttribute("aria-expanded") === "true";
    case "choose": return choose(a.value, a.known || [], a.phase || "");
    case "choosemany": return chooseMany(a.value, a.phase || "");
    case "datesections": return dateSections(a.value);
    case "pickdate": return pickDate(a.value, a.half || "", a.phase || "");
    case "clickpicked": if (!S.pickEl || !S.pickEl.isConnected) throw new Error("stale"); S.pickEl.click(); return true;
    case "focussection": {
      const x = D.dateSections(S.unit)[a.index];
      if (!x) throw new Error("stale");
      x.el.focus();
      return D.deepActive(document) === x.el;
    }
    case "submit": {
      const el = target();
      const form = el.tagName === "FORM" ? el : el.form || el.closest("form");
      if (!form) return "the element is in no form";
      const isSubmitter = (el.tagName === "BUTTON" && el.type === "submit") || (el.tagName === "INPUT" && ["submit", "image"].includes(el.type));
      if (isSubmitter && el.form === form) form.requestSubmit(el); else form.requestSubmit();
      return "";
    }
    case "readback": {
      // A framework may have replaced the element since the step: Go finds
      // it again and asks once more.
      const el = S.target;
      if (!el || !el.isConnected) return "stale";
      if (!readBack(a.kind, a.expect, a.known || [], a.half)) return "failed";
      if (a.keep) keep(el, S.unit, { ...a.keep, kind: a.kind, expect: a.expect, known: a.known || [] });
      return "held";
    }
    case "keepfiles": {
      // The input the upload gave its files to: the one fileinput chose,
      // else the element itself when it is a file input.
      const el = S.file || (S.target && S.target.tagName === "INPUT" && S.target.type === "file" ? S.target : null);
      if (!el) return false;
      keep(el, null, a.keep);
      return true;
    }
    // What the page's handlers put off to a moment later (a timer of its
    // change handler) runs first: timers of one delay run in order, so the
    // page's own, set before this one, go before the read.
    case "recheck": return new Promise((res, rej) => setTimeout(() => { try { res(recheck(a.row)); } catch (e) { rej(e); } }, 0));
    case "echoed": {
      // Which of the row's values the page does not show: as typed, or
      // with the same letters and digits where the page formats them.
      const shown = deepText().toLowerCase();
      const core = (v) => v.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");
      const shownCore = core(shown);
      const out = [];
      a.values.forEach((v, i) => {
        if (!shown.includes(norm(v).toLowerCase()) && !(core(v) !== "" && shownCore.includes(core(v)))) out.push(i);
      });
      return out;
    }
    case "cond": return cond(a.kind, a.value, a.before, a.selectors);
    case "message": return message();
    case "settle": return new Promise((r) => setTimeout(() => r(true), 0));
  }
  throw new Error("unknown op " + op);
}
