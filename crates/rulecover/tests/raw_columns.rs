//! Every tabular learner on raw numeric and categorical columns read from
//! CSV files: the model reads new data by its training schema, so a test
//! file with the columns in another order, the levels met in another order
//! and no label column predicts exactly as the training-format file; a
//! missing column and an unseen level are typed errors; the model saved
//! and loaded predicts the same on the raw file.

mod common;

use std::path::Path;

use rulecover::{fit, methods, FittedModel, Task};
use rulecover_core::csv::{read_csv, CsvOptions};
use rulecover_core::{Dataset, Rng, UnseenLevel};

use common::{bits, small, temp_dir};

const COLUMNS: [&str; 5] = ["age", "color", "size", "shape", "label"];

/// One row of a problem where the class depends on both kinds of column.
fn row(rng: &mut Rng, regression: bool) -> [String; 5] {
    let age = 20.0 + (rng.next_f64() * 50.0).round();
    let color = ["red", "green", "blue"][rng.below(3)];
    let size = (rng.next_f64() * 100.0).round() / 100.0;
    let shape = ["round", "square"][rng.below(2)];
    let signal = (color == "red" && age > 40.0) || (shape == "square" && size > 0.5);
    let label = if regression {
        format!(
            "{:.3}",
            f64::from(u8::from(signal)) * 2.0 + size + 0.1 * rng.next_f64()
        )
    } else {
        let noisy = signal != (rng.next_f64() < 0.05);
        (if noisy { "yes" } else { "no" }).to_string()
    };
    [
        age.to_string(),
        color.into(),
        size.to_string(),
        shape.into(),
        label,
    ]
}

/// Writes `rows` with the columns `order` (indices into [`COLUMNS`]).
fn write_csv(path: &Path, rows: &[[String; 5]], order: &[usize]) {
    let mut text = order
        .iter()
        .map(|&j| COLUMNS[j])
        .collect::<Vec<_>>()
        .join(",");
    text.push('\n');
    for r in rows {
        text.push_str(
            &order
                .iter()
                .map(|&j| r[j].as_str())
                .collect::<Vec<_>>()
                .join(","),
        );
        text.push('\n');
    }
    std::fs::write(path, text).unwrap();
}

struct Files {
    train: Dataset,
    /// The test rows in the training file's format, read against the
    /// training schema.
    reference: std::path::PathBuf,
    /// The test rows with the columns reversed and no label column.
    reordered: std::path::PathBuf,
    /// The test rows without the `size` column.
    no_size: std::path::PathBuf,
    /// One test row with a colour the training data never had.
    purple: std::path::PathBuf,
}

fn files(dir: &Path, regression: bool) -> Files {
    let mut rng = Rng::new(if regression { 17 } else { 5 });
    let train_rows: Vec<_> = (0..160).map(|_| row(&mut rng, regression)).collect();
    // The test rows start with a blue square, so a file read on its own
    // meets its levels in another order than the training file.
    let mut test_rows: Vec<_> = (0..60).map(|_| row(&mut rng, regression)).collect();
    test_rows[0][1] = "blue".into();
    test_rows[0][3] = "square".into();
    let all = [0, 1, 2, 3, 4];
    write_csv(&dir.join("train.csv"), &train_rows, &all);
    write_csv(&dir.join("test.csv"), &test_rows, &all);
    write_csv(&dir.join("reordered.csv"), &test_rows, &[3, 2, 1, 0]);
    write_csv(&dir.join("no_size.csv"), &test_rows, &[0, 1, 3, 4]);
    let mut purple = test_rows[..1].to_vec();
    purple[0][1] = "purple".into();
    write_csv(&dir.join("purple.csv"), &purple, &[0, 1, 2, 3]);
    let mut opts = CsvOptions::default().target("label");
    if regression {
        opts = opts.task(rulecover_core::csv::TaskKind::Regression);
    }
    Files {
        train: read_csv(&dir.join("train.csv"), &opts).unwrap(),
        reference: dir.join("test.csv"),
        reordered: dir.join("reordered.csv"),
        no_size: dir.join("no_size.csv"),
        purple: dir.join("purple.csv"),
    }
}

