//! Cross-validation: k-fold splits (plain, stratified, repeated), folds
//! read from or written to JSON, a stratified train/test split, and a grid
//! search over cross-validation folds.
//!
//! A [`Fold`] holds row indices into a dataset *view* (as accepted by
//! [`Dataset::subset`]), each list sorted ascending.
//!
//! Stratified folds follow scikit-learn's `StratifiedKFold` (version ≥
//! 0.22): the number of rows of each class in each test fold is the same
//! as scikit-learn's, but randomness comes from [`Rng`], so which rows go
//! where differs from scikit-learn's (numpy's generator cannot be
//! reproduced). [`stratified_kfold_ordered`] reproduces scikit-learn's
//! `shuffle=False` folds exactly.
//!
//! ```
//! use rulecover_core::cv::stratified_kfold;
//! let labels = [0, 0, 0, 0, 1, 1, 1, 1, 1, 1];
//! let folds = stratified_kfold(&labels, 2, 42)?;
//! assert_eq!(folds.len(), 2);
//! for f in &folds {
//!     assert_eq!(f.test.len(), 5);
//!     assert_eq!(f.test.iter().filter(|&&i| labels[i] == 1).count(), 3);
//! }
//! # Ok::<(), rulecover_core::Error>(())
//! ```

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::dataset::Dataset;
use crate::error::{Error, Result};
use crate::metrics::Summary;
use crate::rng::{derive_seed, Rng};

/// One train/test split: row indices into a dataset view, sorted
/// ascending.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fold {
    /// Training rows.
    pub train: Vec<usize>,
    /// Test rows.
    pub test: Vec<usize>,
}

impl Fold {
    /// The fold whose test rows are `test` and whose training rows are all
    /// other rows of `0..n`. Errors if an index is out of range or
    /// repeated.
    pub fn from_test(n: usize, mut test: Vec<usize>) -> Result<Fold> {
        test.sort_unstable();
        if let Some(&bad) = test.iter().find(|&&i| i >= n) {
            return Err(Error::Shape(format!(
                "test row {bad} out of range for {n} rows"
            )));
        }
        if let Some(w) = test.windows(2).find(|w| w[0] == w[1]) {
            return Err(Error::Shape(format!("test row {} listed twice", w[0])));
        }
        Ok(Fold {
            train: complement(n, &test),
            test,
        })
    }
}

/// `0..n` minus the sorted list `sorted`.
fn complement(n: usize, sorted: &[usize]) -> Vec<usize> {
    let mut out = Vec::with_capacity(n.saturating_sub(sorted.len()));
    let mut it = sorted.iter().peekable();
    for i in 0..n {
        if it.peek() == Some(&&i) {
            it.next();
        } else {
            out.push(i);
        }
    }
    out
}

/// Folds from a test-fold assignment `fold_of[i] ∈ 0..k`.
fn folds_from_assignment(fold_of: &[usize], k: usize) -> Vec<Fold> {
    let n = fold_of.len();
    (0..k)
        .map(|f| {
            let test: Vec<usize> = (0..n).filter(|&i| fold_of[i] == f).collect();
            Fold {
                train: complement(n, &test),
                test,
            }
        })
        .collect()
}

fn check_k(k: usize, n: usize) -> Result<()> {
    if k < 2 {
        return Err(Error::InvalidParameter {
            name: "k",
            value: k.to_string(),
            reason: "cross-validation needs at least 2 folds".into(),
        });
    }
    if k > n {
        return Err(Error::InvalidParameter {
            name: "k",
            value: k.to_string(),
            reason: format!("cannot make {k} folds of {n} rows"),
        });
    }
    Ok(())
}

