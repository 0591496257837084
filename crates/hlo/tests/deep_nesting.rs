//! Deep inputs: fusions and calls nested thousands of levels deep, and fused computations of
//! thousands of ops in a chain, are composed with the analysis's own stack, not the thread's
//! (a test thread has 2 MiB), and give the right maps.

mod common;
mod deep_inputs;

use common::parse;
use deep_inputs::{chain, nest};
use xla_indexing_hlo::{Direction, HloError, Options, analyze_module};

/// How deep the nests go, and how long the chain is.
const DEPTH: usize = 5000;

/// The identity on the `f32[4]` every test computation reads and writes.
const IDENTITY: &str = "(d0) -> (d0), domain: d0 in [0, 3]";

/// The maps of every output of `computation` (every fused computation when `None`) to every
/// operand, in the order of the report: `(computation, maps)`.
fn maps(
    text: &str,
    computation: Option<&str>,
    direction: Direction,
) -> Result<Vec<(String, Vec<String>)>, HloError> {
    let options = Options {
        computation: computation.map(str::to_string),
        direction,
        ..Options::default()
    };
    let report = analyze_module(&parse(text), &options)?;
    let mut out = Vec::new();
    for c in &report.computations {
        for output in &c.outputs {
            for operand in &output.operands {
                assert_eq!(operand.maps.undefined, None, "{}", c.name);
                let texts = operand.maps.accesses.iter().map(|a| a.map.to_string());
                out.push((c.name.clone(), texts.collect()));
            }
        }
    }
    Ok(out)
}

#[test]
fn fusion_nest_composes_to_the_identity() {
    let text = nest("fusion", DEPTH);
    for direction in [Direction::OutputToInput, Direction::InputToOutput] {
        assert_eq!(
            maps(&text, Some("c0"), direction),
            Ok(vec![("c0".to_string(), vec![IDENTITY.to_string()])]),
            "{direction:?}"
        );
    }
}

#[test]
fn fusion_nest_every_fused_computation_is_the_identity() {
    // Each computation of the nest is analysed in turn; each one's walk is kept, so this is
    // linear in the depth, not quadratic.
    let all = maps(&nest("fusion", DEPTH), None, Direction::OutputToInput).expect("analysis");
    assert_eq!(all.len(), DEPTH);
    for (k, (name, maps)) in all.iter().enumerate() {
        assert_eq!(name, &format!("c{k}"));
        assert_eq!(maps, &[IDENTITY]);
    }
}

#[test]
fn call_nest_composes_to_the_identity() {
    // Without fusions the entry computation is analysed, through every call.
    assert_eq!(
        maps(&nest("call", DEPTH), None, Direction::OutputToInput),
        Ok(vec![("main".to_string(), vec![IDENTITY.to_string()])])
    );
}

#[test]
fn chain_of_negates_is_the_identity() {
    assert_eq!(
        maps(&chain(DEPTH), None, Direction::OutputToInput),
        Ok(vec![("fused".to_string(), vec![IDENTITY.to_string()])])
    );
}

#[test]
fn recursive_calls_are_an_error_at_the_call() {
    let text = r#"HloModule loop

%c0 (p: f32[4]) -> f32[4] {
  %p = f32[4]{0} parameter(0)
  ROOT %r0 = f32[4]{0} call(%p), to_apply=%c1
}

%c1 (p: f32[4]) -> f32[4] {
  %p = f32[4]{0} parameter(0)
  ROOT %r1 = f32[4]{0} call(%p), to_apply=%c0
}

ENTRY %main (x: f32[4]) -> f32[4] {
  %x = f32[4]{0} parameter(0)
  ROOT %f = f32[4]{0} call(%x), to_apply=%c0
}
"#;
    for direction in [Direction::OutputToInput, Direction::InputToOutput] {
        assert_eq!(
            maps(text, Some("c0"), direction),
            Err(HloError::Analysis {
                instruction: "r1".into(),
                line: 10,
                column: 3,
                message: "computation c0 calls itself".into(),
            }),
            "{direction:?}"
        );
    }
}

#[test]
fn computation_called_twice_gives_the_maps_of_each_path() {
    // `t` is walked once and its maps reused: through `a` alone the root reads the transpose,
    // through `a` then `b` the identity.
    let text = r#"HloModule diamond

%t (p: f32[4,4]) -> f32[4,4] {
  %p = f32[4,4]{1,0} parameter(0)
  ROOT %t = f32[4,4]{1,0} transpose(%p), dimensions={1,0}
}

%fused (p: f32[4,4]) -> f32[4,4] {
  %p = f32[4,4]{1,0} parameter(0)
  %a = f32[4,4]{1,0} fusion(%p), kind=kLoop, calls=%t
  %b = f32[4,4]{1,0} fusion(%a), kind=kLoop, calls=%t
  ROOT %s = f32[4,4]{1,0} add(%a, %b)
}

ENTRY %main (x: f32[4,4]) -> f32[4,4] {
  %x = f32[4,4]{1,0} parameter(0)
  ROOT %f = f32[4,4]{1,0} fusion(%x), kind=kLoop, calls=%fused
}
"#;
    let domain = "domain: d0 in [0, 3], d1 in [0, 3]";
    let both = vec![
        format!("(d0, d1) -> (d0, d1), {domain}"),
        format!("(d0, d1) -> (d1, d0), {domain}"),
    ];
    for direction in [Direction::OutputToInput, Direction::InputToOutput] {
        assert_eq!(
            maps(text, Some("fused"), direction),
            Ok(vec![("fused".to_string(), both.clone())]),
            "{direction:?}"
        );
    }
}
