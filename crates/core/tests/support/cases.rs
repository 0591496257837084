//! The case file format.
//!
//! A file is a list of cases. A line that starts in the first column is a directive: its first
//! word is the key, the rest of the line its value. Indented lines continue the value of the
//! directive before them (joined with newlines). Blank lines and lines whose first non-blank
//! character is `#` are comments. Every case starts with `case NAME`.
//!
//! ```text
//! case SymbolicMapSimplification_ModIsSub
//! op simplify
//! input (d0) -> (d0 mod 42),
//!   domain: d0 in [53, 71]
//! expect (d0) -> (d0 - 42), domain: d0 in [53, 71]
//! ```

/// One directive: `key value`, at a 1-based line of the file.
#[derive(Clone, Debug)]
pub struct Field {
    pub key: String,
    pub value: String,
    pub line: usize,
}

/// One case: its name and its directives in order.
#[derive(Clone, Debug)]
pub struct Case {
    pub name: String,
    pub line: usize,
    pub fields: Vec<Field>,
}

impl Case {
    /// The value of the first directive `key`.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|f| f.key == key)
            .map(|f| f.value.as_str())
    }

    /// The value of the first directive `key`, or an error naming it.
    pub fn require(&self, key: &str) -> Result<&str, String> {
        self.get(key)
            .ok_or_else(|| format!("the case has no `{key}` directive"))
    }

    /// The values of every directive `key`, in order.
    pub fn all<'a>(&'a self, key: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.fields
            .iter()
            .filter(move |f| f.key == key)
            .map(|f| f.value.as_str())
    }
}

/// Splits a case file into cases. Fails on a directive before the first case and on a repeated
/// case name.
pub fn parse_cases(text: &str) -> Result<Vec<Case>, String> {
    let mut cases: Vec<Case> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        if raw.starts_with(char::is_whitespace) {
            let field = cases
                .last_mut()
                .and_then(|c| c.fields.last_mut())
                .ok_or_else(|| format!("line {line}: a continuation line with no directive"))?;
            field.value.push('\n');
            field.value.push_str(trimmed);
            continue;
        }
        let (key, value) = trimmed
            .split_once(char::is_whitespace)
            .unwrap_or((trimmed, ""));
        if key == "case" {
            let name = value.trim().to_string();
            if cases.iter().any(|c| c.name == name) {
                return Err(format!("line {line}: case `{name}` is listed twice"));
            }
            cases.push(Case {
                name,
                line,
                fields: Vec::new(),
            });
            continue;
        }
        let case = cases
            .last_mut()
            .ok_or_else(|| format!("line {line}: `{key}` before the first case"))?;
        case.fields.push(Field {
            key: key.to_string(),
            value: value.trim().to_string(),
            line,
        });
    }
    Ok(cases)
}

/// The outcome of one case.
#[derive(Clone, Debug)]
pub enum Outcome {
    /// The case passes; the note says how it was checked.
    Pass(String),
    /// The case fails, for this reason.
    Fail(String),
    /// XLA's expectation is about something we have no counterpart of (the reason says what);
    /// it is listed so that every expectation of XLA's files is accounted for.
    NotApplicable(String),
}

impl From<Result<String, String>> for Outcome {
    fn from(r: Result<String, String>) -> Outcome {
        match r {
            Ok(note) => Outcome::Pass(note),
            Err(reason) => Outcome::Fail(reason),
        }
    }
}

/// Runs every case, prints one line per case, and panics with one line per failing case (its
/// name, the feature it waits for when the case says `needs`, and the first line of the
/// reason).
pub fn run_all(file: &str, cases: &[Case], run: impl Fn(&Case) -> Outcome) {
    let mut failures = Vec::new();
    let (mut passed, mut waiting, mut not_applicable) = (0, 0, 0);
    for case in cases {
        let needs = case.get("needs");
        match run(case) {
            Outcome::Pass(note) => {
                passed += 1;
                let stale = needs.map_or(String::new(), |n| {
                    format!(" (passes although it says `needs {n}`)")
                });
                eprintln!("ok   {}: {note}{stale}", case.name);
            }
            Outcome::NotApplicable(reason) => {
                not_applicable += 1;
                eprintln!("n/a  {}: {reason}", case.name);
            }
            Outcome::Fail(reason) => {
                let first_line = reason.lines().next().unwrap_or("").to_string();
                let line = match needs {
                    Some(n) => {
                        waiting += 1;
                        format!("{} [needs {n}]: {first_line}", case.name)
                    }
                    None => format!("{}: {first_line}", case.name),
                };
                eprintln!("FAIL {line}");
                failures.push(line);
            }
        }
    }
    eprintln!(
        "{file}: {} cases: {passed} pass, {not_applicable} not applicable, {} fail ({waiting} of \
         them wait for a feature in progress)",
        cases.len(),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {} cases of {file} fail:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
