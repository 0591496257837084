//! Brute-force checks: every per-op map and every fusion's maps against the reference
//! dependences of `common/reference.rs`, on small index-tagged inputs. The relation a set of
//! maps describes (each domain point: output index to operand index) must equal the reference
//! relation exactly, and out2in maps must not reach outside the operand (except the update of
//! `dynamic-update-slice`, which the seed's map reads through the runtime offset unguarded).

mod common;

use xla_indexing_hlo::Opcode;

use common::reference::{Index, ScatterSpec, all_indices, computation_tags, deps};
use common::{Relation, compare, instruction_report, maps_of, module_text, parse, relation};
use xla_indexing_core::IndexingMap;
use xla_indexing_hlo::access::Access;
use xla_indexing_hlo::fusion::MapSet;
use xla_indexing_hlo::{Direction, Module, Options, analyze_module};
use xla_indexing_testkit::rng::SplitMix64;

const OUT2IN: Direction = Direction::OutputToInput;
const IN2OUT: Direction = Direction::InputToOutput;

fn maps(set: &MapSet) -> Vec<IndexingMap> {
    assert!(set.undefined.is_none(), "{:?}", set.undefined);
    set.accesses.iter().map(|a| a.map.clone()).collect()
}

/// The report with every runtime variable kept (what the reference relations describe), after
/// checking that folding the known ones only narrows it: each folded map set reaches a subset
/// of the pairs the kept one reaches. (`known.rs` checks the folded values themselves.)
fn analyze(m: &Module, options: Options) -> xla_indexing_hlo::Report {
    let run = |options: &Options| analyze_module(m, options).unwrap_or_else(|e| panic!("{e}"));
    let kept = run(&Options {
        keep_known_runtime_vars: true,
        ..options.clone()
    });
    let folded = run(&options);
    for (kc, fc) in kept.computations.iter().zip(&folded.computations) {
        for (ko, fo) in kc.outputs.iter().zip(&fc.outputs) {
            for (kt, ft) in ko.operands.iter().zip(&fo.operands) {
                if kt.maps.undefined.is_some() || ft.maps.undefined.is_some() {
                    continue;
                }
                let target = if options.physical {
                    kt.shape.layout_or_default().physical_dims(&kt.shape.dims)
                } else {
                    kt.shape.dims.clone()
                };
                let all = relation(&maps(&kt.maps), &target, true).unwrap();
                let narrowed = relation(&maps(&ft.maps), &target, true).unwrap();
                assert!(
                    narrowed.is_subset(&all),
                    "{}: folding added pairs {:?}",
                    kc.name,
                    narrowed.difference(&all).take(3).collect::<Vec<_>>()
                );
            }
        }
    }
    kept
}

/// Checks instruction `name` of the entry computation in both directions.
fn check_instruction(m: &Module, name: &str) {
    let c = &m.computations[m.entry];
    let i = c.instructions.iter().find(|x| x.name == name).unwrap();
    let opts = |direction| Options {
        instruction: Some(name.into()),
        computation: Some(c.name.clone()),
        direction,
        ..Options::default()
    };
    let out2in = analyze(m, opts(Direction::OutputToInput));
    let in2out = analyze(m, opts(Direction::InputToOutput));
    for (k, shape) in i.shape.leaves().iter().enumerate() {
        let output = out2in.computations[0]
            .outputs
            .iter()
            .find(|o| o.output == k)
            .unwrap();
        for (j, &op) in i.operands.iter().enumerate() {
            for (l, op_shape) in c.instructions[op].shape.leaves().iter().enumerate() {
                let mut want = Relation::new();
                for out in all_indices(&shape.dims) {
                    for (dj, dl, idx) in deps(m, c, i, k, &out) {
                        if (dj, dl) == (j, l) {
                            want.insert((out.clone(), idx));
                        }
                    }
                }
                let report = output
                    .operands
                    .iter()
                    .find(|o| o.operand == j && o.leaf.unwrap_or(0) == l);
                let got = match report {
                    Some(r) => {
                        let loose = i.opcode == Opcode::DynamicUpdateSlice && j == 1;
                        relation(&maps(&r.maps), &op_shape.dims, loose)
                            .unwrap_or_else(|e| panic!("{name} out2in operand {j}: {e}"))
                    }
                    None => Relation::new(),
                };
                compare(&got, &want)
                    .unwrap_or_else(|e| panic!("{name} out2in output {k} operand {j}.{l}: {e}"));
                // Input to output: the inverse relation, where defined.
                let back = in2out.computations[0]
                    .outputs
                    .iter()
                    .find(|o| o.output == j && o.leaf.unwrap_or(0) == l)
                    .and_then(|o| o.operands.iter().find(|r| r.operand == k));
                match back {
                    Some(r) if r.maps.undefined.is_none() => {
                        let got = relation(&maps(&r.maps), &shape.dims, false)
                            .unwrap_or_else(|e| panic!("{name} in2out operand {j}: {e}"));
                        let inverse: Relation =
                            want.iter().map(|(o, i)| (i.clone(), o.clone())).collect();
                        compare(&got, &inverse).unwrap_or_else(|e| {
                            panic!("{name} in2out operand {j} output {k}: {e}")
                        });
                    }
                    Some(_) => {}
                    None => assert!(want.is_empty(), "{name}: no in2out entry for operand {j}"),
                }
            }
        }
    }
}

/// Checks a snippet whose last instruction is the op under test.
fn check_op(snippet: &str) {
    let m = parse(&module_text(snippet));
    let c = &m.computations[m.entry];
    let name = c.instructions[c.root].name.clone();
    check_instruction(&m, &name);
}

