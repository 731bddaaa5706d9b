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
# (Outputs are captured before grep: grep -q closing the pipe early would make the writer
# die of SIGPIPE, which pipefail reports as a failure.)
depends=$(dpkg-deb -f "$deb" Depends)
grep -q 'libqt6charts6' <<<"$depends" || { echo "Depends lacks Qt Charts: $depends"; exit 1; }
root="$out/root"
dpkg -x "$deb" "$root"
for f in usr/bin/clusterlens usr/bin/clusterlens-cli \
         usr/share/applications/clusterlens.desktop \
         usr/share/icons/hicolor/scalable/apps/clusterlens.svg \
         usr/share/clusterlens/presets/h100-ndr-2node.json; do
    [ -e "$root/$f" ] || { echo "missing $f in package"; exit 1; }
done
help=$("$root/usr/bin/clusterlens-cli" --help) || { echo "unpacked CLI --help failed"; exit 1; }
grep -q 'clusterlens-cli' <<<"$help" || { echo "unexpected --help output"; exit 1; }
gpus=$("$root/usr/bin/clusterlens-cli" catalog gpus --json)
grep -q '"h100-sxm"' <<<"$gpus" || { echo "unpacked CLI has no h100-sxm"; exit 1; }
echo "package ok: $(basename "$deb")"
