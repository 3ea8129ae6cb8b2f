//! The tokens of a directive's value: words, quoted names, numbers, `(`, `)`, `,` and `±`
//! (also `+-` and `within`), each with its place in the file.

use super::located::error_at;
use crate::editor::lesson::Pos;
use crate::error::Result;
use std::path::Path;

/// One token of a value.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Tok {
    /// A bare word: a keyword or a node's name.
    Word(String),
    /// A quoted name.
    Quoted(String),
    /// A number.
    Num(f32),
    /// `(`.
    Open,
    /// `)`.
    Close,
    /// `,`.
    Comma,
    /// `±`, `+-` or `within`.
    PlusMinus,
}

/// Split `PREDICATE | LABEL` at the first `|` outside quotes.
pub(super) fn split_label(value: &str) -> Option<(&str, &str)> {
    let mut quoted = false;
    for (i, c) in value.char_indices() {
        match c {
            '"' => quoted = !quoted,
            '|' if !quoted => return Some((&value[..i], &value[i + 1..])),
            _ => {}
        }
    }
    None
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '\'')
}

/// A number starting at `chars[i]`: the token and the index after it.
fn number(path: &Path, chars: &[char], mut i: usize, here: Pos) -> Result<(Tok, usize)> {
    let start = i;
    i += 1;
    while i < chars.len()
        && (chars[i].is_ascii_digit()
            || matches!(chars[i], '.' | 'e' | 'E')
            || (matches!(chars[i], '-' | '+') && matches!(chars[i - 1], 'e' | 'E')))
    {
        i += 1;
    }
    let written: String = chars[start..i].iter().collect::<String>().replace('−', "-");
    let value = number_value(&written).map_err(|m| error_at(path, here, m))?;
    // A degree sign may follow an angle: `90°`.
    if chars.get(i) == Some(&'°') {
        i += 1;
    }
    Ok((Tok::Num(value), i))
}

/// A written number as an f32, or what is wrong with it.
fn number_value(written: &str) -> std::result::Result<f32, String> {
    let shown = cut(written);
    let Ok(wide) = written.parse::<f64>() else {
        return Err(format!(
            "`{shown}` is not a number (write decimals such as `-3`, `2.5` or `1e-3`)"
        ));
    };
    let value = wide as f32;
    if !value.is_finite() {
        return Err(format!(
            "`{shown}` is out of range for a number (f32: at most about ±3.4e38)"
        ));
    }
    Ok(value)
}

/// Text from the file as a message quotes it: at most [`QUOTED_CHARS`] characters, then `…`
/// (a 5 MB name is not echoed whole).
pub fn cut(text: &str) -> String {
    match text.char_indices().nth(QUOTED_CHARS) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_string(),
    }
}

/// How many characters of the file's text a message quotes.
pub const QUOTED_CHARS: usize = 60;

/// A quoted name or a bare word starting at `chars[i]`: the token and the index after it.
fn name_or_word(path: &Path, chars: &[char], i: usize, here: Pos) -> Result<(Tok, usize)> {
    if chars[i] == '"' {
        let end = chars[i + 1..]
            .iter()
            .position(|&c| c == '"')
            .ok_or_else(|| error_at(path, here, "this quoted name is never closed"))?;
        return Ok((
            Tok::Quoted(chars[i + 1..i + 1 + end].iter().collect()),
            i + end + 2,
        ));
    }
    let mut j = i;
    while j < chars.len() && is_word_char(chars[j]) {
        j += 1;
    }
    let word: String = chars[i..j].iter().collect();
    Ok((
        if word == "within" {
            Tok::PlusMinus
        } else {
            Tok::Word(word)
        },
        j,
    ))
}

/// Tokens of `text`, which starts at `at`.
pub(super) fn tokenize(path: &Path, text: &str, at: Pos) -> Result<Vec<(Tok, Pos)>> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let here = Pos {
            line: at.line,
            col: at.col + i,
        };
        let next = chars.get(i + 1).copied();
        let starts_number = c.is_ascii_digit()
            || (matches!(c, '-' | '−' | '+' | '.')
                && next.is_some_and(|n| n.is_ascii_digit() || n == '.'));
        let punctuation = match c {
            '(' => Some(Tok::Open),
            ')' => Some(Tok::Close),
            ',' => Some(Tok::Comma),
            '±' => Some(Tok::PlusMinus),
            _ => None,
        };
        let (tok, after) = if c.is_whitespace() {
            i += 1;
            continue;
        } else if let Some(tok) = punctuation {
            (tok, i + 1)
        } else if c == '+' && next == Some('-') {
            (Tok::PlusMinus, i + 2)
        } else if starts_number {
            number(path, &chars, i, here)?
        } else if c == '"' || is_word_char(c) {
            name_or_word(path, &chars, i, here)?
        } else {
            return Err(error_at(path, here, unexpected(c)));
        };
        out.push((tok, here));
        i = after;
    }
    Ok(out)
}

fn unexpected(c: char) -> String {
    match c {
        '°' => "`°` follows a number of degrees (`90°`)".into(),
        _ => format!("unexpected `{c}`"),
    }
}

/// Replace each `{EXPR}` of `text` by the number `lookup` gives for EXPR (as the inspector
/// writes it); an unknown EXPR or an unclosed `{` is an error at its place (`at` is where
/// `text` starts in the file).
pub fn substitute(
    text: &str,
    path: &Path,
    at: Pos,
    lookup: &dyn Fn(&str) -> Option<f64>,
) -> Result<String> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    let mut col = at.col;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        col += rest[..open].chars().count();
        let here = Pos { line: at.line, col };
        let Some(close) = rest[open..].find('}') else {
            return Err(error_at(path, here, "this `{` is never closed with `}`"));
        };
        let expr = rest[open + 1..open + close].trim();
        let value = lookup(expr).ok_or_else(|| {
            error_at(
                path,
                here,
                format!(
                    "`{{{}}}` is neither a `vary:` variable nor a node's value such as `{{arm.rotation}}` or `{{world(sword).x}}`",
                    cut(expr)
                ),
            )
        })?;
        out.push_str(&crate::editor::view::numbers::format_display(value));
        col += rest[open..open + close + 1].chars().count();
        rest = &rest[open + close + 1..];
    }
    out.push_str(rest);
    Ok(out)
}
