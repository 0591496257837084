//! The reduction emitter's plans checked by enumeration: every element of the reduced input is
//! read exactly once, by a thread of the group (row reduction) or of the column (column tile)
//! whose first thread writes the output element it reduces into, and every output element is
//! written exactly once.

use std::collections::HashMap;

use xla_indexing_gpu::{
    Device, EmitterPlan, plan_module,
    reduction::{OutputSource, ReductionKind, ReductionPlan},
};
use xla_indexing_hlo::parse_module;

/// A module reducing `input` (with `layout`) along `dims` with one fusion.
fn module(input: &str, layout: &str, dims: &str, output: &str) -> String {
    format!(
        "HloModule m\n\nadd (a: f32[], b: f32[]) -> f32[] {{\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT s = f32[] add(a, b)\n}}\n\n\
         fused (p: f32[{input}]) -> f32[{output}] {{\n  p = f32[{input}]{{{layout}}} parameter(0)\n  z = f32[] constant(0)\n  ROOT r = f32[{output}] reduce(p, z), dimensions={{{dims}}}, to_apply=add\n}}\n\n\
         ENTRY e (x: f32[{input}]) -> f32[{output}] {{\n  x = f32[{input}]{{{layout}}} parameter(0)\n  ROOT f = f32[{output}] fusion(x), kind=kInput, calls=fused\n}}\n"
    )
}

