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
//! The generated data are UW-CSE-like ([`rc_logic::synthetic`]): people,
//! courses and titles, five predicates of arity 1–3, about 32 bytes a
//! line; `advisedby` examples (1,000 positive, 2,000 negative). The
//! contents depend only on N.

use std::path::{Path, PathBuf};
use std::time::Instant;

use rc_logic::synthetic::{self, UwcseLike};
use rc_logic::Problem;

/// Writes `train_facts.txt`, `train_pos.txt`, `train_neg.txt` and
/// `background.txt` with `n` facts into `dir`.
fn generate(dir: &Path, n: usize) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    std::fs::write(dir.join("background.txt"), synthetic::BACKGROUND)?;
    let texts = UwcseLike::generate(n);
    std::fs::write(dir.join("train_facts.txt"), texts.facts)?;
    std::fs::write(dir.join("train_pos.txt"), texts.pos)?;
    std::fs::write(dir.join("train_neg.txt"), texts.neg)?;
    Ok(())
}

fn load(dir: &Path) -> Result<(), Box<dyn std::error::Error>> {
    let bytes = std::fs::metadata(dir.join("train_facts.txt"))?.len();
    let start = Instant::now();
    let problem = Problem::load_folder(
        &dir.join("background.txt"),
        synthetic::TARGET,
        dir,
        "train",
        &[],
    )?;
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
