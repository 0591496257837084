//! Symbolic tiles against enumeration: for every operand and intermediate of every fusion of
//! the example and JAX corpora and random tile sizes, the symbolic tile instantiated at those
//! sizes is exactly what every full output tile reads where it says it is exact, covers what it
//! reads where it over-approximates,
//! and where its condition fails, some full tile's read is not one strided box of a common
//! shape.

use std::collections::BTreeSet;

use xla_indexing_core::{Expr, IndexingMap};
use xla_indexing_gpu::kernels;
use xla_indexing_gpu::symbolic_tile::{
    SymbolicTile, TileInstance, symbolic_tile, symbolic_tile_of_access,
};
use xla_indexing_hlo::access::Access;
use xla_indexing_hlo::fusion::Composer;
use xla_indexing_hlo::parse_module;

use xla_indexing_testkit::grid::box_points;
use xla_indexing_testkit::rng::SplitMix64;

/// A tile size in `[1, d]`: a power of two, or anything.
fn random_size(rng: &mut SplitMix64, d: i64) -> i64 {
    let d = d.max(1);
    match rng.next_u64() % 3 {
        0 => 1 << (rng.next_u64() % (64 - d.leading_zeros() as u64)),
        _ => rng.range(1, d),
    }
}

/// The elements full tile `t` reads through `access`, its runtime variables over `rt` (a
/// single value where one holds for the whole tile).
fn read(
    access: &IndexingMap,
    dims: &[i64],
    ts: &[i64],
    t: &[i64],
    rt: &[(i64, i64)],
) -> BTreeSet<Vec<i64>> {
    let tile: Vec<(i64, i64)> = (0..dims.len())
        .map(|i| (t[i] * ts[i], t[i] * ts[i] + ts[i] - 1))
        .collect();
    let range: Vec<(i64, i64)> = access
        .range_vars()
        .iter()
        .map(|v| (v.bounds.lo, v.bounds.hi))
        .chain(rt.iter().copied())
        .collect();
    let mut out = BTreeSet::new();
    for idx in box_points(&tile) {
        for syms in box_points(&range) {
            if access.contains(&idx, &syms) {
                out.insert(access.evaluate(&idx, &syms).unwrap());
            }
        }
    }
    out
}

/// The one strided box (least element, gcd step, count per dimension) around `set`, and
/// whether `set` fills it.
fn strided_box(set: &BTreeSet<Vec<i64>>) -> (Vec<i64>, Vec<i64>, Vec<i64>, bool) {
    let rank = set.iter().next().map_or(0, Vec::len);
    let (mut lo, mut step, mut count) = (vec![0; rank], vec![0; rank], vec![1; rank]);
    for j in 0..rank {
        let values: BTreeSet<i64> = set.iter().map(|p| p[j]).collect();
        let (first, last) = (*values.first().unwrap(), *values.last().unwrap());
        let g = values.iter().fold(0i64, |g, v| gcd(g, v - first));
        lo[j] = first;
        step[j] = g;
        count[j] = if g == 0 { 1 } else { (last - first) / g + 1 };
    }
    let fills = count.iter().product::<i64>() as usize == set.len();
    (lo, step, count, fills)
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 { a.abs() } else { gcd(b, a % b) }
}

/// The elements of the instantiated tile for tile `t`.
fn tile_elements(inst: &TileInstance, t: &[i64], rt: &[i64]) -> BTreeSet<Vec<i64>> {
    let base = inst.offsets.evaluate(t, rt).unwrap();
    let ranges: Vec<(i64, i64)> = inst.sizes.iter().map(|&n| (0, n - 1)).collect();
    box_points(&ranges)
        .into_iter()
        .map(|k| {
            base.iter()
                .zip(&k)
                .zip(&inst.strides)
                .map(|((b, k), s)| b + k * s)
                .collect()
        })
        .collect()
}

/// A tile's offsets, sizes, strides and constraints, for a failing check.
fn describe(tile: &SymbolicTile) -> String {
    format!(
        "{} sizes {:?} strides {:?} exact when {}",
        tile.offsets,
        shown(tile, &tile.sizes),
        shown(tile, &tile.strides),
        tile.condition_text()
    )
}

/// Outcome counts of one check.
#[derive(Default, Debug)]
struct Counts {
    tiles: usize,
    refused: usize,
    exact: usize,
    inexact: usize,
    over: usize,
    bounded: usize,
    skipped: usize,
}

