#!/usr/bin/python3
"""A GTK 3 window titled "Many" holding N rows (argv[1], default 196) of a
label and a button in a grid, about 2N+8 accessible elements: what
BenchmarkList lists. It prints "ready" once the window is mapped."""

import sys

import gi

gi.require_version("Gtk", "3.0")
from gi.repository import GLib, Gtk  # noqa: E402


def main():
    rows = int(sys.argv[1]) if len(sys.argv) > 1 else 196
    win = Gtk.Window(title="Many")
    win.connect("destroy", Gtk.main_quit)
    grid = Gtk.Grid()
    for i in range(rows):
        grid.attach(Gtk.Label(label=f"Item {i}"), i % 14 * 2, i // 14, 1, 1)
        grid.attach(Gtk.Button(label=f"Do {i}"), i % 14 * 2 + 1, i // 14, 1, 1)
    win.add(grid)
    win.connect("map-event", lambda *_: GLib.idle_add(lambda: print("ready", flush=True)) and False)
    win.show_all()
    Gtk.main()


if __name__ == "__main__":
    sys.exit(main())
