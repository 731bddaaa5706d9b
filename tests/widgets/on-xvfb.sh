#!/usr/bin/env bash
# on-xvfb.sh COMMAND...: runs one GUI test on its own virtual X server with Qt's xcb platform.
# Qt's offscreen platform cannot drag (QDrag::exec returns at once), so the input-driven GUI
# tests need a real X server. Each test gets its own server (Xvfb picks a free display number
# itself through -displayfd), so two tests under `ctest -j` never share focus or a display.
set -uo pipefail
command -v Xvfb >/dev/null || { echo "on-xvfb.sh: Xvfb not found (Debian package xvfb)" >&2; exit 2; }
tmp=$(mktemp -d)
Xvfb -displayfd 5 -screen 0 1600x1000x24 -nolisten tcp -noreset 5>"$tmp/display" 2>"$tmp/xvfb.log" &
xvfb=$!
cleanup() { kill "$xvfb" 2>/dev/null; wait "$xvfb" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
for _ in $(seq 200); do
    [ -s "$tmp/display" ] && break
    kill -0 "$xvfb" 2>/dev/null || break
    sleep 0.05
done
if [ ! -s "$tmp/display" ]; then
    echo "on-xvfb.sh: Xvfb did not start:" >&2
    cat "$tmp/xvfb.log" >&2
    exit 2
fi
export DISPLAY=":$(head -n 1 "$tmp/display")"
export QT_QPA_PLATFORM=xcb
"$@"
