//! Indexing of whole computations: the maps of a fusion (or `call`) are the compositions of the
//! per-op maps along every path between the root and each parameter, simplified and
//! deduplicated. Nested fusions and calls are composed over their computations; multi-output
//! fusions give one set of maps per result leaf.
//!
//! The walks over nested computations keep their own stack ([`Composer`]): a walk that reaches
//! a call waits while the callee is walked, so that a nest of thousands of calls takes heap,
//! not thread stack. Every finished walk is kept, so a computation called from many places is
//! walked once.

use crate::opcode::Opcode;
use std::cell::OnceCell;
use std::collections::HashMap;

use xla_indexing_core::IndexingMap;

use crate::access::Access;
use crate::direction::Direction;
use crate::error::HloError;
use crate::known::KnownValues;
use crate::module::{Computation, Module};
use crate::ops::{self, OpContext, OpKind, OrAnalysisError, Outcome};
use crate::parser::cursor::Pos;
use crate::trip_count::known_trip_count;
use crate::while_loop::Loop;

/// The most distinct maps kept for one target; beyond it the analysis reports the target as
/// undefined rather than grow without bound.
pub const MAX_MAPS: usize = 64;

/// The maps that reach one target, deduplicated, plus the reason when some path has no map
/// (then `accesses` is incomplete).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MapSet {
    /// The distinct maps, each with its runtime variables and participants.
    pub accesses: Vec<Access>,
    /// Why some path to the target has no map, if one has none.
    pub undefined: Option<String>,
    /// Where the instruction `undefined` is about is in the text (an op without maps), when
    /// one instruction is the reason.
    pub undefined_at: Option<Pos>,
}

impl MapSet {
    /// A set of one map.
    pub fn single(access: Access) -> MapSet {
        MapSet {
            accesses: vec![access],
            ..MapSet::default()
        }
    }

    /// Adds a map unless an equal one (same map, same runtime variables) is present.
    pub fn insert(&mut self, access: Access) {
        if self.accesses.contains(&access) {
            return;
        }
        if self.accesses.len() >= MAX_MAPS {
            self.mark(format!("more than {MAX_MAPS} distinct maps"), None);
            return;
        }
        self.accesses.push(access);
    }

    /// Records that some path has no map, because of the instruction at `at` when there is
    /// one (the first reason is kept, with its place).
    pub fn mark(&mut self, reason: String, at: Option<Pos>) {
        if self.undefined.is_none() {
            self.undefined = Some(reason);
            self.undefined_at = at;
        }
    }

    /// Adds every `first.then(second)` for `first` in `self` and `second` in `other` to
    /// `target`, with both sets' undefined reasons.
    pub(crate) fn compose_into(
        &self,
        other: &MapSet,
        target: &mut MapSet,
        cx: &OpContext<'_>,
    ) -> Result<(), HloError> {
        for set in [self, other] {
            if let Some(reason) = &set.undefined {
                target.mark(reason.clone(), set.undefined_at);
            }
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
    /// The parameter number (`N` of `parameter(N)`).
    pub parameter: usize,
    /// The leaf of the parameter's shape (0 for an array).
    pub leaf: usize,
    /// The maps from the result leaf to this parameter leaf.
    pub maps: MapSet,
}

/// Output-to-input maps of one result leaf of an instruction of a computation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InstructionMaps {
    /// The instruction (its index in the computation).
    pub instruction: usize,
    /// The leaf of the instruction's result.
    pub leaf: usize,
    /// The maps from the computation's result leaf to this leaf.
    pub maps: MapSet,
}

/// Walks computations, refusing recursion, and keeps what it walked.
pub struct Composer<'m> {
    module: &'m Module,
    /// Per computation, whether a walk of it is under way (a call to it now is recursion).
    active: Vec<bool>,
    /// Finished output-to-input walks by `(computation, instruction walked from, result leaf)`.
    outputs: HashMap<(usize, usize, usize), Vec<ParameterMaps>>,
    /// Finished input-to-output walks by `(computation, parameter, leaf)`.
    inputs: HashMap<(usize, usize, usize), Vec<(usize, MapSet)>>,
    /// Finished walks from a result leaf to every instruction, by `(computation, leaf)`.
    instructions: HashMap<(usize, usize), Vec<InstructionMaps>>,
    /// The values the module fixes, indexed when a loop first needs them.
    known: OnceCell<KnownValues<'m>>,
}

