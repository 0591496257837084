//! `scf`: loops (`scf.for`, and `scf.forall` over one workgroup's points), `scf.if` and their
//! terminators.

use super::{
    Effect, Env, Exit, Flow, Interp, Need, Result, func, table::Handler, tensor, value::Value,
};
use crate::ir::{Op, matching, split_top, values};

/// The ops of `scf`.
pub const OPS: &[(&str, Handler)] = &[
    ("scf.yield", func::ret),
    ("scf.for", r#for),
    ("scf.if", r#if),
    ("scf.forall", forall),
    ("scf.forall.in_parallel", in_parallel),
];

/// `scf.for %iv = %lb to %ub step %s iter_args(%a = %x) -> (...) {`: the carried values
/// after the last iteration.
fn r#for(interp: &mut Interp, op: &Op, env: &mut Env) -> Result<Effect> {
    let head = op.text.split(" iter_args(").next().unwrap_or(&op.text);
    let names = values(head);
    let [iv, lb, ub, step, ..] = names.as_slice() else {
        fail!("scf.for without bounds");
    };
    let (lb, ub, step) = (
        interp.int(env, lb)?,
        interp.int(env, ub)?,
        interp.int(env, step)?,
    );
    if step <= 0 {
        fail!("scf.for with step {step}");
    }
    let mut carried = bindings(interp, env, &op.text, " iter_args(")?;
    let body = op.regions.first().need("scf.for without a body")?;
    let mut i = lb;
    while i < ub {
        env.insert((*iv).to_owned(), Value::Int(i));
        for (name, value) in &carried {
            env.insert(name.clone(), value.clone());
        }
        let next = interp.region(body, env)?.values()?;
        for ((_, value), next) in carried.iter_mut().zip(next) {
            *value = next;
        }
        i += step;
    }
    Ok(Effect::Results(
        carried.into_iter().map(|(_, v)| v).collect(),
    ))
}

/// `scf.if %c -> (...) { ... } else { ... }`: the values its taken region yields.
fn r#if(interp: &mut Interp, op: &Op, env: &mut Env) -> Result<Effect> {
    let operands = op.operands();
    let cond = interp.int(env, operands.first().need("scf.if")?)?;
    let results = match op.regions.get(usize::from(cond == 0)) {
        Some(region) => interp.region(region, env)?.values()?,
        None => Vec::new(),
    };
    Ok(Effect::Results(results))
}

/// `scf.forall (%i, %j) in (M, N) shared_outs(%o = %x) -> (...) {`, whose body ends in
/// `scf.forall.in_parallel`: the shared outputs after every iteration.
fn forall(interp: &mut Interp, op: &Op, env: &mut Env) -> Result<Effect> {
    let text = &op.text;
    let open = text.find('(').need("scf.forall")?;
    let close = matching(text, open).need("scf.forall")?;
    let ivs = values(&text[open..close]);
    let rest = text[close..]
        .strip_prefix(") in ")
        .need("only `scf.forall (...) in (...)` is interpreted")?;
    let bounds_close = matching(rest, 0).need("scf.forall bounds")?;
    let bounds = split_top(&rest[1..bounds_close])
        .into_iter()
        .map(|b| interp.int_or_literal(env, b))
        .collect::<Result<Vec<i64>>>()?;
    if bounds.len() != ivs.len() {
        fail!(
            "{} bounds for {} induction variables",
            bounds.len(),
            ivs.len()
        );
    }
    let mut outs = bindings(interp, env, text, " shared_outs(")?;
    let body = op.regions.first().need("scf.forall without a body")?;
    let points: i64 = bounds.iter().product();
    for point in 0..points {
        let mut rest = point;
        for (iv, bound) in ivs.iter().zip(&bounds).rev() {
            env.insert((*iv).to_owned(), Value::Int(rest % bound));
            rest /= bound;
        }
        for (name, value) in &outs {
            env.insert(name.clone(), value.clone());
        }
        let Exit::Parallel(updates) = interp.region(body, env)? else {
            fail!("an scf.forall body that does not end in scf.forall.in_parallel");
        };
        for (name, value) in updates {
            let out = outs
                .iter_mut()
                .find(|(n, _)| *n == name)
                .need_with(|| format!("{name} is not a shared output"))?;
            out.1 = value;
        }
    }
    Ok(Effect::Results(outs.into_iter().map(|(_, v)| v).collect()))
}

/// `scf.forall.in_parallel { tensor.parallel_insert_slice ... }`: leaves the body with the
/// new value of each shared output it inserts into.
fn in_parallel(interp: &mut Interp, op: &Op, env: &mut Env) -> Result<Effect> {
    let region = op.regions.first().need("in_parallel without a body")?;
    let updates = region
        .blocks
        .iter()
        .flat_map(|b| &b.ops)
        .map(|insert| tensor::parallel_insert(interp, insert, env))
        .collect::<Result<Vec<_>>>()?;
    Ok(Effect::Flow(Flow::Exit(Exit::Parallel(updates))))
}

/// The names bound by `keyword` (` iter_args(`, ` shared_outs(`) in `text`, `(%a = %x, ...)`,
/// with their initial values.
fn bindings(interp: &Interp, env: &Env, text: &str, keyword: &str) -> Result<Vec<(String, Value)>> {
    let Some(rest) = text.split(keyword).nth(1) else {
        return Ok(Vec::new());
    };
    let close = matching(&format!("({rest}"), 0).need_with(|| keyword.trim())?;
    split_top(&rest[..close - 1])
        .into_iter()
        .map(|pair| {
            let (name, init) = pair.split_once(" = ").need_with(|| keyword.trim())?;
            Ok((name.trim().to_owned(), interp.get(env, init.trim())?))
        })
        .collect()
}
