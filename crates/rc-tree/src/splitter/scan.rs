//! Scanning one feature of a node for its best threshold: presorted values,
//! byte-code histograms and two-valued counts, scored by scikit-learn's
//! proxy improvement.

use crate::criterion::FEATURE_THRESHOLD;
use crate::data::{Entry, FeatureClass, MAX_CODES};

use super::histogram::{histogram_packed, histogram_pair, pairs_of, unpack, Pairs, HIST_COPIES};
use super::{first_two, Best, Stats, TargetRef, Totals, Workspace};

/// The totals of the two sides of a two-class split from their class
/// weights `[w · [y = 0], w · [y = 1]]`.
pub(super) fn two_class_sides(left: [f64; 2], right: [f64; 2]) -> (Totals, Totals) {
    let side = |[a, b]: [f64; 2]| Totals {
        w: a + b,
        stats: Stats::from_slice(&[a, b]),
        sq: 0.0,
    };
    (side(left), side(right))
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

impl Workspace<'_> {
    /// Scans feature `f`; returns false when it is constant in the node.
    pub(super) fn eval_feature(
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

    /// Evaluates a binned feature from the node's histogram over its
    /// codes; returns false when it is constant in the node.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn eval_binned(
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
}
