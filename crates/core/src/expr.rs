//! Index expressions over dimension and symbol variables, as XLA's `SymbolicExpr`.
//!
//! Every expression is kept in one normal form: a sum `Σ coefficient · atom + constant`, where an atom
//! is a variable, a `floordiv`, `ceildiv` or `mod` of an expression by a positive constant, the
//! `min` or `max` of two expressions (XLA's 2026 maps have both), or one of the non-affine atoms
//! of XLA's `SymbolicExpr`: the product of two non-constant expressions ([`Atom::Mul`]) and a
//! `floordiv`, `ceildiv` or `mod` by a non-constant expression ([`Atom::DivBy`]), which is
//! undefined where its divisor is 0 ([`Expr::eval`] gives `None` there). Without the last two an
//! expression is quasi-affine ([`Expr::is_quasi_affine`]). Terms
//! are merged, sorted by a structural order (never by allocation) and free of zero coefficients, so
//! two expressions that differ only in term order or grouping are equal, hash equal and print the
//! same. Expressions are reference counted: cloning is cheap, and the hash is computed once.
//!
//! Construction applies only rewrites that hold for every value of the variables (constant folding,
//! collecting like terms, taking multiples of the divisor out of a `floordiv` or `mod`, nested
//! `floordiv`, a `min` or `max` of two expressions a constant apart); bound-aware rewrites live in
//! [`crate::simplify`]. All arithmetic is checked:
//! overflow is reported, never wrapped.

use std::cmp::Ordering;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use crate::interval::{ceil_div, floor_div, gcd, mod_floor};

/// Which way a division rounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rounding {
    Floor,
    Ceil,
}

/// Why an expression could not be built.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ArithError {
    /// A value (a coefficient, the constant or an intermediate result) does not fit in `i64`.
    #[error("integer overflow in index arithmetic")]
    Overflow,
    /// A `floordiv`, `ceildiv` or `mod` by zero.
    #[error("division by zero")]
    DivisionByZero,
}

/// A fast, deterministic hasher for the simplifier's own tables and for expression hashes (a
/// multiply-rotate mix; these keys are not attacker-chosen in a way that matters).
#[derive(Default, Clone, Copy)]
pub struct FastHasher(u64);

impl Hasher for FastHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut buf = [0u8; 8];
            buf[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(buf));
        }
    }

    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn write_u32(&mut self, x: u32) {
        self.write_u64(u64::from(x));
    }

    fn write_i64(&mut self, x: i64) {
        self.write_u64(x as u64);
    }

    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }
}

/// Builds [`FastHasher`]s for hash maps keyed by expressions.
pub type FastBuildHasher = std::hash::BuildHasherDefault<FastHasher>;

/// A variable of an expression: the `i`-th dimension or the `i`-th symbol.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum VarRef {
    /// The dimension `d<i>`: the `i`-th (0-based) of the map's dimension variables.
    Dim(u32),
    /// The symbol `s<i>`: the `i`-th (0-based) of the map's range variables followed by its runtime
    /// variables.
    Sym(u32),
}

/// A non-constant building block of an expression. The divisor of a division or `mod` is always
/// at least 2 (smaller divisors are folded away when the atom is built). The operands of a `min`
/// or `max` are in canonical order (a constant last, else the lesser in [`Ord`] first) and never
/// a constant apart (such a pair is decided when the atom is built, see [`Expr::min_of`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Atom {
    /// A dimension or symbol variable.
    Var(VarRef),
    /// `x floordiv k`: the quotient rounded toward negative infinity.
    FloorDiv(Expr, i64),
    /// `x ceildiv k`: the quotient rounded toward positive infinity.
    CeilDiv(Expr, i64),
    /// `x mod k`: the remainder of the `floordiv`, in `[0, k - 1]`.
    Mod(Expr, i64),
    /// `min(a, b)`.
    Min(Expr, Expr),
    /// `max(a, b)`.
    Max(Expr, Expr),
    /// `a * b` of two non-constant expressions, each with content 1 and a positive first
    /// coefficient (their signs and common factors go into the term's coefficient, see
    /// [`Expr::checked_mul`]), the lesser in [`Ord`] first.
    Mul(Expr, Expr),
    /// `x floordiv y`, `x ceildiv y` or `x mod y` by a non-constant divisor `y` (a constant
    /// divisor gives [`Atom::FloorDiv`], [`Atom::CeilDiv`] or [`Atom::Mod`]). Undefined where `y`
    /// is 0.
    DivBy(Division, Expr, Expr),
}

/// Which division an [`Atom::DivBy`] takes, with floor semantics as for constant divisors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Division {
    /// The quotient rounded toward negative infinity.
    FloorDiv,
    /// The quotient rounded toward positive infinity.
    CeilDiv,
    /// The remainder of the floor division, with the sign of the divisor (`x - y * (x floordiv y)`).
    Mod,
}

impl Division {
    /// The value at `x` and `y`; `None` where `y` is 0 or the quotient leaves `i64`
    /// (`i64::MIN floordiv -1`).
    pub fn apply(self, x: i64, y: i64) -> Option<i64> {
        if y == 0 || (x == i64::MIN && y == -1 && self != Division::Mod) {
            return None;
        }
        Some(match self {
            Division::FloorDiv => floor_div(x, y),
            Division::CeilDiv => ceil_div(x, y),
            Division::Mod => mod_floor(x, y),
        })
    }

