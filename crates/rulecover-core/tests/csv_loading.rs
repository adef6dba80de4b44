//! CSV edge cases: every bad input gives a typed error naming the file and,
//! where they exist, the column and row.

use rulecover_core::csv::{
    read_csv, read_csv_str, read_csv_str_with_report, ColumnKind, CsvOptions, KindReason,
    MissingCategorical, MissingNumeric, TargetReason, TaskKind, MISSING_LEVEL,
};
use rulecover_core::schema::{Encoder, Encoding};
use rulecover_core::{Error, FeatureKind, Schema, Target, UnseenLevel};

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

const TRAIN: &str = "\
age,color,size,y
31,red,S,1
52,blue,M,0
47,green,L,1
29,red,M,0
";

fn train() -> rulecover_core::Dataset {
    read_csv_str(
        "train.csv",
        TRAIN,
        &opts().kind("size", ColumnKind::Categorical),
    )
    .unwrap()
}

#[test]
fn test_file_read_against_the_training_schema_matches_training_rows() {
    let train = train();
    let schema = Schema::of(&train);
    // Columns shuffled, an extra id column, no label column, levels in
    // another order of appearance.
    let test = "size,id,color,age\nM,a,red,29\nL,b,green,47\nS,c,red,31\nM,d,blue,52\n";
    let data = read_csv_str("test.csv", test, &opts().target("y").schema(schema.clone())).unwrap();
    assert_eq!(data.features(), schema.features.as_slice());
    assert!(!data.has_target());
    for (i, j) in [(0, 3), (1, 2), (2, 0), (3, 1)] {
        assert_eq!(data.row(i), train.row(j), "test row {i} = train row {j}");
    }
    // The encoder takes it as it is.
    let (encoder, encoded) = Encoder::fit(&train, Encoding::OneHot { drop_first: false }).unwrap();
    let test_encoded = encoder.transform(&data).unwrap();
    assert_eq!(test_encoded.row(2), encoded.row(0));

    // The same file with its labels (spelled 1.0 / 0) gets the training classes.
    let labelled = "y,size,color,age\n0,M,red,29\n1.0,L,green,47\n";
    let data = read_csv_str(
        "test.csv",
        labelled,
        &opts().target("y").schema(schema.clone()),
    )
    .unwrap();
    assert_eq!(data.class_names(), train.class_names());
    assert_eq!(data.labels().unwrap(), vec![0, 1]);
    // With the default target (the last column) a file without labels
    // keeps its last column as a feature.
    let data = read_csv_str("test.csv", test, &opts().schema(schema.clone())).unwrap();
    assert!(!data.has_target());
    assert_eq!(data.n_rows(), 4);
}

#[test]
fn schema_read_errors_name_the_problem() {
    let schema = Schema::of(&train());
    let with = || opts().target("y").schema(schema.clone());
    match read_csv_str("t.csv", "age,size\n3,S\n", &with()).unwrap_err() {
        Error::MissingColumn { data, column, .. } => {
            assert_eq!((data.as_str(), column.as_str()), ("t.csv", "color"))
        }
        e => panic!("wrong error {e}"),
    }
    let text = "age,color,size\n30,red,S\n31,purple,S\n";
    match read_csv_str("t.csv", text, &with()).unwrap_err() {
        Error::UnseenLevel {
            column, row, level, ..
        } => assert_eq!(
            (column.as_str(), row, level.as_str()),
            ("color", 2, "purple")
        ),
        e => panic!("wrong error {e}"),
    }
    let lenient = read_csv_str("t.csv", text, &with().unseen_level(UnseenLevel::Missing)).unwrap();
    assert!(lenient.value(1, 1).is_nan());
    assert_eq!(lenient.value(0, 1), 2.0); // red is level 2 of blue, green, red
    match read_csv_str("t.csv", "age,color,size\n3x,red,S\n", &with()).unwrap_err() {
        Error::NotNumeric {
            column, row, value, ..
        } => assert_eq!((column.as_str(), row, value.as_str()), ("age", 1, "3x")),
        e => panic!("wrong error {e}"),
    }
    match read_csv_str("t.csv", "age,color,size,y\n3,red,S,2\n", &with()).unwrap_err() {
        Error::UnseenClass { class, .. } => assert_eq!(class, "2"),
        e => panic!("wrong error {e}"),
    }
    // Extra columns are not parsed: garbage in them is fine.
    let d = read_csv_str("t.csv", "junk,age,color,size\n\u{1},3,red,S\n", &with()).unwrap();
    assert_eq!(d.n_rows(), 1);
    // A declared kind that contradicts the schema is refused.
    let err = read_csv_str(
        "t.csv",
        "age,color,size\n3,red,S\n",
        &with().kind("age", ColumnKind::Categorical),
    )
    .unwrap_err();
    assert!(
        matches!(err, Error::InvalidParameter { name: "kind", .. }),
        "{err}"
    );
}

