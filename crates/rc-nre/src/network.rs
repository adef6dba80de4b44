//! The trainable part of NRE: an ensemble of neural rules (Eq. 12)
//!
//! ```text
//! r_k(x) = c_k · min_{j ∈ path(k)} σ(w_kjᵀ x_T + a_kj)          (shallow)
//! r_k(x) = c_k · min_j σ(V_k σ(W_k x_T + a_k) + b_k)_j           (deep, §IV-A)
//! f(x)   = Σ_k r_k(x)
//! ```
//!
//! Optionally ([`NeuralRules::with_offsets`], NRE's calibrated start) each
//! rule also has an offset `d_k` added on its support: `r_k(x) = [s_k(x) >
//! 0] (d_k + c_k s_k(x))`, so a rule can hold a constant score, e.g. its
//! leaf's log-odds. The indicator has no gradient: `d_k` learns from the
//! rows in the support, the support itself only through `c_k s_k`.
//!
//! with batched forward and backward passes on nalgebra matrices. The
//! min-pooling sends the gradient of `r_k` only to the unit that attains
//! the minimum; a row outside a rule's support (minimum ≤ 0) gives that
//! rule no gradient at all (the paper's "restricted gradients").

use nalgebra::{DMatrix, DMatrixView, DMatrixViewMut};
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// A differentiable model of a batch, trained by [`crate::train()`].
///
/// `forward` and `backward` are the raw passes and expect consistent
/// shapes (they panic otherwise, like slice indexing); [`crate::train()`] and
/// [`crate::train::loss_and_gradient`] check the shapes and return errors.
pub trait Network {
    /// Buffers of one forward pass, reused between batches.
    type Cache: Default;

    /// The parameters as one flat vector.
    fn params(&self) -> &[f64];

    /// The parameters, mutable.
    fn params_mut(&mut self) -> &mut [f64];

    /// Number of input columns a batch must have.
    fn n_inputs(&self) -> usize;

    /// Forward pass of a batch `x` (`rows × n_inputs`): fills `cache`.
    fn forward(&self, x: &DMatrix<f64>, cache: &mut Self::Cache);

    /// The scores `f(x)` of the last forward pass.
    fn scores<'c>(&self, cache: &'c Self::Cache) -> &'c [f64];

    /// Backward pass: given `df[i] = ∂L/∂f(x_i)` for the batch of the last
    /// forward pass, writes `∂L/∂θ` into `grad` (overwriting it).
    fn backward(&self, x: &DMatrix<f64>, cache: &mut Self::Cache, df: &[f64], grad: &mut [f64]);
}

/// Offsets of the parameter blocks in the flat vector.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Layout {
    /// `Wᵀ`: `q × H`, column-major, column `j` = weights of unit `j`.
    w: usize,
    /// Biases `a`: `H`.
    a: usize,
    /// Output weights `c`: one per rule.
    c: usize,
    /// Deep only: start of each rule's `V_kᵀ` block (`d_k × d_k`,
    /// column-major, column `j` = weights of second-layer unit `j`);
    /// `m + 1` entries.
    v: Vec<usize>,
    /// Deep only: second-layer biases `b`: `H`.
    b: usize,
    /// Rule offsets `d`: one per rule, after everything else; `None` for
    /// a network without them (every network saved before they existed).
    #[serde(default)]
    d: Option<usize>,
    /// Total number of parameters.
    len: usize,
}

impl Layout {
    fn new(q: usize, units: &[usize], deep: bool) -> Layout {
        let h: usize = units.iter().sum();
        let m = units.len();
        let w = 0;
        let a = q * h;
        let c = a + h;
        let mut v = Vec::new();
        let mut end = c + m;
        let mut b = end;
        if deep {
            v.push(end);
            for &d in units {
                end += d * d;
                v.push(end);
            }
            b = end;
            end += h;
        }
        Layout {
            w,
            a,
            c,
            v,
            b,
            d: None,
            len: end,
        }
    }
}

