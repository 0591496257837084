//! What `xla-indexing-simplify` knows of every integer and index value: its expression over
//! the function's *roots*, simplified, with its range.
//!
//! A root is a value the analysis does not read through: a block argument (loop induction
//! variables, GPU launch arguments, function arguments), the result of an op it cannot read
//! (loads, calls, GPU ids), or a computation that might wrap in its type (unless flagged `nsw`,
//! which makes wrapping poison, or `nuw` on operands whose signs say where it is defined: see
//! `semantics.rs`). Every root is a dimension `Dim(i)` of the expressions, with
//! the range [`Ranges`] gives it. Everything else (`arith` arithmetic, `affine.apply`,
//! `xla_indexing.apply_indexing`, casts, and comparisons, selects, `min` and `max` that the
//! ranges decide) is composed through its producers, whatever their number of uses, and
//! simplified as a whole (see `semantics.rs` for each op).
//!
//! *Facts* are constraints `expr in [lo, hi]` over roots that may be assumed while simplifying:
//! those of a value hold wherever the value means anything (an `apply_indexing` result is only
//! defined within the map's domain), those of a block hold wherever it runs (the condition of
//! an `scf.if` or `affine.if` in its then-region, a loop's step in its body).
//!
//! [`IndexValues`] is built once per pass run and kept consistent while the patterns rewrite:
//! rewrites never change what a value means, so what is known stays true; the greedy driver's
//! listener reports every erased value and block before MLIR can reuse its memory, and every op
//! changed in place, whose values (and, for an op with regions, what its blocks assume) may now
//! be known better ([`IndexValues::apply_changes`]).

use std::{
    collections::{HashMap, HashSet},
    rc::Rc,
};

use melior::ir::{BlockLike, BlockRef, OperationRef, Value, ValueLike, operation::OperationLike};
use xla_indexing_core::{Atom, Expr, IndexingMap, Interval, Var, VarRef};
use xla_indexing_mlir::handles::{BlockHandle, OpHandle, ValueHandle, value_key};

use super::{
    super::ranges::{Ranges, fits},
    depends::{Dependents, Depends, roots_of},
    fold::Flags,
    known::{Fact, Known, Read, Reading, type_key},
};
use xla_indexing_mlir::index_op::IndexOp;
use xla_indexing_mlir::ir::{blocks_of, defining_op, int_width, parent_block, users, walk_nested};
use xla_indexing_mlir::rewrite::Changed;

/// Deepest chain of producers composed into one expression; deeper values are roots.
const MAX_DEPTH: usize = 64;

/// Largest expression (terms, counting those inside divisions) a value may have; larger ones
/// are roots, which keeps composition and simplification linear in the function's size.
const MAX_TERMS: usize = 48;

/// Most values with one expression considered for reuse at one op.
const MAX_CANDIDATES: usize = 16;

/// Most facts assumed at once.
const MAX_FACTS: usize = 16;

/// The facts of a block and the roots they were found from.
#[derive(Clone)]
struct BlockFacts {
    facts: Rc<[Fact]>,
    depends: Depends,
}

struct Root {
    value: ValueHandle,
    range: Interval,
}

/// The analysis: what is known of each value, keyed by the value's identity.
#[derive(Default)]
pub struct IndexValues {
    roots: Vec<Root>,
    root_ids: HashMap<usize, u32>,
    known: HashMap<usize, Rc<Known>>,
    /// The values (keys) whose expression is each expression, in the order they were met.
    by_expr: HashMap<Expr, Vec<usize>>,
    /// What was known of values being revised, until they are recomputed.
    stale: HashMap<usize, Rc<Known>>,
    /// The facts of each block (by its address).
    block_facts: HashMap<usize, BlockFacts>,
    /// What was found from each root: values and blocks.
    value_dependents: Dependents,
    block_dependents: Dependents,
    ranges: Ranges,
    /// Simplified expressions and their ranges, by expression over local dimensions, the
    /// ranges of those dimensions and the facts assumed.
    simplified: HashMap<SimplifyKey, Simplified>,
}

/// The result of a simplification: the expression and its range, or `None` when the facts
/// contradict each other (the code is never reached).
pub type Simplified = Option<(Expr, Interval)>;

/// What a simplification depends on: the expression over local dimensions, their ranges, and
/// the facts assumed.
type SimplifyKey = (Expr, Vec<Interval>, Vec<Fact>);

