//! The CSV reader of rulecover-core, without a schema (`csv`: kinds, the
//! target and missing values decided from the text) and against a
//! training schema (`csv-schema`). The reading options are chosen from a
//! hash of the input, so one input always reads the same way; a table read
//! is then encoded (`Encoder::fit`, `transform`) as a learner would.

use std::io::Write;

use rulecover_core::csv::{
    read_csv, read_csv_str_with_report, ColumnKind, CsvOptions, MissingCategorical, MissingNumeric,
    TaskKind,
};
use rulecover_core::schema::{Encoder, Encoding, Schema, UnseenLevel};
use rulecover_core::Dataset;

use super::{Target, Verdict};

/// CSV words worth inserting.
const WORDS: &[&str] = &[
    "y",
    "age",
    "color",
    "\"a,b\"",
    "\"a\"\"b\"",
    "<missing>",
    "-",
    "1.0",
    "1",
    "0",
    "yes",
    "no",
];

/// `csv`: `read_csv_str_with_report` (or `read_csv` on a file for bytes
/// that are not UTF-8) without a schema.
pub fn plain() -> Target {
    Target {
        name: "csv",
        about: "rulecover_core::csv::read_csv_str_with_report / read_csv (no schema), options \
                from the input's hash, then Encoder::fit and transform",
        dictionary: WORDS,
        run: run_plain,
    }
}

/// `csv-schema`: the reader against the schema of a small training table.
pub fn with_schema() -> Target {
    Target {
        name: "csv-schema",
        about: "rulecover_core::csv::read_csv_str (CsvOptions::schema of a training table with \
                numeric, categorical and class columns), then Encoder::transform",
        dictionary: WORDS,
        run: run_schema,
    }
}

/// A number from the input, to choose options with.
fn knob(input: &[u8]) -> u64 {
    input.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

fn options(k: u64) -> CsvOptions {
    let mut o = CsvOptions::default()
        .missing_numeric(
            [
                MissingNumeric::Error,
                MissingNumeric::DropRows,
                MissingNumeric::Keep,
            ][(k % 3) as usize],
        )
        .missing_categorical(
            [
                MissingCategorical::OwnLevel,
                MissingCategorical::Keep,
                MissingCategorical::DropRows,
                MissingCategorical::Error,
            ][((k >> 2) % 4) as usize]
                .clone(),
        )
        .task(
            [
                TaskKind::Auto,
                TaskKind::Classification,
                TaskKind::Regression,
            ][((k >> 4) % 3) as usize],
        );
    match (k >> 6) % 4 {
        0 => o = o.target("y"),
        1 => o = o.no_target(),
        _ => {}
    }
    if (k >> 8) & 3 == 0 {
        o = o.default_kind(ColumnKind::Categorical);
    }
    if (k >> 10) & 3 == 0 {
        o = o.kind("age", ColumnKind::Numeric);
    }
    if (k >> 12) & 3 == 0 {
        o = o.positive_class("1");
    }
    if (k >> 14) & 7 == 0 {
        o = o.delimiter(b';');
    }
    if (k >> 17) & 7 == 0 {
        o = o.drop_column("id");
    }
    o
}

/// Reads `input` as a file would be read: in memory when it is UTF-8,
/// else through a temporary file (the reader reports the row that is not).
fn read(input: &[u8], opts: &CsvOptions) -> rulecover_core::Result<Dataset> {
    match std::str::from_utf8(input) {
        Ok(text) => read_csv_str_with_report("fuzz", text, opts).map(|(d, _)| d),
        Err(_) => {
            let path = std::env::temp_dir().join(format!(
                "rulecover-fuzz-{}-{:?}.csv",
                std::process::id(),
                std::thread::current().id()
            ));
            let written = std::fs::File::create(&path).and_then(|mut f| f.write_all(input));
            if written.is_err() {
                return Err(rulecover_core::Error::Shape("temporary file".into()));
            }
            let out = read_csv(&path, opts);
            let _ = std::fs::remove_file(&path);
            out
        }
    }
}

fn encode(data: &Dataset, k: u64) -> Verdict {
    let encoding = match (k >> 20) % 3 {
        0 => Encoding::Native,
        1 => Encoding::OneHot { drop_first: true },
        _ => Encoding::OneHot { drop_first: false },
    };
    match Encoder::fit(data, encoding) {
        Ok((enc, _)) => match enc.transform(data) {
            Ok(_) => Verdict::Accepted,
            Err(_) => Verdict::Rejected,
        },
        Err(_) => Verdict::Rejected,
    }
}

fn run_plain(input: &[u8]) -> Verdict {
    let k = knob(input);
    match read(input, &options(k)) {
        Ok(data) => {
            let _ = Schema::of(&data);
            encode(&data, k)
        }
        Err(e) => {
            let _ = e.to_string();
            Verdict::Rejected
        }
    }
}

/// The training table whose schema `csv-schema` reads against.
const TRAIN: &str = "age,color,flag,y\n31,red,1,yes\n52,blue,0,no\n47,<missing>,1,no\n\
                     18.5,green,0,yes\n";

fn run_schema(input: &[u8]) -> Verdict {
    let k = knob(input);
    let regression = (k >> 3) & 3 == 0;
    let task = if regression {
        TaskKind::Regression
    } else {
        TaskKind::Classification
    };
    let train_text = if regression {
        TRAIN.replace("yes", "1.5").replace("no", "-2")
    } else {
        TRAIN.to_string()
    };
    let train_opts = CsvOptions::default()
        .target("y")
        .task(task)
        .kind("color", ColumnKind::Categorical);
    let Ok((train, _)) = read_csv_str_with_report("train", &train_text, &train_opts) else {
        panic!("the training table of csv-schema does not read");
    };
    let (encoder, _) = Encoder::fit(&train, Encoding::OneHot { drop_first: false })
        .expect("the training table of csv-schema encodes");
    let mut opts = CsvOptions::default()
        .target("y")
        .schema(encoder.schema().clone());
    if k & 1 == 0 {
        opts = opts.unseen_level(UnseenLevel::Missing);
    }
    if (k >> 1) & 1 == 0 {
        opts = opts.missing_numeric(MissingNumeric::Keep);
    }
    if (k >> 5) & 7 == 0 {
        opts = opts.missing_categorical(MissingCategorical::DropRows);
    }
    match read(input, &opts) {
        Ok(data) => match encoder.transform(&data) {
            Ok(_) => Verdict::Accepted,
            Err(_) => Verdict::Rejected,
        },
        Err(e) => {
            let _ = e.to_string();
            Verdict::Rejected
        }
    }
}
