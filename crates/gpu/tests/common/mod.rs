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
        } => why.clone(),
        other => panic!("not refused: {other:?}"),
    }
}
