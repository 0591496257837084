module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6x10xf32>) -> (tensor<f32> {jax.result_info = "result[0]"}, tensor<10xf32> {jax.result_info = "result[1]"}, tensor<6xf32> {jax.result_info = "result[2]"}, tensor<6xf32> {jax.result_info = "result[3]"}, tensor<10xf32> {jax.result_info = "result[4]"}, tensor<6xi1> {jax.result_info = "result[5]"}, tensor<i1> {jax.result_info = "result[6]"}, tensor<6xf32> {jax.result_info = "result[7]"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [0, 1] : (tensor<6x10xf32>, tensor<f32>) -> tensor<f32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.reduce(%arg0 init: %cst_0) applies stablehlo.add across dimensions = [0] : (tensor<6x10xf32>, tensor<f32>) -> tensor<10xf32>
    %cst_1 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %2 = stablehlo.reduce(%arg0 init: %cst_1) applies stablehlo.maximum across dimensions = [1] : (tensor<6x10xf32>, tensor<f32>) -> tensor<6xf32>
    %cst_2 = stablehlo.constant dense<0x7F800000> : tensor<f32>
    %3 = stablehlo.reduce(%arg0 init: %cst_2) applies stablehlo.minimum across dimensions = [1] : (tensor<6x10xf32>, tensor<f32>) -> tensor<6xf32>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %4 = stablehlo.reduce(%arg0 init: %cst_3) applies stablehlo.multiply across dimensions = [0] : (tensor<6x10xf32>, tensor<f32>) -> tensor<10xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<6x10xf32>
    %6 = stablehlo.compare GT, %arg0, %5, FLOAT : (tensor<6x10xf32>, tensor<6x10xf32>) -> tensor<6x10xi1>
    %c = stablehlo.constant dense<false> : tensor<i1>
    %7 = stablehlo.reduce(%6 init: %c) applies stablehlo.or across dimensions = [1] : (tensor<6x10xi1>, tensor<i1>) -> tensor<6xi1>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<6x10xf32>
    %9 = stablehlo.compare GT, %arg0, %8, FLOAT : (tensor<6x10xf32>, tensor<6x10xf32>) -> tensor<6x10xi1>
    %c_6 = stablehlo.constant dense<true> : tensor<i1>
    %10 = stablehlo.reduce(%9 init: %c_6) applies stablehlo.and across dimensions = [0, 1] : (tensor<6x10xi1>, tensor<i1>) -> tensor<i1>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %11 = stablehlo.reduce(%arg0 init: %cst_7) applies stablehlo.add across dimensions = [1] : (tensor<6x10xf32>, tensor<f32>) -> tensor<6xf32>
    %cst_8 = stablehlo.constant dense<1.000000e+01> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %13 = stablehlo.divide %11, %12 : tensor<6xf32>
    return %0, %1, %2, %3, %4, %7, %10, %13 : tensor<f32>, tensor<10xf32>, tensor<6xf32>, tensor<6xf32>, tensor<10xf32>, tensor<6xi1>, tensor<i1>, tensor<6xf32>
  }
}
