//! Property test of `xla-indexing-simplify` (alone, and followed by `xla-indexing-lower-apply`)
//! on random functions of index arithmetic: chains of `arith`, `affine`, `apply_indexing` and
//! `scf.if` ops whose values have random numbers of uses, over small argument domains. At every
//! point of the domain, every result defined before the passes must be the same after; the
//! generator's own values must be what MLIR's semantics give; the pass must succeed, reach a
//! fixed point, and (checked by the pass itself in debug builds) leave no function costlier.
//! `XLA_INDEXING_PROPTEST_CASES` raises the number of programs for long runs.

use xla_indexing_passes::opt::OptOptions;
use xla_indexing_testkit::invariants::passes::generated_program_is_kept;

/// Cases in all; `XLA_INDEXING_PROPTEST_CASES` raises it for long runs.
fn cases() -> u64 {
    xla_indexing_testkit::proptest_cases(400)
}

#[test]
fn random_programs_keep_their_values() {
    let session = xla_indexing_passes::opt::session("generated", OptOptions::default());
    let (mut functions, mut points) = (0, 0);
    for seed in 0..cases() {
        let covered = generated_program_is_kept(&session, seed).unwrap_or_else(|e| panic!("{e}"));
        functions += covered.functions;
        points += covered.points;
    }
    // Both pipelines ran on every program, at many points.
    assert_eq!(
        functions as u64,
        2 * cases(),
        "{functions} functions checked"
    );
    assert!(points as u64 > 20 * cases(), "{points} points");
}

/// A block of `affine.apply` ops that take a linear id apart and put parts of it together again
/// (as warp and lane ids are), with random sizes: the ops share divisions that the block's
/// rewrite computes once. Every result must keep its value at every point.
fn split_ids(seed: u64) -> String {
    let mut rng = xla_indexing_testkit::rng::SplitMix64::new(seed);
    let k = *rng.pick(&[2, 4, 8, 32]);
    let stride = k * rng.range(1, 4) + if rng.chance(1, 4) { 1 } else { 0 };
    let (a, b) = (rng.range(0, 40), rng.range(0, 5));
    let m = rng.range(1, 9);
    let c = rng.range(-2, 3);
    let inner = if rng.chance(1, 2) { "mod" } else { "floordiv" };
    format!(
        "func.func @f(%a: index {{xla.range = [0 : index, {a} : index]}}, \
         %b: index {{xla.range = [0 : index, {b} : index]}}) -> (index, index, index, index) {{\n\
         %lin = affine.apply affine_map<(d0, d1) -> (d0 * {stride} + d1)>(%b, %a)\n\
         %q = affine.apply affine_map<(d0) -> (d0 floordiv {k})>(%lin)\n\
         %r = affine.apply affine_map<(d0) -> (d0 mod {k})>(%lin)\n\
         %x = affine.apply affine_map<(d0) -> (d0 {inner} {m})>(%q)\n\
         %y = affine.apply affine_map<(d0, d1) -> (d0 * {c} + d1)>(%q, %r)\n\
         return %q, %r, %x, %y : index, index, index, index\n}}\n"
    )
}

/// Every program of `program` (a function of the seed) for half the cases keeps its values at
/// every point where they are defined.
fn programs_keep_their_values(name: &str, program: fn(u64) -> String) {
    let session = xla_indexing_passes::opt::session(name, OptOptions::default());
    for seed in 0..cases() / 2 {
        let text = program(seed);
        xla_indexing_testkit::invariants::passes::values_are_kept(
            &session,
            &text,
            xla_indexing_testkit::invariants::passes::Input::Valid,
        )
        .unwrap_or_else(|e| panic!("seed {seed}: {e}\n{text}"));
    }
}

#[test]
fn blocks_sharing_divisions_keep_their_values() {
    programs_keep_their_values("split_ids", split_ids);
}

/// `i32` arithmetic near either end of the type, with and without `nsw`, compared and divided at
/// once: where a sum, difference or product wraps, the pass must read it as the wrapped value
/// (without the flag) and may take any value (with it, the value is poison, which
/// `values_are_kept` does not compare).
fn near_the_ends(seed: u64) -> String {
    let mut rng = xla_indexing_testkit::rng::SplitMix64::new(seed);
    let lo = *rng.pick(&[(1i64 << 31) - 12, -(1 << 31)]);
    let hi = lo + 11;
    let op = *rng.pick(&["addi", "subi", "muli"]);
    let k = *rng.pick(&[1, 2, 3, 8, 16, -5, -20]);
    let flags = if rng.chance(1, 2) {
        " overflow<nsw>"
    } else {
        ""
    };
    let predicate = *rng.pick(&["slt", "sge", "ult", "eq"]);
    let c = *rng.pick(&[0, 7, -7, 2147483647, -2147483648]);
    let d = *rng.pick(&[3, 16, 1000]);
    format!(
        "func.func @f(%a: i32 {{xla.range = [{lo} : i32, {hi} : i32]}}) -> (i32, i1, i32) {{\n\
         %k = arith.constant {k} : i32\n\
         %c = arith.constant {c} : i32\n\
         %d = arith.constant {d} : i32\n\
         %s = arith.{op} %a, %k{flags} : i32\n\
         %p = arith.cmpi {predicate}, %s, %c : i32\n\
         %q = arith.divsi %s, %d : i32\n\
         return %s, %p, %q : i32, i1, i32\n}}\n"
    )
}

