// reprise content script: turns what the person does in this page into
// semantic steps (fill, select, click, submit, navigate, upload) and hands
// them to the service worker. Committed values only, never keystrokes; no
// value at all for password and one-time-code fields.
(() => {
  if (window.__reprise) return;
  window.__reprise = true;

  const GENERATED = [/^[a-f0-9-]{16,}$/i, /\d{4,}/, /^(ember|react|mui|ng|headlessui|radix|rc|yui)[-_]?\d*/i, /^:r[0-9a-z]+:$/, /[-_][a-z0-9]{8,}$/i];
  const looksGenerated = (s) => GENERATED.some((re) => re.test(s));
  const text = (el) => (el && (el.innerText || el.textContent) || "").replace(/\s+/g, " ").trim().slice(0, 120);

  function labelOf(el) {
    const by = el.getAttribute && el.getAttribute("aria-labelledby");
    if (by) {
      const t = by.split(/\s+/).map((id) => text(el.getRootNode().getElementById?.(id) || document.getElementById(id))).join(" ").trim();
      if (t) return t;
    }
    const aria = el.getAttribute && el.getAttribute("aria-label");
    if (aria) return aria.trim();
    if (el.id) {
      const root = el.getRootNode();
      const l = (root.querySelector ? root : document).querySelector(`label[for="${CSS.escape(el.id)}"]`);
      if (l) return text(l);
    }
    const wrap = el.closest && el.closest("label");
    if (wrap) {
      const clone = wrap.cloneNode(true);
      clone.querySelectorAll("input,select,textarea").forEach((n) => n.remove());
      const t = text(clone);
      if (t) return t;
    }
    return (el.getAttribute && (el.getAttribute("placeholder") || el.getAttribute("title"))) || "";
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

  function xpathOf(el) {
    const parts = [];
    for (let n = el; n && n.nodeType === 1; n = n.parentNode) {
      let i = 1;
      for (let s = n.previousElementSibling; s; s = s.previousElementSibling) if (s.tagName === n.tagName) i++;
      parts.unshift(`${n.tagName.toLowerCase()}[${i}]`);
    }
    return "/" + parts.join("/");
  }

  // Most stable first: id > name > label > role+text > xpath.
  function selectorsOf(el, label) {
    const out = [];
    if (el.id && !looksGenerated(el.id)) out.push({ strategy: "id", value: "#" + CSS.escape(el.id) });
    const name = el.getAttribute("name");
    if (name && !looksGenerated(name)) out.push({ strategy: "name", value: name });
    if (label) out.push({ strategy: "label", value: label });
    const role = roleOf(el);
    const t = label || text(el);
    if (role && t) out.push({ strategy: "role+text", value: `${role}[name='${t.replace(/'/g, "\\'")}']` });
    out.push({ strategy: "xpath", value: xpathOf(el) });
    return out;
  }

  function isSecret(el) {
    const type = (el.getAttribute("type") || "").toLowerCase();
    const ac = (el.getAttribute("autocomplete") || "").toLowerCase();
    return type === "password" || ac.includes("one-time-code") || ac.includes("password");
  }

  function valueOf(el) {
    if (isSecret(el)) return { raw: "", type: "secret", is_parameter: null };
    const tag = el.tagName.toLowerCase();
    const type = (el.getAttribute("type") || "").toLowerCase();
    if (tag === "select") return { raw: Array.from(el.selectedOptions).map((o) => o.text.trim()).join(", "), type: "enum", is_parameter: null };
    if (type === "file") return { raw: Array.from(el.files || []).map((f) => `${f.name} (${f.size} bytes)`).join(", "), type: "file", is_parameter: null };
    if (type === "checkbox") return { raw: el.checked ? "checked" : "unchecked", type: "enum", is_parameter: null };
    if (type === "radio") return { raw: el.value, type: "enum", is_parameter: null };
    const kind = { email: "email", number: "number", date: "date", "datetime-local": "date", month: "date" }[type] || "text";
    return { raw: el.value, type: kind, is_parameter: null };
  }

  // Each pointerdown and focus asks the service worker for a pre-action
  // frame, named by an id. A fill names the frame from when its field got
  // focus (its value commits only when the person leaves it); any other step
  // names the newest one.
  const target = (e) => (e.composedPath && e.composedPath()[0]) || e.target;
  let cursor = [0, 0];
  let latestFrame = "";
  let latestAt = 0;
  const focusFrames = new WeakMap();
  function pre() {
    latestFrame = crypto.randomUUID();
    latestAt = performance.now();
    chrome.runtime.sendMessage({ type: "pre", id: latestFrame }).catch(() => {});
  }
  addEventListener("pointerdown", (e) => {
    cursor = [Math.round(e.clientX), Math.round(e.clientY)];
    pre();
  }, true);
  addEventListener("focusin", (e) => {
    if (performance.now() - latestAt > 100) pre(); // a click's focus shares its frame
    focusFrames.set(target(e), latestFrame);
  }, true);

  // A button or link is named by its text when nothing labels it.
  function nameOf(el) {
    const l = labelOf(el);
    if (l) return l;
    return ["button", "link"].includes(roleOf(el)) ? (text(el) || el.value || "") : "";
  }

  function send(action, el, value) {
    const label = el ? nameOf(el) : "";
    const step = {
      seq: 0, ts: Date.now() / 1000, actor: "human", action, screenshot_ref: "",
      cursor, active_app: "Chromium", active_window: document.title,
      enrichment: el
        ? { kind: "dom", selectors: selectorsOf(el, label), ax_path: null, role: roleOf(el), label, url: location.href }
        : { kind: "dom", selectors: [], ax_path: null, role: "", label: "", url: location.href },
      value: value || null, narration: null, outcome: "ok", redacted: !!(value && value.type === "secret"),
    };
    const frame = action === "navigate" ? "" : (action === "fill" && focusFrames.get(el)) || latestFrame;
    chrome.runtime.sendMessage({ type: "step", id: crypto.randomUUID(), origin: location.origin, step, frame }).catch(() => {});
  }

  addEventListener("change", (e) => {
    const el = target(e);
    if (!el || !el.tagName) return;
    const tag = el.tagName.toLowerCase();
    const type = (el.getAttribute("type") || "").toLowerCase();
    if (tag === "select") send("select", el, valueOf(el));
    else if (type === "file") send("upload", el, valueOf(el));
    else if (type === "checkbox" || type === "radio") send("click", el, valueOf(el));
    else if (tag === "input" || tag === "textarea") send("fill", el, valueOf(el));
  }, true);

  addEventListener("click", (e) => {
    let el = target(e);
    el = el && el.closest ? el.closest("button, a[href], input[type=submit], input[type=button], [role=button], [role=link]") : null;
    if (el) send("click", el, null);
  }, true);

  addEventListener("submit", (e) => send("submit", target(e), null), true);

  // Navigations: the page load, and single-page-app route changes.
  if (window === window.top) {
    let last = location.href;
    const navigated = () => {
      if (location.href === last) return;
      last = location.href;
      send("navigate", null, { raw: location.href, type: "text", is_parameter: null });
    };
    addEventListener("DOMContentLoaded", () => send("navigate", null, { raw: location.href, type: "text", is_parameter: null }));
    addEventListener("popstate", navigated);
    addEventListener("hashchange", navigated);
    // history.pushState fires no DOM event; the Navigation API reports it,
    // and a poll covers browsers without that API.
    if (window.navigation) navigation.addEventListener("currententrychange", navigated);
    setInterval(navigated, 250);
  }
})();
