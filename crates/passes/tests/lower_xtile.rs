//! `xla-indexing-lower-xtile` keeps the meaning of XLA's tiled kernels: small kernels that
//! use every lowering (tiles that overhang their memrefs, dropped unit dimensions, transposes,
//! broadcasts in and out of order, iotas of integers and floats, constants, scalars made
//! tensors, elementwise ops) are lowered, taken to LLVM by upstream's passes and run by
//! `mlir-runner`; every element written is compared with the kernel's meaning computed here.
//! Ops it does not lower are errors at the op.

mod common;

use common::runner::{opt, run, runner_for};
use xla_indexing_passes::opt::{OptOptions, run_pipeline};

/// From the lowered kernels (and `@main`) to the LLVM dialect.
const TO_LLVM: &str = "builtin.module(convert-vector-to-scf{full-unroll=true}, lower-affine, convert-scf-to-cf, expand-strided-metadata, convert-math-to-llvm, convert-vector-to-llvm, convert-to-llvm, reconcile-unrealized-casts)";

/// Three kernels in XLA's tiled form.
///
/// `@shifted_transpose`: tiles of 4 rows of `in: 5x6`, read as `4x8` (past both ends),
/// transposed, plus the row's place in its tile (an iota) and the tile's first row (a scalar
/// made a tensor and broadcast), written into `out: 6x5`: `out[j][i] = in[i][j] + i`.
///
/// `@scaled_rows`: each row of `in: 3x8`, read as a tile `1x8` without its unit dimension,
/// negated, broadcast to `1x2x8` and multiplied by `k + 1` (an iota of floats plus a dense
/// constant): `out[i][k][c] = -in[i][c] * (k + 1)`.
///
/// `@spread`: `in: 2x3` broadcast with dimensions `[2, 0]` into `out: 3x4x2`:
/// `out[a][b][c] = in[c][a]`.
///
/// `@relu`: `in: 16xi32` compared with zero, the negative ones selected away, converted to
/// `f32`, widened to `f64` and narrowed back: `out[i] = max(in[i], 0)`, and `flags[i] = in[i]
/// != 3` as `i8` (a compare of floats, extended from `i1`).
const KERNELS: &str = r#"
module {
  xtile.entry_func @shifted_transpose(%in: memref<5x6xi32>, %out: memref<6x5xi32>, %pid: index) attributes {num_opaque_args = 0 : i32} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    scf.for %i = %c0 to %c2 step %c1 {
      %r = arith.muli %i, %c4 : index
      %t = xtile.extract %in[%r, %c0] [4, 8] [1, 1] : memref<5x6xi32> -> tensor<4x8xi32>
      %tt = "stablehlo.transpose"(%t) <{permutation = array<i64: 1, 0>}> : (tensor<4x8xi32>) -> tensor<8x4xi32>
      %io = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<8x4xi32>
      %s = "stablehlo.add"(%tt, %io) : (tensor<8x4xi32>, tensor<8x4xi32>) -> tensor<8x4xi32>
      %ri = arith.index_cast %r : index to i32
      %fe = tensor.from_elements %ri : tensor<i32>
      %b = "stablehlo.broadcast_in_dim"(%fe) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<8x4xi32>
      %sum = arith.addi %s, %b : tensor<8x4xi32>
      xtile.insert %sum into %out[%c0, %r] [8, 4] [1, 1] : tensor<8x4xi32> -> memref<6x5xi32>
    }
    xtile.return
  }
  xtile.entry_func @scaled_rows(%in: memref<3x8xf32>, %out: memref<3x2x8xf32>, %pid: index) attributes {num_opaque_args = 0 : i32} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %one = arith.constant dense<1.0> : tensor<1x2x8xf32>
    scf.for %i = %c0 to %c3 step %c1 {
      %row = xtile.extract %in[%i, %c0] [1, 8] [1, 1] : memref<3x8xf32> -> tensor<8xf32>
      %n = "stablehlo.negate"(%row) : (tensor<8xf32>) -> tensor<8xf32>
      %b = "stablehlo.broadcast_in_dim"(%n) <{broadcast_dimensions = array<i64: 2>}> : (tensor<8xf32>) -> tensor<1x2x8xf32>
      %k = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<1x2x8xf32>
      %k1 = arith.addf %k, %one : tensor<1x2x8xf32>
      %m = "stablehlo.multiply"(%b, %k1) : (tensor<1x2x8xf32>, tensor<1x2x8xf32>) -> tensor<1x2x8xf32>
      xtile.insert %m into %out[%i, %c0, %c0] [1, 2, 8] [1, 1, 1] : tensor<1x2x8xf32> -> memref<3x2x8xf32>
    }
    xtile.return
  }
  xtile.entry_func @spread(%in: memref<2x3xi32>, %out: memref<3x4x2xi32>, %pid: index) attributes {num_opaque_args = 0 : i32} {
    %c0 = arith.constant 0 : index
    %x = xtile.extract %in[%c0, %c0] [2, 3] [1, 1] : memref<2x3xi32> -> tensor<2x3xi32>
    %y = "stablehlo.broadcast_in_dim"(%x) <{broadcast_dimensions = array<i64: 2, 0>}> : (tensor<2x3xi32>) -> tensor<3x4x2xi32>
    %z = "stablehlo.reshape"(%y) : (tensor<3x4x2xi32>) -> tensor<24xi32>
    %w = "stablehlo.reshape"(%z) : (tensor<24xi32>) -> tensor<3x4x2xi32>
    xtile.insert %w into %out[%c0, %c0, %c0] [3, 4, 2] [1, 1, 1] : tensor<3x4x2xi32> -> memref<3x4x2xi32>
    xtile.return
  }
  xtile.entry_func @relu(%in: memref<16xi32>, %out: memref<16xf32>, %flags: memref<16xi8>, %pid: index) attributes {num_opaque_args = 0 : i32} {
    %c0 = arith.constant 0 : index
    %zero = arith.constant dense<0> : tensor<16xi32>
    %three = arith.constant dense<3.0> : tensor<16xf32>
    %t = xtile.extract %in[%c0] [16] [1] : memref<16xi32> -> tensor<16xi32>
    %m = "stablehlo.compare"(%t, %zero) <{comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<16xi32>, tensor<16xi32>) -> tensor<16xi1>
    %r = "stablehlo.select"(%m, %t, %zero) : (tensor<16xi1>, tensor<16xi32>, tensor<16xi32>) -> tensor<16xi32>
    %f = "stablehlo.convert"(%r) : (tensor<16xi32>) -> tensor<16xf32>
    %w = "stablehlo.convert"(%f) : (tensor<16xf32>) -> tensor<16xf64>
    %n = "stablehlo.convert"(%w) : (tensor<16xf64>) -> tensor<16xf32>
    xtile.insert %n into %out[%c0] [16] [1] : tensor<16xf32> -> memref<16xf32>
    %tf = "stablehlo.convert"(%t) : (tensor<16xi32>) -> tensor<16xf32>
    %ne = "stablehlo.compare"(%tf, %three) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %b = "stablehlo.convert"(%ne) : (tensor<16xi1>) -> tensor<16xi8>
    xtile.insert %b into %flags[%c0] [16] [1] : tensor<16xi8> -> memref<16xi8>
    xtile.return
  }
}
"#;

