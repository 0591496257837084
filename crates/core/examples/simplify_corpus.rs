//! Prints the seeded corpus of the simplifier benchmark (`cargo xtask bench simplify`) as requests
//! of the `xla-indexing simplify --jsonl` protocol, one expression per request:
//!
//! ```text
//! {"id":"reshape-3.1","family":"reshape","vars":{"d0":[0,3],"d1":[0,5]},"constraints":{},"expr":"..."}
//! ```
//!
//! Families: `seed` (the simplifier examples of the indexing seed and of XLA's tests), `reshape`
//! (chains of reshapes, transposes and layout-changing bitcasts over small shapes), `slice`
//! (strided slices around a reshape, both directions), `pad` (pads with interior padding around a
//! reshape, both directions, with their `mod` constraints) and `random` (random quasi-affine
//! expressions over 5 to 8 variables). Every map is composed by core and every result becomes one
//! request; symbols become trailing dimensions, so requests name only `d0, d1, ...`. Results
//! without `floordiv`, `ceildiv` or `mod` (already in normal form) and repeated requests are left
//! out.
//!
//! Usage: `cargo run --release -p xla-indexing-core --example simplify_corpus -- [--seed N]`
//! (default seed 1). The same seed prints the same corpus on every machine.

use std::collections::HashSet;
use std::fmt::Write as _;

use xla_indexing_core::print::DefaultNames;
use xla_indexing_core::{Expr, IndexingMap, Interval, Var};
use xla_indexing_testkit::rng::SplitMix64;

/// Inputs of the simplifier examples (`crates/core/tests/simplifier_examples.rs`) and the
/// examples of the `simplify --jsonl` protocol.
const SEED_MAPS: &[&str] = &[
    "(d0, d1) -> (d0 + d1 floordiv 16, d1 mod 16), domain: d0 in [0, 6], d1 in [0, 14]",
    "(d0, d1, d2) -> ((100d0 + 10d1 + d2) floorDiv 100, ((100d0 + 10d1 + d2) mod 100) floordiv 10, d2 mod 10), domain: d0 in [0, 9], d1 in [0, 9], d2 in [0, 9]",
    "(d0, d1, d2) -> ((16d0 + 4d1 + d2) floordiv 8, (16d0 + 4d1 + d2) mod 8), domain: d0 in [0, 9], d1 in [0, 9], d2 in [0, 9]",
    "(d0, d1) -> (-(-11d0 - d1 + 109) floordiv 11 + 9), domain: d0 in [0, 9], d1 in [0, 10]",
    "(d0, d1) -> (-((d0 * -11 - d1 + 109) floordiv 11) + 9, d0 * 11 + d1 + ((d0 * -11 - d1 + 109) floordiv 11) * 11 - 99), domain: d0 in [0, 7], d1 in [0, 8]",
    "()[s0] -> ((s0 * 128) mod 715 + ((s0 * 128) floordiv 715) * 715), domain: s0 in [0, 127]",
    "(d0, d1) -> ((d0 mod 8) * 128 + d1 + (d0 floordiv 8) * 1024), domain: d0 in [0, 1023], d1 in [0, 127]",
    "()[s0] -> (s0 - ((s0 floordiv 2) floordiv 7) * 14 + (s0 floordiv 14) * 14), domain: s0 in [0, 1233]",
    "()[s0, s1] -> ((s0 * 2 + s1 floordiv 64) floordiv 3), domain: s0 in [0, 1233], s1 in [0, 127]",
    "(d0, d1) -> (((d0 floordiv 3) * 3 + d1 floordiv 2) floordiv 6), domain: d0 in [0, 11], d1 in [0, 5]",
    "(d0) -> (d0 mod 42), domain: d0 in [53, 71]",
    "(d0) -> (d0 mod 5), domain: d0 in [-5, -1]",
    "()[s0, s1, s2, s3] -> ((s0 * 458752 + s1 + s2 * 4 + s3 * 512) mod 20000), domain: s0 in [0, 871], s1 in [0, 3], s2 in [0, 127], s3 in [0, 895]",
    "(d0)[s0] -> (d0 + s0), domain: d0 in [0, 5], s0 in [1, 3], d0 + s0 in [0, 20]",
    "(d0, d1) -> (d0 + d1 floordiv 16), domain: d0 in [0, 9], d1 in [0, 14]",
    "(d0) -> (((d0 - 1) floordiv 2) * 2 + 1, d0 mod 2), domain: d0 in [1, 7], (d0 - 1) mod 2 in [0, 0]",
    "(d0) -> (d0 floordiv 8 * 8 + d0 mod 8), domain: d0 in [0, 99], d0 floordiv 8 in [5, 11]",
    "()[s0] -> (s0 floordiv 3 + s0 mod 3), domain: s0 in [-99, 99], s0 floordiv -3 in [-11, -5]",
    "(d0)[s0, s1] -> (d0 * 6 + s0 * 3 + s1), domain: d0 in [0, 1999], s0 in [0, 1], s1 in [0, 2], d0 * 6 + s0 * 3 + s1 in [0, 599]",
];

