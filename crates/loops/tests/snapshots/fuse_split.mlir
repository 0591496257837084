func.func @C(%A: memref<4x4xf32>, %C: memref<4x4xf32>) {
  // produce C
  affine.for %ci.cj.fused.outer = 0 to 4 {
    %B = memref.alloc() : memref<1x4xf32>
    // produce B
    affine.for %bi = 0 to 1 {
      affine.for %bj = 0 to 4 {
        %0 = affine.load %A[%bi + %ci.cj.fused.outer, %bj] : memref<4x4xf32>
        %1 = arith.constant 2.0 : f32
        %2 = arith.addf %0, %1 : f32
        affine.store %2, %B[%bi, %bj] : memref<1x4xf32>
      }
    }
    affine.for %ci.cj.fused.inner = 0 to 4 {
      %3 = affine.load %B[%ci.cj.fused.inner floordiv 4, %ci.cj.fused.inner mod 4] : memref<1x4xf32>
      %4 = arith.constant 3.0 : f32
      %5 = arith.mulf %3, %4 : f32
      affine.store %5, %C[%ci.cj.fused.outer + %ci.cj.fused.inner floordiv 4, %ci.cj.fused.inner mod 4] : memref<4x4xf32>
    }
    memref.dealloc %B : memref<1x4xf32>
  }
  return
}
