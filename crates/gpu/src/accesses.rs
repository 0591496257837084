//! Every access of every kernel plan analysed for coalescing: each operand's reads (one entry
//! per map of the operand), then each output's stores (what `xla-indexing coalescing` reports).

use xla_indexing_core::IndexingMap;

use crate::coalescing::{AccessCoalescing, analyze_access};
use crate::device::Device;
use crate::plan::{KernelPlan, OperandPlan};

/// One analysed access (or why it could not be analysed).
pub struct CoalescingEntry<'a> {
    /// The plan of the kernel the access belongs to.
    pub plan: &'a KernelPlan,
    /// The index of the output being written.
    pub output: usize,
    /// The operand read; `None` for the store of the output itself.
    pub operand: Option<&'a OperandPlan>,
    /// Which of the operand's `output_maps` is analysed (their count for the entry that reports
    /// undefined maps).
    pub map_index: usize,
    /// The coalescing, or why it could not be analysed.
    pub result: Result<AccessCoalescing, String>,
}

/// Analyses every access of every kernel: each operand's reads, then the output's store
/// (through the output's write map).
pub fn coalescing_entries<'a>(
    plans: &'a [KernelPlan],
    device: &Device,
) -> Vec<CoalescingEntry<'a>> {
    let mut out = Vec::new();
    for plan in plans {
        for o in plan.outputs.iter().filter(|o| o.skipped.is_none()) {
            for op in &o.operands {
                for (i, a) in op.output_maps.iter().enumerate() {
                    out.push(CoalescingEntry {
                        plan,
                        output: o.output,
                        operand: Some(op),
                        map_index: i,
                        result: analyze_access(&op.read_map, &a.map, &op.shape, device)
                            .map_err(|e| e.to_string()),
                    });
                }
                if let Some(u) = &op.undefined {
                    out.push(CoalescingEntry {
                        plan,
                        output: o.output,
                        operand: Some(op),
                        map_index: op.output_maps.len(),
                        result: Err(format!("maps undefined: {u}")),
                    });
                }
            }
            let identity = IndexingMap::identity(&o.shape.dims);
            for (k, write_map) in o.write_maps.iter().enumerate() {
                out.push(CoalescingEntry {
                    plan,
                    output: o.output,
                    operand: None,
                    map_index: k,
                    result: analyze_access(write_map, &identity, &o.shape, device)
                        .map_err(|e| e.to_string()),
                });
            }
        }
    }
    out
}
