//! `xla-indexing render`: pictures of an HLO module.

use std::path::PathBuf;

use crate::diag::{DiagFormat, Diagnostic, Exit, Failure};
use crate::output::{Format, OutputArgs};
use crate::progress::{Progress, QuietArg};
use crate::render::graph::Graph;
use crate::render::heatmap::{Heatmap, Selection};
use crate::render::{RenderError, dot, graph_text, graphviz, heatmap_svg, heatmap_text, json};

/// Draw an HLO module: its fusion graph, or the access pattern of one fused operand.
///
/// fusion-graph: every instruction of the entry computation and of the fusions it calls, each
/// fusion a cluster, each producer-consumer edge labelled with its indexing map (an edge into a
/// fusion carries the fusion's composed map). Formats dot, svg (through Graphviz), text and json
/// (nodes, clusters, and edges with their maps).
///
/// access: how often each element of operand N is read, and how many elements each output
/// element reads, as a heatmap; coalesced accesses are blue (digits in text), uncoalesced ones
/// hatched orange (letters), as the coalescing command judges the sm_90 loop kernel, or by
/// neighbouring threads (one per output element, layout order) outside loop kernels (the
/// reduction and transpose emitters' threads read through their own maps). Formats svg
/// (self-contained, written directly), text and json (the grids of counts, cell by cell, with
/// their coalescing). With --format json, diagnostics are JSON lines too.
///
/// Examples:
///   xla-indexing render examples/hlo/transpose_add.hlo --what fusion-graph --format svg -o graph.svg
///   xla-indexing render examples/hlo/transpose_add.hlo --what access --operand 0 --fusion transpose_fusion
///   xla-indexing render examples/hlo/layouts_add.hlo --what access --operand 1 --fusion add_fusion --warp 0
///   xla-indexing render examples/hlo/transpose_add.hlo --what fusion-graph --format json
#[derive(clap::Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// The .hlo file (HLO text as XLA dumps it).
    file: PathBuf,
    /// What to draw.
    #[arg(long, value_enum)]
    what: What,
    /// The operand (parameter number) whose accesses are drawn (access only).
    #[arg(long, value_name = "N", required_if_eq("what", "access"))]
    operand: Option<usize>,
    /// The fusion instruction or computation (access only; default: the module's only fusion).
    #[arg(long, value_name = "F")]
    fusion: Option<String>,
    /// The result of a multi-output fusion that reads the operand (access only).
    #[arg(long, value_name = "K", default_value_t = 0)]
    result: usize,
    /// Also draw which lane of warp W of the sm_90 loop kernel reads each element in its first
    /// step (access only; the fusion must be a loop kernel).
    #[arg(long, value_name = "W")]
    warp: Option<u64>,
    /// Picture format.
    #[arg(long, value_enum, default_value_t = PictureFormat::Text)]
    format: PictureFormat,
    /// Write the picture to FILE instead of stdout.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<PathBuf>,
    #[command(flatten)]
    progress: QuietArg,
}

/// The pictures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum What {
    FusionGraph,
    Access,
}

/// The picture formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum PictureFormat {
    Text,
    Dot,
    Svg,
    Json,
}

impl Args {
    /// JSON diagnostics with the JSON picture, text ones otherwise.
    pub fn diag_format(&self) -> DiagFormat {
        match self.format {
            PictureFormat::Json => DiagFormat::Json,
            PictureFormat::Text | PictureFormat::Dot | PictureFormat::Svg => DiagFormat::Text,
        }
    }
}

pub fn run(args: Args) -> Result<(), Failure> {
    let (text, module) = super::read_module(&args.file)?;
    let picture = match args.what {
        What::FusionGraph => {
            let mut progress =
                Progress::new("fusion graph", Graph::work(&module), args.progress.quiet);
            let graph = Graph::build(&module, &mut progress)
                .map_err(|e| super::hlo_failure(e, &args.file, &text))?;
            drop(progress);
            match args.format {
                PictureFormat::Text => graph_text::to_text(&graph),
                PictureFormat::Dot => dot::to_dot(&graph),
                PictureFormat::Svg => {
                    graphviz::dot_to_svg(&dot::to_dot(&graph), args.progress.quiet)
                        .map_err(|e| Failure::new(Exit::Analysis, Diagnostic::error(e)))?
                }
                PictureFormat::Json => json::graph_json(&graph).to_string(),
            }
        }
        What::Access => {
            let selection = Selection {
                fusion: args.fusion.clone(),
                operand: args.operand.unwrap_or_default(),
                output: args.result,
                warp: args.warp,
            };
            let heatmap = Heatmap::build(&module, &selection).map_err(|e| match e {
                RenderError::Hlo(e) => super::hlo_failure(e, &args.file, &text),
                RenderError::Usage(m) => Failure::new(Exit::Usage, Diagnostic::error(m)),
                RenderError::Analysis(m) => Failure::new(Exit::Analysis, Diagnostic::error(m)),
            })?;
            match args.format {
                PictureFormat::Text => heatmap_text::to_text(&heatmap),
                PictureFormat::Svg => heatmap_svg::to_svg(&heatmap),
                PictureFormat::Json => json::heatmap_json(&heatmap).to_string(),
                PictureFormat::Dot => {
                    return Err(Failure::new(
                        Exit::Usage,
                        Diagnostic::error("--what access draws svg, text or json, not dot"),
                    ));
                }
            }
        }
    };
    OutputArgs {
        output: args.output,
        format: Format::Text,
    }
    .write(&picture)
}
