//! The tokens of a directive's value: words, quoted names, numbers, `(`, `)`, `,` and `±`
//! (also `+-` and `within`), each with its place in the file.

use super::error_at;
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
    let value: f32 = written
        .parse()
        .ok()
        .filter(|v: &f32| v.is_finite())
        .ok_or_else(|| error_at(path, here, format!("`{written}` is not a number")))?;
    Ok((Tok::Num(value), i))
}

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
            return Err(error_at(path, here, format!("unexpected `{c}`")));
        };
        out.push((tok, here));
        i = after;
    }
    Ok(out)
}
