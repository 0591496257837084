//! A cursor over MLIR text: whitespace and comments, identifiers, SSA values, integers, types,
//! and attribute values taken whole (balanced brackets, strings).

use crate::SyntaxError;

/// Characters that continue a bare identifier (`stablehlo.add`, `tensor`, `f32`).
fn is_ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'.')
}

/// Characters of an SSA name after `%` (MLIR's suffix-id) or of a symbol after `@`.
fn is_suffix_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'.' | b'-')
}

/// A position in the text with the number of newlines skipped since the last
/// [`Cursor::take_newlines`].
pub(crate) struct Cursor<'a> {
    src: &'a str,
    pos: usize,
    newlines: usize,
}

impl<'a> Cursor<'a> {
    pub(crate) fn new(src: &'a str) -> Self {
        Cursor {
            src,
            pos: 0,
            newlines: 0,
        }
    }

    pub(crate) fn src(&self) -> &'a str {
        self.src
    }

    pub(crate) fn pos(&self) -> usize {
        self.pos
    }

    pub(crate) fn peek(&self) -> Option<u8> {
        self.src.as_bytes().get(self.pos).copied()
    }

    fn peek_at(&self, offset: usize) -> Option<u8> {
        self.src.as_bytes().get(self.pos + offset).copied()
    }

    fn rest(&self) -> &'a str {
        &self.src[self.pos..]
    }

    /// Moves past one character (all of its UTF-8 bytes).
    pub(crate) fn bump(&mut self) {
        if let Some(c) = self.rest().chars().next() {
            self.pos += c.len_utf8();
        }
    }

    /// An error at the current position.
    pub(crate) fn error(&self, message: impl Into<String>) -> SyntaxError {
        self.error_at(self.pos, message)
    }

    /// An error at byte offset `pos` (1-based line and column, columns counted in characters).
    pub(crate) fn error_at(&self, pos: usize, message: impl Into<String>) -> SyntaxError {
        let before = &self.src[..pos.min(self.src.len())];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        SyntaxError {
            line,
            column: before[line_start..].chars().count() + 1,
            message: message.into(),
        }
    }

    /// Skips whitespace and `//` comments, counting newlines.
    pub(crate) fn skip_ws(&mut self) {
        while let Some(c) = self.peek() {
            match c {
                b'\n' => {
                    self.newlines += 1;
                    self.pos += 1;
                }
                b' ' | b'\t' | b'\r' => self.pos += 1,
                b'/' if self.peek_at(1) == Some(b'/') => self.skip_line_comment(),
                _ => break,
            }
        }
    }

    /// Moves to the end of the line (not past its newline).
    pub(crate) fn skip_line_comment(&mut self) {
        self.pos = self
            .rest()
            .find('\n')
            .map_or(self.src.len(), |i| self.pos + i);
    }

    /// The newlines skipped since the last call, as text to keep the line count.
    pub(crate) fn take_newlines(&mut self) -> String {
        "\n".repeat(std::mem::take(&mut self.newlines))
    }

    /// The first byte after whitespace and comments, which stay unread.
    pub(crate) fn lookahead(&mut self) -> Option<u8> {
        let (pos, newlines) = (self.pos, self.newlines);
        self.skip_ws();
        let next = self.peek();
        (self.pos, self.newlines) = (pos, newlines);
        next
    }

    /// Consumes `punct` (after whitespace) if it comes next; else reads nothing, so that what
    /// follows an operation (a comment, the next line's indentation) stays where it was.
    pub(crate) fn eat(&mut self, punct: &str) -> bool {
        let (pos, newlines) = (self.pos, self.newlines);
        self.skip_ws();
        if self.rest().starts_with(punct) {
            self.pos += punct.len();
            true
        } else {
            (self.pos, self.newlines) = (pos, newlines);
            false
        }
    }

    /// Consumes `punct`, or fails saying what came instead.
    pub(crate) fn expect(&mut self, punct: &str, context: &str) -> Result<(), SyntaxError> {
        if self.eat(punct) {
            Ok(())
        } else {
            Err(self.unexpected(&format!("'{punct}'"), context))
        }
    }

    /// Consumes the keyword `word` if it comes next as a whole identifier.
    pub(crate) fn eat_keyword(&mut self, word: &str) -> bool {
        let (pos, newlines) = (self.pos, self.newlines);
        self.skip_ws();
        let rest = self.rest().as_bytes();
        let whole = rest.starts_with(word.as_bytes())
            && !rest.get(word.len()).copied().is_some_and(is_ident_char);
        if whole {
            self.pos += word.len();
        } else {
            (self.pos, self.newlines) = (pos, newlines);
        }
        whole
    }

    /// Consumes the keyword `word`, or fails.
    pub(crate) fn expect_keyword(&mut self, word: &str, context: &str) -> Result<(), SyntaxError> {
        if self.eat_keyword(word) {
            Ok(())
        } else {
            Err(self.unexpected(&format!("'{word}'"), context))
        }
    }

    /// "expected X in CONTEXT, found Y" at the current position.
    pub(crate) fn unexpected(&mut self, expected: &str, context: &str) -> SyntaxError {
        self.skip_ws();
        let found = match self.rest().chars().next() {
            None => "the end of the text".to_string(),
            Some(_) => {
                let token: String = self
                    .rest()
                    .chars()
                    .take_while(|c| !c.is_whitespace())
                    .take(20)
                    .collect();
                format!("'{token}'")
            }
        };
        self.error(format!("expected {expected} in {context}, found {found}"))
    }

    /// A bare identifier (letters, digits, `_`, `$`, `.`, not starting with a digit), if one
    /// comes next.
    pub(crate) fn ident(&mut self) -> Option<&'a str> {
        self.skip_ws();
        let start = self.pos;
        if !self
            .peek()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == b'_')
        {
            return None;
        }
        while self.peek().is_some_and(is_ident_char) {
            self.pos += 1;
        }
        Some(&self.src[start..self.pos])
    }

    /// A bare identifier, or fails.
    pub(crate) fn expect_ident(
        &mut self,
        what: &str,
        context: &str,
    ) -> Result<&'a str, SyntaxError> {
        match self.ident() {
            Some(word) => Ok(word),
            None => Err(self.unexpected(what, context)),
        }
    }

    /// An SSA value use: `%name`, optionally `#N` for one result of several.
    pub(crate) fn value(&mut self, context: &str) -> Result<&'a str, SyntaxError> {
        self.skip_ws();
        let start = self.pos;
        if self.peek() != Some(b'%') || !self.peek_at(1).is_some_and(is_suffix_char) {
            return Err(self.unexpected("an SSA value (%name)", context));
        }
        self.pos += 1;
        while self.peek().is_some_and(is_suffix_char) {
            self.pos += 1;
        }
        if self.peek() == Some(b'#') && self.peek_at(1).is_some_and(|c| c.is_ascii_digit()) {
            self.pos += 1;
            while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                self.pos += 1;
            }
        }
        Ok(&self.src[start..self.pos])
    }

    /// A symbol reference: `@name` or `@"quoted name"`.
    pub(crate) fn symbol(&mut self, context: &str) -> Result<&'a str, SyntaxError> {
        self.skip_ws();
        let start = self.pos;
        if self.peek() != Some(b'@') {
            return Err(self.unexpected("a symbol (@name)", context));
        }
        self.pos += 1;
        if self.peek() == Some(b'"') {
            self.string(context)?;
        } else {
            let name_start = self.pos;
            while self.peek().is_some_and(is_suffix_char) {
                self.pos += 1;
            }
            if self.pos == name_start {
                return Err(self.unexpected("a symbol name after '@'", context));
            }
        }
        Ok(&self.src[start..self.pos])
    }

    /// A string literal with its quotes and escapes as written.
    pub(crate) fn string(&mut self, context: &str) -> Result<&'a str, SyntaxError> {
        self.skip_ws();
        let start = self.pos;
        if self.peek() != Some(b'"') {
            return Err(self.unexpected("a string", context));
        }
        self.pos += 1;
        loop {
            match self.peek() {
                None | Some(b'\n') => {
                    return Err(self.error_at(start, format!("unterminated string in {context}")));
                }
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(&self.src[start..self.pos]);
                }
                Some(b'\\') => {
                    self.pos += 1;
                    self.bump();
                }
                Some(_) => self.bump(),
            }
        }
    }

    /// A decimal integer, optionally negative.
    pub(crate) fn integer(&mut self, context: &str) -> Result<i64, SyntaxError> {
        self.skip_ws();
        let start = self.pos;
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        let digits = self.pos;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.pos += 1;
        }
        if self.pos == digits {
            self.pos = start;
            return Err(self.unexpected("an integer", context));
        }
        self.src[start..self.pos]
            .parse()
            .map_err(|_| self.error_at(start, format!("integer out of range in {context}")))
    }

    /// `[i, j, ...]`, possibly empty.
    pub(crate) fn integer_list(&mut self, context: &str) -> Result<Vec<i64>, SyntaxError> {
        self.expect("[", context)?;
        let mut values = Vec::new();
        if self.eat("]") {
            return Ok(values);
        }
        loop {
            values.push(self.integer(context)?);
            if self.eat("]") {
                return Ok(values);
            }
            self.expect(",", context)?;
        }
    }

    /// One type: `tensor<4xf32>`, `i32`, `!stablehlo.token`, `tuple<...>`, or a function type
    /// `(T, U) -> V`.
    pub(crate) fn type_(&mut self, context: &str) -> Result<&'a str, SyntaxError> {
        self.skip_ws();
        let start = self.pos;
        if self.peek() == Some(b'(') {
            self.function_type(context)?;
            return Ok(&self.src[start..self.pos]);
        }
        if self.peek() == Some(b'!') {
            self.pos += 1;
        }
        let name_start = self.pos;
        while self.peek().is_some_and(is_ident_char) {
            self.pos += 1;
        }
        if self.pos == name_start {
            self.pos = start;
            return Err(self.unexpected("a type", context));
        }
        if self.peek() == Some(b'<') {
            self.balanced(context)?;
        }
        let ty = &self.src[start..self.pos];
        // MLIR prints a type on one line; the generic form may repeat it (an elementwise op's
        // one type is each operand's and the result's), which must not add lines.
        if ty.contains('\n') {
            return Err(self.error_at(
                start,
                format!("a type that does not end on its line in {context}"),
            ));
        }
        Ok(ty)
    }

    /// `T, U, ...` (at least one type).
    pub(crate) fn type_list(&mut self, context: &str) -> Result<Vec<&'a str>, SyntaxError> {
        let mut types = vec![self.type_(context)?];
        while self.eat(",") {
            types.push(self.type_(context)?);
        }
        Ok(types)
    }

    /// `(T, ...) -> R` or `(T, ...) -> (R, ...)`: the inputs and the results.
    pub(crate) fn function_type(
        &mut self,
        context: &str,
    ) -> Result<(Vec<&'a str>, Vec<&'a str>), SyntaxError> {
        let inputs = self.parenthesized_types(context)?;
        self.expect("->", context)?;
        self.skip_ws();
        let results = if self.peek() == Some(b'(') {
            self.parenthesized_types(context)?
        } else {
            vec![self.type_(context)?]
        };
        Ok((inputs, results))
    }

    /// `(T, ...)`, possibly empty.
    pub(crate) fn parenthesized_types(
        &mut self,
        context: &str,
    ) -> Result<Vec<&'a str>, SyntaxError> {
        self.expect("(", context)?;
        if self.eat(")") {
            return Ok(Vec::new());
        }
        let types = self.type_list(context)?;
        self.expect(")", context)?;
        Ok(types)
    }

    /// A bracketed group taken whole, starting at `(`, `[`, `{` or `<`: nested brackets,
    /// strings, and `->` (whose `>` closes nothing).
    pub(crate) fn balanced(&mut self, context: &str) -> Result<&'a str, SyntaxError> {
        self.skip_ws();
        let start = self.pos;
        let mut stack = Vec::new();
        loop {
            let Some(c) = self.peek() else {
                return Err(self.error_at(start, format!("unclosed bracket in {context}")));
            };
            match c {
                b'(' | b'[' | b'{' | b'<' => {
                    stack.push(closer(c));
                    self.pos += 1;
                }
                b'-' if self.peek_at(1) == Some(b'>') => self.pos += 2,
                b')' | b']' | b'}' | b'>' => {
                    if stack.pop() != Some(c) {
                        return Err(self.error(format!("unbalanced '{}' in {context}", c as char)));
                    }
                    self.pos += 1;
                }
                b'"' => {
                    self.string(context)?;
                }
                _ => self.bump(),
            }
            if stack.is_empty() {
                return Ok(&self.src[start..self.pos]);
            }
        }
    }

    /// An attribute value taken whole, up to a `,` or a closing bracket outside brackets.
    pub(crate) fn attribute_value(&mut self, context: &str) -> Result<&'a str, SyntaxError> {
        self.skip_ws();
        let start = self.pos;
        loop {
            match self.peek() {
                None | Some(b',' | b')' | b']' | b'}' | b'>') => break,
                Some(b'(' | b'[' | b'{' | b'<') => {
                    self.balanced(context)?;
                }
                Some(b'"') => {
                    self.string(context)?;
                }
                Some(b'-') if self.peek_at(1) == Some(b'>') => self.pos += 2,
                Some(_) => self.bump(),
            }
        }
        let value = self.src[start..self.pos].trim_end();
        if value.is_empty() {
            return Err(self.unexpected("an attribute value", context));
        }
        Ok(value)
    }

    /// `{name = value, unit_name, ...}`: each entry's name and value (`None` for a unit
    /// attribute written alone).
    pub(crate) fn attribute_dict(
        &mut self,
        context: &str,
    ) -> Result<Vec<(&'a str, Option<&'a str>)>, SyntaxError> {
        self.expect("{", context)?;
        let mut entries = Vec::new();
        if self.eat("}") {
            return Ok(entries);
        }
        loop {
            self.skip_ws();
            let name = if self.peek() == Some(b'"') {
                self.string(context)?
            } else {
                self.expect_ident("an attribute name", context)?
            };
            let value = if self.eat("=") {
                Some(self.attribute_value(context)?)
            } else {
                None
            };
            entries.push((name, value));
            if self.eat("}") {
                return Ok(entries);
            }
            self.expect(",", context)?;
        }
    }
}

/// The bracket that closes `open`.
fn closer(open: u8) -> u8 {
    match open {
        b'(' => b')',
        b'[' => b']',
        b'{' => b'}',
        _ => b'>',
    }
}
