//! Symbolic tiles: the tile of an operand that one output tile reads, with the output's tile
//! sizes as symbols (XLA's `SymbolicTile`, derived our own way and exact in more cases).
//!
//! Output dimension `i` of size `D_i` is cut into tiles of `ts_i` elements: tile `t_i` covers
//! `t_i * ts_i + [0, ts_i - 1]`. Each operand dimension's tile is an arithmetic progression
//! `offset + k * stride`, `k` in `[0, size - 1]`: the offset an expression of the tile ids `t`,
//! the sizes `ts` and the runtime variables, size and stride expressions of `ts`. The tile is
//! *exact* (exactly the elements a full tile reads) under [`SymbolicTile::constraints`], a
//! disjunction of conjunctions over `ts`; where that fails, the read of some full tile is not
//! such a progression, or not the same shape for every tile.
//!
//! Each operand dimension's expression is a sum of *pieces* over distinct variables, each a
//! variable (an output dimension, whose values over a tile are `ts_i` consecutive ones from the
//! aligned offset `t_i * ts_i`, or a range variable, all of its values) under `floordiv` and
//! `mod` by constants, scaled:
//! - `x floordiv k` of `n` consecutive values from a multiple of `n`: from `offset floordiv k`,
//!   `(n - 1) floordiv k + 1` values, all of them for every tile exactly when `n mod k` divides
//!   `k` (XLA asks that `n` divide `k` or `k` divide `n`; `n = 24`, `k = 16` is exact too);
//! - `x mod k`: `min(n, k)` values, consecutive from `offset mod k` when `n` divides `k`, all
//!   residues when `n >= k` (XLA asks `k` to divide `n`);
//! - a dimension with a single full tile starts at 0, where both are exact for any `n`;
//! - a sum of progressions of constant strides `s_j` and sizes `n_j` over distinct variables:
//!   with `J` the pieces of more than one value, sorted by stride, it is a progression exactly
//!   when every stride in `J` is a multiple of the least, `s_1`, and no stride leaves a gap,
//!   `s_{l+1} <= s_1 + sum_{i <= l} (n_i - 1) s_i`; its stride is `s_1`, its size the span over
//!   `s_1` plus one. Which pieces have one value depends on `ts`, so the condition is a
//!   condition over the choices of `J`, and the stride and size pick the least stride of more
//!   than one value through `min(n - 1, 1)` (1 where `n > 1`, 0 where `n = 1`).
//!
//! Operand dimensions that share a variable (a reshape's `floordiv` and `mod` of one dimension)
//! are exact together when each is and the product of their sizes equals the number of points of
//! the variables they share, where the map from those variables is one-to-one (checked by
//! enumerating their domain). Constraints of the map that involve a tile variable limit the read:
//! the tile over-approximates whatever the sizes and says why.

use xla_indexing_core::print::Names;
use xla_indexing_core::{Atom, Division, Expr, IndexingMap, Interval, Var, VarRef};
use xla_indexing_hlo::access::Access;

use crate::tile_constraints::TileConstraints;
use crate::tiles::{TileError, enumerate};

/// The tile of one operand read by an output tile of symbolic sizes.
#[derive(Clone, Debug, PartialEq)]
pub struct SymbolicTile {
    /// `(t..)[ts..]{rt..} -> (offsets..)`: the tile's first element per operand dimension. Its
    /// domain declares the variables of every expression of the tile: the tile ids
    /// `t_i in [0, D_i - 1]`, the tile sizes `ts_i in [1, D_i]`, the runtime variables.
    pub offsets: IndexingMap,
    /// Positions of the tile per operand dimension, expressions of `ts`.
    pub sizes: Vec<Expr>,
    /// Steps between positions per operand dimension, expressions of `ts` (meaningless where
    /// the size is 1).
    pub strides: Vec<Expr>,
    /// When the tile describes what a full output tile reads: exactly where `over` is empty,
    /// else a superset of it. Where the constraints fail, the read of some full tile is not a
    /// progression per dimension, or not of one shape for every tile.
    pub constraints: TileConstraints,
    /// Why the tile over-approximates at every size (empty when it is exact under its
    /// constraints).
    pub over: Vec<String>,
    /// Where the tile over-approximates: at most how many of its elements a full tile that
    /// reads anything leaves unread, an expression of `ts` (the tile's elements less those of
    /// the dimensions no limited variable moves, which such a tile reads whole).
    pub extra_bound: Option<Expr>,
}

