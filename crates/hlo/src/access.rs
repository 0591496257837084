//! An indexing map together with where its runtime variables come from and, for collectives,
//! which device's buffer it reads; and the composition of such maps.
//!
//! The maps attached to an access (a runtime variable's provenance, a collective's participant)
//! share the access map's variables: they have its dimensions, a prefix of its range variables
//! and a prefix of its runtime variables, numbered as in the access map (range variable `s1` of a
//! provenance map is `s1` of the access map). A scatter reads its indices at the update position
//! that a range variable of the access map walks, so the two must stay the same variable through
//! composition and simplification; [`Access::then`] and [`Access::simplify`] keep them so.

use xla_indexing_core::{ComposeError, Expr, IndexingMap, VarRef};

/// Where a runtime variable's value comes from: an element of an instruction's result, chosen by
/// `map` from the variables of the indexing map that uses the runtime variable (the seed's
/// `(d0, d1) -> (d0, 0)` access pattern). The map has the access map's dimensions, a prefix of
/// its range variables and a prefix of the runtime variables before this one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuntimeVar {
    /// The name of the instruction whose result holds the value.
    pub instruction: String,
    /// The element of that result the value is read from, in the access map's variables.
    pub map: IndexingMap,
    /// What the op does with a value outside the variable's bounds.
    pub out_of_range: OutOfRange,
}

/// What an op does with an offset or index outside the bounds of its runtime variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutOfRange {
    /// Clamps it into the bounds (dynamic-slice, dynamic-update-slice, gather).
    Clamped,
    /// Drops the element it would have touched (scatter's windows out of bounds).
    Dropped,
}

/// The device whose buffer a collective reads (XLA's replica-id map): `map` gives, from the
/// variables of the access map (as for a [`RuntimeVar`]), the position within `instruction`'s
/// replica group of the participant whose operand element is read. An `all-gather` output
/// element along the gathered dimension comes from participant `d floordiv n` of the group.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Participant {
    /// The name of the collective instruction.
    pub instruction: String,
    /// The participant's position in the replica group, in the access map's variables (one
    /// result).
    pub map: IndexingMap,
}

/// An indexing map, one [`RuntimeVar`] per runtime variable of the map (in order), and the
/// [`Participant`]s of the collectives on the way (outermost first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Access {
    /// The indexing map itself.
    pub map: IndexingMap,
    /// Where each runtime variable of `map` comes from, in order.
    pub runtime: Vec<RuntimeVar>,
    /// The collectives on the way and whose buffer each reads, outermost first.
    pub participants: Vec<Participant>,
}

/// An attached map's results in the access map's numbering, with what it is attached as.
struct Attached {
    instruction: String,
    results: Vec<Expr>,
}

impl Access {
    /// A map without runtime variables.
    pub fn plain(map: IndexingMap) -> Access {
        Access {
            map,
            runtime: Vec::new(),
            participants: Vec::new(),
        }
    }

    /// A map whose runtime variables come from `runtime` (one per runtime variable, each map
    /// over the access map's variables as [`RuntimeVar`] says).
    pub fn with_runtime(map: IndexingMap, runtime: Vec<RuntimeVar>) -> Access {
        debug_assert_eq!(map.rt_vars().len(), runtime.len());
        Access {
            map,
            runtime,
            participants: Vec::new(),
        }
    }

    /// A map that reads another device's buffer, as `participant` says.
    pub fn on_participant(map: IndexingMap, participant: Participant) -> Access {
        Access {
            map,
            runtime: Vec::new(),
            participants: vec![participant],
        }
    }

