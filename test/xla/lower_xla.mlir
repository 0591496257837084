// xla-indexing-lower-xla on every kernel of the real dumps in Inputs/: no xla. op is left
// (attributes such as xla.range stay), the pure calls are inlined and the functions they called
// erased,
// and the index arithmetic is simplified as a whole, quotients and remainders sharing divisions.
// What XLA's own pipeline leaves (its IR before LowerToLLVMCPUPass) is noted per kernel.
// crates/passes/tests/lower_xla.rs evaluates the lowered arithmetic against the maps.

// An op name is followed by a space and no `=` (an attribute name is followed by ` =`, or ends a
// unit attribute).
// RUN: mlir-opt %plugins --pass-pipeline='builtin.module(xla-indexing-lower-xla)' %S/Inputs/broadcast.broadcast_add_fusion.mlir -o %t.broadcast_broadcast_add_fusion
// RUN: FileCheck %s --check-prefix=NOXLA --input-file=%t.broadcast_broadcast_add_fusion
// RUN: mlir-opt %plugins --pass-pipeline='builtin.module(xla-indexing-lower-xla)' %S/Inputs/dus.select_dynamic-update-slice_fusion.mlir -o %t.dus_select_dynamic_update_slice_fusion
// RUN: FileCheck %s --check-prefix=NOXLA --input-file=%t.dus_select_dynamic_update_slice_fusion
// RUN: mlir-opt %plugins --pass-pipeline='builtin.module(xla-indexing-lower-xla)' %S/Inputs/elementwise.broadcast_add_fusion.mlir -o %t.elementwise_broadcast_add_fusion
// RUN: FileCheck %s --check-prefix=NOXLA --input-file=%t.elementwise_broadcast_add_fusion
// RUN: mlir-opt %plugins --pass-pipeline='builtin.module(xla-indexing-lower-xla)' %S/Inputs/gather.gather_bitcast_fusion.mlir -o %t.gather_gather_bitcast_fusion
// RUN: FileCheck %s --check-prefix=NOXLA --input-file=%t.gather_gather_bitcast_fusion
// RUN: mlir-opt %plugins --pass-pipeline='builtin.module(xla-indexing-lower-xla)' %S/Inputs/padint.broadcast_multiply_fusion.mlir -o %t.padint_broadcast_multiply_fusion
// RUN: FileCheck %s --check-prefix=NOXLA --input-file=%t.padint_broadcast_multiply_fusion
// RUN: mlir-opt %plugins --split-input-file --pass-pipeline='builtin.module(xla-indexing-lower-xla)' %S/Inputs/padint.stages.mlir -o %t.padint_stages
// RUN: FileCheck %s --check-prefix=NOXLA --input-file=%t.padint_stages
// RUN: mlir-opt %plugins --pass-pipeline='builtin.module(xla-indexing-lower-xla)' %S/Inputs/reduce.multiply_reduce_fusion.mlir -o %t.reduce_multiply_reduce_fusion
// RUN: FileCheck %s --check-prefix=NOXLA --input-file=%t.reduce_multiply_reduce_fusion
// RUN: mlir-opt %plugins --pass-pipeline='builtin.module(xla-indexing-lower-xla)' %S/Inputs/reshape.copy_bitcast_fusion.mlir -o %t.reshape_copy_bitcast_fusion
// RUN: FileCheck %s --check-prefix=NOXLA --input-file=%t.reshape_copy_bitcast_fusion
// RUN: mlir-opt %plugins --pass-pipeline='builtin.module(xla-indexing-lower-xla)' %S/Inputs/reverse.broadcast_multiply_fusion.mlir -o %t.reverse_broadcast_multiply_fusion
// RUN: FileCheck %s --check-prefix=NOXLA --input-file=%t.reverse_broadcast_multiply_fusion
// RUN: mlir-opt %plugins --pass-pipeline='builtin.module(xla-indexing-lower-xla)' %S/Inputs/scatter.select_bitcast_fusion.mlir -o %t.scatter_select_bitcast_fusion
// RUN: FileCheck %s --check-prefix=NOXLA --input-file=%t.scatter_select_bitcast_fusion
// RUN: mlir-opt %plugins --pass-pipeline='builtin.module(xla-indexing-lower-xla)' %S/Inputs/scatter.wrapped_broadcast.mlir -o %t.scatter_wrapped_broadcast
// RUN: FileCheck %s --check-prefix=NOXLA --input-file=%t.scatter_wrapped_broadcast
// RUN: mlir-opt %plugins --pass-pipeline='builtin.module(xla-indexing-lower-xla)' %S/Inputs/scatter.wrapped_scatter.mlir -o %t.scatter_wrapped_scatter
// RUN: FileCheck %s --check-prefix=NOXLA --input-file=%t.scatter_wrapped_scatter
// RUN: mlir-opt %plugins --pass-pipeline='builtin.module(xla-indexing-lower-xla)' %S/Inputs/slice.wrapped_slice.mlir -o %t.slice_wrapped_slice
// RUN: FileCheck %s --check-prefix=NOXLA --input-file=%t.slice_wrapped_slice
// RUN: mlir-opt %plugins --pass-pipeline='builtin.module(xla-indexing-lower-xla)' %S/Inputs/softmax.broadcast_multiply_fusion.mlir -o %t.softmax_broadcast_multiply_fusion
// RUN: FileCheck %s --check-prefix=NOXLA --input-file=%t.softmax_broadcast_multiply_fusion
// RUN: mlir-opt %plugins --pass-pipeline='builtin.module(xla-indexing-lower-xla)' %S/Inputs/softmax.reduce_divide_fusion.mlir -o %t.softmax_reduce_divide_fusion
// RUN: FileCheck %s --check-prefix=NOXLA --input-file=%t.softmax_reduce_divide_fusion
// RUN: mlir-opt %plugins --pass-pipeline='builtin.module(xla-indexing-lower-xla)' %S/Inputs/softmax.subtract_exponential_fusion.mlir -o %t.softmax_subtract_exponential_fusion
// RUN: FileCheck %s --check-prefix=NOXLA --input-file=%t.softmax_subtract_exponential_fusion
// RUN: mlir-opt %plugins --pass-pipeline='builtin.module(xla-indexing-lower-xla)' %S/Inputs/softmax.wrapped_reduce.mlir -o %t.softmax_wrapped_reduce
// RUN: FileCheck %s --check-prefix=NOXLA --input-file=%t.softmax_wrapped_reduce
// RUN: mlir-opt %plugins --allow-unregistered-dialect --pass-pipeline='builtin.module(xla-indexing-lower-xla)' %S/Inputs/tiled.transpose_copy_fusion.mlir -o %t.tiled_transpose_copy_fusion
// RUN: FileCheck %s --check-prefix=NOXLA --input-file=%t.tiled_transpose_copy_fusion
// RUN: mlir-opt %plugins --pass-pipeline='builtin.module(xla-indexing-lower-xla)' %S/Inputs/tiled.wrapped_exponential.mlir -o %t.tiled_wrapped_exponential
// RUN: FileCheck %s --check-prefix=NOXLA --input-file=%t.tiled_wrapped_exponential
// RUN: mlir-opt %plugins --split-input-file --pass-pipeline='builtin.module(xla-indexing-lower-xla)' %S/Inputs/tiled.wrapped_exponential.stages.mlir -o %t.tiled_wrapped_exponential_stages
// RUN: FileCheck %s --check-prefix=NOXLA --input-file=%t.tiled_wrapped_exponential_stages
// RUN: mlir-opt %plugins --pass-pipeline='builtin.module(xla-indexing-lower-xla)' %S/Inputs/transpose.transpose_copy_fusion.mlir -o %t.transpose_transpose_copy_fusion
// RUN: FileCheck %s --check-prefix=NOXLA --input-file=%t.transpose_transpose_copy_fusion
// NOXLA-NOT: {{xla\.[a-z_]+ [^=]}}

