//! Operand utilization: how many elements of a tensor a set of indexing maps reaches, exactly.
//!
//! The image of a map is computed per group of results that share variables (directly or
//! through constraints): each group is enumerated over its own variables, and the image is the
//! product of the groups' images. That keeps the work near the size of the operand instead of
//! the size of the domain. Several maps are united in a bitmap over the operand's elements.
//! Points outside the operand (a `dynamic-update-slice` reads its update only where the offset
//! puts it) are not counted. A group's distinct values are kept as their row-major positions in
//! the group's own dimensions: marked in a bitmap where that space is small next to the box
//! enumerated, else sorted and deduplicated (no hashing, one allocation per group).

use xla_indexing_core::{Atom, IndexingMap, VarRef};

/// Largest box of one group's variables that is enumerated.
pub const GROUP_LIMIT: u128 = 1 << 24;
/// Largest operand (in elements) whose union of several maps is computed.
pub const BITMAP_LIMIT: u64 = 1 << 28;

/// How much of a tensor is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Utilization {
    /// Elements reached; `None` when the maps are incomplete or too large to count.
    pub read: Option<u64>,
    /// Elements of the tensor.
    pub total: u64,
}

impl Utilization {
    /// `read / total`, when known (1 for an empty tensor).
    pub fn fraction(&self) -> Option<f64> {
        self.read.map(|r| {
            if self.total == 0 {
                1.0
            } else {
                r as f64 / self.total as f64
            }
        })
    }
}

/// A group of results that share variables, with the distinct in-bounds values they take.
struct Group {
    /// The result positions of the group.
    positions: Vec<usize>,
    values: Values,
}

/// The distinct in-bounds values of a group's results.
enum Values {
    /// Each value as its row-major position among the dimensions of the group's positions, in
    /// increasing order.
    List(Vec<u64>),
    /// Every value of a box: per position, the interval its result covers (each result a
    /// distinct variable of its own, plus a constant).
    Box(Vec<(i64, i64)>),
}

impl Group {
    /// How many distinct values the group's results take.
    fn len(&self) -> u64 {
        match &self.values {
            Values::List(list) => list.len() as u64,
            Values::Box(ranges) => ranges.iter().fold(1u64, |acc, &(lo, hi)| {
                acc.saturating_mul((hi - lo + 1) as u64)
            }),
        }
    }

    /// Writes the `c`-th value (in increasing order) of the group's results into `index` at
    /// the group's positions.
    fn write(&self, c: u64, dims: &[i64], index: &mut [i64]) {
        // The value's row-major position among the dimensions (a list), or among the box's
        // intervals.
        let mut rest = match &self.values {
            Values::List(list) => list[c as usize],
            Values::Box(_) => c,
        };
        for (k, &p) in self.positions.iter().enumerate().rev() {
            let (size, lo) = match &self.values {
                Values::List(_) => (dims[p] as u64, 0),
                Values::Box(ranges) => {
                    let (lo, hi) = ranges[k];
                    ((hi - lo + 1) as u64, lo)
                }
            };
            index[p] = lo + (rest % size) as i64;
            rest /= size;
        }
    }
}

/// Largest space of a group's values (in elements) kept as a bitmap, next to the box enumerated
/// (below it, sorting the values found is cheaper than clearing the bitmap).
const DENSE_FACTOR: u128 = 4;
const DENSE_MIN: u128 = 1 << 12;

/// Counts the distinct elements of a tensor with dimensions `dims` that the maps reach.
/// `None` when the tensor has more than 2^64 elements.
pub fn utilization(maps: &[IndexingMap], dims: &[i64]) -> Option<Utilization> {
    let total = dims
        .iter()
        .try_fold(1u64, |acc, &d| acc.checked_mul(u64::try_from(d).ok()?))?;
    Some(Utilization {
        read: count(maps, dims, total),
        total,
    })
}

