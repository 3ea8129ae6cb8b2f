//! The numbers a step's text states about its nodes, for `graft lesson check` to hold against
//! the screen: in a sentence, a value written after a `[node]` link and a word saying what it
//! is ("the [arm] sits at world `(5, 2)` and is turned 90°", "the [sword] lands at
//! `(2, −4)`", "… [scabbard], five world matrices"). Only values written as code (`` `(5, 2)` ``,
//! `` `90 + 90 = 180` ``: the number after the last `=`) or as degrees (`90°`) count, and
//! counts of matrices written in words or digits; the clock of a clip, offsets and products
//! name no node and are left alone.

use super::{Pos, Step, ValueSpace};

/// What a stated number is about.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Quantity {
    /// A position (x, y).
    Position,
    /// A rotation in degrees.
    Rotation,
    /// A scale (x, y).
    Scale,
    /// How many world matrices the last update recomputed.
    Recomputed,
}

/// One number a step's text states about a node.
#[derive(Clone, Debug, PartialEq)]
pub struct Claim {
    /// The node it is about, as linked: the sentence's last link before it.
    pub node: String,
    /// The sentence's earlier links, latest first: it may be about one of them ("the
    /// [sword] hangs from the [hand] at local `(1, 0)`").
    pub others: Vec<String>,
    /// What it is.
    pub quantity: Quantity,
    /// Local or world, if the sentence says; None: either.
    pub frame: Option<ValueSpace>,
    /// The value: one number, or x and y.
    pub value: Vec<f64>,
    /// How far off the screen may be and still read as it (half a unit of its last digit).
    pub tolerance: f64,
    /// As written.
    pub text: String,
    /// Where it is written.
    pub at: Pos,
}

/// A piece of a sentence: a link, a word, or a value with its text.
#[derive(Clone, Debug)]
enum Piece {
    Link(String),
    Word(String),
    Value(Vec<f64>, f64, bool, String),
    End,
}

/// The claims of a step's paragraphs.
pub fn claims(step: &Step) -> Vec<Claim> {
    let mut out = Vec::new();
    for (k, paragraph) in step.text.iter().enumerate() {
        let lines = step.text_at.get(k).map(Vec::as_slice).unwrap_or(&[]);
        let at = |offset: usize| place(paragraph, lines, offset);
        read_sentences(&pieces(paragraph), &at, &mut out);
    }
    out
}

/// Where byte `offset` of a paragraph was written.
fn place(paragraph: &str, lines: &[(usize, Pos)], offset: usize) -> Pos {
    let Some(&(start, at)) = lines.iter().rev().find(|(start, _)| *start <= offset) else {
        return Pos::default();
    };
    let chars = paragraph
        .get(start..offset)
        .map_or(0, |s| s.chars().count());
    Pos {
        line: at.line,
        col: at.col + chars,
    }
}

/// Claims from a paragraph's pieces: a value belongs to the links of its sentence before it
/// (the last first) and is what the words since the last link say it is.
fn read_sentences(pieces: &[(Piece, usize)], at: &dyn Fn(usize) -> Pos, out: &mut Vec<Claim>) {
    let mut links: Vec<String> = Vec::new();
    let mut words: Vec<String> = Vec::new();
    for (piece, offset) in pieces {
        match piece {
            Piece::End => {
                links.clear();
                words.clear();
            }
            Piece::Link(name) => {
                links.insert(0, name.clone());
                words.clear();
            }
            Piece::Word(word) => {
                words.push(word.clone());
                counted_matrices(&links, &words, *offset, at, out);
            }
            Piece::Value(value, tolerance, degrees, text) => {
                let Some((node, others)) = links.split_first() else {
                    continue;
                };
                let Some(quantity) = quantity(&words, value.len(), *degrees) else {
                    continue;
                };
                out.push(Claim {
                    node: node.clone(),
                    others: others.to_vec(),
                    quantity,
                    frame: frame(&words),
                    value: value.clone(),
                    tolerance: *tolerance,
                    text: text.clone(),
                    at: at(*offset),
                });
                words.clear();
            }
        }
    }
}