fn check_method(id: &str, f: &Files, dir: &Path) {
    let model = fit(id, &small(id), &f.train, None, 3).unwrap_or_else(|e| panic!("{id}: {e}"));
    assert_eq!(
        model.schema().feature_names(),
        ["age", "color", "size", "shape"]
    );
    assert!(model.schema().features[1].is_categorical(), "{id}");

    // The training-format test file, read against the model's schema.
    let against_schema = CsvOptions::default()
        .target("label")
        .schema(model.schema().clone());
    let reference = read_csv(&f.reference, &against_schema).unwrap();
    let expected = model
        .predict(&reference)
        .unwrap_or_else(|e| panic!("{id}: {e}"));

    // The same file read on its own: its own level codes, recoded by name.
    let own = read_csv(&f.reference, &CsvOptions::default().target("label")).unwrap();
    let p = model.predict(&own).unwrap_or_else(|e| panic!("{id}: {e}"));
    assert_eq!(bits(&p), bits(&expected), "{id}: file read on its own");

    // Columns reversed, no label: read on its own and against the schema.
    let reordered = read_csv(&f.reordered, &CsvOptions::default().no_target()).unwrap();
    assert_eq!(reordered.feature_names(), ["shape", "size", "color", "age"]);
    let p = model
        .predict(&reordered)
        .unwrap_or_else(|e| panic!("{id}: {e}"));
    assert_eq!(bits(&p), bits(&expected), "{id}: reordered columns");
    let reordered = read_csv(
        &f.reordered,
        &CsvOptions::default()
            .target("label")
            .schema(model.schema().clone()),
    )
    .unwrap();
    assert!(!reordered.has_target());
    let p = model
        .predict(&reordered)
        .unwrap_or_else(|e| panic!("{id}: {e}"));
    assert_eq!(
        bits(&p),
        bits(&expected),
        "{id}: reordered, against the schema"
    );

    // A missing column and an unseen level are typed errors naming them.
    let no_size = read_csv(&f.no_size, &CsvOptions::default().target("label")).unwrap();
    let err = model.predict(&no_size).expect_err(id).to_string();
    assert!(err.contains("'size'"), "{id}: {err}");
    let purple = read_csv(&f.purple, &CsvOptions::default().no_target()).unwrap();
    let err = model.predict(&purple).expect_err(id).to_string();
    assert!(
        err.contains("purple") && err.contains("color"),
        "{id}: {err}"
    );
    // Read as missing, an unseen level is what the GLRM family's literals
    // say of it (`color == v` false, `color != v` true): it predicts.
    if model.model().downcast_ref::<rc_glm::GlrmModel>().is_some() {
        let p = model
            .predict_with(&purple, UnseenLevel::Missing)
            .unwrap_or_else(|e| panic!("{id}: {e}"));
        assert_eq!(p.len(), 1, "{id}");
    }

    // Saved and loaded, the model predicts the raw file the same.
    let path = dir.join(format!("{id}.json"));
    model.save(&path).unwrap();
    let loaded = FittedModel::load(&path).unwrap();
    let p = loaded.predict(&own).unwrap_or_else(|e| panic!("{id}: {e}"));
    assert_eq!(bits(&p), bits(&expected), "{id}: after save and load");
}

#[test]
fn every_classifier_reads_raw_columns_by_name() {
    let dir = temp_dir("raw-classes");
    let f = files(&dir, false);
    let mut n = 0;
    for m in methods()
        .iter()
        .map(|m| m.spec())
        .filter(|m| m.tasks.contains(&Task::Binary))
    {
        check_method(m.id, &f, &dir);
        n += 1;
    }
    assert_eq!(n, 21);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn every_regressor_reads_raw_columns_by_name() {
    let dir = temp_dir("raw-values");
    let f = files(&dir, true);
    let mut n = 0;
    for m in methods()
        .iter()
        .map(|m| m.spec())
        .filter(|m| m.tasks.contains(&Task::Regression))
    {
        check_method(m.id, &f, &dir);
        n += 1;
    }
    assert_eq!(n, 12);
    std::fs::remove_dir_all(&dir).unwrap();
}
