#!/usr/bin/env bash
# Builds the .deb with cpack, unpacks it into a temporary root with dpkg -x, checks its
# contents and metadata, and runs the unpacked clusterlens-cli --help.
set -euo pipefail
build="$1"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cd "$build"
cpack -G DEB -B "$out/pkg" >"$out/cpack.log" 2>&1 || { cat "$out/cpack.log"; exit 1; }
deb=$(ls "$out"/pkg/*.deb | head -n 1)
[ -f "$deb" ] || { echo "no .deb produced"; exit 1; }
dpkg-deb -f "$deb" Depends | grep -q 'libqt6charts6' || { echo "Depends lacks Qt Charts"; exit 1; }
root="$out/root"
dpkg -x "$deb" "$root"
for f in usr/bin/clusterlens usr/bin/clusterlens-cli \
         usr/share/applications/clusterlens.desktop \
         usr/share/icons/hicolor/scalable/apps/clusterlens.svg \
         usr/share/clusterlens/presets/h100-ndr-2node.json; do
    [ -e "$root/$f" ] || { echo "missing $f in package"; exit 1; }
done
"$root/usr/bin/clusterlens-cli" --help | grep -q 'clusterlens-cli' || { echo "unpacked CLI --help failed"; exit 1; }
"$root/usr/bin/clusterlens-cli" catalog gpus --json | grep -q '"h100-sxm"'
echo "package ok: $(basename "$deb")"
