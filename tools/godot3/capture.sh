#!/usr/bin/env bash
# Record what real Godot 3 makes of each scene in a folder: runs Debian's godot3-server (3.2.3)
# with print_transforms.gd on every .tscn and writes NAME.godot3.jsonl next to it (one JSON
# object per node; see the script's header). The tests compare graft's import with these.
#
# Usage: tools/godot3/capture.sh [FOLDER]     (default: tests/fixtures/godot/godot3-rules)
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=${1:-tests/fixtures/godot/godot3-rules}
godot=$(command -v godot3-server || true)
[ -n "$godot" ] || { echo "capture.sh: godot3-server is not installed (apt-get install godot3-server)" >&2; exit 1; }
script=$(pwd)/tools/godot3/print_transforms.gd
for scene in "$dir"/*.tscn; do
  name=$(basename "$scene")
  out="${scene%.tscn}.godot3.jsonl"
  "$godot" --no-window --path "$dir" -s "$script" --scene="$name" 2>/dev/null | grep '^{' > "$out"
  echo "$out: $(wc -l < "$out") lines ($("$godot" --version 2>/dev/null | head -1))"
done
# Godot writes its logs under the project folder when there is no project.godot.
rm -rf "$dir/logs"
