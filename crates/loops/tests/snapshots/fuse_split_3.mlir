func.func @C(%A: memref<4x4xf32>, %C: memref<4x4xf32>) {
  // produce C
  affine.for %ci.cj.fused.outer = 0 to 6 {
    %B = memref.alloc() : memref<2x4xf32>
    // produce B
    affine.for %bi = 0 to min affine_map<(d0) -> (-((d0 * 3) floordiv 4) + 4, -((d0 * 3) floordiv 4) + (d0 * 3 + 2) floordiv 4 + 1)>(%ci.cj.fused.outer) {
      affine.for %bj = 0 to 4 {
        %0 = affine.load %A[%bi + (%ci.cj.fused.outer * 3) floordiv 4, %bj] : memref<4x4xf32>
        %1 = arith.constant 2.0 : f32
        %2 = arith.addf %0, %1 : f32
        affine.store %2, %B[%bi, %bj] : memref<2x4xf32>
      }
    }
    affine.for %ci.cj.fused.inner = 0 to min affine_map<(d0) -> (3, -d0 * 3 + 16)>(%ci.cj.fused.outer) {
      affine.if affine_set<(d0, d1) : ((d0 * 3 + d1) floordiv 4 >= 0, -((d0 * 3 + d1) floordiv 4) + 3 >= 0, d0 * 3 + d1 >= 0, -d0 * 3 - d1 + 15 >= 0)>(%ci.cj.fused.outer, %ci.cj.fused.inner) {
        %3 = affine.load %B[-((%ci.cj.fused.outer * 3) floordiv 4) + (%ci.cj.fused.outer * 3 + %ci.cj.fused.inner) floordiv 4, (%ci.cj.fused.outer * 3 + %ci.cj.fused.inner) mod 4] : memref<2x4xf32>
        %4 = arith.constant 3.0 : f32
        %5 = arith.mulf %3, %4 : f32
        affine.store %5, %C[(%ci.cj.fused.outer * 3 + %ci.cj.fused.inner) floordiv 4, (%ci.cj.fused.outer * 3 + %ci.cj.fused.inner) mod 4] : memref<4x4xf32>
      }
    }
    memref.dealloc %B : memref<2x4xf32>
  }
  return
}
