//! Constant folding of `arith` integer ops: the value an op computes from constant operands, as
//! MLIR's `arith` dialect defines it, or nothing where MLIR leaves the value undefined.
//!
//! Values are integers of 1 to 64 bits (`index` has 64). An operand is read as its type's bits,
//! the low `width` bits of the given integer, so that any integer congruent to it modulo
//! `2^width` names the same value: `i1` true is `1` or `-1` alike. Arithmetic wraps modulo
//! `2^width`; signed ops read the bits in two's complement, unsigned ops as they are. Where MLIR
//! makes the result poison (an `addi`, `subi` or `muli` whose `nsw` or `nuw` flag fails) or the
//! op undefined behaviour (a division by zero, a signed division that overflows), nothing is
//! folded: the op stays and keeps whatever meaning its lowering gives it. Wider types, ops on
//! vectors and ops not listed here are not folded.
//!
//! The tests check every rule against the reference evaluator of `xla-indexing-testkit`, a
//! separate implementation of the same semantics, on random operands of several widths.

use melior::ir::{OperationRef, Value, ValueLike, operation::OperationLike};
use xla_indexing_mlir::index_op::{Cast, Division, IndexOp};
use xla_indexing_mlir::ir::{int_width, integer_attribute};

/// A constant of an integer type: the low `width` bits of `bits`, the rest zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Bits {
    bits: u64,
    width: u32,
}

impl Bits {
    /// The constant of `width` bits (1 to 64) that `bits` names: its low `width` bits.
    fn new(bits: u64, width: u32) -> Option<Bits> {
        (1..=64).contains(&width).then(|| Bits {
            bits: bits & (u64::MAX >> (64 - width)),
            width,
        })
    }

    /// The constant of this width whose signed value is `value`, if it fits.
    fn signed_exact(self, value: i64) -> Option<Bits> {
        Bits::new(value as u64, self.width).filter(|b| b.signed() == value)
    }

    /// The constant of this width whose unsigned value is `value`, if it fits.
    fn unsigned_exact(self, value: u64) -> Option<Bits> {
        Bits::new(value, self.width).filter(|b| b.bits == value)
    }

    /// The bits read in two's complement.
    pub(super) fn signed(self) -> i64 {
        let unused = 64 - self.width;
        ((self.bits << unused) as i64) >> unused
    }

    /// The bits read as unsigned.
    fn unsigned(self) -> u64 {
        self.bits
    }
}

/// The `nsw` and `nuw` flags of `addi`, `subi` and `muli`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Flags {
    /// No signed wrap: the result is poison where the signed result leaves the type.
    pub(super) nsw: bool,
    /// No unsigned wrap: the result is poison where the unsigned result leaves the type.
    pub(super) nuw: bool,
}

impl Flags {
    /// The flags `op` carries in its `overflowFlags` attribute (none when it has none).
    pub(super) fn of(op: &OperationRef) -> Flags {
        let text = op
            .attribute("overflowFlags")
            .map(|a| a.to_string())
            .unwrap_or_default();
        Flags {
            nsw: text.contains("nsw"),
            nuw: text.contains("nuw"),
        }
    }
}