/// An ensemble of neural rules over `q` standardised inputs (the features
/// the tree used, in increasing column order).
///
/// Rule `k` owns hidden units `unit_offsets[k]..unit_offsets[k + 1]`, one
/// per decision node of its tree path (root first). A rule with no units
/// (the tree was a single leaf) always outputs `c_k`. The accessors taking
/// a rule or unit index panic when it is out of range, like slice
/// indexing.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NeuralRules {
    q: usize,
    units: Vec<usize>,
    offsets: Vec<usize>,
    deep: bool,
    layout: Layout,
    params: Vec<f64>,
}

/// Buffers of a forward pass of [`NeuralRules`].
#[derive(Debug, Default, Clone)]
pub struct RulesCache {
    /// First-layer pre-activations `B × H`.
    z1: DMatrix<f64>,
    /// Deep only: first-layer activations `B × H`.
    h1: DMatrix<f64>,
    /// Deep only: second-layer pre-activations `B × H`.
    z2: DMatrix<f64>,
    /// Rule supports `s_k = min_j σ(·)`, `B × m`.
    s: DMatrix<f64>,
    /// The unit attaining each minimum, column-major `B × m`.
    arg: Vec<u32>,
    /// Scores `B`.
    f: Vec<f64>,
    /// Gradient w.r.t. the last hidden layer's pre-activations `B × H`.
    dz: DMatrix<f64>,
    /// Deep only: gradient w.r.t. the first layer's pre-activations.
    dz1: DMatrix<f64>,
}

impl NeuralRules {
    /// A network with all parameters zero: `q` inputs and `units[k]`
    /// hidden units in rule `k`.
    pub(crate) fn zeros(q: usize, units: Vec<usize>, deep: bool) -> NeuralRules {
        let mut offsets = Vec::with_capacity(units.len() + 1);
        let mut acc = 0;
        offsets.push(0);
        for &d in &units {
            acc += d;
            offsets.push(acc);
        }
        let layout = Layout::new(q, &units, deep);
        let params = vec![0.0; layout.len];
        let mut net = NeuralRules {
            q,
            units,
            offsets,
            deep,
            layout,
            params,
        };
        if deep {
            // V_k = I, b_k = 0: the second layer starts as the identity.
            for k in 0..net.n_rules() {
                let d = net.units[k];
                let base = net.layout.v[k];
                for j in 0..d {
                    net.params[base + j * d + j] = 1.0;
                }
            }
        }
        net
    }

    /// The same network with a rule offset `d_k = 0` for every rule (no
    /// change to its scores until the offsets are set or trained); a
    /// network that has them is returned as it is.
    pub fn with_offsets(mut self) -> NeuralRules {
        if self.layout.d.is_none() {
            self.layout.d = Some(self.layout.len);
            self.layout.len += self.n_rules();
            self.params.resize(self.layout.len, 0.0);
        }
        self
    }

    /// Whether the rules have offsets `d_k`.
    pub fn has_offsets(&self) -> bool {
        self.layout.d.is_some()
    }

    /// Offset `d_k` of rule `k` (0 for a network without offsets).
    pub fn rule_offset(&self, k: usize) -> f64 {
        match self.layout.d {
            Some(d) => self.params[d + k],
            None => {
                assert!(k < self.n_rules(), "rule {k} of {}", self.n_rules());
                0.0
            }
        }
    }

    /// Sets the offset of rule `k`; the network must have offsets.
    pub(crate) fn set_rule_offset(&mut self, k: usize, d: f64) {
        let at = self.layout.d.expect("a network with rule offsets") + k;
        self.params[at] = d;
    }

    /// Number of inputs `q`.
    pub fn n_inputs(&self) -> usize {
        self.q
    }

    /// Number of rules `m`.
    pub fn n_rules(&self) -> usize {
        self.units.len()
    }

    /// Number of first-layer hidden units `H = Σ_k d_k`.
    pub fn n_units(&self) -> usize {
        self.offsets[self.units.len()]
    }

