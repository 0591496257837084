//! `xla-indexing-lower-xtile`: XLA's tiled emitter kernels (`xtile.entry_func`, as XLA's CPU
//! pipeline dumps them and `xla-indexing-lower-xla` leaves them) on vectors, so that the
//! upstream pipeline takes them to LLVM.
//!
//! A kernel's tiles are small static tensors; each becomes the vector of its shape:
//!
//! * `xtile.extract %m[offsets] [sizes] [1, ...]` is a `vector.transfer_read` of the whole
//!   tile at the offsets (elements past the memref's end read as zero, which the tiled emitter
//!   never uses), then a `vector.shape_cast` to the tensor's shape where it drops unit
//!   dimensions; `xtile.insert` is the `vector.transfer_write` of the tile (elements past the
//!   end not written);
//! * StableHLO's elementwise ops are `arith`/`math` ops on vectors (by the element type: floats
//!   or signless integers), `transpose` is `vector.transpose`, `reshape` is
//!   `vector.shape_cast`, `broadcast_in_dim` a transpose of the operand into the order of its
//!   result's dimensions, a shape cast that inserts the broadcast dimensions as 1, and a
//!   `vector.broadcast`; `iota` is a `vector.step` along its dimension, so broadcast; `compare`
//!   is `arith.cmpf` (`EQ` ordered, `NE` unordered, as XLA's) or `arith.cmpi` (signed),
//!   `select` `arith.select`, and `convert` an `arith` extension, truncation or integer-to-float
//!   conversion (floats to integers are not lowered: XLA saturates them);
//! * `arith` and `math` ops on tensors are the same ops on vectors, `arith.constant` of a dense
//!   tensor the constant of the vector, `tensor.from_elements` is `vector.from_elements`;
//! * `xtile.entry_func` is a `func.func` of the same arguments, `xtile.return` its return.
//!
//! Any other op on tensors, a strided tile or an accumulating insert is an error at the op.

use std::collections::HashMap;

use melior::{
    Context,
    ir::{
        Attribute, Identifier, Location, Operation, OperationRef, Region, Type, TypeLike, Value,
        ValueLike,
        operation::{OperationBuilder, OperationLike, WalkOrder},
        r#type::IntegerType,
    },
};
use xla_indexing_mlir::{
    handles::{OpHandle, ValueHandle, collect_ops, stretch_value, value_key, with_context},
    ir::{integers as ints, op_name, shape_of, vector_shape},
    pass_entry,
    pass_host::{PassOption, PassSpec},
};

use super::PassFailure;

/// The pass's command-line name.
pub const ARGUMENT: &str = "xla-indexing-lower-xtile";

pass_entry!(entry, ARGUMENT, run);

/// The pass.
pub static SPEC: PassSpec = PassSpec::new(
    c"xla-indexing-lower-xtile",
    c"XlaIndexingLowerXtile",
    c"Lower XLA's tiled emitter kernels (xtile.entry_func, xtile.extract/insert and StableHLO ops on tile tensors) to func, vector, arith and math ops",
    &OPTIONS,
    entry,
);

static OPTIONS: [PassOption; 0] = [];

/// StableHLO's elementwise ops: the op on float vectors, and on integer vectors where it has one.
const ELEMENTWISE: &[(&str, &str, Option<&str>)] = &[
    ("stablehlo.add", "arith.addf", Some("arith.addi")),
    ("stablehlo.subtract", "arith.subf", Some("arith.subi")),
    ("stablehlo.multiply", "arith.mulf", Some("arith.muli")),
    ("stablehlo.divide", "arith.divf", Some("arith.divsi")),
    ("stablehlo.maximum", "arith.maximumf", Some("arith.maxsi")),
    ("stablehlo.minimum", "arith.minimumf", Some("arith.minsi")),
    ("stablehlo.abs", "math.absf", Some("math.absi")),
    ("stablehlo.negate", "arith.negf", None),
    ("stablehlo.exponential", "math.exp", None),
    ("stablehlo.log", "math.log", None),
    ("stablehlo.tanh", "math.tanh", None),
    ("stablehlo.sqrt", "math.sqrt", None),
    ("stablehlo.rsqrt", "math.rsqrt", None),
    ("stablehlo.sine", "math.sin", None),
    ("stablehlo.cosine", "math.cos", None),
];

