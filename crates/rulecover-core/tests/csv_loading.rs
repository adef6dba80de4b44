//! CSV edge cases: every bad input gives a typed error naming the file and,
//! where they exist, the column and row.

use rulecover_core::csv::{
    read_csv, read_csv_str, ColumnKind, CsvOptions, MissingCategorical, MissingNumeric, TaskKind,
    MISSING_LEVEL,
};
use rulecover_core::{Error, FeatureKind, Target};

fn opts() -> CsvOptions {
    CsvOptions::default()
}

#[test]
fn quoted_fields_with_delimiters_and_quotes() {
    let text = "name,size,y\n\"Smith, J\",1.5,a\n\"say \"\"hi\"\"\",2,b\n";
    let d = read_csv_str("q.csv", text, &opts()).unwrap();
    assert_eq!(d.n_rows(), 2);
    match &d.features()[0].kind {
        FeatureKind::Categorical { levels } => {
            assert_eq!(levels, &["Smith, J".to_string(), "say \"hi\"".to_string()])
        }
        k => panic!("expected categorical, got {k:?}"),
    }
    assert_eq!(d.value(1, 1), 2.0);
}

#[test]
fn target_defaults_to_last_column_and_can_be_named() {
    let text = "y,x\n1,0.5\n0,0.25\n";
    let d = read_csv_str("t.csv", text, &opts()).unwrap();
    assert_eq!(d.feature_names(), vec!["y"]);
    let d = read_csv_str("t.csv", text, &opts().target("y")).unwrap();
    assert_eq!(d.feature_names(), vec!["x"]);
    assert_eq!(d.labels().unwrap(), vec![1, 0]);
}

#[test]
fn unknown_target_column_is_named() {
    let err = read_csv_str("t.csv", "a,b\n1,2\n", &opts().target("label")).unwrap_err();
    match err {
        Error::UnknownColumn {
            file,
            column,
            available,
        } => {
            assert_eq!((file.as_str(), column.as_str()), ("t.csv", "label"));
            assert_eq!(available, "a, b");
        }
        e => panic!("wrong error {e}"),
    }
}

#[test]
fn empty_file_and_header_only() {
    assert!(matches!(
        read_csv_str("e.csv", "", &opts()),
        Err(Error::Empty { .. })
    ));
    let err = read_csv_str("h.csv", "a,b\n", &opts()).unwrap_err();
    assert!(matches!(err, Error::Empty { .. }));
    assert!(err.to_string().contains("h.csv"));
}

#[test]
fn ragged_row_names_row_and_counts() {
    let err = read_csv_str("r.csv", "a,b,y\n1,2,0\n3,1\n", &opts()).unwrap_err();
    match err {
        Error::RaggedRow {
            file,
            row,
            expected,
            found,
        } => {
            assert_eq!((file.as_str(), row, expected, found), ("r.csv", 2, 3, 2))
        }
        e => panic!("wrong error {e}"),
    }
}

#[test]
fn non_numeric_value_in_forced_numeric_column() {
    let text = "age,y\n31,0\nn/a,1\nold,0\n";
    let err = read_csv_str("n.csv", text, &opts().kind("age", ColumnKind::Numeric)).unwrap_err();
    let msg = err.to_string();
    match err {
        Error::NotNumeric {
            column, row, value, ..
        } => {
            assert_eq!((column.as_str(), row, value.as_str()), ("age", 2, "n/a"));
        }
        e => panic!("wrong error {e}"),
    }
    assert!(
        msg.contains("n.csv") && msg.contains("2 such values"),
        "{msg}"
    );
}

#[test]
fn missing_numeric_under_each_policy() {
    let text = "x,c,y\n1,a,0\n,b,1\n3,a,1\nNA,b,0\n";
    let err = read_csv_str("m.csv", text, &opts()).unwrap_err();
    match &err {
        Error::MissingValue { column, row, .. } => assert_eq!((column.as_str(), *row), ("x", 2)),
        e => panic!("wrong error {e}"),
    }
    assert!(err.to_string().contains("2 missing values"));
    let d = read_csv_str(
        "m.csv",
        text,
        &opts().missing_numeric(MissingNumeric::DropRows),
    )
    .unwrap();
    assert_eq!(d.n_rows(), 2);
    assert_eq!(d.column(0).to_vec(), vec![1.0, 3.0]);
    let d = read_csv_str("m.csv", text, &opts().missing_numeric(MissingNumeric::Keep)).unwrap();
    assert_eq!(d.n_rows(), 4);
    assert!(d.value(1, 0).is_nan() && d.value(3, 0).is_nan());
    assert!(d.has_missing());
}

