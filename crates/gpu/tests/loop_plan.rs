//! The loop emitter's plans: the unroll factor XLA's autotuner writes into a fusion's
//! `backend_config` replaces the heuristic's, and a default config changes nothing.

use xla_indexing_gpu::{Device, plan_module};
use xla_indexing_hlo::parse_module;

/// The unroll factor and blocks of the only kernel of an `f32[1024,2048]` add whose fusion has
/// `backend_config`.
fn launch(backend_config: &str) -> (u64, u64) {
    let text = format!(
        "HloModule m\nfused {{\n  p0 = f32[1024,2048] parameter(0)\n  p1 = f32[1024,2048] parameter(1)\n  ROOT s = f32[1024,2048] add(p0, p1)\n}}\nENTRY e {{\n  p0 = f32[1024,2048] parameter(0)\n  p1 = f32[1024,2048] parameter(1)\n  ROOT f = f32[1024,2048] fusion(p0, p1), kind=kCustom, calls=fused, backend_config={backend_config}\n}}\n"
    );
    let m = parse_module(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let plan = &plan_module(&m, &Device::h100()).unwrap()[0];
    (plan.unroll, plan.launch.blocks[0])
}

#[test]
fn the_autotuned_unroll_factor_replaces_the_heuristic() {
    let heuristic = launch("{}");
    assert_eq!(heuristic.0, 4);
    // As XLA's own test writes it, inside the fusion's config.
    let tuned = launch(
        r#"{"fusion_backend_config":{"native_emitter_backend_config":{"type":"NATIVE_EMITTER_TYPE_LOOP","unroll_factor":64}}}"#,
    );
    assert_eq!(tuned, (64, 1024 * 2048 / 128 / 64));
    // As the autotuner writes it into dumps, at the top; protobuf's JSON may quote it.
    let top = launch(
        r#"{"native_emitter_backend_config":{"type":"NATIVE_EMITTER_TYPE_LOOP","unroll_factor":"8"}}"#,
    );
    assert_eq!(top.0, 8);
    // The default that every dumped fusion carries changes nothing.
    let default = launch(
        r#"{"operation_queue_id":"0","native_emitter_backend_config":{"type":"NATIVE_EMITTER_TYPE_INVALID","unroll_factor":0}}"#,
    );
    assert_eq!(default, heuristic);
}
