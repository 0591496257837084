//! Every example of the indexing-analysis seed, in both translations (003 Russian with
//! `{rt}` runtime variables and commas; 000 Chinese in the legacy notation: runtime symbols in
//! `[...]` with `hlo:` lines, no commas), compared as maps.

mod common;

use common::{assert_maps, instruction_report, maps_of, parse};
use xla_indexing_hlo::{Direction, Options, analyze_module};

const OUT2IN: Direction = Direction::OutputToInput;
const IN2OUT: Direction = Direction::InputToOutput;

/// Checks output `output` to operand `operand` of instruction `instr` against every translation.
fn check(
    snippet: &str,
    instr: &str,
    dir: Direction,
    output: usize,
    operand: usize,
    expected: &[&str],
) {
    let report = instruction_report(snippet, instr, dir);
    for text in expected {
        assert_maps(maps_of(&report, output, operand), &[text]);
    }
}

const ELEMENTWISE: &str = "
p0 = f32[10, 20] parameter(0)
p1 = f32[10, 20] parameter(1)
add = f32[10, 20] add(p0, p1)";

#[test]
fn elementwise() {
    let ru = "(d0, d1) -> (d0, d1),\ndomain:\nd0 in [0, 9],\nd1 in [0, 19]";
    let zh = "(d0, d1) -> (d0, d1)\ndomain:\nd0 in [0, 9]\nd1 in [0, 19]";
    for operand in 0..2 {
        check(ELEMENTWISE, "add", OUT2IN, 0, operand, &[ru, zh]);
        // input_i -> output: the in2out report lists the operand as the output.
        check(ELEMENTWISE, "add", IN2OUT, operand, 0, &[ru, zh]);
    }
}

const BROADCAST: &str = "
p0 = f32[20] parameter(0)
bc0 = f32[10, 20, 30] broadcast(p0), dimensions={1}";

#[test]
fn broadcast() {
    check(
        BROADCAST,
        "bc0",
        OUT2IN,
        0,
        0,
        &[
            "(d0, d1, d2) -> (d1),\ndomain:\nd0 in [0, 9],\nd1 in [0, 19],\nd2 in [0, 29]",
            "(d0, d1, d2) -> (d1)\ndomain:\nd0 in [0, 9]\nd1 in [0, 19]\nd2 in [0, 29]",
        ],
    );
    check(
        BROADCAST,
        "bc0",
        IN2OUT,
        0,
        0,
        &[
            "(d0)[s0, s1] -> (s0, d0, s1),\ndomain:\nd0 in [0, 19],\ns0 in [0, 9],\ns1 in [0, 29]",
            "(d0)[s0, s1] -> (s0, d0, s1)\ndomain:\nd0 in [0, 19]\ns0 in [0, 9]\ns1 in [0, 29]",
        ],
    );
}

#[test]
fn constant_and_iota_have_no_operands() {
    let snippet = "c = f32[4] constant({1, 2, 3, 4})\ni = s32[4, 3] iota(), iota_dimension=1";
    for instr in ["c", "i"] {
        let r = instruction_report(snippet, instr, OUT2IN);
        assert!(r.computations[0].outputs[0].operands.is_empty());
    }
}

const DYNAMIC_SLICE: &str = "
src = s32[2,2,258] parameter(0)
of1 = s32[] parameter(1)
of2 = s32[] parameter(2)
of3 = s32[] parameter(3)
ds = s32[1,2,32] dynamic-slice(s32[2,2,258] src, s32[] of1, s32[] of2, s32[] of3), dynamic_slice_sizes={1, 2, 32}";