/// The folds of `data` for `seed`, as the papers' nested searches draw
/// them: scikit-learn's `StratifiedKFold(k, shuffle=True,
/// random_state=seed)` for classes when `seed` is below 2^32
/// ([`sklearn_stratified_kfold`]), [`stratified_kfold`] above, and
/// shuffled [`kfold`] for a real target.
pub fn folds_for(data: &Dataset, k: usize, seed: u64) -> Result<Vec<Fold>> {
    if data.is_classification() {
        let labels = data.labels()?;
        match u32::try_from(seed) {
            Ok(rs) => sklearn_stratified_kfold(&labels, k, rs),
            Err(_) => stratified_kfold(&labels, k, seed),
        }
    } else {
        kfold(data.n_rows(), k, true, seed)
    }
}

/// Plain k-fold cross-validation of `n` rows, as scikit-learn's `KFold`:
/// the first `n % k` folds have `n / k + 1` test rows, the others `n / k`.
/// Without `shuffle` the folds are consecutive blocks (and `seed` is
/// ignored); with it the rows are permuted first by [`Rng`] seeded with
/// `seed`. Errors if `k < 2` or `k > n`.
pub fn kfold(n: usize, k: usize, shuffle: bool, seed: u64) -> Result<Vec<Fold>> {
    check_k(k, n)?;
    let mut order: Vec<usize> = (0..n).collect();
    if shuffle {
        Rng::new(seed).shuffle(&mut order);
    }
    let mut fold_of = vec![0; n];
    let mut start = 0;
    for f in 0..k {
        let size = n / k + usize::from(f < n % k);
        for &i in &order[start..start + size] {
            fold_of[i] = f;
        }
        start += size;
    }
    Ok(folds_from_assignment(&fold_of, k))
}

/// The number of test rows of each class in each fold, as scikit-learn's
/// `StratifiedKFold._make_test_folds`: classes are encoded in order of
/// first appearance, the encoded labels sorted, and fold `i` receives
/// `y_order[i::k]`. Returns the encoding and `allocation[fold][class]`.
fn stratified_allocation(labels: &[usize], k: usize) -> Result<(Vec<usize>, Vec<Vec<usize>>)> {
    check_k(k, labels.len())?;
    // Encode by first appearance.
    let mut code_of = std::collections::HashMap::new();
    let encoded: Vec<usize> = labels
        .iter()
        .map(|l| {
            let next = code_of.len();
            *code_of.entry(*l).or_insert(next)
        })
        .collect();
    let n_classes = code_of.len();
    let mut counts = vec![0usize; n_classes];
    for &c in &encoded {
        counts[c] += 1;
    }
    if counts.iter().all(|&c| c < k) {
        return Err(Error::InvalidParameter {
            name: "k",
            value: k.to_string(),
            reason: format!(
                "greater than the number of rows of every class (largest class has {})",
                counts.iter().max().copied().unwrap_or(0)
            ),
        });
    }
    let mut y_order = encoded.clone();
    y_order.sort_unstable();
    let mut allocation = vec![vec![0usize; n_classes]; k];
    for (pos, &c) in y_order.iter().enumerate() {
        allocation[pos % k][c] += 1;
    }
    Ok((encoded, allocation))
}

fn stratified_impl(
    labels: &[usize],
    k: usize,
    shuffle: &mut dyn FnMut(&mut [usize]),
) -> Result<Vec<Fold>> {
    let (encoded, allocation) = stratified_allocation(labels, k)?;
    let n_classes = allocation[0].len();
    let mut fold_of = vec![0usize; labels.len()];
    for c in 0..n_classes {
        // Fold numbers in blocks, one per test row of class c.
        let mut folds_for_class: Vec<usize> = allocation
            .iter()
            .enumerate()
            .flat_map(|(f, counts)| std::iter::repeat_n(f, counts[c]))
            .collect();
        shuffle(&mut folds_for_class);
        let members = encoded.iter().enumerate().filter(|(_, &e)| e == c);
        for ((i, _), f) in members.zip(folds_for_class) {
            fold_of[i] = f;
        }
    }
    Ok(folds_from_assignment(&fold_of, k))
}