/// Checks every computation's maps (both directions) against tag propagation.
fn check_computation(m: &Module, name: &str) {
    let ci = m.computation(name).unwrap();
    let comp = &m.computations[ci];
    let tags = computation_tags(m, ci);
    let opts = |direction| Options {
        computation: Some(name.into()),
        direction,
        ..Options::default()
    };
    let out2in = analyze(m, opts(Direction::OutputToInput));
    let in2out = analyze(m, opts(Direction::InputToOutput));
    let root = &comp.instructions[comp.root];
    for (k, _) in root.shape.leaves().iter().enumerate() {
        for target in &out2in.computations[0].outputs[k].operands {
            let p = target.operand;
            let l = target.leaf.unwrap_or(0);
            let want: Relation = tags[&k]
                .iter()
                .flat_map(|(out, ts)| {
                    ts.iter()
                        .filter(|(tp, tl, _)| (*tp, *tl) == (p, l))
                        .map(move |(_, _, idx)| (out.clone(), idx.clone()))
                })
                .collect();
            let got = relation(&maps(&target.maps), &target.shape.dims, true)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            compare(&got, &want)
                .unwrap_or_else(|e| panic!("{name} out2in output {k} parameter {p}: {e}"));
            let back = in2out.computations[0]
                .outputs
                .iter()
                .find(|o| o.output == p && o.leaf.unwrap_or(0) == l)
                .and_then(|o| o.operands.iter().find(|r| r.operand == k))
                .unwrap();
            if back.maps.undefined.is_none() {
                let got = relation(&maps(&back.maps), &root.shape.leaves()[k].dims, false).unwrap();
                let inverse: Relation = want.iter().map(|(o, i)| (i.clone(), o.clone())).collect();
                compare(&got, &inverse)
                    .unwrap_or_else(|e| panic!("{name} in2out parameter {p} output {k}: {e}"));
            }
        }
    }
}

#[test]
fn elementwise_ops() {
    check_op("p0 = f32[3,4] parameter(0)\np1 = f32[3,4] parameter(1)\na = f32[3,4] add(p0, p1)");
    check_op(
        "p = pred[] parameter(0)\nx = f32[3,4] parameter(1)\ny = f32[3,4] parameter(2)\ns = f32[3,4] select(p, x, y)",
    );
    check_op(
        "lo = f32[] parameter(0)\nx = f32[5] parameter(1)\nhi = f32[] parameter(2)\nc = f32[5] clamp(lo, x, hi)",
    );
    check_op(
        "x = f32[2,3] parameter(0)\ny = f32[2,3] parameter(1)\nc = pred[2,3] compare(x, y), direction=LT",
    );
    check_op("x = f32[2,3] parameter(0)\nc = s32[2,3] convert(x)");
    // HLO spells these `cosine` and `count-leading-zeros` (once read as unknown ops).
    check_op("x = f32[2,3] parameter(0)\nc = f32[2,3] cosine(x)");
    check_op("x = s32[2,3] parameter(0)\nc = s32[2,3] count-leading-zeros(x)");
    check_op("x = s32[2,3] parameter(0)\ny = s32[2,3] parameter(1)\nc = s32[2,3] mulhi(x, y)");
    check_op("x = f32[2,3]{0,1} parameter(0)\nc = f32[2,3]{1,0} copy(x)");
    check_op(
        "x = f32[2,3] parameter(0)\ny = f32[2,3] parameter(1)\nm = f32[2,3] map(x, y), dimensions={0,1}, to_apply=add",
    );
    check_op("x = f32[3] parameter(0)\nb = u8[3,4] bitcast-convert(x)");
    check_op("x = u8[3,4] parameter(0)\nb = f32[3] bitcast-convert(x)");
}

#[test]
fn broadcast_transpose_reverse() {
    check_op("p = f32[3] parameter(0)\nb = f32[2,3,4] broadcast(p), dimensions={1}");
    check_op("p = f32[3,2] parameter(0)\nb = f32[2,4,3] broadcast(p), dimensions={2,0}");
    check_op("p = f32[] parameter(0)\nb = f32[2,3] broadcast(p), dimensions={}");
    check_op("p = f32[2,3,4] parameter(0)\nt = f32[4,2,3] transpose(p), dimensions={2,0,1}");
    check_op("p = f32[2,3,4] parameter(0)\nr = f32[2,3,4] reverse(p), dimensions={0,2}");
}

#[test]
fn reshapes_and_bitcasts() {
    for (from, to) in [
        ("4,6", "24"),
        ("24", "2,3,4"),
        ("4,6", "3,8"),
        ("2,6,2", "4,3,2"),
        ("1,4,1,6", "6,1,4"),
        ("3,1", "1,3"),
        ("2,0,3", "0,5"),
    ] {
        check_op(&format!(
            "p = f32[{from}] parameter(0)\nr = f32[{to}] reshape(p)"
        ));
        check_op(&format!(
            "p = f32[{from}] parameter(0)\nr = f32[{to}] bitcast(p)"
        ));
    }
    // Layouts make a bitcast a transpose plus a reshape.
    check_op("p = f32[4,6]{0,1} parameter(0)\nr = f32[24]{0} bitcast(p)");
    check_op("p = f32[4,6]{0,1} parameter(0)\nr = f32[6,4]{1,0} bitcast(p)");
    check_op("p = f32[2,3,4]{0,2,1} parameter(0)\nr = f32[4,6]{0,1} bitcast(p)");
}

#[test]
fn slices_and_pads() {
    check_op("p = f32[10,7] parameter(0)\ns = f32[3,2] slice(p), slice={[2:9:3], [1:7:4]}");
    check_op(
        "p = f32[4,4] parameter(0)\nv = f32[] parameter(1)\nq = f32[12,16] pad(p, v), padding=1_4_1x4_8_0",
    );
    check_op(
        "p = f32[5,6] parameter(0)\nv = f32[] parameter(1)\nq = f32[8,5] pad(p, v), padding=-2_1_1x-1_0",
    );
    check_op(
        "p = f32[5] parameter(0)\nv = f32[] parameter(1)\nq = f32[5] pad(p, v), padding=-1_-3_1",
    );
    check_op(
        "p0 = f32[2,2] parameter(0)\np1 = f32[2,3] parameter(1)\np2 = f32[2,1] parameter(2)\nc = f32[2,6] concatenate(p0, p1, p2), dimensions={1}",
    );
}

#[test]
fn random_slices_pads_and_windows() {
    let mut rng = SplitMix64::new(7);
    for _ in 0..40 {
        let n = rng.range(1, 7);
        let (start, stride) = (rng.range(0, n - 1), rng.range(1, 3));
        let limit = rng.range(start, n);
        let size = (limit - start + stride - 1) / stride;
        check_op(&format!(
            "p = f32[{n}] parameter(0)\ns = f32[{size}] slice(p), slice={{[{start}:{limit}:{stride}]}}"
        ));
        let (lo, hi, int) = (rng.range(-3, 3), rng.range(-3, 3), rng.range(0, 2));
        let out = lo + hi + n + (n - 1) * int;
        if out >= 0 {
            check_op(&format!(
                "p = f32[{n}] parameter(0)\nv = f32[] parameter(1)\nq = f32[{out}] pad(p, v), padding={lo}_{hi}_{int}"
            ));
        }
        let (size_w, stride_w, bd, wd) = (
            rng.range(1, 3),
            rng.range(1, 3),
            rng.range(1, 3),
            rng.range(1, 2),
        );
        let (plo, phi) = (rng.range(-1, 2), rng.range(-1, 2));
        let padded = (n - 1) * bd + 1 + plo + phi;
        let extent = (size_w - 1) * wd + 1;
        if padded >= extent {
            let out = (padded - extent) / stride_w + 1;
            check_op(&format!(
                "p = f32[{n},2] parameter(0)\nv = f32[] constant(0)\nr = f32[{out},2] reduce-window(p, v), window={{size={size_w}x1 stride={stride_w}x1 pad={plo}_{phi}x0_0 lhs_dilate={bd}x1 rhs_dilate={wd}x1}}, to_apply=add"
            ));
        }
    }
}