/// One walk over a computation: from a result leaf to the parameters, or from a parameter leaf
/// to the results.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Walk {
    /// From result leaf `leaf` of instruction `from` (the root for a computation's walk).
    OutputToInput { c: usize, from: usize, leaf: usize },
    /// As `OutputToInput` from the root, keeping the maps at every instruction reached.
    OutputToInstructions { c: usize, leaf: usize },
    InputToOutput {
        c: usize,
        parameter: usize,
        leaf: usize,
    },
}

/// An instruction's maps from one result leaf to its operands: `(operand, operand leaf, maps)`.
pub type OperandMaps = Vec<(usize, usize, MapSet)>;

/// The maps of one instruction, or the walk of its callee they wait for.
enum Maps<T> {
    Ready(T),
    Needs(Walk),
}

/// Where a walk under way has got to: the maps reached so far, keyed by `(instruction, leaf)`,
/// and the next step, so that it can wait for a callee's walk and go on.
struct Frame<'m> {
    walk: Walk,
    comp: &'m Computation,
    state: HashMap<(usize, usize), MapSet>,
    /// The next instruction, as a position in the walk's order.
    position: usize,
    /// The next leaf of that instruction.
    leaf: usize,
    /// Input to output: the next user of that leaf, and each instruction's users
    /// `(user, operand position)`.
    user: usize,
    users: Vec<Vec<(usize, usize)>>,
    /// Output to instructions: the maps at each instruction's leaf, as the walk leaves it.
    reached: Option<Vec<InstructionMaps>>,
}