/// Stratified k-fold cross-validation with shuffling, after
/// scikit-learn's `StratifiedKFold(shuffle=True)`.
///
/// Each fold receives the same number of test rows of each class as
/// scikit-learn allocates (class counts of different folds differ by at
/// most one, and fold sizes by at most one); within each class the
/// assignment of rows to folds is a random permutation drawn with [`Rng`]
/// seeded with `seed`, so the folds differ from scikit-learn's for the
/// same seed. Classes with fewer than `k` rows are allowed (some folds get
/// none of them; scikit-learn warns).
///
/// Errors if `k < 2`, `k > labels.len()`, or every class has fewer than
/// `k` rows (as scikit-learn).
pub fn stratified_kfold(labels: &[usize], k: usize, seed: u64) -> Result<Vec<Fold>> {
    let mut rng = Rng::new(seed);
    stratified_impl(labels, k, &mut |v| rng.shuffle(v))
}

/// Exactly scikit-learn's `StratifiedKFold(n_splits=k, shuffle=True,
/// random_state=random_state)` folds: the same allocation, shuffled with
/// numpy's legacy `RandomState` (MT19937), so results can be compared
/// fold by fold with the papers' Python code (seed 000 used
/// `random_state=25`). Checked against scikit-learn 1.9 in tests.
pub fn sklearn_stratified_kfold(
    labels: &[usize],
    k: usize,
    random_state: u32,
) -> Result<Vec<Fold>> {
    let mut rng = crate::mt19937::Mt19937::new(random_state);
    stratified_impl(labels, k, &mut |v| rng.shuffle(v))
}

/// Stratified k-fold without shuffling: exactly scikit-learn's
/// `StratifiedKFold(n_splits=k, shuffle=False)` folds (each class's rows,
/// in order, fill fold 0 first, then fold 1, ...).
pub fn stratified_kfold_ordered(labels: &[usize], k: usize) -> Result<Vec<Fold>> {
    stratified_impl(labels, k, &mut |_| {})
}

/// `repeats` rounds of [`stratified_kfold`], repeat `r` seeded with
/// `derive_seed(seed, r)`, returned flat (fold `i` of repeat `r` at index
/// `r * k + i`), as scikit-learn's `RepeatedStratifiedKFold`.
pub fn repeated_stratified_kfold(
    labels: &[usize],
    k: usize,
    repeats: usize,
    seed: u64,
) -> Result<Vec<Fold>> {
    if repeats == 0 {
        return Err(Error::InvalidParameter {
            name: "repeats",
            value: "0".into(),
            reason: "at least one repetition is needed".into(),
        });
    }
    let mut all = Vec::with_capacity(k * repeats);
    for r in 0..repeats {
        all.extend(stratified_kfold(labels, k, derive_seed(seed, r as u64))?);
    }
    Ok(all)
}

