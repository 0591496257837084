//! Vector accesses of an unrolled thread's group (`xla_indexing_gpu::vector`).
//!
//! When the plan vectorizes some access of a kernel, the thread loop runs over the groups
//! (`unroll_id` fixed to 0) and its body computes the group's elements lane by lane, with
//! `unroll_id` the lane's constant. A parameter read at the top of the body whose map
//! vectorizes becomes one `vector.load` per group of lanes, made by the group's first lane and
//! shared by the others through `vector.extract`; an output whose store vectorizes gets the
//! lanes' values as one `vector.store` per group. Both address a one-dimensional view of the
//! buffer (`memref.reinterpret_cast`) at the element offset in its layout, and carry the
//! alignment the plan proved (`{alignment = 16 : i64}`), which the NVPTX backend needs for
//! `ld.global.v4`. A read at the top of the body that stays scalar gets every lane's indices
//! from one `apply_indexing` (made by the first lane), so that the lanes share their index
//! arithmetic as the unrolled loop did; reads under conditions or in inner loops are per lane
//! as before, and so are the stores of outputs that stay scalar.

use super::buffer::{ArrayBuffer, from_memory, to_memory};
use super::elemental::{Emitter, Index};
use super::error::CodegenError;
use super::scalar::Typed;
use super::types::Element;
use xla_indexing_core::{Expr, IndexingMap};
use xla_indexing_gpu::{
    thread_map::UNROLL_SYMBOL,
    vector::{Vectorization, linear_offset, vectorize},
};

