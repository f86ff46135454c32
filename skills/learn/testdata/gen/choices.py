#!/usr/bin/env python3
"""Writes the schema 1.1 generalization cases (choices, columns, success).

The recordings are what the extension records on a "new customer" form
with a radio group, a select whose values differ from its labels, an ARIA
checkbox, an autocomplete, an optional textarea and a save in place.
Run from skills/learn/testdata/gen: python3 choices.py
"""
import json, os

URL = "https://crm.example.test/customers/new"
OUT = "../generalize"

def sel(*pairs):
    return [{"strategy": s, "value": v} for s, v in pairs]

def step(seq, action, role="", label="", sels=None, value=None, vtype="text", options=None, **extra):
    s = {"seq": seq, "ts": 1712346600.0 + seq, "actor": "human", "action": action,
         "screenshot_ref": "stub_%04d" % seq, "cursor": [400, 100 + 30 * seq],
         "active_app": "Chromium", "active_window": "New customer - Example CRM",
         "enrichment": {"kind": "dom", "selectors": sels or [], "ax_path": None, "role": role,
                        "label": label, "url": URL},
         "value": None if value is None else {"raw": value, "type": vtype, "is_parameter": None},
         "narration": None, "outcome": "ok", "redacted": False}
    if options:
        s["enrichment"]["options"] = options
    s.update(extra)
    return s

PLANS = [{"label": "Basic", "value": "basic"}, {"label": "Pro", "value": "pro"}, {"label": "Enterprise", "value": "ent"}]
COUNTRIES = [{"label": "Canada", "value": "CA"}, {"label": "Côte d'Ivoire", "value": "CI"}, {"label": "France", "value": "FR"}]
FIELDS = [
    {"label": "First Name", "role": "textbox", "type": "text", "name": "first_name", "required": True},
    {"label": "Middle name", "role": "textbox", "type": "text", "name": "middle_name"},
    {"label": "Fax", "role": "textbox", "type": "tel", "name": "fax"},
    {"label": "Plan", "role": "radiogroup", "name": "plan", "options": PLANS},
    {"label": "Country", "role": "combobox", "name": "country", "options": COUNTRIES},
    {"label": "Newsletter", "role": "checkbox"},
    {"label": "State", "role": "combobox"},
    {"label": "Notes", "role": "textbox", "type": "textarea", "name": "notes"},
]

def recording(n, first, plan, country, news, state, notes, effect):
    steps = [
        step(1, "navigate", value=URL),
        step(2, "fill", "textbox", "First Name", sel(("name", "first_name"), ("label", "First Name")), first),
        step(3, "select", "radiogroup", "Plan", sel(("name", "plan"), ("label", "Plan"), ("role+text", "radiogroup[name='Plan']")), plan, "enum", PLANS),
        step(4, "select", "combobox", "Country", sel(("id", "#country"), ("name", "country"), ("label", "Country")), country, "enum", COUNTRIES),
        step(5, "click", "checkbox", "Newsletter", sel(("label", "Newsletter"), ("role+text", "checkbox[name='Newsletter']")), news, "enum"),
        step(6, "select", "combobox", "State", sel(("label", "State"), ("role+text", "combobox[name='State']")), state, "enum"),
        step(7, "fill", "textbox", "Notes", sel(("name", "notes"), ("label", "Notes")), notes),
        step(8, "click", "button", "Save", sel(("role+text", "button[name='Save']")), effect=effect, fields=FIELDS),
    ]
    return {"recording_id": "rec_00000000-0000-4000-8000-00000000000%d" % n, "version": "1.1",
            "created_at": 1712346000, "machine_id": "m_test0001",
            "interpretation_route": "extract_then_cloud", "steps": steps, "redaction_applied": True}

def saved(first, millis):
    return {"texts": ["Customer created", "Welcome " + first], "form_reset": True, "status": 201, "millis": millis}

def write(case, recs, sample=None, confirm=None):
    d = os.path.join(OUT, case)
    os.makedirs(d, exist_ok=True)
    for i, r in enumerate(recs, 1):
        with open(os.path.join(d, "rec%d.json" % i), "w") as f:
            json.dump(r, f, indent=1, ensure_ascii=False)
            f.write("\n")
    if sample:
        with open(os.path.join(d, "sample.csv"), "w") as f:
            f.write(sample)
    if confirm:
        with open(os.path.join(d, "confirm.txt"), "w") as f:
            f.write(confirm)

ada = recording(1, "Ada", "Pro", "France", "checked", "Nevada", "Prefers email", saved("Ada", 1400))
bob = recording(2, "Robert", "Basic", "Côte d'Ivoire", "unchecked", "Ohio", "", saved("Robert", 2100))
SAMPLE = """given_name,Plan,Country code,Newsletter,US state,remarks,internal_note,middle
Ada,pro,FR,yes,Nevada,Prefers email,vip,
Robert,basic,CI,no,Ohio,,,Lee
Cleo,gold,ca,oui,Utah,"Call, then write",,
"""
# Choices differ between the demonstrations: every choice is a parameter;
# cells are mapped onto options (gold and oui are asked); an empty Notes in
# one demonstration makes it optional; the unused columns and the untouched
# per-row field are asked; success is taken from the effects.
write("choices_differ", [ada, bob], SAMPLE)
write("choices_differ_answered", [ada, bob], SAMPLE, """plan/gold=Enterprise
newsletter/oui=yes
column:internal_note=ignore
column:middle=Middle name
field:Fax=ignore
""")