#[test]
fn dynamic_slice() {
    check(
        DYNAMIC_SLICE,
        "ds",
        OUT2IN,
        0,
        0,
        &[
            "(d0, d1, d2){rt0, rt1, rt2} -> (d0 + rt0, d1 + rt1, d2 + rt2),
domain:
d0 in [0, 0],
d1 in [0, 1],
d2 in [0, 31],
rt0 in [0, 1],
rt1 in [0, 0],
rt2 in [0, 226]",
            "(d0, d1, d2)[s0, s1, s2] -> (d0 + s0, d1 + s1, d2 + s2)
domain:
d0 in [0, 0]
d1 in [0, 1]
d2 in [0, 31]
s0 in [0, 1]
hlo: of1 = s32[] parameter(1)
(d0, d1, d2) -> ()
s1 in [0, 0]
hlo: of2 = s32[] parameter(2)
(d0, d1, d2) -> ()
s2 in [0, 226]
hlo: of3 = s32[] parameter(3)
(d0, d1, d2) -> ()",
        ],
    );
    let report = instruction_report(DYNAMIC_SLICE, "ds", OUT2IN);
    let access = &maps_of(&report, 0, 0).accesses[0];
    let names: Vec<&str> = access
        .runtime
        .iter()
        .map(|r| r.instruction.as_str())
        .collect();
    assert_eq!(names, ["of1", "of2", "of3"]);
    for rt in &access.runtime {
        assert_eq!(
            rt.map.to_string(),
            "(d0, d1, d2) -> (), domain: d0 in [0, 0], d1 in [0, 1], d2 in [0, 31]"
        );
    }
    for operand in 1..4 {
        check(
            DYNAMIC_SLICE,
            "ds",
            OUT2IN,
            0,
            operand,
            &[
                "(d0, d1, d2) -> (),\ndomain:\nd0 in [0, 0],\nd1 in [0, 1],\nd2 in [0, 31]",
                "(d0, d1, d2) -> ()\ndomain:\nd0 in [0, 0]\nd1 in [0, 1]\nd2 in [0, 31]",
            ],
        );
    }
}

const DYNAMIC_UPDATE_SLICE: &str = "
src = s32[20,30] parameter(0)
upd = s32[5,10] parameter(1)
of1 = s32[] parameter(2)
of2 = s32[] parameter(3)
dus = s32[20,30] dynamic-update-slice(
s32[20,30] src, s32[5,10] upd, s32[] of1, s32[] of2)";

#[test]
fn dynamic_update_slice() {
    check(
        DYNAMIC_UPDATE_SLICE,
        "dus",
        OUT2IN,
        0,
        0,
        &[
            "(d0, d1) -> (d0, d1),\ndomain:\nd0 in [0, 19],\nd1 in [0, 29]",
            "(d0, d1) -> (d0, d1)\ndomain:\nd0 in [0, 19]\nd1 in [0, 29]",
        ],
    );
    check(
        DYNAMIC_UPDATE_SLICE,
        "dus",
        OUT2IN,
        0,
        1,
        &[
            "(d0, d1){rt0, rt1} -> (d0 - rt0, d1 - rt1),
domain:
d0 in [0, 19],
d1 in [0, 29],
rt0 in [0, 15],
rt1 in [0, 20]",
            "(d0, d1)[s0, s1] -> (d0 - s0, d1 - s1)
domain:
d0 in [0, 19]
d1 in [0, 29]
s0 in [0, 15]
hlo: of1 = s32[] parameter(2)
(d0, d1) -> ()
s1 in [0, 20]
hlo: of2 = s32[] parameter(3)
(d0, d1) -> ()",
        ],
    );
    for operand in 2..4 {
        check(
            DYNAMIC_UPDATE_SLICE,
            "dus",
            OUT2IN,
            0,
            operand,
            &[
                "(d0, d1) -> (),\ndomain:\nd0 in [0, 19],\nd1 in [0, 29]",
                "(d0, d1) -> ()\ndomain:\nd0 in [0, 19]\nd1 in [0, 29]",
            ],
        );
    }
}

const GATHER: &str = "
operand = f32[33,76,70] parameter(0)
indices = s32[1806,2] parameter(1)
gather = f32[1806,7,8,4] gather(operand, indices),
offset_dims={1,2,3},
collapsed_slice_dims={},
start_index_map={0,1},
index_vector_dim=1,
slice_sizes={7,8,4}";

