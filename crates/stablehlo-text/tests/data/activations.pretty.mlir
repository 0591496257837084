module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<10xf32>) -> (tensor<10xf32> {jax.result_info = "result[0]"}, tensor<10xf32> {jax.result_info = "result[1]"}, tensor<10xf32> {jax.result_info = "result[2]"}, tensor<10xf32> {jax.result_info = "result[3]"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<10xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<10xf32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<10xf32>
    %3 = stablehlo.subtract %arg0, %2 : tensor<10xf32>
    %4 = stablehlo.compare NE, %3, %3, FLOAT : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xi1>
    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<10xf32>
    %6 = stablehlo.add %arg0, %5 : tensor<10xf32>
    %7 = stablehlo.abs %3 : tensor<10xf32>
    %8 = stablehlo.negate %7 : tensor<10xf32>
    %9 = stablehlo.exponential %8 : tensor<10xf32>
    %10 = stablehlo.log_plus_one %9 : tensor<10xf32>
    %11 = stablehlo.add %1, %10 : tensor<10xf32>
    %12 = stablehlo.select %4, %6, %11 : tensor<10xi1>, tensor<10xf32>
    %13 = stablehlo.multiply %arg0, %arg0 : tensor<10xf32>
    %14 = stablehlo.multiply %13, %arg0 : tensor<10xf32>
    %cst_0 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<10xf32>
    %16 = stablehlo.multiply %15, %14 : tensor<10xf32>
    %17 = stablehlo.add %arg0, %16 : tensor<10xf32>
    %cst_1 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %18 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<10xf32>
    %19 = stablehlo.multiply %18, %17 : tensor<10xf32>
    %20 = stablehlo.tanh %19 : tensor<10xf32>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %21 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<10xf32>
    %22 = stablehlo.add %21, %20 : tensor<10xf32>
    %cst_3 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %23 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<10xf32>
    %24 = stablehlo.multiply %23, %22 : tensor<10xf32>
    %25 = stablehlo.multiply %arg0, %24 : tensor<10xf32>
    %26 = call @relu(%arg0) : (tensor<10xf32>) -> tensor<10xf32>
    %27 = call @silu(%arg0) : (tensor<10xf32>) -> tensor<10xf32>
    return %12, %25, %26, %27 : tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>
  }
  func.func private @relu(%arg0: tensor<10xf32>) -> tensor<10xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<10xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<10xf32>
    return %1 : tensor<10xf32>
  }
  func.func private @silu(%arg0: tensor<10xf32>) -> tensor<10xf32> {
    %0 = stablehlo.negate %arg0 : tensor<10xf32>
    %1 = stablehlo.exponential %0 : tensor<10xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<10xf32>
    %3 = stablehlo.add %2, %1 : tensor<10xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<10xf32>
    %5 = stablehlo.divide %4, %3 : tensor<10xf32>
    %6 = stablehlo.multiply %arg0, %5 : tensor<10xf32>
    return %6 : tensor<10xf32>
  }
}
