//! The manifest of one program of `bench/gpu/run/`: what `bench/gpu/runner.py` needs to launch
//! its PTX kernels without our libraries.
//!
//! It is the module's launch list ([`xla_indexing_codegen::launch_list`], the same one
//! `compile --emit host` writes as MLIR) as JSON:
//!
//! * `buffers`: every device buffer (`id` = its index), with its `name` in the host function,
//!   `role` (`parameter`, `intermediate`, `output`), `element` type, `dims`, `strides` (in
//!   elements, as its layout gives them) and `bytes`;
//! * `parameters`, `outputs`: the buffer ids of the entry's parameters and of its root's leaves;
//! * `kernels`, in launch order: `symbol` (the PTX `.entry`), `fusion`, `grid` and `block`,
//!   `args` (one per memref argument: `buffer`, `element`, `dims`, `strides` in elements,
//!   `offset` in elements; each becomes the memref descriptor `(allocated ptr, aligned ptr,
//!   offset, sizes..., strides...)` of MLIR's default calling convention), `bytes_read` and
//!   `bytes_written` (the sizes of the unique buffers among its inputs and its outputs);
//! * `copies`: out-parameters filled from another buffer after the last launch (`out`,
//!   `source`);
//! * `program`, `variant` (`large` or `small`), `reference` (the key of runner.py's numpy
//!   reference), `hlo`, `ptx` (the file name beside the manifest), `chip`.

use anyhow::{Result, anyhow};
use serde_json::{Value, json};
use xla_indexing_codegen::{BufferRole, HostValue, Step, kernel_symbols, launch_list};
use xla_indexing_gpu::{Device, UnknownChip, plan_module};
use xla_indexing_hlo::Module;

/// Where a manifest's program comes from and what it is called.
pub struct Program<'a> {
    /// The program's name (the HLO file's stem without `.small`).
    pub name: &'a str,
    /// `large` (timed) or `small` (checked).
    pub variant: &'a str,
    /// The HLO file, as reported.
    pub hlo: &'a str,
    /// The PTX file's name, beside the manifest.
    pub ptx: &'a str,
    /// The chip the PTX is for (`sm_90`).
    pub chip: &'a str,
}

/// The manifest of `module`, compiled for `program.chip` (see the module's documentation).
pub fn manifest(module: &Module, program: &Program) -> Result<Value> {
    let device = Device::for_chip(program.chip)
        .map_err(|UnknownChip(chip)| anyhow!("unknown chip {chip}"))?;
    let plans = plan_module(module, &device)?;
    let symbols = kernel_symbols(&plans);
    let list = launch_list(module, &plans)?;
    let buffers: Vec<Value> = list
        .buffers
        .iter()
        .enumerate()
        .map(|(id, b)| {
            let role = match &b.role {
                BufferRole::Parameter => "parameter",
                BufferRole::Intermediate(_) => "intermediate",
                BufferRole::Output => "output",
            };
            json!({
                "id": id,
                "name": b.name,
                "role": role,
                "element": b.shape.element,
                "dims": b.shape.dims,
                "strides": b.strides,
                "bytes": b.bytes,
            })
        })
        .collect();
    let unique_bytes = |values: &[HostValue]| {
        let mut ids: Vec<usize> = values.iter().map(|v| v.buffer).collect();
        ids.sort_unstable();
        ids.dedup();
        ids.iter().map(|&id| list.buffers[id].bytes).sum::<u64>()
    };
    let mut kernels = Vec::new();
    let mut copies = Vec::new();
    // Fills of the next kernel's outputs (a scatter's), done before it runs.
    let mut fills = Vec::new();
    for step in &list.steps {
        match step {
            Step::Launch { kernel, args } => {
                let plan = &plans[*kernel];
                let inputs = args.len() - plan.kernel.outputs.len();
                let described: Vec<Value> = args
                    .iter()
                    .map(|v| {
                        json!({
                            "buffer": v.buffer,
                            "element": v.shape.element,
                            "dims": v.shape.dims,
                            "strides": v.strides,
                            "offset": 0,
                        })
                    })
                    .collect();
                kernels.push(json!({
                    "symbol": symbols[*kernel],
                    "fusion": plan.kernel.name,
                    "grid": plan.launch.blocks,
                    "block": plan.launch.threads,
                    "args": described,
                    "bytes_read": unique_bytes(&args[..inputs]),
                    "bytes_written": unique_bytes(&args[inputs..]),
                    "fills": std::mem::take(&mut fills),
                }));
            }
            Step::Copy { out, source } => {
                copies.push(json!({"out": out.buffer, "source": source.buffer}));
            }
            Step::Fill { out, source } => {
                fills.push(json!({"out": out.buffer, "source": source.buffer}));
            }
            Step::Alloc(_) | Step::View { .. } => {}
        }
    }
    let ids = |values: &[HostValue]| values.iter().map(|v| v.buffer).collect::<Vec<_>>();
    Ok(json!({
        "program": program.name,
        "variant": program.variant,
        "reference": program.name,
        "hlo": program.hlo,
        "ptx": program.ptx,
        "chip": program.chip,
        "buffers": buffers,
        "parameters": ids(&list.args),
        "outputs": ids(&list.outs),
        "kernels": kernels,
        "copies": copies,
    }))
}
