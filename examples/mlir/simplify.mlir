// Index arithmetic of a GPU kernel: `xla-indexing opt examples/mlir/simplify.mlir
// --pass-pipeline='builtin.module(xla-indexing-simplify)'` removes every division.
func.func @kernel(%n: index) -> (index, index) {
  %tid = gpu.thread_id x upper_bound 128
  %bid = gpu.block_id x upper_bound 16
  %0:2 = xla_indexing.apply_indexing #xla_indexing.map<"(d0, d1) -> ((d1 * 128 + d0) floordiv 128, (d1 * 128 + d0) mod 128), domain: d0 in [0, 127], d1 in [0, 15]">(%tid, %bid) : index, index
  return %0#0, %0#1 : index, index
}
