//! Generated HLO modules of any depth, shared by the deep-input tests of the HLO crate and of
//! the GPU and passes crates (which include this file by path).
#![allow(dead_code)]

/// A module whose entry applies `c0` to its parameter with `op` (`fusion` with `calls=`, or
/// `call` with `to_apply=`), each `cK` applies `cK+1` the same way, and `c{depth - 1}` negates;
/// every value is an `f32[4]`. The root of `cK` is on line [`nest_root_line`]`(k)`.
pub fn nest(op: &str, depth: usize) -> String {
    let (key, kind) = match op {
        "fusion" => ("calls", ", kind=kLoop"),
        _ => ("to_apply", ""),
    };
    let mut text = String::from("HloModule nest\n\n");
    for k in 0..depth {
        let root = if k + 1 == depth {
            "negate(%p)".to_string()
        } else {
            format!("{op}(%p){kind}, {key}=%c{}", k + 1)
        };
        text.push_str(&format!(
            "%c{k} (p: f32[4]) -> f32[4] {{\n  %p = f32[4]{{0}} parameter(0)\n  ROOT %r = f32[4]{{0}} {root}\n}}\n\n"
        ));
    }
    text.push_str(&format!(
        "ENTRY %main (x: f32[4]) -> f32[4] {{\n  %x = f32[4]{{0}} parameter(0)\n  ROOT %f = f32[4]{{0}} {op}(%x){kind}, {key}=%c0\n}}\n"
    ));
    text
}

/// The line of the root instruction `%r` of computation `cK` of a [`nest`].
pub fn nest_root_line(k: usize) -> usize {
    5 * k + 5
}

/// A module whose entry applies the fusion `%f` of computation `fused` to its parameter; `fused`
/// negates its `f32[4]` parameter `length` times, `%n0` (on line 5) first.
pub fn chain(length: usize) -> String {
    let mut text = String::from("HloModule chain\n\n%fused (p: f32[4]) -> f32[4] {\n");
    text.push_str("  %p = f32[4]{0} parameter(0)\n");
    let mut last = "p".to_string();
    for k in 0..length {
        let root = if k + 1 == length { "ROOT " } else { "" };
        text.push_str(&format!("  {root}%n{k} = f32[4]{{0}} negate(%{last})\n"));
        last = format!("n{k}");
    }
    text.push_str("}\n\nENTRY %main (x: f32[4]) -> f32[4] {\n  %x = f32[4]{0} parameter(0)\n");
    text.push_str("  ROOT %f = f32[4]{0} fusion(%x), kind=kLoop, calls=%fused\n}\n");
    text
}
