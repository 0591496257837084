module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x8xf32>, %arg1: tensor<8xf32>) -> (tensor<8x8xf32> {jax.result_info = "result[0]"}, tensor<8x8xf32> {jax.result_info = "result[1]"}, tensor<8x4x6xf32> {jax.result_info = "result[2]"}, tensor<2x3xf32> {jax.result_info = "result[3]"}, tensor<3x4xi32> {jax.result_info = "result[4]"}, tensor<3x4xi32> {jax.result_info = "result[5]"}) {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<8xf32>) -> tensor<1x8xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<1x8xf32>) -> tensor<8x8xf32>
    %2 = stablehlo.add %arg0, %1 : tensor<8x8xf32>
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %4 = stablehlo.multiply %arg0, %3 : tensor<8x8xf32>
    %5 = stablehlo.broadcast_in_dim %arg1, dims = [0] : (tensor<8xf32>) -> tensor<8x1x1xf32>
    %6 = stablehlo.broadcast_in_dim %5, dims = [0, 1, 2] : (tensor<8x1x1xf32>) -> tensor<8x4x6xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
    %8 = stablehlo.iota dim = 0 : tensor<12xi32>
    %9 = stablehlo.reshape %8 : (tensor<12xi32>) -> tensor<3x4xi32>
    %10 = stablehlo.iota dim = 1 : tensor<3x4xi32>
    return %2, %4, %6, %7, %9, %10 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x4x6xf32>, tensor<2x3xf32>, tensor<3x4xi32>, tensor<3x4xi32>
  }
}
