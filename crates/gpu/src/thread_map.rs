//! The thread-id indexing map of a loop kernel: from `(th_x, th_y, th_z, bl_x, bl_y, bl_z)` and
//! the per-thread loop `[chunk_id, unroll_id]` to the output element the thread writes.
//!
//! Threads are numbered x fastest, then y, then z, each axis counting the threads of all blocks
//! along it; thread `t` writes elements `t × unroll + unroll_id` of chunk `chunk_id`, elements
//! being numbered in the output's layout order (minor-to-major), so that neighbouring threads
//! write neighbouring memory. A constraint keeps the tail of the last block from writing past the
//! end.

use xla_indexing_core::{ArithError, Expr, IndexingMap, Interval, Var};

use crate::device::Device;
use crate::error::PlanError;
use crate::launch::{LaunchDimensions, launch_dimensions};
use xla_indexing_hlo::layout::Layout;
use xla_indexing_hlo::shape::ArrayShape;

/// The names of the six dimensions of a thread-id map, in order.
pub const DIM_NAMES: [&str; 6] = ["th_x", "th_y", "th_z", "bl_x", "bl_y", "bl_z"];
/// The names of the two range variables: the chunk a thread is on, and the element within the
/// thread's unrolled group.
pub const SYMBOL_NAMES: [&str; 2] = ["chunk_id", "unroll_id"];

/// The dimension of `th_x` (the first), for restricting maps to one warp.
pub const TH_X: usize = 0;
/// The block id `bl_y`'s dimension in the six ids.
pub const BL_Y: usize = 4;
/// The range-variable index of `unroll_id`.
pub const UNROLL_SYMBOL: usize = 1;

/// The elements a thread of `map` handles in turn: the count of its `unroll_id` (1 without).
pub fn unroll_of(map: &IndexingMap) -> u64 {
    map.range_vars()
        .get(UNROLL_SYMBOL)
        .map_or(1, |v| v.bounds.count() as u64)
}

/// The thread-id map of a loop kernel writing an array of `dims` stored in `layout`, launched
/// with `launch` and `unroll` elements per thread; simplified, all six dims and both symbols
/// kept (unused ones have a single value). Fails only on arithmetic overflow.
pub fn thread_id_map(
    launch: &LaunchDimensions,
    unroll: u64,
    dims: &[i64],
    layout: &Layout,
) -> Result<IndexingMap, ArithError> {
    let int = |v: u64| i64::try_from(v).map_err(|_| ArithError::Overflow);
    let unroll = int(unroll.max(1))?;
    let elements = dims
        .iter()
        .try_fold(1i64, |a, &d| a.checked_mul(d))
        .ok_or(ArithError::Overflow)?;
    let mut linear = Expr::zero();
    let mut stride = 1i64;
    for axis in 0..3 {
        let threads = int(launch.threads[axis])?;
        let blocks = int(launch.blocks[axis])?;
        let id = Expr::dim(axis as u32)
            .checked_add(&Expr::dim(axis as u32 + 3).checked_scale(threads)?)?;
        linear = linear.checked_add(&id.checked_scale(stride)?)?;
        stride = stride
            .checked_mul(threads)
            .and_then(|s| s.checked_mul(blocks))
            .ok_or(ArithError::Overflow)?;
    }
    let total_threads = stride;
    let per_chunk = total_threads
        .checked_mul(unroll)
        .ok_or(ArithError::Overflow)?;
    let chunks = (elements.max(1) + per_chunk - 1) / per_chunk;
    let element = linear
        .checked_scale(unroll)?
        .checked_add(&Expr::sym(0).checked_scale(per_chunk)?)?
        .checked_add(&Expr::sym(1))?;
    let mut results = vec![Expr::zero(); dims.len()];
    let mut divisor = 1i64;
    for &d in &layout.minor_to_major {
        let size = dims[d];
        results[d] = element.floor_div(divisor)?.modulo(size.max(1))?;
        divisor = divisor.checked_mul(size).ok_or(ArithError::Overflow)?;
    }
    let mut dim_vars = Vec::with_capacity(6);
    for (i, name) in DIM_NAMES.iter().enumerate() {
        let count = if i < 3 {
            launch.threads[i]
        } else {
            launch.blocks[i - 3]
        };
        dim_vars.push(Var::named(Interval::upto(int(count)?), *name));
    }
    let symbols = vec![
        Var::named(Interval::upto(chunks), SYMBOL_NAMES[0]),
        Var::named(Interval::upto(unroll), SYMBOL_NAMES[1]),
    ];
    let mut map = IndexingMap::new(results, dim_vars, symbols, Vec::new());
    map.add_constraint(element, Interval::new(0, elements - 1));
    map.simplify();
    Ok(map)
}

