//! Every subcommand's `--help` (and `-h`, which prints the same) shows an example, and every
//! example runs from the repository root and prints what its `prints` line says.

use std::path::Path;
use std::process::Command;

fn binary(args: &[String]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_xla-indexing"))
        .args(args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."))
        .output()
        .unwrap()
}

/// The subcommands `--help` lists.
fn subcommands() -> Vec<String> {
    let help = String::from_utf8(binary(&["--help".into()]).stdout).unwrap();
    help.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(str::to_string)
        .collect()
}

/// Splits a command line as a shell would, for the quoting the examples use.
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut quote = None;
    let mut started = false;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                started = true;
            }
            (None, c) if c.is_whitespace() => {
                if started || !word.is_empty() {
                    out.push(std::mem::take(&mut word));
                }
                started = false;
            }
            (None, c) => word.push(c),
        }
    }
    if started || !word.is_empty() {
        out.push(word);
    }
    out
}

#[test]
fn every_subcommand_has_a_working_example() {
    let commands = subcommands();
    assert!(commands.len() >= 5, "{commands:?}");
    let scratch = std::env::temp_dir().join(format!("help-examples-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    for command in commands {
        let help = String::from_utf8(binary(&[command.clone(), "--help".into()]).stdout).unwrap();
        assert!(
            help.contains("Example"),
            "{command} --help has no example:\n{help}"
        );
        let short = String::from_utf8(binary(&[command.clone(), "-h".into()]).stdout).unwrap();
        assert_eq!(short, help, "{command} -h differs from --help");
        let lines: Vec<&str> = help.lines().map(str::trim).collect();
        let mut ran = 0;
        for (k, line) in lines.iter().enumerate() {
            let Some(rest) = line.strip_prefix("xla-indexing ") else {
                continue;
            };
            let rest = rest.split(" | ").next().unwrap_or(rest);
            let mut args = words(rest);
            for k in 1..args.len() {
                if args[k - 1] == "-o" {
                    args[k] = scratch.join(&args[k]).to_string_lossy().into_owned();
                }
            }
            let out = binary(&args);
            assert!(
                out.status.success(),
                "example `{line}` fails:\n{}",
                String::from_utf8_lossy(&out.stderr)
            );
            if let Some(expected) = lines.get(k + 1).and_then(|l| l.strip_prefix("prints ")) {
                assert_eq!(
                    String::from_utf8_lossy(&out.stdout).trim(),
                    expected,
                    "example `{line}`"
                );
            }
            ran += 1;
        }
        assert!(
            ran > 0,
            "{command} --help shows no runnable example:\n{help}"
        );
    }
    std::fs::remove_dir_all(&scratch).unwrap();
}

#[test]
fn words_follow_shell_quoting() {
    assert_eq!(
        words("simplify '(d0) -> (d0)' -o \"a b\" x"),
        ["simplify", "(d0) -> (d0)", "-o", "a b", "x"]
    );
    assert_eq!(words("a '' b"), ["a", "", "b"]);
}