/// The value of `op`, an `arith` op with one integer result, on the constants `operands` (in
/// the op's order); `None` for another op, a type of more than 64 bits, or where the value is
/// undefined.
pub(super) fn fold(op: &OperationRef, operands: &[i64]) -> Option<Bits> {
    if op.result_count() != 1 {
        return None;
    }
    let result_width = width(op.result(0).ok()?.into())?;
    let operand = |i: usize| {
        let width = width(op.operand(i).ok()?)?;
        Bits::new(*operands.get(i)? as u64, width)
    };
    let (a, b) = (operand(0)?, || operand(1));
    match IndexOp::of(op)? {
        IndexOp::Add => add(a, b()?, Flags::of(op)),
        IndexOp::Sub => sub(a, b()?, Flags::of(op)),
        IndexOp::Mul => mul(a, b()?, Flags::of(op)),
        IndexOp::Div(kind) => {
            let b = b()?;
            match kind {
                Division::TruncSigned => div_signed(a, b),
                Division::RemSigned => rem_signed(a, b),
                Division::FloorSigned => floor_div_signed(a, b),
                Division::CeilSigned => ceil_div_signed(a, b),
                Division::Unsigned => div_unsigned(a, b),
                Division::RemUnsigned => rem_unsigned(a, b),
                Division::CeilUnsigned => ceil_div_unsigned(a, b),
            }
        }
        IndexOp::MinMax { max, signed } => {
            let b = b()?;
            Some(match (max, signed) {
                (false, true) => min_by(a, b, Bits::signed),
                (true, true) => max_by(a, b, Bits::signed),
                (false, false) => min_by(a, b, Bits::unsigned),
                (true, false) => max_by(a, b, Bits::unsigned),
            })
        }
        IndexOp::And => bitwise(a, b()?, |x, y| x & y),
        IndexOp::Or => bitwise(a, b()?, |x, y| x | y),
        IndexOp::Xor => bitwise(a, b()?, |x, y| x ^ y),
        IndexOp::Cmp => compare(integer_attribute(op.attribute("predicate").ok()?)?, a, b()?),
        IndexOp::Select => Some(select(a, b()?, operand(2)?)),
        IndexOp::Cast(Cast::Signed | Cast::Truncate) => sign_cast(a, result_width),
        IndexOp::Cast(Cast::Unsigned) => zero_cast(a, result_width),
        IndexOp::Constant
        | IndexOp::AffineApply
        | IndexOp::AffineMinMax { .. }
        | IndexOp::ApplyIndexing
        | IndexOp::Gpu { .. } => None,
    }
}

