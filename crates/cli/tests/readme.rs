//! The README's tour blocks marked *checked* run here: each `$ command` line runs in the workspace
//! root with this build of `xla-indexing` first on `PATH`, and what it prints (stdout, then
//! stderr) must be the lines that follow it in the block.

use std::path::{Path, PathBuf};
use std::process::Command;

/// `(command, expected output)` pairs of every checked block.
fn checked_commands(readme: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut lines = readme.lines();
    while let Some(line) = lines.next() {
        if !line.trim_end().ends_with("*checked*") {
            continue;
        }
        let Some(_) = lines.by_ref().find(|l| l.starts_with("```console")) else {
            break;
        };
        let mut current: Option<(String, Vec<&str>)> = None;
        for l in lines.by_ref() {
            if l.starts_with("```") {
                break;
            }
            if let Some(cmd) = l.strip_prefix("$ ") {
                out.extend(current.take().map(|(c, e)| (c, e.join("\n"))));
                current = Some((cmd.to_string(), Vec::new()));
            } else if let Some((_, expected)) = current.as_mut() {
                expected.push(l);
            }
        }
        out.extend(current.take().map(|(c, e)| (c, e.join("\n"))));
    }
    out
}

#[test]
fn readme_tour_blocks_print_what_they_show() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let commands = checked_commands(&readme);
    assert!(
        commands.len() >= 6,
        "only {} checked commands found",
        commands.len()
    );
    let bin_dir = PathBuf::from(env!("CARGO_BIN_EXE_xla-indexing"))
        .parent()
        .unwrap()
        .to_path_buf();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for (command, expected) in commands {
        let out = Command::new("bash")
            .args(["-c", &command])
            .env("PATH", &path)
            .current_dir(&root)
            .output()
            .unwrap();
        let printed = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(
            printed.trim_end(),
            expected.trim_end(),
            "README command: {command}"
        );
    }
}
