#!/usr/bin/env bash
# svg_ctm.sh FILE.svg T1 [T2 ...]
#
# Loads an animated SVG exported by graft into headless Chromium, pauses all
# SMIL animations, and for each time T (seconds) seeks the document timeline
# with svg.setCurrentTime(T).  For every <g> with an id (except the y-flip
# root "graft-y-up") it prints, on stdout, one line
#
#     T id a b c d e f
#
# where [a c e; b d f] = inverse(getCTM(#graft-y-up)) * getCTM(g): the group's
# world matrix in the scene's own y-up coordinates.  Numbers are JavaScript
# doubles printed with toPrecision(17).  Lines are ordered by time (argument
# order), then by document order of the groups.
#
# Precision (Chromium 156, measured): setCurrentTime() takes an IDL float and
# SMIL time has 1 us resolution, so the time actually shown is
# floor(float32(T) * 1e6) / 1e6; numbers parsed from the SVG (transform
# attributes, values=, from/to) are float32; matrices are composed in double.
# Times that are multiples of 1/64 s are exact.  See README.md.
#
# Environment:
#   CHROMIUM          chromium binary (default: chromium, then chromium-browser)
#   SVG_CTM_TIMEOUT   seconds before chromium is killed (default 120)
#   SVG_CTM_KEEP      if set, keep the temporary directory and print its path
#                     on stderr (for debugging)
set -eu
set -o pipefail

