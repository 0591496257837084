//! `xla-indexing ranges`: Tensor Comprehensions range inference.

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::diag::{Diagnostic, Exit, Failure};
use crate::output::{Format, OutputArgs, SyntaxArg, read_input};

/// Infer the range of every index variable and the size of every output of a TC file.
///
/// Bounds are inclusive and symbolic in the size names, or numbers with --size.
/// Example:
///   xla-indexing ranges examples/tc/reverted.tc --format json
///   prints {"ranges":{"i":["11 - I","10"]},"sizes":{"A":["I"]},"warnings":[]}
#[derive(clap::Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// The .tc file.
    file: PathBuf,
    /// A size value, NAME=VALUE (repeatable).
    #[arg(long = "size", value_name = "NAME=VALUE", value_parser = parse_size)]
    sizes: Vec<(String, i64)>,
    #[command(flatten)]
    pub syntax: SyntaxArg,
    #[command(flatten)]
    pub output: OutputArgs,
}

fn parse_size(s: &str) -> Result<(String, i64), String> {
    let (name, value) = s.split_once('=').ok_or("expected NAME=VALUE")?;
    let value = value
        .trim()
        .parse()
        .map_err(|e| format!("bad size value: {e}"))?;
    Ok((name.trim().to_string(), value))
}

pub fn run(args: Args) -> Result<(), Failure> {
    let text = read_input(&args.file)?;
    let program = xla_indexing_loops::tc::parse(&text)
        .map_err(|e| super::loops_failure(e, &args.file, &text))?;
    let known = program.size_names();
    if let Some((name, _)) = args.sizes.iter().find(|(n, _)| !known.contains(n.as_str())) {
        let list: Vec<&str> = known.into_iter().collect();
        return Err(Failure::new(
            Exit::Usage,
            Diagnostic::error(format!(
                "--size {name}: {} has no size {name}; its sizes are {}",
                args.file.display(),
                if list.is_empty() {
                    "none".to_string()
                } else {
                    list.join(", ")
                }
            )),
        ));
    }
    let sizes: BTreeMap<String, i64> = args.sizes.iter().cloned().collect();
    let report = xla_indexing_loops::tc::infer(&program, &sizes)
        .map_err(|e| super::loops_failure(e, &args.file, &text))?;
    let out = match args.output.format {
        Format::Text => report.to_text(),
        Format::Json => report.to_json().to_string(),
    };
    args.output.write(&args.syntax.respell(&out))
}