/// A symbolic tile at concrete sizes.
#[derive(Clone, Debug, PartialEq)]
pub struct TileInstance {
    /// `(t..){rt..} -> (offsets..)`.
    pub offsets: IndexingMap,
    /// Positions per operand dimension.
    pub sizes: Vec<i64>,
    /// Steps per operand dimension, 0 where the size is 1.
    pub strides: Vec<i64>,
    /// Whether the tile is exact at these sizes.
    pub exact: bool,
}

impl SymbolicTile {
    /// The names of the variables, `t..`, `ts..`, `rt..`.
    pub fn names(&self) -> (Vec<String>, Vec<String>) {
        self.offsets.var_names()
    }

    /// An expression of the tile printed with its variables' names.
    pub fn show(&self, e: &Expr) -> String {
        let (dims, syms) = self.names();
        e.display(&Names {
            dims: &dims,
            syms: &syms,
        })
        .to_string()
    }

    /// The constraints as text.
    pub fn condition_text(&self) -> String {
        let (dims, syms) = self.names();
        self.constraints.text(&Names {
            dims: &dims,
            syms: &syms,
        })
    }

    /// Whether the constraints hold at tile sizes `ts` (and runtime values, where a condition
    /// names them, `rt`).
    pub fn holds_at(&self, ts: &[i64], rt: &[i64]) -> bool {
        self.constraints.holds(&|v| value_at(v, ts, rt))
    }

    /// Whether the tile is exact at tile sizes `ts` and runtime values `rt`.
    pub fn exact_at(&self, ts: &[i64], rt: &[i64]) -> bool {
        self.over.is_empty() && self.holds_at(ts, rt)
    }

    /// The tile at sizes `ts` (each in `[1, D_i]`); `None` where an expression is undefined.
    pub fn instantiate(&self, ts: &[i64]) -> Option<TileInstance> {
        let r = ts.len();
        let fixed = |e: &Expr| e.eval_at(&|v| value_at(v, ts, &[]));
        let sizes: Vec<i64> = self.sizes.iter().map(fixed).collect::<Option<_>>()?;
        let strides: Vec<i64> = self
            .strides
            .iter()
            .zip(&sizes)
            .map(|(e, &n)| if n == 1 { Some(0) } else { fixed(e) })
            .collect::<Option<_>>()?;
        let syms: Vec<Expr> = (0..self.offsets.num_symbols())
            .map(|i| {
                if i < r {
                    Expr::constant(ts[i])
                } else {
                    Expr::sym((i - r) as u32)
                }
            })
            .collect();
        let dims: Vec<Expr> = (0..r).map(|i| Expr::dim(i as u32)).collect();
        let offsets = self
            .offsets
            .results()
            .iter()
            .map(|e| e.substitute(&dims, &syms).ok())
            .collect::<Option<Vec<_>>>()?;
        let mut map = IndexingMap::new(
            offsets,
            self.offsets.dims().to_vec(),
            Vec::new(),
            self.offsets.rt_vars().to_vec(),
        );
        map.simplify();
        let exact = self.exact_at(ts, &[]);
        Some(TileInstance {
            offsets: map,
            sizes,
            strides,
            exact,
        })
    }
}

/// The value of a variable of a symbolic tile's conditions and sizes: `ts_i` for symbol `i <
/// r`, then the runtime values; tile ids have none.
fn value_at(v: VarRef, ts: &[i64], rt: &[i64]) -> Option<i64> {
    match v {
        VarRef::Sym(i) => {
            let i = i as usize;
            ts.get(i).or_else(|| rt.get(i - ts.len())).copied()
        }
        VarRef::Dim(_) => None,
    }
}

/// The values of one expression over a tile: a progression and when it is exact.
#[derive(Clone, Debug)]
struct Piece {
    /// The least value.
    offset: Expr,
    /// The number of values.
    size: Expr,
    /// The step, positive.
    stride: i64,
    /// When the values are exactly the progression, for every full tile.
    exact: TileConstraints,
    /// When, in addition, the offset of every full tile is a multiple of the size (the tiles
    /// are blocks of a grid).
    aligned: TileConstraints,
    /// When the offset is 0 for every full tile (one full tile).
    single: TileConstraints,
    /// For an output dimension's own piece, whose offsets are `t * size`: the number of full
    /// tiles, `D floordiv ts`.
    grid: Option<Expr>,
    /// The access map's tile variables it uses.
    vars: Vec<VarRef>,
}

/// One operand dimension's tile.
struct Progression {
    offset: Expr,
    size: Expr,
    stride: Expr,
    exact: TileConstraints,
    vars: Vec<VarRef>,
}

