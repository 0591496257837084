//! The character-level reader under the HLO parser: position, trivia (whitespace and comments),
//! identifiers, numbers, strings and balanced brackets, with 1-based line and column errors.

use crate::error::HloError;

/// A position in the input text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pos {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
}

/// A reader over HLO text.
pub struct Cursor<'a> {
    src: &'a str,
    pos: usize,
    /// The last position converted to a line: `(offset, line, offset of that line's start)`, so
    /// that positions asked for in order cost only the text in between.
    line_cache: std::cell::Cell<(usize, usize, usize)>,
}

/// Characters that may continue a name: `get-tuple-element.1`, `param_0.1`.
fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-')
}

impl<'a> Cursor<'a> {
    /// A reader at the start of `src`.
    pub fn new(src: &'a str) -> Cursor<'a> {
        Cursor {
            src,
            pos: 0,
            line_cache: std::cell::Cell::new((0, 1, 0)),
        }
    }

    /// The byte offset.
    pub fn offset(&self) -> usize {
        self.pos
    }

    /// The text from byte offset `start` to the cursor.
    pub fn rest_since(&self, start: usize) -> &'a str {
        &self.src[start..self.pos]
    }

    /// The text not read yet.
    pub fn rest(&self) -> &'a str {
        &self.src[self.pos..]
    }

    /// The line and column of a byte offset.
    pub fn pos_at(&self, offset: usize) -> Pos {
        let offset = offset.min(self.src.len());
        let (mut from, mut line, mut line_start) = self.line_cache.get();
        if offset < from {
            (from, line, line_start) = (0, 1, 0);
        }
        let between = &self.src[from..offset];
        line += between.matches('\n').count();
        if let Some(i) = between.rfind('\n') {
            line_start = from + i + 1;
        }
        self.line_cache.set((offset, line, line_start));
        Pos {
            line,
            column: self.src[line_start..offset].chars().count() + 1,
        }
    }

    /// The current line and column.
    pub fn pos(&self) -> Pos {
        self.pos_at(self.pos)
    }

    /// A parse error at a byte offset.
    pub fn error_at(&self, offset: usize, message: impl Into<String>) -> HloError {
        let p = self.pos_at(offset);
        HloError::parse(p.line, p.column, message)
    }

    /// A parse error at the current position.
    pub fn error(&self, message: impl Into<String>) -> HloError {
        self.error_at(self.pos, message)
    }

    /// An error saying what was expected and what is here instead.
    pub fn expected(&self, what: &str) -> HloError {
        let found: String = self
            .rest()
            .chars()
            .take(20)
            .take_while(|c| *c != '\n')
            .collect();
        if found.is_empty() {
            self.error(format!("expected {what}, found end of line or input"))
        } else {
            self.error(format!("expected {what}, found '{found}'"))
        }
    }

    /// Skips whitespace, `//` line comments and `/* */` block comments.
    pub fn skip_trivia(&mut self) -> Result<(), HloError> {
        loop {
            let rest = self.rest();
            let trimmed = rest.trim_start();
            self.pos += rest.len() - trimmed.len();
            if trimmed.starts_with("//") {
                self.pos += trimmed.find('\n').unwrap_or(trimmed.len());
            } else if trimmed.starts_with("/*") {
                let end = trimmed
                    .find("*/")
                    .ok_or_else(|| self.error("unterminated /* comment"))?;
                self.pos += end + 2;
            } else {
                return Ok(());
            }
        }
    }

    /// Skips spaces and tabs only (not newlines).
    pub fn skip_blanks(&mut self) {
        let rest = self.rest();
        let trimmed = rest.trim_start_matches([' ', '\t', '\r']);
        self.pos += rest.len() - trimmed.len();
    }

    /// Whether all the text has been read.
    pub fn at_end(&self) -> bool {
        self.pos >= self.src.len()
    }

    /// The next character, not consumed (`None` at the end).
    pub fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    /// The character after the next one.
    pub fn peek2(&self) -> Option<char> {
        self.rest().chars().nth(1)
    }

    /// Consumes `c` if it is next.
    pub fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.pos += c.len_utf8();
            true
        } else {
            false
        }
    }

    /// Consumes `s` if it is next.
    pub fn eat_str(&mut self, s: &str) -> bool {
        if self.rest().starts_with(s) {
            self.pos += s.len();
            true
        } else {
            false
        }
    }

    /// Consumes `c` or fails.
    pub fn expect(&mut self, c: char) -> Result<(), HloError> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(self.expected(&format!("'{c}'")))
        }
    }

    /// Whether the next word is exactly `word` (not a prefix of a longer name).
    pub fn at_word(&self, word: &str) -> bool {
        self.rest()
            .strip_prefix(word)
            .is_some_and(|after| !after.starts_with(|c: char| is_name_char(c)))
    }

    /// A name, with or without a leading `%` (which is dropped).
    pub fn name(&mut self) -> Result<&'a str, HloError> {
        let start = self.pos;
        self.eat('%');
        let rest = self.rest();
        if !rest.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
            self.pos = start;
            return Err(self.expected("a name"));
        }
        let len = rest.find(|c: char| !is_name_char(c)).unwrap_or(rest.len());
        self.pos += len;
        Ok(&rest[..len])
    }

    /// A signed decimal integer that fits in an `i64`.
    pub fn int(&mut self) -> Result<i64, HloError> {
        let start = self.pos;
        let rest = self.rest();
        let sign = usize::from(rest.starts_with('-') || rest.starts_with('+'));
        let digits = rest[sign..]
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len() - sign);
        if digits == 0 {
            return Err(self.expected("an integer"));
        }
        let text = &rest[..sign + digits];
        self.pos += text.len();
        text.parse::<i64>()
            .map_err(|_| self.error_at(start, format!("integer {text} does not fit in 64 bits")))
    }

    /// A double-quoted string with backslash escapes; returns the text between the quotes as
    /// written (escapes are kept).
    pub fn string(&mut self) -> Result<&'a str, HloError> {
        let start = self.pos;
        self.expect('"')?;
        let rest = self.rest();
        let mut escaped = false;
        for (i, c) in rest.char_indices() {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => {
                    self.pos += i + 1;
                    return Ok(&rest[..i]);
                }
                _ => {}
            }
        }
        Err(self.error_at(start, "unterminated string"))
    }

    /// Text up to the bracket matching the `open` at the cursor, both included; strings inside
    /// are skipped whole and may contain brackets.
    pub fn balanced(&mut self, open: char, close: char) -> Result<&'a str, HloError> {
        let start = self.pos;
        self.expect(open)?;
        let mut depth = 1usize;
        while depth > 0 {
            match self.peek() {
                None => return Err(self.error_at(start, format!("unclosed '{open}'"))),
                Some('"') => {
                    self.string()?;
                }
                Some(c) => {
                    self.pos += c.len_utf8();
                    if c == open {
                        depth += 1;
                    } else if c == close {
                        depth -= 1;
                    }
                }
            }
        }
        Ok(&self.src[start..self.pos])
    }

    /// A bare attribute value: everything up to whitespace, `,`, `}` or `)`.
    pub fn bare_value(&mut self) -> Result<&'a str, HloError> {
        let rest = self.rest();
        let len = rest
            .find(|c: char| c.is_whitespace() || matches!(c, ',' | '}' | ')'))
            .unwrap_or(rest.len());
        if len == 0 {
            return Err(self.expected("an attribute value"));
        }
        self.pos += len;
        Ok(&rest[..len])
    }
}