#[test]
fn dynamic_ops_and_gathers() {
    check_op(
        "p = f32[5,4] parameter(0)\na = s32[] parameter(1)\nb = s32[] parameter(2)\nd = f32[2,3] dynamic-slice(p, a, b), dynamic_slice_sizes={2,3}",
    );
    check_op(
        "p = f32[5,4] parameter(0)\nu = f32[2,3] parameter(1)\na = s32[] parameter(2)\nb = s32[] parameter(3)\nd = f32[5,4] dynamic-update-slice(p, u, a, b)",
    );
    check_op(
        "o = f32[6,5,4] parameter(0)\ni = s32[3,2] parameter(1)\ng = f32[3,2,3,4] gather(o, i), offset_dims={1,2,3}, collapsed_slice_dims={}, start_index_map={0,1}, index_vector_dim=1, slice_sizes={2,3,4}",
    );
    // Embedding lookup: collapsed dimension, implicit index vector.
    check_op(
        "o = f32[7,3] parameter(0)\ni = s32[4] parameter(1)\ng = f32[4,3] gather(o, i), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,3}",
    );
    // Start index map in another order, batch dimension after the offset one.
    check_op(
        "o = f32[5,6] parameter(0)\ni = s32[2,3] parameter(1)\ng = f32[3,2] gather(o, i), offset_dims={1}, collapsed_slice_dims={1}, start_index_map={1,0}, index_vector_dim=0, slice_sizes={2,1}",
    );
}

#[test]
fn reductions_dots_and_convolutions() {
    check_op(
        "p = f32[3,4,2] parameter(0)\nz = f32[] constant(0)\nr = f32[4] reduce(p, z), dimensions={0,2}, to_apply=add",
    );
    check_op(
        "p = f32[3,4] parameter(0)\nq = s32[3,4] parameter(1)\nz = f32[] constant(0)\nzi = s32[] constant(0)\nr = (f32[3], s32[3]) reduce(p, q, z, zi), dimensions={1}, to_apply=argmax",
    );
    check_op(
        "p = f32[5,4] parameter(0)\nz = f32[] constant(0)\nr = f32[3,1] reduce-window(p, z), window={size=2x2 stride=2x2 pad=1_0x0_0 rhs_dilate=1x2}, to_apply=add",
    );
    check_op(
        "a = f32[2,3,4] parameter(0)\nb = f32[2,4,5] parameter(1)\nd = f32[2,3,5] dot(a, b), lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_contracting_dims={1}",
    );
    check_op(
        "a = f32[3,2,4] parameter(0)\nb = f32[4,5,2] parameter(1)\nd = f32[3,5] dot(a, b), lhs_contracting_dims={2,1}, rhs_contracting_dims={0,2}",
    );
    check_op(
        "x = f32[1,5,5,2] parameter(0)\nk = f32[3,3,2,4] parameter(1)\nc = f32[1,3,3,4] convolution(x, k), window={size=3x3 stride=2x2 pad=1_1x1_1}, dim_labels=b01f_01io->b01f",
    );
    check_op(
        "x = f32[2,4,5] parameter(0)\nk = f32[6,2,2] parameter(1)\nc = f32[2,6,9] convolution(x, k), window={size=2 pad=1_1 lhs_dilate=2 rhs_dilate=2}, dim_labels=bf0_oi0->bf0, feature_group_count=2",
    );
    check_op(
        "x = f32[1,3,4] parameter(0)\nk = f32[2,4,3] parameter(1)\nc = f32[1,3,2] convolution(x, k), window={size=2 rhs_reversal=1}, dim_labels=b0f_0io->bf0",
    );
    // Scaled dots: blocks of 4 along the contracting dimension, of 2x3 and whole rows, one
    // scale for a whole operand; batch dimensions.
    check_op(
        "a = f32[4,8] parameter(0)\nb = f32[8,6] parameter(1)\nsa = f32[4,2] parameter(2)\nsb = f32[2,6] parameter(3)\nd = f32[4,6] scaled-dot(a, b, sa, sb), lhs_contracting_dims={1}, rhs_contracting_dims={0}",
    );
    check_op(
        "a = f32[4,6] parameter(0)\nb = f32[3,6] parameter(1)\nsa = f32[2,2] parameter(2)\nsb = f32[1,1] parameter(3)\nd = f32[4,3] scaled-dot(a, b, sa, sb), lhs_contracting_dims={1}, rhs_contracting_dims={1}",
    );
    check_op(
        "a = f32[2,3,4] parameter(0)\nb = f32[2,4,5] parameter(1)\nsa = f32[2,3,2] parameter(2)\nsb = f32[1,2,5] parameter(3)\nd = f32[2,3,5] scaled-dot(a, b, sa, sb), lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_contracting_dims={1}",
    );
    // Batch groups: result features 2g and 2g + 1 convolve lhs batch entries 2g and 2g + 1.
    check_op(
        "x = f32[6,2,5] parameter(0)\nk = f32[6,2,2] parameter(1)\nc = f32[2,6,4] convolution(x, k), window={size=2}, dim_labels=bf0_oi0->bf0, batch_group_count=3",
    );
    // One batch entry per group (a depthwise filter gradient), dimensions in other orders.
    check_op(
        "x = f32[3,4,2] parameter(0)\nk = f32[2,2,8] parameter(1)\nc = f32[2,1,8] convolution(x, k), window={size=2 pad=0_1 stride=2}, dim_labels=0bf_0io->0bf, batch_group_count=4",
    );
}

