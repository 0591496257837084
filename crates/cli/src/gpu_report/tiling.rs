//! `tiles --symbolic`, `--space` and `--best`: every operand's symbolic tile, the valid tilings
//! of each output and their costs, as JSON or text.

use serde_json::{Value, json};
use xla_indexing_gpu::Device;
use xla_indexing_gpu::kernel_tiles::SymbolicKernelTiles;
use xla_indexing_gpu::symbolic_tile::SymbolicTile;
use xla_indexing_gpu::tiles::TileError;
use xla_indexing_gpu::tiling_space::{TilingCost, ranked, space, tiled_inputs};

use super::kernel_json;
use super::tiles::shape_text;

/// One symbolic tile as JSON.
fn symbolic_json(t: &SymbolicTile) -> Value {
    let show = |es: &[xla_indexing_core::Expr]| es.iter().map(|e| t.show(e)).collect::<Vec<_>>();
    json!({
        "offsets": show(t.offsets.results()),
        "sizes": show(&t.sizes),
        "strides": show(&t.strides),
        "constraints": t.condition_text(),
        "exact": t.over.is_empty(),
        "over_approximation": t.over,
        "extra_bound": t.extra_bound.as_ref().map(|b| t.show(b)),
    })
}

/// `kernel output k shape`, as every text report starts an output's lines.
fn output_name(k: &SymbolicKernelTiles) -> String {
    let shape = &k.kernel.outputs[k.output];
    format!("{} output {} {shape}", k.kernel.name, k.output)
}

/// The header of one output: the kernel, the output and the variables of its tiles.
fn header(k: &SymbolicKernelTiles) -> String {
    let vars: Vec<String> = k.kernel.outputs[k.output]
        .dims
        .iter()
        .enumerate()
        .map(|(i, d)| format!("ts{i} in [1, {d}]"))
        .collect();
    format!(
        "{}: tile t covers t_i * ts_i + [0, ts_i - 1], {}\n",
        output_name(k),
        vars.join(", ")
    )
}

/// One entry per output, named as every report names it, its fields added by `fill`.
fn kernels_json(
    all: &[SymbolicKernelTiles],
    fill: impl Fn(&SymbolicKernelTiles, &mut Value),
) -> Vec<Value> {
    all.iter()
        .map(|k| {
            let mut v = kernel_json(&k.kernel, &k.computation);
            v["output"] = json!(k.output);
            fill(k, &mut v);
            v
        })
        .collect()
}

/// A symbolic tile, or why there is none, into `x` (`tile` or `not_tiled`).
fn tile_or_reason_json(x: &mut Value, tile: &Result<SymbolicTile, TileError>) {
    match tile {
        Ok(t) => x["tile"] = symbolic_json(t),
        Err(e) => x["not_tiled"] = json!(e.0),
    }
}

/// `tiles --symbolic --format json`.
pub fn symbolic_json_report(all: &[SymbolicKernelTiles]) -> Value {
    let kernels = kernels_json(all, |k, v| {
        v["operands"] = k
            .operands
            .iter()
            .map(|o| {
                let mut x =
                    json!({"operand": o.parameter, "leaf": o.leaf, "shape": shape_text(&o.shape)});
                tile_or_reason_json(&mut x, &o.tile);
                x
            })
            .collect();
        v["intermediates"] = k
            .intermediates
            .iter()
            .map(|i| {
                let mut x = json!({"instruction": i.instruction, "leaf": i.leaf, "shape": i.shape.to_string()});
                tile_or_reason_json(&mut x, &i.tile);
                x
            })
            .collect();
    });
    json!({ "kernels": kernels })
}

/// The lines of one symbolic tile, or of why there is none, under a heading.
fn tile_or_reason_text(out: &mut String, tile: &Result<SymbolicTile, TileError>) {
    match tile {
        Ok(t) => {
            let list = |es: &[xla_indexing_core::Expr]| {
                es.iter().map(|e| t.show(e)).collect::<Vec<_>>().join(", ")
            };
            out.push_str(&format!(
                "    offsets ({})\n    sizes ({}), strides ({})\n",
                list(t.offsets.results()),
                list(&t.sizes),
                list(&t.strides)
            ));
            let when = t.condition_text();
            if t.over.is_empty() {
                out.push_str(&format!("    exact when {when}\n"));
            } else {
                out.push_str(&format!("    covers the read when {when}\n"));
                for o in &t.over {
                    out.push_str(&format!("    over: {o}\n"));
                }
                if let Some(b) = &t.extra_bound {
                    out.push_str(&format!(
                        "    over by at most {} elements (a full tile that reads anything)\n",
                        t.show(b)
                    ));
                }
            }
        }
        Err(e) => out.push_str(&format!("    not tiled symbolically: {e}\n")),
    }
}

