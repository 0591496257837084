//! Runtime variables whose values the module fixes (constants and iotas, through the ops
//! between them and the use) are folded into the maps, clamped as the op clamps them.

mod common;

use common::{assert_maps, instruction_report, maps_of, parse};
use xla_indexing_hlo::{Direction, Options, analyze_module};

const OUT2IN: Direction = Direction::OutputToInput;

/// The maps of the snippet's last instruction from output 0 to operand `operand`.
fn check(snippet: &str, instruction: &str, operand: usize, expected: &[&str]) {
    let report = instruction_report(snippet, instruction, OUT2IN);
    assert_maps(maps_of(&report, 0, operand), expected);
}

#[test]
fn a_constant_offset_is_folded() {
    check(
        "p = f32[4096] parameter(0)\nof = s32[] constant(42)\nROOT ds = f32[10] dynamic-slice(p, of), dynamic_slice_sizes={10}",
        "ds",
        0,
        &["(d0) -> (d0 + 42), domain: d0 in [0, 9]"],
    );
}

#[test]
fn an_offset_past_the_end_is_clamped() {
    check(
        "p = f32[100] parameter(0)\nof = s32[] constant(500)\nROOT ds = f32[10] dynamic-slice(p, of), dynamic_slice_sizes={10}",
        "ds",
        0,
        &["(d0) -> (d0 + 90), domain: d0 in [0, 9]"],
    );
    check(
        "p = f32[100] parameter(0)\nof = s32[] constant(-7)\nROOT ds = f32[10] dynamic-slice(p, of), dynamic_slice_sizes={10}",
        "ds",
        0,
        &["(d0) -> (d0), domain: d0 in [0, 9]"],
    );
}

#[test]
fn arithmetic_selects_and_compares_of_constants_are_followed() {
    // offset = select(3 < 4, 3 + 4, 0) * 2 - 1 = 13
    check(
        "p = f32[64,8] parameter(0)\na = s32[] constant(3)\nb = s32[] constant(4)\nsum = s32[] add(a, b)\n\
         lt = pred[] compare(a, b), direction=LT\nz = s32[] constant(0)\nsel = s32[] select(lt, sum, z)\n\
         two = s32[] constant(2)\nm = s32[] multiply(sel, two)\none = s32[] constant(1)\nof = s32[] subtract(m, one)\n\
         zero = s32[] constant(0)\nROOT ds = f32[4,8] dynamic-slice(p, of, zero), dynamic_slice_sizes={4,8}",
        "ds",
        0,
        &["(d0, d1) -> (d0 + 13, d1), domain: d0 in [0, 3], d1 in [0, 7]"],
    );
}

/// `take_along_axis`: the gather's index vectors are an iota (the row) concatenated with
/// indices from a parameter (the column): the row's variable folds into `d0`, the column's
/// stays.
#[test]
fn iota_parts_of_gather_indices_fold_and_the_rest_stays() {
    let snippet = "x = f32[5,7] parameter(0)\nidx = s32[5,3,1] parameter(1)\n\
        io = s32[5,3,1] iota(), iota_dimension=0\n\
        both = s32[5,3,2] concatenate(io, idx), dimensions={2}\n\
        ROOT g = f32[5,3] gather(x, both), offset_dims={}, collapsed_slice_dims={0,1}, start_index_map={0,1}, index_vector_dim=2, slice_sizes={1,1}";
    let report = instruction_report(snippet, "g", OUT2IN);
    let set = maps_of(&report, 0, 0);
    assert_maps(
        set,
        &["(d0, d1){rt0} -> (d0, rt0), domain: d0 in [0, 4], d1 in [0, 2], rt0 in [0, 6]"],
    );
    assert_eq!(set.accesses[0].runtime.len(), 1);
    assert_eq!(set.accesses[0].runtime[0].instruction, "both");
}

/// Values cross fusion boundaries both ways: an iota of the entry passed to a fusion, and a
/// constant computed by another fusion.
#[test]
fn values_cross_fusion_boundaries() {
    let text = "HloModule m
offsets {
  ROOT c = s32[] constant(5)
}
fused {
  p = f32[20,30] parameter(0)
  i = s32[] parameter(1)
  o = s32[] parameter(2)
  ROOT ds = f32[4,30] dynamic-slice(p, i, o), dynamic_slice_sizes={4,30}
}
ENTRY e {
  x = f32[20,30] parameter(0)
  five = s32[] fusion(), kind=kLoop, calls=offsets
  zero = s32[] constant(0)
  ROOT f = f32[4,30] fusion(x, five, zero), kind=kLoop, calls=fused
}";
    let m = parse(text);
    let report = analyze_module(
        &m,
        &Options {
            computation: Some("fused".into()),
            ..Options::default()
        },
    )
    .unwrap();
    assert_maps(
        maps_of(&report, 0, 0),
        &["(d0, d1) -> (d0 + 5, d1), domain: d0 in [0, 3], d1 in [0, 29]"],
    );
}

/// Through a pad: inside the operand's positions the operand's value, in the padding the
/// padding value; an iota broadcast and sliced keeps its index.
#[test]
fn pads_slices_and_broadcasts_are_followed() {
    check(
        "p = f32[50] parameter(0)\nio = s32[3] iota(), iota_dimension=0\npv = s32[] constant(9)\n\
         pd = s32[6] pad(io, pv), padding=1_2\nsl = s32[1] slice(pd), slice={[4:5]}\n\
         of = s32[] reshape(sl)\nROOT ds = f32[2] dynamic-slice(p, of), dynamic_slice_sizes={2}",
        "ds",
        0,
        &["(d0) -> (d0 + 9), domain: d0 in [0, 1]"],
    );
    check(
        "p = f32[50] parameter(0)\nio = s32[3] iota(), iota_dimension=0\npv = s32[] constant(9)\n\
         pd = s32[6] pad(io, pv), padding=1_2\nsl = s32[1] slice(pd), slice={[2:3]}\n\
         of = s32[] reshape(sl)\nROOT ds = f32[2] dynamic-slice(p, of), dynamic_slice_sizes={2}",
        "ds",
        0,
        &["(d0) -> (d0 + 1), domain: d0 in [0, 1]"],
    );
}

/// A value the module does not fix (a parameter of the entry) stays a runtime variable, and
/// so does one that would overflow its element type (the op wraps).
#[test]
fn unknown_and_wrapping_values_stay() {
    check(
        "p = f32[100] parameter(0)\nof = s32[] parameter(1)\nROOT ds = f32[10] dynamic-slice(p, of), dynamic_slice_sizes={10}",
        "ds",
        0,
        &["(d0){rt0} -> (d0 + rt0), domain: d0 in [0, 9], rt0 in [0, 90]"],
    );
    check(
        "p = f32[100] parameter(0)\na = s8[] constant(100)\nof = s8[] add(a, a)\nROOT ds = f32[10] dynamic-slice(p, of), dynamic_slice_sizes={10}",
        "ds",
        0,
        &["(d0){rt0} -> (d0 + rt0), domain: d0 in [0, 9], rt0 in [0, 90]"],
    );
}

#[test]
fn affine_constant_arrays_are_read_as_their_formula() {
    // The indices {3, 5, 7, 9}: 3 + 2 * i.
    check(
        "x = f32[20,4] parameter(0)\nidx = s32[4,1] constant({ {3}, {5}, {7}, {9} })\n\
         ROOT g = f32[4,4] gather(x, idx), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,4}",
        "g",
        0,
        &["(d0, d1) -> (d0 * 2 + 3, d1), domain: d0 in [0, 3], d1 in [0, 3]"],
    );
}
