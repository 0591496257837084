// xla-indexing-lower-apply turns apply_indexing into arith ops (unsigned division where the
// dividend is provably non-negative over the domain; a mod as its dividend less the modulus
// times the quotient, so that the division is shared with a quotient computed anyway), or
// affine.apply where a value might not fit; prefer-affine asks for affine.apply throughout.
// Every addi, subi and muli is exact, so it carries nsw, and nuw where no value on the way is
// negative. With index-bitwidth=64 the ops stay on index (CHECK); by default they compute on
// i32 where every value fits (NARROW; the limits are in lower_apply_i32.mlir). Linear
// addressing of memref accesses is in lower_apply_linearize.mlir.

// RUN: mlir-opt %s %plugins --pass-pipeline='builtin.module(xla-indexing-lower-apply{index-bitwidth=64})' | FileCheck %s
// RUN: mlir-opt %s %plugins --pass-pipeline='builtin.module(func.func(xla-indexing-lower-apply{index-bitwidth=64}))' | FileCheck %s
// RUN: mlir-opt %s %plugins --pass-pipeline='builtin.module(xla-indexing-lower-apply)' | FileCheck %s --check-prefix=NARROW
// RUN: mlir-opt %s %plugins --pass-pipeline='builtin.module(xla-indexing-lower-apply{index-bitwidth=64}, cse)' | FileCheck %s --check-prefix=SHARED
// RUN: mlir-opt %s %plugins --pass-pipeline='builtin.module(xla-indexing-lower-apply{prefer-affine=true})' | FileCheck %s --check-prefix=AFFINE
// RUN: mlir-opt %s %plugins --pass-pipeline='builtin.module(xla-indexing-lower-apply{prefer-affine=true simplify=false})' | FileCheck %s --check-prefix=WRITTEN
// RUN: not mlir-opt %s %plugins --pass-pipeline='builtin.module(xla-indexing-lower-apply{bogus=1})' 2>&1 | FileCheck %s --check-prefix=BAD-OPTION
// RUN: not mlir-opt %s %plugins --pass-pipeline='builtin.module(xla-indexing-lower-apply{index-bitwidth=16})' 2>&1 | FileCheck %s --check-prefix=BAD-WIDTH

// BAD-OPTION: no such option bogus
// BAD-WIDTH: error: xla-indexing-lower-apply: index-bitwidth must be 32 or 64, not 16

