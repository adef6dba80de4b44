//! `cargo xtask wheel`: the Python package's binary wheel and source
//! distribution, built by maturin into `target/wheels/`.
//!
//! The wheel is abi3 (one wheel for CPython 3.9 and later, from pyo3's
//! `abi3-py39`), has HiGHS linked in (feature `highs`), and on Linux is
//! linked by `zig cc` against an old glibc so that it carries a
//! manylinux tag (`--compatibility`, default `manylinux_2_28`) and
//! installs without a compiler. `auditwheel show`, when installed, reports
//! the tag the wheel is consistent with. Tools (from PyPI): `maturin`,
//! `ziglang` (for `--zig`, the default on Linux) and, optionally,
//! `auditwheel`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use crate::error::{Error, Result};

/// Options of `cargo xtask wheel`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct WheelArgs {
    /// `--target TRIPLE`: a Rust target to cross-build for (e.g.
    /// `aarch64-unknown-linux-gnu`); the host when `None`.
    pub target: Option<String>,
    /// `--compatibility TAG`: the platform tag maturin checks against
    /// (`manylinux_2_28` when `None` on Linux).
    pub compatibility: Option<String>,
    /// `--no-zig`: link with the system compiler instead of `zig cc` (the
    /// wheel then needs the build machine's glibc or newer).
    pub no_zig: bool,
    /// `--no-sdist`: the wheel only.
    pub no_sdist: bool,
    /// `--out DIR` (default `target/wheels`).
    pub out: Option<PathBuf>,
}

/// The default platform tag on Linux: glibc 2.28 (2018) and later.
pub const DEFAULT_COMPATIBILITY: &str = "manylinux_2_28";

/// The repository root (xtask's parent folder).
fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."))
}

/// Runs `program args`, naming the command in the error when it cannot
/// start or exits non-zero.
fn run(program: &str, args: &[String], hint: &str) -> Result<()> {
    let shown = format!("{program} {}", args.join(" "));
    eprintln!("$ {shown}");
    let status = Command::new(program)
        .args(args)
        .status()
        .map_err(|e| Error::Usage(format!("could not run `{program}` ({e}); {hint}")))?;
    if status.success() {
        Ok(())
    } else {
        Err(Error::Usage(format!("`{shown}` failed ({status})")))
    }
}

/// The maturin arguments that build the wheel.
pub fn build_args(args: &WheelArgs, manifest: &Path, out: &Path) -> Vec<String> {
    let mut a: Vec<String> = vec![
        "build".into(),
        "--release".into(),
        "--manifest-path".into(),
        manifest.display().to_string(),
        "--features".into(),
        "highs".into(),
        "--out".into(),
        out.display().to_string(),
    ];
    if let Some(t) = &args.target {
        a.extend(["--target".into(), t.clone()]);
    }
    let linux = args
        .target
        .as_deref()
        .map_or(cfg!(target_os = "linux"), |t| t.contains("linux"));
    if linux {
        let tag = args
            .compatibility
            .clone()
            .unwrap_or_else(|| DEFAULT_COMPATIBILITY.into());
        a.extend(["--compatibility".into(), tag]);
        if !args.no_zig {
            a.push("--zig".into());
        }
    } else if let Some(tag) = &args.compatibility {
        a.extend(["--compatibility".into(), tag.clone()]);
    }
    a
}

/// The wheels and source distributions in `out`, sorted.
fn artifacts(out: &Path) -> Result<Vec<PathBuf>> {
    let entries = std::fs::read_dir(out).map_err(|source| Error::Io {
        path: out.display().to_string(),
        source,
    })?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let name = p.to_string_lossy();
            name.ends_with(".whl") || name.ends_with(".tar.gz")
        })
        .collect();
    files.sort();
    Ok(files)
}

fn on_path(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|d| d.join(program).is_file()))
}

/// `cargo xtask wheel`.
pub fn wheel(args: &WheelArgs) -> Result<()> {
    let root = repo_root();
    let manifest = root.join("python").join("Cargo.toml");
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| root.join("target").join("wheels"));
    std::fs::create_dir_all(&out).map_err(|source| Error::Io {
        path: out.display().to_string(),
        source,
    })?;
    let hint = "install the build tools with `pip install maturin ziglang auditwheel`";
    let start = Instant::now();
    run("maturin", &build_args(args, &manifest, &out), hint)?;
    eprintln!("wheel built in {:.0} s", start.elapsed().as_secs_f64());
    if !args.no_sdist {
        let sdist = vec![
            "sdist".into(),
            "--manifest-path".into(),
            manifest.display().to_string(),
            "--out".into(),
            out.display().to_string(),
        ];
        run("maturin", &sdist, hint)?;
    }
    let files = artifacts(&out)?;
    if on_path("auditwheel") {
        for w in files
            .iter()
            .filter(|p| p.to_string_lossy().ends_with(".whl"))
        {
            run(
                "auditwheel",
                &["show".into(), w.display().to_string()],
                hint,
            )?;
        }
    } else {
        eprintln!("auditwheel is not installed: the wheel's manylinux tag is not checked");
    }
    for f in &files {
        let size = std::fs::metadata(f).map(|m| m.len()).unwrap_or(0);
        println!(
            "{} ({:.1} MiB)",
            f.display(),
            size as f64 / (1024.0 * 1024.0)
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linux_wheels_are_manylinux_2_28_through_zig_by_default() {
        let args = WheelArgs {
            target: Some("x86_64-unknown-linux-gnu".into()),
            ..WheelArgs::default()
        };
        let a = build_args(&args, Path::new("python/Cargo.toml"), Path::new("out"));
        let text = a.join(" ");
        assert!(text.contains("--features highs"), "{text}");
        assert!(text.contains("--compatibility manylinux_2_28"), "{text}");
        assert!(text.ends_with("--zig"), "{text}");
        assert!(text.contains("--release"), "{text}");
    }

    #[test]
    fn macos_wheels_take_no_zig_and_no_manylinux_tag() {
        let args = WheelArgs {
            target: Some("aarch64-apple-darwin".into()),
            ..WheelArgs::default()
        };
        let text = build_args(&args, Path::new("m"), Path::new("o")).join(" ");
        assert!(!text.contains("--zig"), "{text}");
        assert!(!text.contains("manylinux"), "{text}");
        assert!(text.contains("--target aarch64-apple-darwin"), "{text}");
    }

    #[test]
    fn no_zig_and_another_tag() {
        let args = WheelArgs {
            target: Some("x86_64-unknown-linux-gnu".into()),
            compatibility: Some("manylinux_2_17".into()),
            no_zig: true,
            ..WheelArgs::default()
        };
        let text = build_args(&args, Path::new("m"), Path::new("o")).join(" ");
        assert!(!text.contains("--zig"), "{text}");
        assert!(text.contains("--compatibility manylinux_2_17"), "{text}");
    }
}
