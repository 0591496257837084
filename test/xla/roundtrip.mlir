// Every kernel kind of XLA's CPU emitters (loop, reduction, gather, scatter,
// dynamic-update-slice, transpose, softmax, tiled) parses, verifies and prints back
// unchanged: print -> parse -> print is identical, in the custom and the generic form.
// The inputs are real dumps (see the header of each file in Inputs/); *.stages.mlir hold
// later stages of XLA's pass log, one per split.

// RUN: mlir-opt %plugins %S/Inputs/broadcast.broadcast_add_fusion.mlir -o %t.broadcast_broadcast_add_fusion.1
// RUN: mlir-opt %plugins %t.broadcast_broadcast_add_fusion.1 -o %t.broadcast_broadcast_add_fusion.2
// RUN: diff %t.broadcast_broadcast_add_fusion.1 %t.broadcast_broadcast_add_fusion.2
// RUN: mlir-opt %plugins --mlir-print-op-generic %S/Inputs/broadcast.broadcast_add_fusion.mlir | mlir-opt %plugins -o %t.broadcast_broadcast_add_fusion.3
// RUN: diff %t.broadcast_broadcast_add_fusion.1 %t.broadcast_broadcast_add_fusion.3
// RUN: mlir-opt %plugins %S/Inputs/dus.select_dynamic-update-slice_fusion.mlir -o %t.dus_select_dynamic_update_slice_fusion.1
// RUN: mlir-opt %plugins %t.dus_select_dynamic_update_slice_fusion.1 -o %t.dus_select_dynamic_update_slice_fusion.2
// RUN: diff %t.dus_select_dynamic_update_slice_fusion.1 %t.dus_select_dynamic_update_slice_fusion.2
// RUN: mlir-opt %plugins --mlir-print-op-generic %S/Inputs/dus.select_dynamic-update-slice_fusion.mlir | mlir-opt %plugins -o %t.dus_select_dynamic_update_slice_fusion.3
// RUN: diff %t.dus_select_dynamic_update_slice_fusion.1 %t.dus_select_dynamic_update_slice_fusion.3
// RUN: mlir-opt %plugins %S/Inputs/elementwise.broadcast_add_fusion.mlir -o %t.elementwise_broadcast_add_fusion.1
// RUN: mlir-opt %plugins %t.elementwise_broadcast_add_fusion.1 -o %t.elementwise_broadcast_add_fusion.2
// RUN: diff %t.elementwise_broadcast_add_fusion.1 %t.elementwise_broadcast_add_fusion.2
// RUN: mlir-opt %plugins --mlir-print-op-generic %S/Inputs/elementwise.broadcast_add_fusion.mlir | mlir-opt %plugins -o %t.elementwise_broadcast_add_fusion.3
// RUN: diff %t.elementwise_broadcast_add_fusion.1 %t.elementwise_broadcast_add_fusion.3
// RUN: mlir-opt %plugins %S/Inputs/gather.gather_bitcast_fusion.mlir -o %t.gather_gather_bitcast_fusion.1
// RUN: mlir-opt %plugins %t.gather_gather_bitcast_fusion.1 -o %t.gather_gather_bitcast_fusion.2
// RUN: diff %t.gather_gather_bitcast_fusion.1 %t.gather_gather_bitcast_fusion.2
// RUN: mlir-opt %plugins --mlir-print-op-generic %S/Inputs/gather.gather_bitcast_fusion.mlir | mlir-opt %plugins -o %t.gather_gather_bitcast_fusion.3
// RUN: diff %t.gather_gather_bitcast_fusion.1 %t.gather_gather_bitcast_fusion.3
// RUN: mlir-opt %plugins %S/Inputs/padint.broadcast_multiply_fusion.mlir -o %t.padint_broadcast_multiply_fusion.1
// RUN: mlir-opt %plugins %t.padint_broadcast_multiply_fusion.1 -o %t.padint_broadcast_multiply_fusion.2
// RUN: diff %t.padint_broadcast_multiply_fusion.1 %t.padint_broadcast_multiply_fusion.2
// RUN: mlir-opt %plugins --mlir-print-op-generic %S/Inputs/padint.broadcast_multiply_fusion.mlir | mlir-opt %plugins -o %t.padint_broadcast_multiply_fusion.3
// RUN: diff %t.padint_broadcast_multiply_fusion.1 %t.padint_broadcast_multiply_fusion.3
// RUN: mlir-opt %plugins --split-input-file %S/Inputs/padint.stages.mlir -o %t.padint_stages.1
// RUN: mlir-opt %plugins --split-input-file %t.padint_stages.1 -o %t.padint_stages.2
// RUN: diff %t.padint_stages.1 %t.padint_stages.2
// RUN: mlir-opt %plugins %S/Inputs/reduce.multiply_reduce_fusion.mlir -o %t.reduce_multiply_reduce_fusion.1
// RUN: mlir-opt %plugins %t.reduce_multiply_reduce_fusion.1 -o %t.reduce_multiply_reduce_fusion.2
// RUN: diff %t.reduce_multiply_reduce_fusion.1 %t.reduce_multiply_reduce_fusion.2
// RUN: mlir-opt %plugins --mlir-print-op-generic %S/Inputs/reduce.multiply_reduce_fusion.mlir | mlir-opt %plugins -o %t.reduce_multiply_reduce_fusion.3
// RUN: diff %t.reduce_multiply_reduce_fusion.1 %t.reduce_multiply_reduce_fusion.3
// RUN: mlir-opt %plugins %S/Inputs/reshape.copy_bitcast_fusion.mlir -o %t.reshape_copy_bitcast_fusion.1
// RUN: mlir-opt %plugins %t.reshape_copy_bitcast_fusion.1 -o %t.reshape_copy_bitcast_fusion.2
// RUN: diff %t.reshape_copy_bitcast_fusion.1 %t.reshape_copy_bitcast_fusion.2
// RUN: mlir-opt %plugins --mlir-print-op-generic %S/Inputs/reshape.copy_bitcast_fusion.mlir | mlir-opt %plugins -o %t.reshape_copy_bitcast_fusion.3
// RUN: diff %t.reshape_copy_bitcast_fusion.1 %t.reshape_copy_bitcast_fusion.3
// RUN: mlir-opt %plugins %S/Inputs/reverse.broadcast_multiply_fusion.mlir -o %t.reverse_broadcast_multiply_fusion.1
// RUN: mlir-opt %plugins %t.reverse_broadcast_multiply_fusion.1 -o %t.reverse_broadcast_multiply_fusion.2
// RUN: diff %t.reverse_broadcast_multiply_fusion.1 %t.reverse_broadcast_multiply_fusion.2
// RUN: mlir-opt %plugins --mlir-print-op-generic %S/Inputs/reverse.broadcast_multiply_fusion.mlir | mlir-opt %plugins -o %t.reverse_broadcast_multiply_fusion.3
// RUN: diff %t.reverse_broadcast_multiply_fusion.1 %t.reverse_broadcast_multiply_fusion.3
// RUN: mlir-opt %plugins %S/Inputs/scatter.select_bitcast_fusion.mlir -o %t.scatter_select_bitcast_fusion.1
// RUN: mlir-opt %plugins %t.scatter_select_bitcast_fusion.1 -o %t.scatter_select_bitcast_fusion.2
// RUN: diff %t.scatter_select_bitcast_fusion.1 %t.scatter_select_bitcast_fusion.2
// RUN: mlir-opt %plugins --mlir-print-op-generic %S/Inputs/scatter.select_bitcast_fusion.mlir | mlir-opt %plugins -o %t.scatter_select_bitcast_fusion.3
// RUN: diff %t.scatter_select_bitcast_fusion.1 %t.scatter_select_bitcast_fusion.3
// RUN: mlir-opt %plugins %S/Inputs/scatter.wrapped_broadcast.mlir -o %t.scatter_wrapped_broadcast.1
// RUN: mlir-opt %plugins %t.scatter_wrapped_broadcast.1 -o %t.scatter_wrapped_broadcast.2
// RUN: diff %t.scatter_wrapped_broadcast.1 %t.scatter_wrapped_broadcast.2
// RUN: mlir-opt %plugins --mlir-print-op-generic %S/Inputs/scatter.wrapped_broadcast.mlir | mlir-opt %plugins -o %t.scatter_wrapped_broadcast.3
// RUN: diff %t.scatter_wrapped_broadcast.1 %t.scatter_wrapped_broadcast.3
// RUN: mlir-opt %plugins %S/Inputs/scatter.wrapped_scatter.mlir -o %t.scatter_wrapped_scatter.1
// RUN: mlir-opt %plugins %t.scatter_wrapped_scatter.1 -o %t.scatter_wrapped_scatter.2
// RUN: diff %t.scatter_wrapped_scatter.1 %t.scatter_wrapped_scatter.2
// RUN: mlir-opt %plugins --mlir-print-op-generic %S/Inputs/scatter.wrapped_scatter.mlir | mlir-opt %plugins -o %t.scatter_wrapped_scatter.3
// RUN: diff %t.scatter_wrapped_scatter.1 %t.scatter_wrapped_scatter.3
// RUN: mlir-opt %plugins %S/Inputs/slice.wrapped_slice.mlir -o %t.slice_wrapped_slice.1
// RUN: mlir-opt %plugins %t.slice_wrapped_slice.1 -o %t.slice_wrapped_slice.2
// RUN: diff %t.slice_wrapped_slice.1 %t.slice_wrapped_slice.2
// RUN: mlir-opt %plugins --mlir-print-op-generic %S/Inputs/slice.wrapped_slice.mlir | mlir-opt %plugins -o %t.slice_wrapped_slice.3
// RUN: diff %t.slice_wrapped_slice.1 %t.slice_wrapped_slice.3
// RUN: mlir-opt %plugins %S/Inputs/softmax.broadcast_multiply_fusion.mlir -o %t.softmax_broadcast_multiply_fusion.1
// RUN: mlir-opt %plugins %t.softmax_broadcast_multiply_fusion.1 -o %t.softmax_broadcast_multiply_fusion.2
// RUN: diff %t.softmax_broadcast_multiply_fusion.1 %t.softmax_broadcast_multiply_fusion.2
// RUN: mlir-opt %plugins --mlir-print-op-generic %S/Inputs/softmax.broadcast_multiply_fusion.mlir | mlir-opt %plugins -o %t.softmax_broadcast_multiply_fusion.3
// RUN: diff %t.softmax_broadcast_multiply_fusion.1 %t.softmax_broadcast_multiply_fusion.3
// RUN: mlir-opt %plugins %S/Inputs/softmax.reduce_divide_fusion.mlir -o %t.softmax_reduce_divide_fusion.1
// RUN: mlir-opt %plugins %t.softmax_reduce_divide_fusion.1 -o %t.softmax_reduce_divide_fusion.2
// RUN: diff %t.softmax_reduce_divide_fusion.1 %t.softmax_reduce_divide_fusion.2
// RUN: mlir-opt %plugins --mlir-print-op-generic %S/Inputs/softmax.reduce_divide_fusion.mlir | mlir-opt %plugins -o %t.softmax_reduce_divide_fusion.3
// RUN: diff %t.softmax_reduce_divide_fusion.1 %t.softmax_reduce_divide_fusion.3
// RUN: mlir-opt %plugins %S/Inputs/softmax.subtract_exponential_fusion.mlir -o %t.softmax_subtract_exponential_fusion.1
// RUN: mlir-opt %plugins %t.softmax_subtract_exponential_fusion.1 -o %t.softmax_subtract_exponential_fusion.2
// RUN: diff %t.softmax_subtract_exponential_fusion.1 %t.softmax_subtract_exponential_fusion.2
// RUN: mlir-opt %plugins --mlir-print-op-generic %S/Inputs/softmax.subtract_exponential_fusion.mlir | mlir-opt %plugins -o %t.softmax_subtract_exponential_fusion.3
// RUN: diff %t.softmax_subtract_exponential_fusion.1 %t.softmax_subtract_exponential_fusion.3
// RUN: mlir-opt %plugins %S/Inputs/softmax.wrapped_reduce.mlir -o %t.softmax_wrapped_reduce.1
// RUN: mlir-opt %plugins %t.softmax_wrapped_reduce.1 -o %t.softmax_wrapped_reduce.2
// RUN: diff %t.softmax_wrapped_reduce.1 %t.softmax_wrapped_reduce.2
// RUN: mlir-opt %plugins --mlir-print-op-generic %S/Inputs/softmax.wrapped_reduce.mlir | mlir-opt %plugins -o %t.softmax_wrapped_reduce.3
// RUN: diff %t.softmax_wrapped_reduce.1 %t.softmax_wrapped_reduce.3
// RUN: mlir-opt %plugins --allow-unregistered-dialect %S/Inputs/tiled.transpose_copy_fusion.mlir -o %t.tiled_transpose_copy_fusion.1
// RUN: mlir-opt %plugins --allow-unregistered-dialect %t.tiled_transpose_copy_fusion.1 -o %t.tiled_transpose_copy_fusion.2
// RUN: diff %t.tiled_transpose_copy_fusion.1 %t.tiled_transpose_copy_fusion.2
// RUN: mlir-opt %plugins --allow-unregistered-dialect --mlir-print-op-generic %S/Inputs/tiled.transpose_copy_fusion.mlir | mlir-opt %plugins --allow-unregistered-dialect -o %t.tiled_transpose_copy_fusion.3
// RUN: diff %t.tiled_transpose_copy_fusion.1 %t.tiled_transpose_copy_fusion.3
// RUN: mlir-opt %plugins %S/Inputs/tiled.wrapped_exponential.mlir -o %t.tiled_wrapped_exponential.1
// RUN: mlir-opt %plugins %t.tiled_wrapped_exponential.1 -o %t.tiled_wrapped_exponential.2
// RUN: diff %t.tiled_wrapped_exponential.1 %t.tiled_wrapped_exponential.2
// RUN: mlir-opt %plugins --mlir-print-op-generic %S/Inputs/tiled.wrapped_exponential.mlir | mlir-opt %plugins -o %t.tiled_wrapped_exponential.3
// RUN: diff %t.tiled_wrapped_exponential.1 %t.tiled_wrapped_exponential.3
// RUN: mlir-opt %plugins --split-input-file %S/Inputs/tiled.wrapped_exponential.stages.mlir -o %t.tiled_wrapped_exponential_stages.1
// RUN: mlir-opt %plugins --split-input-file %t.tiled_wrapped_exponential_stages.1 -o %t.tiled_wrapped_exponential_stages.2
// RUN: diff %t.tiled_wrapped_exponential_stages.1 %t.tiled_wrapped_exponential_stages.2
// RUN: mlir-opt %plugins %S/Inputs/transpose.transpose_copy_fusion.mlir -o %t.transpose_transpose_copy_fusion.1
// RUN: mlir-opt %plugins %t.transpose_transpose_copy_fusion.1 -o %t.transpose_transpose_copy_fusion.2
// RUN: diff %t.transpose_transpose_copy_fusion.1 %t.transpose_transpose_copy_fusion.2
// RUN: mlir-opt %plugins --mlir-print-op-generic %S/Inputs/transpose.transpose_copy_fusion.mlir | mlir-opt %plugins -o %t.transpose_transpose_copy_fusion.3
// RUN: diff %t.transpose_transpose_copy_fusion.1 %t.transpose_transpose_copy_fusion.3