#[test]
fn sorts_and_top_k() {
    check_op("p = f32[5] parameter(0)\ns = f32[5] sort(p), dimensions={0}, to_apply=less");
    check_op("p = f32[3,4] parameter(0)\ns = f32[3,4] sort(p), dimensions={0}, to_apply=less");
    // Argsort: the comparator reads the keys only, so the keys' output does not read the iota.
    let variadic = |cmp: &str| {
        format!(
            "k = f32[2,4] parameter(0)\ni = s32[2,4] iota(), iota_dimension=1\ns = (f32[2,4], s32[2,4]) sort(k, i), dimensions={{1}}, to_apply={cmp}"
        )
    };
    for cmp in ["less_by_key", "less_by_second", "lexicographic"] {
        check_op(&variadic(cmp));
    }
    check_op("x = f32[3,6] parameter(0)\nt = (f32[3,2], s32[3,2]) topk(x), k=2, largest=true");
    check_op("x = f32[5] parameter(0)\nt = (f32[5], s32[5]) topk(x), k=5, largest=false");
    check_op(
        "x = f32[2,7] parameter(0)\nt = (f32[2,3], s32[2,3]) custom-call(x), custom_call_target=\"TopK\"",
    );
}

#[test]
fn random_sorts_and_top_k() {
    let mut rng = SplitMix64::new(11);
    for _ in 0..12 {
        let (a, b) = (rng.range(1, 4), rng.range(1, 5));
        let axis = rng.range(0, 1);
        check_op(&format!(
            "k = f32[{a},{b}] parameter(0)\nv = s32[{a},{b}] parameter(1)\ns = (f32[{a},{b}], s32[{a},{b}]) sort(k, v), dimensions={{{axis}}}, to_apply=less_by_key"
        ));
        let k = rng.range(0, b);
        check_op(&format!(
            "x = f32[{a},{b}] parameter(0)\nt = (f32[{a},{k}], s32[{a},{k}]) topk(x), k={k}, largest=true"
        ));
    }
}

#[test]
fn scatters() {
    // Scatter-add of rows (jnp's x.at[i].add(u)), with an explicit and an implicit index vector.
    check_op(
        "o = f32[6,3] parameter(0)\ni = s32[4,1] parameter(1)\nu = f32[4,3] parameter(2)\ns = f32[6,3] scatter(o, i, u), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add",
    );
    check_op(
        "o = f32[6,3] parameter(0)\ni = s32[4] parameter(1)\nu = f32[4,3] parameter(2)\ns = f32[6,3] scatter(o, i, u), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=replace",
    );
    // Points of a 2-D array; the index vector's components in the other order.
    check_op(
        "o = f32[4,5] parameter(0)\ni = s32[3,2] parameter(1)\nu = f32[3] parameter(2)\ns = f32[4,5] scatter(o, i, u), update_window_dims={}, inserted_window_dims={0,1}, scatter_dims_to_operand_dims={0,1}, index_vector_dim=1, to_apply=add",
    );
    check_op(
        "o = f32[3,4] parameter(0)\ni = s32[2,2] parameter(1)\nu = f32[2] parameter(2)\ns = f32[3,4] scatter(o, i, u), update_window_dims={}, inserted_window_dims={0,1}, scatter_dims_to_operand_dims={1,0}, index_vector_dim=1, to_apply=add",
    );
    // Windows: a started dimension of size 2, and dimensions no index starts (the window sits
    // at 0 there).
    check_op(
        "o = f32[5,4] parameter(0)\ni = s32[2,1] parameter(1)\nu = f32[2,2,4] parameter(2)\ns = f32[5,4] scatter(o, i, u), update_window_dims={1,2}, inserted_window_dims={}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add",
    );
    check_op(
        "o = f32[5,4] parameter(0)\ni = s32[2,1] parameter(1)\nu = f32[2,3,2] parameter(2)\ns = f32[5,4] scatter(o, i, u), update_window_dims={1,2}, inserted_window_dims={}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add",
    );
    check_op(
        "o = f32[3,4] parameter(0)\ni = s32[2] parameter(1)\nu = f32[2] parameter(2)\ns = f32[3,4] scatter(o, i, u), update_window_dims={}, inserted_window_dims={0,1}, scatter_dims_to_operand_dims={1}, index_vector_dim=1, to_apply=add",
    );
    // The index vector in front, scatter dimension after the window one.
    check_op(
        "o = f32[4,3] parameter(0)\ni = s32[1,2] parameter(1)\nu = f32[3,2] parameter(2)\ns = f32[4,3] scatter(o, i, u), update_window_dims={0}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=0, to_apply=add",
    );
    // Batching dimensions: each batch writes its own slice.
    check_op(
        "o = f32[2,5,3] parameter(0)\ni = s32[2,3,1] parameter(1)\nu = f32[2,3,3] parameter(2)\ns = f32[2,5,3] scatter(o, i, u), update_window_dims={2}, inserted_window_dims={1}, input_batching_dims={0}, scatter_indices_batching_dims={0}, scatter_dims_to_operand_dims={1}, index_vector_dim=2, to_apply=add",
    );
    check_op(
        "o = f32[3,2,4] parameter(0)\ni = s32[2,2,1] parameter(1)\nu = f32[2,2,2] parameter(2)\ns = f32[3,2,4] scatter(o, i, u), update_window_dims={2}, inserted_window_dims={0}, input_batching_dims={1}, scatter_indices_batching_dims={1}, scatter_dims_to_operand_dims={0}, index_vector_dim=2, to_apply=add",
    );
    // Variadic: a combiner that keeps its two results apart, and one whose index result
    // follows the values.
    for comb in ["argmax", "argmax_select"] {
        check_op(&format!(
            "v = f32[5] parameter(0)\nx = s32[5] parameter(1)\ni = s32[2,1] parameter(2)\nuv = f32[2] parameter(3)\nux = s32[2] parameter(4)\ns = (f32[5], s32[5]) scatter(v, x, i, uv, ux), update_window_dims={{}}, inserted_window_dims={{0}}, scatter_dims_to_operand_dims={{0}}, index_vector_dim=1, to_apply={comb}"
        ));
    }
}

#[test]
fn random_scatters() {
    let mut rng = SplitMix64::new(5);
    for _ in 0..25 {
        let (rows, cols) = (rng.range(1, 6), rng.range(1, 3));
        let (count, window) = (rng.range(0, 3), rng.range(1, rows));
        check_op(&format!(
            "o = f32[{rows},{cols}] parameter(0)\ni = s32[{count},1] parameter(1)\nu = f32[{count},{window},{cols}] parameter(2)\ns = f32[{rows},{cols}] scatter(o, i, u), update_window_dims={{1,2}}, inserted_window_dims={{}}, scatter_dims_to_operand_dims={{0}}, index_vector_dim=1, to_apply=add"
        ));
    }
}

