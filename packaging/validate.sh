#!/usr/bin/env bash
# CI's packaging checks, without building the package: the freedesktop files validate, the MIME
# magic tells graft scenes from other RON files, the thumbnailer entry parses and draws, the man
# pages render and the completions load.
#
# Usage: packaging/validate.sh [PATH_TO_GRAFT]      (default: target/debug/graft; not built here)
#
# Prints one "ok:", "FAIL:" or "skipped: <check> (<tool> not installed)" line per check and
# exits 1 when any check fails. As root it first installs the missing validators with apt-get
# (under a timeout, like .ci/run does for mesa).
# shellcheck disable=SC2015 # `check && ok ... || fail ...`: ok always succeeds
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
export LC_ALL=C.UTF-8

id=io.github.graft.Graft
graft=${1:-target/debug/graft}
case "$graft" in */*) ;; *) graft=$(command -v "$graft" || echo "$graft") ;; esac
desktop=packaging/$id.desktop
metainfo=packaging/$id.metainfo.xml
mimexml=packaging/$id.mime.xml
thumbnailer=packaging/$id.thumbnailer
system_mime=/usr/share/mime/packages/freedesktop.org.xml

failures=0
ok() { echo "ok: $1"; }
fail() { echo "FAIL: $1"; failures=$((failures + 1)); }
skip() { echo "skipped: $1 ($2 not installed)"; }
have() { command -v "$1" >/dev/null 2>&1; }
# Indent a tool's output under its check line.
show() { [ -s "$1" ] && sed 's/^/    /' "$1"; return 0; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The validators, installed when missing and possible.
want=()
have desktop-file-validate || want+=(desktop-file-utils)
have appstreamcli || want+=(appstream)
have xmllint || want+=(libxml2-utils)
have man || want+=(man-db)
have update-mime-database || want+=(shared-mime-info)
have mimetype || want+=(libfile-mimeinfo-perl)
have xdg-mime || want+=(xdg-utils)
if [ ${#want[@]} -gt 0 ] && have apt-get && [ "$(id -u)" = 0 ]; then
  echo "installing ${want[*]}"
  export DEBIAN_FRONTEND=noninteractive
  timeout 300 apt-get install -y -qq --no-install-recommends "${want[@]}" >/dev/null 2>&1 \
    || { timeout 300 apt-get update -qq >/dev/null 2>&1 \
      && timeout 300 apt-get install -y -qq --no-install-recommends "${want[@]}" >/dev/null 2>&1; } \
    || echo "warning: could not install ${want[*]}; their checks are skipped"
fi

have_graft=false
if [ -x "$graft" ]; then
  have_graft=true
else
  fail "graft binary: $graft is not an executable (build it first, or pass its path)"
fi

# --- Desktop entry ---
if have desktop-file-validate; then
  if desktop-file-validate "$desktop" >"$work/out" 2>&1 && ! grep -qE '(error|warning):' "$work/out"; then
    ok "desktop-file-validate $desktop"
  else
    fail "desktop-file-validate $desktop"
  fi
  show "$work/out" # hints (two main categories, Graphics and Education, is deliberate)
else
  skip "desktop entry" desktop-file-validate
fi
# Every MimeType the entry names is defined (by graft's XML or the system's).
missing=""
for t in $(sed -n 's/^MimeType=//p' "$desktop" | tr ';' ' '); do
  grep -q "type=\"$t\"" "$mimexml" "$system_mime" 2>/dev/null || missing="$missing $t"
done
[ -z "$missing" ] && ok "desktop entry MIME types are defined" || fail "desktop entry MIME types not defined:$missing"
# The icon it names exists at every size the package installs, and scalable.
icon=$(sed -n 's/^Icon=//p' "$desktop")
icons_ok=true
for size in 16 24 32 48 64 128 256 512; do
  [ -s "packaging/icons/hicolor/${size}x${size}/apps/$icon.png" ] || icons_ok=false
done
[ -s "packaging/icons/hicolor/scalable/apps/$icon.svg" ] || icons_ok=false
$icons_ok && ok "icon $icon: 8 PNG sizes and the SVG" || fail "icon $icon: a PNG size or the SVG is missing"

# --- AppStream metainfo ---
if have appstreamcli; then
  if appstreamcli validate --no-net --pedantic "$metainfo" >"$work/out" 2>&1; then
    ok "appstreamcli validate --no-net $metainfo"
  else
    fail "appstreamcli validate --no-net $metainfo"
  fi
  show "$work/out"
elif have appstream-util; then
  if appstream-util validate-relax --nonet "$metainfo" >"$work/out" 2>&1; then
    ok "appstream-util validate-relax $metainfo"
  else
    fail "appstream-util validate-relax $metainfo"
  fi
  show "$work/out"
else
  skip "AppStream metainfo" appstreamcli
fi
if grep -q "<release version=\"$(awk '/^\[/ { p = ($0 == "[package]") } p && /^version *=/ { gsub(/.*= *"|".*/, ""); print; exit }' Cargo.toml)\"" "$metainfo"; then
  ok "metainfo has a release entry for Cargo.toml's version"