impl IndexValues {
    /// An empty analysis, with values' ranges from `ranges`.
    pub fn new(ranges: Ranges) -> Self {
        IndexValues {
            ranges,
            ..IndexValues::default()
        }
    }

    /// Drops what is known of an erased value. When it was a root, what was found from it is
    /// revised (see [`IndexValues::revise_value`]).
    pub fn forget_value(&mut self, key: usize) {
        self.stale.remove(&key);
        self.ranges.forget_solved(key);
        self.drop_value(key);
    }

    /// Whether `ranges` (from a later run of MLIR's integer range analysis) bounds a live root
    /// more tightly than the analysis does.
    pub fn tightened_by(&self, ranges: &Ranges) -> bool {
        self.root_ids.iter().any(|(key, &id)| {
            let range = self.roots[id as usize].range;
            ranges
                .solved_range(*key)
                .is_some_and(|solved| range.intersect(solved) != range)
        })
    }

    /// Drops what is known of a value whose op changed in place (its operands or attributes):
    /// it is recomputed on demand from the IR as it now is, and if it then reads differently,
    /// what its users were found from is revised in turn. When it was a root, what was found
    /// from it is revised too.
    pub fn revise_value(&mut self, key: usize) {
        if let Some(old) = self.drop_value(key) {
            self.stale.insert(key, old);
        }
    }

    /// Drops what is known of the value with `key` (returned), revising what was found from it
    /// if it was a root.
    fn drop_value(&mut self, key: usize) -> Option<Rc<Known>> {
        self.ranges.forget(key);
        let old = self.known.remove(&key);
        if let Some(known) = &old
            && let Some(values) = self.by_expr.get_mut(&known.expr)
        {
            values.retain(|v| *v != key);
        }
        if let Some(root) = self.root_ids.remove(&key) {
            for key in self.value_dependents.take(root) {
                if self.known.get(&key).is_some_and(|k| k.depends.on(root)) {
                    self.revise_value(key);
                }
            }
            for key in self.block_dependents.take(root) {
                if self
                    .block_facts
                    .get(&key)
                    .is_some_and(|b| b.depends.on(root))
                {
                    self.block_facts.remove(&key);
                }
            }
        }
        old
    }

    /// After `value` was recomputed as `known`: if it was revised and now reads differently,
    /// what its users were found from is revised too (they may now be known better).
    fn compare_revised(&mut self, value: Value, known: &Known) {
        let Some(old) = self.stale.remove(&value_key(value)) else {
            return;
        };
        if old.expr == known.expr && old.facts == known.facts && old.range == known.range {
            return;
        }
        for user in users(value) {
            for i in 0..user.result_count() {
                let key = user.result(i).map(|r| value_key(r.into()));
                if let Ok(key) = key
                    && self.known.contains_key(&key)
                {
                    self.revise_value(key);
                }
            }
        }
    }

    /// Brings what is known up to date with what the greedy driver changed (in order): erased
    /// values and blocks are forgotten first, then values whose ops changed in place are
    /// revised, with what the blocks of ops using them assume, and so are the contents of ops
    /// with regions changed in place.
    pub fn apply_changes(&mut self, changes: &[Changed]) {
        let mut erased = HashSet::new();
        for change in changes {
            match *change {
                Changed::ValueErased(key) => {
                    self.forget_value(key);
                    erased.insert(key);
                }
                Changed::BlockErased(key) => self.forget_block(key),
                Changed::OpErased(key) => {
                    erased.insert(key);
                }
                Changed::ValueModified(_) | Changed::RegionsModified(_) => {}
            }
        }
        for change in changes {
            match *change {
                Changed::ValueModified(key) if !erased.contains(&key) => {
                    // SAFETY: the value was live when reported and was not erased since.
                    let value = unsafe { ValueHandle::from_key(key).get() };
                    self.revise_value(key);
                    for user in users(value) {
                        if user.region_count() != 0 {
                            self.revise_regions(&user);
                        }
                    }
                }
                Changed::RegionsModified(key) if !erased.contains(&key) => {
                    // SAFETY: the op was live when reported and was not erased since.
                    let op = unsafe { OpHandle::from_key(key).get() };
                    self.revise_regions(&op);
                }
                _ => {}
            }
        }
    }