# The same plan and newsletter in both demonstrations, and a CSV column for
# each: a question, never a constant.
ada2 = recording(1, "Ada", "Pro", "France", "checked", "Nevada", "Prefers email", saved("Ada", 900))
bob2 = recording(2, "Robert", "Pro", "Canada", "checked", "Ohio", "Call first", saved("Robert", 800))
SAME = """given_name,Plan,Country,Newsletter,State,Notes
Ada,Pro,France,yes,Nevada,Prefers email
Robert,Pro,Canada,yes,Ohio,Call first
Cleo,Basic,France,no,Utah,none
"""
write("choices_same_with_column", [ada2, bob2], SAME, "field:Fax=ignore\nfield:Middle name=ignore\n")
# Answering const while the sample contradicts it is refused: the check would
# pass on the constant while the site holds something else than the CSV.
write("choices_same_const_refused", [ada2, bob2], SAME, "plan=const\nnewsletter=Newsletter\nfield:Fax=ignore\nfield:Middle name=ignore\n")
# With the column ignored, const is the person's to give.
write("choices_same_const_ignored", [ada2, bob2], SAME, "plan=const\ncolumn:Plan=ignore\nnewsletter=Newsletter\nfield:Fax=ignore\nfield:Middle name=ignore\n")

# Nothing in common after the save: the person says what success is.
odd1 = recording(1, "Ada", "Pro", "France", "checked", "Nevada", "x1", {"texts": ["Saved #17"], "millis": 300})
odd2 = recording(2, "Robert", "Basic", "Canada", "unchecked", "Ohio", "x2", {"texts": ["Thanks!"], "millis": 200})
write("success_asked", [odd1, odd2])

# A save by redirect to the record's page, which shows what was filed.
def redirect(first, plan, rid):
    return {"url": "https://crm.example.test/customers/records/%d" % rid,
            "texts": ["Customer " + first, "Plan: " + plan], "status": 200, "millis": 650}
red1 = recording(1, "Adaline", "Pro", "France", "checked", "Nevada", "n1", redirect("Adaline", "Pro", 17))
red2 = recording(2, "Robert", "Basic", "Canada", "unchecked", "Ohio", "n2", redirect("Robert", "Basic", 18))
write("success_redirect", [red1, red2], confirm="field:Fax=ignore\nfield:Middle name=ignore\n")

# The second person left Plan at the page's default and Notes empty: no
# step, but the form listed both. Each is a parameter, not a one-off.
def drop(rec, seqs):
    r = json.loads(json.dumps(rec))
    r["steps"] = [s for s in r["steps"] if s["seq"] not in seqs]
    return r
write("left_alone_in_one", [ada, drop(bob, {3, 7})], SAMPLE, """plan/gold=Enterprise
newsletter/oui=yes
column:internal_note=ignore
column:middle=ignore
field:Fax=ignore
field:Middle name=ignore
""")

# Columns named unlike their fields: the box and the choice are joined
# through the rows the recordings demonstrated (found by their names), not
# by label; yes/no words alone could be any yes/no column.
ROWS = """given_name,tier_code,Country code,opt_in,vip,US state,remarks
Ada,pro,FR,y,n,Nevada,Prefers email
Robert,basic,CI,n,n,Ohio,
Cleo,basic,ca,y,y,Utah,"Call, then write"
"""
write("join_by_demo_rows", [ada, bob], ROWS, "column:vip=ignore\nfield:Fax=ignore\nfield:Middle name=ignore\n")

# A date three ways, from one ISO column: a native date input (as is), a
# masked text field (MM/DD/YYYY) and three selects (D, MMMM, YYYY).
DAYS = [{"label": str(d)} for d in range(1, 32)]
MONTHS = [{"label": m, "value": str(i + 1)} for i, m in enumerate(
    ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"])]
YEARS = [{"label": str(y)} for y in range(1940, 2011)]
def dated(n, first, iso, masked, day, month, year):
    steps = [
        step(1, "navigate", value=URL),
        step(2, "fill", "textbox", "First Name", sel(("name", "first_name"), ("label", "First Name")), first),
        step(3, "fill", "textbox", "Start date", sel(("name", "start"), ("label", "Start date")), iso, "date"),
        step(4, "fill", "textbox", "Renewal (MM/DD/YYYY)", sel(("name", "renewal"), ("label", "Renewal (MM/DD/YYYY)")), masked),
        step(5, "select", "combobox", "Day", sel(("name", "dob_day"), ("label", "Day")), day, "enum", DAYS),
        step(6, "select", "combobox", "Month", sel(("name", "dob_month"), ("label", "Month")), month, "enum", MONTHS),
        step(7, "select", "combobox", "Year", sel(("name", "dob_year"), ("label", "Year")), year, "enum", YEARS),
        step(8, "click", "button", "Save", sel(("role+text", "button[name='Save']")), effect=saved(first, 500)),
    ]
    return {"recording_id": "rec_00000000-0000-4000-8000-00000000000%d" % n, "version": "1.1",
            "created_at": 1712346000, "machine_id": "m_test0001",
            "interpretation_route": "extract_then_cloud", "steps": steps, "redaction_applied": True}
DATES = """given_name,start_on,renews_on,born_on
Ada,2024-03-01,2025-03-15,1990-03-15
Robert,2024-11-20,2026-01-02,1985-12-07
Cleo,2024-05-05,2025-05-05,2001-01-31
"""
write("dates_three_ways", [dated(1, "Ada", "2024-03-01", "03/15/2025", "15", "March", "1990"),
                           dated(2, "Robert", "2024-11-20", "", "7", "December", "1985")], DATES)
