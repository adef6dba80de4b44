//! The statistics the papers report when comparing methods over datasets:
//! the Wilcoxon signed-rank test ([`wilcoxon`]), the sign test
//! ([`sign_test`]), the Friedman test with the Iman–Davenport correction
//! ([`friedman`]) and Holm's step-down adjustment ([`holm`]), after Demšar
//! (2006), "Statistical comparisons of classifiers over multiple data
//! sets", JMLR 7.
//!
//! The distribution functions they need are implemented here too:
//! [`ln_gamma`], the regularised incomplete gamma ([`gamma_p`],
//! [`gamma_q`]) and beta ([`beta_inc`]) functions (series and continued
//! fractions as in *Numerical Recipes*), and from them the normal, χ² and F
//! distributions. These return `NaN` for arguments outside their domain.
//!
//! Used by the `paper004` suite; it was `rulecover_core::stats` before
//! (no learner needs it). The test `six_datasets_example` shows a use.
// The module keeps the whole toolbox of Demšar's comparisons, tested here,
// though paper004 calls only the Wilcoxon and sign tests: in a binary
// crate the others would be dead-code warnings.
#![allow(dead_code)]

use serde::{Deserialize, Serialize};

use rulecover_core::error::{Error, Result};
use rulecover_core::metrics::midranks;

// ---------------------------------------------------------------------------
// Special functions and distributions
// ---------------------------------------------------------------------------

const EPS: f64 = 1e-15;
const FPMIN: f64 = 1e-300;
const MAX_ITER: usize = 10_000;