#[test]
fn gather() {
    check(
        GATHER,
        "gather",
        OUT2IN,
        0,
        0,
        &[
            "(d0, d1, d2, d3){rt0, rt1} -> (d1 + rt0, d2 + rt1, d3),
domain:
d0 in [0, 1805],
d1 in [0, 6],
d2 in [0, 7],
d3 in [0, 3],
rt0 in [0, 26],
rt1 in [0, 68]",
            "(d0, d1, d2, d3)[s0, s1] -> (d1 + s0, d2 + s1, d3)
domain:
d0 in [0, 1805]
d1 in [0, 6]
d2 in [0, 7]
d3 in [0, 3]
s0 in [0, 26]
hlo: indices = s32[1806,2]{1,0} parameter(1)
(d0, d1, d2, d3) -> (d0, 0)
s1 in [0, 68]
hlo: indices = s32[1806,2]{1,0} parameter(1)
(d0, d1, d2, d3) -> (d0, 1)",
        ],
    );
    let report = instruction_report(GATHER, "gather", OUT2IN);
    let access = &maps_of(&report, 0, 0).accesses[0];
    let dims = "domain: d0 in [0, 1805], d1 in [0, 6], d2 in [0, 7], d3 in [0, 3]";
    for (k, rt) in access.runtime.iter().enumerate() {
        assert_eq!(rt.instruction, "indices");
        assert_eq!(
            rt.map.to_string(),
            format!("(d0, d1, d2, d3) -> (d0, {k}), {dims}")
        );
    }
    check(
        GATHER,
        "gather",
        OUT2IN,
        0,
        1,
        &[
            "(d0, d1, d2, d3)[s0] -> (d0, s0),\ndomain:\nd0 in [0, 1805],\nd1 in [0, 6],\nd2 in [0, 7],\nd3 in [0, 3],\ns0 in [0, 1]",
            "(d0, d1, d2, d3)[s0] -> (d0, s0)\ndomain:\nd0 in [0, 1805]\nd1 in [0, 6]\nd2 in [0, 7]\nd3 in [0, 3]\ns0 in [0, 1]",
        ],
    );
}

const TRANSPOSE: &str = "
p0 = f32[3, 12288, 6, 128] parameter(0)
transpose = f32[3, 6, 128, 12288] transpose(p0), dimensions={0, 2, 3, 1}";

#[test]
fn transpose() {
    // The Russian text ends the domain with a trailing comma.
    check(
        TRANSPOSE,
        "transpose",
        OUT2IN,
        0,
        0,
        &[
            "(d0, d1, d2, d3) -> (d0, d3, d1, d2),\ndomain:\nd0 in [0, 2],\nd1 in [0, 5],\nd2 in [0, 127],\nd3 in [0, 12287],",
            "(d0, d1, d2, d3) -> (d0, d3, d1, d2)\ndomain:\nd0 in [0, 2]\nd1 in [0, 5]\nd2 in [0, 127]\nd3 in [0, 12287]",
        ],
    );
    check(
        TRANSPOSE,
        "transpose",
        IN2OUT,
        0,
        0,
        &[
            "(d0, d1, d2, d3) -> (d0, d2, d3, d1),\ndomain:\nd0 in [0, 2],\nd1 in [0, 12287],\nd2 in [0, 5],\nd3 in [0, 127]",
            "(d0, d1, d2, d3) -> (d0, d2, d3, d1)\ndomain:\nd0 in [0, 2]\nd1 in [0, 12287]\nd2 in [0, 5]\nd3 in [0, 127]",
        ],
    );
}

const REVERSE: &str = "
p0 = f32[1, 17, 9, 9] parameter(0)
reverse = f32[1, 17, 9, 9] reverse(p0), dimensions={1, 2}";

#[test]
fn reverse() {
    let ru = "(d0, d1, d2, d3) -> (d0, -d1 + 16, -d2 + 8, d3),\ndomain:\nd0 in [0, 0],\nd1 in [0, 16],\nd2 in [0, 8],\nd3 in [0, 8]";
    let zh = "(d0, d1, d2, d3) -> (d0, -d1 + 16, -d2 + 8, d3)\ndomain:\nd0 in [0, 0]\nd1 in [0, 16]\nd2 in [0, 8]\nd3 in [0, 8]";
    check(REVERSE, "reverse", OUT2IN, 0, 0, &[ru, zh]);
    check(REVERSE, "reverse", IN2OUT, 0, 0, &[ru, zh]);
}

const REDUCE: &str = "
p0 = f32[256,10] parameter(0)
p0_init = f32[] constant(-inf)
p1 = s32[256,10] parameter(1)
p1_init = s32[] constant(0)
reduce = (f32[10], s32[10]) reduce(p0, p1, p0_init, p1_init),
dimensions={0}, to_apply=argmax";

