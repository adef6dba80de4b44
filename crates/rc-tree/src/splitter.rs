//! Best-split search of one node.
//!
//! Many-valued features keep their rows in presorted lists (sorted once per
//! fit, stably partitioned at every split of a large node), so a candidate
//! feature is scanned in `O(rows in node)` without sorting; below the nodes
//! that partition them (see `build.rs`), a drawn many-valued feature's rows
//! are sorted by rank into the same order. Two-valued features (e.g.
//! one-hot indicators) are evaluated from per-node counts of the drawn
//! ones, gathered in one pass over the node's rows' bitmasks; when sums
//! are exact (two classes, whole-number weights) a split's sides come
//! from the scan that found it, and when they also total under 2^21 each
//! row's count and class weights are one packed integer and a node keeps
//! the counts of all of them, its children's taken by counting the
//! smaller child and subtracting. Nodes of a few rows gather their rows once and test each drawn
//! feature against one bitset. Split choices follow scikit-learn's
//! `BestSplitter`: candidate thresholds between consecutive distinct values
//! (values closer than 1e-7 count as equal), `min_samples_leaf` and
//! `min_weight_leaf` checked per candidate, the best proxy improvement wins
//! and the first one found wins ties.
//!
//! The search is split by job: `histogram` counts a node's rows (per-slot
//! counts of the two-valued features, per-code histograms, the packed row
//! statistics), `scan` evaluates one feature's candidate thresholds, and
//! `partition` moves a split node's rows to its children.

mod histogram;
mod partition;
mod scan;

use rulecover_core::Rng;

use crate::criterion;
use crate::data::{Entry, FeatureClass, Prepared, MAX_CODES};
use crate::sklearn_random::RandR;
use crate::threshold::midpoint;

use histogram::{exact_total, pack, pairs_of, HIST_COPIES, PACKED_TOTAL, SPARE_SLOTS};

/// The target the builder fits, borrowed.
#[derive(Debug, Clone, Copy)]
pub(crate) enum TargetRef<'a> {
    /// Class codes `0..k`.
    Classes { y: &'a [u32], k: usize },
    /// Real values.
    Values(&'a [f64]),
}

/// Resolved tree-growing settings.
#[derive(Debug, Clone)]
pub(crate) struct TreeConfig {
    /// Entropy instead of Gini (classification only).
    pub entropy: bool,
    pub max_depth: usize,
    pub min_samples_split: usize,
    pub min_samples_leaf: usize,
    pub min_weight_fraction_leaf: f64,
    /// Features drawn per node (≥ p means all, scanned in column order).
    pub max_features: usize,
    pub min_impurity_decrease: f64,
}

/// Weighted totals of a set of rows: class counts, or sum and squared sum.
#[derive(Debug, Clone)]
pub(crate) struct Totals {
    pub w: f64,
    /// Class counts (classification) or `[Σ w y]` (regression).
    pub stats: Stats,
    /// `Σ w y²` (regression only).
    pub sq: f64,
}

/// Values stored inline by [`Stats`] (more go to the heap).
const INLINE_STATS: usize = 4;

/// The per-class weights (or `[Σ w y]`) of [`Totals`]: inline up to
/// [`INLINE_STATS`] values, so the nodes of a tree with few classes
/// allocate nothing.
#[derive(Debug, Clone)]
pub(crate) enum Stats {
    /// `len` values at the front of the array.
    Inline { len: usize, v: [f64; INLINE_STATS] },
    /// More values.
    Heap(Vec<f64>),
}

impl Stats {
    /// `len` zeros.
    pub fn zeros(len: usize) -> Stats {
        if len <= INLINE_STATS {
            Stats::Inline {
                len,
                v: [0.0; INLINE_STATS],
            }
        } else {
            Stats::Heap(vec![0.0; len])
        }
    }

    /// A copy of `values`.
    pub fn from_slice(values: &[f64]) -> Stats {
        let mut s = Stats::zeros(values.len());
        s.copy_from_slice(values);
        s
    }
}

impl std::ops::Deref for Stats {
    type Target = [f64];

    #[inline]
    fn deref(&self) -> &[f64] {
        match self {
            Stats::Inline { len, v } => &v[..*len],
            Stats::Heap(v) => v,
        }
    }
}

impl std::ops::DerefMut for Stats {
    #[inline]
    fn deref_mut(&mut self) -> &mut [f64] {
        match self {
            Stats::Inline { len, v } => &mut v[..*len],
            Stats::Heap(v) => v,
        }
    }
}

/// The best split found so far.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Best {
    pub proxy: f64,
    pub feature: usize,
    pub threshold: f64,
    /// Rows going left.
    pub n_left: usize,
    /// For a binned feature: the largest code going left.
    pub code: usize,
    /// The first two statistics of the rows going left (two classes: the
    /// class weights), as the scan summed them; what
    /// [`Workspace::mark`] uses when sums are exact.
    pub left: [f64; 2],
    pub found: bool,
}

