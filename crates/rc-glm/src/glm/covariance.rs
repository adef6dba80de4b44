//! glmnet's covariance mode for [`super::solve`] with
//! [`GlmSettings::covariance_updates`](super::GlmSettings::covariance_updates):
//! the Gram matrix of the active columns (summed over each binary column's
//! rows, or its complement's, through a tree of row sets), the support
//! systems and the sign-constrained Newton steps on them, and the Cholesky
//! solve.

use super::{sum_split, Column, GlmProblem};

/// The complements of the binary columns covering more than half of the
/// rows (the rows they do not cover), each computed when first asked for:
/// [`CovarianceGram`] sums such a column's pairs over its complement's
/// rows, which are fewer.
pub(super) struct Complements {
    n: usize,
    rows: Vec<std::cell::OnceCell<Vec<u32>>>,
}

impl Complements {
    /// No complement computed yet, for `columns` over `n` rows.
    pub(super) fn new(columns: &[Column], n: usize) -> Self {
        Complements {
            n,
            rows: (0..columns.len())
                .map(|_| std::cell::OnceCell::new())
                .collect(),
        }
    }

    /// Whether column `k` (`column`) is served by its complement.
    #[inline]
    fn flips(&self, column: &Column) -> bool {
        matches!(column, Column::Binary(rows) if 2 * rows.len() > self.n)
    }

    /// The complement's rows of column `k` (covering `rows`) when it is
    /// served by its complement.
    fn get(&self, k: usize, rows: &[u32]) -> Option<&[u32]> {
        if 2 * rows.len() <= self.n {
            return None;
        }
        let cell = self.rows[k].get_or_init(|| {
            let mut out = Vec::with_capacity(self.n - rows.len());
            let mut next = 0u32;
            for &i in rows.iter().chain(std::iter::once(&(self.n as u32))) {
                out.extend(next..i);
                next = i + 1;
            }
            out
        });
        Some(cell.as_slice())
    }
}

/// The rows grouped by the sets of columns holding them, as the tree that
/// partition refinement builds (for [`CovarianceGram`]): the sets come in
/// turn, and each moves its rows of every class `k` to a new class, a
/// child of `k` made by the set. So the rows at or below node `v` are
/// exactly the rows holding the sets that made `v` and its ancestors, and
/// a pair of columns is summed once per node (with the weight of the rows
/// below it) rather than once per row: `Σ_v depth(v)` additions instead
/// of `Σ_i (sets holding row i)²/2`, fewer where rows share sets.
struct RowTree {
    /// The parent of each node (node 0, the root, holds no set).
    parent: Vec<u32>,
    /// The tag of the set that made each node.
    made_by: Vec<u32>,
    /// `Σ w_i` over the rows at or below each node.
    weight: Vec<f64>,
}

impl RowTree {
    /// The tree of the rows `0..w.len()` refined by `sets` (`(tag,
    /// increasing rows)`), weighted by `w`.
    fn new<'s>(sets: impl Iterator<Item = (u32, &'s [u32])>, w: &[f64]) -> Self {
        let n = w.len();
        let mut class = vec![0u32; n];
        let mut parent: Vec<u32> = vec![u32::MAX];
        let mut made_by: Vec<u32> = vec![0];
        let mut moved_to: Vec<u32> = vec![0];
        let mut stamp: Vec<u32> = vec![u32::MAX];
        for (t, (tag, rows)) in sets.enumerate() {
            let t = t as u32;
            for &i in rows {
                let k = class[i as usize] as usize;
                if stamp[k] != t {
                    stamp[k] = t;
                    moved_to[k] = parent.len() as u32;
                    parent.push(k as u32);
                    made_by.push(tag);
                    moved_to.push(0);
                    stamp.push(u32::MAX);
                }
                class[i as usize] = moved_to[k];
            }
        }
        // Each row's weight on its node (in increasing row order), then
        // each node's on its parent (children are made after parents).
        let mut weight = vec![0.0; parent.len()];
        for (&c, &wi) in class.iter().zip(w) {
            weight[c as usize] += wi;
        }
        for v in (1..parent.len()).rev() {
            let wv = weight[v];
            weight[parent[v] as usize] += wv;
        }
        RowTree {
            parent,
            made_by,
            weight,
        }
    }
}