fn plan(text: &str) -> ReductionPlan {
    let m = parse_module(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let plans = plan_module(&m, &Device::h100()).unwrap();
    match &plans[0].emitter {
        EmitterPlan::Reduction(r) => (**r).clone(),
        other => panic!("not the reduction emitter: {other:?}\n{text}"),
    }
}

/// A value of input element `e` whose sums tell elements apart.
fn value(e: &[i64]) -> i128 {
    e.iter()
        .fold(17i128, |acc, &i| acc * 1_000_003 + i128::from(i) * 7 + 1)
}

/// The blocks and threads of the map's domain points: (block x, thread x).
fn ids_of(ids: &[i64]) -> (i64, i64) {
    (ids[3], ids[0])
}

/// Runs the plan of reducing `input` (with `layout`) along `reduced` as the kernel does, with
/// sums: every thread folds what its read map gives it (a row's thread one partial result, a
/// column's one per lane), the partial results meet (a row's group, or through the exchange's
/// tile and `lanes` adjacent lanes), the writers store; every output must be written once
/// with the sum of exactly the elements that reduce into it.
fn check(input: &[i64], layout: &str, reduced: &[usize]) {
    let join = |v: &[i64]| v.iter().map(i64::to_string).collect::<Vec<_>>().join(",");
    let kept: Vec<i64> = (0..input.len())
        .filter(|d| !reduced.contains(d))
        .map(|d| input[d])
        .collect();
    let red = reduced
        .iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join(",");
    let r = plan(&module(&join(input), layout, &red, &join(&kept)));
    let kept_of = |e: &[i64]| -> Vec<i64> {
        (0..input.len())
            .filter(|d| !reduced.contains(d))
            .map(|d| e[d])
            .collect()
    };
    // Step 1: partial results per (block, thread, lane).
    let columns = r.exchange.is_some();
    let mut partial: HashMap<(i64, i64, i64), i128> = HashMap::new();
    let mut read: HashMap<Vec<i64>, u32> = HashMap::new();
    for (ids, syms) in r.read_map.domain_points(1 << 22).unwrap() {
        let e = r.read_map.evaluate(&ids, &syms).unwrap();
        assert!(
            e.iter().zip(input).all(|(&i, &n)| (0..n).contains(&i)),
            "{input:?}: {e:?} out of bounds"
        );
        let (b, t) = ids_of(&ids);
        let lane = if columns { syms[1] } else { 0 };
        *partial.entry((b, t, lane)).or_default() += value(&e);
        *read.entry(e).or_default() += 1;
    }
    assert_eq!(
        read.len() as i64,
        input.iter().product::<i64>(),
        "{input:?}: elements read"
    );
    assert!(
        read.values().all(|&n| n == 1),
        "{input:?}: an element read twice"
    );
    // Step 2: the partial results meet.
    let threads = r.launch.threads[0] as i64;
    let combined = |b: i64, t: i64, lane: i64| -> i128 {
        match (&r.kind, &r.exchange) {
            (ReductionKind::Row { group, .. }, _) => {
                let g = *group as i64;
                (t / g * g..t / g * g + g)
                    .map(|u| partial.get(&(b, u, 0)).copied().unwrap_or(0))
                    .sum()
            }
            (_, Some(x)) => {
                let at = |map: &xla_indexing_core::IndexingMap, u: i64, s: i64| {
                    map.evaluate(&[u, 0, 0, b, 0, 0], &[s]).unwrap()
                };
                let mut tile: HashMap<Vec<i64>, i128> = HashMap::new();
                for u in 0..threads {
                    for s in 0..r.kind.vector() as i64 {
                        let before = tile.insert(
                            at(&x.store, u, s),
                            partial.get(&(b, u, s)).copied().unwrap_or(0),
                        );
                        assert!(before.is_none(), "{input:?}: two stores at one place");
                    }
                }
                let w = x.lanes as i64;
                (t / w * w..t / w * w + w)
                    .map(|u| tile[&at(&x.load, u, lane)])
                    .sum()
            }
            _ => panic!("a column without an exchange"),
        }
    };
    // Step 3: the writers store.
    let mut written: HashMap<Vec<i64>, i128> = HashMap::new();
    for (ids, syms) in r.write_map.domain_points(1 << 22).unwrap() {
        let o = r.write_map.evaluate(&ids, &syms).unwrap();
        let (b, t) = ids_of(&ids);
        let before = written.insert(
            o.clone(),
            combined(b, t, syms.first().copied().unwrap_or(0)),
        );
        assert!(before.is_none(), "{input:?}: output {o:?} written twice");
    }
    let mut expected: HashMap<Vec<i64>, i128> = HashMap::new();
    for e in read.keys() {
        *expected.entry(kept_of(e)).or_default() += value(e);
    }
    assert_eq!(written, expected, "{input:?} ({:?}): the outputs", r.kind);
}

#[test]
fn row_reductions_read_each_element_once_in_the_writers_group() {
    check(&[6, 300], "1,0", &[1]);
    check(&[5, 33], "1,0", &[1]);
    check(&[3, 4, 5, 7], "3,2,1,0", &[2, 3]);
    check(&[9, 11], "1,0", &[0, 1]);
    check(&[2, 1030], "1,0", &[1]);
    check(&[3, 4096], "1,0", &[1]);
    check(&[5, 250], "1,0", &[1]);
    check(&[7, 1, 3], "2,1,0", &[1]);
    // Reduced dimensions on both sides of the kept one: rows of runs.
    check(&[4, 5, 40], "2,1,0", &[0, 2]);
    check(&[3, 7, 256], "2,1,0", &[0, 2]);
    // Multi-row reductions: rows of a power of two within a warp.
    check(&[300, 8], "1,0", &[1]);
    check(&[5000, 4], "1,0", &[1]);
    check(&[3, 100, 16], "2,1,0", &[0, 2]);
}

#[test]
fn column_reductions_read_each_element_once_in_the_writers_column() {
    check(&[70, 12], "1,0", &[0]);
    check(&[3, 70, 45], "2,1,0", &[1]);
    check(&[20, 70], "0,1", &[1]);
    check(&[65, 33], "1,0", &[0]);
    check(&[2, 8, 9, 5, 6], "4,3,2,1,0", &[1, 2]);
    // Vectors of two columns.
    check(&[70, 130], "1,0", &[0]);
    check(&[3, 33, 64], "2,1,0", &[1]);
    // Small column reductions: the kept size divides a warp.
    check(&[100, 256, 2], "2,1,0", &[1]);
    check(&[300, 8], "1,0", &[0]);
    check(&[3, 130, 16], "2,1,0", &[1]);
    check(&[2, 33, 32], "2,1,0", &[1]);
}

#[test]
fn kinds_follow_the_layout() {
    // XLA's row reduction: a warp per row (about 16 elements per thread), 2-wide vectors for
    // f32 inputs, the 4 rows in one block.
    let row = plan(&module("4,256", "1,0", "1", "4"));
    assert_eq!(
        row.kind,
        ReductionKind::Row {
            rows: 4,
            row_length: 256,
            group: 32,
            rows_per_block: 4,
            vector: 2
        }
    );
    assert_eq!(row.launch.threads, [128, 1, 1]);
    assert!(row.shared.is_empty(), "{:?}", row.shared);
    // Rows of a length 2 does not divide, or too short for every lane to get a vector, are
    // read one element per step.
    for short in ["4,251", "4,36"] {
        let p = plan(&module(short, "1,0", "1", "4"));
        assert!(
            matches!(p.kind, ReductionKind::Row { vector: 1, .. }),
            "{short}: {:?}",
            p.kind
        );
    }
    // A long row: 256 threads (8 warps meeting in an 1 x 8 shared tile).
    let long = plan(&module("4,4096", "1,0", "1", "4"));
    assert_eq!(long.launch.threads, [256, 1, 1]);
    assert_eq!(long.shared[0].dims, vec![1, 8]);
    // XLA's multi-row reduction: rows of 8 within a warp.
    let multi = plan(&module("4096,8", "1,0", "1", "4096"));
    assert_eq!(multi.kind.name(), "multi-row reduction");
    // XLA's small column reduction: the kept size 4 divides a warp.
    let small = plan(&module("4,256", "0,1", "1", "4"));
    assert_eq!(
        small.kind,
        ReductionKind::SmallColumn {
            batch: 1,
            reduced: 256,
            kept: 4,
            vector: 1,
            threads: 128,
            shared_rows: 32
        }
    );
    assert_eq!(small.launch.threads, [128, 1, 1]);
    assert_eq!(small.shared[0].dims, vec![32, 5]);
    // XLA's column reduction: 32 x 32 threads, 2 columns per thread, a 32 x 65 tile.
    let column = plan(&module("256,64", "1,0", "0", "64"));
    assert_eq!(
        column.kind,
        ReductionKind::Column {
            batch: 1,
            reduced: 256,
            kept: 64,
            vector: 2
        }
    );
    assert_eq!(column.launch.threads, [1024, 1, 1]);
    assert_eq!(column.shared[0].dims, vec![32, 65]);
}

#[test]
fn reductions_xla_estimates_faster_in_a_loop_stay_with_the_loop_emitter() {
    // Rows: a minor reduced run under a warp that does not divide it (XLA's
    // `IsUnnestedReductionFasterThanElemental`), also with reduced dimensions on both sides.
    for (input, dims, output, run) in [
        ("40,7", "1", "40", 7),
        ("3,4,5", "0,2", "4", 5),
        ("3,4,5,6", "2,3", "3,4", 30),
    ] {
        let layout = (0..input.split(',').count()).rev().map(|d| d.to_string());
        let layout = layout.collect::<Vec<_>>().join(",");
        let why = fallback(&module(input, &layout, dims, output));
        assert!(
            why.starts_with(&format!(
                "the minor run of {run} reduced elements is shorter than a warp of 32 and does not divide it"
            )) && why.contains("IsUnnestedReductionFasterThanElemental"),
            "{input}: {why}"
        );
    }
    // Columns: too few reduced elements for the kept ones, by XLA's swept rule.
    for (input, layout, dims, output, clause) in [
        (
            "40,12",
            "1,0",
            "0",
            "12",
            "40 reduced elements, fewer than 64 and 12 kept, fewer than 32",
        ),
        (
            "100,64,2",
            "2,1,0",
            "1",
            "100,2",
            "64 reduced elements, fewer than 128 and 2 kept, fewer than 8",
        ),
        (
            "20,36",
            "0,1",
            "1",
            "20",
            "36 reduced elements, fewer than 64 and 20 kept, fewer than 32",
        ),
        (
            "2,3,4,5",
            "3,2,1,0",
            "1,2",
            "2,5",
            "12 reduced elements, fewer than 32,",
        ),
    ] {
        let why = fallback(&module(input, layout, dims, output));
        assert!(why.contains(clause), "{input}: {why}");
    }
    // Rows of a power of two within a warp and long enough columns stay reductions.
    plan(&module("4,3,2", "2,1,0", "0,2", "3"));
    plan(&module("256,2", "1,0", "0", "2"));
}

#[test]
fn kept_runs_on_both_sides_of_a_reduced_one_and_more_stay_with_the_loop_emitter() {
    let text = module("3,4,5,6", "3,2,1,0", "1,3", "3,5");
    let m = parse_module(&text).unwrap();
    let plans = plan_module(&m, &Device::h100()).unwrap();
    match &plans[0].emitter {
        EmitterPlan::Loop {
            fallback: Some(why),
        } => assert!(why.to_string().contains("not one run"), "{why}"),
        other => panic!("{other:?}"),
    }
}

/// A fusion of `body` (instructions over parameter `p: f32[dims]{layout}`, root last) with the
/// `add` and `max` reducers.
fn fusion(dims: &str, layout: &str, out: &str, body: &str) -> String {
    format!(
        "HloModule m\n\nadd (a: f32[], b: f32[]) -> f32[] {{\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT s = f32[] add(a, b)\n}}\n\n\
         max (a: f32[], b: f32[]) -> f32[] {{\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT m = f32[] maximum(a, b)\n}}\n\n\
         fused (p: f32[{dims}]) -> {out} {{\n  p = f32[{dims}]{{{layout}}} parameter(0)\n{body}\n}}\n\n\
         ENTRY e (x: f32[{dims}]) -> {out} {{\n  x = f32[{dims}]{{{layout}}} parameter(0)\n  ROOT f = {out} fusion(x), kind=kCustom, calls=fused\n}}\n"
    )
}

const SOFTMAX: &str = "  ninf = f32[] constant(-inf)
  m = f32[4]{0} reduce(p, ninf), dimensions={1}, to_apply=max
  mb = f32[4,64]{1,0} broadcast(m), dimensions={0}
  d = f32[4,64]{1,0} subtract(p, mb)
  e = f32[4,64]{1,0} exponential(d)
  z = f32[] constant(0)
  s = f32[4]{0} reduce(e, z), dimensions={1}, to_apply=add
  sb = f32[4,64]{1,0} broadcast(s), dimensions={0}
  ROOT q = f32[4,64]{1,0} divide(e, sb)";

#[test]
fn a_softmax_is_one_kernel_of_two_passes_and_a_normalized_output() {
    let r = plan(&fusion("4,64", "1,0", "f32[4,64]", SOFTMAX));
    assert_eq!(r.level, vec![1, 2]);
    assert!(
        matches!(r.outputs[..], [OutputSource::Normalized(_)]),
        "{:?}",
        r.outputs
    );
}

/// Why the loop emitter writes the fusion of `text`.
fn fallback(text: &str) -> String {
    let m = parse_module(text).unwrap();
    let plans = plan_module(&m, &Device::h100()).unwrap();
    match &plans[0].emitter {
        EmitterPlan::Loop {
            fallback: Some(why),
        } => why.to_string(),
        other => panic!("{other:?}"),
    }
}

#[test]
fn reductions_read_otherwise_than_by_a_row_broadcast_stay_with_the_loop_emitter() {
    // The row maximum broadcast to another shape and transposed back: read through a
    // transpose, not as a row's value.
    let across = SOFTMAX.replace(
        "mb = f32[4,64]{1,0} broadcast(m), dimensions={0}",
        "r = f32[64,4]{1,0} broadcast(m), dimensions={1}\n  rt = f32[4,64]{1,0} transpose(r), dimensions={1,0}",
    );
    let across = across.replace(
        "d = f32[4,64]{1,0} subtract(p, mb)",
        "d = f32[4,64]{1,0} subtract(p, rt)",
    );
    let why = fallback(&fusion("4,64", "1,0", "f32[4,64]", &across));
    assert!(why.contains("read through"), "{why}");
    // A column softmax: the column maximum is known to one warp of the tile only.
    let columns = SOFTMAX
        .replace("f32[4]{0}", "f32[64]{0}")
        .replace("dimensions={1}, to_apply", "dimensions={0}, to_apply")
        .replace(
            "broadcast(m), dimensions={0}",
            "broadcast(m), dimensions={1}",
        )
        .replace(
            "broadcast(s), dimensions={0}",
            "broadcast(s), dimensions={1}",
        );
    let why = fallback(&fusion("4,64", "1,0", "f32[4,64]", &columns));
    assert!(why.contains("column"), "{why}");
}

#[test]
fn an_empty_input_stays_with_the_loop_emitter() {
    let why = fallback(&module("4,0", "1,0", "1", "4"));
    assert!(why.contains("no elements"), "{why}");
}

#[test]
fn outputs_that_share_no_instruction_are_reduction_groups_in_rows_of_blocks() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../passes/tests/data/codegen/reduction_groups.hlo"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let m = parse_module(&text).unwrap();
    let plans = plan_module(&m, &Device::h100()).unwrap();
    let groups: Vec<(String, Vec<usize>, Vec<usize>, u64)> = plans
        .iter()
        .map(|p| match &p.emitter {
            EmitterPlan::Reduction(r) => (
                p.kernel.name.clone(),
                r.output_groups.clone(),
                r.hero_groups.clone(),
                r.launch.blocks[1],
            ),
            other => panic!("{}: {other:?}", p.kernel.name),
        })
        .collect();
    assert_eq!(
        groups,
        vec![
            // An unrelated side output is a group of its own.
            ("column_and_copy_fusion".into(), vec![0, 1], vec![0], 2),
            // Two reductions of one parameter are one group.
            ("sum_and_max_fusion".into(), vec![0, 0], vec![0, 0], 1),
            // The results of two variadic reductions, a nested tuple root.
            ("pair_sums_fusion".into(), vec![0, 0, 1, 1], vec![0, 1], 2),
            // Sums of two parameters share only their initial value, a constant.
            ("two_sums_fusion".into(), vec![0, 1], vec![0, 1], 2),
        ]
    );
}