#[test]
fn missing_categorical_under_each_policy() {
    let text = "c,y\nred,0\n?,1\nblue,1\n";
    let d = read_csv_str("c.csv", text, &opts()).unwrap();
    match &d.features()[0].kind {
        FeatureKind::Categorical { levels } => {
            assert_eq!(levels, &["blue", "red", MISSING_LEVEL]);
        }
        k => panic!("{k:?}"),
    }
    assert_eq!(d.column(0).to_vec(), vec![1.0, 2.0, 0.0]);
    let d = read_csv_str(
        "c.csv",
        text,
        &opts().missing_categorical(MissingCategorical::Keep),
    )
    .unwrap();
    assert!(d.value(1, 0).is_nan());
    let d = read_csv_str(
        "c.csv",
        text,
        &opts().missing_categorical(MissingCategorical::DropRows),
    )
    .unwrap();
    assert_eq!(d.n_rows(), 2);
    let err = read_csv_str(
        "c.csv",
        text,
        &opts().missing_categorical(MissingCategorical::Error),
    )
    .unwrap_err();
    assert!(matches!(err, Error::MissingValue { row: 2, .. }), "{err}");
}

#[test]
fn integer_coded_categorical_by_override_sorts_numerically() {
    let text = "cp,y\n10,0\n2,1\n1,0\n";
    let d = read_csv_str("i.csv", text, &opts().kind("cp", ColumnKind::Categorical)).unwrap();
    match &d.features()[0].kind {
        FeatureKind::Categorical { levels } => assert_eq!(levels, &["1", "2", "10"]),
        k => panic!("{k:?}"),
    }
}

#[test]
fn target_kinds() {
    let text = "x,y\n1,1.5\n2,2.5\n";
    let d = read_csv_str("r.csv", text, &opts()).unwrap();
    assert!(matches!(d.target_storage(), Target::Real(_)));
    let d = read_csv_str("r.csv", "x,y\n1,10\n2,2\n", &opts()).unwrap();
    assert_eq!(d.class_names(), ["2", "10"]);
    let d = read_csv_str(
        "r.csv",
        "x,y\n1,10\n2,2\n",
        &opts().task(TaskKind::Regression),
    )
    .unwrap();
    assert_eq!(d.target_values(), vec![10.0, 2.0]);
    let err = read_csv_str("r.csv", "x,y\n1,\n", &opts()).unwrap_err();
    assert!(matches!(err, Error::BadTarget { row: 1, .. }), "{err}");
    let err =
        read_csv_str("r.csv", "x,y\n1,abc\n", &opts().task(TaskKind::Regression)).unwrap_err();
    assert!(matches!(err, Error::BadTarget { row: 1, .. }), "{err}");
}

#[test]
fn missing_file_names_the_path() {
    let err = read_csv(std::path::Path::new("no/such/file.csv"), &opts()).unwrap_err();
    assert!(matches!(err, Error::Io { .. }));
    assert!(err.to_string().contains("no/such/file.csv"));
}

#[test]
fn dropped_columns_and_whitespace() {
    let text = "id, x ,y\n7, 1.5 ,a\n8,2,b\n";
    let d = read_csv_str("w.csv", text, &opts().drop_column("id")).unwrap();
    assert_eq!(d.feature_names(), vec!["x"]);
    assert_eq!(d.value(0, 0), 1.5);
}

#[test]
fn one_hot_keeps_names_and_drop_first() {
    let text = "c,x,y\nred,1,0\nblue,2,1\ngreen,3,1\n";
    let d = read_csv_str("o.csv", text, &opts()).unwrap();
    let full = d.one_hot(false).unwrap();
    assert_eq!(
        full.feature_names(),
        vec!["c=blue", "c=green", "c=red", "x"]
    );
    assert_eq!(full.column(2).to_vec(), vec![1.0, 0.0, 0.0]);
    let dropped = d.one_hot(true).unwrap();
    assert_eq!(dropped.feature_names(), vec!["c=green", "c=red", "x"]);
}