impl Emitter<'_> {
    /// Emits lane `k` from now on: `unroll_id` stands for its constant.
    pub(crate) fn set_lane(&mut self, k: usize) {
        if let Some(lanes) = &mut self.lanes {
            lanes.lane = k;
            self.frame.syms[UNROLL_SYMBOL] = lanes.names[k].clone();
        }
    }

    /// The current lane's element of `buffer` read through `index`, taken from the vector load
    /// of its group when the read is at the top of the thread loop and its map vectorizes;
    /// `None` when it is read as a scalar (always for packed elements, which are read one by
    /// one).
    pub(crate) fn vector_lane(
        &mut self,
        buffer: &ArrayBuffer,
        index: &Index,
        element: Element,
    ) -> Result<Option<Typed>, CodegenError> {
        let Some(lanes) = &self.lanes else {
            return Ok(None);
        };
        if !index.rts.is_empty() || !self.at_top(lanes.regions, lanes.scopes) || buffer.is_packed()
        {
            return Ok(None);
        }
        if !lanes.vectors {
            return self.scalar_lane(buffer, index, element).map(Some);
        }
        let Vectorization::Vector {
            lanes: width,
            bytes,
        } = vectorize(&lanes.thread_map, &index.map, &buffer.shape, lanes.unroll)
        else {
            return self.scalar_lane(buffer, index, element).map(Some);
        };
        let lane = lanes.lane as u64;
        let group = lane / width;
        let key = (buffer.name.clone(), index.map.to_string(), group);
        let vector = format!("vector<{width}x{}>", element.memory());
        let loaded = match lanes.loads.get(&key) {
            Some(v) => v.clone(),
            None => {
                let (view, view_ty, at) = self.vector_address(buffer, &index.map, group * width)?;
                let v = self.body.op(
                    "vec",
                    &vector,
                    format!(
                        "vector.load {view}[{at}] {{alignment = {bytes} : i64}} : {view_ty}, {vector}"
                    ),
                );
                if let Some(lanes) = &mut self.lanes {
                    lanes.loads.insert(key, v.name.clone());
                }
                v.name
            }
        };
        let lane_value = self.body.op(
            "v",
            element.memory(),
            format!(
                "vector.extract {loaded}[{}] : {} from {vector}",
                lane - group * width,
                element.memory()
            ),
        );
        let value = from_memory(&mut self.body, lane_value, element);
        Ok(Some(Typed { value, element }))
    }

    /// The current lane's element of `buffer` read through `index` with `memref.load`. The first lane that reads through `index` computes the indices of all
    /// lanes with one `apply_indexing`: simplified together, they share their arithmetic, and
    /// each lane's indices are results of that one op, which linear addressing needs (separate
    /// per-lane ops would be simplified into indices derived from one another's).
    fn scalar_lane(
        &mut self,
        buffer: &ArrayBuffer,
        index: &Index,
        element: Element,
    ) -> Result<Typed, CodegenError> {
        let (unroll, lane) = self
            .lanes
            .as_ref()
            .map(|l| (l.unroll, l.lane))
            .ok_or(CodegenError::NoLanes)?;
        let rank = index.map.results().len();
        let key = (buffer.name.clone(), index.map.to_string());
        let known = self
            .lanes
            .as_ref()
            .and_then(|l| l.offsets.get(&key).cloned());
        let offsets = match known {
            Some(offsets) => offsets,
            None => {
                let dims: Vec<Expr> = (0..index.map.dims().len() as u32).map(Expr::dim).collect();
                let mut syms: Vec<Expr> =
                    (0..index.map.num_symbols() as u32).map(Expr::sym).collect();
                let mut results = Vec::new();
                for k in 0..unroll {
                    syms[UNROLL_SYMBOL] = Expr::constant(k as i64);
                    for r in index.map.results() {
                        results.push(r.substitute(&dims, &syms)?);
                    }
                }
                let offsets = self.materialize(&Index::from(index.map.with_results(results)))?;
                if let Some(lanes) = &mut self.lanes {
                    lanes.offsets.insert(key, offsets.clone());
                }
                offsets
            }
        };
        let value = buffer.load(&mut self.body, &offsets[lane * rank..(lane + 1) * rank]);
        Ok(Typed { value, element })
    }

    /// Stores `values`, one per lane, into output `buffer` at the index `map` gives (over the
    /// thread map's variables): one `vector.store` per group when `store` is a vector, else one
    /// store per lane.
    pub(crate) fn store_lanes(
        &mut self,
        buffer: &ArrayBuffer,
        map: &IndexingMap,
        values: &[Typed],
        store: &Vectorization,
    ) -> Result<(), CodegenError> {
        let Some(lanes) = &self.lanes else {
            return Err(CodegenError::NoLanes);
        };
        let scalar = Vectorization::Scalar("vector accesses are off".into());
        match if lanes.vectors && !buffer.is_packed() {
            store
        } else {
            &scalar
        } {
            Vectorization::Vector {
                lanes: width,
                bytes,
            } => {
                let width = *width as usize;
                for (group, chunk) in values.chunks(width).enumerate() {
                    let element = chunk[0].element;
                    let vector = format!("vector<{width}x{}>", element.memory());
                    let (view, view_ty, at) =
                        self.vector_address(buffer, map, (group * width) as u64)?;
                    let names: Vec<String> = chunk
                        .iter()
                        .map(|v| to_memory(&mut self.body, &v.value.name, element))
                        .collect();
                    let packed = self.body.op(
                        "vec",
                        &vector,
                        format!("vector.from_elements {} : {vector}", names.join(", ")),
                    );
                    self.body.line(format!(
                        "vector.store {}, {view}[{at}] {{alignment = {bytes} : i64}} : {view_ty}, {vector}",
                        packed.name
                    ));
                }
            }
            Vectorization::Scalar(_) => {
                for (k, value) in values.iter().enumerate() {
                    self.set_lane(k);
                    let at = self.materialize(&Index::of(map))?;
                    buffer.store(&mut self.body, &value.value.name, &at);
                }
            }
        }
        Ok(())
    }

    /// The one-dimensional view of `buffer` (made on first use) with its type, and the SSA name
    /// of the element offset that `map` gives for lane `first`.
    fn vector_address(
        &mut self,
        buffer: &ArrayBuffer,
        map: &IndexingMap,
        first: u64,
    ) -> Result<(String, String, String), CodegenError> {
        let shape = &buffer.shape;
        let offset = linear_offset(map, shape)
            .ok_or_else(|| CodegenError::NoLinearOffsets(shape.to_string()))?;
        let view = self.flat_view(buffer)?;
        let lane = self.lanes.as_ref().map_or(0, |l| l.lane);
        self.set_lane(first as usize);
        let at = self.materialize(&Index::from(map.with_results(vec![offset])));
        self.set_lane(lane);
        let at = at?;
        Ok((view.0, view.1, at.join(", ")))
    }

    /// The one-dimensional view of `buffer`, made on first use: its SSA name and memref type.
    pub(crate) fn flat_view(
        &mut self,
        buffer: &ArrayBuffer,
    ) -> Result<(String, String), CodegenError> {
        let (name, ty, shape) = (&buffer.name, &buffer.ty, &buffer.shape);
        Ok(match self.lanes.as_ref().and_then(|l| l.views.get(name)) {
            Some(v) => v.clone(),
            None => {
                let size =
                    shape
                        .layout_or_default()
                        .buffer_size(&shape.dims)
                        .map_err(|source| CodegenError::BufferSize {
                            shape: shape.to_string(),
                            source,
                        })?;
                let view_ty = format!("memref<{size}x{}>", buffer.element.memory());
                let v = self.body.op(
                    "flat",
                    &view_ty,
                    format!(
                        "memref.reinterpret_cast {name} to offset: [0], sizes: [{size}], strides: [1] : {ty} to {view_ty}"
                    ),
                );
                let view = (v.name, view_ty);
                if let Some(lanes) = &mut self.lanes {
                    lanes.views.insert(name.clone(), view.clone());
                }
                view
            }
        })
    }
}
