//! The fusion graph as text for terminals and FileCheck: the instructions, indented by fusion
//! nesting under a `fusion NAME (computation C, KIND)` line, then one block per edge:
//!
//! ```text
//! edge p0 -> param_0 (operand 0)
//!   (d0, d1) -> (d1, d0), domain: d0 in [0, 9], d1 in [0, 19]
//! ```

use std::fmt::Write;

use super::graph::{Graph, Nesting};

/// The text of a graph.
pub fn to_text(graph: &Graph) -> String {
    let names = graph.display_names();
    let mut out = String::new();
    let _ = writeln!(out, "module {}", graph.name);
    write_cluster(graph, &graph.nesting(), &names, 0, 1, &mut out);
    for edge in &graph.edges {
        let _ = writeln!(
            out,
            "edge {} -> {} (operand {})",
            names[edge.from], names[edge.to], edge.operand
        );
        for map in &edge.maps {
            let _ = writeln!(out, "  {map}");
        }
        if let Some(reason) = &edge.undefined {
            let _ = writeln!(out, "  no map: {reason}");
        }
    }
    out
}

/// Writes the nodes of `slot` (see [`Nesting`]) and, nested, its clusters.
fn write_cluster(
    graph: &Graph,
    nesting: &Nesting,
    names: &[String],
    slot: usize,
    depth: usize,
    out: &mut String,
) {
    let pad = "  ".repeat(depth);
    for &n in &nesting.nodes[slot] {
        let node = &graph.nodes[n];
        let _ = writeln!(out, "{pad}{} = {} {}", names[n], node.opcode, node.shape);
    }
    for &k in &nesting.clusters[slot] {
        let c = &graph.clusters[k];
        let kind = c
            .kind
            .as_deref()
            .map(|k| format!(", {k}"))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "{pad}fusion {} (computation {}{kind})",
            c.fusion, c.computation
        );
        write_cluster(graph, nesting, names, k + 1, depth + 1, out);
    }
}
