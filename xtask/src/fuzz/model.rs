//! The model file: `FittedModel::from_json`, then `predict` on a small
//! data set built from the loaded schema, the rule set and
//! `render_rules`; a relational model file goes to
//! `RelationalFit::from_json` and its trees print. The seed corpus holds
//! small model files of several methods (`fuzz/corpus/model/`, written by
//! the test `tests::write_model_seeds` when `RULECOVER_WRITE_SEEDS` is
//! set).

use rulecover::{FittedModel, RelationalFit};
use rulecover_core::FeatureKind;

use super::{Target, Verdict};

/// JSON words and model-file field names worth inserting.
const WORDS: &[&str] = &[
    "\"inf\"",
    "\"-inf\"",
    "\"nan\"",
    "-1",
    "4294967295",
    "1e400",
    "null",
    "[]",
    "{}",
    "[0]",
    "[-1]",
    "\"format_version\"",
    "\"kind\"",
    "\"schema\"",
    "\"features\"",
    "\"levels\"",
    "\"Categorical\"",
    "\"Numeric\"",
    "\"target\"",
    "\"model\"",
    "\"feature\"",
    "\"threshold\"",
    "\"children\"",
    "\"rules\"",
    "\"n_classes\"",
    "\"weights\"",
    "\"classes\"",
    "true",
    "false",
];

/// `model`.
pub fn target() -> Target {
    Target {
        name: "model",
        about: "rulecover::FittedModel::from_json, then predict on rows built from the loaded \
                schema, rule_set and render_rules (RelationalFit::from_json and render for \
                relational files)",
        dictionary: WORDS,
        run,
    }
}

fn run(input: &[u8]) -> Verdict {
    let Ok(text) = std::str::from_utf8(input) else {
        return Verdict::Rejected;
    };
    match FittedModel::from_json(text) {
        Ok(model) => {
            let _ = model.rule_set();
            let _ = model.n_rules();
            let _ = model.render_rules();
            let schema = model.schema();
            let rows = 6;
            let columns: Vec<Vec<f64>> = schema
                .features
                .iter()
                .map(|f| match &f.kind {
                    FeatureKind::Numeric | FeatureKind::Indicator { .. } => {
                        vec![0.0, -1.0, 1.5, 1e6, -3.25, 0.5]
                    }
                    FeatureKind::Categorical { levels } => (0..rows)
                        .map(|i| (i % levels.len().max(1)) as f64)
                        .collect(),
                })
                .collect();
            let Ok(data) = schema.dataset_from_columns(columns) else {
                return Verdict::Rejected;
            };
            match model.predict(&data) {
                Ok(_) => Verdict::Accepted,
                Err(_) => Verdict::Rejected,
            }
        }
        Err(_) => match RelationalFit::from_json(text) {
            Ok(fit) => {
                let _ = fit.ensemble.render();
                Verdict::Accepted
            }
            Err(_) => Verdict::Rejected,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Writes the seed corpus of `model` (small models of several methods)
    /// when `RULECOVER_WRITE_SEEDS` is set; checks that every seed loads
    /// and predicts otherwise.
    #[test]
    fn write_model_seeds() {
        let dir = super::super::repo_root().join("fuzz/corpus/model");
        if std::env::var_os("RULECOVER_WRITE_SEEDS").is_none() {
            for (p, b) in super::super::files_in(&dir).unwrap() {
                assert_eq!(run(&b), Verdict::Accepted, "{}", p.display());
            }
            return;
        }
        std::fs::create_dir_all(&dir).unwrap();
        let text = "age,color,z,y\n31,red,1.5,yes\n52,blue,0.5,no\n47,red,2.5,no\n\
                    18,green,0.1,yes\n60,blue,3.5,no\n25,green,1.0,yes\n33,red,2.0,yes\n\
                    41,blue,0.7,no\n";
        let opts = rulecover_core::csv::CsvOptions::default().target("y");
        let data = rulecover_core::csv::read_csv_str("seed", text, &opts).unwrap();
        let reg = rulecover_core::csv::read_csv_str(
            "seed",
            &text.replace("yes", "1.5").replace("no", "-0.5"),
            &opts.clone().task(rulecover_core::csv::TaskKind::Regression),
        )
        .unwrap();
        let three = rulecover_core::generate::blobs(30, 3, 2, 1);
        // Each method's smoke-run parameters (small and fast).
        let jobs: &[(&str, &rulecover_core::Dataset)] = &[
            ("dt", &data),
            ("rf", &data),
            ("ada", &data),
            ("gb", &reg),
            ("mirco", &data),
            ("rux-rf", &data),
            ("rug", &data),
            ("rcboost", &data),
            ("lr1", &data),
            ("lrr", &reg),
            ("rulefit", &data),
            ("nre", &data),
            ("dt", &three),
        ];
        for (i, (id, d)) in jobs.iter().enumerate() {
            let params = rulecover::method(id).unwrap().spec().smoke;
            let model = match rulecover::fit(id, params, d, None, 1) {
                Ok(m) => m,
                Err(e) => panic!("{id}: {e}"),
            };
            let path = dir.join(format!("{i:02}-{id}.json"));
            std::fs::write(&path, model.to_json().unwrap()).unwrap();
        }
        use super::super::boostsrl::{BACKGROUND, FACTS, NEG, POS};
        let problem = rc_logic::Problem::from_texts(
            (BACKGROUND, "bk"),
            "smokes",
            rc_logic::SplitText {
                facts: (FACTS, "facts"),
                pos: (POS, "pos"),
                neg: (NEG, "neg"),
            },
            None,
        )
        .unwrap();
        let fit = rulecover::fit_relational("rfgb", &[("n_trees", "2")], &problem, 1).unwrap();
        std::fs::write(dir.join("13-rfgb.json"), fit.to_json().unwrap()).unwrap();
    }
}
