#!/usr/bin/env bash
# Long fuzzing: every libFuzzer target to RUNS executions (default 10 million), one after the
# other, from the seed corpus (kept in a scratch directory, so the repository's corpus is not
# touched). Prints, per target: executions, exec/s, coverage (libFuzzer's cov: edges), corpus
# size and wall time, the figures docs/robustness.md records. A crash stops with the input.
#   bash scripts/fuzz-long.sh [RUNS] [TARGET...]
# FUZZ_TIMEOUT (seconds per input, default 10): libFuzzer's timeout is wall-clock, so a run
# that shares the machine at a low priority (nice) needs more, or starved inputs are reported
# as hangs (session 7: two false "timeouts" of 11-14 s that replay in 0.2 s).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-10000000}
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(design hf_config nccl_tests cli_args report job_trace)
if [ ! -x build-fuzz/fuzz/fuzz_design ]; then
    cmake -S . -B build-fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++-14 -DCLUSTERLENS_FUZZ=ON \
        -DCLUSTERLENS_BUILD_GUI=OFF -DCLUSTERLENS_BUILD_TESTS=OFF -DCLUSTERLENS_BUILD_BENCH=OFF \
        -DCLUSTERLENS_WERROR=ON >/dev/null
fi
ninja -C build-fuzz >/dev/null
printf '%-12s %12s %9s %8s %8s %9s\n' target execs exec/s cov corpus seconds
for t in "${targets[@]}"; do
    work=$(mktemp -d)
    cp fuzz/corpus/"$t"/* "$work"/
    start=$(date +%s)
    if ! (cd "$work" && "$OLDPWD"/build-fuzz/fuzz/fuzz_"$t" -runs="$runs" -timeout="${FUZZ_TIMEOUT:-10}" \
        -rss_limit_mb=2048 -print_final_stats=1 "$work" >"$work"/log 2>&1); then
        tail -n 40 "$work"/log
        echo "fuzz_$t: crash; the input and log are in $work" >&2
        exit 1
    fi
    secs=$(($(date +%s) - start))
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$work"/log | grep -o '[0-9]*$')
    rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$work"/log | grep -o '[0-9]*$')
    cov=$(grep -o 'cov: [0-9]*' "$work"/log | tail -n 1 | grep -o '[0-9]*')
    corpus=$(grep -o 'corp: [0-9]*' "$work"/log | tail -n 1 | grep -o '[0-9]*')
    printf '%-12s %12s %9s %8s %8s %9s\n' "$t" "$execs" "$rate" "$cov" "$corpus" "$secs"
    rm -rf "$work"
done
