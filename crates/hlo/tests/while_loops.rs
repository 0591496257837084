//! Maps through `while` loops whose trip count the module proves, against a reference that
//! runs the loop on index-tagged values (`common/loop_reference.rs`): for every result leaf of
//! the loop and every leaf of its initial state, the relation the maps describe equals the
//! dependences the run finds, exactly.

mod common;

use common::loop_reference::{self, Value, tagged};
use common::{Relation, assert_maps, compare, parse, relation};
use xla_indexing_hlo::{Direction, Module, Options, analyze_module};

/// The maps of the `while` named `name` in computation `comp`, both directions, against the
/// loop run on its operand with every leaf tagged, `counter` holding `start`: out2in everywhere,
/// in2out where defined (a dynamic slice has no input-to-output map). Returns how many pairs of
/// leaves in2out compared and how many it had.
fn check_while(m: &Module, comp: &str, name: &str, counter: usize, start: i128) -> (usize, usize) {
    let c = m.computation(comp).unwrap();
    let computation = &m.computations[c];
    let instr = computation
        .instructions
        .iter()
        .find(|i| i.name == name)
        .unwrap();
    let state_shape = &computation.instructions[instr.operands[0]].shape;
    let mut state: Value = state_shape
        .leaves()
        .iter()
        .enumerate()
        .map(|(l, shape)| tagged(0, l, &shape.dims))
        .collect();
    state[counter].get_mut(&Vec::new()).unwrap().value = Some(start);
    let result = loop_reference::instruction(m, computation, instr, &[&state], &[]);
    // What result leaf `k` reads of state leaf `l`: (result index, state index).
    let want = |k: usize, l: usize| -> Relation {
        let mut pairs = Relation::new();
        for (idx, element) in &result[k] {
            for (_, leaf, src) in &element.tags {
                if *leaf == l {
                    pairs.insert((idx.clone(), src.clone()));
                }
            }
        }
        pairs
    };
    let report = |direction| {
        let options = Options {
            instruction: Some(name.into()),
            computation: Some(comp.into()),
            direction,
            ..Options::default()
        };
        analyze_module(m, &options).unwrap_or_else(|e| panic!("{e}"))
    };
    for output in &report(Direction::OutputToInput).computations[0].outputs {
        for operand in &output.operands {
            let l = operand.leaf.unwrap_or(0);
            let what = format!("{name} output {} operand 0.{l}", output.output);
            assert!(
                operand.maps.undefined.is_none(),
                "{what}: {:?}",
                operand.maps.undefined
            );
            let maps: Vec<_> = operand
                .maps
                .accesses
                .iter()
                .map(|a| a.map.clone())
                .collect();
            let got = relation(&maps, &operand.shape.dims, false).unwrap();
            compare(&got, &want(output.output, l)).unwrap_or_else(|e| panic!("{what}: {e}"));
        }
    }
    let (mut compared, mut pairs) = (0, 0);
    for input in &report(Direction::InputToOutput).computations[0].outputs {
        let l = input.leaf.unwrap_or(0);
        for target in &input.operands {
            pairs += 1;
            if target.maps.undefined.is_some() {
                continue;
            }
            let what = format!("{name} operand 0.{l} output {}", target.operand);
            let maps: Vec<_> = target.maps.accesses.iter().map(|a| a.map.clone()).collect();
            let got = relation(&maps, &target.shape.dims, false).unwrap();
            let inverse: Relation = want(target.operand, l)
                .into_iter()
                .map(|(o, i)| (i, o))
                .collect();
            compare(&got, &inverse).unwrap_or_else(|e| panic!("{what}: {e}"));
            compared += 1;
        }
    }
    (compared, pairs)
}

/// The maps of result leaf `output` of the loop `name` (in `main`) to leaf `leaf` of its state.
fn loop_maps(
    m: &Module,
    name: &str,
    output: usize,
    leaf: usize,
) -> xla_indexing_hlo::fusion::MapSet {
    let options = Options {
        instruction: Some(name.into()),
        computation: Some("main".into()),
        ..Options::default()
    };
    let report = analyze_module(m, &options).unwrap_or_else(|e| panic!("{e}"));
    let out = report.computations[0]
        .outputs
        .iter()
        .find(|o| o.output == output)
        .unwrap();
    out.operands
        .iter()
        .find(|o| o.leaf.unwrap_or(0) == leaf)
        .unwrap()
        .maps
        .clone()
}

