//! `xla-indexing render`: the fusion graph as text, DOT, SVG and JSON, access heatmaps as text,
//! SVG and JSON, and its usage errors (JSON lines on stderr with `--format json`). Text and DOT
//! are compared whole with the files in `snapshots/render/` (`UPDATE_EXPECT=1` rewrites them),
//! and so is the frame of a heatmap's SVG (all but its cells, which the text grids show); its
//! cells and Graphviz's SVG (which varies with the Graphviz version) are checked in parts.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use expect_test::expect_file;
use serde_json::{Value, json};
use xla_indexing_testkit::tools::{program, require};

fn example() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/hlo/transpose_add.hlo")
}

/// The module `args` draw: the example for the fusion graph; for access pictures its copy
/// whose transpose is a bitcast, so that a loop kernel reads the transposed operand (the
/// transpose emitter, whose threads read through a tile, takes the example's).
fn input(args: &[&str]) -> PathBuf {
    if args.windows(2).any(|w| w == ["--what", "access"]) {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/loop_transpose_add.hlo")
    } else {
        example()
    }
}

fn render(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xla-indexing"))
        .arg("render")
        .arg(input(args))
        .args(args)
        .output()
        .unwrap()
}

fn stdout(args: &[&str]) -> String {
    let out = render(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stderr.is_empty(), "no progress when stderr is a pipe");
    String::from_utf8(out.stdout).unwrap()
}

/// A picture meant for browsers fetches nothing and runs nothing.
fn assert_self_contained(svg: &str) {
    assert!(svg.contains("<svg"), "{svg}");
    assert!(!svg.contains("<script"), "a script in {svg}");
    assert!(!svg.contains("<!DOCTYPE"), "a DOCTYPE in {svg}");
    assert!(!svg.contains("href=\"http"), "a link in {svg}");
}

/// A heatmap's SVG without its cells (a `<rect>` with a `<title>` each, one per line): the
/// header, the axes and the legend.
fn frame(svg: &str) -> String {
    svg.lines()
        .filter(|l| !(l.starts_with("<rect x=") && l.contains("<title>")))
        .map(|l| format!("{l}\n"))
        .collect()
}

#[test]
fn fusion_graph_text_labels_every_edge() {
    let text = stdout(&["--what", "fusion-graph"]);
    // Edges into a fusion carry the fusion's composed map: `x -> p0` and `add -> q0`.
    expect_file!["snapshots/render/fusion_graph.txt"].assert_eq(&text);
}

#[test]
fn fusion_graph_dot_has_a_cluster_per_fusion() {
    let dot = stdout(&["--what", "fusion-graph", "--format", "dot"]);
    assert_eq!(dot.matches("subgraph cluster_").count(), 2);
    expect_file!["snapshots/render/fusion_graph.dot"].assert_eq(&dot);
}

#[test]
fn fusion_graph_svg_through_graphviz() {
    if require("SVG through Graphviz", program("dot", "-V")).is_none() {
        return;
    }
    let svg = stdout(&["--what", "fusion-graph", "--format", "svg"]);
    assert_self_contained(&svg);
    assert!(svg.contains("fused_transpose"));
}