/// The small element counts that shapes of the reshape, slice and pad families have.
const SIZES: &[i64] = &[12, 16, 24, 30, 32, 36, 48, 60, 64, 72, 96, 120];

fn main() {
    let mut seed = 1u64;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match (a.as_str(), args.next()) {
            ("--seed", Some(v)) => match v.parse() {
                Ok(s) => seed = s,
                Err(_) => usage(&format!("--seed takes an integer, not `{v}`")),
            },
            _ => usage(&format!("unexpected argument `{a}`")),
        }
    }
    let mut corpus = Corpus::default();
    for (i, text) in SEED_MAPS.iter().enumerate() {
        let map = IndexingMap::parse(text).expect("the seed maps parse");
        corpus.add_map("seed", i, &map);
    }
    let mut rng = SplitMix64::new(seed);
    for i in 0..60 {
        corpus.add_map("reshape", i, &reshape_chain(&mut rng));
    }
    for i in 0..40 {
        let (in2out, out2in) = strided_slice(&mut rng);
        corpus.add_map("slice", 2 * i, &in2out);
        corpus.add_map("slice", 2 * i + 1, &out2in);
    }
    for i in 0..40 {
        let (in2out, out2in) = interior_pad(&mut rng);
        corpus.add_map("pad", 2 * i, &in2out);
        corpus.add_map("pad", 2 * i + 1, &out2in);
    }
    for i in 0..200 {
        corpus.add_map("random", i, &random_map(&mut rng));
    }
    print!("{}", corpus.out);
}

fn usage(message: &str) -> ! {
    eprintln!("simplify_corpus: {message}\nusage: simplify_corpus [--seed N]");
    std::process::exit(2)
}

#[derive(Default)]
struct Corpus {
    out: String,
    seen: HashSet<String>,
}

impl Corpus {
    /// Adds one request per non-trivial result of `map`.
    fn add_map(&mut self, family: &str, index: usize, map: &IndexingMap) {
        assert!(
            !map.is_known_empty(),
            "{family}-{index}: the corpus has no empty maps"
        );
        let map = map.convert_symbols_to_dims();
        let show = |e: &Expr| e.display(&DefaultNames).to_string();
        let mut vars = String::new();
        for (i, v) in map.dims().iter().enumerate() {
            let sep = if i == 0 { "" } else { "," };
            let _ = write!(vars, "{sep}\"d{i}\":[{},{}]", v.bounds.lo, v.bounds.hi);
        }
        let mut constraints = String::new();
        for (i, (e, iv)) in map.constraints().iter().enumerate() {
            let sep = if i == 0 { "" } else { "," };
            let _ = write!(constraints, "{sep}\"{}\":[{},{}]", show(e), iv.lo, iv.hi);
        }
        for (r, e) in map.results().iter().enumerate() {
            if e.cost().div_mods == 0 {
                continue;
            }
            let body = format!(
                "\"vars\":{{{vars}}},\"constraints\":{{{constraints}}},\"expr\":\"{}\"",
                show(e)
            );
            if self.seen.insert(body.clone()) {
                let _ = writeln!(
                    self.out,
                    "{{\"id\":\"{family}-{index}.{r}\",\"family\":\"{family}\",{body}}}"
                );
            }
        }
    }
}

