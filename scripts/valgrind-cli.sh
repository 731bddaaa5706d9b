#!/usr/bin/env bash
# Runs clusterlens-cli under Valgrind (memcheck) on every command; fails on any error or leak.
# Not part of CI (Valgrind is slow); run it by hand after changes to core/model or app/:
#   bash scripts/valgrind-cli.sh [build-dir]      (default: build; needs apt-get install valgrind)
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build}"
cli="$build/app/clusterlens-cli"
[ -x "$cli" ] || { echo "build first: bash packaging/dev.sh test (or cmake --build $build)" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "valgrind is not installed (apt-get install valgrind)" >&2; exit 2; }
fail=0
log=$(mktemp)
run() {
    echo "== $*"
    local rc=0
    valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
        "$cli" "$@" >/dev/null 2>"$log" || rc=$?
    if [ "$rc" -eq 99 ]; then # 0 and 2 are the CLI's own answers; 99 is valgrind's
        cat "$log" >&2
        echo "!! valgrind reported errors for: $*" >&2
        fail=1
    fi
}
run catalog gpus --json
run evaluate llama3-16k-h100 --json
run memory --model llama3.1-405b --gpus 8192 --tp 8 --pp 16 --vpp 2 --global-batch 2048 --seq 8192
run train --model llama3-70b --gpus 64 --tp 8 --global-batch 128 --seq 8192 --tokens 1e10
run search --model llama3-70b --gpus 64 --global-batch 128 --seq 8192 --top 3
run infer --model llama3-70b --gpu h200-sxm --tp 8 --weights-dtype fp8 --mode online --request-rate 100
run collective --op allreduce --gpus 64 --sweep 1Ki:1Gi
run tco --gpu h100-sxm --gpus 1024 --commitment spot --cloud-offer aws-p5.48xlarge
run reliability --gpus 16384 --model llama3.1-405b --async-checkpoint
run compare dgx-h100-4su h100-ndr-2node
run report h100-ndr-2node -o "$(mktemp -d)/r.csv"
run train --model llama3-8b --gpus 7 --tp 2 --global-batch 64   # bad input path (exit 2)
run memory --model no-such-model
exit $fail
