//! A brute-force reference for index dependences, written from the ops' semantics and
//! independent of the indexing maps: for each output element of an instruction, the operand
//! elements it depends on. Runtime offsets take every value (wider than feasible) and are
//! clamped as XLA clamps them. Fusions are evaluated on index-tagged inputs: every parameter
//! element carries its own tag, every other element the union of the tags of what it reads.
#![allow(dead_code)]

use std::collections::{BTreeSet, HashMap};
use xla_indexing_hlo::Opcode;

use xla_indexing_hlo::attrs::AttrValue;
use xla_indexing_hlo::module::{Computation, Instruction, Module};
use xla_indexing_hlo::shape::ArrayShape;

pub type Index = Vec<i64>;

/// `(operand, operand leaf, index)` read by one output element.
pub type Dep = (usize, usize, Index);

/// Every index of an array, row-major.
pub fn all_indices(dims: &[i64]) -> Vec<Index> {
    let mut out = vec![Vec::new()];
    for &d in dims {
        out = out
            .into_iter()
            .flat_map(|prefix: Index| {
                (0..d).map(move |i| {
                    let mut p = prefix.clone();
                    p.push(i);
                    p
                })
            })
            .collect();
    }
    out
}

fn operand<'a>(c: &'a Computation, i: &Instruction, j: usize) -> &'a Instruction {
    &c.instructions[i.operands[j]]
}

fn arr<'a>(c: &'a Computation, i: &Instruction, j: usize) -> &'a ArrayShape {
    operand(c, i, j).array().expect("array operand")
}

fn ints<'a>(i: &'a Instruction, key: &str) -> &'a [i64] {
    i.ints(key).unwrap_or(&[])
}

/// Row-major linear index.
fn linear(dims: &[i64], index: &[i64]) -> i64 {
    index.iter().zip(dims).fold(0, |acc, (&x, &d)| acc * d + x)
}

fn delinear(dims: &[i64], mut l: i64) -> Index {
    let mut out = vec![0; dims.len()];
    for k in (0..dims.len()).rev() {
        out[k] = l % dims[k];
        l /= dims[k];
    }
    out
}

/// For one dimension of a padded (and base-dilated) array: the source index at each padded
/// position, built element by element.
fn padded_positions(n: i64, low: i64, high: i64, interior: i64) -> Vec<Option<i64>> {
    let mut v: Vec<Option<i64>> = Vec::new();
    for k in 0..n {
        if k > 0 {
            v.extend(std::iter::repeat_n(None, interior as usize));
        }
        v.push(Some(k));
    }
    // Edge padding, negative values remove elements.
    if low >= 0 {
        let mut front = vec![None; low as usize];
        front.extend(v);
        v = front;
    } else {
        v.drain(..(-low as usize).min(v.len()));
    }
    if high >= 0 {
        v.extend(std::iter::repeat_n(None, high as usize));
    } else {
        let keep = v.len().saturating_sub(-high as usize);
        v.truncate(keep);
    }
    v
}

/// The cartesian product of per-dimension candidate lists.
fn product(lists: &[Vec<i64>]) -> Vec<Index> {
    let mut out = vec![Vec::new()];
    for l in lists {
        out = out
            .into_iter()
            .flat_map(|p: Index| {
                l.iter().map(move |&x| {
                    let mut q = p.clone();
                    q.push(x);
                    q
                })
            })
            .collect();
    }
    out
}

/// Window reads along one dimension for result position `o`: source indices (None entries skipped).
fn window_sources(
    padded: &[Option<i64>],
    o: i64,
    size: i64,
    stride: i64,
    dilation: i64,
) -> Vec<(i64, i64)> {
    (0..size)
        .filter_map(|w| {
            let p = o * stride + w * dilation;
            padded
                .get(p as usize)
                .copied()
                .flatten()
                .map(|src| (w, src))
        })
        .collect()
}