/// The most elements (tile times range variables) enumerated per output tile.
const WORK_LIMIT: usize = 1 << 12;

/// Checks the symbolic tile of `access` at random sizes.
fn check_access(
    name: &str,
    dims: &[i64],
    access: &Access,
    rng: &mut SplitMix64,
    counts: &mut Counts,
) {
    let Ok(tile) = symbolic_tile_of_access(dims, access) else {
        counts.refused += 1;
        return;
    };
    // A runtime value read at an element that moves with the output's varies within a tile.
    let rt: Vec<(i64, i64)> = access
        .runtime
        .iter()
        .zip(access.map.rt_vars())
        .map(|(r, v)| {
            let fixed = r.map.results().iter().all(|e| e.as_constant().is_some());
            (v.bounds.lo, if fixed { v.bounds.lo } else { v.bounds.hi })
        })
        .collect();
    counts.tiles += 1;
    let sizes: Vec<Vec<i64>> = (0..6)
        .map(|_| dims.iter().map(|&d| random_size(rng, d)).collect())
        .collect();
    let case = Case {
        name,
        dims,
        access: &access.map,
        tile: &tile,
        rt: &rt,
    };
    check_sizes(&case, &sizes, rng, counts);
}

/// One access of an output and its symbolic tile.
struct Case<'a> {
    name: &'a str,
    dims: &'a [i64],
    access: &'a IndexingMap,
    tile: &'a SymbolicTile,
    /// The runtime variables' values over a tile (one value where it is fixed).
    rt: &'a [(i64, i64)],
}

/// Checks a case's tile at each of `sizes` against enumeration.
fn check_sizes(case: &Case<'_>, sizes: &[Vec<i64>], rng: &mut SplitMix64, counts: &mut Counts) {
    let Case {
        name,
        dims,
        access,
        tile,
        rt,
    } = *case;
    let fixed_rt: Vec<i64> = rt.iter().map(|r| r.0).collect();
    let range_points: usize = access
        .range_vars()
        .iter()
        .map(|v| v.bounds.count() as usize)
        .chain(rt.iter().map(|r| (r.1 - r.0 + 1) as usize))
        .product();
    for ts in sizes {
        let ts = ts.clone();
        let elements: usize = ts.iter().product::<i64>() as usize * range_points.max(1);
        let full: Vec<i64> = dims.iter().zip(&ts).map(|(d, s)| d / s).collect();
        let tiles: usize = full.iter().product::<i64>() as usize;
        if elements > WORK_LIMIT || elements * tiles.min(32) > 1 << 16 {
            counts.skipped += 1;
            continue;
        }
        let holds = tile.holds_at(&ts, &fixed_rt);
        let inst = tile
            .instantiate(&ts)
            .expect("the tile is defined at valid sizes");
        let exact = holds && tile.over.is_empty();
        let ids = box_points(full.iter().map(|&f| (0, f - 1)).collect::<Vec<_>>());
        let every = ids.len() <= 32;
        let sample: Vec<&Vec<i64>> = if every {
            ids.iter().collect()
        } else {
            (0..32)
                .map(|_| &ids[(rng.next_u64() % ids.len() as u64) as usize])
                .collect()
        };
        let mut shapes = BTreeSet::new();
        let mut all_fill = true;
        for t in sample {
            let got = read(access, dims, &ts, t, rt);
            let want = tile_elements(&inst, t, &fixed_rt);
            if holds && !tile.over.is_empty() {
                assert!(
                    got.is_subset(&want),
                    "{name}: tile {} at {ts:?}, {t:?}: reads outside the tile",
                    tile.offsets
                );
                let bound = tile
                    .extra_bound
                    .as_ref()
                    .expect("a bound where it over-approximates");
                let bound = bound
                    .eval(&[], &ts)
                    .expect("a bound defined at valid sizes");
                assert!(
                    got.is_empty() || (want.len() - got.len()) as i64 <= bound,
                    "{name}: {} leaves {} of {} unread at {ts:?}, {t:?}, beyond its bound {bound}",
                    describe(tile),
                    want.len() - got.len(),
                    want.len()
                );
                counts.bounded += 1;
            }
            if exact {
                assert_eq!(
                    got,
                    want,
                    "{name}: {} is not what tile {t:?} reads at {ts:?}",
                    describe(tile)
                );
            }
            if got.is_empty() {
                all_fill = false;
                continue;
            }
            let (_, step, count, fills) = strided_box(&got);
            let step: Vec<i64> = step
                .iter()
                .zip(&count)
                .map(|(&s, &n)| if n == 1 { 0 } else { s })
                .collect();
            shapes.insert((step, count));
            all_fill &= fills;
        }
        if exact {
            counts.exact += 1;
        } else if !tile.over.is_empty() {
            counts.over += usize::from(holds);
        } else {
            counts.inexact += 1;
            if every {
                assert!(
                    !(all_fill && shapes.len() == 1),
                    "{name}: {} is exact at {ts:?}, though its constraints fail there",
                    describe(tile)
                );
            }
        }
    }
}