fn run(operation: OperationRef, _: &()) -> Result<(), PassFailure> {
    let functions = collect_ops(&operation, WalkOrder::PreOrder, |op| {
        op_name(op) == "xtile.entry_func"
    });
    // SAFETY: the context is used inside the closure only; each function is live when it is
    // lowered (only ops inside earlier functions were erased).
    unsafe {
        with_context(&operation, |context| {
            functions
                .into_iter()
                .try_for_each(|function| lower_function(context, function))
        })
    }
}

/// Lowers the body of the entry function `function`, then the function itself.
///
/// # Safety
///
/// `function` must be a live `xtile.entry_func`.
unsafe fn lower_function(context: &Context, function: OpHandle) -> Result<(), PassFailure> {
    // SAFETY: the caller passes a live function.
    let op = unsafe { function.get() };
    let body = collect_ops(&op, WalkOrder::PreOrder, |inner| {
        inner.results().any(|r| is_tensor(r.r#type()))
            || inner.operands().any(|o| is_tensor(o.r#type()))
    });
    let mut lowering = Lowering {
        context,
        vectors: HashMap::new(),
    };
    for handle in &body {
        // SAFETY: the ops are live: none is erased before the loop ends.
        unsafe { lowering.lower(*handle) }?;
    }
    // Users go before what they use: no erased op has a use left.
    for handle in body.into_iter().rev() {
        // SAFETY: as above; each op's users were erased before it.
        unsafe { handle.erase() };
    }
    // SAFETY: the function is live.
    unsafe { replace_function(context, function) }
}

/// Whether `ty` is a ranked tensor.
fn is_tensor(ty: Type) -> bool {
    shape_of(ty).is_some_and(|s| !s.is_memref)
}

/// The vector type of a static tensor type (`vector<f32>` of rank 0).
fn vector_type<'c>(context: &'c Context, ty: Type) -> Option<Type<'c>> {
    let shape = shape_of(ty).filter(|s| !s.is_memref)?;
    vector_of(context, &shape.static_sizes()?, &shape.element.to_string()).ok()
}

/// The lowering of one function's body: the vector each lowered tensor value became.
struct Lowering<'c> {
    context: &'c Context,
    vectors: HashMap<usize, ValueHandle>,
}

impl<'c> Lowering<'c> {
    /// Lowers one op on tensors, as the module documentation says, leaving it in place (its
    /// tensor results unused once every op is lowered).
    ///
    /// # Safety
    ///
    /// `handle` must be a live op, and the ops whose vectors are recorded must be live too.
    unsafe fn lower(&mut self, handle: OpHandle) -> Result<(), PassFailure> {
        // SAFETY: the caller passes a live op.
        let op = unsafe { handle.get() };
        let name = op_name(&op);
        let location = op.location();
        let fail = |why: String| PassFailure::at(location, format!("{name}: {why}"));
        let mut at = Builder {
            context: self.context,
            anchor: handle,
            location,
        };
        let operands = (0..op.operand_count())
            .map(|i| op.operand(i).map_err(|e| fail(e.to_string())))
            .collect::<Result<Vec<_>, _>>()?;
        // SAFETY: the recorded vectors' ops are live.
        let lowered = |v: &Value| -> Result<Value<'c, 'c>, PassFailure> {
            match self.vectors.get(&value_key(*v)) {
                Some(&h) => Ok(unsafe { stretch_value(h.get()) }),
                None if !is_tensor(v.r#type()) => Ok(unsafe { stretch_value(*v) }),
                None => Err(fail("an operand was not lowered".into())),
            }
        };
        let result_type = match op.result(0) {
            Ok(r) => Some(
                vector_type(self.context, r.r#type())
                    .ok_or_else(|| fail(format!("{} is no static tensor", r.r#type())))?,
            ),
            Err(_) => None,
        };
        let vector = match (name.as_str(), result_type) {
            ("xtile.extract", Some(ty)) => {
                let (memref, offsets) = operands
                    .split_first()
                    .ok_or_else(|| fail("no memref".into()))?;
                let tile = unit_strided_tile(&op).map_err(fail)?;
                let read = at.transfer_read(*memref, offsets, &tile).map_err(fail)?;
                Some(at.shape_cast(read, ty).map_err(fail)?)
            }
            ("xtile.insert", None) => {
                if op.attribute("accumulate").is_ok() {
                    return Err(fail("an accumulating insert is not lowered".into()));
                }
                let [source, memref, offsets @ ..] = &operands[..] else {
                    return Err(fail("no source or memref".into()));
                };
                let tile = unit_strided_tile(&op).map_err(fail)?;
                let element = shape_of(memref.r#type()).ok_or_else(|| fail("no memref".into()))?;
                let tile_type =
                    vector_of(self.context, &tile, &element.element.to_string()).map_err(fail)?;
                let source = at.shape_cast(lowered(source)?, tile_type).map_err(fail)?;
                at.transfer_write(source, *memref, offsets, tile.len())
                    .map_err(fail)?;
                None
            }
            (_, Some(ty)) => {
                let vectors = operands
                    .iter()
                    .map(&lowered)
                    .collect::<Result<Vec<_>, _>>()?;
                Some(self.lower_value(&op, &mut at, &vectors, ty).map_err(fail)?)
            }
            (_, None) => {
                return Err(fail(
                    "an op on tensors without a result is not lowered".into(),
                ));
            }
        };
        if let (Some(v), Ok(r)) = (vector, op.result(0)) {
            self.vectors.insert(value_key(r.into()), ValueHandle::of(v));
        }
        Ok(())
    }

    /// The vector of a value-computing op on tensors (`vectors` its operands lowered), of type
    /// `ty`.
    fn lower_value(
        &self,
        op: &OperationRef<'c, '_>,
        at: &mut Builder<'c>,
        vectors: &[Value<'c, 'c>],
        ty: Type<'c>,
    ) -> Result<Value<'c, 'c>, String> {
        let name = op_name(op);
        let float = vector_shape(ty).is_some_and(|(_, e)| e.is_float());
        if let Some(&(_, on_floats, on_integers)) = ELEMENTWISE.iter().find(|(n, ..)| *n == name) {
            let target = if float { Some(on_floats) } else { on_integers };
            let target = target.ok_or_else(|| format!("not lowered on {ty}"))?;
            return at.op(target, vectors, ty, &[]);
        }
        let operand = || match vectors {
            [v] => Ok(*v),
            _ => Err(format!("takes one operand, not {}", vectors.len())),
        };
        match name.as_str() {
            "stablehlo.transpose" => {
                let permutation = ints_of(op, "permutation")?;
                at.transpose(operand()?, &permutation, ty)
            }
            "stablehlo.reshape" => at.shape_cast(operand()?, ty),
            "stablehlo.broadcast_in_dim" => {
                let dims = ints_of(op, "broadcast_dimensions")?;
                at.broadcast_in_dim(operand()?, &dims, ty)
            }
            "stablehlo.iota" => {
                let dimension = op
                    .attribute("iota_dimension")
                    .ok()
                    .and_then(|a| {
                        a.to_string()
                            .split(':')
                            .next()?
                            .trim()
                            .parse::<usize>()
                            .ok()
                    })
                    .ok_or("no iota_dimension")?;
                at.iota(dimension, ty)
            }
            "tensor.from_elements" => at.op("vector.from_elements", vectors, ty, &[]),
            "stablehlo.select" => at.op("arith.select", vectors, ty, &[]),
            "stablehlo.compare" => {
                let direction = op
                    .attribute("comparison_direction")
                    .map_err(|_| "no comparison_direction")?
                    .to_string();
                let (a, b) = match vectors {
                    [a, b] => (*a, *b),
                    _ => return Err("takes two operands".into()),
                };
                let (_, element) = vector_shape(a.r#type()).ok_or("no vector operand")?;
                let (name, predicate) = comparison(&direction, element.is_float())
                    .ok_or_else(|| format!("comparison {direction} is not lowered"))?;
                let predicate = Attribute::parse(self.context, &format!("{predicate} : i64"))
                    .ok_or("cannot write the predicate")?;
                at.op(name, &[a, b], ty, &[("predicate", predicate)])
            }
            "stablehlo.convert" => at.convert(operand()?, ty),
            "arith.constant" => {
                let value = op
                    .attribute("value")
                    .map_err(|e| e.to_string())?
                    .to_string();
                let (literal, _) = value.rsplit_once(" : ").ok_or("no typed value")?;
                let attribute = Attribute::parse(self.context, &format!("{literal} : {ty}"))
                    .ok_or("cannot write the vector constant")?;
                at.op("arith.constant", &[], ty, &[("value", attribute)])
            }
            _ if name.starts_with("arith.") || name.starts_with("math.") => {
                let attributes: Vec<(String, Attribute)> = op
                    .attributes()
                    .map(|(k, v)| {
                        (
                            k.as_string_ref().as_str().unwrap_or_default().to_string(),
                            v,
                        )
                    })
                    .collect();
                let named: Vec<(&str, Attribute)> =
                    attributes.iter().map(|(k, v)| (k.as_str(), *v)).collect();
                at.op(&name, vectors, ty, &named)
            }
            _ => Err("not lowered on tensors".into()),
        }
    }
}

/// The tile shape of an `xtile.extract` or `xtile.insert`, whose strides must all be 1.
fn unit_strided_tile(op: &OperationRef) -> Result<Vec<i64>, String> {
    let strides = ints_of(op, "strides")?;
    if strides.iter().any(|&s| s != 1) {
        return Err(format!(
            "strides {strides:?} are not lowered (only unit strides)"
        ));
    }
    ints_of(op, "full_tile_shape")
}

/// The integers of `op`'s array attribute `key`.
fn ints_of(op: &OperationRef, key: &str) -> Result<Vec<i64>, String> {
    op.attribute(key)
        .ok()
        .and_then(ints)
        .ok_or_else(|| format!("no integer array '{key}'"))
}

/// Builds ops right before an anchor op.
struct Builder<'c> {
    context: &'c Context,
    anchor: OpHandle,
    location: Location<'c>,
}

impl<'c> Builder<'c> {
    /// Inserts op `name` of `operands`, one result of type `ty` and `attributes` (each parsed
    /// already) before the anchor, and returns its result.
    fn op(
        &mut self,
        name: &str,
        operands: &[Value<'c, 'c>],
        ty: Type<'c>,
        attributes: &[(&str, Attribute<'c>)],
    ) -> Result<Value<'c, 'c>, String> {
        let built = self.build(name, operands, Some(ty), attributes)?;
        // SAFETY: the op was just inserted and is live; its result lives as long as it.
        unsafe {
            let inserted = self.anchor.insert_before(built);
            Ok(stretch_value(
                inserted.get().result(0).map_err(|e| e.to_string())?,
            ))
        }
    }

    /// The op `name`, built, not inserted.
    fn build(
        &self,
        name: &str,
        operands: &[Value<'c, 'c>],
        ty: Option<Type<'c>>,
        attributes: &[(&str, Attribute<'c>)],
    ) -> Result<Operation<'c>, String> {
        let named: Vec<(Identifier, Attribute)> = attributes
            .iter()
            .map(|(k, v)| (Identifier::new(self.context, k), *v))
            .collect();
        let mut builder = OperationBuilder::new(name, self.location)
            .add_operands(operands)
            .add_attributes(&named);
        if let Some(ty) = ty {
            builder = builder.add_results(&[ty]);
        }
        builder
            .build()
            .map_err(|e| format!("cannot build {name}: {e}"))
    }

    /// An attribute written as MLIR writes it.
    fn attribute(&self, text: &str) -> Result<Attribute<'c>, String> {
        Attribute::parse(self.context, text).ok_or_else(|| format!("cannot write {text}"))
    }

    /// The attributes of a transfer of rank `rank` with `operands` segments: the identity
    /// permutation map, every dimension possibly out of bounds.
    fn transfer_attributes(
        &self,
        rank: usize,
        segments: [usize; 4],
    ) -> Result<Vec<(&'static str, Attribute<'c>)>, String> {
        let dims: Vec<String> = (0..rank).map(|d| format!("d{d}")).collect();
        let list = dims.join(", ");
        let bounds = vec!["false"; rank].join(", ");
        let segments: Vec<String> = segments.iter().map(usize::to_string).collect();
        Ok(vec![
            (
                "permutation_map",
                self.attribute(&format!("affine_map<({list}) -> ({list})>"))?,
            ),
            ("in_bounds", self.attribute(&format!("[{bounds}]"))?),
            (
                "operandSegmentSizes",
                self.attribute(&format!("array<i32: {}>", segments.join(", ")))?,
            ),
        ])
    }

    /// `vector.transfer_read` of the tile of `sizes` of `memref` at `offsets`, zero past its
    /// end.
    fn transfer_read(
        &mut self,
        memref: Value<'c, 'c>,
        offsets: &[Value<'c, 'c>],
        sizes: &[i64],
    ) -> Result<Value<'c, 'c>, String> {
        let element = shape_of(memref.r#type()).ok_or("no memref")?.element;
        let zero = if element.is_float() { "0.0" } else { "0" };
        let zero = self.attribute(&format!("{zero} : {element}"))?;
        let padding = self.op("arith.constant", &[], element, &[("value", zero)])?;
        let ty = vector_of(self.context, sizes, &element.to_string())?;
        let mut operands = vec![memref];
        operands.extend_from_slice(offsets);
        operands.push(padding);
        let attributes = self.transfer_attributes(sizes.len(), [1, offsets.len(), 1, 0])?;
        self.op("vector.transfer_read", &operands, ty, &attributes)
    }

    /// `vector.transfer_write` of `vector` (a tile of rank `rank`) into `memref` at `offsets`.
    fn transfer_write(
        &mut self,
        vector: Value<'c, 'c>,
        memref: Value<'c, 'c>,
        offsets: &[Value<'c, 'c>],
        rank: usize,
    ) -> Result<(), String> {
        let mut operands = vec![vector, memref];
        operands.extend_from_slice(offsets);
        let attributes = self.transfer_attributes(rank, [1, 1, offsets.len(), 0])?;
        let built = self.build("vector.transfer_write", &operands, None, &attributes)?;
        // SAFETY: the anchor is live and in a block.
        unsafe { self.anchor.insert_before(built) };
        Ok(())
    }

    /// `value` as type `ty` (same elements, row-major): itself when the types agree.
    fn shape_cast(&mut self, value: Value<'c, 'c>, ty: Type<'c>) -> Result<Value<'c, 'c>, String> {
        if value.r#type() == ty {
            return Ok(value);
        }
        self.op("vector.shape_cast", &[value], ty, &[])
    }

    /// StableHLO's `convert` of `value` to `ty`: floats widened or narrowed, signless integers
    /// extended (with their sign; `i1` without) or truncated, integers to floats with their
    /// sign. Floats to integers are not lowered (XLA saturates them; `arith.fptosi` does not).
    fn convert(&mut self, value: Value<'c, 'c>, ty: Type<'c>) -> Result<Value<'c, 'c>, String> {
        let (_, from) = vector_shape(value.r#type()).ok_or("no vector operand")?;
        let (_, to) = vector_shape(ty).ok_or("no vector result")?;
        if from == to {
            return self.shape_cast(value, ty);
        }
        let unlowered = || format!("a conversion of {from} to {to} is not lowered");
        let (wf, wt) = (
            width(from).ok_or_else(unlowered)?,
            width(to).ok_or_else(unlowered)?,
        );
        let name = match (from.is_float(), to.is_float()) {
            (true, true) if wf == wt => return Err(unlowered()),
            (true, true) if wf < wt => "arith.extf",
            (true, true) => "arith.truncf",
            (false, true) if wf == 1 => "arith.uitofp",
            (false, true) => "arith.sitofp",
            (false, false) if wf < wt && wf == 1 => "arith.extui",
            (false, false) if wf < wt => "arith.extsi",
            (false, false) => "arith.trunci",
            (true, false) => return Err(unlowered()),
        };
        self.op(name, &[value], ty, &[])
    }

    /// `vector.transpose` of `value` by `permutation` to `ty`.
    fn transpose(
        &mut self,
        value: Value<'c, 'c>,
        permutation: &[i64],
        ty: Type<'c>,
    ) -> Result<Value<'c, 'c>, String> {
        if permutation.iter().enumerate().all(|(i, &p)| p == i as i64) {
            return self.shape_cast(value, ty);
        }
        let list: Vec<String> = permutation.iter().map(i64::to_string).collect();
        let attribute = self.attribute(&format!("array<i64: {}>", list.join(", ")))?;
        self.op(
            "vector.transpose",
            &[value],
            ty,
            &[("permutation", attribute)],
        )
    }

    /// StableHLO's `broadcast_in_dim` of `value` to `ty`: operand dimension `k` is result
    /// dimension `dims[k]` (of the same size, or 1 and broadcast).
    fn broadcast_in_dim(
        &mut self,
        value: Value<'c, 'c>,
        dims: &[i64],
        ty: Type<'c>,
    ) -> Result<Value<'c, 'c>, String> {
        let (sizes, _) = vector_shape(value.r#type()).ok_or("no vector operand")?;
        let (out, element) = vector_shape(ty).ok_or("no vector result")?;
        if dims.len() != sizes.len() {
            return Err(format!(
                "broadcast_dimensions {dims:?} for an operand of rank {}",
                sizes.len()
            ));
        }
        // The operand's dimensions in the order of the result's.
        let mut order: Vec<usize> = (0..dims.len()).collect();
        order.sort_by_key(|&k| dims[k]);
        let permutation: Vec<i64> = order.iter().map(|&k| k as i64).collect();
        let permuted_sizes: Vec<i64> = order.iter().map(|&k| sizes[k]).collect();
        let element = element.to_string();
        let permuted_type = vector_of(self.context, &permuted_sizes, &element)?;
        let permuted = self.transpose(value, &permutation, permuted_type)?;
        // The broadcast dimensions inserted as 1.
        let mut with_ones = vec![1; out.len()];
        for &k in &order {
            let d = usize::try_from(dims[k]).map_err(|_| "a negative dimension")?;
            *with_ones
                .get_mut(d)
                .ok_or("a dimension past the result's rank")? = sizes[k];
        }
        let spread = self.shape_cast(permuted, vector_of(self.context, &with_ones, &element)?)?;
        if with_ones == out {
            return Ok(spread);
        }
        self.op("vector.broadcast", &[spread], ty, &[])
    }

    /// StableHLO's `iota` of type `ty` along `dimension`: `vector.step` of its size, as the
    /// element type, broadcast along the other dimensions.
    fn iota(&mut self, dimension: usize, ty: Type<'c>) -> Result<Value<'c, 'c>, String> {
        let (sizes, element) = vector_shape(ty).ok_or("no vector result")?;
        let size = *sizes.get(dimension).ok_or("iota_dimension past the rank")?;
        let element = element.to_string();
        let indices = self.op(
            "vector.step",
            &[],
            vector_of(self.context, &[size], "index")?,
            &[],
        )?;
        let line = vector_of(self.context, &[size], &element)?;
        let cast = if element.starts_with('i') {
            self.op("arith.index_cast", &[indices], line, &[])?
        } else {
            let wide = self.op(
                "arith.index_cast",
                &[indices],
                vector_of(self.context, &[size], "i64")?,
                &[],
            )?;
            self.op("arith.sitofp", &[wide], line, &[])?
        };
        self.broadcast_in_dim(cast, &[dimension as i64], ty)
    }
}

/// The `arith` comparison of StableHLO's `direction` (its attribute's text, `#stablehlo<...
/// LT>`) on floats or signless integers, and its predicate's number: XLA's `EQ` of floats is
/// ordered and `NE` unordered; integers compare signed.
fn comparison(direction: &str, float: bool) -> Option<(&'static str, i64)> {
    let direction = direction.trim_end_matches('>').rsplit(' ').next()?;
    // `arith.cmpf`: oeq 1, ogt 2, oge 3, olt 4, ole 5, une 13; `arith.cmpi`: eq 0, ne 1, slt 2,
    // sle 3, sgt 4, sge 5.
    let (f, i) = match direction {
        "EQ" => (1, 0),
        "NE" => (13, 1),
        "LT" => (4, 2),
        "LE" => (5, 3),
        "GT" => (2, 4),
        "GE" => (3, 5),
        _ => return None,
    };
    Some(if float {
        ("arith.cmpf", f)
    } else {
        ("arith.cmpi", i)
    })
}

/// The bits of a float or integer type (`i1` 1, `bf16` 16, `f8E4M3FN` 8); `None` for others
/// (`index`, `complex<f32>`).
fn width(ty: Type) -> Option<u32> {
    if ty.is_float() {
        Some(ty.float_width())
    } else {
        IntegerType::try_from(ty).ok().map(|i| i.width())
    }
}

/// `vector<sizes x element>`.
fn vector_of<'c>(context: &'c Context, sizes: &[i64], element: &str) -> Result<Type<'c>, String> {
    let dims: String = sizes.iter().map(|d| format!("{d}x")).collect();
    Type::parse(context, &format!("vector<{dims}{element}>"))
        .ok_or_else(|| format!("cannot write vector<{dims}{element}>"))
}

/// Replaces the entry function `function` with a `func.func` of the same name, type and body,
/// its `xtile.return` a `func.return`.
///
/// # Safety
///
/// `function` must be a live `xtile.entry_func`.
unsafe fn replace_function(context: &Context, function: OpHandle) -> Result<(), PassFailure> {
    // SAFETY: the caller passes a live function.
    let op = unsafe { function.get() };
    let location = op.location();
    let fail = |why: &str| PassFailure::at(location, why.to_string());
    let attribute = |key: &str| op.attribute(key).map_err(|_| fail(&format!("no {key}")));
    let built = OperationBuilder::new("func.func", location)
        .add_attributes(&[
            (Identifier::new(context, "sym_name"), attribute("sym_name")?),
            (
                Identifier::new(context, "function_type"),
                attribute("function_type")?,
            ),
        ])
        .add_regions([Region::new()])
        .build()
        .map_err(|e| fail(&format!("cannot build func.func: {e}")))?;
    // SAFETY: the function is live and in a block; the new one was just inserted. The body
    // moves whole from the old region to the new one, then the old function (empty) goes.
    unsafe {
        let replacement = function.insert_before(built);
        if !replacement.take_body(0, function) {
            return Err(fail("the entry function has no body"));
        }
        function.erase();
        let returns = collect_ops(&replacement.get(), WalkOrder::PreOrder, |r| {
            op_name(r) == "xtile.return"
        });
        for ret in returns {
            let location = ret.get().location();
            let built = OperationBuilder::new("func.return", location)
                .build()
                .map_err(|e| fail(&format!("cannot build func.return: {e}")))?;
            ret.insert_before(built);
            ret.erase();
        }
    }
    Ok(())
}