/// The number of entries of the columns `ks` (a dense column has `n`)
/// and the number of column pairs `(a ≥ b)` sharing a row, summed over the
/// rows (the complements' rows for the columns [`Complements`] serves):
/// what [`CovarianceGram::cover`] adds for them.
pub(super) fn pair_count(
    columns: &[Column],
    complements: &Complements,
    ks: &[usize],
    n: usize,
) -> (usize, f64) {
    let mut per_row = vec![0u32; n];
    let mut nnz = 0;
    let mut dense = 0u32;
    for &k in ks {
        match &columns[k] {
            Column::Binary(rows) => {
                nnz += rows.len();
                let stored = complements.get(k, rows).unwrap_or(rows);
                stored.iter().for_each(|&i| per_row[i as usize] += 1);
            }
            Column::Dense(_) => {
                nnz += n;
                dense += 1;
            }
        }
    }
    let pairs = per_row
        .iter()
        .map(|&c| {
            let c = f64::from(c + dense);
            c * (c + 1.0) / 2.0
        })
        .sum();
    (nnz, pairs)
}

/// Largest support solved directly by [`support_newton`].
pub(super) const DENSE_SUPPORT: usize = 400;
/// With [`GlmSettings::covariance_updates`], the whole active set is
/// minimised in covariance mode when its Gram matrix has at most this many
/// row pairs per entry of its columns ([`pair_count`]). A sweep summing
/// the columns costs about two operations per entry, and the first Newton
/// iterations of a cold RuleFit start take dozens of sweeps (magic: 32
/// to 256 give the same solves, 16 leaves the costliest iteration out).
pub(super) const GRAM_PAIRS_PER_ENTRY: f64 = 64.0;
/// ... and when its columns have at least this many entries per entry of
/// the Gram matrix: a sweep in covariance mode costs up to a row of the
/// matrix per coordinate it changes (and the support Newton steps a
/// Cholesky factorisation), which on small data sets with many active
/// rules outweighs summing the columns (diabetes, abalone, red wine,
/// concrete: 1 gives up to 30 % more instructions than the sweeps, 4
/// none; magic and adult keep every solve).
pub(super) const ENTRIES_PER_GRAM_ENTRY: f64 = 4.0;
/// Largest number of tags [`CovarianceGram::cover`] copies into the row
/// tree's paths (64 MiB); beyond it, it walks each node's ancestors.
const MAX_PATH_ENTRIES: usize = 1 << 24;
/// Direct support solves per proximal Newton iteration.
pub(super) const MAX_SUPPORT_NEWTON: usize = 12;
/// Sweeps over the support between two direct support solves.
pub(super) const SUPPORT_SWEEPS_PER_NEWTON: usize = 8;

/// `out[j] = start + Σ_i a_i v_i` for the columns `ks[j]`, each sum taken
/// in increasing row order (with `start = -0.0`, what [`Column::dot`]
/// gives, bit for bit). Binary columns are summed four at a time, their
/// additions interleaved: each sum keeps its own order, but the four
/// dependency chains overlap.
pub(super) fn dots(columns: &[Column], ks: &[usize], v: &[f64], start: f64, out: &mut Vec<f64>) {
    out.clear();
    out.resize(ks.len(), start);
    let mut binary: Vec<(usize, &[u32])> = Vec::with_capacity(4);
    let flush = |binary: &mut Vec<(usize, &[u32])>, out: &mut Vec<f64>| {
        if let [(ja, a), (jb, b), (jc, c), (jd, d)] = binary[..] {
            let len = a.len().min(b.len()).min(c.len()).min(d.len());
            let (mut sa, mut sb, mut sc, mut sd) = (out[ja], out[jb], out[jc], out[jd]);
            for t in 0..len {
                sa += v[a[t] as usize];
                sb += v[b[t] as usize];
                sc += v[c[t] as usize];
                sd += v[d[t] as usize];
            }
            for (j, rows, mut acc) in [(ja, a, sa), (jb, b, sb), (jc, c, sc), (jd, d, sd)] {
                for &i in &rows[len..] {
                    acc += v[i as usize];
                }
                out[j] = acc;
            }
        } else {
            for &(j, rows) in binary.iter() {
                let mut acc = out[j];
                for &i in rows {
                    acc += v[i as usize];
                }
                out[j] = acc;
            }
        }
        binary.clear();
    };
    for (j, &k) in ks.iter().enumerate() {
        match &columns[k] {
            Column::Binary(rows) => {
                binary.push((j, rows));
                if binary.len() == 4 {
                    flush(&mut binary, out);
                }
            }
            Column::Dense(a) => {
                let mut acc = start;
                for (&a, &x) in a.iter().zip(v) {
                    acc += a * x;
                }
                out[j] = acc;
            }
        }
    }
    flush(&mut binary, out);
}

