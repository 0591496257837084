"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{function_type = (tensor<6x7xf32>, tensor<5xi32>) -> (tensor<5x7xf32>, tensor<6x5xf32>, tensor<5x1xf32>, tensor<5xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}, {jax.result_info = "result[3]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg9: tensor<6x7xf32>, %arg10: tensor<5xi32>):
    %45 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %46 = "stablehlo.broadcast_in_dim"(%45) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<5xi32>
    %47 = "stablehlo.compare"(%arg10, %46) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi1>
    %48 = "stablehlo.constant"() <{value = dense<6> : tensor<i32>}> : () -> tensor<i32>
    %49 = "stablehlo.broadcast_in_dim"(%48) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<5xi32>
    %50 = "stablehlo.add"(%arg10, %49) : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi32>
    %51 = "stablehlo.select"(%47, %50, %arg10) : (tensor<5xi1>, tensor<5xi32>, tensor<5xi32>) -> tensor<5xi32>
    %52 = "stablehlo.broadcast_in_dim"(%51) <{broadcast_dimensions = array<i64: 0>}> : (tensor<5xi32>) -> tensor<5x1xi32>
    %53 = "stablehlo.gather"(%arg9, %52) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 7>}> : (tensor<6x7xf32>, tensor<5x1xi32>) -> tensor<5x7xf32>
    %54 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %55 = "stablehlo.broadcast_in_dim"(%54) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<5xi32>
    %56 = "stablehlo.compare"(%arg10, %55) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi1>
    %57 = "stablehlo.constant"() <{value = dense<7> : tensor<i32>}> : () -> tensor<i32>
    %58 = "stablehlo.broadcast_in_dim"(%57) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<5xi32>
    %59 = "stablehlo.add"(%arg10, %58) : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi32>
    %60 = "stablehlo.select"(%56, %59, %arg10) : (tensor<5xi1>, tensor<5xi32>, tensor<5xi32>) -> tensor<5xi32>
    %61 = "stablehlo.broadcast_in_dim"(%60) <{broadcast_dimensions = array<i64: 0>}> : (tensor<5xi32>) -> tensor<5x1xi32>
    %62 = "stablehlo.gather"(%arg9, %61) <{dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [1], start_index_map = [1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 6, 1>}> : (tensor<6x7xf32>, tensor<5x1xi32>) -> tensor<6x5xf32>
    %63 = "stablehlo.slice"(%arg9) <{limit_indices = array<i64: 5, 7>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<6x7xf32>) -> tensor<5x7xf32>
    %64 = "stablehlo.broadcast_in_dim"(%arg10) <{broadcast_dimensions = array<i64: 0>}> : (tensor<5xi32>) -> tensor<5x1xi32>
    %65 = "stablehlo.constant"() <{value = dense<6> : tensor<i32>}> : () -> tensor<i32>
    %66 = "func.call"(%64, %65) <{callee = @remainder}> : (tensor<5x1xi32>, tensor<i32>) -> tensor<5x1xi32>
    %67 = "func.call"(%63, %66) <{callee = @take_along_axis}> : (tensor<5x7xf32>, tensor<5x1xi32>) -> tensor<5x1xf32>
    %68 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %69 = "stablehlo.broadcast_in_dim"(%68) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<5xi32>
    %70 = "stablehlo.compare"(%arg10, %69) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi1>
    %71 = "stablehlo.constant"() <{value = dense<6> : tensor<i32>}> : () -> tensor<i32>
    %72 = "stablehlo.broadcast_in_dim"(%71) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<5xi32>
    %73 = "stablehlo.add"(%arg10, %72) : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi32>
    %74 = "stablehlo.select"(%70, %73, %arg10) : (tensor<5xi1>, tensor<5xi32>, tensor<5xi32>) -> tensor<5xi32>
    %75 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %76 = "stablehlo.broadcast_in_dim"(%75) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<5xi32>
    %77 = "stablehlo.compare"(%arg10, %76) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi1>
    %78 = "stablehlo.constant"() <{value = dense<7> : tensor<i32>}> : () -> tensor<i32>
    %79 = "stablehlo.broadcast_in_dim"(%78) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<5xi32>
    %80 = "stablehlo.add"(%arg10, %79) : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi32>
    %81 = "stablehlo.select"(%77, %80, %arg10) : (tensor<5xi1>, tensor<5xi32>, tensor<5xi32>) -> tensor<5xi32>
    %82 = "stablehlo.broadcast_in_dim"(%74) <{broadcast_dimensions = array<i64: 0>}> : (tensor<5xi32>) -> tensor<5x1xi32>
    %83 = "stablehlo.broadcast_in_dim"(%81) <{broadcast_dimensions = array<i64: 0>}> : (tensor<5xi32>) -> tensor<5x1xi32>
    %84 = "stablehlo.concatenate"(%82, %83) <{dimension = 1 : i64}> : (tensor<5x1xi32>, tensor<5x1xi32>) -> tensor<5x2xi32>
    %85 = "stablehlo.gather"(%arg9, %84) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<6x7xf32>, tensor<5x2xi32>) -> tensor<5xf32>
    "func.return"(%53, %62, %67, %85) : (tensor<5x7xf32>, tensor<6x5xf32>, tensor<5x1xf32>, tensor<5xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<5x1xi32>, tensor<i32>) -> tensor<5x1xi32>, sym_name = "remainder", sym_visibility = "private"}> ({
  ^bb0(%arg7: tensor<5x1xi32>, %arg8: tensor<i32>):
    %24 = "stablehlo.convert"(%arg8) : (tensor<i32>) -> tensor<i32>
    %25 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %26 = "stablehlo.compare"(%24, %25) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %27 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %28 = "func.call"(%26, %27, %24) <{callee = @_where}> : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %29 = "stablehlo.broadcast_in_dim"(%28) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<5x1xi32>
    %30 = "stablehlo.remainder"(%arg7, %29) : (tensor<5x1xi32>, tensor<5x1xi32>) -> tensor<5x1xi32>
    %31 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %32 = "stablehlo.broadcast_in_dim"(%31) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<5x1xi32>
    %33 = "stablehlo.compare"(%30, %32) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<5x1xi32>, tensor<5x1xi32>) -> tensor<5x1xi1>
    %34 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %35 = "stablehlo.broadcast_in_dim"(%34) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<5x1xi32>
    %36 = "stablehlo.compare"(%30, %35) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<5x1xi32>, tensor<5x1xi32>) -> tensor<5x1xi1>
    %37 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %38 = "stablehlo.compare"(%28, %37) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %39 = "stablehlo.broadcast_in_dim"(%38) <{broadcast_dimensions = array<i64>}> : (tensor<i1>) -> tensor<5x1xi1>
    %40 = "stablehlo.compare"(%36, %39) <{compare_type = #stablehlo<comparison_type UNSIGNED>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<5x1xi1>, tensor<5x1xi1>) -> tensor<5x1xi1>
    %41 = "stablehlo.and"(%40, %33) : (tensor<5x1xi1>, tensor<5x1xi1>) -> tensor<5x1xi1>
    %42 = "stablehlo.broadcast_in_dim"(%28) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<5x1xi32>
    %43 = "stablehlo.add"(%30, %42) : (tensor<5x1xi32>, tensor<5x1xi32>) -> tensor<5x1xi32>
    %44 = "stablehlo.select"(%41, %43, %30) : (tensor<5x1xi1>, tensor<5x1xi32>, tensor<5x1xi32>) -> tensor<5x1xi32>
    "func.return"(%44) : (tensor<5x1xi32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>, sym_name = "_where", sym_visibility = "private"}> ({
  ^bb0(%arg4: tensor<i1>, %arg5: tensor<i32>, %arg6: tensor<i32>):
    %23 = "stablehlo.select"(%arg4, %arg5, %arg6) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    "func.return"(%23) : (tensor<i32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<5x7xf32>, tensor<5x1xi32>) -> tensor<5x1xf32>, sym_name = "take_along_axis", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<5x7xf32>, %arg1: tensor<5x1xi32>):
    %0 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %1 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<5x1xi32>
    %2 = "stablehlo.compare"(%arg1, %1) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<5x1xi32>, tensor<5x1xi32>) -> tensor<5x1xi1>
    %3 = "stablehlo.constant"() <{value = dense<7> : tensor<i32>}> : () -> tensor<i32>
    %4 = "stablehlo.broadcast_in_dim"(%3) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<5x1xi32>
    %5 = "stablehlo.add"(%arg1, %4) : (tensor<5x1xi32>, tensor<5x1xi32>) -> tensor<5x1xi32>
    %6 = "stablehlo.select"(%2, %5, %arg1) : (tensor<5x1xi1>, tensor<5x1xi32>, tensor<5x1xi32>) -> tensor<5x1xi32>
    %7 = "stablehlo.reshape"(%6) : (tensor<5x1xi32>) -> tensor<5x1x1xi32>
    %8 = "stablehlo.constant"() <{value = dense<6> : tensor<1xi32>}> : () -> tensor<1xi32>
    %9 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %10 = "stablehlo.broadcast_in_dim"(%9) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<5x1x1xi32>
    %11 = "stablehlo.compare"(%7, %10) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<5x1x1xi32>, tensor<5x1x1xi32>) -> tensor<5x1x1xi1>
    %12 = "stablehlo.broadcast_in_dim"(%8) <{broadcast_dimensions = array<i64: 2>}> : (tensor<1xi32>) -> tensor<1x1x1xi32>
    %13 = "stablehlo.broadcast_in_dim"(%12) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x1xi32>) -> tensor<5x1x1xi32>
    %14 = "stablehlo.compare"(%7, %13) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<5x1x1xi32>, tensor<5x1x1xi32>) -> tensor<5x1x1xi1>
    %15 = "stablehlo.and"(%11, %14) : (tensor<5x1x1xi1>, tensor<5x1x1xi1>) -> tensor<5x1x1xi1>
    %16 = "stablehlo.constant"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
    %17 = "stablehlo.reduce"(%15, %16) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg2: tensor<i1>, %arg3: tensor<i1>):
      %22 = "stablehlo.and"(%arg2, %arg3) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      "stablehlo.return"(%22) : (tensor<i1>) -> ()
    }) : (tensor<5x1x1xi1>, tensor<i1>) -> tensor<5x1xi1>
    %18 = "stablehlo.gather"(%arg0, %7) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<5x7xf32>, tensor<5x1x1xi32>) -> tensor<5x1xf32>
    %19 = "stablehlo.constant"() <{value = dense<0x7FC00000> : tensor<f32>}> : () -> tensor<f32>
    %20 = "stablehlo.broadcast_in_dim"(%19) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<5x1xf32>
    %21 = "stablehlo.select"(%17, %18, %20) : (tensor<5x1xi1>, tensor<5x1xf32>, tensor<5x1xf32>) -> tensor<5x1xf32>
    "func.return"(%21) : (tensor<5x1xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
