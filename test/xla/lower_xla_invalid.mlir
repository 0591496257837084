// xla-indexing-lower-xla reports what it cannot lower as located errors and fails.

// RUN: mlir-opt %plugins --pass-pipeline='builtin.module(xla-indexing-lower-xla)' --split-input-file --verify-diagnostics %s

// expected-error @+1 {{xla-indexing-lower-xla: cannot inline the pure calls}}
module {
  func.func private @external(index) -> f32
  func.func @calls_external(%i: index) -> f32 {
    // expected-error @+1 {{'xla.pure_call' op cannot be inlined: @external is not a function with a body}}
    %0 = xla.pure_call @external(%i) : (index) -> f32
    return %0 : f32
  }
}

// -----

// expected-error @+1 {{xla-indexing-lower-xla: cannot inline the pure calls}}
module {
  func.func private @two_blocks(%i: index) -> index {
    cf.br ^next(%i : index)
  ^next(%j: index):
    return %j : index
  }
  func.func @calls_two_blocks(%i: index) -> index {
    // expected-error @+1 {{'xla.pure_call' op cannot be inlined: @two_blocks does not have a body of one block}}
    %0 = xla.pure_call @two_blocks(%i) : (index) -> index
    return %0 : index
  }
}
