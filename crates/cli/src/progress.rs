//! Progress of long runs on stderr: a single line rewritten in place, shown only when stderr is
//! a terminal and the user did not ask for `--quiet`, and erased when the work is done.
//!
//! The line first shows after [`INTERVAL`] and is rewritten at most that often; the
//! environment variable `XLA_INDEXING_PROGRESS_MS` sets another interval in milliseconds (`0`
//! shows every item: what the tests use, so that they do not depend on the machine's speed).

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// How long a run goes before the line first shows, and how often it is rewritten at most.
const INTERVAL: Duration = Duration::from_millis(100);

/// [`INTERVAL`], or the milliseconds of `XLA_INDEXING_PROGRESS_MS` when it holds a number.
fn interval() -> Duration {
    std::env::var("XLA_INDEXING_PROGRESS_MS")
        .ok()
        .and_then(|ms| ms.trim().parse().ok())
        .map_or(INTERVAL, Duration::from_millis)
}

/// The option that silences progress and warnings, for every command that shows them.
#[derive(Clone, Copy, Debug, clap::Args)]
pub struct QuietArg {
    /// No progress (shown only when stderr is a terminal) and no warnings on stderr; errors
    /// still show.
    #[arg(short, long)]
    pub quiet: bool,
}

/// A line rewritten in place on stderr: shown only when enabled, at most once an interval, and
/// erased when dropped if it was shown.
struct Line {
    enabled: bool,
    shown: bool,
    interval: Duration,
    last: Instant,
}

impl Line {
    /// A line, silent when `quiet` or when stderr is not a terminal.
    fn new(quiet: bool) -> Line {
        Line {
            enabled: !quiet && std::io::stderr().is_terminal(),
            shown: false,
            interval: interval(),
            last: Instant::now(),
        }
    }

    /// Rewrites the line with `text()`, unless it was written less than an interval ago.
    fn write(&mut self, text: impl FnOnce() -> String) {
        if !self.enabled || self.last.elapsed() < self.interval {
            return;
        }
        self.last = Instant::now();
        self.shown = true;
        let _ = write!(std::io::stderr().lock(), "\r{}", text());
    }
}

impl Drop for Line {
    /// Erases the line, so that what follows on the terminal starts clean.
    fn drop(&mut self) {
        if self.shown {
            let _ = write!(std::io::stderr().lock(), "\r\x1b[2K");
        }
    }
}

/// A counter of work items with a label.
pub struct Progress {
    label: &'static str,
    total: usize,
    done: usize,
    line: Line,
}

impl Progress {
    /// A counter of `total` items, silent when `quiet` or when stderr is not a terminal.
    pub fn new(label: &'static str, total: usize, quiet: bool) -> Progress {
        Progress {
            label,
            total,
            done: 0,
            line: Line::new(quiet),
        }
    }

    /// Counts one item done.
    pub fn tick(&mut self) {
        self.done += 1;
        self.show();
    }

    /// Records `done` items of `total` done, for a callback of work whose size is known once
    /// it starts: `&mut |done, total| progress.update(done, total)`.
    pub fn update(&mut self, done: usize, total: usize) {
        self.done = done;
        self.total = total;
        self.show();
    }

    /// Rewrites the line, unless it was written less than an interval ago.
    fn show(&mut self) {
        let total = self.total.max(self.done);
        let (label, done) = (self.label, self.done);
        self.line
            .write(|| format!("{label}: {done}/{total} ({}%)", done * 100 / total.max(1)));
    }
}

/// How long a step whose size is unknown (another program running) has taken: `label: 3 s`.
pub struct Elapsed {
    label: String,
    started: Instant,
    line: Line,
}

impl Elapsed {
    /// A clock started now, silent when `quiet` or when stderr is not a terminal.
    pub fn new(label: impl Into<String>, quiet: bool) -> Elapsed {
        Elapsed {
            label: label.into(),
            started: Instant::now(),
            line: Line::new(quiet),
        }
    }

    /// Rewrites the line with the time so far, unless it was written less than an interval ago.
    pub fn tick(&mut self) {
        let (label, seconds) = (&self.label, self.started.elapsed().as_secs());
        self.line.write(|| format!("{label}: {seconds} s"));
    }
}
