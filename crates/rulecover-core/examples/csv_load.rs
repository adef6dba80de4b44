//! Writes and loads a large numeric CSV, to measure the CSV reader's time
//! and peak memory (run it under GNU `time -v`).
//!
//! ```text
//! cargo build --release -p rulecover-core --example csv_load
//! csv_load generate FILE [ROWS]   # ROWS x (10 numeric features + class 'g'/'h'), default 2,000,000
//! csv_load load FILE              # read_csv with default options; prints a digest of the data
//! ```
//!
//! With 2,000,000 rows the file is about 200 MB, like a magic data set
//! scaled up a hundredfold (10 fields of 6 to 10 characters per row).

use std::io::{BufWriter, Write};
use std::path::Path;
use std::process::ExitCode;

use rulecover_core::csv::{read_csv, CsvOptions};

const FEATURES: usize = 10;

/// A small deterministic generator (xorshift64*), so every run writes the
/// same file.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

fn generate(path: &Path, rows: usize) -> std::io::Result<()> {
    let mut out = BufWriter::new(std::fs::File::create(path)?);
    let header: Vec<String> = (0..FEATURES).map(|j| format!("f{j}")).collect();
    writeln!(out, "{},class", header.join(","))?;
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    for _ in 0..rows {
        for _ in 0..FEATURES {
            // Up to 2 to 5 integer digits and 4 decimals: 6 to 10 characters.
            let digits = 2 + (rng.next() % 4) as u32;
            let int = rng.next() % 10u64.pow(digits);
            let frac = rng.next() % 10_000;
            write!(out, "{int}.{frac:04},")?;
        }
        writeln!(out, "{}", if rng.next() % 3 == 0 { "h" } else { "g" })?;
    }
    out.flush()
}

fn load(path: &Path) -> rulecover_core::Result<()> {
    let data = read_csv(path, &CsvOptions::default())?;
    let digest: f64 = (0..data.n_features())
        .map(|j| data.column(j).iter().sum::<f64>())
        .sum();
    println!(
        "rows {} features {} classes {:?} counts {:?} digest {digest:?}",
        data.n_rows(),
        data.n_features(),
        data.class_names(),
        data.class_counts()
    );
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.as_slice() {
        [cmd, file] if cmd == "load" => load(Path::new(file)).map_err(|e| e.to_string()),
        [cmd, file, rest @ ..] if cmd == "generate" && rest.len() <= 1 => {
            match rest.first().map_or(Ok(2_000_000), |r| r.parse::<usize>()) {
                Ok(rows) => generate(Path::new(file), rows).map_err(|e| e.to_string()),
                Err(e) => Err(format!("ROWS must be a whole number: {e}")),
            }
        }
        _ => Err("usage: csv_load generate FILE [ROWS] | csv_load load FILE".to_string()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("csv_load: {e}");
            ExitCode::FAILURE
        }
    }
}