    /// Revises everything inside the regions of `op`: what its blocks (and those nested in
    /// them) assume, and what is known of every value computed there.
    fn revise_regions(&mut self, op: &OperationRef) {
        let mut ops = vec![*op];
        walk_nested(op, &mut |nested| ops.push(*nested));
        for (i, nested) in ops.iter().enumerate() {
            for block in blocks_of(nested) {
                self.forget_block(BlockHandle::of(&block).key());
            }
            if i == 0 {
                continue;
            }
            for r in 0..nested.result_count() {
                if let Ok(result) = nested.result(r) {
                    self.revise_value(value_key(result.into()));
                }
            }
        }
    }

    /// Drops the facts of an erased block.
    pub fn forget_block(&mut self, key: usize) {
        self.block_facts.remove(&key);
    }

    /// Records what is known of `value`, just made by a rewrite to replace a value known as
    /// `known`: its own reading, unless that makes it a root where `known` is not (the new op
    /// computes what the analysis cannot read; it still means what the old value did).
    pub fn adopt(&mut self, value: Value, known: &Rc<Known>) {
        let key = value_key(value);
        let Some(fresh) = self.known(value) else {
            return;
        };
        let opaque = matches!(fresh.expr.as_var(), Some(VarRef::Dim(r)) if self.root_ids.get(&key) == Some(&r));
        if !opaque || known.expr.as_var().is_some() {
            return;
        }
        self.record(key, known.clone());
    }

    /// Keeps `known` as what is known of the value with `key`, and finds the value by its
    /// expression (unless that is a constant or the value's own root).
    fn record(&mut self, key: usize, known: Rc<Known>) {
        let own_root = matches!(known.expr.as_var(), Some(VarRef::Dim(r)) if self.root_ids.get(&key) == Some(&r));
        if !own_root && known.expr.as_constant().is_none() {
            self.by_expr
                .entry(known.expr.clone())
                .or_default()
                .push(key);
        }
        self.value_dependents.add(key, &known.depends);
        self.known.insert(key, known);
    }

    /// What is known of `value`; `None` when it is not an integer or index.
    pub fn known(&mut self, value: Value) -> Option<Rc<Known>> {
        self.known_at_depth(value, 0)
    }

