//! The crate graph as a test: every crate's `[dependencies]` (read from its `Cargo.toml` as
//! text) are those its row of [`CRATES`] allows, and the rows keep the architecture invariants
//! of `docs/architecture.md`, each checked on its own below.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// What one crate may link: the workspace crates it depends on (by directory), exactly, and
/// the external crates among which its other dependencies are.
struct Row {
    /// Its directory, relative to the workspace root.
    dir: &'static str,
    workspace: &'static [&'static str],
    external: &'static [&'static str],
}

/// The crates, lowest layer first.
const CRATES: &[Row] = &[
    row("crates/core", &[], &["thiserror"]),
    row("crates/stablehlo-text", &[], &["thiserror"]),
    // serde_json: the JSON of the analysis `Report`, which hlo's tests and testkit's
    // invariants print as well as the CLI.
    row("crates/hlo", &["core"], &["thiserror", "serde_json"]),
    row("crates/gpu", &["core", "hlo"], &["thiserror"]),
    row("crates/loops", &["core"], &["thiserror", "serde_json"]),
    row(
        "crates/mlir",
        &["core"],
        &["melior", "mlir-sys", "thiserror"],
    ),
    row(
        "crates/translate",
        &["core", "hlo", "mlir"],
        &["melior", "thiserror"],
    ),
    row("crates/codegen", &["core", "hlo", "gpu"], &["thiserror"]),
    row(
        "crates/passes",
        &["core", "hlo", "gpu", "mlir", "translate", "codegen"],
        &["melior", "thiserror"],
    ),
    row("crates/plugin", &["mlir", "passes"], &[]),
    row(
        "crates/cli",
        &[
            "core",
            "hlo",
            "gpu",
            "loops",
            "mlir",
            "translate",
            "codegen",
            "passes",
            "stablehlo-text",
        ],
        &["clap", "serde_json"],
    ),
    row(
        "crates/testkit",
        &["core", "hlo", "loops", "stablehlo-text", "mlir", "passes"],
        &["melior", "thiserror"],
    ),
    row(
        "crates/xla-check",
        &["core"],
        &["thiserror", "anyhow", "clap"],
    ),
    row(
        "crates/xtask",
        &["hlo", "gpu", "codegen"],
        &["anyhow", "serde_json"],
    ),
    row("fuzz", &["passes", "testkit"], &["libfuzzer-sys"]),
];

const fn row(
    dir: &'static str,
    workspace: &'static [&'static str],
    external: &'static [&'static str],
) -> Row {
    Row {
        dir,
        workspace,
        external,
    }
}

/// The crates that are not the product: its tests' oracles and its automation.
const NOT_PRODUCT: &[&str] = &["testkit", "xtask", "fuzz"];

/// The crates that link MLIR: the bindings, and what drives MLIR through them.
const MLIR: &[&str] = &["mlir", "melior", "mlir-sys"];

/// The workspace root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A row's short name: its directory's last component.
fn short(dir: &str) -> &str {
    dir.rsplit('/').next().unwrap_or(dir)
}

/// The row named `name`.
fn row_of(name: &str) -> &'static Row {
    CRATES
        .iter()
        .find(|r| short(r.dir) == name)
        .unwrap_or_else(|| panic!("no row {name}"))
}

/// The names in the `[dependencies]` table of a `Cargo.toml`.
fn dependencies(manifest: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let mut inside = false;
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            assert!(
                !line.starts_with("[dependencies.") && !line.contains(".dependencies]"),
                "{line}: a dependency table this reader does not follow"
            );
            inside = line == "[dependencies]";
        } else if inside && !line.is_empty() && !line.starts_with('#') {
            let (name, _) = line.split_once('=').expect("`name = ...`");
            names.insert(name.trim().to_string());
        }
    }
    names
}

/// The package name in a `Cargo.toml`'s `[package]` table.
fn package_name(manifest: &str) -> String {
    manifest
        .lines()
        .skip_while(|l| l.trim() != "[package]")
        .find_map(|l| l.trim().strip_prefix("name = "))
        .expect("a package name")
        .trim_matches('"')
        .to_string()
}

