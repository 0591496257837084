//! Indexing maps: a quasi-affine function from dimension variables and symbols to results, with a
//! bounded domain. Symbols are range variables followed by runtime variables, as in XLA.

use std::collections::BTreeMap;

use crate::expr::{ArithError, Expr, VarRef};
use crate::interval::{Interval, next_point};

/// A dimension, range or runtime variable: its bounds and an optional display name.
#[derive(Clone, Debug)]
pub struct Var {
    /// The values the variable takes (both ends inclusive).
    pub bounds: Interval,
    /// The name printed for the variable; `None` prints the default (`d<i>`, `s<i>` or `rt<i>`).
    pub name: Option<String>,
}

impl Var {
    /// An unnamed variable with these bounds.
    pub fn new(bounds: Interval) -> Var {
        Var { bounds, name: None }
    }

    /// A variable with these bounds, printed as `name`.
    pub fn named(bounds: Interval, name: impl Into<String>) -> Var {
        Var {
            bounds,
            name: Some(name.into()),
        }
    }

    /// `[0, size - 1]` for each size.
    pub fn from_sizes(sizes: &[i64]) -> Vec<Var> {
        sizes.iter().map(|&s| Var::new(Interval::upto(s))).collect()
    }
}

/// Which of the three kinds of variable a symbol or dimension is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum VarKind {
    /// A dimension variable `d<i>`: an index of the tensor the map reads from.
    Dim,
    /// A range variable: a symbol that takes every value of its bounds for each point of the dims
    /// (for example a reduced dimension).
    Range,
    /// A runtime variable: a symbol whose value is known only at run time (for example a dynamic
    /// slice's offset), bounded by its interval.
    Runtime,
}

/// An indexing map `(d...)[s...]{rt...} -> (results)` with its domain: bounds for every variable and
/// constraints `expr in [lo, hi]`. A map that is known to have an empty domain is `KNOWN EMPTY`.
///
/// Equality ignores variable names; all known-empty maps are equal.
#[derive(Clone, Debug)]
pub struct IndexingMap {
    pub(crate) dims: Vec<Var>,
    pub(crate) range_vars: Vec<Var>,
    pub(crate) rt_vars: Vec<Var>,
    pub(crate) results: Vec<Expr>,
    pub(crate) constraints: BTreeMap<Expr, Interval>,
    pub(crate) known_empty: bool,
}

/// A map that fails [`IndexingMap::verify`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct VerifyError(pub String);

impl IndexingMap {
    /// A map with no constraints. Variables with empty bounds make it known empty.
    pub fn new(
        results: Vec<Expr>,
        dims: Vec<Var>,
        range_vars: Vec<Var>,
        rt_vars: Vec<Var>,
    ) -> IndexingMap {
        let mut map = IndexingMap {
            dims,
            range_vars,
            rt_vars,
            results,
            constraints: BTreeMap::new(),
            known_empty: false,
        };
        if map.all_vars().any(|v| !v.bounds.is_feasible()) {
            map.known_empty = true;
        }
        map
    }

    /// Dims `[0, size - 1]` for `dim_sizes` and range vars likewise for `range_sizes`.
    pub fn from_tensor_sizes(
        results: Vec<Expr>,
        dim_sizes: &[i64],
        range_sizes: &[i64],
    ) -> IndexingMap {
        IndexingMap::new(
            results,
            Var::from_sizes(dim_sizes),
            Var::from_sizes(range_sizes),
            Vec::new(),
        )
    }

    /// The identity map of a tensor of the given dimension sizes.
    pub fn identity(dim_sizes: &[i64]) -> IndexingMap {
        let results = (0..dim_sizes.len() as u32).map(Expr::dim).collect();
        IndexingMap::from_tensor_sizes(results, dim_sizes, &[])
    }

    /// The canonical empty map of the given arity.
    pub fn known_empty(
        num_dims: usize,
        num_range: usize,
        num_rt: usize,
        num_results: usize,
    ) -> IndexingMap {
        let empty = || Var::new(Interval::new(0, -1));
        IndexingMap {
            dims: (0..num_dims).map(|_| empty()).collect(),
            range_vars: (0..num_range).map(|_| empty()).collect(),
            rt_vars: (0..num_rt).map(|_| empty()).collect(),
            results: vec![Expr::zero(); num_results],
            constraints: BTreeMap::new(),
            known_empty: true,
        }
    }