/// Natural logarithm of the gamma function for `x > 0` (Lanczos
/// approximation, g = 7, about 15 significant digits); `NaN` otherwise.
pub fn ln_gamma(x: f64) -> f64 {
    const COEF: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x.is_nan() || x <= 0.0 {
        return f64::NAN;
    }
    if x < 0.5 {
        // Reflection: Γ(x) Γ(1 − x) = π / sin(πx).
        let pi = std::f64::consts::PI;
        return (pi / (pi * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut a = COEF[0];
    for (i, c) in COEF.iter().enumerate().skip(1) {
        a += c / (x + i as f64);
    }
    let t = x + 7.5;
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

/// `P(a, x)` by its series (good for `x < a + 1`).
fn gamma_p_series(a: f64, x: f64) -> f64 {
    let mut ap = a;
    let mut del = 1.0 / a;
    let mut sum = del;
    for _ in 0..MAX_ITER {
        ap += 1.0;
        del *= x / ap;
        sum += del;
        if del.abs() < sum.abs() * EPS {
            break;
        }
    }
    sum * (-x + a * x.ln() - ln_gamma(a)).exp()
}

/// `Q(a, x)` by its continued fraction, modified Lentz (good for
/// `x ≥ a + 1`).
fn gamma_q_cf(a: f64, x: f64) -> f64 {
    let mut b = x + 1.0 - a;
    let mut c = 1.0 / FPMIN;
    let mut d = 1.0 / b;
    let mut h = d;
    for i in 1..MAX_ITER {
        let an = -(i as f64) * (i as f64 - a);
        b += 2.0;
        d = an * d + b;
        if d.abs() < FPMIN {
            d = FPMIN;
        }
        c = b + an / c;
        if c.abs() < FPMIN {
            c = FPMIN;
        }
        d = 1.0 / d;
        let del = d * c;
        h *= del;
        if (del - 1.0).abs() < EPS {
            break;
        }
    }
    (-x + a * x.ln() - ln_gamma(a)).exp() * h
}

/// Regularised lower incomplete gamma function `P(a, x) = γ(a, x) / Γ(a)`
/// for `a > 0`, `x ≥ 0`; `NaN` otherwise.
pub fn gamma_p(a: f64, x: f64) -> f64 {
    if a.is_nan() || x.is_nan() || a <= 0.0 || x < 0.0 {
        return f64::NAN;
    }
    if x == 0.0 {
        0.0
    } else if x == f64::INFINITY {
        1.0
    } else if x < a + 1.0 {
        gamma_p_series(a, x)
    } else {
        1.0 - gamma_q_cf(a, x)
    }
}

/// Regularised upper incomplete gamma function `Q(a, x) = 1 − P(a, x)`,
/// computed directly so small tail probabilities keep their precision.
pub fn gamma_q(a: f64, x: f64) -> f64 {
    if a.is_nan() || x.is_nan() || a <= 0.0 || x < 0.0 {
        return f64::NAN;
    }
    if x == 0.0 {
        1.0
    } else if x == f64::INFINITY {
        0.0
    } else if x < a + 1.0 {
        1.0 - gamma_p_series(a, x)
    } else {
        gamma_q_cf(a, x)
    }
}

/// Continued fraction of the incomplete beta function (modified Lentz).
fn beta_cf(a: f64, b: f64, x: f64) -> f64 {
    let qab = a + b;
    let qap = a + 1.0;
    let qam = a - 1.0;
    let mut c = 1.0;
    let mut d = 1.0 - qab * x / qap;
    if d.abs() < FPMIN {
        d = FPMIN;
    }
    d = 1.0 / d;
    let mut h = d;
    for m in 1..MAX_ITER {
        let m = m as f64;
        let m2 = 2.0 * m;
        let aa = m * (b - m) * x / ((qam + m2) * (a + m2));
        d = 1.0 + aa * d;
        if d.abs() < FPMIN {
            d = FPMIN;
        }
        c = 1.0 + aa / c;
        if c.abs() < FPMIN {
            c = FPMIN;
        }
        d = 1.0 / d;
        h *= d * c;
        let aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
        d = 1.0 + aa * d;
        if d.abs() < FPMIN {
            d = FPMIN;
        }
        c = 1.0 + aa / c;
        if c.abs() < FPMIN {
            c = FPMIN;
        }
        d = 1.0 / d;
        let del = d * c;
        h *= del;
        if (del - 1.0).abs() < EPS {
            break;
        }
    }
    h
}

/// Regularised incomplete beta function `I_x(a, b)` for `a, b > 0` and
/// `0 ≤ x ≤ 1`; `NaN` otherwise.
pub fn beta_inc(a: f64, b: f64, x: f64) -> f64 {
    if a.is_nan() || b.is_nan() || x.is_nan() || a <= 0.0 || b <= 0.0 || !(0.0..=1.0).contains(&x) {
        return f64::NAN;
    }
    if x == 0.0 {
        return 0.0;
    }
    if x == 1.0 {
        return 1.0;
    }
    let ln_front = ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b) + a * x.ln() + b * (1.0 - x).ln();
    let front = ln_front.exp();
    if x < (a + 1.0) / (a + b + 2.0) {
        front * beta_cf(a, b, x) / a
    } else {
        1.0 - front * beta_cf(b, a, 1.0 - x) / b
    }
}

/// Standard normal cumulative distribution function `Φ(z)`.
pub fn normal_cdf(z: f64) -> f64 {
    if z.is_nan() {
        return f64::NAN;
    }
    if z < 0.0 {
        normal_sf(-z)
    } else {
        1.0 - normal_sf(z)
    }
}

/// Standard normal survival function `1 − Φ(z)`, accurate in the upper
/// tail (`Φ(−z) = ½ Q(½, z²/2)`).
pub fn normal_sf(z: f64) -> f64 {
    if z.is_nan() {
        return f64::NAN;
    }
    let q = 0.5 * gamma_q(0.5, z * z / 2.0);
    if z >= 0.0 {
        q
    } else {
        1.0 - q
    }
}

/// Cumulative distribution function of χ² with `df` degrees of freedom.
pub fn chi2_cdf(x: f64, df: f64) -> f64 {
    if x <= 0.0 {
        return if df > 0.0 { 0.0 } else { f64::NAN };
    }
    gamma_p(df / 2.0, x / 2.0)
}

/// Survival function (upper tail, the p-value) of χ² with `df` degrees of
/// freedom.
pub fn chi2_sf(x: f64, df: f64) -> f64 {
    if x <= 0.0 {
        return if df > 0.0 { 1.0 } else { f64::NAN };
    }
    gamma_q(df / 2.0, x / 2.0)
}

/// Cumulative distribution function of the F distribution with `d1` and
/// `d2` degrees of freedom.
pub fn f_cdf(x: f64, d1: f64, d2: f64) -> f64 {
    if x <= 0.0 {
        return if d1 > 0.0 && d2 > 0.0 { 0.0 } else { f64::NAN };
    }
    if x == f64::INFINITY {
        return 1.0;
    }
    beta_inc(d1 / 2.0, d2 / 2.0, d1 * x / (d1 * x + d2))
}

/// Survival function (upper tail, the p-value) of the F distribution with
/// `d1` and `d2` degrees of freedom.
pub fn f_sf(x: f64, d1: f64, d2: f64) -> f64 {
    if x <= 0.0 {
        return if d1 > 0.0 && d2 > 0.0 { 1.0 } else { f64::NAN };
    }
    if x == f64::INFINITY {
        return 0.0;
    }
    beta_inc(d2 / 2.0, d1 / 2.0, d2 / (d2 + d1 * x))
}

/// Two-sided exact binomial p-value of `k` successes in `n` fair trials
/// (`p = ½`): `min(1, 2 P(X ≤ min(k, n − k)))`; 1 for `n = 0`.
pub fn binomial_two_sided(k: usize, n: usize) -> f64 {
    if n == 0 {
        return 1.0;
    }
    let m = k.min(n - k);
    let ln2n = n as f64 * std::f64::consts::LN_2;
    let lf = |i: usize| ln_gamma(i as f64 + 1.0);
    let tail: f64 = (0..=m)
        .map(|i| (lf(n) - lf(i) - lf(n - i) - ln2n).exp())
        .sum();
    (2.0 * tail).min(1.0)
}

// ---------------------------------------------------------------------------
// Input checks
// ---------------------------------------------------------------------------

fn paired_differences(x: &[f64], y: &[f64]) -> Result<Vec<f64>> {
    if x.len() != y.len() {
        return Err(Error::Shape(format!(
            "paired test: {} values against {}",
            x.len(),
            y.len()
        )));
    }
    Ok(x.iter().zip(y).map(|(a, b)| a - b).collect())
}

fn check_finite(name: &'static str, values: &[f64]) -> Result<()> {
    if let Some((i, v)) = values.iter().enumerate().find(|(_, v)| !v.is_finite()) {
        return Err(Error::InvalidParameter {
            name,
            value: v.to_string(),
            reason: format!("entry {} is not a finite number", i + 1),
        });
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Wilcoxon signed-rank test
// ---------------------------------------------------------------------------

/// What the Wilcoxon test does with zero differences.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum ZeroMethod {
    /// Zeros are ranked with the others and each gives half its rank to R⁺
    /// and half to R⁻ (Demšar 2006; scipy's `zsplit`). This reproduces the
    /// T values of the NRE paper.
    #[default]
    Split,
    /// Zeros are dropped before ranking (Wilcoxon's original; scipy's
    /// `wilcox`).
    Wilcox,
    /// Zeros are ranked with the others, then dropped from both sums
    /// (Pratt 1959; scipy's `pratt`).
    Pratt,
}

/// How a p-value is computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum PValueMethod {
    /// Exact when at most [`WILCOXON_EXACT_MAX_N`] differences are
    /// non-zero, the normal approximation otherwise.
    #[default]
    Auto,
    /// The exact null distribution (at most [`WILCOXON_EXACT_LIMIT`]
    /// non-zero differences).
    Exact,
    /// The normal approximation with tie correction.
    Normal,
}

/// Largest number of non-zero differences for which [`PValueMethod::Auto`]
/// computes the exact p-value.
pub const WILCOXON_EXACT_MAX_N: usize = 25;

/// Largest number of non-zero differences [`PValueMethod::Exact`] accepts
/// (the enumeration costs about `n³` operations).
pub const WILCOXON_EXACT_LIMIT: usize = 1000;

/// Options of [`wilcoxon`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct WilcoxonOptions {
    /// Treatment of zero differences.
    pub zero_method: ZeroMethod,
    /// Exact or approximate p-value.
    pub p_value: PValueMethod,
}

/// Result of a Wilcoxon signed-rank test.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Wilcoxon {
    /// `T = min(R⁺, R⁻)`.
    pub t: f64,
    /// Sum of the ranks of positive differences (plus half the ranks of
    /// zeros under [`ZeroMethod::Split`]).
    pub r_plus: f64,
    /// Sum of the ranks of negative differences (plus half the ranks of
    /// zeros under [`ZeroMethod::Split`]).
    pub r_minus: f64,
    /// Number of differences ranked (all pairs, or the non-zero ones under
    /// [`ZeroMethod::Wilcox`]).
    pub n: usize,
    /// Number of zero differences.
    pub n_zero: usize,
    /// Normal-approximation z score of R⁺ (0 when nothing varies).
    pub z: f64,
    /// Two-sided p-value.
    pub p_value: f64,
    /// Whether `p_value` is exact.
    pub exact: bool,
}

/// Wilcoxon signed-rank test of paired samples, on the differences
/// `d_i = x_i − y_i` (so R⁺ counts the pairs where `x` is larger: with
/// errors, `x` = the other method and `y` = yours gives R⁺ = your wins).
/// See [`wilcoxon_differences`].
pub fn wilcoxon(x: &[f64], y: &[f64], options: WilcoxonOptions) -> Result<Wilcoxon> {
    check_finite("x", x)?;
    check_finite("y", y)?;
    wilcoxon_differences(&paired_differences(x, y)?, options)
}

/// Wilcoxon signed-rank test of differences `d` (two-sided).
///
/// `|d|` is ranked with midranks for ties. R⁺ and R⁻ sum the ranks of the
/// positive and negative differences; zeros are handled as `options`
/// says. `T = min(R⁺, R⁻)`.
///
/// p-values are computed conditionally on the observed ranks (the
/// permutation distribution: each non-zero difference is positive or
/// negative with probability ½; zeros are fixed):
///
/// * exact: the distribution of R⁺ enumerated by dynamic programming over
///   doubled ranks (midranks are multiples of ½), `p = min(1, 2 min(P(R⁺
///   ≤ r), P(R⁺ ≥ r)))`;
/// * normal: mean `E[R⁺]` and variance `Σ r_i² / 4` over the non-zero
///   differences, which is the usual `n(n+1)(2n+1)/24` less the tie
///   correction `Σ(t³ − t)/48`; no continuity correction. This equals
///   scipy's variance for `wilcox` and `pratt`; for `zsplit` scipy also
///   counts the zeros' ranks in the variance, so its p-value is a little
///   larger.
///
/// Differences are compared exactly: round them first (e.g. to the
/// precision the values were reported with) if ties should be recognised.
pub fn wilcoxon_differences(d: &[f64], options: WilcoxonOptions) -> Result<Wilcoxon> {
    check_finite("differences", d)?;
    if d.is_empty() {
        return Err(Error::Shape("wilcoxon: no pairs".into()));
    }
    let n_zero = d.iter().filter(|&&v| v == 0.0).count();
    let kept: Vec<f64> = match options.zero_method {
        ZeroMethod::Wilcox => d.iter().copied().filter(|&v| v != 0.0).collect(),
        ZeroMethod::Split | ZeroMethod::Pratt => d.to_vec(),
    };
    let abs: Vec<f64> = kept.iter().map(|v| v.abs()).collect();
    let ranks = midranks(&abs);
    let (mut r_plus, mut r_minus, mut zero_sum) = (0.0, 0.0, 0.0);
    let mut nonzero_ranks = Vec::with_capacity(kept.len());
    for (&v, &r) in kept.iter().zip(&ranks) {
        if v > 0.0 {
            r_plus += r;
            nonzero_ranks.push(r);
        } else if v < 0.0 {
            r_minus += r;
            nonzero_ranks.push(r);
        } else {
            zero_sum += r;
        }
    }
    let offset = if options.zero_method == ZeroMethod::Split {
        zero_sum / 2.0
    } else {
        0.0
    };
    r_plus += offset;
    r_minus += offset;

    let m = nonzero_ranks.len();
    let mean = offset + nonzero_ranks.iter().sum::<f64>() / 2.0;
    let var = nonzero_ranks.iter().map(|r| r * r).sum::<f64>() / 4.0;
    let z = if var > 0.0 {
        (r_plus - mean) / var.sqrt()
    } else {
        0.0
    };
    let exact = match options.p_value {
        PValueMethod::Auto => m <= WILCOXON_EXACT_MAX_N,
        PValueMethod::Exact => {
            if m > WILCOXON_EXACT_LIMIT {
                return Err(Error::InvalidParameter {
                    name: "p_value",
                    value: "Exact".into(),
                    reason: format!(
                        "{m} non-zero differences; the exact distribution is limited to {WILCOXON_EXACT_LIMIT}"
                    ),
                });
            }
            true
        }
        PValueMethod::Normal => false,
    };
    let p_value = if m == 0 {
        1.0
    } else if exact {
        signed_rank_exact_p(&nonzero_ranks, r_plus - offset)
    } else {
        (2.0 * normal_sf(z.abs())).min(1.0)
    };
    Ok(Wilcoxon {
        t: r_plus.min(r_minus),
        r_plus,
        r_minus,
        n: kept.len(),
        n_zero,
        z,
        p_value,
        exact,
    })
}

/// Two-sided exact p-value of the sum `observed` of the ranks carrying a
/// `+` sign, when each rank's sign is `+` with probability ½.
fn signed_rank_exact_p(ranks: &[f64], observed: f64) -> f64 {
    let doubled: Vec<usize> = ranks.iter().map(|r| (2.0 * r).round() as usize).collect();
    let total: usize = doubled.iter().sum();
    // dist[s] = P(doubled positive rank sum = s).
    let mut dist = vec![0.0f64; total + 1];
    dist[0] = 1.0;
    let mut reach = 0;
    for &r in &doubled {
        for s in (0..=reach).rev() {
            let p = dist[s];
            if p != 0.0 {
                dist[s + r] += p * 0.5;
                dist[s] = p * 0.5;
            }
        }
        reach += r;
    }
    let obs = ((2.0 * observed).round().max(0.0) as usize).min(total);
    let lower: f64 = dist[..=obs].iter().sum();
    let upper: f64 = dist[obs..].iter().sum();
    (2.0 * lower.min(upper)).min(1.0)
}

// ---------------------------------------------------------------------------
// Sign test
// ---------------------------------------------------------------------------

/// What the sign test does with ties (zero differences).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum SignTies {
    /// Ties are split evenly between the two sides; with an odd number of
    /// ties one is ignored (Demšar 2006, as the NRE paper does).
    #[default]
    Split,
    /// Ties are dropped.
    Drop,
}