/// The derivation for one access map.
struct Derivation<'a> {
    access: &'a IndexingMap,
    dims: &'a [i64],
    /// Range variables of the access map (its symbols before the runtime ones).
    nr: usize,
    /// Per runtime variable, whether its value varies within a tile (it is read at an element
    /// that moves with the output's); such a variable ranges over its bounds, like a range
    /// variable.
    varying: &'a [Option<String>],
    /// The variables of the tile's expressions (`t`, `ts`, `rt`) and their bounds.
    domain: &'a IndexingMap,
}

fn arith(e: Result<Expr, xla_indexing_core::ArithError>) -> Result<Expr, TileError> {
    e.map_err(|e| TileError(e.to_string()))
}

fn sub_const(e: &Expr, c: i64) -> Result<Expr, TileError> {
    arith(e.checked_add_const(-c))
}

/// `min(n - 1, 1)`: 1 where `n > 1`, 0 where `n = 1` (for `n >= 1`).
fn more_than_one(n: &Expr) -> Result<Expr, TileError> {
    Ok(Expr::min_of(&sub_const(n, 1)?, &Expr::constant(1)))
}

/// `k mod n`, a constant by an expression.
fn constant_mod(k: i64, n: &Expr) -> Result<Expr, TileError> {
    arith(Expr::constant(k).divide_by(Division::Mod, n))
}

fn zero(e: Expr) -> TileConstraints {
    TileConstraints::when(e, Interval::point(0))
}

fn at_least(e: Expr, lo: i64) -> TileConstraints {
    TileConstraints::when(e, Interval::new(lo, i64::MAX))
}

impl Derivation<'_> {
    /// A condition with what the bounds of the tile's variables decide taken out, so that
    /// conjunctions of several stay small.
    fn tidy(&self, c: &TileConstraints) -> TileConstraints {
        c.simplified(self.domain)
    }

    /// A piece with its conditions tidied.
    fn tidy_piece(&self, p: Piece) -> Piece {
        Piece {
            exact: self.tidy(&p.exact),
            aligned: self.tidy(&p.aligned),
            single: self.tidy(&p.single),
            ..p
        }
    }

    fn is_tile_var(&self, v: VarRef) -> bool {
        match v {
            VarRef::Dim(_) => true,
            VarRef::Sym(k) => {
                let k = k as usize;
                k < self.nr || self.varying.get(k - self.nr).is_some_and(Option::is_some)
            }
        }
    }

    fn uses_tile_vars(&self, e: &Expr) -> bool {
        let mut uses = false;
        e.for_each_var(&mut |v| uses |= self.is_tile_var(v));
        uses
    }

    fn show(&self, e: &Expr) -> String {
        let (dims, syms) = self.access.var_names();
        e.display(&Names {
            dims: &dims,
            syms: &syms,
        })
        .to_string()
    }

    /// An expression of runtime variables only, over the tile's variables.
    fn translate(&self, e: &Expr) -> Result<Expr, TileError> {
        let r = self.dims.len() as u32;
        let nr = self.nr as u32;
        arith(e.rewrite_vars(&mut |v| match v {
            VarRef::Sym(k) if k >= nr => Some(Expr::sym(r + k - nr)),
            _ => None,
        }))
    }

    fn var_piece(&self, v: VarRef) -> Result<Piece, TileError> {
        match v {
            VarRef::Dim(i) => {
                let d = self.dims[i as usize];
                let ts = Expr::sym(i);
                Ok(Piece {
                    offset: arith(Expr::dim(i).checked_mul(&ts))?,
                    size: ts.clone(),
                    stride: 1,
                    exact: TileConstraints::always(),
                    aligned: TileConstraints::always(),
                    single: TileConstraints::when(ts.clone(), Interval::new(d / 2 + 1, d)),
                    grid: Some(arith(Expr::constant(d).divide_by(Division::FloorDiv, &ts))?),
                    vars: vec![v],
                })
            }
            VarRef::Sym(_) => {
                let b = self
                    .access
                    .var(v)
                    .ok_or("the map names a variable it lacks")?
                    .bounds;
                let n = b.hi - b.lo + 1;
                Ok(Piece {
                    offset: Expr::constant(b.lo),
                    size: Expr::constant(n),
                    stride: 1,
                    exact: TileConstraints::always(),
                    aligned: TileConstraints::from_bool(b.lo % n == 0),
                    single: TileConstraints::from_bool(b.lo == 0),
                    grid: None,
                    vars: vec![v],
                })
            }
        }
    }

    /// The piece of an atom that uses a tile variable.
    fn atom_piece(&self, atom: &Atom) -> Result<Piece, TileError> {
        Ok(self.tidy_piece(self.untidy_atom_piece(atom)?))
    }

    fn untidy_atom_piece(&self, atom: &Atom) -> Result<Piece, TileError> {
        match atom {
            Atom::Var(v) => self.var_piece(*v),
            Atom::FloorDiv(x, k) => {
                let (p, c) = self.inner_piece(x)?;
                floor_div(p, c, *k)
            }
            Atom::Mod(x, k) => {
                let (p, c) = self.inner_piece(x)?;
                modulo(p, c, *k)
            }
            _ => Err(TileError(format!(
                "{} is not tiled symbolically (only sums of variables under floordiv and mod by constants are)",
                self.show(&Expr::atom(atom.clone()))
            ))),
        }
    }

    /// The piece of the operand of a `floordiv` or `mod` and its shift: one atom, unscaled,
    /// plus a constant.
    fn inner_piece(&self, x: &Expr) -> Result<(Piece, i64), TileError> {
        match x.terms() {
            [(atom, 1)] => Ok((self.atom_piece(atom)?, x.constant_term())),
            _ => Err(TileError(format!(
                "the division of {}: only one variable, shifted by a constant, under floordiv and mod is tiled symbolically",
                self.show(x)
            ))),
        }
    }

    /// The progression of one operand dimension's expression.
    fn progression(&self, e: &Expr) -> Result<Progression, TileError> {
        let mut fixed = self.translate(&Expr::constant(e.constant_term()))?;
        let mut pieces: Vec<Piece> = Vec::new();
        for (atom, c) in e.terms() {
            let term = Expr::atom(atom.clone());
            if !self.uses_tile_vars(&term) {
                fixed = arith(fixed.checked_add_scaled(&self.translate(&term)?, *c))?;
                continue;
            }
            let p = scaled(self.atom_piece(atom)?, *c)?;
            if let Some(q) = pieces
                .iter()
                .find(|q| q.vars.iter().any(|v| p.vars.contains(v)))
            {
                return Err(TileError(format!(
                    "{} and {} read the same variable: only sums of distinct variables are tiled symbolically",
                    self.show(&p.offset),
                    self.show(&q.offset)
                )));
            }
            pieces.push(p);
        }
        let mut p = sum(pieces, fixed)?;
        p.exact = self.tidy(&p.exact);
        Ok(p)
    }
}