impl Best {
    fn new() -> Self {
        Best {
            proxy: f64::NEG_INFINITY,
            feature: 0,
            threshold: 0.0,
            n_left: 0,
            code: 0,
            left: [0.0; 2],
            found: false,
        }
    }

    #[inline]
    fn offer(
        &mut self,
        proxy: f64,
        feature: usize,
        (lo, hi): (f32, f32),
        n_left: usize,
        left: [f64; 2],
    ) {
        if proxy > self.proxy {
            self.proxy = proxy;
            self.feature = feature;
            self.threshold = midpoint(lo, hi);
            self.n_left = n_left;
            self.left = left;
            self.found = true;
        }
    }
}

/// The first two values of `v` (zeros for missing ones).
#[inline]
fn first_two(v: &[f64]) -> [f64; 2] {
    [
        v.first().copied().unwrap_or(0.0),
        v.get(1).copied().unwrap_or(0.0),
    ]
}

/// One tree build: its data, settings and per-tree state; the buffers
/// every node reuses are in [`Scratch`].
pub(crate) struct Workspace<'a> {
    pub data: &'a Prepared,
    pub target: TargetRef<'a>,
    pub weights: &'a [f64],
    pub cfg: &'a TreeConfig,
    /// Rows with positive weight.
    pub m: usize,
    /// Whether `buf.samples` is the buffer that was `buf.alt` when the
    /// tree started.
    alt_current: bool,
    /// Whether the current node's segments of `buf.lists` are in value
    /// order. When not (the builder stops partitioning the lists below a
    /// node size), a sorted feature drawn at the node has its segment
    /// sorted from the rows' ranks: the same order, so the same splits.
    pub lists_valid: bool,
    /// Stamp of the node being searched (see `Scratch::bin_stamp`).
    stamp: u32,
    all_features: bool,
    /// Width of a binary feature's statistics (k, or 2 for regression).
    d: usize,
    /// Two classes and whole-number weights totalling less than 2^53:
    /// every partial sum of class weights is an exact integer, so any
    /// order of summation gives the same floats, and a split's sides can
    /// be taken from the scan that found it ([`Best::left`]) and the
    /// node's totals instead of being summed again.
    exact: bool,
    /// Whether nodes of more than [`SMALL_NODE`] rows keep count blocks
    /// (packed sums, one or two bitmask words): per binary slot, the count
    /// and class weights of the node's rows holding it, one block per
    /// position of the builder's stack of pending nodes (`64 · mw` slots a
    /// block, so the counting loop needs no bounds checks). A node
    /// split counts its smaller child's rows and takes the larger child's
    /// block as its own minus the smaller's (exact, so the same floats as
    /// counting), instead of counting its drawn columns over its rows.
    blocks: bool,
    /// Sums exact, the total weight below [`PACKED_TOTAL`], and some
    /// binary or binned columns: a row's count and class weights fit one
    /// integer ([`pack`]), so counting (count blocks, binned histograms)
    /// adds one integer a row instead of a count and two floats, in any
    /// order, and each row's statistics take 8 bytes instead of 16
    /// (`buf.pair` stays empty; see [`Pairs`]).
    packed: bool,
    /// The stack position of the current node's block, if it has one.
    pub node_block: Option<usize>,
    /// The buffers.
    buf: Scratch,
}

