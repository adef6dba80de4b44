//! The sparse model builder: variables, constraints (rows), objective sense.
//!
//! The constraint matrix is stored column-wise, so adding a column to existing
//! rows ([`Model::add_column`], the core step of column generation) and adding a
//! row ([`Model::add_row`]) are both cheap, and a model can keep growing between
//! solves without being rebuilt.

use crate::error::Error;
use serde::{Deserialize, Serialize};

/// Handle of a variable (a column) of a [`Model`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct VarId(pub(crate) usize);

impl VarId {
    /// Position of the variable in the model (0-based, in creation order); this is the
    /// index into [`LpSolution::primal`](crate::LpSolution::primal) and friends.
    pub fn index(self) -> usize {
        self.0
    }
}

/// Handle of a constraint (a row) of a [`Model`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct RowId(pub(crate) usize);

impl RowId {
    /// Position of the row in the model (0-based, in creation order); this is the index
    /// into [`LpSolution::row_duals`](crate::LpSolution::row_duals).
    pub fn index(self) -> usize {
        self.0
    }
}

/// Optimisation direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Sense {
    /// Minimise the objective.
    Minimize,
    /// Maximise the objective.
    Maximize,
}

/// Domain of a variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum VarKind {
    /// Real-valued.
    Continuous,
    /// Integer with effective bounds `[max(lower, 0), min(upper, 1)]`.
    Binary,
    /// Integer-valued within its bounds.
    Integer,
}

/// Comparison of a constraint `a·x (cmp) rhs`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Cmp {
    /// `a·x <= rhs`
    Le,
    /// `a·x >= rhs`
    Ge,
    /// `a·x == rhs`
    Eq,
}

/// A variable's data: `lower <= x <= upper`, objective coefficient `obj`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Var {
    /// Optional name used by the LP/MPS exporters (default `x<index>`).
    pub name: Option<String>,
    /// Domain of the variable.
    pub kind: VarKind,
    /// Lower bound (`f64::NEG_INFINITY` for none).
    #[serde(with = "rc_json::float")]
    pub lower: f64,
    /// Upper bound (`f64::INFINITY` for none).
    #[serde(with = "rc_json::float")]
    pub upper: f64,
    /// Objective coefficient.
    pub obj: f64,
}

/// A row's data: `lower <= a·x <= upper`. `<=` rows have `lower = -inf`, `>=` rows
/// `upper = +inf`, equalities `lower == upper`, ranges both finite.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// Optional name used by the LP/MPS exporters (default `r<index>`).
    pub name: Option<String>,
    /// Lower bound of the row activity (`f64::NEG_INFINITY` for none).
    #[serde(with = "rc_json::float")]
    pub lower: f64,
    /// Upper bound of the row activity (`f64::INFINITY` for none).
    #[serde(with = "rc_json::float")]
    pub upper: f64,
}

/// A sparse LP / MIP model:
/// `min|max c·x  s.t.  L <= A x <= U,  l <= x <= u,  x_j integer for j in I`.
///
/// Builder methods that take a [`VarId`] or [`RowId`] or a coefficient return
/// `Result`, so a foreign handle or a NaN never panics; bounds are checked by
/// [`Model::validate`], which every solver calls first.
///
/// With serde, infinite bounds are written as the strings `"inf"` / `"-inf"` (JSON
/// has no infinity); a deserialised model is fully re-checked by `validate`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Model {
    name: String,
    sense: Sense,
    vars: Vec<Var>,
    rows: Vec<Row>,
    /// Column-wise matrix: `cols[j]` holds `(row, coef)` sorted by row, no duplicate rows, no zeros.
    cols: Vec<Vec<(RowId, f64)>>,
}

impl Default for Model {
    fn default() -> Self {
        Model::new(Sense::Minimize)
    }
}

fn check_finite(value: f64, location: impl FnOnce() -> String) -> Result<(), Error> {
    if value.is_finite() {
        Ok(())
    } else {
        Err(Error::NonFiniteCoefficient {
            location: location(),
            value,
        })
    }
}

impl Model {
    /// Creates an empty model with the given optimisation direction.
    pub fn new(sense: Sense) -> Self {
        Model {
            name: "model".to_string(),
            sense,
            vars: Vec::new(),
            rows: Vec::new(),
            cols: Vec::new(),
        }
    }

    /// Creates an empty minimisation model.
    pub fn minimize() -> Self {
        Model::new(Sense::Minimize)
    }

