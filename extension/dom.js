// reprise's model of a page's controls, one for the recorder and the
// replayer, so that what one writes the other reads the same way: roles,
// accessible names, the control an event belongs to, the group of a choice,
// its options and the option chosen, a control's state, and the selectors
// that find it again.
//
// Loaded twice: as a content script before content.js (the extension's own
// isolated world, where RepriseDOM is a global no page can reach), and by
// the replayer (replay/browser), which evaluates this file inside a function
// in an isolated world of its own, so nothing here lands in the page's
// world. Pure functions of the DOM: no listeners, no state between calls
// but the caches a caller passes in.
var RepriseDOM = (() => {
  "use strict";

  // ---- Text ---------------------------------------------------------------

  const norm = (s) => String(s == null ? "" : s).replace(/\s+/g, " ").trim();
  // An element's text as the person reads it, cut (labels and names: 120).
  const text = (el, max = 120) => norm(el && (el.innerText || el.textContent)).slice(0, max);
  // The matching form of an option's or a label's text: case folded,
  // accents stripped (NFD, combining marks removed), spaces collapsed, a
  // trailing colon or asterisk dropped ("Plan:", "E-mail *").
  const fold = (s) => norm(s).normalize("NFD").replace(/\p{M}+/gu, "").toLowerCase().replace(/[\s:*]+$/u, "");
  const same = (a, b) => fold(a) === fold(b);

  // Whether a page's text shows a value: shown(text) is the test, for
  // one text and many values (the recorder's echo: which of the values a
  // form sent the page after it shows). Case is ignored and spaces
  // collapsed; letters and digits are compared alone, in the same order,
  // so a value the page reformats (5551234567 shown as (555) 123-4567)
  // still shows, but with the same decimal mark (1.50 is not 150), as the
  // replayer reads a field back. The match starts and ends at a word's
  // edge ("Ada" is not shown by "Canada"), and a value of fewer than three
  // letters and digits never shows: it turns up by chance.
  const MAX_SHOWN = 1000000;
  function shown(page) {
    const low = norm(page).slice(0, MAX_SHOWN).toLowerCase();
    let core = "";
    const at = []; // offset in core -> offset in low
    const starts = new Set(), ends = new Set();
    for (const m of low.matchAll(/[\p{L}\p{N}]+/gu)) {
      starts.add(core.length);
      for (let k = 0; k < m[0].length; k++) at.push(m.index + k);
      core += m[0];
      ends.add(core.length);
    }
    return (value) => {
      const v = norm(value).toLowerCase();
      const want = v.replace(/[^\p{L}\p{N}]/gu, "");
      if (want.length < 3) return false;
      for (let i = core.indexOf(want); i >= 0; i = core.indexOf(want, i + 1)) {
        if (starts.has(i) && ends.has(i + want.length) && decimal(low.slice(at[i], at[i + want.length - 1] + 1)) === decimal(v)) return true;
      }
      return false;
    };
  }
  // A number's decimal mark and how many digits follow it, "" for none: a
  // mark between digits is decimal when it is the last and its kind
  // appears once ("1,234.50"); dots or commas that repeat only group
  // digits ("973.565.9208").
  function decimal(s) {
    const marks = Array.from(s.matchAll(/\p{N}([.,])(?=\p{N})/gu));
    if (!marks.length) return "";
    const last = marks[marks.length - 1];
    if (marks.filter((m) => m[1] === last[1]).length > 1) return "";
    return last[1] + /^\p{N}*/u.exec(s.slice(last.index + 2))[0].length;
  }

  // ---- Elements -----------------------------------------------------------

  const tag = (el) => (el && el.tagName ? el.tagName.toLowerCase() : "");
  const attr = (el, a) => (el && el.getAttribute ? el.getAttribute(a) : null);
  const typeOf = (el) => (tag(el) === "input" ? (attr(el, "type") || "text").toLowerCase() : "");
  // The parent across shadow roots: a shadow root's child goes to its host.
  const up = (n) => (!n ? null : n.parentNode && n.parentNode.nodeType === 11 ? n.parentNode.host : n.parentElement);
  function closest(el, sel) {
    for (let n = el; n; n = up(n)) if (n.matches && n.matches(sel)) return n;
    return null;
  }
  const contains = (a, b) => {
    for (let n = b; n; n = up(n)) if (n === a) return true;
    return false;
  };
  function byId(el, id) {
    if (!id) return null;
    const root = el.getRootNode();
    return (root.getElementById && root.getElementById(id)) || (el.ownerDocument && el.ownerDocument.getElementById(id)) || null;
  }
  const ids = (v) => norm(v).split(" ").filter(Boolean);

  function visible(el) {
    if (!el || !el.isConnected) return false;
    if (el.checkVisibility && !el.checkVisibility({ visibilityProperty: true })) return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  }

  // The innermost focused element, through open shadow roots and frames.
  function deepActive(doc) {
    let a = (doc || document).activeElement;
    for (;;) {
      if (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
      else if (a && a.contentDocument && a.contentDocument.activeElement) a = a.contentDocument.activeElement;
      else return a;
    }
  }

  // The document, its open shadow roots and, with frames, the visible
  // same-origin frames' documents (and theirs).
  function roots(doc, frames) {
    const out = [];
    const walk = (root) => {
      out.push(root);
      for (const el of root.querySelectorAll("*")) {
        if (el.shadowRoot) walk(el.shadowRoot);
        if (frames && (el.tagName === "IFRAME" || el.tagName === "FRAME") && visible(el)) {
          let d = null;
          try { d = el.contentDocument; } catch (_) { /* cross-origin */ }
          if (d && d.documentElement) walk(d);
        }
      }
    };
    walk(doc || document);
    return out;
  }

  // ---- Roles and names ----------------------------------------------------

  // Roles a person operates: an event inside one belongs to it.
  const CONTROL_ROLES = new Set(["radio", "checkbox", "switch", "option", "menuitem", "menuitemradio", "menuitemcheckbox",
    "tab", "treeitem", "gridcell", "slider", "spinbutton", "combobox", "textbox", "searchbox", "button", "link"]);
  // Roles named by their content when nothing labels them.
  const CONTENT_NAMED = new Set(["button", "link", "option", "radio", "checkbox", "switch", "tab", "menuitem", "menuitemradio",
    "menuitemcheckbox", "treeitem", "gridcell", "heading", "cell", "columnheader", "rowheader"]);
  const HEADINGS = new Set(["h1", "h2", "h3", "h4", "h5", "h6"]);

  // The accessible role: the explicit one, else the element's implicit
  // role (kept as the recorder has always written it: any text-like input
  // is a textbox, a one-line select a combobox, an unknown element its tag).
  function roleOf(el) {
    if (!el || el.nodeType !== 1) return "";
    const explicit = norm(attr(el, "role")).split(" ")[0].toLowerCase();
    if (explicit && explicit !== "presentation" && explicit !== "none") return explicit;
    const t = tag(el);
    switch (t) {
      case "input": {
        const type = typeOf(el);
        if (type === "checkbox") return el.hasAttribute("switch") ? "switch" : "checkbox";
        if (type === "radio") return "radio";
        if (["submit", "button", "reset", "image"].includes(type)) return "button";
        if (type === "range") return "slider";
        return "textbox";
      }
      case "select": return el.multiple || el.size > 1 ? "listbox" : "combobox";
      case "textarea": return "textbox";
      case "a": return "link";
      case "button": return "button";
      case "form": return "form";
      case "option": return "option";
      case "dialog": return "dialog";
      case "fieldset": return radioSetIn(el) ? "radiogroup" : "group";
    }
    if (HEADINGS.has(t)) return "heading";
    if (el.isContentEditable && !(el.parentElement && el.parentElement.isContentEditable)) return "textbox";
    return t;
  }

  // A label's own text, without the controls inside it.
  function labelText(l) {
    // Cloning is the slow part: most labels hold no control.
    if (!l.querySelector("input,select,textarea,[role=listbox]")) return text(l);
    const clone = l.cloneNode(true);
    clone.querySelectorAll("input,select,textarea,[role=listbox]").forEach((n) => n.remove());
    return text(clone) || text(l);
  }

  // Every text that names el, most specific first: aria-labelledby,
  // aria-label, its labels (for= and wrapping), a fieldset's legend, its
  // content for roles named by content, title, placeholder.
  function namesOf(el) {
    if (!el || el.nodeType !== 1) return [];
    const out = [];
    const by = attr(el, "aria-labelledby");
    if (by) out.push(ids(by).map((id) => text(byId(el, id))).join(" "));
    const aria = attr(el, "aria-label");
    if (aria) out.push(aria);
    if (el.labels && el.labels.length) for (const l of el.labels) out.push(labelText(l));
    else if (el.id && !el.labels) {
      const root = el.getRootNode();
      if (root.querySelectorAll) for (const l of root.querySelectorAll(`label[for="${CSS.escape(el.id)}"]`)) out.push(labelText(l));
    }
    const wrap = el.parentElement && el.parentElement.closest("label");
    if (wrap && !(el.labels && Array.from(el.labels).includes(wrap))) out.push(labelText(wrap));
    if (tag(el) === "fieldset") {
      const lg = el.querySelector(":scope > legend");
      if (lg) out.push(text(lg));
    }
    if (CONTENT_NAMED.has(roleOf(el))) {
      const t = typeOf(el);
      const own = tag(el) === "input" ? (["submit", "button", "reset"].includes(t) ? el.value : "") : text(el);
      if (own) out.push(own);
    }
    for (const a of ["title", "placeholder"]) if (attr(el, a)) out.push(attr(el, a));
    return out.map(norm).filter(Boolean);
  }
  const nameOf = (el) => namesOf(el)[0] || "";

  // ---- Controls -----------------------------------------------------------

  function isControl(el) {
    if (!el || el.nodeType !== 1) return false;
    const t = tag(el);
    if (t === "input") return typeOf(el) !== "hidden";
    if (t === "select" || t === "textarea" || t === "button") return true;
    if (t === "a" && el.hasAttribute("href")) return true;
    if (el.hasAttribute("role") && CONTROL_ROLES.has(roleOf(el))) return true;
    return el.isContentEditable && !(el.parentElement && el.parentElement.isContentEditable);
  }

  // The control an event's target belongs to: the closest native input,
  // select, textarea, button or link, or element with an operable ARIA
  // role, across shadow roots; a label stands for its control.
  function controlOf(node) {
    for (let n = node && node.nodeType === 1 ? node : up(node); n; n = up(n)) {
      if (isControl(n)) return n;
      if (tag(n) === "label" && n.control) return n.control;
    }
    return null;
  }

  const TEXT_TYPES = new Set(["text", "email", "tel", "number", "url", "search", "date", "time", "month", "week",
    "datetime-local", "password", ""]);
  function isSecret(el) {
    const ac = (attr(el, "autocomplete") || "").toLowerCase();
    return typeOf(el) === "password" || ac.includes("one-time-code") || ac.includes("password");
  }

  // ---- Groups -------------------------------------------------------------

  // The same-name radios of radio's form (or of its root, outside forms).
  function radioSet(radio) {
    if (!radio.name) return [radio];
    const form = radio.form;
    const pool = form ? Array.from(form.elements) : Array.from(radio.getRootNode().querySelectorAll("input"));
    return pool.filter((r) => tag(r) === "input" && typeOf(r) === "radio" && r.name === radio.name && r.form === form);
  }
  // A container (fieldset, radiogroup) whose radios are one name group.
  function radioSetIn(c) {
    const rs = Array.from(c.querySelectorAll("input")).filter((r) => typeOf(r) === "radio");
    return rs.length > 0 && rs[0].name !== "" && rs.every((r) => r.name === rs[0].name) ? rs : null;
  }
  function radioContainer(members) {
    const c = closest(up(members[0]), "fieldset,[role=radiogroup]");
    if (!c || !members.every((m) => contains(c, m))) return null;
    const inside = radioSetIn(c);
    return inside && inside.length === members.length ? c : null;
  }
  // A name for a radio set without a container: the short text just
  // before the set (a label-like line above the options), when there is one.
  const SKIP = new Set(["script", "style", "template", "noscript"]);
  function precedingCaption(first) {
    let n = first.closest("label") || first;
    for (let hops = 0; n && hops < 3; hops++, n = n.parentElement) {
      for (let s = n.previousElementSibling; s; s = s.previousElementSibling) {
        if (SKIP.has(tag(s)) || !visible(s)) continue;
        if (isControl(s) || s.querySelector("input,select,textarea,button,[role]")) return "";
        const t = text(s);
        if (t) return t.length <= 80 ? t : "";
      }
    }
    return "";
  }

  // The listbox or menu a combobox or menu button opens.
  const POPUP_ROLES = new Set(["listbox", "menu", "tree", "grid"]);
  function popupOf(h) {
    for (const a of ["aria-controls", "aria-owns"]) {
      for (const id of ids(attr(h, a))) {
        const p = byId(h, id);
        if (!p) continue;
        if (POPUP_ROLES.has(roleOf(p))) return p;
        const inner = p.querySelector("[role=listbox],[role=menu]");
        if (inner) return inner;
      }
    }
    const ad = byId(h, attr(h, "aria-activedescendant"));
    const lb = ad && closest(ad, "[role=listbox],[role=menu]");
    if (lb && lb !== h) return lb;
    const nested = h.querySelector && h.querySelector("[role=listbox],[role=menu]");
    if (nested) return nested;
    if (attr(h, "aria-haspopup") || roleOf(h) === "combobox") {
      const sib = h.nextElementSibling;
      if (sib && POPUP_ROLES.has(roleOf(sib))) return sib;
    }
    // An open list elsewhere in the page (a popover) that names h as its
    // opener: React Aria's Select names none from the button.
    if (attr(h, "aria-expanded") === "true" && h.ownerDocument) {
      for (const lb of h.ownerDocument.querySelectorAll("[role=listbox],[role=menu]")) if (lb !== h && visible(lb) && openerOf(lb) === h) return lb;
    }
    return null;
  }
  // The combobox or button that opens popup, if any.
  function openerOf(popup) {
    const root = popup.getRootNode();
    const q = root.querySelectorAll ? root : popup.ownerDocument;
    if (popup.id) {
      const id = CSS.escape(popup.id);
      const h = q.querySelector(`[aria-controls~="${id}"],[aria-owns~="${id}"]`);
      if (h && h !== popup) return h;
    }
    for (const id of ids(attr(popup, "aria-labelledby"))) {
      const h = byId(popup, id);
      if (h && (attr(h, "aria-haspopup") || roleOf(h) === "combobox")) return h;
    }
    const outer = closest(up(popup), "[role=combobox]");
    if (outer) return outer;
    const prev = popup.previousElementSibling;
    if (prev && (attr(prev, "aria-haspopup") || roleOf(prev) === "combobox")) return prev;
    return null;
  }
  // A button that opens a listbox or a menu.
  const opener = (el) => /^(listbox|menu|true)$/.test(attr(el, "aria-haspopup") || "");
  const editable = (h) => tag(h) === "input" || tag(h) === "textarea" || !!h.isContentEditable;

  // The unit a control belongs to: what one step sets. kind is text,
  // toggle, range, file, choice or action; a choice has how (radio, select,
  // ariaradio, listbox, combo, autocomplete, menu), its handle el (the
  // element a person points at: the container, the select, the combobox,
  // the menu button), its members and its popup. key identifies the unit
  // across calls. cache (a Map) memoizes within one walk of the page.
  function unitOf(el, cache) {
    if (!el || el.nodeType !== 1) return null;
    if (cache && cache.has(el)) return cache.get(el);
    const u = computeUnit(el, cache);
    if (cache) cache.set(el, u);
    return u;
  }
  function choice(how, el, members, popup, role, extra) {
    return Object.assign({ kind: "choice", how, el, members, popup, role, key: el }, extra || {});
  }
  // A combobox, or a button that opens a listbox or a menu of radios.
  // popup is the popup the caller came from, when openerOf found the
  // handle but the handle does not name its popup.
  function comboUnit(h, popup) {
    popup = popupOf(h) || popup || null;
    const menu = popup ? roleOf(popup) === "menu" || roleOf(popup) === "menubar" : attr(h, "aria-haspopup") === "menu" || attr(h, "aria-haspopup") === "true";
    const how = editable(h) && !h.readOnly ? "autocomplete" : roleOf(h) !== "combobox" && menu ? "menu" : "combo";
    return choice(how, h, popup ? optionEls(popup) : [], popup, how === "menu" ? "menu" : "combobox");
  }
  function optionEls(popup) {
    if (roleOf(popup) === "menu" || roleOf(popup) === "menubar") return Array.from(popup.querySelectorAll("[role=menuitemradio]"));
    return Array.from(popup.querySelectorAll("[role=option]")).filter((o) => closest(up(o), "[role=listbox]") === popup || !closest(up(o), "[role=listbox]"));
  }
  function computeUnit(el, cache) {
    const t = tag(el), type = typeOf(el), role = roleOf(el);
    if (role === "spinbutton" || role === "group") {
      const d = dateUnitAt(el);
      if (d) return d;
    }
    if (role === "div") { // a date's element with no role (a range's halves), not a box around it
      const sb = el.querySelector("[role=spinbutton]"), d = sb && dateUnitAt(sb);
      if (d && d.el === el) return d;
    }
    if (type === "checkbox" || role === "checkbox") {
      const g = checkGroupOf(el);
      if (g) return unitOf(g, cache);
    }
    if ((t === "fieldset" || role === "group") && checkGroupOf(el) === el) {
      const boxes = boxesIn(el);
      return choice("checks", el, boxes, null, "group");
    }
    if (t === "input") {
      if (type === "radio") {
        const members = radioSet(el);
        const c = radioContainer(members);
        return choice("radio", c || members[0], members, null, "radiogroup", { container: c, name: el.name, key: c || members[0] });
      }
      if (type === "checkbox") return { kind: "toggle", how: "native", el, role: roleOf(el), key: el };
      if (type === "file") return { kind: "file", el, role, key: el };
      if (type === "range") return { kind: "range", el, role: "slider", key: el };
      if (["submit", "button", "reset", "image"].includes(type)) return { kind: "action", el, role: "button", key: el };
      if (role === "combobox" || attr(el, "aria-haspopup") === "listbox") return comboUnit(el);
      return { kind: "text", el, role: "textbox", key: el };
    }
    if (t === "select") return choice("select", el, Array.from(el.options), null, role);
    if (t === "textarea") return { kind: "text", el, role: "textbox", key: el };
    if (t === "fieldset" || role === "radiogroup") {
      const natives = radioSetIn(el);
      if (natives) return unitOf(natives[0], cache);
      const rs = Array.from(el.querySelectorAll("[role=radio]")).filter((r) => closest(up(r), "[role=radiogroup]") === el);
      return rs.length ? choice("ariaradio", el, rs, null, "radiogroup") : null;
    }
    switch (role) {
      case "radio": {
        const g = closest(up(el), "[role=radiogroup]");
        if (g) return unitOf(g, cache);
        return choice("ariaradio", el, [el], null, "radiogroup");
      }
      case "checkbox": case "switch": case "menuitemcheckbox":
        return { kind: "toggle", how: "aria", el, role: role === "switch" ? "switch" : "checkbox", key: el };
      case "slider": case "spinbutton":
        return { kind: "range", el, role, key: el };
      case "combobox":
        return comboUnit(el);
      case "listbox": {
        const h = openerOf(el);
        if (h) return editable(h) || roleOf(h) === "combobox" ? unitOf(h, cache) : comboUnit(h, el);
        return choice("listbox", el, optionEls(el), null, "listbox");
      }
      case "option": {
        const lb = closest(up(el), "[role=listbox]");
        return lb ? unitOf(lb, cache) : null;
      }
      case "menuitemradio": {
        const menu = closest(up(el), "[role=menu],[role=menubar]");
        if (!menu) return choice("menu", el, [el], null, "menu");
        const h = openerOf(menu);
        if (h) return comboUnit(h, menu);
        return choice("menu", menu, optionEls(menu), menu, "menu");
      }
      case "menu": {
        const h = openerOf(el);
        return h ? comboUnit(h, el) : choice("menu", el, optionEls(el), el, "menu");
      }
      case "textbox": case "searchbox":
        return { kind: "text", el, role: "textbox", key: el };
    }
    if (role === "button" && attr(el, "aria-pressed") !== null) return { kind: "toggle", how: "pressed", el, role: "switch", key: el };
    if (role === "button" && opener(el)) {
      const p = popupOf(el);
      if (p && optionEls(p).length) return comboUnit(el, p);
    }
    if (role === "button") {
      const d = pickerUnit(el);
      if (d) return d;
    }
    if (el.isContentEditable) return { kind: "text", el, role: "textbox", key: el };
    if (isControl(el)) return { kind: "action", el, role, key: el };
    return null;
  }

  // The unit a page element stands for: a choice's handle or container is
  // its choice, any other element its control's unit. For a choice step
  // (group), a button that opens a listbox or menu is a choice even while
  // its popup is not in the page.
  function unitFor(el, cache, group) {
    const direct = tag(el) === "fieldset" || ["radiogroup", "listbox", "menu", "combobox"].includes(roleOf(el));
    const u = (direct ? unitOf(el, cache) : null) || unitOf(controlOf(el), cache);
    if (group && u && u.kind === "action" && opener(u.el)) return comboUnit(u.el);
    return u;
  }

  // What a unit's element does not show by itself: a label for the group.
  function labelOf(u) {
    if (u.how === "picker") {
      // Its content is its value: never its name.
      const shown = shownText(u.el);
      return namesOf(u.el).find((n) => n !== shown && n !== text(u.el)) || "";
    }
    if (u.kind === "date") return nameOf(u.el) || dateLabel(u);
    if (u.kind !== "choice") return nameOf(u.el);
    switch (u.how) {
      case "radio": return u.container ? nameOf(u.container) : precedingCaption(u.members[0]);
      case "menu": return (u.popup && attr(u.popup, "aria-label")) || nameOf(u.el);
    }
    if (u.how === "combo") {
      // A select-only combobox labelled by its value and its label
      // ("Annual leave Kind of leave", React Aria's Select): what labels
      // it from outside names it; its own content is its value.
      const by = ids(attr(u.el, "aria-labelledby")).map((id) => byId(u.el, id)).filter(Boolean);
      const outside = by.filter((x) => !contains(u.el, x));
      if (outside.length && outside.length < by.length) return norm(outside.map((x) => text(x)).join(" "));
    }
    return nameOf(u.el) || (u.popup ? nameOf(u.popup) : "");
  }

  function unitVisible(u) {
    return visible(u.el) || (u.how === "radio" && u.members.some((m) => visible(m) || (m.labels && Array.from(m.labels).some(visible))));
  }
  const unitContains = (u, n) => !!n && (contains(u.el, n) || (u.popup && contains(u.popup, n)) || (u.members || []).some((m) => contains(m, n)));

  // ---- Options and state --------------------------------------------------

  const optLabel = (o) => norm(o.label || o.text);
  const optValue = (el) => attr(el, "value") ?? (el.dataset ? el.dataset.value : undefined) ?? "";
  const ariaOn = (el, a) => attr(el, a) === "true";

  // A choice's options: {label, value, selected, disabled, el}; value is
  // what the page submits where it has one ("" otherwise).
  function optionsOf(u) {
    if (u.kind !== "choice") return [];
    switch (u.how) {
      case "select":
        return Array.from(u.el.options).map((o) => ({ label: optLabel(o), value: o.value, selected: o.selected, disabled: o.disabled, el: o }));
      case "radio":
        return u.members.map((r) => ({ label: nameOf(r), value: r.value, selected: r.checked, disabled: r.disabled, el: r }));
      case "checks":
        return boxesIn(u.el).map((b) => ({ label: nameOf(b), value: tag(b) === "input" ? b.value : optValue(b), selected: toggled(b) === true,
          disabled: b.disabled || ariaOn(b, "aria-disabled"), el: b }));
      case "ariaradio": case "menu": {
        const ms = u.how === "menu" && u.popup ? optionEls(u.popup) : u.members;
        return ms.map((r) => ({ label: nameOf(r), value: optValue(r), selected: ariaOn(r, "aria-checked"), disabled: ariaOn(r, "aria-disabled"), el: r }));
      }
      case "listbox": case "combo": case "autocomplete": {
        const lb = u.how === "listbox" ? u.el : popupOf(u.el) || (u.popup && u.popup.isConnected ? u.popup : null);
        if (!lb) return [];
        return optionEls(lb).map((o) => ({ label: nameOf(o), value: optValue(o), selected: ariaOn(o, "aria-selected") || ariaOn(o, "aria-checked"),
          disabled: ariaOn(o, "aria-disabled"), el: o }));
      }
    }
    return [];
  }

  // What a combobox shows as its value: an input's value, else its text
  // without its nested popup.
  function shownText(h) {
    if (tag(h) === "input" && !h.value && roleOf(h) === "combobox") return selectionText(h);
    if (tag(h) === "input" || tag(h) === "textarea") return norm(h.value);
    // Without its popup, and without what it hides from assistive
    // technology (an arrow drawn as "▼").
    const p = h.querySelector && h.querySelector("[role=listbox],[role=menu],[aria-hidden=true]");
    if (!p) return text(h, 200);
    const clone = h.cloneNode(true);
    clone.querySelectorAll("[role=listbox],[role=menu],[aria-hidden=true]").forEach((n) => n.remove());
    return norm(clone.textContent).slice(0, 200);
  }

  // What a combobox whose input stays empty shows as its value beside it
  // (antd's Select: a search input, and the chosen option's text in the
  // field's box): the box's text without the input, placeholders and
  // chips' remove controls; "" when it shows none.
  function selectionText(h) {
    for (let a = up(h), i = 0; a && i < 3; a = up(a), i++) {
      if (!a.querySelectorAll) continue;
      if (Array.from(a.querySelectorAll(FIELDS)).some((f) => f !== h && typeOf(f) !== "hidden")) break;
      const clone = a.cloneNode(true);
      clone.querySelectorAll("input,[class*=placeholder i],[aria-hidden=true]," + REMOVE).forEach((n) => n.remove());
      const t = norm(clone.textContent);
      if (t) return t.slice(0, 200);
    }
    return "";
  }

  // The option chosen in a choice, or null when none; known are option
  // labels known from elsewhere (a recording's closed set, a popup seen
  // earlier), for a combobox whose list is not in the page now.
  function chosenOf(u, known) {
    if (u.kind !== "choice") return null;
    const opts = optionsOf(u);
    switch (u.how) {
      case "select": {
        const o = u.el.selectedIndex >= 0 ? u.el.options[u.el.selectedIndex] : null;
        return o ? { label: optLabel(o), value: o.value, el: o } : null;
      }
      case "radio": case "ariaradio": case "listbox": case "menu":
        return opts.find((o) => o.selected) || null;
      case "combo": case "autocomplete": {
        const shown = shownText(u.el);
        const byText = shown && opts.find((o) => same(o.label, shown));
        if (byText) return byText;
        const k = shown && (known || []).find((l) => same(l, shown));
        if (k) return { label: k, value: "" };
        if (u.how === "autocomplete") return shown ? { label: shown, value: "" } : null;
        // A select-only combobox: its selected option, else what it shows,
        // unless the options are known and it shows none of them (a
        // placeholder such as "Choose a service").
        const sel = opts.find((o) => o.selected);
        if (sel) return sel;
        if (!shown || opts.length || (known || []).length) return null;
        return { label: shown, value: "" };
      }
    }
    return null;
  }

  // A two-state control's state: true, false, or "mixed".
  function toggled(el) {
    if (tag(el) === "input") return el.indeterminate ? "mixed" : !!el.checked;
    const v = attr(el, attr(el, "aria-pressed") !== null && attr(el, "aria-checked") === null ? "aria-pressed" : "aria-checked");
    return v === "mixed" ? "mixed" : v === "true";
  }
  function textValue(el) {
    if (tag(el) === "input" || tag(el) === "textarea") return el.value;
    if (el.isContentEditable) return el.innerText.replace(/\n$/, "");
    return norm(el.textContent);
  }
  function rangeValue(el) {
    if (tag(el) === "input") return el.value;
    return attr(el, "aria-valuenow") || "";
  }

  // A unit's state as one comparable string.
  function stateOf(u, known) {
    switch (u.kind) {
      case "text": return textValue(u.el);
      case "toggle": { const s = toggled(u.el); return s === "mixed" ? "mixed" : s ? "checked" : "unchecked"; }
      case "range": return rangeValue(u.el);
      case "file": return Array.from(u.el.files || []).map((f) => f.name + "/" + f.size).join("|");
      case "date": return dateOf(u);
      case "choice": {
        if (isMulti(u)) return chosenSet(u).join("\n");
        const c = chosenOf(u, known);
        return c ? c.label : "";
      }
    }
    return "";
  }

  // Whether a unit is in its default state, for a form never seen before:
  // a native field at its default, anything else empty or off.
  function atDefault(u) {
    const el = u.el;
    switch (u.kind) {
      case "text": return tag(el) === "input" || tag(el) === "textarea" ? el.value === el.defaultValue : textValue(el) === "";
      case "toggle": return tag(el) === "input" ? el.checked === el.defaultChecked : toggled(el) === false;
      case "range": return tag(el) === "input" ? el.value === el.defaultValue : true;
      case "file": return !(el.files && el.files.length);
      case "choice":
        if (u.how === "select") {
          const opts = Array.from(el.options);
          const dflt = opts.some((o) => o.defaultSelected) ? opts.map((o) => o.defaultSelected) : opts.map((o, i) => i === 0 && !el.multiple);
          return opts.every((o, i) => o.selected === dflt[i]);
        }
        if (u.how === "radio") return u.members.every((r) => r.checked === r.defaultChecked);
        if (u.how === "checks") return boxesIn(el).every((b) => (tag(b) === "input" ? b.checked === b.defaultChecked : toggled(b) === false));
        if (isMulti(u)) return chosenSet(u).length === 0;
        return !chosenOf(u);
      case "date": return dateOf(u) === "";
    }
    return true;
  }

  // ---- Units of a page or a form ------------------------------------------

  const CONTROL_SEL = "input,select,textarea,button,a[href],[role],[contenteditable]";

  // Every unit under the given roots (a document, shadow roots, an
  // element), once each, in document order.
  function unitsIn(rs, cache) {
    cache = cache || new Map();
    const seen = new Set(), out = [];
    const take = (el) => {
      if (!isControl(el)) return;
      const u = unitOf(el, cache);
      if (u && !seen.has(u.key)) { seen.add(u.key); out.push(u); }
    };
    for (const r of rs) {
      if (r.nodeType === 1 && r.matches(CONTROL_SEL)) take(r);
      for (const el of r.querySelectorAll(CONTROL_SEL)) take(el);
      if (r.nodeType === 1) for (const el of r.querySelectorAll("*")) if (el.shadowRoot) for (const x of el.shadowRoot.querySelectorAll(CONTROL_SEL)) take(x);
    }
    return out;
  }

  // The form a control or unit belongs to: its form owner, else the
  // closest form or role=form, else null (the document).
  function formOf(el) {
    if (!el) return null;
    if (el.form) return el.form;
    return closest(el, "form,[role=form]");
  }
  // The form's inventory at a destructive step (a step's fields): every
  // control the person could have set, without values, at most 500.
  // optionsFor gives a choice's options as the caller knows them (the
  // recorder remembers a popup list's options once it was opened).
  function inventory(form, optionsFor) {
    const out = [];
    for (const u of unitsOfForm(form, document)) {
      if (!settable(u) || out.length >= 500) continue;
      const label = labelOf(u);
      const members = u.how === "radio" ? u.members : [u.el];
      const f = { label, role: u.kind === "choice" || u.kind === "toggle" ? u.role : roleOf(u.el) || "textbox",
        selectors: selectorsOf(u, label) };
      const type = u.how === "radio" ? "radio" : u.el.type && typeof u.el.type === "string" && /^(INPUT|SELECT|TEXTAREA)$/.test(u.el.tagName) ? u.el.type : "";
      if (type) f.type = type;
      const name = u.how === "radio" ? u.name : u.el.getAttribute("name");
      if (name) f.name = name;
      if (members.some((m) => m.required || m.getAttribute("aria-required") === "true")) f.required = true;
      const os = optionsFor(u);
      if (os) f.options = os;
      out.push(f);
    }
    return out;
  }
  // The units of a form (with the native fields its form attribute adds),
  // or of the whole document for null.
  function unitsOfForm(form, doc, cache) {
    cache = cache || new Map();
    if (!form) return unitsIn([doc || document], cache);
    const us = unitsIn([form], cache);
    if (form.elements) {
      const keys = new Set(us.map((u) => u.key));
      for (const el of form.elements) {
        if (contains(form, el) || !isControl(el)) continue;
        const u = unitOf(el, cache);
        if (u && !keys.has(u.key)) { keys.add(u.key); us.push(u); }
      }
    }
    return us;
  }

  // A field no person types into: a visually hidden input that takes no
  // focus (tabindex -1, or inside aria-hidden), which a widget keeps in
  // step with what it shows, for the form's submit.
  function mirror(u) {
    if (u.kind === "action" || u.kind === "date" || u.how === "checks" || u.how === "radio") return false;
    const el = u.el;
    return (el.tabIndex < 0 || !!closest(el, "[aria-hidden=true]")) && clippedAway(el);
  }
  // Whether el shows no pixel: it is a pixel wide or high, or a box a
  // pixel wide or high that hides its overflow holds it (the "visually
  // hidden" pattern of the component libraries, whose mirrored select keeps
  // its own size inside).
  function clippedAway(el) {
    for (let a = el, i = 0; a && a.nodeType === 1 && i < 4; a = up(a), i++) {
      const r = a.getBoundingClientRect();
      if (r.width > 1 && r.height > 1) continue;
      if (a === el) return true;
      const cs = getComputedStyle(a);
      if (cs.overflow !== "visible" || cs.clipPath !== "none" || cs.clip !== "auto") return true;
    }
    return false;
  }

  // Settable units: not hidden, not disabled, not buttons or links.
  function settable(u) {
    if (u.kind === "action") return false;
    const els = u.how === "radio" ? u.members : [u.el];
    if (els.every((e) => e.disabled || ariaOn(e, "aria-disabled"))) return false;
    return unitVisible(u);
  }

  // ---- Sets ---------------------------------------------------------------

  // The boxes of a group of checkboxes: a fieldset or role=group holding
  // two boxes or more and no other kind of field, whose boxes the person
  // sets as one list (services, tags, days). Null for a lone box.
  function boxesIn(g) {
    return Array.from(g.querySelectorAll("input[type=checkbox],[role=checkbox]")).filter((b) => !closest(up(b), "[role=listbox],[role=grid],[role=menu]"));
  }
  function checkGroupOf(el) {
    const g = closest(el, "fieldset,[role=group]");
    if (!g || dateParts(g)) return null;
    const boxes = boxesIn(g);
    if (boxes.length < 2 || (el !== g && !boxes.includes(el))) return null;
    const others = g.querySelectorAll("input:not([type=checkbox]):not([type=hidden]),select,textarea,[role=textbox],[role=radio],[role=combobox],[role=spinbutton],[role=switch]");
    return others.length ? null : g;
  }

  // A choice's chips: the chosen items of a tag picker shown beside its
  // field, each a text with a control that removes it (a close icon, a
  // remove button). Clear-all controls are not chips.
  const FIELDS = "input,select,textarea,[role=combobox],[role=textbox],[role=listbox],[role=spinbutton]";
  const REMOVE = "[aria-label*=remove i],[aria-label*=delete i],[aria-label=close i],[class*=remove i],[data-tag-remove]";
  function chipsOf(h) {
    // The field's wrapper: the nearest ancestor with a remove control, and
    // no other field in it (chips further up are another field's).
    let w = null;
    for (let a = up(h), i = 0; a && i < 4 && !w; a = up(a), i++) {
      if (!a.querySelectorAll) continue;
      if (Array.from(a.querySelectorAll(FIELDS)).some((f) => f !== h && typeOf(f) !== "hidden")) break;
      if (a.querySelector(REMOVE)) w = a;
    }
    if (!w) return [];
    const out = [];
    for (const r of w.querySelectorAll(REMOVE)) {
      for (let c = up(r); c && c !== w; c = up(c)) {
        if (contains(c, h)) break;
        const clone = c.cloneNode(true);
        clone.querySelectorAll(REMOVE).forEach((n) => n.remove());
        const t = norm(clone.textContent);
        if (!t) continue;
        if (!out.some((x) => x.el === c)) out.push({ label: t.slice(0, 200), el: c, remove: r });
        break;
      }
    }
    return out;
  }

  // The tag picker whose chip's remove control el is in, or null.
  function chipOwner(el) {
    if (!el || !el.closest || !el.closest(REMOVE)) return null;
    for (let a = up(el), i = 0; a && i < 6; a = up(a), i++) {
      const h = a.querySelector && a.querySelector("input[role=combobox],input[aria-haspopup=listbox],[role=combobox]");
      if (!h) continue;
      return chipsOf(h).some((c) => contains(c.el, el)) ? h : null;
    }
    return null;
  }

  // Whether a choice holds a set: a multiple select, a multiselectable
  // list, a group of boxes, or a combobox whose list is multiselectable
  // or that shows its chosen items as chips.
  function isMulti(u) {
    if (!u || u.kind !== "choice") return false;
    switch (u.how) {
      case "select": return !!u.el.multiple;
      case "checks": return true;
      case "listbox": return ariaOn(u.el, "aria-multiselectable");
      case "combo": case "autocomplete": {
        const p = popupOf(u.el) || (u.popup && u.popup.isConnected ? u.popup : null);
        return ariaOn(u.el, "aria-multiselectable") || (!!p && ariaOn(p, "aria-multiselectable")) || chipsOf(u.el).length > 0;
      }
    }
    return false;
  }
  // The labels of the options a set holds, in the page's order.
  function chosenSet(u) {
    if (u.how === "select") return Array.from(u.el.selectedOptions).map(optLabel);
    if (u.how === "combo" || u.how === "autocomplete") return chipsOf(u.el).map((c) => c.label);
    return optionsOf(u).filter((o) => o.selected).map((o) => o.label);
  }

  // ---- Dates in sections --------------------------------------------------

  // The part of a date a spinbutton holds: its data-type (React Aria and
  // others like it), else a word of its own label, else its range.
  const PART_WORDS = [["year", /\b(year|yyyy|yy|jahr|année|año|anno)\b/i], ["month", /\b(month|mm|monat|mois|mes|mese)\b/i],
    ["day", /\b(day|dd|tag|jour|día|dia|giorno)\b/i]];
  function datePart(sb) {
    const dt = (attr(sb, "data-type") || attr(sb, "data-segment") || "").toLowerCase();
    if (dt === "year" || dt === "month" || dt === "day") return dt;
    const own = attr(sb, "aria-label") || attr(sb, "aria-placeholder") || attr(sb, "placeholder") || "";
    for (const [p, re] of PART_WORDS) if (re.test(own)) return p;
    const max = Number(attr(sb, "aria-valuemax"));
    if (max === 12) return "month";
    if (max >= 28 && max <= 31) return "day";
    if (max >= 1000) return "year";
    return "";
  }
  // The day, month and year spinbuttons of one date field in sections,
  // each once; null when el holds no whole date, or two (a range, whose
  // halves are dates of their own).
  function dateParts(el) {
    if (!el.querySelectorAll) return null;
    const sbs = el.querySelectorAll("[role=spinbutton]");
    if (sbs.length < 3 || sbs.length > 8) return null;
    const parts = {};
    for (const sb of sbs) {
      const p = datePart(sb);
      if (!p) continue; // an hour, a minute, AM/PM
      if (parts[p]) return null;
      parts[p] = sb;
    }
    return parts.year && parts.month && parts.day ? parts : null;
  }
  // The date unit el is part of: the nearest element holding one whole
  // date, or the nearest group above it that holds the same one.
  function dateUnitAt(el) {
    if (roleOf(el) !== "spinbutton" && !dateParts(el)) return null;
    let first = null;
    for (let a = el, i = 0; a && i < 6; a = up(a), i++) {
      if (a.nodeType !== 1) continue;
      if (!dateParts(a)) {
        if (first) break;
        continue;
      }
      if (!first) first = a;
      if (roleOf(a) === "group" || tag(a) === "fieldset") { first = a; break; }
    }
    // A spinbutton that is none of the date's parts (a quantity beside it)
    // is no part of it.
    if (!first || (roleOf(el) === "spinbutton" && !Object.values(dateParts(first)).includes(el))) return null;
    return { kind: "date", el: first, role: "group", key: first };
  }
  // A date unit's date as ISO 8601, "" unless every part holds a number.
  // A calendar picker's is the date its control shows; a range's, with
  // half ("start" or "end"), that end's date, else both as start/end.
  function dateOf(u, half) {
    if (u.how === "picker") return pickedOf(u.el, half);
    const parts = dateParts(u.el);
    if (!parts) return "";
    const n = (p) => {
      const sb = parts[p], v = attr(sb, "aria-valuenow");
      return v === null || v === "" || /empty/i.test(attr(sb, "aria-valuetext") || "") ? NaN : Number(v);
    };
    const y = n("year"), m = n("month"), d = n("day");
    if (!(y > 0 && m >= 1 && m <= 12 && d >= 1 && d <= 31)) return "";
    const pad = (x, k) => String(x).padStart(k, "0");
    return `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`;
  }
  // A date unit's sections in the page's order, for typing: the part
  // each holds and its element.
  function dateSections(u) {
    const parts = dateParts(u.el);
    if (!parts) return [];
    return Array.from(u.el.querySelectorAll("[role=spinbutton]")).map((el) => ({ part: datePart(el), el }))
      .filter((x) => parts[x.part] === x.el);
  }
  // A name for a date field that has none of its own: its first section's
  // name without the part's word ("month, Ship by" is "Ship by").
  function dateLabel(u) {
    const s = dateSections(u)[0];
    if (!s) return "";
    // Its own aria-label names the field ("month, Start Date, "); the
    // name it is labelled by starts with what it holds ("3").
    const own = (attr(s.el, "aria-label") || "").replace(/^(year|month|day)\b[\s,:]*/i, "").replace(/[\s,:]+$/, "");
    return norm(own || nameOf(s.el).replace(/^[\d\s]*(year|month|day)?\b[\s,:]*/i, ""));
  }
  // Whether el is a part of a calendar (a grid of days), or of the popup
  // around one, or the button that opens one beside a date in sections:
  // what the person clicks there picks a date, which the date field's own
  // step records; the clicks are not steps.
  function isCalendar(t) {
    const cells = t.querySelectorAll("[role=gridcell],td");
    if (cells.length < 28 || cells.length > 60) return false;
    let days = 0;
    for (const c of cells) if (/^\d{1,2}$/.test(norm(c.textContent))) days++;
    return days >= 28;
  }
  function inCalendar(el) {
    for (let a = el, i = 0; a && i < 10; a = up(a), i++) {
      if (a.nodeType !== 1) continue;
      if (a.matches("table,[role=grid]") && isCalendar(a)) return true;
      const cal = Array.from(a.querySelectorAll("table,[role=grid]")).find(isCalendar);
      if (cal) return !a.querySelector("input:not([type=hidden]),select,textarea,[role=spinbutton],[role=textbox]");
      if ((roleOf(a) === "group" || tag(a) === "fieldset") && dateParts(a)) return roleOf(el) === "button" || tag(el) === "button";
    }
    return false;
  }

  // ---- Dates picked in a calendar -----------------------------------------

  // Month names as a page may write them, folded: English's and the
  // page's own language's (Intl), long and short.
  let months = null;
  function monthNames() {
    const lang = (document.documentElement && document.documentElement.lang) || navigator.language || "en";
    if (months && months.lang === lang) return months.names;
    const names = new Map();
    for (const l of ["en", lang]) {
      for (const style of ["long", "short"]) {
        let f = null;
        try { f = new Intl.DateTimeFormat(l, { month: style, timeZone: "UTC" }); } catch (_) { continue; }
        for (let m = 0; m < 12; m++) {
          const w = fold(f.format(new Date(Date.UTC(2000, m, 1)))).replace(/\.$/, "");
          if (w && !/\d/.test(w) && !names.has(w)) names.set(w, m + 1);
        }
      }
    }
    if (!names.has("sept")) names.set("sept", 9);
    months = { lang, names };
    return names;
  }
  // y, m, d as ISO 8601, "" for a day that is no day of that month.
  function isoDay(y, m, d) {
    if (!(y >= 1 && y <= 9999 && m >= 1 && m <= 12 && d >= 1 && d <= 31)) return "";
    const t = new Date(Date.UTC(2000, m - 1, d));
    t.setUTCFullYear(y);
    if (t.getUTCMonth() !== m - 1 || t.getUTCDate() !== d) return "";
    return `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
  }
  // The one date a text writes, as ISO 8601, or "" when it writes none or
  // writes it so that its reading is not certain: an ISO date
  // ("2027-03-05"), a date with its month named ("March 5, 2027",
  // "Friday, 5 March 2027", "5. März 2027", words around it allowed), or
  // digits in an order that leaves no doubt ("2027/03/05", "05.03.2027",
  // "13/03/2027"; never "03/04/2027", nor a year in two digits).
  function dateIn(s) {
    s = norm(s);
    let m = /(?:^|[^\d])(\d{4})-(\d{1,2})-(\d{1,2})(?![\d])/.exec(s);
    if (m) return /\d{4}-\d{1,2}-\d{1,2}[\s\S]*\d{4}-\d{1,2}-\d{1,2}/.test(s) ? "" : isoDay(+m[1], +m[2], +m[3]);
    if ((m = /^(\d{4})[/.](\d{1,2})[/.](\d{1,2})$/.exec(s))) return isoDay(+m[1], +m[2], +m[3]);
    if ((m = /^(\d{1,2})\.\s?(\d{1,2})\.\s?(\d{4})$/.exec(s))) return isoDay(+m[3], +m[2], +m[1]);
    if ((m = /^(\d{1,2})[/-](\d{1,2})[/-](\d{4})$/.exec(s))) {
      const a = +m[1], b = +m[2];
      if (a > 12 && b <= 12) return isoDay(+m[3], b, a);
      if (b > 12 && a <= 12) return isoDay(+m[3], a, b);
      return a === b ? isoDay(+m[3], a, b) : "";
    }
    const names = monthNames();
    let month = 0, year = 0;
    const days = [];
    for (const w of fold(s).match(/\p{L}+|\d+/gu) || []) {
      if (/^\d+$/.test(w)) {
        if (w.length === 4) {
          if (year) return "";
          year = +w;
        } else if (w.length <= 2) days.push(+w);
        else return "";
        continue;
      }
      const k = names.get(w.replace(/\.$/, ""));
      if (!k) continue;
      if (month) return "";
      month = k;
    }
    return month && year && days.length === 1 ? isoDay(year, month, days[0]) : "";
  }
  // The two ends of a range a text writes ("March 5, 2027 – March 12,
  // 2027"; "March 5, 2027 –" while only its start is picked), each ISO,
  // or null when it writes no range whose ends all read as dates.
  function rangeIn(s) {
    const parts = norm(s).split(/\s+-(?:\s+|$)|\s*[–—~]\s*|\s+to(?:\s+|$)/i);
    if (parts.length !== 2) return null;
    const start = dateIn(parts[0]), end = parts[1] ? dateIn(parts[1]) : "";
    return start && (end || !parts[1]) ? { start, end } : null;
  }
  // What a picker's control shows of its date: its text, without what it
  // hides from assistive technology (an icon).
  function pickedText(el) {
    const t = shownText(el);
    return t.length <= 120 ? t : "";
  }
  function pickedOf(el, half) {
    const t = pickedText(el), r = rangeIn(t);
    if (r) return half === "start" ? r.start : half === "end" ? r.end : r.start + "/" + r.end;
    // A range that shows its start alone until its end is picked.
    return half === "end" ? "" : dateIn(t);
  }

  // The calendar under root: a grid of days (a table or role=grid) shown.
  function calendarIn(root) {
    if (!root || !root.querySelectorAll) return null;
    if (root.matches && root.matches("table,[role=grid]") && isCalendar(root)) return root;
    return Array.from(root.querySelectorAll("table,[role=grid]")).find((t) => visible(t) && isCalendar(t)) || null;
  }
  // The popup a picker's control opened that holds a calendar: the one it
  // names (aria-controls), or a dialog it labels, else null.
  const PICKER_POPUP = /^(dialog|grid|true)$/;
  function pickerPopup(el) {
    for (const id of ids(attr(el, "aria-controls"))) {
      const p = byId(el, id);
      if (p && visible(p) && calendarIn(p)) return p;
    }
    if (el.id && el.ownerDocument) {
      for (const d of el.ownerDocument.querySelectorAll(`[aria-labelledby~="${CSS.escape(el.id)}"]`)) {
        if (d !== el && visible(d) && calendarIn(d)) return d;
      }
    }
    return null;
  }
  // A date picked only in a calendar: a button that opens a popup (a
  // dialog, a grid) and shows the date picked, or a range of two, as its
  // text. Known as one while it shows a date, or while its popup shows a
  // calendar; an empty picker whose calendar is closed is only a button.
  function pickerUnit(el) {
    if (!PICKER_POPUP.test(attr(el, "aria-haspopup") || "")) return null;
    const popup = pickerPopup(el);
    const t = pickedText(el);
    if (!popup && !rangeIn(t) && !dateIn(t)) return null;
    return { kind: "date", how: "picker", el, role: roleOf(el), key: el, popup };
  }
  // The calendar a picker's control opened: its popup, or the only
  // calendar shown in its document.
  function calendarOf(u) {
    const p = pickerPopup(u.el);
    if (p) return p;
    const doc = u.el.ownerDocument;
    const cals = Array.from(doc.querySelectorAll("table,[role=grid]")).filter((t) => visible(t) && isCalendar(t));
    if (cals.length !== 1) return null;
    // Its popup: the calendar's nearest ancestor that holds its pagers.
    let c = cals[0];
    for (let a = up(c), i = 0; a && a !== doc.body && i < 6; a = up(a), i++) {
      c = a;
      if (attr(a, "role") === "dialog" || a.querySelector("button:not(table button):not([role=grid] button)")) break;
    }
    return c;
  }
  // The days a calendar shows: each clickable day with its date, read
  // from its own name (aria-label "10 December 2026"), a data attribute
  // or title that writes it; never from its place in the grid. outside
  // marks a day the calendar shows from a month next to its own.
  const DAY_ATTRS = ["aria-label", "data-date", "data-value", "data-day", "datetime", "title"];
  function calendarDays(root) {
    const out = [];
    for (const el of root.querySelectorAll("button,[role=button],[role=gridcell],td,[data-date],[data-value],[data-day]")) {
      let iso = "";
      for (const a of DAY_ATTRS) if (!iso && attr(el, a)) iso = dateIn(attr(el, a));
      if (!iso) continue;
      // The innermost element that names the day is the one clicked.
      if (out.length && contains(out[out.length - 1].el, el) && out[out.length - 1].iso === iso) out.pop();
      const outside = ["data-outside", "data-outside-month", "data-outside-visible-range"].some((a) => el.hasAttribute(a) && attr(el, a) !== "false") ||
        /(^|[-_\s])(outside|adjacent|other-month|not-current)([-_\s]|$)/i.test(typeof el.className === "string" ? el.className : "");
      const disabled = el.disabled || attr(el, "aria-disabled") === "true" || el.hasAttribute("data-disabled");
      out.push({ el, iso, outside, disabled });
    }
    // A month the calendar shows is one most of whose days it shows; a
    // day of another month is outside, whatever it says of itself.
    const count = new Map();
    for (const d of out) count.set(d.iso.slice(0, 7), (count.get(d.iso.slice(0, 7)) || 0) + 1);
    for (const d of out) if (count.get(d.iso.slice(0, 7)) < 20) d.outside = true;
    return out;
  }
  // The months a calendar shows, "YYYY-MM", in order.
  const shownMonths = (days) => Array.from(new Set(days.filter((d) => !d.outside).map((d) => d.iso.slice(0, 7)))).sort();
  // A calendar's button that pages to the next or previous month, by what
  // names it (its name, title, a direction or slot attribute, a class
  // word), never by where it is: null unless exactly one shown says so.
  function pagerOf(root, dir) {
    const want = dir === "next" ? /(^|[^a-z])(next|forward|later)([^a-z]|$)/i : /(^|[^a-z])(prev|previous|back|earlier)([^a-z]|$)/i;
    const year = /(^|[^a-z])(super|year|decade|fast)([^a-z]|$)/i;
    const days = new Set(calendarDays(root).map((d) => d.el));
    const hits = Array.from(root.querySelectorAll("button,[role=button]")).filter((b) => {
      if (days.has(b) || !visible(b) || b.disabled || attr(b, "aria-disabled") === "true") return false;
      const says = [attr(b, "aria-label"), attr(b, "title"), attr(b, "data-direction"), attr(b, "slot"), attr(b, "data-action"),
        typeof b.className === "string" ? b.className : "", text(b)].filter(Boolean);
      return says.some((x) => want.test(x)) && !says.some((x) => year.test(x));
    });
    return hits.length === 1 ? hits[0] : null;
  }

  // ---- Containers ---------------------------------------------------------

  const CONTAINER_ROLES = new Set(["group", "radiogroup", "region", "tabpanel", "list", "listbox", "dialog", "form", "grid", "table", "tree", "toolbar", "menu"]);

  // The nearest named container of a unit whose role and label another
  // visible unit on the page shares: what a selector's `in` names to tell
  // them apart. Null when the label is the page's only one of its role.
  function containerOf(u, label, role) {
    if (!label) return null;
    const cache = new Map();
    let same = 0;
    for (const o of unitsIn(roots(document, true), cache)) {
      const r = o.kind === "action" ? roleOf(o.el) : o.role;
      if (r === role && unitVisible(o) && sameLabel(labelOf(o), label) && ++same > 1) break;
    }
    if (same < 2) return null;
    for (let n = up(u.el); n; n = up(n)) {
      const r = roleOf(n);
      if (!CONTAINER_ROLES.has(r)) continue;
      const name = nameOf(n);
      if (name) return { role: r, name: name.slice(0, 200) };
    }
    return null;
  }
  const sameLabel = (a, b) => norm(a) === norm(b);

  // ---- Selectors ----------------------------------------------------------

  const GENERATED = [/^[a-f0-9-]{16,}$/i, /\d{4,}/, /^(ember|react|mui|ng|headlessui|radix|rc|yui)[-_]?\d*/i, /^:r[0-9a-z]+:$/, /[-_][a-z0-9]{8,}$/i];
  const looksGenerated = (s) => GENERATED.some((re) => re.test(s));

  function xpathOf(el) {
    const parts = [];
    for (let n = el; n && n.nodeType === 1; n = n.parentNode) {
      let i = 1;
      for (let s = n.previousElementSibling; s; s = s.previousElementSibling) if (s.tagName === n.tagName) i++;
      parts.unshift(`${n.tagName.toLowerCase()}[${i}]`);
    }
    return "/" + parts.join("/");
  }

  // A unit's selectors, most stable first: id > name > label > role+text >
  // xpath. Ids and names that look generated are left out. A radio set
  // without a container is found by its name (and its caption); a choice's
  // role+text names the group's role.
  function selectorsOf(u, label) {
    const el = u.el, out = [];
    const radioSetOnly = u.how === "radio" && !u.container;
    if (el.id && !radioSetOnly && !looksGenerated(el.id)) out.push({ strategy: "id", value: "#" + CSS.escape(el.id) });
    const name = u.how === "radio" ? u.name : attr(el, "name");
    if (name && !looksGenerated(name)) out.push({ strategy: "name", value: name });
    if (label) out.push({ strategy: "label", value: label });
    const role = u.kind === "choice" || u.kind === "date" ? u.role : roleOf(el);
    if (role && label) out.push({ strategy: "role+text", value: `${role}[name='${label.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}']` });
    out.push({ strategy: "xpath", value: xpathOf(el) });
    return out;
  }

  return {
    norm, text, fold, same, shown, tag, attr, typeOf, up, closest, contains, byId, visible, deepActive, roots,
    roleOf, namesOf, nameOf, isControl, controlOf, isSecret, TEXT_TYPES,
    unitOf, unitFor, labelOf, opener, unitVisible, unitContains, popupOf, openerOf,
    optionsOf, chosenOf, shownText, toggled, stateOf, atDefault, textValue,
    isMulti, chosenSet, chipsOf, chipOwner, mirror, dateOf, dateSections, inCalendar,
    dateIn, rangeIn, calendarOf, calendarDays, shownMonths, pagerOf,
    unitsIn, formOf, unitsOfForm, inventory, settable, looksGenerated, xpathOf, selectorsOf, containerOf,
  };
})();
