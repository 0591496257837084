//! Conditions on tile sizes and tile ids: a disjunction of conjunctions of `expr in interval`
//! (the shape of XLA's `ConstraintExpression`), under which a symbolic tile is exact.

use xla_indexing_core::print::Names;
use xla_indexing_core::{Expr, IndexingMap, Interval, VarRef};

/// One condition: the value of the expression lies in the interval.
pub type Condition = (Expr, Interval);

/// `any_of[0] || any_of[1] || ...`, each a conjunction of conditions. No conjunction is false;
/// one empty conjunction is true.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TileConstraints {
    /// The conjunctions, any of which suffices.
    pub any_of: Vec<Vec<Condition>>,
}

/// The most conjunctions kept; a disjunction that grows past it is cut to `never`, which only
/// makes a tile claim exactness less often.
const MAX_CONJUNCTIONS: usize = 1024;

impl TileConstraints {
    /// Always true.
    pub fn always() -> Self {
        TileConstraints {
            any_of: vec![Vec::new()],
        }
    }

    /// Never true.
    pub fn never() -> Self {
        TileConstraints { any_of: Vec::new() }
    }

    /// `e in iv`.
    pub fn when(e: Expr, iv: Interval) -> Self {
        Self::all(vec![(e, iv)])
    }

    /// The conjunction of `conditions`.
    pub fn all(conditions: Vec<Condition>) -> Self {
        TileConstraints {
            any_of: vec![conditions],
        }
    }

    /// `true` (`always`) or `false` (`never`).
    pub fn from_bool(b: bool) -> Self {
        if b { Self::always() } else { Self::never() }
    }

    /// Whether it is trivially true.
    pub fn is_always(&self) -> bool {
        self.any_of.iter().any(Vec::is_empty)
    }

    /// Whether it is false.
    pub fn is_never(&self) -> bool {
        self.any_of.is_empty()
    }

    /// `self && other`, distributed over the disjunctions.
    pub fn and(&self, other: &Self) -> Self {
        let mut any_of = Vec::new();
        for a in &self.any_of {
            for b in &other.any_of {
                let mut c = a.clone();
                for x in b {
                    if !c.contains(x) {
                        c.push(x.clone());
                    }
                }
                any_of.push(c);
            }
        }
        Self::bounded(any_of)
    }

    /// `self || other`.
    pub fn or(&self, other: &Self) -> Self {
        let mut any_of = self.any_of.clone();
        any_of.extend(other.any_of.iter().cloned());
        Self::bounded(any_of)
    }

    fn bounded(mut any_of: Vec<Vec<Condition>>) -> Self {
        if any_of.iter().any(Vec::is_empty) {
            return Self::always();
        }
        any_of.dedup();
        if any_of.len() > MAX_CONJUNCTIONS {
            any_of.clear();
        }
        TileConstraints { any_of }
    }

    /// Whether it holds where the variables have the values `value` gives; a condition whose
    /// expression is undefined there (a division by zero) does not hold.
    pub fn holds(&self, value: &impl Fn(VarRef) -> Option<i64>) -> bool {
        self.any_of.iter().any(|c| {
            c.iter()
                .all(|(e, iv)| e.eval_at(value).is_some_and(|v| iv.contains(v)))
        })
    }

    /// The same condition with what the bounds of `domain`'s variables decide taken out (a
    /// condition the range of its expression satisfies is dropped, a conjunction with one it
    /// cannot satisfy is dropped), in a smaller form: conditions on one expression intersected,
    /// conjunctions that differ in one expression's interval united where the intervals touch,
    /// `(e in a) || (e in b && R)` widened to `(e in a) || (e in a + b && R)`, and a conjunction
    /// that holds every condition of another dropped.
    pub fn simplified(&self, domain: &IndexingMap) -> Self {
        let mut any_of: Vec<Vec<Condition>> = self
            .any_of
            .iter()
            .filter_map(|c| reduced(c, domain))
            .collect();
        for _ in 0..8 {
            let before = any_of.clone();
            widen_by_single_conditions(&mut any_of);
            any_of = any_of.iter().filter_map(|c| reduced(c, domain)).collect();
            merge_touching(&mut any_of);
            absorb(&mut any_of);
            if any_of == before {
                break;
            }
        }
        Self::bounded(any_of)
    }

