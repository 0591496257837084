//! The fusion graph as Graphviz DOT: one `subgraph cluster_K` per fusion (nested fusions nest),
//! boxes for instructions (name, opcode, shape), and each edge labelled with its operand number
//! and its indexing maps; edges without a map are dashed and red with the reason.

use std::fmt::Write;
use xla_indexing_hlo::Opcode;

use super::graph::{Edge, Graph, Nesting};

/// Fill colours of clusters by nesting depth.
const CLUSTER_FILLS: [&str; 3] = ["#eef4ff", "#e3f2e6", "#fdf1e0"];

/// The DOT text of a graph.
pub fn to_dot(graph: &Graph) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "digraph \"{}\" {{", escape(&graph.name));
    out.push_str(
        "  graph [rankdir=TB, fontname=\"Helvetica\", fontsize=11, labelloc=t, nodesep=0.4];\n\
         \x20 node [shape=box, style=\"rounded,filled\", fillcolor=\"#ffffff\", fontname=\"Helvetica\", fontsize=10];\n\
         \x20 edge [fontname=\"Courier\", fontsize=8, color=\"#444444\"];\n",
    );
    let _ = writeln!(
        out,
        "  label=\"{}: edges carry the map from the consumer's output to the producer's output\";",
        escape(&graph.name)
    );
    write_cluster(graph, &graph.nesting(), 0, 1, &mut out);
    for edge in &graph.edges {
        write_edge(edge, &mut out);
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

fn write_edge(edge: &Edge, out: &mut String) {
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
        "  n{} -> n{} [label=\"{label}\"{style}];",
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
