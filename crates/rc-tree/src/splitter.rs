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

use rulecover_core::Rng;

use crate::criterion::{self, FEATURE_THRESHOLD};
use crate::data::{FeatureClass, Prepared, MAX_CODES};
use crate::sklearn_random::RandR;
use crate::threshold::midpoint;

/// An entry of a presorted list: the feature's float32 value and the row.
pub(crate) type Entry = (f32, u32);

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

/// The two statistics of every row (`[w · [y = 0], w · [y = 1]]` or
/// `[w, w · y]`): stored as floats, or packed ([`pack`]) when sums are
/// packed, which keeps a tree's per-row data smaller in cache.
#[derive(Clone, Copy)]
enum Pairs<'a> {
    Float(&'a [[f64; 2]]),
    Packed(&'a [u64]),
}

impl Pairs<'_> {
    /// The statistics of row `r`.
    #[inline(always)]
    fn get(self, r: usize) -> [f64; 2] {
        match self {
            Pairs::Float(p) => p[r],
            Pairs::Packed(p) => unpack(p[r]).1,
        }
    }
}

/// [`Pairs`] of a workspace's buffers.
#[inline]
fn pairs_of<'a>(packed: bool, pair: &'a [[f64; 2]], packed_row: &'a [u64]) -> Pairs<'a> {
    if packed {
        Pairs::Packed(packed_row)
    } else {
        Pairs::Float(pair)
    }
}

/// What a row adds to a binary slot's statistics.
struct RowStats<'a> {
    d: usize,
    pair: Pairs<'a>,
    y: &'a [u32],
    w: &'a [f64],
}

impl RowStats<'_> {
    /// Adds row `r` to slot `s`: its count, and its `[w · [y = 0], w ·
    /// [y = 1]]` or `[w, w · y]` (`d` = 2; an exact zero added to a sum
    /// leaves it unchanged), else its weight in its class.
    #[inline(always)]
    fn add(&self, stats: &mut [f64], counts: &mut [u32], s: usize, r: usize) {
        counts[s] += 1;
        if self.d == 2 {
            let [a, b] = self.pair.get(r);
            stats[2 * s] += a;
            stats[2 * s + 1] += b;
        } else {
            stats[s * self.d + self.y[r] as usize] += self.w[r];
        }
    }
}

/// [`Workspace::count_binary`] scans the counted slots' columns when
/// (counted slots) × (row words spanned by the node) is at most this many
/// times the node's rows.
const COLUMN_SCAN_RATIO: usize = 4;

/// Nodes of at most this many rows draw and scan their features through
/// [`Workspace::draw_small`]; larger ones keep count blocks (see
/// [`Workspace::uses_blocks`]).
pub(crate) const SMALL_NODE: usize = 32;

/// Nodes of at least this many rows order a sorted feature's rows by a
/// bitmap of their ranks rather than by sorting
/// ([`Workspace::sort_segment`]).
const RANK_BITMAP_ROWS: usize = 64;

/// Spare slots after the binary slots' statistics, where
/// [`Workspace::count_binary`] adds rows without a counted slot.
const SPARE_SLOTS: usize = 8;

/// Largest total weight for which [`Workspace::exact`] holds: every
/// integer up to it is a float, so sums of whole numbers below it are
/// exact.
const EXACT_TOTAL: f64 = 9_007_199_254_740_992.0; // 2^53

/// The total of `weights` if every weight is a whole number and their
/// sum (in any order) is exact: the float sum of non-negative whole
/// numbers stays exact while it is below 2^53 and, summing on, cannot
/// fall back below it once it is not.
fn exact_total(weights: &[f64]) -> Option<f64> {
    let mut total = 0.0;
    let mut whole = true;
    for &w in weights {
        // (Weights are finite and non-negative; `fract` is a libm call,
        // casts to integers are several instructions. Below 2^52, adding
        // and subtracting 2^52 rounds to a whole number; from 2^52 on,
        // every float is one.)
        whole &= w >= TWO_52 || (w + TWO_52) - TWO_52 == w;
        total += w;
    }
    (whole && total < EXACT_TOTAL).then_some(total)
}

/// 2^52: floats from it on are whole numbers, and adding it to a whole
/// number below it puts that number in the low mantissa bits.
const TWO_52: f64 = 4_503_599_627_370_496.0;

/// Largest total weight for which [`Workspace::packed`] holds: a class
/// weight sum, and a row count (at most the total, every positive whole
/// weight being at least 1), fit [`PACK_BITS`] bits.
const PACKED_TOTAL: f64 = (1u64 << PACK_BITS) as f64;

/// Bits of each of the three fields of a packed row ([`pack`]).
const PACK_BITS: u32 = 21;

/// Mask of one field of a packed row.
const PACK_MASK: u64 = (1 << PACK_BITS) - 1;

/// A row of class weights `[w0, w1]` (whole numbers) as one integer: the
/// count 1 in bits 42–63, `w0` in bits 21–41, `w1` in bits 0–20. Sums of
/// packed rows are the packed sums, field by field, while every field's
/// sum stays below 2^21 ([`PACKED_TOTAL`]).
#[inline]
fn pack([w0, w1]: [f64; 2]) -> u64 {
    // (`w + 2^52` holds a whole `w` below 2^52 in its low mantissa bits:
    // cheaper than a cast.)
    let whole = |w: f64| (w + TWO_52).to_bits() - TWO_52.to_bits();
    (1 << (2 * PACK_BITS)) | (whole(w0) << PACK_BITS) | whole(w1)
}

/// The count and class weights of a sum of packed rows; the weights are
/// whole numbers below 2^21, so these are the floats an exact float sum
/// of the same rows gives.
#[inline]
fn unpack(v: u64) -> (usize, [f64; 2]) {
    (
        (v >> (2 * PACK_BITS)) as usize,
        [
            ((v >> PACK_BITS) & PACK_MASK) as f64,
            (v & PACK_MASK) as f64,
        ],
    )
}

