module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6x8xf32>) -> (tensor<2x4xf32> {jax.result_info = "result[0]"}, tensor<6x6xf32> {jax.result_info = "result[1]"}, tensor<6xf32> {jax.result_info = "result[2]"}, tensor<8xf32> {jax.result_info = "result[3]"}, tensor<2x2xf32> {jax.result_info = "result[4]"}) {
    %0 = stablehlo.slice %arg0 [1:3, 0:8:2] : (tensor<6x8xf32>) -> tensor<2x4xf32>
    %1 = stablehlo.slice %arg0 [0:6, 2:8] : (tensor<6x8xf32>) -> tensor<6x6xf32>
    %2 = stablehlo.reverse %1, dims = [0] : tensor<6x6xf32>
    %3 = stablehlo.slice %arg0 [0:6, 3:4] : (tensor<6x8xf32>) -> tensor<6x1xf32>
    %4 = stablehlo.reshape %3 : (tensor<6x1xf32>) -> tensor<6xf32>
    %5 = stablehlo.slice %arg0 [2:3, 0:8] : (tensor<6x8xf32>) -> tensor<1x8xf32>
    %6 = stablehlo.reshape %5 : (tensor<1x8xf32>) -> tensor<8xf32>
    %7 = stablehlo.slice %arg0 [0:4:2, 1:7:3] : (tensor<6x8xf32>) -> tensor<2x2xf32>
    return %0, %2, %4, %6, %7 : tensor<2x4xf32>, tensor<6x6xf32>, tensor<6xf32>, tensor<8xf32>, tensor<2x2xf32>
  }
}
