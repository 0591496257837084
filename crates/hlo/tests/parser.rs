//! The HLO text parser: the grammar real dumps use, and errors with line and column.

use xla_indexing_hlo::attrs::{AttrValue, PadDim, SliceDim};
use xla_indexing_hlo::shape::Shape;
use xla_indexing_hlo::{HloError, Options, analyze_module, parse_module};

const GRAMMAR: &str = r#"
// RUN: print_indexing %s | FileCheck %s
HloModule m, is_scheduled=true, entry_computation_layout={(f32[10,20]{1,0})->f32[20,10]{0,1}}, frontend_attributes={a="b"}

FileNames
1 "a.py"

FunctionNames
1 "f"

FileLocations
1 {file_name_id=1 function_name_id=1 line=3 end_line=3 column=1 end_column=9}

StackFrames
1 {file_location_id=1 parent_frame_id=1}

/* a block
   comment */
%fused (p0: f32[10,20], p1: (f32[], s32[2])) -> (f32[20,10], f32[]) {
  %p0 = f32[10,20]{1,0:T(8,128)S(1)} parameter(0)
  %p1 = (f32[], s32[2]{0}) parameter(1)
  %t = f32[20,10]{0,1} transpose(f32[10,20]{1,0} %p0), dimensions={1,0}, metadata={op_name="jit(f)/transpose" source_file="a.py" source_line=3 stack_frame_id=1}
  %g = f32[] get-tuple-element(%p1), index=0 // trailing comment
  ROOT %r = (f32[20,10], f32[]) tuple(%t, %g)
}

ENTRY main.1 {
  x.1 = f32[10,20]{1,0} parameter(0)
  c0 = f32[] constant(-inf)
  c1 = s32[2]{0} constant({1, 2})
  c2 = f32[2,2] constant({ { 1.5, 2 }, { 3e-2, nan } })
  c3 = pred[] constant(true)
  tup = (f32[], s32[2]) tuple(c0, c1)
  f = (f32[20,10]{0,1}, f32[]) fusion(x.1, tup), kind=kLoop, calls=%fused, backend_config={"fusion_config":{"kind":"__ynn_fusion"},"outer_dimension_partitions":[]}
  s = f32[5,3]{1,0} slice(x.1), slice={[0:10:2], [1:4]}
  pd = f32[12,20] pad(x.1, c0), padding=1_1x0_0_0
  dl = f32[10,20] convert(x.1), sharding={replicated}
  ROOT out = f32[20,10]{0,1} get-tuple-element(f), index=0
}
"#;

#[test]
fn parses_the_grammar_of_real_dumps() {
    let m = parse_module(GRAMMAR).unwrap();
    assert_eq!(m.name, "m");
    assert_eq!(m.attrs.len(), 3);
    assert_eq!(m.debug_info.file_names, [(1, "a.py".to_string())]);
    assert_eq!(m.debug_info.stack_frames.len(), 1);
    assert_eq!(m.computations.len(), 2);
    let entry = &m.computations[m.entry];
    assert_eq!(entry.name, "main.1");
    assert!(entry.is_entry);
    assert_eq!(entry.instructions[entry.root].name, "out");
    let fused = &m.computations[0];
    let sig = fused.signature.as_ref().unwrap();
    assert_eq!(sig.params.len(), 2);
    assert!(matches!(&sig.result, Shape::Tuple(e) if e.len() == 2));
    let p0 = fused.instructions[0].array().unwrap();
    let layout = p0.layout.as_ref().unwrap();
    assert_eq!(layout.minor_to_major, [1, 0]);
    assert_eq!(layout.tiles, [vec![8, 128]]);
    assert_eq!(layout.memory_space, Some(1));
    assert_eq!(fused.instructions[1].shape.leaf_count(), 2);
    let t = &fused.instructions[2];
    assert_eq!(t.ints("dimensions"), Some(&[1, 0][..]));
    assert!(
        matches!(t.attr("metadata"), Some(AttrValue::Raw(r)) if r.contains("stack_frame_id=1"))
    );
    let by_name = |n: &str| entry.instructions.iter().find(|i| i.name == n).unwrap();
    assert_eq!(
        by_name("c2").literal.as_deref(),
        Some("{ { 1.5, 2 }, { 3e-2, nan } }")
    );
    let f = by_name("f");
    assert_eq!(f.called("calls"), ["fused"]);
    assert!(
        matches!(f.attr("backend_config"), Some(AttrValue::Json(j)) if j["fusion_config"]["kind"] == "__ynn_fusion")
    );
    assert!(matches!(f.attr("kind"), Some(AttrValue::Raw(k)) if k == "kLoop"));
    assert!(
        matches!(by_name("s").attr("slice"), Some(AttrValue::Slice(s))
        if s[..] == [SliceDim { start: 0, limit: 10, stride: 2 }, SliceDim { start: 1, limit: 4, stride: 1 }])
    );
    assert!(
        matches!(by_name("pd").attr("padding"), Some(AttrValue::Padding(p))
        if p[..] == [PadDim { low: 1, high: 1, interior: 0 }, PadDim { low: 0, high: 0, interior: 0 }])
    );
    // The module analyses: the fusion's tuple result has two outputs.
    let report = analyze_module(&m, &Options::default()).unwrap();
    assert_eq!(report.computations[0].outputs.len(), 2);
}

