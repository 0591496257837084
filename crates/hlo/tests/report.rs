//! Utilization counts and the JSON and text forms of a report.

mod common;

use common::parse;
use xla_indexing_core::IndexingMap;
use xla_indexing_hlo::utilization::utilization;
use xla_indexing_hlo::{Direction, HloError, Options, analyze_module};

fn count(maps: &[&str], dims: &[i64]) -> Option<u64> {
    let maps: Vec<IndexingMap> = maps
        .iter()
        .map(|m| IndexingMap::parse(m).unwrap())
        .collect();
    utilization(&maps, dims).unwrap().read
}

#[test]
fn utilization_is_the_exact_image_size() {
    // A strided slice reads every other element.
    assert_eq!(
        count(&["(d0) -> (d0 * 2), domain: d0 in [0, 4]"], &[10]),
        Some(5)
    );
    // A pad's operand map reaches every element once.
    assert_eq!(
        count(
            &[
                "(d0, d1) -> ((d0 - 1) floordiv 2, d1 - 4), domain: d0 in [1, 7], d1 in [4, 7], (d0 - 1) mod 2 in [0, 0]"
            ],
            &[4, 4]
        ),
        Some(16)
    );
    // Two maps of one operand are united: the diagonal is not counted twice.
    assert_eq!(
        count(
            &[
                "(d0) -> (d0, d0), domain: d0 in [0, 9]",
                "(d0) -> (d0, 9 - d0), domain: d0 in [0, 9]"
            ],
            &[10, 10]
        ),
        Some(20)
    );
    // Reads outside the operand (a dynamic update's unguarded offset) are not counted.
    assert_eq!(
        count(
            &["(d0){rt0} -> (d0 - rt0), domain: d0 in [0, 9], rt0 in [0, 6]"],
            &[4]
        ),
        Some(4)
    );
    // Independent groups multiply: a reduction reads all of a large operand without enumerating it.
    assert_eq!(
        count(
            &["(d0)[s0] -> (s0, d0), domain: d0 in [0, 99999], s0 in [0, 9999]"],
            &[10000, 100000]
        ),
        Some(1_000_000_000)
    );
    assert_eq!(count(&["(d0) -> (0), domain: d0 in [0, 9]"], &[5]), Some(1));
    assert_eq!(count(&[], &[5]), Some(0));
}

const MODULE: &str = r#"
HloModule m
f {
  p0 = f32[10,20] parameter(0)
  of1 = s32[] parameter(1)
  t = f32[20,10] transpose(p0), dimensions={1,0}
  ROOT d = f32[4,10] dynamic-slice(t, of1, of1), dynamic_slice_sizes={4,10}
}
ENTRY e {
  x = f32[10,20] parameter(0)
  i = s32[] parameter(1)
  ROOT y = f32[4,10] fusion(x, i), kind=kLoop, calls=f
}
"#;

#[test]
fn json_has_the_documented_shape() {
    let m = parse(MODULE);
    let options = Options {
        utilization: true,
        ..Options::default()
    };
    let json = analyze_module(&m, &options).unwrap().to_json();
    let expected = serde_json::json!({
        "computations": [{"name": "f", "direction": "out2in", "outputs": [{"output": 0, "shape": [4, 10], "operands": [
            {"operand": 0, "shape": [10, 20],
             "maps": ["(d0, d1){rt0} -> (d1, d0 + rt0), domain: d0 in [0, 3], d1 in [0, 9], rt0 in [0, 16]"],
             "runtime_vars": [{"var": "rt0", "instruction": "of1", "map": "(d0, d1) -> (), domain: d0 in [0, 3], d1 in [0, 9]", "for_map": 0}],
             "utilization": {"read": 200, "total": 200}},
            {"operand": 1, "shape": [],
             "maps": ["(d0, d1) -> (), domain: d0 in [0, 3], d1 in [0, 9]"],
             "utilization": {"read": 1, "total": 1}}]}]}],
        "unsupported": []
    });
    assert_eq!(json, expected, "{json:#}");
}

#[test]
fn text_has_one_block_per_output_and_operand() {
    let m = parse(MODULE);
    let options = Options {
        utilization: true,
        direction: Direction::OutputToInput,
        ..Options::default()
    };
    let text = analyze_module(&m, &options).unwrap().to_text();
    let expected = "\
f (out2in): output 0 f32[4,10] -> operand 0 f32[10,20]
  (d0, d1){rt0} -> (d1, d0 + rt0), domain: d0 in [0, 3], d1 in [0, 9], rt0 in [0, 16]
    rt0: of1 at (d0, d1) -> (), domain: d0 in [0, 3], d1 in [0, 9]
  utilization: 200 of 200 elements (100.0%)

f (out2in): output 0 f32[4,10] -> operand 1 s32[]
  (d0, d1) -> (), domain: d0 in [0, 3], d1 in [0, 9]
  utilization: 1 of 1 elements (100.0%)

";
    assert_eq!(text, expected);
}

#[test]
fn input_to_output_swaps_the_roles() {
    let m = parse(MODULE);
    let options = Options {
        direction: Direction::InputToOutput,
        ..Options::default()
    };
    let json = analyze_module(&m, &options).unwrap().to_json();
    let c = &json["computations"][0];
    assert_eq!(c["direction"], "in2out");
    assert_eq!(c["outputs"][0]["output"], 0);
    assert_eq!(c["outputs"][0]["shape"], serde_json::json!([10, 20]));
    assert_eq!(
        c["outputs"][0]["operands"][0]["shape"],
        serde_json::json!([4, 10])
    );
    assert!(
        c["outputs"][0]["operands"][0]["undefined"]
            .as_str()
            .unwrap()
            .contains("dynamic-slice")
    );
}

#[test]
fn usage_errors() {
    let m = parse(MODULE);
    for options in [
        Options {
            computation: Some("nope".into()),
            ..Options::default()
        },
        Options {
            instruction: Some("nope".into()),
            ..Options::default()
        },
    ] {
        let e = analyze_module(&m, &options).unwrap_err();
        assert!(matches!(e, HloError::Usage(_)), "{e}");
    }
}