/// The weighted Gram matrix `Σ_i w_i a_i a_iᵀ` (with the intercept as
/// column 0) of a growing set of active columns, for the support solves of
/// one proximal Newton iteration (the weights `w` and the active set are
/// fixed within it).
///
/// Entry `(a, b)`, `a` after `b` in active-slot order, is the sum over the
/// rows, in increasing row order, of `(w_i · a_i) · b_i`, whatever other
/// columns the set holds: a support's matrix taken from the Gram of a
/// superset equals the one computed for the support alone, bit for bit.
/// So each entry is computed once per iteration, when the later of its
/// two columns joins the set, from a row-major index of the columns held
/// that grows with them.
#[derive(Debug, Default)]
pub(super) struct SupportGram {
    /// Number of active slots (`0` before the first [`SupportGram::cover`]).
    len: usize,
    /// Whether each active slot's column is held.
    held: Vec<bool>,
    /// Lower triangle, row-major `(len + 1)²`, indexed by active slot + 1
    /// (index 0 is the intercept; row 0 holds `Σ w_i a_i`).
    sums: Vec<f64>,
    /// Row `i`'s entries `(slot + 1, value)` of the columns held are
    /// `entries[row_ptr[i]..row_ptr[i] + fill[i]]`, in the order they
    /// joined; `row_ptr` leaves room for every active column.
    row_ptr: Vec<usize>,
    fill: Vec<usize>,
    entries: Vec<(u32, f64)>,
}

impl SupportGram {
    /// Makes sure the columns of `support` (active slots) are held,
    /// computing the entries that the missing ones bring.
    pub(super) fn cover(
        &mut self,
        problem: &GlmProblem,
        active: &[usize],
        support: &[usize],
        w: &[f64],
    ) {
        let n = w.len();
        if self.len == 0 {
            let len = active.len();
            let mut row_ptr = vec![0usize; n + 1];
            for &k in active {
                match &problem.columns[k] {
                    Column::Binary(rows) => rows.iter().for_each(|&i| row_ptr[i as usize + 1] += 1),
                    Column::Dense(_) => row_ptr.iter_mut().skip(1).for_each(|x| *x += 1),
                }
            }
            for i in 0..n {
                row_ptr[i + 1] += row_ptr[i];
            }
            self.entries = vec![(0, 0.0); row_ptr[n]];
            self.row_ptr = row_ptr;
            self.fill = vec![0; n];
            self.held = vec![false; len];
            self.sums = vec![0.0; (len + 1) * (len + 1)];
            let mut total = 0.0;
            for &wi in w {
                total += wi;
            }
            self.sums[0] = total;
            self.len = len;
        }
        let mut fresh: Vec<usize> = support.iter().copied().filter(|&s| !self.held[s]).collect();
        if fresh.is_empty() {
            return;
        }
        fresh.sort_unstable();
        let before = self.fill.clone();
        for &s in &fresh {
            self.held[s] = true;
            let tag = s as u32 + 1;
            match &problem.columns[active[s]] {
                Column::Binary(rows) => {
                    for &i in rows {
                        let i = i as usize;
                        self.entries[self.row_ptr[i] + self.fill[i]] = (tag, 1.0);
                        self.fill[i] += 1;
                    }
                }
                Column::Dense(a) => {
                    for (i, &v) in a.iter().enumerate() {
                        self.entries[self.row_ptr[i] + self.fill[i]] = (tag, v);
                        self.fill[i] += 1;
                    }
                }
            }
        }
        let dim = self.len + 1;
        let sums = &mut self.sums;
        for i in 0..n {
            if self.fill[i] == before[i] {
                continue;
            }
            let wi = w[i];
            let row = &self.entries[self.row_ptr[i]..self.row_ptr[i] + self.fill[i]];
            for a in before[i]..row.len() {
                let (ja, va) = row[a];
                let ja = ja as usize;
                sums[ja] += wi * va;
                // Every pair with a column held before or joining with
                // this one, once; the later column (in slot order) first.
                for &(jb, vb) in &row[..=a] {
                    let jb = jb as usize;
                    if ja >= jb {
                        sums[ja * dim + jb] += wi * va * vb;
                    } else {
                        sums[jb * dim + ja] += wi * vb * va;
                    }
                }
            }
        }
    }
}

