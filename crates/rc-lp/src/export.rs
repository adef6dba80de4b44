//! Text export of a [`Model`] in CPLEX LP and free MPS formats, for debugging with
//! other solvers (CBC, HiGHS, GLPK, SCIP, Gurobi, CPLEX all read both).
//!
//! Names: a variable or row keeps its name when it is non-empty, made only of ASCII
//! letters, digits, `_` and `.`, does not start with a digit, `.` or `e`/`E` (LP
//! exponent syntax) and is unique; otherwise invalid characters become `_`, a
//! leading `_` is added where needed and `_<index>` is appended on a clash.
//! Unnamed items are `x<index>` / `r<index>`. The objective is called `obj`.
//!
//! Ranges: MPS writes them natively (`RANGES` section). The LP format has no
//! portable ranged row, so a range `L <= a·x <= U` becomes two rows
//! `<name>_lo: a·x >= L` and `<name>_hi: a·x <= U`. Rows with no finite bound are
//! written as free (`N`) rows in MPS and omitted from LP.
//!
//! Numbers are written exactly (shortest round-trip representation).

use crate::error::Error;
use crate::model::{Model, Sense, VarKind};
use std::collections::HashSet;
use std::fmt::Write as _;

/// Formats a finite number exactly and compactly (`3`, `-0.5`, `1e-7`).
fn num(v: f64) -> String {
    if v == v.trunc() && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{v:?}")
    }
}

fn sanitize(raw: &str) -> String {
    let mut s: String = raw
        .chars()
        .take(200)
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let needs_prefix = match s.chars().next() {
        None => true,
        Some(c) => c.is_ascii_digit() || c == '.' || c == 'e' || c == 'E',
    };
    if needs_prefix {
        s.insert(0, '_');
    }
    s
}

fn unique_names<'a>(
    raw: impl Iterator<Item = Option<&'a str>>,
    prefix: &str,
    reserved: &[&str],
) -> Vec<String> {
    let mut used: HashSet<String> = reserved.iter().map(|s| s.to_string()).collect();
    let mut out = Vec::new();
    for (i, name) in raw.enumerate() {
        let mut cand = match name {
            Some(n) => sanitize(n),
            None => format!("{prefix}{i}"),
        };
        if used.contains(&cand) {
            cand = format!("{cand}_{i}");
            while used.contains(&cand) {
                cand.push('_');
            }
        }
        used.insert(cand.clone());
        out.push(cand);
    }
    out
}

fn names(model: &Model) -> (Vec<String>, Vec<String>) {
    let vars = unique_names(
        (0..model.num_vars()).map(|j| model.raw_var_name(j)),
        "x",
        &[],
    );
    let rows = unique_names(
        (0..model.num_rows()).map(|i| model.raw_row_name(i)),
        "r",
        &["obj"],
    );
    (vars, rows)
}

/// Appends ` + 2 x + y - 3 z`-style terms, breaking long lines.
fn write_terms<'a>(out: &mut String, terms: impl Iterator<Item = (&'a str, f64)>) {
    let mut count = 0usize;
    for (name, a) in terms {
        if count > 0 && count % 8 == 0 {
            out.push_str("\n   ");
        }
        let sign = if a < 0.0 { "-" } else { "+" };
        let mag = a.abs();
        if count == 0 {
            if a < 0.0 {
                out.push_str(" -");
            }
        } else {
            let _ = write!(out, " {sign}");
        }
        if mag == 1.0 {
            let _ = write!(out, " {name}");
        } else {
            let _ = write!(out, " {} {name}", num(mag));
        }
        count += 1;
    }
    if count == 0 {
        out.push_str(" 0");
    }
}

