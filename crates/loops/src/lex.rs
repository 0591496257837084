//! A small lexer shared by the two input languages: identifiers, integers, floating-point and
//! string literals, punctuation from a per-language table (longest match first) and `#` comments.

use crate::error::{LoopsError, Pos};

/// One token.
#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    /// An identifier or keyword (`def`, `where`, `lambda`, ...).
    Ident(String),
    /// An integer literal.
    Int(i64),
    /// A floating-point literal, kept as written.
    Float(String),
    /// A quoted string (single or double quotes), without the quotes.
    Str(String),
    /// Punctuation from the language's table, or `"\n"` for a line end where line ends are tokens.
    Punct(&'static str),
    /// The end of the input (always the last token).
    Eof,
}

impl Tok {
    /// How the token is named in error messages.
    pub fn describe(&self) -> String {
        match self {
            Tok::Ident(s) => format!("`{}`", shorten(s)),
            Tok::Int(v) => format!("`{v}`"),
            Tok::Float(s) => format!("`{}`", shorten(s)),
            Tok::Str(s) => format!("string \"{}\"", shorten(s)),
            Tok::Punct(p) => format!("`{p}`"),
            Tok::Eof => "end of input".to_string(),
        }
    }
}

/// Text quoted in a message: at most 40 characters, an ellipsis after a cut.
pub fn shorten(s: &str) -> String {
    match s.char_indices().nth(40) {
        Some((cut, _)) => format!("{}...", &s[..cut]),
        None => s.to_string(),
    }
}

/// Splits `text` into tokens with their positions; the last token is [`Tok::Eof`].
/// `puncts` lists the language's punctuation; `newlines` makes line ends `"\n"` tokens.
pub fn tokenize(
    text: &str,
    puncts: &[&'static str],
    newlines: bool,
) -> Result<Vec<(Tok, Pos)>, LoopsError> {
    let mut out = Vec::new();
    let mut line = 1usize;
    // A byte offset on the current line and its column, advanced as `i` moves (linear time).
    let (mut col_at, mut column) = (0usize, 1usize);
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        column += text[col_at..i].chars().count();
        col_at = i;
        let pos = Pos { line, column };
        if c == b'\n' {
            if newlines {
                out.push((Tok::Punct("\n"), pos));
            }
            i += 1;
            line += 1;
            (col_at, column) = (i, 1);
        } else if c.is_ascii_whitespace() {
            i += 1;
        } else if c == b'#' {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            out.push((Tok::Ident(text[start..i].to_string()), pos));
        } else if c.is_ascii_digit() {
            let start = i;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            let fractional =
                i + 1 < bytes.len() && bytes[i] == b'.' && bytes[i + 1].is_ascii_digit();
            if fractional || (i < bytes.len() && matches!(bytes[i], b'f' | b'e')) {
                i += usize::from(fractional);
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'.') {
                    i += 1;
                }
                out.push((Tok::Float(text[start..i].to_string()), pos));
            } else {
                let value = text[start..i].parse::<i64>().map_err(|_| {
                    LoopsError::parse("integer literal too large", pos.line, pos.column)
                })?;
                out.push((Tok::Int(value), pos));
            }
        } else if c == b'"' || c == b'\'' {
            let start = i + 1;
            i += 1;
            while i < bytes.len() && bytes[i] != c && bytes[i] != b'\n' {
                i += 1;
            }
            if i >= bytes.len() || bytes[i] != c {
                return Err(LoopsError::parse(
                    "unterminated string",
                    pos.line,
                    pos.column,
                ));
            }
            out.push((Tok::Str(text[start..i].to_string()), pos));
            i += 1;
        } else if let Some(p) = puncts.iter().find(|p| text[i..].starts_with(**p)) {
            out.push((Tok::Punct(p), pos));
            i += p.len();
        } else {
            let ch = text[i..].chars().next().unwrap_or('?');
            return Err(LoopsError::parse(
                format!("unexpected character `{ch}`"),
                pos.line,
                pos.column,
            ));
        }
    }
    column += text[col_at..].chars().count();
    out.push((Tok::Eof, Pos { line, column }));
    Ok(out)
}

/// A cursor over tokens with the helpers both parsers use.
pub struct Cursor {
    toks: Vec<(Tok, Pos)>,
    at: usize,
    /// How deep the expression being parsed nests (see [`Cursor::nest`]).
    depth: usize,
}

/// The deepest an expression may nest: parentheses, operands of chained operators, unary
/// operators, calls and subscripts all count. Deeper input is refused rather than overflow the
/// stack of the recursive passes that follow the parser.
pub const MAX_NESTING: usize = 128;

impl Cursor {
    /// A cursor at the first of `toks`, which must end with [`Tok::Eof`] (as [`tokenize`] returns
    /// them).
    pub fn new(toks: Vec<(Tok, Pos)>) -> Cursor {
        Cursor {
            toks,
            at: 0,
            depth: 0,
        }
    }

    /// Goes one level deeper into an expression, or fails beyond [`MAX_NESTING`].
    pub fn nest(&mut self) -> Result<(), LoopsError> {
        if self.depth >= MAX_NESTING {
            return Err(self.error(format!(
                "the expression nests deeper than {MAX_NESTING} levels"
            )));
        }
        self.depth += 1;
        Ok(())
    }

    /// Leaves `levels` levels of [`Cursor::nest`].
    pub fn unnest(&mut self, levels: usize) {
        self.depth = self.depth.saturating_sub(levels);
    }

    /// The current token.
    pub fn peek(&self) -> &Tok {
        &self.toks[self.at].0
    }

    /// The token after the current one.
    pub fn peek2(&self) -> &Tok {
        &self.toks[(self.at + 1).min(self.toks.len() - 1)].0
    }

    /// The position of the current token.
    pub fn pos(&self) -> Pos {
        self.toks[self.at].1
    }

    /// Consumes and returns the current token (the end token stays).
    pub fn bump(&mut self) -> Tok {
        let t = self.toks[self.at].0.clone();
        if self.at + 1 < self.toks.len() {
            self.at += 1;
        }
        t
    }

    /// Whether the current token is the punctuation `p`.
    pub fn at_punct(&self, p: &str) -> bool {
        matches!(self.peek(), Tok::Punct(q) if *q == p)
    }

    /// Whether the current token is the identifier `word`.
    pub fn at_word(&self, word: &str) -> bool {
        matches!(self.peek(), Tok::Ident(w) if w == word)
    }

    /// Consumes `p` if it is next.
    pub fn eat(&mut self, p: &str) -> bool {
        let hit = self.at_punct(p);
        if hit {
            self.bump();
        }
        hit
    }

    /// A syntax error at the current token.
    pub fn error(&self, message: impl Into<String>) -> LoopsError {
        let pos = self.pos();
        LoopsError::parse(message, pos.line, pos.column)
    }

    /// A syntax error "expected WHAT, found TOKEN".
    pub fn expected(&self, what: &str) -> LoopsError {
        self.error(format!("expected {what}, found {}", self.peek().describe()))
    }

    /// Consumes the punctuation `p` or fails.
    pub fn expect(&mut self, p: &str) -> Result<(), LoopsError> {
        if self.eat(p) {
            Ok(())
        } else {
            Err(self.expected(&format!("`{}`", p.escape_debug())))
        }
    }

    /// Consumes an identifier or fails.
    pub fn ident(&mut self, what: &str) -> Result<(String, Pos), LoopsError> {
        let pos = self.pos();
        match self.peek() {
            Tok::Ident(s) => {
                let s = s.clone();
                self.bump();
                Ok((s, pos))
            }
            _ => Err(self.expected(what)),
        }
    }
}
