//! `f4e2m1fn` values (OCP's FP4: a sign, two exponent bits, one mantissa bit; no infinity, no
//! NaN) kept as their four bits and converted through `f32` by integer arithmetic, as XLA
//! converts them where the GPU has no instruction for it.
//!
//! The sixteen codes are `±{0, 0.5, 1, 1.5, 2, 3, 4, 6}` (the sign in bit 3). A value is
//! rounded to the nearest code, ties to the even code, and saturated to ±6 (the largest finite
//! value, as PTX's `cvt.rn.satfinite` saturates); NaN becomes +0.

use super::body::{Body, Scalar};

/// The magnitudes of the eight codes of one sign, in code order.
pub(crate) const MAGNITUDES: [f32; 8] = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0];

/// Between consecutive magnitudes, the midpoint and whether a tie rounds up (to the upper code,
/// when it is the even one).
const MIDPOINTS: [(f32, bool); 7] = [
    (0.25, false),
    (0.75, true),
    (1.25, false),
    (1.75, true),
    (2.5, false),
    (3.5, true),
    (5.0, false),
];

/// The code of `x` (what [`from_f32`] computes, for constants): the midpoints below its
/// magnitude (a tie counted where it rounds up), and its sign in bit 3; NaN is code 0.
pub(crate) fn code(x: f32) -> u8 {
    if x.is_nan() {
        return 0;
    }
    let m = x.abs();
    let magnitude = MIDPOINTS
        .iter()
        .filter(|&&(mid, up)| if up { m >= mid } else { m > mid })
        .count() as u8;
    magnitude | (u8::from(x.is_sign_negative()) << 3)
}

/// The `f32` value of the code `bits` (`i4`): a lane of the table of the sixteen values.
pub(crate) fn to_f32(body: &mut Body, bits: &str) -> Scalar {
    let values: Vec<String> = [1.0f32, -1.0]
        .iter()
        .flat_map(|sign| MAGNITUDES.iter().map(move |m| format!("{:?}", sign * m)))
        .collect();
    let table = body.op(
        "fp4",
        "vector<16xf32>",
        format!(
            "arith.constant dense<[{}]> : vector<16xf32>",
            values.join(", ")
        ),
    );
    let code = body.op(
        "fp4",
        "index",
        format!("arith.index_castui {bits} : i4 to index"),
    );
    body.op(
        "v",
        "f32",
        format!(
            "vector.extract {}[{}] : f32 from vector<16xf32>",
            table.name, code.name
        ),
    )
}

/// The code (`i4`) of the `f32` value `x`: the magnitude's code counts the midpoints below it
/// (a tie counts where it rounds up), saturating at 7; the sign bit is `x`'s.
pub(crate) fn from_f32(body: &mut Body, x: &str) -> Scalar {
    let magnitude = body.op("fp4", "f32", format!("math.absf {x} : f32"));
    let mut code: Option<String> = None;
    for (midpoint, up) in MIDPOINTS {
        let c = body.constant(&format!("{midpoint:?}"), "f32");
        let predicate = if up { "oge" } else { "ogt" };
        let above = body.op(
            "fp4",
            "i1",
            format!(
                "arith.cmpf {predicate}, {}, {} : f32",
                magnitude.name, c.name
            ),
        );
        let step = body.op(
            "fp4",
            "i4",
            format!("arith.extui {} : i1 to i4", above.name),
        );
        code = Some(match code {
            None => step.name,
            Some(sum) => {
                body.op("fp4", "i4", format!("arith.addi {sum}, {} : i4", step.name))
                    .name
            }
        });
    }
    let code = code.unwrap_or_default();
    let bits = body.op("fp4", "i32", format!("arith.bitcast {x} : f32 to i32"));
    let shift = body.constant("31", "i32");
    let sign = body.op(
        "fp4",
        "i32",
        format!("arith.shrui {}, {} : i32", bits.name, shift.name),
    );
    let sign = body.op(
        "fp4",
        "i4",
        format!("arith.trunci {} : i32 to i4", sign.name),
    );
    let three = body.constant("3", "i4");
    let sign = body.op(
        "fp4",
        "i4",
        format!("arith.shli {}, {} : i4", sign.name, three.name),
    );
    // NaN compares below every midpoint: code 0, and its sign dropped.
    let nan = body.op("fp4", "i1", format!("arith.cmpf uno, {x}, {x} : f32"));
    let zero = body.constant("0", "i4");
    let sign = body.op(
        "fp4",
        "i4",
        format!(
            "arith.select {}, {}, {} : i4",
            nan.name, zero.name, sign.name
        ),
    );
    body.op("v", "i4", format!("arith.ori {code}, {} : i4", sign.name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn midpoints_round_to_the_nearest_code_ties_to_even() {
        // Every value of the grid is its own code; halfway values go to the even code.
        for (k, &m) in MAGNITUDES.iter().enumerate() {
            assert_eq!(code(m), k as u8);
            assert_eq!(code(-m), k as u8 | 8);
        }
        for (k, &(mid, up)) in MIDPOINTS.iter().enumerate() {
            let tie = k as u8 + u8::from(up);
            assert_eq!(tie % 2, 0, "the tie at {mid} goes to an even code");
            assert_eq!(code(mid), tie, "tie at {mid}");
            // Just off the midpoint, the nearer code.
            assert_eq!(code(mid * 0.999), k as u8);
            assert_eq!(code(mid * 1.001), k as u8 + 1);
        }
        // Saturation, and NaN.
        assert_eq!(code(100.0), 7);
        assert_eq!(code(f32::NEG_INFINITY), 15);
        assert_eq!(code(f32::NAN), 0);
    }

    #[test]
    fn the_generated_conversions_name_their_ops() {
        let mut body = Body::default();
        let code = from_f32(&mut body, "%x");
        let back = to_f32(&mut body, &code.name);
        let text = body.into_text();
        assert_eq!((code.ty.as_str(), back.ty.as_str()), ("i4", "f32"));
        assert_eq!(text.matches("arith.cmpf o").count(), 7, "{text}");
        assert!(text.contains("vector<16xf32>"), "{text}");
    }
}