/// Copies of the packed histogram of [`Workspace::eval_binned`] in a
/// large node: row `i` adds to copy `i % HIST_COPIES`, so consecutive
/// rows with the same code (capital-gain 0 on adult) do not wait on each
/// other's sums; the copies are added up afterwards (integers: the same
/// sums).
const HIST_COPIES: usize = 4;

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

    /// Whether nodes of more than [`SMALL_NODE`] rows keep count blocks
    /// ([`Workspace::count_block`], [`Workspace::split_block`]).
    pub fn uses_blocks(&self) -> bool {
        self.blocks
    }

    /// Counts every binary slot over the rows `samples[start..end]` into
    /// block `pos`.
    pub fn count_block(&mut self, pos: usize, start: usize, end: usize) {
        self.ensure_blocks(pos + 1);
        let nb = 64 * self.data.mw;
        let block = &mut self.buf.block[pos * nb..(pos + 1) * nb];
        block.fill(0);
        let (samples, bits) = (&self.buf.samples[start..end], &self.data.row_bits);
        let packed = &self.buf.packed_row;
        match <&mut [u64; 128]>::try_from(&mut *block) {
            Ok(b) => count_all_packed::<2, 128>(samples, bits, packed, b),
            _ => {
                let b = <&mut [u64; 64]>::try_from(block).expect("one bitmask word");
                count_all_packed::<1, 64>(samples, bits, packed, b);
            }
        }
    }

    /// After the node with block `at` was split into `samples[start..mid]`
    /// (left) and `samples[mid..end]` (right), gives the right child block
    /// `at` and the left child block `at + 1` (their stack positions),
    /// where wanted: the smaller side is counted, the larger one is the
    /// node's block minus it.
    pub fn split_block(
        &mut self,
        at: usize,
        (start, mid, end): (usize, usize, usize),
        want_left: bool,
        want_right: bool,
    ) {
        let left_smaller = mid - start <= end - mid;
        let (lo, hi, want_larger) = if left_smaller {
            (start, mid, want_right)
        } else {
            (mid, end, want_left)
        };
        if !want_larger {
            if want_left || want_right {
                self.count_block(if left_smaller { at + 1 } else { at }, lo, hi);
            }
            return;
        }
        self.count_block(at + 1, lo, hi);
        // (Only the first `n_binary` slots of a block are used. A child's
        // fields are at most the node's, so the packed difference is the
        // difference of each field.)
        let (nb, used) = (64 * self.data.mw, self.data.n_binary);
        let (node, child) = self.buf.block[at * nb..(at + 2) * nb].split_at_mut(nb);
        let (node, child) = (&mut node[..used], &mut child[..used]);
        if left_smaller {
            // Right = node − left, in the node's place.
            node.iter_mut().zip(&*child).for_each(|(p, c)| *p -= c);
        } else {
            // The right side was counted: it takes the node's place, the
            // left = node − right the next.
            for (p, c) in node.iter_mut().zip(child) {
                (*p, *c) = (*c, *p - *c);
            }
        }
    }

    /// Room for count blocks at stack positions `0..positions`.
    fn ensure_blocks(&mut self, positions: usize) {
        let nb = 64 * self.data.mw;
        if self.buf.block.len() < positions * nb {
            self.buf.block.resize(positions * nb, 0);
        }
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

    /// Scans feature `f`; returns false when it is constant in the node.
    fn eval_feature(
        &mut self,
        f: usize,
        start: usize,
        end: usize,
        tot: &Totals,
        mwl: f64,
        best: &mut Best,
    ) -> bool {
        let msl = self.cfg.min_samples_leaf;
        match self.data.class[f] {
            FeatureClass::Constant => false,
            FeatureClass::Binary {
                slot,
                lo,
                hi,
                bit_is_hi,
            } => {
                if self.node_block.is_none() && self.buf.bin_stamp[slot] != self.stamp {
                    // Not counted with the node's first draws: with every
                    // feature, count all slots at once; else (scikit-learn's
                    // draws, or drawn after the first ones were all
                    // constant, typically in small nodes) this one.
                    if self.all_features {
                        let nb = self.data.n_binary;
                        for (q, m) in self.buf.count_mask.iter_mut().enumerate() {
                            *m = if nb >= 64 * (q + 1) {
                                !0
                            } else {
                                (1 << (nb - 64 * q)) - 1
                            };
                        }
                    } else {
                        self.buf.count_mask.iter_mut().for_each(|m| *m = 0);
                        self.buf.count_mask[slot >> 6] |= 1 << (slot & 63);
                    }
                    self.count_binary(start, end);
                }
                let m_node = end - start;
                let d = self.d;
                let unpacked;
                let (nb, bit) = match self.node_block {
                    Some(pos) => {
                        let (n, sums) = unpack(self.buf.block[pos * 64 * self.data.mw + slot]);
                        unpacked = sums;
                        (n, &unpacked[..])
                    }
                    None => (
                        self.buf.bin_n[slot] as usize,
                        &self.buf.bin_stats[slot * d..(slot + 1) * d],
                    ),
                };
                if nb == 0 || nb == m_node {
                    return false;
                }
                let n_left = if bit_is_hi { m_node - nb } else { nb };
                if n_left < msl || m_node - n_left < msl {
                    return true;
                }
                match self.target {
                    TargetRef::Classes { .. } => {
                        let mut wl = 0.0;
                        for ((l, &b), &t) in self.buf.left.iter_mut().zip(bit).zip(tot.stats.iter())
                        {
                            *l = if bit_is_hi { t - b } else { b };
                            wl += *l;
                        }
                        let wr = tot.w - wl;
                        if wl < mwl || wr < mwl {
                            return true;
                        }
                        let proxy =
                            class_proxy(self.cfg.entropy, &self.buf.left, &tot.stats, wl, wr);
                        best.offer(proxy, f, (lo, hi), n_left, first_two(&self.buf.left));
                    }
                    TargetRef::Values(_) => {
                        let (bw, bs) = (bit[0], bit[1]);
                        let (wl, sl) = if bit_is_hi {
                            (tot.w - bw, tot.stats[0] - bs)
                        } else {
                            (bw, bs)
                        };
                        let wr = tot.w - wl;
                        if wl < mwl || wr < mwl {
                            return true;
                        }
                        let sr = tot.stats[0] - sl;
                        let proxy = sl * sl / wl + sr * sr / wr;
                        best.offer(proxy, f, (lo, hi), n_left, [wl, sl]);
                    }
                }
                true
            }
            FeatureClass::Binned { slot } => self.eval_binned(f, slot, start, end, tot, mwl, best),
            FeatureClass::Sorted { slot } => {
                if !self.lists_valid {
                    self.sort_segment(slot, start, end);
                }
                let base = slot * self.m;
                let seg = &self.buf.lists[base + start..base + end];
                let first = seg[0].0 as f64;
                let last = seg[seg.len() - 1].0 as f64;
                if last <= first + FEATURE_THRESHOLD {
                    return false;
                }
                let w = self.weights;
                match self.target {
                    TargetRef::Classes { k: 2, .. } if !self.cfg.entropy => {
                        match pairs_of(self.packed, &self.buf.pair, &self.buf.packed_row) {
                            Pairs::Float(p) => scan_gini2(seg, |r| p[r], tot, msl, mwl, best, f),
                            Pairs::Packed(p) => {
                                let get = |r: usize| unpack(p[r]).1;
                                scan_gini2(seg, get, tot, msl, mwl, best, f)
                            }
                        }
                    }
                    TargetRef::Classes { y, .. } => {
                        let ent = self.cfg.entropy;
                        scan_class(seg, y, w, tot, ent, msl, mwl, &mut self.buf.left, best, f)
                    }
                    TargetRef::Values(_) => {
                        scan_values(seg, &self.buf.pair, tot, msl, mwl, best, f)
                    }
                }
                true
            }
        }
    }

    /// For every binary slot in `count_mask`, the weighted statistics
    /// (class weights, or `[Σw, Σwy]`) and the count of the node's rows
    /// holding the marked value, summed in the node's row order, in one
    /// pass over the rows' bitmasks.
    fn count_binary(&mut self, start: usize, end: usize) {
        let d = self.d;
        let stamp = self.stamp;
        let mask = &self.buf.count_mask;
        for (q, &word) in mask.iter().enumerate() {
            let mut m = word;
            while m != 0 {
                let s = q * 64 + m.trailing_zeros() as usize;
                m &= m - 1;
                self.buf.bin_stamp[s] = stamp;
                self.buf.bin_n[s] = 0;
                if d == 2 {
                    // (`fill` on two values calls memset.)
                    self.buf.bin_stats[2 * s] = 0.0;
                    self.buf.bin_stats[2 * s + 1] = 0.0;
                } else {
                    self.buf.bin_stats[s * d..(s + 1) * d].fill(0.0);
                }
            }
        }
        let data = self.data;
        let (mw, n_binary) = (data.mw, data.n_binary);
        let bits = &data.row_bits;
        let samples = &self.buf.samples[start..end];
        // A node's rows are in increasing row order (the root's are, and
        // stable partitions keep it), so the rows of a slot's column
        // bitmask within the node come in the node's order: for a large
        // node, scanning the counted slots' columns over the node's span
        // of rows costs less than visiting every row.
        debug_assert!(samples.windows(2).all(|p| p[0] < p[1]));
        let (lo, hi) = match (samples.first(), samples.last()) {
            (Some(&a), Some(&b)) => (a as usize >> 6, b as usize >> 6),
            _ => return,
        };
        let n_counted: usize = mask.iter().map(|m| m.count_ones() as usize).sum();
        if n_counted * (hi - lo + 1) <= COLUMN_SCAN_RATIO * samples.len() {
            self.count_binary_columns(start, end, lo, hi);
            return;
        }
        let stats: &mut [f64] = &mut self.buf.bin_stats;
        let counts: &mut [u32] = &mut self.buf.bin_n;
        if d == 2 && mw <= 2 {
            let m = u128::from(mask[0]) | mask.get(1).map_or(0, |&h| u128::from(h) << 64);
            match (
                pairs_of(self.packed, &self.buf.pair, &self.buf.packed_row),
                mw,
            ) {
                (Pairs::Float(p), 2) => {
                    count_rows_pair::<2>(samples, bits, m, |r| p[r], stats, counts, n_binary)
                }
                (Pairs::Float(p), _) => {
                    count_rows_pair::<1>(samples, bits, m, |r| p[r], stats, counts, n_binary)
                }
                (Pairs::Packed(p), 2) => {
                    let get = |r: usize| unpack(p[r]).1;
                    count_rows_pair::<2>(samples, bits, m, get, stats, counts, n_binary)
                }
                (Pairs::Packed(p), _) => {
                    let get = |r: usize| unpack(p[r]).1;
                    count_rows_pair::<1>(samples, bits, m, get, stats, counts, n_binary)
                }
            }
            return;
        }
        let rows = RowStats {
            d,
            pair: pairs_of(self.packed, &self.buf.pair, &self.buf.packed_row),
            y: match self.target {
                TargetRef::Classes { y, .. } => y,
                TargetRef::Values(_) => &[],
            },
            w: self.weights,
        };
        let mut add = |s: usize, r: usize| rows.add(stats, counts, s, r);
        for (i, &r) in samples.iter().enumerate() {
            let r = r as usize;
            let row = &bits[r * mw..(r + 1) * mw];
            // The row's first counted slot, found without branching (a
            // row without one goes to one of 8 spare slots, rotated so
            // consecutive such rows do not wait on each other's sums);
            // most rows have at most one, so the loop below rarely runs.
            // (`count_ones` is not one instruction on baseline x86-64.)
            let mut first = n_binary + (i % SPARE_SLOTS);
            let (mut words, mut multi) = (0u32, 0u64);
            for q in (0..mw).rev() {
                let m = row[q] & mask[q];
                words += u32::from(m != 0);
                multi |= m & m.wrapping_sub(1);
                if m != 0 {
                    first = 64 * q + m.trailing_zeros() as usize;
                }
            }
            add(first, r);
            if words > 1 || multi != 0 {
                let mut skip = true;
                for (q, (&b, &mq)) in row.iter().zip(mask).enumerate() {
                    let mut m = b & mq;
                    if skip && m != 0 {
                        m &= m - 1;
                        skip = false;
                    }
                    while m != 0 {
                        add(64 * q + m.trailing_zeros() as usize, r);
                        m &= m - 1;
                    }
                }
            }
        }
    }

    /// [`Workspace::count_binary`] for a large node: marks the node's rows
    /// in `members` (row words `lo..=hi`), then per counted slot visits the
    /// set bits of its column bitmask and'ed with the members, in row
    /// order.
    fn count_binary_columns(&mut self, start: usize, end: usize, lo: usize, hi: usize) {
        let data = self.data;
        let nw = data.nw;
        let members = &mut self.buf.members;
        for &r in &self.buf.samples[start..end] {
            members[r as usize >> 6] |= 1 << (r & 63);
        }
        let rows = RowStats {
            d: self.d,
            pair: pairs_of(self.packed, &self.buf.pair, &self.buf.packed_row),
            y: match self.target {
                TargetRef::Classes { y, .. } => y,
                TargetRef::Values(_) => &[],
            },
            w: self.weights,
        };
        let (stats, counts) = (&mut self.buf.bin_stats, &mut self.buf.bin_n);
        for (q, &word) in self.buf.count_mask.iter().enumerate() {
            let mut m = word;
            while m != 0 {
                let s = q * 64 + m.trailing_zeros() as usize;
                m &= m - 1;
                let col = &data.col_bits[s * nw + lo..s * nw + hi + 1];
                if rows.d == 2 {
                    // The slot's sums in registers (they start from zero,
                    // so the same additions in the same order).
                    let (mut n, mut s0, mut s1) = (0u32, 0.0f64, 0.0f64);
                    for (k, (&c, &b)) in col.iter().zip(&members[lo..=hi]).enumerate() {
                        let mut x = c & b;
                        while x != 0 {
                            let r = 64 * (lo + k) + x.trailing_zeros() as usize;
                            x &= x - 1;
                            let [a, b] = rows.pair.get(r);
                            n += 1;
                            s0 += a;
                            s1 += b;
                        }
                    }
                    counts[s] = n;
                    stats[2 * s] = s0;
                    stats[2 * s + 1] = s1;
                    continue;
                }
                for (k, (&c, &b)) in col.iter().zip(&members[lo..=hi]).enumerate() {
                    let mut x = c & b;
                    while x != 0 {
                        let r = 64 * (lo + k) + x.trailing_zeros() as usize;
                        x &= x - 1;
                        rows.add(stats, counts, s, r);
                    }
                }
            }
        }
        members[lo..=hi].iter_mut().for_each(|b| *b = 0);
    }

    /// Evaluates a binned feature from the node's histogram over its
    /// codes; returns false when it is constant in the node.
    #[allow(clippy::too_many_arguments)]
    fn eval_binned(
        &mut self,
        f: usize,
        slot: usize,
        start: usize,
        end: usize,
        tot: &Totals,
        mwl: f64,
        best: &mut Best,
    ) -> bool {
        let len = end - start;
        let d = self.d;
        let data = self.data;
        let (pair, w) = (&self.buf.pair, self.weights);
        let y = match self.target {
            TargetRef::Classes { y, .. } => y,
            TargetRef::Values(_) => &[],
        };
        let codes = &data.codes[slot];
        let values = &data.code_values[slot];
        let samples = &self.buf.samples[start..end];
        // Per-code counts and statistics in histograms over all codes
        // (fixed length, so a byte code needs no bounds check), all zero
        // between calls: the codes present, marked in a 256-bit set, are
        // cleared as they are compacted, in increasing order.
        // A node with many rows per code sweeps the codes for the set
        // afterwards instead of marking each row's code (a dependent
        // read-modify-write a row).
        let sweep = len >= 2 * values.len();
        let mut seen = [0u64; MAX_CODES / 64];
        self.buf.present.clear();
        self.buf.pn.clear();
        self.buf.pstats.clear();
        if self.packed {
            // One integer add a row; the codes present and their
            // unpacked sums are compacted as below.
            let hist = &mut self.buf.hist_packed[..HIST_COPIES * MAX_CODES];
            let packed = &self.buf.packed_row;
            if sweep {
                histogram_packed(samples, codes, packed, hist, values.len());
                for (c, &v) in hist[..values.len()].iter().enumerate() {
                    seen[c >> 6] |= u64::from(v != 0) << (c & 63);
                }
            } else {
                let hist = &mut hist[..MAX_CODES];
                for &r in samples {
                    let c = usize::from(codes[r as usize]);
                    seen[c >> 6] |= 1 << (c & 63);
                    hist[c] += packed[r as usize];
                }
            }
            for (q, &word) in seen.iter().enumerate() {
                let mut m = word;
                while m != 0 {
                    let c = 64 * q + m.trailing_zeros() as usize;
                    m &= m - 1;
                    let (n, [a, b]) = unpack(std::mem::take(&mut hist[c]));
                    self.buf.present.push(c as u16);
                    self.buf.pn.push(n as u32);
                    self.buf.pstats.extend([a, b]);
                }
            }
            return self.scan_codes(f, values, len, tot, mwl, best);
        }
        let hist_n = &mut self.buf.hist_n[..MAX_CODES];
        if d == 2 {
            let hist = &mut self.buf.hist[..2 * MAX_CODES];
            if sweep {
                histogram_pair::<false>(samples, codes, pair, hist_n, hist, &mut seen);
            } else {
                histogram_pair::<true>(samples, codes, pair, hist_n, hist, &mut seen);
            }
        } else {
            let hist = &mut self.buf.hist[..d * MAX_CODES];
            for &r in samples {
                let r = r as usize;
                let c = usize::from(codes[r]);
                seen[c >> 6] |= 1 << (c & 63);
                hist_n[c] += 1;
                hist[c * d + y[r] as usize] += w[r];
            }
        }
        if sweep && d == 2 {
            for (c, &k) in hist_n[..values.len()].iter().enumerate() {
                seen[c >> 6] |= u64::from(k > 0) << (c & 63);
            }
        }
        for (q, &word) in seen.iter().enumerate() {
            let mut m = word;
            while m != 0 {
                let c = 64 * q + m.trailing_zeros() as usize;
                m &= m - 1;
                self.buf.present.push(c as u16);
                self.buf.pn.push(hist_n[c]);
                hist_n[c] = 0;
                let h = &mut self.buf.hist[c * d..(c + 1) * d];
                for v in h {
                    self.buf.pstats.push(*v);
                    *v = 0.0;
                }
            }
        }
        self.scan_codes(f, values, len, tot, mwl, best)
    }

    /// The scan of [`Workspace::eval_binned`] over the codes present in
    /// the node (`present`, with their counts `pn` and statistics
    /// `pstats`, `values` the codes' values); returns false when the
    /// feature is constant in the node of `len` rows.
    fn scan_codes(
        &mut self,
        f: usize,
        values: &[f32],
        len: usize,
        tot: &Totals,
        mwl: f64,
        best: &mut Best,
    ) -> bool {
        let d = self.d;
        let (Some(&lo), Some(&hi)) = (self.buf.present.first(), self.buf.present.last()) else {
            return false;
        };
        if (values[hi as usize] as f64) <= (values[lo as usize] as f64) + FEATURE_THRESHOLD {
            return false;
        }
        let msl = self.cfg.min_samples_leaf;
        self.buf.left.iter_mut().for_each(|v| *v = 0.0);
        let mut nl = 0usize;
        for t in 0..self.buf.present.len() {
            if t > 0 {
                let (pc, c) = (
                    self.buf.present[t - 1] as usize,
                    self.buf.present[t] as usize,
                );
                let (a, b) = (values[pc], values[c]);
                if (b as f64) > (a as f64) + FEATURE_THRESHOLD && nl >= msl && len - nl >= msl {
                    if let Some(proxy) = self.proxy_of_left(tot, mwl) {
                        if proxy > best.proxy {
                            best.offer(proxy, f, (a, b), nl, first_two(&self.buf.left));
                            best.code = pc;
                        }
                    }
                }
            }
            nl += self.buf.pn[t] as usize;
            for j in 0..d {
                self.buf.left[j] += self.buf.pstats[t * d + j];
            }
        }
        true
    }

    /// The proxy improvement of sending the rows summarised in `self.buf.left`
    /// (class weights, or `[Σw, Σwy]`) left, if both sides keep enough
    /// weight.
    #[inline]
    fn proxy_of_left(&self, tot: &Totals, mwl: f64) -> Option<f64> {
        match self.target {
            TargetRef::Classes { .. } => {
                let wl: f64 = self.buf.left.iter().sum();
                let wr = tot.w - wl;
                if wl < mwl || wr < mwl {
                    return None;
                }
                Some(class_proxy(
                    self.cfg.entropy,
                    &self.buf.left,
                    &tot.stats,
                    wl,
                    wr,
                ))
            }
            TargetRef::Values(_) => {
                let (wl, sl) = (self.buf.left[0], self.buf.left[1]);
                let wr = tot.w - wl;
                if wl < mwl || wr < mwl {
                    return None;
                }
                let sr = tot.stats[0] - sl;
                Some(sl * sl / wl + sr * sr / wr)
            }
        }
    }

    /// Marks which rows of the node go left under `best`, moves them to
    /// the front of the node's rows (stably), and returns their number and
    /// the weighted totals of both sides (summed afresh, in order of the
    /// rows' lists, unless sums are exact: then the left side is the one
    /// the scan found and the right side the rest of `tot`). The marks
    /// (`goes_left`) of the node's rows are left set where `keep_marks`
    /// (the presorted lists are partitioned next) or the split feature is
    /// a sorted one.
    pub fn mark(
        &mut self,
        start: usize,
        end: usize,
        best: &Best,
        tot: &Totals,
        keep_marks: bool,
    ) -> (usize, Totals, Totals) {
        let data = self.data;
        if let FeatureClass::Sorted { slot } = data.class[best.feature] {
            // The split is a prefix of the feature's sorted rows.
            let base = slot * self.m;
            let seg = &self.buf.lists[base + start..base + end];
            for (i, &(_, r)) in seg.iter().enumerate() {
                self.buf.goes_left[r as usize] = i < best.n_left;
            }
        }
        // Applies `$then` to the side function of the split feature.
        macro_rules! by_side {
            ($then:expr) => {
                match data.class[best.feature] {
                    FeatureClass::Sorted { .. } => $then(|marks: &[bool], r: usize| marks[r]),
                    FeatureClass::Binary {
                        slot, bit_is_hi, ..
                    } => {
                        let col = data.col_bits_of(slot);
                        $then(|_: &[bool], r: usize| {
                            ((col[r >> 6] >> (r & 63)) & 1 != 0) != bit_is_hi
                        })
                    }
                    FeatureClass::Binned { slot } => {
                        let (codes, code) = (&data.codes[slot], best.code);
                        $then(|_: &[bool], r: usize| (codes[r] as usize) <= code)
                    }
                    FeatureClass::Constant => {
                        let (x, t) = (&data.cols[best.feature], best.threshold);
                        $then(|_: &[bool], r: usize| (x[r] as f64) <= t)
                    }
                }
            };
        }
        // (Sorted: the marks are set already.)
        let write_marks =
            keep_marks && !matches!(data.class[best.feature], FeatureClass::Sorted { .. });
        let (n_left, left, right) = if self.exact {
            // (The split's count is exact: the scan counted it.)
            let n_left = best.n_left;
            if write_marks {
                by_side!(|side| self.partition_rows::<true>((start, end), n_left, side))
            } else {
                by_side!(|side| self.partition_rows::<false>((start, end), n_left, side))
            };
            let [l0, l1] = best.left;
            let (r0, r1) = (tot.stats[0] - l0, tot.stats[1] - l1);
            let (left, right) = two_class_sides([l0, l1], [r0, r1]);
            (n_left, left, right)
        } else {
            by_side!(|side| self.mark_sides(start, end, side))
        };
        debug_assert!(self.buf.samples[start..end]
            .iter()
            .enumerate()
            .all(|(i, &r)| {
                let r = r as usize;
                (i < n_left) == ((data.cols[best.feature][r] as f64) <= best.threshold)
            }));
        (n_left, left, right)
    }

    /// Stably partitions the rows of the node `samples[start..end]`, of
    /// which `n_left` have `goes_left(marks, row)`, into the same range of
    /// the other row buffer (those going left first, each side in row
    /// order) and makes that buffer the current one
    /// ([`Workspace::rows_buffer`]); with `MARKS`, records each row's side
    /// in the marks (`goes_left`).
    fn partition_rows<const MARKS: bool>(
        &mut self,
        (start, end): (usize, usize),
        n_left: usize,
        goes_left: impl Fn(&[bool], usize) -> bool,
    ) {
        let seg = &self.buf.samples[start..end];
        let out = &mut self.buf.alt[start..end];
        let marks = &mut self.buf.goes_left;
        let (mut l, mut r) = (0, n_left);
        for &row in seg {
            let left = goes_left(marks, row as usize);
            if MARKS {
                marks[row as usize] = left;
            }
            out[if left { l } else { r }] = row;
            l += usize::from(left);
            r += usize::from(!left);
        }
        debug_assert_eq!((l, r), (n_left, seg.len()));
        std::mem::swap(&mut self.buf.samples, &mut self.buf.alt);
        self.alt_current = !self.alt_current;
    }

    /// Which of the two row buffers holds the current node's rows (a
    /// split moves them to the other one when sums are exact); the
    /// builder records it with each pending node.
    pub fn rows_buffer(&self) -> bool {
        self.alt_current
    }

    /// Makes `buffer` (a value of [`Workspace::rows_buffer`]) the current
    /// row buffer.
    pub fn use_rows_buffer(&mut self, buffer: bool) {
        if buffer != self.alt_current {
            std::mem::swap(&mut self.buf.samples, &mut self.buf.alt);
            self.alt_current = buffer;
        }
    }

    /// Records `goes_left(marks, row)` of every row of the node in the
    /// marks (`self.buf.goes_left`, which the function may read), stably
    /// partitions the node's rows (`samples`) by it in the same pass, and
    /// returns the number going left and the weighted totals of both
    /// sides, each summed in row-list order (`v · 0.0` adds an exact zero).
    fn mark_sides(
        &mut self,
        start: usize,
        end: usize,
        goes_left: impl Fn(&[bool], usize) -> bool,
    ) -> (usize, Totals, Totals) {
        let seg = &mut self.buf.samples[start..end];
        let tmp = &mut self.buf.tmp[..seg.len()];
        let gl = &mut self.buf.goes_left;
        let (w, pair) = (self.weights, &self.buf.pair);
        let n_left;
        let (left, right) = match self.target {
            TargetRef::Classes { k: 2, .. } => {
                let (mut l0, mut l1, mut r0, mut r1) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
                n_left = split_rows(seg, tmp, gl, goes_left, |r, left| {
                    let g = f64::from(u8::from(left));
                    let h = 1.0 - g;
                    let [a, b] = pair[r];
                    l0 += a * g;
                    l1 += b * g;
                    r0 += a * h;
                    r1 += b * h;
                });
                two_class_sides([l0, l1], [r0, r1])
            }
            TargetRef::Classes { y, k } => {
                let mut sides = [Stats::zeros(k), Stats::zeros(k)];
                n_left = split_rows(seg, tmp, gl, goes_left, |r, left| {
                    sides[usize::from(!left)][y[r] as usize] += w[r];
                });
                let [l, r] = sides;
                (
                    Totals {
                        w: l.iter().sum(),
                        stats: l,
                        sq: 0.0,
                    },
                    Totals {
                        w: r.iter().sum(),
                        stats: r,
                        sq: 0.0,
                    },
                )
            }
            TargetRef::Values(y) => {
                let mut acc = [0.0f64; 6];
                n_left = split_rows(seg, tmp, gl, goes_left, |r, left| {
                    let g = f64::from(u8::from(left));
                    let h = 1.0 - g;
                    let [wr, wy] = pair[r];
                    let wyy = wy * y[r];
                    acc[0] += wr * g;
                    acc[1] += wy * g;
                    acc[2] += wyy * g;
                    acc[3] += wr * h;
                    acc[4] += wy * h;
                    acc[5] += wyy * h;
                });
                (
                    Totals {
                        w: acc[0],
                        stats: Stats::from_slice(&[acc[1]]),
                        sq: acc[2],
                    },
                    Totals {
                        w: acc[3],
                        stats: Stats::from_slice(&[acc[4]]),
                        sq: acc[5],
                    },
                )
            }
        };
        (n_left, left, right)
    }

    /// Writes the node's segment of sorted slot `slot`'s list afresh: its
    /// rows ordered by rank, which is the order the presorted list keeps
    /// (value, then row). Ranks are distinct and below `n`, so a node of
    /// at least [`RANK_BITMAP_ROWS`] rows sets them in a bitmap over all
    /// ranks and reads them back in order (linear in the rows plus `n /
    /// 64` words) instead of sorting them.
    fn sort_segment(&mut self, slot: usize, start: usize, end: usize) {
        let ranks = &self.data.ranks[slot];
        let order = &self.data.orders[slot];
        let base = slot * self.m;
        let out = &mut self.buf.lists[base + start..base + end];
        if end - start >= RANK_BITMAP_ROWS {
            let seen = &mut self.buf.rank_bits;
            for &r in &self.buf.samples[start..end] {
                let k = ranks[r as usize] as usize;
                seen[k >> 6] |= 1 << (k & 63);
            }
            let mut i = 0;
            for (q, word) in seen.iter_mut().enumerate() {
                let mut x = std::mem::take(word);
                while x != 0 {
                    out[i] = order[64 * q + x.trailing_zeros() as usize];
                    x &= x - 1;
                    i += 1;
                }
            }
            return;
        }
        let keys = &mut self.buf.tmp[start..end];
        for (k, &r) in keys.iter_mut().zip(&self.buf.samples[start..end]) {
            *k = ranks[r as usize];
        }
        keys.sort_unstable();
        for (e, &k) in out.iter_mut().zip(keys.iter()) {
            *e = order[k as usize];
        }
    }

    /// Stably partitions every presorted row list of the node by the marks
    /// of the last [`Workspace::mark`] (which partitioned the node's rows);
    /// the list of the split feature is already partitioned.
    pub fn partition_lists(&mut self, start: usize, end: usize, feature: usize) {
        let skip = match self.data.class[feature] {
            FeatureClass::Sorted { slot } => Some(slot),
            _ => None,
        };
        for slot in 0..self.data.orders.len() {
            if Some(slot) == skip {
                continue;
            }
            let base = slot * self.m;
            stable_partition(
                &mut self.buf.lists[base + start..base + end],
                &self.buf.goes_left,
                &mut self.buf.tmp_entries,
            );
        }
    }
}

