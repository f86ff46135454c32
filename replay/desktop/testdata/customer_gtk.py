#!/usr/bin/python3
"""A GTK 3 window titled "Customer": First Name, Last Name and Email
entries (each labelled by a Gtk.Label) and a Save button that appends the
entries' texts to a records file as one line "first|last|email" and
clears them for the next record.

argv[1] is the layout: "v1" as recorded, or "v2" as redesigned: a Country
combo where Email was, Email moved to the right column and relabelled
"E-mail address", and the button renamed "Store" where Save was.
argv[2] is the records file. Every button press prints "clicked LABEL",
a combo popup prints "popup"; "ready" once the window is mapped."""

import sys

import gi

gi.require_version("Gtk", "3.0")
from gi.repository import GLib, Gtk  # noqa: E402


def main():
    layout, records = sys.argv[1], sys.argv[2]
    win = Gtk.Window(title="Customer")
    win.set_default_size(520, 220)
    win.connect("destroy", Gtk.main_quit)
    grid = Gtk.Grid(row_spacing=8, column_spacing=8, margin=12)
    entries = []

    def field(label, col, row):
        lab = Gtk.Label(label=label, xalign=0)
        entry = Gtk.Entry(width_chars=18)
        lab.set_mnemonic_widget(entry)
        grid.attach(lab, col, row, 1, 1)
        grid.attach(entry, col + 1, row, 1, 1)
        entries.append(entry)

    field("First Name", 0, 0)
    field("Last Name", 0, 1)
    if layout == "v1":
        field("Email", 0, 2)
        button = "Save"
    else:
        country = Gtk.Label(label="Country", xalign=0)
        combo = Gtk.ComboBoxText()
        for c in ("France", "Spain", "Italy"):
            combo.append_text(c)
        country.set_mnemonic_widget(combo)
        combo.connect("notify::popup-shown", lambda *_: print("popup", flush=True))
        grid.attach(country, 0, 2, 1, 1)
        grid.attach(combo, 1, 2, 1, 1)
        field("E-mail address", 2, 0)
        button = "Store"

    def save(b):
        print("clicked " + b.get_label(), flush=True)
        with open(records, "a") as f:
            f.write("|".join(e.get_text() for e in entries) + "\n")
        for e in entries:
            e.set_text("")

    btn = Gtk.Button(label=button)
    btn.connect("clicked", save)
    grid.attach(btn, 1, 3, 1, 1)
    win.add(grid)
    win.connect("map-event", lambda *_: GLib.idle_add(lambda: print("ready", flush=True)) and False)
    win.move(0, 0)
    win.show_all()
    Gtk.main()


if __name__ == "__main__":
    sys.exit(main())
