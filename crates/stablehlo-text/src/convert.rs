//! The scan over the whole text: everything is copied as written but the operations in
//! StableHLO's pretty form (and CHLO's, and `sdy.mesh`), which `ops` rewrites in generic form, their regions
//! scanned the same way.

use crate::SyntaxError;
use crate::cursor::Cursor;

/// The state of one conversion: the cursor and the fresh SSA names it may need.
pub(crate) struct Converter<'a> {
    pub(crate) cur: Cursor<'a>,
    /// A prefix no `%` name of the input starts with, for the block arguments of compact reduces.
    fresh_prefix: String,
    fresh_count: usize,
    /// How many regions of pretty operations enclose the cursor.
    depth: usize,
}

/// The deepest nesting of regions of pretty operations (`while`, `reduce`) read. Each level
/// recurses, about 10 KiB of stack in a debug build: 100 levels fit a test thread's 2 MiB
/// stack, and JAX's deepest programs nest a few loops. A generic operation's regions (`case`,
/// `sort`, `scatter`, ...) cost no recursion here and have no such limit.
pub const MAX_REGION_DEPTH: usize = 100;

impl<'a> Converter<'a> {
    pub(crate) fn new(src: &'a str) -> Self {
        let mut fresh_prefix = "shtx".to_string();
        while src.contains(&format!("%{fresh_prefix}")) {
            fresh_prefix.push('_');
        }
        Converter {
            cur: Cursor::new(src),
            fresh_prefix,
            fresh_count: 0,
            depth: 0,
        }
    }

    /// A new SSA name, unused in the input.
    pub(crate) fn fresh_name(&mut self) -> String {
        self.fresh_count += 1;
        format!("%{}{}", self.fresh_prefix, self.fresh_count)
    }

    /// The whole text converted.
    pub(crate) fn convert_all(&mut self) -> Result<String, SyntaxError> {
        self.convert_until_close(false)
    }

    /// A region `{ ... }`: its body converted, `header` (a block label with its arguments, for
    /// regions whose pretty form leaves them out) put right after the `{`.
    pub(crate) fn region(&mut self, header: &str, context: &str) -> Result<String, SyntaxError> {
        let newlines = self.cur.take_newlines();
        self.cur.expect("{", context)?;
        if self.depth == MAX_REGION_DEPTH {
            return Err(self.cur.error(format!(
                "regions of pretty operations nested more than {MAX_REGION_DEPTH} deep"
            )));
        }
        self.depth += 1;
        let body = self.convert_until_close(true);
        self.depth -= 1;
        let body = body?;
        self.cur.expect("}", context)?;
        Ok(format!("{newlines}{{{header}{body}}}"))
    }

    /// Copies text up to the `}` that closes the current region (`inside_region`) or to the end,
    /// converting the pretty operations on the way.
    fn convert_until_close(&mut self, inside_region: bool) -> Result<String, SyntaxError> {
        let src = self.cur.src();
        let mut out = String::new();
        let mut copied = self.cur.pos();
        let mut depth = 0usize;
        while let Some(c) = self.cur.peek() {
            let start = self.cur.pos();
            match c {
                b'"' => {
                    self.cur.string("a string")?;
                }
                b'/' if src[start..].starts_with("//") => self.cur.skip_line_comment(),
                b'{' => {
                    depth += 1;
                    self.cur.bump();
                }
                b'}' if depth == 0 => {
                    if inside_region {
                        break;
                    }
                    return Err(self.cur.error("'}' closes nothing"));
                }
                b'}' => {
                    depth -= 1;
                    self.cur.bump();
                }
                b'#' | b'!' | b'@' | b'%' | b'^' => self.skip_prefixed(),
                c if c.is_ascii_alphabetic() || c == b'_' => {
                    let word = self.cur.ident().unwrap_or_default();
                    let is_op = starts_operation(src, start);
                    // Newlines before regions count from the operation's name on.
                    self.cur.take_newlines();
                    let converted = match word.split_once('.') {
                        Some(("stablehlo", op)) if is_op => {
                            Some(crate::ops::convert(self, op, start)?)
                        }
                        Some(("chlo", op)) if is_op => Some(crate::ops::chlo(self, op, start)?),
                        _ if is_op && word == "sdy.mesh" => Some(crate::ops::sdy_mesh(self)?),
                        _ => None,
                    };
                    if let Some(generic) = converted {
                        out.push_str(&src[copied..start]);
                        out.push_str(&generic);
                        // Keep the line count, so that later lines keep their numbers.
                        let lost = src[start..self.cur.pos()].matches('\n').count();
                        let kept = generic.matches('\n').count();
                        out.push_str(&"\n".repeat(lost.saturating_sub(kept)));
                        copied = self.cur.pos();
                    }
                }
                c if c.is_ascii_digit() => {
                    while self
                        .cur
                        .peek()
                        .is_some_and(|c| c.is_ascii_alphanumeric() || c == b'.')
                    {
                        self.cur.bump();
                    }
                }
                _ => self.cur.bump(),
            }
        }
        if inside_region && self.cur.peek().is_none() {
            return Err(self
                .cur
                .error("unclosed region: the text ends before its '}'"));
        }
        out.push_str(&src[copied..self.cur.pos()]);
        Ok(out)
    }

    /// Moves past a token that starts with `#`, `!`, `@`, `%` or `^` (an attribute or type alias
    /// or dialect attribute with its `<...>` body, a symbol, a value, a block label): nothing in
    /// it is an operation.
    fn skip_prefixed(&mut self) {
        let prefix = self.cur.peek();
        self.cur.bump();
        if self.cur.peek() == Some(b'"') {
            // A quoted symbol or dialect body; a bad string is left for MLIR to report.
            if self.cur.string("a quoted name").is_err() {
                self.cur.bump();
            }
        }
        while self
            .cur
            .peek()
            .is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'.' | b'-'))
        {
            self.cur.bump();
        }
        if matches!(prefix, Some(b'#' | b'!')) && self.cur.peek() == Some(b'<') {
            // An unbalanced body is left as it is, for MLIR to report.
            if self.cur.balanced("a dialect attribute or type").is_err() {
                self.cur.bump();
            }
        }
    }
}

/// Whether the identifier at `start` names an operation: it follows `=` (the results) or
/// starts its line. An attribute name (`{stablehlo.mesh = ...}`) follows `{` or `,`.
fn starts_operation(src: &str, start: usize) -> bool {
    let before = src[..start].trim_end_matches([' ', '\t']);
    before.is_empty() || before.ends_with(['=', '\n'])
}