    /// `x` divided by the constant `k` (not 0), as [`Expr::floor_div`], [`Expr::ceil_div`] and
    /// [`Expr::modulo`] build it.
    pub fn by_constant(self, x: &Expr, k: i64) -> Result<Expr> {
        match self {
            Division::FloorDiv => x.floor_div(k),
            Division::CeilDiv => x.ceil_div(k),
            Division::Mod => x.modulo(k),
        }
    }

    /// The operator's name in MLIR's spelling.
    pub fn name(self) -> &'static str {
        match self {
            Division::FloorDiv => "floordiv",
            Division::CeilDiv => "ceildiv",
            Division::Mod => "mod",
        }
    }
}

/// A number that divides every value of `c * a`: `c` times what divides the atom's values, or
/// `c` alone where that product leaves i64.
fn term_divisor(a: &Atom, c: i64) -> i64 {
    c.checked_mul(a.divisor()).unwrap_or(c)
}

impl Atom {
    /// A non-negative number that divides every value of the atom: for `min(a, b)` and
    /// `max(a, b)`, the gcd of what divides each operand (the value is one of them); 1 for the
    /// others (0 when the atom is always 0).
    pub fn divisor(&self) -> i64 {
        match self {
            Atom::Min(a, b) | Atom::Max(a, b) => gcd(a.divisor(), b.divisor()),
            Atom::Mul(a, b) => a.divisor().checked_mul(b.divisor()).unwrap_or(1),
            Atom::Var(_)
            | Atom::FloorDiv(..)
            | Atom::CeilDiv(..)
            | Atom::Mod(..)
            | Atom::DivBy(..) => 1,
        }
    }

    /// Whether the atom is a `floordiv`, `ceildiv` or `mod` (by a constant or not).
    pub fn is_div_or_mod(&self) -> bool {
        matches!(
            self,
            Atom::FloorDiv(..) | Atom::CeilDiv(..) | Atom::Mod(..) | Atom::DivBy(..)
        )
    }

    /// Whether the atom is a product of two non-constant expressions or a division by one, at
    /// the top (not counting its operands).
    pub fn is_non_affine(&self) -> bool {
        matches!(self, Atom::Mul(..) | Atom::DivBy(..))
    }

    /// A `floordiv` whose argument has only negative coefficients, as the negated argument and
    /// the negated divisor: `(-y) floordiv k = y floordiv -k` (`floor(-y / k) = floor(y / -k)`).
    /// This is how XLA writes a division by a negative constant. `None` for every other atom (and
    /// where negating overflows). (A `ceildiv` by a negative constant is `-(y floordiv k)`, as
    /// XLA canonicalizes it too.)
    pub fn with_negative_divisor(&self) -> Option<(Expr, i64)> {
        let Atom::FloorDiv(x, k) = self else {
            return None;
        };
        if x.terms().is_empty() || x.terms().iter().any(|(_, c)| *c > 0) {
            return None;
        }
        Some((x.checked_scale(-1).ok()?, -k))
    }

    /// The expression of this atom's kind over other operands (as many as [`Atom::operands`]
    /// gives; a variable takes none and stays itself), normalised as its constructor
    /// normalises it.
    ///
    /// # Panics
    ///
    /// When `operands` has another length than [`Atom::operands`]: a caller's mistake.
    pub fn with_operands(&self, operands: &[Expr]) -> Result<Expr> {
        match (self, operands) {
            (Atom::Var(_), _) => Ok(Expr::atom(self.clone())),
            (Atom::FloorDiv(_, k), [x]) => x.floor_div(*k),
            (Atom::CeilDiv(_, k), [x]) => x.ceil_div(*k),
            (Atom::Mod(_, k), [x]) => x.modulo(*k),
            (Atom::Min(..), [a, b]) => Ok(Expr::min_of(a, b)),
            (Atom::Max(..), [a, b]) => Ok(Expr::max_of(a, b)),
            (Atom::Mul(..), [a, b]) => a.checked_mul(b),
            (Atom::DivBy(which, ..), [x, y]) => x.divide_by(*which, y),
            _ => panic!("{self:?} takes {} operands", self.operands().count()),
        }
    }

    /// The expression of this atom's kind over `f` of each of its operands (the atom itself for
    /// a variable), normalised as [`Atom::with_operands`] builds it.
    pub fn map_operands(&self, f: impl FnMut(&Expr) -> Result<Expr>) -> Result<Expr> {
        let operands = self.operands().map(f).collect::<Result<Vec<_>>>()?;
        self.with_operands(&operands)
    }

    /// The expressions the atom is built of: the argument of a division or `mod` by a constant,
    /// the two operands of a `min`, `max` or product, the dividend and the divisor of a division
    /// by an expression, none for a variable.
    pub fn operands(&self) -> impl Iterator<Item = &Expr> {
        let (first, second) = match self {
            Atom::Var(_) => (None, None),
            Atom::FloorDiv(x, _) | Atom::CeilDiv(x, _) | Atom::Mod(x, _) => (Some(x), None),
            Atom::Min(a, b) | Atom::Max(a, b) | Atom::Mul(a, b) | Atom::DivBy(_, a, b) => {
                (Some(a), Some(b))
            }
        };
        first.into_iter().chain(second)
    }
}

/// Which of `min` and `max`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Extremum {
    /// The lesser value.
    Min,
    /// The greater value.
    Max,
}

impl Extremum {
    /// The extremum of two values.
    pub fn of(self, a: i64, b: i64) -> i64 {
        match self {
            Extremum::Min => a.min(b),
            Extremum::Max => a.max(b),
        }
    }

    /// The atom `min(a, b)` or `max(a, b)`, operands as given.
    fn atom(self, a: Expr, b: Expr) -> Atom {
        match self {
            Extremum::Min => Atom::Min(a, b),
            Extremum::Max => Atom::Max(a, b),
        }
    }

