//! `xla-indexing simplify`: simplify one map, or serve the JSON-lines protocol.

use std::io::{BufRead, Write};
use std::time::Instant;

use serde_json::{Map, Value, json};
use xla_indexing_core::{DimNames, Expr, IndexingMap, Interval, Var, parse_expr_in};

use crate::diag::{Diagnostic, Exit, Failure};
use crate::output::{Format, OutputArgs, SyntaxArg};

/// Simplify an indexing map using the bounds of its variables, then rescale the symbols that
/// constraints pin to a residue class and remove the symbols nothing uses.
///
/// Example:
///   xla-indexing simplify '(d0, d1) -> (d0 + d1 floordiv 16, d1 mod 16), domain: d0 in [0, 6], d1 in [0, 14]'
///   prints (d0, d1) -> (d0, d1), domain: d0 in [0, 6], d1 in [0, 14]
///   xla-indexing simplify --syntax xla '(d0) -> (min(d0 floordiv 4, 10)), domain: d0 in [0, 39]'
///   prints (d0) -> (d0 / 4), domain: d0 in [0, 39]
///
/// With --jsonl, reads one request per line on stdin and answers one line each:
///   {"id": "a", "vars": {"d0": [0, 9], "d1": [0, 14]}, "expr": "d0 + d1 floordiv 16"}
///   {"id": "a", "expr": "d0", "ns": 2100}
#[derive(clap::Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// The map, e.g. "(d0) -> (d0 mod 8), domain: d0 in [0, 7]".
    #[arg(required_unless_present = "jsonl", conflicts_with = "jsonl")]
    map: Option<String>,
    /// Serve the JSON-lines protocol on stdin/stdout.
    #[arg(long)]
    jsonl: bool,
    #[command(flatten)]
    pub syntax: SyntaxArg,
    #[command(flatten)]
    pub output: OutputArgs,
}

pub fn run(args: Args) -> Result<(), Failure> {
    if args.jsonl {
        return serve_jsonl();
    }
    let text = args.map.as_deref().unwrap_or_default();
    let mut map = IndexingMap::parse(text).map_err(|e| {
        Failure::new(
            Exit::Parse,
            Diagnostic::error(e.message.clone()).at(None, text, e.line, e.column),
        )
    })?;
    map.simplify();
    // Then, as XLA's callers of `Simplify` do: a symbol pinned to a residue class is rescaled
    // (`s0 mod 6 in [3, 3]`: `s0` becomes `s0 * 6 + 3`), and symbols nothing uses are removed.
    if map.rescale_symbols() {
        map.simplify();
    }
    map.remove_unused_symbols();
    let text = map.display(args.syntax.syntax()).to_string();
    let out = match args.output.format {
        Format::Text => text,
        Format::Json => json!({ "map": text }).to_string(),
    };
    args.output.write(&out)
}

/// A request answered, its answer dropped, before the first line is read. In a fresh process the
/// code of the parser, the simplifier and the printer is in no CPU cache: the first request
/// fetched ~380 lines of instructions from memory (cachegrind's last-level misses; no page
/// faults, nothing initialised lazily) and took ~20 us more than the same request later. Paid
/// here, as the server starts (which takes tens of milliseconds loading MLIR), the first request
/// costs within about a microsecond of the later ones.
const WARM_UP: &str = r#"{"id": "warm-up", "vars": {"d0": [0, 9], "d1": [0, 14]}, "constraints": {"d0 mod 2": [0, 0]}, "expr": "(d0 * 4 + d1) mod 6 + (d0 + d1) floordiv 3 + (d1 - 1) ceildiv 4"}"#;

fn serve_jsonl() -> Result<(), Failure> {
    std::hint::black_box(answer(WARM_UP));
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let answer = answer(&line);
        writeln!(out, "{answer}")?;
        out.flush()?;
    }
    Ok(())
}

