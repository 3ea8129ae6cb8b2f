#!/usr/bin/env bash
# Install the built package on this machine, check that graft works like an installed desktop
# application, then purge it and check that nothing it installed is left.
#
# Usage (as root, after packaging/deb.sh): packaging/check-installed.sh [PATH_TO_DEB]
#   Default: the newest target/debian/graft_*.deb. GRAFT_CHECK_RECOMMENDS=1 installs the
#   package's Recommends too (Vulkan drivers, a desktop portal), as a plain `apt install` would.
#
# It changes the system: it installs graft and the tools the checks need (xdg-utils,
# shared-mime-info, desktop-file-utils, libfile-mimeinfo-perl, man-db), and removes graft at
# the end (the tools stay). Prints PASS/FAIL per check; exits 1 when any check fails.
# shellcheck disable=SC2015 # `check && pass ... || fail ...`: pass always succeeds
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
export LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive

id=io.github.graft.Graft
[ "$(id -u)" = 0 ] || { echo "check-installed.sh: run it as root: it installs and removes the package" >&2; exit 2; }
deb=${1:-$(find target/debian -maxdepth 1 -name 'graft_*.deb' -printf '%T@ %p\n' 2>/dev/null | sort -n | tail -n 1 | cut -d' ' -f2-)}
[ -n "$deb" ] && [ -f "$deb" ] || { echo "check-installed.sh: no package; build it with packaging/deb.sh" >&2; exit 2; }
deb=$(realpath "$deb")

failures=0
pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1"; failures=$((failures + 1)); }
info() { echo "      $1"; }

work=$(mktemp -d)
chmod 0755 "$work"
installed_by_us=false
cleanup() {
  if $installed_by_us && dpkg-query -W -f='${Status}' graft 2>/dev/null | grep -q installed; then
    apt-get remove --purge -y -qq graft >/dev/null 2>&1
  fi
  rm -rf "$work"
}
trap cleanup EXIT

apt_install() { # packages or ./file.deb; retries after `apt-get update` (a fresh machine has no lists)
  timeout 600 apt-get install -y -qq "$@" >"$work/apt.log" 2>&1 \
    || { timeout 300 apt-get update -qq >>"$work/apt.log" 2>&1 && timeout 600 apt-get install -y -qq "$@" >>"$work/apt.log" 2>&1; }
}

# xdg-mime's generic backend asks `mimetype` (libfile-mimeinfo-perl) for a file's type; without
# it, it falls back to file(1), which ignores the shared MIME database.
if ! apt_install --no-install-recommends xdg-utils shared-mime-info desktop-file-utils libfile-mimeinfo-perl man-db; then
  sed 's/^/    /' "$work/apt.log"
  echo "check-installed.sh: could not install the tools the checks need" >&2
  exit 2
fi

if dpkg-query -W -f='${Status}' graft 2>/dev/null | grep -q 'install ok installed'; then
  info "note: graft was already installed ($(dpkg-query -W -f='${Version}' graft)); it is replaced, then purged"
fi
recommends=--no-install-recommends
[ "${GRAFT_CHECK_RECOMMENDS:-0}" = 1 ] && recommends=--install-recommends
if apt_install "$recommends" "$deb"; then
  installed_by_us=true
  pass "apt-get install $recommends $(basename "$deb")"
else
  fail "apt-get install $(basename "$deb")"
  sed 's/^/    /' "$work/apt.log"
  exit 1
fi
version=$(dpkg-deb --field "$deb" Version)
dpkg -L graft | LC_ALL=C sort >"$work/files"
info "$(wc -l <"$work/files") paths installed"

# A clean desktop-less environment: the generic xdg-mime backend, no user overrides.
mkdir -p "$work/home"
xdg() {
  env -u XDG_CURRENT_DESKTOP -u DESKTOP_SESSION -u KDE_FULL_SESSION -u KDE_SESSION_VERSION \
    -u GNOME_DESKTOP_SESSION_ID -u XDG_DATA_DIRS -u XDG_CONFIG_DIRS \
    HOME="$work/home" XDG_DATA_HOME="$work/home/.local/share" XDG_CONFIG_HOME="$work/home/.config" \
    xdg-mime "$@" 2>/dev/null
}