/// Result of a sign test.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SignTest {
    /// Pairs with a positive difference.
    pub n_positive: usize,
    /// Pairs with a negative difference.
    pub n_negative: usize,
    /// Pairs with a zero difference.
    pub n_zero: usize,
    /// Number of trials of the binomial test (after handling ties).
    pub n: usize,
    /// Positive count of the test: `n_positive` plus the ties credited to
    /// it (`⌊n_zero / 2⌋` under [`SignTies::Split`]).
    pub wins: usize,
    /// Two-sided exact binomial p-value ([`binomial_two_sided`]).
    pub p_value: f64,
}

/// Sign test of paired samples on `d_i = x_i − y_i`: counts positive
/// differences ("wins" of `x`) and tests them against Binomial(n, ½).
pub fn sign_test(x: &[f64], y: &[f64], ties: SignTies) -> Result<SignTest> {
    check_finite("x", x)?;
    check_finite("y", y)?;
    let d = paired_differences(x, y)?;
    let n_positive = d.iter().filter(|&&v| v > 0.0).count();
    let n_negative = d.iter().filter(|&&v| v < 0.0).count();
    let n_zero = d.len() - n_positive - n_negative;
    let half = match ties {
        SignTies::Split => n_zero / 2,
        SignTies::Drop => 0,
    };
    let wins = n_positive + half;
    let n = n_positive + n_negative + 2 * half;
    Ok(SignTest {
        n_positive,
        n_negative,
        n_zero,
        n,
        wins,
        p_value: binomial_two_sided(wins, n),
    })
}