/// `c * x` of a piece: the stride scales by `|c|`; a negative `c` reverses the progression, whose
/// least value is then `c` times the greatest.
fn scaled(p: Piece, c: i64) -> Result<Piece, TileError> {
    let stride = p.stride.checked_mul(c.abs()).ok_or("a stride overflows")?;
    let offset = if c > 0 {
        arith(p.offset.checked_scale(c))?
    } else {
        let last = arith(sub_const(&p.size, 1)?.checked_scale(p.stride))?;
        arith(arith(p.offset.checked_add(&last))?.checked_scale(c))?
    };
    let aligned = if c == 1 {
        p.aligned
    } else {
        TileConstraints::never()
    };
    Ok(Piece {
        offset,
        stride,
        aligned,
        grid: None,
        ..p
    })
}

/// `(p + c) floordiv k`: from `(offset + c) floordiv k`, `(n + c mod k - 1) floordiv k + 1`
/// values. Exact for every tile when the tiles are aligned and, for `c` a multiple of `k`, `n mod
/// k` divides `k` (`n mod k = r` and `g = gcd(n, k)` give offsets `t * n mod k` at every multiple
/// of `g`, and the count is the same for all of them exactly when `(n - 1) mod k < g`, that is `r
/// = g` or `r = 0`), for another `c`, `k` divides `n`; or when there is one full tile, whose
/// values are consecutive. Aligned again, unshifted, when `k` divides `n` or `n` divides `k`.
fn floor_div(p: Piece, c: i64, k: i64) -> Result<Piece, TileError> {
    if let (Some(o), Some(n)) = (p.offset.as_constant(), p.size.as_constant()) {
        let o = o.checked_add(c).ok_or("an offset overflows")?;
        let lo = o.div_euclid(k);
        let size = (o + n - 1).div_euclid(k) - lo + 1;
        return Ok(Piece {
            offset: Expr::constant(lo),
            size: Expr::constant(size),
            stride: 1,
            aligned: TileConstraints::from_bool(lo % size == 0),
            single: TileConstraints::from_bool(lo == 0),
            grid: None,
            ..p
        });
    }
    check_unit_stride(&p, "floordiv")?;
    let n = &p.size;
    let r = arith(n.modulo(k))?;
    let counts_agree = if c.rem_euclid(k) == 0 {
        zero(r.clone()).or(&zero(constant_mod(k, &r)?))
    } else {
        zero(r.clone())
    };
    let nests = zero(r.clone()).or(&zero(constant_mod(k, n)?));
    let unshifted = |x: TileConstraints| if c == 0 { x } else { TileConstraints::never() };
    // Over a grid of `f` full tiles whose offsets mod `k`, `c mod k + t * r`, do not wrap around,
    // the counts agree exactly when they agree at the first and the last offset.
    let mut bounded = TileConstraints::never();
    if let Some(f) = &p.grid {
        let first = Expr::constant(c.rem_euclid(k));
        let last = arith(first.checked_add(&arith(sub_const(f, 1)?.checked_mul(&r))?))?;
        let end = |x: &Expr| -> Result<Expr, TileError> {
            arith(arith(x.checked_add(&sub_const(n, 1)?))?.floor_div(k))
        };
        bounded = TileConstraints::all(vec![
            (last.clone(), Interval::new(i64::MIN, k - 1)),
            (
                arith(end(&first)?.checked_sub(&end(&last)?))?,
                Interval::point(0),
            ),
        ]);
    }
    Ok(Piece {
        offset: arith(arith(p.offset.checked_add_const(c))?.floor_div(k))?,
        size: arith(arith(sub_const(n, 1 - c.rem_euclid(k))?.floor_div(k))?.checked_add_const(1))?,
        stride: 1,
        exact: p
            .exact
            .and(&p.aligned.and(&counts_agree).or(&p.single).or(&bounded)),
        aligned: unshifted(p.aligned.and(&nests).or(&p.single)),
        single: unshifted(p.single),
        grid: None,
        vars: p.vars,
    })
}

