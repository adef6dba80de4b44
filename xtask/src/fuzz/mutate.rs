//! Mutations of one input: byte-level (flip, insert, delete, duplicate,
//! truncate), line-level (duplicate, delete, swap) and token-level (swap
//! two tokens, replace a token by a hostile value or a target's
//! dictionary word, insert one), and splicing two inputs. One to four are
//! stacked per input; every choice comes from the [`Rng`], so the same
//! seed gives the same inputs.

use rulecover_core::Rng;

/// Values that break parsers: quotes, delimiters, NUL, Unicode, numbers at
/// and past every limit, the missing markers, very long fields.
pub const HOSTILE: &[&str] = &[
    "",
    "0",
    "-0",
    "-1",
    "1e308",
    "-1e308",
    "1e309",
    "1e-320",
    "inf",
    "-inf",
    "Infinity",
    "nan",
    "NaN",
    "18446744073709551616",
    "18446744073709551615",
    "9223372036854775808",
    "-9223372036854775809",
    "4294967296",
    "99999999999999999999999999999999999999",
    "0.1e",
    "0x1F",
    "1_000",
    "\"",
    "\"\"",
    "'",
    ",",
    ";",
    "\t",
    "\r\n",
    "\n",
    "\r",
    "\0",
    "\u{feff}",
    "é",
    "\u{1F600}",
    "\u{202e}",
    "NA",
    "?",
    "true",
    "null",
    "[]",
    "{}",
    " ",
    ".",
    "\\",
];

fn pick<'a, T>(rng: &mut Rng, items: &'a [T]) -> &'a T {
    &items[rng.below(items.len())]
}

/// Token boundaries: where a token of CSV, BoostSRL, JSON or an argument
/// list ends.
fn is_separator(b: u8) -> bool {
    matches!(
        b,
        b',' | b'('
            | b')'
            | b'.'
            | b' '
            | b'\t'
            | b'\n'
            | b'\r'
            | b':'
            | b'"'
            | b'['
            | b']'
            | b'{'
            | b'}'
            | b'='
    )
}

