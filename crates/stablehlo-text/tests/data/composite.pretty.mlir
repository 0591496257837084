module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<10xf32>, %arg1: tensor<f32>) -> (tensor<10xf32> {jax.result_info = "result[0]"}, tensor<10xf32> {jax.result_info = "result[1]"}) {
    %0 = stablehlo.composite "my.tanh" %arg0 {decomposition = @my.tanh} : (tensor<10xf32>) -> tensor<10xf32>
    %1 = stablehlo.composite "my.scaled" %arg0, %arg1 {decomposition = @my.scaled} : (tensor<10xf32>, tensor<f32>) -> tensor<10xf32>
    return %0, %1 : tensor<10xf32>, tensor<10xf32>
  }
  func.func private @my.tanh(%arg0: tensor<10xf32>) -> tensor<10xf32> {
    %0 = stablehlo.tanh %arg0 : tensor<10xf32>
    return %0 : tensor<10xf32>
  }
  func.func private @my.scaled(%arg0: tensor<10xf32>, %arg1: tensor<f32>) -> tensor<10xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<10xf32>
    %1 = stablehlo.multiply %arg0, %0 : tensor<10xf32>
    return %1 : tensor<10xf32>
  }
}
