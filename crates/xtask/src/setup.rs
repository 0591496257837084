//! `cargo xtask setup`: installs what a fresh Debian 12 machine lacks, and nothing when all is
//! there.

use std::{
    collections::BTreeSet,
    fs,
    path::{Path, PathBuf},
    process::Command,
};

use anyhow::{Context, Result, bail};

use crate::run;
use crate::venv::install_pinned;

/// The Debian packages of the build recipe (docs/architecture.md, "Build"), the one list of the
/// project.
/// `llvm-22-tools` has `lit` and `FileCheck`; `libclang1-22` and `libclang-common-22-dev` are
/// what bindgen (mlir-sys) needs; `libzstd-dev` is linked by tblgen; `clang-22` compiles the
/// dialect's C++ (it must be the compiler that built `libMLIR.so`: MLIR names trait TypeIDs by
/// the compiler's spelling of a type, which differs between GCC and clang).
pub const DEBIAN_PACKAGES: &[&str] = &[
    "llvm-22-dev",
    "libmlir-22-dev",
    "mlir-22-tools",
    "llvm-22-tools",
    "libclang1-22",
    "libclang-common-22-dev",
    "clang-22",
    "libzstd-dev",
    "libpolly-22-dev",
    "cmake",
    "ninja-build",
    "graphviz",
];

/// ptxas (no GPU needed) comes from this PyPI package.
const PTXAS_PACKAGE: &str = "nvidia-cuda-nvcc-cu12==12.9.86";

/// The GPU runner's packages, pinned. cuda-python 12.9 loads with any driver of CUDA 12 or later.
const RUNNER_PACKAGES: &[&str] = &["cuda-python==12.9.10", "numpy==2.4.6"];

/// The GPU runner's venv under the target directory of the workspace.
pub const RUNNER_VENV: &str = "bench-gpu-venv";

/// What setup provides beyond the Debian packages.
pub struct Tools {
    /// The ptxas binary inside the venv.
    pub ptxas: PathBuf,
    /// libdevice, from the same wheel as ptxas.
    pub libdevice: PathBuf,
    /// The python of the GPU runner's venv (cuda-python, numpy; see [`crate::bench_gpu_run`]).
    pub runner_python: PathBuf,
}

/// Installs whatever is missing and returns the tools' locations.
pub fn setup(root: &Path) -> Result<Tools> {
    install_debian_packages(DEBIAN_PACKAGES)?;
    for tool in ["fmt", "clippy"] {
        if run::output("cargo", [tool, "--version"]).is_none() {
            bail!(
                "`cargo {tool}` is not installed; it comes with the Rust toolchain's {tool} component"
            );
        }
    }
    let venv = crate::target_dir(root).join("venv");
    create_venv(&venv)?;
    let ptxas = install_ptxas(&venv)?;
    // .../site-packages/nvidia/cuda_nvcc/bin/ptxas -> .../cuda_nvcc/nvvm/libdevice/
    let libdevice = ptxas
        .parent()
        .and_then(Path::parent)
        .map(|nvcc| nvcc.join("nvvm/libdevice/libdevice.10.bc"))
        .filter(|p| p.is_file())
        .with_context(|| format!("{PTXAS_PACKAGE} installed no libdevice"))?;
    let runner_python = install_runner_packages(root)?;
    eprintln!(
        "xtask: setup done (ptxas: {}, libdevice: {}, GPU runner: {})",
        ptxas.display(),
        libdevice.display(),
        runner_python.display()
    );
    Ok(Tools {
        ptxas,
        libdevice,
        runner_python,
    })
}

/// Installs the GPU runner's packages into the venv [`RUNNER_VENV`] (here, so that the runner's
/// tests find them); returns its python.
fn install_runner_packages(root: &Path) -> Result<PathBuf> {
    install_pinned(
        "python3".as_ref(),
        &crate::target_dir(root).join(RUNNER_VENV),
        RUNNER_PACKAGES,
        "gpu-runner-packages.txt",
    )
}