/// Reusable buffers of tree building (kept between the trees an ensemble
/// grows on one thread, so large buffers are not reallocated per tree);
/// a [`Workspace`] holds them while it grows a tree.
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    /// The rows of every node, contiguous per node (in increasing row
    /// order); the current node's are here, others may be in `alt`.
    samples: Vec<u32>,
    /// The other row buffer: an exact split partitions the node's rows
    /// into the same range here and swaps the two
    /// ([`Workspace::partition_rows`]).
    alt: Vec<u32>,
    /// Per sorted slot, the rows ordered by value within every node whose
    /// lists are kept (see [`Workspace::lists_valid`]).
    lists: Vec<Entry>,
    tmp: Vec<u32>,
    tmp_entries: Vec<Entry>,
    /// Per row `[w · [y = 0], w · [y = 1]]` (two classes) or `[w, w · y]`
    /// (regression): one load gives a sorted scan what it needs.
    pair: Vec<[f64; 2]>,
    goes_left: Vec<bool>,
    bin_stats: Vec<f64>,
    bin_n: Vec<u32>,
    /// Node stamp at which each binary slot's statistics were computed.
    bin_stamp: Vec<u32>,
    /// The binary slots [`Workspace::count_binary`] counts (`mw` words).
    count_mask: Vec<u64>,
    /// The rows of the node being counted, as a bitmask over all rows
    /// (`nw` words; all zero between counts).
    members: Vec<u64>,
    /// The ranks of a node's rows in a sorted feature's order, as a
    /// bitmask over all ranks ([`Workspace::sort_segment`]; `nw` words,
    /// all zero between uses).
    rank_bits: Vec<u64>,
    /// The features drawn for the node (native draws).
    drawn: Vec<usize>,
    /// Or and and of the row bitmasks of a node ([`Workspace::span_bits`]).
    span_any: Vec<u64>,
    span_all: Vec<u64>,
    /// The features a small node scans when drawn (a bitset,
    /// [`Workspace::draw_small`]).
    scan_set: Vec<u64>,
    /// The bitmasks and statistics of a small node's rows
    /// ([`Workspace::draw_small`]; [`SMALL_NODE`] entries).
    small_bits: Vec<u128>,
    small_stats: Vec<[f64; 2]>,
    /// The count blocks, packed ([`pack`]).
    block: Vec<u64>,
    /// Per row, [`pack`] of its class weights (packed sums only).
    packed_row: Vec<u64>,
    /// [`HIST_COPIES`] packed histograms over all codes (packed sums
    /// only; all zero between uses).
    hist_packed: Vec<u64>,
    /// Binned features: full histogram, and compact statistics of the
    /// codes present in the node.
    hist: Vec<f64>,
    hist_n: Vec<u32>,
    present: Vec<u16>,
    pn: Vec<u32>,
    pstats: Vec<f64>,
    /// The feature array the draws permute (kept across a tree's nodes).
    features: Vec<usize>,
    /// scikit-learn's `constant_features` array (its sampling mode only).
    constant_features: Vec<usize>,
    left: Vec<f64>,
    /// Rows routed through a grown tree to count its coverage (ensembles).
    pub rows: Vec<u32>,
    /// Nodes of the last tree grown with these buffers: room reserved for
    /// the next one (trees of one ensemble have similar sizes).
    pub nodes_hint: usize,
}

/// Nodes of at most this many rows draw and scan their features through
/// [`Workspace::draw_small`]; larger ones keep count blocks (see
/// [`Workspace::uses_blocks`]).
pub(crate) const SMALL_NODE: usize = 32;

/// `v` cleared and filled with `len` copies of `x`, keeping its capacity.
fn refill<T: Clone>(v: &mut Vec<T>, len: usize, x: T) {
    v.clear();
    v.resize(len, x);
}

