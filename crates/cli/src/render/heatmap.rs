//! What an access heatmap shows: one operand of one fused computation (or of the entry
//! computation of a module without fusions), read by one of its results, with the maps that
//! connect them and the enumerated [`AccessPattern`]. Coalescing comes from the GPU loop kernel's
//! analysis (the one `xla-indexing coalescing` prints) when the computation is a kernel, and from
//! comparing neighbouring threads otherwise.

use std::fmt::Write;
use xla_indexing_hlo::Opcode;

use xla_indexing_core::IndexingMap;
use xla_indexing_gpu::{Device, analyze_access, kernels, plan_kernel};
use xla_indexing_hlo::{Direction, Module, Options, analyze_module};

use super::RenderError;
use super::access::{AccessPattern, Judge, WARP, Warp};
use super::grid::Grid;

/// Most cells of a text heatmap, down and across.
pub const MAX_CELLS_TEXT: (usize, usize) = (48, 64);
/// Most cells of an SVG heatmap, down and across.
pub const MAX_CELLS_SVG: (usize, usize) = (48, 64);

/// What to draw.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Selection {
    /// A fusion instruction or a computation; by default the module's only fusion.
    pub fusion: Option<String>,
    /// The parameter of the computation.
    pub operand: usize,
    /// The result of the computation.
    pub output: usize,
    /// A warp of the loop kernel whose first step is drawn by lane.
    pub warp: Option<u64>,
}

/// An access heatmap.
#[derive(Clone, Debug, PartialEq)]
pub struct Heatmap {
    pub computation: String,
    pub operand: usize,
    pub output: usize,
    /// The maps from the output to the operand, as text.
    pub maps: Vec<String>,
    /// Why some path has no map, when one has none (the pattern shows the known maps).
    pub undefined: Option<String>,
    /// The GPU kernel's verdict on each map; empty when the computation is no loop kernel
    /// (neighbouring threads are compared instead).
    pub kernel_verdicts: Vec<KernelVerdict>,
    /// The warp drawn by lane, if asked for.
    pub warp: Option<u64>,
    /// The emitter of the kernel the verdicts are about (`loop`, `row reduction`, ...).
    pub emitter: &'static str,
    pub pattern: AccessPattern,
}

/// The GPU loop kernel's verdict on one map of the operand, as `xla-indexing coalescing` gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelVerdict {
    pub coalesced: bool,
    /// 128-byte transactions of the first warp per step, and the fewest that carry its bytes.
    pub transactions: u64,
    pub ideal: u64,
    /// Why the access is not coalesced.
    pub reason: Option<String>,
}

impl std::fmt::Display for KernelVerdict {
    /// `NOT coalesced, 8 transactions, ideal 1; REASON`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let verdict = if self.coalesced {
            "coalesced"
        } else {
            "NOT coalesced"
        };
        write!(
            f,
            "{verdict}, {} transactions, ideal {}",
            self.transactions, self.ideal
        )?;
        match &self.reason {
            Some(why) => write!(f, "; {why}"),
            None => Ok(()),
        }
    }
}

/// The GPU loop kernel's view of one operand: its maps, a verdict on each, and the launch.
struct KernelView {
    maps: Vec<IndexingMap>,
    coalesced: Vec<bool>,
    verdicts: Vec<KernelVerdict>,
    unroll: u64,
    threads: u64,
    /// The emitter that writes the kernel (`loop`, `row reduction`, ...).
    emitter: &'static str,
    /// Whether `maps` are the kernel's own (from output elements), which then stand for the
    /// fusion's, and why some are missing.
    own_maps: Option<Option<String>>,
}