#[test]
fn bad_cell_in_declared_numeric_column_is_an_error_not_a_category() {
    let mut text = String::from("x,y\n");
    for i in 0..50 {
        text.push_str(&format!("{i},0\n"));
    }
    text.push_str("0x10,1\n1_000,0\n");
    // Undetected: the column silently becomes categorical, and the report says why.
    let (data, report) = read_csv_str_with_report("b.csv", &text, &opts()).unwrap();
    assert!(data.features()[0].is_categorical());
    let decision = report.feature("x").unwrap();
    assert_eq!(decision.kind, ColumnKind::Categorical);
    assert_eq!(decision.levels, 52);
    assert_eq!(
        decision.reason,
        KindReason::NotNumbers {
            count: 2,
            first_row: 51,
            first_value: "0x10".into()
        }
    );
    assert!(decision
        .to_string()
        .contains("2 values are not numbers, first '0x10' at row 51"));
    // Declared: an error naming the column, the row and the value.
    for declared in [
        opts().kind("x", ColumnKind::Numeric),
        opts().default_kind(ColumnKind::Numeric),
    ] {
        match read_csv_str("b.csv", &text, &declared).unwrap_err() {
            Error::NotNumeric {
                file,
                column,
                row,
                value,
                more,
            } => {
                assert_eq!(
                    (file.as_str(), column.as_str(), row, value.as_str()),
                    ("b.csv", "x", 51, "0x10")
                );
                assert!(more.contains("2 such values"), "{more}");
            }
            e => panic!("wrong error {e}"),
        }
    }
}

#[test]
fn duplicate_column_is_an_error() {
    for text in ["a,b,a\n1,2,3\n", "y,x,y\n1,2,0\n"] {
        match read_csv_str("d.csv", text, &opts()).unwrap_err() {
            Error::DuplicateColumn { file, column } => {
                assert_eq!(
                    (file.as_str(), column.as_str()),
                    ("d.csv", text.get(..1).unwrap())
                )
            }
            e => panic!("wrong error {e}"),
        }
    }
}

#[test]
fn labels_that_are_equal_numbers_are_one_class() {
    let text = "x,y\n1,1\n2,1.0\n3,0\n4,-0\n5,0.0\n6,2\n";
    let d = read_csv_str("l.csv", text, &opts()).unwrap();
    assert_eq!(d.n_classes(), 3);
    assert_eq!(d.class_names(), ["0", "1", "2"]);
    assert_eq!(d.labels().unwrap(), vec![1, 1, 0, 0, 0, 2]);
    let d = read_csv_str("l.csv", text, &opts().task(TaskKind::Classification)).unwrap();
    assert_eq!(d.labels().unwrap(), vec![1, 1, 0, 0, 0, 2]);
    // Numeric labels in numeric order, others in byte order.
    let d = read_csv_str("l.csv", "x,y\n1,10\n2,9\n3,1e1\n", &opts()).unwrap();
    assert_eq!(d.class_names(), ["9", "10"]);
    assert_eq!(d.labels().unwrap(), vec![1, 0, 1]);
    let d = read_csv_str("l.csv", "x,y\n1,b\n2,a\n3,B\n", &opts()).unwrap();
    assert_eq!(d.class_names(), ["B", "a", "b"]);
}

#[test]
fn positive_class_becomes_class_one() {
    let text = "x,y\n1,yes\n2,no\n3,yes\n";
    let d = read_csv_str("p.csv", text, &opts()).unwrap();
    assert_eq!(d.class_names(), ["no", "yes"]);
    let d = read_csv_str("p.csv", text, &opts().positive_class("no")).unwrap();
    assert_eq!(d.class_names(), ["yes", "no"]);
    assert_eq!(d.labels().unwrap(), vec![0, 1, 0]);
    let d = read_csv_str("p.csv", "x,y\n1,1\n2,0\n", &opts().positive_class("0.0")).unwrap();
    assert_eq!(d.class_names(), ["1", "0"]);
    assert_eq!(d.labels().unwrap(), vec![0, 1]);
    match read_csv_str("p.csv", text, &opts().positive_class("maybe")).unwrap_err() {
        Error::InvalidParameter {
            name,
            value,
            reason,
        } => {
            assert_eq!((name, value.as_str()), ("positive_class", "maybe"));
            assert!(reason.contains("no, yes"), "{reason}");
        }
        e => panic!("wrong error {e}"),
    }
    let three = "x,y\n1,a\n2,b\n3,c\n";
    let err = read_csv_str("p.csv", three, &opts().positive_class("a")).unwrap_err();
    assert!(err.to_string().contains("3 classes"), "{err}");
}