impl<'a> Workspace<'a> {
    pub fn new(
        data: &'a Prepared,
        target: TargetRef<'a>,
        weights: &'a [f64],
        cfg: &'a TreeConfig,
        mut buf: Scratch,
    ) -> Self {
        buf.samples.clear();
        buf.samples
            .extend((0..data.n as u32).filter(|&i| weights[i as usize] > 0.0));
        let m = buf.samples.len();
        // (Written before it is read: no need to clear it.)
        buf.alt.resize(m, 0);
        refill(&mut buf.lists, m * data.orders.len() + 1, (0.0, 0));
        for (s, order) in data.orders.iter().enumerate() {
            // Branch-free filter of the rows with positive weight.
            let out = &mut buf.lists[s * m..s * m + m + 1];
            let mut k = 0;
            for &e in order {
                out[k] = e;
                k += usize::from(weights[e.1 as usize] > 0.0);
            }
        }
        buf.lists.truncate(m * data.orders.len());
        let total = match target {
            TargetRef::Classes { k: 2, .. } => exact_total(weights),
            _ => None,
        };
        let exact = total.is_some();
        // (Packed sums pay where rows are counted: one-hot columns'
        // blocks, binned columns' histograms. With neither (magic: every
        // column presorted) the sorted scans would unpack every row, so
        // such data keeps the float pairs.)
        let counted = data.n_binary > 0 || !data.codes.is_empty();
        let packed = counted && total.is_some_and(|t| t < PACKED_TOTAL);
        // Each row's two statistics, as floats or (packed sums) packed.
        buf.pair.clear();
        buf.packed_row.clear();
        let class_pair = |(&c, &w): (&u32, &f64)| if c == 0 { [w, 0.0] } else { [0.0, w] };
        match target {
            TargetRef::Classes { y, k: 2 } if packed => buf
                .packed_row
                .extend(y.iter().zip(weights).map(|r| pack(class_pair(r)))),
            TargetRef::Classes { y, k: 2 } => {
                buf.pair.extend(y.iter().zip(weights).map(class_pair))
            }
            TargetRef::Values(y) => buf
                .pair
                .extend(y.iter().zip(weights).map(|(&v, &w)| [w, w * v])),
            TargetRef::Classes { .. } => {}
        }
        let d = match target {
            TargetRef::Classes { k, .. } => k,
            TargetRef::Values(_) => 2,
        };
        buf.features.clear();
        buf.features.extend(0..data.p);
        if packed {
            refill(&mut buf.hist_packed, HIST_COPIES * MAX_CODES, 0);
        }
        refill(&mut buf.tmp, m, 0);
        refill(&mut buf.tmp_entries, m, (0.0, 0));
        refill(&mut buf.goes_left, data.n, false);
        refill(&mut buf.bin_stats, (data.n_binary + SPARE_SLOTS) * d, 0.0);
        refill(&mut buf.bin_n, data.n_binary + SPARE_SLOTS, 0);
        refill(&mut buf.bin_stamp, data.n_binary, 0);
        refill(&mut buf.count_mask, data.mw, 0);
        refill(&mut buf.members, data.nw, 0);
        refill(&mut buf.rank_bits, data.nw, 0);
        refill(&mut buf.span_any, data.mw, 0);
        refill(&mut buf.span_all, data.mw, 0);
        refill(&mut buf.scan_set, data.p.div_ceil(64), 0);
        refill(&mut buf.small_bits, SMALL_NODE, 0);
        refill(&mut buf.small_stats, SMALL_NODE, [0.0; 2]);
        refill(&mut buf.hist, MAX_CODES * d, 0.0);
        refill(&mut buf.hist_n, MAX_CODES, 0);
        refill(&mut buf.constant_features, data.p, 0);
        refill(&mut buf.left, d, 0.0);
        buf.nodes_hint = 0;
        Workspace {
            data,
            target,
            weights,
            cfg,
            m,
            alt_current: false,
            lists_valid: true,
            stamp: 0,
            all_features: cfg.max_features >= data.p,
            d,
            exact,
            blocks: packed && (1..=2).contains(&data.mw),
            packed,
            node_block: None,
            buf,
        }
    }

    /// Gives the buffers back for the next tree.
    pub fn into_scratch(self) -> Scratch {
        self.buf
    }

