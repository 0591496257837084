//! The integer arithmetic of a function, evaluated at a point: the reference semantics against
//! which the index passes, and the simplify pass's constant folder, are tested and fuzzed. It is
//! written apart from what it checks, so that the two can disagree.
//!
//! [`evaluate`] runs a `func.func` whose arguments and results are integers or `index`, made of
//! `arith` integer ops, `affine.apply`/`min`/`max`/`if`, `xla_indexing.apply_indexing` and
//! `scf.if`, as MLIR defines them: `index` has 64 bits, arithmetic wraps in its type, unsigned
//! ops read their operands as unsigned. A value is undefined (`None`) where MLIR makes it
//! poison or undefined behaviour: an `addi`/`subi`/`muli` whose `nsw` or `nuw` flag fails, a
//! division by zero or a signed division overflow, an `apply_indexing` outside its map's
//! domain; an op on an undefined value is undefined. Affine maps are read as integer
//! arithmetic: a map is undefined where its value, or the operand of a division or `mod` in it,
//! leaves 64 bits (there its lowering, which wraps around, would give another value).
//!
//! [`evaluate_kernel`] runs a GPU kernel of index arithmetic at one [`KernelPoint`]: its
//! `gpu.thread_id x` and `gpu.block_id x`, and one iteration of each `affine.for` or `scf.for`
//! (loops that carry no values, so that iterations are independent); it gives what the
//! kernel's `memref.store`s write there.

use std::collections::HashMap;

use melior::ir::{
    AffineExpr, BlockLike, BlockRef, Module, OperationRef, RegionLike, Value, ValueLike,
    operation::OperationLike,
};
use xla_indexing_core::{
    Expr,
    interval::{as_unsigned, wrap_signed},
};
use xla_indexing_mlir::{
    attribute_map, indexing_ops,
    ir::{
        RANGE_ATTRIBUTE, affine_map_attribute, argument_attribute, gpu_dimension, int_width,
        integer_attribute, integer_set_attribute, op_name, operations, range_attribute,
    },
};

/// Why a function cannot be evaluated.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EvaluateError {
    /// An op the evaluator does not know (its name).
    #[error("cannot evaluate `{0}`")]
    Unsupported(String),
    /// The function is not what the evaluator reads (why).
    #[error("{0}")]
    Malformed(String),
}

/// A value of an integer type of `width` bits, or `None` where it is undefined.
type Slot = Option<i128>;

/// Runs `function` (a `func.func`) on `arguments`; its results, `None` where undefined.
pub fn evaluate(
    function: &OperationRef,
    arguments: &[i64],
) -> Result<Vec<Option<i64>>, EvaluateError> {
    let body = function
        .region(0)
        .ok()
        .and_then(|r| r.first_block())
        .ok_or_else(|| EvaluateError::Malformed("the function has no body".into()))?;
    if body.argument_count() != arguments.len() {
        return Err(EvaluateError::Malformed(format!(
            "the function takes {} arguments, not {}",
            body.argument_count(),
            arguments.len()
        )));
    }
    let mut machine = Machine::default();
    for (i, a) in arguments.iter().enumerate() {
        let argument: Value = body
            .argument(i)
            .map_err(|e| EvaluateError::Malformed(e.to_string()))?
            .into();
        let width = width_of(argument)?;
        machine.set(argument, Some(wrap_signed(i128::from(*a), width)));
    }
    let returned = machine.run_block(body)?;
    Ok(returned
        .into_iter()
        .map(|v| v.and_then(|v| i64::try_from(v).ok()))
        .collect())
}

/// A point of a GPU kernel: the x ids of its thread and block, and the iteration each loop
/// runs, by the loop's depth (taken modulo the loop's trip count; 0 past the last given).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelPoint {
    /// `gpu.thread_id x`.
    pub thread: i64,
    /// `gpu.block_id x`.
    pub block: i64,
    /// The iteration of the loops at depth 0, 1, ...
    pub iterations: Vec<i64>,
}

/// What one `memref.store` writes: its first index and its value, `None` where undefined.
pub type Store = (Option<i64>, Option<i64>);

