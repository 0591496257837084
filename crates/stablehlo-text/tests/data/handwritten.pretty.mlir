module {
  func.func @f(%arg0: tensor<i1>, %arg1: tensor<2xf32>, %arg2: tensor<2xui64>, %arg3: tensor<2x3xf32>) {
    %0 = stablehlo.tuple %arg1, %arg0 : tuple<tensor<2xf32>, tensor<i1>>
    %1 = stablehlo.get_tuple_element %0[1] : (tuple<tensor<2xf32>, tensor<i1>>) -> tensor<i1>
    %2 = "stablehlo.if"(%arg0) ({
      stablehlo.return %arg1 : tensor<2xf32>
    }, {
      %17 = stablehlo.negate %arg1 : tensor<2xf32>
      stablehlo.return %17 : tensor<2xf32>
    }) : (tensor<i1>) -> tensor<2xf32>
    %output_state, %output = stablehlo.rng_bit_generator %arg2, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2x2xui32>)
    %3 = stablehlo.dot %arg1, %arg3, precision = [HIGHEST, DEFAULT] : (tensor<2xf32>, tensor<2x3xf32>) -> tensor<3xf32>
    %4 = stablehlo.dot %arg1, %arg3 : (tensor<2xf32>, tensor<2x3xf32>) -> tensor<3xf32>
    %5 = stablehlo.dot_general %arg3, %arg3, contracting_dims = [0] x [0], algorithm = <lhs_precision_type = tf32, rhs_precision_type = tf32, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 3, allow_imprecise_accumulation = false> : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<3x3xf32>
    %6 = stablehlo.dot_general %arg1, %arg1, contracting_dims = [] x [] : (tensor<2xf32>, tensor<2xf32>) -> tensor<2x2xf32>
    %7 = stablehlo.composite "my.op" %arg1 {composite_attributes = {k = 1 : i32}, decomposition = @g, version = 2 : i32} : (tensor<2xf32>) -> tensor<2xf32>
    %8 = stablehlo.create_token : !stablehlo.token
    %9 = stablehlo.after_all %8, %8 : !stablehlo.token
    %cst = stablehlo.constant dense<(1.000000e+00,2.000000e+00)> : tensor<complex<f32>>
    %10:2 = stablehlo.optimization_barrier %arg1, %arg0 : tensor<2xf32>, tensor<i1>
    %11 = stablehlo.compare EQ, %arg1, %arg1 : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
    %12 = stablehlo.exponential %arg1 {note = "kept", result_accuracy = #stablehlo.result_accuracy<atol = 1.000000e-05, ulps = 1, mode = #stablehlo.result_accuracy_mode<TOLERANCE>>} : tensor<2xf32>
    %13 = stablehlo.broadcast %arg1, sizes = [3] : (tensor<2xf32>) -> tensor<3x2xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %14 = stablehlo.reduce(%arg3 init: %cst_0) across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
     reducer(%arg4: tensor<f32>, %arg5: tensor<f32>)  {
      %17 = stablehlo.add %arg5, %arg4 : tensor<f32>
      stablehlo.return %17 : tensor<f32>
    }
    %15 = stablehlo.partition_id : tensor<ui32>
    %16 = stablehlo.convolution(%arg3, %arg3) dim_numbers = [b, f]x[o, i]->[b, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x2xf32>
    stablehlo.while()
    cond {
      %c = stablehlo.constant dense<false> : tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      stablehlo.return 
    }
    return
  }
  func.func private @g(%arg0: tensor<2xf32>) -> tensor<2xf32> {
    return %arg0 : tensor<2xf32>
  }
}