/// All-gathers: every result element reads one operand element, of the participant the
/// participant map names; both directions give exactly the (element, participant, element)
/// triples of concatenating the participants' operands in group order.
#[test]
fn all_gathers_read_the_participant_that_holds_the_element() {
    for snippet in [
        "x = f32[2,3] parameter(0)\nag = f32[8,3] all-gather(x), channel_id=1, replica_groups={{0,1,2,3}}, dimensions={0}, use_global_device_ids=true",
        "x = f32[2,3] parameter(0)\nag = f32[2,6] all-gather(x), replica_groups=[4,2]<=[8], dimensions={1}",
        "x = f32[3] parameter(0)\nag = f32[3] all-gather(x), replica_groups={{0},{1}}, dimensions={0}",
        "x = f32[2] parameter(0)\ny = s32[2,2] parameter(1)\nag = (f32[6], s32[6,2]) all-gather(x, y), replica_groups={{0,1,2}}, dimensions={0}",
    ] {
        check_op(snippet);
        let m = parse(&module_text(snippet));
        let c = &m.computations[m.entry];
        let ag = &c.instructions[c.root];
        let dim = ag.ints("dimensions").unwrap()[0] as usize;
        for (leaf, shape) in ag.shape.leaves().iter().enumerate() {
            let n = c.instructions[ag.operands[leaf]].array().unwrap().dims[dim];
            // (result element, [participant, operand element...]) pairs.
            let want: Relation = all_indices(&shape.dims)
                .into_iter()
                .map(|out| {
                    let mut read = vec![out[dim] / n];
                    read.extend(
                        out.iter()
                            .enumerate()
                            .map(|(d, &i)| if d == dim { i % n } else { i }),
                    );
                    (out, read)
                })
                .collect();
            let inverse: Relation = want.iter().map(|(o, r)| (r.clone(), o.clone())).collect();
            let out2in = single_access(&analyze(&m, instruction_options("ag", OUT2IN)), leaf, leaf);
            compare(&with_participant(&out2in, true), &want)
                .unwrap_or_else(|e| panic!("{snippet}: out2in leaf {leaf}: {e}"));
            let in2out = single_access(&analyze(&m, instruction_options("ag", IN2OUT)), leaf, leaf);
            compare(&with_participant(&in2out, false), &inverse)
                .unwrap_or_else(|e| panic!("{snippet}: in2out leaf {leaf}: {e}"));
        }
    }
}

/// The pairs of an access with one participant, the participant put in front of the side
/// it holds: of the target (`on_target`, output to input) or of the domain (input to output).
fn with_participant(access: &Access, on_target: bool) -> Relation {
    assert_eq!(access.participants.len(), 1, "{access:?}");
    let (m, p) = (&access.map, &access.participants[0].map);
    let mut rel = Relation::new();
    for (d, s) in m.domain_points(1 << 20).unwrap() {
        let who = p.evaluate(&d, &s[..p.range_vars().len()]).unwrap();
        let r = m.evaluate(&d, &s).unwrap();
        rel.insert(if on_target {
            (d, [who, r].concat())
        } else {
            ([who, d].concat(), r)
        });
    }
    rel
}

/// Scans of scalars: a cumulative sum (forwards and backwards), a carry that delays the input
/// by two steps, outputs that read only their own step, carries that swap every step, two
/// carries that read the same input, a scan without steps, and two inputs.
#[test]
fn scans() {
    for (body, carries, reverse) in [
        ("cumsum", 1, false),
        ("cumsum", 1, true),
        ("delay", 2, false),
        ("delay", 2, true),
        ("apart", 1, false),
        ("swap", 2, false),
        ("twice", 2, true),
    ] {
        let inits: Vec<String> = (0..carries).map(|c| format!("i{c}")).collect();
        let params: String = inits
            .iter()
            .enumerate()
            .map(|(c, name)| format!("{name} = f32[] parameter({})\n", c + 1))
            .collect();
        let carry_shapes = vec!["f32[]"; carries].join(", ");
        check_op(&format!(
            "x = f32[6] parameter(0)\n{params}s = (f32[6], {carry_shapes}) scan(x, {}), dimensions={{0}}, num_carries={carries}, is_reverse={reverse}, to_apply={body}",
            inits.join(", ")
        ));
    }
    check_op(
        "x = f32[0] parameter(0)\ni = f32[] parameter(1)\ns = (f32[0], f32[]) scan(x, i), dimensions={0}, num_carries=1, to_apply=cumsum",
    );
    check_op(
        "x = f32[4] parameter(0)\ny = f32[4] parameter(1)\ni = f32[] parameter(2)\ns = (f32[4], f32[]) scan(x, y, i), dimensions={0}, num_carries=1, to_apply=add_pair",
    );
}

/// Carries that swap every step reach the inits at alternating steps: past 8 intervals the
/// scan says it has no maps.
#[test]
fn scans_with_long_distance_patterns_have_no_maps() {
    let report = instruction_report(
        "x = f32[20] parameter(0)\ni0 = f32[] parameter(1)\ni1 = f32[] parameter(2)\nROOT s = (f32[20], f32[], f32[]) scan(x, i0, i1), dimensions={0}, num_carries=2, to_apply=swap",
        "s",
        OUT2IN,
    );
    let set = maps_of(&report, 0, 1);
    assert!(
        set.undefined.as_deref().unwrap().contains("intervals"),
        "{set:?}"
    );
}

/// The content of an index array at an element.
type IndexValue<'a> = dyn Fn(&[i64]) -> i64 + 'a;

/// The pairs an access relates when its runtime variables hold the values of concrete indices:
/// at each point of the dimensions and range variables, each runtime variable's provenance map
/// picks an element and `value` gives its content; `clamp` clamps it into the variable's bounds
/// (gather), otherwise a value outside them reads nothing (scatter drops the window).
fn concrete(access: &Access, value: &IndexValue<'_>, clamp: bool) -> Relation {
    let m = &access.map;
    let free = IndexingMap::new(
        Vec::new(),
        m.dims().to_vec(),
        m.range_vars().to_vec(),
        Vec::new(),
    );
    let mut rel = Relation::new();
    for (d, s) in free.domain_points(1 << 20).unwrap() {
        let mut syms = s.clone();
        for (k, rt) in access.runtime.iter().enumerate() {
            let (p, q) = (rt.map.range_vars().len(), rt.map.rt_vars().len());
            let mut args = s[..p].to_vec();
            args.extend_from_slice(&syms[s.len()..s.len() + q]);
            let at = rt.map.evaluate(&d, &args).unwrap();
            let bounds = m.rt_vars()[k].bounds;
            let v = value(&at);
            syms.push(if clamp {
                v.clamp(bounds.lo, bounds.hi)
            } else {
                v
            });
        }
        if m.contains(&d, &syms) {
            let r = m.evaluate(&d, &syms).unwrap();
            rel.insert((d, r));
        }
    }
    rel
}

