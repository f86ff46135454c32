// --- reprise export prelude: reads the CSV and maps each row's cells as
// reprise does (skills/cells.Map): a mapped cell, a date read as its
// column writes dates and written in the field's format, a yes/no word for a box, an option matched by its
// label or value ignoring case, accents and spacing. A row that does not
// fit throws, naming the row and the column, never the cell.
const fs = require("node:fs");

function parseCSV(text) {
  const rows = [];
  let row = [], cell = "", quoted = false;
  text = text.replace(/^\uFEFF/, "");
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { cell += '"'; i++; }
      else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") { row.push(cell); cell = ""; }
    else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      row.push(cell); rows.push(row); row = []; cell = "";
    } else cell += c;
  }
  if (cell !== "" || row.length) { row.push(cell); rows.push(row); }
  return rows.filter((r) => r.some((c) => c.trim() !== ""));
}

const fold = (s) => s.normalize("NFD").replace(/\p{Mn}/gu, "").toLowerCase().split(/\s+/).filter(Boolean).join(" ").replace(/[:*]+$/, "").trim();
const TRUE = new Set(["yes", "y", "true", "1", "x", "checked", "on"]);
const FALSE = new Set(["no", "n", "false", "0", "", "unchecked", "off"]);
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

function formatDate(cell, format) {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:T\d{2}:\d{2}(?::\d{2})?)?$/.exec(cell);
  if (!m) return null;
  const [y, mo, d] = [m[1], +m[2], +m[3]];
  const tokens = { YYYY: y, MMMM: MONTHS[mo - 1], MMM: MONTHS[mo - 1].slice(0, 3), YY: y.slice(2), MM: String(mo).padStart(2, "0"), DD: String(d).padStart(2, "0"), M: String(mo), D: String(d) };
  return format.replace(/YYYY|MMMM|MMM|YY|MM|DD|M|D/g, (t) => tokens[t]);
}

// isoDate reads a cell the way its column writes dates (skills.ISODate):
// zeros in front of a day or a month may be there or not, and month names
// may be in any case. It returns YYYY-MM-DD, or null.
function isoDate(cell, written) {
  const group = { YYYY: "(\\d{4})", MMMM: "([A-Za-z]+)", MMM: "([A-Za-z]{3})", YY: "(\\d{2})", MM: "(\\d{1,2})", DD: "(\\d{1,2})", M: "(\\d{1,2})", D: "(\\d{1,2})" };
  const tokens = [];
  let re = "^";
  for (let rest = written; rest; ) {
    const t = Object.keys(group).find((k) => rest.startsWith(k));
    if (t) { tokens.push(t); re += group[t]; rest = rest.slice(t.length); }
    else { re += rest[0].replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); rest = rest.slice(1); }
  }
  const m = new RegExp(re + "$").exec(cell.trim());
  if (!m) return null;
  let y = 0, mo = 0, d = 0;
  tokens.forEach((t, i) => {
    const v = m[i + 1];
    if (t === "YYYY") y = +v;
    else if (t === "YY") y = +v + (+v >= 69 ? 1900 : 2000);
    else if (t === "MMMM" || t === "MMM") mo = MONTHS.findIndex((n) => (t === "MMM" ? n.slice(0, 3) : n).toLowerCase() === v.toLowerCase()) + 1;
    else if (t === "MM" || t === "M") mo = +v;
    else d = +v;
  });
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (!y || !mo || !d || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return null;
  return String(y).padStart(4, "0") + "-" + String(mo).padStart(2, "0") + "-" + String(d).padStart(2, "0");
}

function matchOption(text, options) {
  if (text === "") return null;
  for (const o of options) if (o.label === text) return o;
  for (const o of options) if (o.value === text) return o;
  const f = fold(text);
  if (!f) return null;
  let hit = null;
  for (const o of options) {
    if (fold(o.label || "") === f || (o.value && fold(o.value) === f)) {
      if (hit && hit.label !== o.label) return null;
      hit = o;
    }
  }
  return hit;
}

function mapCell(p, cell) {
  cell = cell.trim();
  if (p.mapping && Object.prototype.hasOwnProperty.call(p.mapping, cell)) return p.mapping[cell];
  if (p.mapping) for (const [k, v] of Object.entries(p.mapping)) if (fold(k) === fold(cell)) return v;
  if (p.written && cell !== "") {
    const iso = isoDate(cell, p.written);
    if (iso === null) throw new Error("is not a date written " + p.written);
    cell = iso;
  }
  if (p.format && cell !== "") {
    const v = formatDate(cell, p.format);
    if (v === null) throw new Error("is not a date written YYYY-MM-DD");
    if (!p.options.length) return v;
    const o = matchOption(v, p.options);
    if (!o) throw new Error("matches none of the field's options");
    return o.label || o.value;
  }
  if (p.type === "boolean") {
    const w = fold(cell);
    if (TRUE.has(w)) return "true";
    if (FALSE.has(w)) return "false";
    throw new Error("is not yes/no, true/false, 1/0, y/n, x/empty or checked/unchecked");
  }
  if (cell === "") {
    if (p.optional) return "";
    throw new Error("is empty");
  }
  if (p.type !== "enum" || !p.options.length) return cell;
  const o = matchOption(cell, p.options);
  if (!o) throw new Error("matches none of the field's options");
  return o.label || o.value;
}

// readRows returns each data row as { n, values }, values by parameter.
function readRows(file) {
  const [header, ...records] = parseCSV(fs.readFileSync(file, "utf8"));
  const at = new Map(header.map((h, i) => [h.trim(), i]));
  for (const p of PARAMETERS) if (!at.has(p.column)) throw new Error(`${file}: no column "${p.column}" (parameter ${p.name})`);
  return records.map((cells, i) => {
    const values = {};
    for (const p of PARAMETERS) {
      try { values[p.name] = mapCell(p, cells[at.get(p.column)] || ""); }
      catch (e) { throw new Error(`${file}: row ${i + 1}: column "${p.column}" ${e.message}`); }
    }
    return { n: i + 1, values };
  });
}

// fillIn writes a row's values into a skill value: %name% is a parameter,
// %% a percent sign.
function fillIn(template, values) {
  return template.replace(/%%|%([a-z][a-z0-9_]*)%/g, (all, name) => {
    if (all === "%%") return "%";
    if (values[name] === undefined) throw new Error(`no value for %${name}%: reprise asks a person for it, this script cannot`);
    return values[name];
  });
}
// --- end of the reprise prelude