    /// The name in map text.
    pub fn name(self) -> &'static str {
        match self {
            Extremum::Min => "min",
            Extremum::Max => "max",
        }
    }
}

/// An index expression in normal form. See the module documentation.
#[derive(Clone)]
pub struct Expr(Arc<Node>);

struct Node {
    terms: Vec<(Atom, i64)>,
    constant: i64,
    hash: u64,
}

impl PartialEq for Expr {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
            || (self.0.hash == other.0.hash
                && self.0.constant == other.0.constant
                && self.0.terms == other.0.terms)
    }
}

impl Eq for Expr {}

impl Hash for Expr {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.0.hash);
    }
}

impl PartialOrd for Expr {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Expr {
    fn cmp(&self, other: &Self) -> Ordering {
        if Arc::ptr_eq(&self.0, &other.0) {
            return Ordering::Equal;
        }
        self.0
            .terms
            .cmp(&other.0.terms)
            .then(self.0.constant.cmp(&other.0.constant))
    }
}

type Result<T> = std::result::Result<T, ArithError>;

fn add_checked(a: i64, b: i64) -> Result<i64> {
    a.checked_add(b).ok_or(ArithError::Overflow)
}

fn mul_checked(a: i64, b: i64) -> Result<i64> {
    a.checked_mul(b).ok_or(ArithError::Overflow)
}

fn narrow(v: i128) -> Result<i64> {
    i64::try_from(v).map_err(|_| ArithError::Overflow)
}

impl Expr {
    /// Builds the normal form of `Σ terms + constant`: merges equal atoms, drops zero coefficients.
    /// A merged coefficient only has to fit at the end, not after each addition.
    pub fn linear(mut terms: Vec<(Atom, i64)>, constant: i64) -> Result<Expr> {
        terms.sort_by(|a, b| a.0.cmp(&b.0));
        let mut merged = Vec::with_capacity(terms.len());
        let mut terms = terms.into_iter().peekable();
        while let Some((atom, coef)) = terms.next() {
            // At most `usize::MAX` summands of magnitude at most 2^63: no `i128` overflow.
            let mut sum = i128::from(coef);
            while let Some((_, c)) = terms.next_if(|(next, _)| *next == atom) {
                sum += i128::from(c);
            }
            if sum != 0 {
                merged.push((atom, narrow(sum)?));
            }
        }
        Ok(Self::from_sorted(merged, constant))
    }

    /// The normal form of `Σ parts` (as [`Expr::checked_add`] gives it), in time `O(n log n)` for
    /// `n` terms in all, where adding the parts one by one copies the growing sum each time.
    pub fn sum(parts: &[Expr]) -> Result<Expr> {
        Ok(Self::merged(parts)?.recombined())
    }

    /// `Σ parts` with equal atoms merged, without **recombine**.
    fn merged(parts: &[Expr]) -> Result<Expr> {
        let constant = parts
            .iter()
            .map(|p| i128::from(p.constant_term()))
            .sum::<i128>();
        let terms = parts
            .iter()
            .flat_map(|p| p.terms().iter().cloned())
            .collect();
        Self::linear(terms, narrow(constant)?)
    }

    fn from_sorted(terms: Vec<(Atom, i64)>, constant: i64) -> Expr {
        let mut h = FastHasher::default();
        terms.hash(&mut h);
        constant.hash(&mut h);
        Expr(Arc::new(Node {
            terms,
            constant,
            hash: h.finish(),
        }))
    }

    /// The constant expression `c`.
    pub fn constant(c: i64) -> Expr {
        Self::from_sorted(Vec::new(), c)
    }

    /// The constant expression `0`.
    pub fn zero() -> Expr {
        Self::constant(0)
    }

    /// The variable `v` alone (`1 · v`).
    pub fn var(v: VarRef) -> Expr {
        Self::atom(Atom::Var(v))
    }

    /// The dimension variable `d<i>` (0-based).
    pub fn dim(i: u32) -> Expr {
        Self::var(VarRef::Dim(i))
    }

    /// The symbol `s<i>` (0-based over range variables, then runtime variables).
    pub fn sym(i: u32) -> Expr {
        Self::var(VarRef::Sym(i))
    }

    /// The expression `1 · atom`.
    pub fn atom(atom: Atom) -> Expr {
        Self::from_sorted(vec![(atom, 1)], 0)
    }

    /// The terms `(atom, coefficient)`, sorted, coefficients non-zero.
    pub fn terms(&self) -> &[(Atom, i64)] {
        &self.0.terms
    }

    /// The constant summand.
    pub fn constant_term(&self) -> i64 {
        self.0.constant
    }

    /// The expression without its constant summand.
    pub fn without_constant(&self) -> Expr {
        if self.0.constant == 0 {
            return self.clone();
        }
        Self::from_sorted(self.0.terms.clone(), 0)
    }

    /// The value when the expression is a constant (has no terms).
    pub fn as_constant(&self) -> Option<i64> {
        self.0.terms.is_empty().then_some(self.0.constant)
    }

    /// The atom when the expression is exactly `1 · atom`.
    pub fn as_atom(&self) -> Option<&Atom> {
        match self.0.terms.as_slice() {
            [(atom, 1)] if self.0.constant == 0 => Some(atom),
            _ => None,
        }
    }

    /// The variable when the expression is exactly one variable (`1 · v`).
    pub fn as_var(&self) -> Option<VarRef> {
        match self.as_atom() {
            Some(Atom::Var(v)) => Some(*v),
            _ => None,
        }
    }

