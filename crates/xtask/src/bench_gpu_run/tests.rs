//! Tests of the manifests and of `bench/gpu/runner.py` that need no GPU.

use std::{
    collections::BTreeMap,
    path::{Path, PathBuf},
    process::Command,
};

use serde_json::Value;
use xla_indexing_testkit::tools::require;

use super::{compile_program, manifest, programs};

/// The workspace root.
fn root() -> PathBuf {
    crate::root()
}

/// The manifest of `bench/gpu/run/NAME.hlo`, without compiling it.
fn manifest_of(name: &str) -> Value {
    let hlo = root().join(format!("bench/gpu/run/{name}.hlo"));
    let module = xla_indexing_hlo::parse_module(&std::fs::read_to_string(&hlo).unwrap()).unwrap();
    let (program, variant) = name.split_once('.').unwrap_or((name, "large"));
    manifest::manifest(
        &module,
        &manifest::Program {
            name: program,
            variant,
            hlo: name,
            ptx: "x.ptx",
            chip: super::CHIP,
        },
    )
    .unwrap()
}

/// The numbers of a JSON array of numbers.
fn numbers(v: &Value) -> Vec<i64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_i64().unwrap())
        .collect()
}

/// softmax.small: three kernels in the entry's order on the parameter, two intermediates and
/// the output, with their descriptors and byte counts.
#[test]
fn softmax_launches_three_kernels_on_its_intermediates() {
    let m = manifest_of("softmax.small");
    let roles: Vec<&str> = m["buffers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["role"].as_str().unwrap())
        .collect();
    assert_eq!(
        roles,
        ["parameter", "intermediate", "intermediate", "output"]
    );
    assert_eq!(numbers(&m["parameters"]), [0]);
    assert_eq!(numbers(&m["outputs"]), [3]);
    let kernels = m["kernels"].as_array().unwrap();
    let symbols: Vec<&str> = kernels
        .iter()
        .map(|k| k["symbol"].as_str().unwrap())
        .collect();
    assert_eq!(symbols, ["row_max", "exp_sum", "softmax"]);
    let buffers = |k: &Value| -> Vec<i64> {
        k["args"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a["buffer"].as_i64().unwrap())
            .collect()
    };
    assert_eq!(buffers(&kernels[0]), [0, 1]);
    assert_eq!(buffers(&kernels[1]), [0, 1, 2]);
    assert_eq!(buffers(&kernels[2]), [0, 1, 2, 3]);
    let (x, row) = (256 * 384 * 4, 256 * 4);
    assert_eq!(kernels[2]["bytes_read"], x + 2 * row);
    assert_eq!(kernels[2]["bytes_written"], x);
    assert_eq!(kernels[0]["bytes_written"], row);
    let arg = &kernels[2]["args"][0];
    assert_eq!(numbers(&arg["dims"]), [256, 384]);
    assert_eq!(numbers(&arg["strides"]), [384, 1]);
    assert_eq!(arg["offset"], 0);
    assert_eq!(arg["element"], "f32");
}

/// Every program has a large and a small variant; the large ones move 256 MiB or more.
#[test]
fn every_program_has_both_variants_and_large_ones_move_256_mib() {
    let mut variants: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for hlo in programs(&root()).unwrap() {
        let stem = super::stem(&hlo).unwrap().to_string();
        let m = manifest_of(&stem);
        let moved: u64 = m["kernels"]
            .as_array()
            .unwrap()
            .iter()
            .map(|k| k["bytes_read"].as_u64().unwrap() + k["bytes_written"].as_u64().unwrap())
            .sum();
        if m["variant"] == "large" {
            assert!(moved >= 256 << 20, "{stem} moves {moved} bytes");
        }
        variants
            .entry(m["program"].as_str().unwrap().to_string())
            .or_default()
            .push(m["variant"].as_str().unwrap().to_string());
    }
    let names: Vec<&String> = variants.keys().collect();
    assert_eq!(
        names,
        [
            "batched_transpose",
            "column_sum",
            "exp_add",
            "row_sum",
            "softmax",
            "transpose"
        ]
    );
    for (name, v) in &variants {
        assert_eq!(v, &["large", "small"], "{name}");
    }
}

/// Per `.entry` of `ptx`: its parameters (each `.param` line's text) and its `.reqntid`.
fn entries(ptx: &str) -> BTreeMap<String, (Vec<String>, Option<Vec<i64>>)> {
    let mut out = BTreeMap::new();
    let mut lines = ptx.lines().map(str::trim);
    while let Some(line) = lines.next() {
        let Some(rest) = line.strip_prefix(".visible .entry ") else {
            continue;
        };
        let name = rest.trim_end_matches('(').to_string();
        let mut params = Vec::new();
        let mut reqntid = None;
        for line in lines.by_ref() {
            if let Some(p) = line.strip_prefix(".param ") {
                params.push(p.trim_end_matches(',').to_string());
            } else if let Some(n) = line.strip_prefix(".reqntid ") {
                reqntid = Some(n.split(',').map(|n| n.trim().parse().unwrap()).collect());
            } else if line.starts_with('{') {
                break;
            }
        }
        out.insert(name, (params, reqntid));
    }
    out
}

/// Every kernel of every manifest has its `.entry` in the PTX, with one parameter per field of
/// its arguments' descriptors (pointers where the pointers are) and its block as `.reqntid`.
#[test]
fn manifests_match_the_ptx_entries() {
    // `cargo xtask test` builds the CLI and names it in XLA_INDEXING_CLI.
    let Some(cli) = require(
        "manifests_match_the_ptx_entries",
        std::env::var("XLA_INDEXING_CLI")
            .map(PathBuf::from)
            .map_err(|_| "XLA_INDEXING_CLI is not set (cargo xtask test sets it)".to_string()),
    ) else {
        return;
    };
    let out = std::env::temp_dir().join(format!("xtask-gpu-run-{}", std::process::id()));
    std::fs::create_dir_all(&out).unwrap();
    for hlo in programs(&root()).unwrap() {
        let m = compile_program(&root(), &cli, &hlo, &out, None).unwrap();
        let ptx = std::fs::read_to_string(out.join(m["ptx"].as_str().unwrap())).unwrap();
        let entries = entries(&ptx);
        let kernels = m["kernels"].as_array().unwrap();
        assert_eq!(entries.len(), kernels.len(), "{}", hlo.display());
        for k in kernels {
            let symbol = k["symbol"].as_str().unwrap();
            let (params, reqntid) = &entries[symbol];
            // Each memref argument is (allocated ptr, aligned ptr, offset, sizes, strides).
            let mut expected = Vec::new();
            for arg in k["args"].as_array().unwrap() {
                let rank = arg["dims"].as_array().unwrap().len();
                assert_eq!(arg["strides"].as_array().unwrap().len(), rank);
                expected.extend([true, true]);
                expected.extend(std::iter::repeat_n(false, 1 + 2 * rank));
            }
            let found: Vec<bool> = params.iter().map(|p| p.contains(".ptr")).collect();
            assert_eq!(found, expected, "{symbol} of {}: {params:?}", hlo.display());
            assert!(params.iter().all(|p| p.starts_with(".u64")), "{params:?}");
            if let Some(threads) = reqntid {
                assert_eq!(
                    threads,
                    &numbers(&k["block"]),
                    "{symbol} of {}",
                    hlo.display()
                );
            }
        }
    }
    std::fs::remove_dir_all(&out).unwrap();
}

/// The runner's venv python, made by `cargo xtask setup`.
fn runner_python() -> Result<PathBuf, String> {
    let python = crate::target_dir(&root())
        .join(crate::setup::RUNNER_VENV)
        .join("bin/python");
    if python.is_file() {
        Ok(python)
    } else {
        Err(format!(
            "{} is missing (cargo xtask setup makes it)",
            python.display()
        ))
    }
}

/// `bench/gpu/test_runner.py` passes, including its run of our exp_add.small manifest through
/// a fake driver.
#[test]
fn runner_python_tests() {
    let Some(python) = require("runner_python_tests", runner_python()) else {
        return;
    };
    let dir: &Path = &root().join("bench/gpu");
    // The runner reads our manifest of exp_add.small (through a fake driver).
    let manifest = std::env::temp_dir().join(format!("xtask-exp-add-{}.json", std::process::id()));
    std::fs::write(&manifest, manifest_of("exp_add.small").to_string()).unwrap();
    let done = Command::new(python)
        .args(["-m", "unittest", "discover", "-v", "-s"])
        .arg(dir)
        .args(["-p", "test_runner.py"])
        .env("XTASK_EXP_ADD_MANIFEST", &manifest)
        .output()
        .unwrap();
    std::fs::remove_file(&manifest).unwrap();
    let log = String::from_utf8_lossy(&done.stderr);
    assert!(
        log.contains("test_manifest_from_xtask")
            && !log.contains("XTASK_EXP_ADD_MANIFEST is not set"),
        "{log}"
    );
    assert!(
        done.status.success(),
        "bench/gpu/test_runner.py failed:\n{}{}",
        String::from_utf8_lossy(&done.stdout),
        String::from_utf8_lossy(&done.stderr)
    );
}
