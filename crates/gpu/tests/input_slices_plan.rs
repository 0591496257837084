//! The input-slices emitter's plans: fusions whose outputs are all slices with unit strides of
//! operands of one shape run a thread per element of that shape, as XLA's emitter; other
//! slices stay with the loop emitter. (The kernels' values are checked by `codegen_exec`.)

mod common;

use common::{fusion_module, plans};
use xla_indexing_gpu::EmitterPlan;
use xla_indexing_gpu::input_slices::InputSlicesPlan;

fn module(params: &[&str], body: &str, root_shape: &str) -> String {
    fusion_module("kInput", params, body, root_shape)
}

fn input_slices(e: &EmitterPlan) -> &InputSlicesPlan {
    match e {
        EmitterPlan::InputSlices(p) => p,
        other => panic!("not the input-slices emitter: {other:?}"),
    }
}

#[test]
fn slices_of_one_shape_run_a_thread_per_element_and_store_their_windows() {
    let text = module(
        &["f32[12,10]"],
        "  e = f32[12,10] exponential(p0)\n  a = f32[4,10] slice(e), slice={[0:4], [0:10]}\n  b = f32[6,3] slice(e), slice={[5:11], [2:5]}\n  ROOT t = (f32[4,10], f32[6,3]) tuple(a, b)",
        "(f32[4,10], f32[6,3])",
    );
    let plans = plans(&text);
    let p = input_slices(&plans[0]);
    assert_eq!(p.launch.total_threads(), Some(120));
    // Only the cut dimensions are checked.
    assert_eq!(p.slices[0].checks, [(0, (0, 3))]);
    assert_eq!(p.slices[1].checks, [(0, (5, 10)), (1, (2, 4))]);
    // Brute force over every thread: a slice's write map holds exactly the threads whose
    // element lies in its window, gives the element less the start, and hits every output
    // element once.
    let threads = p.thread_map.domain_points(1 << 20).unwrap();
    for (slice, (rows, cols)) in p.slices.iter().zip([(4, 10), (6, 3)]) {
        let mut written = Vec::new();
        for (dims, syms) in &threads {
            let element = p.thread_map.evaluate(dims, syms).unwrap();
            let inside = element
                .iter()
                .zip(&slice.window)
                .all(|(&x, &(start, limit))| start <= x && x < limit);
            assert_eq!(slice.write_map.contains(dims, syms), inside, "{element:?}");
            if inside {
                let out = slice.write_map.evaluate(dims, syms).unwrap();
                let starts = slice.window.iter().map(|w| w.0);
                let expected: Vec<i64> = element.iter().zip(starts).map(|(x, s)| x - s).collect();
                assert_eq!(out, expected);
                written.push(out);
            }
        }
        written.sort();
        let all: Vec<Vec<i64>> = (0..rows)
            .flat_map(|r| (0..cols).map(move |c| vec![r, c]))
            .collect();
        assert_eq!(written, all);
    }
}

#[test]
fn packed_slices_give_a_thread_both_halves_of_a_byte() {
    let text = module(
        &["s4[9,7]"],
        "  a = s4[5,7] slice(p0), slice={[0:5], [0:7]}\n  b = s4[4,3] slice(p0), slice={[5:9], [2:5]}\n  ROOT t = (s4[5,7], s4[4,3]) tuple(a, b)",
        "(s4[5,7], s4[4,3])",
    );
    let plans = plans(&text);
    let p = input_slices(&plans[0]);
    assert_eq!(p.thread_map.range_vars()[1].bounds.count(), 2);
}

#[test]
fn strided_single_or_mismatched_slices_stay_with_the_loop_emitter() {
    let loop_emitter = |text: &str| matches!(plans(text)[0], EmitterPlan::Loop { .. });
    // A stride.
    assert!(loop_emitter(&module(
        &["f32[12]"],
        "  a = f32[6] slice(p0), slice={[0:12:2]}\n  b = f32[4] slice(p0), slice={[0:4]}\n  ROOT t = (f32[6], f32[4]) tuple(a, b)",
        "(f32[6], f32[4])",
    )));
    // One output.
    assert!(loop_emitter(&module(
        &["f32[12]"],
        "  ROOT a = f32[6] slice(p0), slice={[0:6]}",
        "f32[6]",
    )));
    // Operands of different shapes.
    assert!(loop_emitter(&module(
        &["f32[12]", "f32[10]"],
        "  a = f32[6] slice(p0), slice={[0:6]}\n  b = f32[6] slice(p1), slice={[0:6]}\n  ROOT t = (f32[6], f32[6]) tuple(a, b)",
        "(f32[6], f32[6])",
    )));
    // A root that is no slice.
    assert!(loop_emitter(&module(
        &["f32[12]"],
        "  a = f32[6] slice(p0), slice={[0:6]}\n  b = f32[6] slice(p0), slice={[6:12]}\n  n = f32[6] negate(b)\n  ROOT t = (f32[6], f32[6]) tuple(a, n)",
        "(f32[6], f32[6])",
    )));
}
