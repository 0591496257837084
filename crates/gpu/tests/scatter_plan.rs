//! The scatter emitter's plans: one thread per update element (checked by enumeration), the
//! combiner XLA's emitter would use, variadic scatters (one landing for every output), and the
//! scatters it leaves to the loop emitter, saying why.

use std::collections::HashSet;

mod common;

use common::{plans, why};
use xla_indexing_gpu::{
    EmitterPlan,
    scatter::{Combiner, ScatterPlan},
};

const MODULE: &str = "crates/passes/tests/data/codegen/scatter.hlo";
const VARIADIC: &str = "crates/passes/tests/data/codegen/scatter_variadic.hlo";

fn read(path: &str) -> String {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    std::fs::read_to_string(root.join(path)).unwrap()
}

fn scatter(e: &EmitterPlan) -> &ScatterPlan {
    match e {
        EmitterPlan::Scatter(s) => s,
        other => panic!("not the scatter emitter: {other:?}"),
    }
}

#[test]
fn every_update_element_has_one_thread_and_the_combiner_xla_uses() {
    let plans = plans(&read(MODULE));
    let combiners: Vec<Combiner> = plans.iter().map(|p| scatter(p).combiner).collect();
    assert_eq!(
        combiners,
        [
            // The f32 maximum and f64 minimum (compare-and-swap loops on the floats' bits).
            Combiner::CompareAndSwap,
            Combiner::CompareAndSwap,
            Combiner::AtomicAdd,
            Combiner::Store,
            Combiner::CompareAndSwap,
            Combiner::Unique,
            Combiner::AtomicAdd,
            Combiner::CompareAndSwap,
        ]
    );
    for p in &plans {
        let s = scatter(p);
        assert_eq!(s.operand_parameters, [0]);
        assert_eq!(s.reads, [[0]]);
        let mut seen = HashSet::new();
        for (ids, syms) in s.thread_map.domain_points(1 << 20).unwrap() {
            let update = s.thread_map.evaluate(&ids, &syms).unwrap();
            assert!(seen.insert(update.clone()), "{update:?} twice");
            // Each index-vector component is read at the update's scatter position.
            for rt in &s.write.runtime {
                assert!(rt.map.evaluate(&ids, &syms).is_some());
            }
        }
        let threads = s.launch.total_threads().unwrap() as usize;
        assert!(
            !seen.is_empty() && seen.len() <= threads,
            "{} of {threads}",
            seen.len()
        );
    }
}

#[test]
fn scatters_the_emitter_does_not_write_stay_with_the_loop_emitter_saying_why() {
    let module = |root: &str, params: &str, combiner: &str| {
        format!(
            "HloModule m\ncomb {{\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT r = f32[] {combiner}\n}}\n\
             fused {{\n{params}  ROOT s = {root}\n}}\nENTRY e {{\n  x = f32[8] parameter(0)\n  i = s32[3,1] parameter(1)\n  u = f32[3] parameter(2)\n  \
             ROOT f = f32[8] fusion(x, i, u), kind=kInput, calls=fused\n}}\n"
        )
    };
    let params =
        "  x = f32[8] parameter(0)\n  i = s32[3,1] parameter(1)\n  u = f32[3] parameter(2)\n";
    let scatter = "f32[8] scatter(x, i, u), update_window_dims={}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=comb";
    // Complex elements have no compare-and-swap loop here; 8-, 16-, 32- and 64-bit floats have
    // one.
    let complex = module(scatter, params, "add(a, b)").replace("f32", "c64");
    assert!(why(&complex).contains("compare-and-swap loop"), "c64 add");
    for float in ["f8e4m3fn", "f8e5m2", "f16", "bf16", "f32", "f64"] {
        let text = module(scatter, params, "maximum(a, b)").replace("f32", float);
        assert_eq!(
            scatter_of(&text).combiner,
            Combiner::CompareAndSwap,
            "{float}"
        );
    }
    let computed = params.replace(
        "x = f32[8] parameter(0)",
        "p = f32[8] parameter(0)\n  x = f32[8] negate(p)",
    );
    assert!(
        why(&module(scatter, &computed, "add(a, b)")).contains("computed in the fusion"),
        "computed operand"
    );
    assert_eq!(
        scatter_of(&module(scatter, params, "add(a, b)")).combiner,
        Combiner::AtomicAdd
    );
}

/// Why the scatter emitter refused the only fusion of `text` (the loop emitter writes it).
fn scatter_of(text: &str) -> ScatterPlan {
    scatter(&plans(text)[0]).clone()
}

