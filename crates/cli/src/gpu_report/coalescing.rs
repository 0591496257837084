//! `coalescing`: every access of every kernel, coalesced or not and why, as JSON or text.

use serde_json::{Value, json};
use xla_indexing_gpu::accesses::CoalescingEntry;

use super::{kernel_json, operand_label};

/// `coalescing --format json`.
pub fn json(entries: &[CoalescingEntry<'_>]) -> Value {
    let accesses: Vec<Value> = entries
        .iter()
        .map(|e| {
            let mut v = kernel_json(&e.plan.kernel, &e.plan.computation);
            v["output"] = json!(e.output);
            match e.operand {
                Some(op) => {
                    v["access"] = json!("read");
                    v["operand"] = json!(op.parameter);
                    if let Some(l) = op.leaf {
                        v["leaf"] = json!(l);
                    }
                    v["shape"] = json!(op.shape.to_string());
                    v["map"] = json!(e.map_index);
                }
                None => {
                    v["access"] = json!("store");
                    if e.plan.outputs[e.output].write_maps.len() > 1 {
                        v["map"] = json!(e.map_index);
                    }
                    let shape = e.plan.outputs.iter().find(|o| o.output == e.output);
                    v["shape"] = json!(shape.map(|o| o.shape.to_string()));
                }
            }
            match &e.result {
                Ok(c) => {
                    let names = c.offset_map.var_names();
                    let show = |x: &xla_indexing_core::Expr| {
                        x.display(&xla_indexing_core::print::Names { dims: &names.0, syms: &names.1 }).to_string()
                    };
                    v["coalesced"] = json!(c.coalesced);
                    v["transactions"] = json!(c.transactions);
                    v["ideal"] = json!(c.ideal);
                    v["lanes"] = json!(c.lanes);
                    v["steps"] = json!(c.steps.to_string());
                    v["counted_steps"] = json!(c.counted_steps.to_string());
                    v["offset_map"] = json!(c.offset_map.to_string());
                    v["thread_part"] = json!(show(&c.split.thread));
                    v["loop_part"] = json!(show(&c.split.loops));
                    v["mixed_part"] = json!(show(&c.split.mixed));
                    v["moving"] = c
                        .moving
                        .iter()
                        .map(|m| json!({"dimension": m.dimension, "per_lane": m.per_lane, "layout_stride": m.layout_stride}))
                        .collect();
                    v["reason"] = json!(c.reason);
                    if let Some(xla) = e.xla_reason() {
                        v["xla"] = json!(xla);
                    }
                }
                Err(why) => {
                    v["coalesced"] = Value::Null;
                    v["error"] = json!(why.to_string());
                }
            }
            v
        })
        .collect();
    json!({ "accesses": accesses })
}

/// The text form of [`json`].
pub fn text(entries: &[CoalescingEntry<'_>]) -> String {
    let mut out = String::new();
    for e in entries {
        let head = match e.operand {
            Some(op) => format!(
                "{} output {} <- operand {} {} (map {})",
                e.plan.kernel.name,
                e.output,
                operand_label(op),
                op.shape,
                e.map_index
            ),
            None if e.plan.outputs[e.output].write_maps.len() > 1 => format!(
                "{} output {} store (map {})",
                e.plan.kernel.name, e.output, e.map_index
            ),
            None => format!("{} output {} store", e.plan.kernel.name, e.output),
        };
        match &e.result {
            Ok(c) => {
                out.push_str(&format!(
                    "{head}: {}\n  warp offsets: {}\n",
                    c.summary(),
                    c.offset_map
                ));
                if let Some(partial) = c.partial_count() {
                    out.push_str(&format!("  {partial}\n"));
                }
                if let Some(r) = &c.reason {
                    out.push_str(&format!("  why: {r}\n"));
                }
                if let Some(xla) = e.xla_reason() {
                    out.push_str(&format!("  xla: {xla}\n"));
                }
            }
            Err(why) => out.push_str(&format!("{head}: not analysed: {why}\n")),
        }
    }
    out
}