/// Every map from every kernel output of the file at `path` to the instructions it reads
/// (intermediates and parameters; the root's is the identity), each checked.
fn check_file(path: &str, rng: &mut SplitMix64, counts: &mut Counts) {
    let full = format!("{}/../../{path}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{path}: {e}"));
    let module = parse_module(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut composer = Composer::new(&module);
    for kernel in kernels(&module) {
        let comp = &module.computations[kernel.computation];
        for (k, shape) in kernel.outputs.iter().enumerate() {
            let Ok(all) = composer.computation_output_to_instructions(kernel.computation, k) else {
                continue;
            };
            for m in all.iter().filter(|m| m.instruction != comp.root) {
                for a in &m.maps.accesses {
                    let name = format!(
                        "{path} {} output {k} {}",
                        kernel.name, comp.instructions[m.instruction].name
                    );
                    check_access(&name, &shape.dims, a, rng, counts);
                }
            }
        }
    }
}

fn corpus(dir: &str) -> Vec<String> {
    let full = format!("{}/../../{dir}", env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<String> = std::fs::read_dir(&full)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|f| f.ends_with(".hlo"))
        .map(|f| format!("{dir}/{f}"))
        .collect();
    files.sort();
    files
}

#[test]
fn symbolic_tiles_of_the_corpora_match_enumeration() {
    let mut rng = SplitMix64::new(0x5eed);
    let mut counts = Counts::default();
    for dir in [
        "examples/hlo",
        "crates/hlo/tests/data",
        "crates/passes/tests/data/codegen",
    ] {
        for f in corpus(dir) {
            check_file(&f, &mut rng, &mut counts);
        }
    }
    // Every map of every fusion but a few (divisions of sums, listed by `tiles --symbolic`) is
    // tiled symbolically, and the sizes drawn exercise all three outcomes.
    eprintln!("{counts:?}");
    assert!(counts.tiles >= 2000 && counts.refused <= 10, "{counts:?}");
    assert!(
        counts.exact > 3000 && counts.inexact > 50 && counts.over > 300,
        "{counts:?}"
    );
}

fn tile_of(map: &str, dims: &[i64]) -> SymbolicTile {
    let map = IndexingMap::parse(map).unwrap();
    let tile = symbolic_tile(dims, &map).unwrap();
    // Every tile size, against enumeration.
    let all: Vec<Vec<i64>> = box_points(dims.iter().map(|&d| (1, d)).collect::<Vec<_>>());
    let mut counts = Counts::default();
    let name = map.to_string();
    let case = Case {
        name: &name,
        dims,
        access: &map,
        tile: &tile,
        rt: &[],
    };
    check_sizes(&case, &all, &mut SplitMix64::new(1), &mut counts);
    tile
}

fn shown(t: &SymbolicTile, es: &[xla_indexing_core::Expr]) -> Vec<String> {
    es.iter().map(|e| t.show(e)).collect()
}

#[test]
fn a_reshape_tiles_exactly_when_the_size_divides_the_row_or_is_whole_rows() {
    let t = tile_of(
        "(d0) -> (d0 floordiv 16, d0 mod 16), domain: d0 in [0, 127]",
        &[128],
    );
    assert_eq!(t.condition_text(), "ts0 mod 16 == 0 || 16 mod ts0 == 0");
    for ts in 1..=128 {
        assert_eq!(t.holds_at(&[ts], &[]), ts % 16 == 0 || 16 % ts == 0, "{ts}");
    }
    // With two rows, a tile of both is exact too.
    let t = tile_of(
        "(d0) -> (d0 floordiv 16, d0 mod 16), domain: d0 in [0, 31]",
        &[32],
    );
    for ts in 1..=32 {
        assert_eq!(t.holds_at(&[ts], &[]), 16 % ts == 0 || ts == 32, "{ts}");
    }
}