impl<'m> Composer<'m> {
    /// A composer over `module` that has walked nothing yet.
    pub fn new(module: &'m Module) -> Composer<'m> {
        Composer {
            module,
            active: vec![false; module.computations.len()],
            outputs: HashMap::new(),
            inputs: HashMap::new(),
            instructions: HashMap::new(),
            known: OnceCell::new(),
        }
    }

    /// Output leaf `leaf` of computation `c` to each of its parameters (every parameter leaf is
    /// listed, unused ones with no maps), in parameter order.
    pub fn computation_output_to_input(
        &mut self,
        c: usize,
        leaf: usize,
    ) -> Result<Vec<ParameterMaps>, HloError> {
        self.instruction_to_parameters(c, self.module.computations[c].root, leaf)
    }

    /// Result leaf `leaf` of instruction `from` of computation `c` to each of the computation's
    /// parameters, as [`Composer::computation_output_to_input`] gives them for the root: what
    /// an emitter that computes `from`'s elements itself (a reduction's input) reads.
    pub fn instruction_to_parameters(
        &mut self,
        c: usize,
        from: usize,
        leaf: usize,
    ) -> Result<Vec<ParameterMaps>, HloError> {
        loop {
            if let Some(done) = self.outputs.get(&(c, from, leaf)) {
                return Ok(done.clone());
            }
            self.run(Walk::OutputToInput { c, from, leaf })?;
        }
    }

    /// Output leaf `leaf` of computation `c` to the result leaves of every instruction it
    /// reaches (the root, the intermediates and the parameters), in the order the walk reaches
    /// them (from the root): the maps an output tile reads each instruction's values through.
    pub fn computation_output_to_instructions(
        &mut self,
        c: usize,
        leaf: usize,
    ) -> Result<Vec<InstructionMaps>, HloError> {
        loop {
            if let Some(done) = self.instructions.get(&(c, leaf)) {
                return Ok(done.clone());
            }
            self.run(Walk::OutputToInstructions { c, leaf })?;
        }
    }

    /// Leaf `leaf` of parameter `parameter` of computation `c` to each result leaf of the
    /// computation: `(result leaf, maps)` for every result leaf.
    pub fn computation_input_to_output(
        &mut self,
        c: usize,
        parameter: usize,
        leaf: usize,
    ) -> Result<Vec<(usize, MapSet)>, HloError> {
        loop {
            if let Some(done) = self.inputs.get(&(c, parameter, leaf)) {
                return Ok(done.clone());
            }
            self.run(Walk::InputToOutput { c, parameter, leaf })?;
        }
    }

    /// Output leaf `leaf` of instruction `i` to its operands: `(operand, operand leaf, maps)`.
    /// Fusions and calls are composed over their computation (and simplified); other ops give
    /// their maps as built.
    pub fn instruction_output_to_input(
        &mut self,
        comp: &Computation,
        i: usize,
        leaf: usize,
    ) -> Result<OperandMaps, HloError> {
        loop {
            match self.output_maps(comp, i, leaf)? {
                Maps::Ready(maps) => return Ok(maps),
                Maps::Needs(walk) => self.run(walk)?,
            }
        }
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
        loop {
            match self.input_maps(comp, i, operand, leaf)? {
                Maps::Ready(maps) => return Ok(maps),
                Maps::Needs(walk) => self.run(walk)?,
            }
        }
    }

    /// Does `walk` and every walk it waits for, one frame per computation on a stack of its
    /// own, and keeps each result.
    fn run(&mut self, walk: Walk) -> Result<(), HloError> {
        let mut stack = Vec::new();
        let result = self.drive(walk, &mut stack);
        for frame in &stack {
            self.active[frame.computation()] = false;
        }
        result
    }

    fn drive(&mut self, walk: Walk, stack: &mut Vec<Frame<'m>>) -> Result<(), HloError> {
        stack.push(self.start(walk)?);
        while let Some(frame) = stack.last_mut() {
            if let Some(callee) = frame.resume(self)? {
                let started = self.start(callee)?;
                stack.push(started);
            } else if let Some(done) = stack.pop() {
                self.active[done.computation()] = false;
                self.finish(done);
            }
        }
        Ok(())
    }

    /// A frame at the start of `walk`: the identity map at its leaf.
    fn start(&mut self, walk: Walk) -> Result<Frame<'m>, HloError> {
        let module = self.module;
        let (c, at, leaf) = match walk {
            Walk::OutputToInput { c, from, leaf } => (c, from, leaf),
            Walk::OutputToInstructions { c, leaf } => (c, module.computations[c].root, leaf),
            Walk::InputToOutput { c, parameter, leaf } => {
                let comp = &module.computations[c];
                let p = comp.parameter(parameter).ok_or_else(|| {
                    HloError::Usage(format!("{} has no parameter {parameter}", comp.name))
                })?;
                (c, p, leaf)
            }
        };
        let comp = &module.computations[c];
        let instr = &comp.instructions[at];
        let shape = instr.shape.leaves().get(leaf).map(|s| s.dims.clone());
        let shape = shape.ok_or_else(|| {
            let what = match walk {
                Walk::InputToOutput { .. } => "leaf",
                _ => "result",
            };
            OpContext::new(module, comp, instr).error(format!("has no {what} {leaf}"))
        })?;
        let at = (at, leaf);
        let comp = &module.computations[c];
        let mut users = Vec::new();
        if let Walk::InputToOutput { .. } = walk {
            users = vec![Vec::new(); comp.instructions.len()];
            for (u, instr) in comp.instructions.iter().enumerate() {
                for (j, &op) in instr.operands.iter().enumerate() {
                    users[op].push((u, j));
                }
            }
        }
        let mut state = HashMap::new();
        state.insert(
            at,
            MapSet::single(Access::plain(IndexingMap::identity(&shape))),
        );
        self.active[c] = true;
        let reached = matches!(walk, Walk::OutputToInstructions { .. }).then(Vec::new);
        Ok(Frame {
            walk,
            comp,
            state,
            position: 0,
            leaf: 0,
            user: 0,
            users,
            reached,
        })
    }