#[test]
fn every_crate_links_what_its_row_allows() {
    let root = root();
    let mut dirs: Vec<String> = fs::read_dir(root.join("crates"))
        .expect("crates/")
        .map(|e| format!("crates/{}", e.expect("entry").file_name().to_string_lossy()))
        .filter(|d| root.join(d).join("Cargo.toml").is_file())
        .collect();
    dirs.push("fuzz".into());
    let listed: BTreeSet<&str> = CRATES.iter().map(|r| r.dir).collect();
    let found: BTreeSet<&str> = dirs.iter().map(String::as_str).collect();
    assert_eq!(found, listed, "every crate has one row, every row a crate");

    let manifests: Vec<(String, String)> = dirs
        .iter()
        .map(|d| {
            let text = fs::read_to_string(root.join(d).join("Cargo.toml")).expect("Cargo.toml");
            (d.clone(), text)
        })
        .collect();
    let package_dirs: Vec<(String, &str)> = manifests
        .iter()
        .map(|(d, text)| (package_name(text), short(d)))
        .collect();
    let mut wrong = Vec::new();
    for (dir, text) in &manifests {
        let row = row_of(short(dir));
        let mut workspace = BTreeSet::new();
        for name in dependencies(text) {
            match package_dirs.iter().find(|(package, _)| *package == name) {
                Some((_, crate_dir)) => {
                    workspace.insert(*crate_dir);
                }
                None if row.external.contains(&name.as_str()) => {}
                None => wrong.push(format!("{dir} links {name}, which its row does not allow")),
            }
        }
        let allowed: BTreeSet<&str> = row.workspace.iter().copied().collect();
        if workspace != allowed {
            wrong.push(format!(
                "{dir} depends on {workspace:?}; its row says {allowed:?}"
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Architecture invariant: core knows neither HLO nor MLIR nor GPUs; it links no crate of the
/// workspace.
#[test]
fn core_depends_on_no_crate_of_the_workspace() {
    assert!(row_of("core").workspace.is_empty());
}

/// Architecture invariant: mlir does not depend on hlo or gpu (the launch attribute holds its
/// sizes itself), and only mlir links `mlir-sys`, MLIR's C API.
#[test]
fn mlir_knows_no_hlo_and_alone_links_the_c_api() {
    let mlir = row_of("mlir");
    assert!(!mlir.workspace.iter().any(|c| ["hlo", "gpu"].contains(c)));
    for row in CRATES {
        assert_eq!(
            row.external.contains(&"mlir-sys"),
            short(row.dir) == "mlir",
            "{}",
            row.dir
        );
    }
}

/// Architecture invariant: hlo, gpu and codegen link no MLIR: hlo and gpu never write IR, and
/// codegen writes kernels as text that the passes parse.
#[test]
fn hlo_gpu_and_codegen_link_no_mlir() {
    for name in ["hlo", "gpu", "codegen"] {
        let row = row_of(name);
        let links: Vec<&&str> = row.workspace.iter().chain(row.external).collect();
        assert!(!links.iter().any(|c| MLIR.contains(c)), "{name}: {links:?}");
    }
}

/// Architecture invariant: hlo knows no GPU (gpu plans on top of it), and gpu writes no JSON
/// (the CLI renders its reports).
#[test]
fn hlo_knows_no_gpu_and_gpu_writes_no_json() {
    assert!(!row_of("hlo").workspace.contains(&"gpu"));
    assert!(!row_of("gpu").external.contains(&"serde_json"));
}

/// Architecture invariant: product crates hold no test oracles; no product crate depends on
/// testkit (its tests may, as a dev-dependency), and none depends on the automation.
#[test]
fn product_crates_link_no_oracles_and_no_automation() {
    for row in CRATES
        .iter()
        .filter(|r| !NOT_PRODUCT.contains(&short(r.dir)))
    {
        for other in NOT_PRODUCT {
            assert!(!row.workspace.contains(other), "{} links {other}", row.dir);
        }
    }
}

/// Architecture invariant: xtask links no product crate but hlo, gpu and codegen, for the
/// manifests of `bench gpu --run`; it runs the others as processes.
#[test]
fn xtask_links_only_what_the_manifests_need() {
    assert_eq!(row_of("xtask").workspace, ["hlo", "gpu", "codegen"]);
}
