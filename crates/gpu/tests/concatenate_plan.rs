//! The concatenate emitter's plans checked by enumeration: over every thread and step of the
//! launch, loop `k` runs exactly where the launch map's element lies within operand `k`, reads
//! that element of operand `k` and stores it at the element shifted by the operand's offset;
//! every output element is stored exactly once. And which fusions the emitter takes, as XLA.

use std::collections::HashMap;

use xla_indexing_gpu::{Device, EmitterPlan, concatenate::ConcatenatePlan, plan_module};
use xla_indexing_hlo::parse_module;

/// A module concatenating f32 operands of `sizes` along `dim` (the other dimensions `rest`,
/// inserted at `dim`), all in `layout`, with the epilogue `epilogue` (`%c` names the hero).
fn module(rest: &[i64], dim: usize, sizes: &[i64], layout: &str, epilogue: &str) -> String {
    let shape = |n: i64| {
        let mut dims = rest.to_vec();
        dims.insert(dim, n);
        let dims: Vec<String> = dims.iter().map(i64::to_string).collect();
        format!("f32[{}]{{{layout}}}", dims.join(","))
    };
    let out = shape(sizes.iter().sum());
    let mut fused = String::new();
    let mut entry = String::new();
    let mut params = Vec::new();
    for (k, &n) in sizes.iter().enumerate() {
        fused.push_str(&format!("  p{k} = {} parameter({k})\n", shape(n)));
        entry.push_str(&format!("  x{k} = {} parameter({k})\n", shape(n)));
        params.push(k);
    }
    let names = |p: &str| {
        params
            .iter()
            .map(|k| format!("{p}{k}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let root = if epilogue.is_empty() {
        format!(
            "  ROOT c = {out} concatenate({}), dimensions={{{dim}}}\n",
            names("p")
        )
    } else {
        format!(
            "  c = {out} concatenate({}), dimensions={{{dim}}}\n  ROOT r = {out} {epilogue}\n",
            names("p")
        )
    };
    format!(
        "HloModule m\n\nfused {{\n{fused}{root}}}\n\nENTRY e {{\n{entry}  ROOT f = {out} fusion({}), kind=kLoop, calls=fused\n}}\n",
        names("x")
    )
}

fn emitter(text: &str) -> EmitterPlan {
    let m = parse_module(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    plan_module(&m, &Device::h100()).unwrap()[0].emitter.clone()
}

fn plan(text: &str) -> ConcatenatePlan {
    match emitter(text) {
        EmitterPlan::Concatenate(c) => *c,
        other => panic!("not the concatenate emitter: {other:?}\n{text}"),
    }
}

/// Checks the plan of concatenating `sizes` along `dim` (see the module comment).
fn check(rest: &[i64], dim: usize, sizes: &[i64], layout: &str) {
    let text = module(rest, dim, sizes, layout, "");
    let p = plan(&text);
    assert_eq!(p.loops.len(), sizes.len());
    let unroll = p.unroll as i64;
    assert!(
        sizes.iter().all(|s| s % unroll == 0),
        "{text}: unroll {unroll}"
    );
    let mut stored: HashMap<Vec<i64>, usize> = HashMap::new();
    let points = p.launch_map.domain_points(1 << 22).unwrap();
    for (ids, syms) in &points {
        let element = p.launch_map.evaluate(ids, syms).unwrap();
        for (k, l) in p.loops.iter().enumerate() {
            let within = element[dim] < sizes[k];
            assert_eq!(
                l.read_map.contains(ids, syms),
                within,
                "{text}: loop {k} at {ids:?} {syms:?} (element {element:?})"
            );
            assert_eq!(l.write_map.contains(ids, syms), within, "{text}: loop {k}");
            if !within {
                continue;
            }
            assert_eq!(l.read_map.evaluate(ids, syms).unwrap(), element, "{text}");
            let mut written = element.clone();
            written[dim] += l.offset;
            assert_eq!(l.write_map.evaluate(ids, syms).unwrap(), written, "{text}");
            *stored.entry(written).or_default() += 1;
        }
    }
    let total: i64 = sizes.iter().sum::<i64>() * rest.iter().product::<i64>();
    assert_eq!(stored.len() as i64, total, "{text}: elements stored");
    assert!(
        stored.values().all(|&n| n == 1),
        "{text}: an element stored twice"
    );
}

#[test]
fn every_output_element_is_stored_once_from_its_operand() {
    check(&[6], 1, &[100, 28], "1,0");
    check(&[6], 1, &[28, 100, 3], "1,0");
    check(&[20], 0, &[3, 1, 7], "1,0");
    check(&[20], 0, &[3, 1, 7], "0,1");
    check(&[], 0, &[33, 31], "0");
    check(&[4, 5], 1, &[2, 9, 2, 9], "2,1,0");
    check(&[4, 5], 2, &[3, 4], "0,2,1");
    // Large enough to unroll: 4 divides every operand's length.
    check(&[512], 1, &[600, 400], "1,0");
    // 2 divides both lengths, 4 does not: the factor is 2.
    check(&[512], 1, &[602, 398], "1,0");
    // The lengths are odd: no unrolling.
    check(&[512], 1, &[601, 399], "1,0");
}

#[test]
fn the_unroll_factor_divides_every_operands_length() {
    let unroll = |sizes: &[i64]| plan(&module(&[512], 1, sizes, "1,0", "")).unroll;
    assert_eq!(unroll(&[600, 400]), 4);
    assert_eq!(unroll(&[602, 398]), 2);
    assert_eq!(unroll(&[601, 399]), 1);
}

#[test]
fn fusions_the_concatenate_emitter_takes_and_leaves() {
    // A unary epilogue keeps the concatenate the hero.
    let p = plan(&module(&[4], 1, &[3, 5], "1,0", "negate(c)"));
    assert_eq!(p.loops.iter().map(|l| l.offset).collect::<Vec<_>>(), [0, 3]);
    // An epilogue of two operands makes the root the hero: the loop emitter, silently.
    let text = module(&[4], 1, &[3, 5], "1,0", "add(c, c)");
    assert_eq!(emitter(&text), EmitterPlan::Loop { fallback: None });
    // More than four operands: the loop emitter, saying why.
    let text = module(&[4], 1, &[1, 2, 3, 4, 5], "1,0", "");
    match emitter(&text) {
        EmitterPlan::Loop {
            fallback: Some(why),
        } => assert!(why.to_string().contains("has 5 operands"), "{why}"),
        other => panic!("{other:?}"),
    }
}