    /// Keeps the result of a finished walk: the maps at every parameter leaf, at every
    /// instruction's leaf, or at every result leaf.
    fn finish(&mut self, frame: Frame<'m>) {
        let Frame {
            walk,
            comp,
            mut state,
            reached,
            ..
        } = frame;
        match walk {
            Walk::OutputToInstructions { c, leaf } => {
                let mut all = reached.unwrap_or_default();
                for (i, _, l, maps) in take_parameter_maps(comp, &mut state) {
                    if let Some(maps) = maps {
                        all.push(InstructionMaps {
                            instruction: i,
                            leaf: l,
                            maps,
                        });
                    }
                }
                for a in &mut all {
                    a.maps.sort();
                }
                self.instructions.insert((c, leaf), all);
            }
            Walk::OutputToInput { c, from, leaf } => {
                let mut params: Vec<ParameterMaps> = take_parameter_maps(comp, &mut state)
                    .into_iter()
                    .map(|(_, parameter, l, maps)| {
                        let mut maps = maps.unwrap_or_default();
                        maps.sort();
                        ParameterMaps {
                            parameter,
                            leaf: l,
                            maps,
                        }
                    })
                    .collect();
                params.sort_by_key(|p| (p.parameter, p.leaf));
                self.outputs.insert((c, from, leaf), params);
            }
            Walk::InputToOutput { c, parameter, leaf } => {
                let root = &comp.instructions[comp.root];
                let results = (0..root.shape.leaf_count())
                    .map(|l| {
                        let mut maps = state.remove(&(comp.root, l)).unwrap_or_default();
                        maps.sort();
                        (l, maps)
                    })
                    .collect();
                self.inputs.insert((c, parameter, leaf), results);
            }
        }
    }

    /// The computation an instruction calls; an error when it is being walked (a recursive
    /// call) or does not match the call.
    fn called(&self, cx: &OpContext<'_>) -> Result<usize, HloError> {
        let c = callee(self.module, cx)?;
        if self.active[c] {
            return Err(recursion_error(self.module, cx, c));
        }
        Ok(c)
    }

