//! GPU maths checked by brute force: coalescing counts against the addresses a warp touches
//! (enumerated from the output's layout order, the fusion's maps and the operand's physical
//! layout), and propagated tiles against the elements each output tile reads. The fusion maps
//! themselves are checked against reference semantics in the HLO crate's `tests/brute.rs`.

use std::collections::{BTreeSet, HashMap};
use xla_indexing_hlo::Opcode;

use xla_indexing_core::IndexingMap;
use xla_indexing_gpu::{
    Device, EmitterPlan, KernelPlan, analyze_access, output_tile,
    plan::OperandPlan,
    plan_module, propagate,
    transpose::{TransposeHero, TransposePlan},
    transpose_tiling::{RunSizes, TileKind, TileMaps, TileRuns, Tiling, tile_maps},
};
use xla_indexing_hlo::{HloError, Module, parse_module};

use xla_indexing_testkit::grid::box_points;

fn plans(path: &str) -> Vec<KernelPlan> {
    let text = std::fs::read_to_string(format!("{}/../../{path}", env!("CARGO_MANIFEST_DIR")))
        .unwrap_or_else(|e| panic!("{path}: {e}"));
    let module = parse_module(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    plan_module(&module, &Device::h100()).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn bits(element: &str) -> i128 {
    xla_indexing_gpu::element_bits(element).unwrap() as i128
}

/// The 128-byte transactions one step's element `addresses` (of `bits` each) fall in, and the
/// fewest that could carry their bytes.
fn step_cost(addresses: &BTreeSet<i64>, bits: i128) -> (u64, u64) {
    let segments: BTreeSet<i128> = addresses
        .iter()
        .map(|&a| (a as i128 * bits).div_euclid(1024))
        .collect();
    let ideal = (addresses.len() as i128 * bits + 1023) / 1024;
    (segments.len() as u64, ideal as u64)
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
            let (t, i) = step_cost(&addresses, bits(&operand.element));
            transactions += t;
            ideal += i;
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
        for s in box_points(bounds(map.range_vars())) {
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
            let (t, i) = step_cost(&addresses, bits(&operand.element));
            transactions += t;
            ideal += i;
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
            // The reduction emitter as XLA tiles it: a row's warp reads adjacent 2-vectors of
            // f32, a column tile's warp adjacent pairs of columns.
            ("row_sum".into(), 0, true, 10, 10),
            ("column_sum".into(), 0, true, 20, 20)
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

/// Every tile of every operand of every kernel's output 0: the elements read are inside the
/// propagated tile, and equal to it where the tile says it is exact.
fn check_tiles(path: &str, sizes: &[i64]) -> (usize, usize, usize) {
    let (mut exact, mut over, mut inexpressible) = (0, 0, 0);
    let (module, plans) = module_and_plans(path);
    let mut composer = xla_indexing_hlo::fusion::Composer::new(&module);
    for plan in plans {
        let out = &plan.kernel.outputs[0];
        let Ok(tile) = output_tile(&out.dims, sizes) else {
            continue;
        };
        // The fusion's maps from output 0's elements (the emitters' own maps may start from
        // other elements, such as a transpose's source).
        let maps = composer
            .computation_output_to_input(plan.kernel.computation, 0)
            .unwrap();
        for op in &maps {
            for a in &op.maps.accesses {
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

/// The module of `path` (from the repository's root) with its kernel plans.
fn module_and_plans(path: &str) -> (xla_indexing_hlo::Module, Vec<KernelPlan>) {
    let text = std::fs::read_to_string(format!("{}/../../{path}", env!("CARGO_MANIFEST_DIR")))
        .unwrap_or_else(|e| panic!("{path}: {e}"));
    let module = parse_module(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    let plans = plan_module(&module, &Device::h100()).unwrap_or_else(|e| panic!("{path}: {e}"));
    (module, plans)
}

/// Runs every thread of a transpose kernel through each hero's maps, block by block (see
/// [`check_hero`]). Returns the kernels checked.
fn check_transposes(path: &str) -> Vec<String> {
    let (module, plans) = module_and_plans(path);
    let mut checked = Vec::new();
    for plan in &plans {
        let EmitterPlan::Transpose(t) = &plan.emitter else {
            continue;
        };
        for hero in &t.heroes {
            check_hero(path, &module, plan, t, hero);
        }
        checked.push(plan.kernel.name.clone());
    }
    checked
}

/// Checks one hero of a transpose kernel (see [`check_moves`]).
fn check_hero(
    path: &str,
    module: &Module,
    plan: &KernelPlan,
    t: &TransposePlan,
    hero: &TransposeHero,
) {
    let comp = &module.computations[plan.kernel.computation];
    let operand = comp.instructions[hero.source].shape.as_array().unwrap();
    // Hero dimension d is source dimension perm[d], through the hero and the layout-only
    // transposes and copies before it.
    let mut perm: Vec<usize> = (0..operand.dims.len()).collect();
    let mut k = hero.hero;
    while k != hero.source {
        let i = &comp.instructions[k];
        if let (Some(d), Opcode::Transpose) = (i.ints("dimensions"), i.opcode) {
            perm = perm.iter().map(|&p| d[p] as usize).collect();
        }
        k = i.operands[0];
    }
    let maps = TileMaps {
        launch: plan.launch,
        read: hero.read_map.clone(),
        store: hero.store_map.clone(),
        write: hero.write_map.clone(),
        load: hero.load_map.clone(),
    };
    let name = format!("{path} {}", plan.kernel.name);
    check_moves(&name, &maps, &perm, &operand.dims, &hero.tile.dims);
    assert_eq!(
        t.sizes.elements(),
        operand.dims.iter().product::<i64>(),
        "{name}: {}",
        t.sizes
    );
}

/// Each thread puts the source elements of the read map into the shared tile (of `tile`
/// dimensions) at the index of the store map, then holds the element of the transpose
/// (result dimension `d` is source dimension `perm[d]`) of its write map from the index of the
/// load map. Every element of the transpose must be held exactly once, with the source element
/// it moves there, stored into the tile by this block; every source element (of `dims`) is
/// read exactly once, and no tile slot is stored twice.
fn check_moves(name: &str, maps: &TileMaps, perm: &[usize], dims: &[i64], tile: &[u64]) {
    let threads = maps.launch.threads[0] as i64;
    assert_eq!(maps.launch.threads[1..], [1, 1], "{name}: 1-d blocks");
    // Every (thread, chunk, unroll) of a map's loop.
    let steps = |map: &IndexingMap| {
        let [chunks, unroll] = [0, 1].map(|k| map.range_vars()[k].bounds);
        box_points([
            (0, threads - 1),
            (chunks.lo, chunks.hi),
            (unroll.lo, unroll.hi),
        ])
    };
    let mut read = BTreeSet::new();
    let mut written = BTreeSet::new();
    for block in 0..maps.launch.blocks[0] as i64 {
        let mut slots: HashMap<Vec<i64>, Vec<i64>> = HashMap::new();
        for p in steps(&maps.read) {
            let (ids, syms) = ([p[0], 0, 0, block, 0, 0], [p[1], p[2]]);
            if !maps.read.contains(&ids, &syms) {
                continue;
            }
            let r = maps.read.evaluate(&ids, &syms).unwrap();
            assert!(r.iter().zip(dims).all(|(i, n)| (0..*n).contains(i)));
            assert!(read.insert(r.clone()), "{name}: {r:?} read twice");
            let slot = maps.store.evaluate(&ids, &syms).unwrap();
            assert!(
                slot.iter()
                    .zip(tile)
                    .all(|(i, n)| (0..*n as i64).contains(i)),
                "{name}: slot {slot:?} outside the tile {tile:?}"
            );
            assert!(
                slots.insert(slot.clone(), r).is_none(),
                "{name}: slot {slot:?} stored twice"
            );
        }
        for p in steps(&maps.write) {
            let (ids, syms) = ([p[0], 0, 0, block, 0, 0], [p[1], p[2]]);
            if !maps.write.contains(&ids, &syms) {
                continue;
            }
            let o = maps.write.evaluate(&ids, &syms).unwrap();
            let slot = maps.load.evaluate(&ids, &syms).unwrap();
            let r = slots
                .get(&slot)
                .unwrap_or_else(|| panic!("{name}: {o:?} loaded from the empty slot {slot:?}"));
            let moved: Vec<i64> = perm.iter().map(|&d| r[d]).collect();
            assert_eq!(o, moved, "{name}: block {block}");
            assert!(written.insert(o.clone()), "{name}: {o:?} written twice");
        }
    }
    let elements = dims.iter().product::<i64>() as usize;
    assert_eq!((read.len(), written.len()), (elements, elements), "{name}");
}

/// XLA's padded tiles with vectors (its transpose emitter vectorizes them only for launches
/// too large to enumerate here): `v` adjacent elements per lane, a `32v × (32v + 1)` tile,
/// partial tiles on both sides, with and without a batch.
#[test]
fn vectorized_padded_tiles_move_every_element_once() {
    for v in [2, 4] {
        let tiling = Tiling {
            kind: TileKind::Padded,
            vector: v,
        };
        // [Y, X] = [150, 100] -> [100, 150], and [Z, Y, X] = [2, 70, 132] -> [2, 132, 70].
        for (dims, perm) in [
            (vec![150, 100], vec![1, 0]),
            (vec![2, 70, 132], vec![0, 2, 1]),
        ] {
            let rank = dims.len();
            let runs = TileRuns {
                batch: (0..rank - 2).collect(),
                y: vec![rank - 2],
                x: vec![rank - 1],
                ..TileRuns::default()
            };
            let sizes: RunSizes = runs.sizes(&dims);
            let maps = tile_maps(&dims, &perm, &runs, sizes, tiling).unwrap();
            let tile = tiling.tile_dims(sizes.kept).unwrap();
            check_moves(&format!("v = {v}, {dims:?}"), &maps, &perm, &dims, &tile);
        }
    }
}

#[test]
fn transposes_move_every_element_once_through_the_tile() {
    assert_eq!(
        check_transposes("crates/passes/tests/data/codegen/transposes.hlo"),
        [
            "odd_fusion",
            "batched_fusion",
            "fused_fusion",
            "half_fusion",
            "copied_fusion"
        ]
    );
    // [2, 1, 0], [1, 3, 0, 2], batch runs on both sides of the tiled ones, and [1, 0, 2]
    // with a small kept minor run (its elements in each tile element).
    assert_eq!(
        check_transposes("crates/passes/tests/data/codegen/transposes_general.hlo"),
        ["f4", "f5", "f6", "f0", "f1", "f2"]
    );
    assert_eq!(
        check_transposes("examples/hlo/transpose_add.hlo"),
        ["transpose_fusion"]
    );
    // XLA's own 10 x 20 transpose is too thin for its transpose emitter (the loop emitter's).
    assert!(check_transposes("examples/hlo/transpose_exp_add.hlo").is_empty());
    // Several heroes, side outputs, epilogues through bitcasts, different ranks.
    assert_eq!(
        check_transposes("crates/passes/tests/data/codegen/transpose_heroes.hlo"),
        ["f0", "f1", "f2", "f3", "f5", "f4"]
    );
    // XLA's packed tiles: s8, s4, pred, and tile columns that are rows of `A`.
    assert_eq!(
        check_transposes("crates/passes/tests/data/codegen/transposes_packed.hlo"),
        ["f0", "f1", "f2", "f3"]
    );
}

/// Per kernel of `path` the transpose emitter writes: the verdict, transactions and ideal of
/// each read (through each operand's read map) and of each output's write (through its write
/// map), each equal to the enumeration's.
fn transpose_coalescing(path: &str) -> Vec<(String, String, bool, u64, u64)> {
    let mut verdicts = Vec::new();
    for plan in plans(path) {
        if !matches!(plan.emitter, EmitterPlan::Transpose(_)) {
            continue;
        }
        for o in &plan.outputs {
            let identity = IndexingMap::identity(&o.shape.dims);
            let ops = o.operands.iter().map(|op| {
                let what = format!("read {}", op.parameter);
                (what, &op.read_map, &op.output_maps[0].map, &op.shape)
            });
            let writes = o
                .write_maps
                .iter()
                .map(|w| (format!("write {}", o.output), w, &identity, &o.shape));
            for (what, read_map, map, shape) in ops.chain(writes) {
                let c = analyze_access(read_map, map, shape, &Device::h100()).unwrap();
                let want = brute_read_map(read_map, map, shape);
                assert_eq!((c.transactions, c.ideal), want, "{path} {what}");
                verdicts.push((
                    plan.kernel.name.clone(),
                    what,
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
fn transposes_read_and_write_coalesced() {
    let v =
        |k: &str, what: &str, c: bool, t: u64, i: u64| (k.to_string(), what.to_string(), c, t, i);
    assert_eq!(
        transpose_coalescing("bench/gpu/transpose.hlo"),
        [
            // Rows of 130 elements are not 128-byte aligned: most rows a warp reads straddle a
            // boundary (1.75x over a thread's eight steps, against 32x for the loop emitter).
            v("transpose_3d", "read 0", false, 14, 8),
            v("transpose_3d", "write 0", true, 8, 8),
            v("transpose_bias", "read 0", true, 8, 8),
            v("transpose_bias", "read 1", true, 8, 8),
            v("transpose_bias", "write 0", true, 8, 8),
        ]
    );
    assert_eq!(
        transpose_coalescing("examples/hlo/transpose_add.hlo"),
        [
            v("transpose_fusion", "read 0", true, 4, 4),
            v("transpose_fusion", "read 1", true, 8, 8),
            v("transpose_fusion", "write 0", true, 8, 8),
        ]
    );
}

#[test]
fn transposes_the_emitter_does_not_tile_stay_with_the_loop_emitter_saying_why() {
    let plans = plans("crates/passes/tests/data/codegen/transposes.hlo");
    let minor_kept = plans
        .iter()
        .find(|p| p.kernel.name == "minor_kept_fusion")
        .unwrap();
    let EmitterPlan::Loop {
        fallback: Some(why),
    } = &minor_kept.emitter
    else {
        panic!("{:?}", minor_kept.emitter);
    };
    assert_eq!(
        why.to_string(),
        "t: it keeps the minor-most dimension in place with 160 bits per element, which XLA's \
         transpose emitter tiles only for at most 64"
    );
    let names: Vec<&str> = plans.iter().map(|p| p.emitter.name()).collect();
    assert_eq!(
        names,
        [
            "transpose",
            "transpose",
            "transpose",
            "transpose",
            "transpose",
            "loop"
        ]
    );
}
