module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x6xf32>, %arg1: tensor<6x5xf32>, %arg2: tensor<6xf32>) -> (tensor<4x5xf32> {jax.result_info = "result[0]"}, tensor<4xf32> {jax.result_info = "result[1]"}, tensor<4x5xf32> {jax.result_info = "result[2]"}, tensor<1x4x5xf32> {jax.result_info = "result[3]"}, tensor<6x6xf32> {jax.result_info = "result[4]"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x6xf32>, tensor<6x5xf32>) -> tensor<4x5xf32>
    %1 = stablehlo.dot_general %arg0, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x6xf32>, tensor<6xf32>) -> tensor<4xf32>
    %2 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [HIGHEST, HIGHEST] : (tensor<4x6xf32>, tensor<6x5xf32>) -> tensor<4x5xf32>
    %3 = stablehlo.broadcast_in_dim %arg0, dims = [1, 2] : (tensor<4x6xf32>) -> tensor<1x4x6xf32>
    %4 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2] : (tensor<6x5xf32>) -> tensor<1x6x5xf32>
    %5 = stablehlo.dot_general %3, %4, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<1x4x6xf32>, tensor<1x6x5xf32>) -> tensor<1x4x5xf32>
    %6 = stablehlo.broadcast_in_dim %arg2, dims = [0] : (tensor<6xf32>) -> tensor<6x1xf32>
    %7 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<6xf32>) -> tensor<1x6xf32>
    %8 = stablehlo.broadcast_in_dim %6, dims = [0, 1] : (tensor<6x1xf32>) -> tensor<6x6xf32>
    %9 = stablehlo.broadcast_in_dim %7, dims = [0, 1] : (tensor<1x6xf32>) -> tensor<6x6xf32>
    %10 = stablehlo.multiply %8, %9 : tensor<6x6xf32>
    return %0, %1, %2, %5, %10 : tensor<4x5xf32>, tensor<4xf32>, tensor<4x5xf32>, tensor<1x4x5xf32>, tensor<6x6xf32>
  }
}
