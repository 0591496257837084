//! Scanning printed MLIR text: brackets, top-level commas, SSA values, shaped types.

/// The index of the bracket closing the one at `open`.
pub fn matching(text: &str, open: usize) -> Option<usize> {
    let mut depth = 0i32;
    for (k, c) in text[open..].char_indices() {
        let at = open + k;
        match c {
            '(' | '[' | '{' | '<' => depth += 1,
            // The arrow of a function type.
            '>' if text[..at].ends_with('-') => {}
            ')' | ']' | '}' | '>' => {
                depth -= 1;
                if depth == 0 {
                    return Some(at);
                }
            }
            _ => {}
        }
    }
    None
}

/// The first occurrence of `c` outside brackets.
pub(super) fn top_level(text: &str, c: char) -> Option<usize> {
    let mut depth = 0i32;
    for (k, ch) in text.char_indices() {
        if ch == c && depth == 0 {
            return Some(k);
        }
        match ch {
            '(' | '[' | '{' | '<' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            '>' if !text[..k].ends_with('-') => depth -= 1,
            _ => {}
        }
    }
    None
}

/// `text` split at its commas outside brackets, each part trimmed.
pub fn split_top(text: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut rest = text;
    while let Some(at) = top_level(rest, ',') {
        parts.push(rest[..at].trim());
        rest = &rest[at + 1..];
    }
    if !rest.trim().is_empty() {
        parts.push(rest.trim());
    }
    parts
}

/// The items of the first `[...]` of `text` (`%p[0, %16]` gives `0`, `%16`).
pub fn bracketed(text: &str) -> Option<Vec<&str>> {
    let open = text.find('[')?;
    let close = matching(text, open)?;
    Some(split_top(&text[open + 1..close]))
}

/// The bracketed lists of an op's text before its type (` : `): `%m[%a, 0] [2, 4] [1, 1] :
/// ...` gives `%a, 0`, `2, 4` and `1, 1` (the offsets, sizes and strides of a slice).
pub fn bracket_lists(text: &str) -> Vec<&str> {
    text.split(" : ")
        .next()
        .unwrap_or("")
        .split(['[', ']'])
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect()
}

/// A shaped type's `4x5xindex` as its dimensions' text and its element type (`index`).
pub fn split_shaped(text: &str) -> (Vec<&str>, &str) {
    let mut dims = Vec::new();
    let mut rest = text;
    while let Some((dim, after)) = rest.split_once('x') {
        if dim.is_empty() || !dim.chars().all(|c| c.is_ascii_digit() || c == '?') {
            break;
        }
        dims.push(dim);
        rest = after;
    }
    (dims, rest)
}

/// The SSA values (`%x`, `%x#1`) named in `text`, in order.
pub fn values(text: &str) -> Vec<&str> {
    let mut found = Vec::new();
    let bytes = text.as_bytes();
    let mut k = 0;
    while k < bytes.len() {
        if bytes[k] == b'%' {
            let end = text[k + 1..]
                .find(|c: char| !(c.is_alphanumeric() || "_$.-#".contains(c)))
                .map_or(text.len(), |n| k + 1 + n);
            found.push(&text[k..end]);
            k = end;
        } else {
            k += 1;
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_and_top_level_commas() {
        assert_eq!(
            values("tensor.insert %v into %t[%i, %c-7] : tensor<2x3xf32>"),
            vec!["%v", "%t", "%i", "%c-7"]
        );
        assert_eq!(split_top("0, %16"), vec!["0", "%16"]);
        assert_eq!(
            bracket_lists("[%a, 0] [2, 4] [1, 1] : memref<2x3xf32> -> tensor<2x4xf32>"),
            vec!["%a, 0", "2, 4", "1, 1"]
        );
        assert_eq!(split_shaped("5x7xindex"), (vec!["5", "7"], "index"));
        assert_eq!(split_shaped("f32"), (vec![], "f32"));
        assert_eq!(split_shaped("?x2xi1"), (vec!["?", "2"], "i1"));
        let gep = "%arg0[0, %16] : (!llvm.ptr, i64) -> !llvm.ptr";
        assert_eq!(matching(gep, 5), Some(12));
        assert_eq!(bracketed(gep), Some(vec!["0", "%16"]));
        assert_eq!(bracketed("%v[]"), Some(vec![]));
        assert_eq!(matching("(a) -> (b)", 0), Some(2));
        assert_eq!(
            split_top("%a: tensor<2x3xf32>, %b: index"),
            vec!["%a: tensor<2x3xf32>", "%b: index"]
        );
    }
}