/// The model in CPLEX LP format.
pub fn to_lp_string(model: &Model) -> String {
    let (vn, rn) = names(model);
    let rows = model.row_entries();
    let mut out = String::new();
    let _ = writeln!(out, "\\ Problem name: {}", sanitize(model.name()));
    out.push_str(match model.sense() {
        Sense::Minimize => "Minimize\n",
        Sense::Maximize => "Maximize\n",
    });
    out.push_str(" obj:");
    write_terms(
        &mut out,
        model
            .vars()
            .iter()
            .enumerate()
            .filter(|(_, v)| v.obj != 0.0)
            .map(|(j, v)| (vn[j].as_str(), v.obj)),
    );
    out.push_str("\nSubject To\n");
    for (i, row) in model.rows().iter().enumerate() {
        let mut line = |suffix: &str, op: &str, rhs: f64| {
            let _ = write!(out, " {}{suffix}:", rn[i]);
            write_terms(
                &mut out,
                rows[i].iter().map(|&(v, a)| (vn[v.index()].as_str(), a)),
            );
            let _ = writeln!(out, " {op} {}", num(rhs));
        };
        match (row.lower.is_finite(), row.upper.is_finite()) {
            (false, false) => {}
            (true, false) => line("", ">=", row.lower),
            (false, true) => line("", "<=", row.upper),
            (true, true) if row.lower == row.upper => line("", "=", row.lower),
            (true, true) => {
                line("_lo", ">=", row.lower);
                line("_hi", "<=", row.upper);
            }
        }
    }
    out.push_str("Bounds\n");
    for (j, v) in model.vars().iter().enumerate() {
        let name = &vn[j];
        if v.kind == VarKind::Binary && v.lower == 0.0 && v.upper == 1.0 {
            continue;
        }
        let (lo, up) = (v.lower, v.upper);
        match (lo.is_finite(), up.is_finite()) {
            (false, false) => {
                let _ = writeln!(out, " {name} free");
            }
            (false, true) => {
                let _ = writeln!(out, " -inf <= {name} <= {}", num(up));
            }
            (true, false) if lo == 0.0 => {}
            (true, false) => {
                let _ = writeln!(out, " {name} >= {}", num(lo));
            }
            (true, true) if lo == up => {
                let _ = writeln!(out, " {name} = {}", num(lo));
            }
            (true, true) => {
                let _ = writeln!(out, " {} <= {name} <= {}", num(lo), num(up));
            }
        }
    }
    for (kind, header) in [
        (VarKind::Integer, "Generals"),
        (VarKind::Binary, "Binaries"),
    ] {
        let list: Vec<&str> = model
            .vars()
            .iter()
            .enumerate()
            .filter(|(_, v)| v.kind == kind)
            .map(|(j, _)| vn[j].as_str())
            .collect();
        if !list.is_empty() {
            let _ = writeln!(out, "{header}");
            for chunk in list.chunks(10) {
                let _ = writeln!(out, " {}", chunk.join(" "));
            }
        }
    }
    out.push_str("End\n");
    out
}

