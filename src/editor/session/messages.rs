//! The session's messages: status lines (newest last, at most [`MAX_MESSAGES`] kept) and the
//! error shown in the error window until it is dismissed.

/// How many status lines are kept; older ones are dropped (a long session would otherwise
/// grow the list without bound).
pub const MAX_MESSAGES: usize = 200;

/// A line for the status bar (and the error window when it is an error).
#[derive(Clone, Debug, PartialEq)]
pub struct Message {
    /// What happened.
    pub text: String,
    /// True for failures.
    pub is_error: bool,
}

/// Status lines and the open error.
#[derive(Default)]
pub struct MessageLog {
    lines: Vec<Message>,
    error: Option<String>,
    /// How many lines were ever added (the list itself is capped).
    pushed: u64,
}

impl MessageLog {
    /// Status lines, newest last.
    pub fn lines(&self) -> &[Message] {
        &self.lines
    }

    /// The newest status line.
    pub fn last(&self) -> Option<&Message> {
        self.lines.last()
    }

    /// How many lines were ever added: a new line changes it even when the list is full.
    pub fn pushed(&self) -> u64 {
        self.pushed
    }

    /// The error shown in the error window, until dismissed.
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    /// Add an information line.
    pub fn info(&mut self, text: impl Into<String>) {
        self.push(Message {
            text: text.into(),
            is_error: false,
        });
    }

    /// Add a failure: a status line and the error window's text.
    pub fn fail(&mut self, text: impl Into<String>) {
        let text = text.into();
        self.error = Some(text.clone());
        self.push(Message {
            text,
            is_error: true,
        });
    }

    /// Close the error window.
    pub fn dismiss_error(&mut self) {
        self.error = None;
    }

    fn push(&mut self, message: Message) {
        if self.lines.len() >= MAX_MESSAGES {
            self.lines.remove(0);
        }
        self.lines.push(message);
        self.pushed += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_log_keeps_the_newest_lines_only() {
        let mut log = MessageLog::default();
        for i in 0..MAX_MESSAGES + 50 {
            log.info(format!("line {i}"));
        }
        assert_eq!(log.lines().len(), MAX_MESSAGES);
        assert_eq!(log.pushed(), (MAX_MESSAGES + 50) as u64);
        assert_eq!(log.lines()[0].text, "line 50");
        assert_eq!(log.last().map(|m| m.text.as_str()), Some("line 249"));
        log.fail("bad");
        assert_eq!(log.error(), Some("bad"));
        assert!(log.last().is_some_and(|m| m.is_error));
        log.dismiss_error();
        assert_eq!(log.error(), None);
    }
}
