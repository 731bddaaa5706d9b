#!/usr/bin/env bash
# One entry point for a fresh Debian 12 machine (run as root, or with sudo available):
#   bash packaging/dev.sh run    install what is missing, build, launch the GUI on a preset
#   bash packaging/dev.sh test   install what is missing, build (warnings are errors), run all
#                                tests, then build and run them again under ASan+UBSan, then
#                                build the libFuzzer targets and run each briefly
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
mode="${1:-}"
jobs=$(nproc 2>/dev/null || echo 2)

install_deps() {
    local missing=()
    while read -r pkg; do
        [[ -z "$pkg" || "$pkg" == \#* ]] && continue
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
    done < packaging/debian-deps.txt
    if ((${#missing[@]})); then
        echo "== installing: ${missing[*]}"
        local sudo=""
        [ "$(id -u)" -eq 0 ] || sudo="sudo"
        # A fresh machine may still be running its own apt (unattended upgrades at boot): wait
        # for the package lock (apt 2.x, Debian 12) instead of failing at once.
        local wait_lock=(-o DPkg::Lock::Timeout=900)
        $sudo apt-get "${wait_lock[@]}" update -qq
        DEBIAN_FRONTEND=noninteractive $sudo apt-get "${wait_lock[@]}" install -y -qq --no-install-recommends "${missing[@]}"
    fi
}

build() { # build <dir> <extra cmake args...>
    local dir="$1"
    shift
    cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCLUSTERLENS_WERROR=ON "$@"
    cmake --build "$dir" -j "$jobs"
}

case "$mode" in
run)
    install_deps
    build build
    shift || true
    design="${1:-h100-ndr-2node}"
    if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ] && [ -z "${QT_QPA_PLATFORM:-}" ]; then
        echo "No display found (DISPLAY/WAYLAND_DISPLAY unset). To see the window without one:"
        echo "  build/app/clusterlens --screenshot shot.png $design   (with QT_QPA_PLATFORM=offscreen)"
        echo "Starting under a virtual X server (xvfb-run) instead."
        exec xvfb-run -a build/app/clusterlens "$design"
    fi
    exec build/app/clusterlens "$design"
    ;;
test)
    # Every stage runs even when an earlier one failed, so one run reports everything; the
    # last line counts test functions (Qt Test totals summed; fuzz targets count one each).
    install_deps
    status=0
    rm -f build/test-totals
    build build
    (cd build && QT_QPA_PLATFORM=offscreen ctest --output-on-failure -j "$jobs") || status=1
    echo "== sanitizer run (ASan + UBSan)"
    build build-asan -DCLUSTERLENS_SANITIZE=ON -DCLUSTERLENS_BUILD_BENCH=OFF -DCMAKE_BUILD_TYPE=Debug
    (cd build-asan && QT_QPA_PLATFORM=offscreen ctest --output-on-failure -j "$jobs") || status=1
    echo "== fuzzing (libFuzzer + ASan + UBSan, ${FUZZ_SECONDS:-15} s per target)"
    build build-fuzz -DCMAKE_CXX_COMPILER=clang++-14 -DCLUSTERLENS_FUZZ=ON -DCLUSTERLENS_BUILD_GUI=OFF \
        -DCLUSTERLENS_BUILD_TESTS=OFF -DCLUSTERLENS_BUILD_BENCH=OFF
    fuzz_passed=0 fuzz_failed=0
    for target in design hf_config nccl_tests cli_args report job_trace catalog; do
        work=$(mktemp -d) # new corpus entries stay out of the repository
        cp fuzz/corpus/"$target"/* "$work"/
        if ! (cd "$work" && "$root"/build-fuzz/fuzz/fuzz_"$target" \
            -max_total_time="${FUZZ_SECONDS:-15}" -timeout=10 -rss_limit_mb=2048 "$work" \
            >"$work"/log 2>&1); then
            tail -n 60 "$work"/log
            echo "fuzz_$target found a crash (the input is in $work)" >&2
            fuzz_failed=$((fuzz_failed + 1))
            status=1
            continue
        fi
        echo "fuzz_$target: $(tail -n 1 "$work"/log)"
        fuzz_passed=$((fuzz_passed + 1))
        rm -rf "$work"
    done
    read -r p f < <(bash packaging/test-totals.sh build build-asan)
    echo "$((p + fuzz_passed)) $((f + fuzz_failed))" >build/test-totals
    echo "$((p + fuzz_passed)) passed, $((f + fuzz_failed)) failed"
    exit "$status"
    ;;
*)
    echo "usage: bash packaging/dev.sh run [DESIGN|PRESET] | test" >&2
    exit 2
    ;;
esac