#[test]
fn variadic_reduce() {
    for output in 0..2 {
        for input in 0..2 {
            check(
                REDUCE,
                "reduce",
                OUT2IN,
                output,
                input,
                &[
                    "(d0)[s0] -> (s0, d0),\ndomain:\nd0 in [0, 9],\ns0 in [0, 255]",
                    "(d0)[s0] -> (s0, d0)\ndomain:\nd0 in [0, 9]\ns0 in [0, 255]",
                ],
            );
            check(
                REDUCE,
                "reduce",
                OUT2IN,
                output,
                input + 2,
                &[
                    "(d0) -> (),\ndomain:\nd0 in [0, 9]",
                    "(d0) -> ()\ndomain:\nd0 in [0, 9]",
                ],
            );
            check(
                REDUCE,
                "reduce",
                IN2OUT,
                input,
                output,
                &[
                    "(d0, d1) -> (d1),\ndomain:\nd0 in [0, 255],\nd1 in [0, 9]",
                    "(d0, d1) -> (d1)\ndomain:\nd0 in [0, 255]\nd1 in [0, 9]",
                ],
            );
            check(
                REDUCE,
                "reduce",
                IN2OUT,
                input + 2,
                output,
                &[
                    "()[s0] -> (s0),\ndomain:\ns0 in [0, 9]",
                    "()[s0] -> (s0)\ndomain:\ns0 in [0, 9]",
                ],
            );
        }
    }
}

const SLICE: &str = "
p0 = f32[10, 20, 50] parameter(0)
slice = f32[5, 3, 25] slice(f32[10, 20, 50] p0),
slice={[5:10:1], [3:20:7], [0:50:2]}";

#[test]
fn strided_slice() {
    check(
        SLICE,
        "slice",
        OUT2IN,
        0,
        0,
        &[
            "(d0, d1, d2) -> (d0 + 5, d1 * 7 + 3, d2 * 2),\ndomain:\nd0 in [0, 4],\nd1 in [0, 2],\nd2 in [0, 24]",
            "(d0, d1, d2) -> (d0 + 5, d1 * 7 + 3, d2 * 2)\ndomain:\nd0 in [0, 4]\nd1 in [0, 2]\nd2 in [0, 24]",
        ],
    );
    check(
        SLICE,
        "slice",
        IN2OUT,
        0,
        0,
        &[
            "(d0, d1, d2) -> (d0 - 5, (d1 - 3) floordiv 7, d2 floordiv 2),
domain:
d0 in [5, 9],
d1 in [3, 17],
d2 in [0, 48],
(d1 - 3) mod 7 in [0, 0],
d2 mod 2 in [0, 0]",
            "(d0, d1, d2) -> (d0 - 5, (d1 - 3) floordiv 7, d2 floordiv 2)
domain:
d0 in [5, 9]
d1 in [3, 17]
d2 in [0, 48]
(d1 - 3) mod 7 in [0, 0]
d2 mod 2 in [0, 0]",
        ],
    );
}

/// `(snippet, out2in, in2out)` for the four reshape examples, Russian text (the Chinese one
/// differs only in commas, checked too).
const RESHAPES: &[(&str, &str, &str)] = &[
    (
        "p0 = f32[4,8] parameter(0)\nreshape = f32[32] reshape(p0)",
        "(d0) -> (d0 floordiv 8, d0 mod 8),\ndomain:\nd0 in [0, 31]",
        "(d0, d1) -> (d0 * 8 + d1),\ndomain:\nd0 in [0, 3],\nd1 in [0, 7]",
    ),
    (
        "p0 = f32[32] parameter(0)\nreshape = f32[4, 8] reshape(p0)",
        "(d0, d1) -> (d0 * 8 + d1),\ndomain:\nd0 in [0, 3],\nd1 in [0, 7]",
        "(d0) -> (d0 floordiv 8, d0 mod 8),\ndomain:\nd0 in [0, 31]",
    ),
    (
        "p0 = f32[4,8] parameter(0)\nreshape = f32[2, 4, 4] reshape(p0)",
        "(d0, d1, d2) -> (d0 * 2 + d1 floordiv 2, d2 + (d1 mod 2) * 4),\ndomain:\nd0 in [0, 1],\nd1 in [0, 3],\nd2 in [0, 3]",
        "(d0, d1) -> (d0 floordiv 2, d1 floordiv 4 + (d0 mod 2) * 2, d1 mod 4),\ndomain:\nd0 in [0, 3],\nd1 in [0, 7]",
    ),
    (
        // The Russian text drops the comma after `d1 in [0, 2]`.
        "p0 = f32[4, 8, 12] parameter(0)\nreshape = f32[32, 3, 4] reshape(p0)",
        "(d0, d1, d2) -> (d0 floordiv 8, d0 mod 8, d1 * 4 + d2),\ndomain:\nd0 in [0, 31],\nd1 in [0, 2]\nd2 in [0, 3]",
        "(d0, d1, d2) -> (d0 * 8 + d1, d2 floordiv 4, d2 mod 4),\ndomain:\nd0 in [0, 3],\nd1 in [0, 7],\nd2 in [0, 11]",
    ),
];

