//! The in-place dynamic-update-slice emitter's plans: fusions whose outputs are all
//! dynamic-update-slices of parameters write only the updates, and the ones it leaves to the
//! loop emitter say why. (The kernels' values are checked by `codegen_exec`.)

mod common;

use common::{fusion_module, plans, why};
use xla_indexing_gpu::EmitterPlan;

/// A module of one `kLoop` fusion computing `body` (its root last) from parameters `params`.
fn module(params: &[&str], body: &str, root_shape: &str) -> String {
    fusion_module("kLoop", params, body, root_shape)
}

#[test]
fn updates_of_parameters_are_written_in_place() {
    let text = module(
        &["f32[20,30]", "f32[5,6]", "s32[]", "s32[]"],
        "  ROOT u = f32[20,30] dynamic-update-slice(p0, p1, p2, p3)",
        "f32[20,30]",
    );
    let EmitterPlan::InPlace(p) = &plans(&text)[0] else {
        panic!("not the in-place emitter");
    };
    assert_eq!(p.slices[0].operand_parameter, 0);
    // One thread per update element; the offsets clamped into [0, 15] and [0, 24].
    assert_eq!(p.launch.total_threads(), Some(30));
    let bounds: Vec<_> = p.slices[0]
        .write_map
        .rt_vars()
        .iter()
        .map(|v| v.bounds)
        .collect();
    assert_eq!((bounds[0].lo, bounds[0].hi, bounds[1].hi), (0, 15, 24));
    assert_eq!(plans(&text)[0].outputs_from_parameters(), [(0, 0)]);
}

#[test]
fn updates_the_emitter_cannot_write_in_place_say_why() {
    // The operand is computed in the fusion: no buffer to update in place.
    let text = module(
        &["f32[20,30]", "f32[5,6]", "s32[]"],
        "  n = f32[20,30] negate(p0)\n  ROOT u = f32[20,30] dynamic-update-slice(n, p1, p2, p2)",
        "f32[20,30]",
    );
    assert!(
        why(&text).contains("computed in the fusion"),
        "{}",
        why(&text)
    );
    // Two outputs whose updates differ in shape.
    let text = module(
        &["f32[8,10]", "f32[8,10]", "f32[2,10]", "f32[3,10]", "s32[]"],
        "  z = s32[] constant(0)\n  a = f32[8,10] dynamic-update-slice(p0, p2, p4, z)\n  b = f32[8,10] dynamic-update-slice(p1, p3, p4, z)\n  ROOT t = (f32[8,10], f32[8,10]) tuple(a, b)",
        "(f32[8,10], f32[8,10])",
    );
    assert!(why(&text).contains("differ in shape"), "{}", why(&text));
}
