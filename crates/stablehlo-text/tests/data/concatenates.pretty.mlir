module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x4xf32>, %arg1: tensor<3x4xf32>) -> (tensor<6x4xf32> {jax.result_info = "result[0]"}, tensor<3x2x4xf32> {jax.result_info = "result[1]"}, tensor<3x12xf32> {jax.result_info = "result[2]"}) {
    %0 = stablehlo.concatenate %arg0, %arg1, dim = 0 : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<6x4xf32>
    %1 = stablehlo.broadcast_in_dim %arg0, dims = [0, 2] : (tensor<3x4xf32>) -> tensor<3x1x4xf32>
    %2 = stablehlo.broadcast_in_dim %arg1, dims = [0, 2] : (tensor<3x4xf32>) -> tensor<3x1x4xf32>
    %3 = stablehlo.concatenate %1, %2, dim = 1 : (tensor<3x1x4xf32>, tensor<3x1x4xf32>) -> tensor<3x2x4xf32>
    %4 = call @atleast_1d(%arg0) : (tensor<3x4xf32>) -> tensor<3x4xf32>
    %5 = call @atleast_1d(%arg1) : (tensor<3x4xf32>) -> tensor<3x4xf32>
    %6 = call @atleast_1d(%arg0) : (tensor<3x4xf32>) -> tensor<3x4xf32>
    %7 = stablehlo.concatenate %4, %5, %6, dim = 1 : (tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x12xf32>
    return %0, %3, %7 : tensor<6x4xf32>, tensor<3x2x4xf32>, tensor<3x12xf32>
  }
  func.func private @atleast_1d(%arg0: tensor<3x4xf32>) -> tensor<3x4xf32> {
    return %arg0 : tensor<3x4xf32>
  }
}