    pub(super) fn known_at_depth(&mut self, value: Value, depth: usize) -> Option<Rc<Known>> {
        let key = value_key(value);
        if let Some(known) = self.known.get(&key) {
            return Some(known.clone());
        }
        let width = int_width(value.r#type())?;
        let producer = defining_op(value);
        let exact = producer.as_ref().is_some_and(exact_by_definition);
        let read = match producer {
            Some(op) if depth < MAX_DEPTH => {
                let index = (0..op.result_count())
                    .find(|&i| op.result(i).is_ok_and(|r| Value::from(r) == value))
                    .unwrap_or(0);
                self.read_op(&op, index, width, depth + 1)
            }
            _ => None,
        };
        let mut known = match read {
            Some(Read::Exact(reading)) => self.composed(value, reading, width, exact),
            Some(Read::Root(range)) => Some(self.root(value, width, range)),
            None => None,
        }
        .unwrap_or_else(|| self.root(value, width, Interval::FULL));
        known.depends = self.dependencies(value, &known);
        let known = Rc::new(known);
        self.record(key, known.clone());
        self.compare_revised(value, &known);
        Some(known)
    }

    /// The known value of a composed reading, simplified where `value` is defined, or `None`
    /// when it must be a root (too large, unreachable, or, unless the op computes on integers
    /// (`exact`), outside its type's range).
    fn composed(
        &mut self,
        value: Value,
        reading: Reading,
        width: u32,
        exact: bool,
    ) -> Option<Known> {
        let Reading { expr, facts } = reading;
        if !within_terms(&expr, MAX_TERMS) {
            return None;
        }
        let facts = normalized(facts);
        let mut context = facts.clone();
        if let Some(block) = defining_op(value).and_then(|op| parent_block(&op)) {
            context.extend(self.facts_of_block(block).iter().cloned());
        }
        let (simplified, range) = self.simplify(&expr, &context)?;
        if !(exact || width == 1 || fits(range, width)) {
            return None;
        }
        Some(Known {
            settled: simplified == expr,
            expr: simplified,
            range,
            facts: facts.into(),
            width,
            ty: type_key(value.r#type()),
            depends: Depends::All,
        })
    }

    /// Makes `value` a root, within `hint` and the range [`Ranges`] finds.
    fn root(&mut self, value: Value, width: u32, hint: Interval) -> Known {
        let key = value_key(value);
        let id = match self.root_ids.get(&key) {
            Some(id) => *id,
            None => {
                let range = self.ranges.of(value).intersect(hint);
                self.roots.push(Root {
                    value: ValueHandle::of(value),
                    range,
                });
                let id = (self.roots.len() - 1) as u32;
                self.root_ids.insert(key, id);
                id
            }
        };
        Known {
            settled: true,
            expr: Expr::dim(id),
            range: self.roots[id as usize].range,
            facts: Rc::new([]),
            width,
            ty: type_key(value.r#type()),
            depends: Depends::All,
        }
    }

    /// The roots `known` (of `value`) was found from: its own if it is a root, those its
    /// expression and facts use, those its op's operands were found from, and those of the
    /// facts of its block.
    fn dependencies(&mut self, value: Value, known: &Known) -> Depends {
        let mut parts = Vec::new();
        if let Some(op) = defining_op(value) {
            if let Some(block) = parent_block(&op) {
                parts.push(self.block_entry(block).depends);
            }
            for i in 0..op.operand_count() {
                let operand = op
                    .operand(i)
                    .ok()
                    .and_then(|v| self.known.get(&value_key(v)));
                if let Some(k) = operand {
                    parts.push(k.depends.clone());
                }
            }
        }
        let exprs: Vec<&Expr> = std::iter::once(&known.expr)
            .chain(known.facts.iter().map(|(e, _)| e))
            .collect();
        Depends::of(&parts, &exprs)
    }

    /// Whether `known` (of `value`) is `value`'s own root.
    pub fn is_own_root(&self, value: Value, known: &Known) -> bool {
        matches!(known.expr.as_var(), Some(VarRef::Dim(r)) if self.root_ids.get(&value_key(value)) == Some(&r))
    }

    /// The value of root `id`.
    pub fn root_value<'c, 'a>(&self, id: u32) -> Value<'c, 'a> {
        // SAFETY: roots are forgotten when their value is erased, so the value is live.
        unsafe { self.roots[id as usize].value.get() }
    }

    /// The range of root `id`.
    pub fn root_range(&self, id: u32) -> Interval {
        self.roots[id as usize].range
    }

    /// Live values whose expression is `expr` (a root's own value not included): all of them,
    /// or, past [`MAX_CANDIDATES`], the first and the latest met (the outermost and the
    /// nearest), so that a function with many equal values stays linear.
    pub fn values_of<'c, 'a>(&self, expr: &Expr) -> Vec<Value<'c, 'a>> {
        self.by_expr.get(expr).map_or_else(Vec::new, |keys| {
            let half = MAX_CANDIDATES / 2;
            let keys: Vec<&usize> = if keys.len() > MAX_CANDIDATES {
                keys[..half]
                    .iter()
                    .chain(&keys[keys.len() - half..])
                    .collect()
            } else {
                keys.iter().collect()
            };
            keys.into_iter()
                // SAFETY: keys of erased values are dropped from `by_expr`, so these are live.
                .map(|key| unsafe { ValueHandle::from_key(*key).get() })
                .collect()
        })
    }

    /// The facts that hold wherever `block` runs: those of the blocks around it and those its
    /// parent op gives it (see `semantics.rs`).
    pub fn facts_of_block(&mut self, block: BlockRef) -> Rc<[Fact]> {
        self.block_entry(block).facts
    }

    fn block_entry(&mut self, block: BlockRef) -> BlockFacts {
        let key = BlockHandle::of(&block).key();
        if let Some(entry) = self.block_facts.get(&key) {
            return entry.clone();
        }
        let mut facts = Vec::new();
        let mut parts = Vec::new();
        if let Some(parent) = block.parent_operation() {
            if let Some(outer) = parent_block(&parent) {
                let outer = self.block_entry(outer);
                facts.extend(outer.facts.iter().cloned());
                parts.push(outer.depends);
            }
            facts.extend(self.entry_facts(&parent, block));
            for i in 0..parent.operand_count() {
                let operand = parent
                    .operand(i)
                    .ok()
                    .and_then(|v| self.known.get(&value_key(v)));
                if let Some(k) = operand {
                    parts.push(k.depends.clone());
                }
            }
        }
        let facts: Rc<[Fact]> = normalized(facts).into();
        let exprs: Vec<&Expr> = facts.iter().map(|(e, _)| e).collect();
        let entry = BlockFacts {
            depends: Depends::of(&parts, &exprs),
            facts,
        };
        self.block_dependents.add(key, &entry.depends);
        self.block_facts.insert(key, entry.clone());
        entry
    }

    /// Simplifies `e`, over dimensions of `ranges` (not roots), with its range; cached as the
    /// simplifications of roots' expressions are.
    pub fn simplify_over(&mut self, e: &Expr, ranges: &[Interval]) -> Simplified {
        let key = (e.clone(), ranges.to_vec(), Vec::new());
        if let Some(s) = self.simplified.get(&key) {
            return s.clone();
        }
        let s = simplify_local(&key.0, &key.1, &key.2);
        self.simplified.insert(key, s.clone());
        s
    }

    /// Whether no point of the roots' ranges satisfies all of `facts` (over roots) together, as
    /// the core's simplifier proves it (`d0 mod 2 = 1` and `d0 - 2 * (d0 floordiv 2) = 0`).
    pub fn known_empty(&mut self, facts: &[Fact]) -> bool {
        let roots = roots_of(facts.iter().map(|(x, _)| x));
        let local = |x: &Expr| renumber(x, |i| roots.binary_search(&i).ok().map(|l| l as u32));
        let Some(facts) = facts
            .iter()
            .map(|(x, i)| Some((local(x)?, *i)))
            .collect::<Option<Vec<Fact>>>()
        else {
            return false;
        };
        let dims = roots
            .iter()
            .map(|&r| Var::new(self.root_range(r)))
            .collect();
        let mut map = IndexingMap::new(Vec::new(), dims, Vec::new(), Vec::new());
        for (x, interval) in facts {
            map.add_constraint(x, interval);
        }
        map.simplify();
        map.is_known_empty()
    }

    /// Simplifies `e` (over roots) assuming `facts`, with its range. Only the facts that share
    /// roots with `e` (directly or through other such facts) take part.
    pub fn simplify(&mut self, e: &Expr, facts: &[Fact]) -> Simplified {
        // A root that takes one value is that constant.
        let point = |this: &Self, v: VarRef| match v {
            VarRef::Dim(r) => this.root_range(r).as_point().map(Expr::constant),
            VarRef::Sym(_) => None,
        };
        let mut has_point = false;
        let mut find_points =
            |x: &Expr| x.for_each_var(&mut |v| has_point |= point(self, v).is_some());
        find_points(e);
        facts.iter().for_each(|(x, _)| find_points(x));
        let (e, facts): (Expr, Vec<Fact>) = if has_point {
            let e = e.rewrite_vars(&mut |v| point(self, v)).ok()?;
            let facts = facts
                .iter()
                .map(|(x, i)| Some((x.rewrite_vars(&mut |v| point(self, v)).ok()?, *i)))
                .collect::<Option<_>>()?;
            (e, facts)
        } else {
            (e.clone(), facts.to_vec())
        };
        let e = &e;
        let facts = relevant(e, &facts);
        let roots = roots_of(std::iter::once(e).chain(facts.iter().map(|(x, _)| x)));
        let local = |x: &Expr| renumber(x, |i| roots.binary_search(&i).ok().map(|l| l as u32));
        let global = |x: &Expr| renumber(x, |i| roots.get(i as usize).copied());
        let ranges: Vec<Interval> = roots.iter().map(|&r| self.root_range(r)).collect();
        let e_local = local(e)?;
        if facts.is_empty() && !has_nonlinear_atom(e) {
            return Some((e.clone(), linear_range(&e_local, &ranges)));
        }
        let facts_local: Vec<Fact> = facts
            .iter()
            .map(|(x, i)| Some((local(x)?, *i)))
            .collect::<Option<_>>()?;
        let key = (e_local, ranges, facts_local);
        let simplified = match self.simplified.get(&key) {
            Some(s) => s.clone(),
            None => {
                let s = simplify_local(&key.0, &key.1, &key.2);
                self.simplified.insert(key, s.clone());
                s
            }
        };
        let (expr, range) = simplified?;
        Some((global(&expr)?, range))
    }
}

/// Whether `op`'s result is, wherever it is defined, what its reading gives even where that
/// leaves the type: affine and indexing maps compute on integers, not in a type that wraps; an
/// `addi`, `subi` or `muli` with `nsw` is poison where it would wrap, so wherever it is defined
/// it is the integer result (and where it is not, any value refines it); a select, `min` or `max`
/// is read as one of its operands, a value of its type.
fn exact_by_definition(op: &OperationRef) -> bool {
    match IndexOp::of(op) {
        Some(
            IndexOp::AffineApply
            | IndexOp::AffineMinMax { .. }
            | IndexOp::ApplyIndexing
            | IndexOp::Select
            | IndexOp::MinMax { .. },
        ) => true,
        Some(IndexOp::Add | IndexOp::Sub | IndexOp::Mul) => Flags::of(op).nsw,
        _ => false,
    }
}

/// Facts sorted, without repeats, at most [`MAX_FACTS`] (dropping facts only weakens what is
/// assumed).
fn normalized(mut facts: Vec<Fact>) -> Vec<Fact> {
    facts.sort();
    facts.dedup();
    facts.truncate(MAX_FACTS);
    facts
}

/// The facts sharing roots with `e`, directly or through other relevant facts.
fn relevant(e: &Expr, facts: &[Fact]) -> Vec<Fact> {
    if facts.is_empty() {
        return Vec::new();
    }
    let mut vars: HashSet<VarRef> = e.distinct_vars().into_iter().collect();
    let mut taken = vec![false; facts.len()];
    loop {
        let mut grew = false;
        for (i, (x, _)) in facts.iter().enumerate() {
            let xs = x.distinct_vars();
            if !taken[i] && xs.iter().any(|v| vars.contains(v)) {
                taken[i] = true;
                vars.extend(xs);
                grew = true;
            }
        }
        if !grew {
            break;
        }
    }
    facts
        .iter()
        .zip(taken)
        .filter(|(_, t)| *t)
        .map(|(f, _)| f.clone())
        .collect()
}

/// `e` with each dimension `i` renamed to `rename(i)`; `None` if one has no new name.
fn renumber(e: &Expr, rename: impl Fn(u32) -> Option<u32>) -> Option<Expr> {
    let mut missing = false;
    let renamed = e
        .rewrite_vars(&mut |v| match v {
            VarRef::Dim(i) => match rename(i) {
                Some(j) => Some(Expr::dim(j)),
                None => {
                    missing = true;
                    None
                }
            },
            VarRef::Sym(_) => None,
        })
        .ok()?;
    (!missing).then_some(renamed)
}

/// Simplifies `e` over dimensions of `ranges`, assuming `facts`.
fn simplify_local(e: &Expr, ranges: &[Interval], facts: &[Fact]) -> Simplified {
    let dims = ranges.iter().map(|r| Var::new(*r)).collect();
    let mut map = IndexingMap::new(vec![e.clone()], dims, Vec::new(), Vec::new());
    for (x, interval) in facts {
        map.add_constraint(x.clone(), *interval);
    }
    map.simplify();
    if map.is_known_empty() {
        return None;
    }
    let result = map.results()[0].clone();
    let range = map.expr_range(&result);
    range.is_feasible().then_some((result, range))
}

/// The range of a sum of dimensions of `ranges` (no divisions).
fn linear_range(e: &Expr, ranges: &[Interval]) -> Interval {
    e.terms()
        .iter()
        .fold(Interval::point(e.constant_term()), |acc, (atom, c)| {
            let range = match atom {
                Atom::Var(VarRef::Dim(i)) => ranges[*i as usize],
                _ => Interval::FULL,
            };
            acc + range.scale(*c)
        })
}

/// Whether `e` is more than a sum of multiples of variables: it divides, takes a remainder, a
/// `min` or a `max` somewhere.
pub fn has_nonlinear_atom(e: &Expr) -> bool {
    e.terms()
        .iter()
        .any(|(atom, _)| !matches!(atom, Atom::Var(_)))
}

/// Whether `e` has at most `limit` terms, counting those inside divisions, `min` and `max`.
fn within_terms(e: &Expr, limit: usize) -> bool {
    fn count(e: &Expr, left: &mut usize) -> bool {
        for (atom, _) in e.terms() {
            if *left == 0 {
                return false;
            }
            *left -= 1;
            if !atom.operands().all(|x| count(x, left)) {
                return false;
            }
        }
        true
    }
    let mut left = limit;
    count(e, &mut left)
}
