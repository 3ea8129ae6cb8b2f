#!/usr/bin/python3
"""Read an application's accessibility tree from the Linux accessibility bus (AT-SPI).

  atspi_tree.py run [--timeout S] [--keys "ctrl+a Down"] [--find ROLE:NAME] -- APP ARGS...
      Starts a private desktop (Xvfb, a session D-Bus, the AT-SPI bus launcher and registry,
      accessibility switched on with org.a11y.Status.IsEnabled), starts APP in it, waits until
      APP's tree is on the bus and stops changing, optionally presses keys in its window with
      xdotool and reads the tree again, prints JSON and stops everything it started.
  atspi_tree.py dump [--app NAME] [--find ROLE:NAME]
      Prints the tree of NAME on the bus the environment points at (a desktop already running).

The JSON: {"app": NAME, "nodes": [...], "after_keys": [...] or null, "announced": [...]}:
"announced" holds what the app announced while the keys were pressed (AT-SPI
"object:announcement" events, what Orca reads out), in order. Each node is
{"role", "name", "states", "description", "level", "posinset", "setsize" (the AT-SPI
attributes, or null), "depth", "path"}.
Needs python3-pyatspi (Debian), at-spi2-core, dbus, xvfb and xdotool; exit 2 when one is
missing, 1 when the application never appeared.
"""

import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

LIBEXEC = ["/usr/libexec", "/usr/lib/at-spi2-core", "/usr/lib/at-spi2", "/usr/lib"]


def find_libexec(name):
    """The path of an at-spi2-core helper, or None."""
    for d in LIBEXEC:
        p = os.path.join(d, name)
        if os.access(p, os.X_OK):
            return p
    return shutil.which(name)


def missing_tools():
    """What this machine lacks to run a private accessible desktop."""
    need = []
    for tool in ["Xvfb", "dbus-daemon", "dbus-send", "xdotool"]:
        if shutil.which(tool) is None:
            need.append(tool)
    for helper in ["at-spi-bus-launcher", "at-spi2-registryd"]:
        if find_libexec(helper) is None:
            need.append(helper)
    try:
        import gi  # noqa: F401  (pyatspi needs it)
        import pyatspi  # noqa: F401
    except ImportError:
        need.append("python3-pyatspi")
    return need


def stop_on_signals():
    """End by SystemExit on SIGTERM, SIGHUP or SIGINT, so `finally: desktop.close()` runs
    (Python's default for SIGTERM ends at once, leaving every process started behind)."""
    def leave(signum, _frame):
        sys.exit(128 + signum)
    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(sig, leave)


