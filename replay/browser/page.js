// The page side of the browser executor: one function, called as
// (lib)(op, args) in a single Runtime.evaluate, so a step costs one round
// trip to find its element and one or two to act on it. The element a step
// acts on is kept in window.__repriseTarget between calls. Nothing here
// returns a field's value to Go: read-backs compare in the page and answer
// with a boolean.
(op, a) => {
  const norm = (s) => (s || "").replace(/\s+/g, " ").trim();
  const same = (x, y) => norm(x).replace(/:$/, "").trim().toLowerCase() === norm(y).replace(/:$/, "").trim().toLowerCase();
  // The same text as the recorder (extension/content.js): innerText, cut to 120.
  const text = (el) => norm(el && (el.innerText || el.textContent)).slice(0, 120);
  const sameName = (got, want) => same(got, want) || (norm(want).length >= 120 && same(norm(got).slice(0, 120), want));

  // Every root the recorder may have recorded in: the document, open shadow
  // roots and same-origin frames that are themselves visible.
  function roots() {
    const out = [];
    const walk = (root) => {
      out.push(root);
      for (const el of root.querySelectorAll("*")) {
        if (el.shadowRoot) walk(el.shadowRoot);
        if ((el.tagName === "IFRAME" || el.tagName === "FRAME") && visible(el)) {
          let doc = null;
          try { doc = el.contentDocument; } catch (_) { /* cross-origin */ }
          if (doc && doc.documentElement) walk(doc);
        }
      }
    };
    walk(document);
    return out;
  }
  const all = (rs) => rs.flatMap((r) => Array.from(r.querySelectorAll("*")));

  function visible(el) {
    if (!el.isConnected) return false;
    if (el.checkVisibility && !el.checkVisibility({ visibilityProperty: true })) return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  }

  function roleOf(el) {
    const r = el.getAttribute("role");
    if (r) return r;
    const tag = el.tagName.toLowerCase();
    const type = (el.getAttribute("type") || "").toLowerCase();
    if (tag === "select") return "combobox";
    if (tag === "textarea") return "textbox";
    if (tag === "a") return "link";
    if (tag === "button") return "button";
    if (tag === "form") return "form";
    if (tag === "input") {
      if (["checkbox", "radio"].includes(type)) return type;
      if (["submit", "button", "reset", "image"].includes(type)) return "button";
      return "textbox";
    }
    return tag;
  }

  // Every text that labels el, most specific first; a label matches when any
  // of them does, so a page that adds an aria-label to a labelled field
  // still matches its old label.
  function labelsOf(el) {
    const out = [];
    const root = el.getRootNode();
    const byId = (id) => (root.getElementById ? root.getElementById(id) : null) || el.ownerDocument.getElementById(id);
    const by = el.getAttribute("aria-labelledby");
    if (by) out.push(by.split(/\s+/).map((id) => text(byId(id))).join(" "));
    const aria = el.getAttribute("aria-label");
    if (aria) out.push(aria);
    if (el.labels) for (const l of el.labels) out.push(labelText(l));
    else if (el.id && root.querySelectorAll) {
      for (const l of root.querySelectorAll(`label[for="${CSS.escape(el.id)}"]`)) out.push(labelText(l));
    }
    const wrap = el.parentElement && el.parentElement.closest("label");
    if (wrap) out.push(labelText(wrap));
    for (const at of ["placeholder", "title"]) if (el.getAttribute(at)) out.push(el.getAttribute(at));
    return out.map(norm).filter(Boolean);
  }
  function labelText(l) {
    const clone = l.cloneNode(true);
    clone.querySelectorAll("input,select,textarea").forEach((n) => n.remove());
    return text(clone) || text(l);
  }
  // A button or link is named by its text when nothing labels it, as the
  // recorder names it.
  function nameOf(el) {
    const ls = labelsOf(el);
    if (ls.length || !["button", "link"].includes(roleOf(el))) return ls;
    const own = text(el) || (el.tagName === "INPUT" ? el.value : "") || "";
    return own ? [own] : [];
  }

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

  function candidates(rs, s) {
    const v = s.value || "";
    switch (s.strategy) {
      case "id": {
        const got = css(rs, v.startsWith("#") ? v : "#" + CSS.escape(v));
        if (got) return got;
        const id = v.replace(/^#/, "");
        return all(rs).filter((el) => el.id === id);
      }
      case "name": {
        if (v.startsWith("[")) return css(rs, v) || [];
        return all(rs).filter((el) => el.getAttribute("name") === v);
      }
      case "label":
        return all(rs).filter((el) => el.tagName !== "LABEL" && nameOf(el).some((l) => sameName(l, v)));
      case "role+text": {
        const m = /^([\w-]+)\[name=(['"])([\s\S]*)\2\]$/.exec(v);
        if (!m) return [];
        const role = m[1], want = m[3].replace(/\\(['"\\])/g, "$1");
        return all(rs).filter((el) => roleOf(el) === role && (nameOf(el).some((l) => sameName(l, want)) || sameName(text(el), want)));
      }
      case "xpath":
        return xpath(rs, v);
      case "css":
        return css(rs, v) || [];
    }
    return [];
  }

  function find(sels) {
    window.__repriseTarget = null;
    if (document.readyState !== "complete") return { ready: false, counts: [], hit: -1 };
    const rs = roots();
    const counts = [];
    for (const s of sels) {
      const seen = new Set(candidates(rs, s).filter((el) => el.nodeType === 1 && visible(el)));
      counts.push(seen.size);
      if (seen.size === 1) {
        const el = seen.values().next().value;
        window.__repriseTarget = el;
        return { ready: true, counts, hit: counts.length - 1, ...describe(el) };
      }
    }
    return { ready: true, counts, hit: -1 };
  }
  function describe(el) {
    return {
      tag: el.tagName.toLowerCase(),
      type: (el.getAttribute("type") || "").toLowerCase(),
      editable: !!el.isContentEditable,
    };
  }

  const target = () => {
    const el = window.__repriseTarget;
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
  const deepActive = (doc) => {
    let a = doc.activeElement;
    while (a) {
      if (a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
      else if (a.contentDocument && a.contentDocument.activeElement) a = a.contentDocument.activeElement;
      else break;
    }
    return a;
  };

  // The point to click in the top page's coordinates, and whether a click
  // there lands on the element (or its label) rather than on an overlay.
  function point(el) {
    el.scrollIntoView({ block: "center", inline: "center" });
    const r = el.getBoundingClientRect();
    let x = r.left + r.width / 2, y = r.top + r.height / 2;
    const hit = el.getRootNode().elementFromPoint(x, y);
    const lands = !!hit && (hit === el || el.contains(hit) || (hit.closest && hit.closest("label") && hit.closest("label").control === el));
    for (let w = el.ownerDocument.defaultView; w && w.frameElement; w = w.parent) {
      const f = w.frameElement, fr = f.getBoundingClientRect(), cs = getComputedStyle(f);
      x += fr.left + f.clientLeft + parseFloat(cs.paddingLeft);
      y += fr.top + f.clientTop + parseFloat(cs.paddingTop);
    }
    return { x, y, lands, checked: "checked" in el ? !!el.checked : null };
  }

  function readBack(el, kind, want) {
    switch (kind) {
      case "value": return (el.isContentEditable ? el.innerText : el.value) === want;
      case "selected": {
        const o = el.selectedOptions && el.selectedOptions[0];
        return !!o && (norm(o.text) === norm(want) || o.value === want);
      }
      case "checked": return String(!!el.checked) === want;
    }
    throw new Error("unknown read-back kind");
  }

  function deepText() {
    let t = "";
    for (const r of roots()) {
      if (r.nodeType === 9) t += " " + (r.body ? r.body.innerText : "");
      else for (const c of r.children) t += " " + (c.innerText || "");
    }
    return norm(t);
  }
  function cond(kind, v, before) {
    switch (kind) {
      case "url_changed": return location.href !== before;
      case "url_contains": return location.href.includes(v);
      case "text": return document.readyState !== "loading" && deepText().includes(norm(v));
      case "element": return (css(roots(), v) || []).length > 0;
    }
    throw new Error("unknown condition kind");
  }

  // What the page says about a refused submit: an alert, a live region, an
  // element styled as an error, or the browser's own validation message.
  function message() {
    const rs = roots();
    const els = css(rs, '[role=alert], [aria-live]:not([aria-live=off]), [class*=error i], [class*=invalid i], [class*=alert i]') || [];
    for (const el of els) if (visible(el) && text(el)) return text(el).slice(0, 200);
    for (const f of css(rs, "form") || []) {
      const bad = f.querySelector(":invalid:not(form):not(fieldset)");
      if (bad && bad.validationMessage) return norm(bad.validationMessage).slice(0, 200);
    }
    return "";
  }

  switch (op) {
    case "find": return find(a.selectors);
    case "focus": {
      // Focus and select the current text, so typing replaces it as a
      // person's select-all-and-type would.
      const el = target();
      el.focus();
      if (el.isContentEditable) {
        const sel = el.ownerDocument.getSelection(), rng = el.ownerDocument.createRange();
        rng.selectNodeContents(el); sel.removeAllRanges(); sel.addRange(rng);
      } else if (el.select) el.select();
      return { focused: deepActive(document) === el, empty: el.isContentEditable ? !el.innerText : !el.value };
    }
    case "blur": target().blur(); return true;
    case "set": { const el = target(); el.focus(); setValue(el, a.value); el.blur(); return true; }
    case "select": {
      const el = target();
      if (el.tagName !== "SELECT") return "the element is not a drop-down list";
      const opts = Array.from(el.options);
      const o = opts.find((o) => norm(o.text) === norm(a.value)) || opts.find((o) => o.value === a.value);
      if (!o) return "no option of the list has that text or value";
      if (o.disabled) return "the option is disabled";
      el.focus();
      if (!o.selected) {
        o.selected = true;
        el.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
        el.dispatchEvent(new Event("change", { bubbles: true }));
      }
      el.blur();
      return "";
    }
    case "point": return point(target());
    case "click": target().click(); return true;
    case "checked": return !!target().checked;
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
      const el = window.__repriseTarget;
      if (!el || !el.isConnected) return "stale";
      return readBack(el, a.kind, a.expect) ? "held" : "failed";
    }
    case "cond": return cond(a.kind, a.value, a.before);
    case "message": return message();
    case "settle": return new Promise((r) => setTimeout(() => r(true), 0));
  }
  throw new Error("unknown op " + op);
}
