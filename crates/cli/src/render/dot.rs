//! The fusion graph as Graphviz DOT: one `subgraph cluster_K` per fusion (nested fusions nest),
//! boxes for instructions (name, opcode, shape), and each edge labelled with its operand number
//! and its indexing maps; edges without a map are dashed and red with the reason.

use std::fmt::Write;
use xla_indexing_hlo::Opcode;

use super::graph::{Edge, Graph, Nesting};

/// Fill colours of clusters by nesting depth.
const CLUSTER_FILLS: [&str; 3] = ["#eef4ff", "#e3f2e6", "#fdf1e0"];

/// A graph of more nodes than this is laid out for speed (see [`to_dot`]).
pub const LARGE_GRAPH: usize = 200;

/// What Graphviz is told for a graph of more than [`LARGE_GRAPH`] nodes: rank clusters with
/// the rest of the graph (`newrank`, which also avoids `dot`'s ranking failures on many
/// clusters), one round of network simplex and of crossing minimization, and place edge labels
/// after the layout, over anything if need be.
const FAST_LAYOUT: &str = "newrank=true, nslimit=1, nslimit1=1, mclimit=0.1, forcelabels=true";

/// The DOT text of a graph. An edge's maps are its `label`, which Graphviz lays out as a node
/// of its own; in a graph of more than [`LARGE_GRAPH`] nodes they are `xlabel`s, placed once
/// the nodes are, and the layout is cut short ([`FAST_LAYOUT`]): a thousand-node graph then
/// takes seconds where the full layout takes minutes.
pub fn to_dot(graph: &Graph) -> String {
    let large = graph.nodes.len() > LARGE_GRAPH;
    let mut out = String::new();
    let _ = writeln!(out, "digraph \"{}\" {{", escape(&graph.name));
    let fast = if large {
        format!(", {FAST_LAYOUT}")
    } else {
        String::new()
    };
    let _ = writeln!(
        out,
        "  graph [rankdir=TB, fontname=\"Helvetica\", fontsize=11, labelloc=t, nodesep=0.4{fast}];"
    );
    out.push_str(
        "  node [shape=box, style=\"rounded,filled\", fillcolor=\"#ffffff\", fontname=\"Helvetica\", fontsize=10];\n\
         \x20 edge [fontname=\"Courier\", fontsize=8, color=\"#444444\"];\n",
    );
    let _ = writeln!(
        out,
        "  label=\"{}: edges carry the map from the consumer's output to the producer's output\";",
        escape(&graph.name)
    );
    write_cluster(graph, &graph.nesting(), 0, 1, &mut out);
    let label = if large { "xlabel" } else { "label" };
    for edge in &graph.edges {
        write_edge(edge, label, &mut out);
    }
    out.push_str("}\n");
    out
}

/// Writes the nodes of `slot` (see [`Nesting`]) and, nested, its clusters.
fn write_cluster(graph: &Graph, nesting: &Nesting, slot: usize, depth: usize, out: &mut String) {
    let pad = "  ".repeat(depth);
    for &n in &nesting.nodes[slot] {
        let node = &graph.nodes[n];
        let fill = if node.opcode == Opcode::Parameter {
            ", fillcolor=\"#f0f0f0\""
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "{pad}n{n} [label=\"{}\\n{}\\n{}\"{fill}];",
            escape(&node.name),
            escape(node.opcode.as_str()),
            escape(&node.shape),
        );
    }
    for &k in &nesting.clusters[slot] {
        let c = &graph.clusters[k];
        let kind = c
            .kind
            .as_deref()
            .map(|k| format!(", {k}"))
            .unwrap_or_default();
        let _ = writeln!(out, "{pad}subgraph cluster_{k} {{");
        let _ = writeln!(
            out,
            "{pad}  label=\"fusion {}{kind}\\ncomputation {}\";",
            escape(&c.fusion),
            escape(&c.computation)
        );
        let _ = writeln!(
            out,
            "{pad}  style=\"rounded,filled\"; color=\"#7a8fb8\"; fillcolor=\"{}\";",
            CLUSTER_FILLS[(depth - 1) % CLUSTER_FILLS.len()]
        );
        write_cluster(graph, nesting, k + 1, depth + 1, out);
        let _ = writeln!(out, "{pad}}}");
    }
}

/// Writes one edge, its maps as the attribute `label` (`label` or `xlabel`).
fn write_edge(edge: &Edge, label_attribute: &str, out: &mut String) {
    let mut label = format!("operand {}\\l", edge.operand);
    for map in &edge.maps {
        label.push_str(&escape(&wrap_map(map)));
    }
    let style = match &edge.undefined {
        Some(reason) => {
            let _ = write!(label, "no map: {}\\l", escape(reason));
            ", style=dashed, color=\"#c0392b\", fontcolor=\"#c0392b\""
        }
        None => "",
    };
    let _ = writeln!(
        out,
        "  n{} -> n{} [{label_attribute}=\"{label}\"{style}];",
        edge.from, edge.to
    );
}

/// A map on two left-aligned lines: the results, then the domain.
fn wrap_map(map: &str) -> String {
    match map.split_once(", domain: ") {
        Some((results, domain)) => format!("{results}\n  domain: {domain}\n"),
        None => format!("{map}\n"),
    }
}

/// Escapes a DOT string: quotes and backslashes; newlines become left-aligned line breaks.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\l"),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}