    /// The dimension variables `d0, d1, ...`, one per index of the tensor the map reads from.
    pub fn dims(&self) -> &[Var] {
        &self.dims
    }

    /// The range variables: symbols `0..range_vars().len()`, each taking every value of its bounds.
    pub fn range_vars(&self) -> &[Var] {
        &self.range_vars
    }

    /// The runtime variables: the symbols after the range variables, whose values are known only at
    /// run time.
    pub fn rt_vars(&self) -> &[Var] {
        &self.rt_vars
    }

    /// The result expressions, one per index of the tensor the map points into.
    pub fn results(&self) -> &[Expr] {
        &self.results
    }

    /// The constraints `expr in [lo, hi]` that restrict the domain beyond the variables' bounds.
    pub fn constraints(&self) -> &BTreeMap<Expr, Interval> {
        &self.constraints
    }

    /// Whether the domain is known to be empty (the map prints as `KNOWN EMPTY`). `false` does not
    /// prove that it has a point.
    pub fn is_known_empty(&self) -> bool {
        self.known_empty
    }

    /// The number of symbols: range variables plus runtime variables.
    pub fn num_symbols(&self) -> usize {
        self.range_vars.len() + self.rt_vars.len()
    }

    /// Dims, then range vars, then runtime vars.
    pub fn all_vars(&self) -> impl Iterator<Item = &Var> {
        self.dims
            .iter()
            .chain(&self.range_vars)
            .chain(&self.rt_vars)
    }

    /// The variable behind a dimension or symbol reference.
    pub fn var(&self, v: VarRef) -> Option<&Var> {
        match v {
            VarRef::Dim(i) => self.dims.get(i as usize),
            VarRef::Sym(i) => {
                let i = i as usize;
                self.range_vars
                    .get(i)
                    .or_else(|| self.rt_vars.get(i.checked_sub(self.range_vars.len())?))
            }
        }
    }

    pub(crate) fn var_mut(&mut self, v: VarRef) -> Option<&mut Var> {
        match v {
            VarRef::Dim(i) => self.dims.get_mut(i as usize),
            VarRef::Sym(i) => {
                let (i, r) = (i as usize, self.range_vars.len());
                if i < r {
                    self.range_vars.get_mut(i)
                } else {
                    self.rt_vars.get_mut(i - r)
                }
            }
        }
    }

    /// The kind of a variable reference.
    pub fn kind(&self, v: VarRef) -> VarKind {
        match v {
            VarRef::Dim(_) => VarKind::Dim,
            VarRef::Sym(i) if (i as usize) < self.range_vars.len() => VarKind::Range,
            VarRef::Sym(_) => VarKind::Runtime,
        }
    }

    /// The reference of the `i`-th runtime variable.
    pub fn rt_ref(&self, i: usize) -> VarRef {
        VarRef::Sym((self.range_vars.len() + i) as u32)
    }

    /// Gives a variable a display name (`th_x`, `bl_x`, ...); `None` restores the default.
    pub fn set_name(&mut self, v: VarRef, name: Option<String>) {
        if let Some(var) = self.var_mut(v) {
            var.name = name;
        }
    }

    /// Replaces the results, keeping the domain.
    pub fn with_results(&self, results: Vec<Expr>) -> IndexingMap {
        IndexingMap {
            results,
            ..self.clone()
        }
    }

    /// Replaces the dimensions and range variables (as many, their bounds and names changed),
    /// keeping the results, runtime variables and constraints; known empty when it was or a
    /// new variable's bounds are empty.
    pub fn with_vars(&self, dims: Vec<Var>, range_vars: Vec<Var>) -> IndexingMap {
        let known_empty = self.known_empty
            || dims
                .iter()
                .chain(&range_vars)
                .any(|v| !v.bounds.is_feasible());
        IndexingMap {
            dims,
            range_vars,
            known_empty,
            ..self.clone()
        }
    }

    /// The map restricted to its `i`-th result.
    pub fn sub_map(&self, i: usize) -> IndexingMap {
        self.with_results(vec![self.results[i].clone()])
    }