/// A random shape with `elements` elements and 1 to 4 dimensions.
fn factorize(rng: &mut SplitMix64, elements: i64) -> Vec<i64> {
    let rank = rng.range(1, 4);
    let mut shape = Vec::new();
    let mut left = elements;
    for _ in 1..rank {
        let divisors: Vec<i64> = (2..left).filter(|d| left % d == 0).collect();
        if divisors.is_empty() {
            break;
        }
        let d = *rng.pick(&divisors);
        shape.push(d);
        left /= d;
    }
    shape.push(left);
    shape
}

/// A random permutation of `0..n`.
fn permutation(rng: &mut SplitMix64, n: usize) -> Vec<usize> {
    let mut p: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        let j = rng.range(0, i as i64) as usize;
        p.swap(i, j);
    }
    p
}

/// `Σ index[i] * stride[i]` for the row-major strides of `shape`.
fn linearize(index: &[Expr], shape: &[i64]) -> Expr {
    let mut acc = Expr::zero();
    for (e, size) in index.iter().zip(shape) {
        acc = acc * *size + e.clone();
    }
    acc
}

/// The row-major multi-index of `linear` in `shape`.
fn delinearize(linear: &Expr, shape: &[i64]) -> Vec<Expr> {
    let mut stride: i64 = shape.iter().product();
    let mut out = Vec::new();
    for (i, size) in shape.iter().enumerate() {
        stride /= size;
        let q = linear.floor_div(stride).expect("small shapes");
        out.push(if i == 0 {
            q
        } else {
            q.modulo(*size).expect("small shapes")
        });
    }
    out
}

/// The output-to-input map of reshaping `input` to `output` (same element count).
fn reshape(input: &[i64], output: &[i64]) -> IndexingMap {
    let d: Vec<Expr> = (0..output.len() as u32).map(Expr::dim).collect();
    IndexingMap::from_tensor_sizes(delinearize(&linearize(&d, output), input), output, &[])
}

/// The output-to-input map of a transpose: output dimension `i` is input dimension `perm[i]`.
fn transpose(input: &[i64], perm: &[usize]) -> (IndexingMap, Vec<i64>) {
    let output: Vec<i64> = perm.iter().map(|&p| input[p]).collect();
    let mut results = vec![Expr::zero(); input.len()];
    for (i, &p) in perm.iter().enumerate() {
        results[p] = Expr::dim(i as u32);
    }
    (
        IndexingMap::from_tensor_sizes(results, &output, &[]),
        output,
    )
}

/// The output-to-input map of a bitcast between `input` with layout `in_major` (dimensions from
/// most major to most minor) and `output` with layout `out_major`: the physical buffer is the
/// same, so the output's physical linear index is decomposed in the input's physical shape.
fn bitcast(input: &[i64], in_major: &[usize], output: &[i64], out_major: &[usize]) -> IndexingMap {
    let out_phys: Vec<i64> = out_major.iter().map(|&i| output[i]).collect();
    let out_index: Vec<Expr> = out_major.iter().map(|&i| Expr::dim(i as u32)).collect();
    let in_phys: Vec<i64> = in_major.iter().map(|&i| input[i]).collect();
    let phys = delinearize(&linearize(&out_index, &out_phys), &in_phys);
    let mut results = vec![Expr::zero(); input.len()];
    for (j, &i) in in_major.iter().enumerate() {
        results[i] = phys[j].clone();
    }
    IndexingMap::from_tensor_sizes(results, output, &[])
}