    /// [`Composer::instruction_output_to_input`], or the callee's walk it needs first.
    fn output_maps(
        &self,
        comp: &Computation,
        i: usize,
        leaf: usize,
    ) -> Result<Maps<OperandMaps>, HloError> {
        let instr = &comp.instructions[i];
        let cx = OpContext::new(self.module, comp, instr);
        if let Some(trips) = known_trip_count(self.module, comp, instr) {
            let maps = self.loop_maps(&cx, trips, Direction::OutputToInput, leaf)?;
            return Ok(match maps {
                Maps::Ready(maps) => {
                    Maps::Ready(maps.into_iter().map(|(l, m)| (0, l, m)).collect())
                }
                Maps::Needs(walk) => Maps::Needs(walk),
            });
        }
        if ops::instruction_kind(instr) == Some(OpKind::Call) {
            let c = self.called(&cx)?;
            let from = self.module.computations[c].root;
            return Ok(match self.outputs.get(&(c, from, leaf)) {
                Some(params) => Maps::Ready(
                    params
                        .iter()
                        .map(|p| (p.parameter, p.leaf, p.maps.clone()))
                        .collect(),
                ),
                None => Maps::Needs(Walk::OutputToInput { c, from, leaf }),
            });
        }
        Ok(Maps::Ready(match ops::output_to_input(&cx, leaf)? {
            Outcome::Defined(accesses) => {
                let mut out: OperandMaps = Vec::new();
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
                        set.mark(why.clone(), Some(instr.pos));
                        out.push((j, l, set));
                    }
                }
                out
            }
        }))
    }

    /// The maps of leaf `leaf` of a `while` that runs `trips`, from its result leaf to its
    /// initial state's leaves (`direction` output to input) or from its initial state's leaf to
    /// its result leaves: `(leaf, maps)` for every leaf on the other side; or the walk of its
    /// body they need first.
    fn loop_maps(
        &self,
        cx: &OpContext<'_>,
        trips: crate::trip_count::TripCount,
        direction: Direction,
        leaf: usize,
    ) -> Result<Maps<Vec<(usize, MapSet)>>, HloError> {
        let [name] = cx.instr.called("body") else {
            return Err(cx.error("while needs one computation in body="));
        };
        let body = self
            .module
            .computation(name)
            .ok_or_else(|| cx.error(format!("unknown computation {name}")))?;
        if self.active[body] {
            return Err(recursion_error(self.module, cx, body));
        }
        let from = self.module.computations[body].root;
        let mut body_maps = Vec::new();
        for k in 0..cx.instr.shape.leaf_count() {
            let edges = match direction {
                Direction::OutputToInput => self
                    .outputs
                    .get(&(body, from, k))
                    .map(|params| params.iter().map(|p| (p.leaf, p.maps.clone())).collect()),
                Direction::InputToOutput => self.inputs.get(&(body, 0, k)).cloned(),
            };
            match edges {
                Some(edges) => body_maps.push(edges),
                None => {
                    return Ok(Maps::Needs(match direction {
                        Direction::OutputToInput => Walk::OutputToInput {
                            c: body,
                            from,
                            leaf: k,
                        },
                        Direction::InputToOutput => Walk::InputToOutput {
                            c: body,
                            parameter: 0,
                            leaf: k,
                        },
                    }));
                }
            }
        }
        let known = self.known.get_or_init(|| KnownValues::new(self.module));
        let the_loop = Loop {
            cx,
            body,
            trips,
            direction,
            body_maps: &body_maps,
        };
        Ok(Maps::Ready(
            the_loop
                .maps(known, leaf)?
                .into_iter()
                .enumerate()
                .collect(),
        ))
    }

    /// [`Composer::instruction_input_to_output`], or the callee's walk it needs first.
    fn input_maps(
        &self,
        comp: &Computation,
        i: usize,
        operand: usize,
        leaf: usize,
    ) -> Result<Maps<Vec<(usize, MapSet)>>, HloError> {
        let instr = &comp.instructions[i];
        let cx = OpContext::new(self.module, comp, instr);
        if let Some(trips) = known_trip_count(self.module, comp, instr) {
            return self.loop_maps(&cx, trips, Direction::InputToOutput, leaf);
        }
        if ops::instruction_kind(instr) == Some(OpKind::Call) {
            let c = self.called(&cx)?;
            return Ok(match self.inputs.get(&(c, operand, leaf)) {
                Some(results) => Maps::Ready(results.clone()),
                None => Maps::Needs(Walk::InputToOutput {
                    c,
                    parameter: operand,
                    leaf,
                }),
            });
        }
        Ok(Maps::Ready(
            match ops::input_to_output(&cx, operand, leaf)? {
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
                            set.mark(why.clone(), Some(instr.pos));
                            (l, set)
                        })
                        .collect()
                }
            },
        ))
    }
}

impl<'m> Frame<'m> {
    fn computation(&self) -> usize {
        match self.walk {
            Walk::OutputToInput { c, .. }
            | Walk::OutputToInstructions { c, .. }
            | Walk::InputToOutput { c, .. } => c,
        }
    }

    /// Goes on with the walk until it is done (`None`) or waits for a callee's walk.
    fn resume(&mut self, composer: &Composer<'m>) -> Result<Option<Walk>, HloError> {
        match self.walk {
            Walk::OutputToInput { .. } | Walk::OutputToInstructions { .. } => {
                self.resume_output_to_input(composer)
            }
            Walk::InputToOutput { .. } => self.resume_input_to_output(composer),
        }
    }