else
  fail "metainfo has no <release> for Cargo.toml's version"
fi

# --- MIME type ---
# shared-mime-info ships no XSD: its schema is the DTD internal to freedesktop.org.xml.
if have xmllint; then
  if [ -r "$system_mime" ]; then
    sed -n '/<!DOCTYPE mime-info \[/,/^\]>/p' "$system_mime" | sed '1d;$d' >"$work/mime.dtd"
  fi
  if [ -s "$work/mime.dtd" ]; then
    if xmllint --noout --dtdvalid "$work/mime.dtd" "$mimexml" >"$work/out" 2>&1; then
      ok "xmllint --dtdvalid (shared-mime-info's DTD) $mimexml"
    else
      fail "xmllint --dtdvalid (shared-mime-info's DTD) $mimexml"
    fi
  else
    echo "skipped: MIME XML against shared-mime-info's DTD ($system_mime not installed)"
    if xmllint --noout "$mimexml" >"$work/out" 2>&1; then ok "xmllint (well-formed) $mimexml"; else fail "xmllint (well-formed) $mimexml"; fi
  fi
  show "$work/out"
  if xmllint --noout "$metainfo" >"$work/out" 2>&1; then ok "xmllint (well-formed) $metainfo"; else fail "xmllint (well-formed) $metainfo"; show "$work/out"; fi
else
  skip "MIME and metainfo XML" xmllint