    /// `self + other`.
    pub fn checked_add(&self, other: &Expr) -> Result<Expr> {
        self.checked_add_scaled(other, 1)
    }

    /// `self + k*other`, merged in one pass without building `k*other` first (as
    /// [`Expr::checked_add`] of [`Expr::checked_scale`] builds it). Adding zero returns `self` as
    /// it is; adding to zero, `k*other`.
    pub fn checked_add_scaled(&self, other: &Expr, k: i64) -> Result<Expr> {
        if k == 0 || other.as_constant() == Some(0) {
            return Ok(self.clone());
        }
        if self.as_constant() == Some(0) {
            return other.checked_scale(k);
        }
        let (a, b) = (&self.0.terms, &other.0.terms);
        let mut out = Vec::with_capacity(a.len() + b.len());
        let (mut i, mut j) = (0, 0);
        while i < a.len() && j < b.len() {
            match a[i].0.cmp(&b[j].0) {
                Ordering::Less => {
                    out.push(a[i].clone());
                    i += 1;
                }
                Ordering::Greater => {
                    out.push((b[j].0.clone(), mul_checked(b[j].1, k)?));
                    j += 1;
                }
                Ordering::Equal => {
                    let c = add_checked(a[i].1, mul_checked(b[j].1, k)?)?;
                    if c != 0 {
                        out.push((a[i].0.clone(), c));
                    }
                    i += 1;
                    j += 1;
                }
            }
        }
        out.extend_from_slice(&a[i..]);
        for (atom, c) in &b[j..] {
            out.push((atom.clone(), mul_checked(*c, k)?));
        }
        let constant = add_checked(self.0.constant, mul_checked(other.0.constant, k)?)?;
        Ok(Self::from_sorted(out, constant).recombined())
    }

    /// `self - c*atom` for the coefficient `c` of `atom` in `self` (`self` when `atom` has no
    /// term): the expression without that term, as [`Expr::checked_sub`] builds it but without
    /// building `c*atom` first (and without overflow: nothing is multiplied).
    pub fn without_term(&self, atom: &Atom) -> Expr {
        let Some(i) = self.0.terms.iter().position(|(t, _)| t == atom) else {
            return self.clone();
        };
        let mut terms = self.0.terms.clone();
        terms.remove(i);
        Self::from_sorted(terms, self.0.constant).recombined()
    }

    /// **recombine** at construction: `a*(x mod c) + a*c*(y floordiv c) = a*y` whenever `x - y` is
    /// a multiple of `c` for every value of the variables (every coefficient and the constant of
    /// `x` is congruent modulo `c` to that of `y`), since then `x mod c = y mod c` and
    /// `y = c*(y floordiv c) + y mod c`. Holds for every value, so sums never keep such a pair.
    /// Pairs are found through an index of the `floordiv` terms, in time `O(n log n)` per pass.
    fn recombined(self) -> Expr {
        let mut e = self;
        while let Some(next) = e.recombine_pass() {
            e = next;
        }
        e
    }

    /// Whether the sum holds a **recombine** pair, which [`Expr::checked_add`] would recombine.
    pub(crate) fn has_recombine_pair(&self) -> bool {
        self.recombine_pass().is_some()
    }

    /// One pass of **recombine**: every `mod` term with a partner is replaced, with its partner,
    /// by `a*y`. `None` when no pair matches (or the result would overflow).
    fn recombine_pass(&self) -> Option<Expr> {
        let terms = &self.0.terms;
        // A pair needs `a*(x mod c)` and `a*c*(y floordiv c)`: checked on the divisors and
        // coefficients before the arguments are compared.
        let mod_key = |(t, a): &(Atom, i64)| match t {
            Atom::Mod(_, c) => a.checked_mul(*c).map(|ac| (*c, ac)),
            _ => None,
        };
        let div_key = |(t, b): &(Atom, i64)| match t {
            Atom::FloorDiv(_, c) => Some((*c, *b)),
            _ => None,
        };
        if !terms
            .iter()
            .filter_map(mod_key)
            .any(|m| terms.iter().filter_map(div_key).any(|d| d == m))
        {
            return None;
        }
        type Key = (i64, i64, Expr);
        let mut divisions: HashMap<Key, Vec<(usize, &Expr)>, FastBuildHasher> = HashMap::default();
        // Reversed, so that popping gives the first matching term in sorted order.
        for (i, (t, coef)) in terms.iter().enumerate().rev() {
            if let Atom::FloorDiv(y, c) = t {
                divisions
                    .entry((*c, *coef, y.residues(*c)))
                    .or_default()
                    .push((i, y));
            }
        }
        let mut replaced = vec![false; terms.len()];
        let mut parts = Vec::new();
        for (i, (t, a)) in terms.iter().enumerate() {
            let Atom::Mod(x, c) = t else { continue };
            let Some(ac) = a.checked_mul(*c) else {
                continue;
            };
            let Some((j, y)) = divisions
                .get_mut(&(*c, ac, x.residues(*c)))
                .and_then(Vec::pop)
            else {
                continue;
            };
            parts.push(y.checked_scale(*a).ok()?);
            (replaced[i], replaced[j]) = (true, true);
        }
        if parts.is_empty() {
            return None;
        }
        let rest = terms
            .iter()
            .zip(&replaced)
            .filter(|(_, r)| !**r)
            .map(|(t, _)| t.clone())
            .collect();
        parts.push(Self::from_sorted(rest, self.0.constant));
        Self::merged(&parts).ok()
    }