// What the printed form holds, checked on a few of them.

// RUN: FileCheck %s --check-prefix=PAD --input-file=%t.padint_broadcast_multiply_fusion.1
// PAD: #indexing_map = #xla.indexing_map<"(th_x, th_y, th_z, bl_x, bl_y, bl_z)[s0, s1] -> (s0, s1), domain: th_x in [0, 0], th_y in [0, 0], th_z in [0, 0], bl_x in [0, 0], bl_y in [0, 0], bl_z in [0, 0], s0 in [0, 129], s1 in [0, 127]">
// PAD: #indexing_map1 = #xla.indexing_map<"(d0, d1) -> ((d0 - 1) mod 2), domain: d0 in [1, 127], d1 in [0, 127]">
// PAD: #indexing_map2 = #xla.indexing_map<"(d0, d1) -> ((d0 - 1) / 2), domain: d0 in [1, 127], d1 in [0, 127]">
// PAD: func.func @broadcast_multiply_fusion(%arg0: tensor<64x128xf32> {llvm.align = 64 : index, llvm.dereferenceable = 32768 : index, xla.invariant, xla.slice_index = 0 : index}, %arg1: tensor<130x128xf32> {{.*}}) -> tensor<130x128xf32> attributes {xla.backend_kind = #xla.backend_kind<cpu>, xla.entry}
// PAD-NEXT: %[[X:.*]] = xla.workgroup_id x {xla.range = [0 : index, 0 : index]}
// PAD-NEXT: %[[Y:.*]] = xla.workgroup_id y {xla.range = [0 : index, 0 : index]}
// PAD-NEXT: %[[Z:.*]] = xla.workgroup_id z {xla.range = [0 : index, 0 : index]}
// PAD: xla.loop (%{{.*}}, %{{.*}}, %{{.*}}, %[[X]], %[[Y]], %[[Z]])[%{{.*}}, %{{.*}}] -> (%[[RA:.*]], %[[RB:.*]]) in #indexing_map iter_args(%[[ITER:.*]] = %{{.*}}) -> (tensor<130x128xf32>) {
// PAD-NEXT: %[[V:.*]] = xla.pure_call @fused_computation_mul_0(%arg0, %[[RA]], %[[RB]]) : (tensor<64x128xf32>, index, index) -> f32
// PAD-NEXT: %[[INS:.*]] = tensor.insert %[[V]] into %[[ITER]][%[[RA]], %[[RB]]]
// PAD-NEXT: xla.yield %[[INS]] : tensor<130x128xf32>
// PAD: func.func private @fused_computation_mul_0(%arg0: tensor<64x128xf32>, %arg1: index {xla.range = [0 : index, 129 : index]}, %arg2: index {xla.range = [0 : index, 127 : index]}) -> f32
// PAD-NEXT: xla.apply_indexing #indexing_map1(%arg1, %arg2){{$}}
// PAD: xla.apply_indexing #indexing_map2(%arg1, %arg2) {xla.range = [0 : index, 63 : index]}