#[test]
fn variadic_scatters_land_every_update_at_one_index_of_every_output() {
    let plans = plans(&read(VARIADIC));
    let summary: Vec<_> = plans
        .iter()
        .map(|p| {
            let s = scatter(p);
            (s.combiner, s.operand_parameters.clone(), s.reads.clone())
        })
        .collect();
    assert_eq!(
        summary,
        [
            // The argmax: the score reads the new score only, the id reads both updates.
            (Combiner::Unique, vec![0, 1], vec![vec![0], vec![0, 1]]),
            (Combiner::Unique, vec![0, 1], vec![vec![0], vec![1]]),
            (
                Combiner::Store,
                vec![0, 1, 2],
                vec![vec![0], vec![1], vec![2]]
            ),
            (Combiner::Store, vec![0, 1], vec![vec![0], vec![1]]),
        ]
    );
    for p in &plans {
        let s = scatter(p);
        assert_eq!(s.updates.len(), s.operand_parameters.len());
    }
}

#[test]
fn variadic_scatters_with_repeated_indices_and_a_combiner_stay_with_the_loop_emitter() {
    let module = |attrs: &str, combined: &str, operand: &str| {
        format!(
            "HloModule m\ncomb {{\n  a = f32[] parameter(0)\n  b = s32[] parameter(1)\n  c = f32[] parameter(2)\n  d = s32[] parameter(3)\n  \
             {combined}\n}}\nfused {{\n  x = f32[8] parameter(0)\n  {operand}\n  i = s32[3,1] parameter(2)\n  u = f32[3] parameter(3)\n  v = s32[3] parameter(4)\n  \
             ROOT s = (f32[8], s32[8]) scatter(x, y, i, u, v), update_window_dims={{}}, inserted_window_dims={{0}}, scatter_dims_to_operand_dims={{0}}, index_vector_dim=1{attrs}, to_apply=comb\n}}\n\
             ENTRY e {{\n  x = f32[8] parameter(0)\n  y = s32[8] parameter(1)\n  i = s32[3,1] parameter(2)\n  u = f32[3] parameter(3)\n  v = s32[3] parameter(4)\n  \
             ROOT f = (f32[8], s32[8]) fusion(x, y, i, u, v), kind=kInput, calls=fused\n}}\n"
        )
    };
    let add = "x = f32[] add(a, c)\n  y = s32[] add(b, d)\n  ROOT r = (f32[], s32[]) tuple(x, y)";
    let store = "ROOT r = (f32[], s32[]) tuple(c, d)";
    let swapped = "ROOT r = (f32[], s32[]) tuple(c, b)";
    let param = "y = s32[8] parameter(1)";
    let repeated = why(&module("", add, param));
    assert!(
        repeated.starts_with("s combines") && repeated.contains("combined together atomically"),
        "{repeated}"
    );
    // Keeping an operand's element is no store of the updates.
    assert!(why(&module("", swapped, param)).contains("combined together atomically"));
    assert_eq!(
        scatter_of(&module(", unique_indices=true", add, param)).combiner,
        Combiner::Unique
    );
    // The updates stored, whichever of colliding ones lands.
    assert_eq!(
        scatter_of(&module("", store, param)).combiner,
        Combiner::Store
    );
    let computed = "p = s32[8] parameter(1)\n  y = s32[8] negate(p)";
    assert!(
        why(&module(", unique_indices=true", add, computed)).contains("computed in the fusion"),
        "computed operand"
    );
}

