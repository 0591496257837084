//! Tensor Comprehensions range inference: every example of the seed, errors, and brute force.

use std::collections::BTreeMap;

use serde_json::{Value, json};
use xla_indexing_loops::tc::ast::Ex;
use xla_indexing_loops::{ErrorKind, tc};
use xla_indexing_testkit::rng::SplitMix64;

fn infer(text: &str, sizes: &[(&str, i64)]) -> tc::RangeReport {
    let sizes: BTreeMap<String, i64> = sizes.iter().map(|(k, v)| (k.to_string(), *v)).collect();
    tc::infer(&tc::parse(text).expect("parses"), &sizes).expect("infers")
}

fn json_of(text: &str, sizes: &[(&str, i64)]) -> Value {
    infer(text, sizes).to_json()
}

fn error_of(text: &str) -> xla_indexing_loops::LoopsError {
    tc::parse(text)
        .and_then(|p| tc::infer(&p, &BTreeMap::new()))
        .expect_err("must fail")
}

#[test]
fn reverted_indexing_as_documented() {
    // The seed prints `9 - I <= i < 11`, a slip: B(10 - i) is in bounds exactly for 11 - I <= i <= 10.
    let text = "def reverted(float(I) B) -> A { A(i) = B(10 - i) }";
    assert_eq!(
        json_of(text, &[]),
        json!({"ranges": {"i": ["11 - I", "10"]}, "sizes": {"A": ["I"]}, "warnings": []})
    );
    assert_eq!(
        json_of(text, &[("I", 128)]),
        json!({"ranges": {"i": ["-117", "10"]}, "sizes": {"A": ["128"]}, "warnings": []})
    );
}

#[test]
fn seed_examples() {
    let report = json_of(include_str!("../../../examples/tc/seed.tc"), &[]);
    let d = &report["defs"];
    assert_eq!(d["stencil"]["ranges"], json!({"i": ["2", "N - 1"]}));
    assert_eq!(d["stencil"]["sizes"], json!({"A": ["N - 2"]}));
    assert_eq!(d["stencil"]["warnings"].as_array().map(Vec::len), Some(1));
    assert_eq!(
        d["matmul"]["ranges"],
        json!({"m": ["0", "M - 1"], "n": ["0", "N - 1"], "r_k": ["0", "K - 1"]})
    );
    assert_eq!(d["matmul"]["sizes"], json!({"C": ["M", "N"]}));
    assert_eq!(
        d["convolution"]["ranges"],
        json!({"i": ["0", "N - W"], "k": ["0", "W - 1"]})
    );
    assert_eq!(d["convolution"]["sizes"], json!({"A": ["N - W + 1"]}));
    assert_eq!(
        d["preconditions"]["ranges"],
        json!({"i": ["0", "I - 1"], "j": ["0", "J - 1"]})
    );
    let w = d["preconditions"]["warnings"].to_string();
    assert!(w.contains("C(i + j)"), "{w}");
    assert!(d["lut"]["warnings"].to_string().contains("B(C(i))"));
    assert_eq!(d["lut_clamped"]["warnings"], json!([]));
    assert_eq!(d["reverted"]["ranges"], json!({"i": ["11 - I", "10"]}));
    // 0 <= i < (I+1)/2
    assert_eq!(
        d["subsample_2"]["ranges"],
        json!({"i": ["0", "(I + 1) floordiv 2 - 1"]})
    );
    // 0 <= i < I/2, unrolled or with `where k in 0:2`
    assert_eq!(
        d["average_pool_2"]["ranges"],
        json!({"i": ["0", "I floordiv 2 - 1"]})
    );
    assert_eq!(
        d["average_pool_2_where"]["ranges"],
        json!({"i": ["0", "I floordiv 2 - 1"], "k": ["0", "1"]})
    );
    assert_eq!(d["constant_fill"]["ranges"], json!({"i": ["0", "N - 1"]}));
    assert_eq!(d["constant_fill"]["sizes"], json!({"B": ["N"]}));
}