    /// Hidden units of each rule (its path length `d_k`).
    pub fn units_per_rule(&self) -> &[usize] {
        &self.units
    }

    /// Whether rules have the second (deep) layer.
    pub fn is_deep(&self) -> bool {
        self.deep
    }

    /// Number of trainable parameters.
    pub fn n_params(&self) -> usize {
        self.layout.len
    }

    /// The first-layer units of rule `k` (global unit indices).
    pub fn rule_units(&self, k: usize) -> std::ops::Range<usize> {
        self.offsets[k]..self.offsets[k + 1]
    }

    /// Input weights `w_j` of first-layer unit `j` (length `q`).
    pub fn unit_weights(&self, j: usize) -> &[f64] {
        &self.params[self.layout.w + j * self.q..self.layout.w + (j + 1) * self.q]
    }

    pub(crate) fn unit_weights_mut(&mut self, j: usize) -> &mut [f64] {
        let q = self.q;
        &mut self.params[self.layout.w + j * q..self.layout.w + (j + 1) * q]
    }

    /// Bias `a_j` of first-layer unit `j`.
    pub fn unit_bias(&self, j: usize) -> f64 {
        self.params[self.layout.a + j]
    }

    pub(crate) fn set_unit_bias(&mut self, j: usize, a: f64) {
        self.params[self.layout.a + j] = a;
    }

    /// Output weight `c_k` of rule `k`.
    pub fn output_weight(&self, k: usize) -> f64 {
        self.params[self.layout.c + k]
    }

    /// All output weights `c`.
    pub fn output_weights(&self) -> &[f64] {
        &self.params[self.layout.c..self.layout.c + self.n_rules()]
    }

    pub(crate) fn set_output_weight(&mut self, k: usize, c: f64) {
        self.params[self.layout.c + k] = c;
    }

    /// Deep rules: `V_kᵀ` of rule `k` (`d_k × d_k`, column-major: entry
    /// `(i, j)` at `i + j d_k` is the weight from first-layer unit `i` to
    /// second-layer unit `j`) and `b_k`; `None` for shallow rules.
    pub fn second_layer(&self, k: usize) -> Option<(&[f64], &[f64])> {
        if !self.deep {
            return None;
        }
        let v = &self.params[self.layout.v[k]..self.layout.v[k + 1]];
        let r = self.rule_units(k);
        let b = &self.params[self.layout.b + r.start..self.layout.b + r.end];
        Some((v, b))
    }

    /// A network with only rules `keep` (in that order).
    pub fn retain_rules(&self, keep: &[usize]) -> Result<NeuralRules> {
        let m = self.n_rules();
        if let Some(&bad) = keep.iter().find(|&&k| k >= m) {
            return Err(Error::NoSuchRule {
                index: bad,
                n_rules: m,
            });
        }
        let units: Vec<usize> = keep.iter().map(|&k| self.units[k]).collect();
        let mut out = NeuralRules::zeros(self.q, units, self.deep);
        if self.has_offsets() {
            out = out.with_offsets();
        }
        for (new_k, &k) in keep.iter().enumerate() {
            for (nj, j) in out.rule_units(new_k).zip(self.rule_units(k)) {
                out.unit_weights_mut(nj)
                    .copy_from_slice(self.unit_weights(j));
                out.set_unit_bias(nj, self.unit_bias(j));
                if self.deep {
                    let (src_b, dst_b) = (self.layout.b + j, out.layout.b + nj);
                    out.params[dst_b] = self.params[src_b];
                }
            }
            if self.deep {
                let src = self.layout.v[k]..self.layout.v[k + 1];
                let dst = out.layout.v[new_k];
                let block: Vec<f64> = self.params[src].to_vec();
                out.params[dst..dst + block.len()].copy_from_slice(&block);
            }
            out.set_output_weight(new_k, self.output_weight(k));
            if self.has_offsets() {
                out.set_rule_offset(new_k, self.rule_offset(k));
            }
        }
        Ok(out)
    }