// The pad with interior padding: XLA leaves `(d0 - 1) mod 2` and `(d0 - 1) / 2` as two
// divisions; here the remainder is the dividend less twice the quotient, whose one division the
// scf.if's read shares. The loop is an scf.for nest over the map's range variables.
// RUN: FileCheck %s --check-prefix=PAD --input-file=%t.padint_broadcast_multiply_fusion
// RUN: FileCheck %s --check-prefix=INLINED --input-file=%t.padint_broadcast_multiply_fusion
// INLINED-NOT: @fused_computation_mul_0
// PAD: scf.forall
// PAD: scf.for %[[I:.*]] = %c0 to %c130 step %c1
// PAD-NEXT: scf.for %[[J:.*]] = %c0 to %c128 step %c1
// PAD-NEXT: %[[I32:.*]] = arith.index_castui %[[I]] : index to i32
// PAD-NEXT: %[[D:.*]] = arith.addi %[[I32]], %c-1_i32 : i32
// PAD-NEXT: %[[Q:.*]] = arith.divui %[[D]], %c2_i32 : i32
// PAD-NEXT: %[[Q2:.*]] = arith.muli %[[Q]], %c2_i32 : i32
// PAD-NEXT: %[[R:.*]] = arith.subi %[[D]], %[[Q2]] : i32
// PAD-NOT: arith.divui
// PAD-NOT: arith.remui
// The read of row (i - 1) / 2 is flattened (as XLA flattens tensors): under the scf.if's guard
// i - 1 is even, so its offset 128 * ((i - 1) / 2) + j is 64 * i + j - 64, with no division.
// PAD: scf.if
// PAD-NEXT: %[[COLLAPSED:.*]] = tensor.collapse_shape %arg0 {{\[\[}}0, 1]] : tensor<64x128xf32> into tensor<8192xf32>
// PAD-NEXT: %[[R64:.*]] = arith.muli %[[I]], %c64 : index
// PAD-NEXT: %[[S:.*]] = arith.addi %[[R64]], %[[J]] : index
// PAD-NEXT: %[[OFF:.*]] = arith.addi %[[S]], %c-64 : index
// PAD-NEXT: tensor.extract %[[COLLAPSED]][%[[OFF]]] : tensor<8192xf32>