    /// Adds `expr in interval` to the domain: a bare variable tightens its bounds, a constant is
    /// checked, and an existing constraint on the same expression is intersected. An empty result
    /// marks the map known empty.
    pub fn add_constraint(&mut self, expr: Expr, interval: Interval) {
        if self.known_empty {
            return;
        }
        if !interval.is_feasible() {
            self.mark_empty();
            return;
        }
        if let Some(c) = expr.as_constant() {
            if !interval.contains(c) {
                self.mark_empty();
            }
            return;
        }
        if let Some(v) = expr.as_var() {
            let Some(var) = self.var_mut(v) else { return };
            var.bounds = var.bounds.intersect(interval);
            if !var.bounds.is_feasible() {
                self.mark_empty();
            }
            return;
        }
        let slot = self.constraints.entry(expr).or_insert(interval);
        *slot = slot.intersect(interval);
        if !slot.is_feasible() {
            self.mark_empty();
        }
    }

    /// Drops every constraint.
    pub fn clear_constraints(&mut self) {
        self.constraints.clear();
    }

    /// Removes one constraint.
    pub fn erase_constraint(&mut self, expr: &Expr) {
        self.constraints.remove(expr);
    }

    /// Turns the map into the canonical known-empty map of the same arity.
    pub fn mark_empty(&mut self) {
        *self = IndexingMap::known_empty(
            self.dims.len(),
            self.range_vars.len(),
            self.rt_vars.len(),
            self.results.len(),
        );
    }

    /// Whether a point lies in the domain: every variable within bounds, every constraint holds.
    pub fn contains(&self, dims: &[i64], syms: &[i64]) -> bool {
        !self.known_empty
            && dims.len() == self.dims.len()
            && syms.len() == self.num_symbols()
            && self
                .dims
                .iter()
                .zip(dims)
                .all(|(v, x)| v.bounds.contains(*x))
            && self
                .range_vars
                .iter()
                .chain(&self.rt_vars)
                .zip(syms)
                .all(|(v, x)| v.bounds.contains(*x))
            && self.constraints_hold(dims, syms)
    }

    /// Whether every constraint holds at the point (bounds are not checked).
    pub fn constraints_hold(&self, dims: &[i64], syms: &[i64]) -> bool {
        self.constraints
            .iter()
            .all(|(e, iv)| e.eval(dims, syms).is_some_and(|x| iv.contains(x)))
    }

    /// The results at a point, `None` on overflow.
    pub fn evaluate(&self, dims: &[i64], syms: &[i64]) -> Option<Vec<i64>> {
        self.results.iter().map(|e| e.eval(dims, syms)).collect()
    }

    /// The range of `expr` over the domain (an over-approximation).
    pub fn expr_range(&self, expr: &Expr) -> Interval {
        self.range_evaluator(true).range(expr)
    }

    /// Checks that every variable a result or constraint mentions exists and that every bound is
    /// feasible (unless the map is known empty).
    pub fn verify(&self) -> Result<(), VerifyError> {
        let mut bad = None;
        let mut check = |e: &Expr, what: &str| {
            e.for_each_var(&mut |v| {
                if bad.is_none() && self.var(v).is_none() {
                    let name = match v {
                        VarRef::Dim(i) => format!("d{i}"),
                        VarRef::Sym(i) => format!("s{i}"),
                    };
                    bad = Some(format!(
                        "{what} uses {name}, but the map has {} dims and {} symbols",
                        self.dims.len(),
                        self.num_symbols()
                    ));
                }
            })
        };
        for (i, r) in self.results.iter().enumerate() {
            check(r, &format!("result #{i}"));
        }
        for e in self.constraints.keys() {
            check(e, "a constraint");
        }
        if let Some(msg) = bad {
            return Err(VerifyError(msg));
        }
        if self.known_empty {
            return Ok(());
        }
        for (i, v) in self.all_vars().enumerate() {
            if !v.bounds.is_feasible() {
                return Err(VerifyError(format!(
                    "variable #{i} has empty bounds {} in a map not marked known empty",
                    v.bounds
                )));
            }
        }
        for (e, iv) in &self.constraints {
            if !iv.is_feasible() {
                return Err(VerifyError(format!(
                    "constraint {e:?} has empty interval {iv}"
                )));
            }
        }
        Ok(())
    }

    /// Number of points in the box of variable bounds, saturating at `u128::MAX`.
    pub fn box_size(&self) -> u128 {
        self.all_vars()
            .fold(1u128, |acc, v| acc.saturating_mul(v.bounds.count()))
    }