    /// An equivalent condition over `domain` with fewer conditions, found by comparing truth
    /// tables over every point of the variables it names (at most `limit` points; larger ones
    /// are returned as they are): each conjunction, then each condition, the longest first, is
    /// dropped where the table stays the same.
    pub fn minimized(&self, domain: &IndexingMap, limit: u128) -> Self {
        let Some(tables) = Tables::of(self, domain, limit) else {
            return self.clone();
        };
        let want = tables.of_dnf(&self.any_of);
        // The longest first: a condition is dropped in favour of shorter equivalents.
        let length = |c: &Condition| format!("{c:?}").len();
        let mut best = self.any_of.clone();
        for c in &mut best {
            c.sort_by_key(|x| std::cmp::Reverse(length(x)));
        }
        best.sort_by_key(|c| std::cmp::Reverse(c.iter().map(length).sum::<usize>()));
        let mut i = 0;
        while i < best.len() {
            let mut fewer = best.clone();
            fewer.remove(i);
            if tables.of_dnf(&fewer) == want {
                best = fewer;
                continue;
            }
            let mut k = 0;
            while k < best[i].len() {
                let mut fewer = best.clone();
                fewer[i].remove(k);
                if tables.of_dnf(&fewer) == want {
                    best = fewer;
                } else {
                    k += 1;
                }
            }
            i += 1;
        }
        Self::bounded(best)
    }

    /// The text, `a && b || c`, with the variables named by `names`; `true` or `false` when
    /// trivial.
    pub fn text(&self, names: &Names<'_>) -> String {
        if self.is_always() {
            return "true".into();
        }
        if self.is_never() {
            return "false".into();
        }
        self.any_of
            .iter()
            .map(|c| {
                c.iter()
                    .map(|(e, iv)| condition_text(e, *iv, names))
                    .collect::<Vec<_>>()
                    .join(" && ")
            })
            .collect::<Vec<_>>()
            .join(" || ")
    }
}

/// `e == v`, `e >= lo`, `e <= hi` or `e in [lo, hi]`; a variable plus a constant is written
/// as the variable in the shifted interval (`ts1 >= 16`, not `ts1 - 16 >= 0`).
fn condition_text(e: &Expr, iv: Interval, names: &Names<'_>) -> String {
    let c = e.constant_term();
    let (e, iv) = match e.without_constant().as_var() {
        Some(_) if c != 0 => {
            let shift = |x: i64| match x {
                i64::MIN | i64::MAX => x,
                _ => x.saturating_sub(c),
            };
            (
                e.without_constant(),
                Interval::new(shift(iv.lo), shift(iv.hi)),
            )
        }
        _ => (e.clone(), iv),
    };
    let e = e.display(names);
    match (iv.lo, iv.hi) {
        (lo, hi) if lo == hi => format!("{e} == {lo}"),
        (lo, i64::MAX) => format!("{e} >= {lo}"),
        (i64::MIN, hi) => format!("{e} <= {hi}"),
        (lo, hi) => format!("{e} in [{lo}, {hi}]"),
    }
}

/// `a` and `b` as one interval, where they overlap or touch.
fn union(a: Interval, b: Interval) -> Option<Interval> {
    (a.lo.max(b.lo) <= a.hi.min(b.hi).saturating_add(1))
        .then(|| Interval::new(a.lo.min(b.lo), a.hi.max(b.hi)))
}

/// One conjunction with the conditions on one expression intersected and those the domain
/// implies dropped, sorted; `None` where it cannot hold.
fn reduced(c: &[Condition], domain: &IndexingMap) -> Option<Vec<Condition>> {
    let mut out: Vec<Condition> = Vec::new();
    for (e, iv) in c {
        match out.iter_mut().find(|(x, _)| x == e) {
            Some((_, j)) => *j = j.intersect(*iv),
            None => out.push((e.clone(), *iv)),
        }
    }
    let mut kept = Vec::new();
    for (e, iv) in out {
        let range = domain.expr_range(&e);
        if !range.intersect(iv).is_feasible() {
            return None;
        }
        if !iv.contains_interval(range) {
            kept.push((e, iv));
        }
    }
    kept.sort();
    Some(kept)
}

/// `(e in a) || (e in b && R)` is `(e in a) || (e in a + b && R)` where `a` and `b` touch.
fn widen_by_single_conditions(any_of: &mut [Vec<Condition>]) {
    let singles: Vec<Condition> = any_of
        .iter()
        .filter(|c| c.len() == 1)
        .map(|c| c[0].clone())
        .collect();
    for c in any_of.iter_mut().filter(|c| c.len() > 1) {
        for (e, iv) in c.iter_mut() {
            for (x, a) in &singles {
                if let Some(u) = union(*a, *iv).filter(|_| x == e) {
                    *iv = u;
                }
            }
        }
    }
}

