//! Runtime variables whose values the module fixes (constants and iotas, through the ops
//! between them and the use) are folded into the maps, clamped as the op clamps them.

mod common;

use common::{assert_maps, instruction_report, maps_of, parse};
use std::collections::BTreeSet;

use xla_indexing_hlo::{Direction, Options, analyze_module};
use xla_indexing_testkit::rng::SplitMix64;

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

/// A scalar `s32` value built from constants and ops on them, printed as HLO and evaluated here
/// (the reference the folded maps are checked against).
enum Scalar {
    Constant(i64),
    /// Element `k` of `iota(n)`, read through a slice and a reshape.
    IotaElement {
        n: i64,
        k: i64,
    },
    Binary(&'static str, Box<Scalar>, Box<Scalar>),
    Negate(Box<Scalar>),
    /// `select(compare(a, b, direction), x, y)`.
    Select {
        direction: &'static str,
        a: Box<Scalar>,
        b: Box<Scalar>,
        x: Box<Scalar>,
        y: Box<Scalar>,
    },
    Clamp(Box<Scalar>, Box<Scalar>, Box<Scalar>),
}

impl Scalar {
    fn random(rng: &mut SplitMix64, depth: u32) -> Scalar {
        let leaf = depth == 0 || rng.chance(1, 3);
        if leaf {
            return if rng.chance(1, 2) {
                Scalar::Constant(rng.range(-6, 30))
            } else {
                let n = rng.range(1, 8);
                Scalar::IotaElement {
                    n,
                    k: rng.range(0, n - 1),
                }
            };
        }
        let sub = |rng: &mut SplitMix64| Box::new(Scalar::random(rng, depth - 1));
        match rng.range(0, 5) {
            0 => {
                let op = *rng.pick(&["add", "subtract"]);
                Scalar::Binary(op, sub(rng), sub(rng))
            }
            1 => {
                let k = rng.range(-3, 3);
                Scalar::Binary("multiply", sub(rng), Box::new(Scalar::Constant(k)))
            }
            2 => {
                let op = *rng.pick(&["maximum", "minimum"]);
                Scalar::Binary(op, sub(rng), sub(rng))
            }
            3 => Scalar::Negate(sub(rng)),
            4 => Scalar::Select {
                direction: ["EQ", "NE", "LT", "LE", "GT", "GE"][rng.range(0, 5) as usize],
                a: sub(rng),
                b: sub(rng),
                x: sub(rng),
                y: sub(rng),
            },
            _ => Scalar::Clamp(sub(rng), sub(rng), sub(rng)),
        }
    }

    fn value(&self) -> i64 {
        match self {
            Scalar::Constant(c) => *c,
            Scalar::IotaElement { k, .. } => *k,
            Scalar::Binary(op, a, b) => {
                let (a, b) = (a.value(), b.value());
                match *op {
                    "add" => a + b,
                    "subtract" => a - b,
                    "multiply" => a * b,
                    "maximum" => a.max(b),
                    _ => a.min(b),
                }
            }
            Scalar::Negate(a) => -a.value(),
            Scalar::Select {
                direction,
                a,
                b,
                x,
                y,
            } => {
                let (a, b) = (a.value(), b.value());
                let holds = match *direction {
                    "EQ" => a == b,
                    "NE" => a != b,
                    "LT" => a < b,
                    "LE" => a <= b,
                    "GT" => a > b,
                    _ => a >= b,
                };
                if holds { x.value() } else { y.value() }
            }
            Scalar::Clamp(lo, x, hi) => x.value().max(lo.value()).min(hi.value()),
        }
    }