    /// Every point `(dims, syms)` of the domain, in lexicographic order, if the box of bounds has at
    /// most `limit` points; `None` when it is larger.
    pub fn domain_points(&self, limit: u128) -> Option<Vec<(Vec<i64>, Vec<i64>)>> {
        let mut out = Vec::new();
        self.for_each_domain_point(limit, |d, s| out.push((d.to_vec(), s.to_vec())))
            .then_some(out)
    }

    /// Calls `f(dims, syms)` at every point of the domain, in lexicographic order, without
    /// keeping them, if the box of bounds has at most `limit` points; returns whether it did
    /// (`false`, having called nothing, when the box is larger).
    pub fn for_each_domain_point(&self, limit: u128, mut f: impl FnMut(&[i64], &[i64])) -> bool {
        if self.known_empty {
            return true;
        }
        if self.box_size() > limit {
            return false;
        }
        let bounds: Vec<Interval> = self.all_vars().map(|v| v.bounds).collect();
        if bounds.iter().any(|b| !b.is_feasible()) {
            return true;
        }
        let nd = self.dims.len();
        let mut point: Vec<i64> = bounds.iter().map(|b| b.lo).collect();
        loop {
            let (d, s) = point.split_at(nd);
            if self.constraints_hold(d, s) {
                f(d, s);
            }
            if !next_point(&mut point, &bounds) {
                return true;
            }
        }
    }

    /// `second ∘ self`: `self` maps A to B (a consumer's output to its operand), `second` maps B to C
    /// (the producer's output to its operand); the result maps A to C. The symbols of the result are
    /// `self`'s range vars, `second`'s range vars, `self`'s runtime vars, `second`'s runtime vars.
    /// `second`'s dimension bounds become constraints on `self`'s results (dropped where they
    /// always hold). The result is not simplified.
    pub fn compose(&self, second: &IndexingMap) -> Result<IndexingMap, ComposeError> {
        if self.results.len() != second.dims.len() {
            return Err(ComposeError::Arity {
                results: self.results.len(),
                dims: second.dims.len(),
            });
        }
        let (r1, r2, t1) = (
            self.range_vars.len(),
            second.range_vars.len(),
            self.rt_vars.len(),
        );
        let shift = |e: &Expr, range_at: usize, rt_at: usize, num_range: usize| {
            e.rewrite_vars(&mut |v| match v {
                VarRef::Sym(i) if (i as usize) < num_range => {
                    Some(Expr::sym((range_at + i as usize) as u32))
                }
                VarRef::Sym(i) => Some(Expr::sym((rt_at + i as usize - num_range) as u32)),
                VarRef::Dim(_) => None,
            })
        };
        // self's symbols: range vars stay at 0.., runtime vars move behind second's range vars.
        let first_syms_in = |e: &Expr| shift(e, 0, r1 + r2, r1);
        let first_results = self
            .results
            .iter()
            .map(first_syms_in)
            .collect::<Result<Vec<_>, _>>()?;
        // second's symbols: range vars after self's, runtime vars after self's runtime vars.
        let second_syms: Vec<Expr> = (0..second.num_symbols())
            .map(|i| {
                if i < r2 {
                    Expr::sym((r1 + i) as u32)
                } else {
                    Expr::sym((r1 + r2 + t1 + i - r2) as u32)
                }
            })
            .collect();
        let subst = |e: &Expr| e.substitute(&first_results, &second_syms);

        let mut range_vars = self.range_vars.clone();
        range_vars.extend(second.range_vars.iter().cloned());
        let mut rt_vars = self.rt_vars.clone();
        rt_vars.extend(second.rt_vars.iter().cloned());
        let results = second
            .results
            .iter()
            .map(subst)
            .collect::<Result<Vec<_>, _>>()?;
        let mut out = IndexingMap::new(results, self.dims.clone(), range_vars, rt_vars);
        if self.known_empty || second.known_empty {
            out.mark_empty();
            return Ok(out);
        }
        for (e, iv) in &self.constraints {
            out.add_constraint(first_syms_in(e)?, *iv);
        }
        for (e, iv) in &second.constraints {
            out.add_constraint(subst(e)?, *iv);
        }
        for (r, d) in first_results.iter().zip(&second.dims) {
            let range = out.range_evaluator(false).range(r);
            if !d.bounds.contains_interval(range) {
                out.add_constraint(r.clone(), d.bounds);
            }
        }
        Ok(out)
    }

