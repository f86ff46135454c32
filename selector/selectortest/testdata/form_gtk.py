#!/usr/bin/python3
"""The selector conformance form (see the selectortest package doc and
form.html) in GTK 3, for the AT-SPI executor's test under Xvfb.

It prints "ready" once the window is mapped, so a test waits on that rather
than on a fixed sleep, and "pressed <button> <group>" for each button press
(group "" outside the two frames), so a test can tell which live element an
action reached.

Run with /usr/bin/python3; it needs python3-gi and gir1.2-gtk-3.0.
"""

import sys

import gi

gi.require_version("Gtk", "3.0")
from gi.repository import GLib, Gtk  # noqa: E402

TITLE = "Selector conformance"


def say(line):
    print(line, flush=True)


def button(label, group=""):
    b = Gtk.Button(label=label)
    b.connect("clicked", lambda _: say(f"pressed {label} {group}".rstrip()))
    return b


def group(name, prefix):
    """A frame named name: "Name:" linked to its entry (the mnemonic widget,
    which GTK reports as LABELLED_BY), "City" linked to nothing, and Save."""
    grid = Gtk.Grid(row_spacing=6, column_spacing=8, margin=8)
    name_label = Gtk.Label(label="Name:", xalign=0)
    name_entry = Gtk.Entry(text=prefix + "-name")
    name_label.set_mnemonic_widget(name_entry)
    city_label = Gtk.Label(label="City", xalign=0)
    city_entry = Gtk.Entry(text=prefix + "-city")
    grid.attach(name_label, 0, 0, 1, 1)
    grid.attach(name_entry, 1, 0, 1, 1)
    grid.attach(city_label, 0, 1, 1, 1)
    grid.attach(city_entry, 1, 1, 1, 1)
    grid.attach(button("Save", name), 0, 2, 2, 1)
    frame = Gtk.Frame(label=name)
    frame.add(grid)
    return frame


def main():
    win = Gtk.Window(title=TITLE)
    win.connect("destroy", Gtk.main_quit)
    box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=12, margin=16)

    groups = Gtk.Box(spacing=16)
    groups.pack_start(group("Billing", "b"), True, True, 0)
    groups.pack_start(group("Shipping", "s"), True, True, 0)
    box.pack_start(groups, False, False, 0)

    adds = Gtk.Box(spacing=8)
    for _ in range(3):
        adds.pack_start(button("Add"), False, False, 0)
    box.pack_start(adds, False, False, 0)

    foot = Gtk.Box(spacing=8)
    foot.pack_start(Gtk.CheckButton(label="Gift wrap"), False, False, 0)
    cancel = button("Cancel")
    acc = cancel.get_accessible()
    if not hasattr(acc, "set_accessible_id"):
        # ATK before 2.34 has no ids; the Go test then runs with ids=false.
        say("no accessible ids")
    else:
        acc.set_accessible_id("1003")
    foot.pack_start(cancel, False, False, 0)
    box.pack_start(foot, False, False, 0)

    win.add(box)
    # "ready" once the window is on the screen, after GTK has drawn it.
    win.connect("map-event", lambda *_: GLib.idle_add(lambda: say("ready")) and False)
    win.show_all()
    Gtk.main()


if __name__ == "__main__":
    sys.exit(main())