    /// `second ∘ self`: `self` maps A to B, `second` maps B to C; the result maps A to C. The
    /// runtime variables and participants of `second` are re-expressed over A. The result is
    /// simplified and keeps only the symbols it (or an attached map) uses.
    pub fn then(&self, second: &Access) -> Result<Access, ComposeError> {
        let map = self.map.compose(&second.map)?;
        let (r1, r2) = (self.map.range_vars().len(), second.map.range_vars().len());
        // `self`'s attached maps: its range variables keep their numbers, its runtime
        // variables move behind `second`'s range variables.
        let first = |m: &IndexingMap| -> Result<Vec<Expr>, ComposeError> {
            Ok(shift_symbols(&to_access_numbering(m, r1), r1, r2))
        };
        // `second`'s attached maps, composed after `self`: the symbols of the composition are
        // `self`'s range variables, the map's range prefix, `self`'s runtime variables and the
        // map's runtime prefix, which is the numbering of `map` once the runtime variables
        // move behind all of `second`'s range variables.
        let second_att = |m: &IndexingMap| -> Result<Vec<Expr>, ComposeError> {
            let composed = self.map.compose(m)?;
            let prefix = r1 + m.range_vars().len();
            Ok(shift_symbols(composed.results(), prefix, r1 + r2 - prefix))
        };
        let mut runtime = Vec::new();
        for rt in &self.runtime {
            runtime.push((attached(&rt.instruction, first(&rt.map)?), rt.out_of_range));
        }
        for rt in &second.runtime {
            runtime.push((
                attached(&rt.instruction, second_att(&rt.map)?),
                rt.out_of_range,
            ));
        }
        let mut participants = Vec::new();
        for p in &self.participants {
            participants.push(attached(&p.instruction, first(&p.map)?));
        }
        for p in &second.participants {
            participants.push(attached(&p.instruction, second_att(&p.map)?));
        }
        Ok(Access::normalized(map, runtime, participants))
    }

    /// Simplifies the map and drops the symbols that neither it nor an attached map uses,
    /// keeping the attached maps in step.
    pub fn simplify(&mut self) {
        let r = self.map.range_vars().len();
        let runtime = self
            .runtime
            .iter()
            .map(|rt| {
                (
                    attached(&rt.instruction, to_access_numbering(&rt.map, r)),
                    rt.out_of_range,
                )
            })
            .collect();
        let participants = self
            .participants
            .iter()
            .map(|p| attached(&p.instruction, to_access_numbering(&p.map, r)))
            .collect();
        *self = Access::normalized(self.map.clone(), runtime, participants);
    }

    /// An access from a map and attached results in its numbering: the map simplified, the
    /// runtime variables nothing uses dropped with their provenance, the symbols nothing uses
    /// removed, and each attached map rebuilt over the prefix of the variables it uses.
    fn normalized(
        map: IndexingMap,
        runtime: Vec<(Attached, OutOfRange)>,
        participants: Vec<Attached>,
    ) -> Access {
        let n = map.results().len();
        let mut runtime = runtime;
        let mut kept: Vec<usize> = (0..runtime.len()).collect();
        let combined = loop {
            let mut results = map.results().to_vec();
            for &k in &kept {
                results.extend(runtime[k].0.results.iter().cloned());
            }
            for p in &participants {
                results.extend(p.results.iter().cloned());
            }
            let mut combined = map.with_results(results);
            combined.simplify();
            let r = combined.range_vars().len();
            let mut probe = combined.clone();
            let removed = probe.remove_unused_symbols();
            let before = kept.len();
            kept.retain(|&k| !removed.get(r + k).copied().unwrap_or(false));
            if kept.len() == before {
                break probe;
            }
        };
        let mut at = n;
        let mut take = |len: usize| {
            let part = combined.results()[at..at + len].to_vec();
            at += len;
            part
        };
        let main = combined.with_results(combined.results()[..n].to_vec());
        let mut rts = Vec::new();
        for (new_k, &k) in kept.iter().enumerate() {
            let len = runtime[k].0.results.len();
            let results = take(len);
            rts.push(RuntimeVar {
                instruction: std::mem::take(&mut runtime[k].0.instruction),
                map: over_prefix(&main, results, new_k),
                out_of_range: runtime[k].1,
            });
        }
        let all_rt = main.rt_vars().len();
        let parts = participants
            .into_iter()
            .map(|p| Participant {
                map: over_prefix(&main, take(p.results.len()), all_rt),
                instruction: p.instruction,
            })
            .collect();
        Access {
            map: main,
            runtime: rts,
            participants: parts,
        }
    }
}