/// Random index contents, in and out of bounds.
fn index_values(
    dims: &[i64],
    lo: i64,
    hi: i64,
    seed: u64,
) -> std::collections::HashMap<Index, i64> {
    let mut rng = SplitMix64::new(seed);
    all_indices(dims)
        .into_iter()
        .map(|at| (at, rng.range(lo, hi)))
        .collect()
}

/// The options that analyse instruction `name` of the entry computation.
fn instruction_options(name: &str, direction: Direction) -> Options {
    Options {
        instruction: Some(name.into()),
        computation: Some("main".into()),
        direction,
        ..Options::default()
    }
}

/// The one access of an instruction report's map set from `output` to `operand`.
fn single_access(report: &xla_indexing_hlo::Report, output: usize, operand: usize) -> Access {
    let set = &report.computations[0]
        .outputs
        .iter()
        .find(|o| o.output == output)
        .unwrap()
        .operands
        .iter()
        .find(|o| o.operand == operand)
        .unwrap()
        .maps;
    assert_eq!(set.accesses.len(), 1, "{:?}", set.accesses);
    set.accesses[0].clone()
}

/// The pairs (output element, update element) of a scatter whose indices hold `value`: each
/// update element lands where its index vector puts its window, unless the window leaves the
/// operand.
fn scatter_semantics(spec: &ScatterSpec, value: &IndexValue<'_>) -> Relation {
    let mut out2in = Relation::new();
    for u in all_indices(&spec.upd) {
        let v: Vec<i64> = (0..spec.vector_len)
            .map(|k| value(&spec.indices_at(&spec.position(&u), k)))
            .collect();
        if let Some(r) = spec.land(&u, &v) {
            out2in.insert((r, u));
        }
    }
    out2in
}

/// With concrete indices, the scatter maps read the indices where the update lands, through
/// provenance maps that share the update position with the map: both directions give exactly
/// the pairs the semantics give.
#[test]
fn scatter_runtime_variables_follow_concrete_indices() {
    for (k, snippet) in [
        "o = f32[6,3] parameter(0)\ni = s32[5,1] parameter(1)\nu = f32[5,2,3] parameter(2)\ns = f32[6,3] scatter(o, i, u), update_window_dims={1,2}, inserted_window_dims={}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add",
        "o = f32[3,4] parameter(0)\ni = s32[4,2] parameter(1)\nu = f32[4] parameter(2)\ns = f32[3,4] scatter(o, i, u), update_window_dims={}, inserted_window_dims={0,1}, scatter_dims_to_operand_dims={1,0}, index_vector_dim=1, to_apply=add",
        "o = f32[2,5,3] parameter(0)\ni = s32[2,3,1] parameter(1)\nu = f32[2,3,3] parameter(2)\ns = f32[2,5,3] scatter(o, i, u), update_window_dims={2}, inserted_window_dims={1}, input_batching_dims={0}, scatter_indices_batching_dims={0}, scatter_dims_to_operand_dims={1}, index_vector_dim=2, to_apply=add",
    ]
    .into_iter()
    .enumerate()
    {
        let m = parse(&module_text(snippet));
        let c = &m.computations[m.entry];
        let s = &c.instructions[c.root];
        let spec = ScatterSpec::new(c, s);
        let indices = &c.instructions[s.operands[1]].array().unwrap().dims;
        for seed in 0..6 {
            let table = index_values(indices, -2, 6, 100 * k as u64 + seed);
            let value = |at: &[i64]| table[at];
            let out2in = scatter_semantics(&spec, &value);
            let in2out: Relation = out2in.iter().map(|(o, u)| (u.clone(), o.clone())).collect();
            let forward = single_access(&analyze(&m, instruction_options("s", OUT2IN)), 0, 2);
            compare(&concrete(&forward, &value, false), &out2in)
                .unwrap_or_else(|e| panic!("{snippet}: out2in: {e}"));
            let backward = single_access(&analyze(&m, instruction_options("s", IN2OUT)), 2, 0);
            compare(&concrete(&backward, &value, false), &in2out)
                .unwrap_or_else(|e| panic!("{snippet}: in2out: {e}"));
        }
    }
}