    /// Creates an empty maximisation model.
    pub fn maximize() -> Self {
        Model::new(Sense::Maximize)
    }

    /// The model's name (used by the exporters).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Sets the model's name (used by the exporters).
    pub fn set_name(&mut self, name: impl Into<String>) {
        self.name = name.into();
    }

    /// Optimisation direction.
    pub fn sense(&self) -> Sense {
        self.sense
    }

    /// Changes the optimisation direction.
    pub fn set_sense(&mut self, sense: Sense) {
        self.sense = sense;
    }

    /// Number of variables (columns).
    pub fn num_vars(&self) -> usize {
        self.vars.len()
    }

    /// Number of constraints (rows).
    pub fn num_rows(&self) -> usize {
        self.rows.len()
    }

    /// Number of stored nonzero matrix coefficients.
    pub fn num_nonzeros(&self) -> usize {
        self.cols.iter().map(Vec::len).sum()
    }

    /// True when at least one variable is binary or integer.
    pub fn has_integers(&self) -> bool {
        self.vars.iter().any(|v| v.kind != VarKind::Continuous)
    }

    /// The handle of the variable at `index`, if it exists.
    pub fn var_id(&self, index: usize) -> Option<VarId> {
        (index < self.vars.len()).then_some(VarId(index))
    }

    /// The handle of the row at `index`, if it exists.
    pub fn row_id(&self, index: usize) -> Option<RowId> {
        (index < self.rows.len()).then_some(RowId(index))
    }