/// The support's gradient sums (`Σ_i q_i`, then `Σ_i a_ik q_i` for the
/// columns `ks`, each summed in increasing row order) and its Hessian
/// from the Gram of the active columns, for [`support_newton`].
pub(super) fn support_system(
    problem: &GlmProblem,
    ks: &[usize],
    slots: &[usize],
    gram: &SupportGram,
    q: &[f64],
) -> (Vec<f64>, Vec<f64>) {
    let dim = ks.len() + 1;
    let mut grad = vec![0.0; dim];
    for &v in q {
        grad[0] += v;
    }
    let mut sums = Vec::with_capacity(ks.len());
    dots(problem.columns, ks, q, 0.0, &mut sums);
    grad[1..].copy_from_slice(&sums);
    let hess = support_hessian(gram, slots, 1.0 / problem.total_weight());
    (grad, hess)
}

/// The support's Hessian `(1/W) Σ_i w_i a_i a_iᵀ` (intercept first, then
/// the active slots `slots`), full and row-major, from the Gram of the
/// active columns.
fn support_hessian(gram: &SupportGram, slots: &[usize], inv_n: f64) -> Vec<f64> {
    let dim = slots.len() + 1;
    let gd = gram.len + 1;
    let at: Vec<usize> = std::iter::once(0)
        .chain(slots.iter().map(|&s| s + 1))
        .collect();
    let mut hess = vec![0.0; dim * dim];
    for a in 0..dim {
        for c in 0..=a {
            hess[a * dim + c] = gram.sums[at[a] * gd + at[c]];
        }
        hess[a] = gram.sums[at[a]];
    }
    symmetrize_scaled(&mut hess, dim, inv_n);
    hess
}

/// Scales a Hessian accumulated in its lower triangle (diagonal included)
/// and its intercept row (row 0) by `inv_n`, mirroring it into a full
/// symmetric matrix.
pub(crate) fn symmetrize_scaled(hess: &mut [f64], dim: usize, inv_n: f64) {
    for a in 1..dim {
        for c in 1..=a {
            let v = hess[a * dim + c] * inv_n;
            hess[a * dim + c] = v;
            hess[c * dim + a] = v;
        }
    }
    for k in 1..dim {
        let v = hess[k] * inv_n;
        hess[k] = v;
        hess[k * dim] = v;
    }
    hess[0] *= inv_n;
}

/// The weighted Gram matrix `Σ_i w_i a_i a_iᵀ` (with the intercept) of a
/// growing set of active columns, for [`GlmSettings::covariance_updates`]
/// within one proximal Newton iteration: [`SupportGram`]'s job, in another
/// order. Columns are numbered in the order they join (the intercept is 0)
/// and the lower triangle in join order is kept. Pairs of binary columns
/// are summed over the [`RowTree`] of the binary columns held (rebuilt,
/// in join order, when columns join): each pair once per node, with the
/// weight of the rows below it. A binary column covering more than half
/// of the rows enters the tree by its complement ([`Complements`]), its
/// entries then follow from the complement's. Pairs with a dense column
/// are summed along the other column in increasing row order.
#[derive(Debug, Default)]
pub(super) struct CovarianceGram {
    /// Join number of each active slot's column (`0`: not held).
    pos: Vec<u32>,
    /// Columns held, plus one for the intercept.
    held: usize,
    /// Row length of `sums`: the number of active slots plus one.
    dim: usize,
    /// Lower triangle (`a ≥ b`) in join numbers, row-major `dim²`; column
    /// 0 holds `Σ w_i a_i`, entry 0 `Σ w_i`.
    sums: Vec<f64>,
    /// The held columns `(join number, active slot)` in join order.
    order: Vec<(u32, usize)>,
}

