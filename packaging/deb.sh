#!/usr/bin/env bash
# Build the Debian package target/debian/graft_VERSION_ARCH.deb with plain dpkg-deb.
#
# Usage: packaging/deb.sh [PATH_TO_GRAFT]
#   The binary is $1, else $GRAFT_BIN, else `cargo build --release --locked --bin graft`.
#   Environment: GRAFT_MAINTAINER ("Name <email>") overrides the Maintainer field.
#
# Plain dpkg-deb rather than cargo-deb: it needs no extra cargo tool on the build machine or in
# CI, and every installed path is spelled out here, next to the freedesktop files it installs.
#
# No maintainer scripts. On Debian 12 the caches are refreshed by dpkg file triggers that the
# owning packages declare (see /var/lib/dpkg/info/*.triggers), both on install and on removal:
#   shared-mime-info    interest-noawait /usr/share/mime/packages   -> update-mime-database
#   desktop-file-utils  interest-noawait /usr/share/applications    -> update-desktop-database
#   hicolor-icon-theme  interest-noawait /usr/share/icons/hicolor   -> gtk-update-icon-cache
#   man-db              interest-noawait /usr/share/man             -> mandb
# Thumbnailers (/usr/share/thumbnailers), AppStream metainfo and shell completions need no cache.
# Debian policy (and lintian's command-in-maintainer-script checks) asks packages not to call
# these tools themselves.
set -euo pipefail
cd "$(dirname "$0")/.."
umask 022

id=io.github.graft.Graft
pkg=graft

bin=${1:-${GRAFT_BIN:-}}
if [ -z "$bin" ]; then
  cargo build --release --locked --bin graft
  bin=target/release/graft
fi
[ -x "$bin" ] || { echo "deb.sh: $bin is not an executable" >&2; exit 1; }

for tool in dpkg-deb dpkg strip gzip; do
  command -v "$tool" >/dev/null || { echo "deb.sh: $tool is required" >&2; exit 1; }
done

