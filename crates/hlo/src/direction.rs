//! The two directions of indexing.

use std::fmt;

/// Output to input (what each output element reads) or input to output (which output elements
/// each input element feeds).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Direction {
    /// `out2in`: from an output index to the elements of each operand it reads.
    #[default]
    OutputToInput,
    /// `in2out`: from an operand index to the elements of each output it feeds.
    InputToOutput,
}

impl Direction {
    /// `out2in` or `in2out`, as on the command line and in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Direction::OutputToInput => "out2in",
            Direction::InputToOutput => "in2out",
        }
    }

    /// What a map starts from and what it reaches: `("output", "operand")` for out2in.
    pub fn ends(self) -> (&'static str, &'static str) {
        match self {
            Direction::OutputToInput => ("output", "operand"),
            Direction::InputToOutput => ("operand", "output"),
        }
    }

    /// Parses `out2in` or `in2out`.
    pub fn parse(s: &str) -> Option<Direction> {
        match s {
            "out2in" => Some(Direction::OutputToInput),
            "in2out" => Some(Direction::InputToOutput),
            _ => None,
        }
    }
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