    /// Emits the instructions that compute the value; returns the name of the last.
    fn emit(&self, out: &mut String, next: &mut usize) -> String {
        let mut fresh = || {
            *next += 1;
            format!("v{next}")
        };
        let name = fresh();
        let line = match self {
            Scalar::Constant(c) => format!("{name} = s32[] constant({c})"),
            Scalar::IotaElement { n, k } => {
                let (io, sl) = (fresh(), fresh());
                out.push_str(&format!(
                    "{io} = s32[{n}] iota(), iota_dimension=0\n{sl} = s32[1] slice({io}), slice={{[{k}:{}]}}\n",
                    k + 1
                ));
                format!("{name} = s32[] reshape({sl})")
            }
            Scalar::Binary(op, a, b) => {
                let (a, b) = (a.emit(out, next), b.emit(out, next));
                format!("{name} = s32[] {op}({a}, {b})")
            }
            Scalar::Negate(a) => {
                let a = a.emit(out, next);
                format!("{name} = s32[] negate({a})")
            }
            Scalar::Select {
                direction,
                a,
                b,
                x,
                y,
            } => {
                let (a, b, x, y) = (
                    a.emit(out, next),
                    b.emit(out, next),
                    x.emit(out, next),
                    y.emit(out, next),
                );
                let p = format!("{name}p");
                out.push_str(&format!(
                    "{p} = pred[] compare({a}, {b}), direction={direction}\n"
                ));
                format!("{name} = s32[] select({p}, {x}, {y})")
            }
            Scalar::Clamp(lo, x, hi) => {
                let (lo, x, hi) = (lo.emit(out, next), x.emit(out, next), hi.emit(out, next));
                format!("{name} = s32[] clamp({lo}, {x}, {hi})")
            }
        };
        out.push_str(&line);
        out.push('\n');
        name
    }
}

/// Random offsets made of constants, iota elements, arithmetic, selects, compares, maxima,
/// minima and clamps, read by a dynamic-slice: the folded map reads exactly the clamped
/// offset the reference computes, and where a variable stays, its map still covers it.
#[test]
fn random_known_offsets_fold_to_their_values() {
    let mut rng = SplitMix64::new(0x6b6e_6f77);
    let mut folded = 0;
    for case in 0..300 {
        let offset = Scalar::random(&mut rng, 3);
        let (n, size) = (rng.range(4, 40), rng.range(1, 4));
        let mut text = format!("p = f32[{n}] parameter(0)\n");
        let mut next = 0;
        let of = offset.emit(&mut text, &mut next);
        text += &format!(
            "ROOT ds = f32[{size}] dynamic-slice(p, {of}), dynamic_slice_sizes={{{size}}}"
        );
        let report = instruction_report(&text, "ds", OUT2IN);
        let set = maps_of(&report, 0, 0);
        let start = offset.value().clamp(0, n - size);
        let want: BTreeSet<(i64, i64)> = (0..size).map(|d| (d, d + start)).collect();
        let mut got = BTreeSet::new();
        for a in &set.accesses {
            for (d, s) in a.map.domain_points(1 << 16).unwrap() {
                got.insert((d[0], a.map.evaluate(&d, &s).unwrap()[0]));
            }
        }
        if set.accesses.iter().all(|a| a.runtime.is_empty()) {
            folded += 1;
            assert_eq!(got, want, "case {case}: offset {}\n{text}", offset.value());
        } else {
            assert!(got.is_superset(&want), "case {case}\n{text}");
        }
    }
    // Most offsets are decided by the ranges (a max or min of two values both known is).
    assert!(folded > 250, "only {folded} of 300 offsets folded");
}

/// XLA's iota gather: indices 0..41 into 33 rows; the gather clamps starts 33..41 to 32, so the
/// folded start is `min(d0, 32)` (XLA's own expectation drops the clamp).
#[test]
fn a_partly_clamped_iota_folds_to_its_clamp() {
    check(
        "p = f32[33,76] parameter(0)\nio = s64[42,1] iota(), iota_dimension=0\n\
         ROOT g = f32[42,1,1] gather(p, io), offset_dims={1,2}, collapsed_slice_dims={}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,1}",
        "g",
        0,
        &["(d0, d1, d2) -> (min(d0, 32), 0), domain: d0 in [0, 41], d1 in [0, 0], d2 in [0, 0]"],
    );
}

/// Gather rows at indices `op(a * i + b, ...)` of an iota `i`, where `op` is `maximum`,
/// `minimum` or `clamp` with constants: the folded map has no runtime variable and reads, at
/// every output element, the row the gather's clamp of that index gives.
#[test]
fn random_elementwise_clamps_of_iotas_fold_to_the_rows_read() {
    let mut rng = SplitMix64::new(0x636c_616d);
    for _ in 0..200 {
        let (rows, m) = (rng.range(1, 12), rng.range(1, 10));
        let (a, b) = (rng.range(-3, 3), rng.range(-8, 12));
        let (lo, hi) = (rng.range(-4, 8), rng.range(-2, 14));
        let op = *rng.pick(&["maximum", "minimum", "clamp"]);
        let index = |i: i64| -> i64 {
            let v = a * i + b;
            match op {
                "maximum" => v.max(lo),
                "minimum" => v.min(hi),
                _ => v.max(lo).min(hi),
            }
        };
        let combined = match op {
            "maximum" => "idx = s32[M,1] maximum(s, lb)".to_string(),
            "minimum" => "idx = s32[M,1] minimum(s, hb)".to_string(),
            _ => "idx = s32[M,1] clamp(lb, s, hb)".to_string(),
        };
        let snippet = format!(
            "p = f32[{rows},4] parameter(0)\nio = s32[M,1] iota(), iota_dimension=0\n\
             a = s32[] constant({a})\nab = s32[M,1] broadcast(a), dimensions={{}}\nm = s32[M,1] multiply(io, ab)\n\
             b = s32[] constant({b})\nbb = s32[M,1] broadcast(b), dimensions={{}}\ns = s32[M,1] add(m, bb)\n\
             l = s32[] constant({lo})\nlb = s32[M,1] broadcast(l), dimensions={{}}\n\
             h = s32[] constant({hi})\nhb = s32[M,1] broadcast(h), dimensions={{}}\n{combined}\n\
             ROOT g = f32[M,4] gather(p, idx), offset_dims={{1}}, collapsed_slice_dims={{0}}, start_index_map={{0}}, index_vector_dim=1, slice_sizes={{1,4}}"
        )
        .replace('M', &m.to_string());
        let report = instruction_report(&snippet, "g", OUT2IN);
        let set = maps_of(&report, 0, 0);
        let [access] = &set.accesses[..] else {
            panic!("{snippet}: {:?}", set.accesses)
        };
        assert!(access.runtime.is_empty(), "{snippet}: {}", access.map);
        let points = access.map.domain_points(1 << 12).expect("small domain");
        assert_eq!(points.len() as i64, m * 4, "{snippet}: {}", access.map);
        for (d, s) in points {
            let row = index(d[0]).clamp(0, rows - 1);
            assert_eq!(
                access.map.evaluate(&d, &s),
                Some(vec![row, d[1]]),
                "{snippet}: {} at {d:?}",
                access.map
            );
        }
    }
}
