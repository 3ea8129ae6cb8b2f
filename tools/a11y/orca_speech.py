#!/usr/bin/python3
"""Hear an application as a blind user does: what a real screen reader (Orca) speaks.

  orca_speech.py run [--timeout S] [--step "KEYS" ...] -- APP ARGS...
      Starts a private desktop (atspi_tree.Desktop: Xvfb, a session D-Bus, the AT-SPI bus with
      accessibility on), speech-dispatcher with a "capture" module that appends every
      utterance to a file instead of sounding it, then Orca, then APP. Presses each step's keys
      (xdotool) in APP's window, waits until Orca has been quiet for a moment, and prints JSON:
      {"app", "opened": [utterances after APP appeared], "steps": [{"keys", "spoken": [...]}],
      "orca_version"}. Stops everything it started.

Exit 2 when a tool is missing (orca, speech-dispatcher, or what atspi_tree.py needs), 1 when the
application never appeared or Orca never spoke.
Needs Debian's orca (43.1 tested) and speech-dispatcher besides atspi_tree.py's tools.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import atspi_tree  # noqa: E402  (the private desktop)

SPEECHD_CONF = """AddModule "capture" "sd_generic" "capture.conf"
DefaultModule capture
DefaultLanguage "en"
AudioOutputMethod "alsa"
AudioALSADevice "null"
"""

CAPTURE_CONF = """GenericExecuteSynth "printf '%s\\\\n' \\'$DATA\\' >> {out}"
GenericLanguage "en" "en" "utf-8"
AddVoice "en" "MALE1" "en"
DefaultVoice "en"
"""


def missing_tools():
    """What this machine lacks to hear an application through Orca."""
    need = atspi_tree.missing_tools()
    for tool in ["orca", "speech-dispatcher"]:
        if shutil.which(tool) is None:
            need.append(tool)
    return need


class Speech:
    """speech-dispatcher writing every utterance to a file, and Orca speaking through it."""

    def __init__(self, desktop):
        self.desktop = desktop
        self.out = os.path.join(desktop.dir, "spoken.txt")
        self.read_to = 0

    def start(self):
        """Configure and start speech-dispatcher, then Orca; wait until Orca is up."""
        d = self.desktop
        d.set_status("ScreenReaderEnabled")
        home = os.path.join(d.dir, "home")
        config = os.path.join(home, ".config")
        speechd = os.path.join(config, "speech-dispatcher")
        os.makedirs(os.path.join(speechd, "modules"))
        with open(os.path.join(speechd, "speechd.conf"), "w") as f:
            f.write(SPEECHD_CONF)
        with open(os.path.join(speechd, "modules", "capture.conf"), "w") as f:
            f.write(CAPTURE_CONF.format(out=self.out))
        open(self.out, "w").close()
        d.env.update(HOME=home, XDG_CONFIG_HOME=config,
                     XDG_DATA_HOME=os.path.join(home, ".local", "share"))
        os.environ.update(d.env)
        log = open(os.path.join(d.dir, "speechd.log"), "w")
        d.spawn(["speech-dispatcher", "-s", "-t", "0"], stdout=log, stderr=log)
        sock = os.path.join(d.dir, "speech-dispatcher", "speechd.sock")
        wait_for(lambda: os.path.exists(sock), 10)
        self.debug = os.path.join(d.dir, "orca.debug")
        orca_log = open(os.path.join(d.dir, "orca.log"), "w")
        d.spawn(["orca", f"--debug-file={self.debug}"], stdout=orca_log, stderr=orca_log)
        # Orca greets ("Screen reader on.") once it listens.
        if not wait_for(lambda: self.peek(), 20):
            raise RuntimeError("Orca never spoke")
        self.quiet()

    def peek(self):
        """The utterances not taken yet."""
        try:
            with open(self.out, encoding="utf-8", errors="replace") as f:
                f.seek(self.read_to)
                return f.read()
        except FileNotFoundError:
            return ""

    def take(self):
        """The utterances since the last take, one a line."""
        text = self.peek()
        self.read_to += len(text.encode("utf-8"))
        return [line.strip() for line in text.splitlines() if line.strip()]

    def quiet(self, still=2.0, limit=15):
        """Wait until nothing new was spoken for `still` seconds (at most `limit`), then take."""
        end = time.monotonic() + limit
        size = -1
        since = time.monotonic()
        while time.monotonic() < end:
            now = os.path.getsize(self.out)
            if now != size:
                size, since = now, time.monotonic()
            elif time.monotonic() - since >= still:
                break
            time.sleep(0.1)
        return self.take()


def wait_for(ready, seconds):
    """Poll `ready` until true or `seconds` pass; its last value."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if ready():
            return True
        time.sleep(0.1)
    return False


