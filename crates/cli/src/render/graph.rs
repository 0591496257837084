//! The producer-consumer graph of an HLO module as data: one node per instruction of the entry
//! computation and of every fused computation reached from it, one cluster per fusion, one edge
//! per operand labelled with its indexing maps (from the consumer's output to the producer's
//! output).
//!
//! A fusion is drawn as its computation: the fusion's operands feed the fused computation's
//! parameters, and the edge that enters a cluster carries the fusion's composed maps (from the
//! fusion's result to that parameter); the fusion's users read the fused root.

use std::collections::HashMap;
use xla_indexing_hlo::Opcode;

use xla_indexing_hlo::HloError;
use xla_indexing_hlo::fusion::{Composer, MapSet};
use xla_indexing_hlo::module::{Computation, Module};
use xla_indexing_hlo::ops::{OpKind, instruction_family, instruction_kind};

use crate::progress::Progress;

/// Fusions nested deeper than this are drawn as plain nodes.
const MAX_NESTING: usize = 16;
/// The most nodes a graph has (a fused computation is drawn once per fusion that calls it).
pub const MAX_NODES: usize = 1_000_000;

/// The graph of a module.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Graph {
    /// The module's name.
    pub name: String,
    pub nodes: Vec<Node>,
    pub clusters: Vec<Cluster>,
    pub edges: Vec<Edge>,
}

/// One instruction.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub name: String,
    pub computation: String,
    pub opcode: Opcode,
    pub shape: String,
    /// The innermost cluster holding the node.
    pub cluster: Option<usize>,
}

/// A fusion: the instruction and the computation it calls.
#[derive(Clone, Debug, PartialEq)]
pub struct Cluster {
    pub fusion: String,
    pub computation: String,
    /// `kLoop`, `kInput`, ... when written.
    pub kind: Option<String>,
    /// The enclosing cluster of a nested fusion.
    pub parent: Option<usize>,
}

/// The members of the top level (slot 0) and of each cluster `k` (slot `k + 1`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Nesting {
    /// The nodes directly inside each slot.
    pub nodes: Vec<Vec<usize>>,
    /// The clusters directly inside each slot.
    pub clusters: Vec<Vec<usize>>,
}

/// A producer-consumer edge.
#[derive(Clone, Debug, PartialEq)]
pub struct Edge {
    pub from: usize,
    pub to: usize,
    /// The operand position at the consumer (the parameter number for an edge into a fusion).
    pub operand: usize,
    /// Map texts, each prefixed with `out K: ` when the consumer has several results.
    pub maps: Vec<String>,
    /// Why some path has no map, when one has none.
    pub undefined: Option<String>,
}

impl Graph {
    /// The graph of the entry computation and every fusion it reaches.
    pub fn build(module: &Module, progress: &mut Progress) -> Result<Graph, HloError> {
        let mut builder = Builder {
            module,
            composer: Composer::new(module),
            graph: Graph {
                name: module.name.clone(),
                ..Graph::default()
            },
            progress,
        };
        builder.computation(module.entry, None, 0)?;
        Ok(builder.graph)
    }

    /// The number of instructions [`Graph::build`] visits (at most [`MAX_NODES`]), for progress.
    pub fn work(module: &Module) -> usize {
        count_work(module, module.entry, 0)
    }

    /// The nesting of nodes and clusters: slot 0 is the top level, slot `k + 1` cluster `k`.
    pub fn nesting(&self) -> Nesting {
        let slot = |c: Option<usize>| c.map_or(0, |k| k + 1);
        let mut nesting = Nesting {
            nodes: vec![Vec::new(); self.clusters.len() + 1],
            clusters: vec![Vec::new(); self.clusters.len() + 1],
        };
        for (n, node) in self.nodes.iter().enumerate() {
            nesting.nodes[slot(node.cluster)].push(n);
        }
        for (k, c) in self.clusters.iter().enumerate() {
            nesting.clusters[slot(c.parent)].push(k);
        }
        nesting
    }

    /// Each node's name, qualified by its computation when another node has the same name.
    pub fn display_names(&self) -> Vec<String> {
        let mut count: HashMap<&str, usize> = HashMap::new();
        for n in &self.nodes {
            *count.entry(n.name.as_str()).or_default() += 1;
        }
        self.nodes
            .iter()
            .map(|n| {
                if count[n.name.as_str()] > 1 {
                    format!("{}/{}", n.computation, n.name)
                } else {
                    n.name.clone()
                }
            })
            .collect()
    }
}

fn count_work(module: &Module, c: usize, depth: usize) -> usize {
    let comp = &module.computations[c];
    let mut total = comp.instructions.len();
    for instr in &comp.instructions {
        if total >= MAX_NODES {
            break;
        }
        if let Some(callee) = fused_callee(module, instr, depth) {
            total = total.saturating_add(count_work(module, callee, depth + 1));
        }
    }
    total.min(MAX_NODES)
}

/// The computation a fusion calls, when it is drawn as a cluster.
fn fused_callee(
    module: &Module,
    instr: &xla_indexing_hlo::Instruction,
    depth: usize,
) -> Option<usize> {
    if instr.opcode != Opcode::Fusion || depth >= MAX_NESTING {
        return None;
    }
    match instr.called("calls") {
        [name] => module.computation(name),
        _ => None,
    }
}

struct Builder<'m, 'p> {
    module: &'m Module,
    composer: Composer<'m>,
    graph: Graph,
    progress: &'p mut Progress,
}