    /// The supports `s_k(x) = min_j σ(·)` of every rule for a batch `x`
    /// (`B × q`), as a `B × m` matrix: `r_k = c_k s_k`, and row `i` lies in
    /// the support of rule `k` when `s_k > 0`.
    pub fn supports(&self, x: &DMatrix<f64>) -> DMatrix<f64> {
        let mut cache = RulesCache::default();
        self.forward(x, &mut cache);
        cache.s
    }

    /// The supports `s` (`B × m`) of the last forward pass in `cache`.
    pub fn supports_of<'c>(&self, cache: &'c RulesCache) -> &'c DMatrix<f64> {
        &cache.s
    }

    fn wt(&self) -> DMatrixView<'_, f64> {
        let h = self.n_units();
        DMatrixView::from_slice(
            &self.params[self.layout.w..self.layout.w + self.q * h],
            self.q,
            h,
        )
    }

    fn vt(&self, k: usize) -> DMatrixView<'_, f64> {
        let d = self.units[k];
        DMatrixView::from_slice(&self.params[self.layout.v[k]..self.layout.v[k + 1]], d, d)
    }

    /// `z = x Wᵀ + a` into `z` (resized as needed).
    fn first_layer(&self, x: &DMatrix<f64>, z: &mut DMatrix<f64>) {
        let (b, h) = (x.nrows(), self.n_units());
        if z.shape() != (b, h) {
            *z = DMatrix::zeros(b, h);
        }
        if self.q > 0 && h > 0 {
            z.gemm(1.0, x, &self.wt(), 0.0);
        } else {
            z.fill(0.0);
        }
        let a = &self.params[self.layout.a..self.layout.a + h];
        for (mut col, &aj) in z.column_iter_mut().zip(a) {
            col.add_scalar_mut(aj);
        }
    }
}

/// Resizes `m` to `r × c` (contents unspecified) without reallocating when
/// the shape already fits.
fn ensure_shape(m: &mut DMatrix<f64>, r: usize, c: usize) {
    if m.shape() != (r, c) {
        *m = DMatrix::zeros(r, c);
    }
}

impl Network for NeuralRules {
    type Cache = RulesCache;

    fn params(&self) -> &[f64] {
        &self.params
    }

    fn params_mut(&mut self) -> &mut [f64] {
        &mut self.params
    }

    fn n_inputs(&self) -> usize {
        self.q
    }

    fn forward(&self, x: &DMatrix<f64>, cache: &mut RulesCache) {
        let b = x.nrows();
        let (h, m) = (self.n_units(), self.n_rules());
        self.first_layer(x, &mut cache.z1);
        if self.deep {
            ensure_shape(&mut cache.h1, b, h);
            ensure_shape(&mut cache.z2, b, h);
            cache.h1.copy_from(&cache.z1);
            cache.h1.apply(|v| *v = v.max(0.0));
            for k in 0..m {
                let r = self.rule_units(k);
                let d = r.len();
                if d == 0 {
                    continue;
                }
                let h1k = cache.h1.columns(r.start, d);
                let mut z2k = cache.z2.columns_mut(r.start, d);
                z2k.gemm(1.0, &h1k, &self.vt(k), 0.0);
                let bias = &self.params[self.layout.b + r.start..self.layout.b + r.end];
                for (mut col, &bj) in z2k.column_iter_mut().zip(bias) {
                    col.add_scalar_mut(bj);
                }
            }
        }
        let last = if self.deep { &cache.z2 } else { &cache.z1 };
        ensure_shape(&mut cache.s, b, m);
        cache.arg.clear();
        cache.arg.resize(b * m, u32::MAX);
        for k in 0..m {
            let r = self.rule_units(k);
            let s = cache.s.column_mut(k);
            let s = s.data.into_slice_mut();
            let arg = &mut cache.arg[k * b..(k + 1) * b];
            if r.is_empty() {
                s.fill(1.0);
                continue;
            }
            let first = last.column(r.start);
            for ((si, ai), &z) in s.iter_mut().zip(arg.iter_mut()).zip(first.iter()) {
                *si = z.max(0.0);
                *ai = r.start as u32;
            }
            for j in r.start + 1..r.end {
                let col = last.column(j);
                for ((si, ai), &z) in s.iter_mut().zip(arg.iter_mut()).zip(col.iter()) {
                    let v = z.max(0.0);
                    if v < *si {
                        *si = v;
                        *ai = j as u32;
                    }
                }
            }
        }
        cache.f.clear();
        cache.f.resize(b, 0.0);
        let c = self.output_weights();
        for (k, &ck) in c.iter().enumerate() {
            if ck == 0.0 {
                continue;
            }
            for (f, &s) in cache.f.iter_mut().zip(cache.s.column(k).iter()) {
                *f += ck * s;
            }
        }
        if let Some(d) = self.layout.d {
            for (k, &dk) in self.params[d..d + m].iter().enumerate() {
                if dk == 0.0 {
                    continue;
                }
                for (f, &s) in cache.f.iter_mut().zip(cache.s.column(k).iter()) {
                    if s > 0.0 {
                        *f += dk;
                    }
                }
            }
        }
    }