impl Heatmap {
    /// Analyses the selected computation and enumerates the operand's accesses.
    pub fn build(module: &Module, selection: &Selection) -> Result<Heatmap, RenderError> {
        let computation = pick_computation(module, selection.fusion.as_deref())?;
        let options = Options {
            computation: Some(computation.clone()),
            direction: Direction::OutputToInput,
            ..Options::default()
        };
        let report = analyze_module(module, &options).map_err(RenderError::Hlo)?;
        let outputs = report
            .computations
            .into_iter()
            .next()
            .map(|c| c.outputs)
            .unwrap_or_default();
        let n_outputs = outputs.len();
        let output = outputs.into_iter().nth(selection.output).ok_or_else(|| {
            RenderError::Usage(format!(
                "{computation} has {n_outputs} result(s); there is no output {}",
                selection.output
            ))
        })?;
        let n_params = output.operands.len();
        let operand = output
            .operands
            .into_iter()
            .find(|o| o.operand == selection.operand)
            .ok_or_else(|| {
                RenderError::Usage(format!(
                    "{computation} has {n_params} parameter(s); there is no operand {}",
                    selection.operand
                ))
            })?;
        let fusion_maps: Vec<IndexingMap> = operand
            .maps
            .accesses
            .iter()
            .map(|a| a.map.clone())
            .collect();
        let (maps, kernel) = match kernel_view(module, &computation, selection, &fusion_maps) {
            Some(view) => (view.maps.clone(), Some(view)),
            None => (fusion_maps, None),
        };
        let judge = match &kernel {
            Some(view) => Judge::PerMap(&view.coalesced),
            None => Judge::Neighbours,
        };
        let warp = match (selection.warp, &kernel) {
            (None, _) => None,
            (Some(_), Some(view)) if view.emitter != "loop" => {
                return Err(RenderError::Usage(format!(
                    "the {} emitter writes {computation}: --warp applies to loop kernels",
                    view.emitter
                )));
            }
            (Some(index), Some(view)) => {
                let warps = view.threads.div_ceil(WARP as u64);
                if index >= warps {
                    return Err(RenderError::Usage(format!(
                        "--warp {index}: the loop kernel of {computation} has {warps} warp(s), 0 to {}",
                        warps.saturating_sub(1)
                    )));
                }
                Some(Warp {
                    index,
                    unroll: view.unroll,
                    threads: view.threads,
                })
            }
            (Some(_), None) => {
                return Err(RenderError::Usage(format!(
                    "{computation} is no loop kernel with a launch grid: --warp does not apply"
                )));
            }
        };
        let pattern = AccessPattern::compute(&maps, &output.shape, &operand.shape, judge, warp)
            .map_err(RenderError::Analysis)?;
        Ok(Heatmap {
            computation,
            operand: selection.operand,
            output: selection.output,
            maps: maps.iter().map(ToString::to_string).collect(),
            undefined: match kernel.as_ref().and_then(|k| k.own_maps.clone()) {
                Some(undefined) => undefined,
                None => operand.maps.undefined,
            },
            emitter: kernel.as_ref().map_or("loop", |k| k.emitter),
            kernel_verdicts: kernel.map(|k| k.verdicts).unwrap_or_default(),
            warp: selection.warp,
            pattern,
        })
    }

    /// The input grid of the warp's lanes: a cell counts `lane + 1` (the lowest lane reading
    /// it in the first step), 0 where the warp reads nothing; `None` without `--warp`.
    pub fn lane_grid(&self, max_rows: usize, max_cols: usize) -> Option<Grid> {
        let lanes = self.pattern.lanes.as_ref()?;
        let counts: Vec<u32> = lanes
            .iter()
            .map(|l| l.map_or(0, |l| u32::from(l) + 1))
            .collect();
        let flags = vec![false; counts.len()];
        Some(Grid::new(
            &counts,
            &flags,
            &self.pattern.input.dims,
            max_rows,
            max_cols,
        ))
    }

    /// The title of the lane grid.
    pub fn lane_title(&self) -> String {
        format!(
            "input {}: the lane of warp {} that reads each element in the kernel's first step",
            self.pattern.input,
            self.warp.unwrap_or_default()
        )
    }

    /// The lines above the pictures: what is drawn, the maps, and totals.
    pub fn write_header(&self, out: &mut String) {
        let p = &self.pattern;
        let _ = writeln!(
            out,
            "{}: operand {} {} read by output {} {}",
            self.computation, self.operand, p.input, self.output, p.output
        );
        for map in &self.maps {
            let _ = writeln!(out, "map: {map}");
        }
        if self.maps.is_empty() {
            out.push_str("map: none (the operand is not read)\n");
        }
        if let Some(reason) = &self.undefined {
            let _ = writeln!(out, "incomplete: {reason}; only the known maps are drawn");
        }
        let _ = writeln!(
            out,
            "read: {} of {} input elements",
            p.elements_read(),
            p.reads.len()
        );
        let bad = p.uncoalesced_outputs();
        match self.judge() {
            JudgedBy::Kernel => {
                let _ = writeln!(
                    out,
                    "uncoalesced: {bad} of {} output elements (the first warp of the sm_90 {} kernel, as `xla-indexing coalescing` counts it)",
                    p.fan_in.len(),
                    self.emitter
                );
                for (k, verdict) in self.kernel_verdicts.iter().enumerate() {
                    let _ = writeln!(out, "  read {k}: {verdict}");
                }
            }
            JudgedBy::Neighbours => {
                let _ = writeln!(
                    out,
                    "uncoalesced: {bad} of {} output elements (one thread per output element in layout order, warps of {WARP})",
                    p.fan_in.len()
                );
            }
            JudgedBy::Unknown => out.push_str("uncoalesced: unknown (tiled layout)\n"),
        }
    }

