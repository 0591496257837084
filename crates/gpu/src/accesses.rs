//! Every access of every kernel plan analysed for coalescing: each operand's reads (one entry
//! per map of the operand), then each output's stores (what `xla-indexing coalescing` reports).

use xla_indexing_core::IndexingMap;

use crate::coalescing::{AccessCoalescing, CoalescingError, analyze_access};
use crate::device::Device;
use crate::plan::{EmitterPlan, KernelPlan, OperandPlan};

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
    pub result: Result<AccessCoalescing, CoalescingError>,
}

impl CoalescingEntry<'_> {
    /// For an access that is not coalesced, why XLA's kernel makes it too: the emitter XLA's
    /// rules pick for the fusion (ours follow them) runs the thread map this plan holds, so
    /// the access, and what the report says of it, is XLA's. `None` for a coalesced access, and
    /// for a kernel through a tiling of `--tiling`, which is not XLA's.
    pub fn xla_reason(&self) -> Option<String> {
        let coalesced = self.result.as_ref().is_ok_and(|c| c.coalesced);
        if coalesced || self.result.is_err() {
            return None;
        }
        let plan = self.plan;
        let how = match &plan.emitter {
            EmitterPlan::Loop { fallback } => {
                let kept = fallback
                    .as_ref()
                    .map(|why| format!("; XLA keeps the fusion there too: {why}"))
                    .unwrap_or_default();
                format!(
                    "its loop emitter gives consecutive threads consecutive elements of output 0 in its layout, and reads each operand where the fusion's maps send those elements{kept}"
                )
            }
            EmitterPlan::Reduction(_) => {
                "its reduction emitter tiles the reduction as this plan does (threads per row, vector size, shared tile), and reads and writes through the same maps".into()
            }
            EmitterPlan::Transpose(_) => {
                "its transpose emitter reads and writes the same tiles with the same threads; a tile's rows are as long as the shape's runs allow".into()
            }
            EmitterPlan::Scatter(_) | EmitterPlan::InPlace(_) => {
                "its emitter gives each thread the same update element, and where the element lands is read at run time (the report takes the worst case)".into()
            }
            EmitterPlan::PadToStatic(_) => {
                "its pad-to-static emitter runs the loop emitter's thread map over the static output, and reads the dense dynamic array where the sizes put each element (the report takes the sizes' midpoints)".into()
            }
            EmitterPlan::Concatenate(_) | EmitterPlan::InputSlices(_) => format!(
                "its {} emitter runs the same thread map",
                plan.emitter.name()
            ),
            // A tiling of our choosing is not XLA's kernel: nothing to say of XLA's.
            EmitterPlan::Tiled(_) => return None,
        };
        Some(format!("XLA's kernel makes this access too: {how}"))
    }
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
                        result: analyze_access(&op.read_map, &a.map, &op.shape, device),
                    });
                }
                if let Some(u) = &op.undefined {
                    out.push(CoalescingEntry {
                        plan,
                        output: o.output,
                        operand: Some(op),
                        map_index: op.output_maps.len(),
                        result: Err(CoalescingError::Undefined(u.clone())),
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
                    result: analyze_access(write_map, &identity, &o.shape, device),
                });
            }
        }
    }
    out
}