#[test]
fn a_transpose_permutes_the_sizes() {
    let t = tile_of(
        "(d0, d1) -> (d1, d0), domain: d0 in [0, 11], d1 in [0, 7]",
        &[12, 8],
    );
    assert_eq!(shown(&t, t.offsets.results()), ["t1 * ts1", "t0 * ts0"]);
    assert_eq!(shown(&t, &t.sizes), ["ts1", "ts0"]);
    assert!(t.constraints.is_always());
}

#[test]
fn a_reduced_dimension_is_tiled_whole() {
    let t = tile_of(
        "(d0)[s0] -> (d0, s0), domain: d0 in [0, 9], s0 in [0, 63]",
        &[10],
    );
    assert_eq!(shown(&t, &t.sizes), ["ts0", "64"]);
    assert_eq!(shown(&t, t.offsets.results()), ["t0 * ts0", "0"]);
    assert!(t.constraints.is_always() && t.over.is_empty());
}

#[test]
fn rows_merged_by_a_reshape_tile_when_the_row_is_whole_or_one_side_is_one() {
    let t = tile_of(
        "(d0, d1) -> (d0 * 16 + d1), domain: d0 in [0, 7], d1 in [0, 15]",
        &[8, 16],
    );
    for (a, b) in box_points([(1, 8), (1, 16)])
        .into_iter()
        .map(|p| (p[0], p[1]))
    {
        assert_eq!(
            t.holds_at(&[a, b], &[]),
            a == 1 || b == 1 || b == 16,
            "{a} {b}"
        );
    }
    // A column of rows steps by the row.
    let i = t.instantiate(&[4, 1]).unwrap();
    assert_eq!((i.sizes, i.strides), (vec![4], vec![16]));
    let i = t.instantiate(&[4, 16]).unwrap();
    assert_eq!((i.sizes, i.strides), (vec![64], vec![1]));
}

/// Where XLA's rule (the size divides the divisor or the divisor the size) gives up, and the
/// tile is exact.
#[test]
fn divisions_are_exact_beyond_divisors_and_multiples() {
    let t = tile_of("(d0) -> (d0 floordiv 16), domain: d0 in [0, 191]", &[192]);
    for ts in [24, 40, 48, 8, 32] {
        assert!(t.holds_at(&[ts], &[]), "{ts}");
    }
    assert!(!t.holds_at(&[12], &[]));
    let t = tile_of("(d0) -> (d0 mod 16), domain: d0 in [0, 95]", &[96]);
    assert!(t.holds_at(&[24], &[]) && t.holds_at(&[17], &[]) && !t.holds_at(&[12], &[]));
}

#[test]
fn windows_widen_the_tile_by_the_window() {
    let t = tile_of(
        "(d0)[s0] -> (d0 + s0), domain: d0 in [0, 29], s0 in [0, 2]",
        &[30],
    );
    assert_eq!(shown(&t, &t.sizes), ["ts0 + 2"]);
    assert!(t.constraints.is_always());
    let t = tile_of(
        "(d0)[s0] -> (d0 * 2 + s0), domain: d0 in [0, 14], s0 in [0, 2]",
        &[15],
    );
    assert!(t.constraints.is_always());
    assert_eq!(t.instantiate(&[4]).unwrap().sizes, vec![9]);
}

#[test]
fn reads_limited_by_a_constraint_over_approximate_and_say_why() {
    // An interior pad: only every other output element reads the operand.
    let t = tile_of(
        "(d0) -> (d0 floordiv 2), domain: d0 in [0, 19], d0 mod 2 in [0, 0]",
        &[20],
    );
    assert_eq!(t.over.len(), 1, "{:?}", t.over);
    assert!(t.over[0].contains("d0 mod 2 in [0, 0]"), "{:?}", t.over);
}

#[test]
fn a_division_of_a_sum_is_refused_with_the_reason() {
    let map = IndexingMap::parse(
        "(d0, d1) -> ((d0 * 3 + d1) floordiv 2), domain: d0 in [0, 3], d1 in [0, 2]",
    )
    .unwrap();
    let e = symbolic_tile(&[4, 3], &map).unwrap_err();
    assert!(
        e.0.contains("operand dimension 0: the division of d0 * 3 + d1"),
        "{e}"
    );
}

