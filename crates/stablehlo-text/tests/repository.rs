//! Every `.mlir` file of the repository (lit tests, examples) without StableHLO in pretty form
//! comes back unchanged: the other dialects (XLA's `xla` and `xtile` too), generic StableHLO,
//! comments, lit's RUN and CHECK lines and the xla_indexing dialect's own syntax are copied as
//! written. The inputs that hold pretty StableHLO on purpose are named `*.pretty.mlir`; they
//! must change, and their result must hold no pretty StableHLO op.

use std::path::{Path, PathBuf};

use xla_indexing_stablehlo_text::to_generic;

fn mlir_files(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            mlir_files(&path, found);
        } else if path.extension().is_some_and(|e| e == "mlir") {
            found.push(path);
        }
    }
}

#[test]
fn the_repository_s_mlir_passes_through() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = Vec::new();
    for dir in ["test", "examples"] {
        mlir_files(&root.join(dir), &mut files);
    }
    assert!(files.len() > 20, "{} files", files.len());
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let pretty = file.to_string_lossy().ends_with(".pretty.mlir");
        match to_generic(&text) {
            Ok(out) if pretty => {
                assert!(out != text, "{} did not change", file.display());
                assert_eq!(
                    to_generic(&out).as_deref(),
                    Ok(out.as_str()),
                    "{}",
                    file.display()
                );
            }
            Ok(out) => assert!(out == text, "{} changed", file.display()),
            Err(e) => panic!("{}: {e}", file.display()),
        }
    }
}