/// `@main`: fills each kernel's input with `10 * i + j` (`10 * i + j` as a float), runs the
/// kernels and prints every output element (floats as integers: they are whole), one per line.
const MAIN: &str = r#"
  func.func private @printI64(i64)
  func.func private @printNewline()
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c10 = arith.constant 10 : index
    %a = memref.alloc() : memref<5x6xi32>
    %b = memref.alloc() : memref<6x5xi32>
    %f = memref.alloc() : memref<3x8xf32>
    %g = memref.alloc() : memref<3x2x8xf32>
    %s = memref.alloc() : memref<2x3xi32>
    %t = memref.alloc() : memref<3x4x2xi32>
    %r = memref.alloc() : memref<16xi32>
    %o = memref.alloc() : memref<16xf32>
    %q = memref.alloc() : memref<16xi8>
    %c16 = arith.constant 16 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c6 = arith.constant 6 : index
    %c8 = arith.constant 8 : index
    scf.for %i = %c0 to %c5 step %c1 {
      scf.for %j = %c0 to %c6 step %c1 {
        %v = affine.apply affine_map<(i, j) -> (i * 10 + j)>(%i, %j)
        %w = arith.index_cast %v : index to i32
        memref.store %w, %a[%i, %j] : memref<5x6xi32>
      }
    }
    scf.for %i = %c0 to %c3 step %c1 {
      scf.for %j = %c0 to %c8 step %c1 {
        %v = affine.apply affine_map<(i, j) -> (i * 10 + j)>(%i, %j)
        %w = arith.index_cast %v : index to i32
        %x = arith.sitofp %w : i32 to f32
        memref.store %x, %f[%i, %j] : memref<3x8xf32>
      }
    }
    scf.for %i = %c0 to %c2 step %c1 {
      scf.for %j = %c0 to %c3 step %c1 {
        %v = affine.apply affine_map<(i, j) -> (i * 10 + j)>(%i, %j)
        %w = arith.index_cast %v : index to i32
        memref.store %w, %s[%i, %j] : memref<2x3xi32>
      }
    }
    call @shifted_transpose(%a, %b, %c0) : (memref<5x6xi32>, memref<6x5xi32>, index) -> ()
    call @scaled_rows(%f, %g, %c0) : (memref<3x8xf32>, memref<3x2x8xf32>, index) -> ()
    scf.for %i = %c0 to %c16 step %c1 {
      %v = affine.apply affine_map<(i) -> (i - 8)>(%i)
      %w = arith.index_cast %v : index to i32
      memref.store %w, %r[%i] : memref<16xi32>
    }
    call @spread(%s, %t, %c0) : (memref<2x3xi32>, memref<3x4x2xi32>, index) -> ()
    call @relu(%r, %o, %q, %c0) : (memref<16xi32>, memref<16xf32>, memref<16xi8>, index) -> ()
    scf.for %i = %c0 to %c6 step %c1 {
      scf.for %j = %c0 to %c5 step %c1 {
        %v = memref.load %b[%i, %j] : memref<6x5xi32>
        %w = arith.extsi %v : i32 to i64
        func.call @printI64(%w) : (i64) -> ()
        func.call @printNewline() : () -> ()
      }
    }
    scf.for %i = %c0 to %c3 step %c1 {
      scf.for %k = %c0 to %c2 step %c1 {
        scf.for %j = %c0 to %c8 step %c1 {
          %v = memref.load %g[%i, %k, %j] : memref<3x2x8xf32>
          %w = arith.fptosi %v : f32 to i64
          func.call @printI64(%w) : (i64) -> ()
          func.call @printNewline() : () -> ()
        func.call @printNewline() : () -> ()
        }
      }
    }
    scf.for %i = %c0 to %c3 step %c1 {
      scf.for %k = %c0 to %c4 step %c1 {
        scf.for %j = %c0 to %c2 step %c1 {
          %v = memref.load %t[%i, %k, %j] : memref<3x4x2xi32>
          %w = arith.extsi %v : i32 to i64
          func.call @printI64(%w) : (i64) -> ()
          func.call @printNewline() : () -> ()
        func.call @printNewline() : () -> ()
        }
      }
    }
    scf.for %i = %c0 to %c16 step %c1 {
      %v = memref.load %o[%i] : memref<16xf32>
      %w = arith.fptosi %v : f32 to i64
      func.call @printI64(%w) : (i64) -> ()
      func.call @printNewline() : () -> ()
      %flag = memref.load %q[%i] : memref<16xi8>
      %x = arith.extsi %flag : i8 to i64
      func.call @printI64(%x) : (i64) -> ()
      func.call @printNewline() : () -> ()
    }
    return
  }