impl CovarianceGram {
    /// Whether active slot `slot`'s column is held.
    pub(super) fn holds(&self, slot: usize) -> bool {
        self.pos.get(slot).is_some_and(|&p| p != 0)
    }

    /// Makes sure the columns of `support` (active slots) are held.
    pub(super) fn cover(
        &mut self,
        problem: &GlmProblem,
        complements: &Complements,
        active: &[usize],
        support: &[usize],
        w: &[f64],
    ) {
        let n = w.len();
        if self.dim == 0 {
            self.pos = vec![0; active.len()];
            self.dim = active.len() + 1;
            self.sums = vec![0.0; self.dim * self.dim];
            self.sums[0] = sum_split(w.iter().copied());
            self.held = 1;
        }
        let mut fresh: Vec<usize> = support
            .iter()
            .copied()
            .filter(|&s| self.pos[s] == 0)
            .collect();
        if fresh.is_empty() {
            return;
        }
        fresh.sort_unstable();
        let columns = problem.columns;
        let dim = self.dim;
        let first_fresh = self.order.len();
        for &s in &fresh {
            let tag = self.held as u32;
            self.pos[s] = tag;
            self.held += 1;
            self.order.push((tag, s));
        }
        // Pairs with a dense column (held or fresh) and a fresh column,
        // summed along the other column in increasing row order; the
        // product is `(w_i · a_i) · b_i` with `a` the later column.
        for (f, &(ta, sa)) in self.order.iter().enumerate().skip(first_fresh) {
            let ca = &columns[active[sa]];
            for &(tb, sb) in &self.order[..=f] {
                let cb = &columns[active[sb]];
                let v = match (ca, cb) {
                    (Column::Binary(_), Column::Binary(_)) => continue,
                    (Column::Dense(x), Column::Dense(z)) => {
                        let mut acc = 0.0;
                        for i in 0..n {
                            acc += w[i] * x[i] * z[i];
                        }
                        acc
                    }
                    (Column::Dense(x), Column::Binary(rows))
                    | (Column::Binary(rows), Column::Dense(x)) => {
                        let mut acc = 0.0;
                        for &i in rows {
                            let i = i as usize;
                            acc += w[i] * x[i];
                        }
                        acc
                    }
                };
                self.sums[ta as usize * dim + tb as usize] = v;
            }
            if let Column::Dense(x) = ca {
                let mut acc = 0.0;
                for i in 0..n {
                    acc += w[i] * x[i];
                }
                self.sums[ta as usize * dim] = acc;
            }
        }
        // The binary columns' row index (of the stored rows: the
        // complement's for a complemented column), rebuilt in join order;
        // `split[i]` entries of row `i` were held before.
        let binary = |&(_, s): &(u32, usize)| match &columns[active[s]] {
            Column::Binary(rows) => Some(complements.get(active[s], rows).unwrap_or(rows)),
            Column::Dense(_) => None,
        };
        // Rows holding the same binary columns add the same pairs: the
        // pairs of a column that made a node of the rows' refinement tree
        // with the columns that made its ancestors are summed once, with
        // the weight of the rows below it; the nodes made by columns held
        // before add nothing new.
        let tree = RowTree::new(
            self.order
                .iter()
                .filter_map(|col| binary(col).map(|rows| (col.0, rows))),
            w,
        );
        let fresh_tag = self.order[first_fresh].0;
        let sums = &mut self.sums;
        let n_nodes = tree.parent.len();
        // With every node fresh, the length of the paths of the nodes with
        // children (`Σ depth(v)` over them).
        let mut has_children = vec![false; n_nodes];
        let entries = if first_fresh == 0 {
            let mut depth = vec![0usize; n_nodes];
            for v in 1..n_nodes {
                depth[v] = depth[tree.parent[v] as usize] + 1;
                has_children[tree.parent[v] as usize] = true;
            }
            (1..n_nodes)
                .filter(|&v| has_children[v])
                .map(|v| depth[v])
                .sum()
        } else {
            usize::MAX
        };
        if entries <= MAX_PATH_ENTRIES {
            // Every node is fresh: a node adds its weight at its own tag
            // and at the tags of its parent's path, a contiguous slice; the
            // path of a node with children (its tag, then its parent's
            // path) is copied once into one array. The same additions in
            // the same order as walking the parents.
            let mut spans = vec![(0usize, 0usize); n_nodes];
            let mut paths: Vec<u32> = Vec::with_capacity(entries);
            for v in 1..n_nodes {
                let p = tree.parent[v] as usize;
                let tag = tree.made_by[v];
                let (from, to) = spans[p];
                let wv = tree.weight[v];
                let line = &mut sums[tag as usize * dim..(tag as usize + 1) * dim];
                line[0] += wv;
                line[tag as usize] += wv;
                for &t in &paths[from..to] {
                    line[t as usize] += wv;
                }
                if has_children[v] {
                    let start = paths.len();
                    paths.push(tag);
                    paths.extend_from_within(from..to);
                    spans[v] = (start, paths.len());
                }
            }
        } else {
            for v in 1..tree.parent.len() {
                let tag = tree.made_by[v] as usize;
                if tag < fresh_tag as usize {
                    continue;
                }
                let wv = tree.weight[v];
                let line = &mut sums[tag * dim..(tag + 1) * dim];
                line[0] += wv;
                let mut u = v;
                while u != 0 {
                    line[tree.made_by[u] as usize] += wv;
                    u = tree.parent[u] as usize;
                }
            }
        }
        // Complemented columns: the sums above are over the complements'
        // rows; with `a = 1 − a'`, `Σ w a = W − Σ w a'`, `Σ w a b =
        // Σ w b − Σ w a' b` and, both complemented, `Σ w a b = Σ w a +
        // Σ w b − W + Σ w a' b'`.
        let flipped = |s: usize| complements.flips(&columns[active[s]]);
        let total = sums[0];
        for f in first_fresh..self.order.len() {
            let (ta, sa) = self.order[f];
            let ta = ta as usize;
            if flipped(sa) {
                sums[ta * dim] = total - sums[ta * dim];
            }
        }
        for f in first_fresh..self.order.len() {
            let (ta, sa) = self.order[f];
            let ta = ta as usize;
            if !matches!(columns[active[sa]], Column::Binary(_)) {
                continue;
            }
            let fa = flipped(sa);
            let s_a = sums[ta * dim];
            for &(tb, sb) in &self.order[..f] {
                let tb = tb as usize;
                if !matches!(columns[active[sb]], Column::Binary(_)) {
                    continue;
                }
                let fb = flipped(sb);
                let s_b = sums[tb * dim];
                let raw = sums[ta * dim + tb];
                sums[ta * dim + tb] = match (fa, fb) {
                    (false, false) => raw,
                    (true, false) => s_b - raw,
                    (false, true) => s_a - raw,
                    (true, true) => s_a + s_b - total + raw,
                };
            }
            if fa {
                sums[ta * dim + ta] = s_a;
            }
        }
    }

