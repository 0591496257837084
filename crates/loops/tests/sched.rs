//! TVM bound inference: the seed's schedules, bad input, and a brute-force simulation of the loop
//! nest against the realized regions.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::json;
use xla_indexing_loops::sched::{self, BoundsReport};
use xla_indexing_loops::{ErrorKind, LoopsError};
use xla_indexing_testkit::rng::SplitMix64;

fn report(text: &str) -> BoundsReport {
    let r = sched::infer_bounds(&sched::parse(text).expect("parses")).expect("infers");
    brute_force(&r);
    r
}

fn error_of(text: &str) -> LoopsError {
    sched::parse(text)
        .and_then(|s| sched::infer_bounds(&s))
        .expect_err("must fail")
}

const CD: &str = "C = tvm.compute((5, 16), lambda i, j : tvm.const(5, \"int32\"), name='C')\n\
                  D = tvm.compute((5, 16), lambda i, j : C[i, j]*2, name='D')\n\
                  s = tvm.create_schedule(D.op)\n";

#[test]
fn examples_1_to_3_attach_points() {
    let r = report(CD).to_json();
    assert_eq!(
        r["stages"]["C"]["realize"],
        json!([{"min": "0", "extent": "5"}, {"min": "0", "extent": "16"}])
    );
    let r = report(&format!("{CD}s[C].compute_at(s[D], D.op.axis[1])\n")).to_json();
    assert_eq!(
        r["stages"]["C"]["realize"],
        json!([{"min": "i", "extent": "1"}, {"min": "j", "extent": "1"}])
    );
    assert_eq!(r["stages"]["C"]["attach_path"], json!(["i", "j"]));
    let r = report(&format!("{CD}s[C].compute_at(s[D], D.op.axis[0])\n")).to_json();
    assert_eq!(
        r["stages"]["C"]["realize"],
        json!([{"min": "i", "extent": "1"}, {"min": "0", "extent": "16"}])
    );
}

#[test]
fn example_4_keeps_trivial_loops() {
    let r = report(include_str!("../../../examples/sched/compute_at_dk.sched"));
    assert_eq!(
        r.to_json()["stages"]["C"]["attach_path"],
        json!(["di", "dj", "dk"])
    );
    let text = r.to_text().expect("prints");
    for line in [
        "for (dk, 0, 16) {",
        "realize C([dj, 1], [dk, 1]) {",
        "for (i, 0, 1) {",
        "C(i + dj, j + dk) = 5",
        "D(di, dj, dk) = C(dj, dk) * 2",
    ] {
        assert!(text.contains(line), "{line} missing in\n{text}");
    }
}

#[test]
fn example_5_split_then_compute_at() {
    let r = report(&format!(
        "{CD}d_o, d_i = s[D].split(D.op.axis[1], factor=8)\ns[C].compute_at(s[D], d_i)\n"
    ))
    .to_json();
    assert_eq!(
        r["stages"]["C"]["attach_path"],
        json!(["i", "j.outer", "j.inner"])
    );
    assert_eq!(
        r["stages"]["C"]["realize"],
        json!([{"min": "i", "extent": "1"}, {"min": "j.outer * 8 + j.inner", "extent": "1"}])
    );
    assert_eq!(
        r["stages"]["D"]["itervars"]["j.inner"],
        json!({"min": "0", "extent": "8"})
    );
}

#[test]
fn attach_paths_through_two_stages_and_relaxation() {
    let r = report(include_str!("../../../examples/sched/chain.sched")).to_json();
    assert_eq!(
        r["stages"]["C"]["attach_path"],
        json!(["ei", "ej", "di", "dj"])
    );
    assert_eq!(r["stages"]["D"]["attach_path"], json!(["ei", "ej"]));
    // C not attached, D at E's j: C is needed in full (D's attach path is relaxed).
    let text = include_str!("../../../examples/sched/chain.sched")
        .replace("s[C].compute_at(s[D], D.op.axis[1])\n", "");
    let r = report(&text).to_json();
    assert_eq!(
        r["stages"]["C"]["realize"],
        json!([{"min": "0", "extent": "5"}, {"min": "0", "extent": "16"}])
    );
    assert_eq!(
        r["stages"]["D"]["realize"],
        json!([{"min": "ei", "extent": "1"}, {"min": "ej", "extent": "1"}])
    );
}