    /// Weighted totals of the rows `samples[start..end]`.
    pub fn totals(&self, start: usize, end: usize) -> Totals {
        let w = self.weights;
        match self.target {
            TargetRef::Classes { y, k } => {
                let mut stats = Stats::zeros(k);
                let mut wt = 0.0;
                for &r in &self.buf.samples[start..end] {
                    let r = r as usize;
                    stats[y[r] as usize] += w[r];
                    wt += w[r];
                }
                Totals {
                    w: wt,
                    stats,
                    sq: 0.0,
                }
            }
            TargetRef::Values(y) => {
                let (mut wt, mut s, mut sq) = (0.0, 0.0, 0.0);
                for &r in &self.buf.samples[start..end] {
                    let r = r as usize;
                    let wy = w[r] * y[r];
                    wt += w[r];
                    s += wy;
                    sq += wy * y[r];
                }
                Totals {
                    w: wt,
                    stats: Stats::from_slice(&[s]),
                    sq,
                }
            }
        }
    }

    /// Impurity of a node with the given totals.
    pub fn impurity(&self, t: &Totals) -> f64 {
        match self.target {
            TargetRef::Classes { .. } => criterion::class_impurity(self.cfg.entropy, &t.stats, t.w),
            TargetRef::Values(_) => criterion::mse(t.stats[0], t.sq, t.w),
        }
    }

    /// The best split of the node `samples[start..end]`, if any.
    ///
    /// `constants` is a bitset of the features known to be constant in the
    /// node (found constant in an ancestor); they are skipped without a
    /// scan but still count as drawn, as in scikit-learn. Features found
    /// constant here are added, for the children.
    pub fn best_split(
        &mut self,
        start: usize,
        end: usize,
        tot: &Totals,
        min_weight_leaf: f64,
        rng: &mut Rng,
        constants: &mut [u64],
    ) -> Option<Best> {
        let mut best = Best::new();
        self.next_stamp();
        let known = |c: &[u64], f: usize| (c[f >> 6] >> (f & 63)) & 1 != 0;
        let p = self.data.p;
        if self.all_features {
            for f in 0..p {
                if !known(constants, f)
                    && !self.eval_feature(f, start, end, tot, min_weight_leaf, &mut best)
                {
                    constants[f >> 6] |= 1 << (f & 63);
                }
            }
        } else if end - start <= SMALL_NODE && self.d == 2 && self.data.mw <= 2 {
            self.draw_small(start, end, tot, min_weight_leaf, rng, constants, &mut best);
        } else {
            // The first `max_features` draws do not depend on what the
            // scans find, so they are drawn up front and the one-hot
            // (binary) columns among them counted in one pass over the
            // node's rows; they are then scanned in draw order.
            let mut pool = p;
            let first = self.cfg.max_features.min(p);
            self.buf.drawn.clear();
            self.buf.count_mask.iter_mut().for_each(|m| *m = 0);
            for _ in 0..first {
                let j = crate::draw::below(rng, pool);
                pool -= 1;
                self.buf.features.swap(j, pool);
                let f = self.buf.features[pool];
                self.buf.drawn.push(f);
                if let FeatureClass::Binary { slot, .. } = self.data.class[f] {
                    if !known(constants, f) {
                        self.buf.count_mask[slot >> 6] |= 1 << (slot & 63);
                    }
                }
            }
            if self.node_block.is_none() && self.buf.count_mask.iter().any(|&m| m != 0) {
                self.count_binary(start, end);
            }
            let mut non_constant = 0;
            for t in 0..first {
                let f = self.buf.drawn[t];
                if known(constants, f) {
                    continue;
                }
                if self.eval_feature(f, start, end, tot, min_weight_leaf, &mut best) {
                    non_constant += 1;
                } else {
                    constants[f >> 6] |= 1 << (f & 63);
                }
            }
            // All drawn features constant: draw on, one at a time. This
            // happens mostly in small nodes, where most one-hot columns
            // are constant: which are is read off the node's span of row
            // bitmasks (computed once, on the first binary column drawn
            // here), so only a non-constant one is counted.
            let mut visited = first;
            let mut spanned = false;
            while pool > 0 && (visited < self.cfg.max_features || non_constant == 0) {
                let j = crate::draw::below(rng, pool);
                pool -= 1;
                self.buf.features.swap(j, pool);
                let f = self.buf.features[pool];
                visited += 1;
                if known(constants, f) {
                    continue;
                }
                // (A node with a count block finds a constant column there.)
                if let (FeatureClass::Binary { slot, .. }, None) =
                    (self.data.class[f], self.node_block)
                {
                    if !spanned {
                        self.span_bits(start, end);
                        spanned = true;
                    }
                    let (q, bit) = (slot >> 6, 1u64 << (slot & 63));
                    if self.buf.span_any[q] & bit == 0 || self.buf.span_all[q] & bit != 0 {
                        constants[f >> 6] |= 1 << (f & 63);
                        continue;
                    }
                }
                if self.eval_feature(f, start, end, tot, min_weight_leaf, &mut best) {
                    non_constant += 1;
                } else {
                    constants[f >> 6] |= 1 << (f & 63);
                }
            }
        }
        best.found.then_some(best)
    }

