#!/usr/bin/env bash
# Builds the Python package's wheel with `cargo xtask wheel` (abi3, HiGHS
# linked in, manylinux_2_28 through zig) and checks what a user without a
# Rust toolchain gets: the wheel's platform tag, an install into a fresh
# virtual environment with no cargo or rustc on the PATH (its time
# printed), one fit and predict of every estimator, and the Python tests
# run against the installed wheel.
#
# The wheel is built in the repository's target folder (unless
# CARGO_TARGET_DIR is set), in release: HiGHS is built once more there.
# The tests' command line is RULECOVER_CLI, else the target folder's
# debug/rulecover, built here when missing.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(dirname "$here")"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$repo/target}"
start=$(date +%s)
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# A previous run's wheel build remembers that run's temporary maturin and
# zig, which are gone: cargo-zigbuild's wrappers in the cache folder, and
# HiGHS's CMake cache in the wheel target's build folder. Both are removed,
# so that every run builds the wheel as a fresh machine does (HiGHS is
# built again in release either way).
rm -rf "${XDG_CACHE_HOME:-$HOME/.cache}/cargo-zigbuild" "$CARGO_TARGET_DIR/x86_64-unknown-linux-gnu"

# The build tools, from PyPI.
python3 -m venv "$work/tools"
"$work/tools/bin/pip" install -q --upgrade pip
"$work/tools/bin/pip" install -q maturin ziglang auditwheel
out="$CARGO_TARGET_DIR/wheels"
rm -rf "$out"
(cd "$repo" && PATH="$work/tools/bin:$PATH" cargo xtask wheel --out "$out")
wheel="$(ls "$out"/rulecover-*.whl)"
ls "$out"/rulecover-*.tar.gz >/dev/null
echo "wheel: $(basename "$wheel")"
echo "wheel and sdist built in $(( $(date +%s) - start )) s"

# The platform tag: abi3, x86_64, manylinux 2.28 or older, in the file
# name and as auditwheel reads the binary.
name="$(basename "$wheel")"
tag="$(echo "$name" | sed -nE 's/.*-cp39-abi3-manylinux_2_([0-9]+)_x86_64\.whl$/\1/p')"
if [ -z "$tag" ] || [ "$tag" -gt 28 ]; then
  echo "unexpected wheel tags in $name (want cp39-abi3-manylinux_2_28_x86_64 or older)" >&2
  exit 1
fi
shown="$("$work/tools/bin/auditwheel" show "$wheel")"
echo "$shown"
read_tag="$(echo "$shown" | grep -oE 'manylinux_2_[0-9]+_x86_64' | head -n1 | sed -E 's/manylinux_2_([0-9]+)_x86_64/\1/')"
if [ -z "$read_tag" ] || [ "$read_tag" -gt 28 ]; then
  echo "auditwheel does not find the wheel consistent with manylinux_2_28 or older" >&2
  exit 1
fi

# A fresh environment: the dependencies first (these may come from PyPI),
# then the wheel alone, with no Rust toolchain on the PATH.
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install -q --upgrade pip
"$work/venv/bin/pip" install -q numpy scikit-learn pandas pytest "dask[distributed]" duckdb "psycopg[binary]"
no_rust_path="$(echo "$PATH" | tr ':' '\n' | while read -r d; do
  [ -n "$d" ] && [ ! -e "$d/cargo" ] && [ ! -e "$d/rustc" ] && echo "$d"
done | paste -sd: -)"
if PATH="$no_rust_path" command -v cargo >/dev/null || PATH="$no_rust_path" command -v rustc >/dev/null; then
  echo "could not take cargo and rustc off the PATH" >&2
  exit 1
fi
install_start=$EPOCHREALTIME
env PATH="$no_rust_path" CARGO_HOME=/nonexistent RUSTUP_HOME=/nonexistent \
  "$work/venv/bin/pip" install -q --no-index --no-deps --only-binary :all: "$wheel"
install_end=$EPOCHREALTIME
echo "wheel installed (no Rust toolchain on the PATH) in $(python3 -c "print(f'{$install_end - $install_start:.1f}')") s"
# On standard input, so that the script's folder (python/, the source
# package) is not on sys.path.
(cd "$work" && env PATH="$no_rust_path" "$work/venv/bin/python" - <"$here/wheel_smoke.py")

# The Python tests against the installed wheel.
export RULECOVER_CLI="${RULECOVER_CLI:-$CARGO_TARGET_DIR/debug/rulecover}"
if [ ! -x "$RULECOVER_CLI" ]; then
  (cd "$repo" && cargo build -p rulecover --bin rulecover)
fi
cd "$repo"
set +e
env PATH="$no_rust_path" "$work/venv/bin/python" -m pytest python/tests -q -p no:cacheprovider
status=$?
set -e
if [ "$status" -eq 5 ]; then
  echo "pytest collected no test" >&2
  exit 1
fi
echo "python/wheel_ci.sh took $(( $(date +%s) - start )) s"
exit "$status"