#[test]
fn side_outputs_through_a_bitcast_are_stored_at_the_bitcast_of_the_read_element() {
    let body = "  n = f32[8,64]{1,0} negate(p)
  z = f32[] constant(0)
  r = f32[8]{0} reduce(n, z), dimensions={1}, to_apply=add
  v = f32[8,8,8]{2,1,0} bitcast(n)
  ROOT t = (f32[8]{0}, f32[8,8,8]{2,1,0}) tuple(r, v)";
    let text = fusion("8,64", "1,0", "(f32[8], f32[8,8,8])", body);
    let m = parse_module(&text).unwrap();
    let plans = plan_module(&m, &Device::h100()).unwrap();
    let EmitterPlan::Reduction(r) = &plans[0].emitter else {
        panic!("{:?}", plans[0].emitter);
    };
    assert!(
        matches!(
            r.outputs[..],
            [OutputSource::Epilogue(_), OutputSource::Side(_)]
        ),
        "{:?}",
        r.outputs
    );
    assert!(r.side_bitcasts[0].is_none() && r.side_bitcasts[1].is_some());
    let write = &plans[0].outputs[1].write_maps[0];
    let points = r.read_map.domain_points(1 << 20).unwrap();
    assert_eq!(points.len(), 512);
    for (ids, syms) in points {
        let e = r.read_map.evaluate(&ids, &syms).unwrap();
        let at = write.evaluate(&ids, &syms).unwrap();
        assert_eq!(at, vec![e[0], e[1] / 8, e[1] % 8], "{ids:?} {syms:?}");
    }
    // A side output of other elements is no bitcast of the input.
    let sliced = body
        .replace(
            "v = f32[8,8,8]{2,1,0} bitcast(n)",
            "v = f32[8,32]{1,0} slice(n), slice={[0:8], [0:32]}",
        )
        .replace("f32[8,8,8]{2,1,0}) tuple", "f32[8,32]{1,0}) tuple");
    let why = fallback(&fusion("8,64", "1,0", "(f32[8], f32[8,32])", &sliced));
    assert_eq!(
        why,
        "output v does not depend on a reduction and is neither of the reduced input's shape nor \
         a bitcast of it"
    );
}
