#!/usr/bin/env bash
# Runs every fuzz target for SECONDS each (default 60), one at a time, one job each, and
# prints libFuzzer's closing line per target. Needs the nightly toolchain and cargo-fuzz
# (`cargo install cargo-fuzz`). Findings land in fuzz/artifacts/TARGET/.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
for target in $(cargo +nightly fuzz list); do
    echo "== $target ($seconds s)"
    cargo +nightly fuzz run "$target" -- -max_total_time="$seconds" -jobs=1 -print_final_stats=1 2>&1 |
        grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb|Done|==|SUMMARY|artifact_prefix)" || true
done
