//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod loop_reference;
pub mod reference;

use reference::Index;
use std::collections::BTreeSet;

use xla_indexing_core::IndexingMap;
use xla_indexing_hlo::fusion::MapSet;
use xla_indexing_hlo::{Direction, Module, Options, Report, analyze_module, parse_module};

/// Reducers the snippets name in `to_apply=`.
const REDUCERS: &str = r#"
max {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] maximum(a, b)
}
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
argmax {
  a = f32[] parameter(0)
  ai = s32[] parameter(1)
  b = f32[] parameter(2)
  bi = s32[] parameter(3)
  m = f32[] maximum(a, b)
  mi = s32[] maximum(ai, bi)
  ROOT t = (f32[], s32[]) tuple(m, mi)
}
less {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT lt = pred[] compare(a, b), direction=LT
}
less_by_key {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ai = s32[] parameter(2)
  bi = s32[] parameter(3)
  ROOT lt = pred[] compare(a, b), direction=LT
}
less_by_second {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ai = s32[] parameter(2)
  bi = s32[] parameter(3)
  ROOT lt = pred[] compare(ai, bi), direction=LT
}
replace {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT r = f32[] copy(b)
}
argmax_select {
  a = f32[] parameter(0)
  ai = s32[] parameter(1)
  b = f32[] parameter(2)
  bi = s32[] parameter(3)
  gt = pred[] compare(a, b), direction=GT
  m = f32[] select(gt, a, b)
  mi = s32[] select(gt, ai, bi)
  ROOT t = (f32[], s32[]) tuple(m, mi)
}
cumsum {
  x = f32[] parameter(0)
  c = f32[] parameter(1)
  s = f32[] add(x, c)
  ROOT t = (f32[], f32[]) tuple(s, s)
}
delay {
  x = f32[] parameter(0)
  c0 = f32[] parameter(1)
  c1 = f32[] parameter(2)
  ROOT t = (f32[], f32[], f32[]) tuple(c0, c1, x)
}
apart {
  x = f32[] parameter(0)
  c = f32[] parameter(1)
  n = f32[] negate(x)
  s = f32[] add(c, x)
  ROOT t = (f32[], f32[]) tuple(n, s)
}
swap {
  x = f32[] parameter(0)
  c0 = f32[] parameter(1)
  c1 = f32[] parameter(2)
  o = f32[] add(c0, x)
  ROOT t = (f32[], f32[], f32[]) tuple(o, c1, c0)
}
add_pair {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  c = f32[] parameter(2)
  s = f32[] add(x, c)
  ROOT t = (f32[], f32[]) tuple(y, s)
}
twice {
  x = f32[] parameter(0)
  c0 = f32[] parameter(1)
  c1 = f32[] parameter(2)
  o = f32[] add(c0, c1)
  ROOT t = (f32[], f32[], f32[]) tuple(o, x, x)
}
lexicographic {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ai = s32[] parameter(2)
  bi = s32[] parameter(3)
  lt = pred[] compare(a, b), direction=LT
  eq = pred[] compare(a, b), direction=EQ
  lti = pred[] compare(ai, bi), direction=LT
  tie = pred[] and(eq, lti)
  ROOT r = pred[] or(lt, tie)
}
"#;

/// Completes a seed snippet (instructions only) into a module whose entry holds it.
pub fn module_text(snippet: &str) -> String {
    format!("HloModule test\n{REDUCERS}\nENTRY main {{\n{snippet}\n}}\n")
}

pub fn parse(text: &str) -> Module {
    parse_module(text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// The report of one instruction of a snippet module.
pub fn instruction_report(snippet: &str, instr: &str, direction: Direction) -> Report {
    let m = parse(&module_text(snippet));
    let options = Options {
        instruction: Some(instr.to_string()),
        computation: Some("main".to_string()),
        direction,
        ..Options::default()
    };
    analyze_module(&m, &options).unwrap_or_else(|e| panic!("{e}"))
}

/// The map set from output `output` to operand `operand` of the first reported computation.
pub fn maps_of(report: &Report, output: usize, operand: usize) -> &MapSet {
    let c = &report.computations[0];
    let o = c
        .outputs
        .iter()
        .find(|o| o.output == output)
        .unwrap_or_else(|| panic!("no output {output}"));
    &o.operands
        .iter()
        .find(|op| op.operand == operand)
        .unwrap_or_else(|| panic!("no operand {operand} for output {output}"))
        .maps
}

/// Asserts that a map set holds exactly the expected maps (parsed, compared as maps).
pub fn assert_maps(set: &MapSet, expected: &[&str]) {
    assert!(set.undefined.is_none(), "undefined: {:?}", set.undefined);
    let got: Vec<&IndexingMap> = set.accesses.iter().map(|a| &a.map).collect();
    let want: Vec<IndexingMap> = expected
        .iter()
        .map(|t| IndexingMap::parse(t).unwrap_or_else(|e| panic!("{e}: {t}")))
        .collect();
    let shown = || {
        got.iter()
            .map(|m| m.to_string())
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(got.len(), want.len(), "got:\n{}", shown());
    for w in &want {
        assert!(got.contains(&w), "missing {w}\ngot:\n{}", shown());
    }
}

/// Pairs (output index, operand index).
pub type Relation = BTreeSet<(Index, Index)>;

/// The pairs (domain dims, result) of a set of maps, keeping results inside `target`.
/// Fails on a result outside `target` unless `loose`.
pub fn relation(maps: &[IndexingMap], target: &[i64], loose: bool) -> Result<Relation, String> {
    let mut rel = Relation::new();
    for m in maps {
        let points = m.domain_points(1 << 22).ok_or("domain too large")?;
        for (d, s) in points {
            let r = m.evaluate(&d, &s).ok_or("overflow")?;
            if r.iter().zip(target).all(|(x, n)| (0..*n).contains(x)) {
                rel.insert((d, r));
            } else if !loose {
                return Err(format!(
                    "{m} reaches {r:?} outside {target:?} at {d:?} {s:?}"
                ));
            }
        }
    }
    Ok(rel)
}

/// `Ok` when the relations are equal; else a few pairs of each difference.
pub fn compare(got: &Relation, want: &Relation) -> Result<(), String> {
    if got == want {
        return Ok(());
    }
    let extra: Vec<_> = got.difference(want).take(3).collect();
    let missing: Vec<_> = want.difference(got).take(3).collect();
    Err(format!("extra {extra:?}, missing {missing:?}"))
}
