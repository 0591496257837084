//! Builds the C++ side of the `xla_indexing` dialect and provides the MLIR C API archive.
//!
//! * `dialect/` is built with CMake (Ninja, Release, LLVM 22's clang) into the static,
//!   position-independent `libXlaIndexing.a`, linked into this crate. Its attribute hooks call back into this crate's
//!   `extern "C"` functions, and its C++ resolves against Debian's `libMLIR.so`, the one copy
//!   of MLIR that `mlir-opt` also uses.
//! * Debian's `libmlir-22-dev` ships the C API only as static `libMLIRCAPI*.a` archives and no
//!   `libMLIR-C.so`, while mlir-sys in shared mode (`MLIR_SYS_LINK_SHARED=1`) asks for
//!   `-lMLIR-C`: the archives are merged into `$OUT_DIR/libMLIR-C.a` with `ar -M`. The linker
//!   takes only the objects that are used, and their C++ references resolve against
//!   `libMLIR.so`.
//! * `XLA_INDEXING_DIALECT_INCLUDE_DIR` points `melior::dialect!` at our `.td` files.

use std::{
    env,
    error::Error,
    fmt::Write as _,
    fs,
    io::Write as _,
    path::{Path, PathBuf},
    process::{Command, Stdio},
};

type Result<T> = std::result::Result<T, Box<dyn Error>>;

fn main() -> Result<()> {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=MLIR_SYS_220_PREFIX");
    println!("cargo:rerun-if-env-changed=MLIR_SYS_LINK_SHARED");
    let prefix = PathBuf::from(
        env::var("MLIR_SYS_220_PREFIX").unwrap_or_else(|_| "/usr/lib/llvm-22".into()),
    );
    let root = PathBuf::from(env::var("CARGO_MANIFEST_DIR")?)
        .join("../..")
        .canonicalize()?;
    build_dialect(&root, &prefix)?;
    if env::var("MLIR_SYS_LINK_SHARED").as_deref() == Ok("1") {
        merge_c_api(&prefix.join("lib"), &PathBuf::from(env::var("OUT_DIR")?))?;
    }
    Ok(())
}

/// Builds `dialect/` with CMake and links the resulting static archive.
fn build_dialect(root: &Path, prefix: &Path) -> Result<()> {
    let source = root.join("dialect");
    for watched in [
        "dialect/CMakeLists.txt",
        "dialect/include",
        "dialect/lib",
        "cmake",
    ] {
        println!("cargo:rerun-if-changed={}", root.join(watched).display());
    }
    // libMLIR.so is built by clang, and MLIR identifies op traits (`IsTerminator`, ...) by the
    // compiler's spelling of a type name: a trait of an op compiled by GCC is invisible to
    // libMLIR. The dialect is compiled by the clang of the same LLVM.
    let clang = prefix.join("bin/clang");
    let clangxx = prefix.join("bin/clang++");
    if !clangxx.exists() {
        return Err(format!(
            "{} is missing: install clang-22 (`cargo xtask setup` does)",
            clangxx.display()
        )
        .into());
    }
    let out = cmake::Config::new(&source)
        .define("CMAKE_C_COMPILER", &clang)
        .define("CMAKE_CXX_COMPILER", &clangxx)
        .define("MLIR_DIR", prefix.join("lib/cmake/mlir"))
        .generator("Ninja")
        .profile("Release")
        .build_target("XlaIndexing")
        .build();
    println!(
        "cargo:rustc-link-search=native={}",
        out.join("build").display()
    );
    println!("cargo:rustc-link-lib=static=XlaIndexing");
    println!(
        "cargo:rustc-env=XLA_INDEXING_DIALECT_INCLUDE_DIR={}",
        source.join("include").display()
    );
    Ok(())
}

/// Merges every `libMLIRCAPI*.a` of `libdir` into `out/libMLIR-C.a`.
fn merge_c_api(libdir: &Path, out: &Path) -> Result<()> {
    let archive = out.join("libMLIR-C.a");
    if archive.exists() {
        fs::remove_file(&archive)?;
    }
    let mut parts = Vec::new();
    for entry in fs::read_dir(libdir)? {
        let path = entry?.path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        if name.starts_with("libMLIRCAPI") && name.ends_with(".a") {
            parts.push(path);
        }
    }
    if parts.is_empty() {
        return Err(format!(
            "no libMLIRCAPI*.a in {} (install libmlir-22-dev)",
            libdir.display()
        )
        .into());
    }
    parts.sort();
    let mut script = format!("CREATE {}\n", archive.display());
    for part in &parts {
        writeln!(script, "ADDLIB {}", part.display())?;
    }
    script.push_str("SAVE\nEND\n");
    let mut ar = Command::new("ar").arg("-M").stdin(Stdio::piped()).spawn()?;
    ar.stdin
        .take()
        .ok_or("ar: no stdin")?
        .write_all(script.as_bytes())?;
    if !ar.wait()?.success() {
        return Err("ar -M failed to merge the MLIR C API archives".into());
    }
    println!("cargo:rustc-link-search=native={}", out.display());
    Ok(())
}