# The [package] version of Cargo.toml; a pre-release (0.2.0-beta.1) sorts before its release in
# Debian as 0.2.0~beta.1. A native version (no Debian revision): the package is built here.
cargo_version=$(awk '/^\[/ { inpkg = ($0 == "[package]") } inpkg && /^version *=/ { gsub(/.*= *"|".*/, ""); print; exit }' Cargo.toml)
[ -n "$cargo_version" ] || { echo "deb.sh: no version in Cargo.toml" >&2; exit 1; }
version=${cargo_version//-/\~}
arch=$(dpkg --print-architecture)
maintainer=${GRAFT_MAINTAINER:-$(git log -1 --format='%an <%ae>' 2>/dev/null || true)}
maintainer=${maintainer:-graft maintainers <graft@localhost>}

# Reproducible: every timestamp is the last commit's (or SOURCE_DATE_EPOCH when set).
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# dpkg-shlibdeps expects the tree at debian/<package> beside a debian/control.
root=$work/debian/$pkg
mkdir -p "$root/DEBIAN"

# The binary, stripped as dh_strip does.
install -D -m 0755 "$bin" "$root/usr/bin/graft"
strip --remove-section=.comment --remove-section=.note --strip-unneeded "$root/usr/bin/graft"
graft=$root/usr/bin/graft

# Desktop entry, icons, MIME type, thumbnailer, AppStream metainfo.
install -D -m 0644 packaging/$id.desktop "$root/usr/share/applications/$id.desktop"
(cd packaging/icons && find hicolor -type f \( -name "$id.png" -o -name "$id.svg" \)) | while read -r icon; do
  install -D -m 0644 "packaging/icons/$icon" "$root/usr/share/icons/$icon"
done
install -D -m 0644 packaging/$id.mime.xml "$root/usr/share/mime/packages/$id.xml"
install -D -m 0644 packaging/$id.thumbnailer "$root/usr/share/thumbnailers/$id.thumbnailer"
install -D -m 0644 packaging/$id.metainfo.xml "$root/usr/share/metainfo/$id.metainfo.xml"

# Man pages (clap_mangen), gzipped as dh_compress does.
"$graft" man --out "$work/man" >/dev/null
mkdir -p "$root/usr/share/man/man1"
for page in "$work"/man/*.1; do
  gzip -9n -c "$page" > "$root/usr/share/man/man1/$(basename "$page").gz"
done
chmod 0644 "$root"/usr/share/man/man1/*.gz

# Shell completions (clap_complete), where Debian's bash-completion, zsh and fish look.
install -d "$root/usr/share/bash-completion/completions" "$root/usr/share/zsh/vendor-completions" \
  "$root/usr/share/fish/vendor_completions.d"
"$graft" completions bash > "$root/usr/share/bash-completion/completions/graft"
"$graft" completions zsh > "$root/usr/share/zsh/vendor-completions/_graft"
"$graft" completions fish > "$root/usr/share/fish/vendor_completions.d/graft.fish"
chmod 0644 "$root/usr/share/bash-completion/completions/graft" \
  "$root/usr/share/zsh/vendor-completions/_graft" "$root/usr/share/fish/vendor_completions.d/graft.fish"

# /usr/share/doc/graft: the machine-readable copyright, the changelog (a native package's is
# changelog.gz), and the licences of the fonts compiled into the binary when cargo's copy of
# epaint_default_fonts is at hand.
doc=$root/usr/share/doc/$pkg
install -d "$doc"
year=$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y)
fonts_version=$(awk '$0 == "name = \"epaint_default_fonts\"" { getline; gsub(/.*= *"|"/, ""); print; exit }' Cargo.lock)
fonts_dir=""
for d in "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/"epaint_default_fonts-$fonts_version"/fonts; do
  [ -d "$d" ] && { fonts_dir=$d; break; }
done
if [ -n "$fonts_dir" ]; then
  install -d "$doc/fonts"
  for f in "$fonts_dir"/*.txt; do install -m 0644 "$f" "$doc/fonts/"; done
  fonts_note="Their licence texts are in /usr/share/doc/graft/fonts/."
else
  echo "deb.sh: warning: epaint_default_fonts $fonts_version not found in cargo's registry; the font licence texts are not included" >&2
  fonts_note="Their licence texts are in the epaint_default_fonts crate (fonts/*.txt)."
fi
cat > "$doc/copyright" <<EOF
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: graft
Upstream-Contact: $maintainer
Comment:
 /usr/bin/graft is statically linked with the Rust crates listed in graft's Cargo.lock, each
 under its own licence (nearly all MIT or Apache-2.0). It embeds the fonts of the
 epaint_default_fonts crate: Ubuntu Light (Ubuntu Font Licence 1.0), Hack (MIT, with the
 Bitstream Vera licence), Noto Emoji (SIL OFL 1.1) and emoji-icon-font (SIL OFL 1.1, MIT).
 $fonts_note

Files: *
Copyright: $year The graft contributors
License: Expat or Apache-2.0

License: Expat
 Permission is hereby granted, free of charge, to any person obtaining a copy of this
 software and associated documentation files (the "Software"), to deal in the Software
 without restriction, including without limitation the rights to use, copy, modify, merge,
 publish, distribute, sublicense, and/or sell copies of the Software, and to permit persons
 to whom the Software is furnished to do so, subject to the following conditions:
 .
 The above copyright notice and this permission notice shall be included in all copies or
 substantial portions of the Software.
 .
 THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED,
 INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR
 PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE
 FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR
 OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER
 DEALINGS IN THE SOFTWARE.

License: Apache-2.0
 Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file
 except in compliance with the License. You may obtain a copy of the License at
 .
 http://www.apache.org/licenses/LICENSE-2.0
 .
 Unless required by applicable law or agreed to in writing, software distributed under the
 License is distributed on an "AS IS" BASIS, WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND,
 either express or implied. See the License for the specific language governing permissions
 and limitations under the License.
 .
 On Debian systems, the complete text of the Apache License, Version 2.0 can be found in
 /usr/share/common-licenses/Apache-2.0.
EOF
chmod 0644 "$doc/copyright"
# The changelog entry is dated like the metainfo's release of this version.
release_date=$(sed -n "s/.*<release version=\"$cargo_version\" date=\"\([0-9-]*\)\".*/\1/p" packaging/$id.metainfo.xml | head -n 1)
if [ -n "$release_date" ]; then
  changelog_date=$(date -u -R -d "$release_date 00:00:00 UTC")
else
  changelog_date=$(date -u -R -d "@$SOURCE_DATE_EPOCH")
fi
cat > "$work/changelog" <<EOF
$pkg ($version) unstable; urgency=medium

  * Release $cargo_version, packaged with a desktop entry, icons, file types
    for graft and Godot scenes, a thumbnailer, AppStream metainfo, man pages
    and shell completions.

 -- $maintainer  $changelog_date
EOF
gzip -9n -c "$work/changelog" > "$doc/changelog.gz"
chmod 0644 "$doc/changelog.gz"

# Depends: the libraries the binary links (dpkg-shlibdeps), and those it opens with dlopen, which
# dpkg-shlibdeps cannot see: winit's X11 (x11-dl, x11rb's dl-libxcb, xkbcommon-dl) and Wayland
# (wayland-sys) clients, EGL or GLX for glutin/glow and wgpu's GL backend, and libdbus for rfd's
# xdg-desktop-portal file dialogs. Vulkan (wgpu's first choice) and the drivers are Recommends:
# without them graft falls back to glow (OpenGL), and the headless subcommands need none of it.
shlibs=""
if command -v dpkg-shlibdeps >/dev/null; then
  mkdir -p "$work/debian"
  printf 'Source: %s\n\nPackage: %s\nArchitecture: any\n' "$pkg" "$pkg" > "$work/debian/control"
  shlibs=$(cd "$work" && dpkg-shlibdeps -O "debian/$pkg/usr/bin/graft" | sed -n 's/^shlibs:Depends=//p') || shlibs=""
fi
[ -n "$shlibs" ] || shlibs="libc6 (>= 2.34), libgcc-s1 (>= 4.2)"
depends=$shlibs
for lib in libdbus-1-3 libx11-6 libx11-xcb1 libxcb1 libxcursor1 libxi6 libxkbcommon0 \
  libxkbcommon-x11-0 libwayland-client0 libwayland-egl1 "libegl1 | libgl1"; do
  case ", $depends," in *", ${lib%% *}"[\ ,]*) ;; *) depends="$depends, $lib" ;; esac