fn attached(instruction: &str, results: Vec<Expr>) -> Attached {
    Attached {
        instruction: instruction.to_string(),
        results,
    }
}

/// The results of an attached map in the numbering of an access map with `num_range` range
/// variables: the attached map's runtime variables follow all of those.
fn to_access_numbering(m: &IndexingMap, num_range: usize) -> Vec<Expr> {
    let own = m.range_vars().len();
    shift_symbols(m.results(), own, num_range.saturating_sub(own))
}

/// Adds `by` to the number of every symbol numbered `from` or more.
fn shift_symbols(results: &[Expr], from: usize, by: usize) -> Vec<Expr> {
    results
        .iter()
        .map(|e| renumber_symbols(e, &mut |i| if i >= from { i + by } else { i }))
        .collect()
}

/// Renames every symbol `s_i` to `s_f(i)`; a renaming of variables cannot overflow.
fn renumber_symbols(e: &Expr, f: &mut impl FnMut(usize) -> usize) -> Expr {
    e.rewrite_vars(&mut |v| match v {
        VarRef::Sym(i) => Some(Expr::sym(f(i as usize) as u32)),
        VarRef::Dim(_) => None,
    })
    .expect("renaming variables cannot overflow")
}

/// A map with `results` (in `main`'s numbering) over `main`'s dimensions and the shortest
/// prefixes of its range variables and of its first `max_rt` runtime variables that the results
/// use, with the constraints of `main` that mention no other variable.
fn over_prefix(main: &IndexingMap, results: Vec<Expr>, max_rt: usize) -> IndexingMap {
    let r = main.range_vars().len();
    let (mut num_range, mut num_rt) = (0usize, 0usize);
    for e in &results {
        e.for_each_var(&mut |v| {
            if let VarRef::Sym(i) = v {
                let i = i as usize;
                if i < r {
                    num_range = num_range.max(i + 1);
                } else {
                    num_rt = num_rt.max(i - r + 1);
                }
            }
        });
    }
    debug_assert!(
        num_rt <= max_rt,
        "an attached map uses a later runtime variable"
    );
    let renumber =
        |e: &Expr| renumber_symbols(e, &mut |i| if i >= r { i - r + num_range } else { i });
    let inside = |e: &Expr| {
        let mut ok = true;
        e.for_each_var(&mut |v| {
            if let VarRef::Sym(i) = v {
                let i = i as usize;
                ok &= if i < r { i < num_range } else { i - r < num_rt };
            }
        });
        ok
    };
    let results = results.iter().map(renumber).collect();
    let mut out = IndexingMap::new(
        results,
        main.dims().to_vec(),
        main.range_vars()[..num_range].to_vec(),
        main.rt_vars()[..num_rt].to_vec(),
    );
    if main.is_known_empty() {
        out.mark_empty();
        return out;
    }
    for (e, iv) in main.constraints() {
        if inside(e) {
            out.add_constraint(renumber(e), *iv);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(text: &str) -> IndexingMap {
        IndexingMap::parse(text).unwrap_or_else(|e| panic!("{e}: {text}"))
    }

    fn read_at(instruction: &str, text: &str) -> RuntimeVar {
        RuntimeVar {
            instruction: instruction.into(),
            map: map(text),
            out_of_range: OutOfRange::Dropped,
        }
    }

    /// A scatter-like read (`rt0` taken at the update position `s0`) after a window read: the
    /// provenance names the same range variable as the composed map, `s1`.
    #[test]
    fn then_keeps_a_provenance_range_variable_aligned() {
        let window = Access::plain(map(
            "(d0)[s0] -> (d0 + s0), domain: d0 in [0, 3], s0 in [0, 1]",
        ));
        let scatter = Access::with_runtime(
            map(
                "(d0)[s0]{rt0} -> (s0, d0 - rt0), domain: d0 in [0, 4], s0 in [0, 2], rt0 in [0, 3]",
            ),
            vec![read_at(
                "indices",
                "(d0)[s0] -> (s0), domain: d0 in [0, 4], s0 in [0, 2]",
            )],
        );
        let composed = window.then(&scatter).unwrap();
        assert_eq!(
            composed.map,
            map(
                "(d0)[s0, s1]{rt0} -> (s1, d0 + s0 - rt0), domain: d0 in [0, 3], s0 in [0, 1], s1 in [0, 2], rt0 in [0, 3]"
            )
        );
        assert_eq!(
            composed.runtime[0].map,
            map("(d0)[s0, s1] -> (s1), domain: d0 in [0, 3], s0 in [0, 1], s1 in [0, 2]")
        );
    }

    /// A gather under a reduction: the reduced position is used only where the index is read,
    /// and stays a range variable of the map.
    #[test]
    fn then_keeps_a_range_variable_that_only_a_provenance_uses() {
        let reduce = Access::plain(map(
            "(d0)[s0] -> (s0, d0), domain: d0 in [0, 3], s0 in [0, 2]",
        ));
        let gather = Access::with_runtime(
            map("(d0, d1){rt0} -> (rt0 + d1), domain: d0 in [0, 2], d1 in [0, 3], rt0 in [0, 5]"),
            vec![read_at(
                "indices",
                "(d0, d1) -> (d0), domain: d0 in [0, 2], d1 in [0, 3]",
            )],
        );
        let composed = reduce.then(&gather).unwrap();
        assert_eq!(
            composed.map,
            map("(d0)[s0]{rt0} -> (d0 + rt0), domain: d0 in [0, 3], s0 in [0, 2], rt0 in [0, 5]")
        );
        assert_eq!(
            composed.runtime[0].map,
            map("(d0)[s0] -> (s0), domain: d0 in [0, 3], s0 in [0, 2]")
        );
    }

    /// A runtime variable no result uses goes, with its provenance and the range variable only
    /// the provenance used.
    #[test]
    fn simplify_drops_an_unused_runtime_variable_and_its_range_variable() {
        let reduce = Access::plain(map(
            "(d0)[s0] -> (s0, d0), domain: d0 in [0, 3], s0 in [0, 2]",
        ));
        let unused = Access::with_runtime(
            map("(d0, d1){rt0} -> (d1), domain: d0 in [0, 2], d1 in [0, 3], rt0 in [0, 5]"),
            vec![read_at(
                "indices",
                "(d0, d1) -> (d0), domain: d0 in [0, 2], d1 in [0, 3]",
            )],
        );
        let composed = reduce.then(&unused).unwrap();
        assert_eq!(composed.map, map("(d0) -> (d0), domain: d0 in [0, 3]"));
        assert!(composed.runtime.is_empty());
    }

    /// Participants compose like provenance: over the consumer's variables.
    #[test]
    fn then_re_expresses_a_participant_over_the_consumer() {
        let reduce = Access::plain(map(
            "(d0)[s0] -> (s0, d0), domain: d0 in [0, 3], s0 in [0, 7]",
        ));
        let all_gather = Access::on_participant(
            map("(d0, d1) -> (d0 mod 2, d1), domain: d0 in [0, 7], d1 in [0, 3]"),
            Participant {
                instruction: "ag".into(),
                map: map("(d0, d1) -> (d0 floordiv 2), domain: d0 in [0, 7], d1 in [0, 3]"),
            },
        );
        let composed = reduce.then(&all_gather).unwrap();
        assert_eq!(
            composed.map,
            map("(d0)[s0] -> (s0 mod 2, d0), domain: d0 in [0, 3], s0 in [0, 7]")
        );
        assert_eq!(
            composed.participants[0].map,
            map("(d0)[s0] -> (s0 floordiv 2), domain: d0 in [0, 3], s0 in [0, 7]")
        );
    }
}
