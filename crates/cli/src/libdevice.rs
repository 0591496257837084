//! Where `compile` finds libdevice (`libdevice.10.bc`), which kernels that call math functions
//! link: `--libdevice`, else `XLA_INDEXING_LIBDEVICE`, else a CUDA install, else the PyPI wheel
//! (`nvidia-cuda-nvcc-cu12`) in the `venv` of the build tree this binary lives in (where
//! `cargo xtask setup` installs it: `target/venv` beside `target/debug/xla-indexing`).

use std::path::{Path, PathBuf};

/// The CUDA toolkit's libdevice.
const CUDA: &str = "/usr/local/cuda/nvvm/libdevice/libdevice.10.bc";

/// libdevice inside a venv's `lib/pythonX.Y/`.
const IN_SITE_PACKAGES: &str = "site-packages/nvidia/cuda_nvcc/nvvm/libdevice/libdevice.10.bc";

/// The libdevice to link: `given` when there is one, else the first that exists of the places
/// in the module's doc.
pub fn find(given: Option<PathBuf>) -> Option<PathBuf> {
    if given.is_some() {
        return given;
    }
    let mut candidates: Vec<PathBuf> = std::env::var_os("XLA_INDEXING_LIBDEVICE")
        .map(PathBuf::from)
        .into_iter()
        .collect();
    candidates.push(CUDA.into());
    if let Some(build) = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent()?.parent().map(Path::to_path_buf))
    {
        candidates.extend(in_venv(&build.join("venv")));
    }
    candidates.into_iter().find(|p| p.is_file())
}

/// Where libdevice would be in `venv`, for each Python it has.
fn in_venv(venv: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(venv.join("lib")) else {
        return Vec::new();
    };
    entries
        .flatten()
        .map(|python| python.path().join(IN_SITE_PACKAGES))
        .collect()
}