#[test]
fn parses_windows_and_dim_labels() {
    let text = "ENTRY e {
  x = f32[1,5,5,2] parameter(0)
  k = f32[3,3,2,4] parameter(1)
  ROOT c = f32[1,3,3,4] convolution(x, k), window={size=3x3 stride=2x2 pad=1_1x1_1 lhs_dilate=1x1 rhs_dilate=1x1}, dim_labels=b01f_01io->b01f
}";
    let m = parse_module(text).unwrap();
    let c = &m.computations[0].instructions[2];
    let Some(AttrValue::Window(w)) = c.attr("window") else {
        panic!()
    };
    assert_eq!(
        (w[1].size, w[1].stride, w[1].pad_low, w[1].pad_high),
        (3, 2, 1, 1)
    );
    let Some(AttrValue::DimLabels(d)) = c.attr("dim_labels") else {
        panic!()
    };
    assert_eq!(
        (d.input.batch, d.input.feature, d.input.spatial.clone()),
        (0, 3, vec![1, 2])
    );
    assert_eq!(
        (d.kernel.batch, d.kernel.feature, d.kernel.spatial.clone()),
        (2, 3, vec![0, 1])
    );
}

/// XLA's tests write a blank between a shape and its layout, and blanks inside the layout; a
/// computation's body brace after a result shape stays the body.
#[test]
fn a_layout_may_follow_its_shape_after_a_blank() {
    let text = "%f (p: f32[2,3]) -> f32[2,3] {
  %p = f32[2,3] {0, 1} parameter(0)
  ROOT %n = f32[2,3] negate(%p)
}

ENTRY e {
  x = f32[3, 6, 128, 12] {2, 1, 3, 0} parameter(0)
  y = f32[2,3]	{1,0} parameter(1)
  ROOT t = f32[2,3] fusion(y), kind=kLoop, calls=%f
}";
    let m = parse_module(text).unwrap();
    let layout = |c: usize, i: usize| {
        m.computations[c].instructions[i]
            .array()
            .unwrap()
            .layout
            .as_ref()
            .map(|l| l.minor_to_major.clone())
    };
    assert_eq!(layout(0, 0), Some(vec![0, 1]));
    assert_eq!(layout(0, 1), None);
    assert_eq!(layout(1, 0), Some(vec![2, 1, 3, 0]));
    assert_eq!(layout(1, 1), Some(vec![1, 0]));
}

/// Replica groups in XLA's iota form (`[groups,size]<=[devices]`, with an optional transpose)
/// are kept as written.
#[test]
fn iota_replica_groups_are_kept_as_written() {
    let m = parse_module(
        "ENTRY e {\n  x = f32[2] parameter(0)\n  ROOT ag = f32[8] all-gather(x), replica_groups=[2,4]<=[4,2]T(1,0), dimensions={0}\n}",
    )
    .unwrap();
    let ag = &m.computations[0].instructions[1];
    assert!(
        matches!(ag.attr("replica_groups"), Some(AttrValue::Raw(r)) if r == "[2,4]<=[4,2]T(1,0)")
    );
    assert_eq!(ag.ints("dimensions"), Some(&[0][..]));
}

/// As XLA's parser: a `tuple` or `get-tuple-element` written without its shape gets the one its
/// operands give (in any order of definition), and a broadcast of a scalar without
/// `dimensions=` repeats it everywhere.
#[test]
fn infers_what_xla_infers() {
    let m = parse_module(
        "ENTRY e {\n  ROOT r = tuple(b, g)\n  x = f32[] parameter(0)\n  y = s32[3]{0} parameter(1)\n  \
         t = tuple(x, y)\n  g = get-tuple-element(t), index=1\n  b = f32[4,2] broadcast(x)\n}",
    )
    .unwrap();
    let comp = &m.computations[m.entry];
    let shape = |name: &str| {
        let i = comp
            .instructions
            .iter()
            .position(|i| i.name == name)
            .unwrap();
        comp.instructions[i].shape.to_string()
    };
    assert_eq!(shape("t"), "(f32[], s32[3]{0})");
    assert_eq!(shape("g"), "s32[3]{0}");
    assert_eq!(shape("r"), "(f32[4,2], s32[3]{0})");
    let b = comp.instructions.iter().find(|i| i.name == "b").unwrap();
    assert_eq!(b.ints("dimensions"), Some(&[][..]));
    let options = Options {
        instruction: Some("b".into()),
        ..Options::default()
    };
    let report = analyze_module(&m, &options).unwrap().to_text();
    assert!(
        report.contains("(d0, d1) -> (), domain: d0 in [0, 3], d1 in [0, 1]"),
        "{report}"
    );
}

