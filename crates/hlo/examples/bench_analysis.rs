//! Times parsing and analysis (out2in with utilization, then in2out) of HLO files:
//! `cargo run --release -p xla-indexing-hlo --example bench_analysis -- [ROUNDS] FILE.hlo...`.
//! Without files it runs over `tests/data/*.hlo`. Prints the median time per file.

use std::time::{Duration, Instant};

use xla_indexing_hlo::{Direction, Options, analyze_module, parse_module};

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let rounds = match args.first().and_then(|a| a.parse::<usize>().ok()) {
        Some(n) => {
            args.remove(0);
            n.max(1)
        }
        None => 20,
    };
    if args.is_empty() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");
        let mut files: Vec<String> = std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path().display().to_string())
            .filter(|p| p.ends_with(".hlo"))
            .collect();
        files.sort();
        args = files;
    }
    println!("{:<60} {:>12} {:>12}", "file", "parse", "analyse");
    for path in &args {
        let Ok(text) = std::fs::read_to_string(path) else {
            eprintln!("cannot read {path}");
            continue;
        };
        let (mut parse, mut analyse) = (Vec::new(), Vec::new());
        for _ in 0..rounds {
            let t = Instant::now();
            let Ok(m) = parse_module(&text) else {
                eprintln!("{path} does not parse");
                break;
            };
            parse.push(t.elapsed());
            let t = Instant::now();
            for direction in [Direction::OutputToInput, Direction::InputToOutput] {
                let options = Options {
                    direction,
                    utilization: true,
                    ..Options::default()
                };
                if let Err(e) = analyze_module(&m, &options) {
                    eprintln!("{path}: {e}");
                }
            }
            analyse.push(t.elapsed());
        }
        println!(
            "{path:<60} {:>12.3?} {:>12.3?}",
            median(&mut parse),
            median(&mut analyse)
        );
    }
}

fn median(v: &mut [Duration]) -> Duration {
    v.sort();
    v.get(v.len() / 2).copied().unwrap_or_default()
}