/// The loop emitter's launch over the elements of `shape`, `unroll` per thread, and its
/// thread-id map; `Err` says why there is none (too many elements, a layout that does not fit).
pub fn loop_launch(
    shape: &ArrayShape,
    unroll: u64,
    device: &Device,
) -> Result<(LaunchDimensions, IndexingMap), PlanError> {
    let elements = launch_elements(shape)?;
    let launch =
        launch_dimensions(elements, unroll, device).map_err(|source| PlanError::CannotLaunch {
            elements,
            shape: shape.to_string(),
            source,
        })?;
    let layout = shape.layout_or_default();
    layout
        .validate(&shape.dims)
        .map_err(|source| PlanError::Layout {
            shape: shape.to_string(),
            source,
        })?;
    let map =
        thread_id_map(&launch, unroll, &shape.dims, &layout).map_err(PlanError::ThreadIdMap)?;
    Ok((launch, map))
}

/// The elements of `shape`, as a launch counts them.
pub(crate) fn launch_elements(shape: &ArrayShape) -> Result<u64, PlanError> {
    shape
        .element_count()
        .and_then(|n| u64::try_from(n).ok())
        .ok_or_else(|| PlanError::TooManyElements(shape.to_string()))
}

/// `map` (over the six thread and block ids, each bounded as in `launch`) simplified, with
/// each id's bounds still those of `launch`: a launch map ranges over every thread the launch
/// starts. Simplification narrows an id's bounds where the constraints leave some threads idle
/// (a warp's lanes past the end of a short slice), and may then drop the constraints that said
/// so; they are kept, so that the map's domain is the same.
pub fn with_launch_bounds(map: &IndexingMap) -> IndexingMap {
    let mut simplified = map.clone();
    simplified.simplify();
    let mut wide = IndexingMap::new(
        simplified.results().to_vec(),
        map.dims().to_vec(),
        simplified.range_vars().to_vec(),
        simplified.rt_vars().to_vec(),
    );
    for (e, iv) in simplified.constraints().iter().chain(map.constraints()) {
        wide.add_constraint(e.clone(), *iv);
    }
    wide
}

/// The map restricted to the first warp of the first block: `th_x` in `[0, lanes - 1]`, every
/// other thread and block id 0. The result has the single dimension `th_x` and the symbols of
/// `map`; it is simplified.
pub fn restrict_to_warp(map: &IndexingMap, lanes: u64) -> Result<IndexingMap, ArithError> {
    let lanes = i64::try_from(lanes).map_err(|_| ArithError::Overflow)?;
    let mut dims = vec![Expr::dim(0)];
    dims.extend((1..map.dims().len()).map(|_| Expr::zero()));
    let syms: Vec<Expr> = (0..map.num_symbols() as u32).map(Expr::sym).collect();
    let th_x = map
        .dims()
        .get(TH_X)
        .map(|v| v.bounds)
        .unwrap_or(Interval::point(0));
    let th_x = vec![Var::named(
        th_x.intersect(Interval::upto(lanes)),
        DIM_NAMES[TH_X],
    )];
    let empty = map.dims().iter().skip(1).any(|v| !v.bounds.contains(0));
    substituted(
        map,
        (&dims, &syms),
        (th_x, map.range_vars().to_vec()),
        empty,
    )
}