#[test]
fn preconditions_are_proven_when_sizes_are_known() {
    let text =
        "def p(float(I) B, float(K) C, float(J) D) -> (A) { A(i, j) = B(i) * C(i + j) * D(j) }";
    let ok = json_of(text, &[("I", 4), ("J", 5), ("K", 8)]);
    assert_eq!(ok["warnings"], json!([]));
    let short = json_of(text, &[("I", 4), ("J", 5), ("K", 7)]);
    assert_eq!(short["warnings"].as_array().map(Vec::len), Some(1));
    // Data-dependent indices stay unproven.
    let lut = json_of(
        "def lut(float(J) B, float(I) C) -> A { A(i) = B(C(i)) }",
        &[("I", 4), ("J", 4)],
    );
    assert_eq!(lut["warnings"].as_array().map(Vec::len), Some(1));
}

#[test]
fn numeric_sizes_and_maps() {
    let r = infer(
        "def conv(float(N) B, float(W) K) -> (A) { A(i) += B(i + k) * K(k) }",
        &[("N", 10), ("W", 3)],
    );
    let s = &r.defs[0].stmts[0];
    assert_eq!(
        s.ranges,
        vec![
            ("i".into(), "0".into(), "7".into()),
            ("k".into(), "0".into(), "2".into())
        ]
    );
    let expected = xla_indexing_core::IndexingMap::parse(
        "(d0)[s0] -> (d0 + s0), domain: d0 in [0, 7], s0 in [0, 2]",
    )
    .unwrap();
    assert_eq!(
        xla_indexing_core::IndexingMap::parse(&s.maps[0].1).unwrap(),
        expected
    );
    assert!(r.to_text().contains("i in [0, 7]"));
}

#[test]
fn several_statements_qualify_range_keys() {
    let j = json_of(
        "def two(float(N) X) -> (Y, Z) {\n  Y(i) = X(i)\n  Z(i) = Y(i + 1)\n}",
        &[],
    );
    assert_eq!(
        j["ranges"],
        json!({"i@1": ["0", "N - 1"], "i@2": ["-1", "N - 2"]})
    );
    assert_eq!(j["sizes"], json!({"Y": ["N"], "Z": ["N"]}));
}

#[test]
fn size_names_come_from_the_parameter_types() {
    let program = tc::parse(include_str!("../../../examples/tc/seed.tc")).expect("parses");
    let names: Vec<&str> = program.size_names().into_iter().collect();
    assert_eq!(names, ["I", "J", "K", "M", "N", "W"]);
}

#[test]
fn errors_and_bad_input() {
    let e = error_of(include_str!("../../../examples/tc/dynamic_stride.tc"));
    assert_eq!((e.kind, e.line), (ErrorKind::Semantic, 3));
    assert!(e.message.contains("where i in"), "{}", e.message);
    let e = error_of("def amb(float(N) B) -> (A) { A(i) += B(i + k) }");
    assert!(e.message.contains("ambiguous"), "{}", e.message);
    let e = error_of("def w(float(N) B) -> (A) { A(i) = B(i + k) where k in 0:4, k in 6:8 }");
    assert!(e.message.contains("contradictory"), "{}", e.message);
    let e = error_of("def u(float(N) B) -> (A) { A(i) = Q(i) }");
    assert_eq!(e.kind, ErrorKind::Semantic);
    assert!(e.message.contains("unknown tensor"), "{}", e.message);
    let e = error_of("def s(float(N) B) -> (A) {\n  A(i) = B(i +)\n}");
    assert_eq!((e.kind, e.line, e.column), (ErrorKind::Parse, 2, 15));
    for bad in [
        "",
        "def",
        "def f(",
        "def f(float(N) B) -> (A) { A(i) = B(i) where }",
        "def f(float(-1) B) -> A {}",
        "def f() -> A { A(i) = 9999999999999999999999 }",
    ] {
        assert_eq!(error_of(bad).kind, ErrorKind::Parse, "{bad}");
    }
}

