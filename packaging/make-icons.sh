#!/usr/bin/env bash
# Draw graft's icon with graft itself: the small scene packaging/icon/graft-icon.ron through
# `graft figure` (the renderer behind File > Export figure), as the scalable SVG and the hicolor
# PNG sizes. Every size is the same 128x128 CSS-pixel figure rendered at scale SIZE/128, so the
# PNGs are the SVG, pixel for pixel. The output is deterministic: tests/packaging.rs checks that
# the committed SVG is what `graft figure` draws today (rerun this script when it is not).
#
# Usage: packaging/make-icons.sh [PATH_TO_GRAFT]     (default: builds and uses target/debug/graft)
set -euo pipefail
cd "$(dirname "$0")/.."
graft=${1:-}
if [ -z "$graft" ]; then
  cargo build --quiet --bin graft
  graft=target/debug/graft
fi
id=io.github.graft.Graft
scene=packaging/icon/graft-icon.ron
out=packaging/icons/hicolor
base=128
# The icon shows the shapes and the parent links; axes, names and the grid are noise at 16 px.
draw() { "$graft" figure "$scene" --layers links --no-caption --size "${base}x${base}" "$@" >/dev/null; }

mkdir -p "$out/scalable/apps"
draw -o "$out/scalable/apps/$id.svg"
for n in 16 24 32 48 64 128 256 512; do
  mkdir -p "$out/${n}x${n}/apps"
  draw -o "$out/${n}x${n}/apps/$id.png" --scale "$(awk -v n="$n" -v b="$base" 'BEGIN { print n / b }')"
done
echo "drew $out/scalable/apps/$id.svg and 8 PNG sizes from $scene"