    /// `self` with every coefficient and the constant reduced to its residue modulo `c > 0`: two
    /// expressions differ by a multiple of `c` for every value of the variables exactly when
    /// their residues are equal.
    fn residues(&self, c: i64) -> Expr {
        let terms = self
            .0
            .terms
            .iter()
            .filter_map(|(t, a)| {
                let r = mod_floor(*a, c);
                (r != 0).then(|| (t.clone(), r))
            })
            .collect();
        Self::from_sorted(terms, mod_floor(self.0.constant, c))
    }

    /// `self - other`.
    pub fn checked_sub(&self, other: &Expr) -> Result<Expr> {
        self.checked_add_scaled(other, -1)
    }

    /// `self + c`.
    pub fn checked_add_const(&self, c: i64) -> Result<Expr> {
        if c == 0 {
            return Ok(self.clone());
        }
        Ok(Self::from_sorted(
            self.0.terms.clone(),
            add_checked(self.0.constant, c)?,
        ))
    }

    /// `self * k` for a constant `k`.
    pub fn checked_scale(&self, k: i64) -> Result<Expr> {
        match k {
            0 => Ok(Expr::zero()),
            1 => Ok(self.clone()),
            _ => {
                let terms = self
                    .0
                    .terms
                    .iter()
                    .map(|(a, c)| Ok((a.clone(), mul_checked(*c, k)?)))
                    .collect::<Result<Vec<_>>>()?;
                Ok(Self::from_sorted(terms, mul_checked(self.0.constant, k)?))
            }
        }
    }

    /// The greatest common divisor of every coefficient and the constant (0 for the zero expression).
    pub fn content(&self) -> i64 {
        self.0
            .terms
            .iter()
            .fold(self.0.constant, |g, (_, c)| gcd(g, *c))
    }

    /// A positive number that divides every value of the expression: the gcd of the constant and
    /// of each term's coefficient times what divides its atom's values (0 for the zero
    /// expression).
    pub fn divisor(&self) -> i64 {
        self.0
            .terms
            .iter()
            .fold(self.0.constant, |g, (a, c)| gcd(g, term_divisor(a, *c)))
    }

    /// The expression without its terms that are multiples of `k` at every value, by their
    /// coefficient or by what divides their atom (`min(6a, 4b)` is always even):
    /// `self ≡ result (mod k)`.
    fn without_multiples_of(&self, k: i64) -> Expr {
        if self
            .0
            .terms
            .iter()
            .all(|(a, c)| term_divisor(a, *c) % k != 0)
        {
            return self.clone();
        }
        let rest = self
            .0
            .terms
            .iter()
            .filter(|(a, c)| term_divisor(a, *c) % k != 0)
            .cloned()
            .collect();
        Self::from_sorted(rest, self.0.constant)
    }

    /// Divides every coefficient and the constant by `k`, which must divide them all.
    fn exact_div(&self, k: i64) -> Expr {
        if k == 1 {
            return self.clone();
        }
        let terms = self
            .0
            .terms
            .iter()
            .map(|(a, c)| (a.clone(), c / k))
            .collect();
        Self::from_sorted(terms, self.0.constant / k)
    }

    /// Splits off the terms whose coefficient is a multiple of `k`, divided by `k`:
    /// `self = k * multiples + rest`.
    fn split_multiples(&self, k: i64) -> (Expr, Expr) {
        if self.0.terms.iter().all(|(_, c)| c % k != 0) {
            return (Expr::zero(), self.clone());
        }
        let (mult, rest): (Vec<_>, Vec<_>) =
            self.0.terms.iter().cloned().partition(|(_, c)| c % k == 0);
        let mult = mult.into_iter().map(|(a, c)| (a, c / k)).collect();
        (
            Self::from_sorted(mult, 0),
            Self::from_sorted(rest, self.0.constant),
        )
    }

    /// `floor(self / k)`. Folds constants, takes terms with coefficients divisible by `k` out of the
    /// division (`(k*a + b) floordiv k = a + b floordiv k`), cancels a common factor of dividend and
    /// divisor, and merges nested divisions (`(a floordiv p) floordiv q = a floordiv (p*q)`, p, q > 0).
    pub fn floor_div(&self, k: i64) -> Result<Expr> {
        if k == 0 {
            return Err(ArithError::DivisionByZero);
        }
        if k < 0 {
            return self
                .checked_scale(-1)?
                .floor_div(k.checked_neg().ok_or(ArithError::Overflow)?);
        }
        if k == 1 {
            return Ok(self.clone());
        }
        self.divide_normalized(k, Rounding::Floor)
    }

    /// `ceil(self / k)`, normalised like [`Expr::floor_div`] (nested: `(a ceildiv p) ceildiv q =
    /// a ceildiv (p*q)` for p, q > 0).
    pub fn ceil_div(&self, k: i64) -> Result<Expr> {
        if k == 0 {
            return Err(ArithError::DivisionByZero);
        }
        if k < 0 {
            // ceil(a / -k) = -floor(a / k)
            return self
                .floor_div(k.checked_neg().ok_or(ArithError::Overflow)?)?
                .checked_scale(-1);
        }
        if k == 1 {
            return Ok(self.clone());
        }
        self.divide_normalized(k, Rounding::Ceil)
    }

