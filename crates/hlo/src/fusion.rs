//! Indexing of whole computations: the maps of a fusion (or `call`) are the compositions of the
//! per-op maps along every path between the root and each parameter, simplified and
//! deduplicated. Nested fusions and calls are composed recursively; multi-output fusions give
//! one set of maps per result leaf.

use std::collections::HashMap;

use xla_indexing_core::IndexingMap;

use crate::access::Access;
use crate::error::HloError;
use crate::module::{Computation, Module};
use crate::ops::{self, OpContext, OpKind, OrAnalysisError, Outcome};

/// The most distinct maps kept for one target; beyond it the analysis reports the target as
/// undefined rather than grow without bound.
pub const MAX_MAPS: usize = 64;

/// The maps that reach one target, deduplicated, plus the reason when some path has no map
/// (then `accesses` is incomplete).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MapSet {
    pub accesses: Vec<Access>,
    pub undefined: Option<String>,
}

impl MapSet {
    /// A set of one map.
    pub fn single(access: Access) -> MapSet {
        MapSet {
            accesses: vec![access],
            undefined: None,
        }
    }

    /// Adds a map unless an equal one (same map, same runtime variables) is present.
    pub fn insert(&mut self, access: Access) {
        if self.accesses.contains(&access) {
            return;
        }
        if self.accesses.len() >= MAX_MAPS {
            self.mark(format!("more than {MAX_MAPS} distinct maps"));
            return;
        }
        self.accesses.push(access);
    }

    /// Records that some path has no map (the first reason is kept).
    pub fn mark(&mut self, reason: String) {
        self.undefined.get_or_insert(reason);
    }

    /// Adds every `first.then(second)` for `first` in `self` and `second` in `other` to
    /// `target`, with both sets' undefined reasons.
    fn compose_into(
        &self,
        other: &MapSet,
        target: &mut MapSet,
        cx: &OpContext<'_>,
    ) -> Result<(), HloError> {
        for reason in [&self.undefined, &other.undefined].into_iter().flatten() {
            target.mark(reason.clone());
        }
        for a in &self.accesses {
            for b in &other.accesses {
                target.insert(a.then(b).or_err(cx)?);
            }
        }
        Ok(())
    }

    /// Sorts the maps by their text, for a stable order.
    pub fn sort(&mut self) {
        self.accesses.sort_by_cached_key(|a| a.map.to_string());
    }
}

/// Output-to-input maps of one parameter leaf.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParameterMaps {
    pub parameter: usize,
    pub leaf: usize,
    pub maps: MapSet,
}

/// Walks computations, refusing recursion.
pub struct Composer<'m> {
    module: &'m Module,
    active: Vec<usize>,
}

