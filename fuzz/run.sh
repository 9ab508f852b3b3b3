#!/bin/sh
# Fuzzes each target in turn for SECONDS (default 300), one process at a
# time and at a low priority, as a shared machine wants:
#   fuzz/run.sh [SECONDS] [TARGET...]
# Two runs with different targets may go side by side (each target works
# in its own folder, logs/TARGET/).
# Needs nightly and cargo-fuzz. Seeds come from the tests (see README.md);
# findings land in fuzz/artifacts/TARGET/, logs in fuzz/logs/.
# FUZZ_FLAGS are given to `cargo fuzz run`; the default builds without a
# sanitizer (a build with AddressSanitizer took hours on a shared two-core
# machine), optimised, with debug assertions and overflow checks on.
set -eu
cd "$(dirname "$0")"
secs=${1:-300}
flags=${FUZZ_FLAGS:---sanitizer none -O --debug-assertions}
[ $# -gt 0 ] && shift
targets=${*:-$(ls fuzz_targets | sed 's/\.rs$//')}
if [ ! -d corpus ]; then
    (cd .. && MUSTER_FUZZ_SEEDS="$PWD/fuzz/corpus" cargo test --test it fuzz_seeds)
fi
fuzz_dir=$PWD
for t in $targets; do
    mkdir -p "corpus/$t" "logs/$t"
    # The YAML and XML targets take inputs up to 1 MiB (issue 36: the
    # faults of list, event and BattleScribe files needed that much).
    case $t in
        event | yaml | battlescribe) max_len=1048576 ;;
        *) max_len=16384 ;;
    esac
    # -timeout: an input taking 10 s is a finding (bounded time);
    # -rss_limit_mb: so is one using 2 GB (bounded memory).
    # libFuzzer writes its worker's log (fuzz-0.log) where it runs.
    # shellcheck disable=SC2086 # $flags is a list of words
    if (cd "logs/$t" && nice -n 10 cargo +nightly fuzz run --fuzz-dir "$fuzz_dir" $flags \
        "$t" "$fuzz_dir/corpus/$t" -- \
        -jobs=1 -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
        -max_len="$max_len" -print_final_stats=1 >"$fuzz_dir/logs/$t.txt" 2>&1); then
        echo "$t: nothing found"
    else
        echo "$t: stopped early, see fuzz/logs/$t.txt and fuzz/artifacts/$t/"
    fi
    [ -f "logs/$t/fuzz-0.log" ] && mv "logs/$t/fuzz-0.log" "logs/$t.worker.txt"
    rmdir "logs/$t" 2>/dev/null || true
done
