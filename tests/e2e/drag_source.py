#!/usr/bin/env python3
"""A tiny X11 drag source for the end-to-end tests.

WebDriver cannot simulate a file drop from the operating system, so the test opens
this GTK window, which offers the given paths as `text/uri-list`, and moves the
mouse with xdotool from it onto the app window: a real XDND drop, as a file manager
would make it. Exits when the drag ends.

Usage: drag_source.py X Y PATH...
"""

import sys
from pathlib import Path

import gi

gi.require_version("Gtk", "3.0")
gi.require_version("Gdk", "3.0")
from gi.repository import Gdk, GLib, Gtk  # noqa: E402

x, y = int(sys.argv[1]), int(sys.argv[2])
uris = [Path(p).resolve().as_uri() for p in sys.argv[3:]]

window = Gtk.Window(title="evident-drag-source")
window.set_default_size(100, 80)
window.move(x, y)
button = Gtk.Button(label="drag")
button.drag_source_set(Gdk.ModifierType.BUTTON1_MASK, [], Gdk.DragAction.COPY)
button.drag_source_add_uri_targets()
button.connect("drag-data-get", lambda _w, _c, data, _i, _t: data.set_uris(uris))
button.connect("drag-end", lambda *_a: Gtk.main_quit())
window.add(button)
window.show_all()

GLib.timeout_add_seconds(30, Gtk.main_quit)
Gtk.main()
