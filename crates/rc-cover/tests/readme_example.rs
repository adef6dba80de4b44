//! The README's example, kept compiling and passing.

use rc_cover::{MircoParams, SelectFrom};
use rc_tree::RandomForestParams;
use rulecover_core::{generate, metrics::accuracy, Fit, Predict, RuleModel};

#[test]
fn readme_example() -> Result<(), Box<dyn std::error::Error>> {
    let train = generate::twonorm(600, 7);
    let test = generate::twonorm(600, 8);
    let forest = RandomForestParams::classifier()
        .n_estimators(50)
        .max_depth(5)
        .seed(1)
        .fit(&train)?;
    let mirco = MircoParams::default().fit_from(&forest, &train)?; // a handful of the forest's leaves
    println!("{} rules instead of {}", mirco.n_rules(), mirco.pool_size());
    println!("{}", mirco.render_rules());
    let predicted = mirco.predict(&test)?.labels().unwrap_or_default();
    let acc = accuracy(&test.labels()?, &predicted)?;
    println!("test accuracy {acc:.3}");
    assert!(mirco.n_rules() * 10 < mirco.pool_size());
    assert!(acc > 0.8, "accuracy {acc}");
    Ok(())
}