#[test]
fn no_target_keeps_every_column() {
    let text = "a,b,c\n1,x,2.5\n2,y,3.5\n";
    let d = read_csv_str("n.csv", text, &opts().no_target()).unwrap();
    assert_eq!(d.feature_names(), vec!["a", "b", "c"]);
    assert!(!d.has_target());
    assert!(matches!(d.target_storage(), Target::None));
    assert_eq!(d.value(1, 2), 3.5);
    // A named target the file lacks is still an error without a schema.
    let err = read_csv_str("n.csv", text, &opts().target("y")).unwrap_err();
    assert!(matches!(err, Error::UnknownColumn { .. }), "{err}");
}

#[test]
fn report_says_what_was_detected_and_why() {
    let text = "id,age,color,cp,y\n1,31,red,1,a\n2,,blue,2,b\n3,47,?,3,a\n";
    let o = opts()
        .kind("cp", ColumnKind::Categorical)
        .drop_column("id")
        .missing_numeric(MissingNumeric::Keep);
    let (data, report) = read_csv_str_with_report("r.csv", text, &o).unwrap();
    assert_eq!(data.feature_names(), vec!["age", "color", "cp"]);
    assert_eq!(report.rows_read, 3);
    assert_eq!(report.rows_dropped, 0);
    assert_eq!(report.ignored, vec!["id"]);
    let age = report.feature("age").unwrap();
    assert_eq!((age.kind, age.missing), (ColumnKind::Numeric, 1));
    assert_eq!(age.reason, KindReason::AllNumbers);
    let color = report.feature("color").unwrap();
    assert_eq!(
        (color.kind, color.levels, color.missing),
        (ColumnKind::Categorical, 3, 1)
    );
    assert!(matches!(
        &color.reason,
        KindReason::NotNumbers { count: 2, first_row: 1, first_value } if first_value == "red"
    ));
    let cp = report.feature("cp").unwrap();
    assert_eq!((cp.levels, &cp.reason), (3, &KindReason::Declared));
    let target = report.target.as_ref().unwrap();
    assert_eq!(target.classes, Some(2));
    assert!(matches!(
        target.reason,
        TargetReason::NotNumbers { first_row: 1, .. }
    ));
    let shown = report.to_string();
    assert!(
        shown.contains("color: categorical with 3 levels"),
        "{shown}"
    );
    assert!(shown.contains("not read: id"), "{shown}");
    // Few integers are classes, fractions real values.
    let (_, r) = read_csv_str_with_report("r.csv", "x,y\n1,0\n2,3\n", &opts()).unwrap();
    assert_eq!(
        r.target.unwrap().reason,
        TargetReason::FewIntegers { distinct: 2 }
    );
    let (_, r) = read_csv_str_with_report("r.csv", "x,y\n1,0.5\n2,3\n", &opts()).unwrap();
    assert_eq!(r.target.unwrap().reason, TargetReason::RealValues);
}

#[test]
fn many_numeric_labels_then_a_word_are_read_again_as_classes() {
    // More than AUTO_MAX_CLASSES distinct numbers, then a non-number: the
    // labels are read again as text.
    let mut text = String::from("x,y\n");
    for i in 0..15 {
        text.push_str(&format!("{i},{i}\n"));
    }
    text.push_str("15,other\n");
    let d = read_csv_str("m.csv", &text, &opts()).unwrap();
    assert_eq!(d.n_classes(), 16);
    assert_eq!(d.label(15), 15);
    assert_eq!(d.class_names()[15], "other");
    assert_eq!(d.label(10), 2); // byte order: 0, 1, 10, ...
}

#[test]
fn file_read_streams_and_rereads_fallback_columns() {
    let dir = std::env::temp_dir().join(format!("rc-csv-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("f.csv");
    std::fs::write(&path, "a,b,y\n1,x,0\n2,3,1\n").unwrap();
    let d = read_csv(&path, &opts()).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(d.name(), "f");
    match &d.features()[1].kind {
        FeatureKind::Categorical { levels } => assert_eq!(levels, &["3", "x"]),
        k => panic!("{k:?}"),
    }
    assert_eq!(d.column(1).to_vec(), vec![1.0, 0.0]);
}