class Desktop:
    """Xvfb, a session bus and the AT-SPI bus with accessibility on; stopped by close()."""

    def __init__(self):
        self.procs = []
        self.dir = tempfile.mkdtemp(prefix="graft-a11y-")
        os.chmod(self.dir, 0o700)
        self.env = dict(os.environ)
        for var in ["AT_SPI_BUS_ADDRESS", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS"]:
            self.env.pop(var, None)
        # Keep the desktop's gsettings (toolkit-accessibility) out of the user's dconf.
        self.env.update(XDG_RUNTIME_DIR=self.dir, GSETTINGS_BACKEND="memory", NO_AT_BRIDGE="0")

    def spawn(self, argv, **kw):
        """Start a process in its own process group, remembered for close(), and listed in
        the file GRAFT_PEER_GROUPS names (if any): whoever started this script kills those
        groups if the script itself is killed before close() runs."""
        p = subprocess.Popen(argv, env=self.env, start_new_session=True, **kw)
        self.procs.append(p)
        groups = os.environ.get("GRAFT_PEER_GROUPS")
        if groups:
            with open(groups, "a") as f:
                f.write(f"{p.pid}\n")
        return p

    def start(self):
        """Start the display, the buses and the registry, and switch accessibility on."""
        self.start_x()
        bus = self.spawn(
            ["dbus-daemon", "--session", "--nofork", "--print-address",
             f"--address=unix:path={self.dir}/bus"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.env["DBUS_SESSION_BUS_ADDRESS"] = bus.stdout.readline().strip()
        devnull = subprocess.DEVNULL
        self.spawn([find_libexec("at-spi-bus-launcher"), "--launch-immediately"],
                   stdout=devnull, stderr=devnull)
        deadline = time.monotonic() + 10
        while not self.set_status("IsEnabled") and time.monotonic() < deadline:
            time.sleep(0.1)
        self.spawn([find_libexec("at-spi2-registryd")], stdout=devnull, stderr=devnull)
        time.sleep(0.3)
        os.environ.update(self.env)  # pyatspi, imported after this, uses this desktop

    def start_x(self):
        """Start Xvfb on a free display number."""
        for _ in range(20):
            n = random.randrange(100, 900)
            if os.path.exists(f"/tmp/.X11-unix/X{n}") or os.path.exists(f"/tmp/.X{n}-lock"):
                continue
            x = self.spawn(["Xvfb", f":{n}", "-screen", "0", "1280x860x24", "-nolisten", "tcp"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            for _ in range(50):
                if os.path.exists(f"/tmp/.X11-unix/X{n}"):
                    self.env["DISPLAY"] = f":{n}"
                    return
                if x.poll() is not None:
                    break
                time.sleep(0.1)
        raise RuntimeError("Xvfb did not start")

    def set_status(self, prop):
        """Set a true org.a11y.Status property; false while the launcher is not up yet."""
        argv = ["dbus-send", "--session", "--print-reply", "--dest=org.a11y.Bus",
                "/org/a11y/bus", "org.freedesktop.DBus.Properties.Set",
                "string:org.a11y.Status", f"string:{prop}", "variant:boolean:true"]
        r = subprocess.run(argv, env=self.env, capture_output=True, timeout=5)
        return r.returncode == 0

    def close(self):
        """Stop everything started, newest first (a second signal does not cut this short)."""
        for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
            signal.signal(sig, signal.SIG_IGN)
        for p in reversed(self.procs):
            try:
                os.killpg(p.pid, signal.SIGTERM)
            except (ProcessLookupError, PermissionError):
                pass
        for p in reversed(self.procs):
            try:
                p.wait(timeout=3)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


def node_json(node, depth, path):
    """One accessible object as a JSON-ready dict."""
    import pyatspi
    states = sorted(pyatspi.stateToString(s) for s in node.getState().getStates())
    numbers = {"level": None, "posinset": None, "setsize": None}
    try:
        for attr in node.getAttributes():
            key, _, value = attr.partition(":")
            if key in numbers:
                numbers[key] = int(value)
    except Exception:  # some objects have no attributes
        pass
    return {"role": node.getRoleName(), "name": node.name or "", "states": states,
            "description": node.description or "", **numbers, "depth": depth, "path": path}


def walk(node, depth=0, path="0", out=None):
    """Every object under `node` in pre-order."""
    out = [] if out is None else out
    out.append(node_json(node, depth, path))
    for i in range(node.childCount):
        child = node.getChildAtIndex(i)
        if child is not None:
            walk(child, depth + 1, f"{path}/{i}", out)
    return out


def read_app(name):
    """The tree of the first application called `name`, or None."""
    import pyatspi
    desktop = pyatspi.Registry.getDesktop(0)
    for i in range(desktop.childCount):
        app = desktop.getChildAtIndex(i)
        if app is not None and app.name == name:
            try:
                return walk(app)
            except Exception:  # the tree changed while it was read
                return None
    return None


def settled_tree(name, timeout, unlike=None):
    """The app's tree once it has a window with content, differs from `unlike` and reads the
    same twice."""
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        nodes = read_app(name)
        if nodes and len(nodes) > 3 and nodes == last and nodes != unlike:
            return nodes
        last = nodes
        time.sleep(0.4)
    return last


class Announcements:
    """What the application announces ("object:announcement", a live region's new text), as a
    screen reader hears it: the texts, in order, while `pump` runs the event loop; and how many
    other changes of its objects arrived (`settle` waits for them to stop)."""

    def __init__(self):
        import pyatspi
        self.said = []
        self.changes = 0
        self.focused = ""
        pyatspi.Registry.registerEventListener(self.heard, "object:announcement")
        pyatspi.Registry.registerEventListener(self.focus, "object:state-changed:focused")
        pyatspi.Registry.registerEventListener(
            self.changed, "object:state-changed", "object:property-change",
            "object:children-changed", "object:text-changed", "object:active-descendant-changed")

    def heard(self, event):
        """One announcement: its text is the event's any_data."""
        self.said.append(str(event.any_data))

    def changed(self, _event):
        """Any other change of an object."""
        self.changes += 1

    def focus(self, event):
        """An object got the focus: remember its name."""
        self.changes += 1
        if event.detail1:
            try:
                self.focused = event.source.name or ""
            except Exception:  # the object went away
                self.focused = ""

    def pump(self, seconds):
        """Deliver the events that arrive during `seconds`."""
        from gi.repository import GLib
        context = GLib.MainContext.default()
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            while context.iteration(False):
                pass
            time.sleep(0.02)

    def settle(self, least=0.8, quiet=0.6, most=8.0):
        """After a key: pump at least `least` seconds, then until a change has arrived and none
        came for `quiet` seconds (a slow machine's app takes a frame or two per key), at most
        `most` seconds in all."""
        start = time.monotonic()
        before = self.changes
        seen, since = before, start
        while time.monotonic() - start < most:
            self.pump(0.05)
            now = time.monotonic()
            if self.changes != seen:
                seen, since = self.changes, now
            waited = now - start >= least
            if waited and seen != before and now - since >= quiet:
                return


def press_keys(env, pid, keys, wait=lambda: time.sleep(0.8)):
    """Give the app's window the keyboard (there is no window manager) and press `keys`,
    calling `wait()` after each. No --clearmodifiers: nobody else holds a key on this display,
    and it puts back the modifiers it found down, so a Ctrl whose release the server had not
    yet handled stayed down for every later key."""
    found = subprocess.run(["xdotool", "search", "--sync", "--pid", str(pid)], env=env,
                           capture_output=True, text=True, timeout=10)
    windows = found.stdout.split()
    if not windows:
        raise RuntimeError("no window of the application for xdotool")
    subprocess.run(["xdotool", "windowfocus", "--sync", windows[-1]], env=env, timeout=5)
    for key in keys.split():
        subprocess.run(["xdotool", "key", key], env=env, timeout=5)
        wait()


def only(nodes, find):
    """The nodes matching "ROLE:NAME" (either part may be empty), or all without a filter."""
    if not find or nodes is None:
        return nodes
    role, _, name = find.partition(":")
    return [n for n in nodes if (not role or n["role"] == role) and (not name or n["name"] == name)]


def run(args):
    """The `run` command: a private desktop, the app in it, its tree as JSON."""
    need = missing_tools()
    if need:
        print("missing: " + " ".join(need), file=sys.stderr)
        return 2
    stop_on_signals()
    desktop = Desktop()
    try:
        desktop.start()
        log = open(os.path.join(desktop.dir, "app.log"), "w+")
        app = desktop.spawn(args.command, stdout=log, stderr=log)
        name = args.app or os.path.basename(args.command[0])
        nodes = settled_tree(name, args.timeout)
        after = None
        heard = Announcements() if nodes and args.keys else None
        if heard:
            press_keys(desktop.env, app.pid, args.keys, wait=heard.settle)
            after = settled_tree(name, args.timeout, unlike=nodes)
            heard.pump(0.5)
        print(json.dumps({"app": name, "nodes": only(nodes, args.find),
                          "after_keys": only(after, args.find),
                          "announced": heard.said if heard else []}, indent=1))
        if not nodes:
            log.seek(0)
            print(f"{name} never appeared on the accessibility bus; its output:\n{log.read()}",
                  file=sys.stderr)
        return 0 if nodes else 1
    finally:
        desktop.close()


def dump(args):
    """The `dump` command: the tree of an app on the current desktop."""
    nodes = read_app(args.app)
    print(json.dumps({"app": args.app, "nodes": only(nodes, args.find), "after_keys": None},
                     indent=1))
    return 0 if nodes else 1


def main():
    """Parse the command line and run a command."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--timeout", type=float, default=20.0)
    r.add_argument("--keys", default="")
    r.add_argument("--app", default="")
    r.add_argument("--find", default="")
    r.add_argument("command", nargs="+")
    d = sub.add_parser("dump")
    d.add_argument("--app", default="graft")
    d.add_argument("--find", default="")
    args = parser.parse_args()
    return run(args) if args.cmd == "run" else dump(args)


if __name__ == "__main__":
    sys.exit(main())
