//! Compiles `cpp/register_pass.cpp` with LLVM 22's C++ flags.

use std::{env, error::Error, process::Command};

fn main() -> Result<(), Box<dyn Error>> {
    println!("cargo:rerun-if-changed=cpp/register_pass.cpp");
    println!("cargo:rerun-if-env-changed=MLIR_SYS_220_PREFIX");
    let prefix = env::var("MLIR_SYS_220_PREFIX").unwrap_or_else(|_| "/usr/lib/llvm-22".into());
    let llvm_config = format!("{prefix}/bin/llvm-config");
    let out = Command::new(&llvm_config)
        .arg("--cxxflags")
        .output()
        .map_err(|e| format!("cannot run {llvm_config}: {e}"))?;
    if !out.status.success() {
        return Err(format!("{llvm_config} --cxxflags failed").into());
    }
    let mut build = cc::Build::new();
    build.cpp(true).file("cpp/register_pass.cpp");
    for flag in String::from_utf8(out.stdout)?.split_whitespace() {
        // LLVM's headers as system headers: their warnings are not ours.
        match flag.strip_prefix("-I") {
            Some(dir) => build.flag("-isystem").flag(dir),
            None => build.flag(flag),
        };
    }
    build.compile("xla_indexing_register_pass");
    Ok(())
}
