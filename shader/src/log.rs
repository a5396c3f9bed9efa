//! Info logs in the shape GL drivers print them.
//!
//! glslang writes `ERROR: 0:3: 'foo' : undeclared identifier`; GL drivers (Mesa, and the
//! logs applications are written against) write `0:3(5): error: ...`. glslang 12 does not
//! track columns, so lines become `0:3: error: ...`; glslang's summary lines ("N compilation
//! errors", "compilation terminated") carry nothing a GL log has and are dropped.

/// Rewrites a glslang info log as a GL info log (empty when glslang said nothing useful).
pub fn from_glslang(log: &str) -> String {
    let mut out = String::new();
    for line in log.lines() {
        let line = line.trim_end();
        let (severity, rest) = if let Some(r) = line.strip_prefix("ERROR: ") {
            ("error", r)
        } else if let Some(r) = line.strip_prefix("WARNING: ") {
            ("warning", r)
        } else if let Some(r) = line.strip_prefix("INTERNAL ERROR: ") {
            ("error", r)
        } else if line.is_empty() {
            continue;
        } else {
            out.push_str(line);
            out.push('\n');
            continue;
        };
        if is_summary(rest) {
            continue;
        }
        match split_location(rest) {
            Some((loc, msg)) => {
                out.push_str(&format!("{loc}: {severity}: {}\n", msg.trim_start()));
            }
            None => out.push_str(&format!("{severity}: {rest}\n")),
        }
    }
    out
}

/// Whether a glslang line says nothing a GL log would: a summary, or a warning about what
/// Tessera handles itself (glslang's relaxed rules drop uniform initializers, and the link
/// takes their values from a second parse).
fn is_summary(rest: &str) -> bool {
    rest.ends_with(": Ignoring initializer for uniform")
        || rest.ends_with("compilation errors.  No code generated.")
        || rest.ends_with("compilation errors. No code generated.")
        || rest.contains("'' : compilation terminated")
        || rest.starts_with("Linking ") && rest.ends_with(" stage:")
}

/// Splits `0:3: message` into (`0:3`, `message`).
fn split_location(rest: &str) -> Option<(&str, &str)> {
    let mut parts = rest.splitn(3, ':');
    let string = parts.next()?;
    let line = parts.next()?;
    let msg = parts.next()?;
    let numeric = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if numeric(string) && numeric(line) {
        Some((&rest[..string.len() + 1 + line.len()], msg))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reformats() {
        let log = "ERROR: 0:3: 'foo' : undeclared identifier \n\
                   ERROR: 0:3: '' : compilation terminated \n\
                   ERROR: 2 compilation errors.  No code generated.\n\n";
        assert_eq!(
            from_glslang(log),
            "0:3: error: 'foo' : undeclared identifier\n"
        );
        let log = "ERROR: Linking fragment stage: Missing entry point: Each stage requires \
                   one entry point\n";
        assert_eq!(
            from_glslang(log),
            "error: Linking fragment stage: Missing entry point: Each stage requires one \
             entry point\n"
        );
        assert_eq!(from_glslang("WARNING: 0:1: x\n"), "0:1: warning: x\n");
    }
}