    /// The shared part of [`Expr::floor_div`] and [`Expr::ceil_div`] for `k >= 2`: folds a
    /// constant, takes the terms whose coefficient is a multiple of `k` out
    /// (`(k*a + b) / k = a + b / k` under either rounding), cancels a common factor of dividend and
    /// divisor, and merges a nested division of the same rounding (`(a / p) / q = a / (p*q)`).
    fn divide_normalized(&self, k: i64, rounding: Rounding) -> Result<Expr> {
        let divide = match rounding {
            Rounding::Floor => floor_div,
            Rounding::Ceil => ceil_div,
        };
        if let Some(c) = self.as_constant() {
            return Ok(Expr::constant(divide(c, k)));
        }
        let (outside, rest) = self.split_multiples(k);
        if let Some(c) = rest.as_constant() {
            return outside.checked_add_const(divide(c, k));
        }
        let g = gcd(rest.content(), k);
        let (rest, k) = (rest.exact_div(g), k / g);
        let nested = match (rest.as_atom(), rounding) {
            (Some(Atom::FloorDiv(x, p)), Rounding::Floor)
            | (Some(Atom::CeilDiv(x, p)), Rounding::Ceil) => {
                p.checked_mul(k).map(|pk| (x.clone(), pk))
            }
            _ => None,
        };
        let inner = match nested {
            _ if k == 1 => rest,
            Some((x, pk)) => x.divide_normalized(pk, rounding)?,
            None => Expr::atom(match rounding {
                Rounding::Floor => Atom::FloorDiv(rest, k),
                Rounding::Ceil => Atom::CeilDiv(rest, k),
            }),
        };
        outside.checked_add(&inner)
    }

    /// `self mod k` with floor semantics (the result has the sign of `k`). Drops terms whose
    /// coefficient is a multiple of `k`, takes a common factor out (`(g*a) mod (g*m) = g * (a mod m)`)
    /// and folds `(a mod p) mod q` to `a mod q` when `q` divides `p`.
    pub fn modulo(&self, k: i64) -> Result<Expr> {
        if k == 0 {
            return Err(ArithError::DivisionByZero);
        }
        if k < 0 {
            // a mod -k = -((-a) mod k)
            return self
                .checked_scale(-1)?
                .modulo(k.checked_neg().ok_or(ArithError::Overflow)?)?
                .checked_scale(-1);
        }
        if k == 1 {
            return Ok(Expr::zero());
        }
        if let Some(c) = self.as_constant() {
            return Ok(Expr::constant(mod_floor(c, k)));
        }
        let rest = self.without_multiples_of(k);
        if let Some(c) = rest.as_constant() {
            return Ok(Expr::constant(mod_floor(c, k)));
        }
        let g = gcd(rest.content(), k);
        let (rest, m) = (rest.exact_div(g), k / g);
        let inner = match rest.as_atom() {
            Some(Atom::Mod(x, p)) if p % m == 0 => x.modulo(m)?,
            _ if m == 1 => Expr::zero(),
            _ => Expr::atom(Atom::Mod(rest, m)),
        };
        inner.checked_scale(g)
    }

    /// `self * other`. A constant factor scales the other ([`Expr::checked_scale`]); two
    /// non-constant factors make an [`Atom::Mul`] term, each factor divided by its content
    /// (the gcd of its coefficients and constant) and by the sign of its first coefficient,
    /// whose product is the term's coefficient: `(2*d0 + 4) * (-d1) = -2 * ((d0 + 2) * d1)`.
    /// Holds for every value of the variables.
    pub fn checked_mul(&self, other: &Expr) -> Result<Expr> {
        match (self.as_constant(), other.as_constant()) {
            (Some(c), _) => other.checked_scale(c),
            (_, Some(c)) => self.checked_scale(c),
            (None, None) => {
                let ((fa, a), (fb, b)) = (self.primitive_part(), other.primitive_part());
                let (a, b) = if a <= b { (a, b) } else { (b, a) };
                Ok(Self::from_sorted(
                    vec![(Atom::Mul(a, b), mul_checked(fa, fb)?)],
                    0,
                ))
            }
        }
    }

    /// `(f, p)` with `self = f * p`, `|f|` the content of `self` and `p`'s first coefficient
    /// positive; `(1, self)` in the one case where dividing overflows (`-2^63` by `-1`).
    pub(crate) fn primitive_part(&self) -> (i64, Expr) {
        let g = self.content();
        let f = match self.0.terms.first() {
            Some((_, c)) if *c < 0 => g.checked_neg(),
            _ => Some(g),
        };
        let divides = |f: i64| {
            std::iter::once(self.0.constant)
                .chain(self.0.terms.iter().map(|(_, c)| *c))
                .all(|c| c.checked_div(f).is_some())
        };
        match f {
            Some(f) if f != 0 && divides(f) => (f, self.exact_div(f)),
            _ => (1, self.clone()),
        }
    }

    /// `self floordiv divisor`, `self ceildiv divisor` or `self mod divisor`: by a constant as
    /// [`Division::by_constant`] builds it, else the atom [`Atom::DivBy`] (undefined where the
    /// divisor is 0; the simplifier takes what it can out of it where the bounds allow).
    pub fn divide_by(&self, which: Division, divisor: &Expr) -> Result<Expr> {
        match divisor.as_constant() {
            Some(k) => which.by_constant(self, k),
            None => Ok(Self::atom(Atom::DivBy(
                which,
                self.clone(),
                divisor.clone(),
            ))),
        }
    }

    /// Whether the expression is quasi-affine: no product of two non-constant expressions and no
    /// division by one, at any depth (what an MLIR affine map holds, `min` and `max` aside).
    pub fn is_quasi_affine(&self) -> bool {
        self.0
            .terms
            .iter()
            .all(|(atom, _)| !atom.is_non_affine() && atom.operands().all(Expr::is_quasi_affine))
    }