// ---------------------------------------------------------------------------
// Friedman test
// ---------------------------------------------------------------------------

/// Result of a Friedman test.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Friedman {
    /// Average rank of each method (1 = best), midranks for ties.
    pub avg_ranks: Vec<f64>,
    /// Number of datasets `N`.
    pub n_datasets: usize,
    /// Number of methods `k`.
    pub n_methods: usize,
    /// Friedman's statistic `χ²_F = 12N/(k(k+1)) [Σ R_j² − k(k+1)²/4]`
    /// (Demšar's formula, no tie correction).
    pub chi2: f64,
    /// p-value of `chi2` under χ² with `k − 1` degrees of freedom.
    pub chi2_p: f64,
    /// `chi2` divided by the tie correction `1 − Σ(t³ − t)/(N(k³ − k))`,
    /// as `scipy.stats.friedmanchisquare` reports; equal to `chi2` without
    /// ties. (`NaN` if every dataset ties all methods.)
    pub chi2_tie_corrected: f64,
    /// Iman–Davenport statistic `F_F = (N − 1) χ²_F / (N(k − 1) − χ²_F)`
    /// (infinite when every dataset ranks the methods identically).
    pub f_f: f64,
    /// p-value of `f_f` under F with `k − 1` and `(k − 1)(N − 1)` degrees
    /// of freedom.
    pub f_p: f64,
    /// Degrees of freedom of `f_f`: `(k − 1, (k − 1)(N − 1))`.
    pub f_df: (f64, f64),
}

/// Friedman test of `k` methods over `N` datasets; `scores[i][j]` is the
/// score of method `j` on dataset `i`. With `higher_is_better` (accuracy,
/// AUC) the highest score gets rank 1; otherwise (error, loss) the lowest
/// does.
pub fn friedman(scores: &[Vec<f64>], higher_is_better: bool) -> Result<Friedman> {
    let n = scores.len();
    if n < 2 {
        return Err(Error::InvalidParameter {
            name: "scores",
            value: format!("{n} datasets"),
            reason: "the Friedman test needs at least 2 datasets".into(),
        });
    }
    let k = scores[0].len();
    if k < 2 {
        return Err(Error::InvalidParameter {
            name: "scores",
            value: format!("{k} methods"),
            reason: "the Friedman test needs at least 2 methods".into(),
        });
    }
    let mut rank_sums = vec![0.0; k];
    let mut tie_sum = 0.0;
    for (i, row) in scores.iter().enumerate() {
        if row.len() != k {
            return Err(Error::Shape(format!(
                "friedman: dataset {} has {} scores but dataset 1 has {k}",
                i + 1,
                row.len()
            )));
        }
        check_finite("scores", row)?;
        let keyed: Vec<f64> = if higher_is_better {
            row.iter().map(|v| -v).collect()
        } else {
            row.clone()
        };
        let ranks = midranks(&keyed);
        for (s, r) in rank_sums.iter_mut().zip(&ranks) {
            *s += r;
        }
        let mut sorted = keyed;
        sorted.sort_by(f64::total_cmp);
        for group in sorted.chunk_by(|a, b| a == b) {
            let t = group.len() as f64;
            tie_sum += t * t * t - t;
        }
    }
    let avg_ranks: Vec<f64> = rank_sums.iter().map(|s| s / n as f64).collect();
    let mut result = friedman_from_ranks(&avg_ranks, n)?;
    let kf = k as f64;
    let correction = 1.0 - tie_sum / (n as f64 * (kf * kf * kf - kf));
    result.chi2_tie_corrected = if correction > 0.0 {
        result.chi2 / correction
    } else {
        f64::NAN
    };
    Ok(result)
}

/// The Friedman and Iman–Davenport statistics from the average ranks of
/// `k` methods over `n_datasets` datasets (e.g. ranks printed in a paper).
/// `chi2_tie_corrected` is set equal to `chi2` (ties are unknown here).
pub fn friedman_from_ranks(avg_ranks: &[f64], n_datasets: usize) -> Result<Friedman> {
    let k = avg_ranks.len();
    if k < 2 || n_datasets < 2 {
        return Err(Error::InvalidParameter {
            name: "avg_ranks",
            value: format!("{k} methods over {n_datasets} datasets"),
            reason: "the Friedman test needs at least 2 methods and 2 datasets".into(),
        });
    }
    check_finite("avg_ranks", avg_ranks)?;
    let (nf, kf) = (n_datasets as f64, k as f64);
    let sum_sq: f64 = avg_ranks.iter().map(|r| r * r).sum();
    let chi2 = (12.0 * nf / (kf * (kf + 1.0)) * (sum_sq - kf * (kf + 1.0).powi(2) / 4.0)).max(0.0);
    let df1 = kf - 1.0;
    let df2 = (kf - 1.0) * (nf - 1.0);
    let denom = nf * (kf - 1.0) - chi2;
    let f_f = if denom > 1e-12 * nf * kf {
        (nf - 1.0) * chi2 / denom
    } else {
        f64::INFINITY
    };
    Ok(Friedman {
        avg_ranks: avg_ranks.to_vec(),
        n_datasets,
        n_methods: k,
        chi2,
        chi2_p: chi2_sf(chi2, df1),
        chi2_tie_corrected: chi2,
        f_f,
        f_p: f_sf(f_f, df1, df2),
        f_df: (df1, df2),
    })
}

// ---------------------------------------------------------------------------
// Holm
// ---------------------------------------------------------------------------