/// What a kernel writes at a point: its stores in order, and whether a branch or a loop bound
/// on the way was undefined (then the stores are those of an arbitrary path).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelRun {
    /// The stores, in the order they run.
    pub stores: Vec<Store>,
    /// Whether a branch condition or a loop bound was undefined.
    pub undefined_path: bool,
}

impl KernelRun {
    /// Whether `self` (a transformed kernel) writes what `reference` writes wherever the
    /// reference's writes are defined.
    pub fn refines(&self, reference: &KernelRun) -> bool {
        reference.undefined_path
            || (self.stores.len() == reference.stores.len()
                && self
                    .stores
                    .iter()
                    .zip(&reference.stores)
                    .all(|(s, r)| (r.0.is_none() || s.0 == r.0) && (r.1.is_none() || s.1 == r.1)))
    }
}

/// Runs the GPU kernel `function` (a `func.func` whose arguments are only stored into) at
/// `point`; what it stores.
pub fn evaluate_kernel(
    function: &OperationRef,
    point: &KernelPoint,
) -> Result<KernelRun, EvaluateError> {
    let body = function
        .region(0)
        .ok()
        .and_then(|r| r.first_block())
        .ok_or_else(|| EvaluateError::Malformed("the function has no body".into()))?;
    let mut machine = Machine {
        kernel: Some(point.clone()),
        ..Machine::default()
    };
    for i in 0..body.argument_count() {
        machine.set(body.argument(i).map_err(malformed)?.into(), None);
    }
    machine.run_block(body)?;
    Ok(KernelRun {
        stores: machine.stores,
        undefined_path: machine.undefined_path,
    })
}

#[derive(Default)]
struct Machine {
    values: HashMap<usize, Slot>,
    /// The point, when a kernel runs.
    kernel: Option<KernelPoint>,
    /// The depth of the loop whose body runs.
    depth: usize,
    stores: Vec<Store>,
    undefined_path: bool,
}

