#!/usr/bin/python3
"""A GTK 3 window titled "Order": a Name entry, a Country combo box
(Gtk.ComboBoxText), a Plan list box (Gtk.ListBox, one row selected at a
time), a "Newsletter" check box and an Email entry, each labelled by a
Gtk.Label, and a Save button.

Save appends the record to argv[1] as one JSON line {"name", "country",
"plan", "newsletter", "email"}, shows "Saved NAME" in a status label,
and clears the form for the next record (no country, no plan, box
unticked). Every save prints "saved"; "ready" once the window is mapped.

argv[2], if given, is a country the app refuses: choosing it puts the
combo box back to what it held, as an app that validates a choice does."""

import json
import sys

import gi

gi.require_version("Gtk", "3.0")
from gi.repository import GLib, Gtk  # noqa: E402

COUNTRIES = ("France", "Germany", "Italy", "Spain", "Côte d'Ivoire")
PLANS = ("Basic", "Standard", "Premium")


def main():
    records = sys.argv[1]
    win = Gtk.Window(title="Order")
    win.set_default_size(460, 360)
    win.connect("destroy", Gtk.main_quit)
    grid = Gtk.Grid(row_spacing=8, column_spacing=8, margin=12)

    def label(text, row, widget):
        lab = Gtk.Label(label=text, xalign=0)
        lab.set_mnemonic_widget(widget)
        grid.attach(lab, 0, row, 1, 1)
        grid.attach(widget, 1, row, 1, 1)

    name = Gtk.Entry(width_chars=20)
    label("Name", 0, name)
    country = Gtk.ComboBoxText()
    for c in COUNTRIES:
        country.append_text(c)
    label("Country", 1, country)
    refused = sys.argv[2] if len(sys.argv) > 2 else None
    held = {"active": -1}

    def changed(combo):
        if refused is not None and combo.get_active_text() == refused:
            GLib.idle_add(lambda: combo.set_active(held["active"]) and False)
        else:
            held["active"] = combo.get_active()

    country.connect("changed", changed)
    plans = Gtk.ListBox()
    plans.set_selection_mode(Gtk.SelectionMode.SINGLE)
    for p in PLANS:
        row = Gtk.ListBoxRow()
        row.add(Gtk.Label(label=p, xalign=0))
        plans.add(row)
    label("Plan", 2, plans)
    news = Gtk.CheckButton(label="Newsletter")
    grid.attach(news, 1, 3, 1, 1)
    email = Gtk.Entry(width_chars=20)
    label("Email", 4, email)
    status = Gtk.Label(label="", xalign=0)
    grid.attach(status, 1, 6, 1, 1)

    def save(_):
        row = plans.get_selected_row()
        rec = {
            "name": name.get_text(),
            "country": country.get_active_text() or "",
            "plan": PLANS[row.get_index()] if row is not None else "",
            "newsletter": news.get_active(),
            "email": email.get_text(),
        }
        with open(records, "a") as f:
            f.write(json.dumps(rec, ensure_ascii=False) + "\n")
        name.set_text("")
        email.set_text("")
        country.set_active(-1)
        plans.unselect_all()
        news.set_active(False)
        status.set_text("Saved " + rec["name"])
        print("saved", flush=True)

    btn = Gtk.Button(label="Save")
    btn.connect("clicked", save)
    grid.attach(btn, 1, 5, 1, 1)
    win.add(grid)
    win.connect("map-event", lambda *_: GLib.idle_add(lambda: print("ready", flush=True)) and False)
    win.move(0, 0)
    win.show_all()
    Gtk.main()


if __name__ == "__main__":
    sys.exit(main())
