#!/usr/bin/python3
# a11y.py: prints, as one JSON array, every named object of the running app's accessibility
# tree (AT-SPI, which WebKitGTK feeds from the page's DOM): role, name and its extents on the
# screen. The window test finds the page's buttons with it, since the real window exposes no
# DOM. Needs the AT-SPI bus on the session bus of DBUS_SESSION_BUS_ADDRESS, and python3-gi with
# gir1.2-atspi-2.0. Usage: a11y.py APPNAME
import json
import sys

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi  # noqa: E402


def walk(obj, out, depth=0):
    if depth > 60:
        return
    try:
        role, name = obj.get_role_name(), obj.get_name()
    except Exception:
        return
    if name:
        try:
            e = obj.get_extents(Atspi.CoordType.SCREEN)
            out.append({"role": role, "name": name, "x": e.x, "y": e.y, "w": e.width, "h": e.height})
        except Exception:
            pass
    try:
        n = obj.get_child_count()
    except Exception:
        return
    for i in range(min(n, 2000)):
        try:
            child = obj.get_child_at_index(i)
        except Exception:
            continue
        if child is not None:
            walk(child, out, depth + 1)


def main():
    want = sys.argv[1] if len(sys.argv) > 1 else "app"
    desktop = Atspi.get_desktop(0)
    out = []
    for i in range(desktop.get_child_count()):
        app = desktop.get_child_at_index(i)
        if app is not None and app.get_name() == want:
            walk(app, out)
    json.dump(out, sys.stdout)


main()