# --- the binary ---
if [ "$(command -v graft)" = /usr/bin/graft ] && out=$(/usr/bin/graft --version 2>&1) \
  && [ "$out" = "graft ${version//\~/-}" ]; then
  pass "/usr/bin/graft --version: $out"
else
  fail "/usr/bin/graft --version: '${out:-}' (expected 'graft ${version//\~/-}', graft is $(command -v graft || echo missing))"
fi

# --- file types ---
for scene in scenes/*.ron; do
  t=$(xdg query filetype "$scene")
  [ "$t" = application/x-graft-scene ] && pass "xdg-mime query filetype $scene: $t" \
    || fail "xdg-mime query filetype $scene: '$t', not application/x-graft-scene"
done
/usr/bin/graft fmt scenes/sword.ron -o "$work/saved.ron" >/dev/null 2>&1
t=$(xdg query filetype "$work/saved.ron")
[ "$t" = application/x-graft-scene ] && pass "xdg-mime query filetype (a scene saved by graft): $t" \
  || fail "xdg-mime query filetype (a scene saved by graft): '$t', not application/x-graft-scene"
printf '(name: "x")\n' >"$work/config.ron"
t=$(xdg query filetype "$work/config.ron")
[ -n "$t" ] && [ "$t" != application/x-graft-scene ] && pass "xdg-mime query filetype (another .ron, '(name: \"x\")'): $t" \
  || fail "xdg-mime query filetype (another .ron): '$t'"
cat >"$work/level.tscn" <<'EOF'
[gd_scene load_steps=2 format=3]

[sub_resource type="RectangleShape2D" id="1"]
size = Vector2(40, 20)

[node name="Level" type="Node2D"]
position = Vector2(10, 20)

[node name="Crate" type="CollisionShape2D" parent="."]
shape = SubResource("1")
rotation = 0.5
scale = Vector2(2, 1)

[node name="Flag" type="Polygon2D" parent="Crate"]
position = Vector2(0, -30)
polygon = PackedVector2Array(0, 0, 20, 5, 0, 10)
EOF
t=$(xdg query filetype "$work/level.tscn")
[ "$t" = application/x-godot-scene ] && pass "xdg-mime query filetype (a Godot .tscn): $t" \
  || fail "xdg-mime query filetype (a Godot .tscn): '$t', not application/x-godot-scene"
t=$(xdg query default application/x-graft-scene)
[ "$t" = "$id.desktop" ] && pass "xdg-mime query default application/x-graft-scene: $t" \
  || fail "xdg-mime query default application/x-graft-scene: '$t', not $id.desktop"
info "for .tscn (graft is offered; Godot's entry claims only project.godot): default $(xdg query default application/x-godot-scene), all: $(sed -n 's/^application\/x-godot-scene=//p' /usr/share/applications/mimeinfo.cache)"
if command -v gio >/dev/null; then # GLib's sniffing, as GNOME's file manager and thumbnailers see it
  t=$(HOME="$work/home" gio info -a standard::content-type scenes/sword.ron 2>/dev/null | sed -n 's/^ *standard::content-type: //p')
  [ "$t" = application/x-graft-scene ] && pass "gio info scenes/sword.ron: $t" || fail "gio info scenes/sword.ron: '$t'"
fi
desktop-file-validate "/usr/share/applications/$id.desktop" >"$work/out" 2>&1 && ! grep -qE '(error|warning):' "$work/out" \
  && pass "desktop-file-validate /usr/share/applications/$id.desktop" \
  || { fail "desktop-file-validate /usr/share/applications/$id.desktop"; sed 's/^/    /' "$work/out"; }
icons_ok=true
for size in 16x16 24x24 32x32 48x48 64x64 128x128 256x256 512x512; do
  [ -s "/usr/share/icons/hicolor/$size/apps/$id.png" ] || icons_ok=false
done
[ -s "/usr/share/icons/hicolor/scalable/apps/$id.svg" ] || icons_ok=false
$icons_ok && pass "icons in /usr/share/icons/hicolor (8 sizes and scalable)" || fail "an icon is missing in /usr/share/icons/hicolor"
if command -v appstreamcli >/dev/null; then
  appstreamcli validate --no-net "/usr/share/metainfo/$id.metainfo.xml" >"$work/out" 2>&1 \
    && pass "appstreamcli validate --no-net /usr/share/metainfo/$id.metainfo.xml" \
    || { fail "appstreamcli validate /usr/share/metainfo/$id.metainfo.xml"; sed 's/^/    /' "$work/out"; }
fi

# --- thumbnails: the installed entry's Exec line, run as a file manager runs it ---
thumbnailer=/usr/share/thumbnailers/$id.thumbnailer
exec_line=$(sed -n 's/^Exec=//p' "$thumbnailer")
info "thumbnailer Exec=$exec_line"
png_size() { [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || return 1
  od -An -tu1 -j16 -N8 "$1" | awk '{ printf "%dx%d\n", $1*16777216+$2*65536+$3*256+$4, $5*16777216+$6*65536+$7*256+$8 }'; }
thumbnail() { # size input output; prints the milliseconds taken, returns graft's status
  local args=() word start status
  for word in $exec_line; do
    case "$word" in
      %s) args+=("$1") ;; %i) args+=("$2") ;; %o) args+=("$3") ;; %u) args+=("file://$(realpath "$2")") ;;
      *) args+=("$word") ;;
    esac
  done
  start=$(date +%s%N)
  (timeout 10 "${args[@]}"; exit) >/dev/null 2>"$work/thumb.err" # a crash is reported in thumb.err
  status=$?
  echo $((($(date +%s%N) - start) / 1000000))
  return $status
}
for input in scenes/*.ron "$work/level.tscn"; do
  for size in 128 256; do
    out=$work/thumb.png
    rm -f "$out"
    ms=$(thumbnail "$size" "$input" "$out")
    status=$?
    got=$(png_size "$out" 2>/dev/null || echo none)
    if [ $status -eq 0 ] && [ "$got" = "${size}x${size}" ]; then
      pass "thumbnail $(basename "$input") at $size: ${got} PNG in ${ms} ms"
    else
      fail "thumbnail $(basename "$input") at $size: exit $status, PNG $got, ${ms} ms"
      sed 's/^/    /' "$work/thumb.err"
    fi
    # The issue's budget for the sample scenes: 0.3 s.
    if [ "$input" != "$work/level.tscn" ] && [ $status -eq 0 ]; then
      [ "$ms" -le 300 ] && pass "thumbnail $(basename "$input") at $size within 0.3 s" \
        || fail "thumbnail $(basename "$input") at $size took ${ms} ms (budget 300 ms)"
    fi
  done
done
# Broken, oversized and hostile inputs: no PNG, quickly.
printf '(\n    format: 1,\n    nodes: [\n        (id: 1, name: "broken",\n' >"$work/broken.ron"
printf '[gd_scene format=3]\n\n[node name="A" type="Node2D"]\nposition = Vector2(1, ' >"$work/broken.tscn"
head -c $((17 << 20)) /dev/zero | tr '\0' ' ' >"$work/huge.ron"
{ printf '// graft scene, format 1\n'; head -c 200000 /dev/zero | tr '\0' '['; } >"$work/nested.ron"
for input in "$work/broken.ron" "$work/broken.tscn" "$work/huge.ron" "$work/nested.ron"; do
  rm -f "$work/thumb.png" "$work"/.thumb.png* "$work"/thumb.png.*
  ms=$(thumbnail 128 "$input" "$work/thumb.png")
  status=$?
  leftovers=$(find "$work" -maxdepth 1 -name '*thumb.png*' | wc -l)
  if [ $status -ne 0 ] && [ "$leftovers" -eq 0 ] && [ "$ms" -lt 3000 ]; then
    pass "thumbnail $(basename "$input"): no PNG, exit $status, ${ms} ms"
    # graft refuses the file and exits 1; another status is a crash (134: abort), still safe.
    [ $status -eq 1 ] || { info "exit $status is not graft's refusal (1):"; sed 's/^/    /' "$work/thumb.err"; }
  else
    fail "thumbnail $(basename "$input"): exit $status, $leftovers output file(s), ${ms} ms (want no output within 3 s)"
  fi
done

# --- terminal: man pages and completions ---
pages=$(grep '^/usr/share/man/man1/.*\.1\.gz$' "$work/files")
[ -n "$pages" ] && pass "man pages: $(echo "$pages" | wc -l)" || fail "no man pages installed"
for page in $pages; do
  if MANWIDTH=80 man --warnings -l "$page" >"$work/rendered" 2>"$work/out" && [ ! -s "$work/out" ] && [ -s "$work/rendered" ]; then
    pass "man -l $(basename "$page") renders ($(wc -l <"$work/rendered") lines, no warnings)"
  else
    fail "man -l $(basename "$page")"
    sed 's/^/    /' "$work/out"
  fi
done
[ "$(man -w graft 2>/dev/null)" = /usr/share/man/man1/graft.1.gz ] && pass "man -w graft: /usr/share/man/man1/graft.1.gz" \
  || fail "man -w graft: '$(man -w graft 2>&1)'"
t=$(whatis graft 2>/dev/null | head -n 1)
[ -n "$t" ] && pass "whatis graft: $t" || fail "whatis graft finds nothing (man-db's trigger or the NAME section)"
if out=$(bash -c 'source /usr/share/bash-completion/completions/graft && complete -p graft' 2>&1); then
  pass "bash completion: $out"
else
  fail "bash completion: $out"
fi
for f in /usr/share/zsh/vendor-completions/_graft /usr/share/fish/vendor_completions.d/graft.fish; do
  [ -s "$f" ] && pass "completion $f" || fail "completion $f missing or empty"
done
command -v zsh >/dev/null && { zsh -n /usr/share/zsh/vendor-completions/_graft && pass "zsh -n _graft" || fail "zsh -n _graft"; }
command -v fish >/dev/null && { fish -n /usr/share/fish/vendor_completions.d/graft.fish && pass "fish -n graft.fish" || fail "fish -n graft.fish"; }
[ -s /usr/share/doc/graft/copyright ] && pass "/usr/share/doc/graft/copyright" || fail "/usr/share/doc/graft/copyright missing"

# --- removal ---
if apt-get remove --purge -y -qq graft >"$work/apt.log" 2>&1; then
  installed_by_us=false
  pass "apt-get remove --purge graft"
else
  fail "apt-get remove --purge graft"
  sed 's/^/    /' "$work/apt.log"
fi
left=()
while read -r path; do
  [ "$path" = /. ] && continue
  if [ -d "$path" ] && [ ! -L "$path" ]; then
    # A directory stays only while it is not empty or another package owns it.
    if [ -z "$(ls -A "$path")" ] && ! dpkg-query -S "$path" >/dev/null 2>&1; then left+=("$path/"); fi
  elif [ -e "$path" ] || [ -L "$path" ]; then
    left+=("$path")
  fi
done <"$work/files"
if [ ${#left[@]} -eq 0 ]; then
  pass "no file of the package is left ($(wc -l <"$work/files") paths checked)"
else
  fail "left after purge: ${left[*]}"
fi
# The dpkg triggers ran on removal too: the caches no longer know graft.
! grep -q 'application/x-graft-scene' /usr/share/mime/types 2>/dev/null && pass "MIME database no longer has application/x-graft-scene" \
  || fail "application/x-graft-scene is still in /usr/share/mime/types (shared-mime-info's trigger did not run)"
! grep -q "$id.desktop" /usr/share/applications/mimeinfo.cache 2>/dev/null && pass "mimeinfo.cache no longer lists $id.desktop" \
  || fail "$id.desktop is still in /usr/share/applications/mimeinfo.cache (desktop-file-utils' trigger did not run)"

if [ $failures -gt 0 ]; then
  echo "check-installed: $failures check(s) failed"
  exit 1
fi
echo "check-installed: all checks passed"
