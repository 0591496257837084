//! XLA's indexing maps as [`crate::interp`] runs them: `(d0, d1)[s0] -> (expr, ...), domain: ...`
//! with `+`, `-`, `*`, `floordiv` and `/` (rounding down), `ceildiv`, `mod` and `%` (never
//! negative for a positive divisor), `min(...)`, `max(...)`, constants and the map's
//! variables. The domain is not read: applying a map does not check it.

use anyhow::{Result, bail};

/// A map's results as functions of its variables (dimensions, then symbols).
#[derive(Debug)]
pub struct Map {
    pub variables: usize,
    results: Vec<Expr>,
}

#[derive(Debug)]
enum Expr {
    Constant(i64),
    Variable(usize),
    Neg(Box<Expr>),
    Binary(char, Box<Expr>, Box<Expr>),
    Min(Vec<Expr>),
    Max(Vec<Expr>),
}

impl Map {
    /// Reads the text of a map (without `#xla.indexing_map<"` and `">`).
    pub fn parse(text: &str) -> Result<Map> {
        let (head, rest) = match text.split_once("->") {
            Some(parts) => parts,
            None => bail!("no `->` in the map `{text}`"),
        };
        let names: Vec<&str> = head
            .split(|c: char| "()[],".contains(c))
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .collect();
        let results_text = rest.split(", domain:").next().unwrap_or(rest).trim();
        let mut parser = Parser {
            tokens: tokenize(results_text)?,
            at: 0,
            names: &names,
        };
        parser.expect("(")?;
        let mut results = Vec::new();
        if !parser.eat(")") {
            loop {
                results.push(parser.expr()?);
                if parser.eat(")") {
                    break;
                }
                parser.expect(",")?;
            }
        }
        if parser.at != parser.tokens.len() {
            bail!("trailing text in the map `{text}`");
        }
        Ok(Map {
            variables: names.len(),
            results,
        })
    }

    /// The results at `values` (dimensions, then symbols).
    pub fn apply(&self, values: &[i64]) -> Result<Vec<i64>> {
        if values.len() != self.variables {
            bail!(
                "a map of {} variables applied to {}",
                self.variables,
                values.len()
            );
        }
        self.results.iter().map(|e| e.eval(values)).collect()
    }
}

impl Expr {
    fn eval(&self, values: &[i64]) -> Result<i64> {
        Ok(match self {
            Expr::Constant(c) => *c,
            Expr::Variable(k) => values[*k],
            Expr::Neg(e) => -e.eval(values)?,
            Expr::Binary(op, a, b) => {
                let (a, b) = (a.eval(values)?, b.eval(values)?);
                match op {
                    '+' => a + b,
                    '-' => a - b,
                    '*' => a * b,
                    _ if b == 0 => bail!("division by zero in a map"),
                    'f' => a.div_euclid(b) - i64::from(b < 0 && a.rem_euclid(b) != 0),
                    'c' => -((-a).div_euclid(b) - i64::from(b < 0 && (-a).rem_euclid(b) != 0)),
                    'm' => a - b * (a.div_euclid(b) - i64::from(b < 0 && a.rem_euclid(b) != 0)),
                    other => bail!("operator {other}"),
                }
            }
            Expr::Min(es) | Expr::Max(es) => {
                let all = es
                    .iter()
                    .map(|e| e.eval(values))
                    .collect::<Result<Vec<_>>>()?;
                let chosen = if matches!(self, Expr::Min(_)) {
                    all.into_iter().min()
                } else {
                    all.into_iter().max()
                };
                chosen.unwrap_or(0)
            }
        })
    }
}

/// Splits a map's results into tokens: numbers, names, operators and brackets.
fn tokenize(text: &str) -> Result<Vec<String>> {
    let mut tokens = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
        } else if c.is_alphanumeric() || c == '_' {
            let mut word = String::new();
            while let Some(&c) = chars.peek().filter(|c| c.is_alphanumeric() || **c == '_') {
                word.push(c);
                chars.next();
            }
            tokens.push(word);
        } else if "+-*/%(),".contains(c) {
            tokens.push(c.to_string());
            chars.next();
        } else {
            bail!("unexpected `{c}` in `{text}`");
        }
    }
    Ok(tokens)
}

