//! The root README's example, as it stands there: two CSV files, the test
//! file with its columns in another order and no label; fit, print the
//! rules, predict by column name, save and load the model.

// The code is the README's, borrow for borrow.
#![allow(clippy::needless_borrows_for_generic_args)]

#[test]
fn readme_example() -> Result<(), Box<dyn std::error::Error>> {
    let dir = std::env::temp_dir().join(format!("rulecover-readme-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    // --- README begin ---
    use rulecover::FittedModel;
    use rulecover_core::csv::{read_csv, CsvOptions};
    use rulecover_core::Rng;

    // A train.csv and a test.csv (use your own files instead); the test
    // file has its columns in another order and no label.
    let mut rng = Rng::new(1);
    let (mut train, mut test) = (
        String::from("age,color,label\n"),
        String::from("color,age\n"),
    );
    for i in 0..400 {
        let (age, color) = (20 + rng.below(50), ["red", "green", "blue"][rng.below(3)]);
        let label = if color == "red" && age > 40 {
            "yes"
        } else {
            "no"
        };
        if i < 300 {
            train += &format!("{age},{color},{label}\n");
        } else {
            test += &format!("{color},{age}\n");
        }
    }
    std::fs::write(dir.join("train.csv"), train)?;
    std::fs::write(dir.join("test.csv"), test)?;

    let train = read_csv(
        &dir.join("train.csv"),
        &CsvOptions::default().target("label"),
    )?;
    let model = rulecover::fit("mirco", &[("max_depth", "3")], &train, None, 7)?; // or "rug", "lrr", ...
    print!("{}", model.render_rules().unwrap_or_default()); // if age > 40.5 and color == red then class yes [...]

    let schema = model.schema().clone(); // read the test file as the training file was read
    let test = read_csv(&dir.join("test.csv"), &CsvOptions::default().schema(schema))?;
    let predicted = model.predict(&test)?.labels().unwrap_or_default(); // class indices
    println!("first test row: {}", model.classes()[predicted[0]]);

    model.save(&dir.join("model.json"))?; // one JSON file holds everything needed to predict
    let loaded = FittedModel::load(&dir.join("model.json"))?;
    assert_eq!(loaded.predict(&test)?, model.predict(&test)?);
    // --- README end ---
    let rules = model.render_rules().unwrap_or_default();
    assert!(rules.contains("color == red"), "{rules}");
    assert_eq!(predicted.len(), 100);
    std::fs::remove_dir_all(&dir)?;
    Ok(())
}

/// The README shows the code between the markers above, line for line.
#[test]
fn the_readme_shows_this_code() {
    let test = include_str!("readme_example.rs");
    let readme = include_str!("../../../README.md");
    let begin = test.find("// --- README begin ---\n").unwrap() + 24;
    let end = test.find("    // --- README end ---").unwrap();
    let code: Vec<&str> = test[begin..end]
        .lines()
        .map(|l| l.strip_prefix("    ").unwrap_or(l))
        .collect();
    assert!(
        readme.contains(&code.join("\n")),
        "README.md's example differs from tests/readme_example.rs"
    );
}