/// Parses and returns the error, which must be a parse error, with its location.
fn parse_error(text: &str) -> (usize, usize, String) {
    let e = parse_module(text).unwrap_err();
    assert!(matches!(e, HloError::Parse { .. }), "{text}: {e}");
    let (line, column) = e.location().unwrap();
    (line, column, e.message())
}

#[test]
fn malformed_modules_name_line_and_column() {
    let cases: &[(&str, usize, usize, &str)] = &[
        (
            "HloModule m\nENTRY e {\n  x = f32[2 parameter(0)\n}",
            3,
            13,
            "expected ','",
        ),
        (
            "ENTRY e {\n  x = f32[2] parameter(0)\n  y = f32[2] negate(z)\n}",
            3,
            21,
            "unknown operand 'z'",
        ),
        ("ENTRY e {\n  x = f32[2] parameter(0)\n", 3, 1, "not closed"),
        (
            "ENTRY e {\n  x = f32[2]{1,0} parameter(0)\n}",
            2,
            13,
            "not a permutation",
        ),
        (
            "ENTRY e {\n  x = f32[2] parameter(0), metadata={op_name=\"a\n}",
            2,
            46,
            "unterminated string",
        ),
        (
            "ENTRY e {\n  /* open\n  x = f32[2] parameter(0)\n}",
            2,
            3,
            "unterminated /*",
        ),
        (
            "ENTRY e {\n  x = f32[99999999999999999999] parameter(0)\n}",
            2,
            11,
            "does not fit",
        ),
        (
            "ENTRY e {\n  x = f32[2] parameter(0)\n  y = f32[2] map(x), to_apply=nowhere\n}",
            3,
            31,
            "unknown computation",
        ),
        (
            "ENTRY e {\n  x = f32[2] parameter(0)\n  x = f32[2] negate(x)\n}",
            3,
            3,
            "defined twice",
        ),
        (
            "ENTRY e {\n  a = f32[2] negate(b)\n  b = f32[2] negate(a)\n}",
            2,
            3,
            "depends on itself",
        ),
        (
            "ENTRY e {\n  x = f32[2] parameter(0)\n  y = f32[2] parameter(6)\n  ROOT a = f32[2] add(x, y)\n}",
            3,
            3,
            "parameter(6) in 'e', which has 2 parameters",
        ),
        (
            "ENTRY e {\n  x = f32[2] parameter(0)\n  y = f32[2] slice(x), slice={[0:2}\n}",
            3,
            35,
            "expected ']'",
        ),
        (
            "ENTRY e {\n  x = f32[2] parameter(0)\n  y = f32[2] pad(x, x), padding=1_\n}",
            3,
            35,
            "expected an integer",
        ),
        (
            "ENTRY e {\n  x = f32[2] parameter(0)\n  y = f32[3] negate(f32[3] x)\n}",
            3,
            28,
            "written as f32[3]",
        ),
        ("", 1, 1, "has none"),
        (
            "ENTRY e {\n  x = f32[2] parameter(0)\n  y = negate(x)\n}",
            3,
            3,
            "expected the shape of 'y': it is inferred only for tuple and get-tuple-element",
        ),
        (
            "ENTRY e {\n  x = f32[2] parameter(0)\n  t = tuple(x)\n  g = get-tuple-element(t), index=1\n}",
            4,
            3,
            "index=1 of 'g' is outside its operand's 1 elements",
        ),
        (
            "ENTRY e {\n  x = f32[2] parameter(0)\n  g = get-tuple-element(x), index=0\n}",
            3,
            3,
            "reads f32[2], which is not a tuple",
        ),
    ];
    for (text, line, column, message) in cases {
        let (l, c, m) = parse_error(text);
        assert!(m.contains(message), "{m:?} lacks {message:?}");
        assert_eq!((l, c), (*line, *column), "{m}");
    }
}

/// Analyses a module that parses and returns the error.
fn analysis_error(body: &str) -> HloError {
    let m = parse_module(&format!("ENTRY e {{\n{body}\n}}")).unwrap();
    analyze_module(&m, &Options::default()).unwrap_err()
}