/// Two conjunctions equal but for the interval of one expression, whose intervals touch, are
/// one.
fn merge_touching(any_of: &mut Vec<Vec<Condition>>) {
    let mut i = 0;
    while i < any_of.len() {
        let mut merged = false;
        for j in i + 1..any_of.len() {
            let (a, b) = (&any_of[i], &any_of[j]);
            if a.len() != b.len() {
                continue;
            }
            let differ: Vec<usize> = (0..a.len()).filter(|&k| a[k] != b[k]).collect();
            let united = match differ[..] {
                [k] if a[k].0 == b[k].0 => union(a[k].1, b[k].1).map(|u| (k, u)),
                _ => None,
            };
            if let Some((k, u)) = united {
                any_of[i][k].1 = u;
                any_of.remove(j);
                merged = true;
                break;
            }
        }
        if !merged {
            i += 1;
        }
    }
}

/// Drops every conjunction that holds all the conditions of another (and duplicates).
fn absorb(any_of: &mut Vec<Vec<Condition>>) {
    let mut keep: Vec<Vec<Condition>> = Vec::new();
    for (i, c) in any_of.iter().enumerate() {
        let absorbed = any_of.iter().enumerate().any(|(j, d)| {
            j != i && d.iter().all(|x| c.contains(x)) && (d.len() < c.len() || j < i)
        });
        if !absorbed {
            keep.push(c.clone());
        }
    }
    *any_of = keep;
}

/// The truth table of every condition of a disjunction over every point of the variables it
/// names, as bit sets, so that tables of disjunctions are unions of intersections.
struct Tables {
    conditions: Vec<Condition>,
    bits: Vec<Vec<u64>>,
    words: usize,
}

impl Tables {
    /// `None` past `limit` points or where a variable has no bounds.
    fn of(c: &TileConstraints, domain: &IndexingMap, limit: u128) -> Option<Tables> {
        let mut vars: Vec<VarRef> = Vec::new();
        let mut conditions: Vec<Condition> = Vec::new();
        for x in c.any_of.iter().flatten() {
            x.0.for_each_var(&mut |v| {
                if !vars.contains(&v) {
                    vars.push(v)
                }
            });
            if !conditions.contains(x) {
                conditions.push(x.clone());
            }
        }
        let bounds: Vec<Interval> = vars
            .iter()
            .map(|&v| domain.var(v).map(|x| x.bounds))
            .collect::<Option<_>>()?;
        let points = bounds
            .iter()
            .fold(1u128, |a, b| a.saturating_mul(b.count()));
        if points > limit || bounds.iter().any(|b| !b.is_feasible()) {
            return None;
        }
        let n = points as usize;
        let words = n.div_ceil(64);
        let mut bits = vec![vec![0u64; words]; conditions.len()];
        let mut p: Vec<i64> = bounds.iter().map(|b| b.lo).collect();
        for index in 0..n {
            let value = |v: VarRef| vars.iter().position(|&x| x == v).map(|i| p[i]);
            for (k, (e, iv)) in conditions.iter().enumerate() {
                if e.eval_at(&value).is_some_and(|x| iv.contains(x)) {
                    bits[k][index / 64] |= 1 << (index % 64);
                }
            }
            for (x, b) in p.iter_mut().zip(&bounds).rev() {
                if *x < b.hi {
                    *x += 1;
                    break;
                }
                *x = b.lo;
            }
        }
        Some(Tables {
            conditions,
            bits,
            words,
        })
    }

    /// The table of a disjunction of conjunctions of the conditions.
    fn of_dnf(&self, any_of: &[Vec<Condition>]) -> Vec<u64> {
        let mut out = vec![0u64; self.words];
        for c in any_of {
            let mut all = vec![u64::MAX; self.words];
            for x in c {
                let k = self
                    .conditions
                    .iter()
                    .position(|y| y == x)
                    .expect("a known condition");
                for (a, b) in all.iter_mut().zip(&self.bits[k]) {
                    *a &= b;
                }
            }
            for (o, a) in out.iter_mut().zip(&all) {
                *o |= a;
            }
        }
        out
    }
}