/// `(p + c) mod k`: `min(n, k)` values from `min((offset + c) mod k, max(k - n, 0))`. Every
/// residue when `n >= k`; consecutive from `(offset + c) mod k` when the tiles are aligned and
/// `n` divides both `k` and `c` (no tile wraps around), or when one full tile starts at `c mod
/// k` and ends before `k`.
fn modulo(p: Piece, c: i64, k: i64) -> Result<Piece, TileError> {
    if let (Some(o), Some(n)) = (p.offset.as_constant(), p.size.as_constant()) {
        let o = o.checked_add(c).ok_or("an offset overflows")?;
        let (offset, size, fits) = if n >= k {
            (0, k, true)
        } else {
            let a = o.rem_euclid(k);
            (a, n, a + n <= k)
        };
        return Ok(Piece {
            offset: Expr::constant(offset),
            size: Expr::constant(size),
            stride: 1,
            exact: p.exact.and(&TileConstraints::from_bool(fits)),
            aligned: TileConstraints::from_bool(offset % size == 0),
            single: TileConstraints::from_bool(offset == 0),
            grid: None,
            vars: p.vars,
        });
    }
    check_unit_stride(&p, "mod")?;
    let n = &p.size;
    let covers = at_least(sub_const(n, k)?, 0);
    let mut fits = p.aligned.and(&zero(constant_mod(k, n)?));
    if c != 0 {
        fits = fits.and(&zero(constant_mod(c, n)?));
    }
    let start = c.rem_euclid(k);
    let single_fits = p.single.and(&TileConstraints::when(
        n.clone(),
        Interval::new(1, k - start),
    ));
    // Over a grid of `f` full tiles whose offsets mod `k`, `c mod k + t * (n mod k)`, stay
    // below `k - n`, no tile wraps around.
    let mut bounded = TileConstraints::never();
    if let Some(f) = &p.grid {
        let steps = arith(sub_const(f, 1)?.checked_mul(&arith(n.modulo(k))?))?;
        let last_end = arith(arith(steps.checked_add(n))?.checked_add_const(start))?;
        bounded = TileConstraints::when(last_end, Interval::new(i64::MIN, k));
    }
    let single_fits = single_fits.or(&bounded);
    let spare = Expr::max_of(&arith(Expr::constant(k).checked_sub(n))?, &Expr::zero());
    let whole = covers.or(&fits);
    let single = if start == 0 {
        p.single.clone()
    } else {
        TileConstraints::never()
    };
    Ok(Piece {
        offset: Expr::min_of(
            &arith(arith(p.offset.checked_add_const(c))?.modulo(k))?,
            &spare,
        ),
        size: Expr::min_of(n, &Expr::constant(k)),
        stride: 1,
        exact: p.exact.and(&whole.or(&single_fits)),
        aligned: whole.or(&single_fits.and(&single)),
        single: single.or(&covers),
        grid: None,
        vars: p.vars,
    })
}

