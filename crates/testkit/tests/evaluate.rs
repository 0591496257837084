//! The reference evaluator on programs whose values are worked out by hand: where a value is
//! undefined and where it is not.

use xla_indexing_mlir::session::{OptOptions, Session};
use xla_indexing_testkit::evaluate::{
    KernelPoint, KernelRun, evaluate_function, evaluate_kernel, named_functions,
};

fn values(source: &str, arguments: &[i64]) -> Vec<Option<i64>> {
    let session = Session::new("evaluate", OptOptions::default());
    let module = session.parse(source).expect("the program parses");
    evaluate_function(&module, "f", arguments).expect("the program evaluates")
}

#[test]
fn an_affine_sum_is_exact_where_a_partial_sum_leaves_64_bits() {
    // -2 * (2^62 - 1) + 16 - 18 = -2^63: in range, whichever term is added first.
    let source = r#"
        func.func @f(%d0: index, %d1: index) -> (index, index) {
          %a = affine.apply affine_map<(d0, d1) -> (d0 * -2 + d1 - 18)>(%d0, %d1)
          %b = affine.apply affine_map<(d0, d1) -> (d0 + d1)>(%d0, %d1)
          return %a, %b : index, index
        }"#;
    assert_eq!(
        values(source, &[(1 << 62) - 1, 16]),
        vec![Some(i64::MIN), Some((1 << 62) + 15)]
    );
    assert_eq!(
        values(source, &[i64::MAX, 1])[1],
        None,
        "the sum leaves 64 bits"
    );
}

#[test]
fn an_affine_division_of_a_value_beyond_64_bits_is_undefined() {
    let source = r#"
        func.func @f(%d0: index) -> (index, index) {
          %a = affine.apply affine_map<(d0) -> ((d0 * 2 + 1) mod 3)>(%d0)
          %b = affine.apply affine_map<(d0) -> ((d0 * 2 + 1) floordiv 0)>(%d0)
          return %a, %b : index, index
        }"#;
    assert_eq!(values(source, &[5]), vec![Some(2), None]);
    assert_eq!(values(source, &[1 << 62]), vec![None, None]);
}

#[test]
fn arith_wraps_unless_a_flag_forbids_it() {
    let source = r#"
        func.func @f(%x: i8, %y: i8) -> (i8, i8, i8, i8) {
          %a = arith.addi %x, %y : i8
          %b = arith.addi %x, %y overflow<nsw> : i8
          %c = arith.divsi %x, %y : i8
          %d = arith.divui %x, %y : i8
          return %a, %b, %c, %d : i8, i8, i8, i8
        }"#;
    assert_eq!(
        values(source, &[127, 1]),
        vec![Some(-128), None, Some(127), Some(127)]
    );
    assert_eq!(
        values(source, &[-128, -1]),
        vec![Some(127), None, None, Some(0)],
        "-128 / -1 overflows; unsigned, 128 / 255 is 0"
    );
    assert_eq!(values(source, &[3, 0]), vec![Some(3), Some(3), None, None]);
}

#[test]
fn apply_indexing_is_undefined_outside_its_domain() {
    let source = r#"
        func.func @f(%d0: index) -> index {
          %a = xla_indexing.apply_indexing #xla_indexing.map<"(d0) -> (d0 floordiv 4), domain: d0 in [0, 15]">(%d0) : index
          return %a : index
        }"#;
    assert_eq!(values(source, &[13]), vec![Some(3)]);
    assert_eq!(values(source, &[16]), vec![None]);
}

/// A kernel runs one iteration of each loop (modulo its trip count) at its point and gives
/// its stores in order; a store under a branch it does not take is not run.
#[test]
fn a_kernel_gives_its_stores_at_a_point() {
    let source = r#"
        func.func @k(%buf: memref<?xindex>) {
          %tx = gpu.thread_id x upper_bound 64
          %bx = gpu.block_id x upper_bound 8
          %c1 = arith.constant 1 : index
          %c4 = arith.constant 4 : index
          affine.for %i = 0 to 2 {
            affine.for %j = 1 to 8 step 2 {
              %a = arith.addi %tx, %j : index
              %q = arith.divui %a, %c4 : index
              %ok = arith.cmpi eq, %q, %c1 : index
              scf.if %ok {
                memref.store %q, %buf[%tx] : memref<?xindex>
              }
              memref.store %a, %buf[%bx] : memref<?xindex>
            }
          }
          return
        }"#;
    let session = Session::new("evaluate", OptOptions::default());
    let module = session.parse(source).expect("the kernel parses");
    let kernel = named_functions(&module)["k"];
    let at = |thread, block, j| {
        let point = KernelPoint {
            thread,
            block,
            iterations: vec![0, j],
        };
        evaluate_kernel(&kernel, &point).expect("the kernel evaluates")
    };
    // j = 1 + 2 * (5 mod 4) = 3.
    assert_eq!(
        at(2, 7, 5),
        KernelRun {
            stores: vec![(Some(2), Some(1)), (Some(7), Some(5))],
            undefined_path: false,
        }
    );
    assert_eq!(at(9, 7, 0).stores, vec![(Some(7), Some(10))]);
    assert!(!at(9, 7, 0).refines(&at(2, 7, 5)));
}
