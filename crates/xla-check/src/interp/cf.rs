//! `cf`: branches between the blocks of a region.

use super::{Effect, Env, Flow, Interp, Need, Result, table::Handler, value::Value};
use crate::ir::{Op, matching, split_top, values};

/// The ops of `cf`.
pub const OPS: &[(&str, Handler)] = &[("cf.br", br), ("cf.cond_br", cond_br)];

/// `cf.br ^bb1(%a : index)`.
fn br(interp: &mut Interp, op: &Op, env: &mut Env) -> Result<Effect> {
    let target = op.text.trim_start_matches("cf.br");
    jump(interp, env, target)
}

/// `cf.cond_br %c, ^bb1(...), ^bb2(...)`: the first target when `%c` is not 0.
fn cond_br(interp: &mut Interp, op: &Op, env: &mut Env) -> Result<Effect> {
    let rest = op.text.trim_start_matches("cf.cond_br").trim();
    let (cond, targets) = rest.split_once(',').need("cf.cond_br")?;
    let cond = interp.int(env, cond.trim())?;
    let targets = split_top(targets);
    let target = targets
        .get(if cond != 0 { 0 } else { 1 })
        .need("cf.cond_br targets")?;
    jump(interp, env, target)
}

/// A jump to the branch target `^bb1(%a, %b : index, index)` or `^bb1`, with its arguments.
fn jump(interp: &Interp, env: &Env, target: &str) -> Result<Effect> {
    let target = target.trim();
    let label = target.split('(').next().unwrap_or(target).trim().to_owned();
    let args = match target.find('(') {
        Some(open) => {
            let close = matching(target, open).need("unbalanced target")?;
            let names = target[open + 1..close].split(" : ").next().unwrap_or("");
            interp.get_all(env, &values(names))?
        }
        None => Vec::<Value>::new(),
    };
    Ok(Effect::Flow(Flow::Jump(label, args)))
}