/// JAX's `lax.scan` as XLA optimises it: the counter passes through copies and fusions, each
/// iteration reads one row of `xs` and writes one row of the result; the cumulative sum's row
/// `r` reads rows `0..=r`.
#[test]
fn a_jax_scan_reads_one_row_per_iteration() {
    let m = parse(include_str!("data/scan.hlo"));
    check_while(&m, "while.6_computation", "while.0", 0, 0);
}

/// A loop counting down with JAX's normalisation of negative indices (`select(i < 0, i + 8,
/// i)`), writing at `i + 1`, with a carry reversed in every iteration.
const COUNT_DOWN: &str = r#"HloModule count_down
cond {
  s = (s32[], f32[5], f32[8], f32[8]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  zero = s32[] constant(0)
  ROOT ge = pred[] compare(i, zero), direction=GE
}
body {
  s = (s32[], f32[5], f32[8], f32[8]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  h = f32[5] get-tuple-element(s), index=1
  out = f32[8] get-tuple-element(s), index=2
  xs = f32[8] get-tuple-element(s), index=3
  one = s32[] constant(1)
  zero = s32[] constant(0)
  eight = s32[] constant(8)
  negative = pred[] compare(i, zero), direction=LT
  wrapped = s32[] add(i, eight)
  index = s32[] select(negative, wrapped, i)
  x = f32[1] dynamic-slice(xs, index), dynamic_slice_sizes={1}
  x0 = f32[] reshape(x)
  xb = f32[5] broadcast(x0), dimensions={}
  hr = f32[5] reverse(h), dimensions={0}
  h2 = f32[5] add(hr, xb)
  after = s32[] add(i, one)
  out2 = f32[8] dynamic-update-slice(out, x, after)
  next = s32[] subtract(i, one)
  ROOT r = (s32[], f32[5], f32[8], f32[8]) tuple(next, h2, out2, xs)
}
ENTRY main {
  xs = f32[8] parameter(0)
  h0 = f32[5] parameter(1)
  o0 = f32[8] parameter(2)
  start = s32[] constant(6)
  init = (s32[], f32[5], f32[8], f32[8]) tuple(start, h0, o0, xs)
  ROOT w = (s32[], f32[5], f32[8], f32[8]) while(init), condition=cond, body=body
}
"#;

#[test]
fn a_loop_counting_down_reads_where_each_iteration_reads() {
    check_while(&parse(COUNT_DOWN), "main", "w", 0, 6);
}

/// A loop whose maps do not depend on the counter, `trips` times: `h <- reverse(h) + x`.
fn reversing(trips: i64) -> Module {
    parse(&format!(
        r#"HloModule reversing
cond {{
  s = (s32[], f32[5], f32[5]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant({trips})
  ROOT lt = pred[] compare(i, n), direction=LT
}}
body {{
  s = (s32[], f32[5], f32[5]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  h = f32[5] get-tuple-element(s), index=1
  x = f32[5] get-tuple-element(s), index=2
  one = s32[] constant(1)
  hr = f32[5] reverse(h), dimensions={{0}}
  h2 = f32[5] add(hr, x)
  next = s32[] add(i, one)
  ROOT r = (s32[], f32[5], f32[5]) tuple(next, h2, x)
}}
ENTRY main {{
  x = f32[5] parameter(0)
  h0 = f32[5] parameter(1)
  zero = s32[] constant(0)
  init = (s32[], f32[5], f32[5]) tuple(zero, h0, x)
  ROOT w = (s32[], f32[5], f32[5]) while(init), condition=cond, body=body
}}
"#
    ))
}

/// Without the counter in its maps a loop's maps repeat: the walk may stop early only when
/// they stop changing, not when two iterations agree by parity.
#[test]
fn maps_that_alternate_are_composed_through_every_iteration() {
    for trips in [0, 1, 2, 5, 3000] {
        let (compared, pairs) = check_while(&reversing(trips), "main", "w", 0, 0);
        assert_eq!(
            compared, pairs,
            "{trips} iterations: in2out compared {compared} of {pairs}"
        );
    }
}

#[test]
fn a_billion_iterations_settle_without_running_them() {
    let m = reversing(1_000_000_000);
    assert_maps(
        &loop_maps(&m, "w", 1, 1),
        &["(d0) -> (d0), domain: d0 in [0, 4]"],
    );
    assert_maps(
        &loop_maps(&m, "w", 1, 2),
        &[
            "(d0) -> (d0), domain: d0 in [0, 4]",
            "(d0) -> (-d0 + 4), domain: d0 in [0, 4]",
        ],
    );
}

/// A loop whose body reads at the counter is composed iteration by iteration, within a budget
/// the message names; one whose trip count the module does not fix has no maps, and says why.
#[test]
fn loops_past_the_budget_or_unbounded_say_why() {
    let long = COUNT_DOWN.replace("constant(6)", "constant(100000)");
    let undefined = loop_maps(&parse(&long), "w", 2, 3).undefined.unwrap();
    assert!(
        undefined.contains("composed through at most 1024 iterations, not 100001"),
        "{undefined}"
    );
    let unbounded = COUNT_DOWN.replace("start = s32[] constant(6)", "start = s32[] parameter(3)");
    let undefined = loop_maps(&parse(&unbounded), "w", 2, 3).undefined.unwrap();
    assert!(undefined.contains("known only at run time"), "{undefined}");
}

/// A cumulative sum over `rows` rows written row by row: row `r` of the result reads rows
/// `0..=r`, one map (`d0 - s0 >= 0`) however many rows, past the 64 maps a target may have.
/// (Names are unique in the module, as XLA's verifier requires: a runtime variable's value is
/// found by its instruction's name.)
fn cumulative_sum(rows: i64) -> Module {
    parse(&format!(
        r#"HloModule cumsum
cond {{
  cs = (s32[], f32[1,2], f32[{rows},2], f32[{rows},2]) parameter(0)
  ci = s32[] get-tuple-element(cs), index=0
  n = s32[] constant({rows})
  ROOT lt = pred[] compare(ci, n), direction=LT
}}
body {{
  s = (s32[], f32[1,2], f32[{rows},2], f32[{rows},2]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  carry = f32[1,2] get-tuple-element(s), index=1
  out = f32[{rows},2] get-tuple-element(s), index=2
  xs = f32[{rows},2] get-tuple-element(s), index=3
  zero = s32[] constant(0)
  one = s32[] constant(1)
  x = f32[1,2] dynamic-slice(xs, i, zero), dynamic_slice_sizes={{1,2}}
  sum = f32[1,2] add(carry, x)
  out2 = f32[{rows},2] dynamic-update-slice(out, sum, i, zero)
  next = s32[] add(i, one)
  ROOT r = (s32[], f32[1,2], f32[{rows},2], f32[{rows},2]) tuple(next, sum, out2, xs)
}}
ENTRY main {{
  xs = f32[{rows},2] parameter(0)
  c0 = f32[1,2] parameter(1)
  o0 = f32[{rows},2] parameter(2)
  zero = s32[] constant(0)
  init = (s32[], f32[1,2], f32[{rows},2], f32[{rows},2]) tuple(zero, c0, o0, xs)
  ROOT w = (s32[], f32[1,2], f32[{rows},2], f32[{rows},2]) while(init), condition=cond, body=body
}}
"#
    ))
}

#[test]
fn a_long_scan_reads_every_earlier_row_through_one_map() {
    check_while(&cumulative_sum(5), "main", "w", 0, 0);
    check_while(&cumulative_sum(100), "main", "w", 0, 0);
    assert_maps(
        &loop_maps(&cumulative_sum(100), "w", 2, 3),
        &[
            "(d0, d1)[s0] -> (s0, d1), domain: d0 in [0, 99], d1 in [0, 1], s0 in [0, 99], d0 - s0 in [0, 99]",
        ],
    );
}
