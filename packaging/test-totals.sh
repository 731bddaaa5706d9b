#!/usr/bin/env bash
# test-totals.sh BUILD_DIR...: sums Qt Test's per-executable totals ("Totals: N passed, M failed")
# from CTest's log of the last run in each build directory, so the result counts test
# functions, not executables. A test with no Qt Test totals (a shell test) counts as one
# function; an executable that failed although its functions passed (a sanitizer report at
# exit, a crash after the last function) counts one failure more. Prints "N passed, M failed".
set -euo pipefail
passed=0 failed=0
for dir in "$@"; do
    log="$dir/Testing/Temporary/LastTest.log"
    [ -f "$log" ] || continue
    read -r p f < <(awk '
        /^[0-9]+\/[0-9]+ Test: / { name = $3; tp = -1; tf = 0 }
        /^Totals: [0-9]+ passed, [0-9]+ failed/ { tp = $2; tf = $4 }
        /^Test (Passed|Failed)\./ || /^Test (Failed|Not Run|Timeout)/ || /^Test time/ { }
        /^Test Passed\./ { if (tp < 0) P += 1; else { P += tp; F += tf } }
        /^Test Failed\./ || /^Test Not Run/ || /^Test Timeout/ || /^\*\*\*Exception/ {
            if (tp < 0) F += 1; else { P += tp; F += (tf > 0 ? tf : 1) } }
        END { print P + 0, F + 0 }' "$log")
    passed=$((passed + p))
    failed=$((failed + f))
done
echo "$passed $failed"
