//! The CPU program of `common::cpu` runs kernels with barriers, shuffles and workgroup memory
//! with GPU semantics: the hand-written kernels under `tests/data/cpu/` are run through
//! `xla-indexing-simplify, xla-indexing-lower-apply` in process, turned into a CPU program and
//! run with `mlir-runner`; every output element is compared with values computed here from
//! `cpu::input_value`.
//!
//! Without `mlir-runner` or the runner utilities of LLVM 22 the tests print a note and check
//! nothing else.

mod common;

use std::{
    fs,
    path::{Path, PathBuf},
};

use common::{
    cpu::{self, Tools},
    hlo_eval::Ty,
};
use xla_indexing_passes::opt::{OptOptions, run_pipeline};
use xla_indexing_testkit::tools::require;

const PIPELINE: &str = "builtin.module(xla-indexing-simplify, xla-indexing-lower-apply)";

/// At most this many wrong elements are listed.
const SHOWN: usize = 8;

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/data/cpu/{name}.mlir"))
}

/// The kernels of `tests/data/cpu/<name>.mlir` after the pipeline.
fn lowered(name: &str) -> String {
    let path = data(name);
    let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    run_pipeline(&text, name, PIPELINE, OptOptions::default())
        .unwrap_or_else(|e| panic!("{name}: {PIPELINE} failed: {e:?}"))
        .text
}

/// Element `n` of input parameter `p` (f32).
fn input(p: usize, n: usize) -> f32 {
    cpu::input_value(p, n as i64, Ty::F32).float() as f32
}

/// The bits of an expected f32 element, as the program prints them.
fn f32_bits(v: f32) -> u64 {
    u64::from(v.to_bits())
}

/// Runs the one kernel of `lowered` (with `inputs` input buffers) as a CPU program and returns
/// the bits it printed for its outputs, once: `Err` when a run fails or an element differs
/// between the runs with the outputs preset to zeros and to ones (an element not written).
fn run(tools: &Tools, name: &str, lowered: &str, inputs: usize) -> Result<Vec<u64>, String> {
    let (aliases, kernels) = cpu::kernels(tools, lowered)?;
    let program = cpu::program(&aliases, kernels, vec![inputs], vec![Vec::new()])?;
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("cpu_barriers")
        .join(name);
    let printed = cpu::run(tools, &program.text, &dir)?;
    let (zeros, ones) = printed.split_at(printed.len() / 2);
    let unwritten: Vec<usize> = (0..zeros.len()).filter(|&e| zeros[e] != ones[e]).collect();
    if !unwritten.is_empty() {
        return Err(format!("{name}: elements {unwritten:?} not written"));
    }
    Ok(zeros.iter().map(|&b| b as u64).collect())
}

/// Runs the kernel `name` with its lowered text passed through `mutate` and compares the
/// printed bits with `expected`; `Err` lists the differences.
fn check(
    tools: &Tools,
    name: &str,
    mutate: &dyn Fn(String) -> String,
    inputs: usize,
    expected: &[u64],
) -> Result<(), String> {
    let got = run(tools, name, &mutate(lowered(name)), inputs)?;
    if got.len() != expected.len() {
        return Err(format!(
            "{name}: {} elements printed, {} expected",
            got.len(),
            expected.len()
        ));
    }
    let wrong: Vec<String> = (0..got.len())
        .filter(|&e| got[e] != expected[e])
        .map(|e| {
            format!(
                "{name}: element {e}: {:#x} expected, the kernel wrote {:#x}",
                expected[e], got[e]
            )
        })
        .collect();
    if wrong.is_empty() {
        return Ok(());
    }
    let count = wrong.len();
    let mut lines: Vec<String> = wrong.into_iter().take(SHOWN).collect();
    lines.push(format!("{name}: {count} wrong elements"));
    Err(lines.join("\n"))
}

fn tools(test: &str) -> Option<Tools> {
    require(test, Tools::find())
}

