//! Checks that two versions of a kernel compute their indices alike, by running both on the
//! same inputs in the interpreter (`interp`) and comparing what they write.
//!
//! The kernels run for every point of their domain (their loops run in full, the tiled
//! emitter's tile id over its whole range), so comparing what each side writes compares the
//! index computations over the whole domain: for every output element, whether it is written,
//! and the input elements (or the integer) it gets. A kernel that reads integers runs once per
//! rotation of the integers its inputs hold, so that every input integer takes every value and
//! the clamps of gathers and dynamic slices are exercised.
//!
//! Its limits: a float is never computed, so what a float comparison chooses (argmax's index)
//! or a conversion of a float gives is data, whatever integer it is; input integers are a fixed
//! set, so a bound off by one at a value no input takes goes unnoticed.
//!
//! What the interpreter cannot run gives [`Check::Unchecked`] with the reason, never a
//! verdict: control flow that depends on a float, several workgroups, an op it does not know
//! that touches addresses or control.

use std::fmt;

use crate::{
    interp::{self, INTEGERS, RunError, Value, Writes},
    ir,
};

/// What comparing two kernels found.
#[derive(Debug, PartialEq, Eq)]
pub enum Check {
    /// Both write the same elements with the same values.
    Same { elements: usize },
    /// They differ; how.
    Differs(String),
    /// The interpreter could not run one of them; why.
    Unchecked(String),
}

impl fmt::Display for Check {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Check::Same { elements } => write!(f, "same ({elements} elements)"),
            Check::Differs(why) => write!(f, "DIFFERS: {why}"),
            Check::Unchecked(why) => write!(f, "unchecked: {why}"),
        }
    }
}

/// Runs XLA's last stage `xla` (buffers as `!llvm.ptr`) and ours `ours` (buffers as tensors)
/// and compares what they write. `emitted` is the kernel as the emitter wrote it: the
/// `xla.slice_index` of its entry's arguments say which buffers alias (an in-place kernel reads
/// and writes one slice through two arguments), for a side whose arguments do not say it.
pub fn compare(xla: &str, ours: &str, emitted: &str) -> Check {
    if several_workgroups(emitted) {
        return Check::Unchecked("the kernel runs on several workgroups".into());
    }
    let slices = ir::parse(emitted)
        .ok()
        .and_then(|m| interp::entry(&m).ok().map(|f| f.slices.clone()))
        .unwrap_or_default();
    let (xla, ours) = match (ir::parse(xla), ir::parse(ours)) {
        (Ok(xla), Ok(ours)) => (xla, ours),
        (Err(e), _) => return Check::Unchecked(format!("reading XLA's: {e}")),
        (_, Err(e)) => return Check::Unchecked(format!("reading ours: {e}")),
    };
    let mut elements = 0;
    // Every input integer takes every value of INTEGERS in one of the rotations; a kernel
    // that reads none runs once.
    for rotation in 0..INTEGERS.len() {
        let (xla_run, ours_run) = (
            interp::run(&xla, &slices, rotation).map_err(|e| e.within("XLA's")),
            interp::run(&ours, &slices, rotation).map_err(|e| e.within("ours")),
        );
        let (xla_run, ours_run) = match (xla_run, ours_run) {
            (Ok(x), Ok(o)) => (x, o),
            (Err(e), _) => return Check::Unchecked(e.to_string()),
            (_, Err(e)) if matches!(e.root(), RunError::OutOfBounds { .. }) => {
                return Check::Differs(e.to_string());
            }
            (_, Err(e)) => return Check::Unchecked(e.to_string()),
        };
        if let Some(difference) = difference(&xla_run.writes, &ours_run.writes) {
            return Check::Differs(if rotation == 0 {
                difference
            } else {
                format!("{difference} (integer inputs rotated by {rotation})")
            });
        }
        elements = xla_run.writes.len();
        if !xla_run.read_integers && !ours_run.read_integers {
            break;
        }
    }
    if elements == 0 {
        // Neither side writes an element: nothing was compared.
        return Check::Unchecked("neither side writes an element".into());
    }
    Check::Same { elements }
}