/// A stratified random train/test split: `ceil(test_fraction · n)` test
/// rows (as scikit-learn's `train_test_split`), allocated to classes in
/// proportion to their sizes (largest remainders get the leftover rows,
/// ties to the lower label), the rows of each class chosen at random.
/// Errors unless `0 < test_fraction < 1` and both parts are non-empty.
pub fn train_test_split_stratified(
    labels: &[usize],
    test_fraction: f64,
    seed: u64,
) -> Result<Fold> {
    let n = labels.len();
    if !(test_fraction > 0.0 && test_fraction < 1.0) {
        return Err(Error::InvalidParameter {
            name: "test_fraction",
            value: test_fraction.to_string(),
            reason: "must lie strictly between 0 and 1".into(),
        });
    }
    let n_test = (test_fraction * n as f64).ceil() as usize;
    if n_test == 0 || n_test >= n {
        return Err(Error::InvalidParameter {
            name: "test_fraction",
            value: test_fraction.to_string(),
            reason: format!("leaves an empty train or test part of {n} rows"),
        });
    }
    let mut by_class = std::collections::BTreeMap::<usize, Vec<usize>>::new();
    for (i, &l) in labels.iter().enumerate() {
        by_class.entry(l).or_default().push(i);
    }
    let mut members: Vec<Vec<usize>> = by_class.into_values().collect();
    let n_classes = members.len();
    // Largest-remainder allocation, exact in integers.
    let mut alloc: Vec<usize> = members.iter().map(|m| n_test * m.len() / n).collect();
    let mut left = n_test - alloc.iter().sum::<usize>();
    let mut by_remainder: Vec<usize> = (0..n_classes).collect();
    by_remainder.sort_by_key(|&c| std::cmp::Reverse(n_test * members[c].len() % n));
    for &c in &by_remainder {
        if left == 0 {
            break;
        }
        if alloc[c] < members[c].len() {
            alloc[c] += 1;
            left -= 1;
        }
    }
    let mut rng = Rng::new(seed);
    let mut test = Vec::with_capacity(n_test);
    for (m, &a) in members.iter_mut().zip(&alloc) {
        rng.shuffle(m);
        test.extend_from_slice(&m[..a]);
    }
    Fold::from_test(n, test)
}

/// Reads folds from a JSON file holding a list of lists of 0-based test
/// row indices (rows in file order), e.g. `[[0, 3, 5], [1, 2, 4]]`; each
/// fold's training rows are the other rows of `0..n`. Errors, naming the
/// file, if it cannot be read or parsed, a fold is empty, an index is out
/// of range or repeated, or two folds share a row. The folds need not
/// cover every row.
pub fn folds_from_json(path: impl AsRef<Path>, n: usize) -> Result<Vec<Fold>> {
    let path = path.as_ref();
    let text = std::fs::read_to_string(path).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })?;
    folds_from_json_str(&text, n, &path.display().to_string())
}

/// [`folds_from_json`] on JSON text; `name` identifies its source in
/// error messages.
pub fn folds_from_json_str(text: &str, n: usize, name: &str) -> Result<Vec<Fold>> {
    let tests: Vec<Vec<usize>> = serde_json::from_str(text).map_err(|e| Error::Json {
        file: name.to_string(),
        message: format!("{e} (expected a list of lists of 0-based row indices)"),
    })?;
    if tests.is_empty() {
        return Err(Error::Shape(format!("{name}: no folds")));
    }
    let mut owner: Vec<Option<usize>> = vec![None; n];
    let mut folds = Vec::with_capacity(tests.len());
    for (f, test) in tests.into_iter().enumerate() {
        if test.is_empty() {
            return Err(Error::Shape(format!("{name}: fold {f} has no test rows")));
        }
        for &i in &test {
            match owner.get(i) {
                None => {
                    return Err(Error::Shape(format!(
                        "{name}: fold {f} holds row {i} but the dataset has {n} rows (indices are 0-based)"
                    )))
                }
                Some(Some(g)) if *g == f => {
                    return Err(Error::Shape(format!(
                        "{name}: fold {f} lists row {i} twice"
                    )))
                }
                Some(Some(g)) => {
                    return Err(Error::Shape(format!(
                        "{name}: row {i} is in the test part of folds {g} and {f}"
                    )))
                }
                Some(None) => owner[i] = Some(f),
            }
        }
        folds.push(Fold::from_test(n, test)?);
    }
    Ok(folds)
}

/// The JSON text [`folds_from_json`] reads: one line per fold holding its
/// test rows.
pub fn folds_to_json_string(folds: &[Fold]) -> String {
    let lines: Vec<String> = folds
        .iter()
        .map(|f| {
            let items: Vec<String> = f.test.iter().map(usize::to_string).collect();
            format!("  [{}]", items.join(", "))
        })
        .collect();
    if lines.is_empty() {
        "[]\n".to_string()
    } else {
        format!("[\n{}\n]\n", lines.join(",\n"))
    }
}