/// "five world matrices", "one matrix": a count of recomputed matrices, once its noun is read.
fn counted_matrices(
    links: &[String],
    words: &[String],
    offset: usize,
    at: &dyn Fn(usize) -> Pos,
    out: &mut Vec<Claim>,
) {
    let Some((node, others)) = links.split_first() else {
        return;
    };
    let n = words.len();
    if n < 2 || !(words[n - 1] == "matrices" || words[n - 1] == "matrix") {
        return;
    }
    let count_at = if words[n - 2] == "world" {
        n.checked_sub(3)
    } else {
        Some(n - 2)
    };
    let Some(count) = count_at.and_then(|k| count_word(&words[k])) else {
        return;
    };
    out.push(Claim {
        node: node.clone(),
        others: others.to_vec(),
        quantity: Quantity::Recomputed,
        frame: None,
        value: vec![count as f64],
        tolerance: 0.0,
        text: words[count_at.unwrap_or(0)..].join(" "),
        at: at(offset),
    });
}

/// A count written as a word or digits, one to twelve.
fn count_word(word: &str) -> Option<usize> {
    const WORDS: [&str; 12] = [
        "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
        "twelve",
    ];
    WORDS
        .iter()
        .position(|w| *w == word)
        .map(|k| k + 1)
        .or_else(|| word.parse().ok().filter(|n| (1..=1_000_000).contains(n)))
}

/// What the words since the link say a value is: the last word naming a quantity, else the
/// last word placing it ("at", "to").
fn quantity(words: &[String], arity: usize, degrees: bool) -> Option<Quantity> {
    let named = |w: &String| match w.as_str() {
        "rotation" | "turned" | "tilted" | "rotated" => Some(Quantity::Rotation),
        "scale" | "scaled" => Some(Quantity::Scale),
        "position" => Some(Quantity::Position),
        _ => None,
    };
    let placed = |w: &String| {
        matches!(w.as_str(), "at" | "to" | "lands" | "sits").then_some(Quantity::Position)
    };
    let recent = || words.iter().rev().take(8);
    let said = recent()
        .find_map(named)
        .or_else(|| recent().find_map(placed))?;
    match (said, arity, degrees) {
        (Quantity::Rotation, 1, _) => Some(Quantity::Rotation),
        (Quantity::Position | Quantity::Scale, 2, false) => Some(said),
        _ => None,
    }
}

/// "world" or "local" said since the link.
fn frame(words: &[String]) -> Option<ValueSpace> {
    words.iter().rev().find_map(|w| match w.as_str() {
        "world" => Some(ValueSpace::World),
        "local" => Some(ValueSpace::Local),
        _ => None,
    })
}

/// A paragraph as pieces with their byte offsets.
fn pieces(paragraph: &str) -> Vec<(Piece, usize)> {
    let mut out = Vec::new();
    let bytes = paragraph.as_bytes();
    let mut i = 0;
    while i < paragraph.len() {
        let rest = &paragraph[i..];
        let c = rest.chars().next().unwrap_or(' ');
        if c == '`'
            && let Some(end) = rest[1..].find('`')
        {
            let code = &rest[1..1 + end];
            if let Some((value, tolerance)) = code_value(code) {
                out.push((Piece::Value(value, tolerance, false, code.to_string()), i));
            }
            i += end + 2;
            continue;
        }
        if c == '['
            && let Some(end) = rest.find(']')
        {
            out.push((Piece::Link(rest[1..end].to_string()), i));
            i += end + 1;
            continue;
        }
        if matches!(c, '.' | ';' | '?' | '!')
            && bytes.get(i + 1).is_none_or(|b| b.is_ascii_whitespace())
        {
            out.push((Piece::End, i));
            i += 1;
            continue;
        }
        if c.is_alphanumeric() || c == '−' || c == '-' {
            let len = rest
                .char_indices()
                .find(|&(k, ch)| {
                    !(ch.is_alphanumeric() || ch == '.' || ((ch == '−' || ch == '-') && k == 0))
                })
                .map_or(rest.len(), |(k, _)| k);
            let word = rest[..len].trim_end_matches('.');
            let used = word.len().max(c.len_utf8());
            let after = &rest[used..];
            if after.starts_with('°')
                && let Some((value, tolerance)) = number(word)
            {
                let text = format!("{word}°");
                out.push((Piece::Value(vec![value], tolerance, true, text), i));
                i += used + '°'.len_utf8();
                continue;
            }
            out.push((Piece::Word(word.to_lowercase()), i));
            i += used;
            continue;
        }
        i += c.len_utf8();
    }
    out
}

