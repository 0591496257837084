//! One module per subcommand.

pub mod bounds;
pub mod coalescing;
pub mod compile;
pub mod import;
pub mod indexing;
pub mod launch;
pub mod opt;
pub mod ranges;
pub mod render;
pub mod simplify;
pub mod tiles;

use xla_indexing_gpu::tiled::Tiling;
use xla_indexing_gpu::{Chip, DEFAULT_CHIP, Device, UnknownChip};

use crate::diag::{Diagnostic, Exit, Failure};

/// `--chip`, for every command that plans GPU kernels.
#[derive(Clone, Debug, clap::Args)]
pub struct ChipArg {
    /// The GPU whose limits, multiprocessors and warps the kernels are planned for: sm_70,
    /// sm_75, sm_80, sm_86, sm_89, sm_90 or sm_100 (an `a` suffix, as in sm_90a, is allowed).
    #[arg(long, default_value = DEFAULT_CHIP, value_parser = known_chip)]
    pub chip: String,
}

impl ChipArg {
    /// The chip's device facts.
    pub fn device(&self) -> Device {
        Device::for_chip(&self.chip).expect("--chip was checked when parsed")
    }
}

/// `--tiling`, for the commands that plan kernels through a tiling of their output.
#[derive(Clone, Debug, clap::Args)]
pub struct TilingArg {
    /// Plan every kernel through a tiling of its output 0 rather than by XLA's emitters: a
    /// block per tile, its threads over the tile's elements. `best` takes the tiling the cost
    /// model of `tiles --best` ranks first (a kernel with no valid tiling keeps its emitter);
    /// sizes, one per dimension of output 0 (e.g. 4,64), take those. Scatters and in-place
    /// updates keep their emitters.
    #[arg(long, value_name = "best|SIZES", value_parser = parse_tiling)]
    pub tiling: Option<Tiling>,
}

/// `best`, or positive sizes separated by commas.
fn parse_tiling(text: &str) -> Result<Tiling, String> {
    if text == "best" {
        return Ok(Tiling::Best);
    }
    text.split(',')
        .map(|s| match s.trim().parse::<i64>() {
            Ok(n) if n >= 1 => Ok(n),
            _ => Err(format!(
                "`{s}` is not a positive tile size (expected `best` or sizes such as 4,64)"
            )),
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Tiling::Sizes)
}

/// `name`, if it is a chip of the table.
fn known_chip(name: &str) -> Result<String, UnknownChip> {
    Chip::named(name).map(|_| name.to_string())
}

/// A failure with exit code `exit`, pointing at `line:column` of `file` (whose text is `text`)
/// when the error has a location, else naming the file.
fn located_failure(
    exit: Exit,
    message: String,
    location: Option<(usize, usize)>,
    file: &std::path::Path,
    text: &str,
) -> Failure {
    let file = file.to_string_lossy();
    Failure::new(
        exit,
        Diagnostic::error(message).in_file(&file, text, location),
    )
}

/// A failure for an error of the loops crate: exit 3 for unreadable input, 1 otherwise.
fn loops_failure(e: xla_indexing_loops::LoopsError, file: &std::path::Path, text: &str) -> Failure {
    let exit = match e.kind {
        xla_indexing_loops::ErrorKind::Parse => Exit::Parse,
        xla_indexing_loops::ErrorKind::Semantic => Exit::Analysis,
    };
    let location = (e.line > 0).then_some((e.line, e.column));
    located_failure(exit, e.message, location, file, text)
}

/// A failure for an error of the hlo crate: exit 3 for text that does not parse, 2 for a name
/// the module lacks or a bad request, 1 for an inconsistent module or an impossible launch.
fn hlo_failure(e: xla_indexing_hlo::HloError, file: &std::path::Path, text: &str) -> Failure {
    let exit = match e {
        xla_indexing_hlo::HloError::Parse { .. } => Exit::Parse,
        xla_indexing_hlo::HloError::Usage(_) => Exit::Usage,
        xla_indexing_hlo::HloError::Analysis { .. } => Exit::Analysis,
    };
    located_failure(exit, e.message(), e.location(), file, text)
}

/// The HLO module in `file`, with its text: read, parsed, and checked as a whole
/// (`xla_indexing_hlo::check_module`: every instruction's own maps, every fusion and call
/// against the computation it calls, no recursion), so that every command refuses the same
/// inconsistent modules, at the instruction, with exit 1.
fn read_module(file: &std::path::Path) -> Result<(String, xla_indexing_hlo::Module), Failure> {
    let text = crate::output::read_input(file)?;
    let module = xla_indexing_hlo::parse_module(&text)
        .and_then(|m| xla_indexing_hlo::check_module(&m).map(|()| m))
        .map_err(|e| hlo_failure(e, file, &text))?;
    Ok((text, module))
}

/// [`read_module`] for the commands that plan GPU kernels: a module without fusions whose entry
/// does more than one thing (HLO before XLA's fusion passes) is refused, at its entry
/// computation, with exit 1 and how to dump the optimized module instead.
fn read_fused_module(
    file: &std::path::Path,
) -> Result<(String, xla_indexing_hlo::Module), Failure> {
    let (text, module) = read_module(file)?;
    xla_indexing_gpu::check_fused(&module).map_err(|e| hlo_failure(e, file, &text))?;
    Ok((text, module))
}
