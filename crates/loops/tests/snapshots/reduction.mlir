func.func @C(%A: memref<8x6xf32>, %C: memref<8xf32>) {
  // produce C
  affine.for %c.outer = 0 to 3 {
    %B = memref.alloc() : memref<3xf32>
    // produce B
    affine.for %i = 0 to min affine_map<(d0) -> (3, -d0 * 3 + 8)>(%c.outer) {
      %0 = arith.constant 0xFF800000 : f32
      affine.store %0, %B[%i] : memref<3xf32>
      affine.for %k = 0 to 6 {
        %1 = affine.load %A[%i + %c.outer * 3, %k] : memref<8x6xf32>
        %2 = arith.constant 2.0 : f32
        %3 = arith.mulf %1, %2 : f32
        %4 = affine.load %B[%i] : memref<3xf32>
        %5 = arith.maximumf %4, %3 : f32
        affine.store %5, %B[%i] : memref<3xf32>
      }
    }
    affine.for %c.inner = 0 to min affine_map<(d0) -> (3, -d0 * 3 + 8)>(%c.outer) {
      affine.if affine_set<(d0, d1) : (d0 * 3 + d1 >= 0, -d0 * 3 - d1 + 7 >= 0)>(%c.outer, %c.inner) {
        %6 = affine.load %B[%c.inner] : memref<3xf32>
        %7 = arith.constant 1.0 : f32
        %8 = arith.addf %6, %7 : f32
        affine.store %8, %C[%c.outer * 3 + %c.inner] : memref<8xf32>
      }
    }
    memref.dealloc %B : memref<3xf32>
  }
  return
}
