//! A syntax error at its place in a lesson file, below the parser and each of its parts.

use crate::editor::lesson::names::Pos;
use crate::error::Error;
use std::path::Path;

/// An error at a place in the file.
pub fn error_at(path: &Path, at: Pos, message: impl Into<String>) -> Error {
    Error::Syntax {
        path: path.to_path_buf(),
        line: at.line,
        col: at.col,
        message: message.into(),
    }
}

/// A syntax error moved down `lines` lines and re-worded by `reword` (an inline scene's errors
/// at their line in the lesson; a hint added to a message); any other error as it is.
pub fn reworded(e: Error, lines: usize, reword: impl FnOnce(String) -> String) -> Error {
    match e {
        Error::Syntax {
            path,
            line,
            col,
            message,
        } => Error::Syntax {
            path,
            line: line + lines,
            col,
            message: reword(message),
        },
        other => other,
    }
}