/// Scatter indices computed from iotas fold into the maps (a range variable's position picks
/// the iota's value), and windows that the values put partly outside the operand are dropped:
/// both directions give exactly the pairs the semantics give with those values.
#[test]
fn scatter_indices_from_iotas_fold_to_the_semantics() {
    let cases: [(&str, &IndexValue<'_>); 3] = [
        // Starts 3r - 1 = -1, 2, 5, 8 for windows of 2 rows of 8: the first and last drop.
        (
            "o = f32[8,3] parameter(0)\nio = s32[4,1] iota(), iota_dimension=0\nthree = s32[] constant(3)\nk = s32[4,1] broadcast(three), dimensions={}\nm = s32[4,1] multiply(io, k)\none = s32[] constant(1)\nob = s32[4,1] broadcast(one), dimensions={}\ni = s32[4,1] subtract(m, ob)\nu = f32[4,2,3] parameter(1)\ns = f32[8,3] scatter(o, i, u), update_window_dims={1,2}, inserted_window_dims={}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add",
            &|at| 3 * at[0] - 1,
        ),
        // The diagonal (r, r) of a 3x4 array, components swapped: r = 3 leaves it.
        (
            "o = f32[3,4] parameter(0)\ni = s32[4,2] iota(), iota_dimension=0\nu = f32[4] parameter(1)\ns = f32[3,4] scatter(o, i, u), update_window_dims={}, inserted_window_dims={0,1}, scatter_dims_to_operand_dims={1,0}, index_vector_dim=1, to_apply=add",
            &|at| at[0],
        ),
        // Batching: each batch writes rows 0, 1, 2 of its own slice.
        (
            "o = f32[2,5,3] parameter(0)\ni = s32[2,3,1] iota(), iota_dimension=1\nu = f32[2,3,3] parameter(1)\ns = f32[2,5,3] scatter(o, i, u), update_window_dims={2}, inserted_window_dims={1}, input_batching_dims={0}, scatter_indices_batching_dims={0}, scatter_dims_to_operand_dims={1}, index_vector_dim=2, to_apply=add",
            &|at| at[1],
        ),
    ];
    for (snippet, value) in cases {
        let m = parse(&module_text(snippet));
        let c = &m.computations[m.entry];
        let spec = ScatterSpec::new(c, &c.instructions[c.root]);
        let out2in = scatter_semantics(&spec, value);
        let in2out: Relation = out2in.iter().map(|(o, u)| (u.clone(), o.clone())).collect();
        let folded = |direction| analyze_module(&m, &instruction_options("s", direction)).unwrap();
        for (access, want, what) in [
            (single_access(&folded(OUT2IN), 0, 2), &out2in, "out2in"),
            (single_access(&folded(IN2OUT), 2, 0), &in2out, "in2out"),
        ] {
            assert!(access.runtime.is_empty(), "{snippet}: {what}: {access:?}");
            compare(&concrete(&access, value, false), want)
                .unwrap_or_else(|e| panic!("{snippet}: {what}: {e}"));
        }
    }
}

/// The same for a gather, whose starts are clamped: an embedding lookup reads row
/// `clamp(i[b], 0, 6)`.
#[test]
fn gather_runtime_variables_follow_concrete_indices() {
    let m = parse(&module_text(
        "o = f32[7,3] parameter(0)\ni = s32[4] parameter(1)\ng = f32[4,3] gather(o, i), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,3}",
    ));
    for seed in 0..6 {
        let table = index_values(&[4], -3, 10, seed);
        let value = |at: &[i64]| table[at];
        let want: Relation = all_indices(&[4, 3])
            .into_iter()
            .map(|o| {
                let row = table[&vec![o[0]]].clamp(0, 6);
                (o.clone(), vec![row, o[1]])
            })
            .collect();
        let access = single_access(&analyze(&m, instruction_options("g", OUT2IN)), 0, 0);
        compare(&concrete(&access, &value, true), &want).unwrap();
    }
}

#[test]
fn tuples() {
    check_op(
        "a = f32[2] parameter(0)\nb = f32[3,2] parameter(1)\nt = (f32[2], f32[3,2]) tuple(a, b)",
    );
    check_op(
        "a = (f32[2], (f32[3], f32[4])) parameter(0)\ng = (f32[3], f32[4]) get-tuple-element(a), index=1",
    );
}

const FUSIONS: &str = r#"
HloModule fusions
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
softmax {
  p0 = f32[2,3,4]{2,1,0} parameter(0)
  bc = f32[6,4]{1,0} bitcast(p0)
  ninf = f32[] constant(-inf)
  rmax = f32[6]{0} reduce(bc, ninf), dimensions={1}, to_apply=add
  rmax3 = f32[2,3]{1,0} bitcast(rmax)
  bmax = f32[2,3,4]{2,1,0} broadcast(rmax3), dimensions={0,1}
  shifted = f32[2,3,4]{2,1,0} subtract(p0, bmax)
  e = f32[2,3,4]{2,1,0} exponential(shifted)
  zero = f32[] constant(0)
  rsum = f32[2,3]{1,0} reduce(e, zero), dimensions={2}, to_apply=add
  bsum = f32[2,3,4]{2,1,0} broadcast(rsum), dimensions={0,1}
  ROOT out = f32[2,3,4]{2,1,0} divide(e, bsum)
}
transpose_add {
  p0 = f32[4,3] parameter(0)
  t = f32[3,4]{0,1} transpose(p0), dimensions={1,0}
  r = f32[4,3] reshape(t)
  ROOT a = f32[4,3] add(p0, r)
}
multi {
  p0 = f32[4,6] parameter(0)
  p1 = f32[6] parameter(1)
  b = f32[4,6] broadcast(p1), dimensions={1}
  m = f32[4,6] multiply(p0, b)
  z = f32[] constant(0)
  r = f32[6] reduce(m, z), dimensions={0}, to_apply=add
  s = f32[2,6] slice(m), slice={[1:4:2], [0:6:1]}
  ROOT t = (f32[6], f32[2,6], f32[4,6]) tuple(r, s, m)
}
inner {
  q0 = f32[6,4] parameter(0)
  ROOT q = f32[4,6] transpose(q0), dimensions={1,0}
}
nested {
  p0 = f32[6,4] parameter(0)
  p1 = f32[4] parameter(1)
  f = f32[4,6] fusion(p0), kind=kLoop, calls=inner
  c = f32[4,6] call(f), to_apply=negate_it
  r = f32[4,6] reverse(c), dimensions={1}
  b = f32[4,6] broadcast(p1), dimensions={0}
  ROOT o = f32[4,6] add(r, b)
}
negate_it {
  n0 = f32[4,6] parameter(0)
  ROOT n = f32[4,6] negate(n0)
}
dyn {
  p0 = f32[8,5] parameter(0)
  i = s32[] parameter(1)
  z = s32[] constant(0)
  d = f32[3,5] dynamic-slice(p0, i, z), dynamic_slice_sizes={3,5}
  p2 = f32[] parameter(2)
  ROOT r = f32[3,5] pad(d, f32[] p2), padding=0_0x0_0
}
windows {
  p0 = f32[1,6,6,2] parameter(0)
  k = f32[3,3,2,2] parameter(1)
  c = f32[1,3,3,2] convolution(p0, k), window={size=3x3 stride=2x2 pad=1_1x1_1}, dim_labels=b01f_01io->b01f
  z = f32[] constant(0)
  ROOT rw = f32[1,2,2,2] reduce-window(c, z), window={size=1x2x2x1 stride=1x2x2x1 pad=0_0x0_1x0_1x0_0}, to_apply=add
}
ENTRY main {
  x = f32[2,3,4] parameter(0)
  ROOT s = f32[2,3,4] fusion(x), kind=kLoop, calls=softmax
}
"#;

#[test]
fn fusions_against_tag_propagation() {
    let m = parse(FUSIONS);
    for name in [
        "softmax",
        "transpose_add",
        "multi",
        "nested",
        "dyn",
        "windows",
    ] {
        check_computation(&m, name);
    }
}

/// Real JAX 0.12 dumps (`data/generate.py`, small shapes): every fused computation, and the
/// entry of a module without fusions, against tag propagation, in both directions.
const JAX_DUMPS: &[&str] = &[
    "take_along_axis",
    "grouped_conv",
    "transposed_conv",
    "conv_1d",
    "conv_3d",
    "roll",
    "reflect_pad",
    "tile_repeat",
    "scan",
    "rotary",
    "rms_norm",
    "bf16_matmul",
    "int8_matmul",
    "negative_pad",
    "softmax",
    "layer_norm",
    "gathers",
    "dynamic_slices",
    "concatenations",
    "pooling",
    "depthwise_conv",
    "scatter_add",
    "scatter_2d",
    "sort",
    "argsort",
    "top_k",
];

/// The dumps whose entry computation is checked as well as their fusions: the sort and the
/// top-k custom call are not fused, and scatter's indices come through their own fusion.
const JAX_DUMPS_WHOLE: &[&str] = &["scatter_add", "scatter_2d", "sort", "argsort", "top_k"];

#[test]
fn jax_dumps_against_tag_propagation() {
    for name in JAX_DUMPS {
        let path = format!("{}/tests/data/{name}.hlo", env!("CARGO_MANIFEST_DIR"));
        let m = parse(&std::fs::read_to_string(&path).unwrap());
        let mut fused: Vec<&str> = m
            .computations
            .iter()
            .flat_map(|c| &c.instructions)
            .filter(|i| i.opcode == Opcode::Fusion)
            .flat_map(|i| i.called("calls"))
            .map(String::as_str)
            .collect();
        fused.sort_unstable();
        fused.dedup();
        if fused.is_empty() || JAX_DUMPS_WHOLE.contains(name) {
            fused.push(&m.computations[m.entry].name);
        }
        for computation in fused {
            check_computation(&m, computation);
        }
    }
}

/// `index` of an array with dimensions in logical order, in the array's storage order.
fn physical_index(shape: &xla_indexing_hlo::shape::ArrayShape, index: &[i64]) -> Index {
    let layout = shape.layout_or_default();
    layout.major_to_minor().iter().map(|&d| index[d]).collect()
}

/// `--physical` maps are the logical maps between storage orders: the relation of every
/// physical map set is that of the logical one with both ends permuted, in both directions,
/// for single instructions and for fusions.
#[test]
fn physical_maps_permute_the_logical_ones() {
    let snippets = [
        "p0 = f32[3,4,5]{0,2,1} parameter(0)\nROOT e = f32[3,4,5]{1,0,2} exponential(p0)",
        "p0 = f32[3,4]{0,1} parameter(0)\nROOT t = f32[4,3]{0,1} transpose(p0), dimensions={1,0}",
        "p0 = f32[3,4]{0,1} parameter(0)\nz = f32[] constant(0)\nROOT r = f32[4]{0} reduce(p0, z), dimensions={0}, to_apply=add",
        "p0 = f32[4]{0} parameter(0)\nROOT b = f32[2,4,3]{0,2,1} broadcast(p0), dimensions={1}",
        "p0 = f32[2,6]{0,1} parameter(0)\nROOT r = f32[3,4]{0,1} reshape(p0)",
    ];
    let mut modules: Vec<(Module, Option<String>)> = snippets
        .iter()
        .map(|s| {
            let m = parse(&module_text(s));
            let root = m.computations[m.entry].instructions[m.computations[m.entry].root]
                .name
                .clone();
            (m, Some(root))
        })
        .collect();
    let dump = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/transpose_exp_add.cpu_after_opt.hlo"
    ))
    .unwrap();
    modules.push((parse(&dump), None));
    for (m, instruction) in &modules {
        for direction in [Direction::OutputToInput, Direction::InputToOutput] {
            let options = |physical| Options {
                instruction: instruction.clone(),
                computation: instruction
                    .as_ref()
                    .map(|_| m.computations[m.entry].name.clone()),
                direction,
                physical,
                ..Options::default()
            };
            let logical = analyze(m, options(false));
            let physical = analyze(m, options(true));
            assert!(!logical.computations.is_empty());
            for (lc, pc) in logical.computations.iter().zip(&physical.computations) {
                for (lo, po) in lc.outputs.iter().zip(&pc.outputs) {
                    for (lt, pt) in lo.operands.iter().zip(&po.operands) {
                        let want: Relation = relation(&maps(&lt.maps), &lt.shape.dims, true)
                            .unwrap()
                            .into_iter()
                            .map(|(from, to)| {
                                (
                                    physical_index(&lo.shape, &from),
                                    physical_index(&lt.shape, &to),
                                )
                            })
                            .collect();
                        let target = lt.shape.layout_or_default().physical_dims(&lt.shape.dims);
                        let got = relation(&maps(&pt.maps), &target, true).unwrap();
                        compare(&got, &want).unwrap_or_else(|e| {
                            panic!(
                                "{} {direction:?} {} -> {}: {e}",
                                lc.name, lo.output, lt.operand
                            )
                        });
                    }
                }
            }
        }
    }
}

