//! XLA's LLVM IR in the text LLVM 22 reads. JAX 0.12's XLA prints LLVM IR with a newer LLVM,
//! whose syntax LLVM 22's `opt` rejects in a few places:
//!
//! * float constants as `f0x3DE38E39` (the value's bits in its own type), `-inf`, `+qnan`;
//! * decimal `float` constants that are not exact (`1.000000e-01`), which LLVM 22 accepts only
//!   when the decimal is exactly a `float`;
//! * the function attribute `denormal_fpenv(...)`.
//!
//! [`for_llvm22`] rewrites them to LLVM 22's forms: the same values as the hexadecimal `double`
//! that LLVM 22 reads for every float type (and `0xH`/`0xR` for `half`/`bfloat`), and no
//! `denormal_fpenv`, which changes no integer instruction.

/// `text` with XLA's newer LLVM syntax rewritten for LLVM 22.
pub fn for_llvm22(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        if line.starts_with("attributes #") {
            out.push_str(&without_call(line, "denormal_fpenv("));
        } else {
            out.push_str(&constants(line));
        }
        out.push('\n');
    }
    out
}

/// `line` without the calls `name...)` (and the space before each).
fn without_call(line: &str, name: &str) -> String {
    let mut out = line.to_owned();
    while let Some(at) = out.find(name) {
        let end = out[at..].find(')').map_or(out.len(), |n| at + n + 1);
        let start = if out[..at].ends_with(' ') { at - 1 } else { at };
        out.replace_range(start..end, "");
    }
    out
}

/// The float constants of one instruction line, rewritten.
fn constants(line: &str) -> String {
    let is_float = line.contains("float") && !line.contains("double");
    let half = if line.contains("bfloat") { 'R' } else { 'H' };
    let mut out = String::with_capacity(line.len());
    for (k, word) in line.split(' ').enumerate() {
        if k > 0 {
            out.push(' ');
        }
        let core = word.trim_end_matches([',', ']', ')', '>']);
        let tail = &word[core.len()..];
        let open = core.len() - core.trim_start_matches(['[', '(', '<']).len();
        let (head, value) = core.split_at(open);
        match rewrite(value, is_float, half) {
            Some(new) => {
                out.push_str(head);
                out.push_str(&new);
                out.push_str(tail);
            }
            None => out.push_str(word),
        }
    }
    out
}

/// One float constant in LLVM 22's spelling, if it needs one.
fn rewrite(value: &str, is_float: bool, half: char) -> Option<String> {
    let double = |v: f64| format!("0x{:016X}", v.to_bits());
    match value {
        "inf" | "+inf" => return Some(double(f64::INFINITY)),
        "-inf" => return Some(double(f64::NEG_INFINITY)),
        "nan" | "qnan" | "+qnan" | "+nan" => return Some("0x7FF8000000000000".into()),
        "-qnan" | "-nan" => return Some("0xFFF8000000000000".into()),
        _ => {}
    }
    if let Some(hex) = value.strip_prefix("f0x") {
        return match hex.len() {
            4 => Some(format!("0x{half}{hex}")),
            8 => u32::from_str_radix(hex, 16)
                .ok()
                .map(|bits| double(f64::from(f32::from_bits(bits)))),
            16 => Some(format!("0x{hex}")),
            _ => None,
        };
    }
    let decimal = value.contains('.') && value.contains('e');
    if is_float && decimal {
        let v: f64 = value.parse().ok()?;
        let rounded = f64::from(v as f32);
        return (rounded != v).then(|| double(rounded));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn newer_float_constants_become_llvm22_hex() {
        assert_eq!(
            for_llvm22("  %14 = phi float [ %25, %17 ], [ -inf, %10 ]"),
            "  %14 = phi float [ %25, %17 ], [ 0xFFF0000000000000, %10 ]\n"
        );
        assert_eq!(
            for_llvm22("  %30 = select i1 %24, float %29, float +qnan"),
            "  %30 = select i1 %24, float %29, float 0x7FF8000000000000\n"
        );
        // 1.0f is 0x3F800000.
        assert_eq!(
            for_llvm22("  %24 = fmul float %23, f0x3F800000"),
            "  %24 = fmul float %23, 0x3FF0000000000000\n"
        );
        assert_eq!(
            for_llvm22("  %2 = fadd half %1, f0x3C00"),
            "  %2 = fadd half %1, 0xH3C00\n"
        );
        // 0.1 is not a float: the nearest float, as a double.
        assert_eq!(
            for_llvm22("  %25 = fmul float %23, 1.000000e-01"),
            format!(
                "  %25 = fmul float %23, 0x{:016X}\n",
                f64::from(0.1f32).to_bits()
            )
        );
        // Exact decimals and doubles stay.
        let exact = "  %25 = fmul float %23, 5.000000e-01\n  %3 = fadd double %1, 1.000000e-01\n";
        assert_eq!(for_llvm22(exact), exact);
    }

    #[test]
    fn denormal_fpenv_is_dropped() {
        assert_eq!(
            for_llvm22(
                "attributes #0 = { denormal_fpenv(preservesign) uwtable \"frame-pointer\"=\"none\" }"
            ),
            "attributes #0 = { uwtable \"frame-pointer\"=\"none\" }\n"
        );
    }
}
