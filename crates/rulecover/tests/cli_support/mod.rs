//! Helpers of the command-line tests: a scratch folder per test and a way
//! to run the `rulecover` binary.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A fresh, empty folder for one test, removed when dropped.
pub struct Scratch(pub PathBuf);

impl Scratch {
    pub fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("rulecover-cli-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    pub fn arg(&self, name: &str) -> String {
        self.path(name).display().to_string()
    }

    /// Names of the files in the folder, sorted.
    pub fn files(&self) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(&self.0)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

pub fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_rulecover")
}

/// Runs `rulecover args...` in `dir`.
pub fn run_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(bin())
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the rulecover binary runs")
}

/// Runs `rulecover args...` and asserts success; returns stdout.
pub fn ok_in(dir: &Path, args: &[&str]) -> String {
    let out = run_in(dir, args);
    assert!(
        out.status.success(),
        "rulecover {} failed ({:?}): {}",
        args.join(" "),
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Writes `data` as a CSV file with its target as column `label`.
pub fn write_csv(path: &Path, data: &rulecover_core::Dataset) {
    std::fs::write(path, rulecover::output::dataset_csv(data, "label")).unwrap();
}

/// Parses CSV text with a header into (header, rows).
pub fn parse_csv(text: &str) -> (Vec<String>, Vec<Vec<String>>) {
    let mut lines = text.lines();
    let header = lines
        .next()
        .unwrap()
        .split(',')
        .map(str::to_string)
        .collect();
    let rows = lines
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect();
    (header, rows)
}

/// The command lines of the first fenced `sh` block after `heading` in
/// `readme`, each split into words (blank and `#` lines left out).
pub fn sh_commands(readme: &str, heading: &str) -> Vec<Vec<String>> {
    let text = &readme[readme.find(heading).expect("the heading")..];
    let start = text.find("```sh\n").expect("a ```sh block") + "```sh\n".len();
    let end = start + text[start..].find("```").expect("the block ends");
    text[start..end]
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.split_whitespace().map(str::to_string).collect())
        .collect()
}
