//! Maps through a `while` whose trip count the module proves ([`crate::trip_count`]): a result
//! leaf of the loop reads the initial state through every iteration's body, so its maps are
//! the compositions along every path through the iterations, last to first. Each iteration's
//! body maps are folded with the counter's value in that iteration ([`Iteration`]), so a
//! `dynamic-slice` at the counter reads one row per iteration, not any row.
//!
//! With `S_n` the maps from a result leaf to the state's leaves before iteration `n`,
//! `S_T = {identity at the leaf}` and `S_n[j] = ⋃_k S_{n+1}[k] ∘ B_n[k][j]`, where `B_n[k][j]`
//! are the body's maps from its result leaf `k` to its parameter leaf `j` in iteration `n`.
//! The loop's maps are `S_0`; from the initial state to the results they are composed the
//! other way, first iteration first, through the body's input-to-output maps. When no body map
//! depends on the counter, every `B_n` is the same `B`, so the sets repeat once one repeats
//! (with period 1 when they settle, 2 when each iteration reverses a carry), and the walk stops
//! at the first repeat and reads the last set off the cycle: a billion iterations cost a few
//! steps. When one does, every iteration is composed, at most [`MAX_ITERATIONS`] of them. Maps
//! of one leaf whose union is exact as one map are merged after each step ([`merge_touching`]).

use crate::access::Access;
use crate::direction::Direction;
use crate::error::HloError;
use crate::fusion::MapSet;
use crate::known::{Iteration, KnownValues};
use crate::map_union::merge_touching;
use crate::ops::OpContext;
use crate::trip_count::TripCount;
use xla_indexing_core::IndexingMap;

/// The most iterations composed one by one when the body's maps depend on the counter.
pub const MAX_ITERATIONS: i64 = 1024;

/// The body's maps in one direction: per leaf of the body's result (output to input) or
/// parameter (input to output), the maps to each leaf on the other side, `(leaf, maps)`.
pub type BodyMaps = Vec<Vec<(usize, MapSet)>>;

/// The loop of `cx` (a `while` with `trips`) and its body's maps in `direction`.
pub struct Loop<'a> {
    /// The `while`.
    pub cx: &'a OpContext<'a>,
    /// Its body (a computation index).
    pub body: usize,
    /// How its counter runs.
    pub trips: TripCount,
    /// The direction of the maps.
    pub direction: Direction,
    /// The body's maps in that direction.
    pub body_maps: &'a BodyMaps,
}