    fn scores<'c>(&self, cache: &'c RulesCache) -> &'c [f64] {
        &cache.f
    }

    #[allow(clippy::needless_range_loop)] // parallel index arrays
    fn backward(&self, x: &DMatrix<f64>, cache: &mut RulesCache, df: &[f64], grad: &mut [f64]) {
        let b = x.nrows();
        let (q, h, m) = (self.q, self.n_units(), self.n_rules());
        grad.fill(0.0);
        // ∂L/∂c_k = Σ_i df_i s_ik.
        for k in 0..m {
            grad[self.layout.c + k] = cache.s.column(k).iter().zip(df).map(|(s, d)| s * d).sum();
        }
        // ∂L/∂d_k = Σ_{i: s_ik > 0} df_i.
        if let Some(d) = self.layout.d {
            for k in 0..m {
                grad[d + k] = cache
                    .s
                    .column(k)
                    .iter()
                    .zip(df)
                    .filter(|(&s, _)| s > 0.0)
                    .map(|(_, d)| d)
                    .sum();
            }
        }
        let c = self.output_weights();
        if !self.deep {
            // Sparse: each (row, rule) with s > 0 sends df_i c_k to its
            // minimising unit j*: ∂a_j* += δ, ∂w_j* += δ x_i.
            let (gw, rest) = grad[self.layout.w..].split_at_mut(self.layout.a - self.layout.w);
            let ga = &mut rest[..h];
            for k in 0..m {
                let ck = c[k];
                if ck == 0.0 || self.units[k] == 0 {
                    continue;
                }
                let s = cache.s.column(k);
                let arg = &cache.arg[k * b..(k + 1) * b];
                for i in 0..b {
                    if s[i] <= 0.0 || df[i] == 0.0 {
                        continue;
                    }
                    let delta = df[i] * ck;
                    let j = arg[i] as usize;
                    ga[j] += delta;
                    let gwj = &mut gw[j * q..(j + 1) * q];
                    for (t, g) in gwj.iter_mut().enumerate() {
                        *g += delta * x[(i, t)];
                    }
                }
            }
            return;
        }
        // Deep: dense gradients through the second layer.
        ensure_shape(&mut cache.dz, b, h);
        cache.dz.fill(0.0);
        for k in 0..m {
            let ck = c[k];
            if ck == 0.0 || self.units[k] == 0 {
                continue;
            }
            for i in 0..b {
                if cache.s[(i, k)] > 0.0 {
                    let j = cache.arg[k * b + i] as usize;
                    cache.dz[(i, j)] = df[i] * ck;
                }
            }
        }
        ensure_shape(&mut cache.dz1, b, h);
        for k in 0..m {
            let r = self.rule_units(k);
            let d = r.len();
            if d == 0 {
                continue;
            }
            let dz2k = cache.dz.columns(r.start, d);
            let h1k = cache.h1.columns(r.start, d);
            // ∂Vᵀ_k = h1_kᵀ dz2_k.
            let gv = h1k.tr_mul(&dz2k);
            grad[self.layout.v[k]..self.layout.v[k + 1]].copy_from_slice(gv.as_slice());
            for (jj, col) in dz2k.column_iter().enumerate() {
                grad[self.layout.b + r.start + jj] = col.sum();
            }
            // ∂h1_k = dz2_k V_k, masked by σ'(z1).
            let vt = self.vt(k);
            let mut dz1k = cache.dz1.columns_mut(r.start, d);
            dz1k.gemm(1.0, &dz2k, &vt.transpose(), 0.0);
            let z1k = cache.z1.columns(r.start, d);
            dz1k.zip_apply(&z1k, |g, z| {
                if z <= 0.0 {
                    *g = 0.0
                }
            });
        }
        // ∂Wᵀ = xᵀ dz1, ∂a = column sums of dz1.
        if q > 0 && h > 0 {
            let gw_slice = &mut grad[self.layout.w..self.layout.a];
            let mut gw = DMatrixViewMut::from_slice(gw_slice, q, h);
            gw.gemm(1.0, &x.transpose(), &cache.dz1, 0.0);
        }
        for (j, col) in cache.dz1.column_iter().enumerate() {
            grad[self.layout.a + j] = col.sum();
        }
    }
}