fn count(maps: &[IndexingMap], dims: &[i64], total: u64) -> Option<u64> {
    let mut images = Vec::new();
    for m in maps.iter().filter(|m| !m.is_known_empty()) {
        if m.results().len() != dims.len() {
            return None;
        }
        images.push(groups(m, dims)?);
    }
    let size = |g: &[Group]| {
        g.iter()
            .try_fold(1u64, |acc, grp| acc.checked_mul(grp.len()))
    };
    match images.as_slice() {
        [] => Some(0),
        [only] => size(only),
        _ => {
            if total > BITMAP_LIMIT {
                return None;
            }
            let mut bits = vec![0u64; total.div_ceil(64) as usize];
            for image in &images {
                mark(image, dims, &mut bits);
            }
            Some(bits.iter().map(|w| u64::from(w.count_ones())).sum())
        }
    }
}

/// Sets the bit of every element in the product of the groups' images.
fn mark(image: &[Group], dims: &[i64], bits: &mut [u64]) {
    if image.iter().any(|g| g.len() == 0) {
        return;
    }
    let mut choice = vec![0u64; image.len()];
    let mut index = vec![0i64; dims.len()];
    loop {
        for (g, &c) in image.iter().zip(&choice) {
            g.write(c, dims, &mut index);
        }
        let linear = index
            .iter()
            .zip(dims)
            .fold(0u64, |acc, (&i, &d)| acc * d as u64 + i as u64);
        bits[(linear / 64) as usize] |= 1 << (linear % 64);
        let mut k = image.len();
        loop {
            if k == 0 {
                return;
            }
            k -= 1;
            choice[k] += 1;
            if choice[k] < image[k].len() {
                break;
            }
            choice[k] = 0;
        }
    }
}

/// Splits a map's results into groups connected by shared variables and enumerates each.
fn groups(m: &IndexingMap, dims: &[i64]) -> Option<Vec<Group>> {
    let nd = m.dims().len();
    let nvars = nd + m.num_symbols();
    let slot = |v: VarRef| match v {
        VarRef::Dim(i) => i as usize,
        VarRef::Sym(i) => nd + i as usize,
    };
    let mut parent: Vec<usize> = (0..nvars).collect();
    fn find(parent: &mut [usize], x: usize) -> usize {
        let mut r = x;
        while parent[r] != r {
            r = parent[r];
        }
        parent[x] = r;
        r
    }
    let vars_of = |e: &xla_indexing_core::Expr| {
        let mut v = Vec::new();
        e.for_each_var(&mut |x| v.push(slot(x)));
        v
    };
    let exprs: Vec<&xla_indexing_core::Expr> =
        m.results().iter().chain(m.constraints().keys()).collect();
    for e in &exprs {
        let vars = vars_of(e);
        for w in vars.windows(2) {
            let (a, b) = (find(&mut parent, w[0]), find(&mut parent, w[1]));
            parent[a] = b;
        }
    }
    // Group key: the root of the first variable, or a fresh key for a constant result.
    let mut keys: Vec<Option<usize>> = Vec::new();
    let mut members: Vec<(Vec<usize>, Vec<usize>)> = Vec::new(); // (result positions, constraint ids)
    for (k, e) in exprs.iter().enumerate() {
        let key = vars_of(e).first().map(|&v| find(&mut parent, v));
        let g = match keys.iter().position(|x| key.is_some() && *x == key) {
            Some(g) => g,
            None => {
                keys.push(key);
                members.push((Vec::new(), Vec::new()));
                keys.len() - 1
            }
        };
        if k < m.results().len() {
            members[g].0.push(k);
        } else {
            members[g].1.push(k - m.results().len());
        }
    }
    let constraints: Vec<_> = m.constraints().iter().collect();
    let bounds: Vec<_> = m.all_vars().map(|v| v.bounds).collect();
    let mut out = Vec::new();
    for (key, (positions, cons)) in keys.iter().zip(members) {
        let vars: Vec<usize> = match key {
            Some(root) => (0..nvars)
                .filter(|&v| find(&mut parent, v) == *root)
                .collect(),
            None => Vec::new(),
        };
        let box_size = vars
            .iter()
            .fold(1u128, |acc, &v| acc.saturating_mul(bounds[v].count()));
        if box_size > GROUP_LIMIT {
            return None;
        }
        if cons.is_empty()
            && let Some(ranges) = box_image(m, &positions, dims)
        {
            out.push(Group {
                positions,
                values: Values::Box(ranges),
            });
            continue;
        }
        let space = positions
            .iter()
            .fold(1u128, |acc, &p| acc.saturating_mul(dims[p] as u128));
        let mut found = Found::new(space, box_size);
        let mut point: Vec<i64> = bounds.iter().map(|b| b.lo).collect();
        if box_size > 0 {
            loop {
                let (d, s) = point.split_at(nd);
                let ok = cons.iter().all(|&c| {
                    let (e, iv) = constraints[c];
                    e.eval(d, s).is_some_and(|x| iv.contains(x))
                });
                if ok {
                    let linear = positions.iter().try_fold(0u64, |acc, &p| {
                        let x = m.results()[p]
                            .eval(d, s)
                            .filter(|x| (0..dims[p]).contains(x))?;
                        Some(acc * dims[p] as u64 + x as u64)
                    });
                    if let Some(linear) = linear {
                        found.insert(linear);
                    }
                }
                if !advance(&mut point, &vars, &bounds) {
                    break;
                }
            }
        }
        out.push(Group {
            positions,
            values: Values::List(found.into_values()),
        });
    }
    Some(out)
}