#[test]
fn example_6_fuse_then_split_needs_one_row() {
    let r = report(include_str!("../../../examples/sched/fuse_split.sched"));
    let b = &r.to_json()["stages"]["B"];
    // TVM computes all 16 elements of B per outer iteration; one row is needed.
    assert_eq!(
        b["realize"],
        json!([{"min": "ci.cj.fused.outer", "extent": "1"}, {"min": "0", "extent": "4"}])
    );
    assert_eq!(b["attach_path"], json!(["ci.cj.fused.outer"]));
    assert_eq!(b["exact"], json!(null));
    let c = &r.to_json()["stages"]["C"]["itervars"];
    assert_eq!(c["ci.cj.fused"], json!({"min": "0", "extent": "16"}));
    assert_eq!(c["ci.cj.fused.inner"], json!({"min": "0", "extent": "4"}));
}

#[test]
fn example_6_with_factor_3_is_not_a_box() {
    let r = report(include_str!("../../../examples/sched/fuse_split_3.sched"));
    let j = r.to_json();
    let exact = j["stages"]["B"]["exact"].as_str().expect("an exact map");
    // Compared as simplified maps: the simplifier may pick another form of the same function.
    let mut expected = xla_indexing_core::IndexingMap::parse(
        "(d0)[s0] -> ((d0 * 3 + s0) floordiv 4, (d0 * 3 + s0) mod 4), domain: d0 in [0, 5], s0 in [0, 2], d0 * 3 + s0 in [0, 15]",
    )
    .unwrap();
    expected.simplify();
    assert_eq!(
        xla_indexing_core::IndexingMap::parse(exact).unwrap(),
        expected
    );
    assert_eq!(
        j["stages"]["B"]["realize"][0]["min"],
        json!("(ci.cj.fused.outer * 3) floordiv 4")
    );
    // The split does not divide 16: the inner loop is tightened.
    assert_eq!(
        j["stages"]["C"]["itervars"]["ci.cj.fused.inner"]["extent"],
        json!("min(3, 16 - ci.cj.fused.outer * 3)")
    );
}

#[test]
fn reductions_and_nparts() {
    let r = report(
        "A = placeholder((8, 6), name='A')\n\
         k = reduce_axis((0, 6), name='k')\n\
         B = compute((8,), lambda i: sum(A[i, k] * 2, axis=k), name='B')\n\
         C = compute((8,), lambda c: B[c] + 1, name='C')\n\
         s = create_schedule(C)\n\
         o, n = s[C].split(C.op.axis[0], nparts=3)\n\
         s[B].compute_at(s[C], o)\n",
    );
    let j = r.to_json();
    assert_eq!(
        j["stages"]["C"]["itervars"]["c.outer"],
        json!({"min": "0", "extent": "3"})
    );
    assert_eq!(
        j["stages"]["B"]["itervars"]["k"],
        json!({"min": "0", "extent": "6"})
    );
    assert_eq!(
        j["stages"]["B"]["realize"],
        json!([{"min": "c.outer * 3", "extent": "min(3, 8 - c.outer * 3)"}])
    );
    assert!(
        r.to_text()
            .expect("prints")
            .contains("B(i + c.outer * 3) = 0"),
        "{}",
        r.to_text().expect("prints")
    );
}

#[test]
fn bad_input() {
    let e = error_of("A = placeholder((4, 4)\nB = 1\n");
    assert_eq!(e.kind, ErrorKind::Parse);
    let e = error_of("A = placeholder((4, 4))\nB = compute((4, 4), lambda i, j: A[i, j] $ 2)\n");
    assert_eq!((e.kind, e.line, e.column), (ErrorKind::Parse, 2, 42));
    let e = error_of(
        "A = placeholder((4,))\nB = compute((4,), lambda i: Q[i])\ns = create_schedule(B)\n",
    );
    assert_eq!(e.kind, ErrorKind::Semantic);
    assert!(e.message.contains("unknown name `Q`"), "{}", e.message);
    let e = error_of(&format!(
        "{CD}o, i = s[D].split(D.op.axis[1], 4)\np, q = s[D].split(D.op.axis[1], 2)\n"
    ));
    assert!(e.message.contains("already split"), "{}", e.message);
    assert_eq!(e.line, 5);
    let e = error_of(&format!(
        "{CD}E = tvm.compute((5, 16), lambda i, j: D[i, j], name='E')\ns[C].compute_at(s[D], D.op.axis[1])\ns[D].compute_at(s[C], C.op.axis[1])\n"
    ));
    assert!(e.message.contains("cycle"), "{}", e.message);
    for bad in [
        "x = 1\n",
        "A = placeholder((0, 4))\ns = create_schedule(A)\n",
        "s = create_schedule(C)\n",
    ] {
        assert!(
            matches!(error_of(bad).kind, ErrorKind::Semantic | ErrorKind::Parse),
            "{bad}"
        );
    }
}