/// A code span's value: a number or `(x, y)`, or what follows its last `=`.
fn code_value(code: &str) -> Option<(Vec<f64>, f64)> {
    let value = code.rsplit('=').next()?.trim();
    if let Some(inner) = value.strip_prefix('(').and_then(|v| v.strip_suffix(')')) {
        let (x, y) = inner.split_once(',')?;
        let (x, tx) = number(x.trim())?;
        let (y, ty) = number(y.trim())?;
        return Some((vec![x, y], tx.max(ty)));
    }
    number(value).map(|(v, t)| (vec![v], t))
}

/// A number as written (a `−` for minus) and how far the screen may be from it: half a unit
/// of its last decimal, or for a whole number what the inspector rounds (1e-5).
fn number(text: &str) -> Option<(f64, f64)> {
    let text = text.replace('−', "-");
    let value: f64 = text.parse().ok()?;
    if !value.is_finite() || text.contains(['e', 'E', 'i', 'n', 'N']) {
        return None;
    }
    let decimals = text.split_once('.').map_or(0, |(_, f)| f.len()) as i32;
    let tolerance = if decimals == 0 {
        crate::editor::view::numbers::ROUND_WITHIN
    } else {
        0.5 * 10f64.powi(-decimals)
    };
    Some((value, tolerance))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::editor::lesson::parse::parse;
    use std::path::Path;

    fn step_claims(text: &str) -> Vec<Claim> {
        let lesson = format!(
            "graft lesson 1\ntitle: t\nid: t\n\nstep: s\nscene: sample sword\n\n{text}\n\ngoal: keep-world is off\ndo: keep-world off\n"
        );
        let lesson = parse(&lesson, Path::new("t.lesson")).expect("parses");
        claims(&lesson.steps[0])
    }

    #[test]
    fn values_after_a_link_and_a_quantity_word_are_claims_at_their_place() {
        let found = step_claims(
            "The [arm] sits at world `(5, 2)` and is turned 90°: its x axis\npoints up. It moves by `(0, 1)`. The [sword] lands at `(2, −4.5)`.",
        );
        type Row<'a> = (
            &'a str,
            Quantity,
            Option<ValueSpace>,
            Vec<f64>,
            usize,
            usize,
        );
        let summary: Vec<Row> = found
            .iter()
            .map(|c| {
                let (n, q, f, v) = (c.node.as_str(), c.quantity, c.frame, c.value.clone());
                (n, q, f, v, c.at.line, c.at.col)
            })
            .collect();
        assert_eq!(
            summary,
            vec![
                (
                    "arm",
                    Quantity::Position,
                    Some(ValueSpace::World),
                    vec![5.0, 2.0],
                    8,
                    25
                ),
                ("arm", Quantity::Rotation, None, vec![90.0], 8, 48),
                ("sword", Quantity::Position, None, vec![2.0, -4.5], 9, 55),
            ]
        );
        assert_eq!(found[2].tolerance, 0.05);
    }

    #[test]
    fn sums_counts_and_unlinked_sentences() {
        let found = step_claims(
            "Its world rotation is `90 + 90 = 180`. The [body], the [arm] and [scabbard], five world matrices. The [hand] turns `90 + 90 = 180`.",
        );
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].quantity, Quantity::Recomputed);
        assert_eq!(
            (found[0].node.as_str(), found[0].value[0]),
            ("scabbard", 5.0)
        );
    }
}