fi
# The magic in a private MIME database: a scene graft saves is graft's type, another RON file
# is not, and a Godot scene keeps the system's type.
if have update-mime-database; then
  data=$work/data
  mkdir -p "$data/mime/packages"
  cp "$mimexml" "$data/mime/packages/$id.xml"
  if update-mime-database "$data/mime" >"$work/out" 2>&1 && ! grep -qi 'warn\|error\|invalid' "$work/out"; then
    ok "update-mime-database accepts $mimexml"
  else
    fail "update-mime-database on $mimexml"
    show "$work/out"
  fi
  sniffer=""
  if have mimetype; then
    sniff() { XDG_DATA_HOME=$data mimetype --brief --dereference "$1" 2>/dev/null; }
    sniffer=mimetype
  elif have gio; then
    sniff() { XDG_DATA_HOME=$data gio info -a standard::content-type "$1" 2>/dev/null | sed -n 's/^ *standard::content-type: //p'; }
    sniffer=gio
  fi
  if [ -z "$sniffer" ]; then
    skip "MIME magic on sample files" "mimetype (libfile-mimeinfo-perl) or gio"
  else
    mkdir -p "$work/mime-files"
    if ! $have_graft; then
      echo "skipped: MIME magic on a scene saved by graft (no graft binary)"
    elif "$graft" fmt scenes/sword.ron -o "$work/mime-files/saved.ron" >/dev/null 2>&1; then
      t=$(sniff "$work/mime-files/saved.ron")
      [ "$t" = application/x-graft-scene ] && ok "MIME ($sniffer): a scene saved by graft is $t" \
        || fail "MIME ($sniffer): a scene saved by graft is '$t', not application/x-graft-scene"
    else
      fail "graft fmt scenes/sword.ron -o saved.ron (to test the MIME magic)"
    fi
    for scene in scenes/*.ron; do
      t=$(sniff "$scene")
      [ "$t" = application/x-graft-scene ] && ok "MIME ($sniffer): $scene is $t" \
        || fail "MIME ($sniffer): $scene is '$t', not application/x-graft-scene (its first line must start with '// graft scene')"
    done
    printf '(name: "x")\n' >"$work/mime-files/config.ron"
    printf '// graft: not a scene\n(name: "x")\n' >"$work/mime-files/comment.ron"
    for f in config.ron comment.ron; do
      t=$(sniff "$work/mime-files/$f")
      [ "$t" != application/x-graft-scene ] && ok "MIME ($sniffer): another RON file ($f) is $t" \
        || fail "MIME ($sniffer): another RON file ($f) is claimed as $t"
    done
    printf '[gd_scene format=3]\n\n[node name="Root" type="Node2D"]\n' >"$work/mime-files/level.tscn"
    t=$(sniff "$work/mime-files/level.tscn")
    [ "$t" = application/x-godot-scene ] && ok "MIME ($sniffer): a .tscn is $t" \
      || fail "MIME ($sniffer): a .tscn is '$t', not application/x-godot-scene"
  fi
else
  skip "MIME database" update-mime-database
fi

# --- Thumbnailer ---
# A key file with a [Thumbnailer Entry] group: TryExec, and an Exec with %i %o %s for graft.
thumb_exec=$(awk -F= '/^\[/ { g = $0 } g == "[Thumbnailer Entry]" && $1 == "Exec" { sub(/^Exec=/, ""); print }' "$thumbnailer")
thumb_try=$(awk -F= '/^\[/ { g = $0 } g == "[Thumbnailer Entry]" && $1 == "TryExec" { print $2 }' "$thumbnailer")
thumb_types=$(awk -F= '/^\[/ { g = $0 } g == "[Thumbnailer Entry]" && $1 == "MimeType" { print $2 }' "$thumbnailer")
bad_lines=$(grep -vnE '^(#.*|\[Thumbnailer Entry\]|(TryExec|Exec|MimeType)=.+|)$' "$thumbnailer" || true)
if [ -n "$thumb_exec" ] && [ "$thumb_try" = graft ] && [ "${thumb_exec%% *}" = graft ] && [ -z "$bad_lines" ] \
  && [[ $thumb_exec == *%i* && $thumb_exec == *%o* && $thumb_exec == *%s* ]] && [[ $thumb_types == *\; ]]; then
  ok "thumbnailer entry parses (Exec=$thumb_exec)"
else
  fail "thumbnailer entry $thumbnailer does not parse as [Thumbnailer Entry] with TryExec=graft and Exec with %i %o %s"
  [ -n "$bad_lines" ] && echo "    unexpected lines: $bad_lines"
fi
missing=""
for t in ${thumb_types//;/ }; do
  grep -q "type=\"$t\"" "$mimexml" "$system_mime" 2>/dev/null || missing="$missing $t"
done
[ -z "$missing" ] && ok "thumbnailer MIME types are defined" || fail "thumbnailer MIME types not defined:$missing"
# The PNG's width and height, from its IHDR chunk.
png_size() { [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || return 1
  od -An -tu1 -j16 -N8 "$1" | awk '{ printf "%dx%d\n", $1*16777216+$2*65536+$3*256+$4, $5*16777216+$6*65536+$7*256+$8 }'; }
# Run the Exec line as a file manager would, %s %i %o substituted (graft from $graft).
run_thumbnailer() { # size input output
  local args=() word
  for word in $thumb_exec; do
    case "$word" in
      graft) args+=("$graft") ;; %s) args+=("$1") ;; %i) args+=("$2") ;; %o) args+=("$3") ;;
      %u) args+=("file://$(realpath "$2")") ;; *) args+=("$word") ;;
    esac
  done
  # In a subshell, so a crash is reported in thumb.err, not as the shell's "Aborted" line.
  (timeout 10 "${args[@]}"; exit) >/dev/null 2>"$work/thumb.err"
}
if $have_graft && [ -n "$thumb_exec" ]; then
  cp fuzz/seeds-tscn/small.tscn "$work/small.tscn" 2>/dev/null \
    || printf '[gd_scene format=3]\n\n[node name="Root" type="Node2D"]\n\n[node name="Box" type="Polygon2D" parent="."]\npolygon = PackedVector2Array(0, 0, 10, 0, 5, 8)\n' >"$work/small.tscn"
  for scene in scenes/*.ron "$work/small.tscn"; do
    out=$work/thumb.png
    rm -f "$out"
    if run_thumbnailer 128 "$scene" "$out" && [ "$(png_size "$out")" = 128x128 ]; then
      ok "thumbnailer: $(basename "$scene") -> 128x128 PNG"
    else
      fail "thumbnailer: $(basename "$scene") gave no 128x128 PNG"
      show "$work/thumb.err"
    fi
  done
  printf '(\n    format: 1,\n    nodes: [\n        (id: 1, name: "broken",\n' >"$work/broken.ron"
  rm -f "$work/thumb.png"
  start=$(date +%s%N)
  run_thumbnailer 128 "$work/broken.ron" "$work/thumb.png"
  status=$?
  ms=$((($(date +%s%N) - start) / 1000000))
  if [ $status -ne 0 ] && [ ! -e "$work/thumb.png" ] && [ $ms -lt 3000 ]; then
    ok "thumbnailer: a broken scene gives no PNG (exit $status, ${ms} ms)"
  else
    fail "thumbnailer: a broken scene (exit $status, ${ms} ms, output $( [ -e "$work/thumb.png" ] && echo written || echo none))"
  fi
  # graft reports the scene's error and exits 1; a signal (134: abort) means it crashed.
  if [ $status -eq 1 ]; then
    ok "thumbnailer: the broken scene exits 1 ($(head -n 1 "$work/thumb.err"))"
  else
    fail "thumbnailer: the broken scene exits $status, not 1"
    show "$work/thumb.err"
  fi
fi

# --- Man pages ---
if $have_graft; then
  if "$graft" man --out "$work/man" >/dev/null 2>"$work/out" && ls "$work"/man/*.1 >/dev/null 2>&1; then
    ok "graft man --out: $(find "$work/man" -name '*.1' | wc -l) pages"
    for page in "$work"/man/*.1; do
      name=$(basename "$page")
      if have man; then
        if MANWIDTH=80 man --warnings -l "$page" >"$work/rendered" 2>"$work/out" && [ ! -s "$work/out" ] && [ -s "$work/rendered" ]; then
          ok "man -l $name renders without warnings"
        else
          fail "man -l $name"
          show "$work/out"
        fi
      elif have groff; then
        if groff -man -Tutf8 -ww -z "$page" 2>"$work/out" && [ ! -s "$work/out" ]; then
          ok "groff -man $name without warnings"
        else
          fail "groff -man $name"
          show "$work/out"
        fi
      else
        skip "man page $name" man
      fi
      if have lexgrog; then
        # What lintian's bad-whatis-entry and `whatis`/`apropos` read: the NAME section.
        lexgrog "$page" >"$work/out" 2>&1 && ok "lexgrog $name: $(sed 's/^[^:]*: *//' "$work/out" | head -n 1)" \
          || { fail "lexgrog $name (NAME section not parsed)"; show "$work/out"; }
      fi
    done
  else
    fail "graft man --out"
    show "$work/out"
  fi