impl Builder<'_, '_> {
    /// Adds computation `c`'s instructions inside `cluster`; returns, per instruction, the node
    /// its users read (a fusion's fused root).
    fn computation(
        &mut self,
        c: usize,
        cluster: Option<usize>,
        depth: usize,
    ) -> Result<Vec<usize>, HloError> {
        let module = self.module;
        let comp = &module.computations[c];
        let mut node_of = vec![usize::MAX; comp.instructions.len()];
        for &i in &comp.post_order {
            let instr = &comp.instructions[i];
            if self.graph.nodes.len() >= MAX_NODES {
                return Err(HloError::Analysis {
                    instruction: instr.name.clone(),
                    line: instr.pos.line,
                    column: instr.pos.column,
                    message: format!("the graph would have more than {MAX_NODES} nodes"),
                });
            }
            match fused_callee(module, instr, depth) {
                Some(callee) if !self.encloses(cluster, callee) => {
                    node_of[i] = self.fusion(comp, i, callee, cluster, depth, &node_of)?;
                }
                _ => {
                    node_of[i] = self.graph.nodes.len();
                    self.graph.nodes.push(Node {
                        name: instr.name.clone(),
                        computation: comp.name.clone(),
                        opcode: instr.opcode,
                        shape: instr.shape.to_string(),
                        cluster,
                    });
                    self.operand_edges(comp, i, &node_of)?;
                }
            }
            self.progress.tick();
        }
        Ok(node_of)
    }

    /// Whether `cluster` or one of its parents draws computation `callee` (a recursive fusion).
    fn encloses(&self, mut cluster: Option<usize>, callee: usize) -> bool {
        let name = &self.module.computations[callee].name;
        while let Some(k) = cluster {
            if &self.graph.clusters[k].computation == name {
                return true;
            }
            cluster = self.graph.clusters[k].parent;
        }
        false
    }

    /// Draws fusion `i` of `comp` as a cluster of its computation; returns the fused root's node.
    fn fusion(
        &mut self,
        comp: &Computation,
        i: usize,
        callee: usize,
        parent: Option<usize>,
        depth: usize,
        node_of: &[usize],
    ) -> Result<usize, HloError> {
        let instr = &comp.instructions[i];
        let fused = &self.module.computations[callee];
        let cluster = self.graph.clusters.len();
        self.graph.clusters.push(Cluster {
            fusion: instr.name.clone(),
            computation: fused.name.clone(),
            kind: instr.attr("kind").map(|k| match k {
                xla_indexing_hlo::attrs::AttrValue::Raw(s) => s.clone(),
                other => format!("{other:?}"),
            }),
            parent,
        });
        let inner = self.computation(callee, Some(cluster), depth + 1)?;
        let leaves = fused.instructions[fused.root].shape.leaf_count();
        let mut per_param: Vec<Vec<(usize, MapSet)>> = vec![Vec::new(); instr.operands.len()];
        for k in 0..leaves {
            for p in self.composer.computation_output_to_input(callee, k)? {
                if let Some(list) = per_param.get_mut(p.parameter) {
                    list.push((k, p.maps));
                }
            }
        }
        for (operand, sets) in per_param.into_iter().enumerate() {
            let Some(param) = fused.parameter(operand) else {
                continue;
            };
            let from = node_of[instr.operands[operand]];
            self.push_edge(from, inner[param], operand, leaves > 1, sets);
        }
        Ok(inner[fused.root])
    }

    /// One edge per operand of instruction `i`, with the maps of every result leaf.
    fn operand_edges(
        &mut self,
        comp: &Computation,
        i: usize,
        node_of: &[usize],
    ) -> Result<(), HloError> {
        let instr = &comp.instructions[i];
        if instr.parameter_number.is_some() || instruction_kind(instr) == Some(OpKind::Source) {
            return Ok(());
        }
        let to = node_of[i];
        let leaves = instr.shape.leaf_count();
        let mut per_operand: Vec<Vec<(usize, MapSet)>> = vec![Vec::new(); instr.operands.len()];
        if let Err(why) = instruction_family(instr) {
            for list in &mut per_operand {
                let mut set = MapSet::default();
                set.mark(why.to_string(), Some(instr.pos));
                list.push((0, set));
            }
        } else {
            for k in 0..leaves {
                for (operand, _, maps) in self.composer.instruction_output_to_input(comp, i, k)? {
                    if let Some(list) = per_operand.get_mut(operand) {
                        list.push((k, maps));
                    }
                }
            }
        }
        for (operand, sets) in per_operand.into_iter().enumerate() {
            let from = node_of[instr.operands[operand]];
            self.push_edge(from, to, operand, leaves > 1, sets);
        }
        Ok(())
    }

    fn push_edge(
        &mut self,
        from: usize,
        to: usize,
        operand: usize,
        tuple: bool,
        sets: Vec<(usize, MapSet)>,
    ) {
        let mut maps = Vec::new();
        let mut undefined = None;
        for (leaf, set) in sets {
            for a in &set.accesses {
                maps.push(if tuple {
                    format!("out {leaf}: {}", a.map)
                } else {
                    a.map.to_string()
                });
            }
            if undefined.is_none() {
                undefined = set.undefined;
            }
        }
        self.graph.edges.push(Edge {
            from,
            to,
            operand,
            maps,
            undefined,
        });
    }
}