def orca_version():
    """Orca's version string, or ""."""
    try:
        r = subprocess.run(["orca", "--version"], capture_output=True, text=True, timeout=10)
        return r.stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        return ""


def window_of(env, pid):
    """The X window of process `pid` (the last one xdotool finds)."""
    found = subprocess.run(["xdotool", "search", "--sync", "--pid", str(pid)], env=env,
                           capture_output=True, text=True, timeout=20)
    windows = found.stdout.split()
    if not windows:
        raise RuntimeError("no window of the application for xdotool")
    return windows[-1]


def press(env, keys, changes):
    """Press space-separated xdotool key names ("type:TEXT" types TEXT a character at a time,
    "tabto:NAME" presses Tab until the object named NAME has the focus; "_" in TEXT and NAME
    is a space), calling `changes.settle()` after each key: until the application has acted on
    it (its objects stopped changing), so a slow machine's lag does not move words to the next
    step."""
    settle = changes.settle
    for key in keys.split():
        if key.startswith("type:"):
            for char in key[5:].replace("_", " "):
                subprocess.run(["xdotool", "type", "--delay", "0", char], env=env, timeout=20)
                settle()
        elif key.startswith("tabto:"):
            name = key[6:].replace("_", " ")
            for _ in range(60):
                if changes.focused == name:
                    break
                subprocess.run(["xdotool", "key", "Tab"], env=env, timeout=5)
                settle()
            else:
                raise RuntimeError(f"Tab never reached {name!r} (last focus {changes.focused!r})")
        else:
            subprocess.run(["xdotool", "key", key], env=env, timeout=5)
            settle()


def run(args):
    """The `run` command: a desktop, speech, Orca, the app, the steps; JSON on stdout."""
    need = missing_tools()
    if need:
        print("missing: " + " ".join(need), file=sys.stderr)
        return 2
    atspi_tree.stop_on_signals()
    desktop = atspi_tree.Desktop()
    try:
        desktop.start()
        speech = Speech(desktop)
        speech.start()
        log = open(os.path.join(desktop.dir, "app.log"), "w+")
        app = desktop.spawn(args.command, stdout=log, stderr=log)
        name = args.app or os.path.basename(args.command[0])
        nodes = atspi_tree.settled_tree(name, args.timeout) if not args.no_tree else [1]
        if not nodes:
            log.seek(0)
            print(f"{name} never appeared on the accessibility bus:\n{log.read()}",
                  file=sys.stderr)
            return 1
        window = window_of(desktop.env, app.pid)
        subprocess.run(["xdotool", "windowfocus", "--sync", window], env=desktop.env,
                       timeout=10)
        opened = speech.quiet(still=2.0, limit=15)
        changes = atspi_tree.Announcements()
        steps = []
        for keys in args.step:
            try:
                press(desktop.env, keys, changes)
            except RuntimeError:
                # What was heard up to here says where it went wrong.
                for step in steps:
                    print(f"{step['keys']} → {' | '.join(step['spoken'])}", file=sys.stderr)
                print(f"{keys} → {' | '.join(speech.quiet())}", file=sys.stderr)
                raise
            steps.append({"keys": keys, "spoken": speech.quiet()})
        print(json.dumps({"app": name, "orca_version": orca_version(), "opened": opened,
                          "steps": steps}, indent=1))
        if args.keep_debug:
            shutil.copy(speech.debug, args.keep_debug)
        return 0
    finally:
        desktop.close()


def main():
    """Parse the command line and run."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--timeout", type=float, default=40.0)
    r.add_argument("--step", action="append", default=[])
    r.add_argument("--app", default="")
    r.add_argument("--no-tree", action="store_true", help="do not wait for the app's tree")
    r.add_argument("--keep-debug", default="", help="copy Orca's debug file here")
    r.add_argument("command", nargs="+")
    return run(parser.parse_args())


if __name__ == "__main__":
    sys.exit(main())