    /// All variable handles in creation order.
    pub fn var_ids(&self) -> impl ExactSizeIterator<Item = VarId> + '_ {
        (0..self.vars.len()).map(VarId)
    }

    /// All row handles in creation order.
    pub fn row_ids(&self) -> impl ExactSizeIterator<Item = RowId> + '_ {
        (0..self.rows.len()).map(RowId)
    }

    /// Data of a variable.
    pub fn var(&self, var: VarId) -> Option<&Var> {
        self.vars.get(var.0)
    }

    /// Data of all variables, indexed by [`VarId::index`].
    pub fn vars(&self) -> &[Var] {
        &self.vars
    }

    /// Data of a row.
    pub fn row(&self, row: RowId) -> Option<&Row> {
        self.rows.get(row.0)
    }

    /// Data of all rows, indexed by [`RowId::index`].
    pub fn rows(&self) -> &[Row] {
        &self.rows
    }

    /// The nonzeros `(row, coef)` of a column, sorted by row.
    pub fn column(&self, var: VarId) -> Option<&[(RowId, f64)]> {
        self.cols.get(var.0).map(Vec::as_slice)
    }

    /// The nonzeros `(var, coef)` of every row, sorted by variable (an O(nnz) transpose).
    pub fn row_entries(&self) -> Vec<Vec<(VarId, f64)>> {
        let mut counts = vec![0usize; self.rows.len()];
        for col in &self.cols {
            for &(r, _) in col {
                if let Some(c) = counts.get_mut(r.0) {
                    *c += 1;
                }
            }
        }
        let mut out: Vec<Vec<(VarId, f64)>> = counts.into_iter().map(Vec::with_capacity).collect();
        for (j, col) in self.cols.iter().enumerate() {
            for &(r, a) in col {
                if let Some(row) = out.get_mut(r.0) {
                    row.push((VarId(j), a));
                }
            }
        }
        out
    }

    fn check_var(&self, var: VarId) -> Result<(), Error> {
        if var.0 < self.vars.len() {
            Ok(())
        } else {
            Err(Error::UnknownVar {
                index: var.0,
                num_vars: self.vars.len(),
            })
        }
    }

    fn check_row(&self, row: RowId) -> Result<(), Error> {
        if row.0 < self.rows.len() {
            Ok(())
        } else {
            Err(Error::UnknownRow {
                index: row.0,
                num_rows: self.rows.len(),
            })
        }
    }

    // ----------------------------------------------------------------- variables

    /// Adds a variable `lower <= x <= upper` of the given kind with objective
    /// coefficient `obj`, in no row yet. Use infinities for missing bounds.
    /// Bounds and `obj` are checked by [`Model::validate`].
    pub fn add_var(&mut self, kind: VarKind, lower: f64, upper: f64, obj: f64) -> VarId {
        let id = VarId(self.vars.len());
        self.vars.push(Var {
            name: None,
            kind,
            lower,
            upper,
            obj,
        });
        self.cols.push(Vec::new());
        id
    }

    /// Adds a continuous variable `lower <= x <= upper` with objective coefficient `obj`.
    pub fn add_continuous(&mut self, lower: f64, upper: f64, obj: f64) -> VarId {
        self.add_var(VarKind::Continuous, lower, upper, obj)
    }

    /// Adds a binary variable `x ∈ {0, 1}` with objective coefficient `obj`.
    pub fn add_binary(&mut self, obj: f64) -> VarId {
        self.add_var(VarKind::Binary, 0.0, 1.0, obj)
    }

    /// Adds an integer variable `lower <= x <= upper` with objective coefficient `obj`.
    pub fn add_integer(&mut self, lower: f64, upper: f64, obj: f64) -> VarId {
        self.add_var(VarKind::Integer, lower, upper, obj)
    }

    /// Adds a continuous column with objective coefficient `obj`, bounds
    /// `(lower, upper)` and nonzeros `entries` in *existing* rows — the column
    /// generation step. Duplicate rows in `entries` are summed; zeros are dropped.
    pub fn add_column(
        &mut self,
        obj: f64,
        bounds: (f64, f64),
        entries: &[(RowId, f64)],
    ) -> Result<VarId, Error> {
        self.add_column_of_kind(VarKind::Continuous, obj, bounds, entries)
    }

    /// Like [`Model::add_column`] for a variable of any kind.
    pub fn add_column_of_kind(
        &mut self,
        kind: VarKind,
        obj: f64,
        bounds: (f64, f64),
        entries: &[(RowId, f64)],
    ) -> Result<VarId, Error> {
        let j = self.vars.len();
        check_finite(obj, || format!("objective of x{j}"))?;
        let mut col: Vec<(RowId, f64)> = Vec::with_capacity(entries.len());
        for &(r, a) in entries {
            self.check_row(r)?;
            check_finite(a, || format!("row r{}, column x{j}", r.0))?;
            col.push((r, a));
        }
        col.sort_by_key(|&(r, _)| r);
        let mut merged: Vec<(RowId, f64)> = Vec::with_capacity(col.len());
        for (r, a) in col {
            match merged.last_mut() {
                Some(last) if last.0 == r => last.1 += a,
                _ => merged.push((r, a)),
            }
        }
        merged.retain(|&(_, a)| a != 0.0);
        let id = self.add_var(kind, bounds.0, bounds.1, obj);
        self.cols[id.0] = merged;
        Ok(id)
    }

    /// Sets the objective coefficient of a variable.
    pub fn set_obj(&mut self, var: VarId, obj: f64) -> Result<(), Error> {
        self.check_var(var)?;
        check_finite(obj, || format!("objective of x{}", var.0))?;
        self.vars[var.0].obj = obj;
        Ok(())
    }

    /// Sets the bounds of a variable (checked by [`Model::validate`]).
    pub fn set_var_bounds(&mut self, var: VarId, lower: f64, upper: f64) -> Result<(), Error> {
        self.check_var(var)?;
        let v = &mut self.vars[var.0];
        v.lower = lower;
        v.upper = upper;
        Ok(())
    }

    /// Changes the kind of a variable.
    pub fn set_var_kind(&mut self, var: VarId, kind: VarKind) -> Result<(), Error> {
        self.check_var(var)?;
        self.vars[var.0].kind = kind;
        Ok(())
    }

    /// Names a variable (used by the exporters; invalid characters are replaced there).
    pub fn set_var_name(&mut self, var: VarId, name: impl Into<String>) -> Result<(), Error> {
        self.check_var(var)?;
        self.vars[var.0].name = Some(name.into());
        Ok(())
    }

    // ----------------------------------------------------------------- rows

    /// Adds the row `lower <= Σ coef·x <= upper` over existing variables. Duplicate
    /// variables in `terms` are summed; zeros are dropped.
    pub fn add_row(
        &mut self,
        lower: f64,
        upper: f64,
        terms: &[(VarId, f64)],
    ) -> Result<RowId, Error> {
        let i = self.rows.len();
        for &(v, a) in terms {
            self.check_var(v)?;
            check_finite(a, || format!("row r{i}, column x{}", v.0))?;
        }
        let id = RowId(i);
        self.rows.push(Row {
            name: None,
            lower,
            upper,
        });
        for &(v, a) in terms {
            let col = &mut self.cols[v.0];
            match col.last_mut() {
                Some(last) if last.0 == id => last.1 += a,
                _ => col.push((id, a)),
            }
        }
        for &(v, _) in terms {
            let col = &mut self.cols[v.0];
            if matches!(col.last(), Some(&(r, a)) if r == id && a == 0.0) {
                col.pop();
            }
        }
        Ok(id)
    }

    /// Adds the constraint `Σ coef·x (cmp) rhs`.
    pub fn add_constraint(
        &mut self,
        terms: &[(VarId, f64)],
        cmp: Cmp,
        rhs: f64,
    ) -> Result<RowId, Error> {
        let (lo, up) = match cmp {
            Cmp::Le => (f64::NEG_INFINITY, rhs),
            Cmp::Ge => (rhs, f64::INFINITY),
            Cmp::Eq => (rhs, rhs),
        };
        self.add_row(lo, up, terms)
    }

    /// Adds `Σ coef·x <= rhs`.
    pub fn add_le(&mut self, terms: &[(VarId, f64)], rhs: f64) -> Result<RowId, Error> {
        self.add_constraint(terms, Cmp::Le, rhs)
    }

    /// Adds `Σ coef·x >= rhs`.
    pub fn add_ge(&mut self, terms: &[(VarId, f64)], rhs: f64) -> Result<RowId, Error> {
        self.add_constraint(terms, Cmp::Ge, rhs)
    }

    /// Adds `Σ coef·x == rhs`.
    pub fn add_eq(&mut self, terms: &[(VarId, f64)], rhs: f64) -> Result<RowId, Error> {
        self.add_constraint(terms, Cmp::Eq, rhs)
    }

    /// Adds the range `lower <= Σ coef·x <= upper`.
    pub fn add_range(
        &mut self,
        lower: f64,
        terms: &[(VarId, f64)],
        upper: f64,
    ) -> Result<RowId, Error> {
        self.add_row(lower, upper, terms)
    }

    /// Sets the activity bounds of a row (checked by [`Model::validate`]).
    pub fn set_row_bounds(&mut self, row: RowId, lower: f64, upper: f64) -> Result<(), Error> {
        self.check_row(row)?;
        let r = &mut self.rows[row.0];
        r.lower = lower;
        r.upper = upper;
        Ok(())
    }

    /// Names a row (used by the exporters; invalid characters are replaced there).
    pub fn set_row_name(&mut self, row: RowId, name: impl Into<String>) -> Result<(), Error> {
        self.check_row(row)?;
        self.rows[row.0].name = Some(name.into());
        Ok(())
    }

    /// Sets (or, with `coef == 0`, removes) the matrix coefficient at `(row, var)`.
    pub fn set_coefficient(&mut self, row: RowId, var: VarId, coef: f64) -> Result<(), Error> {
        self.check_row(row)?;
        self.check_var(var)?;
        check_finite(coef, || format!("row r{}, column x{}", row.0, var.0))?;
        let col = &mut self.cols[var.0];
        match col.binary_search_by_key(&row, |&(r, _)| r) {
            Ok(pos) if coef == 0.0 => {
                col.remove(pos);
            }
            Ok(pos) => col[pos].1 = coef,
            Err(_) if coef == 0.0 => {}
            Err(pos) => col.insert(pos, (row, coef)),
        }
        Ok(())
    }

    /// The matrix coefficient at `(row, var)` (0 when not stored or out of range).
    pub fn coefficient(&self, row: RowId, var: VarId) -> f64 {
        self.cols
            .get(var.0)
            .and_then(|col| {
                col.binary_search_by_key(&row, |&(r, _)| r)
                    .ok()
                    .map(|p| col[p].1)
            })
            .unwrap_or(0.0)
    }

    // ----------------------------------------------------------------- evaluation

    /// Objective value `c·x` (in the model's own sense). Missing entries of `x` count as 0.
    pub fn objective_value(&self, x: &[f64]) -> f64 {
        self.vars.iter().zip(x).map(|(v, &xj)| v.obj * xj).sum()
    }

    /// Row activities `A x`. Missing entries of `x` count as 0.
    pub fn row_activities(&self, x: &[f64]) -> Vec<f64> {
        let mut act = vec![0.0; self.rows.len()];
        for (col, &xj) in self.cols.iter().zip(x) {
            if xj != 0.0 {
                for &(r, a) in col {
                    if let Some(slot) = act.get_mut(r.0) {
                        *slot += a * xj;
                    }
                }
            }
        }
        act
    }

    /// Largest absolute violation of a row bound, variable bound or (when
    /// `check_integrality`) integrality by the point `x`.
    pub fn max_violation(&self, x: &[f64], check_integrality: bool) -> f64 {
        let mut worst: f64 = 0.0;
        if x.len() != self.vars.len() || x.iter().any(|v| !v.is_finite()) {
            return f64::INFINITY;
        }
        for (j, v) in self.vars.iter().enumerate() {
            let (lo, up) = self.relaxed_bounds(j);
            worst = worst.max(lo - x[j]).max(x[j] - up);
            if check_integrality && v.kind != VarKind::Continuous {
                worst = worst.max((x[j] - x[j].round()).abs());
            }
        }
        for (r, a) in self.rows.iter().zip(self.row_activities(x)) {
            worst = worst.max(r.lower - a).max(a - r.upper);
        }
        if worst.is_nan() {
            f64::INFINITY
        } else {
            worst
        }
    }

    /// A copy of the model where every variable is continuous (binaries get bounds
    /// intersected with `[0, 1]`): the LP relaxation.
    pub fn relaxation(&self) -> Model {
        let mut m = self.clone();
        for j in 0..m.vars.len() {
            let (lo, up) = self.relaxed_bounds(j);
            let v = &mut m.vars[j];
            v.kind = VarKind::Continuous;
            v.lower = lo;
            v.upper = up;
        }
        m
    }

    /// Bounds of variable `j` in the LP relaxation (binary: intersected with `[0, 1]`).
    pub(crate) fn relaxed_bounds(&self, j: usize) -> (f64, f64) {
        let v = &self.vars[j];
        match v.kind {
            VarKind::Binary => (v.lower.max(0.0), v.upper.min(1.0)),
            _ => (v.lower, v.upper),
        }
    }

    /// Bounds of variable `j` in the MIP (integer bounds rounded inwards).
    pub(crate) fn integral_bounds(&self, j: usize) -> (f64, f64) {
        let (lo, up) = self.relaxed_bounds(j);
        match self.vars[j].kind {
            VarKind::Continuous => (lo, up),
            _ => ((lo - 1e-9).ceil(), (up + 1e-9).floor()),
        }
    }

    /// Columns as raw slices, for the backends.
    pub(crate) fn cols(&self) -> &[Vec<(RowId, f64)>] {
        &self.cols
    }

    /// Checks the whole model: finite objective and matrix coefficients, bounds that
    /// are not NaN (`lower < +inf`, `upper > -inf`), consistent internal storage (a
    /// deserialised model may be corrupt). Every solver calls this first.
    ///
    /// `lower > upper` is *not* an error here: solvers report such a model as infeasible.
    pub fn validate(&self) -> Result<(), Error> {
        if self.cols.len() != self.vars.len() {
            return Err(Error::Backend {
                backend: "model",
                message: format!(
                    "corrupt model: {} columns stored for {} variables",
                    self.cols.len(),
                    self.vars.len()
                ),
            });
        }
        for (j, v) in self.vars.iter().enumerate() {
            check_finite(v.obj, || format!("objective of x{j}"))?;
            if v.lower.is_nan()
                || v.upper.is_nan()
                || v.lower == f64::INFINITY
                || v.upper == f64::NEG_INFINITY
            {
                return Err(Error::InvalidBounds {
                    location: format!("variable x{j}"),
                    lower: v.lower,
                    upper: v.upper,
                });
            }
        }
        for (i, r) in self.rows.iter().enumerate() {
            if r.lower.is_nan()
                || r.upper.is_nan()
                || r.lower == f64::INFINITY
                || r.upper == f64::NEG_INFINITY
            {
                return Err(Error::InvalidBounds {
                    location: format!("row r{i}"),
                    lower: r.lower,
                    upper: r.upper,
                });
            }
        }
        for (j, col) in self.cols.iter().enumerate() {
            let mut prev: Option<usize> = None;
            for &(r, a) in col {
                self.check_row(r)?;
                check_finite(a, || format!("row r{}, column x{j}", r.0))?;
                if prev.is_some_and(|p| p >= r.0) {
                    return Err(Error::Backend {
                        backend: "model",
                        message: format!("corrupt model: column x{j} is not sorted by row"),
                    });
                }
                prev = Some(r.0);
            }
        }
        Ok(())
    }

    /// True when some variable or row has `lower > upper` (after binary/integer
    /// rounding when `integral`), or a row without nonzeros excludes 0, so the
    /// model is trivially infeasible.
    pub(crate) fn is_trivially_infeasible(&self, integral: bool) -> bool {
        let crossed_var = (0..self.vars.len()).any(|j| {
            let (lo, up) = if integral {
                self.integral_bounds(j)
            } else {
                self.relaxed_bounds(j)
            };
            lo > up
        });
        if crossed_var || self.rows.iter().any(|r| r.lower > r.upper) {
            return true;
        }
        let mut nonempty = vec![false; self.rows.len()];
        for col in &self.cols {
            for &(r, _) in col {
                if let Some(f) = nonempty.get_mut(r.0) {
                    *f = true;
                }
            }
        }
        self.rows
            .iter()
            .zip(nonempty)
            .any(|(r, ne)| !ne && (r.lower > 0.0 || r.upper < 0.0))
    }

    /// `+1` for minimisation, `-1` for maximisation: multiply the objective by this
    /// to get the equivalent minimisation problem.
    pub(crate) fn sign(&self) -> f64 {
        match self.sense {
            Sense::Minimize => 1.0,
            Sense::Maximize => -1.0,
        }
    }

    /// Pretty name of a variable for exporters.
    pub(crate) fn raw_var_name(&self, j: usize) -> Option<&str> {
        self.vars.get(j).and_then(|v| v.name.as_deref())
    }

    /// Pretty name of a row for exporters.
    pub(crate) fn raw_row_name(&self, i: usize) -> Option<&str> {
        self.rows.get(i).and_then(|r| r.name.as_deref())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builder_merges_duplicates_and_drops_zeros() {
        let mut m = Model::minimize();
        let x = m.add_continuous(0.0, 1.0, 1.0);
        let y = m.add_continuous(0.0, 1.0, 1.0);
        let r = m
            .add_ge(&[(x, 1.0), (y, 2.0), (x, 3.0), (y, -2.0)], 1.0)
            .unwrap();
        assert_eq!(m.column(x).unwrap(), &[(r, 4.0)]);
        assert!(m.column(y).unwrap().is_empty());
        let z = m
            .add_column(2.0, (0.0, f64::INFINITY), &[(r, 1.0), (r, 1.0)])
            .unwrap();
        assert_eq!(m.coefficient(r, z), 2.0);
        assert_eq!(m.num_nonzeros(), 2);
        m.set_coefficient(r, y, 5.0).unwrap();
        assert_eq!(m.coefficient(r, y), 5.0);
        m.set_coefficient(r, y, 0.0).unwrap();
        assert_eq!(m.coefficient(r, y), 0.0);
        assert_eq!(m.row_entries()[0], vec![(x, 4.0), (z, 2.0)]);
    }

    #[test]
    fn foreign_handles_and_nan_are_errors() {
        let mut m = Model::minimize();
        let x = m.add_continuous(0.0, 1.0, 1.0);
        assert!(matches!(
            m.add_le(&[(VarId(7), 1.0)], 1.0),
            Err(Error::UnknownVar { index: 7, .. })
        ));
        assert!(matches!(
            m.add_le(&[(x, f64::NAN)], 1.0),
            Err(Error::NonFiniteCoefficient { .. })
        ));
        assert!(matches!(
            m.add_column(1.0, (0.0, 1.0), &[(RowId(3), 1.0)]),
            Err(Error::UnknownRow { index: 3, .. })
        ));
        assert_eq!(m.num_rows(), 0);
        assert_eq!(m.num_vars(), 1);
        m.set_var_bounds(x, f64::NAN, 1.0).unwrap();
        assert!(matches!(m.validate(), Err(Error::InvalidBounds { .. })));
    }

    #[test]
    fn evaluation_helpers() {
        let mut m = Model::maximize();
        let x = m.add_binary(2.0);
        let y = m.add_integer(0.0, 5.0, 1.0);
        m.add_le(&[(x, 1.0), (y, 1.0)], 3.0).unwrap();
        assert_eq!(m.objective_value(&[1.0, 2.0]), 4.0);
        assert_eq!(m.row_activities(&[1.0, 2.0]), vec![3.0]);
        assert_eq!(m.max_violation(&[1.0, 2.0], true), 0.0);
        assert!((m.max_violation(&[1.0, 2.5], true) - 0.5).abs() < 1e-12);
        assert!(m.has_integers());
        assert!(!m.relaxation().has_integers());
    }
}
