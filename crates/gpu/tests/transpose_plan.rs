//! The transpose emitter's plans of fusions with several heroes and side outputs: which outputs
//! are stored from the tiles and which before the barrier, and the fusions it leaves to the
//! loop emitter, saying why. (That every hero's element moves once through its tile is checked
//! by enumeration in `brute.rs`; that the kernels compute XLA's values, by `codegen_exec`.)

mod common;

use common::{fusion_module, plans, why};
use xla_indexing_gpu::{EmitterPlan, transpose::TransposePlan};

fn transpose(e: &EmitterPlan) -> &TransposePlan {
    match e {
        EmitterPlan::Transpose(t) => t,
        other => panic!("not the transpose emitter: {other:?}"),
    }
}

/// A module of one `kInput` fusion computing `body` (its root last) from parameters `params`.
fn module(params: &[&str], body: &str, root_shape: &str) -> String {
    fusion_module("kInput", params, body, root_shape)
}

#[test]
fn heroes_and_side_outputs_have_their_roles() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../passes/tests/data/codegen/transpose_heroes.hlo"
    ))
    .unwrap();
    let plans = plans(&text);
    // side: negate, transpose, abs, bitcast — only the transpose comes from the tile.
    let side = transpose(&plans[0]);
    assert_eq!(side.heroes.len(), 1);
    let moved: Vec<bool> = side.outputs.iter().map(|o| o.moved).collect();
    assert_eq!(moved, [false, true, false, false]);
    // two_types: two heroes, one tile each of its own type.
    let two = transpose(&plans[2]);
    let tiles: Vec<&str> = two.heroes.iter().map(|h| h.tile.element.as_str()).collect();
    assert_eq!(tiles, ["s16", "f16"]);
    // one_tiled: the transpose that keeps 40 floats in place is no hero; its output is
    // computed where it is stored, before the barrier.
    let one = transpose(&plans[4]);
    assert_eq!(one.heroes.len(), 1);
    assert_eq!(
        one.outputs.iter().map(|o| o.moved).collect::<Vec<_>>(),
        [false, true]
    );
    // sum_of_heroes: one output reads both heroes where it stores.
    let sum = transpose(&plans[5]);
    assert_eq!(sum.heroes.len(), 2);
    assert!(sum.outputs[0].moved && sum.outputs[0].free_reads.is_empty());
}

#[test]
fn fusions_the_transpose_emitter_cannot_take_say_why() {
    // Two transposes tiled differently: [Y, X] = [64, 32] and [32, 64].
    let text = module(
        &["f32[64,32]", "f32[32,64]"],
        "  a = f32[32,64] transpose(p0), dimensions={1,0}\n  b = f32[64,32] transpose(p1), dimensions={1,0}\n  ROOT t = (f32[32,64], f32[64,32]) tuple(a, b)",
        "(f32[32,64], f32[64,32])",
    );
    assert!(why(&text).contains("tiled differently"), "{}", why(&text));
    // A side output of another element count than the transpose's operand.
    let text = module(
        &["f32[64,32]", "f32[10]"],
        "  a = f32[32,64] transpose(p0), dimensions={1,0}\n  n = f32[10] negate(p1)\n  ROOT t = (f32[32,64], f32[10]) tuple(a, n)",
        "(f32[32,64], f32[10])",
    );
    assert!(why(&text).contains("is no bitcast"), "{}", why(&text));
    // A transpose read through a broadcast.
    let text = module(
        &["f32[64,32]"],
        "  a = f32[32,64] transpose(p0), dimensions={1,0}\n  ROOT b = f32[2,32,64] broadcast(a), dimensions={1,2}",
        "f32[2,32,64]",
    );
    assert!(
        why(&text).contains("read through b (broadcast)"),
        "{}",
        why(&text)
    );
}