#[test]
fn text_that_is_no_schedule_is_a_syntax_error() {
    for (text, line, column) in [
        ("", 1, 1),
        ("# a comment\n\n", 3, 1),
        ("xxxxxxxx\n", 1, 1),
        ("import tvm\n42\n", 2, 1),
        ("A = placeholder((4,))\nA.op\n", 2, 1),
    ] {
        let e = error_of(text);
        assert_eq!(
            (e.kind, e.line, e.column),
            (ErrorKind::Parse, line, column),
            "{text:?}: {e}"
        );
    }
}

/// `n` stages `B0 .. B{n-1}` of 4 elements in a chain, the last one the output.
fn chain(n: usize) -> String {
    let mut text = String::from("A = placeholder((4,), name='A')\n");
    let mut prev = "A".to_string();
    for k in 0..n {
        text.push_str(&format!(
            "B{k} = compute((4,), lambda i: {prev}[i] + 2, name='B{k}')\n"
        ));
        prev = format!("B{k}");
    }
    text + &format!("s = create_schedule({prev}.op)\n")
}

#[test]
fn a_long_chain_prints_as_json_and_mlir_but_not_as_nested_text() {
    let r = report(&chain(1100));
    assert_eq!(
        r.to_json()["stages"].as_object().map(|o| o.len()),
        Some(1100)
    );
    assert!(
        r.to_mlir()
            .expect("flat")
            .contains("%B1098 = memref.alloc() : memref<4xf32>")
    );
    let e = r.to_text().expect_err("1100 nested realize blocks");
    assert_eq!((e.kind, e.line), (ErrorKind::Semantic, 0));
    assert!(
        e.message.contains("more than 1024 blocks deep"),
        "{}",
        e.message
    );
    assert!(report(&chain(1000)).to_text().is_ok());
}

#[test]
fn compute_at_nesting_and_loops_per_stage_are_limited() {
    // B_k computed at B_{k+1}'s loop: B0 is nested in n - 1 stages.
    let nested = |n: usize| {
        let mut text = chain(n);
        for k in 0..n - 1 {
            text.push_str(&format!(
                "s[B{k}].compute_at(s[B{}], B{}.op.axis[0])\n",
                k + 1,
                k + 1
            ));
        }
        text
    };
    report(&nested(33));
    let e = error_of(&nested(34));
    assert_eq!((e.kind, e.line), (ErrorKind::Semantic, 2));
    assert_eq!(
        e.message,
        "`B0` is nested in more than 32 stages through compute_at (the limit)"
    );
    // Attached in the other order, each call sees a short chain; the total is checked at the end.
    let mut text = chain(40);
    for k in (0..39).rev() {
        text.push_str(&format!(
            "s[B{k}].compute_at(s[B{}], B{}.op.axis[0])\n",
            k + 1,
            k + 1
        ));
    }
    assert!(error_of(&text).message.contains("more than 32 stages"));
    // 31 splits make 1 + 62 variables; the 32nd would make 65.
    let mut text = String::from(
        "A = placeholder((4,))\nB = compute((4,), lambda i: A[i])\ns = create_schedule(B)\nx = B.op.axis[0]\n",
    );
    for _ in 0..31 {
        text.push_str("o, x = s[B].split(x, 2)\n");
    }
    report(&text);
    text.push_str("o, x = s[B].split(x, 2)\n");
    let e = error_of(&text);
    assert_eq!((e.kind, e.line), (ErrorKind::Semantic, 36));
    assert!(
        e.message.contains("more than 64 iteration variables"),
        "{}",
        e.message
    );
}