    /// `min(a, b)`. Folds two constants, and decides a pair a constant apart
    /// (`min(x, x + k) = x` for `k >= 0`, so `min(x, x) = x`); otherwise the atom, operands in
    /// canonical order. Holds for every value of the variables. (Not a method: `Expr` is [`Ord`],
    /// whose `min` compares expressions.)
    pub fn min_of(a: &Expr, b: &Expr) -> Expr {
        a.extremum(Extremum::Min, b)
    }

    /// `max(a, b)`, normalised like [`Expr::min_of`] (`max(x, x + k) = x + k` for `k >= 0`).
    pub fn max_of(a: &Expr, b: &Expr) -> Expr {
        a.extremum(Extremum::Max, b)
    }

    /// `min(self, other)` or `max(self, other)`, as [`Expr::min_of`] builds it.
    pub fn extremum(&self, which: Extremum, other: &Expr) -> Expr {
        // `self - other` is a constant exactly when the two have the same terms.
        if self.0.terms == other.0.terms {
            let self_first = match which {
                Extremum::Min => self.0.constant <= other.0.constant,
                Extremum::Max => self.0.constant >= other.0.constant,
            };
            return if self_first { self } else { other }.clone();
        }
        // Canonical order: a constant last (as XLA writes `max(x, 0)`), else by `Ord`.
        let key = |e: &Expr| (e.as_constant().is_some(), e.clone());
        let (a, b) = if key(self) <= key(other) {
            (self, other)
        } else {
            (other, self)
        };
        Expr::atom(which.atom(a.clone(), b.clone()))
    }

    /// Substitutes `dims[i]` for `d_i` and `syms[j]` for `s_j`, renormalising on the way.
    pub fn substitute(&self, dims: &[Expr], syms: &[Expr]) -> Result<Expr> {
        self.rewrite_vars(&mut |v| match v {
            VarRef::Dim(i) => dims.get(i as usize).cloned(),
            VarRef::Sym(i) => syms.get(i as usize).cloned(),
        })
    }

    /// Replaces each variable `v` by `f(v)` (unchanged where `f` gives `None`).
    pub fn rewrite_vars(&self, f: &mut impl FnMut(VarRef) -> Option<Expr>) -> Result<Expr> {
        self.map_terms(&mut |atom| match atom {
            Atom::Var(v) => Ok(f(*v).unwrap_or_else(|| Expr::var(*v))),
            _ => atom.map_operands(|x| x.rewrite_vars(f)),
        })
    }

    /// Replaces every sub-expression equal to a `from` of `pairs` by its `to`, all at once, as
    /// XLA's `SymbolicExpr::Replace` does: the whole expression, then each atom, then each
    /// operand of an atom, outermost first (what a replacement brings in is not looked at
    /// again), renormalising on the way. The sub-expressions are those of the normal form: the
    /// whole, each atom as `1 · atom` (so each variable) and each operand; a constant summand
    /// is none (`d0 + 2` holds no `2`).
    pub fn replace(&self, pairs: &[(Expr, Expr)]) -> Result<Expr> {
        let replacement = |e: &Expr| pairs.iter().find(|(from, _)| from == e).map(|(_, to)| to);
        if let Some(to) = replacement(self) {
            return Ok(to.clone());
        }
        self.map_terms(&mut |atom| match replacement(&Expr::atom(atom.clone())) {
            Some(to) => Ok(to.clone()),
            None => atom.map_operands(|x| x.replace(pairs)),
        })
    }

    /// The sum with each atom replaced by `f(atom)` (times its coefficient), renormalised.
    fn map_terms(&self, f: &mut impl FnMut(&Atom) -> Result<Expr>) -> Result<Expr> {
        let mut acc = Expr::constant(self.0.constant);
        for (atom, coef) in &self.0.terms {
            acc = acc.checked_add_scaled(&f(atom)?, *coef)?;
        }
        Ok(acc)
    }

    /// The value at a point, `None` where it leaves 64 bits (see [`Expr::eval_at`]) or when a
    /// variable is out of the given slices.
    pub fn eval(&self, dims: &[i64], syms: &[i64]) -> Option<i64> {
        self.eval_at(&|v| match v {
            VarRef::Dim(i) => dims.get(i as usize).copied(),
            VarRef::Sym(i) => syms.get(i as usize).copied(),
        })
    }

    /// The value where each variable `v` is `value(v)`. The sum is exact: it is `None` only
    /// where the value, a product, or the operand of a division or `mod` in it, leaves 64 bits,
    /// where a divisor is 0, or where `value` gives none. Lowered sums and products wrap around in 64 bits, so they agree
    /// with this value wherever it is defined, whatever order they add the terms in.
    pub fn eval_at(&self, value: &impl Fn(VarRef) -> Option<i64>) -> Option<i64> {
        let mut acc = i128::from(self.0.constant);
        for (atom, coef) in &self.0.terms {
            let v = match atom {
                Atom::Var(v) => value(*v)?,
                Atom::FloorDiv(x, k) => floor_div(x.eval_at(value)?, *k),
                Atom::CeilDiv(x, k) => ceil_div(x.eval_at(value)?, *k),
                Atom::Mod(x, k) => mod_floor(x.eval_at(value)?, *k),
                Atom::Min(a, b) => a.eval_at(value)?.min(b.eval_at(value)?),
                Atom::Max(a, b) => a.eval_at(value)?.max(b.eval_at(value)?),
                Atom::Mul(a, b) => a.eval_at(value)?.checked_mul(b.eval_at(value)?)?,
                Atom::DivBy(which, x, y) => which.apply(x.eval_at(value)?, y.eval_at(value)?)?,
            };
            acc = acc.checked_add(i128::from(v) * i128::from(*coef))?;
        }
        i64::try_from(acc).ok()
    }