/// Why XLA's `SymbolicTile::FromIndexingMap` (its rules as of 2024-2025: no constraints left in
/// the map; each result, less its offset, a sum of `d`, `d * c`, `d floordiv c`, `d mod c` and
/// range variables from 0, more than one summand only when each size is a dimension or a
/// constant and each stride is the previous stride times the previous dimension's size) gives
/// up on a map; `None` where it derives a tile.
fn xla_gives_up(map: &IndexingMap) -> Option<String> {
    use xla_indexing_core::{Atom, VarRef};
    if !map.constraints().is_empty() {
        return Some("the map has constraints".into());
    }
    let nr = map.range_vars().len();
    let is_rt = |v: &VarRef| matches!(v, VarRef::Sym(k) if *k as usize >= nr);
    for e in map.results() {
        // (size of a dimension or constant, stride) per summand; `None` size for an expression.
        let mut summands: Vec<(Option<i64>, i64)> = Vec::new();
        for (atom, c) in e.terms() {
            let range = |v: &VarRef| map.var(*v).map(|x| x.bounds);
            let summand = match atom {
                Atom::Var(v) if is_rt(v) => continue,
                Atom::Var(v @ VarRef::Dim(_)) => {
                    let b = range(v).unwrap();
                    (b.lo == 0).then_some((Some(b.hi + 1), *c))
                }
                Atom::Var(v) if *c == 1 => {
                    let b = range(v).unwrap();
                    (b.lo == 0).then_some((Some(b.hi + 1), 1))
                }
                Atom::FloorDiv(x, _) | Atom::Mod(x, _)
                    if *c == 1 && matches!(x.as_var(), Some(VarRef::Dim(_))) =>
                {
                    Some((None, 1))
                }
                _ => {
                    let mut rt_only = true;
                    Expr::atom(atom.clone()).for_each_var(&mut |v| rt_only &= is_rt(&v));
                    if rt_only {
                        continue;
                    }
                    None
                }
            };
            match summand {
                Some(s) => summands.push(s),
                None => return Some("a summand is not strided".into()),
            }
        }
        if summands.len() > 1 {
            summands.sort_by_key(|s| s.1);
            for w in summands.windows(2) {
                match w[0].0 {
                    Some(n) if n * w[0].1 == w[1].1 => {}
                    _ => return Some("strides do not grow as a collapse".into()),
                }
            }
        }
    }
    None
}

/// The fusions of the corpora where XLA's rule gives up and our tile is exact (under its
/// constraints), as the README lists them.
#[test]
fn where_xla_gives_up_and_ours_is_exact() {
    let mut found = BTreeSet::new();
    for dir in [
        "examples/hlo",
        "crates/hlo/tests/data",
        "crates/passes/tests/data/codegen",
    ] {
        for path in corpus(dir) {
            let full = format!("{}/../../{path}", env!("CARGO_MANIFEST_DIR"));
            let module = parse_module(&std::fs::read_to_string(&full).unwrap()).unwrap();
            let mut composer = Composer::new(&module);
            for kernel in kernels(&module) {
                for (k, shape) in kernel.outputs.iter().enumerate() {
                    let Ok(maps) = composer.computation_output_to_input(kernel.computation, k)
                    else {
                        continue;
                    };
                    for p in maps {
                        for a in &p.maps.accesses {
                            let mut simplified = a.map.clone();
                            simplified.simplify();
                            let Some(why) = xla_gives_up(&simplified) else {
                                continue;
                            };
                            let Ok(t) = symbolic_tile_of_access(&shape.dims, a) else {
                                continue;
                            };
                            if t.over.is_empty() && !t.constraints.is_never() {
                                eprintln!("{path} {}: {} ({why})", kernel.name, t.condition_text());
                                found.insert(format!(
                                    "{} {} operand {}",
                                    path.rsplit('/').next().unwrap(),
                                    kernel.name,
                                    p.parameter,
                                ));
                            }
                        }
                    }
                }
            }
        }
    }
    let listed = [
        "composed.hlo reduce_branches_fusion operand 1",
        "multi_output.hlo big operand 0",
        "reduction_tiling.hlo columns_reshaped_fusion operand 0",
        "reduction_tiling.hlo rows_reshaped_fusion operand 0",
        "transpose_heroes.hlo f0 operand 0",
    ];
    assert_eq!(found, listed.iter().map(|s| s.to_string()).collect());
}