/// The answer line to one request line.
fn answer(line: &str) -> Value {
    let request: Value = match serde_json::from_str(line) {
        Ok(v) => v,
        Err(e) => {
            return json!({ "id": null, "error": format!("invalid JSON at column {}: {e}", e.column()) });
        }
    };
    let id = request.get("id").cloned().unwrap_or(Value::Null);
    match solve(&request) {
        Ok(mut reply) => {
            reply.insert("id".into(), id);
            let mut ordered = Map::new();
            for key in ["id", "expr", "known_empty", "ns"] {
                if let Some(v) = reply.remove(key) {
                    ordered.insert(key.into(), v);
                }
            }
            Value::Object(ordered)
        }
        Err(message) => json!({ "id": id, "error": message }),
    }
}

fn solve(request: &Value) -> Result<Map<String, Value>, String> {
    let vars = match request.get("vars") {
        Some(Value::Object(vars)) => vars,
        None => &Map::new(),
        Some(_) => return Err("\"vars\" must be an object of name: [lo, hi]".into()),
    };
    let names: Vec<&str> = vars.keys().map(String::as_str).collect();
    let dims = vars
        .iter()
        .map(|(name, b)| {
            Ok(Var::named(
                bounds(b).map_err(|m| format!("variable {name}: {m}"))?,
                name.clone(),
            ))
        })
        .collect::<Result<Vec<_>, String>>()?;
    // The names are looked up once, not per expression (a request may hold many constraints).
    let names = DimNames::new(&names);
    let parse = |text: &str| {
        parse_expr_in(text, &names).map_err(|e| format!("{} at column {}", e.message, e.column))
    };
    let (exprs, is_list) = match request.get("expr") {
        Some(Value::String(s)) => (vec![parse(s)?], false),
        Some(Value::Array(items)) => (
            items
                .iter()
                .map(|v| {
                    v.as_str()
                        .ok_or_else(|| "\"expr\" list items must be strings".to_string())
                        .and_then(parse)
                })
                .collect::<Result<Vec<Expr>, String>>()?,
            true,
        ),
        _ => return Err("\"expr\" must be a string or a list of strings".into()),
    };
    let mut map = IndexingMap::new(exprs, dims, Vec::new(), Vec::new());
    if let Some(constraints) = request.get("constraints") {
        let Value::Object(constraints) = constraints else {
            return Err("\"constraints\" must be an object of expression: [lo, hi]".into());
        };
        for (text, b) in constraints {
            let iv = bounds(b).map_err(|m| format!("constraint {text}: {m}"))?;
            map.add_constraint(parse(text)?, iv);
        }
    }
    let start = Instant::now();
    map.simplify();
    let ns = start.elapsed().as_nanos() as u64;
    let (dim_names, sym_names) = map.var_names();
    let names = xla_indexing_core::print::Names {
        dims: &dim_names,
        syms: &sym_names,
    };
    let printed: Vec<Value> = map
        .results()
        .iter()
        .map(|e| Value::String(e.display(&names).to_string()))
        .collect();
    let mut reply = Map::new();
    if map.is_known_empty() {
        reply.insert("known_empty".into(), Value::Bool(true));
    }
    reply.insert(
        "expr".into(),
        if is_list {
            Value::Array(printed)
        } else {
            printed[0].clone()
        },
    );
    reply.insert("ns".into(), json!(ns));
    Ok(reply)
}

fn bounds(v: &Value) -> Result<Interval, String> {
    let pair = v
        .as_array()
        .filter(|a| a.len() == 2)
        .ok_or("bounds must be [lo, hi]")?;
    let num = |x: &Value| x.as_i64().ok_or("bounds must be integers within i64");
    let (lo, hi) = (num(&pair[0])?, num(&pair[1])?);
    if lo > hi {
        return Err(format!("empty bounds [{lo}, {hi}]"));
    }
    Ok(Interval::new(lo, hi))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warm_up_is_answered() {
        let answer = answer(WARM_UP);
        assert_eq!(answer["id"], "warm-up");
        assert!(answer.get("expr").is_some(), "{answer}");
    }
}
