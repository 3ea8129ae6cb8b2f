//! Node names: any text up to [`MAX_NAME_BYTES`], so that no name can stall or break drawing
//! (a 5-million-character paste once panicked the GPU buffer), a file or a journal.

use crate::error::{Error, Result};

/// The longest name a node takes, in bytes of UTF-8.
pub const MAX_NAME_BYTES: usize = 4096;

/// How a node is called wherever it is named to a person (lists, undo labels, screen
/// readers, the inspector): its name, or "unnamed node 7" when it has none — the one label.
pub fn node_label(name: &str, id: super::NodeId) -> String {
    if name.trim().is_empty() {
        format!("unnamed node {id}")
    } else {
        name.to_string()
    }
}

/// Refuse a name over [`MAX_NAME_BYTES`], saying how long it is (not echoing it).
pub fn check_name(name: &str) -> Result<()> {
    if name.len() <= MAX_NAME_BYTES {
        return Ok(());
    }
    Err(Error::Refused(format!(
        "a name is at most {MAX_NAME_BYTES} bytes; this one is {} bytes (starting \"{}…\")",
        name.len(),
        shortened(name, 40)
    )))
}

/// `name` cut to at most [`MAX_NAME_BYTES`] at a character boundary (importers use it: a
/// name from another program is kept as far as it fits).
pub fn cut_name(name: &str) -> &str {
    shortened(name, MAX_NAME_BYTES)
}

/// The longest prefix of `text` of at most `bytes` bytes that ends on a character boundary.
pub fn shortened(text: &str, bytes: usize) -> &str {
    if text.len() <= bytes {
        return text;
    }
    let mut end = bytes;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_names_are_refused_without_being_echoed_and_cut_on_a_boundary() {
        assert!(check_name(&"a".repeat(MAX_NAME_BYTES)).is_ok());
        let long = "é".repeat(3_000_000);
        let message = check_name(&long).expect_err("too long").to_string();
        assert!(message.len() < 200, "{message}");
        assert!(message.contains("6000000 bytes"), "{message}");
        let cut = cut_name(&long);
        assert!(cut.len() <= MAX_NAME_BYTES && cut.len() >= MAX_NAME_BYTES - 1);
        assert!(cut.chars().all(|c| c == 'é'));
    }
}