#[test]
fn inconsistent_modules_are_analysis_errors_naming_the_instruction() {
    let cases: &[(&str, &str)] = &[
        (
            "x = f32[10] parameter(0)\nROOT s = f32[5] slice(x), slice={[6:11:1]}",
            "out of range",
        ),
        (
            "x = f32[2,3] parameter(0)\nROOT t = f32[3,2] transpose(x), dimensions={1,1}",
            "appears twice",
        ),
        (
            "x = f32[2,3] parameter(0)\nROOT t = f32[3,2] transpose(x), dimensions={0,1}",
            "has size",
        ),
        (
            "x = f32[2,3] parameter(0)\ny = f32[3,2] parameter(1)\nROOT a = f32[2,3] add(x, y)",
            "dimensions",
        ),
        (
            "x = f32[6] parameter(0)\nROOT r = f32[4] reshape(x)",
            "different numbers of elements",
        ),
        (
            "x = f32[4] parameter(0)\nROOT b = f32[4,2] broadcast(x), dimensions={0,1}",
            "dimensions has 2",
        ),
        (
            "x = f32[4] parameter(0)\nROOT b = f32[2,4] broadcast(x), dimensions={3}",
            "out of range",
        ),
        (
            "x = f32[4] parameter(0)\nv = f32[] parameter(1)\nROOT p = f32[7] pad(x, v), padding=1_1_1",
            "gives 9",
        ),
        (
            "x = f32[4] parameter(0)\ni = s32[] parameter(1)\nROOT d = f32[5] dynamic-slice(x, i), dynamic_slice_sizes={5}",
            "exceeds",
        ),
        (
            "a = f32[2,3] parameter(0)\nb = f32[4,5] parameter(1)\nROOT d = f32[2,5] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}",
            "contracting",
        ),
        (
            "x = f32[9223372036854775807,2] parameter(0)\nROOT r = f32[2,9223372036854775807] reshape(x)",
            "elements",
        ),
        (
            "x = f32[4611686018427387904] parameter(0)\nv = f32[] parameter(1)\nROOT p = f32[1] pad(x, v), padding=0_0_4611686018427387904",
            "overflows",
        ),
        (
            "x = f32[3] parameter(0)\nROOT ag = f32[7] all-gather(x), dimensions={0}",
            "not a multiple",
        ),
        (
            "x = f32[5,2,4] parameter(0)\nk = f32[2,2,2] parameter(1)\nROOT c = f32[1,2,3] convolution(x, k), window={size=2}, dim_labels=bf0_oi0->bf0, batch_group_count=2",
            "batch_group_count=2 does not divide",
        ),
        (
            "a = f32[4,8] parameter(0)\nb = f32[8,6] parameter(1)\nsa = f32[4,3] parameter(2)\nsb = f32[2,6] parameter(3)\nROOT d = f32[4,6] scaled-dot(a, b, sa, sb), lhs_contracting_dims={1}, rhs_contracting_dims={0}",
            "into blocks",
        ),
        (
            "o = f32[6,3] parameter(0)\ni = s32[4,1] parameter(1)\nu = f32[4,4] parameter(2)\nROOT s = f32[6,3] scatter(o, i, u), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1",
            "exceeds operand dimension",
        ),
    ];
    for (body, message) in cases {
        let e = analysis_error(body);
        let HloError::Analysis { instruction, .. } = &e else {
            panic!("{e}")
        };
        assert!(!instruction.is_empty());
        assert!(e.to_string().contains(message), "{e} lacks {message:?}");
    }
}

#[test]
fn huge_shapes_do_not_panic() {
    // Extreme sizes either analyse or fail cleanly; the analysis never panics or overflows.
    let bodies = [
        "x = f32[9223372036854775807] parameter(0)\nROOT n = f32[9223372036854775807] negate(x)",
        "x = f32[4611686018427387904,2] parameter(0)\nROOT r = f32[9223372036854775807] reverse(x), dimensions={0}",
        "x = f32[3037000499,3037000499] parameter(0)\nROOT r = f32[9223372030926249001] reshape(x)",
        "x = f32[9223372036854775807] parameter(0)\nROOT s = f32[2] slice(x), slice={[0:9223372036854775807:4611686018427387904]}",
    ];
    for body in bodies {
        let m = parse_module(&format!("ENTRY e {{\n{body}\n}}")).unwrap();
        let options = Options {
            utilization: true,
            ..Options::default()
        };
        if let Ok(report) = analyze_module(&m, &options) {
            let _ = report.to_json();
            let _ = report.to_text();
        }
    }
}
