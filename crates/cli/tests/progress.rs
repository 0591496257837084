//! Long runs over whole modules show progress on stderr when it is a terminal (run under
//! util-linux's `script`), and nothing with `--quiet` or when stderr is a pipe. The runs set
//! `XLA_INDEXING_PROGRESS_MS=0` so that every item is shown however fast the machine is.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use xla_indexing_testkit::tools::{program, require};

/// A module of `n` fusions of `m` elementwise instructions each, in a chain.
fn long_module(n: usize, m: usize) -> String {
    let mut text = String::from("HloModule long\n");
    for f in 0..n {
        text.push_str(&format!(
            "fused_{f} (p: f32[8,8]) -> f32[8,8] {{\n  a0 = f32[8,8]{{1,0}} parameter(0)\n"
        ));
        for i in 1..m {
            text.push_str(&format!("  a{i} = f32[8,8]{{1,0}} negate(a{})\n", i - 1));
        }
        text.push_str(&format!(
            "  ROOT r = f32[8,8]{{1,0}} negate(a{})\n}}\n",
            m - 1
        ));
    }
    text.push_str("ENTRY e {\n  x0 = f32[8,8]{1,0} parameter(0)\n");
    for f in 0..n {
        text.push_str(&format!(
            "  x{} = f32[8,8]{{1,0}} fusion(x{f}), kind=kLoop, calls=fused_{f}\n",
            f + 1
        ));
    }
    text.push_str(&format!("  ROOT y = f32[8,8]{{1,0}} negate(x{n})\n}}\n"));
    text
}

struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// What a run writes to a terminal.
fn on_terminal(dir: &Path, args: &str) -> String {
    let log = dir.join("tty.log");
    let command = format!("{} {args}", env!("CARGO_BIN_EXE_xla-indexing"));
    let status = Command::new("script")
        .env("XLA_INDEXING_PROGRESS_MS", "0")
        .args(["-qec", &command])
        .arg(&log)
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "{args}");
    std::fs::read_to_string(&log).unwrap()
}

#[test]
fn progress_shows_on_a_terminal_unless_quiet() {
    if require(
        "progress on a terminal (util-linux's script)",
        program("script", "--version"),
    )
    .is_none()
    {
        return;
    }
    let dir = Scratch(std::env::temp_dir().join(format!("progress-{}", std::process::id())));
    std::fs::create_dir_all(&dir.0).unwrap();
    let module = dir.0.join("long.hlo");
    std::fs::write(&module, long_module(20, 5)).unwrap();
    let out = dir.0.join("out.txt");
    for (args, label) in [
        (
            format!("render {} --what fusion-graph", module.display()),
            "fusion graph: ",
        ),
        (
            format!(
                "render {} --what fusion-graph --format svg",
                module.display()
            ),
            "graphviz laying out the graph: ",
        ),
        (format!("indexing {}", module.display()), "indexing: "),
        (format!("launch {}", module.display()), "launch: "),
        (format!("coalescing {}", module.display()), "coalescing: "),
        (format!("tiles {} --tile 4,8", module.display()), "tiles: "),
        (format!("import {}", module.display()), "import: "),
        (format!("compile {}", module.display()), "compile: "),
    ] {
        let args = format!("{args} -o {}", out.display());
        let piped = Command::new(env!("CARGO_BIN_EXE_xla-indexing"))
            .env("XLA_INDEXING_PROGRESS_MS", "0")
            .args(args.split(' '))
            .output()
            .unwrap();
        assert!(piped.status.success());
        assert!(piped.stderr.is_empty(), "{args}: progress on a pipe");
        assert!(!on_terminal(&dir.0, &format!("{args} --quiet")).contains(label));
        let shown = on_terminal(&dir.0, &args);
        assert!(shown.contains(&format!("\r{label}")), "{args}: {shown}");
        assert!(shown.contains("\r\x1b[2K"), "the line is erased: {shown}");
    }
}