/// A chain of 2 to 4 reshapes, transposes and bitcasts, as the map from the last output to the
/// first input.
fn reshape_chain(rng: &mut SplitMix64) -> IndexingMap {
    let elements = *rng.pick(SIZES);
    let mut shape = factorize(rng, elements);
    let mut map = IndexingMap::identity(&shape);
    // `map` goes from the current shape to the first input; each step prepends a map from the
    // step's output to the current shape.
    for _ in 0..rng.range(2, 4) {
        let (step, output) = match rng.range(0, 2) {
            0 => {
                let output = factorize(rng, elements);
                (reshape(&shape, &output), output)
            }
            1 if shape.len() > 1 => transpose(&shape, &permutation(rng, shape.len())),
            _ => {
                let output = factorize(rng, elements);
                let in_major = permutation(rng, shape.len());
                let out_major = permutation(rng, output.len());
                (bitcast(&shape, &in_major, &output, &out_major), output)
            }
        };
        map = step.compose(&map).expect("shapes chain");
        shape = output;
    }
    map
}

/// A random shape for a slice or pad operand: 1 to 3 dimensions of 2 to 12 elements.
fn small_shape(rng: &mut SplitMix64) -> Vec<i64> {
    (0..rng.range(1, 3)).map(|_| rng.range(2, 12)).collect()
}

/// A reshape of `shape` to a random shape of the same size, as (input-to-output,
/// output-to-input) maps.
fn random_reshape(rng: &mut SplitMix64, shape: &[i64]) -> (IndexingMap, IndexingMap) {
    let output = factorize(rng, shape.iter().product());
    (reshape(&output, shape), reshape(shape, &output))
}

/// A strided slice of a random operand, followed by a reshape of its result: the map from the
/// operand to the reshaped output (with the slice's `mod` constraints) and the map back.
fn strided_slice(rng: &mut SplitMix64) -> (IndexingMap, IndexingMap) {
    let input = small_shape(rng);
    let (mut starts, mut strides, mut sizes) = (Vec::new(), Vec::new(), Vec::new());
    for &n in &input {
        let start = rng.range(0, n / 2);
        let stride = rng.range(1, 4);
        starts.push(start);
        strides.push(stride);
        sizes.push((n - start + stride - 1) / stride);
    }
    // in2out: d -> (d - start) floordiv stride, with (d - start) mod stride == 0.
    let mut in2out = IndexingMap::from_tensor_sizes(
        (0..input.len())
            .map(|i| {
                (Expr::dim(i as u32) - starts[i])
                    .floor_div(strides[i])
                    .unwrap()
            })
            .collect(),
        &input,
        &[],
    );
    for i in 0..input.len() {
        let d = Expr::dim(i as u32);
        let last = starts[i] + (sizes[i] - 1) * strides[i];
        in2out.add_constraint(d.clone(), Interval::new(starts[i], last));
        in2out.add_constraint(
            (d - starts[i]).modulo(strides[i]).unwrap(),
            Interval::point(0),
        );
    }
    let out2in = IndexingMap::from_tensor_sizes(
        (0..input.len())
            .map(|i| Expr::dim(i as u32) * strides[i] + starts[i])
            .collect(),
        &sizes,
        &[],
    );
    let (r_in2out, r_out2in) = random_reshape(rng, &sizes);
    (
        in2out.compose(&r_in2out).unwrap(),
        r_out2in.compose(&out2in).unwrap(),
    )
}

