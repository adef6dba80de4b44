//! Partitioning a split node's rows between its children: the row list,
//! the presorted lists of the many-valued features, and each row's side.

use crate::data::{Entry, FeatureClass};

use super::scan::two_class_sides;
use super::{Best, Stats, TargetRef, Totals, Workspace};

/// Nodes of at least this many rows order a sorted feature's rows by a
/// bitmap of their ranks rather than by sorting
/// ([`Workspace::sort_segment`]).
const RANK_BITMAP_ROWS: usize = 64;

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

impl Workspace<'_> {
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
    pub(super) fn partition_rows<const MARKS: bool>(
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
    pub(super) fn sort_segment(&mut self, slot: usize, start: usize, end: usize) {
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
