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

/// How a passing case compares with XLA.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A map or expression equivalent to XLA's and exactly as costly.
    Same,
    /// A map or expression equivalent to XLA's and cheaper.
    Cheaper,
    /// A documented difference (`differs`: on purpose; `xla-wrong`: XLA's expectation is wrong),
    /// with our answer checked against the reference semantics.
    Difference,
    /// Any other check (a range, a predicate, a reading) that agrees with XLA.
    Agrees,
}

impl Verdict {
    /// The verdict of an equivalent answer of cost `ours` against XLA's `theirs`: `None` when
    /// ours is costlier (a failure).
    pub fn by_cost<C: Ord>(ours: C, theirs: C) -> Option<Verdict> {
        match ours.cmp(&theirs) {
            std::cmp::Ordering::Less => Some(Verdict::Cheaper),
            std::cmp::Ordering::Equal => Some(Verdict::Same),
            std::cmp::Ordering::Greater => None,
        }
    }
}

/// A passing case: its verdict and a note saying how it was checked.
#[derive(Clone, Debug)]
pub struct Pass {
    pub verdict: Verdict,
    pub note: String,
}

impl Pass {
    pub fn new(verdict: Verdict, note: impl Into<String>) -> Pass {
        Pass {
            verdict,
            note: note.into(),
        }
    }
}

impl From<String> for Pass {
    fn from(note: String) -> Pass {
        Pass::new(Verdict::Agrees, note)
    }
}

/// The outcome of one case.
#[derive(Clone, Debug)]
pub enum Outcome {
    /// The case passes.
    Pass(Pass),
    /// The case fails, for this reason.
    Fail(String),
    /// XLA's expectation is about something we have no counterpart of (the reason says what);
    /// it is listed so that every expectation of XLA's files is accounted for.
    NotApplicable(String),
}

impl From<Result<Pass, String>> for Outcome {
    fn from(r: Result<Pass, String>) -> Outcome {
        match r {
            Ok(pass) => Outcome::Pass(pass),
            Err(reason) => Outcome::Fail(reason),
        }
    }
}

/// How a failure that is only a matter of cost begins: such failures are counted as costlier.
pub const COSTLIER: &str = "costlier than XLA's";

/// The counts of a run.
#[derive(Clone, Copy, Debug, Default)]
pub struct Summary {
    pub cases: usize,
    pub same: usize,
    pub cheaper: usize,
    pub agrees: usize,
    pub differences: usize,
    pub not_applicable: usize,
    pub pending: usize,
    pub costlier: usize,
    pub failed: usize,
}

/// Runs every case (only those whose name contains `$XLA_CASE` when it is set), prints one line
/// per case and a summary line, and panics with one line per failing case.
///
/// A case that says `needs FEATURE` waits for a feature in progress: it is *pending* and must
/// still fail; once it passes, the run fails until the `needs` line is removed, so the pending
/// list can only shrink as features land. Costlier is a failure (the runners report it as one).
pub fn run_all(file: &str, cases: &[Case], run: impl Fn(&Case) -> Outcome) -> Summary {
    let filter = std::env::var("XLA_CASE").ok();
    let mut failures = Vec::new();
    let mut sum = Summary::default();
    for case in cases {
        if filter
            .as_ref()
            .is_some_and(|f| !case.name.contains(f.as_str()))
        {
            continue;
        }
        sum.cases += 1;
        let needs = case.get("needs");
        let start = std::time::Instant::now();
        let outcome = run(case);
        let elapsed = start.elapsed();
        if elapsed.as_secs() >= 2 {
            eprintln!("slow {}: {elapsed:.1?}", case.name);
        }
        match (outcome, needs) {
            (Outcome::Pass(pass), Some(n)) => {
                let line = format!(
                    "{}: passes although it says `needs {n}`; remove the `needs` line ({})",
                    case.name, pass.note
                );
                eprintln!("FAIL {line}");
                failures.push(line);
            }
            (Outcome::Pass(pass), None) => {
                match pass.verdict {
                    Verdict::Same => sum.same += 1,
                    Verdict::Cheaper => sum.cheaper += 1,
                    Verdict::Difference => sum.differences += 1,
                    Verdict::Agrees => sum.agrees += 1,
                }
                eprintln!("ok   {} [{:?}]: {}", case.name, pass.verdict, pass.note);
            }
            (Outcome::NotApplicable(reason), _) => {
                sum.not_applicable += 1;
                eprintln!("n/a  {}: {reason}", case.name);
            }
            (Outcome::Fail(reason), Some(n)) => {
                sum.pending += 1;
                let first_line = reason.lines().next().unwrap_or("");
                eprintln!("wait {} [needs {n}]: still fails: {first_line}", case.name);
            }
            (Outcome::Fail(reason), None) => {
                let first_line = reason.lines().next().unwrap_or("");
                let line = format!("{}: {first_line}", case.name);
                if reason.starts_with(COSTLIER) {
                    sum.costlier += 1;
                }
                eprintln!("FAIL {}: {reason}", case.name);
                failures.push(line);
            }
        }
    }
    sum.failed = failures.len();
    eprintln!(
        "{file}: {} cases: {} equivalent to XLA's and as costly, {} cheaper, {} costlier, {} other \
         checks agree, {} documented differences, {} not \
         applicable, {} pending, {} failed",
        sum.cases,
        sum.same,
        sum.cheaper,
        sum.costlier,
        sum.agrees,
        sum.differences,
        sum.not_applicable,
        sum.pending,
        sum.failed
    );
    assert!(
        failures.is_empty(),
        "{} of {} cases of {file} fail:\n{}",
        failures.len(),
        sum.cases,
        failures.join("\n")
    );
    sum
}
