// A not coalesced read says why XLA's kernel makes it too: XLA keeps this reduction (a minor
// reduced run of 5) with the loop emitter, and its loop emitter reads as ours. A coalesced
// access has no such line.

// REQUIRES: xla-indexing-cli
// RUN: %xla-indexing coalescing %S/Inputs/reduce_run_of_5.hlo | FileCheck %s

// CHECK: fusion output 0 <- operand 0 f32[3,4,5]{2,1,0} (map 0): NOT coalesced
// CHECK: why: lanes step 1 along dimension 1
// CHECK-NEXT: xla: XLA's kernel makes this access too: its loop emitter {{.*}}; XLA keeps the fusion there too: the minor run of 5 reduced elements
// CHECK: fusion output 0 store: coalesced
// CHECK-NOT: xla:
