module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x4xf32>) -> (tensor<4x4xf32> {jax.result_info = "result[0]"}, tensor<4xf32> {jax.result_info = "result[1]"}, tensor<f32> {jax.result_info = "result[2]"}, tensor<4x4xf32> {jax.result_info = "result[3]"}, tensor<f32> {jax.result_info = "result[4]"}, tensor<4x4xf32> {jax.result_info = "result[5]"}, tensor<8x4xf32> {jax.result_info = "result[6]"}, tensor<8x4xf32> {jax.result_info = "result[7]"}, tensor<4x4xf32> {jax.result_info = "result[8]"}, tensor<4x4xf32> {jax.result_info = "result[9]"}, tensor<4x4xf32> {jax.result_info = "result[10]"}, tensor<4x4xf32> {jax.result_info = "result[11]"}) {
    %0 = call @triu(%arg0) : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %1 = call @diagonal(%arg0) : (tensor<4x4xf32>) -> tensor<4xf32>
    %2 = call @trace(%arg0) : (tensor<4x4xf32>) -> tensor<f32>
    %3 = call @fft(%arg0) : (tensor<4x4xf32>) -> tensor<4x4xcomplex<f32>>
    %4 = stablehlo.real %3 : (tensor<4x4xcomplex<f32>>) -> tensor<4x4xf32>
    %5 = call @norm(%arg0) : (tensor<4x4xf32>) -> tensor<f32>
    %6 = call @nan_to_num(%arg0) : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %7 = stablehlo.reshape %arg0 : (tensor<4x4xf32>) -> tensor<1x4x1x4xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0, 1, 2, 3] : (tensor<1x4x1x4xf32>) -> tensor<2x4x1x4xf32>
    %9 = stablehlo.reshape %8 : (tensor<2x4x1x4xf32>) -> tensor<8x4xf32>
    %10 = stablehlo.broadcast_in_dim %arg0, dims = [0, 2] : (tensor<4x4xf32>) -> tensor<4x2x4xf32>
    %11 = stablehlo.reshape %10 : (tensor<4x2x4xf32>) -> tensor<8x4xf32>
    %12 = call @_roll_static(%arg0) : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %13 = stablehlo.reduce_precision %arg0, format = e5m10 : tensor<4x4xf32>
    %14 = stablehlo.optimization_barrier %arg0 : tensor<4x4xf32>
    %15 = stablehlo.convert %arg0 : (tensor<4x4xf32>) -> tensor<4x4xcomplex<f32>>
    %cst = stablehlo.constant dense<(0.000000e+00,1.000000e+00)> : tensor<complex<f32>>
    %16 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<complex<f32>>) -> tensor<4x4xcomplex<f32>>
    %17 = stablehlo.add %15, %16 : tensor<4x4xcomplex<f32>>
    %18 = stablehlo.real %17 : (tensor<4x4xcomplex<f32>>) -> tensor<4x4xf32>
    %19 = stablehlo.imag %17 : (tensor<4x4xcomplex<f32>>) -> tensor<4x4xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %20 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
    %21 = stablehlo.compare EQ, %18, %20, FLOAT : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xi1>
    %22 = stablehlo.sine %18 : tensor<4x4xf32>
    %23 = stablehlo.cosine %18 : tensor<4x4xf32>
    %24 = stablehlo.exponential_minus_one %19 : tensor<4x4xf32>
    %25 = stablehlo.negate %19 : tensor<4x4xf32>
    %26 = stablehlo.exponential_minus_one %25 : tensor<4x4xf32>
    %27 = stablehlo.subtract %24, %26 : tensor<4x4xf32>
    %cst_1 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %28 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
    %29 = stablehlo.divide %27, %28 : tensor<4x4xf32>
    %30 = stablehlo.add %24, %26 : tensor<4x4xf32>
    %cst_2 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %31 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
    %32 = stablehlo.add %30, %31 : tensor<4x4xf32>
    %cst_3 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %33 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
    %34 = stablehlo.divide %32, %33 : tensor<4x4xf32>
    %35 = stablehlo.multiply %23, %34 : tensor<4x4xf32>
    %36 = stablehlo.negate %22 : tensor<4x4xf32>
    %37 = stablehlo.multiply %36, %29 : tensor<4x4xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %38 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
    %39 = stablehlo.complex %35, %38 : tensor<4x4xcomplex<f32>>
    %40 = stablehlo.complex %35, %37 : tensor<4x4xcomplex<f32>>
    %41 = stablehlo.select %21, %39, %40 : tensor<4x4xi1>, tensor<4x4xcomplex<f32>>
    %42 = stablehlo.imag %41 : (tensor<4x4xcomplex<f32>>) -> tensor<4x4xf32>
    return %0, %1, %2, %4, %5, %6, %9, %11, %12, %13, %14, %42 : tensor<4x4xf32>, tensor<4xf32>, tensor<f32>, tensor<4x4xf32>, tensor<f32>, tensor<4x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>
  }
  func.func private @triu(%arg0: tensor<4x4xf32>) -> tensor<4x4xf32> {
    %0 = stablehlo.iota dim = 0 : tensor<4x4xi32>
    %c = stablehlo.constant dense<-1> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<4x4xi32>
    %2 = stablehlo.add %0, %1 : tensor<4x4xi32>
    %3 = stablehlo.iota dim = 1 : tensor<4x4xi32>
    %4 = stablehlo.compare GE, %2, %3, SIGNED : (tensor<4x4xi32>, tensor<4x4xi32>) -> tensor<4x4xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
    %6 = stablehlo.select %4, %5, %arg0 : tensor<4x4xi1>, tensor<4x4xf32>
    return %6 : tensor<4x4xf32>
  }
  func.func private @diagonal(%arg0: tensor<4x4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.iota dim = 0 : tensor<4x4xi32>
    %1 = stablehlo.iota dim = 1 : tensor<4x4xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<4x4xi32>
    %3 = stablehlo.add %0, %2 : tensor<4x4xi32>
    %4 = stablehlo.compare EQ, %3, %1, SIGNED : (tensor<4x4xi32>, tensor<4x4xi32>) -> tensor<4x4xi1>
    %5 = stablehlo.convert %4 : (tensor<4x4xi1>) -> tensor<4x4xf32>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %6 = "stablehlo.case"(%c_0) ({
      %c_1 = stablehlo.constant dense<0> : tensor<i32>
      stablehlo.return %c_1 : tensor<i32>
    }, {
      %c_1 = stablehlo.constant dense<0> : tensor<i32>
      stablehlo.return %c_1 : tensor<i32>
    }) : (tensor<i32>) -> tensor<i32>
    %7 = "stablehlo.case"(%6) ({
      %8 = stablehlo.iota dim = 0 : tensor<4xi32>
      %9 = stablehlo.iota dim = 0 : tensor<4xi32>
      %c_1 = stablehlo.constant dense<0> : tensor<i32>
      %10 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<4xi32>
      %11 = stablehlo.compare LT, %8, %10, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
      %c_2 = stablehlo.constant dense<4> : tensor<i32>
      %12 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<4xi32>
      %13 = stablehlo.add %8, %12 : tensor<4xi32>
      %14 = stablehlo.select %11, %13, %8 : tensor<4xi1>, tensor<4xi32>
      %c_3 = stablehlo.constant dense<0> : tensor<i32>
      %15 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i32>) -> tensor<4xi32>
      %16 = stablehlo.compare LT, %9, %15, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
      %c_4 = stablehlo.constant dense<4> : tensor<i32>
      %17 = stablehlo.broadcast_in_dim %c_4, dims = [] : (tensor<i32>) -> tensor<4xi32>
      %18 = stablehlo.add %9, %17 : tensor<4xi32>
      %19 = stablehlo.select %16, %18, %9 : tensor<4xi1>, tensor<4xi32>
      %20 = stablehlo.broadcast_in_dim %14, dims = [0] : (tensor<4xi32>) -> tensor<4x1xi32>
      %21 = stablehlo.broadcast_in_dim %19, dims = [0] : (tensor<4xi32>) -> tensor<4x1xi32>
      %22 = stablehlo.concatenate %20, %21, dim = 1 : (tensor<4x1xi32>, tensor<4x1xi32>) -> tensor<4x2xi32>
      %23 = "stablehlo.gather"(%arg0, %22) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<4x4xf32>, tensor<4x2xi32>) -> tensor<4xf32>
      stablehlo.return %23 : tensor<4xf32>
    }) : (tensor<i32>) -> tensor<4xf32>
    return %7 : tensor<4xf32>
  }
  func.func private @trace(%arg0: tensor<4x4xf32>) -> tensor<f32> {
    %0 = stablehlo.iota dim = 0 : tensor<4x4xi32>
    %1 = stablehlo.iota dim = 1 : tensor<4x4xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<4x4xi32>
    %3 = stablehlo.add %0, %2 : tensor<4x4xi32>
    %4 = stablehlo.compare EQ, %3, %1, SIGNED : (tensor<4x4xi32>, tensor<4x4xi32>) -> tensor<4x4xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
    %6 = call @_where(%4, %arg0, %5) : (tensor<4x4xi1>, tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_0) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x4xf32>, tensor<f32>) -> tensor<f32>
    return %7 : tensor<f32>
  }
  func.func private @_where(%arg0: tensor<4x4xi1>, %arg1: tensor<4x4xf32>, %arg2: tensor<4x4xf32>) -> tensor<4x4xf32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<4x4xi1>, tensor<4x4xf32>
    return %0 : tensor<4x4xf32>
  }
  func.func private @fft(%arg0: tensor<4x4xf32>) -> tensor<4x4xcomplex<f32>> {
    %0 = stablehlo.convert %arg0 : (tensor<4x4xf32>) -> tensor<4x4xcomplex<f32>>
    %1 = stablehlo.fft %0, type = FFT, length = [4] : (tensor<4x4xcomplex<f32>>) -> tensor<4x4xcomplex<f32>>
    return %1 : tensor<4x4xcomplex<f32>>
  }
  func.func private @norm(%arg0: tensor<4x4xf32>) -> tensor<f32> {
    %0 = stablehlo.multiply %arg0, %arg0 : tensor<4x4xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x4xf32>, tensor<f32>) -> tensor<f32>
    %2 = stablehlo.sqrt %1 : tensor<f32>
    return %2 : tensor<f32>
  }
  func.func private @nan_to_num(%arg0: tensor<4x4xf32>) -> tensor<4x4xf32> {
    %0 = stablehlo.compare NE, %arg0, %arg0, FLOAT : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = call @_where_0(%0, %cst, %arg0) : (tensor<4x4xi1>, tensor<f32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %cst_0 = stablehlo.constant dense<0x7F800000> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
    %3 = stablehlo.compare EQ, %1, %2, FLOAT : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xi1>
    %cst_1 = stablehlo.constant dense<3.40282347E+38> : tensor<f32>
    %4 = call @_where_0(%3, %cst_1, %1) : (tensor<4x4xi1>, tensor<f32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %cst_2 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
    %6 = stablehlo.compare EQ, %4, %5, FLOAT : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xi1>
    %cst_3 = stablehlo.constant dense<-3.40282347E+38> : tensor<f32>
    %7 = call @_where_0(%6, %cst_3, %4) : (tensor<4x4xi1>, tensor<f32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    return %7 : tensor<4x4xf32>
  }
  func.func private @_where_0(%arg0: tensor<4x4xi1>, %arg1: tensor<f32>, %arg2: tensor<4x4xf32>) -> tensor<4x4xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
    %1 = stablehlo.select %arg0, %0, %arg2 : tensor<4x4xi1>, tensor<4x4xf32>
    return %1 : tensor<4x4xf32>
  }
  func.func private @_roll_static(%arg0: tensor<4x4xf32>) -> tensor<4x4xf32> {
    %0 = stablehlo.slice %arg0 [0:4, 2:4] : (tensor<4x4xf32>) -> tensor<4x2xf32>
    %1 = stablehlo.slice %arg0 [0:4, 0:2] : (tensor<4x4xf32>) -> tensor<4x2xf32>
    %2 = stablehlo.concatenate %0, %1, dim = 1 : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x4xf32>
    return %2 : tensor<4x4xf32>
  }
}
