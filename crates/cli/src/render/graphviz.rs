//! SVG of a DOT graph through Graphviz's `dot` (Debian's `graphviz`, installed by
//! `cargo xtask setup`). The result is self-contained: Graphviz writes no scripts, and the
//! DOCTYPE that names the SVG DTD by URL is dropped.

use std::io::Write;
use std::process::{Command, Stdio};

/// Lays out `dot` text and returns the SVG.
pub fn dot_to_svg(dot: &str) -> Result<String, String> {
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
    let output = child
        .wait_with_output()
        .map_err(|e| format!("dot failed: {e}"))?;
    let written = writer.join().map_err(|_| "writing to dot panicked")?;
    if !output.status.success() {
        return Err(format!(
            "dot failed ({}): {}",
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    written.map_err(|e| format!("cannot write to dot: {e}"))?;
    let svg = String::from_utf8(output.stdout).map_err(|_| "dot wrote non-UTF-8 output")?;
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
