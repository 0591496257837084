//! What the index passes keep: running them on a function leaves every result that was defined
//! at a point of its domain unchanged there, they never fail on valid input, and
//! `xla-indexing-simplify` reaches a fixed point (running it again changes nothing).
//!
//! A function is checked when every argument declares its domain with `xla.range` and the
//! domain has at most [`MAX_POINTS`] points: it is evaluated at all of them (see
//! [`crate::evaluate`]) before and after each pipeline.

use xla_indexing_passes::opt::{OptError, Session};

use crate::{
    evaluate::{EvaluateError, evaluate_function, signatures},
    index_program::random_program,
    rng::SplitMix64,
};

/// The pipelines checked.
pub const PIPELINES: [&str; 2] = [
    "builtin.module(xla-indexing-simplify)",
    "builtin.module(xla-indexing-simplify, xla-indexing-lower-apply)",
];

/// Most points a function is evaluated at.
pub const MAX_POINTS: usize = 4096;

/// What a check covered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Covered {
    /// Functions evaluated before and after.
    pub functions: usize,
    /// Points at which they were, over all pipelines.
    pub points: usize,
}

/// How much a pipeline's failure is tolerated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    /// Valid programs (generated ones): the passes must succeed.
    Valid,
    /// Any text: the passes may refuse it with an error, but never with an internal error.
    Any,
}

/// The points of a domain of `ranges`, if every argument has one and there are at most
/// [`MAX_POINTS`].
fn points(ranges: &[Option<(i64, i64)>]) -> Option<Vec<Vec<i64>>> {
    let bounds: Option<Vec<(i64, i64)>> = ranges.iter().copied().collect();
    crate::grid::box_points_within(bounds?, MAX_POINTS)
}

/// A function evaluated at every point of its domain.
struct Evaluated {
    name: String,
    points: Vec<Vec<i64>>,
    /// At each point, each result (`None` where undefined).
    values: Result<Vec<Vec<Option<i64>>>, EvaluateError>,
}

/// Every checkable function of `text`, evaluated; `None` when the text does not parse.
fn evaluate_all(session: &Session, text: &str) -> Option<Vec<Evaluated>> {
    let module = session.parse(text).ok()?;
    Some(
        signatures(&module)
            .into_iter()
            .filter_map(|s| {
                let points = points(&s.ranges)?;
                let values = points
                    .iter()
                    .map(|p| evaluate_function(&module, &s.name, p))
                    .collect();
                Some(Evaluated {
                    name: s.name,
                    points,
                    values,
                })
            })
            .collect(),
    )
}

/// Runs `pipeline` on `text`: the output text, `None` when the passes refused the input with a
/// user-facing error (allowed for [`Input::Any`]).
fn run(
    session: &Session,
    text: &str,
    pipeline: &str,
    input: Input,
) -> Result<Option<String>, String> {
    let mut module = session
        .parse(text)
        .map_err(|e| format!("the input does not parse: {e:?}"))?;
    match session.run(&mut module, pipeline) {
        Ok(()) => Ok(Some(module.as_operation().to_string())),
        Err(OptError::Pass(messages)) => {
            let internal = messages.iter().any(|m| {
                m.message.contains("internal error") || m.message.contains("did not converge")
            });
            if input == Input::Any && !internal {
                Ok(None)
            } else {
                Err(format!("{pipeline} failed: {messages:?}"))
            }
        }
        Err(e) => Err(format!("{pipeline} failed: {e:?}")),
    }
}

/// Checks that every pipeline of [`PIPELINES`] keeps the values of the functions of `text`,
/// and that `xla-indexing-simplify` reaches a fixed point; the first violation, described.
pub fn values_are_kept(session: &Session, text: &str, input: Input) -> Result<Covered, String> {
    let Some(before) = evaluate_all(session, text) else {
        return match input {
            Input::Valid => Err(format!("the program does not parse:\n{text}")),
            Input::Any => Ok(Covered::default()),
        };
    };
    let mut covered = Covered::default();
    for pipeline in PIPELINES {
        let Some(output) = run(session, text, pipeline, input)? else {
            continue;
        };
        let after = evaluate_all(session, &output)
            .ok_or_else(|| format!("{pipeline} printed what does not parse:\n{output}"))?;
        for Evaluated {
            name,
            points,
            values,
        } in &before
        {
            // A function the evaluator cannot run is not checked.
            let Ok(values) = values else {
                continue;
            };
            let Some(new) = after.iter().find(|e| &e.name == name) else {
                return Err(format!("{pipeline} lost @{name}:\n{output}"));
            };
            let new_values = new.values.as_ref().map_err(|e| {
                format!("@{name} cannot be evaluated after {pipeline}: {e}\n{output}")
            })?;
            for ((point, old), new) in points.iter().zip(values).zip(new_values) {
                for (k, (o, n)) in old.iter().zip(new).enumerate() {
                    if o.is_some() && o != n {
                        return Err(format!(
                            "{pipeline} changed result {k} of @{name} at {point:?}: {o:?} before, {n:?} after\n--- before\n{text}\n--- after\n{output}"
                        ));
                    }
                }
            }
            covered.functions += 1;
            covered.points += points.len();
        }
        if pipeline == PIPELINES[0] {
            let again = run(session, &output, pipeline, Input::Valid)?;
            if again.as_deref() != Some(output.as_str()) {
                return Err(format!(
                    "{pipeline} is not at a fixed point:\n--- input\n{text}\n--- once\n{output}\n--- twice\n{}",
                    again.unwrap_or_default()
                ));
            }
        }
    }
    Ok(covered)
}

/// The generated program of `seed`, checked: its values as the generator computed them must be
/// what MLIR's semantics give (a check of the evaluator), and the passes must keep them.
pub fn generated_program_is_kept(session: &Session, seed: u64) -> Result<Covered, String> {
    let program = random_program(seed);
    let module = session.parse(&program.text).map_err(|e| {
        format!(
            "seed {seed}: the program does not parse: {e:?}\n{}",
            program.text
        )
    })?;
    for (point, expected) in program.points.iter().zip(&program.expected) {
        let got = evaluate_function(&module, &program.function, point)
            .map_err(|e| format!("seed {seed}: {e}\n{}", program.text))?;
        if &got != expected {
            return Err(format!(
                "seed {seed}: at {point:?} the program gives {got:?}, the generator {expected:?}\n{}",
                program.text
            ));
        }
    }
    values_are_kept(session, &program.text, Input::Valid).map_err(|e| format!("seed {seed}: {e}"))
}

/// The fuzz target's check of one input: a byte string whose first byte is even seeds a
/// generated program; otherwise the rest is module text (mutated by the fuzzer). Panics with
/// the violation, if any.
pub fn fuzz_index_passes(session: &Session, data: &[u8]) {
    let outcome = match data.split_first() {
        Some((first, rest)) if first % 2 == 1 => {
            values_are_kept(session, &String::from_utf8_lossy(rest), Input::Any)
        }
        _ => {
            let seed = data.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
                (h ^ u64::from(*b)).wrapping_mul(0x100_0000_01b3)
            });
            generated_program_is_kept(session, SplitMix64::new(seed).next_u64())
        }
    };
    if let Err(violation) = outcome {
        panic!("{violation}");
    }
}
