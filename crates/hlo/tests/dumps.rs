//! Real JAX dumps (CPU, optimised; see `data/generate.py`) and the ecosystem samples: every one
//! parses and analyses in both directions with no unsupported op, and a few maps are checked.

mod common;

use common::{assert_maps, maps_of};
use xla_indexing_hlo::{Direction, Options, analyze_module, parse_module};

const DUMPS: &[&str] = &[
    "softmax",
    "layer_norm",
    "attention",
    "transformer_block",
    "convolutions",
    "depthwise_conv",
    "pooling",
    "gathers",
    "dynamic_slices",
    "concatenations",
    "softmax_sum.cpu_after_opt",
    "transpose_exp_add.cpu_after_opt",
    "transpose_exp_add.before_opt",
];

fn read(name: &str) -> String {
    let path = format!("{}/tests/data/{name}.hlo", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn every_dump_analyses_with_nothing_unsupported() {
    for name in DUMPS {
        let m = parse_module(&read(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        for direction in [Direction::OutputToInput, Direction::InputToOutput] {
            let options = Options {
                direction,
                utilization: true,
                ..Options::default()
            };
            let report = analyze_module(&m, &options).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(
                report.unsupported.is_empty(),
                "{name}: {:?}",
                report.unsupported
            );
            assert!(!report.computations.is_empty(), "{name}");
            // Every computation, not only the fused ones, analyses too.
            for c in &m.computations {
                let options = Options {
                    computation: Some(c.name.clone()),
                    direction,
                    ..Options::default()
                };
                analyze_module(&m, &options).unwrap_or_else(|e| panic!("{name}/{}: {e}", c.name));
            }
            if direction == Direction::OutputToInput {
                for c in &report.computations {
                    for o in &c.outputs {
                        for op in &o.operands {
                            assert!(
                                op.maps.undefined.is_none(),
                                "{name}/{}: {:?}",
                                c.name,
                                op.maps.undefined
                            );
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn jax_transpose_exp_add_reads_the_bitcast_row_major() {
    let m = parse_module(&read("transpose_exp_add.cpu_after_opt")).unwrap();
    let report = analyze_module(&m, &Options::default()).unwrap();
    let c = &report.computations[0];
    assert_eq!(c.name, "fused_computation");
    // param_0.1 is f32[200] bitcast to f32[20,10]; param_1.4 is f32[10,20] transposed.
    assert_maps(
        maps_of(&report, 0, 0),
        &["(d0, d1) -> (d0 * 10 + d1), domain: d0 in [0, 19], d1 in [0, 9]"],
    );
    assert_maps(
        maps_of(&report, 0, 1),
        &["(d0, d1) -> (d1, d0), domain: d0 in [0, 19], d1 in [0, 9]"],
    );
}

#[test]
fn jax_softmax_sum_reads_the_transposed_reduction() {
    let m = parse_module(&read("softmax_sum.cpu_after_opt")).unwrap();
    let options = Options {
        computation: Some("fused_computation".into()),
        utilization: true,
        ..Options::default()
    };
    let report = analyze_module(&m, &options).unwrap();
    assert_maps(
        maps_of(&report, 0, 1),
        &["(d0)[s0] -> (s0, d0), domain: d0 in [0, 255], s0 in [0, 127]"],
    );
    assert_maps(
        maps_of(&report, 0, 2),
        &["(d0)[s0] -> (s0), domain: d0 in [0, 255], s0 in [0, 127]"],
    );
    let u = report.computations[0].outputs[0].operands[1]
        .utilization
        .unwrap();
    assert_eq!((u.read, u.total), (Some(128 * 256), 128 * 256));
}

#[test]
fn jax_gather_keeps_runtime_provenance() {
    let m = parse_module(&read("gathers")).unwrap();
    let report = analyze_module(&m, &Options::default()).unwrap();
    let has_rt = report
        .computations
        .iter()
        .flat_map(|c| &c.outputs)
        .flat_map(|o| &o.operands)
        .any(|op| {
            op.maps
                .accesses
                .iter()
                .any(|a| !a.runtime.is_empty() && a.runtime.len() == a.map.rt_vars().len())
        });
    assert!(has_rt);
}

#[test]
fn unsupported_ops_are_listed_and_the_rest_is_analysed() {
    let text = r#"
HloModule u
cmp {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT lt = pred[] compare(a, b), direction=LT
}
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
f {
  p0 = f32[8] parameter(0)
  s = f32[8] custom-call(p0), custom_call_target="opaque"
  e = f32[8] exponential(p0)
  ROOT a = f32[8] add(s, e)
}
ENTRY main {
  x = f32[8] parameter(0)
  r = f32[8] all-reduce(x), to_apply=add
  c = f32[8] custom-call(r), custom_call_target="foo"
  ROOT y = f32[8] fusion(c), kind=kLoop, calls=f
}
"#;
    let m = parse_module(text).unwrap();
    let report = analyze_module(&m, &Options::default()).unwrap();
    let names: Vec<(&str, &str, usize)> = report
        .unsupported
        .iter()
        .map(|u| (u.instruction.as_str(), u.opcode.as_str(), u.line))
        .collect();
    assert_eq!(
        names,
        [
            ("s", "custom-call", 15),
            ("r", "all-reduce", 21),
            ("c", "custom-call", 22)
        ]
    );
    // The exponential path is known; the opaque custom call makes the set incomplete.
    let set = maps_of(&report, 0, 0);
    assert_eq!(set.accesses.len(), 1);
    assert!(set.undefined.as_deref().unwrap().contains("custom-call"));
    // One line counts the skipped instructions by opcode; one names the incomplete maps.
    let warnings: Vec<String> = report.warnings().into_iter().map(|w| w.message).collect();
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert_eq!(
        warnings[0],
        "3 instructions without maps: custom-call 2, all-reduce 1; skipped (--format json lists them)"
    );
    let json = report.to_json();
    assert_eq!(
        json["unsupported"][0],
        serde_json::json!({"instruction": "s", "opcode": "custom-call", "computation": "f", "line": 15, "column": 3})
    );
    assert!(json["computations"][0]["outputs"][0]["operands"][0]["undefined"].is_string());
}

/// Fusions are analysed in parallel: the report does not depend on the number of threads, and
/// progress counts every fusion once.
#[test]
fn the_report_is_the_same_on_any_number_of_threads() {
    use std::num::NonZeroUsize;
    use xla_indexing_hlo::analyze_module_with_progress;
    for name in ["transformer_block", "attention", "convolutions"] {
        let m = parse_module(&read(name)).unwrap();
        for direction in [Direction::OutputToInput, Direction::InputToOutput] {
            let report = |threads: usize| {
                let options = Options {
                    direction,
                    utilization: true,
                    threads: NonZeroUsize::new(threads),
                    ..Options::default()
                };
                let mut calls = Vec::new();
                let report = analyze_module_with_progress(&m, &options, &mut |done, total| {
                    calls.push((done, total))
                })
                .unwrap();
                let total = report.computations.len();
                assert_eq!(calls, (1..=total).map(|d| (d, total)).collect::<Vec<_>>());
                report
            };
            let one = report(1);
            assert!(one.computations.len() > 1, "{name}");
            for threads in [2, 3, 7] {
                assert_eq!(
                    report(threads),
                    one,
                    "{name} {direction:?} on {threads} threads"
                );
            }
        }
    }
}

/// With several fusions failing, the error is that of the first in the module's order, on any
/// number of threads.
#[test]
fn the_first_error_in_order_is_reported_on_any_number_of_threads() {
    use std::num::NonZeroUsize;
    let mut text = String::from("HloModule m\n");
    for f in 0..6 {
        // Fusions 2 and 4 slice past the end of their parameter.
        let limit = if f == 2 || f == 4 { 9 } else { 4 };
        text += &format!(
            "f{f} {{\n  p = f32[8] parameter(0)\n  ROOT s = f32[4] slice(p), slice={{[0:{limit}]}}\n}}\n"
        );
    }
    text += "ENTRY e {\n  x = f32[8] parameter(0)\n";
    for f in 0..6 {
        text += &format!("  r{f} = f32[4] fusion(x), kind=kLoop, calls=f{f}\n");
    }
    text += "  ROOT t = (f32[4], f32[4], f32[4], f32[4], f32[4], f32[4]) tuple(r0, r1, r2, r3, r4, r5)\n}\n";
    let m = parse_module(&text).unwrap();
    let error = |threads| {
        let options = Options {
            threads: NonZeroUsize::new(threads),
            ..Options::default()
        };
        analyze_module(&m, &options).unwrap_err().to_string()
    };
    let first = error(1);
    assert!(first.starts_with("s (line 12): slice [0:9:1]"), "{first}");
    for threads in [2, 3, 6] {
        assert_eq!(error(threads), first);
    }
}