impl NeuralRules {
    /// Checks a network read from a model file: `offsets` the running
    /// sums of `units`, the layout the one `q`, `units` and `deep` make
    /// (with or without rule offsets), as many finite parameters as it
    /// places. Sizes are computed with checked arithmetic, so a file
    /// cannot make them overflow.
    ///
    /// # Errors
    /// [`rulecover_core::InvalidModel`] naming the field.
    pub fn check(&self) -> rulecover_core::validate::Validity {
        use rulecover_core::validate::{all_finite, length, InvalidModel};
        let m = self.units.len();
        length(
            || "offsets".into(),
            self.offsets.len(),
            m + 1,
            "rules and one",
        )?;
        let mut sum = 0usize;
        for (k, &u) in std::iter::once(&0).chain(&self.units).enumerate() {
            sum = sum
                .checked_add(u)
                .ok_or_else(|| InvalidModel::new(format!("units[{}]", k - 1), "too large"))?;
            if self.offsets[k] != sum {
                return Err(InvalidModel::new(
                    format!("offsets[{k}]"),
                    format!("is {} but the units before sum to {sum}", self.offsets[k]),
                ));
            }
        }
        let expected = checked_layout(self.q, &self.units, self.deep)
            .ok_or_else(|| InvalidModel::new("units", "the network is too large"))?;
        let base = Layout {
            d: None,
            ..self.layout.clone()
        };
        let with_offsets = self.layout.d.map(|d| (d, self.layout.len.checked_sub(m)));
        let fits = match with_offsets {
            None => base == expected,
            Some((d, Some(len))) => d == expected.len && Layout { len, ..base } == expected,
            Some((_, None)) => false,
        };
        if !fits {
            return Err(InvalidModel::new(
                "layout",
                "does not match the network's inputs, units and depth",
            ));
        }
        length(
            || "params".into(),
            self.params.len(),
            self.layout.len,
            "parameters in the layout",
        )?;
        all_finite("params", &self.params)
    }
}

