#!/usr/bin/env bash
# Builds the Python package from source in a fresh virtual environment and
# runs its tests. Fails on any failure, and when pytest collects no test.
#
# The extension is built with the repository's target folder (unless
# CARGO_TARGET_DIR is set) and the workspace's dev profile, so that HiGHS,
# built from source, is shared with `cargo test --workspace --all-features`.
# With RULECOVER_SHARED_HIGHS=1 (as .ci/run sets after that command) the
# script fails when the build compiles highs-sys again.
#
# The cross-language tests run the `rulecover` command line: RULECOVER_CLI,
# else the target folder's debug/rulecover, built here when missing.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(dirname "$here")"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$repo/target}"
# The workspace's dev profile: HiGHS (built from source) and the other
# dependencies are shared with `cargo test --workspace --all-features`.
export RULECOVER_CARGO_PROFILE="${RULECOVER_CARGO_PROFILE:-dev}"
start=$(date +%s)

# python/Cargo.lock must be up to date (a stale one would be rewritten
# during the build with newer versions than the workspace's).
cargo metadata --locked --format-version 1 --manifest-path "$here/Cargo.toml" >/dev/null

export RULECOVER_CLI="${RULECOVER_CLI:-$CARGO_TARGET_DIR/debug/rulecover}"
if [ ! -x "$RULECOVER_CLI" ]; then
  echo "building the rulecover command line for the cross-language tests"
  (cd "$repo" && cargo build -p rulecover --bin rulecover)
fi

venv="$(mktemp -d)/venv"
trap 'rm -rf "$(dirname "$venv")"' EXIT
python3 -m venv "$venv"
"$venv/bin/pip" install -q --upgrade pip
# Playwright drives the system's Chromium (apt package `chromium`, which
# .ci/run installs) in the report's browser test; its own browser builds
# are not downloaded.
"$venv/bin/pip" install -q maturin scikit-learn pandas pytest "dask[distributed]" duckdb "psycopg[binary]" playwright
build_start=$(date +%s)
log="$(dirname "$venv")/build.log"
if ! "$venv/bin/pip" install -v "$repo/python" >"$log" 2>&1; then
  tail -n 80 "$log"
  exit 1
fi
grep -E "rulecover: building" "$log" || true
if grep -qE "Compiling highs-sys" "$log"; then
  echo "the Python build compiled highs-sys (HiGHS) again" >&2
  if [ "${RULECOVER_SHARED_HIGHS:-0}" = 1 ]; then
    grep -E "Compiling " "$log" >&2
    exit 1
  fi
fi
echo "$(grep -cE "Compiling " "$log") crates compiled for the extension"
"$venv/bin/python" -c "import rulecover; print('rulecover backends:', rulecover.backends())"
echo "python package built in $(( $(date +%s) - build_start )) s"

cd "$repo"
set +e
"$venv/bin/python" -m pytest python/tests -q -p no:cacheprovider -rxs
status=$?
set -e
if [ "$status" -eq 5 ]; then
  echo "pytest collected no test" >&2
  exit 1
fi
echo "python/ci.sh took $(( $(date +%s) - start )) s"
exit "$status"
