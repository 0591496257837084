module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x5xf32>, %arg1: tensor<3x5xi32>) -> (tensor<3x5xi32> {jax.result_info = "result[0]"}, tensor<3x5xf32> {jax.result_info = "result[1]"}, tensor<3x5xbf16> {jax.result_info = "result[2]"}, tensor<3x5xi32> {jax.result_info = "result[3]"}, tensor<3x5xi1> {jax.result_info = "result[4]"}, tensor<3x5xf32> {jax.result_info = "result[5]"}, tensor<3x5xf32> {jax.result_info = "result[6]"}, tensor<3x5xf32> {jax.result_info = "result[7]"}) {
    %0 = stablehlo.convert %arg0 : (tensor<3x5xf32>) -> tensor<3x5xi32>
    %1 = stablehlo.convert %arg1 : (tensor<3x5xi32>) -> tensor<3x5xf32>
    %2 = stablehlo.convert %arg0 : (tensor<3x5xf32>) -> tensor<3x5xbf16>
    %3 = stablehlo.bitcast_convert %arg0 : (tensor<3x5xf32>) -> tensor<3x5xi32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3x5xf32>
    %5 = stablehlo.compare GT, %arg0, %4, FLOAT : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xi1>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<3x5xf32>
    %7 = stablehlo.compare GT, %arg0, %6, FLOAT : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xi1>
    %8 = stablehlo.convert %7 : (tensor<3x5xi1>) -> tensor<3x5xf32>
    %cst_1 = stablehlo.constant dense<-1.000000e+00> : tensor<f32>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %9 = call @clip(%arg0, %cst_1, %cst_2) : (tensor<3x5xf32>, tensor<f32>, tensor<f32>) -> tensor<3x5xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %cst_4 = stablehlo.constant dense<6.000000e+00> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<3x5xf32>
    %11 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<3x5xf32>
    %12 = stablehlo.clamp %10, %arg0, %11 : tensor<3x5xf32>
    return %0, %1, %2, %3, %5, %8, %9, %12 : tensor<3x5xi32>, tensor<3x5xf32>, tensor<3x5xbf16>, tensor<3x5xi32>, tensor<3x5xi1>, tensor<3x5xf32>, tensor<3x5xf32>, tensor<3x5xf32>
  }
  func.func private @clip(%arg0: tensor<3x5xf32>, %arg1: tensor<f32>, %arg2: tensor<f32>) -> tensor<3x5xf32> {
    %0 = stablehlo.convert %arg1 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<3x5xf32>
    %2 = stablehlo.maximum %1, %arg0 : tensor<3x5xf32>
    %3 = stablehlo.convert %arg2 : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<f32>) -> tensor<3x5xf32>
    %5 = stablehlo.minimum %4, %2 : tensor<3x5xf32>
    return %5 : tensor<3x5xf32>
  }
}
