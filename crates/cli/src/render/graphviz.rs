//! SVG of a DOT graph through Graphviz's `dot` (Debian's `graphviz`, installed by
//! `cargo xtask setup`). The result is self-contained: Graphviz writes no scripts, and the
//! DOCTYPE that names the SVG DTD by URL is dropped.

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::progress::Elapsed;

/// The label of the line that shows how long Graphviz has been running.
pub const LAYING_OUT: &str = "graphviz laying out the graph";

/// Lays out `dot` text and returns the SVG; while `dot` runs, a line on a terminal (unless
/// `quiet`) says for how long.
pub fn dot_to_svg(dot: &str, quiet: bool) -> Result<String, String> {
    let mut child = Command::new("dot")
        .arg("-Tsvg")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| {
            format!(
                "cannot run Graphviz's `dot` ({e}); install graphviz (`cargo xtask setup`) or use --format dot"
            )
        })?;
    let mut stdin = child.stdin.take().ok_or("no pipe to dot")?;
    let input = dot.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let read_all = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            pipe.read_to_end(&mut bytes).map(|_| bytes)
        })
    };
    let stdout = read_all(Box::new(child.stdout.take().ok_or("no pipe from dot")?));
    let stderr = read_all(Box::new(child.stderr.take().ok_or("no pipe from dot")?));
    let mut elapsed = Elapsed::new(LAYING_OUT, quiet);
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) => {
                elapsed.tick();
                std::thread::sleep(Duration::from_millis(20));
            }
            Err(e) => return Err(format!("dot failed: {e}")),
        }
    };
    drop(elapsed);
    let joined = |h: std::thread::JoinHandle<std::io::Result<Vec<u8>>>| {
        h.join()
            .map_err(|_| "reading from dot panicked".to_string())?
            .map_err(|e| format!("cannot read from dot: {e}"))
    };
    let (out, err) = (joined(stdout)?, joined(stderr)?);
    let written = writer.join().map_err(|_| "writing to dot panicked")?;
    if !status.success() {
        return Err(format!(
            "dot failed ({status}): {}",
            String::from_utf8_lossy(&err).trim()
        ));
    }
    written.map_err(|e| format!("cannot write to dot: {e}"))?;
    let svg = String::from_utf8(out).map_err(|_| "dot wrote non-UTF-8 output")?;
    Ok(without_doctype(&svg))
}

/// The SVG without its `<!DOCTYPE ...>` declaration.
fn without_doctype(svg: &str) -> String {
    match svg.find("<!DOCTYPE") {
        Some(start) => match svg[start..].find('>') {
            Some(len) => {
                let rest = svg[start + len + 1..].trim_start_matches('\n');
                format!("{}{rest}", &svg[..start])
            }
            None => svg.to_string(),
        },
        None => svg.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doctype_is_dropped() {
        let svg = "<?xml version=\"1.0\"?>\n<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\"\n \"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\">\n<svg/>\n";
        assert_eq!(without_doctype(svg), "<?xml version=\"1.0\"?>\n<svg/>\n");
    }
}