fn width_of(value: Value) -> Result<u32, EvaluateError> {
    int_width(value.r#type())
        .ok_or_else(|| EvaluateError::Unsupported(format!("a value of type {}", value.r#type())))
}

impl Machine {
    fn set(&mut self, value: Value, slot: Slot) {
        self.values.insert(value.to_raw().ptr as usize, slot);
    }

    fn get(&self, value: Value) -> Result<Slot, EvaluateError> {
        self.values
            .get(&(value.to_raw().ptr as usize))
            .copied()
            .ok_or_else(|| EvaluateError::Malformed("a value is used before it is defined".into()))
    }

    /// Runs the ops of `block`; the operands of its terminator.
    fn run_block(&mut self, block: BlockRef) -> Result<Vec<Slot>, EvaluateError> {
        let mut next = block.first_operation();
        while let Some(op) = next {
            let name = op_name(&op);
            if matches!(name.as_str(), "func.return" | "scf.yield" | "affine.yield") {
                return (0..op.operand_count())
                    .map(|i| self.get(op.operand(i).map_err(malformed)?))
                    .collect();
            }
            let results = self.run_op(&op, &name)?;
            for (i, slot) in results.into_iter().enumerate() {
                self.set(op.result(i).map_err(malformed)?.into(), slot);
            }
            next = op.next_in_block();
        }
        Err(EvaluateError::Malformed(
            "a block without terminator".into(),
        ))
    }

    fn operands(&self, op: &OperationRef) -> Result<Vec<Slot>, EvaluateError> {
        (0..op.operand_count())
            .map(|i| self.get(op.operand(i).map_err(malformed)?))
            .collect()
    }

    /// The results of `op`.
    fn run_op(&mut self, op: &OperationRef, name: &str) -> Result<Vec<Slot>, EvaluateError> {
        let operands = self.operands(op)?;
        match name {
            "scf.if" | "affine.if" => return self.run_if(op, name, &operands),
            "affine.for" | "scf.for" => return self.run_loop(op, name, &operands),
            "memref.store" => {
                let get = |i: usize| {
                    operands
                        .get(i)
                        .copied()
                        .flatten()
                        .and_then(|v| i64::try_from(v).ok())
                };
                self.stores.push((get(2), get(0)));
                return Ok(Vec::new());
            }
            "gpu.thread_id" | "gpu.block_id" => {
                let point = self
                    .kernel
                    .as_ref()
                    .filter(|_| gpu_dimension(op) == Some(0))
                    .ok_or_else(|| EvaluateError::Unsupported(name.into()))?;
                let id = if name == "gpu.thread_id" {
                    point.thread
                } else {
                    point.block
                };
                return Ok(vec![Some(i128::from(id))]);
            }
            _ => {}
        }
        let width = match op.result(0) {
            Ok(r) => width_of(r.into())?,
            Err(_) => return Err(EvaluateError::Unsupported(name.into())),
        };
        let one = |slot: Slot| Ok(vec![slot.map(|v| wrap_signed(v, width))]);
        match name {
            "arith.constant" => {
                let attribute = op.attribute("value").map_err(malformed)?;
                let c = integer_attribute(attribute)
                    .ok_or_else(|| EvaluateError::Unsupported(attribute.to_string()))?;
                one(Some(i128::from(c)))
            }
            "affine.apply" | "affine.min" | "affine.max" => {
                let map = op
                    .attribute("map")
                    .ok()
                    .and_then(affine_map_attribute)
                    .ok_or_else(|| EvaluateError::Malformed("no affine map".into()))?;
                let Some(point) = defined(&operands) else {
                    return Ok(vec![None]);
                };
                let (dims, syms) = point.split_at(map.dim_count().min(point.len()));
                let results: Vec<Slot> = (0..map.result_count())
                    .map(|i| {
                        let e = map.result(i).map_err(malformed)?;
                        Ok(affine_value(e, dims, syms).map(i128::from))
                    })
                    .collect::<Result<_, EvaluateError>>()?;
                let value = match name {
                    "affine.apply" => results.first().copied().flatten(),
                    _ => results
                        .iter()
                        .copied()
                        .collect::<Option<Vec<i128>>>()
                        .and_then(|r| {
                            if name == "affine.min" {
                                r.into_iter().min()
                            } else {
                                r.into_iter().max()
                            }
                        }),
                };
                Ok(vec![value])
            }
            name if indexing_ops::is_apply_indexing(name) => {
                let map = attribute_map(
                    op.attribute(indexing_ops::map_attribute_name(name))
                        .map_err(malformed)?,
                )
                .map_err(|e| EvaluateError::Malformed(e.to_string()))?;
                let count = op.result_count();
                let Some(point) = defined(&operands) else {
                    return Ok(vec![None; count]);
                };
                let (dims, syms) = point.split_at(map.dims().len().min(point.len()));
                if !map.contains(dims, syms) {
                    return Ok(vec![None; count]);
                }
                Ok(map
                    .results()
                    .iter()
                    .map(|e: &Expr| e.eval(dims, syms).map(i128::from))
                    .collect())
            }
            _ => one(arith(name, op, &operands, width)?),
        }
    }

    /// The results of the `scf.if` or `affine.if` `op`: those of the region its condition
    /// takes.
    fn run_if(
        &mut self,
        op: &OperationRef,
        name: &str,
        operands: &[Slot],
    ) -> Result<Vec<Slot>, EvaluateError> {
        let taken = if name == "scf.if" {
            operands.first().copied().flatten().map(|c| c != 0)
        } else {
            self.affine_condition(op, operands)?
        };
        let Some(taken) = taken else {
            self.undefined_path = true;
            return Ok(vec![None; op.result_count()]);
        };
        let region = op.region(usize::from(!taken)).map_err(malformed)?;
        match region.first_block() {
            Some(block) => self.run_block(block),
            None => Ok(Vec::new()),
        }
    }

    /// Runs the body of the `affine.for` or `scf.for` `op` (which carries no values) once, at
    /// the iteration the kernel's point gives its depth.
    fn run_loop(
        &mut self,
        op: &OperationRef,
        name: &str,
        operands: &[Slot],
    ) -> Result<Vec<Slot>, EvaluateError> {
        if op.result_count() != 0 {
            return Err(EvaluateError::Unsupported(format!("{name} with results")));
        }
        let bounds = if name == "scf.for" {
            defined(operands.get(..3).unwrap_or_default())
                .map(|v| (v[0], v[1], v[2]))
                .filter(|_| operands.len() == 3)
        } else {
            affine_bounds(op, operands)?
        };
        let Some((lower, upper, step)) = bounds else {
            self.undefined_path = true;
            return Ok(Vec::new());
        };
        let trips = if lower < upper && 0 < step {
            (i128::from(upper) - i128::from(lower) + i128::from(step) - 1) / i128::from(step)
        } else {
            0
        };
        if trips == 0 {
            return Ok(Vec::new());
        }
        let iteration = self
            .kernel
            .as_ref()
            .and_then(|p| p.iterations.get(self.depth).copied())
            .unwrap_or(0);
        let iv = i128::from(lower) + i128::from(iteration).rem_euclid(trips) * i128::from(step);
        let body = op
            .region(0)
            .ok()
            .and_then(|r| r.first_block())
            .ok_or_else(|| EvaluateError::Malformed(format!("{name} without a body")))?;
        self.set(body.argument(0).map_err(malformed)?.into(), Some(iv));
        self.depth += 1;
        let ran = self.run_block(body);
        self.depth -= 1;
        ran.map(|_| Vec::new())
    }

    /// Whether the integer set of an `affine.if` holds at its operands.
    fn affine_condition(
        &self,
        op: &OperationRef,
        operands: &[Slot],
    ) -> Result<Option<bool>, EvaluateError> {
        let set = read_attribute(op, "condition", integer_set_attribute)?;
        let Some(point) = defined(operands) else {
            return Ok(None);
        };
        let (dims, syms) = point.split_at(set.num_dims.min(point.len()));
        let mut holds = true;
        for (e, is_eq) in &set.constraints {
            let Some(v) = affine_value(*e, dims, syms) else {
                return Ok(None);
            };
            holds &= if *is_eq { v == 0 } else { v >= 0 };
        }
        Ok(Some(holds))
    }
}

/// The attribute `name` of `op`, read by `read`.
fn read_attribute<'c, T>(
    op: &OperationRef<'c, '_>,
    name: &str,
    read: fn(melior::ir::Attribute<'c>) -> Option<T>,
) -> Result<T, EvaluateError> {
    op.attribute(name)
        .ok()
        .and_then(read)
        .ok_or_else(|| EvaluateError::Malformed(format!("{} without {name}", op_name(op))))
}

/// The bounds and step of an `affine.for`: the largest value of its lower bound map, the
/// least of its upper bound map, at their operands; `None` where undefined.
fn affine_bounds(
    op: &OperationRef,
    operands: &[Slot],
) -> Result<Option<(i64, i64, i64)>, EvaluateError> {
    let lower = read_attribute(op, "lowerBoundMap", affine_map_attribute)?;
    let upper = read_attribute(op, "upperBoundMap", affine_map_attribute)?;
    let step = read_attribute(op, "step", integer_attribute)?;
    let Some(point) = defined(operands) else {
        return Ok(None);
    };
    let n_lower = lower.dim_count() + lower.symbol_count();
    let Some((lower_operands, upper_operands)) = point.split_at_checked(n_lower) else {
        return Err(EvaluateError::Malformed(
            "affine.for with too few operands".into(),
        ));
    };
    let values = |map: melior::ir::AffineMap, operands: &[i64]| -> Option<Vec<i64>> {
        let (dims, syms) = operands.split_at(map.dim_count().min(operands.len()));
        (0..map.result_count())
            .map(|i| affine_value(map.result(i).ok()?, dims, syms))
            .collect()
    };
    let lower = values(lower, lower_operands).and_then(|v| v.into_iter().max());
    let upper = values(upper, upper_operands).and_then(|v| v.into_iter().min());
    Ok(lower.zip(upper).map(|(l, u)| (l, u, step)))
}

/// The value of an affine expression, `None` where it is undefined: a division by zero, or a
/// value or an operand of a division or `mod` that leaves 64 bits. Sums and products are exact:
/// lowered, they wrap around in 64 bits, which gives the exact value wherever it fits.
fn affine_value(e: AffineExpr, dims: &[i64], syms: &[i64]) -> Option<i64> {
    exact_affine_value(e, dims, syms).and_then(|v| i64::try_from(v).ok())
}

/// [`affine_value`] before its result is checked to fit 64 bits.
fn exact_affine_value(e: AffineExpr, dims: &[i64], syms: &[i64]) -> Option<i128> {
    if e.is_dim() {
        return dims.get(e.dim_position()).copied().map(i128::from);
    }
    if e.is_symbol() {
        return syms.get(e.symbol_position()).copied().map(i128::from);
    }
    if e.is_constant() {
        return Some(i128::from(e.constant_value()));
    }
    if e.is_add() || e.is_mul() {
        let (a, b) = (
            exact_affine_value(e.lhs(), dims, syms)?,
            exact_affine_value(e.rhs(), dims, syms)?,
        );
        return if e.is_add() {
            a.checked_add(b)
        } else {
            a.checked_mul(b)
        };
    }
    let (a, b) = (
        affine_value(e.lhs(), dims, syms)?,
        affine_value(e.rhs(), dims, syms)?,
    );
    if b == 0 {
        return None;
    }
    // Truncation, moved down (floor) or up (ceiling) when inexact; `mod` from the floor.
    let (q, inexact) = (a.checked_div(b)?, a % b != 0);
    let floor = q - i64::from(inexact && (a < 0) != (b < 0));
    Some(i128::from(if e.is_floor_div() {
        floor
    } else if e.is_ceil_div() {
        q + i64::from(inexact && (a < 0) == (b < 0))
    } else {
        a.checked_sub(b.checked_mul(floor)?)?
    }))
}

/// The operands as 64-bit values, if all are defined.
fn defined(operands: &[Slot]) -> Option<Vec<i64>> {
    operands
        .iter()
        .map(|s| s.and_then(|v| i64::try_from(v).ok()))
        .collect()
}

fn malformed(e: melior::Error) -> EvaluateError {
    EvaluateError::Malformed(e.to_string())
}

/// The `arith` op `name` on `operands`, with a result of `width` bits.
fn arith(
    name: &str,
    op: &OperationRef,
    operands: &[Slot],
    width: u32,
) -> Result<Slot, EvaluateError> {
    let operand_width = match op.operand(0) {
        Ok(v) => width_of(v)?,
        Err(_) => return Err(EvaluateError::Unsupported(name.into())),
    };
    let flags = op
        .attribute("overflowFlags")
        .map(|a| a.to_string())
        .unwrap_or_default();
    let (nsw, nuw) = (flags.contains("nsw"), flags.contains("nuw"));
    let get = |i: usize| operands.get(i).copied().flatten();
    let binary = || Some((get(0)?, get(1)?));
    let value = match name {
        "arith.addi" | "arith.subi" | "arith.muli" => (|| {
            let (a, b) = binary()?;
            let (ua, ub) = (as_unsigned(a, width), as_unsigned(b, width));
            // Operands have at most 64 bits: only the unsigned product can leave i128.
            let (exact, unsigned_exact) = match name {
                "arith.addi" => (a + b, Some(ua + ub)),
                "arith.subi" => (a - b, Some(ua - ub)),
                _ => (a * b, ua.checked_mul(ub)),
            };
            let signed_overflow = wrap_signed(exact, width) != exact;
            let unsigned_overflow =
                unsigned_exact.is_none_or(|u| !(0..1i128 << width).contains(&u));
            if (nsw && signed_overflow) || (nuw && unsigned_overflow) {
                return None;
            }
            Some(exact)
        })(),
        "arith.divui" | "arith.remui" | "arith.ceildivui" => (|| {
            let (a, b) = binary()?;
            let (ua, ub) = (as_unsigned(a, width), as_unsigned(b, width));
            if ub == 0 {
                return None;
            }
            Some(match name {
                "arith.divui" => ua / ub,
                "arith.remui" => ua % ub,
                _ => (ua + ub - 1) / ub,
            })
        })(),
        "arith.divsi" | "arith.remsi" | "arith.floordivsi" | "arith.ceildivsi" => (|| {
            let (a, b) = binary()?;
            let min = -(1i128 << (width - 1));
            if b == 0 || (a == min && b == -1) {
                return None;
            }
            Some(match name {
                "arith.divsi" => a / b,
                "arith.remsi" => a % b,
                // Truncation, moved down (floor) or up (ceiling) when inexact.
                "arith.floordivsi" => a / b - i128::from(a % b != 0 && (a < 0) != (b < 0)),
                _ => a / b + i128::from(a % b != 0 && (a < 0) == (b < 0)),
            })
        })(),
        "arith.minsi" | "arith.maxsi" => binary().map(|(a, b)| {
            if name == "arith.minsi" {
                a.min(b)
            } else {
                a.max(b)
            }
        }),
        "arith.minui" | "arith.maxui" => binary().map(|(a, b)| {
            let pick_a =
                (as_unsigned(a, width) <= as_unsigned(b, width)) == (name == "arith.minui");
            if pick_a { a } else { b }
        }),
        "arith.cmpi" => {
            let predicate = op
                .attribute("predicate")
                .ok()
                .and_then(integer_attribute)
                .ok_or_else(|| EvaluateError::Malformed("cmpi without predicate".into()))?;
            binary().map(|(a, b)| {
                let (ua, ub) = (as_unsigned(a, operand_width), as_unsigned(b, operand_width));
                let holds = match predicate {
                    0 => a == b,
                    1 => a != b,
                    2 => a < b,
                    3 => a <= b,
                    4 => a > b,
                    5 => a >= b,
                    6 => ua < ub,
                    7 => ua <= ub,
                    8 => ua > ub,
                    _ => ua >= ub,
                };
                -i128::from(holds)
            })
        }
        "arith.select" => get(0).and_then(|c| if c != 0 { get(1) } else { get(2) }),
        "arith.index_cast" | "arith.extsi" | "arith.trunci" => get(0),
        "arith.index_castui" | "arith.extui" => get(0).map(|v| as_unsigned(v, operand_width)),
        "arith.andi" | "arith.ori" | "arith.xori" => binary().map(|(a, b)| {
            let (ua, ub) = (as_unsigned(a, width), as_unsigned(b, width));
            match name {
                "arith.andi" => ua & ub,
                "arith.ori" => ua | ub,
                _ => ua ^ ub,
            }
        }),
        _ => return Err(EvaluateError::Unsupported(name.into())),
    };
    Ok(value)
}

/// A function of a module: its name and the range its `xla.range` attribute declares for each
/// argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature {
    /// The function's symbol.
    pub name: String,
    /// Per argument, the closed range `xla.range` declares, if any.
    pub ranges: Vec<Option<(i64, i64)>>,
}

/// The `func.func`s at the top of `module`.
pub fn signatures(module: &Module) -> Vec<Signature> {
    functions(module)
        .into_iter()
        .filter_map(|f| {
            let name = symbol_name(&f)?;
            let count = f.region(0).ok()?.first_block()?.argument_count();
            let ranges = (0..count)
                .map(|i| argument_attribute(&f, i, RANGE_ATTRIBUTE).and_then(range_attribute))
                .collect();
            Some(Signature { name, ranges })
        })
        .collect()
}

/// Runs the `func.func` named `name` of `module` on `arguments` (see [`evaluate`]).
pub fn evaluate_function(
    module: &Module,
    name: &str,
    arguments: &[i64],
) -> Result<Vec<Option<i64>>, EvaluateError> {
    let function = functions(module)
        .into_iter()
        .find(|f| symbol_name(f).as_deref() == Some(name))
        .ok_or_else(|| EvaluateError::Malformed(format!("no function @{name}")))?;
    evaluate(&function, arguments)
}

/// The `func.func`s at the top of `module`, by name.
pub fn named_functions<'c, 'a>(module: &'a Module<'c>) -> HashMap<String, OperationRef<'c, 'a>> {
    functions(module)
        .into_iter()
        .filter_map(|f| Some((symbol_name(&f)?, f)))
        .collect()
}

fn functions<'c, 'a>(module: &'a Module<'c>) -> Vec<OperationRef<'c, 'a>> {
    operations(&module.body())
        .into_iter()
        .filter(|op| op_name(op) == "func.func")
        .collect()
}

fn symbol_name(function: &OperationRef) -> Option<String> {
    let name = function.attribute("sym_name").ok()?;
    melior::ir::attribute::StringAttribute::try_from(name)
        .ok()
        .map(|s| s.value().to_owned())
}