    /// The Hessian `(1/W) Σ_i w_i a_i a_iᵀ` of the intercept and the held
    /// active slots `slots`, full and row-major (intercept first).
    pub(super) fn hessian(&self, slots: &[usize], inv_n: f64) -> Vec<f64> {
        let dim = slots.len() + 1;
        let at: Vec<usize> = std::iter::once(0)
            .chain(slots.iter().map(|&s| self.pos[s] as usize))
            .collect();
        let mut hess = vec![0.0; dim * dim];
        for a in 0..dim {
            for c in 0..=a {
                let (hi, lo) = (at[a].max(at[c]), at[a].min(at[c]));
                let v = self.sums[hi * self.dim + lo] * inv_n;
                hess[a * dim + c] = v;
                hess[c * dim + a] = v;
            }
        }
        hess
    }
}

/// The exact minimiser of the quadratic model `gᵀΔ + ½ΔᵀHΔ + Σ λ_k|b_k|`
/// over the intercept and the coordinates `ks`, with the signs of `b` on
/// `ks` held fixed: returns the steps `(Δ0, Δ_k)` from the current `b`, or
/// `None` when a sign would change (or the system is singular). `grad`
/// holds the model's gradient times `1/inv_n` (intercept first), `hess`
/// its Hessian (full, row-major, intercept first).
pub(super) fn support_newton(
    ks: &[usize],
    hess: &[f64],
    grad: &[f64],
    inv_n: f64,
    b: &[f64],
    lambda: &[f64],
) -> Option<(f64, Vec<f64>)> {
    let dim = ks.len() + 1;
    let mut rhs = vec![0.0; dim];
    rhs[0] = -grad[0] * inv_n;
    for (j, &k) in ks.iter().enumerate() {
        let s = if b[k] > 0.0 { 1.0 } else { -1.0 };
        rhs[j + 1] = -(grad[j + 1] * inv_n + lambda[k] * s);
    }
    let step = cholesky_solve(hess, dim, &rhs)?;
    // Feature-sign line search (Lee et al. 2007): the model is piecewise
    // quadratic along the segment from `b` to the sign-constrained
    // minimiser, with kinks where a coefficient crosses zero; take the best
    // of the full step and the kinks, and zero the coordinate that
    // reaches its kink.
    let g_dot: f64 = grad.iter().zip(&step).map(|(g, d)| g * inv_n * d).sum();
    let mut curv = 0.0;
    for a in 0..dim {
        let row = &hess[a * dim..(a + 1) * dim];
        curv += step[a] * row.iter().zip(&step).map(|(h, d)| h * d).sum::<f64>();
    }
    let pen = |t: f64| -> f64 {
        ks.iter()
            .zip(&step[1..])
            .map(|(&k, &d)| lambda[k] * ((b[k] + t * d).abs() - b[k].abs()))
            .sum()
    };
    let model = |t: f64| t * g_dot + 0.5 * t * t * curv + pen(t);
    let mut best_t = 1.0;
    let mut best_v = model(1.0);
    for (&k, &d) in ks.iter().zip(&step[1..]) {
        if d != 0.0 {
            let t = -b[k] / d;
            if t > 0.0 && t < 1.0 {
                let v = model(t);
                if v < best_v {
                    best_v = v;
                    best_t = t;
                }
            }
        }
    }
    // No decrease (or a NaN from a singular system): keep coordinate descent.
    if best_v.is_nan() || best_v >= 0.0 {
        return None;
    }
    let steps: Vec<f64> = ks
        .iter()
        .zip(&step[1..])
        .map(|(&k, &d)| {
            let t = best_t * d;
            // A coordinate at (or numerically past) its kink becomes zero.
            if (b[k] + t) * b[k] <= 0.0 || (b[k] + t).abs() <= 1e-12 * b[k].abs() {
                -b[k]
            } else {
                t
            }
        })
        .collect();
    Some((best_t * step[0], steps))
}