/// A pad with low, high and interior padding, followed by a reshape: the map from the operand to
/// the reshaped output and the map back (defined on the operand's elements only).
fn interior_pad(rng: &mut SplitMix64) -> (IndexingMap, IndexingMap) {
    let input = small_shape(rng);
    let (mut lows, mut interiors, mut sizes) = (Vec::new(), Vec::new(), Vec::new());
    for &n in &input {
        let (low, high, interior) = (rng.range(0, 3), rng.range(0, 3), rng.range(0, 3));
        lows.push(low);
        interiors.push(interior);
        sizes.push(low + n + (n - 1) * interior + high);
    }
    let in2out = IndexingMap::from_tensor_sizes(
        (0..input.len())
            .map(|i| Expr::dim(i as u32) * (interiors[i] + 1) + lows[i])
            .collect(),
        &input,
        &[],
    );
    // out2in: d -> (d - low) floordiv (interior + 1) on the elements that come from the operand.
    let mut out2in = IndexingMap::from_tensor_sizes(
        (0..input.len())
            .map(|i| {
                (Expr::dim(i as u32) - lows[i])
                    .floor_div(interiors[i] + 1)
                    .unwrap()
            })
            .collect(),
        &sizes,
        &[],
    );
    for i in 0..input.len() {
        let d = Expr::dim(i as u32);
        let last = lows[i] + (input[i] - 1) * (interiors[i] + 1);
        out2in.add_constraint(d.clone(), Interval::new(lows[i], last));
        out2in.add_constraint(
            (d - lows[i]).modulo(interiors[i] + 1).unwrap(),
            Interval::point(0),
        );
    }
    let (r_in2out, r_out2in) = random_reshape(rng, &sizes);
    (
        in2out.compose(&r_in2out).unwrap(),
        r_out2in.compose(&out2in).unwrap(),
    )
}

/// A random quasi-affine expression over `n` variables, at most `depth` divisions deep.
fn random_expr(rng: &mut SplitMix64, n: usize, depth: u32) -> Expr {
    let mut acc = Expr::constant(rng.range(-8, 8));
    for _ in 0..rng.range(1, 4) {
        let coef = *rng.pick(&[1, 1, 1, 2, 3, 4, 8, 16, -1, -2]);
        let term = if depth > 0 && rng.chance(1, 2) {
            let inner = random_expr(rng, n, depth - 1);
            let k = *rng.pick(&[2, 3, 4, 5, 6, 8, 9, 12, 16]);
            match rng.range(0, 5) {
                0 | 1 => inner.floor_div(k),
                2 | 3 => inner.modulo(k),
                _ => inner.ceil_div(k),
            }
            .expect("small expressions")
        } else {
            Expr::dim(rng.range(0, n as i64 - 1) as u32)
        };
        acc = acc + term * coef;
    }
    acc
}

/// Random expressions over 5 to 8 variables with small bounds, some with a constraint that holds
/// at a random point of the box (so the domain is never empty).
fn random_map(rng: &mut SplitMix64) -> IndexingMap {
    let n = rng.range(5, 8) as usize;
    let vars: Vec<Var> = (0..n)
        .map(|_| {
            let lo = if rng.chance(1, 5) {
                rng.range(-4, 4)
            } else {
                0
            };
            let size = *rng.pick(&[1, 2, 3, 4, 4, 6, 8, 8, 12, 16, 32]);
            Var::new(Interval::new(lo, lo + size - 1))
        })
        .collect();
    let results = (0..rng.range(1, 2))
        .map(|_| random_expr(rng, n, 2))
        .collect();
    let point: Vec<i64> = vars
        .iter()
        .map(|v| rng.range(v.bounds.lo, v.bounds.hi))
        .collect();
    let mut map = IndexingMap::new(results, vars, Vec::new(), Vec::new());
    if rng.chance(1, 3) {
        let c = random_expr(rng, n, 1);
        if c.as_constant().is_none() {
            let at = c.eval(&point, &[]).expect("small values");
            let iv = if rng.chance(1, 2) {
                Interval::point(at)
            } else {
                Interval::new(at - rng.range(0, 3), at + rng.range(0, 3))
            };
            map.add_constraint(c, iv);
        }
    }
    map
}