    /// Calls `f` on every variable occurrence.
    pub fn for_each_var(&self, f: &mut impl FnMut(VarRef)) {
        for (atom, _) in &self.0.terms {
            match atom {
                Atom::Var(v) => f(*v),
                _ => atom.operands().for_each(|x| x.for_each_var(f)),
            }
        }
    }

    /// The variables that occur in the expression, each once, sorted.
    pub fn distinct_vars(&self) -> Vec<VarRef> {
        let mut vars = Vec::new();
        self.for_each_var(&mut |v| vars.push(v));
        vars.sort_unstable();
        vars.dedup();
        vars
    }

    /// Whether `v` occurs in the expression.
    pub fn uses(&self, v: VarRef) -> bool {
        let mut found = false;
        self.for_each_var(&mut |w| found |= w == v);
        found
    }

    /// Counts of the expression's work, for the simplifier's cost model.
    pub fn cost(&self) -> Cost {
        let mut cost = Cost::default();
        self.add_cost(&mut cost, true);
        cost
    }

    /// The cost of the expression without its constant summand (of
    /// [`Expr::without_constant`]), without building that.
    pub(crate) fn cost_without_constant(&self) -> Cost {
        let mut cost = Cost::default();
        self.add_cost(&mut cost, false);
        cost
    }

    fn add_cost(&self, cost: &mut Cost, with_constant: bool) {
        let n = self.0.terms.len() + usize::from(with_constant && self.0.constant != 0);
        cost.ops += n.saturating_sub(1);
        for (atom, coef) in &self.0.terms {
            if *coef != 1 {
                cost.ops += 1;
                cost.coefficients = cost.coefficients.saturating_add(coef.unsigned_abs());
            }
            match atom {
                Atom::Var(_) => {}
                Atom::FloorDiv(..) | Atom::CeilDiv(..) | Atom::Mod(..) | Atom::DivBy(..) => {
                    cost.div_mods += 1;
                    cost.ops += 1;
                    atom.operands().for_each(|x| x.add_cost(cost, true));
                }
                Atom::Min(a, b) | Atom::Max(a, b) | Atom::Mul(a, b) => {
                    cost.products += usize::from(matches!(atom, Atom::Mul(..)));
                    cost.ops += 1;
                    a.add_cost(cost, true);
                    b.add_cost(cost, true);
                }
            }
        }
    }
}

/// The simplifier's cost of an expression, compared lexicographically: first the number of
/// `floordiv`, `ceildiv` and `mod` operations, then all operations (a `min` or `max` is one), then
/// the sum of the magnitudes of the coefficients (constant summands and divisors do not count).
/// A division by an expression counts as a division; a product of two expressions is one
/// operation, and the products are counted apart, right after the divisions, so that a form
/// with fewer of them wins (`d0 * 3` over `d0 * d1` where `d1` is 3).
/// A division by a negative constant counts its negation, `(-y) floordiv k`, though it prints as
/// `y floordiv -k` ([`Atom::with_negative_divisor`]): where the dividend may be negative the
/// division is signed, which lowers to more instructions than an unsigned one, so the tie-breaker
/// rightly prefers forms without it (`(d0 * 2) floordiv 3` over `d0 + d0 floordiv -3`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cost {
    /// Number of `floordiv`, `ceildiv` and `mod` operations, nested ones included.
    pub div_mods: usize,
    /// Number of products of two non-constant expressions, nested ones included.
    pub products: usize,
    /// Number of all operations: additions, multiplications by a coefficient other than 1, and each
    /// division, `mod`, `min`, `max` and product.
    pub ops: usize,
    /// Sum of the magnitudes of the coefficients other than 1, at every level of nesting
    /// (saturating).
    pub coefficients: u64,
}

impl std::ops::Add for Cost {
    type Output = Cost;
    fn add(self, o: Cost) -> Cost {
        Cost {
            div_mods: self.div_mods + o.div_mods,
            products: self.products + o.products,
            ops: self.ops + o.ops,
            coefficients: self.coefficients.saturating_add(o.coefficients),
        }
    }
}

/// Operators for building expressions from values already known to be small (shapes that were
/// validated, loop bounds). They panic on overflow; code handling user input uses the `checked_*`
/// methods instead.
mod ops {
    use super::Expr;

    const OVERFLOW: &str =
        "index arithmetic overflow: use the checked_* methods for unvalidated input";

    impl std::ops::Add for Expr {
        type Output = Expr;
        fn add(self, o: Expr) -> Expr {
            self.checked_add(&o).expect(OVERFLOW)
        }
    }

    impl std::ops::Add<i64> for Expr {
        type Output = Expr;
        fn add(self, c: i64) -> Expr {
            self.checked_add_const(c).expect(OVERFLOW)
        }
    }

    impl std::ops::Sub for Expr {
        type Output = Expr;
        fn sub(self, o: Expr) -> Expr {
            self.checked_sub(&o).expect(OVERFLOW)
        }
    }

    impl std::ops::Sub<i64> for Expr {
        type Output = Expr;
        fn sub(self, c: i64) -> Expr {
            self.checked_add_const(c.checked_neg().expect(OVERFLOW))
                .expect(OVERFLOW)
        }
    }

    impl std::ops::Mul<i64> for Expr {
        type Output = Expr;
        fn mul(self, k: i64) -> Expr {
            self.checked_scale(k).expect(OVERFLOW)
        }
    }

    impl std::ops::Neg for Expr {
        type Output = Expr;
        fn neg(self) -> Expr {
            self.checked_scale(-1).expect(OVERFLOW)
        }
    }
}