/// The totals of the two sides of a two-class split from their class
/// weights `[w · [y = 0], w · [y = 1]]`.
fn two_class_sides(left: [f64; 2], right: [f64; 2]) -> (Totals, Totals) {
    let side = |[a, b]: [f64; 2]| Totals {
        w: a + b,
        stats: Stats::from_slice(&[a, b]),
        sq: 0.0,
    };
    (side(left), side(right))
}

/// The histogram pass of [`Workspace::eval_binned`] for two statistics a
/// row (`pair`): per code, the count and the sums of the rows holding it,
/// in row order; with `MARK`, the codes seen are also set in `seen`.
fn histogram_pair<const MARK: bool>(
    samples: &[u32],
    codes: &[u8],
    pair: &[[f64; 2]],
    hist_n: &mut [u32],
    hist: &mut [f64],
    seen: &mut [u64; MAX_CODES / 64],
) {
    let hist_n = &mut hist_n[..MAX_CODES];
    let hist = &mut hist[..2 * MAX_CODES];
    for &r in samples {
        let r = r as usize;
        let c = usize::from(codes[r]);
        let [a, b] = pair[r];
        if MARK {
            seen[c >> 6] |= 1 << (c & 63);
        }
        hist_n[c] += 1;
        hist[2 * c] += a;
        hist[2 * c + 1] += b;
    }
}