/// Writes the test rows of `folds` as JSON that [`folds_from_json`] reads.
pub fn folds_to_json(path: impl AsRef<Path>, folds: &[Fold]) -> Result<()> {
    let path = path.as_ref();
    std::fs::write(path, folds_to_json_string(folds)).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// Grid search by cross-validation: scores every parameter setting of
/// `grid` on every fold (`score(params, train_view, test_view)`, higher is
/// better) and returns the index of the setting with the best mean score
/// with the [`Summary`] of each setting's fold scores.
///
/// Ties go to the first setting with the best mean (scikit-learn's
/// `GridSearchCV`); a `NaN` mean never wins. Folds index rows of `data`
/// (usually the outer training view, for nested cross-validation). The
/// first error of `score` is returned; so are errors of this function
/// (empty grid or folds, bad fold indices, no finite mean), converted with
/// `From<rulecover_core::Error>`.
pub fn grid_search<P, F, E>(
    data: &Dataset,
    grid: &[P],
    folds: &[Fold],
    mut score: F,
) -> std::result::Result<(usize, Vec<Summary>), E>
where
    F: FnMut(&P, &Dataset, &Dataset) -> std::result::Result<f64, E>,
    E: From<Error>,
{
    if grid.is_empty() {
        return Err(Error::InvalidParameter {
            name: "grid",
            value: "[]".into(),
            reason: "at least one parameter setting is needed".into(),
        }
        .into());
    }
    if folds.is_empty() {
        return Err(Error::InvalidParameter {
            name: "folds",
            value: "[]".into(),
            reason: "at least one fold is needed".into(),
        }
        .into());
    }
    let views = folds
        .iter()
        .map(|f| Ok((data.subset(&f.train)?, data.subset(&f.test)?)))
        .collect::<Result<Vec<_>>>()?;
    let mut summaries = Vec::with_capacity(grid.len());
    for params in grid {
        let mut scores = Vec::with_capacity(views.len());
        for (train, test) in &views {
            scores.push(score(params, train, test)?);
        }
        summaries.push(Summary::new(&scores));
    }
    let mut best: Option<usize> = None;
    for (i, s) in summaries.iter().enumerate() {
        if !s.mean.is_nan() && best.is_none_or(|b| s.mean > summaries[b].mean) {
            best = Some(i);
        }
    }
    match best {
        Some(b) => Ok((b, summaries)),
        None => Err(Error::InvalidParameter {
            name: "score",
            value: "NaN".into(),
            reason: "every parameter setting has a NaN mean score".into(),
        }
        .into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::{Feature, Target};

    fn check_partition(folds: &[Fold], n: usize) {
        let mut seen = vec![0usize; n];
        for f in folds {
            assert!(f.test.windows(2).all(|w| w[0] < w[1]));
            assert!(f.train.windows(2).all(|w| w[0] < w[1]));
            assert_eq!(f.train.len() + f.test.len(), n);
            for &i in &f.test {
                seen[i] += 1;
                assert!(f.train.binary_search(&i).is_err());
            }
        }
        assert!(seen.iter().all(|&c| c == 1));
    }

    #[test]
    fn kfold_sizes_and_blocks() {
        let folds = kfold(10, 3, false, 0).unwrap();
        check_partition(&folds, 10);
        assert_eq!(folds[0].test, vec![0, 1, 2, 3]);
        assert_eq!(folds[1].test, vec![4, 5, 6]);
        assert_eq!(folds[2].test, vec![7, 8, 9]);
        let shuffled = kfold(10, 3, true, 5).unwrap();
        check_partition(&shuffled, 10);
        assert_eq!(
            shuffled.iter().map(|f| f.test.len()).collect::<Vec<_>>(),
            vec![4, 3, 3]
        );
        assert_ne!(shuffled, folds);
        assert_eq!(shuffled, kfold(10, 3, true, 5).unwrap());
        assert!(kfold(10, 1, false, 0).is_err());
        assert!(kfold(3, 4, false, 0).is_err());
    }

    #[test]
    fn stratified_ordered_matches_sklearn() {
        // sklearn StratifiedKFold(3).split(X, y) with
        // y = [1,1,1,1,1,0,0,0,0,0,0,1]: classes by first appearance 1 → 0,
        // 0 → 1; y_order = [0]*6 + [1]*6; allocation rows
        // y_order[0::3] = (2, 2), [1::3] = (2, 2), [2::3] = (2, 2).
        // Test folds: [0,1,5,6], [2,3,7,8], [4,9,10,11].
        let y = [1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 1];
        let folds = stratified_kfold_ordered(&y, 3).unwrap();
        assert_eq!(folds[0].test, vec![0, 1, 5, 6]);
        assert_eq!(folds[1].test, vec![2, 3, 7, 8]);
        assert_eq!(folds[2].test, vec![4, 9, 10, 11]);
        // Uneven: y = [0]*7 + [1]*3, k = 3: y_order[0::3] = 0,0,0,1 →
        // (3, 1); [1::3] = 0,0,1 → (2, 1); [2::3] = 0,0,1 → (2, 1).
        let y: Vec<usize> = [vec![0; 7], vec![1; 3]].concat();
        let folds = stratified_kfold_ordered(&y, 3).unwrap();
        assert_eq!(folds[0].test, vec![0, 1, 2, 7]);
        assert_eq!(folds[1].test, vec![3, 4, 8]);
        assert_eq!(folds[2].test, vec![5, 6, 9]);
    }

    #[test]
    fn stratified_shuffled_keeps_allocation() {
        let y: Vec<usize> = (0..103).map(|i| [0, 0, 0, 1, 1, 2][i % 6]).collect();
        let ordered = stratified_kfold_ordered(&y, 5).unwrap();
        let folds = stratified_kfold(&y, 5, 11).unwrap();
        check_partition(&folds, y.len());
        let counts = |f: &Fold| {
            let mut c = [0usize; 3];
            for &i in &f.test {
                c[y[i]] += 1;
            }
            c
        };
        for (a, b) in ordered.iter().zip(&folds) {
            assert_eq!(counts(a), counts(b));
        }
        assert_ne!(ordered, folds);
        assert_eq!(folds, stratified_kfold(&y, 5, 11).unwrap());
        assert_ne!(folds, stratified_kfold(&y, 5, 12).unwrap());
    }

    #[test]
    fn stratified_small_classes_and_errors() {
        // Class 1 has 2 rows < k = 3: allowed.
        let y = [0, 0, 0, 0, 0, 0, 1, 1];
        let folds = stratified_kfold(&y, 3, 1).unwrap();
        check_partition(&folds, 8);
        // Every class smaller than k: error (as sklearn).
        assert!(stratified_kfold(&[0, 0, 1, 1, 2, 2], 3, 0).is_err());
        assert!(stratified_kfold(&[0, 1, 0], 1, 0).is_err());
        assert!(stratified_kfold(&[0, 1, 0], 4, 0).is_err());
    }

    #[test]
    fn repeated_folds_differ_per_repeat() {
        let y: Vec<usize> = (0..40).map(|i| i % 2).collect();
        let folds = repeated_stratified_kfold(&y, 4, 3, 9).unwrap();
        assert_eq!(folds.len(), 12);
        for r in 0..3 {
            check_partition(&folds[r * 4..(r + 1) * 4], 40);
            assert_eq!(
                &folds[r * 4..(r + 1) * 4],
                &stratified_kfold(&y, 4, derive_seed(9, r as u64)).unwrap()[..]
            );
        }
        assert_ne!(folds[0..4], folds[4..8]);
        assert!(repeated_stratified_kfold(&y, 4, 0, 9).is_err());
    }

    #[test]
    fn train_test_split_stratifies() {
        let y: Vec<usize> = [vec![0; 70], vec![1; 25], vec![2; 5]].concat();
        let split = train_test_split_stratified(&y, 0.2, 3).unwrap();
        assert_eq!(split.test.len(), 20);
        assert_eq!(split.train.len(), 80);
        let mut c = [0usize; 3];
        for &i in &split.test {
            c[y[i]] += 1;
        }
        assert_eq!(c, [14, 5, 1]);
        // 0.25 of 10 rows → 3 test rows; shares 2.1, 0.9 → 2 + 1.
        let y = [0, 0, 0, 0, 0, 0, 0, 1, 1, 1];
        let split = train_test_split_stratified(&y, 0.25, 0).unwrap();
        assert_eq!(split.test.len(), 3);
        assert_eq!(split.test.iter().filter(|&&i| y[i] == 1).count(), 1);
        let sparse = [usize::MAX, 3, 3, 3, usize::MAX, 3];
        let split = train_test_split_stratified(&sparse, 0.5, 0).unwrap();
        assert_eq!(split.test.iter().filter(|&&i| sparse[i] == 3).count(), 2);
        assert!(train_test_split_stratified(&y, 0.0, 0).is_err());
        assert!(train_test_split_stratified(&y, 1.0, 0).is_err());
        assert!(train_test_split_stratified(&y, f64::NAN, 0).is_err());
        assert!(train_test_split_stratified(&y, 0.99, 0).is_err());
    }

    #[test]
    fn json_round_trip_and_validation() {
        let folds = kfold(7, 3, true, 1).unwrap();
        let text = folds_to_json_string(&folds);
        assert_eq!(folds_from_json_str(&text, 7, "mem").unwrap(), folds);

        let dir = std::env::temp_dir().join(format!("rulecover_core_cv_{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("folds.json");
        folds_to_json(&path, &folds).unwrap();
        assert_eq!(folds_from_json(&path, 7).unwrap(), folds);
        std::fs::remove_dir_all(&dir).unwrap();

        let partial = folds_from_json_str("[[0, 2], [1]]", 4, "f.json").unwrap();
        assert_eq!(partial[0].train, vec![1, 3]);
        assert_eq!(partial[1].train, vec![0, 2, 3]);

        let err = |t: &str| folds_from_json_str(t, 4, "f.json").unwrap_err().to_string();
        assert!(err("[[0, 4]]").contains("f.json"));
        assert!(err("[[0, 4]]").contains("row 4"));
        assert!(err("[[0, 1], [1, 2]]").contains("folds 0 and 1"));
        assert!(err("[[0, 0]]").contains("twice"));
        assert!(err("[[0], []]").contains("no test rows"));
        assert!(err("[]").contains("no folds"));
        assert!(err("[[0, -1]]").contains("f.json"));
        assert!(err("{\"a\": 1}").contains("f.json"));
        let missing = folds_from_json("/nonexistent/rulecover/folds.json", 4).unwrap_err();
        assert!(missing.to_string().contains("folds.json"));
    }

    fn toy(n: usize) -> Dataset {
        Dataset::new(
            "toy",
            vec![Feature::numeric("x")],
            vec![(0..n).map(|i| i as f64).collect()],
            Target::Classes {
                labels: (0..n).map(|i| i % 2).collect(),
                names: vec!["a".into(), "b".into()],
            },
        )
        .unwrap()
    }

    #[test]
    fn grid_search_picks_first_best() {
        let data = toy(12);
        let folds = kfold(12, 3, false, 0).unwrap();
        let grid = [1.0, 3.0, 2.0, 3.0];
        // Score: −|param − 3| plus the mean x of the test view (same for
        // every param), so settings 1 and 3 tie for the best.
        let (best, sums) = grid_search(&data, &grid, &folds, |p: &f64, train, test| {
            assert_eq!(train.n_rows() + test.n_rows(), 12);
            let mean_x = test.column(0).iter().sum::<f64>() / test.n_rows() as f64;
            Ok::<f64, Error>(-(p - 3.0).abs() + mean_x)
        })
        .unwrap();
        assert_eq!(best, 1);
        assert_eq!(sums.len(), 4);
        assert_eq!(sums[1].n, 3);
        assert!((sums[1].mean - 5.5).abs() < 1e-12);
        assert!((sums[0].mean - 3.5).abs() < 1e-12);
    }

    #[test]
    fn grid_search_errors() {
        #[derive(Debug)]
        enum MyError {
            Core(Error),
            Fit,
        }
        impl From<Error> for MyError {
            fn from(e: Error) -> Self {
                MyError::Core(e)
            }
        }
        let data = toy(6);
        let folds = kfold(6, 2, false, 0).unwrap();
        let r = grid_search(&data, &[1, 2], &folds, |p: &i32, _, _| {
            if *p == 2 {
                Err(MyError::Fit)
            } else {
                Ok(1.0)
            }
        });
        assert!(matches!(r, Err(MyError::Fit)));
        let r = grid_search(&data, &[] as &[i32], &folds, |_, _, _| {
            Ok::<_, MyError>(1.0)
        });
        assert!(matches!(
            r,
            Err(MyError::Core(Error::InvalidParameter { name: "grid", .. }))
        ));
        let bad = vec![Fold {
            train: vec![0],
            test: vec![9],
        }];
        let r = grid_search(&data, &[1], &bad, |_, _, _| Ok::<_, MyError>(1.0));
        assert!(matches!(r, Err(MyError::Core(Error::Shape(_)))));
        let r = grid_search(&data, &[1, 2], &folds, |_, _, _| Ok::<_, Error>(f64::NAN));
        assert!(r.is_err());
        // NaN means lose to finite ones.
        let (best, _) = grid_search(&data, &[1, 2], &folds, |p: &i32, _, _| {
            Ok::<_, Error>(if *p == 1 { f64::NAN } else { 0.0 })
        })
        .unwrap();
        assert_eq!(best, 1);
    }

    #[test]
    fn sklearn_folds_match_scikit_learn() {
        // StratifiedKFold(3, shuffle=True, random_state=25) on
        // y = [0]*7 + [1]*5 + [2]*3 with scikit-learn 1.9.1.
        let y: Vec<usize> = [vec![0; 7], vec![1; 5], vec![2; 3]].concat();
        let folds = sklearn_stratified_kfold(&y, 3, 25).unwrap();
        let tests: Vec<Vec<usize>> = folds.into_iter().map(|f| f.test).collect();
        assert_eq!(
            tests,
            vec![
                vec![1, 2, 5, 10, 14],
                vec![0, 6, 8, 9, 13],
                vec![3, 4, 7, 11, 12]
            ]
        );
    }

    #[test]
    fn sklearn_folds_encode_classes_by_first_appearance() {
        // StratifiedKFold(4, shuffle=True, random_state=7), scikit-learn 1.9.1.
        let y = [
            2, 0, 1, 1, 2, 0, 0, 2, 1, 0, 2, 2, 1, 0, 0, 1, 2, 0, 1, 1, 0, 2, 2, 0, 1,
        ];
        let tests: Vec<Vec<usize>> = sklearn_stratified_kfold(&y, 4, 7)
            .unwrap()
            .into_iter()
            .map(|f| f.test)
            .collect();
        assert_eq!(
            tests,
            vec![
                vec![2, 7, 14, 16, 17, 20, 24],
                vec![0, 5, 6, 8, 11, 15],
                vec![1, 3, 4, 13, 19, 21],
                vec![9, 10, 12, 18, 22, 23]
            ]
        );
    }
}
