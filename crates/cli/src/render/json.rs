//! The pictures as JSON, for programs: the fusion graph's nodes, clusters and edges with their
//! maps, and the access heatmap's grids of counts with the coalescing of every cell.
//!
//! Fusion graph (`from` and `to` index `nodes`, `cluster` and `parent` index `clusters`):
//! ```json
//! {"module": "m", "nodes": [{"name": "p0", "computation": "fused", "opcode": "parameter",
//!   "shape": "f32[16,32]{1,0}", "cluster": 0}], "clusters": [{"fusion": "f", "computation":
//!   "fused", "kind": "kLoop", "parent": null}], "edges": [{"from": 0, "to": 1, "operand": 0,
//!   "maps": ["(d0, d1) -> (d1, d0), domain: ..."], "undefined": null}]}
//! ```
//! Access heatmap: the header's facts, then per grid its binning and its cells row by row
//! (`counts`, and `uncoalesced` where any element of the cell is read uncoalesced); with
//! `--warp`, `warp.lanes` holds the lowest lane reading each cell in the first step, or null:
//! ```json
//! {"computation": "fused", "operand": 0, "output": 0, "maps": [...], "undefined": null,
//!  "coalescing": "kernel", "kernel": [{"map": 0, "coalesced": false, "transactions": 8,
//!  "ideal": 1, "reason": "..."}], "input": {"shape": "f32[32,16]{1,0}", "elements": 512,
//!  "read": 512, "grid": {"rows": 32, "cols": 16, "row_step": 1, "col_step": 1,
//!  "row_labels": ["0", ...], "counts": [[1, ...], ...], "uncoalesced": [[true, ...], ...]}},
//!  "output": {"shape": ..., "elements": 512, "uncoalesced": 512, "grid": {...}}, "warp": null}
//! ```

use serde_json::{Value, json};

use super::graph::Graph;
use super::grid::Grid;
use super::heatmap::{Heatmap, JudgedBy};

/// Most cells of a JSON heatmap grid, down and across.
pub const MAX_CELLS_JSON: (usize, usize) = (256, 256);

/// The fusion graph as JSON.
pub fn graph_json(graph: &Graph) -> Value {
    let nodes: Vec<Value> = graph
        .nodes
        .iter()
        .map(|n| {
            json!({
                "name": n.name,
                "computation": n.computation,
                "opcode": n.opcode.as_str(),
                "shape": n.shape,
                "cluster": n.cluster,
            })
        })
        .collect();
    let clusters: Vec<Value> = graph
        .clusters
        .iter()
        .map(|c| {
            json!({
                "fusion": c.fusion,
                "computation": c.computation,
                "kind": c.kind,
                "parent": c.parent,
            })
        })
        .collect();
    let edges: Vec<Value> = graph
        .edges
        .iter()
        .map(|e| {
            json!({
                "from": e.from,
                "to": e.to,
                "operand": e.operand,
                "maps": e.maps,
                "undefined": e.undefined,
            })
        })
        .collect();
    json!({ "module": graph.name, "nodes": nodes, "clusters": clusters, "edges": edges })
}

/// The access heatmap as JSON.
pub fn heatmap_json(h: &Heatmap) -> Value {
    let p = &h.pattern;
    let (rows, cols) = MAX_CELLS_JSON;
    let input = Grid::new(&p.reads, &p.input_uncoalesced, &p.input.dims, rows, cols);
    let output = Grid::new(&p.fan_in, &p.output_uncoalesced, &p.output.dims, rows, cols);
    let judge = h.judge();
    let kernel: Vec<Value> = h
        .kernel_verdicts
        .iter()
        .enumerate()
        .map(|(k, v)| {
            json!({
                "map": k,
                "coalesced": v.coalesced,
                "transactions": v.transactions,
                "ideal": v.ideal,
                "reason": v.reason,
            })
        })
        .collect();
    let warp = h.lane_grid(rows, cols).map(|lanes| {
        let mut grid = grid_frame(&lanes);
        grid["lanes"] = cell_rows(&lanes, |c| {
            c.count.checked_sub(1).map_or(Value::Null, Value::from)
        });
        json!({ "index": h.warp, "grid": grid })
    });
    json!({
        "computation": h.computation,
        "operand": h.operand,
        "output": h.output,
        "maps": h.maps,
        "undefined": h.undefined,
        "coalescing": match judge {
            JudgedBy::Kernel => "kernel",
            JudgedBy::Neighbours => "neighbours",
            JudgedBy::Unknown => "unknown",
        },
        "kernel": kernel,
        "input": {
            "shape": p.input.to_string(),
            "elements": p.reads.len(),
            "read": p.elements_read(),
            "grid": counts_grid(&input, judge),
        },
        "output": {
            "shape": p.output.to_string(),
            "elements": p.fan_in.len(),
            "uncoalesced": (judge != JudgedBy::Unknown).then(|| p.uncoalesced_outputs()),
            "grid": counts_grid(&output, judge),
        },
        "warp": warp,
    })
}

/// A grid's binning and row labels.
fn grid_frame(g: &Grid) -> Value {
    json!({
        "rows": g.rows,
        "cols": g.cols,
        "row_step": g.row_step,
        "col_step": g.col_step,
        "row_labels": g.row_labels,
    })
}

/// A grid of counts: `counts` and, where coalescing is judged, `uncoalesced` per cell.
fn counts_grid(g: &Grid, judge: JudgedBy) -> Value {
    let mut grid = grid_frame(g);
    grid["counts"] = cell_rows(g, |c| Value::from(c.count));
    grid["uncoalesced"] = match judge {
        JudgedBy::Unknown => Value::Null,
        _ => cell_rows(g, |c| Value::from(c.flagged)),
    };
    grid
}

/// The cells of a grid, row by row, each as `cell` writes it.
fn cell_rows(g: &Grid, cell: impl Fn(super::grid::Cell) -> Value) -> Value {
    (0..g.rows)
        .map(|r| (0..g.cols).map(|c| cell(g.cell(r, c))).collect::<Vec<_>>())
        .collect()
}