/// The packed histogram of [`Workspace::eval_binned`] in a node with
/// many rows per code: row `i` adds its packed statistics to copy `i %
/// HIST_COPIES` of `hist` (copies of `MAX_CODES`), and the copies of the
/// first `n_codes` codes are then added into the first (integers: the
/// same sums in any order) and cleared.
fn histogram_packed(
    samples: &[u32],
    codes: &[u8],
    packed: &[u64],
    hist: &mut [u64],
    n_codes: usize,
) {
    let hist: &mut [u64; HIST_COPIES * MAX_CODES] = (&mut hist[..HIST_COPIES * MAX_CODES])
        .try_into()
        .expect("histogram copies");
    let mut chunks = samples.chunks_exact(HIST_COPIES);
    for chunk in &mut chunks {
        for (k, &r) in chunk.iter().enumerate() {
            let c = usize::from(codes[r as usize]);
            hist[k * MAX_CODES + c] += packed[r as usize];
        }
    }
    for &r in chunks.remainder() {
        hist[usize::from(codes[r as usize])] += packed[r as usize];
    }
    let (first, rest) = hist.split_at_mut(MAX_CODES);
    for copy in rest.chunks_exact_mut(MAX_CODES) {
        for (h, c) in first[..n_codes].iter_mut().zip(&mut copy[..n_codes]) {
            *h += std::mem::take(c);
        }
    }
}