done
recommends="libvulkan1, mesa-vulkan-drivers | vulkan-icd, libegl-mesa0, libgl1-mesa-dri, xdg-desktop-portal-gtk | xdg-desktop-portal-backend | zenity"

installed_size=$(du -s -k --apparent-size --exclude=DEBIAN "$root" | cut -f1)
cat > "$root/DEBIAN/control" <<EOF
Package: $pkg
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $installed_size
Depends: $depends
Recommends: $recommends
Section: graphics
Priority: optional
Description: desktop editor for 2D scene graphs and their transforms
 graft is a desktop editor for 2D scene graphs: a tree of nodes, each placed in
 its parent's space. It shows every node's local and world transform, reparents
 nodes exactly (keeping their world or their local transform), shows the shear
 that non-uniform scale above a rotation produces, animates transforms, and
 imports and exports Godot scenes (.tscn) and SVG drawings.
 .
 The package installs the editor with its menu entry and icon, a file type and
 thumbnailer for graft scenes (also used for Godot scenes), man pages, and
 bash, zsh and fish completions.
EOF
(cd "$root" && find usr -type f -print0 | LC_ALL=C sort -z | xargs -0 md5sum) > "$root/DEBIAN/md5sums"
chmod 0644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"
find "$root" -type d -exec chmod 0755 {} +
find "$root" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +

mkdir -p target/debian
deb=target/debian/${pkg}_${version}_${arch}.deb
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
echo "built $deb"
dpkg-deb --field "$deb" Package Version Architecture Installed-Size Depends Recommends