"#;

/// What the kernels mean, in `@main`'s printing order.
fn expected() -> Vec<i64> {
    let input = |i: i64, j: i64| 10 * i + j;
    let mut out = Vec::new();
    for j in 0..6 {
        for i in 0..5 {
            out.push(input(i, j) + i);
        }
    }
    for i in 0..3 {
        for k in 0..2 {
            for c in 0..8 {
                out.push(-input(i, c) * (k + 1));
            }
        }
    }
    for a in 0..3 {
        for _ in 0..4 {
            for c in 0..2 {
                out.push(input(c, a));
            }
        }
    }
    for i in 0..16 {
        let x = i - 8;
        out.push(x.max(0));
        out.push(i64::from(x != 3));
    }
    out
}

#[test]
fn lowered_tiled_kernels_compute_what_they_mean() {
    let lowered = run_pipeline(
        KERNELS,
        "kernels.mlir",
        "builtin.module(xla-indexing-lower-xtile)",
        OptOptions {
            allow_unregistered_dialect: true,
        },
    )
    .unwrap_or_else(|e| panic!("{e:?}"))
    .text;
    assert!(
        !lowered.contains("xtile.") && !lowered.contains("stablehlo."),
        "{lowered}"
    );
    assert!(lowered.contains("vector.transfer_read"), "{lowered}");
    if !runner_for("lowered_tiled_kernels_compute_what_they_mean") {
        return;
    }
    let end = lowered.rfind('}').expect("the module closes");
    let program = format!("{}{MAIN}}}\n", &lowered[..end]);
    let llvm = opt(&program, "program.mlir", TO_LLVM);
    let printed: Vec<i64> = run(&llvm)
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.trim().parse().expect("a number per line"))
        .collect();
    assert_eq!(printed, expected());
}