/// Stably moves the rows of `seg` with `goes_left(marks, row)` to its
/// front (those going right wait in `tmp`, as long as `seg`), records
/// each row's side in `marks`, and calls `visit(row, left)` for every row
/// in order; returns the number going left. The sides of a block of rows
/// are found before the block is moved, so their loads overlap and the
/// moving loop keeps its sums in registers.
#[inline(always)]
fn split_rows(
    seg: &mut [u32],
    tmp: &mut [u32],
    marks: &mut [bool],
    goes_left: impl Fn(&[bool], usize) -> bool,
    mut visit: impl FnMut(usize, bool),
) -> usize {
    const BLOCK: usize = 64;
    let mut rows = [0u32; BLOCK];
    let mut sides = [false; BLOCK];
    let (mut n_left, mut n_right) = (0, 0);
    for base in (0..seg.len()).step_by(BLOCK) {
        let len = BLOCK.min(seg.len() - base);
        // (Copied in this loop rather than by `copy_from_slice`: a call to
        // memcpy per block, with a size branch it mispredicts.)
        for ((side, slot), &row) in sides.iter_mut().zip(&mut rows).zip(&seg[base..base + len]) {
            let r = row as usize;
            let left = goes_left(marks, r);
            marks[r] = left;
            *side = left;
            *slot = row;
        }
        // Writes go to `seg[..=base + i]`, already copied to `rows`.
        for (&row, &left) in rows[..len].iter().zip(&sides) {
            seg[n_left] = row;
            tmp[n_right] = row;
            n_left += usize::from(left);
            n_right += usize::from(!left);
            visit(row as usize, left);
        }
    }
    seg[n_left..].copy_from_slice(&tmp[..n_right]);
    n_left
}