/// The text form of [`symbolic_json_report`]: each output's operands, then its intermediates.
pub fn symbolic_text(all: &[SymbolicKernelTiles]) -> String {
    let mut out = String::new();
    for k in all {
        out.push_str(&header(k));
        for o in &k.operands {
            out.push_str(&format!(
                "  operand {} {}:\n",
                o.label(),
                shape_text(&o.shape)
            ));
            tile_or_reason_text(&mut out, &o.tile);
        }
        for i in &k.intermediates {
            let leaf = if i.leaf > 0 {
                format!(".{}", i.leaf)
            } else {
                String::new()
            };
            out.push_str(&format!(
                "  intermediate %{}{leaf} {}:\n",
                i.instruction, i.shape
            ));
            tile_or_reason_text(&mut out, &i.tile);
        }
        out.push('\n');
    }
    out
}

/// One output's valid tilings, of how many candidates.
type Space = Result<(Vec<Vec<i64>>, usize), TileError>;

fn space_of(k: &SymbolicKernelTiles) -> Space {
    space(&k.kernel.outputs[k.output].dims, &tiled_inputs(k)?)
}

/// `tiles --space --format json`.
pub fn space_json(all: &[SymbolicKernelTiles]) -> Value {
    let kernels = kernels_json(all, |k, v| match space_of(k) {
        Ok((valid, n)) => {
            v["candidates"] = json!(n);
            v["valid"] = json!(valid);
        }
        Err(e) => v["no_space"] = json!(e.0),
    });
    json!({ "kernels": kernels })
}

/// The text form of [`space_json`].
pub fn space_text(all: &[SymbolicKernelTiles]) -> String {
    let mut out = String::new();
    for k in all {
        let head = output_name(k);
        match space_of(k) {
            Ok((valid, n)) => {
                out.push_str(&format!(
                    "{head}: {} of {n} power-of-two tilings valid\n",
                    valid.len()
                ));
                for ts in valid {
                    out.push_str(&format!("  {ts:?}\n"));
                }
            }
            Err(e) => out.push_str(&format!("{head}: no tiling space: {e}\n")),
        }
        out.push('\n');
    }
    out
}

type Ranking = Result<(Vec<TilingCost>, usize), TileError>;

fn ranking(k: &SymbolicKernelTiles, device: &Device) -> Ranking {
    ranked(&k.kernel.outputs[k.output], &tiled_inputs(k)?, device)
}

fn cost_json(c: &TilingCost) -> Value {
    json!({
        "sizes": c.sizes,
        "tiles": c.tiles,
        "read_bytes_per_element": c.read_bytes_per_element,
        "coalescing": c.coalescing,
        "occupancy": c.occupancy,
        "redundant_bytes": c.redundant_bytes,
        "exact": c.exact,
        "cost": c.cost,
    })
}

/// `tiles --best --format json`: every ranked candidate, the best first.
pub fn best_json(all: &[SymbolicKernelTiles], device: &Device) -> Value {
    let kernels: Vec<Value> = all
        .iter()
        .map(|k| {
            let mut v = kernel_json(&k.kernel, &k.computation);
            v["output"] = json!(k.output);
            match ranking(k, device) {
                Ok((ranked, too_large)) => {
                    v["best"] = ranked
                        .first()
                        .map(|c| json!(c.sizes))
                        .unwrap_or(Value::Null);
                    v["over_register_budget"] = json!(too_large);
                    v["ranked"] = ranked.iter().map(cost_json).collect();
                }
                Err(e) => v["no_space"] = json!(e.0),
            }
            v
        })
        .collect();
    json!({ "chip": device.name, "kernels": kernels })
}

/// The text form of [`best_json`], the first `top` candidates of each output.
pub fn best_text(all: &[SymbolicKernelTiles], device: &Device, top: usize) -> String {
    let mut out = String::new();
    for k in all {
        let head = output_name(k);
        match ranking(k, device) {
            Ok((ranked, too_large)) => {
                let Some(best) = ranked.first() else {
                    out.push_str(&format!(
                        "{head}: no valid tiling within the register budget ({too_large} over it)\n\n"
                    ));
                    continue;
                };
                out.push_str(&format!(
                    "{head}: best {:?} of {} ranked tilings on {} ({too_large} over the register budget)\n",
                    best.sizes,
                    ranked.len(),
                    device.name
                ));
                out.push_str("  sizes                tiles  read B/elem  coalescing  occupancy  redundant B  exact  cost\n");
                for c in ranked.iter().take(top) {
                    out.push_str(&format!(
                        "  {:<20} {:>6}  {:>11.2}  {:>10.2}  {:>9.2}  {:>11}  {:<5}  {:.4e}\n",
                        format!("{:?}", c.sizes),
                        c.tiles,
                        c.read_bytes_per_element,
                        c.coalescing,
                        c.occupancy,
                        c.redundant_bytes,
                        if c.exact { "yes" } else { "no" },
                        c.cost
                    ));
                }
            }
            Err(e) => out.push_str(&format!("{head}: no tiling space: {e}\n")),
        }
        out.push('\n');
    }
    out
}