/// Evaluates an index expression at a point (`None` for data-dependent values).
fn eval(e: &Ex, env: &BTreeMap<String, i64>) -> Option<i64> {
    match e {
        Ex::Int(v) => Some(*v),
        Ex::Name(n, _) => env.get(n).copied(),
        Ex::Unary("-", a) => Some(-eval(a, env)?),
        Ex::Binary(op, a, b) => {
            let (x, y) = (eval(a, env)?, eval(b, env)?);
            match *op {
                "+" => Some(x + y),
                "-" => Some(x - y),
                "*" => Some(x * y),
                "/" => Some(x.div_euclid(y) - i64::from(y < 0 && x.rem_euclid(y) != 0)),
                _ => None,
            }
        }
        _ => None,
    }
}

/// Random one-statement programs `A(i) += B(a*i + b*k + c) * K(k)` and
/// `A(i) = B((a*i + c)/d)`: every access is in bounds over the inferred ranges, and widening any
/// range by one reads out of bounds.
#[test]
fn brute_force_ranges_are_safe_and_maximal() {
    let mut rng = SplitMix64::new(7);
    for _ in 0..300 {
        let (n, w) = (rng.range(1, 12), rng.range(1, 4));
        let (a, b, c, d) = (
            *rng.pick(&[-3, -2, -1, 1, 2, 3]),
            *rng.pick(&[-1, 1, 2]),
            rng.range(-4, 4),
            rng.range(1, 3),
        );
        let text = if rng.chance(1, 2) {
            format!(
                "def r(float(N) B, float(W) K) -> (A) {{ A(i) += B({a}*i + {b}*k + {c}) * K(k) }}"
            )
        } else {
            format!("def r(float(N) B) -> (A) {{ A(i) = B(({a}*i + {c})/{d}) }}")
        };
        let program = tc::parse(&text).unwrap();
        let sizes: BTreeMap<String, i64> = [("N".to_string(), n), ("W".to_string(), w)].into();
        let report = tc::infer(&program, &sizes).unwrap();
        let ranges: Vec<(String, i64, i64)> = report.defs[0].stmts[0]
            .ranges
            .iter()
            .map(|(v, lo, hi)| (v.clone(), lo.parse().unwrap(), hi.parse().unwrap()))
            .collect();
        let accesses: Vec<(i64, &Ex)> = match &program.defs[0].stmts[0].rhs {
            Ex::Binary("*", x, y) => vec![(n, x.as_ref()), (w, y.as_ref())],
            x => vec![(n, x)],
        };
        let in_bounds = |env: &BTreeMap<String, i64>| {
            accesses.iter().all(|(size, acc)| {
                let Ex::Call { args, .. } = acc else {
                    panic!("an access")
                };
                let v = eval(&args[0], env).unwrap();
                0 <= v && v < *size
            })
        };
        let all_points = |ranges: &[(String, i64, i64)]| {
            let mut points = vec![BTreeMap::new()];
            for (v, lo, hi) in ranges {
                points = points
                    .into_iter()
                    .flat_map(|p| {
                        (*lo..=*hi).map(move |x| {
                            let mut q = p.clone();
                            q.insert(v.clone(), x);
                            q
                        })
                    })
                    .collect();
            }
            points
        };
        assert!(
            all_points(&ranges).iter().all(in_bounds),
            "{text} N={n} W={w}: {ranges:?}"
        );
        if ranges.iter().any(|(_, lo, hi)| lo > hi) {
            continue;
        }
        for k in 0..ranges.len() {
            for (dlo, dhi) in [(-1, 0), (0, 1)] {
                let mut wider = ranges.clone();
                wider[k].1 += dlo;
                wider[k].2 += dhi;
                assert!(
                    !all_points(&wider).iter().all(in_bounds),
                    "{text} N={n} W={w}: {ranges:?} is not maximal"
                );
            }
        }
    }
}