fn check_unit_stride(p: &Piece, what: &str) -> Result<(), TileError> {
    if p.stride == 1 {
        Ok(())
    } else {
        Err(TileError(format!(
            "{what} of a strided read is not tiled symbolically"
        )))
    }
}

/// The progression of `fixed + sum(pieces)`, pieces over distinct variables (see the module's
/// documentation).
fn sum(mut pieces: Vec<Piece>, fixed: Expr) -> Result<Progression, TileError> {
    pieces.sort_by_key(|p| p.stride);
    // Two progressions of one stride add to one of that stride: `n_a + n_b - 1` values.
    let mut merged: Vec<Piece> = Vec::new();
    for p in pieces {
        match merged.last_mut() {
            Some(q) if q.stride == p.stride => {
                q.offset = arith(q.offset.checked_add(&p.offset))?;
                q.size = sub_const(&arith(q.size.checked_add(&p.size))?, 1)?;
                q.exact = q.exact.and(&p.exact);
                q.vars.extend(p.vars);
            }
            _ => merged.push(p),
        }
    }
    let mut offset = fixed;
    let mut exact = layout_condition(&merged)?;
    let mut vars = Vec::new();
    for p in &merged {
        offset = arith(offset.checked_add(&p.offset))?;
        exact = exact.and(&p.exact);
        vars.extend(p.vars.iter().copied());
    }
    let Some(last) = merged.last() else {
        return Ok(Progression {
            offset,
            size: Expr::constant(1),
            stride: Expr::zero(),
            exact,
            vars,
        });
    };
    // From the largest stride down: where piece `j` has more than one value, the stride is
    // `s_j` and the size `n_j + span_after / s_j`; else both stay those of the pieces after it.
    let mut stride = Expr::constant(last.stride);
    let mut size = last.size.clone();
    let mut span = arith(sub_const(&last.size, 1)?.checked_scale(last.stride))?;
    for p in merged.iter().rev().skip(1) {
        let u = more_than_one(&p.size)?;
        let own_size = arith(p.size.checked_add(&arith(span.floor_div(p.stride))?))?;
        let own_stride = Expr::constant(p.stride);
        let pick = |own: &Expr, after: &Expr| -> Result<Expr, TileError> {
            let delta = arith(own.checked_sub(after))?;
            arith(after.checked_add(&arith(u.checked_mul(&delta))?))
        };
        size = pick(&own_size, &size)?;
        stride = pick(&own_stride, &stride)?;
        span = arith(span.checked_add(&arith(sub_const(&p.size, 1)?.checked_scale(p.stride))?))?;
    }
    Ok(Progression {
        offset,
        size,
        stride,
        exact,
        vars,
    })
}

/// When a sum of progressions of increasing strides is itself one: for every choice of which
/// pieces have more than one value (`J`, at least two of them), either the sizes are not that
/// choice, or the strides in `J` are multiples of the least and none leaves a gap.
fn layout_condition(pieces: &[Piece]) -> Result<TileConstraints, TileError> {
    let open: Vec<usize> = (0..pieces.len())
        .filter(|&j| pieces[j].size.as_constant().is_none())
        .collect();
    if open.len() > 6 {
        return Err("more than 6 terms of symbolic size in one dimension".into());
    }
    let mut all = TileConstraints::always();
    for mask in 0u32..(1 << open.len()) {
        let mut other_choice = TileConstraints::never();
        let mut many = Vec::new();
        for (j, p) in pieces.iter().enumerate() {
            let is_many = match open.iter().position(|&o| o == j) {
                Some(bit) => {
                    let on = mask & (1 << bit) != 0;
                    let iv = if on {
                        Interval::point(1)
                    } else {
                        Interval::new(2, i64::MAX)
                    };
                    other_choice = other_choice.or(&TileConstraints::when(p.size.clone(), iv));
                    on
                }
                None => p.size.as_constant() != Some(1),
            };
            if is_many {
                many.push(p);
            }
        }
        if many.len() < 2 {
            continue;
        }
        let s1 = many[0].stride;
        let mut fits = Vec::new();
        let mut reach = Expr::zero();
        for w in many.windows(2) {
            reach = arith(reach.checked_add(&arith(
                sub_const(&w[0].size, 1)?.checked_scale(w[0].stride),
            )?))?;
            fits.push((
                arith(reach.checked_add_const(s1 - w[1].stride))?,
                Interval::new(0, i64::MAX),
            ));
        }
        let fits = if many.iter().all(|p| p.stride % s1 == 0) {
            TileConstraints::all(fits)
        } else {
            TileConstraints::never()
        };
        all = all.and(&other_choice.or(&fits));
    }
    Ok(all)
}