// A reshape to one dimension: XLA's own pipeline leaves no division, as it flattens tensors
// before it simplifies; so does the pass. The read of the 4-D operand at
// (i / 600, (i / 200) mod 3, (i / 50) mod 4, i mod 50) is a read of its flattening at i.
// RUN: mlir-opt %plugins --pass-pipeline='builtin.module(xla-indexing-lower-xla)' %S/Inputs/reshape_flatten.add_bitcast_fusion.mlir | FileCheck %s --check-prefix=FLAT
// FLAT: scf.for %[[I:.*]] = %c0 to %c1200 step %c1
// FLAT-NOT: arith.divui
// FLAT-NOT: arith.remui
// FLAT: %[[F:.*]] = tensor.collapse_shape %arg0 {{\[\[}}0, 1, 2, 3]] : tensor<2x3x4x50xf32> into tensor<1200xf32>
// FLAT-NEXT: tensor.extract %[[F]][%[[I]]] : tensor<1200xf32>
// FLAT-NOT: arith.divui
// FLAT-NOT: arith.remui

// The reshape chain: XLA leaves 4 divisions and remainders, here 2 (by 16, its remainder from
// the quotient, and by 64).
// RUN: FileCheck %s --check-prefix=RESHAPE --input-file=%t.reshape_copy_bitcast_fusion
// RESHAPE: %[[Q16:.*]] = arith.divui %[[X:.*]], %c16_i32 : i32
// RESHAPE-NEXT: %[[M:.*]] = arith.muli %[[Q16]], %c16_i32 : i32
// RESHAPE-NEXT: arith.subi %[[X]], %[[M]] : i32
// RESHAPE: arith.divui %[[X]], %c64_i32 : i32
// RESHAPE-NOT: arith.divui
// RESHAPE-NOT: arith.remui

// The tiled 5-D transpose: XLA leaves 4 divisions and remainders, here 2 (tid / 5 and tid / 10;
// tid mod 5 and (tid / 5) mod 2 from them).
// RUN: FileCheck %s --check-prefix=TILED --input-file=%t.tiled_transpose_copy_fusion
// TILED: xtile.entry_func @transpose_copy_fusion
// TILED: scf.for %[[TID:.*]] = %c0 to %c40 step %c1 {
// TILED-NEXT: %[[T:.*]] = arith.index_castui %[[TID]] : index to i32
// TILED-NEXT: %[[Q5:.*]] = arith.divui %[[T]], %c5_i32 : i32
// TILED-NEXT: %[[Q10:.*]] = arith.divui %[[T]], %c10_i32 : i32
// TILED-NOT: arith.divui
// TILED-NOT: arith.remui
// TILED: xtile.extract %arg0
// TILED: xtile.insert

// A kernel whose workgroup ids are read: xla.workgroup_id with xla.range = [0, 0] is the
// constant 0, as on XLA's CPU.
// RUN: mlir-opt %plugins --pass-pipeline='builtin.module(xla-indexing-lower-xla)' %s | FileCheck %s --check-prefix=WG
// WG-LABEL: func.func @workgroups
// WG-NEXT: %[[C0:.*]] = arith.constant 0 : index
// WG-NEXT: %[[Y:.*]] = gpu.block_id y upper_bound 4
// WG-NEXT: return %[[C0]], %[[Y]] : index, index
func.func @workgroups() -> (index, index) {
  %0 = xla.workgroup_id x {xla.range = [0 : index, 0 : index]}
  %1 = xla.workgroup_id y {xla.range = [0 : index, 3 : index]}
  return %0, %1 : index, index
}
