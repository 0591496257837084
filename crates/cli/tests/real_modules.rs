//! A module as JAX gives it before XLA's fusion passes (`tests/data/train_step.before_opt.hlo`:
//! while loops with constant trip counts, an all-reduce, custom calls, `partition-id`, an entry
//! without fusions): warnings summarised, scoped to what was asked and silenced by `-q`; every
//! `--instruction` answered; trip counts of while loops; GPU commands refusing to plan an
//! unfused module.

mod common;

use expect_test::{Expect, expect};

/// The test module, from the workspace root.
const MODULE: &str = "crates/cli/tests/data/train_step.before_opt.hlo";

/// Exit code, stdout and stderr of a run.
fn run(args: &[&str]) -> (i32, String, String) {
    let out = common::output(args);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// A run that succeeds, its stderr checked against `expected`; returns its stdout.
fn warns(args: &[&str], expected: Expect) -> String {
    let (code, stdout, stderr) = run(args);
    assert_eq!(code, 0, "{args:?}: {stderr}");
    expected.assert_eq(&stderr);
    stdout
}

#[test]
fn module_warnings_are_one_line_per_kind_and_reason() {
    warns(
        &["indexing", MODULE],
        expect![[r#"
            crates/cli/tests/data/train_step.before_opt.hlo: warning: 3 instructions without maps: custom-call 2, all-reduce 1; skipped (--format json lists them)
            crates/cli/tests/data/train_step.before_opt.hlo:64:3: warning: main: output 0 to operand 0 and 1 more pairs: maps incomplete: x.sharded (line 64): custom-call has no indexing (an opaque custom call: what it reads is not in the HLO)
                %x.sharded = f32[2,16]{1,0} custom-call(%x.out), custom_call_target="Sharding", sharding={replicated}
                ^
        "#]],
    );
}

#[test]
fn quiet_silences_warnings() {
    let stdout = warns(&["indexing", "-q", MODULE], expect![[""]]);
    assert!(stdout.contains("main (out2in)"), "{stdout}");
}

#[test]
fn an_instruction_is_warned_about_alone() {
    warns(
        &["indexing", MODULE, "--instruction", "h.wide"],
        expect![[""]],
    );
    warns(
        &["indexing", MODULE, "--instruction", "h"],
        expect![[r#"
            crates/cli/tests/data/train_step.before_opt.hlo:17:3: warning: h (custom-call in layer_body) has no indexing; skipped
                %h = f32[2,8]{1,0} custom-call(%x, %w), custom_call_target="__cublas$gemm"
                ^
        "#]],
    );
}

#[test]
fn a_computation_is_warned_about_with_what_it_calls() {
    warns(
        &["indexing", MODULE, "--computation", "layer_body"],
        expect![[r#"
            crates/cli/tests/data/train_step.before_opt.hlo: warning: 2 instructions without maps: all-reduce 1, custom-call 1; skipped (--format json lists them)
            crates/cli/tests/data/train_step.before_opt.hlo:18:3: warning: layer_body: output 1 to operand 0.0 and 2 more pairs: maps incomplete: h.sum (line 18): all-reduce has no indexing (a collective: it reads the buffers of other devices)
                %h.sum = f32[2,8]{1,0} all-reduce(%h), replica_groups={{0,1}}, to_apply=%add.f32
                ^
        "#]],
    );
}

#[test]
fn an_instruction_without_operands_says_why_it_has_no_maps() {
    let stdout = warns(&["indexing", MODULE, "--instruction", "pid"], expect![[""]]);
    expect![[r#"
        pid (out2in): no maps: it reads no operand
    "#]]
    .assert_eq(&stdout);
    let stdout = warns(
        &[
            "indexing",
            MODULE,
            "--instruction",
            "pid",
            "--direction",
            "in2out",
        ],
        expect![[""]],
    );
    expect![[r#"
        pid (in2out): no maps: no operand reaches an output
    "#]]
    .assert_eq(&stdout);
}

#[test]
fn gpu_commands_refuse_an_unfused_module() {
    let expected = "crates/cli/tests/data/train_step.before_opt.hlo:52:1: error: main: the module has no fusions: its entry computation holds 4 ops (partition-id, while, custom-call, ...), so it looks like HLO before XLA's fusion passes, whose kernels are not known yet; give the module XLA compiled instead: run with XLA_FLAGS=--xla_dump_to=DIR and pass DIR/module_*.gpu_after_optimizations.txt (or *.after_optimizations.txt)\n  ENTRY %main (weights.in: f32[4,8,16], x.in: f32[2,16]) -> (f32[2,16], f32[4,8,16]) {\n  ^\n";
    for args in [
        &["launch", MODULE][..],
        &["coalescing", MODULE],
        &["compile", MODULE],
        &["tiles", MODULE, "--tile", "1,1"],
    ] {
        let (code, stdout, stderr) = run(args);
        assert_eq!((code, stdout.as_str()), (1, ""), "{args:?}: {stderr}");
        assert_eq!(stderr, expected, "{args:?}");
    }
}

#[test]
fn a_while_with_a_constant_trip_count_has_maps_and_says_how_many_iterations() {
    for (name, expected) in [
        (
            "layers",
            "layers (out2in): runs 4 iterations (state element 0 from 0 by 1 while < 4)",
        ),
        // `10 > k`, stepped by 2: turned into `k < 10`.
        (
            "decay",
            "decay (out2in): runs 5 iterations (state element 0 from 0 by 2 while < 10)",
        ),
    ] {
        let stdout = common::stdout(&["indexing", "-q", MODULE, "--instruction", name]);
        assert!(stdout.contains(expected), "{name}: {stdout}");
    }
    // Through its five iterations, both ways.
    let maps = "f32[4,8,16]{2,1,0}\n  (d0, d1, d2) -> (d0, d1, d2), domain: d0 in [0, 3], d1 in [0, 7], d2 in [0, 15]";
    for (direction, pair) in [
        ("out2in", "output 1 f32[4,8,16]{2,1,0} -> operand 0.1"),
        ("in2out", "operand 0.1 f32[4,8,16]{2,1,0} -> output 1"),
    ] {
        let args = [
            "indexing",
            "-q",
            MODULE,
            "--instruction",
            "decay",
            "--direction",
            direction,
        ];
        let stdout = common::stdout(&args);
        assert!(
            stdout.contains(&format!("{pair} {maps}")),
            "{direction}: {stdout}"
        );
    }
}
