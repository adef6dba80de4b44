//! Data sets made on the spot, so that examples and tests run without
//! downloads: the synthetic tables of [`rulecover_core::generate`] by name,
//! and a friends-and-smokers relational problem in BoostSRL's layout.

use rulecover_core::generate;
use rulecover_core::rng::{derive_seed, Rng};
use rulecover_core::Dataset;

use crate::error::{Error, Result};

/// The names [`table`] knows.
pub const TABLES: &[&str] = &["twonorm", "ringnorm", "xor", "blobs", "tic-tac-toe"];

/// The names of relational sets ([`smokers`]).
pub const RELATIONAL: &[&str] = &["smokers"];

/// The synthetic table `name` with `rows` rows (default 1000) drawn with
/// `seed`:
///
/// - `twonorm`, `ringnorm`: Breiman's 20-feature Gaussian problems;
/// - `xor`: two features uniform on `[-1, 1]²`, class 1 when they have
///   the same sign;
/// - `blobs`: four classes `0`–`3`, Gaussian blobs centred on a circle
///   in `(x0, x1)`, and two noise features `x2`, `x3`
///   ([`generate::blobs`]);
/// - `tic-tac-toe`: the 958 endgame boards (nine categorical columns);
///   with `rows`, that many boards drawn without replacement (in their
///   fixed order).
///
/// The target is named `label` when written ([`crate::output::dataset_csv`]).
///
/// # Errors
/// [`Error::UnknownGenerator`] for another name; [`Error::BadRows`] for
/// zero rows, or more tic-tac-toe rows than boards.
pub fn table(name: &str, rows: Option<usize>, seed: u64) -> Result<Dataset> {
    let bad_rows = |n: usize, max: Option<usize>| Error::BadRows {
        name: name.to_string(),
        rows: n,
        max,
    };
    if rows == Some(0) {
        return Err(bad_rows(0, None));
    }
    let n = rows.unwrap_or(1000);
    match name.trim().to_ascii_lowercase().as_str() {
        "twonorm" => Ok(generate::twonorm(n, seed)),
        "ringnorm" => Ok(generate::ringnorm(n, seed)),
        "xor" => Ok(generate::rotated_xor(n, 0, 0.0, seed)),
        "blobs" => Ok(generate::blobs(n, 4, 4, seed)),
        "tic-tac-toe" | "tictactoe" => {
            let all = generate::tictactoe();
            match rows {
                None => Ok(all),
                Some(k) if k > all.n_rows() => Err(bad_rows(k, Some(all.n_rows()))),
                Some(k) => {
                    let mut idx = Rng::new(seed).sample_indices(all.n_rows(), k);
                    idx.sort_unstable();
                    Ok(all.subset(&idx)?)
                }
            }
        }
        _ => Err(Error::UnknownGenerator {
            given: name.to_string(),
            valid: TABLES
                .iter()
                .chain(RELATIONAL)
                .copied()
                .collect::<Vec<_>>()
                .join(", "),
        }),
    }
}

/// The files of one split in BoostSRL's layout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SplitFiles {
    /// `<prefix>_facts.txt`.
    pub facts: String,
    /// `<prefix>_pos.txt`.
    pub pos: String,
    /// `<prefix>_neg.txt`.
    pub neg: String,
}

/// A relational problem as BoostSRL's files: modes, and a training and a
/// test split over disjoint sets of constants.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RelationalSet {
    /// The target predicate's name.
    pub target: String,
    /// The mode declarations (`<prefix>_bk.txt`).
    pub background: String,
    /// The training split.
    pub train: SplitFiles,
    /// The test split.
    pub test: SplitFiles,
}

/// Friends and smokers: `people` people per split (at least 4; 100 by default in the command line), each with
/// a few friends (`friends/2`, symmetric); about a third smoke
/// (`smokes/1`). The target `cancer/1` holds for a smoker with probability
/// 0.95, for a non-smoker with a smoking friend with probability 0.3, and
/// otherwise with probability 0.02. Every person is an example (positive
/// or negative). The training and test people are named `p0, p1, ...`
/// and `q0, q1, ...`.
///
/// # Errors
/// [`Error::BadRows`] for fewer than 4 people.
pub fn smokers(people: usize, seed: u64) -> Result<RelationalSet> {
    if people < 4 {
        return Err(Error::BadRows {
            name: "smokers".into(),
            rows: people,
            max: None,
        });
    }
    let background = "friends(+person,-person).\nfriends(-person,+person).\n\
                      smokes(+person).\ncancer(+person).\n"
        .to_string();
    Ok(RelationalSet {
        target: "cancer".into(),
        background,
        train: smokers_split("p", people, derive_seed(seed, 0)),
        test: smokers_split("q", people, derive_seed(seed, 1)),
    })
}

fn smokers_split(prefix: &str, n: usize, seed: u64) -> SplitFiles {
    let mut rng = Rng::new(seed);
    let name = |i: usize| format!("{prefix}{i}");
    let smokes: Vec<bool> = (0..n).map(|_| rng.next_f64() < 0.35).collect();
    let mut friends = vec![Vec::new(); n];
    for a in 0..n {
        // About two friendships started by each person.
        for _ in 0..2 {
            let b = rng.below(n);
            if b != a && !friends[a].contains(&b) {
                friends[a].push(b);
                friends[b].push(a);
            }
        }
    }
    let mut facts = String::new();
    for (a, fs) in friends.iter_mut().enumerate() {
        fs.sort_unstable();
        for &b in fs.iter() {
            facts.push_str(&format!("friends({},{}).\n", name(a), name(b)));
        }
    }
    for (a, &s) in smokes.iter().enumerate() {
        if s {
            facts.push_str(&format!("smokes({}).\n", name(a)));
        }
    }
    let (mut pos, mut neg) = (String::new(), String::new());
    for a in 0..n {
        let p = if smokes[a] {
            0.95
        } else if friends[a].iter().any(|&b| smokes[b]) {
            0.3
        } else {
            0.02
        };
        let line = format!("cancer({}).\n", name(a));
        if rng.next_f64() < p {
            pos.push_str(&line);
        } else {
            neg.push_str(&line);
        }
    }
    SplitFiles { facts, pos, neg }
}