/// [`Layout::new`] with checked arithmetic: `None` when a size overflows.
fn checked_layout(q: usize, units: &[usize], deep: bool) -> Option<Layout> {
    let h = units.iter().try_fold(0usize, |s, &u| s.checked_add(u))?;
    let m = units.len();
    let a = q.checked_mul(h)?;
    let c = a.checked_add(h)?;
    let mut v = Vec::new();
    let mut end = c.checked_add(m)?;
    let mut b = end;
    if deep {
        v.push(end);
        for &d in units {
            end = end.checked_add(d.checked_mul(d)?)?;
            v.push(end);
        }
        b = end;
        end = end.checked_add(h)?;
    }
    Some(Layout {
        w: 0,
        a,
        c,
        v,
        b,
        d: None,
        len: end,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two rules over two inputs: rule 0 = {x0 <= 0.5, x1 > -0.2},
    /// rule 1 = {x0 > 0.5}.
    pub(crate) fn two_rules(deep: bool) -> NeuralRules {
        let mut n = NeuralRules::zeros(2, vec![2, 1], deep);
        n.unit_weights_mut(0).copy_from_slice(&[-1.0, 0.0]);
        n.set_unit_bias(0, 0.5);
        n.unit_weights_mut(1).copy_from_slice(&[0.0, 1.0]);
        n.set_unit_bias(1, 0.2);
        n.unit_weights_mut(2).copy_from_slice(&[1.0, 0.0]);
        n.set_unit_bias(2, -0.5);
        n.set_output_weight(0, 0.8);
        n.set_output_weight(1, -0.6);
        n
    }

    #[test]
    fn forward_is_c_times_distance_to_the_nearest_boundary() {
        for deep in [false, true] {
            let n = two_rules(deep);
            let x = DMatrix::from_row_slice(3, 2, &[0.0, 0.0, 0.4, 1.0, 2.0, 5.0]);
            let mut cache = RulesCache::default();
            n.forward(&x, &mut cache);
            let f = n.scores(&cache);
            // Row 0: rule 0, min(0.5, 0.2) = 0.2 → 0.16.
            assert!((f[0] - 0.8 * 0.2).abs() < 1e-12);
            // Row 1: rule 0, min(0.1, 1.2) = 0.1 → 0.08.
            assert!((f[1] - 0.8 * 0.1).abs() < 1e-12);
            // Row 2: rule 1 only: 1.5 → −0.9.
            assert!((f[2] + 0.6 * 1.5).abs() < 1e-12);
        }
    }

    #[test]
    fn offsets_add_on_the_support_only() {
        for deep in [false, true] {
            let plain = two_rules(deep);
            let mut n = plain.clone().with_offsets();
            assert_eq!(n.n_params(), plain.n_params() + 2);
            let x = DMatrix::from_row_slice(4, 2, &[0.0, 0.0, 0.4, 1.0, 2.0, 5.0, 0.0, -1.0]);
            let mut cache = RulesCache::default();
            n.forward(&x, &mut cache);
            let f0 = n.scores(&cache).to_vec();
            plain.forward(&x, &mut cache);
            assert_eq!(f0, plain.scores(&cache), "zero offsets change nothing");
            n.set_rule_offset(0, 1.5);
            n.set_rule_offset(1, -2.0);
            n.forward(&x, &mut cache);
            let f = n.scores(&cache);
            assert!((f[0] - (1.5 + 0.8 * 0.2)).abs() < 1e-12);
            assert!((f[1] - (1.5 + 0.8 * 0.1)).abs() < 1e-12);
            assert!((f[2] - (-2.0 - 0.6 * 1.5)).abs() < 1e-12);
            // Row 3 is in no support (x1 = −1 ≤ −0.2, x0 ≤ 0.5): no offset.
            assert_eq!(f[3], 0.0);
            let r = n.retain_rules(&[1]).unwrap();
            assert_eq!(r.rule_offset(0), -2.0);
            assert_eq!(plain.rule_offset(1), 0.0);
        }
    }

    #[test]
    fn retain_keeps_the_chosen_rules() {
        let n = two_rules(true);
        let r = n.retain_rules(&[1]).unwrap();
        assert_eq!(r.n_rules(), 1);
        assert_eq!(r.unit_weights(0), &[1.0, 0.0]);
        assert_eq!(r.output_weight(0), -0.6);
        assert_eq!(r.second_layer(0).unwrap().0, &[1.0]);
        assert!(matches!(
            n.retain_rules(&[2]),
            Err(Error::NoSuchRule { index: 2, .. })
        ));
    }
}
