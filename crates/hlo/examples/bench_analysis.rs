//! The analysis benchmark of `cargo xtask bench analysis`:
//!
//! 1. every fusion of a real dump (default: the JAX transformer block of `tests/data`), the
//!    median time to analyse one fusion (out2in maps with utilization);
//! 2. generated modules of 1k, 10k and 100k instructions (fusions that chain transposes, reshapes,
//!    broadcasts and reductions), parse and analysis time per instruction (fusions analysed on
//!    every core), the ratio of the per-instruction time at the largest size to that at the
//!    smallest, and the analysis on one thread against all cores at the largest size;
//! 3. the peak resident memory of the process.
//!
//! `cargo run --release -p xla-indexing-hlo --example bench_analysis -- [--rounds N] [--dump FILE]
//! [--sizes 1000,10000,100000]`

use std::fmt::Write;
use std::time::{Duration, Instant};

use std::num::NonZeroUsize;

use xla_indexing_hlo::{Options, analyze_module, analyze_module_with_progress, parse_module};

struct Args {
    rounds: usize,
    dump: String,
    sizes: Vec<usize>,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        rounds: 5,
        dump: concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/transformer_block.hlo"
        )
        .into(),
        sizes: vec![1_000, 10_000, 100_000],
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().ok_or(format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--rounds" => args.rounds = value.parse().map_err(|e| format!("--rounds: {e}"))?,
            "--dump" => args.dump = value,
            "--sizes" => {
                args.sizes = value
                    .split(',')
                    .map(|s| s.parse().map_err(|e| format!("--sizes: {e}")))
                    .collect::<Result<_, _>>()?
            }
            _ => return Err(format!("unknown flag {flag}")),
        }
    }
    Ok(args)
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

/// One fusion body: `cycles` rounds of transpose, reshape, broadcast, reduce, reshape on
/// `f32[8,16,32]` (six instructions each, the reduction's init constant included).
fn fusion_body(name: &str, cycles: usize, out: &mut String) {
    let _ = writeln!(out, "{name} {{\n  x0 = f32[8,16,32]{{2,1,0}} parameter(0)");
    for c in 0..cycles {
        let (x, y) = (format!("x{c}"), format!("x{}", c + 1));
        let _ = writeln!(
            out,
            "  t{c} = f32[32,8,16]{{2,1,0}} transpose({x}), dimensions={{2,0,1}}\n  \
             r{c} = f32[32,128]{{1,0}} reshape(t{c})\n  \
             b{c} = f32[2,32,128]{{2,1,0}} broadcast(r{c}), dimensions={{1,2}}\n  \
             z{c} = f32[] constant(0)\n  \
             s{c} = f32[32,128]{{1,0}} reduce(b{c}, z{c}), dimensions={{0}}, to_apply=add\n  \
             {y} = f32[8,16,32]{{2,1,0}} reshape(s{c})"
        );
    }
    let _ = writeln!(
        out,
        "  ROOT out = f32[8,16,32]{{2,1,0}} copy(x{cycles})\n}}\n"
    );
}

/// A module of about `instructions` instructions: fusions of two cycles, chained by the entry.
fn generated_module(instructions: usize) -> (String, usize) {
    const PER_FUSION: usize = 2 * 6 + 3;
    let fusions = instructions.div_ceil(PER_FUSION + 1).max(1);
    let mut text = String::from(
        "HloModule generated\n\nadd {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  \
         ROOT s = f32[] add(a, b)\n}\n\n",
    );
    for f in 0..fusions {
        fusion_body(&format!("fused_{f}"), 2, &mut text);
    }
    text.push_str("ENTRY main {\n  v0 = f32[8,16,32]{2,1,0} parameter(0)\n");
    for f in 0..fusions {
        let _ = writeln!(
            text,
            "  v{} = f32[8,16,32]{{2,1,0}} fusion(v{f}), kind=kLoop, calls=fused_{f}",
            f + 1
        );
    }
    let _ = writeln!(
        text,
        "  ROOT r = f32[8,16,32]{{2,1,0}} copy(v{fusions})\n}}"
    );
    let count = fusions * (PER_FUSION + 1) + 3 + 2;
    (text, count)
}

/// Peak resident memory of this process, from `/proc/self/status`.
fn peak_memory() -> String {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .map(|l| l["VmHWM:".len()..].trim().to_string())
        })
        .unwrap_or_else(|| "unknown".into())
}

fn main() {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("bench_analysis: {e}");
            std::process::exit(2);
        }
    };
    let options = Options {
        utilization: true,
        ..Options::default()
    };

    let text = std::fs::read_to_string(&args.dump).unwrap_or_else(|e| {
        eprintln!("cannot read {}: {e}", args.dump);
        std::process::exit(2)
    });
    let module = parse_module(&text).unwrap_or_else(|e| {
        eprintln!("{}: {e}", args.dump);
        std::process::exit(3)
    });
    // One thread, so that the time between two progress calls is one fusion's.
    let one_thread = Options {
        threads: NonZeroUsize::new(1),
        ..options.clone()
    };
    let mut per_fusion = Vec::new();
    for _ in 0..args.rounds {
        let mut last = Instant::now();
        let report = analyze_module_with_progress(&module, &one_thread, &mut |_, _| {
            per_fusion.push(last.elapsed());
            last = Instant::now();
        });
        if let Err(e) = report {
            eprintln!("{}: {e}", args.dump);
            std::process::exit(1);
        }
    }
    println!(
        "real dump {}: {} fusion analyses, median {:.3?} per fusion (acceptance: under 1 ms)",
        args.dump,
        per_fusion.len(),
        median(per_fusion.clone())
    );

    println!(
        "\n{:>12} {:>14} {:>16} {:>16}",
        "instructions", "parse", "analysis", "per instruction"
    );
    let mut per_instruction = Vec::new();
    let mut largest = None;
    for &size in &args.sizes {
        let (text, count) = generated_module(size);
        let (mut parse, mut analyse) = (Vec::new(), Vec::new());
        let mut module = None;
        for _ in 0..args.rounds.min(3) {
            let t = Instant::now();
            let parsed = parse_module(&text).expect("generated module parses");
            parse.push(t.elapsed());
            let t = Instant::now();
            analyze_module(&parsed, &options).expect("generated module analyses");
            analyse.push(t.elapsed());
            module = Some(parsed);
        }
        let (p, a) = (median(parse), median(analyse));
        let each = (p + a) / count as u32;
        per_instruction.push(each);
        println!("{count:>12} {p:>14.3?} {a:>16.3?} {each:>16.3?}");
        largest = module.map(|m| (m, count, a));
    }
    if let (Some(first), Some(last)) = (per_instruction.first(), per_instruction.last()) {
        println!(
            "time per instruction at the largest size / at the smallest: {:.2}x (acceptance: within 2x)",
            last.as_secs_f64() / first.as_secs_f64()
        );
    }
    if let Some((module, count, all_cores)) = largest {
        let single: Vec<Duration> = (0..args.rounds.min(3))
            .map(|_| {
                let t = Instant::now();
                analyze_module(&module, &one_thread).expect("generated module analyses");
                t.elapsed()
            })
            .collect();
        let single = median(single);
        let cores = std::thread::available_parallelism().map_or(1, NonZeroUsize::get);
        println!(
            "analysis of {count} instructions: 1 thread {single:.3?}, {cores} threads {all_cores:.3?}: {:.2}x faster (goal: 1.8x on 2 cores)",
            single.as_secs_f64() / all_cores.as_secs_f64()
        );
    }
    println!("peak memory: {}", peak_memory());
}