/// `map` with range variable `i` fixed to `value`: the variable is substituted in the results
/// and constraints and dropped (the later ones move up); the result is simplified. A value
/// outside the variable's range gives a known-empty map.
pub fn fix_range_var(map: &IndexingMap, i: usize, value: i64) -> Result<IndexingMap, ArithError> {
    let dims: Vec<Expr> = (0..map.dims().len() as u32).map(Expr::dim).collect();
    let syms: Vec<Expr> = (0..map.num_symbols())
        .map(|k| match k.cmp(&i) {
            std::cmp::Ordering::Less => Expr::sym(k as u32),
            std::cmp::Ordering::Equal => Expr::constant(value),
            std::cmp::Ordering::Greater => Expr::sym(k as u32 - 1),
        })
        .collect();
    let mut range_vars = map.range_vars().to_vec();
    let fixed = (i < range_vars.len()).then(|| range_vars.remove(i));
    let empty = fixed.is_some_and(|v| !v.bounds.contains(value));
    substituted(
        map,
        (&dims, &syms),
        (map.dims().to_vec(), range_vars),
        empty,
    )
}

/// `map` with its dims and symbols replaced by `dims` and `syms` (in the results and the
/// constraints), over the variables `dim_vars` and `range_vars`, simplified; known-empty when
/// `map` is or `empty` says so.
fn substituted(
    map: &IndexingMap,
    (dims, syms): (&[Expr], &[Expr]),
    (dim_vars, range_vars): (Vec<Var>, Vec<Var>),
    empty: bool,
) -> Result<IndexingMap, ArithError> {
    let subst = |e: &Expr| e.substitute(dims, syms);
    let mut out = IndexingMap::new(
        map.results()
            .iter()
            .map(subst)
            .collect::<Result<Vec<_>, _>>()?,
        dim_vars,
        range_vars,
        map.rt_vars().to_vec(),
    );
    if map.is_known_empty() || empty {
        out.mark_empty();
        return Ok(out);
    }
    for (e, iv) in map.constraints() {
        out.add_constraint(subst(e)?, *iv);
    }
    out.simplify();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::Device;
    use crate::launch::launch_dimensions;

    fn parsed(text: &str) -> IndexingMap {
        IndexingMap::parse(text).unwrap_or_else(|e| panic!("{e}: {text}"))
    }

    #[test]
    fn bf16_6x512x4096_unrolled_by_four_matches_xla() {
        let dims = [6, 512, 4096];
        let launch = launch_dimensions(6 * 512 * 4096, 4, &Device::h100()).unwrap();
        let mut map = thread_id_map(&launch, 4, &dims, &Layout::default_for_rank(3)).unwrap();
        map.remove_unused_vars();
        let want = parsed(
            "(th_x, bl_x)[vector_index] -> (bl_x floordiv 4096, (bl_x floordiv 8) mod 512, \
             (bl_x mod 8) * 512 + th_x * 4 + vector_index), \
             domain: th_x in [0, 127], bl_x in [0, 24575], vector_index in [0, 3]",
        );
        assert_eq!(map, want, "{map}");
    }

    #[test]
    fn launch_bounds_stay_those_of_the_launch_where_the_constraints_idle_lanes() {
        // Lanes 20 to 31 of each warp are idle; and a constraint that simplification would
        // drop once it has narrowed `th_x` to the first warp.
        for constraint in [
            "th_x mod 32 in [0, 19]",
            "th_x floordiv 32 + bl_x in [0, 0]",
        ] {
            let map = parsed(&format!(
                "(th_x, th_y, th_z, bl_x, bl_y, bl_z)[chunk_id, unroll_id] -> (th_x mod 32), \
                 domain: th_x in [0, 127], th_y in [0, 0], th_z in [0, 0], bl_x in [0, 2], \
                 bl_y in [0, 0], bl_z in [0, 0], chunk_id in [0, 0], unroll_id in [0, 0], \
                 {constraint}"
            ));
            let mut narrowed = map.clone();
            narrowed.simplify();
            assert!(narrowed.dims()[0].bounds.hi < 127, "{narrowed}");
            let wide = with_launch_bounds(&map);
            assert_eq!(wide.dims()[0].bounds, Interval::new(0, 127));
            // The same points, by enumeration.
            for ids in map.domain_points(1 << 16).unwrap() {
                assert_eq!(wide.contains(&ids.0, &ids.1), map.contains(&ids.0, &ids.1));
            }
            for th_x in 0..128 {
                let ids = [th_x, 0, 0, 0, 0, 0];
                assert_eq!(wide.contains(&ids, &[0, 0]), map.contains(&ids, &[0, 0]));
            }
        }
    }

    #[test]
    fn f32_20_not_unrolled_matches_xla() {
        let launch = launch_dimensions(20, 1, &Device::h100()).unwrap();
        let map = thread_id_map(&launch, 1, &[20], &Layout::default_for_rank(1)).unwrap();
        let want = parsed(
            "(th_x, th_y, th_z, bl_x, bl_y, bl_z)[chunk_id, unroll_id] -> (th_x), \
             domain: th_x in [0, 19], th_y in [0, 0], th_z in [0, 0], bl_x in [0, 0], \
             bl_y in [0, 0], bl_z in [0, 0], chunk_id in [0, 0], unroll_id in [0, 0]",
        );
        assert_eq!(map, want, "{map}");
        assert_eq!(
            map.to_string(),
            "(th_x, th_y, th_z, bl_x, bl_y, bl_z)[chunk_id, unroll_id] -> (th_x), domain: \
             th_x in [0, 19], th_y in [0, 0], th_z in [0, 0], bl_x in [0, 0], bl_y in [0, 0], \
             bl_z in [0, 0], chunk_id in [0, 0], unroll_id in [0, 0]"
        );
    }

    /// Every element is written exactly once, by enumeration, for layouts and tails.
    #[test]
    fn every_element_is_written_once() {
        let cases: [(&[i64], Vec<usize>, u64); 4] = [
            (&[3, 50], vec![1, 0], 1),
            (&[3, 50], vec![0, 1], 2),
            (&[7, 5, 9], vec![0, 2, 1], 4),
            (&[130], vec![0], 1),
        ];
        for (dims, m2m, unroll) in cases {
            let layout = Layout::new(m2m);
            let elements: i64 = dims.iter().product();
            let launch = launch_dimensions(elements as u64, unroll, &Device::h100()).unwrap();
            let map = thread_id_map(&launch, unroll, dims, &layout).unwrap();
            let mut seen = vec![0u32; elements as usize];
            for (d, s) in map.domain_points(1 << 20).unwrap() {
                let idx = map.evaluate(&d, &s).unwrap();
                let lin = layout.linear_index(dims, &idx).unwrap();
                // Neighbouring unroll ids write neighbouring memory.
                let thread = d[0] + d[3] * launch.threads[0] as i64;
                assert_eq!(lin, thread * unroll as i64 + s[1], "{map}");
                seen[lin as usize] += 1;
            }
            assert!(seen.iter().all(|&c| c == 1), "{dims:?}: {map}");
        }
    }

    #[test]
    fn warp_restriction_keeps_only_th_x() {
        let launch = launch_dimensions(6 * 512 * 4096, 4, &Device::h100()).unwrap();
        let map = thread_id_map(&launch, 4, &[6, 512, 4096], &Layout::default_for_rank(3)).unwrap();
        let warp = restrict_to_warp(&map, 32).unwrap();
        let want = parsed(
            "(th_x)[chunk_id, unroll_id] -> (0, 0, th_x * 4 + unroll_id), \
             domain: th_x in [0, 31], chunk_id in [0, 0], unroll_id in [0, 3]",
        );
        assert_eq!(warp, want, "{warp}");
    }

    #[test]
    fn fixing_a_range_var_agrees_with_the_map_at_every_point() {
        let map = parsed(
            "(d0)[s0, s1, s2] -> (d0 * 4 + s1, s0 - s2 mod 3), domain: d0 in [0, 5], s0 in [0, 2], \
             s1 in [0, 3], s2 in [0, 4], d0 + s1 in [0, 6]",
        );
        for value in 0..4 {
            let fixed = fix_range_var(&map, 1, value).unwrap();
            assert_eq!(fixed.range_vars().len(), 2);
            let mut points = 0;
            for (dims, syms) in map.domain_points(1 << 16).unwrap() {
                if syms[1] != value {
                    continue;
                }
                let rest = [syms[0], syms[2]];
                assert!(fixed.contains(&dims, &rest), "{fixed} at {dims:?} {rest:?}");
                assert_eq!(fixed.evaluate(&dims, &rest), map.evaluate(&dims, &syms));
                points += 1;
            }
            let all = fixed.domain_points(1 << 16).unwrap().len();
            assert_eq!(all, points, "{fixed}: points outside the original domain");
        }
        assert!(fix_range_var(&map, 1, 4).unwrap().is_known_empty());
    }
}
