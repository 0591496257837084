module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<5x6xf32>) -> (tensor<5x6xf32> {jax.result_info = "result[0]"}, tensor<5x6xf32> {jax.result_info = "result[1]"}, tensor<5x6xf32> {jax.result_info = "result[2]"}) {
    %0 = call @_flip(%arg0) : (tensor<5x6xf32>) -> tensor<5x6xf32>
    %1 = call @_flip_0(%arg0) : (tensor<5x6xf32>) -> tensor<5x6xf32>
    %2 = stablehlo.reverse %arg0, dims = [0] : tensor<5x6xf32>
    return %0, %1, %2 : tensor<5x6xf32>, tensor<5x6xf32>, tensor<5x6xf32>
  }
  func.func private @_flip(%arg0: tensor<5x6xf32>) -> tensor<5x6xf32> {
    %0 = stablehlo.reverse %arg0, dims = [0] : tensor<5x6xf32>
    return %0 : tensor<5x6xf32>
  }
  func.func private @_flip_0(%arg0: tensor<5x6xf32>) -> tensor<5x6xf32> {
    %0 = stablehlo.reverse %arg0, dims = [0, 1] : tensor<5x6xf32>
    return %0 : tensor<5x6xf32>
  }
}
