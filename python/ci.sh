#!/usr/bin/env bash
# Builds the Python package from source in a fresh virtual environment and
# runs its tests. Fails on any failure, and when pytest collects no test.
#
# The extension is built with the repository's target folder (unless
# CARGO_TARGET_DIR is set) so that HiGHS, built from source, is shared with
# the workspace build.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(dirname "$here")"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$repo/target}"
# The workspace's dev profile: HiGHS (built from source) and the other
# dependencies are shared with `cargo test --workspace --all-features`.
export RULECOVER_CARGO_PROFILE="${RULECOVER_CARGO_PROFILE:-dev}"

venv="$(mktemp -d)/venv"
trap 'rm -rf "$(dirname "$venv")"' EXIT
python3 -m venv "$venv"
"$venv/bin/pip" install -q --upgrade pip
"$venv/bin/pip" install -q maturin scikit-learn pandas pytest
start=$(date +%s)
log="$(dirname "$venv")/build.log"
if ! "$venv/bin/pip" install -v "$repo/python" >"$log" 2>&1; then
  tail -n 80 "$log"
  exit 1
fi
grep -E "rulecover: building" "$log" || true
"$venv/bin/python" -c "import rulecover; print('rulecover backends:', rulecover.backends())"
echo "python package built in $(( $(date +%s) - start )) s"

cd "$repo"
set +e
"$venv/bin/python" -m pytest python/tests -q -p no:cacheprovider
status=$?
set -e
if [ "$status" -eq 5 ]; then
  echo "pytest collected no test" >&2
  exit 1
fi
exit "$status"