/// The most points of the tile sizes over which a tile's constraints are minimized.
const MINIMIZE_LIMIT: u128 = 1 << 20;

/// The symbolic tile of the operand that `access` (output element to operand element) reads,
/// for an output of sizes `dims`, its runtime variables one value per tile; an error says why the
/// map is not tiled symbolically.
pub fn symbolic_tile(dims: &[i64], access: &IndexingMap) -> Result<SymbolicTile, TileError> {
    symbolic_tile_with(dims, access, &[])
}

/// [`symbolic_tile`] of an access whose runtime variables are read at elements of other
/// instructions: a variable read at an element that moves with the output's (a gather's
/// indices) varies within a tile, so the tile covers every value its bounds allow and
/// over-approximates, saying so; one read at a fixed element (a dynamic slice's offsets) is one
/// value per tile.
pub fn symbolic_tile_of_access(dims: &[i64], access: &Access) -> Result<SymbolicTile, TileError> {
    let varying: Vec<Option<String>> = access
        .runtime
        .iter()
        .map(|rt| {
            let moves = rt.map.results().iter().any(|e| {
                let mut moves = false;
                e.for_each_var(&mut |v| {
                    moves |= matches!(v, VarRef::Dim(_))
                        || matches!(v, VarRef::Sym(k) if (k as usize) < access.map.range_vars().len())
                });
                moves
            });
            moves.then(|| rt.instruction.clone())
        })
        .collect();
    symbolic_tile_with(dims, &access.map, &varying)
}

/// [`symbolic_tile`] with, per runtime variable, the instruction it is read from where its
/// value varies within a tile.
fn symbolic_tile_with(
    dims: &[i64],
    access: &IndexingMap,
    varying: &[Option<String>],
) -> Result<SymbolicTile, TileError> {
    let r = dims.len();
    if access.dims().len() != r {
        return Err(TileError(format!(
            "the map has {} dimensions but the output has rank {r}",
            access.dims().len()
        )));
    }
    let mut vars: Vec<Var> = Vec::new();
    let mut sizes: Vec<Var> = Vec::new();
    for (i, &n) in dims.iter().enumerate() {
        vars.push(Var::named(Interval::upto(n), format!("t{i}")));
        sizes.push(Var::named(Interval::new(1, n.max(1)), format!("ts{i}")));
    }
    let domain = IndexingMap::new(Vec::new(), vars, sizes, access.rt_vars().to_vec());
    let d = Derivation {
        access,
        dims,
        nr: access.range_vars().len(),
        varying,
        domain: &domain,
    };
    let mut progressions = Vec::new();
    for (j, e) in access.results().iter().enumerate() {
        progressions.push(
            d.progression(e)
                .map_err(|why| TileError(format!("operand dimension {j}: {why}")))?,
        );
    }
    let mut exact = TileConstraints::always();
    for p in &progressions {
        exact = d.tidy(&exact.and(&p.exact));
    }
    exact = d.tidy(&exact.and(&joint_condition(&d, &progressions)?));
    let mut over = Vec::new();
    for instruction in varying.iter().flatten() {
        let why = format!(
            "the read moves with values of {instruction} that vary within the tile: the tile covers all of them"
        );
        if !over.contains(&why) {
            over.push(why);
        }
    }
    // The variables whose values the read limits (or that vary within a tile): a dimension of
    // the tile that one of them moves may be read in part.
    let mut limited: Vec<VarRef> = (0..access.num_symbols())
        .map(|k| VarRef::Sym(k as u32))
        .filter(|&v| matches!(v, VarRef::Sym(k) if k as usize >= d.nr) && d.is_tile_var(v))
        .collect();
    for (i, (v, &n)) in access.dims().iter().zip(dims).enumerate() {
        if v.bounds != Interval::upto(n) {
            over.push(format!(
                "the read is limited to {} in {}",
                d.show(&Expr::dim(i as u32)),
                v.bounds
            ));
            limited.push(VarRef::Dim(i as u32));
        }
    }
    for (e, iv) in access.constraints() {
        if d.uses_tile_vars(e) {
            over.push(format!("the read is limited by {} in {iv}", d.show(e)));
            e.for_each_var(&mut |v| {
                if d.is_tile_var(v) {
                    limited.push(v)
                }
            });
        } else {
            exact = exact.and(&TileConstraints::when(d.translate(e)?, *iv));
        }
    }
    let mut offsets = domain.with_results(progressions.iter().map(|p| p.offset.clone()).collect());
    offsets.simplify();
    let simplify = |es: Vec<Expr>| {
        let mut m = offsets.with_results(es);
        m.simplify();
        m.results().to_vec()
    };
    let sizes = simplify(progressions.iter().map(|p| p.size.clone()).collect());
    let strides = simplify(progressions.iter().map(|p| p.stride.clone()).collect());
    let extra_bound = if over.is_empty() {
        None
    } else {
        let product = |free_only: bool| -> Result<Expr, TileError> {
            let mut e = Expr::constant(1);
            for (p, size) in progressions.iter().zip(&sizes) {
                if !free_only || p.vars.iter().all(|v| !limited.contains(v)) {
                    e = arith(e.checked_mul(size))?;
                }
            }
            Ok(e)
        };
        Some(simplify(vec![arith(product(false)?.checked_sub(&product(true)?))?]).remove(0))
    };
    Ok(SymbolicTile {
        extra_bound,
        constraints: exact.simplified(&domain).minimized(&domain, MINIMIZE_LIMIT),
        offsets,
        sizes,
        strides,
        over,
    })
}

