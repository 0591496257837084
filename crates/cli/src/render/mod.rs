//! Pictures of an HLO module: the producer-consumer graph with an indexing map on every edge
//! ([`graph`], drawn by [`dot`], [`graph_text`] and Graphviz through [`graphviz`]), and access
//! heatmaps of one operand ([`access`], [`heatmap`], drawn on a [`grid`] by [`heatmap_text`] and
//! [`heatmap_svg`]).

pub mod access;
pub mod dot;
pub mod graph;
pub mod graph_text;
pub mod graphviz;
pub mod grid;
pub mod heatmap;
pub mod heatmap_svg;
pub mod heatmap_text;
pub mod json;

use xla_indexing_hlo::HloError;

/// Why a picture cannot be drawn.
#[derive(Debug)]
pub enum RenderError {
    /// The module is inconsistent or names something wrongly.
    Hlo(HloError),
    /// The request names something the module lacks.
    Usage(String),
    /// The picture cannot be made (too large, Graphviz failed).
    Analysis(String),
}