#[test]
fn reshapes() {
    for (snippet, out2in, in2out) in RESHAPES {
        let zh = |t: &str| t.replace(",\n", "\n");
        check(snippet, "reshape", OUT2IN, 0, 0, &[out2in, &zh(out2in)]);
        check(snippet, "reshape", IN2OUT, 0, 0, &[in2out, &zh(in2out)]);
    }
}

const CONCAT: &str = "
p0 = f32[2, 5, 7] parameter(0)
p1 = f32[2, 11, 7] parameter(1)
p2 = f32[2, 17, 7] parameter(2)
ROOT concat = f32[2, 33, 7] concatenate(f32[2, 5, 7] p0, f32[2, 11, 7] p1, f32[2, 17, 7] p2), dimensions={1}";

#[test]
fn concatenate() {
    let out2in = [
        "(d0, d1, d2) -> (d0, d1, d2),\ndomain:\nd0 in [0, 1],\nd1 in [0, 4],\nd2 in [0, 6]",
        "(d0, d1, d2) -> (d0, d1 - 5, d2),\ndomain:\nd0 in [0, 1],\nd1 in [5, 15],\nd2 in [0, 6]",
        "(d0, d1, d2) -> (d0, d1 - 16, d2),\ndomain:\nd0 in [0, 1],\nd1 in [16, 32],\nd2 in [0, 6]",
    ];
    let in2out = [
        "(d0, d1, d2) -> (d0, d1, d2),\ndomain:\nd0 in [0, 1],\nd1 in [0, 4],\nd2 in [0, 6]",
        "(d0, d1, d2) -> (d0, d1 + 5, d2),\ndomain:\nd0 in [0, 1],\nd1 in [0, 10],\nd2 in [0, 6]",
        "(d0, d1, d2) -> (d0, d1 + 16, d2),\ndomain:\nd0 in [0, 1],\nd1 in [0, 16],\nd2 in [0, 6]",
    ];
    for j in 0..3 {
        check(
            CONCAT,
            "concat",
            OUT2IN,
            0,
            j,
            &[out2in[j], &out2in[j].replace(",\n", "\n")],
        );
        check(
            CONCAT,
            "concat",
            IN2OUT,
            j,
            0,
            &[in2out[j], &in2out[j].replace(",\n", "\n")],
        );
    }
}

const DOT: &str = "
p0 = f32[4, 128, 256] parameter(0)
p1 = f32[4, 256, 64] parameter(1)
dot = f32[4, 128, 64] dot(p0, p1),
lhs_batch_dims={0}, rhs_batch_dims={0},
lhs_contracting_dims={2}, rhs_contracting_dims={1}";

