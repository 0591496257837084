module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6x7xf32>, %arg1: tensor<5xi32>) -> (tensor<5x7xf32> {jax.result_info = "result[0]"}, tensor<6x5xf32> {jax.result_info = "result[1]"}, tensor<5x1xf32> {jax.result_info = "result[2]"}, tensor<5xf32> {jax.result_info = "result[3]"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<5xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi1>
    %c_0 = stablehlo.constant dense<6> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<5xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<5xi32>
    %4 = stablehlo.select %1, %3, %arg1 : tensor<5xi1>, tensor<5xi32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<5xi32>) -> tensor<5x1xi32>
    %6 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 7>}> : (tensor<6x7xf32>, tensor<5x1xi32>) -> tensor<5x7xf32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %7 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<5xi32>
    %8 = stablehlo.compare LT, %arg1, %7, SIGNED : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi1>
    %c_2 = stablehlo.constant dense<7> : tensor<i32>
    %9 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<5xi32>
    %10 = stablehlo.add %arg1, %9 : tensor<5xi32>
    %11 = stablehlo.select %8, %10, %arg1 : tensor<5xi1>, tensor<5xi32>
    %12 = stablehlo.broadcast_in_dim %11, dims = [0] : (tensor<5xi32>) -> tensor<5x1xi32>
    %13 = "stablehlo.gather"(%arg0, %12) <{dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [1], start_index_map = [1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 6, 1>}> : (tensor<6x7xf32>, tensor<5x1xi32>) -> tensor<6x5xf32>
    %14 = stablehlo.slice %arg0 [0:5, 0:7] : (tensor<6x7xf32>) -> tensor<5x7xf32>
    %15 = stablehlo.broadcast_in_dim %arg1, dims = [0] : (tensor<5xi32>) -> tensor<5x1xi32>
    %c_3 = stablehlo.constant dense<6> : tensor<i32>
    %16 = call @remainder(%15, %c_3) : (tensor<5x1xi32>, tensor<i32>) -> tensor<5x1xi32>
    %17 = call @take_along_axis(%14, %16) : (tensor<5x7xf32>, tensor<5x1xi32>) -> tensor<5x1xf32>
    %c_4 = stablehlo.constant dense<0> : tensor<i32>
    %18 = stablehlo.broadcast_in_dim %c_4, dims = [] : (tensor<i32>) -> tensor<5xi32>
    %19 = stablehlo.compare LT, %arg1, %18, SIGNED : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi1>
    %c_5 = stablehlo.constant dense<6> : tensor<i32>
    %20 = stablehlo.broadcast_in_dim %c_5, dims = [] : (tensor<i32>) -> tensor<5xi32>
    %21 = stablehlo.add %arg1, %20 : tensor<5xi32>
    %22 = stablehlo.select %19, %21, %arg1 : tensor<5xi1>, tensor<5xi32>
    %c_6 = stablehlo.constant dense<0> : tensor<i32>
    %23 = stablehlo.broadcast_in_dim %c_6, dims = [] : (tensor<i32>) -> tensor<5xi32>
    %24 = stablehlo.compare LT, %arg1, %23, SIGNED : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi1>
    %c_7 = stablehlo.constant dense<7> : tensor<i32>
    %25 = stablehlo.broadcast_in_dim %c_7, dims = [] : (tensor<i32>) -> tensor<5xi32>
    %26 = stablehlo.add %arg1, %25 : tensor<5xi32>
    %27 = stablehlo.select %24, %26, %arg1 : tensor<5xi1>, tensor<5xi32>
    %28 = stablehlo.broadcast_in_dim %22, dims = [0] : (tensor<5xi32>) -> tensor<5x1xi32>
    %29 = stablehlo.broadcast_in_dim %27, dims = [0] : (tensor<5xi32>) -> tensor<5x1xi32>
    %30 = stablehlo.concatenate %28, %29, dim = 1 : (tensor<5x1xi32>, tensor<5x1xi32>) -> tensor<5x2xi32>
    %31 = "stablehlo.gather"(%arg0, %30) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<6x7xf32>, tensor<5x2xi32>) -> tensor<5xf32>
    return %6, %13, %17, %31 : tensor<5x7xf32>, tensor<6x5xf32>, tensor<5x1xf32>, tensor<5xf32>
  }
  func.func private @remainder(%arg0: tensor<5x1xi32>, %arg1: tensor<i32>) -> tensor<5x1xi32> {
    %0 = stablehlo.convert %arg1 : tensor<i32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.compare EQ, %0, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %2 = call @_where(%1, %c_0, %0) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<i32>) -> tensor<5x1xi32>
    %4 = stablehlo.remainder %arg0, %3 : tensor<5x1xi32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<5x1xi32>
    %6 = stablehlo.compare NE, %4, %5, SIGNED : (tensor<5x1xi32>, tensor<5x1xi32>) -> tensor<5x1xi1>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %7 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<5x1xi32>
    %8 = stablehlo.compare LT, %4, %7, SIGNED : (tensor<5x1xi32>, tensor<5x1xi32>) -> tensor<5x1xi1>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %9 = stablehlo.compare LT, %2, %c_3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %10 = stablehlo.broadcast_in_dim %9, dims = [] : (tensor<i1>) -> tensor<5x1xi1>
    %11 = stablehlo.compare NE, %8, %10, UNSIGNED : (tensor<5x1xi1>, tensor<5x1xi1>) -> tensor<5x1xi1>
    %12 = stablehlo.and %11, %6 : tensor<5x1xi1>
    %13 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<i32>) -> tensor<5x1xi32>
    %14 = stablehlo.add %4, %13 : tensor<5x1xi32>
    %15 = stablehlo.select %12, %14, %4 : tensor<5x1xi1>, tensor<5x1xi32>
    return %15 : tensor<5x1xi32>
  }
  func.func private @_where(%arg0: tensor<i1>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<i32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<i32>
    return %0 : tensor<i32>
  }
  func.func private @take_along_axis(%arg0: tensor<5x7xf32>, %arg1: tensor<5x1xi32>) -> tensor<5x1xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<5x1xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<5x1xi32>, tensor<5x1xi32>) -> tensor<5x1xi1>
    %c_0 = stablehlo.constant dense<7> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<5x1xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<5x1xi32>
    %4 = stablehlo.select %1, %3, %arg1 : tensor<5x1xi1>, tensor<5x1xi32>
    %5 = stablehlo.reshape %4 : (tensor<5x1xi32>) -> tensor<5x1x1xi32>
    %c_1 = stablehlo.constant dense<6> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %6 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<5x1x1xi32>
    %7 = stablehlo.compare GE, %5, %6, SIGNED : (tensor<5x1x1xi32>, tensor<5x1x1xi32>) -> tensor<5x1x1xi1>
    %8 = stablehlo.broadcast_in_dim %c_1, dims = [2] : (tensor<1xi32>) -> tensor<1x1x1xi32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1, 2] : (tensor<1x1x1xi32>) -> tensor<5x1x1xi32>
    %10 = stablehlo.compare LE, %5, %9, SIGNED : (tensor<5x1x1xi32>, tensor<5x1x1xi32>) -> tensor<5x1x1xi1>
    %11 = stablehlo.and %7, %10 : tensor<5x1x1xi1>
    %c_3 = stablehlo.constant dense<true> : tensor<i1>
    %12 = stablehlo.reduce(%11 init: %c_3) applies stablehlo.and across dimensions = [2] : (tensor<5x1x1xi1>, tensor<i1>) -> tensor<5x1xi1>
    %13 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<5x7xf32>, tensor<5x1x1xi32>) -> tensor<5x1xf32>
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<5x1xf32>
    %15 = stablehlo.select %12, %13, %14 : tensor<5x1xi1>, tensor<5x1xf32>
    return %15 : tensor<5x1xf32>
  }
}
