//! A sweep of bad inputs through every subcommand of the binary: empty files, binary junk, text
//! junk, 10 MB files, shapes of 2^40 elements, offsets that overflow i64, deep nesting. Each must
//! give a clear error (exit 1, 2 or 3 with an `error:` line on stderr and nothing on stdout) or an
//! answer (exit 0), within a time limit and an address-space limit, and never panic or abort.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Wall-clock limit of one run (debug builds).
const TIME_LIMIT: Duration = Duration::from_secs(60);
/// Address-space limit of one run, in KiB.
const MEMORY_LIMIT_KB: u64 = 4 << 20;
/// The most stderr a run may write (a message quoting a 10 MB token must not repeat it).
const STDERR_LIMIT: usize = 64 << 10;

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

/// Runs the binary under `ulimit -v` with `stdin`, killing it past [`TIME_LIMIT`]. Its output
/// is read while it runs, so that a large result does not block it on a full pipe.
fn run(args: &[&str], stdin: &[u8]) -> Run {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {MEMORY_LIMIT_KB}; exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_xla-indexing"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let data = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let reader = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            String::from_utf8_lossy(&bytes).into_owned()
        })
    };
    let stdout = reader(Box::new(child.stdout.take().unwrap()));
    let stderr = reader(Box::new(child.stderr.take().unwrap()));
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > TIME_LIMIT {
            child.kill().unwrap();
            panic!("{args:?} ran longer than {TIME_LIMIT:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    writer.join().unwrap();
    Run {
        code: status.code().unwrap_or(-1),
        stdout: stdout.join().unwrap(),
        stderr: stderr.join().unwrap(),
    }
}

/// The run ended in an answer or in a clear error.
fn check(args: &[&str], run: &Run) {
    let what = format!("{args:?} (exit {}):\n{}", run.code, run.stderr);
    assert!(
        [0, 1, 2, 3].contains(&run.code),
        "unexpected exit for {what}"
    );
    for bad in ["panicked", "overflowed its stack", "RUST_BACKTRACE"] {
        assert!(!run.stderr.contains(bad), "{bad} in {what}");
    }
    assert!(
        run.stderr.len() <= STDERR_LIMIT,
        "stderr too long for {args:?}"
    );
    if run.code != 0 {
        assert!(
            run.stderr.contains("error: ") || run.stderr.contains("\"severity\":\"error\""),
            "no error line for {what}"
        );
        assert!(run.stdout.is_empty(), "stdout after an error for {what}");
    }
}

/// The inputs, written once into a temporary directory.
struct Inputs {
    dir: PathBuf,
}

impl Inputs {
    fn new(name: &str) -> Inputs {
        let dir = std::env::temp_dir().join(format!("xla-bad-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Inputs { dir }
    }

    fn write(&self, name: &str, data: impl AsRef<[u8]>) -> String {
        let path = self.dir.join(name);
        std::fs::write(&path, data).unwrap();
        path.to_str().unwrap().to_string()
    }

    /// Inputs no language accepts: empty, comments only, binary junk, text junk, 10 MB of one
    /// token, 10 MB of short tokens on one line, and (last) a file that does not exist.
    fn junk(&self) -> Vec<String> {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut bytes = Vec::with_capacity(4096);
        for _ in 0..4096 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            bytes.push(state as u8);
        }
        let alphabet = b"()[]{},=%:;abc012 \n-+*#\"'";
        let text: String = bytes
            .iter()
            .map(|b| alphabet[usize::from(*b) % alphabet.len()] as char)
            .collect();
        vec![
            self.write("empty", ""),
            self.write("comments", "# a comment\n// another\n"),
            self.write("junk.bin", &bytes),
            self.write("junk.txt", text),
            self.write("ten_mb.txt", "x".repeat(10 << 20)),
            self.write("ten_mb_tokens.txt", "a + (".repeat(2 << 20)),
            self.dir.join("missing").to_str().unwrap().to_string(),
        ]
    }
}

impl Drop for Inputs {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn example(path: &str) -> String {
    let full = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples")
        .join(path);
    std::fs::read_to_string(full).unwrap()
}

/// Every subcommand that reads a file, as argument lists around the file.
const FILE_COMMANDS: &[&[&str]] = &[
    &["indexing", "FILE"],
    &[
        "indexing",
        "FILE",
        "--direction",
        "in2out",
        "--utilization",
        "--format",
        "json",
    ],
    &["ranges", "FILE", "--format", "json"],
    &["bounds", "FILE"],
    &["bounds", "FILE", "--emit", "mlir"],
    &[
        "render",
        "FILE",
        "--what",
        "fusion-graph",
        "--format",
        "dot",
    ],
    &["render", "FILE", "--what", "access", "--operand", "0"],
    &["launch", "FILE"],
    &["launch", "FILE", "--tiling", "best"],
    &["coalescing", "FILE", "--format", "json"],
    &["tiles", "FILE", "--tile", "4,8"],
    &["tiles", "FILE", "--symbolic"],
    &["tiles", "FILE", "--space", "--format", "json"],
    &["tiles", "FILE", "--best"],
];

fn with_file<'a>(command: &[&'a str], file: &'a str) -> Vec<&'a str> {
    command
        .iter()
        .map(|a| if *a == "FILE" { file } else { a })
        .collect()
}

/// Commands that only parse junk before they fail, beside [`FILE_COMMANDS`].
const PARSING_COMMANDS: &[&[&str]] = &[&["import", "FILE"], &["compile", "FILE"]];

/// Junk is input that cannot be parsed: exit 3 from every command; a missing file is a usage
/// error, exit 2.
#[test]
fn junk_through_every_file_command() {
    let inputs = Inputs::new("junk");
    let files = inputs.junk();
    for (k, file) in files.iter().enumerate() {
        let expected = if k + 1 == files.len() { 2 } else { 3 };
        for command in FILE_COMMANDS.iter().chain(PARSING_COMMANDS) {
            let args = with_file(command, file);
            let r = run(&args, b"");
            check(&args, &r);
            assert_eq!(r.code, expected, "{args:?}: {}", r.stderr);
        }
    }
}

#[test]
fn junk_through_simplify() {
    let deep = format!("{}d0{}", "(".repeat(100_000), ")".repeat(100_000));
    let long = format!(
        "(d0) -> ({}), domain: d0 in [0, 9]",
        "d0 + ".repeat(20_000) + "1"
    );
    for map in ["", "\u{1}\u{2}junk", "(d0) -> (", &deep[..100_000], &long] {
        let args = ["simplify", map];
        check(&args, &run(&args, b""));
    }
    let mut lines = Vec::new();
    lines.push(format!(
        "{{\"id\": \"deep\", \"vars\": {{\"d0\": [0, 9]}}, \"expr\": \"{deep}\"}}"
    ));
    lines.push(format!(
        "{{\"id\": \"long\", \"vars\": {{\"d0\": [0, 9]}}, \"expr\": \"{}\"}}",
        "d0 + ".repeat(2_000_000) + "1"
    ));
    lines.push("not json at all".into());
    lines.push("\u{fffd}\u{fffd}".into());
    lines.push("{\"id\": 1, \"vars\": {\"d0\": [5, 2]}, \"expr\": \"d0\"}".into());
    let stdin = lines.join("\n");
    let args = ["simplify", "--jsonl"];
    let r = run(&args, stdin.as_bytes());
    check(&args, &r);
    assert_eq!(
        r.stdout.lines().count(),
        lines.len(),
        "one answer per request"
    );
    assert!(
        r.stdout
            .lines()
            .all(|l| l.contains("\"error\"") || l.contains("\"expr\""))
    );
}

#[test]
fn huge_shapes_and_overflowing_offsets() {
    let inputs = Inputs::new("huge");
    let huge = inputs.write(
        "huge.hlo",
        "HloModule m\nENTRY e {\n  p = f32[1099511627776]{0} parameter(0)\n  \
         ROOT n = f32[1099511627776]{0} negate(p)\n}\n",
    );
    let r = run(&["indexing", &huge, "--utilization"], b"");
    check(&["indexing"], &r);
    assert!(
        r.stdout
            .contains("(d0) -> (d0), domain: d0 in [0, 1099511627775]"),
        "{}",
        r.stdout
    );
    let r = run(
        &["render", &huge, "--what", "access", "--operand", "0"],
        b"",
    );
    check(&["render access"], &r);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("too many to draw"), "{}", r.stderr);
    let slice = inputs.write(
        "slice.hlo",
        "HloModule m\nENTRY e {\n  p = f32[9223372036854775807,4]{1,0} parameter(0)\n  \
         ROOT s = f32[1,4]{1,0} slice(p), slice={[9223372036854775806:9223372036854775807], [0:4]}\n}\n",
    );
    let r = run(&["indexing", &slice], b"");
    check(&["indexing slice"], &r);
    assert!(r.stdout.contains("(d0, d1) -> (9223372036854775806, d1)"));
    let elements = inputs.write("elements.hlo", OVERFLOWING_ELEMENTS);
    for command in FILE_COMMANDS
        .iter()
        .filter(|c| !["ranges", "bounds", "tiles"].contains(&c[0]))
    {
        let args = with_file(command, &elements);
        check(&args, &run(&args, b""));
    }
    let pad = inputs.write(
        "pad.hlo",
        "HloModule m\nENTRY e {\n  p = f32[4]{0} parameter(0)\n  z = f32[] constant(0)\n  \
         ROOT q = f32[4]{0} pad(p, z), padding=9223372036854775807_-9223372036854775807\n}\n",
    );
    let args = ["indexing", pad.as_str()];
    check(&args, &run(&args, b""));
    let tc = inputs.write(
        "overflow.tc",
        "def f(float(N) B) -> A { A(i) = B(i * 9223372036854775807 + 9223372036854775807) where i in 0:9223372036854775807 }\n",
    );
    let args = ["ranges", tc.as_str(), "--size", "N=9223372036854775807"];
    check(&args, &run(&args, b""));
    let sched = inputs.write(
        "overflow.sched",
        "A = placeholder((9223372036854775807,))\n\
         B = compute((9223372036854775807,), lambda i: A[i] + 1)\n\
         C = compute((9223372036854775807, 9223372036854775807), lambda i, j: B[i] * 2)\n\
         s = create_schedule(C)\n\
         f = s[C].fuse(C.op.axis[0], C.op.axis[1])\n\
         xo, xi = s[B].split(B.op.axis[0], 9223372036854775807)\n",
    );
    for emit in [&[][..], &["--emit", "mlir"]] {
        let mut args = vec!["bounds", sched.as_str()];
        args.extend_from_slice(emit);
        let r = run(&args, b"");
        check(&args, &r);
        assert_eq!(r.code, 1, "the fused extent overflows: {}", r.stderr);
    }
}

#[test]
fn deep_nesting() {
    let inputs = Inputs::new("deep");
    let (open, close) = ("(".repeat(100_000), ")".repeat(100_000));
    let files = [
        inputs.write(
            "deep.hlo",
            format!(
                "HloModule m\nENTRY e {{\n  p = {open}f32[]{close} parameter(0)\n  \
                 ROOT t = f32[] get-tuple-element(p), index=0\n}}\n"
            ),
        ),
        inputs.write(
            "deep_config.hlo",
            format!(
                "HloModule m\nENTRY e {{\n  p = f32[] parameter(0), backend_config={}{}\n  \
                 ROOT n = f32[] negate(p)\n}}\n",
                "{\"a\":".repeat(100_000),
                "}".repeat(100_000)
            ),
        ),
        inputs.write(
            "deep.tc",
            format!("def f(float(N) B) -> A {{ A(i) = B({open}i{close}) }}\n"),
        ),
        inputs.write(
            "chain.tc",
            format!("def f(float(N) B) -> A {{ A(i) = {}B(i) }}\n", "B(i) + ".repeat(100_000)),
        ),
        inputs.write(
            "unary.tc",
            format!("def f(float(N) B) -> A {{ A(i) = {}B(i) }}\n", "-".repeat(100_000)),
        ),
        inputs.write(
            "deep.sched",
            format!(
                "A = placeholder((4,))\nB = compute((4,), lambda i: {open}A[i]{close})\ns = create_schedule(B)\n"
            ),
        ),
        inputs.write(
            "chain.sched",
            format!(
                "A = placeholder((4,))\nB = compute((4,), lambda i: {}A[i])\ns = create_schedule(B)\n",
                "A[i] * ".repeat(100_000)
            ),
        ),
        inputs.write(
            "attrs.sched",
            format!("A = placeholder((4,)){}\n", ".op".repeat(100_000)),
        ),
    ];
    for file in &files {
        for command in FILE_COMMANDS {
            let args = with_file(command, file);
            check(&args, &run(&args, b""));
        }
    }
}

#[test]
fn ten_megabytes_of_comments_change_nothing() {
    let inputs = Inputs::new("big");
    let small = example("hlo/transpose_add.hlo");
    let padding = format!("// {}\n", "p".repeat(97)).repeat(100_000);
    let big = inputs.write("big.hlo", format!("{small}{padding}"));
    let small = inputs.write("small.hlo", small);
    let answer = |file: &str| {
        let args = ["indexing", file];
        let r = run(&args, b"");
        check(&args, &r);
        assert_eq!(r.code, 0);
        r.stdout
    };
    assert_eq!(answer(&big), answer(&small));
    let sched = example("sched/fuse_split.sched");
    let big = inputs.write(
        "big.sched",
        format!(
            "{}{sched}",
            format!("# {}\n", "c".repeat(97)).repeat(100_000)
        ),
    );
    let args = ["bounds", big.as_str(), "--emit", "mlir"];
    let r = run(&args, b"");
    check(&args, &r);
    assert!(r.stdout.contains("%B = memref.alloc() : memref<1x4xf32>"));
}

/// A transpose of `i64::MAX * i64::MAX` elements.
const OVERFLOWING_ELEMENTS: &str = "HloModule m\nENTRY e {\n  \
    p = f32[9223372036854775807,9223372036854775807]{1,0} parameter(0)\n  \
    ROOT t = f32[9223372036854775807,9223372036854775807]{0,1} transpose(p), dimensions={1,0}\n}\n";

#[test]
fn tiles_of_overflowing_shapes() {
    let inputs = Inputs::new("tiles");
    let file = inputs.write("elements.hlo", OVERFLOWING_ELEMENTS);
    for mode in [
        ["--tile", "4,8"],
        ["--symbolic", "-q"],
        ["--space", "-q"],
        ["--best", "-q"],
    ] {
        let args = ["tiles", file.as_str(), mode[0], mode[1]];
        check(&args, &run(&args, b""));
    }
}

/// `d0 * MAX + MAX` over `[0, 1]` has no value at `d0 = 1`; a constant is not its simplest form.
#[test]
fn overflowing_maps_do_not_simplify_to_a_constant() {
    let args = [
        "simplify",
        "(d0) -> (d0 * 9223372036854775807 + 9223372036854775807), domain: d0 in [0, 1]",
    ];
    let r = run(&args, b"");
    check(&args, &r);
    assert_ne!(
        r.stdout.trim(),
        "(d0) -> (9223372036854775807), domain: d0 in [0, 1]"
    );
}

/// `n` stages in a chain, each reading the one before.
fn sched_chain(n: usize) -> String {
    let mut text = String::from(
        "A = placeholder((4,), name='A')\nB0 = compute((4,), lambda i: A[i] + 2, name='B0')\n",
    );
    for k in 1..n {
        text.push_str(&format!(
            "B{k} = compute((4,), lambda i: B{}[i] + 2, name='B{k}')\n",
            k - 1
        ));
    }
    text + &format!("s = create_schedule(B{}.op)\n", n - 1)
}

/// Bound inference takes linear time: 50,000 stages within the time limit as JSON and MLIR; the
/// text form, whose nested realize blocks grow with the square of the stages, names its limit.
#[test]
fn bounds_of_a_long_chain() {
    let inputs = Inputs::new("chain");
    let file = inputs.write("chain.sched", sched_chain(50_000));
    for (emit, tail) in [
        ("--format=json", "\"B49999\":"),
        ("--emit=mlir", "func.func @B49999("),
    ] {
        let args = ["bounds", file.as_str(), emit];
        let r = run(&args, b"");
        check(&args, &r);
        assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
        assert!(r.stdout.contains(tail), "{args:?}");
    }
    let args = ["bounds", file.as_str()];
    let r = run(&args, b"");
    check(&args, &r);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains("more than 1024 blocks deep"),
        "{}",
        r.stderr
    );
}