/// Holm's step-down adjusted p-values, in the input order: with `p_(1) ≤ …
/// ≤ p_(m)`, `adj_(i) = max_{j ≤ i} min(1, (m − j + 1) p_(j))`. Reject
/// hypothesis `i` at level α iff its adjusted p-value is ≤ α. Every
/// p-value must lie in `[0, 1]`.
pub fn holm(p_values: &[f64]) -> Result<Vec<f64>> {
    if let Some((i, p)) = p_values
        .iter()
        .enumerate()
        .find(|(_, p)| !(0.0..=1.0).contains(*p))
    {
        return Err(Error::InvalidParameter {
            name: "p_values",
            value: p.to_string(),
            reason: format!("entry {} is not a probability in [0, 1]", i + 1),
        });
    }
    let m = p_values.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| p_values[a].total_cmp(&p_values[b]));
    let mut adjusted = vec![0.0; m];
    let mut running: f64 = 0.0;
    for (pos, &i) in order.iter().enumerate() {
        let adj = ((m - pos) as f64 * p_values[i]).min(1.0);
        running = running.max(adj);
        adjusted[i] = running;
    }
    Ok(adjusted)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn ln_gamma_known_values() {
        assert!(close(ln_gamma(1.0), 0.0, 1e-14));
        assert!(close(ln_gamma(2.0), 0.0, 1e-14));
        assert!(close(ln_gamma(5.0), 24f64.ln(), 1e-13));
        assert!(close(
            ln_gamma(0.5),
            std::f64::consts::PI.sqrt().ln(),
            1e-14
        ));
        assert!(close(ln_gamma(0.1), 2.252_712_651_734_206, 1e-13));
        // ln 100! = 363.73937555556347.
        assert!(close(ln_gamma(101.0), 363.739_375_555_563_47, 1e-10));
        assert!(ln_gamma(0.0).is_nan() && ln_gamma(-1.0).is_nan());
    }

    #[test]
    fn incomplete_gamma_known_values() {
        // P(1, x) = 1 − e^(−x).
        for x in [0.1f64, 1.0, 2.5, 10.0] {
            assert!(close(gamma_p(1.0, x), 1.0 - (-x).exp(), 1e-14));
            assert!(close(gamma_q(1.0, x), (-x).exp(), 1e-14));
        }
        // χ² quantiles: 95% of χ²(1) is 3.841458820694124, 95% of χ²(3) is
        // 7.814727903251178, 99% of χ²(1) is 6.634896601021214.
        assert!(close(chi2_cdf(3.841_458_820_694_124, 1.0), 0.95, 1e-12));
        assert!(close(chi2_sf(7.814_727_903_251_178, 3.0), 0.05, 1e-12));
        assert!(close(chi2_sf(6.634_896_601_021_214, 1.0), 0.01, 1e-12));
        // χ²(2): cdf = 1 − e^(−x/2).
        assert!(close(chi2_cdf(4.0, 2.0), 1.0 - (-2.0f64).exp(), 1e-14));
        // χ²(10) mean: P(5, 5) = 0.5595067149347875.
        assert!(close(gamma_p(5.0, 5.0), 0.559_506_714_934_787_9, 1e-13));
        assert_eq!(chi2_sf(0.0, 3.0), 1.0);
        assert!(gamma_p(-1.0, 1.0).is_nan());
    }

    #[test]
    fn normal_distribution() {
        assert!(close(normal_cdf(0.0), 0.5, 1e-15));
        assert!(close(normal_cdf(1.959_963_984_540_054), 0.975, 1e-14));
        assert!(close(normal_cdf(-1.0), 0.158_655_253_931_457_05, 1e-14));
        // Far tail keeps relative precision: Φ(−10) = 7.619853024160527e-24.
        assert!(close(
            normal_sf(10.0) / 7.619_853_024_160_47e-24,
            1.0,
            1e-10
        ));
    }

    #[test]
    fn incomplete_beta_and_f_known_values() {
        // I_x(a, 1) = x^a and I_x(1, b) = 1 − (1 − x)^b.
        assert!(close(beta_inc(3.0, 1.0, 0.4), 0.064, 1e-14));
        assert!(close(beta_inc(1.0, 4.0, 0.3), 1.0 - 0.7f64.powi(4), 1e-14));
        // Symmetry I_x(a, b) = 1 − I_{1−x}(b, a); I_½(a, a) = ½.
        assert!(close(beta_inc(2.5, 2.5, 0.5), 0.5, 1e-14));
        assert!(close(
            beta_inc(2.0, 7.5, 0.2),
            1.0 - beta_inc(7.5, 2.0, 0.8),
            1e-14
        ));
        // F(2, d2): cdf = 1 − (1 + 2x/d2)^(−d2/2).
        assert!(close(f_cdf(3.0, 2.0, 10.0), 1.0 - 1.6f64.powi(-5), 1e-13));
        // F(1, 10) at t²_{0.975,10} = 2.2281388519649385² is the 95% point.
        let t = 2.228_138_851_986_274f64;
        assert!(close(f_sf(t * t, 1.0, 10.0), 0.05, 1e-12));
        // Demšar (2006): the 5% critical value of F(3, 39) is 2.85.
        assert!(close(f_sf(2.85, 3.0, 39.0), 0.05, 1e-3));
        assert_eq!(f_sf(f64::INFINITY, 3.0, 39.0), 0.0);
        assert!(beta_inc(1.0, 1.0, 1.5).is_nan());
    }

    #[test]
    fn binomial_p_values() {
        // n = 10, k = 1: 2 × (1 + 10) / 1024.
        assert!(close(binomial_two_sided(1, 10), 22.0 / 1024.0, 1e-15));
        assert!(close(binomial_two_sided(9, 10), 22.0 / 1024.0, 1e-15));
        assert_eq!(binomial_two_sided(5, 10), 1.0);
        assert_eq!(binomial_two_sided(0, 0), 1.0);
        // scipy.stats.binomtest(14, 19).pvalue = 0.063568115234375: the
        // exact test needs 15 wins of 19 (Demšar's table, from the normal
        // approximation, says 14); 14 of 18 gives 0.0308837890625.
        assert!(close(
            binomial_two_sided(14, 19),
            0.063_568_115_234_375,
            1e-14
        ));
        assert!(close(
            binomial_two_sided(14, 18),
            0.030_883_789_062_5,
            1e-14
        ));
        assert!(binomial_two_sided(15, 19) < 0.05);
    }

    /// The exact two-sided p-value by enumerating all 2^m sign vectors.
    fn brute_force_p(ranks: &[f64], observed: f64) -> f64 {
        let m = ranks.len();
        let (mut le, mut ge) = (0u64, 0u64);
        for mask in 0u64..(1 << m) {
            let s: f64 = (0..m)
                .filter(|b| mask >> b & 1 == 1)
                .map(|b| ranks[b])
                .sum();
            if s <= observed + 1e-9 {
                le += 1;
            }
            if s >= observed - 1e-9 {
                ge += 1;
            }
        }
        let total = (1u64 << m) as f64;
        (2.0 * le.min(ge) as f64 / total).min(1.0)
    }

    #[test]
    fn wilcoxon_exact_matches_enumeration_and_tables() {
        // n = 10 without ties: T = 8 is the two-sided 5% critical value:
        // P(T ≤ 8) = 25/1024, p = 50/1024.
        let d: Vec<f64> = (1..=10)
            .map(|i| {
                if [1, 2, 5].contains(&i) {
                    -(i as f64)
                } else {
                    i as f64
                }
            })
            .collect();
        let w = wilcoxon_differences(&d, WilcoxonOptions::default()).unwrap();
        assert_eq!((w.t, w.r_minus, w.r_plus), (8.0, 8.0, 47.0));
        assert!(w.exact);
        assert!(close(w.p_value, 50.0 / 1024.0, 1e-15));
        // With ties and half ranks.
        let d = [0.5, -0.5, 1.0, 2.0, -2.0, 2.0, 3.5, 4.0, -0.25];
        let w = wilcoxon_differences(&d, WilcoxonOptions::default()).unwrap();
        let ranks = midranks(&d.iter().map(|v: &f64| v.abs()).collect::<Vec<_>>());
        assert!(close(w.p_value, brute_force_p(&ranks, w.r_plus), 1e-12));
        assert!(close(w.r_plus + w.r_minus, 45.0, 1e-12));
    }

    #[test]
    fn wilcoxon_zero_methods() {
        // d: 0, 0, 1, -2, 3, 4, -5 → |d| ranks: zeros 1.5 each, then 3..7.
        let d = [0.0, 0.0, 1.0, -2.0, 3.0, 4.0, -5.0];
        let split = wilcoxon_differences(&d, WilcoxonOptions::default()).unwrap();
        assert_eq!(
            (split.r_plus, split.r_minus),
            (3.0 + 5.0 + 6.0 + 1.5, 4.0 + 7.0 + 1.5)
        );
        assert_eq!((split.n, split.n_zero), (7, 2));
        let pratt = wilcoxon_differences(
            &d,
            WilcoxonOptions {
                zero_method: ZeroMethod::Pratt,
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!((pratt.r_plus, pratt.r_minus), (14.0, 11.0));
        let wilcox = wilcoxon_differences(
            &d,
            WilcoxonOptions {
                zero_method: ZeroMethod::Wilcox,
                ..Default::default()
            },
        )
        .unwrap();
        // Ranks 1..5 of 1, 2, 3, 4, 5.
        assert_eq!((wilcox.r_plus, wilcox.r_minus, wilcox.n), (8.0, 7.0, 5));
        // Split and Pratt share the conditional distribution of the signed
        // part, so their exact p-values agree.
        assert!(close(split.p_value, pratt.p_value, 1e-15));
        // All zeros: nothing to test.
        let zeros = wilcoxon_differences(&[0.0, 0.0], WilcoxonOptions::default()).unwrap();
        assert_eq!((zeros.t, zeros.p_value), (1.5, 1.0));
    }

    #[test]
    fn wilcoxon_normal_approximation() {
        // 30 differences 1..30 with the 5 smallest negative.
        let d: Vec<f64> = (1..=30)
            .map(|i| if i <= 5 { -(i as f64) } else { i as f64 })
            .collect();
        let w = wilcoxon_differences(&d, WilcoxonOptions::default()).unwrap();
        assert!(!w.exact);
        assert_eq!(w.t, 15.0);
        let (n, t) = (30.0f64, 15.0);
        let mean = n * (n + 1.0) / 4.0;
        let sd = (n * (n + 1.0) * (2.0 * n + 1.0) / 24.0).sqrt();
        let z = (t - mean) / sd;
        assert!(close(w.z, -z, 1e-12));
        assert!(close(w.p_value, 2.0 * normal_cdf(z), 1e-15));
        // scipy.stats.wilcoxon(d, method="approx") = 7.690859302848515e-06,
        // method="exact" = 2.551823854446411e-07.
        assert!(close(w.p_value / 7.690_859_302_848_515e-6, 1.0, 1e-9));
        let exact = wilcoxon_differences(
            &d,
            WilcoxonOptions {
                p_value: PValueMethod::Exact,
                ..Default::default()
            },
        )
        .unwrap();
        assert!(exact.exact);
        assert!(close(exact.p_value / 2.551_823_854_446_411e-7, 1.0, 1e-9));
        // Tie correction: all |d| equal → ranks all (n+1)/2.
        let d = [1.0, 1.0, -1.0, 1.0];
        let w = wilcoxon_differences(
            &d,
            WilcoxonOptions {
                p_value: PValueMethod::Normal,
                ..Default::default()
            },
        )
        .unwrap();
        // var = 4 × 2.5² / 4; R⁺ = 7.5, mean 5.
        assert!(close(w.z, 2.5 / 2.5, 1e-12));
    }

    #[test]
    fn wilcoxon_rejects_bad_input() {
        let o = WilcoxonOptions::default();
        assert!(wilcoxon(&[1.0], &[1.0, 2.0], o).is_err());
        assert!(wilcoxon(&[f64::NAN], &[1.0], o).is_err());
        assert!(wilcoxon_differences(&[], o).is_err());
    }

    #[test]
    fn sign_test_ties() {
        let x = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
        let y = [0.0, 1.0, 3.0, 3.0, 5.0, 7.0];
        // d: +, +, 0, +, 0, −.
        let s = sign_test(&x, &y, SignTies::Split).unwrap();
        assert_eq!((s.n_positive, s.n_negative, s.n_zero), (3, 1, 2));
        assert_eq!((s.wins, s.n), (4, 6));
        assert!(close(s.p_value, binomial_two_sided(4, 6), 1e-15));
        let s = sign_test(&x, &y, SignTies::Drop).unwrap();
        assert_eq!((s.wins, s.n), (3, 4));
        assert!(close(s.p_value, 2.0 * 5.0 / 16.0, 1e-15));
    }

    #[test]
    fn friedman_by_hand() {
        // Lower is better; method A always best, B second, C third.
        let scores = vec![
            vec![1.0, 2.0, 3.0],
            vec![1.1, 2.1, 3.1],
            vec![0.9, 1.9, 2.9],
            vec![1.2, 2.2, 3.2],
            vec![1.05, 2.05, 3.05],
        ];
        let f = friedman(&scores, false).unwrap();
        assert_eq!(f.avg_ranks, vec![1.0, 2.0, 3.0]);
        assert!(close(f.chi2, 10.0, 1e-12));
        assert!(close(f.chi2_p, (-5.0f64).exp(), 1e-14));
        assert_eq!(f.f_f, f64::INFINITY);
        assert_eq!(f.f_p, 0.0);
        let g = friedman(&scores, true).unwrap();
        assert_eq!(g.avg_ranks, vec![3.0, 2.0, 1.0]);
        // Mixed ranks 1.25 / 2 / 2.75 over 4 datasets: χ² = 4.5,
        // F_F = 3 × 4.5 / (8 − 4.5).
        let mixed = vec![
            vec![1.0, 2.0, 3.0],
            vec![2.0, 1.0, 3.0],
            vec![1.0, 2.0, 3.0],
            vec![1.0, 3.0, 2.0],
        ];
        let f = friedman(&mixed, false).unwrap();
        assert!(close(f.chi2, 4.5, 1e-12));
        assert!(close(f.f_f, 13.5 / 3.5, 1e-12));
        assert_eq!(f.f_df, (2.0, 6.0));
        assert!(close(f.f_p, f_sf(13.5 / 3.5, 2.0, 6.0), 1e-15));
        assert!(f.f_p < f.chi2_p);
    }

    #[test]
    fn friedman_ties_and_errors() {
        let tied = vec![
            vec![1.0, 1.0, 2.0],
            vec![3.0, 3.0, 3.0],
            vec![1.0, 2.0, 3.0],
        ];
        let f = friedman(&tied, false).unwrap();
        // Rank sums 1.5 + 2 + 1, 1.5 + 2 + 2, 3 + 2 + 3.
        assert_eq!(f.avg_ranks, vec![4.5 / 3.0, 5.5 / 3.0, 8.0 / 3.0]);
        // Ties: (2³ − 2) + (3³ − 3) = 30 over N(k³ − k) = 72.
        assert!(close(
            f.chi2_tie_corrected,
            f.chi2 / (1.0 - 30.0 / 72.0),
            1e-12
        ));
        assert!(friedman(&[vec![1.0, 2.0]], false).is_err());
        assert!(friedman(&[vec![1.0], vec![2.0]], false).is_err());
        assert!(friedman(&[vec![1.0, 2.0], vec![2.0]], false).is_err());
        assert!(friedman(&[vec![1.0, 2.0], vec![f64::NAN, 1.0]], false).is_err());
    }

    #[test]
    fn friedman_demsar_published_ranks() {
        // Demšar (2006), Section 3.2.2: average ranks 3.143, 2.000, 2.893,
        // 1.964 of four C4.5 variants over 14 datasets give χ²_F = 9.28 and
        // F_F = 3.69 (F(3, 39)).
        let ranks = [44.0 / 14.0, 28.0 / 14.0, 40.5 / 14.0, 27.5 / 14.0];
        let f = friedman_from_ranks(&ranks, 14).unwrap();
        assert!(close(f.chi2, 9.28, 0.005));
        assert!(close(f.f_f, 3.69, 0.005));
        assert_eq!(f.f_df, (3.0, 39.0));
        assert!(f.f_p < 0.05 && f.f_p > 0.01);
    }

    #[test]
    fn friedman_demsar_table() {
        // Demšar (2006), Table 6: AUC of C4.5, C4.5+m, C4.5+cf, C4.5+m+cf.
        // Ranked from the printed (rounded) values, the average ranks are
        // 3.143, 2.000, 2.929, 1.929 (the paper prints 2.893 and 1.964,
        // computed from unrounded values). Reference values from scipy
        // 1.17: friedmanchisquare = 10.952380952380956 (tie-corrected),
        // chi2.sf(9.857142857142824, 3) = 0.019820334037905146,
        // f.sf(3.9866666666666495, 3, 39) = 0.01435244621602403.
        let table = [
            [0.763, 0.768, 0.771, 0.798],
            [0.599, 0.591, 0.590, 0.569],
            [0.954, 0.971, 0.968, 0.967],
            [0.628, 0.661, 0.654, 0.657],
            [0.882, 0.888, 0.886, 0.898],
            [0.936, 0.931, 0.916, 0.931],
            [0.661, 0.668, 0.609, 0.685],
            [0.583, 0.583, 0.563, 0.625],
            [0.775, 0.838, 0.866, 0.875],
            [1.000, 1.000, 1.000, 1.000],
            [0.940, 0.962, 0.965, 0.962],
            [0.619, 0.666, 0.614, 0.669],
            [0.972, 0.981, 0.975, 0.975],
            [0.957, 0.978, 0.946, 0.970],
        ];
        let scores: Vec<Vec<f64>> = table.iter().map(|r| r.to_vec()).collect();
        let f = friedman(&scores, true).unwrap();
        let expected = [44.0 / 14.0, 2.0, 41.0 / 14.0, 27.0 / 14.0];
        for (r, e) in f.avg_ranks.iter().zip(expected) {
            assert!(close(*r, e, 1e-12));
        }
        assert!(close(f.chi2, 9.857_142_857_142_824, 1e-9));
        assert!(close(f.chi2_tie_corrected, 10.952_380_952_380_956, 1e-9));
        assert!(close(f.chi2_p, 0.019_820_334_037_905_146, 1e-12));
        assert!(close(f.f_f, 3.986_666_666_666_649_5, 1e-9));
        assert!(close(f.f_p, 0.014_352_446_216_024_03, 1e-12));
    }

    #[test]
    fn holm_by_hand() {
        let adj = holm(&[0.01, 0.04, 0.03, 0.005]).unwrap();
        let expected = [0.03, 0.06, 0.06, 0.02];
        for (a, e) in adj.iter().zip(expected) {
            assert!(close(*a, e, 1e-15));
        }
        assert_eq!(holm(&[0.5, 0.6, 0.9]).unwrap(), vec![1.0, 1.0, 1.0]);
        assert!(holm(&[]).unwrap().is_empty());
        assert!(holm(&[1.2]).is_err());
        assert!(holm(&[f64::NAN]).is_err());
    }

    #[test]
    fn six_datasets_example() {
        // Errors (%) of two methods on six datasets.
        let other = [10.0, 5.0, 3.0, 8.0, 1.0, 7.5];
        let mine = [8.0, 4.0, 3.0, 6.5, 1.5, 6.0];
        let w = wilcoxon(&other, &mine, WilcoxonOptions::default()).unwrap();
        // |d| = 2, 1, 0, 1.5, 0.5, 1.5 → ranks 6, 3, 1, 4.5, 2, 4.5; the zero
        // gives half its rank to each side.
        assert_eq!((w.r_plus, w.r_minus), (18.5, 2.5));
        assert_eq!(w.t, 2.5);
    }

    proptest::proptest! {
        #[test]
        fn wilcoxon_rank_sums_and_exact_vs_normal(
            d in proptest::collection::vec(-4i32..5, 1..22),
        ) {
            let d: Vec<f64> = d.into_iter().map(f64::from).collect();
            let exact = wilcoxon_differences(&d, WilcoxonOptions { p_value: PValueMethod::Exact, ..Default::default() }).unwrap();
            let n = d.len() as f64;
            proptest::prop_assert!((exact.r_plus + exact.r_minus - n * (n + 1.0) / 2.0).abs() < 1e-9);
            proptest::prop_assert!(exact.p_value > 0.0 && exact.p_value <= 1.0);
            // Mirrored differences give the same p-value and swapped sums.
            let neg: Vec<f64> = d.iter().map(|v| -v).collect();
            let mirrored = wilcoxon_differences(&neg, WilcoxonOptions { p_value: PValueMethod::Exact, ..Default::default() }).unwrap();
            proptest::prop_assert!((mirrored.p_value - exact.p_value).abs() < 1e-12);
            proptest::prop_assert_eq!(mirrored.r_plus, exact.r_minus);
        }

        #[test]
        fn holm_is_monotone_and_conservative(p in proptest::collection::vec(0.0f64..=1.0, 0..20)) {
            let adj = holm(&p).unwrap();
            let mut idx: Vec<usize> = (0..p.len()).collect();
            idx.sort_by(|&a, &b| p[a].total_cmp(&p[b]));
            for w in idx.windows(2) {
                proptest::prop_assert!(adj[w[0]] <= adj[w[1]]);
            }
            for (a, r) in adj.iter().zip(&p) {
                proptest::prop_assert!(a >= r && *a <= 1.0);
            }
        }
    }

    /// The Wilcoxon T statistics and sign-test win counts of the NRE paper
    /// (Dawer et al., arXiv 2002.04319, Tables I–V), recomputed from the
    /// per-dataset test errors of its Table IV.
    mod nre_paper {
        use super::super::{sign_test, wilcoxon, SignTies, WilcoxonOptions, ZeroMethod};

        /// Table IV: test error (%) of GB, RF, ANN and NRE on 19 datasets.
        const TABLE_IV: [(&str, [f64; 4]); 19] = [
            ("wilt", [18.60, 21.60, 14.20, 10.40]),
            ("madelon", [14.50, 26.40, 45.50, 10.30]),
            ("phoneme", [9.25, 9.00, 14.18, 8.14]),
            ("kr-vs-kp", [0.42, 0.42, 0.62, 0.20]),
            ("coil2000", [6.04, 7.06, 7.46, 5.83]),
            ("banana", [9.31, 9.56, 9.31, 8.93]),
            ("twonorm", [2.34, 2.52, 2.43, 2.25]),
            ("adult", [12.91, 14.47, 14.79, 14.22]),
            ("dis", [0.71, 1.77, 1.94, 1.77]),
            ("churn", [3.60, 4.13, 6.27, 4.13]),
            ("ring", [3.15, 3.33, 2.52, 3.51]),
            ("spambase", [4.34, 4.92, 3.47, 4.63]),
            ("chess", [0.21, 0.62, 0.42, 0.42]),
            ("titanic", [27.49, 27.49, 26.89, 26.89]),
            ("hypothyroid", [1.47, 1.68, 1.89, 1.47]),
            ("magic", [11.67, 11.88, 12.44, 11.67]),
            ("mushroom", [0.00, 0.00, 0.00, 0.00]),
            ("clean2", [0.00, 0.00, 0.00, 0.00]),
            ("agaricus-lepiota", [0.00, 0.00, 0.00, 0.00]),
        ];

        /// Errors in hundredths of a percent, as integers: differences of values
        /// printed with two decimals must tie exactly when the paper's do (e.g.
        /// 11.88 − 11.67 and 1.68 − 1.47).
        fn column(j: usize) -> Vec<f64> {
            TABLE_IV
                .iter()
                .map(|(_, row)| (row[j] * 100.0).round())
                .collect()
        }

        #[test]
        fn table_v_wilcoxon_t_values() {
            let nre = column(3);
            // (method column, R⁺ from the text, R⁻, T of Table V)
            let expected = [
                (0, 109.0, 81.0, 81.0),
                (1, 176.5, 13.5, 13.5),
                (2, 155.5, 34.5, 34.5),
            ];
            for (j, r_plus, r_minus, t) in expected {
                // d = error(other) − error(NRE): positive = NRE wins.
                let w = wilcoxon(&column(j), &nre, WilcoxonOptions::default()).unwrap();
                assert_eq!(w.n, 19);
                assert_eq!(w.n_zero, 5);
                assert_eq!(
                    (w.r_plus, w.r_minus, w.t),
                    (r_plus, r_minus, t),
                    "method {j}"
                );
                // The paper's verdicts: critical value T ≤ 46 at α = 0.05 (n = 19),
                // significant against RF and ANN, not against GB.
                assert_eq!(w.p_value < 0.05, j != 0, "method {j}: p = {}", w.p_value);
            }
        }

        #[test]
        fn dropping_one_tie_and_reranking() {
            // The paper's text says one of an odd number of ties is ignored; doing
            // so (dropping agaricus-lepiota) and re-ranking the 18 remaining pairs
            // shifts every non-zero rank down by one and leaves four zeros sharing
            // ranks 1–4. (The digest's 107.5/79.5, 175/12, 154/33 keep the
            // 19-pair ranks instead, so they sum to 187 rather than 171.)
            let nre = column(3);
            let expected = [(0, 98.5, 72.5), (1, 161.0, 10.0), (2, 141.0, 30.0)];
            for (j, r_plus, r_minus) in expected {
                let other = column(j);
                let w = wilcoxon(&other[..18], &nre[..18], WilcoxonOptions::default()).unwrap();
                assert_eq!((w.r_plus, w.r_minus), (r_plus, r_minus), "method {j}");
                // The verdicts do not change.
                assert_eq!(w.p_value < 0.05, j != 0, "method {j}: p = {}", w.p_value);
            }
        }

        #[test]
        fn wilcox_zero_method_drops_the_ties() {
            let nre = column(3);
            let w = wilcoxon(
                &column(1),
                &nre,
                WilcoxonOptions {
                    zero_method: ZeroMethod::Wilcox,
                    ..Default::default()
                },
            )
            .unwrap();
            assert_eq!(w.n, 14);
            // 14 non-zero differences, the only loss (ring, 0.18) has rank 1.
            assert_eq!((w.r_plus, w.r_minus), (104.0, 1.0));
        }

        #[test]
        fn table_v_sign_test_wins() {
            let nre = column(3);
            // Raw W/L/T for NRE and "Number of NRE wins" (ties split, one dropped).
            let expected = [(0, 8, 6, 5, 10), (1, 13, 1, 5, 15), (2, 12, 2, 5, 14)];
            for (j, wins, losses, ties, credited) in expected {
                let s = sign_test(&column(j), &nre, SignTies::Split).unwrap();
                assert_eq!((s.n_positive, s.n_negative, s.n_zero), (wins, losses, ties));
                assert_eq!(s.wins, credited, "method {j}");
                assert_eq!(s.n, 18);
            }
        }
    }
}