/// The first difference between what XLA's side and ours write, if any.
fn difference(xla: &Writes, ours: &Writes) -> Option<String> {
    for (loc, value) in xla {
        match ours.get(loc) {
            None => return Some(format!("ours does not write {loc:?}")),
            Some(v) if v != value => {
                return Some(format!(
                    "at {loc:?}: XLA writes {}, ours {}",
                    show(value),
                    show(v)
                ));
            }
            Some(_) => {}
        }
    }
    ours.keys()
        .find(|loc| !xla.contains_key(loc))
        .map(|loc| format!("XLA does not write {loc:?}, ours does"))
}

/// Whether the emitted kernel has a workgroup id that can be other than 0: the interpreter runs
/// workgroup 0 only.
fn several_workgroups(emitted: &str) -> bool {
    emitted
        .lines()
        .filter(|line| line.contains("xla.workgroup_id"))
        .any(|line| {
            let upper = line
                .split("xla.range = [")
                .nth(1)
                .and_then(|r| r.split(',').nth(1))
                .and_then(|u| u.trim().split(' ').next())
                .and_then(|u| u.parse::<i64>().ok());
            upper != Some(0)
        })
}

/// A short description of a written value.
fn show(value: &Value) -> String {
    match value {
        Value::Int(v) => v.to_string(),
        Value::Data(deps) if deps.len() <= 4 => format!("data of {deps:?}"),
        Value::Data(deps) => format!("data of {} elements from {:?}", deps.len(), deps[0]),
        other => format!("{other:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// XLA's last stage of `pad(x: 5x7, 0, (1, 2, 1) x (0, 0, 0))`, as dumped (trimmed to the
    /// wrapped function).
    const XLA_PAD: &str = "module attributes {dlti.dl_spec = #dlti.dl_spec<index = 64 : i32>} {
  func.func private @wrapped_pad_wrapped(%arg0: !llvm.ptr {llvm.align = 64 : index}, %arg1: !llvm.ptr {llvm.align = 64 : index}, %arg2: !llvm.ptr {llvm.align = 64 : index}, %arg3: index, %arg4: index, %arg5: index) attributes {llvm.always_inline, xla.entry} {
    %c-7 = arith.constant -7 : index
    %c2 = arith.constant 2 : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c9 = arith.constant 9 : index
    %c12 = arith.constant 12 : index
    %c7 = arith.constant 7 : index
    cf.br ^bb1(%c0 : index)
  ^bb1(%0: index):  // 2 preds: ^bb0, ^bb9
    %1 = arith.cmpi slt, %0, %c12 : index
    cf.cond_br %1, ^bb2, ^bb10
  ^bb2:  // pred: ^bb1
    %2 = arith.addi %0, %c1 overflow<nsw> : index
    %3 = arith.remui %2, %c2 : index
    %4 = arith.cmpi eq, %3, %c0 : index
    %5 = arith.cmpi sge, %0, %c1 : index
    %6 = arith.cmpi sle, %0, %c9 : index
    %7 = arith.andi %5, %6 : i1
    %8 = arith.andi %4, %7 : i1
    %9 = arith.muli %0, %c7 overflow<nsw> : index
    cf.br ^bb3(%c0 : index)
  ^bb3(%10: index):  // 2 preds: ^bb2, ^bb8
    %11 = arith.cmpi slt, %10, %c7 : index
    cf.cond_br %11, ^bb4, ^bb9
  ^bb4:  // pred: ^bb3
    cf.cond_br %8, ^bb5, ^bb6
  ^bb5:  // pred: ^bb4
    %12 = arith.divui %2, %c2 : index
    %13 = arith.muli %12, %c7 overflow<nsw> : index
    %14 = arith.addi %13, %10 overflow<nsw> : index
    %15 = arith.addi %14, %c-7 overflow<nsw> : index
    %16 = arith.index_castui %15 : index to i64
    %17 = llvm.getelementptr inbounds %arg0[0, %16] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<35 x f32>
    %18 = llvm.load %17 invariant : !llvm.ptr -> f32
    cf.br ^bb7(%18 : f32)
  ^bb6:  // pred: ^bb4
    %19 = llvm.getelementptr inbounds %arg1[0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<1 x f32>
    %20 = llvm.load %19 invariant : !llvm.ptr -> f32
    cf.br ^bb7(%20 : f32)
  ^bb7(%21: f32):  // 2 preds: ^bb5, ^bb6
    cf.br ^bb8
  ^bb8:  // pred: ^bb7
    %22 = arith.addi %9, %10 overflow<nsw> : index
    %23 = arith.index_castui %22 : index to i64
    %24 = llvm.getelementptr inbounds %arg2[0, %23] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<84 x f32>
    llvm.store %21, %24 : f32, !llvm.ptr
    %25 = arith.addi %10, %c1 overflow<nsw> : index
    cf.br ^bb3(%25 : index)
  ^bb9:  // pred: ^bb3
    %26 = arith.addi %0, %c1 overflow<nsw> : index
    cf.br ^bb1(%26 : index) {loop_annotation = #loop_annotation}
  ^bb10:  // pred: ^bb1
    return
  }
}";

    /// The same pad as tensors and `scf`, one quotient shared: `DIVISOR` and `OFFSET` let a
    /// test break it.
    fn ours_pad(divisor: i64, offset: i64) -> String {
        format!(
            "module {{
  func.func @wrapped_pad(%arg0: tensor<5x7xf32>, %arg1: tensor<f32>, %arg2: tensor<12x7xf32>) -> tensor<12x7xf32> attributes {{xla.entry}} {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant {divisor} : index
    %c7 = arith.constant 7 : index
    %c9 = arith.constant 9 : index
    %c12 = arith.constant 12 : index
    %off = arith.constant {offset} : index
    %r = scf.for %i = %c0 to %c12 step %c1 iter_args(%t = %arg2) -> (tensor<12x7xf32>) {{
      %p = arith.addi %i, %c1 : index
      %q = arith.divui %p, %c2 : index
      %m = arith.muli %q, %c2 : index
      %even = arith.cmpi eq, %m, %p : index
      %lo = arith.cmpi sge, %i, %c1 : index
      %hi = arith.cmpi sle, %i, %c9 : index
      %in = arith.andi %lo, %hi : i1
      %both = arith.andi %in, %even : i1
      %r2 = scf.for %j = %c0 to %c7 step %c1 iter_args(%u = %t) -> (tensor<12x7xf32>) {{
        %v = scf.if %both -> (f32) {{
          %row = arith.subi %q, %off : index
          %x = tensor.extract %arg0[%row, %j] : tensor<5x7xf32>
          scf.yield %x : f32
        }} else {{
          %pad = tensor.extract %arg1[] : tensor<f32>
          scf.yield %pad : f32
        }}
        %w = tensor.insert %v into %u[%i, %j] : tensor<12x7xf32>
        scf.yield %w : tensor<12x7xf32>
      }}
      scf.yield %r2 : tensor<12x7xf32>
    }}
    return %r : tensor<12x7xf32>
  }}
}}"
        )
    }

    /// [`ours_pad`]`(2, 1)` with an `exp`, after `canonicalize, cse, convert-scf-to-cf` (as
    /// `mlir-opt` printed it): tensors through block arguments.
    const OURS_PAD_CF: &str = r#"module attributes {dlti.dl_spec = #dlti.dl_spec<index = 64 : i32>} {
  func.func @wrapped_pad(%arg0: tensor<5x7xf32>, %arg1: tensor<f32>, %arg2: tensor<12x7xf32>) -> tensor<12x7xf32> attributes {xla.entry} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c7 = arith.constant 7 : index
    %c9 = arith.constant 9 : index
    %c12 = arith.constant 12 : index
    cf.br ^bb1(%c0, %arg2 : index, tensor<12x7xf32>)
  ^bb1(%0: index, %1: tensor<12x7xf32>):  // 2 preds: ^bb0, ^bb9
    %2 = arith.cmpi slt, %0, %c12 : index
    cf.cond_br %2, ^bb2, ^bb10
  ^bb2:  // pred: ^bb1
    %3 = arith.addi %0, %c1 : index
    %4 = arith.divui %3, %c2 : index
    %5 = arith.muli %4, %c2 : index
    %6 = arith.cmpi eq, %5, %3 : index
    %7 = arith.cmpi sge, %0, %c1 : index
    %8 = arith.cmpi sle, %0, %c9 : index
    %9 = arith.andi %7, %8 : i1
    %10 = arith.andi %9, %6 : i1
    cf.br ^bb3(%c0, %1 : index, tensor<12x7xf32>)
  ^bb3(%11: index, %12: tensor<12x7xf32>):  // 2 preds: ^bb2, ^bb8
    %13 = arith.cmpi slt, %11, %c7 : index
    cf.cond_br %13, ^bb4, ^bb9
  ^bb4:  // pred: ^bb3
    cf.cond_br %10, ^bb5, ^bb6
  ^bb5:  // pred: ^bb4
    %14 = arith.subi %4, %c1 : index
    %extracted = tensor.extract %arg0[%14, %11] : tensor<5x7xf32>
    %15 = math.exp %extracted : f32
    cf.br ^bb7(%15 : f32)
  ^bb6:  // pred: ^bb4
    %extracted_0 = tensor.extract %arg1[] : tensor<f32>
    cf.br ^bb7(%extracted_0 : f32)
  ^bb7(%16: f32):  // 2 preds: ^bb5, ^bb6
    cf.br ^bb8
  ^bb8:  // pred: ^bb7
    %inserted = tensor.insert %16 into %12[%0, %11] : tensor<12x7xf32>
    %17 = arith.addi %11, %c1 : index
    cf.br ^bb3(%17, %inserted : index, tensor<12x7xf32>)
  ^bb9:  // pred: ^bb3
    %18 = arith.addi %0, %c1 : index
    cf.br ^bb1(%18, %12 : index, tensor<12x7xf32>)
  ^bb10:  // pred: ^bb1
    return %1 : tensor<12x7xf32>
  }
}"#;

    /// XLA's workgroup loop, as the emitter writes it around the pad.
    #[test]
    fn a_forall_over_one_workgroup() {
        let forall = OURS_PAD_CF
            .replace(
                "    cf.br ^bb1(%c0, %arg2 : index, tensor<12x7xf32>)",
                "    %f = scf.forall (%w0, %w1) in (1, 1) shared_outs(%o = %arg2) -> (tensor<12x7xf32>) {\n      %r = func.call @body(%arg0, %arg1, %o) : (tensor<5x7xf32>, tensor<f32>, tensor<12x7xf32>) -> tensor<12x7xf32>\n      scf.forall.in_parallel {\n        tensor.parallel_insert_slice %r into %o[0, 0] [12, 7] [1, 1] : tensor<12x7xf32> into tensor<12x7xf32>\n      }\n    }\n    return %f : tensor<12x7xf32>\n  }\n  func.func private @body(%arg0: tensor<5x7xf32>, %arg1: tensor<f32>, %arg2: tensor<12x7xf32>) -> tensor<12x7xf32> {\n    %c0 = arith.constant 0 : index\n    %c1 = arith.constant 1 : index\n    %c2 = arith.constant 2 : index\n    %c7 = arith.constant 7 : index\n    %c9 = arith.constant 9 : index\n    %c12 = arith.constant 12 : index\n    cf.br ^bb1(%c0, %arg2 : index, tensor<12x7xf32>)",
            );
        assert_eq!(compare(XLA_PAD, &forall, ""), Check::Same { elements: 84 });
        let part = forall.replace("[12, 7] [1, 1]", "[6, 7] [1, 1]");
        assert!(
            matches!(compare(XLA_PAD, &part, ""), Check::Unchecked(ref why) if why.contains("part of a tensor"))
        );
    }

    #[test]
    fn tensors_through_block_arguments() {
        assert_eq!(
            compare(XLA_PAD, OURS_PAD_CF, ""),
            Check::Same { elements: 84 }
        );
    }

    #[test]
    fn the_same_pad_written_two_ways_is_the_same() {
        assert_eq!(
            compare(XLA_PAD, &ours_pad(2, 1), ""),
            Check::Same { elements: 84 }
        );
    }

    #[test]
    fn a_wrong_index_is_found() {
        // Rows read one too low: the first padded row would read row -1.
        let check = compare(XLA_PAD, &ours_pad(2, 2), "");
        assert!(
            matches!(check, Check::Differs(ref why) if why.contains("out of [0, 5)")),
            "{check}"
        );
        // Dividing by 3: other rows, other elements.
        let check = compare(XLA_PAD, &ours_pad(3, 1), "");
        assert!(matches!(check, Check::Differs(_)), "{check}");
    }

    /// An in-place kernel: XLA has merged its two arguments of slice 0 into one pointer.
    #[test]
    fn aliased_arguments_are_one_buffer() {
        let xla = "module {
  func.func @f_wrapped(%arg0: !llvm.ptr, %arg1: index) attributes {xla.entry} {
    %c1 = arith.constant 1 : i64
    %0 = llvm.getelementptr inbounds %arg0[0, %c1] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<2 x f32>
    %1 = llvm.load %0 : !llvm.ptr -> f32
    %2 = arith.mulf %1, %1 : f32
    llvm.store %2, %0 : f32, !llvm.ptr
    return
  }
}";
        let ours = |slice: i64| {
            format!(
                "module {{
  func.func @f(%arg0: tensor<2xf32> {{xla.slice_index = 0 : index}}, %arg1: tensor<2xf32> {{xla.slice_index = {slice} : index}}) -> tensor<2xf32> attributes {{xla.entry}} {{
    %c1 = arith.constant 1 : index
    %0 = tensor.extract %arg0[%c1] : tensor<2xf32>
    %1 = arith.mulf %0, %0 : f32
    %2 = tensor.insert %1 into %arg1[%c1] : tensor<2xf32>
    return %2 : tensor<2xf32>
  }}
}}"
            )
        };
        let emitted = ours(0);
        assert_eq!(
            compare(xla, &ours(0), &emitted),
            Check::Same { elements: 1 }
        );
        // Were the output another slice, ours would write elsewhere.
        assert!(matches!(
            compare(xla, &ours(1), &emitted),
            Check::Differs(_)
        ));
    }

    #[test]
    fn an_old_version_of_a_tensor_is_not_run() {
        let ours = "module {
  func.func @f(%arg0: tensor<2xf32>) -> tensor<2xf32> attributes {xla.entry} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cst = arith.constant 1.0 : f32
    %0 = tensor.insert %cst into %arg0[%c0] : tensor<2xf32>
    %1 = tensor.insert %cst into %arg0[%c1] : tensor<2xf32>
    return %1 : tensor<2xf32>
  }
}";
        let check = compare(ours, ours, "");
        assert!(
            matches!(check, Check::Unchecked(ref why) if why.contains("later insert")),
            "{check}"
        );
    }

    #[test]
    fn several_workgroups_are_not_run() {
        let one = "    %0 = xla.workgroup_id x {xla.range = [0 : index, 0 : index]}";
        let two = "    %0 = xla.workgroup_id x {xla.range = [0 : index, 1 : index]}";
        assert!(!several_workgroups(one));
        assert!(several_workgroups(&format!("{one}\n{two}")));
        assert!(matches!(
            compare(XLA_PAD, &ours_pad(2, 1), two),
            Check::Unchecked(_)
        ));
    }

    /// A kernel that reads its data at 2 unless an integer input is 0 (then at 1), and one that
    /// always reads at 2: they differ only where that input is 0.
    #[test]
    fn integer_inputs_take_every_value() {
        let kernel = |zero_at: i64| {
            format!(
                "module {{
  func.func @f(%arg0: tensor<4xf32>, %arg1: tensor<1xi32>, %arg2: tensor<1xf32>) -> tensor<1xf32> attributes {{xla.entry}} {{
    %c0 = arith.constant 0 : index
    %c0_i32 = arith.constant 0 : i32
    %zero = arith.constant {zero_at} : index
    %c2 = arith.constant 2 : index
    %i = tensor.extract %arg1[%c0] : tensor<1xi32>
    %is0 = arith.cmpi eq, %i, %c0_i32 : i32
    %at = arith.select %is0, %zero, %c2 : index
    %x = tensor.extract %arg0[%at] : tensor<4xf32>
    %r = tensor.insert %x into %arg2[%c0] : tensor<1xf32>
    return %r : tensor<1xf32>
  }}
}}"
            )
        };
        // The integer is 0 in one rotation only, not the first.
        let check = compare(&kernel(1), &kernel(2), "");
        assert!(
            matches!(check, Check::Differs(ref why) if why.contains("rotated by")),
            "{check}"
        );
        assert_eq!(
            compare(&kernel(1), &kernel(1), ""),
            Check::Same { elements: 1 }
        );
    }

    /// A 2x3 transpose as XLA's tiled code (masked vector loads, a shuffle, a vector store)
    /// and as the tiled emitter's tiles (`col` is where ours reads its first column).
    const XLA_TILED: &str = "module {
  func.func @t_impl(%arg0: memref<2x3xf32>, %arg1: memref<3x2xf32>, %arg2: index {xla.range = [0 : index, 0 : index]}) attributes {num_opaque_args = 0 : i32} {
    %mask = arith.constant dense<[true, true, true, false]> : vector<4xi1>
    %zero = arith.constant dense<0.000000e+00> : vector<4xf32>
    %c3 = llvm.mlir.constant(3 : i64) : i64
    %in = builtin.unrealized_conversion_cast %arg0 : memref<2x3xf32> to !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
    %out = builtin.unrealized_conversion_cast %arg1 : memref<3x2xf32> to !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
    %p = llvm.extractvalue %in[1] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
    %q = llvm.extractvalue %out[1] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
    %r0 = llvm.intr.masked.load(%p, %mask, %zero), alignment(4) : (!llvm.ptr, vector<4xi1>, vector<4xf32>) -> vector<4xf32>
    %p1 = llvm.getelementptr %p[%c3] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %r1 = llvm.intr.masked.load(%p1, %mask, %zero), alignment(4) : (!llvm.ptr, vector<4xi1>, vector<4xf32>) -> vector<4xf32>
    %t = llvm.shufflevector %r0, %r1 [0, 4, 1, 5, 2, 6] : vector<4xf32>
    llvm.store %t, %q <alignment = 4> : vector<6xf32>, !llvm.ptr
    return
  }
}";

    fn ours_tiled(col: usize) -> String {
        format!(
            "module {{
  xtile.entry_func @t(%arg0: memref<2x3xf32>, %arg1: memref<3x2xf32>, %arg2: index {{xla.range = [0 : index, 0 : index]}}) attributes {{num_opaque_args = 0 : i32}} {{
    %c0 = arith.constant 0 : index
    %col = arith.constant {col} : index
    %0 = xtile.extract %arg0[%c0, %col] [2, 4] [1, 1] : memref<2x3xf32> -> tensor<2x4xf32>
    %1 = \"stablehlo.transpose\"(%0) <{{permutation = array<i64: 1, 0>}}> : (tensor<2x4xf32>) -> tensor<4x2xf32>
    %2 = math.exp %1 : tensor<4x2xf32>
    xtile.insert %1 into %arg1[%c0, %c0] [4, 2] [1, 1] : tensor<4x2xf32> -> memref<3x2xf32>
    xtile.return
  }}
}}"
        )
    }

    #[test]
    fn vectors_and_tiles() {
        assert_eq!(
            compare(XLA_TILED, &ours_tiled(0), ""),
            Check::Same { elements: 6 }
        );
        let check = compare(XLA_TILED, &ours_tiled(1), "");
        assert!(matches!(check, Check::Differs(_)), "{check}");
    }

    #[test]
    fn what_cannot_be_run_is_unchecked() {
        // A branch on a float comparison (a sort's).
        let branch = "module {
  func.func @f(%arg0: !llvm.ptr) attributes {xla.entry} {
    %0 = llvm.load %arg0 : !llvm.ptr -> f32
    %1 = arith.cmpf olt, %0, %0 : f32
    cf.cond_br %1, ^bb1, ^bb1
  ^bb1:
    return
  }
}";
        assert!(
            matches!(compare(branch, branch, ""), Check::Unchecked(ref why) if why.contains("float data"))
        );
        let while_loop = "module {
  func.func @f(%arg0: tensor<2xf32>) -> tensor<2xf32> attributes {xla.entry} {
    %0 = scf.while (%i = %arg0) : (tensor<2xf32>) -> tensor<2xf32> {
      scf.condition(%c) %i : tensor<2xf32>
    } do {
      scf.yield %i : tensor<2xf32>
    }
    return %0 : tensor<2xf32>
  }
}";
        assert!(
            matches!(compare(while_loop, while_loop, ""), Check::Unchecked(ref why) if why.contains("scf.while is not interpreted"))
        );
        // A kernel that writes nothing compares no element.
        let silent = "module {\n  func.func @f(%arg0: !llvm.ptr) attributes {xla.entry} {\n    return\n  }\n}";
        assert!(
            matches!(compare(silent, silent, ""), Check::Unchecked(ref why) if why.contains("neither side writes")),
            "{}",
            compare(silent, silent, "")
        );
        let none = "module {\n  func.func @f() {\n    return\n  }\n}";
        assert!(
            matches!(compare(none, none, ""), Check::Unchecked(ref why) if why.contains("xla.entry"))
        );
    }
}
