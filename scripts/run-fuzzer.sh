#!/usr/bin/env bash
# Runs a fuzzer for a bounded time from its committed seeds.
# Usage: run-fuzzer.sh FUZZER SECONDS SEED_DIR
# New inputs go to a scratch corpus so that the committed seeds stay as they
# are; a crash, leak, timeout or round-trip mismatch fails the run and leaves
# the input in build-fuzz/artifacts/.
set -euo pipefail
fuzzer=$1
seconds=${2:-60}
seeds=${3:-test/fuzz/seeds}
root=$(cd "$(dirname "$0")/.." && pwd)
name=$(basename "$fuzzer")
work=$(dirname "$fuzzer")/../fuzz-work/$name
artifacts=$(dirname "$fuzzer")/../artifacts/$name
rm -rf "$work"
mkdir -p "$work" "$artifacts"
cp "$root"/"$seeds"/* "$work"/
# LLVM's allocators poison their slabs when inlined into our instrumented
# code, and the prebuilt (uninstrumented) libMLIR writes those slabs without
# unpoisoning them: manual poisoning would only give false reports.
export ASAN_OPTIONS=allow_user_poisoning=0:${ASAN_OPTIONS:-}
log=$artifacts/fuzz.log
status=0
"$fuzzer" "$work" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 \
  -max_len=65536 -seed=1 -print_final_stats=1 \
  -artifact_prefix="$artifacts"/ > "$log" 2>&1 || status=$?
# The sanitizer's report (what went wrong and where), then the statistics.
grep -m1 -A12 -E 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error|round trip|does not export' "$log" || true
tail -n 8 "$log"
echo "fuzzer exit status: $status (full log: $log)"
exit "$status"