/// Raw offsets wider than the feasible range, clamped as XLA clamps starts.
fn clamped_starts(n: i64, size: i64) -> Vec<i64> {
    let mut v: Vec<i64> = (-2..n + 2).map(|s| s.clamp(0, n - size)).collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// The operand elements that output element `out` of leaf `leaf` of instruction `i` reads.
pub fn deps(m: &Module, c: &Computation, i: &Instruction, leaf: usize, out: &[i64]) -> Vec<Dep> {
    let mut d: Vec<Dep> = Vec::new();
    let op = i.opcode;
    let scalar_operands = |d: &mut Vec<Dep>, from: usize| {
        for j in from..i.operands.len() {
            d.push((j, 0, Vec::new()));
        }
    };
    match op {
        Opcode::Parameter | Opcode::Constant | Opcode::Iota => {}
        Opcode::Broadcast => {
            let dims = ints(i, "dimensions");
            d.push((0, 0, dims.iter().map(|&k| out[k as usize]).collect()));
        }
        Opcode::Transpose => {
            let perm = ints(i, "dimensions");
            let mut idx = vec![0; perm.len()];
            for (k, &p) in perm.iter().enumerate() {
                idx[p as usize] = out[k];
            }
            d.push((0, 0, idx));
        }
        Opcode::Reverse => {
            let rev = ints(i, "dimensions");
            let n = &arr(c, i, 0).dims;
            let idx = (0..out.len())
                .map(|k| {
                    if rev.contains(&(k as i64)) {
                        n[k] - 1 - out[k]
                    } else {
                        out[k]
                    }
                })
                .collect();
            d.push((0, 0, idx));
        }
        Opcode::Reshape => {
            let o = &i.array().unwrap().dims;
            d.push((0, 0, delinear(&arr(c, i, 0).dims, linear(o, out))));
        }
        Opcode::Bitcast => {
            let (o, s) = (i.array().unwrap(), arr(c, i, 0));
            let lo = o.layout_or_default();
            let ls = s.layout_or_default();
            let pos = lo.linear_index(&o.dims, out).unwrap();
            d.push((0, 0, ls.multi_index(&s.dims, pos).unwrap().unwrap()));
        }
        Opcode::Slice => {
            let Some(AttrValue::Slice(spec)) = i.attr("slice") else {
                panic!()
            };
            let idx = spec
                .iter()
                .zip(out)
                .map(|(s, &o)| {
                    (s.start..s.limit)
                        .step_by(s.stride as usize)
                        .nth(o as usize)
                        .unwrap()
                })
                .collect();
            d.push((0, 0, idx));
        }
        Opcode::Pad => {
            let Some(AttrValue::Padding(p)) = i.attr("padding") else {
                panic!()
            };
            let n = &arr(c, i, 0).dims;
            let src: Option<Index> = p
                .iter()
                .enumerate()
                .map(|(k, q)| padded_positions(n[k], q.low, q.high, q.interior)[out[k] as usize])
                .collect();
            if let Some(s) = src {
                d.push((0, 0, s));
            }
            d.push((1, 0, Vec::new()));
        }
        Opcode::Concatenate => {
            let k = ints(i, "dimensions")[0] as usize;
            let mut offset = 0;
            for j in 0..i.operands.len() {
                let size = arr(c, i, j).dims[k];
                if out[k] >= offset && out[k] < offset + size {
                    let mut idx = out.to_vec();
                    idx[k] -= offset;
                    d.push((j, 0, idx));
                }
                offset += size;
            }
        }
        Opcode::DynamicSlice => {
            let n = &arr(c, i, 0).dims;
            let sizes = ints(i, "dynamic_slice_sizes");
            let starts: Vec<Vec<i64>> = (0..n.len())
                .map(|k| clamped_starts(n[k], sizes[k]))
                .collect();
            for s in product(&starts) {
                d.push((0, 0, s.iter().zip(out).map(|(a, b)| a + b).collect()));
            }
            scalar_operands(&mut d, 1);
        }
        Opcode::DynamicUpdateSlice => {
            let n = &i.array().unwrap().dims;
            let u = &arr(c, i, 1).dims;
            d.push((0, 0, out.to_vec()));
            let starts: Vec<Vec<i64>> = (0..n.len()).map(|k| clamped_starts(n[k], u[k])).collect();
            for s in product(&starts) {
                let idx: Index = out.iter().zip(&s).map(|(o, s)| o - s).collect();
                if idx.iter().zip(u).all(|(x, n)| (0..*n).contains(x)) {
                    d.push((1, 0, idx));
                }
            }
            scalar_operands(&mut d, 2);
        }
        Opcode::Gather => {
            let n = &arr(c, i, 0).dims;
            let idx_dims = &arr(c, i, 1).dims;
            let offset_dims = ints(i, "offset_dims");
            let collapsed = ints(i, "collapsed_slice_dims");
            let start_map = ints(i, "start_index_map");
            let sizes = ints(i, "slice_sizes");
            let ivd = i.int("index_vector_dim").unwrap() as usize;
            let batch: Vec<i64> = (0..out.len())
                .filter(|k| !offset_dims.contains(&(*k as i64)))
                .map(|k| out[k])
                .collect();
            let kept: Vec<usize> = (0..n.len())
                .filter(|k| !collapsed.contains(&(*k as i64)))
                .collect();
            let starts: Vec<Vec<i64>> = (0..n.len())
                .map(|k| {
                    if start_map.contains(&(k as i64)) {
                        clamped_starts(n[k], sizes[k])
                    } else {
                        vec![0]
                    }
                })
                .collect();
            for s in product(&starts) {
                let idx: Index = (0..n.len())
                    .map(|k| {
                        let off = kept
                            .iter()
                            .position(|&x| x == k)
                            .map_or(0, |j| out[offset_dims[j] as usize]);
                        s[k] + off
                    })
                    .collect();
                d.push((0, 0, idx));
            }
            let vector_len = if ivd < idx_dims.len() {
                idx_dims[ivd]
            } else {
                1
            };
            for k in 0..vector_len {
                let mut b = batch.iter();
                let at: Index = (0..idx_dims.len())
                    .map(|x| if x == ivd { k } else { *b.next().unwrap() })
                    .collect();
                d.push((1, 0, at));
            }
        }
        Opcode::Reduce => {
            let n = i.operands.len() / 2;
            let in_dims = &arr(c, i, 0).dims;
            let red = ints(i, "dimensions");
            for idx in all_indices(in_dims) {
                let kept: Index = (0..in_dims.len())
                    .filter(|k| !red.contains(&(*k as i64)))
                    .map(|k| idx[k])
                    .collect();
                if kept == out {
                    for j in 0..n {
                        d.push((j, 0, idx.clone()));
                    }
                }
            }
            scalar_operands(&mut d, n);
        }
        Opcode::ReduceWindow => {
            let n = i.operands.len() / 2;
            let in_dims = &arr(c, i, 0).dims;
            let Some(AttrValue::Window(w)) = i.attr("window") else {
                panic!()
            };
            let per_dim: Vec<Vec<i64>> = (0..in_dims.len())
                .map(|k| {
                    let padded = padded_positions(
                        in_dims[k],
                        w[k].pad_low,
                        w[k].pad_high,
                        w[k].lhs_dilate - 1,
                    );
                    window_sources(&padded, out[k], w[k].size, w[k].stride, w[k].rhs_dilate)
                        .into_iter()
                        .map(|(_, s)| s)
                        .collect()
                })
                .collect();
            for idx in product(&per_dim) {
                for j in 0..n {
                    d.push((j, 0, idx.clone()));
                }
            }
            scalar_operands(&mut d, n);
        }
        Opcode::Dot | Opcode::ScaledDot => {
            let (l, r) = (&arr(c, i, 0).dims, &arr(c, i, 1).dims);
            // A scaled-dot multiplies each operand element by the scale element of its block.
            let scale_at = |j: usize, at: &[i64]| -> Option<Index> {
                (i.opcode == Opcode::ScaledDot).then(|| {
                    let (o, s) = (&arr(c, i, j).dims, &arr(c, i, j + 2).dims);
                    (0..at.len()).map(|k| at[k] / (o[k] / s[k])).collect()
                })
            };
            let (lb, rb) = (ints(i, "lhs_batch_dims"), ints(i, "rhs_batch_dims"));
            let (lc, rc) = (
                ints(i, "lhs_contracting_dims"),
                ints(i, "rhs_contracting_dims"),
            );
            let free = |rank: usize, b: &[i64], cc: &[i64]| -> Vec<usize> {
                (0..rank)
                    .filter(|k| !b.contains(&(*k as i64)) && !cc.contains(&(*k as i64)))
                    .collect()
            };
            let (lf, rf) = (free(l.len(), lb, lc), free(r.len(), rb, rc));
            let csizes: Vec<i64> = lc.iter().map(|&k| l[k as usize]).collect();
            for cidx in all_indices(&csizes) {
                let mut li = vec![0; l.len()];
                let mut ri = vec![0; r.len()];
                for (k, (&a, &b)) in lb.iter().zip(rb).enumerate() {
                    li[a as usize] = out[k];
                    ri[b as usize] = out[k];
                }
                for (k, (&a, &b)) in lc.iter().zip(rc).enumerate() {
                    li[a as usize] = cidx[k];
                    ri[b as usize] = cidx[k];
                }
                for (k, &a) in lf.iter().enumerate() {
                    li[a] = out[lb.len() + k];
                }
                for (k, &b) in rf.iter().enumerate() {
                    ri[b] = out[lb.len() + lf.len() + k];
                }
                for (j, at) in [(0, &li), (1, &ri)] {
                    if let Some(scale) = scale_at(j, at) {
                        d.push((j + 2, 0, scale));
                    }
                }
                d.push((0, 0, li));
                d.push((1, 0, ri));
            }
        }
        Opcode::Convolution => {
            let (l, r) = (&arr(c, i, 0).dims, &arr(c, i, 1).dims);
            let Some(AttrValue::DimLabels(dl)) = i.attr("dim_labels") else {
                panic!()
            };
            let Some(AttrValue::Window(w)) = i.attr("window") else {
                panic!()
            };
            let groups = i.int("feature_group_count").unwrap_or(1);
            let c_out = i.array().unwrap().dims[dl.output.feature];
            let group_in = r[dl.kernel.batch];
            let g = out[dl.output.feature] / (c_out / groups);
            // Batch groups: result feature group `bg` convolves lhs batch part `bg`.
            let batch_groups = i.int("batch_group_count").unwrap_or(1);
            let bg = out[dl.output.feature] / (c_out / batch_groups);
            let out_batch = i.array().unwrap().dims[dl.output.batch];
            // Per spatial dimension: (window position, input position) pairs.
            let spatial: Vec<Vec<(i64, i64)>> = (0..w.len())
                .map(|k| {
                    let padded = padded_positions(
                        l[dl.input.spatial[k]],
                        w[k].pad_low,
                        w[k].pad_high,
                        w[k].lhs_dilate - 1,
                    );
                    window_sources(
                        &padded,
                        out[dl.output.spatial[k]],
                        w[k].size,
                        w[k].stride,
                        w[k].rhs_dilate,
                    )
                })
                .collect();
            let choices: Vec<Vec<i64>> = spatial
                .iter()
                .map(|v| (0..v.len() as i64).collect())
                .collect();
            for pick in product(&choices) {
                for f in 0..group_in {
                    let mut li = vec![0; l.len()];
                    let mut ri = vec![0; r.len()];
                    li[dl.input.batch] = bg * out_batch + out[dl.output.batch];
                    li[dl.input.feature] = g * group_in + f;
                    ri[dl.kernel.batch] = f;
                    ri[dl.kernel.feature] = out[dl.output.feature];
                    for k in 0..w.len() {
                        let (wpos, src) = spatial[k][pick[k] as usize];
                        li[dl.input.spatial[k]] = src;
                        ri[dl.kernel.spatial[k]] = if w[k].reversal {
                            w[k].size - 1 - wpos
                        } else {
                            wpos
                        };
                    }
                    d.push((0, 0, li));
                    d.push((1, 0, ri));
                }
            }
        }
        Opcode::Tuple => {
            let mut first = 0;
            for j in 0..i.operands.len() {
                let n = operand(c, i, j).shape.leaf_count();
                if leaf >= first && leaf < first + n {
                    d.push((j, leaf - first, out.to_vec()));
                }
                first += n;
            }
        }
        Opcode::GetTupleElement => {
            let k = i.int("index").unwrap() as usize;
            let range = operand(c, i, 0).shape.element_leaves(k).unwrap();
            d.push((0, range.start + leaf, out.to_vec()));
        }
        Opcode::Fusion | Opcode::Call => {
            let key = if op == Opcode::Fusion {
                "calls"
            } else {
                "to_apply"
            };
            let callee = m.computation(&i.called(key)[0]).unwrap();
            let rel = computation_tags(m, callee);
            for (p, l, idx) in &rel[&leaf][&out.to_vec()] {
                d.push((*p, *l, idx.clone()));
            }
        }
        Opcode::Scatter => scatter_deps(m, c, i, leaf, out, &mut d),
        Opcode::Scan => {
            // Unrolled: the results wanted at one step read inputs there and carries, which
            // are the previous step's carry results, or the inits at the first step.
            let carries = i.int("num_carries").unwrap() as usize;
            let inputs = i.operands.len() - carries;
            let outputs = i.shape.leaves().len() - carries;
            let reverse = matches!(i.attr("is_reverse"), Some(AttrValue::Raw(v)) if v == "true");
            let n = arr(c, i, 0).dims[0];
            let body = m.computation(&i.called("to_apply")[0]).unwrap();
            let tags = computation_tags(m, body);
            let (first, last) = if reverse { (n - 1, 0) } else { (0, n - 1) };
            let mut step = if leaf < outputs { out[0] } else { last };
            let mut wanted = BTreeSet::from([leaf]);
            if n == 0 {
                d.push((inputs + leaf - outputs, 0, Vec::new()));
                wanted.clear();
            }
            while !wanted.is_empty() {
                let mut read = BTreeSet::new();
                for r in &wanted {
                    for (p, _, _) in &tags[r][&Vec::new()] {
                        if *p < inputs {
                            d.push((*p, 0, vec![step]));
                        } else {
                            read.insert(*p - inputs);
                        }
                    }
                }
                if step == first {
                    d.extend(read.iter().map(|c| (inputs + c, 0, Vec::new())));
                    break;
                }
                step += if reverse { 1 } else { -1 };
                wanted = read.iter().map(|c| outputs + c).collect();
            }
        }
        Opcode::AllGather => {
            // Result leaf `leaf` is the participants' operands `leaf`, concatenated.
            let dim = ints(i, "dimensions")[0] as usize;
            let n = arr(c, i, leaf).dims[dim];
            let mut idx = out.to_vec();
            idx[dim] %= n;
            d.push((leaf, 0, idx));
        }
        Opcode::Sort => {
            let axis = ints(i, "dimensions")[0] as usize;
            let row = arr(c, i, 0).dims[axis];
            let read = computation_reads(m, i, "to_apply");
            for j in 0..i.operands.len() {
                // Parameters 2j and 2j + 1 of the comparator belong to operand j.
                if j == leaf || read.contains(&(2 * j)) || read.contains(&(2 * j + 1)) {
                    for s in 0..row {
                        let mut idx = out.to_vec();
                        idx[axis] = s;
                        d.push((j, 0, idx));
                    }
                }
            }
        }
        Opcode::Topk | Opcode::CustomCall => {
            // Top-k: values and indices both come from anywhere in the last-dimension row.
            let row = *arr(c, i, 0).dims.last().unwrap();
            for s in 0..row {
                let mut idx = out.to_vec();
                *idx.last_mut().unwrap() = s;
                d.push((0, 0, idx));
            }
        }
        Opcode::BitcastConvert => {
            let (o, s) = (&i.array().unwrap().dims, &arr(c, i, 0).dims);
            if o.len() + 1 == s.len() {
                for k in 0..s[s.len() - 1] {
                    let mut idx = out.to_vec();
                    idx.push(k);
                    d.push((0, 0, idx));
                }
            } else {
                d.push((0, 0, out[..s.len()].to_vec()));
            }
        }
        _ => {
            // Elementwise: same index, or the scalar.
            for j in 0..i.operands.len() {
                let scalar = arr(c, i, j).rank() == 0 && !out.is_empty();
                d.push((j, 0, if scalar { Vec::new() } else { out.to_vec() }));
            }
        }
    }
    d
}

/// A scatter's dimension numbers as the semantics use them.
pub struct ScatterSpec {
    pub n: usize,
    op: Index,
    pub upd: Index,
    idx_rank: usize,
    uwd: Vec<usize>,
    sdod: Vec<usize>,
    ibd: Vec<usize>,
    sibd: Vec<usize>,
    ivd: usize,
    usd: Vec<usize>,
    walked: Vec<usize>,
    pub vector_len: i64,
}

impl ScatterSpec {
    pub fn new(c: &Computation, i: &Instruction) -> ScatterSpec {
        let n = i.operands.len() / 2;
        let list = |key: &str| -> Vec<usize> { ints(i, key).iter().map(|&x| x as usize).collect() };
        let (uwd, iwd, ibd) = (
            list("update_window_dims"),
            list("inserted_window_dims"),
            list("input_batching_dims"),
        );
        let op = arr(c, i, 0).dims.clone();
        let upd = arr(c, i, n + 1).dims.clone();
        let idx = &arr(c, i, n).dims;
        let ivd = i.int("index_vector_dim").unwrap() as usize;
        ScatterSpec {
            n,
            usd: (0..upd.len()).filter(|x| !uwd.contains(x)).collect(),
            walked: (0..op.len())
                .filter(|o| !iwd.contains(o) && !ibd.contains(o))
                .collect(),
            vector_len: if ivd < idx.len() { idx[ivd] } else { 1 },
            idx_rank: idx.len(),
            sdod: list("scatter_dims_to_operand_dims"),
            sibd: list("scatter_indices_batching_dims"),
            op,
            upd,
            uwd,
            ibd,
            ivd,
        }
    }

    /// The window size along operand dimension `o`.
    fn win(&self, o: usize) -> i64 {
        self.walked
            .iter()
            .position(|&w| w == o)
            .map_or(1, |j| self.upd[self.uwd[j]])
    }

    /// The scatter position of update element `u` (its coordinates along the scatter dims).
    pub fn position(&self, u: &[i64]) -> Index {
        self.usd.iter().map(|&x| u[x]).collect()
    }

    /// The indices element of component `k` of the index vector at `position`.
    pub fn indices_at(&self, position: &[i64], k: i64) -> Index {
        let mut at = position.to_vec();
        if self.ivd < self.idx_rank {
            at.insert(self.ivd, k);
        }
        at
    }

    /// Where update element `u` lands when its index vector holds `v`; `None` when its window
    /// is not entirely inside the operand (XLA drops it).
    pub fn land(&self, u: &[i64], v: &[i64]) -> Option<Index> {
        let position = self.position(u);
        let mut start = vec![0; self.op.len()];
        for (k, &o) in self.sdod.iter().enumerate() {
            start[o] = v[k];
        }
        for (&o, &si) in self.ibd.iter().zip(&self.sibd) {
            start[o] += position[si - usize::from(si > self.ivd)];
        }
        if (0..self.op.len()).any(|o| start[o] < 0 || start[o] + self.win(o) > self.op[o]) {
            return None;
        }
        for (j, &o) in self.walked.iter().enumerate() {
            start[o] += u[self.uwd[j]];
        }
        Some(start)
    }

    /// Index values for every component, from one below to one above the starts that fit.
    fn wide_values(&self) -> Vec<Vec<i64>> {
        self.sdod
            .iter()
            .map(|&o| (-1..=self.op[o] - self.win(o) + 1).collect())
            .collect()
    }
}

/// Scatter, from the semantics: an update element lands on `out` for some index values (in
/// bounds or not; a window not entirely inside the operand is dropped); the combiner, applied
/// once per update landing, mixes operands and updates as tag propagation through it says.
fn scatter_deps(
    m: &Module,
    c: &Computation,
    i: &Instruction,
    leaf: usize,
    out: &[i64],
    d: &mut Vec<Dep>,
) {
    let spec = ScatterSpec::new(c, i);
    let n = spec.n;
    // (update index, scatter position) of every update that can land on `out`.
    let mut landing: BTreeSet<(Index, Index)> = BTreeSet::new();
    let values = spec.wide_values();
    for u in all_indices(&spec.upd) {
        for v in product(&values) {
            if spec.land(&u, &v).as_deref() == Some(out) {
                landing.insert((u.clone(), spec.position(&u)));
            }
        }
    }
    let positions: BTreeSet<&Index> = landing.iter().map(|(_, p)| p).collect();
    // What each result of one combiner application reads, then what output `leaf` reads over
    // as many applications as updates can land here.
    let comb = m.computation(&i.called("to_apply")[0]).unwrap();
    let tags = computation_tags(m, comb);
    let reads: Vec<BTreeSet<usize>> = (0..n)
        .map(|l| tags[&l][&Vec::new()].iter().map(|(p, _, _)| *p).collect())
        .collect();
    let mut states = BTreeSet::from([leaf]);
    let mut updates = BTreeSet::new();
    for _ in 0..positions.len() {
        let mut next = states.clone();
        for &s in &states {
            for &p in &reads[s] {
                if p < n {
                    next.insert(p);
                } else {
                    updates.insert(p - n);
                }
            }
        }
        states = next;
    }
    for &j in &states {
        d.push((j, 0, out.to_vec()));
    }
    for &j in &updates {
        for (u, _) in &landing {
            d.push((n + 1 + j, 0, u.clone()));
        }
    }
    for p in positions {
        for k in 0..spec.vector_len {
            d.push((n, 0, spec.indices_at(p, k)));
        }
    }
}

/// The parameters that the root of the computation named by attribute `key` reads, found by
/// tag propagation through it.
pub fn computation_reads(m: &Module, i: &Instruction, key: &str) -> BTreeSet<usize> {
    let callee = m.computation(&i.called(key)[0]).unwrap();
    computation_tags(m, callee)
        .values()
        .flat_map(|elements| elements.values())
        .flatten()
        .map(|(p, _, _)| *p)
        .collect()
}

/// Tags of a computation: per root leaf, per root element, the `(parameter, leaf, index)`
/// elements it depends on.
pub type Tags = HashMap<usize, ElementTags>;

/// Per element of one array, the `(parameter, leaf, index)` tags it carries.
pub type ElementTags = HashMap<Index, BTreeSet<(usize, usize, Index)>>;

pub fn computation_tags(m: &Module, c: usize) -> Tags {
    let comp = &m.computations[c];
    let mut values: HashMap<(usize, usize), ElementTags> = HashMap::new();
    for &i in &comp.post_order {
        let instr = &comp.instructions[i];
        for (leaf, shape) in instr.shape.leaves().into_iter().enumerate() {
            let mut per_elem = HashMap::new();
            for idx in all_indices(&shape.dims) {
                let mut tags = BTreeSet::new();
                if let Some(p) = instr.parameter_number {
                    tags.insert((p, leaf, idx.clone()));
                } else {
                    for (j, l, src) in deps(m, comp, instr, leaf, &idx) {
                        if let Some(t) = values[&(instr.operands[j], l)].get(&src) {
                            tags.extend(t.iter().cloned());
                        }
                    }
                }
                per_elem.insert(idx, tags);
            }
            values.insert((i, leaf), per_elem);
        }
    }
    let root = &comp.instructions[comp.root];
    (0..root.shape.leaf_count())
        .map(|l| (l, values.remove(&(comp.root, l)).unwrap()))
        .collect()
}