/// `render` of `tests/data/large_graph.hlo` (964 nodes, 120 fusions, 1,681 edges) with `args`.
fn large_graph(args: &[&str]) -> String {
    let module = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/large_graph.hlo");
    let out = Command::new(env!("CARGO_BIN_EXE_xla-indexing"))
        .arg("render")
        .arg(module)
        .args(["--what", "fusion-graph"])
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn a_large_fusion_graph_is_laid_out_for_speed_with_every_map() {
    // Past 200 nodes the maps are `xlabel`s, placed after the layout, and the layout is cut
    // short; the small example keeps `label`s and the full layout (its snapshot above).
    let dot = large_graph(&["--format", "dot"]);
    assert!(dot.contains("newrank=true, nslimit=1, nslimit1=1, mclimit=0.1, forcelabels=true"));
    assert_eq!(dot.matches(" [xlabel=\"operand ").count(), 1681);
    assert!(!dot.contains(" [label=\"operand "));
    if require("SVG through Graphviz", program("dot", "-V")).is_none() {
        return;
    }
    // Graphviz lays it out (the full layout fails on it: `trouble in init_rank`), with every
    // edge's map drawn.
    let svg = large_graph(&["--format", "svg"]);
    assert_self_contained(&svg);
    assert_eq!(svg.matches(">operand ").count(), 1681);
}

#[test]
fn access_text_tells_coalesced_from_uncoalesced() {
    let transposed = stdout(&[
        "--what",
        "access",
        "--operand",
        "0",
        "--fusion",
        "transpose_fusion",
    ]);
    // The verdict is the one `xla-indexing coalescing` gives: NOT coalesced, 16 transactions.
    expect_file!["snapshots/render/access_transpose.txt"].assert_eq(&transposed);
    let flat = stdout(&[
        "--what",
        "access",
        "--operand",
        "1",
        "--fusion",
        "fused_transpose",
    ]);
    expect_file!["snapshots/render/access_flat.txt"].assert_eq(&flat);
    let reduce = stdout(&[
        "--what",
        "access",
        "--operand",
        "0",
        "--fusion",
        "reduce_fusion",
    ]);
    // Each of the 32 outputs reads 16 elements: more than 9, uncoalesced (`#`).
    expect_file!["snapshots/render/access_reduce.txt"].assert_eq(&reduce);
}

#[test]
fn a_warp_is_drawn_by_lane() {
    let text = stdout(&[
        "--what",
        "access",
        "--operand",
        "0",
        "--fusion",
        "transpose_fusion",
        "--warp",
        "0",
    ]);
    // Threads 0-31 write output rows 0 and 1: the transpose reads input columns 0 and 1.
    expect_file!["snapshots/render/access_warp.txt"].assert_eq(&text);
    let svg = stdout(&[
        "--what",
        "access",
        "--operand",
        "0",
        "--fusion",
        "transpose_fusion",
        "--warp",
        "0",
        "--format",
        "svg",
    ]);
    assert_self_contained(&svg);
    assert!(svg.contains("<title>[1,0]: lane 1</title>"), "{svg}");
    expect_file!["snapshots/render/access_warp_svg_frame.txt"].assert_eq(&frame(&svg));
}

#[test]
fn access_svg_is_self_contained() {
    let svg = stdout(&[
        "--what",
        "access",
        "--operand",
        "0",
        "--fusion",
        "transpose_fusion",
        "--format",
        "svg",
    ]);
    assert_self_contained(&svg);
    assert!(svg.contains("<title>[0,0]: 1 (uncoalesced)</title>"));
    assert!(svg.contains("fill=\"url(#hatch)\""));
    expect_file!["snapshots/render/access_svg_frame.txt"].assert_eq(&frame(&svg));
}

#[test]
fn picture_goes_to_the_output_file() {
    let path = std::env::temp_dir().join(format!("render-{}.dot", std::process::id()));
    let out = render(&[
        "--what",
        "fusion-graph",
        "--format",
        "dot",
        "-o",
        path.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    assert!(out.stdout.is_empty());
    let written = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    expect_file!["snapshots/render/fusion_graph.dot"].assert_eq(&written);
}

#[test]
fn usage_errors_exit_2() {
    for (args, message) in [
        (&["--what", "access"][..], "--operand"),
        (
            &["--what", "access", "--operand", "0"][..],
            "pick one with --fusion",
        ),
        (
            &["--what", "access", "--operand", "0", "--fusion", "nope"][..],
            "no fusion or computation named 'nope'",
        ),
        (
            &[
                "--what",
                "access",
                "--operand",
                "7",
                "--fusion",
                "reduce_fusion",
            ][..],
            "no operand 7",
        ),
        (
            &[
                "--what",
                "access",
                "--operand",
                "0",
                "--fusion",
                "reduce_fusion",
                "--format",
                "dot",
            ][..],
            "not dot",
        ),
        (
            &[
                "--what",
                "access",
                "--operand",
                "0",
                "--fusion",
                "add_f32",
                "--warp",
                "0",
            ][..],
            "no loop kernel",
        ),
        (
            &[
                "--what",
                "access",
                "--operand",
                "0",
                "--fusion",
                "transpose_fusion",
                "--warp",
                "99999999999",
            ][..],
            "--warp 99999999999: the loop kernel of fused_transpose has 16 warp(s), 0 to 15",
        ),
    ] {
        let out = render(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty());
    }
}

fn json_of(args: &[&str]) -> Value {
    let mut args = args.to_vec();
    args.extend(["--format", "json"]);
    serde_json::from_str(&stdout(&args)).unwrap()
}

#[test]
fn fusion_graph_json_lists_nodes_clusters_and_mapped_edges() {
    let graph = json_of(&["--what", "fusion-graph"]);
    assert_eq!(graph["module"], "transpose_add");
    let nodes = graph["nodes"].as_array().unwrap();
    let clusters = graph["clusters"].as_array().unwrap();
    assert_eq!(clusters.len(), 2);
    let node = |name: &str| nodes.iter().position(|n| n["name"] == name).unwrap();
    let transpose = &nodes[node("transpose")];
    assert_eq!(transpose["shape"], "f32[32,16]{1,0}");
    let cluster = &clusters[transpose["cluster"].as_u64().unwrap() as usize];
    assert_eq!(
        *cluster,
        json!({"fusion": "transpose_fusion", "computation": "fused_transpose", "kind": "kLoop", "parent": null})
    );
    let edge = graph["edges"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["from"] == node("exp") && e["to"] == node("transpose"))
        .unwrap();
    assert_eq!(
        edge["maps"],
        json!(["(d0, d1) -> (d1, d0), domain: d0 in [0, 31], d1 in [0, 15]"])
    );
    assert_eq!(
        (&edge["operand"], &edge["undefined"]),
        (&json!(0), &Value::Null)
    );
}

#[test]
fn access_json_has_the_grids_and_the_kernel_verdicts() {
    let access = json_of(&[
        "--what",
        "access",
        "--operand",
        "0",
        "--fusion",
        "transpose_fusion",
        "--warp",
        "0",
    ]);
    assert_eq!(access["coalescing"], "kernel");
    assert_eq!(access["kernel"][0]["coalesced"], false);
    assert_eq!(access["kernel"][0]["transactions"], 16);
    let input = &access["input"];
    assert_eq!(
        (&input["elements"], &input["read"]),
        (&json!(512), &json!(512))
    );
    let grid = &input["grid"];
    assert_eq!((&grid["rows"], &grid["cols"]), (&json!(16), &json!(32)));
    assert_eq!(grid["counts"][0][0], 1);
    assert_eq!(grid["uncoalesced"][0][0], true);
    assert_eq!(access["output"]["uncoalesced"], 512);
    // As the text grid shows: lanes 0 and 16 read input row 0's first two columns.
    let lanes = &access["warp"]["grid"]["lanes"];
    assert_eq!(
        (&lanes[0][0], &lanes[0][1], &lanes[0][2]),
        (&json!(0), &json!(16), &Value::Null)
    );
    let flat = json_of(&[
        "--what",
        "access",
        "--operand",
        "1",
        "--fusion",
        "fused_transpose",
    ]);
    assert_eq!(flat["output"]["uncoalesced"], 0);
    assert_eq!(flat["warp"], Value::Null);
}

#[test]
fn json_pictures_report_errors_as_json_lines() {
    let out = render(&[
        "--what",
        "access",
        "--operand",
        "7",
        "--fusion",
        "reduce_fusion",
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let line: Value = serde_json::from_slice(&out.stderr).unwrap();
    assert_eq!(line["severity"], "error");
    assert!(
        line["message"].as_str().unwrap().contains("no operand 7"),
        "{line}"
    );
}