/// Solves `H x = b` for a symmetric positive (semi)definite `H` by Cholesky,
/// adding a growing diagonal jitter when a pivot is not positive.
pub(crate) fn cholesky_solve(h: &[f64], dim: usize, b: &[f64]) -> Option<Vec<f64>> {
    let scale = (0..dim)
        .map(|k| h[k * dim + k].abs())
        .fold(0.0f64, f64::max)
        .max(1e-300);
    let mut jitter = 0.0;
    for _ in 0..12 {
        let mut l = vec![0.0; dim * dim];
        let mut ok = true;
        'outer: for i in 0..dim {
            for j in 0..=i {
                let mut s = h[i * dim + j];
                if i == j {
                    s += jitter;
                }
                for k in 0..j {
                    s -= l[i * dim + k] * l[j * dim + k];
                }
                if i == j {
                    if s <= 1e-14 * scale {
                        ok = false;
                        break 'outer;
                    }
                    l[i * dim + i] = s.sqrt();
                } else {
                    l[i * dim + j] = s / l[j * dim + j];
                }
            }
        }
        if ok {
            let mut z = vec![0.0; dim];
            for i in 0..dim {
                let s: f64 = (0..i).map(|k| l[i * dim + k] * z[k]).sum();
                z[i] = (b[i] - s) / l[i * dim + i];
            }
            let mut x = vec![0.0; dim];
            for i in (0..dim).rev() {
                let s: f64 = (i + 1..dim).map(|k| l[k * dim + i] * x[k]).sum();
                x[i] = (z[i] - s) / l[i * dim + i];
            }
            return Some(x);
        }
        jitter = if jitter == 0.0 {
            1e-10 * scale
        } else {
            jitter * 100.0
        };
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::glm::Loss;
    use rulecover_core::Rng;

    /// The Gram matrix of growing sets of columns (binary ones covering
    /// from 3% to 97% of the rows, so some enter by their complements, and
    /// dense ones), from the row tree, equals the weighted products summed
    /// row by row.
    #[test]
    fn covariance_gram_equals_the_weighted_products() {
        let n = 200;
        let mut rng = Rng::new(5);
        let mut columns = Vec::new();
        for k in 0..40 {
            if k % 7 == 3 {
                columns.push(Column::Dense((0..n).map(|_| rng.normal()).collect()));
            } else {
                let frac = 0.03 + 0.94 * rng.next_f64();
                let rows: Vec<u32> = (0..n as u32).filter(|_| rng.next_f64() < frac).collect();
                columns.push(Column::Binary(rows));
            }
        }
        // Two identical columns, an empty one and a full one.
        columns.push(columns[0].clone());
        columns.push(Column::Binary(Vec::new()));
        columns.push(Column::Binary((0..n as u32).collect()));
        let dense = |c: &Column| -> Vec<f64> {
            match c {
                Column::Binary(rows) => {
                    let mut a = vec![0.0; n];
                    rows.iter().for_each(|&i| a[i as usize] = 1.0);
                    a
                }
                Column::Dense(a) => a.clone(),
            }
        };
        let complements = Complements::new(&columns, n);
        assert!(columns.iter().any(|c| complements.flips(c)));
        let y = vec![0.0; n];
        let penalties = vec![0.0; columns.len()];
        for weighted in [false, true] {
            let w: Vec<f64> = (0..n)
                .map(|_| if weighted { 0.1 + rng.next_f64() } else { 1.0 })
                .collect();
            let prob = GlmProblem {
                loss: Loss::Squared,
                y: &y,
                columns: &columns,
                penalties: &penalties,
                weights: None,
            };
            // Active slots in a shuffled order; covered in three steps.
            let mut active: Vec<usize> = (0..columns.len()).collect();
            for i in (1..active.len()).rev() {
                active.swap(i, rng.below(i + 1));
            }
            let mut gram = CovarianceGram::default();
            let mut held: Vec<usize> = Vec::new();
            for step in [
                vec![3, 17, 5, 30],
                (0..25).collect(),
                (0..active.len()).collect(),
            ] {
                gram.cover(&prob, &complements, &active, &step, &w);
                for &s in &step {
                    if !held.contains(&s) {
                        held.push(s);
                    }
                }
                let inv_n = 0.5;
                let h = gram.hessian(&held, inv_n);
                let dim = held.len() + 1;
                let cols: Vec<Vec<f64>> = std::iter::once(vec![1.0; n])
                    .chain(held.iter().map(|&s| dense(&columns[active[s]])))
                    .collect();
                for a in 0..dim {
                    for c in 0..dim {
                        let want: f64 =
                            (0..n).map(|i| w[i] * cols[a][i] * cols[c][i]).sum::<f64>() * inv_n;
                        let got = h[a * dim + c];
                        assert!(
                            (got - want).abs() <= 1e-9 * (1.0 + want.abs()),
                            "weighted {weighted}, entry ({a}, {c}): {got} vs {want}"
                        );
                    }
                }
            }
        }
    }
}