#[test]
fn a_block_sum_through_shuffles_and_shared_memory_is_exact() {
    let Some(tools) = tools("the block sum") else {
        return;
    };
    // Inputs are multiples of 1/2 of at most 8.5: every partial sum is exact.
    let sums: Vec<u64> = (0..2)
        .map(|b| f32_bits((0..256).map(|t| input(0, 256 * b + t)).sum()))
        .collect();
    check(&tools, "block_sum", &|text| text, 1, &sums).unwrap();
}

/// The transpose of the [64, 96] input 0, row-major.
fn transposed() -> Vec<u64> {
    (0..96)
        .flat_map(|i| (0..64).map(move |j| f32_bits(input(0, 96 * j + i))))
        .collect()
}

#[test]
fn a_tile_transpose_through_padded_shared_memory_is_exact() {
    let Some(tools) = tools("the tile transpose") else {
        return;
    };
    check(&tools, "transpose", &|text| text, 1, &transposed()).unwrap();
}

#[test]
fn without_its_barrier_the_transpose_reads_shared_memory_no_thread_wrote_yet() {
    let Some(tools) = tools("the transpose without its barrier") else {
        return;
    };
    let without_barrier = |text: String| {
        assert!(text.contains("gpu.barrier"), "{text}");
        text.lines()
            .filter(|l| l.trim() != "gpu.barrier")
            .collect::<Vec<_>>()
            .join("\n")
    };
    let err = check(&tools, "transpose", &without_barrier, 1, &transposed()).unwrap_err();
    // Thread (1, 0) reads tile[1][0] (for output [0, 1]), which thread (0, 1) writes after it:
    // all ones, as the block's shared memory starts.
    assert!(
        err.contains("transpose: element 1: 0xc0800000 expected, the kernel wrote 0xffffffff"),
        "{err}"
    );
}

/// Where lane `lane` of a segment of 16 reads from in each row of `shuffle_modes`: down by 3,
/// up by 5, idx 7, xor 9 (outside the segment: `None`).
fn source(row: usize, lane: i64) -> Option<i64> {
    let src = match row {
        0 => lane + 3,
        1 => lane - 5,
        2 => 7,
        _ => lane ^ 9,
    };
    (0..16).contains(&src).then_some(src)
}

#[test]
fn shuffles_down_up_idx_and_xor_in_segments_of_16_read_their_source_lane() {
    let Some(tools) = tools("the shuffle modes") else {
        return;
    };
    // Element i is thread i % 64 (linear) of block i / 64; segments of 16 threads.
    let read = |row: usize, i: usize| {
        let segment = i as i64 - i as i64 % 16;
        let at = source(row, i as i64 % 16).map_or(i as i64, |src| segment + src);
        f32_bits(input(0, at as usize))
    };
    let values = (0..4).flat_map(|row| (0..128).map(move |i| read(row, i)));
    let valid = (0..4).flat_map(|row| (0..128).map(move |i| source(row, i % 16).is_some() as u64));
    let expected: Vec<u64> = values.chain(valid).collect();
    check(&tools, "shuffle_modes", &|text| text, 1, &expected).unwrap();
}

#[test]
fn a_barrier_inside_a_region_and_an_unknown_shuffle_mode_are_errors() {
    let Some(tools) = tools("the errors of the CPU program") else {
        return;
    };
    let err = cpu::kernels(&tools, &lowered("barrier_in_if")).unwrap_err();
    assert!(
        err.starts_with("@barrier_in_if: a barrier or shuffle inside a region"),
        "{err}"
    );
    assert!(err.ends_with("gpu.barrier"), "{err}");
    let sideways =
        lowered("shuffle_modes").replacen("gpu.shuffle  down", "gpu.shuffle  sideways", 1);
    let err = cpu::kernels(&tools, &sideways).unwrap_err();
    assert!(err.contains("gpu.shuffle  sideways"), "{err}");
}