/// The image of results `positions` of `m` where each is a variable of its own (with
/// coefficient 1 or -1) plus a constant, and no two share one: per position, the interval of
/// the dimension it covers (the box of the variables, clipped to the dimension), with
/// `(0, -1)` for none. `None` for other results.
fn box_image(m: &IndexingMap, positions: &[usize], dims: &[i64]) -> Option<Vec<(i64, i64)>> {
    let mut seen = Vec::with_capacity(positions.len());
    let mut ranges = Vec::with_capacity(positions.len());
    for &p in positions {
        let e = &m.results()[p];
        let [(Atom::Var(v), coef)] = e.terms() else {
            return None;
        };
        if coef.abs() != 1 || seen.contains(v) {
            return None;
        }
        seen.push(*v);
        let bounds = m.var(*v)?.bounds;
        let c = e.constant_term();
        let (a, b) = (
            coef.checked_mul(bounds.lo)?.checked_add(c)?,
            coef.checked_mul(bounds.hi)?.checked_add(c)?,
        );
        let (lo, hi) = (a.min(b).max(0), a.max(b).min(dims[p] - 1));
        ranges.push(if lo <= hi { (lo, hi) } else { (0, -1) });
    }
    Some(ranges)
}

/// The distinct values a group's enumeration finds: a bitmap over their space where it is small
/// next to the enumerated box, else a list sorted and deduplicated at the end.
enum Found {
    Dense(Vec<u64>),
    Sparse(Vec<u64>),
}

impl Found {
    /// For values in a space of `space` elements, found by enumerating `box_size` points.
    fn new(space: u128, box_size: u128) -> Found {
        if space <= box_size.saturating_mul(DENSE_FACTOR).max(DENSE_MIN) {
            Found::Dense(vec![0; space.div_ceil(64) as usize])
        } else {
            Found::Sparse(Vec::new())
        }
    }

    fn insert(&mut self, linear: u64) {
        match self {
            Found::Dense(bits) => bits[(linear / 64) as usize] |= 1 << (linear % 64),
            Found::Sparse(list) => list.push(linear),
        }
    }

    /// The distinct values, in increasing order.
    fn into_values(self) -> Vec<u64> {
        match self {
            Found::Dense(bits) => {
                let mut values = Vec::new();
                for (w, &word) in bits.iter().enumerate() {
                    let mut rest = word;
                    while rest != 0 {
                        values.push(w as u64 * 64 + u64::from(rest.trailing_zeros()));
                        rest &= rest - 1;
                    }
                }
                values
            }
            Found::Sparse(mut list) => {
                list.sort_unstable();
                list.dedup();
                list
            }
        }
    }
}

/// Moves `point` to the next point of the box spanned by `vars`; false after the last one.
fn advance(point: &mut [i64], vars: &[usize], bounds: &[xla_indexing_core::Interval]) -> bool {
    for &v in vars.iter().rev() {
        if point[v] < bounds[v].hi {
            point[v] += 1;
            return true;
        }
        point[v] = bounds[v].lo;
    }
    false
}