    /// From the root towards the parameters: each instruction's maps, once all its users have
    /// added theirs, composed with the instruction's own maps into its operands'.
    fn resume_output_to_input(
        &mut self,
        composer: &Composer<'m>,
    ) -> Result<Option<Walk>, HloError> {
        let comp = self.comp;
        let order = &comp.post_order;
        while self.position < order.len() {
            let i = order[order.len() - 1 - self.position];
            let instr = &comp.instructions[i];
            let leaves = if instr.parameter_number.is_some() {
                0
            } else {
                instr.shape.leaf_count()
            };
            while self.leaf < leaves {
                let l = self.leaf;
                if self.state.contains_key(&(i, l)) {
                    let producers = match composer.output_maps(comp, i, l)? {
                        Maps::Ready(maps) => maps,
                        Maps::Needs(walk) => return Ok(Some(walk)),
                    };
                    let consumer = self.state.remove(&(i, l)).unwrap_or_default();
                    if let Some(reached) = &mut self.reached {
                        reached.push(InstructionMaps {
                            instruction: i,
                            leaf: l,
                            maps: consumer.clone(),
                        });
                    }
                    let cx = OpContext::new(composer.module, comp, instr);
                    for (operand, op_leaf, producer) in producers {
                        let target = self
                            .state
                            .entry((instr.operands[operand], op_leaf))
                            .or_default();
                        consumer.compose_into(&producer, target, &cx)?;
                    }
                }
                self.leaf += 1;
            }
            self.position += 1;
            self.leaf = 0;
        }
        Ok(None)
    }

    /// From the parameter towards the root: each instruction's maps, once all its operands
    /// have added theirs, composed with each user's maps into the user's.
    fn resume_input_to_output(
        &mut self,
        composer: &Composer<'m>,
    ) -> Result<Option<Walk>, HloError> {
        let comp = self.comp;
        let order = &comp.post_order;
        while self.position < order.len() {
            let i = order[self.position];
            while self.leaf < comp.instructions[i].shape.leaf_count() {
                let l = self.leaf;
                if let Some(producer) = self.state.get(&(i, l)).cloned() {
                    while let Some(&(u, j)) = self.users[i].get(self.user) {
                        let consumers = match composer.input_maps(comp, u, j, l)? {
                            Maps::Ready(maps) => maps,
                            Maps::Needs(walk) => return Ok(Some(walk)),
                        };
                        let cx = OpContext::new(composer.module, comp, &comp.instructions[u]);
                        for (out_leaf, consumer) in consumers {
                            let target = self.state.entry((u, out_leaf)).or_default();
                            producer.compose_into(&consumer, target, &cx)?;
                        }
                        self.user += 1;
                    }
                }
                self.leaf += 1;
                self.user = 0;
            }
            self.position += 1;
            self.leaf = 0;
        }
        Ok(None)
    }
}

/// The computation a `fusion` (`calls=`) or `call` (`to_apply=`) calls; an error when there is
/// not exactly one, or when its parameters or root do not match the instruction's operands and
/// result.
pub(crate) fn callee(module: &Module, cx: &OpContext<'_>) -> Result<usize, HloError> {
    let key = if cx.instr.opcode == Opcode::Fusion {
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
    let c = module
        .computation(name)
        .ok_or_else(|| cx.error(format!("unknown computation {name}")))?;
    let callee = &module.computations[c];
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

/// The error of the instruction of `cx`, which calls computation `c` while `c` is being walked.
pub(crate) fn recursion_error(module: &Module, cx: &OpContext<'_>, c: usize) -> HloError {
    cx.error(format!(
        "computation {} calls itself",
        module.computations[c].name
    ))
}

/// Whether two shapes have the same leaves with the same dimensions.
fn same_leaf_dims(a: &crate::shape::Shape, b: &crate::shape::Shape) -> bool {
    let (x, y) = (a.leaves(), b.leaves());
    x.len() == y.len() && x.iter().zip(&y).all(|(p, q)| p.dims == q.dims)
}

/// Every leaf of every parameter of `comp` with the maps a walk reached it with, taken out of
/// `state`: `(instruction, parameter number, leaf, maps)`, `None` where none reached it.
fn take_parameter_maps(
    comp: &Computation,
    state: &mut HashMap<(usize, usize), MapSet>,
) -> Vec<(usize, usize, usize, Option<MapSet>)> {
    let mut out = Vec::new();
    for (i, instr) in comp.instructions.iter().enumerate() {
        let Some(parameter) = instr.parameter_number else {
            continue;
        };
        for l in 0..instr.shape.leaf_count() {
            out.push((i, parameter, l, state.remove(&(i, l))));
        }
    }
    out
}
