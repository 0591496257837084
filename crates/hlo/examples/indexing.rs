//! Prints the indexing maps of an HLO file: `cargo run -p xla-indexing-hlo --example indexing --
//! FILE.hlo [out2in|in2out] [--utilization]`.

use xla_indexing_hlo::{Direction, Options, analyze_module, parse_module};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        eprintln!("usage: indexing FILE.hlo [out2in|in2out] [--utilization]");
        std::process::exit(2);
    };
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(2);
    });
    let options = Options {
        direction: args
            .iter()
            .find_map(|a| Direction::parse(a))
            .unwrap_or_default(),
        utilization: args.iter().any(|a| a == "--utilization"),
        ..Options::default()
    };
    let result = parse_module(&text).and_then(|m| analyze_module(&m, &options));
    match result {
        Ok(report) => {
            print!("{}", report.to_text());
            for w in report.warnings() {
                eprintln!("warning: {w}");
            }
        }
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(e.exit_code());
        }
    }
}
