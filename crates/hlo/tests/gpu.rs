//! GPU maths checked by brute force: coalescing counts against the addresses a warp touches
//! (enumerated from the output's layout order, the fusion's maps and the operand's physical
//! layout), and propagated tiles against the elements each output tile reads. The fusion maps
//! themselves are checked against reference semantics in `brute.rs`.

use std::collections::BTreeSet;

use xla_indexing_core::IndexingMap;
use xla_indexing_hlo::gpu::{
    Device, EmitterPlan, KernelPlan, analyze_access, output_tile, plan::OperandPlan, plan_module,
    propagate,
};
use xla_indexing_hlo::{HloError, parse_module};

fn plans(path: &str) -> Vec<KernelPlan> {
    let text = std::fs::read_to_string(format!("{}/../../{path}", env!("CARGO_MANIFEST_DIR")))
        .unwrap_or_else(|e| panic!("{path}: {e}"));
    let module = parse_module(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    plan_module(&module, &Device::h100()).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn bits(element: &str) -> i128 {
    xla_indexing_hlo::gpu::element_bits(element).unwrap() as i128
}

/// Every point `(range vars)` of a box, lexicographically.
fn box_points(bounds: &[(i64, i64)]) -> Vec<Vec<i64>> {
    let mut out = vec![Vec::new()];
    for &(lo, hi) in bounds {
        out = out
            .into_iter()
            .flat_map(|p| {
                (lo..=hi).map(move |v| {
                    let mut q = p.clone();
                    q.push(v);
                    q
                })
            })
            .collect();
    }
    out
}

/// The transactions and ideal of the first warp, step by step, from first principles: for the
/// loop emitter from the output's layout order, for the others from the emitter's read map.
fn brute_coalescing(
    plan: &KernelPlan,
    op: &OperandPlan,
    map: &IndexingMap,
    operand: &xla_indexing_hlo::shape::ArrayShape,
) -> (u64, u64) {
    if !matches!(plan.emitter, EmitterPlan::Loop { .. }) {
        return brute_read_map(&op.read_map, map, operand);
    }
    let out = &plan.kernel.outputs[0];
    let out_layout = out.layout_or_default();
    let n: i64 = out.dims.iter().product();
    let unroll = plan.unroll as i64;
    let total_threads = plan.launch.total_threads().unwrap() as i64;
    let lanes = plan.launch.threads[0].min(32) as i64;
    let chunks = (n + total_threads * unroll - 1) / (total_threads * unroll);
    let strides = operand.layout_or_default().strides(&operand.dims).unwrap();
    let rt: Vec<i64> = map
        .rt_vars()
        .iter()
        .map(|v| v.bounds.lo + (v.bounds.hi - v.bounds.lo) / 2)
        .collect();
    let range: Vec<(i64, i64)> = map
        .range_vars()
        .iter()
        .map(|v| (v.bounds.lo, v.bounds.hi))
        .collect();
    let (mut transactions, mut ideal) = (0u64, 0u64);
    for chunk in 0..chunks {
        for s in box_points(&range) {
            let mut addresses = BTreeSet::new();
            for lane in 0..lanes {
                for u in 0..unroll {
                    let l = lane * unroll + chunk * unroll * total_threads + u;
                    if l >= n {
                        continue;
                    }
                    let idx = out_layout.multi_index(&out.dims, l).unwrap().unwrap();
                    let syms: Vec<i64> = s.iter().chain(&rt).copied().collect();
                    if !map.contains(&idx, &syms) {
                        continue;
                    }
                    let op = map.evaluate(&idx, &syms).unwrap();
                    addresses.insert(op.iter().zip(&strides).map(|(i, s)| i * s).sum::<i64>());
                }
            }
            let segments: BTreeSet<i128> = addresses
                .iter()
                .map(|&a| (a as i128 * bits(&operand.element)).div_euclid(1024))
                .collect();
            transactions += segments.len() as u64;
            ideal += ((addresses.len() as i128 * bits(&operand.element) + 1023) / 1024) as u64;
        }
    }
    (transactions, ideal)
}

/// The transactions and ideal of the first warp reading through `read_map` (thread ids and
/// the loop's `[chunk_id, unroll_id]`) then `map`: a step per point of the chunk and of `map`'s
/// own range variables, the unrolled elements read in the same step.
fn brute_read_map(
    read_map: &IndexingMap,
    map: &IndexingMap,
    operand: &xla_indexing_hlo::shape::ArrayShape,
) -> (u64, u64) {
    let strides = operand.layout_or_default().strides(&operand.dims).unwrap();
    let lanes = (read_map.dims()[0].bounds.hi + 1).min(32);
    let bounds = |vars: &[xla_indexing_core::Var]| -> Vec<(i64, i64)> {
        vars.iter().map(|v| (v.bounds.lo, v.bounds.hi)).collect()
    };
    let rt: Vec<i64> = map
        .rt_vars()
        .iter()
        .map(|v| v.bounds.lo + (v.bounds.hi - v.bounds.lo) / 2)
        .collect();
    let loop_vars = bounds(read_map.range_vars());
    let (mut transactions, mut ideal) = (0u64, 0u64);
    for chunk in loop_vars[0].0..=loop_vars[0].1 {
        for s in box_points(&bounds(map.range_vars())) {
            let mut addresses = BTreeSet::new();
            for lane in 0..lanes {
                for u in loop_vars[1].0..=loop_vars[1].1 {
                    let ids = [lane, 0, 0, 0, 0, 0];
                    if !read_map.contains(&ids, &[chunk, u]) {
                        continue;
                    }
                    let idx = read_map.evaluate(&ids, &[chunk, u]).unwrap();
                    let syms: Vec<i64> = s.iter().chain(&rt).copied().collect();
                    if !map.contains(&idx, &syms) {
                        continue;
                    }
                    let at = map.evaluate(&idx, &syms).unwrap();
                    addresses.insert(at.iter().zip(&strides).map(|(i, s)| i * s).sum::<i64>());
                }
            }
            let segments: BTreeSet<i128> = addresses
                .iter()
                .map(|&a| (a as i128 * bits(&operand.element)).div_euclid(1024))
                .collect();
            transactions += segments.len() as u64;
            ideal += ((addresses.len() as i128 * bits(&operand.element) + 1023) / 1024) as u64;
        }
    }
    (transactions, ideal)
}

/// Every access of every kernel of the file: the analysis equals the enumeration.
fn check_coalescing(path: &str) -> Vec<(String, usize, bool, u64, u64)> {
    let mut verdicts = Vec::new();
    for plan in plans(path) {
        for op in &plan.outputs[0].operands {
            for a in &op.output_maps {
                let c = analyze_access(&op.read_map, &a.map, &op.shape, &Device::h100()).unwrap();
                assert_eq!(c.counted_steps, c.steps, "{path}: budget");
                let want = brute_coalescing(&plan, op, &a.map, &op.shape);
                assert_eq!(
                    (c.transactions, c.ideal),
                    want,
                    "{path} {} operand {}: {}",
                    plan.kernel.name,
                    op.parameter,
                    c.offset_map
                );
                assert_eq!(c.reason.is_some(), !c.coalesced);
                verdicts.push((
                    plan.kernel.name.clone(),
                    op.parameter,
                    c.coalesced,
                    c.transactions,
                    c.ideal,
                ));
            }
        }
    }
    verdicts
}

#[test]
fn coalescing_matches_xla_on_the_layout_example_and_the_enumeration() {
    let v = check_coalescing("examples/hlo/layouts_add.hlo");
    assert_eq!(
        v,
        vec![
            ("add_fusion".into(), 0, true, 1, 1),
            ("add_fusion".into(), 1, false, 32, 1)
        ]
    );
}

#[test]
fn coalescing_of_reductions_unrolled_and_strided_reads_matches_the_enumeration() {
    let sums = check_coalescing("examples/hlo/row_column_sums.hlo");
    assert_eq!(
        sums,
        vec![
            // The reduction emitter: a row's group reads adjacent 4-vectors, a column tile's
            // warp adjacent columns.
            ("row_sum".into(), 0, true, 4, 4),
            ("column_sum".into(), 0, true, 10, 10)
        ]
    );
    let other = check_coalescing("examples/hlo/unrolled_f16.hlo");
    assert_eq!(
        other,
        vec![
            ("scale".into(), 0, true, 2, 2),
            ("scale".into(), 1, true, 2, 2),
            ("strided".into(), 0, false, 2, 1),
        ]
    );
    check_coalescing("examples/hlo/transpose_exp_add.hlo");
    check_coalescing("examples/hlo/softmax.hlo");
    check_coalescing("examples/hlo/reshape_tiles.hlo");
}

#[test]
fn reasons_name_the_dimension_and_the_ratio() {
    let plan = &plans("examples/hlo/layouts_add.hlo")[0];
    let op = &plan.outputs[0].operands[1];
    let c = analyze_access(
        &plan.thread_map,
        &op.output_maps[0].map,
        &op.shape,
        &Device::h100(),
    )
    .unwrap();
    let reason = c.reason.unwrap();
    assert!(
        reason.contains("dimension 1") && reason.contains("{0,1}") && reason.contains("32.0x"),
        "{reason}"
    );
    assert_eq!(c.moving.len(), 1);
    assert_eq!(
        (
            c.moving[0].dimension,
            c.moving[0].per_lane,
            c.moving[0].layout_stride
        ),
        (1, Some(1), 100)
    );
}

/// Every tile of every operand of every kernel: the elements read are inside the propagated
/// tile, and equal to it where the tile says it is exact.
fn check_tiles(path: &str, sizes: &[i64]) -> (usize, usize, usize) {
    let (mut exact, mut over, mut inexpressible) = (0, 0, 0);
    for plan in plans(path) {
        let out = &plan.kernel.outputs[0];
        let Ok(tile) = output_tile(&out.dims, sizes) else {
            continue;
        };
        for op in &plan.outputs[0].operands {
            for a in &op.output_maps {
                if !a.runtime.is_empty() {
                    continue;
                }
                let Ok(t) = propagate(&tile, &a.map) else {
                    inexpressible += 1;
                    continue;
                };
                if t.exact {
                    exact += 1
                } else {
                    over += 1
                }
                let ranges: Vec<(i64, i64)> = tile.counts.iter().map(|&c| (0, c - 1)).collect();
                let range: Vec<(i64, i64)> = a
                    .map
                    .range_vars()
                    .iter()
                    .map(|v| (v.bounds.lo, v.bounds.hi))
                    .collect();
                for tid in box_points(&ranges) {
                    let mut read = BTreeSet::new();
                    for idx in tile.elements(&tid) {
                        for s in box_points(&range) {
                            if a.map.contains(&idx, &s) {
                                read.insert(a.map.evaluate(&idx, &s).unwrap());
                            }
                        }
                    }
                    let covered: BTreeSet<Vec<i64>> =
                        t.elements(&tid, &[]).unwrap().into_iter().collect();
                    assert!(
                        read.is_subset(&covered),
                        "{path} {sizes:?} operand {} tile {tid:?}: {} {:?} {:?}",
                        op.parameter,
                        t.offsets,
                        t.sizes,
                        t.strides
                    );
                    let holds = t
                        .exact_when
                        .iter()
                        .all(|(e, iv)| iv.contains(e.eval(&tid, &[]).unwrap()));
                    if t.exact && holds {
                        assert_eq!(
                            read, covered,
                            "{path} {sizes:?} operand {} tile {tid:?}",
                            op.parameter
                        );
                    }
                }
            }
        }
    }
    (exact, over, inexpressible)
}

#[test]
fn propagated_tiles_cover_exactly_what_each_output_tile_reads() {
    assert_eq!(
        check_tiles("examples/hlo/reshape_tiles.hlo", &[12, 4]),
        (2, 0, 0)
    );
    assert_eq!(
        check_tiles("examples/hlo/reshape_tiles.hlo", &[4, 2]),
        (1, 0, 1)
    );
    assert_eq!(
        check_tiles("examples/hlo/reshape_tiles.hlo", &[48, 3]),
        (2, 0, 0)
    );
    assert_eq!(
        check_tiles("examples/hlo/transpose_exp_add.hlo", &[4, 8]),
        (1, 1, 0)
    );
    for sizes in [[3, 7], [20, 10], [1, 1], [6, 5]] {
        check_tiles("examples/hlo/transpose_exp_add.hlo", &sizes);
        check_tiles("examples/hlo/softmax.hlo", &sizes);
        check_tiles(
            "examples/hlo/layouts_add.hlo",
            &[sizes[0] * 7, sizes[1] * 9],
        );
    }
    for sizes in [[5], [64], [7]] {
        check_tiles("examples/hlo/row_column_sums.hlo", &sizes);
        check_tiles("examples/hlo/softmax.hlo", &sizes);
    }
    check_tiles("examples/hlo/unrolled_f16.hlo", &[100, 128]);
}

#[test]
fn launch_limits_are_errors_naming_the_fusion() {
    let text = "HloModule big\n\n%f (p: f32[1048576,1048576,65536]) -> f32[1048576,1048576,65536] {\n  %p = f32[1048576,1048576,65536]{2,1,0} parameter(0)\n  ROOT %n = f32[1048576,1048576,65536]{2,1,0} negate(%p)\n}\n\nENTRY %main (a: f32[1048576,1048576,65536]) -> f32[1048576,1048576,65536] {\n  %a = f32[1048576,1048576,65536]{2,1,0} parameter(0)\n  ROOT %huge_fusion = f32[1048576,1048576,65536]{2,1,0} fusion(%a), kind=kLoop, calls=%f\n}\n";
    let module = parse_module(text).unwrap();
    let err = plan_module(&module, &Device::h100()).unwrap_err();
    assert!(matches!(err, HloError::Analysis { .. }), "{err}");
    assert!(
        err.message().contains("huge_fusion") && err.message().contains("65535"),
        "{err}"
    );
}