/// Runs the loop nest: every loop at the extents the report gives, every consumer's read of a
/// producer checked against the producer's realized region at that iteration, which must equal
/// what is read there unless `exact` is given (then it must only cover it).
fn brute_force(r: &BoundsReport) {
    let s = &r.schedule;
    let consumers = s.consumers();
    for (p, stage) in s.stages.iter().enumerate() {
        let Some(pb) = &r.bounds.stages[p] else {
            continue;
        };
        let mut needed: BTreeMap<Vec<i64>, BTreeSet<Vec<i64>>> = BTreeMap::new();
        for &c in &consumers[p] {
            let cb = r.bounds.stages[c].as_ref().unwrap();
            let loops: Vec<usize> = cb
                .attach_path
                .iter()
                .chain(&s.stages[c].leaves)
                .copied()
                .collect();
            let mut env = vec![0i64; s.itervars.len()];
            visit(r, &loops, 0, &mut env, &mut |env| {
                let values: Vec<i64> = (0..s.itervars.len())
                    .map(|v| {
                        cb.root_value
                            .get(&v)
                            .map_or(env[v], |e| e.eval(env, &[]).unwrap())
                    })
                    .collect();
                for idx in s.reads(c, p) {
                    let element: Vec<i64> =
                        idx.iter().map(|e| e.eval(&values, &[]).unwrap()).collect();
                    for (d, x) in element.iter().enumerate() {
                        assert!(
                            (0..stage.shape[d]).contains(x),
                            "{} reads {} out of bounds",
                            s.stages[c].name,
                            stage.name
                        );
                    }
                    let key: Vec<i64> = pb.attach_path.iter().map(|v| env[*v]).collect();
                    let region: Vec<(i64, i64)> = pb
                        .realize(s, p)
                        .map(|(lo, ext)| (lo.eval(env, &[]).unwrap(), ext.eval(env, &[]).unwrap()))
                        .collect();
                    for ((lo, ext), x) in region.iter().zip(&element) {
                        assert!(
                            *lo <= *x && *x < lo + ext,
                            "{}: element {element:?} outside the realized region {region:?}",
                            stage.name
                        );
                    }
                    needed.entry(key).or_default().insert(element);
                }
            });
        }
        if pb.exact.is_empty() {
            for (key, els) in &needed {
                let mut env = vec![0i64; s.itervars.len()];
                for (v, x) in pb.attach_path.iter().zip(key) {
                    env[*v] = *x;
                }
                let volume: i64 = pb
                    .realize(s, p)
                    .map(|(_, ext)| ext.eval(&env, &[]).unwrap())
                    .product();
                assert_eq!(
                    volume,
                    els.len() as i64,
                    "{}: the region at {key:?} holds more than is read",
                    stage.name
                );
            }
        }
    }
}

fn visit(
    r: &BoundsReport,
    loops: &[usize],
    k: usize,
    env: &mut Vec<i64>,
    f: &mut dyn FnMut(&[i64]),
) {
    let Some(&v) = loops.get(k) else {
        f(env);
        return;
    };
    let owner = r.schedule.itervars[v].stage;
    let ext = r.bounds.stages[owner].as_ref().unwrap().ranges[&v]
        .1
        .eval(env, &[])
        .unwrap();
    for x in 0..ext {
        env[v] = x;
        visit(r, loops, k + 1, env, f);
    }
}

/// Random two-stage schedules: fuse or not, split by a random factor, compute the producer at a
/// random loop of the consumer, read it straight, transposed or shifted.
#[test]
fn brute_force_random_schedules() {
    let mut rng = SplitMix64::new(11);
    for _ in 0..150 {
        let (n, m) = (rng.range(1, 6), rng.range(1, 6));
        let read = match rng.range(0, 2) {
            0 => "B[ci, cj]".to_string(),
            1 if n == m => "B[cj, ci]".to_string(),
            _ => format!("B[ci, cj] + B[ci, (cj + 1) % {m}]"),
        };
        let mut text = format!(
            "A = placeholder(({n}, {m}), name='A')\nB = compute(({n}, {m}), lambda bi, bj: A[bi, bj] + 2, name='B')\nC = compute(({n}, {m}), lambda ci, cj: {read}, name='C')\ns = create_schedule(C)\n"
        );
        let fused = rng.chance(1, 2);
        let mut leaves = if fused {
            text.push_str("f = s[C].fuse(C.op.axis[0], C.op.axis[1])\n");
            vec!["f"]
        } else {
            text.push_str("a0 = C.op.axis[0]\na1 = C.op.axis[1]\n");
            vec!["a0", "a1"]
        };
        if rng.chance(2, 3) {
            let at = rng.range(0, leaves.len() as i64 - 1) as usize;
            text.push_str(&format!(
                "xo, xi = s[C].split({}, {})\n",
                leaves[at],
                rng.range(1, 7)
            ));
            leaves.splice(at..=at, ["xo", "xi"]);
        }
        if rng.chance(3, 4) {
            text.push_str(&format!("s[B].compute_at(s[C], {})\n", rng.pick(&leaves)));
        }
        let r = sched::infer_bounds(&sched::parse(&text).unwrap())
            .unwrap_or_else(|e| panic!("{e}\n{text}"));
        brute_force(&r);
    }
}
