//! `--chip`: the commands that plan GPU kernels plan them for the chip named.

mod common;

use common::stdout;

/// A module of one elementwise fusion of `elements` f32 values.
fn elementwise(elements: u64) -> String {
    format!(
        "HloModule m\n\n%fused (p0: f32[{elements}]) -> f32[{elements}] {{\n  \
         %p0 = f32[{elements}]{{0}} parameter(0)\n  \
         ROOT %e = f32[{elements}]{{0}} exponential(%p0)\n}}\n\n\
         ENTRY %main (x: f32[{elements}]) -> f32[{elements}] {{\n  \
         %x = f32[{elements}]{{0}} parameter(0)\n  \
         ROOT %f = f32[{elements}]{{0}} fusion(%x), kind=kLoop, calls=%fused\n}}\n"
    )
}

#[test]
fn the_unroll_factor_follows_the_chips_wave_of_resident_threads() {
    let dir = std::env::temp_dir().join(format!("chips-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("m.hlo");
    // 65,536 elements: a full wave of a T4 (40 x 1024 resident threads), not of an H100
    // (132 x 2048), so only the T4 unrolls.
    std::fs::write(&file, elementwise(65_536)).unwrap();
    let file = file.to_str().unwrap();
    let unroll = |chip: &str| -> u64 {
        let json = stdout(&["launch", "--chip", chip, "--format", "json", file]);
        let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
        doc.pointer("/kernels/0/unroll")
            .and_then(serde_json::Value::as_u64)
            .unwrap_or_else(|| panic!("no unroll in {json}"))
    };
    assert_eq!(unroll("sm_75"), 4);
    assert_eq!(unroll("sm_90"), 1);
    assert_eq!(unroll("sm_90a"), 1);
    std::fs::remove_dir_all(&dir).unwrap();
}
