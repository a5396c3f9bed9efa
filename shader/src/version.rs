//! The `#version` line: which GLSL versions a GL 3.3 core context compiles.
//!
//! glslang would compile more (and some of it only for Vulkan), so the version is checked
//! here first, with GL's rules: `#version` must come before anything but comments and
//! whitespace, a shader without one is GLSL 1.10, and only core-profile desktop versions
//! from 1.40 on are accepted. Mesa also accepts 1.10-1.30 and the ES versions in core
//! contexts; those need a source rewrite before glslang will take them for SPIR-V (they lack
//! `in`/`out` or need ES-to-desktop shims), so they are refused with a log that says so.

/// Desktop GLSL versions compiled, as `#version` spells them.
pub const SUPPORTED: &[u32] = &[140, 150, 330, 400, 410, 420, 430, 440, 450, 460];

/// `x.yz` as GLSL logs spell version 1yz.
fn dotted(v: u32) -> String {
    format!("{}.{:02}", v / 100, v % 100)
}

fn supported_list() -> String {
    let all: Vec<String> = SUPPORTED.iter().map(|&v| dotted(v)).collect();
    match all.split_last() {
        Some((last, rest)) => format!("{}, and {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// A position in the source, 1-based, as info logs print it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Pos {
    line: u32,
    column: u32,
}

struct Scanner<'a> {
    bytes: &'a [u8],
    at: usize,
    pos: Pos,
}

impl Scanner<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn peek2(&self) -> Option<u8> {
        self.bytes.get(self.at + 1).copied()
    }

    fn bump(&mut self) {
        if let Some(b) = self.peek() {
            self.at += 1;
            if b == b'\n' {
                self.pos.line += 1;
                self.pos.column = 1;
            } else {
                self.pos.column += 1;
            }
        }
    }

    /// Skips whitespace (newlines included when `lines`) and comments.
    fn skip_blank(&mut self, lines: bool) {
        loop {
            match (self.peek(), self.peek2()) {
                (Some(b' ' | b'\t' | b'\r' | 0x0b | 0x0c), _) => self.bump(),
                (Some(b'\n'), _) if lines => self.bump(),
                (Some(b'\\'), Some(b'\n')) => {
                    self.bump();
                    self.bump();
                }
                (Some(b'/'), Some(b'/')) => {
                    while self.peek().is_some_and(|b| b != b'\n') {
                        self.bump();
                    }
                }
                (Some(b'/'), Some(b'*')) => {
                    self.bump();
                    self.bump();
                    while self.peek().is_some()
                        && !(self.peek() == Some(b'*') && self.peek2() == Some(b'/'))
                    {
                        self.bump();
                    }
                    self.bump();
                    self.bump();
                }
                _ => return,
            }
        }
    }

    fn word(&mut self) -> &str {
        let start = self.at;
        while self
            .peek()
            .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_')
        {
            self.bump();
        }
        std::str::from_utf8(&self.bytes[start..self.at]).unwrap_or("")
    }
}

/// Checks the `#version` of a shader; `Err` is the compile log GL reports.
pub fn check(source: &str) -> Result<u32, String> {
    let mut s = Scanner {
        bytes: source.as_bytes(),
        at: 0,
        pos: Pos { line: 1, column: 1 },
    };
    s.skip_blank(true);
    let start = s.pos;
    let mut version = None;
    if s.peek() == Some(b'#') {
        s.bump();
        s.skip_blank(false);
        if s.word() == "version" {
            s.skip_blank(false);
            let at = s.pos;
            let number = s.word().to_string();
            s.skip_blank(false);
            let profile = s.word().to_string();
            version = Some((at, number, profile));
        }
    }
    let Some((at, number, profile)) = version else {
        // No #version: GLSL 1.10, which core contexts do not compile.
        return Err(format!(
            "{}:{}({}): error: GLSL 1.10 is not supported. Supported versions are: {}\n",
            0,
            start.line,
            start.column,
            supported_list()
        ));
    };
    let here = format!("0:{}({})", at.line, at.column);
    let Ok(v) = number.parse::<u32>() else {
        return Err(format!("{here}: error: invalid #version `{number}'\n"));
    };
    match profile.as_str() {
        "" | "core" => {}
        "compatibility" => {
            return Err(format!(
                "{here}: error: the compatibility profile is not supported\n"
            ));
        }
        "es" => {
            return Err(format!(
                "{here}: error: GLSL {} ES is not supported. Supported versions are: {}\n",
                dotted(v),
                supported_list()
            ));
        }
        other => {
            return Err(format!(
                "{here}: error: \"{other}\" is not a valid shading language profile; if \
                 present, it must be \"core\"\n"
            ));
        }
    }
    if !SUPPORTED.contains(&v) {
        return Err(format!(
            "{here}: error: GLSL {} is not supported. Supported versions are: {}\n",
            dotted(v),
            supported_list()
        ));
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions() {
        assert_eq!(check("#version 330\nvoid main(){}"), Ok(330));
        assert_eq!(check("// c\n/* x */ #version 150 core\n"), Ok(150));
        assert_eq!(check("\n\n  #  version 460\n"), Ok(460));
        let e = check("void main(){}").unwrap_err();
        assert!(
            e.starts_with("0:1(1): error: GLSL 1.10 is not supported"),
            "{e}"
        );
        let e = check("#version 130\n").unwrap_err();
        assert!(
            e.starts_with("0:1(10): error: GLSL 1.30 is not supported"),
            "{e}"
        );
        let e = check("#version 330 compatibility\n").unwrap_err();
        assert_eq!(
            e,
            "0:1(10): error: the compatibility profile is not supported\n"
        );
        let e = check("#version 300 es\n").unwrap_err();
        assert!(e.contains("GLSL 3.00 ES is not supported"), "{e}");
        let e = check("#version 330 foo\n").unwrap_err();
        assert!(
            e.contains("\"foo\" is not a valid shading language profile"),
            "{e}"
        );
        assert!(supported_list().ends_with("4.50, and 4.60"));
    }
}