struct Parser<'a> {
    tokens: Vec<String>,
    at: usize,
    names: &'a [&'a str],
}

impl Parser<'_> {
    fn peek(&self) -> Option<&str> {
        self.tokens.get(self.at).map(String::as_str)
    }

    fn eat(&mut self, token: &str) -> bool {
        let found = self.peek() == Some(token);
        self.at += usize::from(found);
        found
    }

    fn expect(&mut self, token: &str) -> Result<()> {
        if !self.eat(token) {
            bail!("expected `{token}`, found {:?}", self.peek());
        }
        Ok(())
    }

    fn expr(&mut self) -> Result<Expr> {
        let mut e = self.term()?;
        loop {
            let op = match self.peek() {
                Some("+") => '+',
                Some("-") => '-',
                _ => return Ok(e),
            };
            self.at += 1;
            e = Expr::Binary(op, Box::new(e), Box::new(self.term()?));
        }
    }

    fn term(&mut self) -> Result<Expr> {
        let mut e = self.factor()?;
        loop {
            let op = match self.peek() {
                Some("*") => '*',
                Some("floordiv" | "/") => 'f',
                Some("ceildiv") => 'c',
                Some("mod" | "%") => 'm',
                _ => return Ok(e),
            };
            self.at += 1;
            e = Expr::Binary(op, Box::new(e), Box::new(self.factor()?));
        }
    }

    fn factor(&mut self) -> Result<Expr> {
        let Some(token) = self.peek().map(str::to_owned) else {
            bail!("the map ends too early");
        };
        self.at += 1;
        match token.as_str() {
            "-" => Ok(Expr::Neg(Box::new(self.factor()?))),
            "(" => {
                let e = self.expr()?;
                self.expect(")")?;
                Ok(e)
            }
            "min" | "max" => {
                self.expect("(")?;
                let mut es = vec![self.expr()?];
                while self.eat(",") {
                    es.push(self.expr()?);
                }
                self.expect(")")?;
                Ok(if token == "min" {
                    Expr::Min(es)
                } else {
                    Expr::Max(es)
                })
            }
            _ => {
                if let Ok(c) = token.parse() {
                    return Ok(Expr::Constant(c));
                }
                match self.names.iter().position(|n| *n == token) {
                    Some(k) => Ok(Expr::Variable(k)),
                    None => bail!("unknown variable `{token}`"),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xla_spelling_and_rounding() {
        let map = Map::parse(
            "(d0, d1)[s0] -> ((d0 - 1) / 2, (d0 - 1) mod 2, d1 ceildiv 4, -d0 % 3, min(d1, s0 * 2)), domain: d0 in [0, 9], d1 in [0, 6], s0 in [0, 3]",
        )
        .unwrap();
        assert_eq!(map.apply(&[0, 5, 1]).unwrap(), vec![-1, 1, 2, 0, 2]);
        assert_eq!(map.apply(&[4, 3, 3]).unwrap(), vec![1, 1, 1, 2, 3]);
        assert!(map.apply(&[1, 2]).is_err());
    }

    #[test]
    fn named_variables_and_empty_results() {
        let map = Map::parse("(pid, tid) -> (((pid * 30 + tid) mod 30) floordiv 15)").unwrap();
        assert_eq!(map.apply(&[0, 29]).unwrap(), vec![1]);
        assert_eq!(map.apply(&[1, 14]).unwrap(), vec![0]);
        assert!(
            Map::parse("() -> ()")
                .unwrap()
                .apply(&[])
                .unwrap()
                .is_empty()
        );
        assert!(Map::parse("(d0) -> (d1)").is_err());
    }
}