#[test]
fn dot() {
    let zh = |t: &str| t.replace(",\n", "\n");
    let lhs = "(d0, d1, d2)[s0] -> (d0, d1, s0),\ndomain:\nd0 in [0, 3],\nd1 in [0, 127],\nd2 in [0, 63],\ns0 in [0, 255]";
    let rhs = "(d0, d1, d2)[s0] -> (d0, s0, d2),\ndomain:\nd0 in [0, 3],\nd1 in [0, 127],\nd2 in [0, 63],\ns0 in [0, 255]";
    check(DOT, "dot", OUT2IN, 0, 0, &[lhs, &zh(lhs)]);
    check(DOT, "dot", OUT2IN, 0, 1, &[rhs, &zh(rhs)]);
    let lhs_in = "(d0, d1, d2)[s0] -> (d0, d1, s0),\ndomain:\nd0 in [0, 3],\nd1 in [0, 127],\nd2 in [0, 255],\ns0 in [0, 63]";
    check(DOT, "dot", IN2OUT, 0, 0, &[lhs_in, &zh(lhs_in)]);
    // Both translations print `(d0, s0, d1)` for input_2 -> output, a slip: rhs dimension 1 is
    // the contracting one (size 256) and cannot index result dimension 2 (size 64). Result
    // dimension 2 is the rhs free dimension d2.
    let rhs_in = "(d0, d1, d2)[s0] -> (d0, s0, d2),\ndomain:\nd0 in [0, 3],\nd1 in [0, 255],\nd2 in [0, 63],\ns0 in [0, 127]";
    check(DOT, "dot", IN2OUT, 1, 0, &[rhs_in, &zh(rhs_in)]);
}

const PAD: &str = "
p0 = f32[4, 4] parameter(0)
p1 = f32[] parameter(1)
pad = f32[12, 16] pad(p0, p1), padding=1_4_1x4_8_0";

#[test]
fn pad() {
    let input = "(d0, d1) -> ((d0 - 1) floordiv 2, d1 - 4),\ndomain:\nd0 in [1, 7],\nd1 in [4, 7],\n(d0 - 1) mod 2 in [0, 0]";
    let init = "(d0, d1) -> (),\ndomain:\nd0 in [0, 11],\nd1 in [0, 15]";
    check(
        PAD,
        "pad",
        OUT2IN,
        0,
        0,
        &[input, &input.replace(",\n", "\n")],
    );
    check(
        PAD,
        "pad",
        OUT2IN,
        0,
        1,
        &[init, &init.replace(",\n", "\n")],
    );
}

const REDUCE_WINDOW: &str = "
c_inf = f32[] constant(-inf)
p0 = f32[1024, 514] parameter(0)
reduce-window = f32[1024, 3] reduce-window(p0, c_inf),
window={size=1x512 pad=0_0x0_0}, to_apply=max";

#[test]
fn reduce_window() {
    let input =
        "(d0, d1)[s0] -> (d0, d1 + s0),\ndomain:\nd0 in [0, 1023],\nd1 in [0, 2],\ns0 in [0, 511]";
    let init = "(d0, d1) -> (),\ndomain:\nd0 in [0, 1023],\nd1 in [0, 2]";
    check(
        REDUCE_WINDOW,
        "reduce-window",
        OUT2IN,
        0,
        0,
        &[input, &input.replace(",\n", "\n")],
    );
    check(
        REDUCE_WINDOW,
        "reduce-window",
        OUT2IN,
        0,
        1,
        &[init, &init.replace(",\n", "\n")],
    );
}

/// Analyses fused computation `f` of a module whose entry calls it.
fn fusion_maps(computation: &str, params: &str, call: &str) -> xla_indexing_hlo::Report {
    let text = format!("HloModule m\n{computation}\nENTRY e {{\n{params}\n{call}\n}}\n");
    let m = parse(&text);
    analyze_module(&m, &Options::default()).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn fusion_one_input_two_maps() {
    let report = fusion_maps(
        "f {
  p0 = f32[1000, 1000] parameter(0)
  transpose_p0 = f32[1000, 1000]{0, 1} transpose(p0), dimensions={1, 0}
  ROOT a0 = f32[1000, 1000] add(p0, transpose_p0)
}",
        "x = f32[1000, 1000] parameter(0)",
        "ROOT r = f32[1000, 1000] fusion(x), kind=kLoop, calls=f",
    );
    assert_eq!(report.computations[0].name, "f");
    let domain = "domain: d0 in [0, 999], d1 in [0, 999]";
    assert_maps(
        maps_of(&report, 0, 0),
        &[
            &format!("(d0, d1) -> (d0, d1), {domain}"),
            &format!("(d0, d1) -> (d1, d0), {domain}"),
        ],
    );
}

