//! The reduction emitter's plans checked by enumeration: every element of the reduced input is
//! read exactly once, by a thread of the group (row reduction) or of the column (column tile)
//! whose first thread writes the output element it reduces into, and every output element is
//! written exactly once.

use std::collections::HashMap;

use xla_indexing_hlo::gpu::{
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

/// The threads that combine their partial results: a row's group, or a column of a tile.
fn reader_key(kind: &ReductionKind, ids: &[i64]) -> (i64, i64) {
    match kind {
        ReductionKind::Row { group, .. } => (ids[3], ids[0] / *group as i64),
        ReductionKind::Column { .. } => (ids[3], ids[0]),
    }
}

/// The group whose result a writing thread holds.
fn writer_key(kind: &ReductionKind, ids: &[i64]) -> (i64, i64) {
    match kind {
        ReductionKind::Row { group, .. } => (ids[3], ids[0] / *group as i64),
        ReductionKind::Column { .. } => (ids[3], ids[1]),
    }
}

/// Checks the plan of reducing `input` along `reduced` (see the module comment).
fn check(input: &[i64], layout: &str, reduced: &[usize]) {
    let dims = input
        .iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(",");
    let kept: Vec<i64> = (0..input.len())
        .filter(|d| !reduced.contains(d))
        .map(|d| input[d])
        .collect();
    let out = kept
        .iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(",");
    let red = reduced
        .iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join(",");
    let r = plan(&module(&dims, layout, &red, &out));
    let mut writer: HashMap<Vec<i64>, (i64, i64)> = HashMap::new();
    for (ids, syms) in r.write_map.domain_points(1 << 22).unwrap() {
        let o = r.write_map.evaluate(&ids, &syms).unwrap();
        let before = writer.insert(o.clone(), writer_key(&r.kind, &ids));
        assert!(before.is_none(), "{input:?}: output {o:?} written twice");
    }
    assert_eq!(
        writer.len() as i64,
        kept.iter().product::<i64>(),
        "{input:?}: outputs written"
    );
    let mut read: HashMap<Vec<i64>, u32> = HashMap::new();
    for (ids, syms) in r.read_map.domain_points(1 << 22).unwrap() {
        let e = r.read_map.evaluate(&ids, &syms).unwrap();
        assert!(
            e.iter().zip(input).all(|(&i, &n)| (0..n).contains(&i)),
            "{input:?}: {e:?} out of bounds"
        );
        let o: Vec<i64> = (0..input.len())
            .filter(|d| !reduced.contains(d))
            .map(|d| e[d])
            .collect();
        assert_eq!(
            writer.get(&o),
            Some(&reader_key(&r.kind, &ids)),
            "{input:?}: {e:?} read by {ids:?} is not combined by the writer of {o:?}"
        );
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
}

#[test]
fn row_reductions_read_each_element_once_in_the_writers_group() {
    check(&[6, 300], "1,0", &[1]);
    check(&[40, 7], "1,0", &[1]);
    check(&[5, 33], "1,0", &[1]);
    check(&[3, 4, 5, 6], "3,2,1,0", &[2, 3]);
    check(&[9, 11], "1,0", &[0, 1]);
    check(&[2, 1030], "1,0", &[1]);
    check(&[3, 4096], "1,0", &[1]);
    check(&[5, 250], "1,0", &[1]);
    check(&[7, 1, 3], "2,1,0", &[1]);
    // Reduced dimensions on both sides of the kept one: rows of runs.
    check(&[4, 5, 6], "2,1,0", &[0, 2]);
    check(&[3, 7, 256], "2,1,0", &[0, 2]);
}

#[test]
fn column_reductions_read_each_element_once_in_the_writers_column() {
    check(&[40, 12], "1,0", &[0]);
    check(&[3, 70, 45], "2,1,0", &[1]);
    check(&[20, 36], "0,1", &[1]);
    check(&[65, 33], "1,0", &[0]);
    check(&[2, 3, 4, 5, 6], "4,3,2,1,0", &[1, 2]);
}

#[test]
fn kinds_follow_the_layout() {
    let row = plan(&module("4,256", "1,0", "1", "4"));
    assert_eq!(
        row.kind,
        ReductionKind::Row {
            rows: 4,
            row_length: 256,
            group: 64,
            vector: 4
        }
    );
    assert_eq!(row.launch.threads, [256, 1, 1]);
    // Rows too short for a warp of 4-vectors, or of a length 4 does not divide, are read one
    // element per step.
    let odd = plan(&module("4,250", "1,0", "1", "4"));
    assert!(
        matches!(odd.kind, ReductionKind::Row { vector: 2, .. }),
        "{:?}",
        odd.kind
    );
    let short = plan(&module("4,36", "1,0", "1", "4"));
    assert!(
        matches!(short.kind, ReductionKind::Row { vector: 1, .. }),
        "{:?}",
        short.kind
    );
    let column = plan(&module("4,256", "0,1", "1", "4"));
    assert_eq!(
        column.kind,
        ReductionKind::Column {
            batch: 1,
            reduced: 256,
            kept: 4
        }
    );
    assert_eq!(column.launch.threads, [32, 32, 1]);
}

#[test]
fn kept_runs_on_both_sides_of_a_reduced_one_and_more_stay_with_the_loop_emitter() {
    let text = module("3,4,5,6", "3,2,1,0", "1,3", "3,5");
    let m = parse_module(&text).unwrap();
    let plans = plan_module(&m, &Device::h100()).unwrap();
    match &plans[0].emitter {
        EmitterPlan::Loop {
            fallback: Some(why),
        } => assert!(why.contains("not one run"), "{why}"),
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
        } => why.clone(),
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
