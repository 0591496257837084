//! A small deterministic pseudo-random generator (SplitMix64) for property tests and benchmark
//! corpora: the same seed gives the same sequence on every machine, and [`ExprShape`], random
//! index expressions of a chosen make-up (quasi-affine, or with XLA's products and divisions by
//! expressions).

use xla_indexing_core::{Division, Expr};

/// SplitMix64.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator that starts from `seed`.
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A value in `[lo, hi]` (inclusive); `lo <= hi`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        let span = (hi as i128 - lo as i128 + 1) as u128;
        (lo as i128 + (self.next_u64() as u128 % span) as i128) as i64
    }

    /// True with probability `num / den`.
    pub fn chance(&mut self, num: u64, den: u64) -> bool {
        self.next_u64() % den < num
    }

    /// A uniformly chosen element.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[(self.next_u64() % items.len() as u64) as usize]
    }
}

/// What random index expressions for property tests are made of: each node is a leaf (a
/// constant, or a variable times a coefficient) or a sum, floor division, `mod`, ceiling
/// division, scaling, `min`, `max`, product or division by an expression of random
/// subexpressions, chosen with the given weights (quasi-affine where the last two weigh 0).
#[derive(Clone, Copy, Debug)]
pub struct ExprShape<'a> {
    /// Constant leaves lie in `[constants.0, constants.1]`.
    pub constants: (i64, i64),
    /// Variables and scaled subexpressions are multiplied by one of these.
    pub coefficients: &'a [i64],
    /// Divisions and remainders are by one of these (never 0).
    pub divisors: &'a [i64],
    /// A node above depth 0 is a leaf with probability `1 / leaf_odds`.
    pub leaf_odds: u64,
    /// A leaf is a constant with probability `1 / constant_odds`.
    pub constant_odds: u64,
    /// A sum has between `sum_terms.0` and `sum_terms.1` subexpressions.
    pub sum_terms: (i64, i64),
    /// The weights of sum, `floordiv`, `mod`, `ceildiv`, scaling, `min`, `max`, the product of
    /// two subexpressions, and the `floordiv`, `ceildiv` or `mod` of a subexpression by another
    /// (undefined where that divisor is 0).
    pub weights: [u64; 9],
}

impl ExprShape<'_> {
    /// A random expression at most `depth` nodes deep over dims `d0..d{num_dims-1}` and symbols
    /// `s0..s{num_syms-1}`. A node whose construction overflows becomes a leaf.
    pub fn expr(&self, rng: &mut SplitMix64, depth: u32, num_dims: u32, num_syms: u32) -> Expr {
        if depth == 0 || rng.chance(1, self.leaf_odds) {
            return self.leaf(rng, num_dims, num_syms);
        }
        let total: u64 = self.weights.iter().sum();
        let mut choice = rng.next_u64() % total.max(1);
        let kind = self
            .weights
            .iter()
            .position(|&w| {
                let hit = choice < w;
                choice = choice.saturating_sub(w);
                hit
            })
            .unwrap_or(0);
        let sub = |rng: &mut SplitMix64| self.expr(rng, depth - 1, num_dims, num_syms);
        let node = match kind {
            0 => {
                let n = rng.range(self.sum_terms.0, self.sum_terms.1);
                (0..n).try_fold(Expr::zero(), |acc, _| acc.checked_add(&sub(rng)))
            }
            1 => sub(rng).floor_div(*rng.pick(self.divisors)),
            2 => sub(rng).modulo(*rng.pick(self.divisors)),
            3 => sub(rng).ceil_div(*rng.pick(self.divisors)),
            4 => sub(rng).checked_scale(*rng.pick(self.coefficients)),
            5 => Ok(Expr::min_of(&sub(rng), &sub(rng))),
            6 => Ok(Expr::max_of(&sub(rng), &sub(rng))),
            7 => sub(rng).checked_mul(&sub(rng)),
            _ => {
                let which = *rng.pick(&[Division::FloorDiv, Division::CeilDiv, Division::Mod]);
                sub(rng).divide_by(which, &sub(rng))
            }
        };
        node.unwrap_or_else(|_| self.leaf(rng, num_dims, num_syms))
    }

    fn leaf(&self, rng: &mut SplitMix64, num_dims: u32, num_syms: u32) -> Expr {
        let vars = num_dims + num_syms;
        if vars == 0 || rng.chance(1, self.constant_odds) {
            return Expr::constant(rng.range(self.constants.0, self.constants.1));
        }
        let i = rng.range(0, i64::from(vars) - 1) as u32;
        let v = if i < num_dims {
            Expr::dim(i)
        } else {
            Expr::sym(i - num_dims)
        };
        let c = *rng.pick(self.coefficients);
        v.checked_scale(c).unwrap_or(v)
    }
}