    /// What the coalescing of the accesses comes from.
    pub fn judge(&self) -> JudgedBy {
        if !self.kernel_verdicts.is_empty() {
            JudgedBy::Kernel
        } else if self.pattern.coalescing_known {
            JudgedBy::Neighbours
        } else {
            JudgedBy::Unknown
        }
    }
}

/// Where a heatmap's coalescing comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JudgedBy {
    /// The GPU loop kernel's analysis, per map.
    Kernel,
    /// Neighbouring threads, one per output element in layout order.
    Neighbours,
    /// Not judged (a tiled layout).
    Unknown,
}

/// The maps of the selected operand as the GPU loop kernel of `computation` reads them, with
/// the kernel analysis' verdict on each. For a kernel of another emitter (which does not read
/// an operand through output-to-operand maps), the fusion's maps `fusion_maps`, each judged
/// coalesced when every read the emitter makes of the operand is, and the emitter's verdicts.
/// `None` when the computation is no kernel, the kernel cannot be planned, or an access cannot
/// be analysed.
fn kernel_view(
    module: &Module,
    computation: &str,
    selection: &Selection,
    fusion_maps: &[IndexingMap],
) -> Option<KernelView> {
    let c = module.computation(computation)?;
    let kernel = kernels(module).into_iter().find(|k| k.computation == c)?;
    let device = Device::default();
    let plan = plan_kernel(module, kernel, &device).ok()?;
    let output = plan
        .outputs
        .iter()
        .find(|o| o.output == selection.output && o.skipped.is_none())?;
    let mut view = KernelView {
        maps: Vec::new(),
        coalesced: Vec::new(),
        verdicts: Vec::new(),
        unroll: plan.unroll,
        threads: plan.launch.total_threads()?,
        emitter: plan.emitter.name(),
        own_maps: None,
    };
    let reads = output
        .operands
        .iter()
        .filter(|o| o.parameter == selection.operand && o.leaf.is_none());
    let mut undefined = None;
    for operand in reads {
        undefined = undefined.or(operand.undefined.clone());
        for access in &operand.output_maps {
            let verdict =
                analyze_access(&operand.read_map, &access.map, &operand.shape, &device).ok()?;
            view.maps.push(access.map.clone());
            view.coalesced.push(verdict.coalesced);
            view.verdicts.push(KernelVerdict {
                coalesced: verdict.coalesced,
                transactions: verdict.transactions,
                ideal: verdict.ideal,
                reason: verdict.reason,
            });
        }
    }
    if view.verdicts.is_empty() {
        return None;
    }
    if plan.emitter.reads_from_output_elements() {
        view.own_maps = Some(undefined);
    } else {
        let all = view.coalesced.iter().all(|&c| c);
        view.maps = fusion_maps.to_vec();
        view.coalesced = vec![all; fusion_maps.len()];
    }
    Some(view)
}

/// The computation a selection names: a fusion instruction's, a computation by name, the only
/// fused computation, or the entry computation of a module without fusions.
fn pick_computation(module: &Module, fusion: Option<&str>) -> Result<String, RenderError> {
    let fused = |i: &xla_indexing_hlo::Instruction| match (i.opcode, i.called("calls")) {
        (Opcode::Fusion, [name]) => Some(name.clone()),
        _ => None,
    };
    if let Some(name) = fusion {
        let by_instruction = module
            .computations
            .iter()
            .flat_map(|c| &c.instructions)
            .find(|i| i.name == name)
            .and_then(fused);
        return by_instruction
            .or_else(|| module.computation(name).map(|_| name.to_string()))
            .ok_or_else(|| RenderError::Usage(format!("no fusion or computation named '{name}'")));
    }
    let mut all: Vec<String> = Vec::new();
    for name in module
        .computations
        .iter()
        .flat_map(|c| &c.instructions)
        .filter_map(fused)
    {
        if !all.contains(&name) {
            all.push(name);
        }
    }
    match all.as_slice() {
        [] => module
            .computations
            .get(module.entry)
            .map(|c| c.name.clone())
            .ok_or_else(|| RenderError::Usage("the module has no computation".into())),
        [one] => Ok(one.clone()),
        many => {
            let shown: Vec<&str> = many.iter().take(8).map(String::as_str).collect();
            Err(RenderError::Usage(format!(
                "the module has {} fused computations; pick one with --fusion ({}{})",
                many.len(),
                shown.join(", "),
                if many.len() > shown.len() {
                    ", ..."
                } else {
                    ""
                }
            )))
        }
    }
}