// CHECK-LABEL: func.func @unsigned
// CHECK-SAME: (%[[D0:.*]]: index, %[[D1:.*]]: index, %[[S0:.*]]: index)
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK: %[[Q:.*]] = arith.divui %[[D0]], %[[C8]] : index
// CHECK: %[[R0:.*]] = arith.addi %[[S0]], %[[Q]] overflow<nsw, nuw> : index
// CHECK: %[[Q4:.*]] = arith.divui %[[D0]], %[[C4]] : index
// CHECK: %[[Q4K:.*]] = arith.muli %[[Q4]], %[[C4]] overflow<nsw, nuw> : index
// CHECK: %[[M:.*]] = arith.subi %[[D0]], %[[Q4K]] overflow<nsw, nuw> : index
// CHECK: %[[T:.*]] = arith.muli %[[M]], %[[C4]] overflow<nsw, nuw> : index
// CHECK: %[[R1:.*]] = arith.addi %[[D1]], %[[T]] overflow<nsw, nuw> : index
// CHECK-NOT: xla_indexing.apply_indexing
// CHECK: return %[[R0]], %[[R1]], %[[D1]], %[[C4]]
// NARROW-LABEL: func.func @unsigned
// NARROW-SAME: (%[[D0:.*]]: index, %[[D1:.*]]: index, %[[S0:.*]]: index)
// NARROW-DAG: %[[C4:.*]] = arith.constant 4 : index
// NARROW-DAG: %[[C4I:.*]] = arith.constant 4 : i32
// NARROW-DAG: %[[C8I:.*]] = arith.constant 8 : i32
// NARROW: %[[D0I:.*]] = arith.index_castui %[[D0]] : index to i32
// NARROW: %[[Q:.*]] = arith.divui %[[D0I]], %[[C8I]] : i32
// NARROW: %[[S0I:.*]] = arith.index_castui %[[S0]] : index to i32
// NARROW: %[[R0I:.*]] = arith.addi %[[S0I]], %[[Q]] overflow<nsw, nuw> : i32
// NARROW: %[[R0:.*]] = arith.index_castui %[[R0I]] : i32 to index
// NARROW: %[[D0J:.*]] = arith.index_castui %[[D0]] : index to i32
// NARROW: %[[Q4:.*]] = arith.divui %[[D0J]], %[[C4I]] : i32
// NARROW: %[[Q4K:.*]] = arith.muli %[[Q4]], %[[C4I]] overflow<nsw, nuw> : i32
// NARROW: %[[M:.*]] = arith.subi %[[D0J]], %[[Q4K]] overflow<nsw, nuw> : i32
// NARROW: %[[T:.*]] = arith.muli %[[M]], %[[C4I]] overflow<nsw, nuw> : i32
// NARROW: %[[D1I:.*]] = arith.index_castui %[[D1]] : index to i32
// NARROW: %[[R1I:.*]] = arith.addi %[[D1I]], %[[T]] overflow<nsw, nuw> : i32
// NARROW: %[[R1:.*]] = arith.index_castui %[[R1I]] : i32 to index
// NARROW: return %[[R0]], %[[R1]], %[[D1]], %[[C4]]
// AFFINE-LABEL: func.func @unsigned
// AFFINE-COUNT-2: affine.apply
// AFFINE-NOT: arith.divui
// AFFINE: return
func.func @unsigned(%d0: index, %d1: index, %s0: index) -> (index, index, index, index) {
  %0:4 = xla_indexing.apply_indexing #xla_indexing.map<"(d0, d1)[s0] -> (d0 floordiv 8 + s0, (d0 * 4 + d1) mod 16, d1, 4), domain: d0 in [0, 63], d1 in [0, 3], s0 in [0, 3]">(%d0, %d1, %s0) : index, index, index, index
  return %0#0, %0#1, %0#2, %0#3 : index, index, index, index
}

// A dividend that may be negative: floor division stays signed, and the mod takes the quotient
// of the floor division computed for the other result (one division after cse; no nuw where a
// value may be negative).
// CHECK-LABEL: func.func @signed
// CHECK-SAME: (%[[D0:.*]]: index)
// CHECK-DAG: %[[CM5:.*]] = arith.constant -5 : index
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK: %[[T:.*]] = arith.addi %[[D0]], %[[CM5]] overflow<nsw> : index
// CHECK: %[[Q:.*]] = arith.floordivsi %[[T]], %[[C4]] : index
// CHECK: %[[QK:.*]] = arith.muli %[[Q]], %[[C4]] overflow<nsw> : index
// CHECK: %[[M:.*]] = arith.subi %[[T]], %[[QK]] overflow<nsw> : index
// CHECK: return %[[M]], %{{.*}}
// SHARED-LABEL: func.func @signed
// SHARED-COUNT-1: arith.floordivsi
// SHARED-NOT: arith.floordivsi
// SHARED-NOT: arith.divui
// SHARED: return
// The floor division's result may be negative: it comes back with index_cast (sign extension).
// NARROW-LABEL: func.func @signed
// NARROW: arith.floordivsi %{{.*}}, %{{.*}} : i32
// NARROW: %[[Q:.*]] = arith.floordivsi %{{.*}}, %{{.*}} : i32
// NARROW: %[[QX:.*]] = arith.index_cast %[[Q]] : i32 to index
// NARROW: return %{{.*}}, %[[QX]]
func.func @signed(%d0: index) -> (index, index) {
  %0:2 = xla_indexing.apply_indexing #xla_indexing.map<"(d0) -> ((d0 - 5) mod 4, (d0 - 5) floordiv 4), domain: d0 in [0, 15]">(%d0) : index, index
  return %0#0, %0#1 : index, index
}

