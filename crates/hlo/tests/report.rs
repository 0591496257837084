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

/// The image of `maps` in an operand of `dims`, by brute force: every point of each domain
/// that satisfies its constraints, the in-bounds results collected in a set.
fn brute_force_count(maps: &[IndexingMap], dims: &[i64]) -> u64 {
    let mut seen = std::collections::HashSet::new();
    for m in maps {
        let bounds: Vec<_> = m.all_vars().map(|v| v.bounds).collect();
        let nd = m.dims().len();
        let mut point: Vec<i64> = bounds.iter().map(|b| b.lo).collect();
        'points: loop {
            let (d, s) = point.split_at(nd);
            let holds = m
                .constraints()
                .iter()
                .all(|(e, iv)| e.eval(d, s).is_some_and(|x| iv.contains(x)));
            let tuple: Option<Vec<i64>> = m
                .results()
                .iter()
                .zip(dims)
                .map(|(e, &n)| e.eval(d, s).filter(|x| (0..n).contains(x)))
                .collect();
            if let (true, Some(t)) = (holds, tuple) {
                seen.insert(t);
            }
            for k in (0..point.len()).rev() {
                if point[k] < bounds[k].hi {
                    point[k] += 1;
                    continue 'points;
                }
                point[k] = bounds[k].lo;
            }
            break;
        }
    }
    seen.len() as u64
}

/// Utilization against brute force on random maps of small domains: results that are a
/// variable of their own (counted as a box, without enumeration), shifted or negated, and
/// results that share variables, divide them or add them (enumerated), one or two maps united,
/// with and without constraints.
#[test]
fn utilization_is_the_brute_force_image_size() {
    use xla_indexing_testkit::rng::SplitMix64;
    let mut rng = SplitMix64::new(11);
    for case in 0..600 {
        let rank = rng.range(1, 3) as usize;
        let dims: Vec<i64> = (0..rank).map(|_| rng.range(1, 7)).collect();
        let texts: Vec<String> = (0..rng.range(1, 2))
            .map(|_| {
                let nvars = rng.range(1, 3) as usize;
                let names: Vec<String> = (0..nvars).map(|i| format!("d{i}")).collect();
                let results: Vec<String> = (0..rank)
                    .map(|_| {
                        let v = rng.pick(&names).clone();
                        let w = rng.pick(&names).clone();
                        let c = rng.range(-2, 2);
                        match rng.range(0, 5) {
                            0 => format!("{v} + {c}"),
                            1 => format!("{c} - {v}"),
                            2 => format!("{v} floordiv 2"),
                            3 => format!("{v} mod 3"),
                            4 => format!("{v} + {w}"),
                            _ => format!("{c}"),
                        }
                    })
                    .collect();
                let domain: Vec<String> = names
                    .iter()
                    .map(|n| {
                        let lo = rng.range(-2, 2);
                        format!("{n} in [{lo}, {}]", lo + rng.range(0, 6))
                    })
                    .collect();
                let constraint = if rng.chance(1, 3) {
                    format!(", {} mod 2 in [0, 0]", names[0])
                } else {
                    String::new()
                };
                format!(
                    "({}) -> ({}), domain: {}{constraint}",
                    names.join(", "),
                    results.join(", "),
                    domain.join(", ")
                )
            })
            .collect();
        let maps: Vec<IndexingMap> = texts
            .iter()
            .map(|t| IndexingMap::parse(t).unwrap())
            .collect();
        let counted = utilization(&maps, &dims).unwrap().read;
        assert_eq!(
            counted,
            Some(brute_force_count(&maps, &dims)),
            "case {case}: {texts:?} in {dims:?}"
        );
    }
}