    /// Removes symbols that no result uses. A constraint that mentions only removed symbols goes
    /// with them; a constraint that also mentions a kept variable keeps its symbols alive.
    /// Returns, per old symbol, whether it was removed.
    pub fn remove_unused_symbols(&mut self) -> Vec<bool> {
        let removed = self.remove_unused(false);
        removed[self.dims.len()..].to_vec()
    }

    /// Like [`IndexingMap::remove_unused_symbols`] for dims and symbols together. Returns a mask
    /// over `[dims | symbols]` (old numbering).
    pub fn remove_unused_vars(&mut self) -> Vec<bool> {
        self.remove_unused(true)
    }

    fn remove_unused(&mut self, dims_too: bool) -> Vec<bool> {
        let nd = self.dims.len();
        let n = nd + self.num_symbols();
        let idx = |v: VarRef| match v {
            VarRef::Dim(i) => i as usize,
            VarRef::Sym(i) => nd + i as usize,
        };
        let mut used = vec![false; n];
        for r in &self.results {
            r.for_each_var(&mut |v| used[idx(v)] = true);
        }
        if !dims_too {
            used[..nd].iter_mut().for_each(|u| *u = true);
        }
        // A constraint touching a used variable keeps all of its variables; iterate to a fixpoint.
        loop {
            let mut changed = false;
            for e in self.constraints.keys() {
                let mut vars = Vec::new();
                e.for_each_var(&mut |v| vars.push(idx(v)));
                if vars.iter().any(|&i| used[i]) && vars.iter().any(|&i| !used[i]) {
                    vars.iter().for_each(|&i| used[i] = true);
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        let removed: Vec<bool> = used.iter().map(|u| !u).collect();
        if !removed.iter().any(|&r| r) {
            return removed;
        }
        // New numbering.
        let mut new_index = vec![0u32; n];
        let (mut next_dim, mut next_sym) = (0u32, 0u32);
        for i in 0..n {
            if used[i] {
                if i < nd {
                    new_index[i] = next_dim;
                    next_dim += 1;
                } else {
                    new_index[i] = next_sym;
                    next_sym += 1;
                }
            }
        }
        let renumber = |e: &Expr| {
            e.rewrite_vars(&mut |v| {
                let i = idx(v);
                Some(if i < nd {
                    Expr::dim(new_index[i])
                } else {
                    Expr::sym(new_index[i])
                })
            })
            .expect("renumbering variables cannot overflow")
        };
        self.results = self.results.iter().map(renumber).collect();
        let constraints = std::mem::take(&mut self.constraints);
        for (e, iv) in constraints {
            let mut keep = false;
            e.for_each_var(&mut |v| keep |= used[idx(v)]);
            if keep {
                self.constraints.insert(renumber(&e), iv);
            }
        }
        let keep_vars = |vars: &mut Vec<Var>, offset: usize| {
            let mut i = offset;
            vars.retain(|_| {
                i += 1;
                used[i - 1]
            });
        };
        let r = self.range_vars.len();
        keep_vars(&mut self.dims, 0);
        keep_vars(&mut self.range_vars, nd);
        keep_vars(&mut self.rt_vars, nd + r);
        removed
    }

    /// Turns every range and runtime variable into a trailing dimension (names are kept).
    pub fn convert_symbols_to_dims(&self) -> IndexingMap {
        let nd = self.dims.len() as u32;
        let to_dim = |e: &Expr| {
            e.rewrite_vars(&mut |v| match v {
                VarRef::Sym(i) => Some(Expr::dim(nd + i)),
                VarRef::Dim(_) => None,
            })
            .expect("renaming variables cannot overflow")
        };
        let mut dims = self.dims.clone();
        dims.extend(self.range_vars.iter().chain(&self.rt_vars).cloned());
        IndexingMap {
            dims,
            range_vars: Vec::new(),
            rt_vars: Vec::new(),
            results: self.results.iter().map(to_dim).collect(),
            constraints: self
                .constraints
                .iter()
                .map(|(e, iv)| (to_dim(e), *iv))
                .collect(),
            known_empty: self.known_empty,
        }
    }

    /// Moves the selected range variables (by range-var index) to trailing dimensions.
    pub fn convert_range_vars_to_dims(&self, ids: &[usize]) -> IndexingMap {
        let nd = self.dims.len();
        let r = self.range_vars.len();
        let selected = |i: usize| ids.contains(&i);
        let mut new_sym = vec![None; self.num_symbols()];
        let mut new_dim = vec![None; r];
        let (mut next_dim, mut next_sym) = (nd, 0usize);
        for (i, slot) in new_sym.iter_mut().enumerate() {
            if i < r && selected(i) {
                new_dim[i] = Some(next_dim);
                next_dim += 1;
            } else {
                *slot = Some(next_sym);
                next_sym += 1;
            }
        }
        let rename = |e: &Expr| {
            e.rewrite_vars(&mut |v| match v {
                VarRef::Sym(i) => Some(match new_sym[i as usize] {
                    Some(s) => Expr::sym(s as u32),
                    None => Expr::dim(new_dim[i as usize].expect("selected range var") as u32),
                }),
                VarRef::Dim(_) => None,
            })
            .expect("renaming variables cannot overflow")
        };
        let mut dims = self.dims.clone();
        let mut range_vars = Vec::new();
        for (i, v) in self.range_vars.iter().enumerate() {
            if selected(i) {
                dims.push(v.clone())
            } else {
                range_vars.push(v.clone())
            }
        }
        IndexingMap {
            dims,
            range_vars,
            rt_vars: self.rt_vars.clone(),
            results: self.results.iter().map(rename).collect(),
            constraints: self
                .constraints
                .iter()
                .map(|(e, iv)| (rename(e), *iv))
                .collect(),
            known_empty: self.known_empty,
        }
    }

    /// The map with runtime variable `k` replaced by `value` (an expression over the dims and
    /// range vars) in every result and constraint; the runtime variables after it move down by
    /// one. Nothing else changes: where `value` leaves the variable's bounds is for the caller
    /// to decide. `None` when `value` uses a runtime variable or a variable the map lacks.
    pub fn replace_rt_var(
        &self,
        k: usize,
        value: &Expr,
    ) -> Option<Result<IndexingMap, ArithError>> {
        let (nd, nr) = (self.dims.len(), self.range_vars.len());
        if k >= self.rt_vars.len() {
            return None;
        }
        let mut in_scope = true;
        value.for_each_var(&mut |v| {
            in_scope &= match v {
                VarRef::Dim(i) => (i as usize) < nd,
                VarRef::Sym(i) => (i as usize) < nr,
            }
        });
        if !in_scope {
            return None;
        }
        let replaced = nr + k;
        let rewrite = |e: &Expr| {
            e.rewrite_vars(&mut |v| match v {
                VarRef::Sym(i) if i as usize == replaced => Some(value.clone()),
                VarRef::Sym(i) if i as usize > replaced => Some(Expr::sym(i - 1)),
                _ => None,
            })
        };
        let build = || -> Result<IndexingMap, ArithError> {
            let mut rt_vars = self.rt_vars.clone();
            rt_vars.remove(k);
            let results = self.results.iter().map(rewrite).collect::<Result<_, _>>()?;
            let mut out =
                IndexingMap::new(results, self.dims.clone(), self.range_vars.clone(), rt_vars);
            for (e, iv) in &self.constraints {
                out.add_constraint(rewrite(e)?, *iv);
            }
            if self.known_empty {
                out.mark_empty();
            }
            Ok(out)
        };
        Some(build())
    }
}

/// Why two maps could not be composed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ComposeError {
    /// The first map's results do not match the second map's dims one to one.
    #[error("cannot compose: the first map has {results} results but the second has {dims} dims")]
    Arity {
        /// Number of results of the first map.
        results: usize,
        /// Number of dims of the second map.
        dims: usize,
    },
    /// Building the composed expressions overflowed.
    #[error(transparent)]
    Arith(#[from] ArithError),
}

impl PartialEq for IndexingMap {
    fn eq(&self, o: &Self) -> bool {
        if self.known_empty || o.known_empty {
            return self.known_empty == o.known_empty;
        }
        let bounds = |a: &[Var], b: &[Var]| {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.bounds == y.bounds)
        };
        bounds(&self.dims, &o.dims)
            && bounds(&self.range_vars, &o.range_vars)
            && bounds(&self.rt_vars, &o.rt_vars)
            && self.results == o.results
            && self.constraints == o.constraints
    }
}

impl Eq for IndexingMap {}

impl std::hash::Hash for IndexingMap {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.known_empty.hash(state);
        if self.known_empty {
            return;
        }
        for v in self.all_vars() {
            v.bounds.hash(state);
        }
        (self.dims.len(), self.range_vars.len(), self.rt_vars.len()).hash(state);
        self.results.hash(state);
        self.constraints.hash(state);
    }
}
