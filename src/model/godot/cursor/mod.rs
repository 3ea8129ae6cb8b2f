//! The byte cursor the text scene format is read with: positions and lines, errors that say
//! where, whitespace and `;` comments, identifiers, property keys and strings. The value
//! grammar on top of it is in [`value`].

mod value;

use super::variant::Value;
use std::borrow::Cow;

/// A syntax error: where (1-based line and column in characters) and what.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{col}: {message}")]
pub struct TscnError {
    /// The 1-based line.
    pub line: u32,
    /// The 1-based column, in characters.
    pub col: u32,
    /// What is wrong.
    pub message: String,
}

/// A saved position: byte offset, 1-based line, and the byte offset where that line starts.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Mark {
    pos: usize,
    /// The 1-based line.
    pub(crate) line: u32,
    line_start: usize,
}

/// A position in the text with line tracking; every method stops cleanly at the end.
pub(crate) struct Cursor<'a> {
    text: &'a str,
    b: &'a [u8],
    pos: usize,
    line: u32,
    line_start: usize,
    /// The innermost open bracket and where it is: what an end of file inside a value reports.
    open: Option<(Mark, u8)>,
    /// The items of the arrays and calls being parsed, moved into exactly sized vectors when
    /// they close: growing each vector instead leaves a `Vector2`'s two values in room for four,
    /// and the extra memory made a 100k-node scene parse markedly slower.
    stack: Vec<Value<'a>>,
    /// The same for dictionary entries.
    pairs: Vec<(Value<'a>, Value<'a>)>,
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

impl<'a> Cursor<'a> {
    /// A cursor at the start of `text`, past a UTF-8 byte-order mark if there is one.
    pub(crate) fn new(text: &'a str) -> Self {
        let pos = if text.starts_with('\u{feff}') { 3 } else { 0 };
        Cursor {
            text,
            b: text.as_bytes(),
            pos,
            line: 1,
            line_start: pos,
            open: None,
            stack: Vec::new(),
            pairs: Vec::new(),
        }
    }

    /// The current position.
    pub(crate) fn mark(&self) -> Mark {
        Mark {
            pos: self.pos,
            line: self.line,
            line_start: self.line_start,
        }
    }

    /// The 1-based column, in characters, of a mark.
    pub(crate) fn col(&self, m: Mark) -> u32 {
        let chars = match self.text.get(m.line_start..m.pos) {
            Some(s) => s.chars().count(),
            None => m.pos.saturating_sub(m.line_start),
        };
        u32::try_from(chars).unwrap_or(u32::MAX - 1) + 1
    }

    /// An error at a mark.
    pub(crate) fn error(&self, m: Mark, message: impl Into<String>) -> TscnError {
        TscnError {
            line: m.line,
            col: self.col(m),
            message: message.into(),
        }
    }

    /// An error at the current position, saying what was expected and what is here.
    pub(crate) fn expected(&self, what: &str) -> TscnError {
        if let (None, Some((m, c))) = (self.peek(), self.open) {
            return self.error(m, format!("'{}' is never closed", c as char));
        }
        self.error(
            self.mark(),
            format!("expected {what}, found {}", self.describe()),
        )
    }

    /// What is at the current position, for error messages.
    pub(crate) fn describe(&self) -> String {
        match self.text.get(self.pos..).and_then(|s| s.chars().next()) {
            None => "end of file".into(),
            Some('\n') | Some('\r') => "end of line".into(),
            Some(c) => format!("{c:?}"),
        }
    }

    /// The byte here.
    pub(crate) fn peek(&self) -> Option<u8> {
        self.b.get(self.pos).copied()
    }

    /// Steps over one byte (callers only step over ASCII other than `\n`).
    pub(crate) fn bump(&mut self) {
        self.pos += 1;
    }

    fn newline(&mut self) {
        self.pos += 1;
        self.line += 1;
        self.line_start = self.pos;
    }