#[test]
fn arithmetic_near_the_ends_keeps_its_values() {
    programs_keep_their_values("near_the_ends", near_the_ends);
}

/// Unsigned order through `nuw` arithmetic and unsigned ops, on `i32` values of either sign (near
/// 0 and near both ends of the type): `%x` is computed from the arguments by an op that never
/// exceeds an operand read unsigned, `%y` by one that never falls below one, then they are
/// subtracted with `nuw`, compared unsigned and taken the `min`/`max` of, both ways round.
/// Wherever a result is defined it must keep its value (with an order proved wrong, a `nuw`
/// difference folds to 0 or a comparison to a constant where it is not).
fn unsigned_chains(seed: u64) -> String {
    let mut rng = xla_indexing_testkit::rng::SplitMix64::new(seed);
    let mut range = || {
        let lo = *rng.pick(&[-4, 0, -8, (1i64 << 31) - 8, -(1 << 31)]);
        (lo, lo + 7)
    };
    let ((alo, ahi), (blo, bhi), (clo, chi)) = (range(), range(), range());
    let below = *rng.pick(&[
        "subi %a, %b overflow<nuw>",
        "subi %a, %b",
        "divui %a, %b",
        "ceildivui %a, %b",
        "remui %a, %b",
        "remui %b, %a",
        "andi %a, %b",
        "minui %b, %a",
        "ori %a, %b",
    ]);
    let above = *rng.pick(&[
        "addi %x, %c overflow<nuw>",
        "addi %c, %a overflow<nuw>",
        "addi %a, %c",
        "maxui %c, %x",
        "ori %c, %a",
        "subi %a, %c overflow<nuw>",
        "andi %a, %c",
    ]);
    let other = *rng.pick(&["%a", "%b", "%c", "%x", "%y", "%zero", "%ones"]);
    let (p, q) = if rng.chance(1, 2) {
        ("%x", other)
    } else {
        (other, "%y")
    };
    let predicate = *rng.pick(&["ule", "ult", "uge", "ugt"]);
    format!(
        "func.func @f(%a: i32 {{xla.range = [{alo} : i32, {ahi} : i32]}}, \
         %b: i32 {{xla.range = [{blo} : i32, {bhi} : i32]}}, \
         %c: i32 {{xla.range = [{clo} : i32, {chi} : i32]}}) -> (i32, i32, i1, i1, i32, i32) {{\n\
         %zero = arith.constant 0 : i32\n\
         %ones = arith.constant -1 : i32\n\
         %x = arith.{below} : i32\n\
         %y = arith.{above} : i32\n\
         %d = arith.subi {p}, {q} overflow<nuw> : i32\n\
         %e = arith.subi {q}, {p} overflow<nuw> : i32\n\
         %u = arith.cmpi {predicate}, {p}, {q} : i32\n\
         %v = arith.cmpi {predicate}, {q}, {p} : i32\n\
         %m = arith.minui {p}, {q} : i32\n\
         %n = arith.maxui {q}, {p} : i32\n\
         return %d, %e, %u, %v, %m, %n : i32, i32, i1, i1, i32, i32\n}}\n"
    )
}

#[test]
fn unsigned_order_keeps_values() {
    programs_keep_their_values("unsigned_chains", unsigned_chains);
}

/// Booleans are 0 or 1 to the analysis and `-1` or 0 to MLIR's signed reading: a select of
/// `true` and `false` is its condition, not a constant (upstream's `select_extui_i1` and
/// `selToNot`, which the pass once folded to `false`); unsigned comparisons with 0 of a value
/// of either sign are decided.
#[test]
fn selects_of_booleans_keep_their_values() {
    let session = xla_indexing_passes::opt::session("booleans", OptOptions::default());
    let text = "func.func @f(%x: index {xla.range = [-3 : index, 3 : index]}) -> (i1, i1, index, i1, i1, i1) {\n\
        %c0 = arith.constant 0 : index\n\
        %c2 = arith.constant 2 : index\n\
        %t = arith.constant true\n\
        %f = arith.constant false\n\
        %p = arith.cmpi ult, %x, %c2 : index\n\
        %a = arith.select %p, %t, %f : i1\n\
        %b = arith.select %p, %f, %t : i1\n\
        %e = arith.index_castui %a : i1 to index\n\
        %n = arith.xori %a, %t : i1\n\
        %below = arith.cmpi ult, %x, %c0 : index\n\
        %above = arith.cmpi uge, %x, %c0 : index\n\
        return %a, %b, %e, %n, %below, %above : i1, i1, index, i1, i1, i1\n}\n";
    let covered = xla_indexing_testkit::invariants::passes::values_are_kept(
        &session,
        text,
        xla_indexing_testkit::invariants::passes::Input::Valid,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(covered.points >= 4, "{} points", covered.points);
}