#[test]
fn fusion_deduplicated_map() {
    let report = fusion_maps(
        "f {
  p0 = f32[20, 10, 50] parameter(0)
  lhs_transpose_1 = f32[10, 20, 50] transpose(p0), dimensions={1, 0, 2}
  lhs_e = f32[10, 20, 50] exponential(lhs_transpose_1)
  lhs_transpose_2 = f32[10, 50, 20] transpose(lhs_e), dimensions={0, 2, 1}
  rhs_transpose_1 = f32[50, 10, 20] transpose(p0), dimensions={2, 1, 0}
  rhs_log = f32[50, 10, 20] exponential(rhs_transpose_1)
  rhs_transpose_2 = f32[10, 50, 20] transpose(rhs_log), dimensions={1, 0, 2}
  ROOT add = f32[10, 50, 20] add(lhs_transpose_2, rhs_transpose_2)
}",
        "x = f32[20, 10, 50] parameter(0)",
        "ROOT r = f32[10, 50, 20] fusion(x), kind=kLoop, calls=f",
    );
    assert_maps(
        maps_of(&report, 0, 0),
        &["(d0, d1, d2) -> (d2, d0, d1), domain: d0 in [0, 9], d1 in [0, 49], d2 in [0, 19]"],
    );
}

/// Softmax over the minor dimension of f32[2,65,125]: max, subtract, exp, sum, divide.
pub const SOFTMAX: &str = "
max {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] maximum(a, b)
}
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
softmax {
  p0 = f32[2,65,125]{2,1,0} parameter(0)
  ninf = f32[] constant(-inf)
  rmax = f32[2,65]{1,0} reduce(p0, ninf), dimensions={2}, to_apply=max
  bmax = f32[2,65,125]{2,1,0} broadcast(rmax), dimensions={0,1}
  shifted = f32[2,65,125]{2,1,0} subtract(p0, bmax)
  e = f32[2,65,125]{2,1,0} exponential(shifted)
  zero = f32[] constant(0)
  rsum = f32[2,65]{1,0} reduce(e, zero), dimensions={2}, to_apply=add
  bsum = f32[2,65,125]{2,1,0} broadcast(rsum), dimensions={0,1}
  ROOT out = f32[2,65,125]{2,1,0} divide(e, bsum)
}";

#[test]
fn softmax() {
    let report = fusion_maps(
        SOFTMAX,
        "x = f32[2,65,125] parameter(0)",
        "ROOT r = f32[2,65,125] fusion(x), kind=kLoop, calls=softmax",
    );
    let zh = [
        "(d0, d1, d2)[s0] -> (d0, d1, s0)\ndomain:\nd0 in [0, 1]\nd1 in [0, 64]\nd2 in [0, 124]\ns0 in [0, 124]",
        "(d0, d1, d2) -> (d0, d1, d2)\ndomain:\nd0 in [0, 1]\nd1 in [0, 64]\nd2 in [0, 124]",
    ];
    let ru = zh.map(|t| {
        t.replace('\n', ",\n")
            .replace(":,", ":")
            .replace("),\ndomain", ")\ndomain")
    });
    assert_maps(maps_of(&report, 0, 0), &zh);
    assert_maps(maps_of(&report, 0, 0), &[&ru[0], &ru[1]]);
}

#[test]
fn reshapes_that_cancel() {
    let report = fusion_maps(
        "f {
  p0 = f32[10, 10, 10] parameter(0)
  reshape1 = f32[50, 20] reshape(p0)
  ROOT reshape2 = f32[10, 10, 10] reshape(reshape1)
}",
        "x = f32[10, 10, 10] parameter(0)",
        "ROOT r = f32[10, 10, 10] fusion(x), kind=kLoop, calls=f",
    );
    assert_maps(
        maps_of(&report, 0, 0),
        &["(d0, d1, d2) -> (d0, d1, d2), domain: d0 in [0, 9], d1 in [0, 9], d2 in [0, 9]"],
    );
}

#[test]
fn intro_broadcast_example() {
    // The introduction's (i, j, k) -> (j) is the broadcast map with dims i, j, k.
    let report = instruction_report(BROADCAST, "bc0", OUT2IN);
    let expected = "(i, j, k) -> (j), domain: i in [0, 9], j in [0, 19], k in [0, 29]";
    assert_maps(maps_of(&report, 0, 0), &[expected]);
}
