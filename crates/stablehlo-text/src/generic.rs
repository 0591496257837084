//! An operation in MLIR's generic form, as MLIR prints it:
//! `"dialect.op"(%a, %b) <{inherent}> ({regions}) {discardable} : (T, U) -> R`.

/// The parts of one generic operation, filled by the op's pretty-form reader.
#[derive(Default)]
pub(crate) struct GenericOp {
    pub(crate) name: String,
    pub(crate) operands: Vec<String>,
    /// Inherent attributes (MLIR's properties), printed in `<{...}>`.
    pub(crate) properties: Vec<(String, String)>,
    /// Each region whole, braces included.
    pub(crate) regions: Vec<String>,
    /// Discardable attributes, printed in `{...}`; `None` for a unit attribute written alone.
    pub(crate) attributes: Vec<(String, Option<String>)>,
    pub(crate) inputs: Vec<String>,
    pub(crate) results: Vec<String>,
}

impl GenericOp {
    pub(crate) fn new(name: &str) -> Self {
        GenericOp {
            name: name.to_string(),
            ..GenericOp::default()
        }
    }

    pub(crate) fn property(&mut self, name: &str, value: impl Into<String>) {
        self.properties.push((name.to_string(), value.into()));
    }

    /// The entries of a pretty attribute dictionary: those of `inherent` become properties, the
    /// rest stay discardable attributes.
    pub(crate) fn attribute_dict(&mut self, entries: &[(&str, Option<&str>)], inherent: &[&str]) {
        for &(name, value) in entries {
            if inherent.contains(&name) {
                // A unit attribute written alone is `unit` when spelled out.
                self.property(name, value.unwrap_or("unit"));
            } else {
                self.attributes
                    .push((name.to_string(), value.map(str::to_string)));
            }
        }
    }

    /// The operation's generic text, on one line but for its regions' own lines. Dictionaries
    /// are sorted by name, as MLIR's dictionary attributes are.
    pub(crate) fn print(mut self) -> String {
        let mut out = format!("\"{}\"({})", self.name, self.operands.join(", "));
        if !self.properties.is_empty() {
            self.properties.sort_by(|a, b| a.0.cmp(&b.0));
            let entries: Vec<String> = self
                .properties
                .iter()
                .map(|(name, value)| format!("{name} = {value}"))
                .collect();
            out += &format!(" <{{{}}}>", entries.join(", "));
        }
        if !self.regions.is_empty() {
            out += &format!(" ({})", self.regions.join(", "));
        }
        if !self.attributes.is_empty() {
            self.attributes.sort_by(|a, b| a.0.cmp(&b.0));
            let entries: Vec<String> = self
                .attributes
                .iter()
                .map(|(name, value)| match value {
                    Some(value) => format!("{name} = {value}"),
                    None => name.clone(),
                })
                .collect();
            out += &format!(" {{{}}}", entries.join(", "));
        }
        out += &format!(" : ({}) -> ", self.inputs.join(", "));
        match self.results.as_slice() {
            [one] if !one.starts_with('(') => out += one,
            results => out += &format!("({})", results.join(", ")),
        }
        out
    }
}

/// Types (or any text) as owned strings, for the operands' and results' lists.
pub(crate) fn owned(texts: &[&str]) -> Vec<String> {
    texts.iter().map(|t| t.to_string()).collect()
}

/// `array<i64: 1, 2>` (`array<i64>` when empty).
pub(crate) fn i64_array(values: &[i64]) -> String {
    if values.is_empty() {
        "array<i64>".to_string()
    } else {
        format!("array<i64: {}>", join(values))
    }
}

/// `[1, 2]`.
pub(crate) fn int_list(values: &[i64]) -> String {
    format!("[{}]", join(values))
}

fn join(values: &[i64]) -> String {
    values
        .iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// An `N x 2` padding as the dense `i64` tensor MLIR prints (a splat when all are equal).
pub(crate) fn padding(pairs: &[(i64, i64)]) -> String {
    let ty = format!("tensor<{}x2xi64>", pairs.len());
    let first = pairs.first().map(|p| p.0);
    let splat = first.filter(|&v| pairs.iter().all(|&(l, h)| l == v && h == v));
    match splat {
        Some(v) => format!("dense<{v}> : {ty}"),
        None if pairs.is_empty() => format!("dense<> : {ty}"),
        None => {
            let rows: Vec<String> = pairs.iter().map(|(l, h)| format!("[{l}, {h}]")).collect();
            format!("dense<[{}]> : {ty}", rows.join(", "))
        }
    }
}
