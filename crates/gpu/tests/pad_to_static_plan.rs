//! The pad-to-static emitter's plans: a fusion whose root is a `PadToStatic` custom call of a
//! dynamic parameter runs the loop emitter's thread map over the static output, reading each
//! element within the sizes from its dense place; other such fusions stay with the loop emitter
//! and say why. (The kernels' values are checked by `codegen_exec`.)

mod common;

use common::{fusion_module, plans, why};
use xla_indexing_gpu::EmitterPlan;
use xla_indexing_gpu::pad_to_static::PadToStaticPlan;

/// A fusion of `PadToStatic` of one parameter of shape `input`, its result `root_shape`.
fn module(input: &str, root_shape: &str) -> String {
    fusion_module(
        "kCustom",
        &[input],
        &format!("  ROOT r = {root_shape} custom-call(p0), custom_call_target=\"PadToStatic\""),
        root_shape,
    )
}

fn pad_to_static(e: &EmitterPlan) -> &PadToStaticPlan {
    match e {
        EmitterPlan::PadToStatic(p) => p,
        other => panic!("not the pad-to-static emitter: {other:?}"),
    }
}

/// Row-major position of `index` in `dims`.
fn linear(dims: &[i64], index: &[i64]) -> i64 {
    index.iter().zip(dims).fold(0, |acc, (&i, &d)| acc * d + i)
}

/// Every index of `dims`, row-major.
fn points(dims: &[i64]) -> Vec<Vec<i64>> {
    dims.iter().fold(vec![Vec::new()], |acc, &d| {
        acc.iter()
            .flat_map(|p| {
                (0..d).map(move |i| {
                    let mut q = p.clone();
                    q.push(i);
                    q
                })
            })
            .collect()
    })
}

#[test]
fn the_read_map_is_the_dense_place_of_each_element_at_every_size() {
    for (input, bounds, root) in [
        ("s32[2,<=5]", vec![2, 5], "(s32[2,5], s32[], s32[])"),
        (
            "f32[<=3,4,<=5]",
            vec![3, 4, 5],
            "(f32[3,4,5], s32[], s32[], s32[])",
        ),
        ("pred[<=7]", vec![7], "(pred[7], s32[])"),
    ] {
        let plans = plans(&module(input, root));
        let p = pad_to_static(&plans[0]);
        assert_eq!(p.input.dims, bounds);
        // Brute force: at every sizes (each from 0 to its bound) and output index, the map
        // holds the point exactly where the index is within the sizes, and there sends it to
        // the element whose place in the bounds is the index's place in the sizes.
        let every_size: Vec<i64> = bounds.iter().map(|b| b + 1).collect();
        for sizes in points(&every_size) {
            for index in points(&bounds) {
                let within = index.iter().zip(&sizes).all(|(i, s)| i < s);
                assert_eq!(
                    p.read_map.contains(&index, &sizes),
                    within,
                    "{input} at {index:?}, sizes {sizes:?}"
                );
                if within {
                    let read = p.read_map.evaluate(&index, &sizes).unwrap();
                    assert_eq!(
                        linear(&bounds, &read),
                        linear(&sizes, &index),
                        "{input} at {index:?}, sizes {sizes:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn the_xla_example_runs_the_loop_grid_and_the_first_thread_stores_the_sizes() {
    let m =
        xla_indexing_hlo::parse_module(&module("s32[2,<=5]", "(s32[2,5], s32[], s32[])")).unwrap();
    let plans = xla_indexing_gpu::plan_module(&m, &xla_indexing_gpu::Device::h100()).unwrap();
    let plan = &plans[0];
    assert_eq!(plan.emitter.name(), "pad to static");
    assert_eq!(plan.launch.total_threads(), Some(10));
    // Output 0 is written through the thread map; the sizes by the first thread only.
    assert_eq!(
        plan.outputs[0].write_maps,
        std::slice::from_ref(&plan.thread_map)
    );
    for size in &plan.outputs[1..] {
        let [write] = &size.write_maps[..] else {
            panic!("one store per size")
        };
        let writers: Vec<_> = write
            .domain_points(1 << 12)
            .unwrap()
            .into_iter()
            .map(|(ids, _)| ids)
            .collect();
        assert_eq!(writers, [vec![0; 6]]);
        assert!(size.operands.is_empty());
    }
    assert_eq!(plan.outputs[0].operands[0].shape.to_string(), "s32[2,<=5]");
}

#[test]
fn other_pad_to_static_fusions_stay_with_the_loop_emitter_and_say_why() {
    for (input, root, reason) in [
        ("s32[2,5]", "(s32[2,5], s32[], s32[])", "is not dynamic"),
        (
            "s32[2,<=5]{0,1}",
            "(s32[2,5], s32[], s32[])",
            "is not in the default layout",
        ),
        ("s4[<=6]", "(s4[6], s32[])", "are not whole bytes"),
        (
            "s32[2,<=5]",
            "(s32[2,5], s32[])",
            "is not (s32[2,5], and an s32[] per dimension)",
        ),
    ] {
        let why = why(&module(input, root));
        assert!(why.contains(reason), "{input} -> {root}: {why}");
    }
}
