//! Names made unique in one scope, for writing names of one program (HLO instructions, stages of
//! a schedule) into another's text (SSA names, PTX symbols, computation names).

use std::collections::{HashMap, HashSet};

/// Names unique in one scope: a name asked for again gets the first numeric suffix not given
/// to it yet (`add`, `add.1`, `add.2`, ...). Each base name keeps its next suffix, so that `n`
/// names made from one base take time linear in `n`, not quadratic (a chain of thousands of
/// negates names as many `negate`s).
#[derive(Debug, Default)]
pub struct UniqueNames {
    taken: HashSet<String>,
    /// Per base name, the next suffix to try: those below it are taken (names are never given
    /// back).
    next: HashMap<String, usize>,
}

impl UniqueNames {
    /// `base` when it is free, else `base`, `separator` and the first suffix that is; the name
    /// is taken from now on.
    pub fn fresh(&mut self, base: String, separator: char) -> String {
        if self.taken.insert(base.clone()) {
            return base;
        }
        let next = self.next.entry(base.clone()).or_insert(1);
        loop {
            let name = format!("{base}{separator}{next}");
            *next += 1;
            if self.taken.insert(name.clone()) {
                return name;
            }
        }
    }

    /// Takes `name` as it is (a name made elsewhere), so that [`UniqueNames::fresh`] does not
    /// give it.
    pub fn take(&mut self, name: String) {
        self.taken.insert(name);
    }
}

/// `name` as the identifier of an SSA value in MLIR's text (without its `%`): each character
/// outside `[A-Za-z0-9_.$-]` becomes `_`, and a `v` goes first where the name does not start
/// with a letter or `_`.
pub fn ssa_identifier(name: &str) -> String {
    let mut id: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '$' | '-') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if !id.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        id.insert(0, 'v');
    }
    id
}

/// Unique SSA names of one function, made from the names of another program.
#[derive(Debug, Default)]
pub struct SsaNames(UniqueNames);

impl SsaNames {
    /// A fresh `%name` made from `name` ([`ssa_identifier`]), with `_1`, `_2`, ... where names
    /// collide.
    pub fn fresh(&mut self, name: &str) -> String {
        format!("%{}", self.0.fresh(ssa_identifier(name), '_'))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_collide_into_the_first_free_suffix() {
        let mut names = UniqueNames::default();
        names.take("add.1".into());
        assert_eq!(names.fresh("add".into(), '.'), "add");
        assert_eq!(names.fresh("add".into(), '.'), "add.2");
        assert_eq!(names.fresh("add".into(), '.'), "add.3");
    }

    #[test]
    fn ssa_names_are_valid_identifiers_and_unique() {
        assert_eq!(ssa_identifier("add.1"), "add.1");
        assert_eq!(ssa_identifier("a b/c"), "a_b_c");
        assert_eq!(ssa_identifier("0x"), "v0x");
        assert_eq!(ssa_identifier("-x"), "v-x");
        let mut names = SsaNames::default();
        assert_eq!(names.fresh("a b"), "%a_b");
        assert_eq!(names.fresh("a_b"), "%a_b_1");
        assert_eq!(names.fresh("a/b"), "%a_b_2");
    }
}