/// The row pass of [`Workspace::count_binary`] for two statistics a row
/// (`pair`: two classes, or a real target) and at most 128 binary slots
/// (`MW` ≤ 2 bitmask words a row, `mask` the counted slots): each row is
/// added to every counted slot it holds, in the node's row order, and a
/// row holding none to one of the spare slots after `n_binary` (rotated,
/// so consecutive such rows do not wait on each other's sums).
fn count_rows_pair<const MW: usize>(
    samples: &[u32],
    bits: &[u64],
    mask: u128,
    pair: impl Fn(usize) -> [f64; 2],
    stats: &mut [f64],
    counts: &mut [u32],
    n_binary: usize,
) {
    for (i, &r) in samples.iter().enumerate() {
        let r = r as usize;
        let row = &bits[r * MW..r * MW + MW];
        let mut x = u128::from(row[0]);
        if MW == 2 {
            x |= u128::from(row[1]) << 64;
        }
        x &= mask;
        let spare = n_binary + i % SPARE_SLOTS;
        let s = if x == 0 {
            spare
        } else {
            x.trailing_zeros() as usize
        };
        let [a, b] = pair(r);
        counts[s] += 1;
        stats[2 * s] += a;
        stats[2 * s + 1] += b;
        // Most rows hold at most one counted slot.
        let mut rest = x & x.wrapping_sub(1);
        while rest != 0 {
            let s = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            counts[s] += 1;
            stats[2 * s] += a;
            stats[2 * s + 1] += b;
        }
    }
}