/// A reader that stops reading (`| head`) ends the run quietly, with exit code 0.
#[test]
fn a_closed_stdout_ends_the_run_quietly() {
    let inputs = Inputs::new("pipe");
    // About 600 kB of JSON: more than a pipe holds, so the write meets the closed pipe.
    let file = inputs.write("chain.sched", sched_chain(5_000));
    let mut child = Command::new(env!("CARGO_BIN_EXE_xla-indexing"))
        .args(["bounds", &file, "--format", "json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A fusion around an opaque custom call, which has no indexing: line 5 holds it.
const OPAQUE: &str = "HloModule s\n\n%fused (p0: f32[8]) -> f32[8] {\n  %p0 = f32[8]{0} parameter(0)\n  \
    ROOT %s = f32[8]{0} custom-call(%p0), custom_call_target=\"my_kernel\"\n}\n\n\
    ENTRY %main (x: f32[8]) -> f32[8] {\n  %x = f32[8]{0} parameter(0)\n  \
    ROOT %f = f32[8]{0} fusion(%x), kind=kLoop, calls=%fused\n}\n";

#[test]
fn json_warnings_carry_their_line() {
    let inputs = Inputs::new("warn");
    let file = inputs.write("opaque.hlo", OPAQUE);
    let args = ["indexing", file.as_str(), "--format", "json"];
    let r = run(&args, b"");
    check(&args, &r);
    assert_eq!(r.code, 0);
    let warnings: Vec<serde_json::Value> = r
        .stderr
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        warnings,
        [
            serde_json::json!({"severity": "warning", "message": "s (custom-call in fused) has no indexing; skipped",
                               "file": file, "line": 5, "column": 3}),
            serde_json::json!({"severity": "warning",
                               "message": "fused: output 0 to operand 0: maps incomplete: s (line 5): custom-call has no indexing (an opaque custom call: what it reads is not in the HLO)",
                               "file": file, "line": 5, "column": 3}),
        ]
    );
    let r = run(&["indexing", &file], b"");
    assert!(
        r.stderr.starts_with(&format!(
            "{file}:5:3: warning: s (custom-call in fused) has no indexing; skipped\n    ROOT %s"
        )),
        "{}",
        r.stderr
    );
}

#[test]
fn option_values_are_checked() {
    let inputs = Inputs::new("options");
    let hlo = inputs.write("t.hlo", example("hlo/transpose_exp_add.hlo"));
    let tc = inputs.write("r.tc", example("tc/reverted.tc"));
    // --tile takes one value: the file after it is the file.
    let r = run(&["tiles", "--tile", "4,8", &hlo], b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    for (args, message) in [
        (vec!["tiles", "--tile", "4,0", &hlo], "0 is not in 1.."),
        (
            vec!["ranges", &tc, "--size", "J=3"],
            "has no size J; its sizes are I",
        ),
        (
            vec!["launch", "--chip", "sm_42", &hlo],
            "unknown chip `sm_42` (known: sm_70, sm_75, sm_80, sm_86, sm_89, sm_90, sm_100)",
        ),
    ] {
        let r = run(&args, b"");
        check(&args, &r);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains(message), "{args:?}: {}", r.stderr);
    }
}

/// A module around one instruction `root` (line 6) of a fusion of `p0: f32[4,8]`.
fn fused(root: &str, shape: &str) -> String {
    format!(
        "HloModule m\n\n%fused (p0: f32[4,8]) -> {shape} {{\n  %p0 = f32[4,8]{{1,0}} parameter(0)\n  \
         %z = f32[] constant(0)\n  ROOT {root}\n}}\n\nENTRY %main (x: f32[4,8]) -> {shape} {{\n  \
         %x = f32[4,8]{{1,0}} parameter(0)\n  ROOT %f = {shape} fusion(%x), kind=kLoop, calls=%fused\n}}\n"
    )
}

/// The HLO commands that read a whole module.
const MODULE_COMMANDS: [&[&str]; 7] = [
    &["indexing"],
    &["import"],
    &["launch"],
    &["coalescing"],
    &["tiles", "--tile", "2,2"],
    &["compile"],
    &["render", "--what", "fusion-graph"],
];

/// Every command that reads a whole module refuses what the analysis refuses (exit 1, the
/// error at the instruction), and a fusion that does not match its computation or an iota of a
/// dimension it lacks, instead of analysing, drawing or writing what does not exist.
#[test]
fn every_command_refuses_what_the_analysis_refuses() {
    let inputs = Inputs::new("refused");
    let refused = [
        (
            fused(
                "%s = f32[9223372036854775807,8]{1,0} pad(%p0, %z), padding=9223372036854775800_3_1x0_0_0",
                "f32[9223372036854775807,8]",
            ),
            "s: padded size overflows",
        ),
        (
            fused(
                "%t = f32[4,8,3]{2,1,0} broadcast(%p0), dimensions={0,5}",
                "f32[4,8,3]",
            ),
            "t: dimensions: dimension 5 is out of range for rank 3",
        ),
        (
            fused(
                "%t = f32[2,8]{1,0} slice(%p0), slice={[3:5], [0:8]}",
                "f32[2,8]",
            ),
            "t: slice [3:5:1] is out of range for dimension 0 of size 4",
        ),
        (
            fused("%t = f32[33]{0} reshape(%p0)", "f32[33]"),
            "t: f32[33]{0} and f32[4,8]{1,0} hold different numbers of elements",
        ),
        (
            fused(
                "%t = f32[4,8]{1,0} fusion(%p0), kind=kLoop, calls=%fused",
                "f32[4,8]",
            ),
            "t: computation fused calls itself",
        ),
        (
            fused("%t = s32[4,8]{1,0} iota(), iota_dimension=2", "s32[4,8]"),
            "t: iota_dimension=2 is not a dimension of a rank-2 result",
        ),
    ];
    for (k, (text, message)) in refused.iter().enumerate() {
        let file = inputs.write(&format!("refused{k}.hlo"), text);
        for command in MODULE_COMMANDS {
            let args: Vec<&str> = command.iter().copied().chain([file.as_str()]).collect();
            let r = run(&args, b"");
            check(&args, &r);
            assert_eq!(r.code, 1, "{args:?}: {}", r.stderr);
            assert!(
                r.stderr
                    .starts_with(&format!("{file}:6:3: error: {message}\n")),
                "{args:?}: {}",
                r.stderr
            );
        }
    }
    let mismatched = inputs.write(
        "mismatched.hlo",
        fused("%t = f32[4,8]{1,0} negate(%p0)", "f32[8,4]"),
    );
    for command in MODULE_COMMANDS {
        let args: Vec<&str> = command
            .iter()
            .copied()
            .chain([mismatched.as_str(), "--format", "json"])
            .collect();
        let r = run(&args, b"");
        check(&args, &r);
        assert_eq!(r.code, 1, "{args:?}: {}", r.stderr);
        let error: serde_json::Value = serde_json::from_str(r.stderr.trim()).unwrap();
        assert_eq!(
            error,
            serde_json::json!({"severity": "error", "file": mismatched, "line": 11, "column": 3,
                               "message": "f: the result f32[8,4] differs from the root of fused"}),
            "{args:?}"
        );
    }
}

/// `levels` `scf.execute_region`s, each yielding the value of the one inside it.
fn nested_regions(levels: usize) -> String {
    let mut text = String::from("func.func @f() -> i32 {\n");
    for k in 0..levels {
        text.push_str(&format!("%r{k} = scf.execute_region -> i32 {{\n"));
    }
    text.push_str(&format!("%r{levels} = arith.constant 7 : i32\n"));
    for k in (0..levels).rev() {
        text.push_str(&format!("scf.yield %r{} : i32\n}}\n", k + 1));
    }
    text.push_str("return %r0 : i32\n}\n");
    text
}

/// MLIR's parser recurses into every region and overflowed the main thread's stack near 4000
/// nested regions: 5000 are read and folded, and 20000 (past the limit of 10000 nested
/// brackets) are a parse error at the bracket past the limit.
#[test]
fn opt_of_deeply_nested_regions() {
    let inputs = Inputs::new("opt-deep");
    let pipeline = "--pass-pipeline=builtin.module(canonicalize)";
    let file = inputs.write("nested5000.mlir", nested_regions(5000));
    let args = ["opt", file.as_str(), pipeline];
    let r = run(&args, b"");
    check(&args, &r);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("arith.constant 7 : i32"), "{}", r.stdout);
    assert!(!r.stdout.contains("scf.execute_region"), "{}", r.stdout);
    let file = inputs.write("nested20000.mlir", nested_regions(20000));
    let args = ["opt", file.as_str(), pipeline];
    let r = run(&args, b"");
    check(&args, &r);
    assert_eq!(r.code, 3, "{}", r.stderr);
    assert!(
        r.stderr.starts_with(&format!(
            "{file}:10001:36: error: nested more than 10000 brackets deep"
        )),
        "{}",
        r.stderr
    );
}

/// An opcode HLO does not have is a parse error at its line and column (exit 3), with the
/// line and a caret, for every command that reads HLO.
#[test]
fn an_unknown_opcode_is_a_located_parse_error() {
    let inputs = Inputs::new("opcode");
    let text = OPAQUE.replace(
        "custom-call(%p0), custom_call_target=\"my_kernel\"",
        "cos(%p0)",
    );
    let file = inputs.write("cos.hlo", text);
    for command in ["indexing", "launch", "compile"] {
        let args = [command, file.as_str()];
        let r = run(&args, b"");
        check(&args, &r);
        assert_eq!(r.code, 3, "{command}: {}", r.stderr);
        assert!(
            r.stderr.starts_with(&format!(
                "{file}:5:23: error: 'cos' is no HLO opcode\n    ROOT %s = f32[8]{{0}} cos(%p0)"
            )),
            "{command}: {}",
            r.stderr
        );
    }
}