// A mod alone takes a dividend shifted by a multiple of the modulus that makes it non-negative,
// so that the division is unsigned; two congruent mods share one division, and so does a mod
// whose dividend is congruent to that of a floor division in another apply_indexing of the
// function ((d1 - d0 * 7) mod 45 is (d0 * 38 + d1) mod 45 and (d1 + d0 * 128) mod 45).
// SHARED-LABEL: func.func @congruent
// SHARED-SAME: (%[[D0:.*]]: index, %[[D1:.*]]: index)
// SHARED-COUNT-1: arith.divui
// SHARED-NOT: arith.divui
// SHARED-NOT: arith.remui
// SHARED: return
func.func @congruent(%d0: index, %d1: index) -> (index, index, index) {
  %0 = xla_indexing.apply_indexing #xla_indexing.map<"(d0, d1) -> ((d1 + d0 * 128) floordiv 45), domain: d0 in [0, 29], d1 in [0, 127]">(%d0, %d1) : index
  %1:2 = xla_indexing.apply_indexing #xla_indexing.map<"(d0, d1) -> ((d1 - d0 * 7) mod 45, ((d1 - d0 * 7) mod 45) * 2), domain: d0 in [0, 29], d1 in [0, 127]">(%d0, %d1) : index, index
  return %0, %1#0, %1#1 : index, index, index
}

// d0 * 4 might not fit in 64 bits: affine.apply, which never wraps.
// CHECK-LABEL: func.func @huge
// CHECK: affine.apply #{{.*}}(%{{.*}})
// CHECK-NOT: arith.divui
// NARROW-LABEL: func.func @huge
// NARROW: affine.apply #{{.*}}(%{{.*}})
// NARROW-NOT: arith.divui
func.func @huge(%d0: index) -> index {
  %0 = xla_indexing.apply_indexing #xla_indexing.map<"(d0) -> ((d0 * 4) floordiv 3), domain: d0 in [0, 4611686018427387904]">(%d0) : index
  return %0 : index
}

// An operand that is never in the domain (20 is not in [0, 9]): the result is never defined and
// becomes 0, so that no apply_indexing is left.
// CHECK-LABEL: func.func @never_in_domain
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: return %[[C0]]
// NARROW-LABEL: func.func @never_in_domain
// NARROW-NEXT: %[[C0:.*]] = arith.constant 0 : index
// NARROW-NEXT: return %[[C0]]
func.func @never_in_domain() -> index {
  %c20 = arith.constant 20 : index
  %0 = xla_indexing.apply_indexing #xla_indexing.map<"(d0) -> (d0 floordiv 2), domain: d0 in [0, 9]">(%c20) : index
  return %0 : index
}

// simplify=false lowers the expression as written (the upstream baseline of the GPU benchmark;
// affine_map folds it only as far as it can without bounds);
// by default the map is simplified within its domain first, and the result is d0 itself.
// CHECK-LABEL: func.func @written
// CHECK-SAME: (%[[D0:.*]]: index, %{{.*}}: index)
// CHECK-NEXT: return %[[D0]]
// WRITTEN: #[[WRITTEN:.*]] = affine_map<(d0, d1) -> (d0 + d1 floordiv 4)>
// WRITTEN-LABEL: func.func @written
// WRITTEN: affine.apply #[[WRITTEN]]
func.func @written(%d0: index, %d1: index) -> index {
  %0 = xla_indexing.apply_indexing #xla_indexing.map<"(d0, d1) -> ((d0 * 4 + d1) floordiv 4), domain: d0 in [0, 9], d1 in [0, 3]">(%d0, %d1) : index
  return %0 : index
}