/// Counts every binary slot over `samples` for packed rows (`packed`,
/// [`pack`]) and `MW` bitmask words a row (`S` = 64 · `MW` slots): per
/// slot, the packed sum of the rows holding it (one integer add a row
/// and slot).
fn count_all_packed<const MW: usize, const S: usize>(
    samples: &[u32],
    bits: &[u64],
    packed: &[u64],
    block: &mut [u64; S],
) {
    for &r in samples {
        let r = r as usize;
        let v = packed[r];
        for (q, &word) in bits[r * MW..r * MW + MW].iter().enumerate() {
            let mut x = word;
            while x != 0 {
                // (Below S: no bounds check.)
                let s = (64 * q + x.trailing_zeros() as usize) & (S - 1);
                x &= x - 1;
                block[s] += v;
            }
        }
    }
}

/// The row an entry of a row list refers to.
trait RowOf {
    fn row(&self) -> usize;
}

impl RowOf for u32 {
    #[inline]
    fn row(&self) -> usize {
        *self as usize
    }
}

impl RowOf for Entry {
    #[inline]
    fn row(&self) -> usize {
        self.1 as usize
    }
}

/// Moves the rows marked left to the front, keeping the order on both
/// sides.
fn stable_partition<T: Copy + RowOf>(seg: &mut [T], goes_left: &[bool], tmp: &mut [T]) {
    let mut l = 0;
    let mut r = 0;
    for i in 0..seg.len() {
        let s = seg[i];
        let gl = goes_left[s.row()];
        seg[l] = s;
        tmp[r] = s;
        l += gl as usize;
        r += (!gl) as usize;
    }
    seg[l..].copy_from_slice(&tmp[..r]);
}

