//! Every JAX program of `tests/data` (written by `generate.py`): its pretty text converted here
//! is the module MLIR itself prints in generic form for that text, compared after both went
//! through `mlir-opt --allow-unregistered-dialect --mlir-print-op-generic`.

use std::path::{Path, PathBuf};
use std::process::Command;

use xla_indexing_stablehlo_text::to_generic;
use xla_indexing_testkit::tools::{program, require};

const MLIR_OPT: &str = "/usr/lib/llvm-22/bin/mlir-opt";

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

/// The corpus: each program's name, pretty text and generic text.
fn corpus() -> Vec<(String, String, String)> {
    let mut pairs = Vec::new();
    for entry in std::fs::read_dir(data_dir()).unwrap() {
        let path = entry.unwrap().path();
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        if let Some(name) = file.strip_suffix(".pretty.mlir") {
            let generic = path.with_file_name(format!("{name}.generic.mlir"));
            pairs.push((
                name.to_string(),
                std::fs::read_to_string(&path).unwrap(),
                std::fs::read_to_string(&generic).unwrap(),
            ));
        }
    }
    pairs.sort();
    assert!(pairs.len() >= 30, "the corpus has {} programs", pairs.len());
    pairs
}

/// The module as mlir-opt prints it in generic form, without locations; the error text when it
/// does not parse.
fn mlir_opt_generic(text: &str) -> Result<String, String> {
    let output = Command::new(MLIR_OPT)
        .args([
            "--allow-unregistered-dialect",
            "--mlir-print-op-generic",
            "-",
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().unwrap().write_all(text.as_bytes())?;
            child.wait_with_output()
        })
        .unwrap();
    if output.status.success() {
        Ok(String::from_utf8(output.stdout).unwrap())
    } else {
        Err(String::from_utf8_lossy(&output.stderr).into_owned())
    }
}

#[test]
fn every_program_converts_to_what_mlir_prints() {
    if require(
        "StableHLO corpus through mlir-opt",
        program(MLIR_OPT, "--version"),
    )
    .is_none()
    {
        return;
    }
    let mut failures = Vec::new();
    for (name, pretty, generic) in corpus() {
        let converted = match to_generic(&pretty) {
            Ok(text) => text,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        assert!(
            mlir_opt_generic(&pretty).is_err(),
            "{name}: mlir-opt reads the pretty form by itself, so the test shows nothing"
        );
        let expected = mlir_opt_generic(&generic)
            .unwrap_or_else(|e| panic!("{name}: the reference does not parse:\n{e}"));
        match mlir_opt_generic(&converted) {
            Ok(ours) if ours == expected => {}
            Ok(ours) => {
                let line = ours
                    .lines()
                    .zip(expected.lines())
                    .find(|(a, b)| a != b)
                    .map(|(a, b)| format!("\n  ours:     {a}\n  expected: {b}"))
                    .unwrap_or_default();
                failures.push(format!("{name}: differs{line}"));
            }
            Err(e) => failures.push(format!("{name}: mlir-opt rejects the conversion:\n{e}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The comparison above sees a wrong conversion: the same text with one reduced dimension
/// changed prints differently.
#[test]
fn the_comparison_sees_a_wrong_dimension() {
    if require(
        "StableHLO corpus through mlir-opt",
        program(MLIR_OPT, "--version"),
    )
    .is_none()
    {
        return;
    }
    let (_, pretty, generic) = corpus()
        .into_iter()
        .find(|(name, ..)| name == "softmax")
        .unwrap();
    let converted = to_generic(&pretty).unwrap();
    let wrong = converted.replacen(
        "dimensions = array<i64: 1>",
        "dimensions = array<i64: 0>",
        1,
    );
    assert_ne!(wrong, converted);
    assert_ne!(
        mlir_opt_generic(&wrong).unwrap(),
        mlir_opt_generic(&generic).unwrap()
    );
}

/// Generic text, as JAX's MLIR prints it, comes back unchanged.
#[test]
fn generic_text_passes_through() {
    for (name, _, generic) in corpus() {
        assert_eq!(to_generic(&generic).unwrap(), generic, "{name}");
    }
}

/// Converting twice changes nothing more, and every line keeps its number: each operation
/// starts (its results named) on the line where it started.
#[test]
fn conversion_is_idempotent_and_keeps_lines() {
    for (name, pretty, _) in corpus() {
        let once = to_generic(&pretty).unwrap();
        assert_eq!(to_generic(&once).unwrap(), once, "{name}");
        assert_eq!(once.lines().count(), pretty.lines().count(), "{name}");
        for (number, (before, after)) in pretty.lines().zip(once.lines()).enumerate() {
            let results = |line: &str| {
                let line = line.trim_start();
                line.starts_with('%')
                    .then(|| line.split(" = ").next().unwrap().to_string())
            };
            assert_eq!(
                results(before),
                results(after),
                "{name}, line {}",
                number + 1
            );
        }
    }
}