    /// The feature draws and scans of [`Workspace::best_split`] for a node
    /// of at most [`SMALL_NODE`] rows (two statistics a row, at most two
    /// bitmask words), where fixed costs per drawn feature dominate: the
    /// node's rows' bitmasks and statistics are gathered once, a drawn
    /// binary column constant in the node (the or / and of the bitmasks)
    /// is recorded without a scan, and a varying one is counted from the
    /// gathered rows (in row order, as [`Workspace::count_binary`] counts)
    /// into the slot's cache for [`Workspace::eval_feature`]. Draws and
    /// scans alternate: the same draws, in the same order, as drawing the
    /// first `max_features` up front.
    #[allow(clippy::too_many_arguments)]
    fn draw_small(
        &mut self,
        start: usize,
        end: usize,
        tot: &Totals,
        min_weight_leaf: f64,
        rng: &mut Rng,
        constants: &mut [u64],
        best: &mut Best,
    ) {
        let data = self.data;
        let mw = data.mw;
        let m_node = end - start;
        // (Buffers of the workspace: arrays here would be zeroed per node.)
        let bits = &mut self.buf.small_bits[..m_node];
        let stats = &mut self.buf.small_stats[..m_node];
        let pairs = pairs_of(self.packed, &self.buf.pair, &self.buf.packed_row);
        let (mut any, mut all) = (0u128, !0u128);
        for ((&r, b), st) in self.buf.samples[start..end]
            .iter()
            .zip(&mut *bits)
            .zip(&mut *stats)
        {
            let r = r as usize;
            let row = &data.row_bits[r * mw..(r + 1) * mw];
            // (No words without binary features.)
            let x = row.first().map_or(0, |&w| u128::from(w))
                | row.get(1).map_or(0, |&w| u128::from(w) << 64);
            *b = x;
            any |= x;
            all &= x;
            *st = pairs.get(r);
        }
        // The features worth a scan (a bitset): not known constant, and
        // many-valued or a binary column varying in the node. A drawn
        // feature outside it is constant: one test per draw, rarely
        // passed, instead of three unpredictable ones (known constant?
        // binary? varying?).
        let varying = any & !all;
        let scan = &mut self.buf.scan_set;
        scan.copy_from_slice(&data.many_valued);
        let mut v = varying;
        while v != 0 {
            let f = data.slot_feature[v.trailing_zeros() as usize];
            v &= v - 1;
            scan[f >> 6] |= 1 << (f & 63);
        }
        for (c, k) in scan.iter_mut().zip(&*constants) {
            *c &= !k;
        }
        let mut g = rng.clone();
        let mut pool = data.p;
        let max_features = self.cfg.max_features;
        let (mut visited, mut non_constant) = (0, 0);
        loop {
            // Draws until a feature worth a scan (most are not), with the
            // buffers borrowed once for the run of draws.
            let (features, scan) = (&mut self.buf.features[..], &self.buf.scan_set[..]);
            let mut next = None;
            while pool > 0 && (visited < max_features || non_constant == 0) {
                let j = crate::draw::below(&mut g, pool);
                pool -= 1;
                features.swap(j, pool);
                let f = features[pool];
                visited += 1;
                let (q, bit) = (f >> 6, 1u64 << (f & 63));
                if scan[q] & bit == 0 {
                    constants[q] |= bit;
                } else {
                    next = Some(f);
                    break;
                }
            }
            let Some(f) = next else {
                break;
            };
            if let FeatureClass::Binary { slot, .. } = data.class[f] {
                let (mut n, mut s0, mut s1) = (0u32, 0.0f64, 0.0f64);
                let rows = self.buf.small_bits[..m_node]
                    .iter()
                    .zip(&self.buf.small_stats[..m_node]);
                for (&b, &[a, c]) in rows {
                    if (b >> slot) & 1 != 0 {
                        n += 1;
                        s0 += a;
                        s1 += c;
                    }
                }
                self.buf.bin_stamp[slot] = self.stamp;
                self.buf.bin_n[slot] = n;
                self.buf.bin_stats[2 * slot] = s0;
                self.buf.bin_stats[2 * slot + 1] = s1;
            }
            if self.eval_feature(f, start, end, tot, min_weight_leaf, best) {
                non_constant += 1;
            } else {
                constants[f >> 6] |= 1 << (f & 63);
            }
        }
        *rng = g;
    }

