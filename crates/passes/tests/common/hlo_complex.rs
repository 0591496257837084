//! The reference's complex numbers (`c64`, `c128`): XLA's operation semantics on `(re, im)`
//! pairs, computed in `f64` with the textbook formulas (not the kernels' scaled ones) and
//! rounded to the part type once, so that the kernels' formulas are checked against
//! independent ones.
#![allow(dead_code)]

use xla_indexing_hlo::Opcode;

/// A complex value's parts.
pub type C = (f64, f64);

/// `|z|`.
pub fn abs((a, b): C) -> f64 {
    a.hypot(b)
}

/// `(a + ib)(c + id)`.
pub fn mul((a, b): C, (c, d): C) -> C {
    (a * c - b * d, a * d + b * c)
}

/// `(a + ib) / (c + id)`.
pub fn div((a, b): C, (c, d): C) -> C {
    let n = c * c + d * d;
    ((a * c + b * d) / n, (b * c - a * d) / n)
}

/// `e^(a + ib)`.
pub fn exp((a, b): C) -> C {
    let r = a.exp();
    (r * b.cos(), r * b.sin())
}

/// The principal logarithm.
pub fn log(z: C) -> C {
    (abs(z).ln(), z.1.atan2(z.0))
}

/// The principal square root.
pub fn sqrt(z: C) -> C {
    let r = abs(z).sqrt();
    let t = z.1.atan2(z.0) / 2.0;
    if r == 0.0 {
        return (0.0, 0.0);
    }
    (r * t.cos(), r * t.sin())
}

/// The value of unary op `op` on complex `z`: `Some` of a complex result, or the real one of
/// `abs`, `real` and `imag` as `(x, 0)`.
pub fn unary(op: Opcode, z: C) -> Option<C> {
    let (a, b) = z;
    Some(match op {
        Opcode::Negate => (-a, -b),
        Opcode::Copy => z,
        Opcode::Abs => (abs(z), 0.0),
        Opcode::Real => (a, 0.0),
        Opcode::Imag => (b, 0.0),
        Opcode::Exponential => exp(z),
        Opcode::Log => log(z),
        Opcode::Sqrt => sqrt(z),
        Opcode::Rsqrt => div((1.0, 0.0), sqrt(z)),
        Opcode::Sign => {
            let r = abs(z);
            if r == 0.0 { (0.0, 0.0) } else { (a / r, b / r) }
        }
        Opcode::Sine => (a.sin() * b.cosh(), a.cos() * b.sinh()),
        Opcode::Cosine => (a.cos() * b.cosh(), -a.sin() * b.sinh()),
        Opcode::Tanh => {
            let (n, d) = (
                (a.sinh() * b.cos(), a.cosh() * b.sin()),
                (a.cosh() * b.cos(), a.sinh() * b.sin()),
            );
            div(n, d)
        }
        _ => return None,
    })
}

/// The value of binary op `op` on complex `x` and `y`.
pub fn binary(op: Opcode, x: C, y: C) -> Option<C> {
    Some(match op {
        Opcode::Add => (x.0 + y.0, x.1 + y.1),
        Opcode::Subtract => (x.0 - y.0, x.1 - y.1),
        Opcode::Multiply => mul(x, y),
        Opcode::Divide => div(x, y),
        Opcode::Power => {
            if y == (0.0, 0.0) {
                return Some((1.0, 0.0));
            }
            if x == (0.0, 0.0) {
                return Some((0.0, 0.0));
            }
            exp(mul(y, log(x)))
        }
        _ => return None,
    })
}

/// `EQ` and `NE` of complex values (NaN parts compare unequal).
pub fn compare(direction: &str, x: C, y: C) -> Option<bool> {
    let equal = x.0 == y.0 && x.1 == y.1;
    match direction {
        "EQ" => Some(equal),
        "NE" => Some(!equal),
        _ => None,
    }
}

/// Ops whose complex results the kernels compute to within rounding only.
pub const APPROXIMATE: &[Opcode] = &[Opcode::Divide, Opcode::Abs, Opcode::Sqrt, Opcode::Sign];