/// The checker itself must notice a wrong bound, a wrong stride and a missing constraint.
#[test]
fn checker_catches_wrong_maps() {
    let m = parse(&module_text(
        "p = f32[12] parameter(0)\nv = f32[] parameter(1)\nq = f32[25] pad(p, v), padding=1_1_1",
    ));
    let c = &m.computations[m.entry];
    let i = &c.instructions[c.root];
    let want: Relation = all_indices(&[25])
        .into_iter()
        .flat_map(|o| {
            deps(&m, c, i, 0, &o)
                .into_iter()
                .filter(|d| d.0 == 0)
                .map(move |d| (o.clone(), d.2))
        })
        .collect();
    let good = IndexingMap::parse(
        "(d0) -> ((d0 - 1) floordiv 2), domain: d0 in [1, 23], (d0 - 1) mod 2 in [0, 0]",
    )
    .unwrap();
    compare(&relation(&[good], &[12], false).unwrap(), &want).unwrap();
    for wrong in [
        "(d0) -> ((d0 - 1) floordiv 2), domain: d0 in [1, 21], (d0 - 1) mod 2 in [0, 0]",
        "(d0) -> ((d0 - 1) floordiv 2), domain: d0 in [1, 23]",
        "(d0) -> ((d0 - 1) floordiv 3), domain: d0 in [1, 23], (d0 - 1) mod 3 in [0, 0]",
        "(d0) -> ((d0 - 1) floordiv 2), domain: d0 in [1, 23], d0 mod 2 in [0, 0]",
    ] {
        let map = IndexingMap::parse(wrong).unwrap();
        let caught = relation(&[map], &[12], false).and_then(|r| compare(&r, &want));
        assert!(caught.is_err(), "not caught: {wrong}");
    }
}