/// XLA's choice between its scatters over distributed updates and over distributed indices (a
/// warp per slice), on an H100 (a wave of 4 × 132 = 528 warps): by enumeration, the warps'
/// threads take every update element once, a warp's lanes one slice.
#[test]
fn many_long_slices_take_a_warp_each() {
    use xla_indexing_gpu::scatter_distribution::Distribution;
    let distribution = |slices: usize, slice: usize| {
        let text = format!(
            "HloModule m\nadd {{\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT s = f32[] add(a, b)\n}}\n\
             fused {{\n  x = f32[50,{slice}] parameter(0)\n  i = s32[{slices},1] parameter(1)\n  u = f32[{slices},{slice}] parameter(2)\n  \
             ROOT s = f32[50,{slice}] scatter(x, i, u), update_window_dims={{1}}, inserted_window_dims={{0}}, scatter_dims_to_operand_dims={{0}}, index_vector_dim=1, to_apply=add\n}}\n\
             ENTRY e {{\n  x = f32[50,{slice}] parameter(0)\n  i = s32[{slices},1] parameter(1)\n  u = f32[{slices},{slice}] parameter(2)\n  \
             ROOT f = f32[50,{slice}] fusion(x, i, u), kind=kInput, calls=fused\n}}\n"
        );
        let plans = plans(&text);
        let s = scatter(&plans[0]).clone();
        (s.distribution.clone(), s)
    };
    // As XLA's sorted_indices test: 2008 slices of 32 f32 (a 2-wide vector would leave half
    // the warp idle, so one element per lane).
    let (d, s) = distribution(2008, 32);
    assert_eq!(d, Distribution::Indices { vector: 1 });
    assert_eq!((s.launch.threads[0], s.launch.blocks[0]), (128, 502));
    // Slices of 64 f32: two per lane.
    let (d, s) = distribution(600, 64);
    assert_eq!(d, Distribution::Indices { vector: 2 });
    let mut seen = HashSet::new();
    for (ids, syms) in s.thread_map.domain_points(1 << 22).unwrap() {
        let update = s.thread_map.evaluate(&ids, &syms).unwrap();
        assert_eq!(update[0], ids[3] * 4 + ids[0] / 32, "the warp's slice");
        assert!(seen.insert(update.clone()), "{update:?} twice");
    }
    assert_eq!(seen.len(), 600 * 64);
    // Fewer slices than a wave, or slices too short to keep half a warp busy: the updates.
    assert!(matches!(
        distribution(500, 64).0,
        Distribution::Updates { .. }
    ));
    assert!(matches!(
        distribution(2008, 16).0,
        Distribution::Updates { .. }
    ));
}

/// With `indices_are_sorted`, XLA's accumulating variant where more than two waves of warps'
/// slices share few starts: XLA's own `sorted_indices` test (2008 slices of 32 f32 over 69
/// starts) takes 30 slices per warp, padded to 32 so that the warp reads its `s32` indices four
/// (128 bits) at a time, in 16 blocks; by enumeration, every update element is some thread's at
/// some step of its slice loop, once. `s64` indices are read two at a time (30 is whole
/// pairs).
#[test]
fn sorted_indices_take_runs_of_slices_per_warp() {
    use xla_indexing_gpu::scatter_distribution::Distribution;
    let text = "HloModule m\nadd {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT s = f32[] add(a, b)\n}\n\
        fused {\n  x = f32[100] parameter(0)\n  i = s32[2008,1] parameter(1)\n  u = f32[2008,32] parameter(2)\n  \
        ROOT s = f32[100] scatter(x, i, u), update_window_dims={1}, inserted_window_dims={}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, indices_are_sorted=true, to_apply=add\n}\n\
        ENTRY e {\n  x = f32[100] parameter(0)\n  i = s32[2008,1] parameter(1)\n  u = f32[2008,32] parameter(2)\n  \
        ROOT f = f32[100] fusion(x, i, u), kind=kInput, calls=fused\n}\n";
    let sorted_plans = plans(text);
    let s = scatter(&sorted_plans[0]);
    let Distribution::Sorted(sorted) = &s.distribution else {
        panic!("{:?}", s.distribution);
    };
    assert_eq!(
        (
            sorted.indices_per_warp,
            sorted.warps_per_slice,
            sorted.vector,
            sorted.indices_vector
        ),
        (32, 1, 1, 4)
    );
    assert_eq!((s.launch.threads[0], s.launch.blocks[0]), (128, 16));
    let mut seen = HashSet::new();
    for (ids, syms) in s.thread_map.domain_points(1 << 22).unwrap() {
        let update = s.thread_map.evaluate(&ids, &syms).unwrap();
        assert!(seen.insert(update.clone()), "{update:?} twice");
    }
    assert_eq!(seen.len(), 2008 * 32);
    let wide_plans = plans(&text.replace("s32[2008,1]", "s64[2008,1]"));
    let Distribution::Sorted(wide) = &scatter(&wide_plans[0]).distribution else {
        panic!("not sorted");
    };
    assert_eq!((wide.indices_per_warp, wide.indices_vector), (30, 2));
    // Without the flag, a warp per slice.
    let unsorted = text.replace(", indices_are_sorted=true", "");
    let unsorted_plans = plans(&unsorted);
    assert!(matches!(
        scatter(&unsorted_plans[0]).distribution,
        Distribution::Indices { vector: 1 }
    ));
}