// RUN: FileCheck %s --check-prefix=TILED --input-file=%t.tiled_wrapped_exponential.1
// TILED: #indexing_map = #xla.indexing_map<"(pid) -> (min(-pid * 1024 + 1024, 1024)), domain: pid in [0, 0]">
// TILED: #indexing_map1 = #xla.indexing_map<"(pid, tid) -> (pid * 64 + tid / 16), domain: pid in [0, 0], tid in [0, 1023]">
// TILED: xtile.entry_func @wrapped_exponential(%arg0: memref<64x128xf32>, %arg1: memref<64x128xf32>, %arg2: index {xla.range = [0 : index, 0 : index]}) attributes {num_opaque_args = 0 : i32} {
// TILED: %[[T:.*]] = xtile.extract %arg0[%{{.*}}, %{{.*}}] [1, 8] [1, 1] : memref<64x128xf32> -> tensor<1x8xf32>
// TILED: xtile.insert %{{.*}} into %arg1[%{{.*}}, %{{.*}}] [1, 8] [1, 1] : tensor<1x8xf32> -> memref<64x128xf32>
// TILED: xtile.return

// RUN: FileCheck %s --check-prefix=SCATTER --input-file=%t.scatter_wrapped_scatter.1
// SCATTER: module @wrapped_scatter attributes {dlti.dl_spec = #dlti.dl_spec<index = 32 : i32>, xla.cpu_memory_region_name = "xla_cpu_emitter__cpu_scatter_fusion__hlo_opcode__fusion", xla.extra_backend_options = #xla<extra_backend_options["xla_cpu_disable_loop_unrolling"]>}
// SCATTER: xla.slice_index = -1 : index

// RUN: FileCheck %s --check-prefix=REDUCE --input-file=%t.reduce_multiply_reduce_fusion.1
// REDUCE: func.call @{{.*}}(%{{.*}}, %{{.*}}) {xla.is_reduction} : (f32, f32) -> f32

// RUN: FileCheck %s --check-prefix=GENERIC --input-file=%t.padint_broadcast_multiply_fusion.3
// RUN: mlir-opt %plugins --mlir-print-op-generic %S/Inputs/padint.broadcast_multiply_fusion.mlir | FileCheck %s --check-prefix=GENERIC
// GENERIC: xla.workgroup_id

// A later stage of a tiled kernel: the call frame of XLA's CPU kernels (xla_cpu).
// RUN: FileCheck %s --check-prefix=CPU --input-file=%t.tiled_wrapped_exponential_stages.1
// CPU: func.func @wrapped_exponential(%[[FRAME:.*]]: !xla_cpu.call_frame) -> !xla_cpu.error
// CPU: xla_cpu.load %[[FRAME]], 0 : memref<64x128xf32>
// CPU: xla_cpu.extract_workgroup_id %[[FRAME]], x
// CPU: xla_cpu.success : !xla_cpu.error
