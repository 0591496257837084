module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x8xf32>, %arg1: tensor<4x8xf32>) -> (tensor<4x8xf32> {jax.result_info = "result[0]"}, tensor<4x8xf32> {jax.result_info = "result[1]"}, tensor<4x8xf32> {jax.result_info = "result[2]"}, tensor<4x8xf32> {jax.result_info = "result[3]"}, tensor<4x8xf32> {jax.result_info = "result[4]"}, tensor<4x8xf32> {jax.result_info = "result[5]"}, tensor<4x8xf32> {jax.result_info = "result[6]"}, tensor<4x8xf32> {jax.result_info = "result[7]"}, tensor<4x8xf32> {jax.result_info = "result[8]"}, tensor<4x8xf32> {jax.result_info = "result[9]"}, tensor<4x8xf32> {jax.result_info = "result[10]"}, tensor<4x8xf32> {jax.result_info = "result[11]"}, tensor<4x8xf32> {jax.result_info = "result[12]"}, tensor<4x8xf32> {jax.result_info = "result[13]"}, tensor<4x8xf32> {jax.result_info = "result[14]"}, tensor<4x8xf32> {jax.result_info = "result[15]"}, tensor<4x8xf32> {jax.result_info = "result[16]"}, tensor<4x8xf32> {jax.result_info = "result[17]"}, tensor<4x8xf32> {jax.result_info = "result[18]"}, tensor<4x8xf32> {jax.result_info = "result[19]"}, tensor<4x8xf32> {jax.result_info = "result[20]"}, tensor<4x8xf32> {jax.result_info = "result[21]"}, tensor<4x8xf32> {jax.result_info = "result[22]"}, tensor<4x8xf32> {jax.result_info = "result[23]"}, tensor<4x8xf32> {jax.result_info = "result[24]"}, tensor<4x8xi1> {jax.result_info = "result[25]"}, tensor<4x8xf32> {jax.result_info = "result[26]"}, tensor<4x8xf32> {jax.result_info = "result[27]"}, tensor<4x8xf32> {jax.result_info = "result[28]"}) {
    %0 = stablehlo.add %arg0, %arg1 : tensor<4x8xf32>
    %1 = stablehlo.subtract %arg0, %arg1 : tensor<4x8xf32>
    %2 = stablehlo.multiply %arg0, %arg1 : tensor<4x8xf32>
    %3 = stablehlo.divide %arg0, %arg1 : tensor<4x8xf32>
    %4 = stablehlo.maximum %arg0, %arg1 : tensor<4x8xf32>
    %5 = stablehlo.minimum %arg0, %arg1 : tensor<4x8xf32>
    %6 = stablehlo.exponential %arg0 : tensor<4x8xf32>
    %7 = stablehlo.log %arg0 : tensor<4x8xf32>
    %8 = stablehlo.tanh %arg0 : tensor<4x8xf32>
    %9 = stablehlo.negate %arg0 : tensor<4x8xf32>
    %10 = stablehlo.abs %arg0 : tensor<4x8xf32>
    %11 = stablehlo.sqrt %arg0 : tensor<4x8xf32>
    %12 = stablehlo.rsqrt %arg0 : tensor<4x8xf32>
    %13 = stablehlo.power %arg0, %arg1 : tensor<4x8xf32>
    %14 = stablehlo.floor %arg0 : tensor<4x8xf32>
    %15 = stablehlo.ceil %arg0 : tensor<4x8xf32>
    %16 = stablehlo.sine %arg0 : tensor<4x8xf32>
    %17 = stablehlo.cosine %arg0 : tensor<4x8xf32>
    %18 = stablehlo.sign %arg0 : tensor<4x8xf32>
    %19 = stablehlo.exponential_minus_one %arg0 : tensor<4x8xf32>
    %20 = stablehlo.log_plus_one %arg0 : tensor<4x8xf32>
    %21 = stablehlo.negate %arg0 : tensor<4x8xf32>
    %22 = stablehlo.exponential %21 : tensor<4x8xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %23 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %24 = stablehlo.add %23, %22 : tensor<4x8xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %25 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %26 = stablehlo.divide %25, %24 : tensor<4x8xf32>
    %27 = call @round(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %28 = stablehlo.atan2 %arg0, %arg1 : tensor<4x8xf32>
    %29 = call @remainder(%arg0, %arg1) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %30 = stablehlo.is_finite %arg0 : (tensor<4x8xf32>) -> tensor<4x8xi1>
    %31 = stablehlo.cbrt %arg0 : tensor<4x8xf32>
    %32 = stablehlo.tan %arg0 : tensor<4x8xf32>
    %33 = stablehlo.round_nearest_afz %arg0 : tensor<4x8xf32>
    return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %26, %27, %28, %29, %30, %31, %32, %33 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
  }
  func.func private @round(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %0 = stablehlo.round_nearest_even %arg0 : tensor<4x8xf32>
    return %0 : tensor<4x8xf32>
  }
  func.func private @remainder(%arg0: tensor<4x8xf32>, %arg1: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %0 = stablehlo.remainder %arg0, %arg1 : tensor<4x8xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %2 = stablehlo.compare NE, %0, %1, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %4 = stablehlo.compare LT, %0, %3, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %6 = stablehlo.compare LT, %arg1, %5, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %7 = stablehlo.compare NE, %4, %6, UNSIGNED : (tensor<4x8xi1>, tensor<4x8xi1>) -> tensor<4x8xi1>
    %8 = stablehlo.and %7, %2 : tensor<4x8xi1>
    %9 = stablehlo.add %0, %arg1 : tensor<4x8xf32>
    %10 = stablehlo.select %8, %9, %0 : tensor<4x8xi1>, tensor<4x8xf32>
    return %10 : tensor<4x8xf32>
  }
}
