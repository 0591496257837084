//! The module paths a Rust source file names, read from its text: what its `use` trees import
//! and the paths its code spells out (`crate::ir::op_name(..)`, `super::values::Known`,
//! `child::f()` for a module of its own), without comments, string and character literals, or
//! `#[cfg(test)]` modules. A reader of text, not a parser: it sees what a file names, which is
//! what its imports are.

/// The paths `code` names, each as its segments (`["super", "values", "Known"]`); `children`
/// are the names of the file's own submodules, whose paths need no `self::`.
pub fn named_paths(code: &str, children: &[String]) -> Vec<Vec<String>> {
    let code = without_test_modules(&without_comments_and_literals(code));
    let (uses, rest) = use_trees(&code);
    let mut paths = Vec::new();
    for tree in uses {
        expand(&tokens(&tree), &mut 0, Vec::new(), &mut paths);
    }
    paths.extend(spelled_paths(&rest, children));
    paths
}

/// `code` without comments and with every string and character literal emptied.
fn without_comments_and_literals(code: &str) -> String {
    let c: Vec<char> = code.chars().collect();
    let at = |i: usize, s: &str| s.chars().enumerate().all(|(k, x)| c.get(i + k) == Some(&x));
    let mut out = String::with_capacity(code.len());
    let mut i = 0;
    while i < c.len() {
        let after_ident = i > 0 && is_ident_char(c[i - 1]);
        if at(i, "//") {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if at(i, "/*") {
            let mut depth = 0;
            while i < c.len() {
                if at(i, "/*") {
                    depth += 1;
                    i += 2;
                } else if at(i, "*/") {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if let Some((hashes, start)) = raw_string_at(&c, i).filter(|_| !after_ident) {
            let close: String = std::iter::once('"')
                .chain("#".repeat(hashes).chars())
                .collect();
            i = start;
            while i < c.len() && !at(i, &close) {
                i += 1;
            }
            i += close.len();
            out.push_str("\"\"");
        } else if c[i] == '"' {
            i += 1;
            while i < c.len() && c[i] != '"' {
                i += if c[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if c[i] == '\'' && (c.get(i + 1) == Some(&'\\') || c.get(i + 2) == Some(&'\'')) {
            // A character literal (a lifetime has no closing quote after one character).
            i += 2;
            while i < c.len() && c[i] != '\'' {
                i += 1;
            }
            i += 1;
            out.push_str("' '");
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

/// At a raw string (`r"`, `r#"`, `br##"`, ...) starting at `i`: its `#` count and where its
/// text starts.
fn raw_string_at(c: &[char], i: usize) -> Option<(usize, usize)> {
    let mut k = i;
    if c.get(k) == Some(&'b') {
        k += 1;
    }
    if c.get(k) != Some(&'r') {
        return None;
    }
    k += 1;
    let hashes = c[k..].iter().take_while(|&&x| x == '#').count();
    (c.get(k + hashes) == Some(&'"')).then_some((hashes, k + hashes + 1))
}

/// `code` without the `#[cfg(test)] mod NAME { ... }` and `#[cfg(test)] mod NAME;` items.
fn without_test_modules(code: &str) -> String {
    const ATTRIBUTE: &str = "#[cfg(test)]";
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(start) = rest.find(ATTRIBUTE) {
        out.push_str(&rest[..start]);
        let after = &rest[start + ATTRIBUTE.len()..];
        let item = after.trim_start();
        if !item.starts_with("mod ") {
            out.push_str(ATTRIBUTE);
            rest = after;
            continue;
        }
        let end = match item.find(['{', ';']) {
            Some(open) if item.as_bytes()[open] == b'{' => matching_brace(item, open),
            Some(semicolon) => semicolon + 1,
            None => item.len(),
        };
        rest = &item[end..];
    }
    out.push_str(rest);
    out
}

/// The index just past the `}` that closes the `{` at `open`.
fn matching_brace(text: &str, open: usize) -> usize {
    let mut depth = 0;
    for (i, b) in text.bytes().enumerate().skip(open) {
        match b {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
    }
    text.len()
}

/// The trees of the `use` items of `code` (the text between `use` and `;`), and the code
/// without them.
fn use_trees(code: &str) -> (Vec<String>, String) {
    let mut trees = Vec::new();
    let mut rest = String::with_capacity(code.len());
    let mut i = 0;
    while let Some(found) = code[i..].find("use") {
        let start = i + found;
        let end = start + "use".len();
        let keyword =
            !code[..start].ends_with(is_ident_char) && code[end..].starts_with(char::is_whitespace);
        let Some(semicolon) = code[end..].find(';').filter(|_| keyword) else {
            rest.push_str(&code[i..end]);
            i = end;
            continue;
        };
        rest.push_str(&code[i..start]);
        trees.push(code[end..end + semicolon].to_string());
        i = end + semicolon + 1;
    }
    rest.push_str(&code[i..]);
    (trees, rest)
}

/// The tokens of a use tree: names, `::`, braces, commas and `*`.
fn tokens(tree: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = tree.chars().peekable();
    while let Some(c) = chars.next() {
        if is_ident_char(c) {
            let mut name = c.to_string();
            while let Some(&n) = chars.peek().filter(|&&n| is_ident_char(n)) {
                name.push(n);
                chars.next();
            }
            out.push(name);
        } else if c == ':' && chars.peek() == Some(&':') {
            chars.next();
            out.push("::".into());
        } else if "{},*".contains(c) {
            out.push(c.to_string());
        }
    }
    out
}

/// Adds to `out` the paths of the use tree at `tokens[*i..]` under `prefix`.
fn expand(tokens: &[String], i: &mut usize, mut prefix: Vec<String>, out: &mut Vec<Vec<String>>) {
    loop {
        match tokens.get(*i).map(String::as_str) {
            Some("{") => {
                *i += 1;
                while tokens.get(*i).is_some_and(|t| t != "}") {
                    expand(tokens, i, prefix.clone(), out);
                    if tokens.get(*i).is_some_and(|t| t == ",") {
                        *i += 1;
                    }
                }
                *i += 1;
                return;
            }
            Some("*") => {
                *i += 1;
                out.push(prefix);
                return;
            }
            Some("::") => *i += 1,
            Some(name) if name.starts_with(is_ident_char) => {
                prefix.push(name.to_string());
                *i += 1;
                match tokens.get(*i).map(String::as_str) {
                    Some("::") => *i += 1,
                    Some("as") => {
                        *i += 2;
                        out.push(prefix);
                        return;
                    }
                    _ => {
                        out.push(prefix);
                        return;
                    }
                }
            }
            _ => {
                out.push(prefix);
                return;
            }
        }
    }
}

/// The paths spelled out in `code` that start at `crate`, `super`, `self` or one of
/// `children`: `name::name(::name)*`, not after `$` (a macro's `$crate`) or another path.
fn spelled_paths(code: &str, children: &[String]) -> Vec<Vec<String>> {
    let c: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < c.len() {
        if !is_ident_char(c[i]) || (i > 0 && (is_ident_char(c[i - 1]) || "$:".contains(c[i - 1]))) {
            i += 1;
            continue;
        }
        let mut segments = Vec::new();
        let mut k = i;
        loop {
            let start = k;
            while k < c.len() && is_ident_char(c[k]) {
                k += 1;
            }
            segments.push(c[start..k].iter().collect::<String>());
            if c.get(k) == Some(&':')
                && c.get(k + 1) == Some(&':')
                && c.get(k + 2).is_some_and(|&n| is_ident_char(n))
            {
                k += 2;
            } else {
                break;
            }
        }
        let first = segments[0].as_str();
        if segments.len() > 1
            && (["crate", "super", "self"].contains(&first) || children.iter().any(|c| c == first))
        {
            out.push(segments);
        }
        i = k.max(i + 1);
    }
    out
}

/// Whether `c` can be part of a Rust identifier.
fn is_ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}
