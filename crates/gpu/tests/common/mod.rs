//! What the planner tests share: a module's emitter plans, and why a fusion stays with the
//! loop emitter.
#![allow(dead_code)]

use xla_indexing_gpu::{Device, EmitterPlan, plan_module};
use xla_indexing_hlo::parse_module;

/// The emitter plan of every kernel of the module `text`, on an H100.
pub fn plans(text: &str) -> Vec<EmitterPlan> {
    let m = parse_module(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    plan_module(&m, &Device::h100())
        .unwrap()
        .into_iter()
        .map(|p| p.emitter)
        .collect()
}

/// Why the first fusion of `text` stays with the loop emitter (a panic when it does not).
pub fn why(text: &str) -> String {
    match &plans(text)[0] {
        EmitterPlan::Loop {
            fallback: Some(why),
        } => why.to_string(),
        other => panic!("not refused: {other:?}"),
    }
}

/// A module of one fusion of `kind` (`kLoop`, `kInput`) computing `body` (its root last) from
/// parameters of shapes `params`, named `p0, p1, ...`.
pub fn fusion_module(kind: &str, params: &[&str], body: &str, root_shape: &str) -> String {
    let decls: Vec<String> = params
        .iter()
        .enumerate()
        .map(|(k, s)| format!("  p{k} = {s} parameter({k})\n"))
        .collect();
    let names: Vec<String> = (0..params.len()).map(|k| format!("p{k}")).collect();
    format!(
        "HloModule m\nfused {{\n{}{body}\n}}\nENTRY e {{\n{}  ROOT f = {root_shape} fusion({}), kind={kind}, calls=fused\n}}\n",
        decls.concat(),
        decls.concat(),
        names.join(", ")
    )
}
