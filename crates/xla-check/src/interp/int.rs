//! Integers at a width (`index` at the module's): sign extension, unsigned views, and the
//! integer ops of `arith` and LLVM.

use super::{Need, Result};

/// The bit width of an integer type (`index` is `index_width`); `None` for others.
pub fn int_width(ty: &str, index_width: u32) -> Option<u32> {
    let ty = ty.trim();
    if ty == "index" {
        return Some(index_width);
    }
    ty.strip_prefix('i')?.parse().ok()
}

/// `v` sign-extended from `width` bits.
pub fn wrap(v: i64, width: u32) -> i64 {
    if width >= 64 {
        v
    } else {
        let shift = 64 - width;
        (v << shift) >> shift
    }
}

/// `v` as an unsigned `width`-bit number.
pub fn unsigned(v: i64, width: u32) -> u64 {
    if width >= 64 {
        v as u64
    } else {
        (v as u64) & ((1u64 << width) - 1)
    }
}

/// An integer as memory holds it: zero-extended from `width` bits (so `i1` true is 1 in a
/// tensor of `i1` and in a buffer of `i8` alike).
pub fn stored(v: i64, width: u32) -> i64 {
    unsigned(v, width) as i64
}

/// An integer op of `arith` or `llvm` on `args` at `width` bits.
pub fn integer(name: &str, text: &str, args: &[i64], width: u32) -> Result<i64> {
    let op = name
        .strip_prefix("arith.")
        .or_else(|| name.strip_prefix("llvm."))
        .unwrap_or(name);
    let arg = |k: usize| -> Result<i64> {
        args.get(k)
            .map(|v| wrap(*v, width))
            .need_with(|| format!("{name} needs {} operands", k + 1))
    };
    let u = |k: usize| -> Result<u64> { Ok(unsigned(arg(k)?, width)) };
    let divisor = |k: usize| -> Result<i64> {
        let v = arg(k)?;
        if v == 0 {
            fail!("division by zero");
        }
        Ok(v)
    };
    let v = match op {
        "addi" | "add" => arg(0)?.wrapping_add(arg(1)?),
        "subi" | "sub" => arg(0)?.wrapping_sub(arg(1)?),
        "muli" | "mul" => arg(0)?.wrapping_mul(arg(1)?),
        "divsi" | "sdiv" => arg(0)?.wrapping_div(divisor(1)?),
        "remsi" | "srem" => arg(0)?.wrapping_rem(divisor(1)?),
        "divui" | "udiv" => (u(0)? / unsigned(divisor(1)?, width)) as i64,
        "remui" | "urem" => (u(0)? % unsigned(divisor(1)?, width)) as i64,
        "floordivsi" | "ceildivsi" => {
            let (a, b) = (arg(0)?, divisor(1)?);
            let q = a.wrapping_div(b);
            let inexact = a.wrapping_rem(b) != 0;
            let negative = (a < 0) != (b < 0);
            match op {
                "floordivsi" => q - i64::from(inexact && negative),
                _ => q + i64::from(inexact && !negative),
            }
        }
        "ceildivui" => u(0)?.div_ceil(unsigned(divisor(1)?, width)) as i64,
        "minsi" => arg(0)?.min(arg(1)?),
        "maxsi" => arg(0)?.max(arg(1)?),
        "minui" => u(0)?.min(u(1)?) as i64,
        "maxui" => u(0)?.max(u(1)?) as i64,
        "andi" | "and" => arg(0)? & arg(1)?,
        "ori" | "or" => arg(0)? | arg(1)?,
        "xori" | "xor" => arg(0)? ^ arg(1)?,
        "shli" | "shl" => arg(0)?.wrapping_shl(u(1)? as u32),
        "shrui" | "lshr" => (u(0)? >> u(1)?.min(63)) as i64,
        "shrsi" | "ashr" => arg(0)? >> u(1)?.min(63),
        "select" => {
            if args.first().copied().unwrap_or(0) != 0 {
                arg(1)?
            } else {
                arg(2)?
            }
        }
        "cmpi" | "icmp" => {
            let predicate = text
                .split_whitespace()
                .nth(1)
                .unwrap_or("")
                .trim_matches([',', '"']);
            let (a, b, ua, ub) = (arg(0)?, arg(1)?, u(0)?, u(1)?);
            let holds = match predicate {
                "eq" => a == b,
                "ne" => a != b,
                "slt" => a < b,
                "sle" => a <= b,
                "sgt" => a > b,
                "sge" => a >= b,
                "ult" => ua < ub,
                "ule" => ua <= ub,
                "ugt" => ua > ub,
                "uge" => ua >= ub,
                other => fail!("predicate {other}"),
            };
            return Ok(if holds { -1 } else { 0 });
        }
        _ => fail!("the integer op {name} is not interpreted"),
    };
    Ok(wrap(v, width))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_wrap_at_their_width() {
        assert_eq!(
            integer("arith.addi", "", &[i64::from(i32::MAX), 1], 32).unwrap(),
            i64::from(i32::MIN)
        );
        assert_eq!(integer("arith.divui", "", &[-1, 2], 8).unwrap(), 127);
        assert_eq!(integer("arith.floordivsi", "", &[-7, 2], 64).unwrap(), -4);
        assert_eq!(integer("arith.floordivsi", "", &[7, -2], 64).unwrap(), -4);
        assert_eq!(integer("arith.ceildivsi", "", &[7, 2], 64).unwrap(), 4);
        assert_eq!(integer("arith.ceildivsi", "", &[-7, 2], 64).unwrap(), -3);
        assert_eq!(integer("arith.remsi", "", &[-7, 2], 64).unwrap(), -1);
        assert_eq!(
            integer("arith.cmpi", "arith.cmpi ult, %a, %b", &[-1, 2], 64).unwrap(),
            0
        );
        assert_eq!(
            integer("llvm.icmp", "llvm.icmp \"slt\" %a, %b", &[-1, 2], 64).unwrap(),
            -1
        );
    }
}