fi

# --- Completions ---
if $have_graft; then
  if "$graft" completions bash >"$work/graft.bash" 2>"$work/out" && [ -s "$work/graft.bash" ]; then
    if bash -c 'source "$1" && complete -p graft' _ "$work/graft.bash" >"$work/out" 2>&1; then
      ok "bash completion loads: $(cat "$work/out")"
    else
      fail "bash completion does not load"
      show "$work/out"
    fi
  else
    fail "graft completions bash"
    show "$work/out"
  fi
  for shell in zsh fish; do
    if "$graft" completions "$shell" >"$work/graft.$shell" 2>"$work/out" && [ -s "$work/graft.$shell" ]; then
      if have "$shell"; then
        if "$shell" -n "$work/graft.$shell" >"$work/out" 2>&1; then
          ok "$shell completion parses ($shell -n)"
        else
          fail "$shell -n on the $shell completion"
          show "$work/out"
        fi
      else
        ok "graft completions $shell: $(wc -l <"$work/graft.$shell") lines"
        skip "$shell completion syntax" "$shell"
      fi
    else
      fail "graft completions $shell"
      show "$work/out"
    fi
  done
  if "$graft" --version >"$work/out" 2>&1 && grep -q '^graft [0-9]' "$work/out"; then
    ok "graft --version: $(cat "$work/out")"
  else
    fail "graft --version"
    show "$work/out"
  fi
fi

# --- The packaging scripts themselves ---
for script in packaging/*.sh; do
  bash -n "$script" 2>"$work/out" && ok "bash -n $script" || { fail "bash -n $script"; show "$work/out"; }
done
if have shellcheck; then
  if shellcheck packaging/*.sh >"$work/out" 2>&1; then ok "shellcheck packaging/*.sh"; else fail "shellcheck packaging/*.sh"; show "$work/out"; fi
else
  skip "shellcheck of packaging/*.sh" shellcheck
fi

if [ $failures -gt 0 ]; then
  echo "packaging: $failures check(s) failed"
  exit 1
fi
echo "packaging: all checks passed"
