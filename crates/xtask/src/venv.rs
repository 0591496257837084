//! Python venvs of pinned packages, made once and refreshed when the pins change (the
//! benchmarks' peers, JAX, the GPU runner).

use std::{
    ffi::OsStr,
    fs,
    path::{Path, PathBuf},
    process::Command,
};

use anyhow::{Context, Result, bail};

use crate::run;

/// Creates the venv `venv` with `python` unless it exists, and pip installs the pinned
/// `packages` into it unless its file `marker` lists exactly them. Returns the venv's python.
pub fn install_pinned(
    python: &OsStr,
    venv: &Path,
    packages: &[&str],
    marker: &str,
) -> Result<PathBuf> {
    let venv_python = venv.join("bin/python");
    if !venv_python.exists() {
        let created = run::status(Command::new(python).args(["-m", "venv"]).arg(venv))?;
        if !created.success() {
            bail!(
                "cannot create the venv {} with {}: run `cargo xtask setup` (it installs python3-venv)",
                venv.display(),
                python.to_string_lossy()
            );
        }
    }
    let marker = venv.join(marker);
    let wanted = packages.join("\n") + "\n";
    if fs::read_to_string(&marker).ok().as_deref() == Some(wanted.as_str()) {
        return Ok(venv_python);
    }
    run::checked(
        Command::new(&venv_python)
            .args([
                "-m",
                "pip",
                "install",
                "--quiet",
                "--disable-pip-version-check",
            ])
            .args(packages),
    )?;
    fs::write(&marker, wanted).with_context(|| format!("writing {}", marker.display()))?;
    Ok(venv_python)
}