    /// Sets `span_any` / `span_all` to the or / and of the row bitmasks
    /// of the node `samples[start..end]`: a binary slot is constant in
    /// the node when its bit is clear in the first or set in the second.
    fn span_bits(&mut self, start: usize, end: usize) {
        let mw = self.data.mw;
        let bits = &self.data.row_bits;
        self.buf.span_any.iter_mut().for_each(|w| *w = 0);
        self.buf.span_all.iter_mut().for_each(|w| *w = !0);
        for &r in &self.buf.samples[start..end] {
            let row = &bits[r as usize * mw..(r as usize + 1) * mw];
            for ((a, l), &b) in self
                .buf
                .span_any
                .iter_mut()
                .zip(&mut self.buf.span_all)
                .zip(row)
            {
                *a |= b;
                *l &= b;
            }
        }
    }

    /// A fresh stamp for the node about to be searched (invalidates the
    /// per-node caches of binary statistics).
    fn next_stamp(&mut self) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 || self.stamp == u32::MAX {
            self.buf.bin_stamp.iter_mut().for_each(|s| *s = u32::MAX);
            self.stamp = 1;
        }
    }

    /// The best split of the node `samples[start..end]` with
    /// scikit-learn's feature draws (`node_split_best`, Fisher–Yates on
    /// the `features` array that persists across the nodes of one tree).
    ///
    /// `n_known_constants` features, found constant by ancestors, sit at
    /// the front of that array. Returns the split, if any, and the number
    /// of constant features known to the children.
    pub fn best_split_sklearn(
        &mut self,
        start: usize,
        end: usize,
        tot: &Totals,
        min_weight_leaf: f64,
        rand_r: &mut RandR,
        n_known_constants: usize,
    ) -> (Option<Best>, usize) {
        let mut best = Best::new();
        self.next_stamp();
        let n_features = self.data.p;
        let max_features = self.cfg.max_features.min(n_features);
        let known = n_known_constants;
        let mut f_i = n_features;
        let mut visited = 0;
        let mut found = 0;
        let mut drawn = 0;
        let mut total = known;
        while f_i > total && (visited < max_features || visited <= found + drawn) {
            visited += 1;
            let mut f_j = rand_r.rand_int(drawn, f_i - found);
            if f_j < known {
                self.buf.features.swap(drawn, f_j);
                drawn += 1;
                continue;
            }
            f_j += found;
            let f = self.buf.features[f_j];
            if !self.eval_feature(f, start, end, tot, min_weight_leaf, &mut best) {
                self.buf.features.swap(f_j, total);
                found += 1;
                total += 1;
                continue;
            }
            f_i -= 1;
            self.buf.features.swap(f_i, f_j);
        }
        // scikit-learn's invariant: the known constants keep their order
        // for siblings and children; the new ones are recorded after them.
        self.buf.features[..known].copy_from_slice(&self.buf.constant_features[..known]);
        self.buf.constant_features[known..total].copy_from_slice(&self.buf.features[known..total]);
        (best.found.then_some(best), total)
    }
}
