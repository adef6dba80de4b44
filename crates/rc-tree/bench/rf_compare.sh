#!/usr/bin/env bash
# Random forest (100 trees) fit and predict, rc-tree against scikit-learn,
# interleaved: for each round, data set and thread count, ours then
# theirs, with `uptime`'s load average before each (docs/PERFORMANCE.md).
#
#   cargo build --release -p rc-benches --example tree_timing
#   PYTHON=path/to/venv/bin/python bash crates/rc-tree/bench/rf_compare.sh [REPEATS] [ROUNDS] [THREADS] [DATASETS]
#
# Run from the workspace root. REPEATS (default 3) is the number of fits
# each command times (median wall, mean CPU); ROUNDS (default 3) how often
# the whole interleaved sequence is repeated; THREADS (default "1 2") the
# rayon thread counts / scikit-learn n_jobs; DATASETS (default "magic
# adult"). PYTHON defaults to python3 (it needs scikit-learn and pandas);
# CARGO_TARGET_DIR, if set, is where the example was built (else target).
# The data sets are read from $RC_DATA_DIR, else ../shared/datasets.
set -euo pipefail

repeats=${1:-3}
rounds=${2:-3}
threads=${3:-1 2}
datasets=${4:-magic adult}
python=${PYTHON:-python3}
ours=${CARGO_TARGET_DIR:-target}/release/examples/tree_timing
theirs=crates/rc-tree/bench/sklearn_compare.py

if [[ ! -x $ours ]]; then
    echo "missing $ours: run cargo build --release -p rc-benches --example tree_timing" >&2
    exit 1
fi

for round in $(seq 1 "$rounds"); do
    for data in $datasets; do
        for t in $threads; do
            echo "== round $round, $data, $t thread(s)"
            echo "load: $(uptime | sed 's/.*load average: //')"
            echo -n "ours:   "
            RAYON_NUM_THREADS=$t "$ours" "$data" rf "$repeats" | grep -E '^RF fit'
            echo "load: $(uptime | sed 's/.*load average: //')"
            echo -n "theirs: "
            "$python" "$theirs" "" "$repeats" "$t" "$data" rf | grep -E '^RF fit'
        done
    done
done