/// The model in MPS format, fields aligned on the fixed-MPS columns (so fixed and
/// free readers both accept it while names fit in 8 characters and numbers in 12;
/// longer ones need a free-MPS reader). Integer columns sit between `MARKER`
/// lines. Maximisation is stated in an `OBJSENSE` section, which CPLEX, Gurobi,
/// HiGHS and SCIP honour but CBC/Clp's reader ignores (run `cbc` with `-max`).
pub fn to_mps_string(model: &Model) -> String {
    let (vn, rn) = names(model);
    let mut out = String::new();
    let _ = writeln!(out, "NAME          {}", sanitize(model.name()));
    if model.sense() == Sense::Maximize {
        out.push_str("OBJSENSE\n    MAX\n");
    }
    out.push_str("ROWS\n N  obj\n");
    for (i, row) in model.rows().iter().enumerate() {
        let t = match (row.lower.is_finite(), row.upper.is_finite()) {
            (false, false) => "N",
            (true, false) => "G",
            (false, true) => "L",
            (true, true) if row.lower == row.upper => "E",
            (true, true) => "L",
        };
        let _ = writeln!(out, " {t}  {}", rn[i]);
    }
    out.push_str("COLUMNS\n");
    let mut in_int = false;
    let mut markers = 0;
    for (j, v) in model.vars().iter().enumerate() {
        let is_int = v.kind != VarKind::Continuous;
        if is_int != in_int {
            let tag = if is_int { "INTORG" } else { "INTEND" };
            let _ = writeln!(
                out,
                "    {:<8}  'MARKER'                 '{tag}'",
                format!("MARKER{markers}")
            );
            markers += 1;
            in_int = is_int;
        }
        let col = model.column(crate::model::VarId(j)).unwrap_or(&[]);
        if v.obj != 0.0 || col.is_empty() {
            field_line(&mut out, "", &vn[j], "obj", Some(v.obj));
        }
        for &(r, a) in col {
            field_line(&mut out, "", &vn[j], &rn[r.index()], Some(a));
        }
    }
    if in_int {
        let _ = writeln!(
            out,
            "    {:<8}  'MARKER'                 'INTEND'",
            format!("MARKER{markers}")
        );
    }
    out.push_str("RHS\n");
    for (i, row) in model.rows().iter().enumerate() {
        let rhs = match (row.lower.is_finite(), row.upper.is_finite()) {
            (false, false) => continue,
            (true, false) => row.lower,
            _ => row.upper,
        };
        if rhs != 0.0 {
            field_line(&mut out, "", "RHS", &rn[i], Some(rhs));
        }
    }
    let ranges: Vec<(usize, f64)> = model
        .rows()
        .iter()
        .enumerate()
        .filter(|(_, r)| r.lower.is_finite() && r.upper.is_finite() && r.lower != r.upper)
        .map(|(i, r)| (i, r.upper - r.lower))
        .collect();
    if !ranges.is_empty() {
        out.push_str("RANGES\n");
        for (i, width) in ranges {
            field_line(&mut out, "", "RNG", &rn[i], Some(width));
        }
    }
    let mut bounds = String::new();
    for (j, v) in model.vars().iter().enumerate() {
        let name = &vn[j];
        let (lo, up) = (v.lower, v.upper);
        if v.kind == VarKind::Binary && lo == 0.0 && up == 1.0 {
            field_line(&mut bounds, "BV", "BND", name, None);
            continue;
        }
        let is_int = v.kind != VarKind::Continuous;
        match (lo.is_finite(), up.is_finite()) {
            (false, false) => {
                field_line(&mut bounds, "FR", "BND", name, None);
            }
            (true, true) if lo == up => {
                field_line(&mut bounds, "FX", "BND", name, Some(lo));
            }
            _ => {
                if lo == f64::NEG_INFINITY {
                    field_line(&mut bounds, "MI", "BND", name, None);
                } else if lo != 0.0 || up < 0.0 {
                    field_line(&mut bounds, "LO", "BND", name, Some(lo));
                }
                if up.is_finite() {
                    field_line(&mut bounds, "UP", "BND", name, Some(up));
                } else if is_int {
                    // Some readers default integer columns to an upper bound of 1.
                    field_line(&mut bounds, "PL", "BND", name, None);
                }
            }
        }
    }
    if !bounds.is_empty() {
        out.push_str("BOUNDS\n");
        out.push_str(&bounds);
    }
    out.push_str("ENDATA\n");
    out
}

/// One MPS data line with fields at the fixed-format columns 2, 5, 15 and 25.
fn field_line(out: &mut String, code: &str, f2: &str, f3: &str, value: Option<f64>) {
    let line = match value {
        Some(v) => format!(" {code:<2} {f2:<8}  {f3:<8}  {:>12}", num(v)),
        None => format!(" {code:<2} {f2:<8}  {f3}"),
    };
    out.push_str(line.trim_end());
    out.push('\n');
}

/// Writes the model in CPLEX LP format to `w`.
pub fn write_lp(model: &Model, mut w: impl std::io::Write) -> Result<(), Error> {
    w.write_all(to_lp_string(model).as_bytes())?;
    Ok(())
}

/// Writes the model in free MPS format to `w`.
pub fn write_mps(model: &Model, mut w: impl std::io::Write) -> Result<(), Error> {
    w.write_all(to_mps_string(model).as_bytes())?;
    Ok(())
}

impl Model {
    /// The model in CPLEX LP format (see [`crate::export`]).
    pub fn to_lp_string(&self) -> String {
        to_lp_string(self)
    }

    /// The model in free MPS format (see [`crate::export`]).
    pub fn to_mps_string(&self) -> String {
        to_mps_string(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_names() {
        assert_eq!(num(3.0), "3");
        assert_eq!(num(-0.5), "-0.5");
        assert_eq!(num(1e-7), "1e-7");
        assert_eq!(num(1e300), "1e300");
        assert_eq!(sanitize("a b+c"), "a_b_c");
        assert_eq!(sanitize("1x"), "_1x");
        assert_eq!(sanitize("e5"), "_e5");
        assert_eq!(sanitize(""), "_");
        let n = unique_names([Some("a"), Some("a"), None].into_iter(), "x", &[]);
        assert_eq!(n, vec!["a", "a_1", "x2"]);
        let n = unique_names([Some("obj")].into_iter(), "r", &["obj"]);
        assert_eq!(n, vec!["obj_0"]);
    }
}