impl<'m> Composer<'m> {
    pub fn new(module: &'m Module) -> Composer<'m> {
        Composer {
            module,
            active: Vec::new(),
        }
    }

    /// Enters the computation called by an instruction, or fails on a recursive call.
    fn called(&mut self, cx: &OpContext<'_>) -> Result<usize, HloError> {
        let key = if cx.instr.opcode == "fusion" {
            "calls"
        } else {
            "to_apply"
        };
        let [name] = cx.instr.called(key) else {
            return Err(cx.error(format!(
                "{} needs one computation in {key}=",
                cx.instr.opcode
            )));
        };
        let c = self
            .module
            .computation(name)
            .ok_or_else(|| cx.error(format!("unknown computation {name}")))?;
        if self.active.contains(&c) {
            return Err(cx.error(format!("computation {name} calls itself")));
        }
        let callee = &self.module.computations[c];
        if callee.num_parameters() != cx.instr.operands.len() {
            return Err(cx.error(format!(
                "{name} has {} parameters but the call passes {} operands",
                callee.num_parameters(),
                cx.instr.operands.len()
            )));
        }
        if !same_leaf_dims(&callee.instructions[callee.root].shape, &cx.instr.shape) {
            return Err(cx.error(format!(
                "the result {} differs from the root of {name}",
                cx.instr.shape
            )));
        }
        Ok(c)
    }

    /// Output leaf `leaf` of computation `c` to each of its parameters (every parameter leaf is
    /// listed, unused ones with no maps), in parameter order.
    pub fn computation_output_to_input(
        &mut self,
        c: usize,
        leaf: usize,
    ) -> Result<Vec<ParameterMaps>, HloError> {
        self.active.push(c);
        let result = self.walk_output_to_input(c, leaf);
        self.active.pop();
        result
    }

    fn walk_output_to_input(
        &mut self,
        c: usize,
        leaf: usize,
    ) -> Result<Vec<ParameterMaps>, HloError> {
        let module = self.module;
        let comp = &module.computations[c];
        let root = &comp.instructions[comp.root];
        let root_cx = OpContext::new(comp, root);
        let root_leaves = root.shape.leaves();
        let shape = root_leaves
            .get(leaf)
            .ok_or_else(|| root_cx.error(format!("has no result {leaf}")))?;
        let mut state: HashMap<(usize, usize), MapSet> = HashMap::new();
        state.insert(
            (comp.root, leaf),
            MapSet::single(Access::plain(IndexingMap::identity(&shape.dims))),
        );
        for &i in comp.post_order.iter().rev() {
            let instr = &comp.instructions[i];
            if instr.parameter_number.is_some() {
                continue;
            }
            for l in 0..instr.shape.leaf_count() {
                let Some(consumer) = state.remove(&(i, l)) else {
                    continue;
                };
                let cx = OpContext::new(comp, instr);
                for (operand, op_leaf, producer) in self.instruction_output_to_input(comp, i, l)? {
                    let target = state.entry((instr.operands[operand], op_leaf)).or_default();
                    consumer.compose_into(&producer, target, &cx)?;
                }
            }
        }
        let mut params: Vec<ParameterMaps> = Vec::new();
        for (i, instr) in comp.instructions.iter().enumerate() {
            let Some(parameter) = instr.parameter_number else {
                continue;
            };
            for l in 0..instr.shape.leaf_count() {
                let mut maps = state.remove(&(i, l)).unwrap_or_default();
                maps.sort();
                params.push(ParameterMaps {
                    parameter,
                    leaf: l,
                    maps,
                });
            }
        }
        params.sort_by_key(|p| (p.parameter, p.leaf));
        Ok(params)
    }

    /// Output leaf `leaf` of instruction `i` to its operands: `(operand, operand leaf, maps)`.
    /// Fusions and calls are composed over their computation (and simplified); other ops give
    /// their maps as built.
    pub fn instruction_output_to_input(
        &mut self,
        comp: &Computation,
        i: usize,
        leaf: usize,
    ) -> Result<Vec<(usize, usize, MapSet)>, HloError> {
        let instr = &comp.instructions[i];
        let cx = OpContext::new(comp, instr);
        if ops::op_kind(&instr.opcode) == Some(OpKind::Call) {
            let c = self.called(&cx)?;
            return Ok(self
                .computation_output_to_input(c, leaf)?
                .into_iter()
                .map(|p| (p.parameter, p.leaf, p.maps))
                .collect());
        }
        Ok(match ops::output_to_input(&cx, leaf)? {
            Outcome::Defined(accesses) => {
                let mut out: Vec<(usize, usize, MapSet)> = Vec::new();
                for a in accesses {
                    match out
                        .iter_mut()
                        .find(|(o, l, _)| (*o, *l) == (a.operand, a.leaf))
                    {
                        Some((_, _, set)) => set.insert(a.access),
                        None => out.push((a.operand, a.leaf, MapSet::single(a.access))),
                    }
                }
                out
            }
            Outcome::NotDefined(reason) => {
                let why = format!("{} (line {}): {reason}", instr.name, instr.pos.line);
                let mut out = Vec::new();
                for (j, &op) in instr.operands.iter().enumerate() {
                    for l in 0..comp.instructions[op].shape.leaf_count() {
                        let mut set = MapSet::default();
                        set.mark(why.clone());
                        out.push((j, l, set));
                    }
                }
                out
            }
        })
    }

    /// Leaf `leaf` of parameter `parameter` of computation `c` to each result leaf of the
    /// computation: `(result leaf, maps)` for every result leaf.
    pub fn computation_input_to_output(
        &mut self,
        c: usize,
        parameter: usize,
        leaf: usize,
    ) -> Result<Vec<(usize, MapSet)>, HloError> {
        self.active.push(c);
        let result = self.walk_input_to_output(c, parameter, leaf);
        self.active.pop();
        result
    }

    fn walk_input_to_output(
        &mut self,
        c: usize,
        parameter: usize,
        leaf: usize,
    ) -> Result<Vec<(usize, MapSet)>, HloError> {
        let module = self.module;
        let comp = &module.computations[c];
        let p = comp.parameter(parameter).ok_or_else(|| {
            HloError::Usage(format!("{} has no parameter {parameter}", comp.name))
        })?;
        let p_instr = &comp.instructions[p];
        let shape = p_instr
            .shape
            .leaves()
            .get(leaf)
            .map(|s| s.dims.clone())
            .ok_or_else(|| OpContext::new(comp, p_instr).error(format!("has no leaf {leaf}")))?;
        let mut users: Vec<Vec<(usize, usize)>> = vec![Vec::new(); comp.instructions.len()];
        for (u, instr) in comp.instructions.iter().enumerate() {
            for (j, &op) in instr.operands.iter().enumerate() {
                users[op].push((u, j));
            }
        }
        let mut state: HashMap<(usize, usize), MapSet> = HashMap::new();
        state.insert(
            (p, leaf),
            MapSet::single(Access::plain(IndexingMap::identity(&shape))),
        );
        for &i in &comp.post_order {
            for l in 0..comp.instructions[i].shape.leaf_count() {
                let Some(producer) = state.get(&(i, l)).cloned() else {
                    continue;
                };
                for &(u, j) in &users[i] {
                    let cx = OpContext::new(comp, &comp.instructions[u]);
                    for (out_leaf, consumer) in self.instruction_input_to_output(comp, u, j, l)? {
                        let target = state.entry((u, out_leaf)).or_default();
                        producer.compose_into(&consumer, target, &cx)?;
                    }
                }
            }
        }
        let root = &comp.instructions[comp.root];
        Ok((0..root.shape.leaf_count())
            .map(|l| {
                let mut maps = state.remove(&(comp.root, l)).unwrap_or_default();
                maps.sort();
                (l, maps)
            })
            .collect())
    }

    /// Leaf `leaf` of operand `operand` of instruction `i` to its result leaves:
    /// `(result leaf, maps)`.
    pub fn instruction_input_to_output(
        &mut self,
        comp: &Computation,
        i: usize,
        operand: usize,
        leaf: usize,
    ) -> Result<Vec<(usize, MapSet)>, HloError> {
        let instr = &comp.instructions[i];
        let cx = OpContext::new(comp, instr);
        if ops::op_kind(&instr.opcode) == Some(OpKind::Call) {
            let c = self.called(&cx)?;
            return self.computation_input_to_output(c, operand, leaf);
        }
        Ok(match ops::input_to_output(&cx, operand, leaf)? {
            Outcome::Defined(accesses) => {
                let mut out: Vec<(usize, MapSet)> = Vec::new();
                for a in accesses {
                    match out.iter_mut().find(|(l, _)| *l == a.leaf) {
                        Some((_, set)) => set.insert(a.access),
                        None => out.push((a.leaf, MapSet::single(a.access))),
                    }
                }
                out
            }
            Outcome::NotDefined(reason) => {
                let why = format!("{} (line {}): {reason}", instr.name, instr.pos.line);
                (0..instr.shape.leaf_count())
                    .map(|l| {
                        let mut set = MapSet::default();
                        set.mark(why.clone());
                        (l, set)
                    })
                    .collect()
            }
        })
    }
}

/// Whether two shapes have the same leaves with the same dimensions.
fn same_leaf_dims(a: &crate::shape::Shape, b: &crate::shape::Shape) -> bool {
    let (x, y) = (a.leaves(), b.leaves());
    x.len() == y.len() && x.iter().zip(&y).all(|(p, q)| p.dims == q.dims)
}