/// scikit-learn's proxy improvement `−W_r·imp_r − W_l·imp_l` for class
/// counts.
#[inline]
fn class_proxy(entropy: bool, left: &[f64], tot: &[f64], wl: f64, wr: f64) -> f64 {
    if entropy {
        let mut hl = 0.0;
        let mut hr = 0.0;
        for (&l, &t) in left.iter().zip(tot) {
            let pl = l / wl;
            if pl > 0.0 {
                hl -= pl * pl.log2();
            }
            let pr = (t - l) / wr;
            if pr > 0.0 {
                hr -= pr * pr.log2();
            }
        }
        -wr * hr - wl * hl
    } else {
        let mut sql = 0.0;
        let mut sqr = 0.0;
        for (&l, &t) in left.iter().zip(tot) {
            sql += l * l;
            let r = t - l;
            sqr += r * r;
        }
        -wr * (1.0 - sqr / (wr * wr)) - wl * (1.0 - sql / (wl * wl))
    }
}

/// Scan of a sorted feature for two classes under Gini.
#[allow(clippy::too_many_arguments)]
fn scan_gini2(
    seg: &[Entry],
    pair: impl Fn(usize) -> [f64; 2],
    tot: &Totals,
    msl: usize,
    mwl: f64,
    best: &mut Best,
    f: usize,
) {
    let m = seg.len();
    let (t0, t1) = (tot.stats[0], tot.stats[1]);
    // Per-class sums; `pair[r]` holds `w` in the row's class and an exact
    // zero in the other, so the sums equal per-class accumulation and
    // `a + b` is `w` exactly.
    let (mut l0, mut l1) = (0.0f64, 0.0f64);
    let mut wl = 0.0;
    // Division-free screen: proxy = S − (W_l + W_r) with S = sql/wl +
    // sqr/wr, so a candidate can beat the best only if S · wl · wr ≥
    // (best + W − margin) · wl · wr; the margin (1e-12 · W) dwarfs the
    // rounding of either side, and survivors are compared with
    // scikit-learn's exact proxy.
    let margin = 1e-12 * tot.w;
    let mut floor = best.proxy + tot.w - margin;
    for i in 0..m - 1 {
        let (cur, r) = seg[i];
        let [a, b] = pair(r as usize);
        l0 += a;
        l1 += b;
        wl += a + b;
        let xn = seg[i + 1].0;
        let nl = i + 1;
        if nl < msl {
            continue;
        }
        if m - nl < msl {
            break;
        }
        if (xn as f64) <= (cur as f64) + FEATURE_THRESHOLD {
            continue;
        }
        let wr = tot.w - wl;
        if wl < mwl || wr < mwl {
            continue;
        }
        let (r0, r1) = (t0 - l0, t1 - l1);
        let sql = l0 * l0 + l1 * l1;
        let sqr = r0 * r0 + r1 * r1;
        if sql * wr + sqr * wl < floor * (wl * wr) {
            continue;
        }
        let proxy = -wr * (1.0 - sqr / (wr * wr)) - wl * (1.0 - sql / (wl * wl));
        if proxy > best.proxy {
            best.offer(proxy, f, (cur, xn), nl, [l0, l1]);
            floor = best.proxy + tot.w - margin;
        }
    }
}

/// Scan of a sorted feature for any number of classes.
#[allow(clippy::too_many_arguments)]
fn scan_class(
    seg: &[Entry],
    y: &[u32],
    w: &[f64],
    tot: &Totals,
    entropy: bool,
    msl: usize,
    mwl: f64,
    left: &mut [f64],
    best: &mut Best,
    f: usize,
) {
    let m = seg.len();
    left.iter_mut().for_each(|v| *v = 0.0);
    let mut wl = 0.0;
    for i in 0..m - 1 {
        let (cur, r) = seg[i];
        let r = r as usize;
        let wi = w[r];
        left[y[r] as usize] += wi;
        wl += wi;
        let xn = seg[i + 1].0;
        let nl = i + 1;
        if nl < msl {
            continue;
        }
        if m - nl < msl {
            break;
        }
        if (xn as f64) <= (cur as f64) + FEATURE_THRESHOLD {
            continue;
        }
        let wr = tot.w - wl;
        if wl < mwl || wr < mwl {
            continue;
        }
        let proxy = class_proxy(entropy, left, &tot.stats, wl, wr);
        best.offer(proxy, f, (cur, xn), nl, first_two(left));
    }
}

/// Scan of a sorted feature for a real target (squared error).
#[allow(clippy::too_many_arguments)]
fn scan_values(
    seg: &[Entry],
    pair: &[[f64; 2]],
    tot: &Totals,
    msl: usize,
    mwl: f64,
    best: &mut Best,
    f: usize,
) {
    let m = seg.len();
    let s_tot = tot.stats[0];
    let mut sl = 0.0;
    let mut wl = 0.0;
    // Division-free screen as in `scan_gini2`: a candidate can beat the
    // best proxy P only if sl² · wr + sr² · wl ≥ (P − margin) · wl · wr.
    let screen = |p: f64| p - (1e-12 * p.abs() + 1e-300);
    let mut floor = screen(best.proxy);
    for i in 0..m - 1 {
        let (cur, r) = seg[i];
        let [wi, wy] = pair[r as usize];
        sl += wy;
        wl += wi;
        let xn = seg[i + 1].0;
        let nl = i + 1;
        if nl < msl {
            continue;
        }
        if m - nl < msl {
            break;
        }
        if (xn as f64) <= (cur as f64) + FEATURE_THRESHOLD {
            continue;
        }
        let wr = tot.w - wl;
        if wl < mwl || wr < mwl {
            continue;
        }
        let sr = s_tot - sl;
        if sl * sl * wr + sr * sr * wl < floor * (wl * wr) {
            continue;
        }
        let proxy = sl * sl / wl + sr * sr / wr;
        if proxy > best.proxy {
            best.offer(proxy, f, (cur, xn), nl, [wl, sl]);
            floor = screen(best.proxy);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stable_partition_keeps_order() {
        let mut seg: Vec<u32> = vec![5, 1, 4, 2, 3, 0];
        let marks = [true, false, true, false, true, false];
        let mut tmp = vec![0u32; 6];
        stable_partition(&mut seg, &marks, &mut tmp);
        assert_eq!(seg, vec![4, 2, 0, 5, 1, 3]);
    }
}