prog=${0##*/}

die() {
    printf '%s: %s\n' "$prog" "$*" >&2
    exit 1
}

if [ "$#" -lt 2 ]; then
    printf 'usage: %s FILE.svg T1 [T2 ...]   (times in seconds)\n' "$prog" >&2
    exit 2
fi

svg_file=$1
shift
[ -f "$svg_file" ] || die "no such file: $svg_file"
[ -r "$svg_file" ] || die "cannot read: $svg_file"

for t in "$@"; do
    # Plain non-negative decimal numbers only (what JS Number() and Rust's
    # f64 both accept).  Chromium clamps negative document times to 0.
    [[ $t =~ ^[+]?([0-9]+([.][0-9]*)?|[.][0-9]+)([eE][+-]?[0-9]+)?$ ]] ||
        die "not a non-negative time in seconds: '$t'"
done

command -v python3 >/dev/null 2>&1 || die "python3 is required"

chromium_bin=${CHROMIUM:-}
if [ -z "$chromium_bin" ]; then
    for c in chromium chromium-browser; do
        if command -v "$c" >/dev/null 2>&1; then
            chromium_bin=$(command -v "$c")
            break
        fi
    done
fi
if [ -z "$chromium_bin" ] || ! command -v "$chromium_bin" >/dev/null 2>&1; then
    die "chromium not found (install it with: apt-get install -y chromium, or set CHROMIUM)"
fi

timeout_s=${SVG_CTM_TIMEOUT:-120}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/svg_ctm.XXXXXX")
if [ -n "${SVG_CTM_KEEP:-}" ]; then
    printf '%s: keeping %s\n' "$prog" "$tmp" >&2
else
    trap 'rm -rf -- "$tmp"' EXIT
fi

# data.js: the SVG text and the times, as JSON (no escaping games in HTML).
python3 - "$svg_file" "$tmp/data.js" "$@" <<'PY'
import json, sys
src, dst, times = sys.argv[1], sys.argv[2], sys.argv[3:]
with open(src, "rb") as f:
    raw = f.read()
try:
    text = raw.decode("utf-8-sig")
except UnicodeDecodeError:
    sys.exit("svg_ctm.sh: %s is not UTF-8" % src)
with open(dst, "w", encoding="ascii") as f:
    f.write("window.GRAFT_SVG = %s;\n" % json.dumps(text, ensure_ascii=True))
    f.write("window.GRAFT_TIMES = %s;\n" % json.dumps(times))
PY

cat >"$tmp/page.html" <<'HTML'
<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>svg_ctm</title>
<style>html,body{margin:0;padding:0}</style></head>
<body><pre id="out"></pre><div id="host"></div>
<script src="data.js"></script>
<script src="ctm.js"></script>
</body></html>
HTML

cat >"$tmp/ctm.js" <<'JS'
(function () {
  'use strict';
  var SVGNS = 'http://www.w3.org/2000/svg';
  var out = document.getElementById('out');
  var done = false;
  function finish(text) {
    if (done) return;
    done = true;
    out.textContent = text;
  }
  function fail(msg) { finish('SVG_CTM_ERROR ' + msg + '\n'); }
  window.addEventListener('error', function (e) {
    fail('uncaught error: ' + (e && e.message));
  });
  function fmt(x) {
    if (!isFinite(x)) throw new Error('non-finite matrix entry ' + x);
    return x.toPrecision(17);
  }
  function sleep(ms) { return new Promise(function (res) { setTimeout(res, ms); }); }
  // setCurrentTime() takes an IDL float and SMIL time has 1 us resolution:
  // this is the time Chromium will actually show.
  function sameTime(got, want) { return Math.abs(got - Math.fround(want)) <= 2e-6 + 1e-7 * Math.abs(want); }

  async function run() {
    if (typeof window.GRAFT_SVG !== 'string') throw new Error('data.js did not load');
    var doc = new DOMParser().parseFromString(window.GRAFT_SVG, 'image/svg+xml');
    var perr = doc.getElementsByTagName('parsererror');
    if (perr.length) throw new Error('XML parse error: ' + perr[0].textContent.replace(/\s+/g, ' ').trim());
    var root = doc.documentElement;
    if (!root || root.namespaceURI !== SVGNS || root.localName !== 'svg')
      throw new Error('root element is not <svg> in the SVG namespace');
    var svg = document.importNode(root, true);
    document.getElementById('host').appendChild(svg);
    var yup = svg.querySelector('[id="graft-y-up"]');
    if (!yup) throw new Error('no element with id="graft-y-up"');
    var groups = [];
    var seen = Object.create(null);
    var all = svg.getElementsByTagNameNS(SVGNS, 'g');
    for (var i = 0; i < all.length; i++) {
      var g = all[i];
      var id = g.getAttribute('id');
      if (id === null || id === '' || g === yup) continue;
      if (/\s/.test(id)) throw new Error('group id contains whitespace: ' + JSON.stringify(id));
      if (seen[id]) throw new Error('duplicate group id: ' + id);
      seen[id] = true;
      groups.push(g);
    }
    svg.pauseAnimations();
    // Chromium starts the SMIL time container only after the page has loaded
    // and a frame/task has run; until then setCurrentTime() is merely stored
    // and getCTM() shows un-animated values.  Wait (in virtual time, with
    // timers: requestAnimationFrame is starved under --virtual-time-budget)
    // until a seek is visible through getCurrentTime().
    var ready = false;
    for (var tries = 0; tries < 200 && !ready; tries++) {
      svg.setCurrentTime(0.25);
      if (sameTime(svg.getCurrentTime(), 0.25)) ready = true;
      else await sleep(10);
    }
    if (!ready) throw new Error('SMIL timeline never started (setCurrentTime has no effect)');
    var lines = [];
    var times = window.GRAFT_TIMES;
    for (var k = 0; k < times.length; k++) {
      var t = Number(times[k]);
      svg.setCurrentTime(t);
      // Seeking is synchronous once the timeline runs, and getCTM() updates
      // style/layout itself: no flush is needed.  Check the seek anyway.
      var now = svg.getCurrentTime();
      if (!sameTime(now, t)) throw new Error('setCurrentTime(' + times[k] + ') left the clock at ' + now);
      var y = yup.getCTM();
      if (!y) throw new Error('getCTM(graft-y-up) returned null');
      // inverse of [a c e; b d f; 0 0 1], in doubles
      var det = y.a * y.d - y.b * y.c;
      if (!(det !== 0 && isFinite(det))) throw new Error('CTM(graft-y-up) is singular at t=' + times[k]);
      var ia = y.d / det, ib = -y.b / det, ic = -y.c / det, id_ = y.a / det;
      var ie = -(ia * y.e + ic * y.f), iff = -(ib * y.e + id_ * y.f);
      for (var j = 0; j < groups.length; j++) {
        var m = groups[j].getCTM();
        if (!m) throw new Error('getCTM returned null for ' + groups[j].id);
        var a = ia * m.a + ic * m.b;
        var b = ib * m.a + id_ * m.b;
        var c = ia * m.c + ic * m.d;
        var d = ib * m.c + id_ * m.d;
        var e = ia * m.e + ic * m.f + ie;
        var f = ib * m.e + id_ * m.f + iff;
        lines.push([times[k], groups[j].getAttribute('id'),
                    fmt(a), fmt(b), fmt(c), fmt(d), fmt(e), fmt(f)].join(' '));
      }
    }
    finish('SVG_CTM_OK\n' + lines.join('\n') + (lines.length ? '\n' : ''));
  }
  window.addEventListener('load', function () {
    run().catch(function (e) { fail(String(e && e.message || e)); });
  });
})();
JS

set +e
timeout -k 5 "$timeout_s" "$chromium_bin" \
    --headless=new --no-sandbox --disable-gpu \
    --no-first-run --no-default-browser-check --disable-extensions \
    --disable-background-networking --disable-sync --mute-audio \
    --user-data-dir="$tmp/profile" \
    --virtual-time-budget=5000 \
    --dump-dom "file://$tmp/page.html" >"$tmp/dom.html" 2>"$tmp/chromium.err"
rc=$?
set -e
if [ "$rc" -ne 0 ]; then
    [ "$rc" -eq 124 ] && printf '%s: chromium timed out after %ss\n' "$prog" "$timeout_s" >&2
    sed 's/^/chromium: /' "$tmp/chromium.err" >&2
    die "chromium failed (exit $rc)"
fi

# Extract <pre id="out">; print the result lines, or the error, or complain.
python3 - "$tmp/dom.html" "$tmp/chromium.err" <<'PY'
import html, re, sys
dom = open(sys.argv[1], encoding="utf-8", errors="replace").read()
m = re.search(r'<pre id="out">(.*?)</pre>', dom, re.S)
body = html.unescape(m.group(1)) if m else ""
if body.startswith("SVG_CTM_OK\n"):
    sys.stdout.write(body[len("SVG_CTM_OK\n"):])
    sys.exit(0)
if body.startswith("SVG_CTM_ERROR "):
    sys.stderr.write("svg_ctm.sh: page error: " + body[len("SVG_CTM_ERROR "):])
else:
    sys.stderr.write("svg_ctm.sh: the page produced no result "
                     "(script did not finish within the virtual time budget?)\n")
    err = open(sys.argv[2], encoding="utf-8", errors="replace").read().strip()
    if err:
        sys.stderr.write("chromium stderr:\n" + err + "\n")
sys.exit(1)
PY