/// For operand dimensions that share a tile variable: exact together when the product of their
/// sizes is the number of points of the variables they read, if the map from those variables is
/// one-to-one; where it is not (or too large to check), only where every variable has one value.
fn joint_condition(d: &Derivation<'_>, ps: &[Progression]) -> Result<TileConstraints, TileError> {
    let mut group: Vec<usize> = (0..ps.len()).collect();
    for a in 0..ps.len() {
        for b in a + 1..ps.len() {
            if ps[a].vars.iter().any(|v| ps[b].vars.contains(v)) {
                let (ga, gb) = (group[a], group[b]);
                group.iter_mut().filter(|g| **g == gb).for_each(|g| *g = ga);
            }
        }
    }
    let mut out = TileConstraints::always();
    let mut roots = group.clone();
    roots.sort_unstable();
    roots.dedup();
    for root in roots {
        let members: Vec<usize> = (0..ps.len()).filter(|&j| group[j] == root).collect();
        if members.len() < 2 {
            continue;
        }
        let mut vars: Vec<VarRef> = members
            .iter()
            .flat_map(|&j| ps[j].vars.iter().copied())
            .collect();
        vars.sort_unstable();
        vars.dedup();
        let exprs: Vec<Expr> = members
            .iter()
            .map(|&j| d.access.results()[j].clone())
            .collect();
        let mut points = Expr::constant(1);
        let mut ones = Vec::new();
        for &v in &vars {
            let n = match v {
                VarRef::Dim(i) => Expr::sym(i),
                VarRef::Sym(_) => {
                    Expr::constant(d.access.var(v).map_or(1, |x| x.bounds.count() as i64))
                }
            };
            ones.push((n.clone(), Interval::point(1)));
            points = arith(points.checked_mul(&n))?;
        }
        let mut box_size = Expr::constant(1);
        for &j in &members {
            box_size = arith(box_size.checked_mul(&ps[j].size))?;
        }
        out = out.and(&if one_to_one(d, &vars, &exprs) {
            zero(arith(box_size.checked_sub(&points))?)
        } else {
            TileConstraints::all(ones)
        });
    }
    Ok(out)
}

/// Whether `exprs` take distinct values at distinct points of `vars` (the tile variables they
/// read) over the whole domain; `false` when too large to enumerate. Runtime values read once
/// per tile only shift the values, so they are taken as 0.
fn one_to_one(d: &Derivation<'_>, vars: &[VarRef], exprs: &[Expr]) -> bool {
    let shifted: Option<Vec<Expr>> = exprs
        .iter()
        .map(|e| {
            e.rewrite_vars(&mut |v| (!d.is_tile_var(v)).then(Expr::zero))
                .ok()
        })
        .collect();
    let points: Option<u128> = vars
        .iter()
        .map(|&v| d.access.var(v).map(|x| x.bounds.count()))
        .product();
    match (shifted, points) {
        (Some(shifted), Some(points)) if points > 0 => {
            enumerate(d.access, &shifted).is_some_and(|images| images.len() as u128 == points)
        }
        _ => false,
    }
}