/// Byte ranges of the tokens (runs without separators) of `s`.
fn tokens(s: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, &b) in s.iter().enumerate() {
        match (is_separator(b), start) {
            (true, Some(st)) => {
                out.push((st, i));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(st) = start {
        out.push((st, s.len()));
    }
    out
}

/// Byte ranges of the lines of `s`, each with its line end.
fn lines(s: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, &b) in s.iter().enumerate() {
        if b == b'\n' {
            out.push((start, i + 1));
            start = i + 1;
        }
    }
    if start < s.len() {
        out.push((start, s.len()));
    }
    out
}

fn value(rng: &mut Rng, dictionary: &[&str]) -> Vec<u8> {
    match rng.below(10) {
        0 => "A".repeat(1 + rng.below(20_000)).into_bytes(),
        1 => format!("{}", rng.next_u64()).into_bytes(),
        2 => format!("{:e}", f64::from_bits(rng.next_u64())).into_bytes(),
        3..=5 if !dictionary.is_empty() => pick(rng, dictionary).as_bytes().to_vec(),
        _ => pick(rng, HOSTILE).as_bytes().to_vec(),
    }
}

fn one(s: &mut Vec<u8>, other: &[u8], dictionary: &[&str], rng: &mut Rng) {
    let n = s.len();
    match rng.below(14) {
        // Flip a bit.
        0 if n > 0 => {
            let i = rng.below(n);
            s[i] ^= 1 << rng.below(8);
        }
        // Set a byte to an arbitrary value.
        1 if n > 0 => {
            let i = rng.below(n);
            s[i] = rng.next_u64() as u8;
        }
        // Insert a random byte.
        2 => {
            let i = rng.below(n + 1);
            s.insert(i, rng.next_u64() as u8);
        }
        // Delete a range.
        3 if n > 0 => {
            let i = rng.below(n);
            let len = 1 + rng.below((n - i).min(32));
            s.drain(i..i + len);
        }
        // Duplicate a range.
        4 if n > 0 => {
            let i = rng.below(n);
            let len = 1 + rng.below((n - i).min(64));
            let piece = s[i..i + len].to_vec();
            let at = rng.below(s.len() + 1);
            s.splice(at..at, piece);
        }
        // Truncate.
        5 if n > 0 => s.truncate(rng.below(n)),
        // Duplicate a line (many times, now and then).
        6 => {
            let ls = lines(s);
            if let Some(&(a, b)) = (!ls.is_empty()).then(|| pick(rng, &ls)) {
                let times = if rng.below(8) == 0 {
                    1 + rng.below(200)
                } else {
                    1
                };
                let piece = s[a..b].to_vec();
                for _ in 0..times {
                    s.splice(b..b, piece.iter().copied());
                }
            }
        }
        // Delete a line.
        7 => {
            let ls = lines(s);
            if let Some(&(a, b)) = (!ls.is_empty()).then(|| pick(rng, &ls)) {
                s.drain(a..b);
            }
        }
        // Swap two lines.
        8 => {
            let ls = lines(s);
            if ls.len() >= 2 {
                let (i, j) = (rng.below(ls.len()), rng.below(ls.len()));
                let (i, j) = (i.min(j), i.max(j));
                if i != j {
                    let (a, b) = (ls[i], ls[j]);
                    let mut out = s[..a.0].to_vec();
                    out.extend_from_slice(&s[b.0..b.1]);
                    out.extend_from_slice(&s[a.1..b.0]);
                    out.extend_from_slice(&s[a.0..a.1]);
                    out.extend_from_slice(&s[b.1..]);
                    *s = out;
                }
            }
        }
        // Swap two tokens.
        9 => {
            let ts = tokens(s);
            if ts.len() >= 2 {
                let (i, j) = (rng.below(ts.len()), rng.below(ts.len()));
                let (i, j) = (i.min(j), i.max(j));
                if i != j {
                    let (a, b) = (ts[i], ts[j]);
                    let mut out = s[..a.0].to_vec();
                    out.extend_from_slice(&s[b.0..b.1]);
                    out.extend_from_slice(&s[a.1..b.0]);
                    out.extend_from_slice(&s[a.0..a.1]);
                    out.extend_from_slice(&s[b.1..]);
                    *s = out;
                }
            }
        }
        // Replace a token by a hostile value or a dictionary word.
        10 | 11 => {
            let ts = tokens(s);
            let v = value(rng, dictionary);
            if ts.is_empty() {
                s.extend_from_slice(&v);
            } else {
                let &(a, b) = pick(rng, &ts);
                s.splice(a..b, v);
            }
        }
        // Insert a value anywhere.
        12 => {
            let v = value(rng, dictionary);
            let at = rng.below(n + 1);
            s.splice(at..at, v);
        }
        // Splice: a prefix of this input and a suffix of the other.
        _ => {
            let cut = rng.below(n + 1);
            let from = rng.below(other.len() + 1);
            s.truncate(cut);
            s.extend_from_slice(&other[from..]);
        }
    }
}

/// A mutated copy of `base` (`other` is the splice partner).
pub fn mutate(base: &[u8], other: &[u8], dictionary: &[&str], rng: &mut Rng) -> Vec<u8> {
    let mut s = base.to_vec();
    let k = 1 + rng.below(4);
    for _ in 0..k {
        one(&mut s, other, dictionary, rng);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_and_lines() {
        assert_eq!(tokens(b"ab,c(d)"), vec![(0, 2), (3, 4), (5, 6)]);
        assert_eq!(lines(b"a\nbc\nd"), vec![(0, 2), (2, 5), (5, 6)]);
    }

    #[test]
    fn mutations_change_inputs_and_handle_empty_ones() {
        let mut rng = Rng::new(1);
        let mut changed = 0;
        for _ in 0..200 {
            let m = mutate(b"x,y\n1,2\n", b"p(a).\n", &["mode:"], &mut rng);
            changed += usize::from(m != b"x,y\n1,2\n");
            let _ = mutate(b"", b"", &[], &mut rng);
        }
        assert!(changed > 150);
    }
}
