//! Counting a node's rows: the per-slot counts of the two-valued features
//! (and the count blocks that give a child's counts by subtraction), the
//! per-code histograms of the byte-coded features, and the packed row
//! statistics that make these sums integers.

use crate::data::MAX_CODES;

use super::{TargetRef, Workspace};

/// The two statistics of every row (`[w · [y = 0], w · [y = 1]]` or
/// `[w, w · y]`): stored as floats, or packed ([`pack`]) when sums are
/// packed, which keeps a tree's per-row data smaller in cache.
#[derive(Clone, Copy)]
pub(super) enum Pairs<'a> {
    Float(&'a [[f64; 2]]),
    Packed(&'a [u64]),
}

impl Pairs<'_> {
    /// The statistics of row `r`.
    #[inline(always)]
    pub(super) fn get(self, r: usize) -> [f64; 2] {
        match self {
            Pairs::Float(p) => p[r],
            Pairs::Packed(p) => unpack(p[r]).1,
        }
    }
}

/// [`Pairs`] of a workspace's buffers.
#[inline]
pub(super) fn pairs_of<'a>(packed: bool, pair: &'a [[f64; 2]], packed_row: &'a [u64]) -> Pairs<'a> {
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
    pub(super) fn add(&self, stats: &mut [f64], counts: &mut [u32], s: usize, r: usize) {
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

/// Spare slots after the binary slots' statistics, where
/// [`Workspace::count_binary`] adds rows without a counted slot.
pub(super) const SPARE_SLOTS: usize = 8;

/// Largest total weight for which [`Workspace::exact`] holds: every
/// integer up to it is a float, so sums of whole numbers below it are
/// exact.
const EXACT_TOTAL: f64 = 9_007_199_254_740_992.0; // 2^53

/// The total of `weights` if every weight is a whole number and their
/// sum (in any order) is exact: the float sum of non-negative whole
/// numbers stays exact while it is below 2^53 and, summing on, cannot
/// fall back below it once it is not.
pub(super) fn exact_total(weights: &[f64]) -> Option<f64> {
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
pub(super) const PACKED_TOTAL: f64 = (1u64 << PACK_BITS) as f64;

/// Bits of each of the three fields of a packed row ([`pack`]).
const PACK_BITS: u32 = 21;

/// Mask of one field of a packed row.
const PACK_MASK: u64 = (1 << PACK_BITS) - 1;

/// A row of class weights `[w0, w1]` (whole numbers) as one integer: the
/// count 1 in bits 42–63, `w0` in bits 21–41, `w1` in bits 0–20. Sums of
/// packed rows are the packed sums, field by field, while every field's
/// sum stays below 2^21 ([`PACKED_TOTAL`]).
#[inline]
pub(super) fn pack([w0, w1]: [f64; 2]) -> u64 {
    // (`w + 2^52` holds a whole `w` below 2^52 in its low mantissa bits:
    // cheaper than a cast.)
    let whole = |w: f64| (w + TWO_52).to_bits() - TWO_52.to_bits();
    (1 << (2 * PACK_BITS)) | (whole(w0) << PACK_BITS) | whole(w1)
}

/// The count and class weights of a sum of packed rows; the weights are
/// whole numbers below 2^21, so these are the floats an exact float sum
/// of the same rows gives.
#[inline]
pub(super) fn unpack(v: u64) -> (usize, [f64; 2]) {
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
pub(super) const HIST_COPIES: usize = 4;

/// The histogram pass of [`Workspace::eval_binned`] for two statistics a
/// row (`pair`): per code, the count and the sums of the rows holding it,
/// in row order; with `MARK`, the codes seen are also set in `seen`.
pub(super) fn histogram_pair<const MARK: bool>(
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
pub(super) fn histogram_packed(
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

impl Workspace<'_> {
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

    /// For every binary slot in `count_mask`, the weighted statistics
    /// (class weights, or `[Σw, Σwy]`) and the count of the node's rows
    /// holding the marked value, summed in the node's row order, in one
    /// pass over the rows' bitmasks.
    pub(super) fn count_binary(&mut self, start: usize, end: usize) {
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
}
