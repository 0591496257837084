//! Reduction groups: the outputs of a multi-output reduction fusion that share no work, each
//! run by its own row of blocks (`bl_y`), as XLA's reduction emitters run them.
//!
//! Two outputs are in one group when some instruction (a parameter included) is read by both;
//! outputs that do not reduce (side outputs) are all in one group. A constant or scalar (or a
//! broadcast of one) joins at most one reducing output, as XLA counts it: recomputing it is
//! cheaper than putting reductions in one block.

use xla_indexing_hlo::Opcode;
use xla_indexing_hlo::module::Computation;
use xla_indexing_hlo::shape::Shape;

/// Per output, its group (numbered by first output), given the instruction of each output
/// and whether it reduces.
pub(crate) fn reduction_groups(comp: &Computation, roots: &[(usize, bool)]) -> Vec<usize> {
    let n = comp.instructions.len();
    // reached[i]: the outputs whose values read instruction i.
    let mut reached: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (output, &(root, _)) in roots.iter().enumerate() {
        let mut seen = vec![false; n];
        let mut pending = vec![root];
        while let Some(i) = pending.pop() {
            if std::mem::replace(&mut seen[i], true) {
                continue;
            }
            reached[i].push(output);
            pending.extend(comp.instructions[i].operands.iter().copied());
        }
    }
    let mut parent: Vec<usize> = (0..roots.len()).collect();
    let find = |parent: &mut Vec<usize>, mut x: usize| {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    };
    let union = |parent: &mut Vec<usize>, a: usize, b: usize| {
        let (a, b) = (find(parent, a), find(parent, b));
        parent[a.max(b)] = a.min(b);
    };
    let side: Vec<usize> = (0..roots.len()).filter(|&o| !roots[o].1).collect();
    for w in side.windows(2) {
        union(&mut parent, w[0], w[1]);
    }
    for (i, outputs) in reached.iter().enumerate() {
        let cheap = is_constant_or_scalar(comp, i);
        let mut joined_reduction = false;
        let mut joined: Vec<usize> = Vec::new();
        for &o in outputs {
            if roots[o].1 {
                if cheap && joined_reduction {
                    continue;
                }
                joined_reduction = true;
            }
            joined.push(o);
        }
        for w in joined.windows(2) {
            union(&mut parent, w[0], w[1]);
        }
    }
    let mut numbers: Vec<Option<usize>> = vec![None; roots.len()];
    let mut next = 0;
    (0..roots.len())
        .map(|o| {
            let r = find(&mut parent, o);
            *numbers[r].get_or_insert_with(|| {
                next += 1;
                next - 1
            })
        })
        .collect()
}

/// Whether instruction `i` is a constant, a scalar, or a broadcast of one.
fn is_constant_or_scalar(comp: &Computation, i: usize) -> bool {
    let instr = &comp.instructions[i];
    let scalar = |k: usize| {
        let x = &comp.instructions[k];
        x.opcode == Opcode::Constant || matches!(&x.shape, Shape::Array(a) if a.dims.is_empty())
    };
    scalar(i)
        || (instr.opcode == Opcode::Broadcast && instr.operands.first().is_some_and(|&o| scalar(o)))
}
