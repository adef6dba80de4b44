//! rc-logic's BoostSRL parsers: facts, examples, mode declarations and
//! whole background files. Each target puts the input in one place of a
//! small relational problem (the others stay valid) and loads it with
//! [`Problem::from_texts`]; a problem that loads is fitted with one
//! shallow RFGB tree through the registry, predicted and printed.

use rc_logic::data::{Background, Problem, SplitText};
use rc_logic::parser;
use rc_logic::symbols::Vocabulary;

use super::{Target, Verdict};

pub(super) const BACKGROUND: &str = "setParam: maxTreeDepth=2.\nmode: smokes(+person).\n\
                          mode: friends(+person,-person).\nmode: friends(-person,+person).\n\
                          mode: cancer(+person).\nmode: age(+person,#age).\n";
pub(super) const FACTS: &str =
    "friends(ann,bob).\nfriends(bob,cid).\nfriends(cid,dan).\ncancer(bob).\n\
                     cancer(dan).\nage(ann,30).\nage(bob,\"thirty one\").\n";
pub(super) const POS: &str = "smokes(ann).\nsmokes(bob).\n";
pub(super) const NEG: &str = "smokes(cid).\nsmokes(dan).\n";

/// BoostSRL words worth inserting.
const WORDS: &[&str] = &[
    "mode:",
    "+person",
    "-person",
    "#age",
    "`person",
    "&person",
    "smokes",
    "friends",
    "cancer",
    "age",
    ":-",
    "setParam:",
    "maxTreeDepth=",
    "import:",
    "precompute:",
    "okIfUnknown:",
    "usePrologVariables:",
    "/*",
    "*/",
    "//",
    "%",
    "(",
    ")",
    ".",
    "\"",
    "'",
    "_",
    "X",
    "p/2",
];

/// `facts`: the input as the training facts file.
pub fn facts() -> Target {
    Target {
        name: "facts",
        about: "rc_logic Problem::from_texts with the input as train_facts.txt, then one RFGB \
                tree (rulecover::fit_relational), predict_proba and render",
        dictionary: WORDS,
        run: |b| load(BACKGROUND, &text(b), POS, NEG),
    }
}

/// `examples`: the input as the positive (or, for half the inputs, the
/// negative) examples file.
pub fn examples() -> Target {
    Target {
        name: "examples",
        about: "rc_logic Problem::from_texts with the input as train_pos.txt or train_neg.txt \
                (by the input's length), then one RFGB tree",
        dictionary: WORDS,
        run: |b| {
            let t = text(b);
            if b.len() & 1 == 0 {
                load(BACKGROUND, FACTS, &t, NEG)
            } else {
                load(BACKGROUND, FACTS, POS, &t)
            }
        },
    }
}

/// `modes`: the input as the mode declarations (the background file).
pub fn modes() -> Target {
    Target {
        name: "modes",
        about: "rc_logic Background::parse_str and Problem::from_texts with the input as the \
                mode file, then one RFGB tree",
        dictionary: WORDS,
        run: run_background,
    }
}

/// `background`: whole background files (settings, comments, rules,
/// imports, facts), through the statement parser and the background.
pub fn background() -> Target {
    Target {
        name: "background",
        about: "rc_logic parser::parse, Background::parse_str and Problem::from_texts with the \
                input as the background file, then one RFGB tree",
        dictionary: WORDS,
        run: |b| {
            let t = text(b);
            let _ = parser::parse(&t, "fuzz_bk.txt").map(|s| s.len());
            run_background(t.as_bytes())
        },
    }
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn run_background(b: &[u8]) -> Verdict {
    let t = text(b);
    let mut vocab = Vocabulary::new();
    if let Ok(bg) = Background::parse_str(&t, "fuzz_bk.txt", &mut vocab) {
        let _ = bg.declared_list(&vocab);
        for m in bg.declared_preds() {
            let _ = bg.head_types(m, &vocab);
        }
    }
    load(&t, FACTS, POS, NEG)
}

/// Loads the problem and, when it loads, learns one shallow tree.
fn load(background: &str, facts: &str, pos: &str, neg: &str) -> Verdict {
    let problem = Problem::from_texts(
        (background, "fuzz_bk.txt"),
        "smokes",
        SplitText {
            facts: (facts, "train_facts.txt"),
            pos: (pos, "train_pos.txt"),
            neg: (neg, "train_neg.txt"),
        },
        None,
    );
    let problem = match problem {
        Ok(p) => p,
        Err(e) => {
            let _ = e.to_string();
            return Verdict::Rejected;
        }
    };
    let _ = problem.load_report();
    let _ = rulecover::boostsrl::modes_text(&problem);
    if problem.train.examples.len() > 2_000 {
        return Verdict::Accepted;
    }
    let params = [("n_trees", "1"), ("max_depth", "2")];
    match rulecover::fit_relational("rfgb", &params, &problem, 0) {
        Ok(fit) => {
            let p = fit.ensemble.predict_proba(&problem.train);
            assert_eq!(
                p.len(),
                problem.train.examples.len(),
                "one probability per example"
            );
            let _ = fit.ensemble.render();
            Verdict::Accepted
        }
        Err(_) => Verdict::Rejected,
    }
}