    /// Skips spaces, tabs and carriage returns, staying on the line.
    pub(crate) fn skip_inline_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\r') = self.peek() {
            self.pos += 1;
        }
    }

    /// Skips a `;` comment up to (not over) the end of the line.
    fn skip_comment(&mut self) {
        while let Some(c) = self.peek() {
            if c == b'\n' {
                break;
            }
            self.pos += 1;
        }
    }

    /// Skips whitespace, newlines and `;` comments.
    pub(crate) fn skip_ws(&mut self) {
        loop {
            match self.peek() {
                Some(b' ' | b'\t' | b'\r') => self.pos += 1,
                Some(b'\n') => self.newline(),
                Some(b';') => self.skip_comment(),
                _ => return,
            }
        }
    }

    /// After a value or header: only blanks and a `;` comment may follow on the line.
    pub(crate) fn end_of_line(&mut self) -> Result<(), TscnError> {
        self.skip_inline_ws();
        match self.peek() {
            None | Some(b'\n') => Ok(()),
            Some(b';') => {
                self.skip_comment();
                Ok(())
            }
            Some(_) => Err(self.expected("end of line")),
        }
    }

    /// Consumes `c` (ASCII) or fails saying what is here instead.
    pub(crate) fn expect(&mut self, c: u8) -> Result<(), TscnError> {
        if self.peek() == Some(c) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.expected(&format!("'{}'", c as char)))
        }
    }

    /// An identifier `[A-Za-z_][A-Za-z0-9_]*` here, or None (nothing consumed).
    pub(crate) fn ident(&mut self) -> Option<&'a str> {
        let start = self.pos;
        if !self.peek().is_some_and(is_ident_start) {
            return None;
        }
        while self.peek().is_some_and(is_ident) {
            self.pos += 1;
        }
        self.text.get(start..self.pos)
    }

    /// A property key: a quoted string, or every byte up to blank or `=`.
    pub(crate) fn key(&mut self) -> Result<Cow<'a, str>, TscnError> {
        let m = self.mark();
        if self.peek() == Some(b'"') {
            return self.string(m);
        }
        let start = self.pos;
        while self.peek().is_some_and(|c| c > b' ' && c != b'=') {
            self.pos += 1;
        }
        match self.text.get(start..self.pos) {
            Some(k) if !k.is_empty() => Ok(Cow::Borrowed(k)),
            _ => Err(self.expected("a property key")),
        }
    }

    /// A string starting at the `"` here; `open` (the `"` or a prefix like `&`) is where an
    /// unterminated string is reported. Strings may span lines.
    pub(crate) fn string(&mut self, open: Mark) -> Result<Cow<'a, str>, TscnError> {
        self.pos += 1;
        let from = self.pos;
        loop {
            match self.peek() {
                None => return Err(self.error(open, "unterminated string")),
                Some(b'"') => {
                    let s = self.text.get(from..self.pos).unwrap_or_default();
                    self.pos += 1;
                    return Ok(Cow::Borrowed(s));
                }
                Some(b'\\') => return self.escaped_string(open, from),
                Some(b'\n') => self.newline(),
                Some(_) => self.pos += 1,
            }
        }
    }

    /// The rest of a string with escapes, built piece by piece: it started at `from` and the
    /// cursor is at its first `\`.
    fn escaped_string(&mut self, open: Mark, from: usize) -> Result<Cow<'a, str>, TscnError> {
        let mut out = String::with_capacity(self.pos - from + 16);
        out.push_str(self.text.get(from..self.pos).unwrap_or_default());
        let mut chunk = self.pos;
        let mut high: Option<u32> = None;
        loop {
            match self.peek() {
                None => return Err(self.error(open, "unterminated string")),
                Some(b'"') => {
                    if high.is_some() {
                        return Err(self.expected("a low surrogate escape"));
                    }
                    out.push_str(self.text.get(chunk..self.pos).unwrap_or_default());
                    self.pos += 1;
                    return Ok(Cow::Owned(out));
                }
                Some(b'\\') => {
                    out.push_str(self.text.get(chunk..self.pos).unwrap_or_default());
                    let esc = self.mark();
                    let code = self.escape_code(open, esc)?;
                    chunk = self.pos;
                    if let Some(ch) = self.pair_surrogates(code, &mut high, esc)? {
                        out.push(ch);
                    }
                }
                Some(_) if high.is_some() => return Err(self.expected("a low surrogate escape")),
                Some(b'\n') => self.newline(),
                Some(_) => self.pos += 1,
            }
        }
    }

    /// The code point of the escape at the `\` here (`esc`), stepping over it; `open` is where
    /// an unterminated string is reported.
    #[inline]
    fn escape_code(&mut self, open: Mark, esc: Mark) -> Result<u32, TscnError> {
        self.pos += 1;
        let Some(c) = self.text.get(self.pos..).and_then(|s| s.chars().next()) else {
            return Err(self.error(open, "unterminated string"));
        };
        if c == 'u' || c == 'U' {
            self.pos += 1;
            return self.hex_escape(if c == 'u' { 4 } else { 6 }, open, esc);
        }
        if c == '\n' {
            self.newline();
        } else {
            self.pos += c.len_utf8();
        }
        Ok(match c {
            'b' => 8,
            't' => 9,
            'n' => 10,
            'f' => 12,
            'r' => 13,
            // Godot keeps any other escaped character as itself (\" \\ \' ...).
            other => u32::from(other),
        })
    }

    /// The character an escaped code point adds: None for a UTF-16 lead surrogate (held in
    /// `high` until its trail), the pair's character for a trail; unpaired halves are errors.
    #[inline]
    fn pair_surrogates(
        &self,
        code: u32,
        high: &mut Option<u32>,
        esc: Mark,
    ) -> Result<Option<char>, TscnError> {
        if (code & 0xFFFF_FC00) == 0xD800 {
            if high.replace(code).is_some() {
                return Err(self.error(esc, "unpaired UTF-16 lead surrogate"));
            }
            return Ok(None);
        }
        let code = if (code & 0xFFFF_FC00) == 0xDC00 {
            let Some(h) = high.take() else {
                return Err(self.error(esc, "unpaired UTF-16 trail surrogate"));
            };
            ((h - 0xD800) << 10) + (code - 0xDC00) + 0x10000
        } else if high.is_some() {
            return Err(self.error(esc, "unpaired UTF-16 lead surrogate"));
        } else {
            code
        };
        match char::from_u32(code) {
            Some(ch) => Ok(Some(ch)),
            None => Err(self.error(esc, "invalid unicode escape")),
        }
    }

    /// `n` hex digits after `\u` / `\U`.
    fn hex_escape(&mut self, n: usize, open: Mark, esc: Mark) -> Result<u32, TscnError> {
        let mut code = 0u32;
        for _ in 0..n {
            let Some(c) = self.peek() else {
                return Err(self.error(open, "unterminated string"));
            };
            let Some(d) = (c as char).to_digit(16) else {
                return Err(self.error(esc, "malformed hex escape in string"));
            };
            code = (code << 4) | d;
            self.pos += 1;
        }
        Ok(code)
    }
}
