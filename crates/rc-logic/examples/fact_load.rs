//! The relational fact loader at scale: writes a generated BoostSRL
//! folder with N facts, or loads one and prints what it read and how long
//! it took — the measurement of docs/PERFORMANCE.md (peak memory with
//! `command time -v`).
//!
//! ```text
//! cargo run --release -p rc-logic --example fact_load -- generate DIR 1000000
//! command time -v target/release/examples/fact_load load DIR
//! ```
//!
//! The generated data are UW-CSE-like: people, courses and titles, five
//! predicates of arity 1–3 (`professor`, `student`, `inphase`,
//! `publication`, `taughtby`), constants of 6–12 characters, about 32
//! bytes a line; `advisedby` examples (1,000 positive, 2,000 negative).
//! The contents depend only on N (a fixed linear congruential stream).

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use rc_logic::Problem;

const BACKGROUND: &str = "\
mode: advisedby(+person,+person).
mode: professor(+person).
mode: student(+person).
mode: inphase(+person,#phase).
mode: publication(-title,+person).
mode: taughtby(+course,-person,#quarter).
";

/// A small deterministic stream (Knuth's MMIX constants).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n
    }
}

/// Writes `train_facts.txt`, `train_pos.txt`, `train_neg.txt` and
/// `background.txt` with `n` facts into `dir`.
fn generate(dir: &Path, n: usize) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    std::fs::write(dir.join("background.txt"), BACKGROUND)?;
    let people = (n / 10).max(10) as u64;
    let courses = (n / 50).max(5) as u64;
    let titles = (n / 4).max(10) as u64;
    let mut rng = Lcg(n as u64);
    let mut out = std::io::BufWriter::new(std::fs::File::create(dir.join("train_facts.txt"))?);
    let mut line = String::new();
    for i in 0..n {
        line.clear();
        match i % 10 {
            0 => writeln!(line, "professor(person{}).", rng.below(people)),
            1 => writeln!(line, "student(person{}).", rng.below(people)),
            2 => writeln!(
                line,
                "inphase(person{}, phase{}).",
                rng.below(people),
                rng.below(6)
            ),
            3..=7 => writeln!(
                line,
                "publication(title{}, person{}).",
                rng.below(titles),
                rng.below(people)
            ),
            _ => writeln!(
                line,
                "taughtby(course{}, person{}, quarter{}).",
                rng.below(courses),
                rng.below(people),
                rng.below(12)
            ),
        }
        .map_err(std::io::Error::other)?;
        out.write_all(line.as_bytes())?;
    }
    out.flush()?;
    for (file, count) in [("train_pos.txt", 1000), ("train_neg.txt", 2000)] {
        let mut text = String::new();
        for k in 0..count {
            // Positives and negatives on disjoint pairs (no contradiction).
            let a = 2 * k + usize::from(file == "train_neg.txt");
            writeln!(text, "advisedby(person{a}, person{}).", a + 1)
                .map_err(std::io::Error::other)?;
        }
        std::fs::write(dir.join(file), text)?;
    }
    Ok(())
}

fn load(dir: &Path) -> Result<(), Box<dyn std::error::Error>> {
    let bytes = std::fs::metadata(dir.join("train_facts.txt"))?.len();
    let start = Instant::now();
    let problem =
        Problem::load_folder(&dir.join("background.txt"), "advisedby", dir, "train", &[])?;
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "loaded {} facts ({:.1} MiB of facts file), {} examples, {} symbols in {seconds:.2} s",
        problem.train.facts.len(),
        bytes as f64 / (1u64 << 20) as f64,
        problem.train.examples.len(),
        problem.vocab.n_symbols(),
    );
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["generate", dir, n] => {
            let n: usize = n
                .parse()
                .map_err(|_| format!("N must be a number, not '{n}'"))?;
            generate(&PathBuf::from(dir), n)?;
            println!("wrote {n} facts to {dir}");
            Ok(())
        }
        ["load", dir] => load(&PathBuf::from(dir)),
        _ => Err("usage: fact_load generate DIR N | fact_load load DIR".into()),
    }
}
