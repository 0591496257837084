//! `func` (and `builtin`): returns, calls, and the casts between types that lowering leaves.

use super::{Effect, Env, Exit, Flow, Interp, Need, Result, table::Handler, value::lanewise_union};
use crate::ir::Op;

/// The ops of `func` and `builtin`.
pub const OPS: &[(&str, Handler)] = &[
    ("return", ret),
    ("func.return", ret),
    ("call", call),
    ("func.call", call),
    ("builtin.unrealized_conversion_cast", cast),
];

/// A terminator that leaves its region with its operands' values (`return`, `scf.yield`,
/// `xtile.return`).
pub fn ret(interp: &mut Interp, op: &Op, env: &mut Env) -> Result<Effect> {
    let values = interp.get_all(env, &op.operands())?;
    Ok(Effect::Flow(Flow::Exit(Exit::Yield(values))))
}

/// `call @f(%a, %b)`: a function of the module, run; a library function (`@xla.rsqrt.f32`,
/// `@xla.tanh.v8f32`), data of its arguments, lane by lane.
fn call(interp: &mut Interp, op: &Op, env: &mut Env) -> Result<Effect> {
    let callee = op
        .text
        .split('@')
        .nth(1)
        .and_then(|r| r.split('(').next())
        .need("a call without a callee")?;
    let args = interp.get_all(env, &op.operands())?;
    let results = match interp.module.func(callee) {
        Some(func) => interp.call(func, args)?,
        None => vec![lanewise_union(&args)?; op.results.len()],
    };
    Ok(Effect::Results(results))
}

/// `builtin.unrealized_conversion_cast`: its operand, whatever the types.
fn cast(interp: &mut Interp, op: &Op, env: &mut Env) -> Result<Effect> {
    let operands = op.operands();
    let value = interp.get(env, operands.first().need("cast")?)?;
    Ok(value.into())
}
