func.func @D(%D: memref<5x16xf32>) {
  // produce D
  affine.for %i_1 = 0 to 5 {
    affine.for %j_1 = 0 to 16 {
      %C = memref.alloc() : memref<1x1xf32>
      // produce C
      affine.for %i = 0 to 1 {
        affine.for %j = 0 to 1 {
          %0 = arith.constant 5.0e0 : f32
          affine.store %0, %C[%i, %j] : memref<1x1xf32>
        }
      }
      %1 = affine.load %C[0, 0] : memref<1x1xf32>
      %2 = arith.constant 2.0 : f32
      %3 = arith.mulf %1, %2 : f32
      %4 = affine.apply affine_map<(d0) -> (d0 floordiv 2)>(%i_1)
      %5 = arith.index_cast %4 : index to i64
      %6 = arith.sitofp %5 : i64 to f32
      %7 = arith.subf %3, %6 : f32
      %8 = affine.load %C[0, 0] : memref<1x1xf32>
      %9 = affine.load %C[0, 0] : memref<1x1xf32>
      %10 = arith.negf %9 : f32
      %11 = arith.maximumf %8, %10 : f32
      %12 = arith.constant 3.0 : f32
      %13 = arith.remf %11, %12 : f32
      %14 = arith.addf %7, %13 : f32
      affine.store %14, %D[%i_1, %j_1] : memref<5x16xf32>
      memref.dealloc %C : memref<1x1xf32>
    }
  }
  return
}
