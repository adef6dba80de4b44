"""PEP 517 backend: maturin, with the HiGHS LP backend when it can be built.

HiGHS (Rust feature ``highs`` of rc-lp, rc-cover and rc-colgen) is built
from source by highs-sys, which needs cmake, a C++ compiler and libclang.
When all three are present the build passes ``--features highs`` to maturin
through ``MATURIN_PEP517_ARGS``; otherwise it builds with the pure-Rust
minilp backend and prints a note. Setting ``MATURIN_PEP517_ARGS`` yourself
overrides the choice. ``RULECOVER_CARGO_PROFILE`` (e.g. ``dev``) builds
with that Cargo profile instead of release; CI uses ``dev`` to share the
HiGHS build with the workspace's ``cargo test`` in the same target folder.
"""

import glob
import os
import shutil
import sys

import maturin

_LIBCLANG_GLOBS = (
    "/usr/lib/llvm-*/lib/libclang*.so*",
    "/usr/lib/*/libclang*.so*",
    "/usr/lib64/libclang*.so*",
    "/usr/lib/libclang*.so*",
    "/usr/local/lib/libclang*.so*",
    "/opt/homebrew/opt/llvm/lib/libclang.dylib",
    "/usr/local/opt/llvm/lib/libclang.dylib",
)


def _has_libclang():
    path = os.environ.get("LIBCLANG_PATH")
    if path and glob.glob(os.path.join(path, "*clang*")):
        return True
    if shutil.which("llvm-config"):
        return True
    return any(glob.glob(pattern) for pattern in _LIBCLANG_GLOBS)


def _missing_highs_tools():
    missing = []
    if not shutil.which("cmake"):
        missing.append("cmake")
    if not (shutil.which("c++") or shutil.which("g++") or shutil.which("clang++")):
        missing.append("a C++ compiler")
    if not _has_libclang():
        missing.append("libclang")
    return missing


def _choose_features():
    if "MATURIN_PEP517_ARGS" in os.environ:
        return
    profile = os.environ.get("RULECOVER_CARGO_PROFILE")
    if profile:
        os.environ["MATURIN_PEP517_ARGS"] = f"--profile {profile}"
    missing = _missing_highs_tools()
    if missing:
        print(
            "rulecover: building with the pure-Rust minilp LP backend "
            f"(HiGHS needs {', '.join(missing)}; install them for the faster "
            "HiGHS backend)",
            file=sys.stderr,
        )
        return
    print("rulecover: building with the HiGHS LP backend", file=sys.stderr)
    args = os.environ.get("MATURIN_PEP517_ARGS", "")
    os.environ["MATURIN_PEP517_ARGS"] = (args + " --features highs").strip()


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    _choose_features()
    return maturin.build_wheel(wheel_directory, config_settings, metadata_directory)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    _choose_features()
    return maturin.build_editable(wheel_directory, config_settings, metadata_directory)


def build_sdist(sdist_directory, config_settings=None):
    return maturin.build_sdist(sdist_directory, config_settings)


get_requires_for_build_wheel = maturin.get_requires_for_build_wheel
get_requires_for_build_editable = maturin.get_requires_for_build_editable
get_requires_for_build_sdist = maturin.get_requires_for_build_sdist
prepare_metadata_for_build_wheel = maturin.prepare_metadata_for_build_wheel
prepare_metadata_for_build_editable = maturin.prepare_metadata_for_build_editable
