//! A step's paragraph as spans: plain text, `code`, **bold** and [node] links.

/// One piece of a paragraph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Span {
    /// Plain text.
    Plain(String),
    /// Fixed-width text (numbers, formulas).
    Code(String),
    /// Strong text.
    Bold(String),
    /// A node's name: clicking it selects the node.
    Node(String),
}

/// The spans of a paragraph. An unclosed mark is plain text.
pub fn spans(paragraph: &str) -> Vec<Span> {
    let mut out = Vec::new();
    let mut plain = String::new();
    let mut rest = paragraph;
    while let Some(c) = rest.chars().next() {
        let marked = match c {
            '`' => closed(rest, "`", "`").map(|(t, n)| (Span::Code(t), n)),
            '*' if rest.starts_with("**") => {
                closed(rest, "**", "**").map(|(t, n)| (Span::Bold(t), n))
            }
            '[' => closed(rest, "[", "]").map(|(t, n)| (Span::Node(t), n)),
            _ => None,
        };
        match marked {
            Some((span, used)) => {
                if !plain.is_empty() {
                    out.push(Span::Plain(std::mem::take(&mut plain)));
                }
                out.push(span);
                rest = &rest[used..];
            }
            None => {
                plain.push(c);
                rest = &rest[c.len_utf8()..];
            }
        }
    }
    if !plain.is_empty() {
        out.push(Span::Plain(plain));
    }
    out
}

/// The text between `open` and the next `close`, and the bytes used, if it closes (and the
/// text is not empty).
fn closed(text: &str, open: &str, close: &str) -> Option<(String, usize)> {
    let inner = text.strip_prefix(open)?;
    let end = inner.find(close)?;
    (end > 0).then(|| (inner[..end].to_string(), open.len() + end + close.len()))
}

/// The node names a paragraph links to.
pub fn linked_names(paragraph: &str) -> Vec<String> {
    spans(paragraph)
        .into_iter()
        .filter_map(|s| match s {
            Span::Node(name) => Some(name),
            _ => None,
        })
        .collect()
}

/// A paragraph as plain text: code, bold and links without their marks.
pub fn plain(paragraph: &str) -> String {
    spans(paragraph)
        .into_iter()
        .map(|span| match span {
            Span::Plain(t) | Span::Code(t) | Span::Bold(t) | Span::Node(t) => t,
        })
        .collect()
}

/// A gesture by keyboard alone, as a paragraph with its node links (a screen reader user, or
/// anyone without a pointer, reads it under the step's text): a row dragged onto another row
/// is Node > Move to…. None for a gesture with no keyboard way written here.
pub fn keyboard_way(gesture: &super::targets::Gesture) -> Option<String> {
    use super::targets::Target;
    match (&gesture.from, &gesture.to) {
        (Target::Row(node), Target::Row(parent)) => Some(format!(
            "By keyboard: select the [{}] in the hierarchy (F6 gives it the keyboard, Up / Down \
             walk the rows), then Node > Move to… (Ctrl+Shift+M), type `{}` and press Enter.",
            node.text, parent.text
        )),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_become_spans_and_unclosed_marks_stay_text() {
        assert_eq!(
            spans("Move [moon orbit]: `World = M_a · M_b` is **exact** [x"),
            vec![
                Span::Plain("Move ".into()),
                Span::Node("moon orbit".into()),
                Span::Plain(": ".into()),
                Span::Code("World = M_a · M_b".into()),
                Span::Plain(" is ".into()),
                Span::Bold("exact".into()),
                Span::Plain(" [x".into()),
            ]
        );
        assert_eq!(linked_names("[a] and [b c]"), vec!["a", "b c"]);
    }

    #[test]
    fn a_row_dragged_onto_a_row_is_move_to_by_keyboard() {
        use crate::editor::lesson::targets::{Gesture, Target};
        use crate::editor::lesson::{Name, Pos};
        let name = |text: &str| Name {
            text: text.into(),
            at: Pos::default(),
        };
        let gesture = Gesture {
            from: Target::Row(name("sword")),
            to: Target::Row(name("body")),
            at: Pos::default(),
        };
        let way = keyboard_way(&gesture).expect("a keyboard way");
        assert_eq!(linked_names(&way), ["sword"]);
        assert!(plain(&way).contains("Move to… (Ctrl+Shift+M), type body and press Enter"));
        let gesture = Gesture {
            to: Target::Node(name("body")),
            ..gesture
        };
        assert_eq!(keyboard_way(&gesture), None);
    }
}