/// The diagnostics of the pass on `kernel` (a module holding one entry function).
fn failure(kernel: &str) -> String {
    let options = OptOptions {
        allow_unregistered_dialect: true,
    };
    match run_pipeline(
        kernel,
        "bad.mlir",
        "builtin.module(xla-indexing-lower-xtile)",
        options,
    ) {
        Ok(output) => panic!("lowered:\n{}", output.text),
        Err(e) => format!("{e:?}"),
    }
}

#[test]
fn what_is_not_lowered_is_an_error_at_the_op() {
    let kernel = |body: &str| {
        format!(
            "xtile.entry_func @k(%in: memref<8xf32>, %out: memref<8xf32>, %pid: index) attributes {{num_opaque_args = 0 : i32}} {{\n  %c0 = arith.constant 0 : index\n{body}\n  xtile.return\n}}\n"
        )
    };
    let read = "  %t = xtile.extract %in[%c0] [4] [1] : memref<8xf32> -> tensor<4xf32>";
    let write = "xtile.insert %t into %out[%c0] [4] [1] : tensor<4xf32> -> memref<8xf32>";
    let cases = [
        (
            format!(
                "  %t = xtile.extract %in[%c0] [4] [2] : memref<8xf32> -> tensor<4xf32>\n  {write}"
            ),
            3,
            "strides [2] are not lowered (only unit strides)",
        ),
        (
            format!("{read}\n  {write} {{accumulate}}"),
            4,
            "an accumulating insert is not lowered",
        ),
        (
            format!(
                "{read}\n  %u = \"stablehlo.cbrt\"(%t) : (tensor<4xf32>) -> tensor<4xf32>\n  {}",
                write.replace("%t into", "%u into")
            ),
            4,
            "stablehlo.cbrt: not lowered on tensors",
        ),
        (
            format!(
                "{read}\n  %u = \"stablehlo.reshape\"() : () -> tensor<4xf32>\n  {}",
                write.replace("%t into", "%u into")
            ),
            4,
            "stablehlo.reshape: takes one operand, not 0",
        ),
        (
            format!(
                "{read}\n  %b = \"stablehlo.broadcast_in_dim\"(%t) <{{broadcast_dimensions = array<i64: 0, 1>}}> : (tensor<4xf32>) -> tensor<4x2xf32>\n  {write}"
            ),
            4,
            "broadcast_dimensions [0, 1] for an operand of rank 1",
        ),
    ];
    for (body, line, message) in cases {
        let e = failure(&kernel(&body));
        assert!(
            e.contains(&format!("line: Some({line})")) && e.contains(message),
            "{body}: {e}"
        );
    }
}