/// The packages among `packages` that dpkg does not list as installed.
fn missing_packages(packages: &[&str]) -> Result<Vec<String>> {
    // dpkg-query exits with 1 when it knows some package of the list not at all; what it
    // prints is still right, so its status is not checked.
    let out = Command::new("dpkg-query")
        .arg("--show")
        .arg("--showformat=${Package}\t${Status}\n")
        .args(packages)
        .stderr(std::process::Stdio::null())
        .output()
        .context("cannot run dpkg-query (is this a Debian machine?)")?;
    let installed: BTreeSet<&str> = std::str::from_utf8(&out.stdout)
        .context("dpkg-query printed something that is not UTF-8")?
        .lines()
        .filter_map(|line| line.split_once('\t'))
        .filter(|(_, status)| status.ends_with(" installed"))
        .map(|(package, _)| package)
        .collect();
    Ok(packages
        .iter()
        .filter(|p| !installed.contains(*p))
        .map(|p| p.to_string())
        .collect())
}

/// `apt-get` with no prompts, through sudo unless we are root.
fn apt_get() -> Command {
    let root = run::output("id", ["-u"]).is_some_and(|uid| uid.trim() == "0");
    let mut command = if root {
        Command::new("apt-get")
    } else {
        let mut sudo = Command::new("sudo");
        sudo.args(["env", "DEBIAN_FRONTEND=noninteractive", "apt-get"]);
        sudo
    };
    command.env("DEBIAN_FRONTEND", "noninteractive");
    command
}

/// Installs the packages of `packages` that are missing (after `apt-get update`).
fn install_debian_packages(packages: &[&str]) -> Result<()> {
    let missing = missing_packages(packages)?;
    if missing.is_empty() {
        eprintln!("xtask: Debian packages: all {} installed", packages.len());
        return Ok(());
    }
    eprintln!("xtask: Debian packages: installing {}", missing.join(" "));
    run::checked(apt_get().args(["update", "-q"]))?;
    run::checked(apt_get().args(["install", "-y", "-q"]).args(&missing))?;
    let still = missing_packages(packages)?;
    if !still.is_empty() {
        bail!("apt-get did not install {}", still.join(" "));
    }
    Ok(())
}

/// Creates the venv at `venv` unless it exists (installing python3-venv when needed).
fn create_venv(venv: &Path) -> Result<()> {
    if venv.join("bin/python").exists() {
        return Ok(());
    }
    eprintln!("xtask: creating the venv {}", venv.display());
    if run::status(Command::new("python3").args(["-m", "venv"]).arg(venv))?.success() {
        return Ok(());
    }
    // Debian's python3 has no `venv` module without python3-venv; retry with that one.
    if venv.exists() {
        fs::remove_dir_all(venv).with_context(|| format!("removing {}", venv.display()))?;
    }
    install_debian_packages(&["python3-venv"])?;
    run::checked(
        Command::new("/usr/bin/python3")
            .args(["-m", "venv"])
            .arg(venv),
    )
}

/// `site-packages/nvidia/cuda_nvcc/bin/ptxas` of the venv, if installed.
fn find_ptxas(venv: &Path) -> Option<PathBuf> {
    let lib = fs::read_dir(venv.join("lib")).ok()?;
    lib.filter_map(|entry| entry.ok())
        .map(|entry| {
            entry
                .path()
                .join("site-packages/nvidia/cuda_nvcc/bin/ptxas")
        })
        .find(|ptxas| ptxas.is_file())
}

/// Installs ptxas from PyPI into the venv unless it is there, and checks that it runs.
fn install_ptxas(venv: &Path) -> Result<PathBuf> {
    let ptxas = match find_ptxas(venv) {
        Some(ptxas) => ptxas,
        None => {
            eprintln!(
                "xtask: installing ptxas ({PTXAS_PACKAGE}) into {}",
                venv.display()
            );
            run::checked(
                Command::new(venv.join("bin/python"))
                    .args(["-m", "pip", "install", "-q", "--disable-pip-version-check"])
                    .arg(PTXAS_PACKAGE),
            )?;
            find_ptxas(venv).with_context(|| format!("{PTXAS_PACKAGE} installed no ptxas"))?
        }
    };
    if run::output(&ptxas.to_string_lossy(), ["--version"]).is_none() {
        bail!("{} does not run", ptxas.display());
    }
    Ok(ptxas)
}