/// The width of an integer or `index` value, if it has 1 to 64 bits.
fn width(value: Value) -> Option<u32> {
    int_width(value.r#type()).filter(|w| (1..=64).contains(w))
}

/// An `addi`, `subi` or `muli` of `a` and `b`: `wrapped` on their bits (the low bits of the
/// exact result) unless a flag fails: `nsw` where `signed` on their signed values overflows
/// (`None`) or leaves the type, `nuw` where `unsigned` on their unsigned values does.
fn wrapping(
    a: Bits,
    b: Bits,
    flags: Flags,
    wrapped: fn(u64, u64) -> u64,
    signed: fn(i64, i64) -> Option<i64>,
    unsigned: fn(u64, u64) -> Option<u64>,
) -> Option<Bits> {
    let fits_signed = || signed(a.signed(), b.signed()).and_then(|s| a.signed_exact(s));
    let fits_unsigned = || unsigned(a.unsigned(), b.unsigned()).and_then(|u| a.unsigned_exact(u));
    if (flags.nsw && fits_signed().is_none()) || (flags.nuw && fits_unsigned().is_none()) {
        return None;
    }
    Bits::new(wrapped(a.bits, b.bits), a.width)
}

/// `addi a, b = (a + b) mod 2^w`; poison (not folded) with `nsw` where the signed sum leaves
/// `[-2^(w-1), 2^(w-1))`, with `nuw` where the unsigned sum reaches `2^w`.
fn add(a: Bits, b: Bits, flags: Flags) -> Option<Bits> {
    wrapping(
        a,
        b,
        flags,
        u64::wrapping_add,
        i64::checked_add,
        u64::checked_add,
    )
}

/// `subi a, b = (a - b) mod 2^w`; poison (not folded) with `nsw` where the signed difference
/// leaves the type, with `nuw` where it is negative read unsigned (`a < b` unsigned).
fn sub(a: Bits, b: Bits, flags: Flags) -> Option<Bits> {
    wrapping(
        a,
        b,
        flags,
        u64::wrapping_sub,
        i64::checked_sub,
        u64::checked_sub,
    )
}

/// `muli a, b = (a * b) mod 2^w`; poison (not folded) with `nsw` where the signed product
/// leaves the type, with `nuw` where the unsigned product reaches `2^w`.
fn mul(a: Bits, b: Bits, flags: Flags) -> Option<Bits> {
    wrapping(
        a,
        b,
        flags,
        u64::wrapping_mul,
        i64::checked_mul,
        u64::checked_mul,
    )
}

/// The quotient of the signed values rounded toward zero, and the remainder with the sign of
/// `a`: `a = b * q + r`, `|r| < |b|`. Undefined for `b = 0`, and for `-2^(w-1) / -1`, whose
/// quotient `2^(w-1)` leaves the type (the remainder's lowering, `srem`, is undefined there
/// too).
fn truncated(a: Bits, b: Bits) -> Option<(i64, i64)> {
    let q = a.signed().checked_div(b.signed())?;
    a.signed_exact(q)?;
    Some((q, a.signed().checked_rem(b.signed())?))
}

/// `divsi a, b = trunc(a / b)`; not folded for `b = 0` or `-2^(w-1) / -1` (undefined
/// behaviour).
fn div_signed(a: Bits, b: Bits) -> Option<Bits> {
    let (q, _) = truncated(a, b)?;
    a.signed_exact(q)
}

/// `remsi a, b = a - b * trunc(a / b)`, with the sign of `a`; not folded where `divsi` is not.
fn rem_signed(a: Bits, b: Bits) -> Option<Bits> {
    let (_, r) = truncated(a, b)?;
    a.signed_exact(r)
}

/// `floordivsi a, b = floor(a / b)`: the truncated quotient, less one where the division is
/// inexact and the remainder's sign differs from the divisor's (the exact quotient is negative
/// and was rounded up). Not folded where `divsi` is not; the result never overflows otherwise
/// (with `|b| >= 2`, `|q| <= 2^(w-2)`; with `|b| = 1`, the division is exact).
fn floor_div_signed(a: Bits, b: Bits) -> Option<Bits> {
    let (q, r) = truncated(a, b)?;
    let rounded_up = r != 0 && (r < 0) != (b.signed() < 0);
    a.signed_exact(q - i64::from(rounded_up))
}

/// `ceildivsi a, b = ceil(a / b)`: the truncated quotient, plus one where the division is
/// inexact and the remainder's sign is the divisor's (the exact quotient is positive and was
/// rounded down). Not folded where `divsi` is not; as for `floordivsi`, no overflow otherwise.
fn ceil_div_signed(a: Bits, b: Bits) -> Option<Bits> {
    let (q, r) = truncated(a, b)?;
    let rounded_down = r != 0 && (r < 0) == (b.signed() < 0);
    a.signed_exact(q + i64::from(rounded_down))
}

/// `divui a, b = floor(a / b)` on the unsigned values; not folded for `b = 0`.
fn div_unsigned(a: Bits, b: Bits) -> Option<Bits> {
    a.unsigned_exact(a.unsigned().checked_div(b.unsigned())?)
}

/// `remui a, b = a - b * floor(a / b)` on the unsigned values; not folded for `b = 0`.
fn rem_unsigned(a: Bits, b: Bits) -> Option<Bits> {
    a.unsigned_exact(a.unsigned().checked_rem(b.unsigned())?)
}

/// `ceildivui a, b = ceil(a / b)` on the unsigned values: the quotient, plus one where the
/// remainder is not zero (never `2^w`: the quotient is at most `a`). Not folded for `b = 0`.
fn ceil_div_unsigned(a: Bits, b: Bits) -> Option<Bits> {
    let (q, r) = (
        a.unsigned().checked_div(b.unsigned())?,
        a.unsigned().checked_rem(b.unsigned())?,
    );
    a.unsigned_exact(q + u64::from(r != 0))
}

/// `cmpi predicate, a, b`: an `i1`, 1 where the comparison holds. The predicates are MLIR's
/// `arith::CmpIPredicate`: 0 `eq` and 1 `ne`, then `lt`, `le`, `gt`, `ge` in that order, first
/// on the signed values (2 to 5: `slt` ... `sge`), then on the unsigned ones (6 to 9: `ult`
/// ... `uge`); another is not folded. Equality is the same read either way.
fn compare(predicate: i64, a: Bits, b: Bits) -> Option<Bits> {
    let order = match predicate {
        2..=5 => a.signed().cmp(&b.signed()),
        0 | 1 | 6..=9 => a.unsigned().cmp(&b.unsigned()),
        _ => return None,
    };
    let holds = match predicate {
        0 => order.is_eq(),
        1 => order.is_ne(),
        p => match (p - 2) % 4 {
            0 => order.is_lt(),
            1 => order.is_le(),
            2 => order.is_gt(),
            _ => order.is_ge(),
        },
    };
    Bits::new(u64::from(holds), 1)
}

/// `minsi a, b` (`key` the signed value) and `minui a, b` (`key` the unsigned value): the
/// operand with the smaller key (on a tie they are equal). Always defined.
fn min_by<K: Ord>(a: Bits, b: Bits, key: fn(Bits) -> K) -> Bits {
    if key(a) <= key(b) { a } else { b }
}

/// `maxsi a, b` and `maxui a, b`: the operand with the larger key, as [`min_by`]. Always
/// defined.
fn max_by<K: Ord>(a: Bits, b: Bits, key: fn(Bits) -> K) -> Bits {
    if key(a) >= key(b) { a } else { b }
}

/// `andi`, `ori`, `xori`: `op` on each pair of bits. Always defined.
fn bitwise(a: Bits, b: Bits, op: fn(u64, u64) -> u64) -> Option<Bits> {
    Bits::new(op(a.bits, b.bits), a.width)
}

/// `select c, a, b`: `a` where the `i1` `c` is 1, else `b`. Always defined.
fn select(c: Bits, a: Bits, b: Bits) -> Bits {
    if c.bits != 0 { a } else { b }
}

/// `extsi`, `trunci` and `index_cast` (signed): the signed value of `a` in `width` bits, sign
/// extended when wider, truncated to its low bits when narrower.
fn sign_cast(a: Bits, width: u32) -> Option<Bits> {
    Bits::new(a.signed() as u64, width)
}

/// `extui` and `index_castui`: the unsigned value of `a` in `width` bits, zero extended when
/// wider, truncated to its low bits when narrower.
fn zero_cast(a: Bits, width: u32) -> Option<Bits> {
    Bits::new(a.bits, width)
}

#[cfg(test)]
mod tests {
    //! Every rule against the reference evaluator: for each op and each type (`index`, `i64`,
    //! `i32`, `i8`, `i1`), a function of the op alone is evaluated at random operands, biased
    //! towards zero, the ends of the signed and unsigned ranges and `-1`, each given as its
    //! signed or its unsigned reading. The fold must give the evaluator's value, and fold
    //! nothing where the evaluator finds the value undefined.

    use super::*;
    use melior::ir::{BlockLike, Module, RegionLike};
    use xla_indexing_core::interval::{as_unsigned, wrap_signed};
    use xla_indexing_mlir::session::{OptOptions, Session};
    use xla_indexing_testkit::{evaluate::evaluate_function, rng::SplitMix64};

    /// The types of the operands of binary ops and comparisons, and their widths.
    const TYPES: [(&str, u32); 5] = [
        ("index", 64),
        ("i64", 64),
        ("i32", 32),
        ("i8", 8),
        ("i1", 1),
    ];

    /// The flags of `addi`, `subi` and `muli`, as written after the operands.
    const FLAGS: [&str; 4] = [
        "",
        " overflow<nsw>",
        " overflow<nuw>",
        " overflow<nsw, nuw>",
    ];

    /// A random operand of `width` bits, given as its signed or its unsigned reading.
    fn operand(rng: &mut SplitMix64, width: u32) -> i64 {
        let half = 1i128 << (width - 1);
        let value = match rng.range(0, 4) {
            0 => i128::from(rng.range(-2, 2)),
            1 => half + i128::from(rng.range(-2, 1)),
            2 => i128::from(rng.next_u64() >> rng.range(0, 63)),
            _ => i128::from(rng.next_u64()),
        };
        let reading = if rng.chance(1, 2) {
            wrap_signed(value, width)
        } else {
            as_unsigned(value, width)
        };
        // The unsigned reading of a 64-bit value may not fit: its signed one names it too.
        i64::try_from(reading).unwrap_or_else(|_| wrap_signed(reading, width) as i64)
    }

    /// A function of the op `op` alone: its operands `%a`, `%b`, `%c` are the arguments, of
    /// the types `operands`, and it returns the op's result `%r`, of the type `result`.
    fn function(op: &str, operands: &[&str], result: &str) -> String {
        let arguments: Vec<String> = ["a", "b", "c"]
            .iter()
            .zip(operands)
            .map(|(name, ty)| format!("%{name}: {ty}"))
            .collect();
        format!(
            "func.func @f({}) -> {result} {{\n  %r = {op}\n  return %r : {result}\n}}",
            arguments.join(", ")
        )
    }

    /// Runs `check` on the module of `source` and its function's first op.
    fn with_op<T>(source: &str, check: impl FnOnce(&Module, OperationRef) -> T) -> T {
        let session = Session::new("fold", OptOptions::default());
        let module = session
            .parse(source)
            .unwrap_or_else(|e| panic!("{source}: {e:?}"));
        let function = module.body().first_operation().expect("the function");
        let body = function.region(0).ok().and_then(|r| r.first_block());
        check(
            &module,
            body.and_then(|b| b.first_operation()).expect("the op"),
        )
    }

    /// Checks the fold of `op` (the text of one op over `%a`, `%b`, `%c`, of the types
    /// `operands` with their widths, defining a `result`) against the evaluator at random
    /// operands; returns how many folded.
    fn matches_evaluation(op: &str, operands: &[(&str, u32)], result: &str) -> usize {
        let types: Vec<&str> = operands.iter().map(|(ty, _)| *ty).collect();
        let source = function(op, &types, result);
        with_op(&source, |module, folded_op| {
            let seed = source
                .bytes()
                .fold(0u64, |h, b| h.wrapping_mul(0x100_0000_01b3) ^ u64::from(b));
            let mut rng = SplitMix64::new(seed);
            let mut folded = 0;
            for _ in 0..xla_indexing_testkit::proptest_cases(300) {
                let values: Vec<i64> = operands
                    .iter()
                    .map(|(_, width)| operand(&mut rng, *width))
                    .collect();
                let want = evaluate_function(module, "f", &values)
                    .unwrap_or_else(|e| panic!("{source}: {e}"))[0];
                let got = fold(&folded_op, &values).map(Bits::signed);
                assert_eq!(got, want, "{op} at {values:?}");
                folded += usize::from(got.is_some());
            }
            folded
        })
    }

    /// Checks the binary op `name` on every type, with each of `flags`.
    fn binary(name: &str, flags: &[&str]) {
        for ty in TYPES {
            for flag in flags {
                let op = format!("arith.{name} %a, %b{flag} : {}", ty.0);
                assert!(
                    matches_evaluation(&op, &[ty, ty], ty.0) > 0,
                    "{op} never folds"
                );
            }
        }
    }

    /// Checks the cast `name` between each pair of `(from, to)` types.
    fn cast(name: &str, pairs: &[(&str, &str)]) {
        for (from, to) in pairs {
            let width = TYPES.iter().find(|t| t.0 == *from).expect("a known type").1;
            let op = format!("arith.{name} %a : {from} to {to}");
            assert!(
                matches_evaluation(&op, &[(from, width)], to) > 0,
                "{op} never folds"
            );
        }
    }

    /// One test per binary rule: `test: op, flags` checks `arith.op` on every type with each
    /// of `flags`.
    macro_rules! binary_rules {
        ($($test:ident: $op:literal, $flags:expr;)*) => {$(
            #[test]
            fn $test() {
                binary($op, $flags);
            }
        )*};
    }

    binary_rules! {
        fold_addi_matches_evaluation: "addi", &FLAGS;
        fold_subi_matches_evaluation: "subi", &FLAGS;
        fold_muli_matches_evaluation: "muli", &FLAGS;
        fold_divsi_matches_evaluation: "divsi", &[""];
        fold_remsi_matches_evaluation: "remsi", &[""];
        fold_floordivsi_matches_evaluation: "floordivsi", &[""];
        fold_ceildivsi_matches_evaluation: "ceildivsi", &[""];
        fold_divui_matches_evaluation: "divui", &[""];
        fold_remui_matches_evaluation: "remui", &[""];
        fold_ceildivui_matches_evaluation: "ceildivui", &[""];
        fold_minsi_matches_evaluation: "minsi", &[""];
        fold_maxsi_matches_evaluation: "maxsi", &[""];
        fold_minui_matches_evaluation: "minui", &[""];
        fold_maxui_matches_evaluation: "maxui", &[""];
        fold_andi_matches_evaluation: "andi", &[""];
        fold_ori_matches_evaluation: "ori", &[""];
        fold_xori_matches_evaluation: "xori", &[""];
    }

    #[test]
    fn fold_cmpi_matches_evaluation() {
        let predicates = [
            "eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge",
        ];
        for ty in TYPES {
            for predicate in predicates {
                let op = format!("arith.cmpi {predicate}, %a, %b : {}", ty.0);
                assert!(matches_evaluation(&op, &[ty, ty], "i1") > 0);
            }
        }
    }

    #[test]
    fn fold_select_matches_evaluation() {
        for ty in TYPES {
            let op = format!("arith.select %a, %b, %c : {}", ty.0);
            assert!(matches_evaluation(&op, &[("i1", 1), ty, ty], ty.0) > 0);
        }
    }

    #[test]
    fn fold_index_casts_match_evaluation() {
        let pairs = [
            ("index", "i32"),
            ("i32", "index"),
            ("index", "i64"),
            ("i8", "index"),
            ("i1", "index"),
        ];
        cast("index_cast", &pairs);
        cast("index_castui", &pairs);
    }

    #[test]
    fn fold_extensions_match_evaluation() {
        let pairs = [("i1", "i32"), ("i1", "i64"), ("i8", "i32"), ("i32", "i64")];
        cast("extsi", &pairs);
        cast("extui", &pairs);
    }

    #[test]
    fn fold_trunci_matches_evaluation() {
        cast(
            "trunci",
            &[("i64", "i32"), ("i32", "i8"), ("i32", "i1"), ("i64", "i1")],
        );
    }

    #[test]
    fn fold_leaves_wide_types_and_other_ops_alone() {
        for (op, operands, result) in [
            ("arith.addi %a, %b : i128", &["i128", "i128"][..], "i128"),
            (
                "arith.muli %a, %b : vector<2xi32>",
                &["vector<2xi32>"; 2],
                "vector<2xi32>",
            ),
            ("arith.shli %a, %b : i32", &["i32", "i32"], "i32"),
            ("arith.constant 3 : i32", &[], "i32"),
        ] {
            with_op(&function(op, operands, result), |_, op| {
                assert_eq!(fold(&op, &[5, 1]), None, "{op}");
            });
        }
    }
}
