  func.func @case0(%arg0: index) -> (index, index) {
    %c2_i32 = arith.constant 2 : i32
    %c3_i32 = arith.constant 3 : i32
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c-2 = arith.constant -2 : index
    %c4 = arith.constant 4 : index
    %c6 = arith.constant 6 : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %0 = arith.cmpi sge, %arg0, %c1 : index
    %1 = arith.cmpi sle, %arg0, %c6 : index
    %2 = arith.andi %0, %1 : i1
    %3 = arith.index_castui %arg0 : index to i32
    %4 = arith.divui %3, %c3_i32 : i32
    %5 = arith.muli %4, %c3_i32 overflow<nsw, nuw> : i32
    %6 = arith.subi %3, %5 overflow<nsw, nuw> : i32
    %7 = arith.index_castui %6 : i32 to index
    %8 = arith.cmpi sle, %7, %c1 : index
    %9 = arith.andi %2, %8 : i1
    %10:2 = scf.for %arg1 = %c0 to %c4 step %c1 iter_args(%arg2 = %c0, %arg3 = %c0) -> (index, index) {
      %11:2 = scf.for %arg4 = %c-2 to %c3 step %c1 iter_args(%arg5 = %arg2, %arg6 = %arg3) -> (index, index) {
        %12 = arith.index_castui %arg0 : index to i32
        %13 = arith.index_castui %arg1 : index to i32
        %14 = arith.addi %12, %13 overflow<nsw, nuw> : i32
        %15 = arith.index_cast %arg4 : index to i32
        %16 = arith.addi %14, %15 overflow<nsw> : i32
        %17 = arith.index_cast %16 : i32 to index
        %18 = arith.cmpi sge, %17, %c2 : index
        %19 = arith.andi %9, %18 : i1
        %20 = arith.cmpi sle, %17, %c7 : index
        %21 = arith.andi %19, %20 : i1
        %22:2 = scf.if %21 -> (index, index) {
          %23 = arith.index_castui %arg0 : index to i32
          %24 = arith.index_castui %arg1 : index to i32
          %25 = arith.addi %23, %24 overflow<nsw, nuw> : i32
          %26 = arith.index_castui %25 : i32 to index
          %27 = arith.index_cast %arg4 : index to i32
          %28 = arith.index_castui %arg0 : index to i32
          %29 = arith.subi %27, %28 overflow<nsw> : i32
          %30 = arith.index_cast %29 : i32 to index
          %31 = func.call @mix(%arg5, %arg1) : (index, index) -> index
          %32 = func.call @mix(%31, %arg4) : (index, index) -> index
          %33 = func.call @mix(%32, %26) : (index, index) -> index
          %34 = func.call @mix(%33, %30) : (index, index) -> index
          %35 = arith.addi %arg6, %c1 : index
          %36 = arith.cmpi sle, %26, %c5 : index
          %37:2 = scf.for %arg7 = %c0 to %c3 step %c1 iter_args(%arg8 = %34, %arg9 = %35) -> (index, index) {
            %38 = arith.index_castui %26 : index to i32
            %39 = arith.index_castui %arg7 : index to i32
            %40 = arith.addi %38, %39 overflow<nsw, nuw> : i32
            %41 = arith.divui %40, %c2_i32 : i32
            %42 = arith.muli %41, %c2_i32 overflow<nsw, nuw> : i32
            %43 = arith.subi %40, %42 overflow<nsw, nuw> : i32
            %44 = arith.index_castui %43 : i32 to index
            %45 = arith.cmpi eq, %44, %c0 : index
            %46 = arith.andi %36, %45 : i1
            %47:2 = scf.if %46 -> (index, index) {
              %48 = arith.index_castui %26 : index to i32
              %49 = arith.muli %48, %c2_i32 overflow<nsw, nuw> : i32
              %50 = arith.index_castui %arg7 : index to i32
              %51 = arith.subi %49, %50 overflow<nsw, nuw> : i32
              %52 = arith.index_castui %51 : i32 to index
              %53 = func.call @mix(%arg8, %arg7) : (index, index) -> index
              %54 = func.call @mix(%53, %52) : (index, index) -> index
              %55 = arith.addi %arg9, %c1 : index
              scf.yield %54, %55 : index, index
            } else {
              scf.yield %arg8, %arg9 : index, index
            }
            scf.yield %47#0, %47#1 : index, index
          }
          scf.yield %37#0, %37#1 : index, index
        } else {
          scf.yield %arg5, %arg6 : index, index
        }
        scf.yield %22#0, %22#1 : index, index
      }
      scf.yield %11#0, %11#1 : index, index
    }
    return %10#0, %10#1 : index, index
  }