impl Loop<'_> {
    /// The maps from leaf `leaf` of the loop's result (output to input) or initial state (input
    /// to output) to each leaf of the other, in leaf order. Output to input, the iterations are
    /// composed last to first; input to output, first to last, with `S_0` the identity at the
    /// state's leaf and `S_{n+1}[k] = ⋃_j S_n[j] ∘ B_n[j][k]`.
    pub fn maps(&self, known: &KnownValues<'_>, leaf: usize) -> Result<Vec<MapSet>, HloError> {
        let leaves = self.cx.instr.shape.leaves();
        let shape = leaves
            .get(leaf)
            .ok_or_else(|| self.cx.error(format!("has no leaf {leaf}")))?;
        let mut state = vec![MapSet::default(); leaves.len()];
        state[leaf] = MapSet::single(Access::plain(IndexingMap::identity(&shape.dims)));
        // What the module's constants fix, folded once: a runtime variable left may depend on
        // the counter.
        let body = self.body_folded(known, None);
        let reads_through_the_counter = body
            .iter()
            .flatten()
            .any(|(_, set)| set.accesses.iter().any(|a| !a.runtime.is_empty()));
        if reads_through_the_counter {
            self.through_every_iteration(known, state)
        } else {
            self.through_repeating_iterations(&body, state)
        }
    }

    /// The last set when the body reads through the counter: each iteration's maps composed in
    /// turn.
    fn through_every_iteration(
        &self,
        known: &KnownValues<'_>,
        mut state: Vec<MapSet>,
    ) -> Result<Vec<MapSet>, HloError> {
        if self.trips.iterations > MAX_ITERATIONS {
            return Ok(self.too_many(state.len(), "its body reads through the counter"));
        }
        let counter = self.counter_leaf()?;
        let order: Box<dyn Iterator<Item = i64>> = match self.direction {
            Direction::OutputToInput => Box::new((0..self.trips.iterations).rev()),
            Direction::InputToOutput => Box::new(0..self.trips.iterations),
        };
        for n in order {
            let iteration = Iteration {
                body: self.body,
                leaf: counter,
                value: self.trips.start + n * self.trips.step,
            };
            state = self.step(&self.body_folded(known, Some(iteration)), &state)?;
        }
        Ok(state)
    }

    /// The last set when every iteration's maps are the same `B`: each set is a function of the
    /// one before alone, so once a set repeats one seen `p` steps earlier, the sets repeat with
    /// period `p` (a reversal every iteration alternates), and the last is the one that many
    /// steps further along the cycle, without walking the rest.
    fn through_repeating_iterations(
        &self,
        body: &BodyMaps,
        state: Vec<MapSet>,
    ) -> Result<Vec<MapSet>, HloError> {
        let trips = self.trips.iterations;
        let mut seen = vec![state];
        while (seen.len() as i64) <= trips {
            let next = self.step(body, &seen[seen.len() - 1])?;
            if let Some(first) = seen.iter().position(|s| *s == next) {
                let period = (seen.len() - first) as i64;
                let at = first as i64 + (trips - first as i64) % period;
                return Ok(seen.swap_remove(at as usize));
            }
            if seen.len() as i64 > MAX_ITERATIONS {
                return Ok(self.too_many(next.len(), "its maps do not repeat"));
            }
            seen.push(next);
        }
        Ok(seen.pop().unwrap_or_default())
    }

    /// One step through one iteration's body maps `body` (`S_{n+1}` to `S_n` output to input):
    /// every path from a leaf the set reaches, through the body, to a leaf on its other side.
    fn step(&self, body: &BodyMaps, state: &[MapSet]) -> Result<Vec<MapSet>, HloError> {
        let mut next = vec![MapSet::default(); state.len()];
        for (k, reached) in state.iter().enumerate() {
            if reached.accesses.is_empty() && reached.undefined.is_none() {
                continue;
            }
            for (leaf, maps) in body.get(k).into_iter().flatten() {
                let target = next
                    .get_mut(*leaf)
                    .ok_or_else(|| self.cx.error(format!("its body has no leaf {leaf}")))?;
                reached.compose_into(maps, target, self.cx)?;
            }
        }
        for set in &mut next {
            merge_touching(&mut set.accesses);
            set.sort();
        }
        Ok(next)
    }

    /// Every leaf undefined: the loop runs more iterations than are composed one by one.
    fn too_many(&self, leaves: usize, because: &str) -> Vec<MapSet> {
        let mut set = MapSet::default();
        set.mark(
            format!(
                "{} (line {}): {because}, and maps are composed through at most \
                 {MAX_ITERATIONS} iterations, not {}",
                self.cx.instr.name, self.cx.instr.pos.line, self.trips.iterations
            ),
            Some(self.cx.instr.pos),
        );
        vec![set; leaves]
    }

    /// The counter's leaf of the loop's state.
    fn counter_leaf(&self) -> Result<usize, HloError> {
        usize::try_from(self.trips.element)
            .ok()
            .and_then(|e| self.cx.instr.shape.element_leaves(e))
            .map(|leaves| leaves.start)
            .ok_or_else(|| {
                self.cx.error(format!(
                    "its state has no element {} for the counter",
                    self.trips.element
                ))
            })
    }

    /// The body's maps with what the module fixes folded in, and the counter's value when
    /// `iteration` gives it.
    fn body_folded(&self, known: &KnownValues<'_>, iteration: Option<Iteration>) -> BodyMaps {
        self.body_maps
            .iter()
            .map(|edges| {
                edges
                    .iter()
                    .map(|(leaf, set)| {
                        let mut folded = MapSet {
                            accesses: Vec::new(),
                            ..set.clone()
                        };
                        for a in &set.accesses {
                            folded.insert(match iteration {
                                Some(iteration) => known.fold_in_iteration(a, iteration),
                                None => known.fold(a),
                            });
                        }
                        (*leaf, folded)
                    })
                    .collect()
            })
            .collect()
    }
}
