//! One key press a frame. Each panel reads the keys of a frame against the state the frame
//! began with, so two presses arriving in one frame (a slow frame, a screen reader user typing
//! ahead, xdotool) were both read against the old state: Ctrl+A then Up in one frame selected
//! all, then Up, reading "nothing selected", picked the last row. And what a key asks for may
//! take one more frame to land (Shift+F6 gives the lesson panel the keyboard; the next frame
//! focuses its Start button): a Return in that frame pressed the hierarchy row still focused.
//! [`KeyQueue`] hands egui the events up to the second fresh key press (or clipboard key), and
//! after a frame with a key, one frame with none; it holds the rest, so every key acts on what
//! the one before it did. Key repeats and modifier keys do not split a frame (a held arrow moves as fast as before); modifier changes are events too, so a
//! held key is read with the modifiers it was pressed with.
//!
//! Typing into a text field is not slowed to a key a frame: while a field has the keyboard
//! (and the frame is not the rest after a key), plain typing keys (letters, digits, Space,
//! Backspace, Delete, with or without Shift) pass together, in order, up to the first key that
//! may move the keyboard or act on what was typed (Tab, Enter, Esc, arrows, F-keys, a key with
//! Ctrl or Alt, a clipboard key), which waits for the next frame: Move to… and the palette read
//! Enter against the text typed before it.

use std::collections::{HashSet, VecDeque};

/// Events held back for later frames, the keys down after those already given to egui, and
/// whether the last frame had a key (the next one has none).
#[derive(Default)]
pub struct KeyQueue {
    held: VecDeque<egui::Event>,
    down: HashSet<egui::Key>,
    rest: bool,
}

impl KeyQueue {
    /// Put the held events before `raw`'s new ones, then keep back everything from the second
    /// fresh key press on (from the first, right after a frame with a key). With `typing` (a
    /// text field has the keyboard), plain typing keys before the first other key all pass,
    /// and that key waits. Returns true when events are still held (ask for another frame).
    pub fn one_key_per_frame(&mut self, raw: &mut egui::RawInput, typing: bool) -> bool {
        let mut events: VecDeque<egui::Event> = std::mem::take(&mut self.held);
        events.extend(raw.events.drain(..));
        let mut down = self.down.clone();
        let allowed = if self.rest { 0 } else { 1 };
        let typing = typing && !self.rest;
        let (mut actions, mut typed) = (0, 0);
        let mut split = events.len();
        for (k, event) in events.iter().enumerate() {
            if is_action(event, &down) {
                if typing && actions == 0 && is_typing_key(event) {
                    typed += 1;
                } else if actions == allowed || typed > 0 {
                    split = k;
                    break;
                } else {
                    actions += 1;
                }
            }
            track(event, &mut down);
        }
        self.held = events.split_off(split);
        self.down = down;
        self.rest = actions > 0;
        raw.events = events.into();
        !self.held.is_empty()
    }
}

/// A fresh press of a key that is not a modifier, or a clipboard key (winit sends Ctrl+C, X
/// and V as Copy, Cut and Paste events instead of key presses).
fn is_action(event: &egui::Event, down: &HashSet<egui::Key>) -> bool {
    match event {
        egui::Event::Key {
            key, pressed: true, ..
        } => !is_modifier(*key) && !down.contains(key),
        egui::Event::Copy
        | egui::Event::Cut
        | egui::Event::Paste(_)
        | egui::Event::PasteImage(_) => true,
        _ => false,
    }
}

/// A key that only types into the field that has the keyboard: no Ctrl, Alt or Command, and
/// not a key that moves the keyboard, the cursor or a list's choice, confirms or cancels.
fn is_typing_key(event: &egui::Event) -> bool {
    use egui::Key::*;
    let egui::Event::Key { key, modifiers, .. } = event else {
        return false;
    };
    let command = modifiers.ctrl || modifiers.alt || modifiers.command || modifiers.mac_cmd;
    let moves = matches!(
        key,
        Tab | Enter
            | Escape
            | ArrowUp
            | ArrowDown
            | ArrowLeft
            | ArrowRight
            | PageUp
            | PageDown
            | Home
            | End
            | Insert
    ) || (key.name().strip_prefix('F')).is_some_and(|n| n.parse::<u8>().is_ok());
    !command && !moves
}

/// Keep `down` the set of keys held down after `event`.
fn track(event: &egui::Event, down: &mut HashSet<egui::Key>) {
    match event {
        egui::Event::Key {
            key, pressed: true, ..
        } => {
            down.insert(*key);
        }
        egui::Event::Key {
            key,
            pressed: false,
            ..
        } => {
            down.remove(key);
        }
        // Keys let go while the window had no keyboard never come back as releases.
        egui::Event::WindowFocused(false) => down.clear(),
        _ => {}
    }
}

/// True for Shift, Ctrl, Alt and Super (egui sends them as keys of their own).
fn is_modifier(key: egui::Key) -> bool {
    use egui::Key::*;
    matches!(
        key,
        ShiftLeft
            | ShiftRight
            | ControlLeft
            | ControlRight
            | AltLeft
            | AltRight
            | SuperLeft
            | SuperRight
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use egui::{Event, Key, Modifiers, RawInput};

    fn key(key: Key, pressed: bool, modifiers: Modifiers) -> Event {
        Event::Key {
            key,
            physical_key: Some(key),
            pressed,
            repeat: false,
            modifiers,
        }
    }

    fn presses(events: &[Event]) -> Vec<Key> {
        let pressed = |e: &Event| match e {
            Event::Key {
                key, pressed: true, ..
            } if !is_modifier(*key) => Some(*key),
            _ => None,
        };
        events.iter().filter_map(pressed).collect()
    }

    #[test]
    fn ctrl_a_then_up_in_one_frame_are_read_in_two() {
        let mut queue = KeyQueue::default();
        let ctrl = Modifiers::COMMAND;
        let mut raw = RawInput {
            events: vec![
                Event::ModifiersChanged(ctrl),
                key(Key::ControlLeft, true, Modifiers::NONE),
                key(Key::A, true, ctrl),
                Event::Text("a".into()),
                key(Key::ControlLeft, false, ctrl),
                Event::ModifiersChanged(Modifiers::NONE),
                key(Key::A, false, Modifiers::NONE),
                key(Key::ArrowUp, true, Modifiers::NONE),
                key(Key::ArrowUp, false, Modifiers::NONE),
                Event::ModifiersChanged(Modifiers::SHIFT),
            ],
            ..Default::default()
        };
        assert!(queue.one_key_per_frame(&mut raw, false), "Up is held");
        assert_eq!(presses(&raw.events), [Key::A]);
        assert_eq!(raw.events.len(), 7, "A's text and releases stay with it");
        let mut next = RawInput::default();
        assert!(
            queue.one_key_per_frame(&mut next, false),
            "a frame with no key"
        );
        assert!(next.events.is_empty());
        assert!(!queue.one_key_per_frame(&mut next, false), "nothing left");
        assert_eq!(presses(&next.events), [Key::ArrowUp]);
        // Shift went down after Up: Up is read without it.
        assert_eq!(
            next.events.last(),
            Some(&Event::ModifiersChanged(Modifiers::SHIFT))
        );
    }

    #[test]
    fn repeats_and_clipboard_keys() {
        let mut queue = KeyQueue::default();
        let none = Modifiers::NONE;
        // A held arrow repeats: the repeats ride along, not one a frame.
        let mut raw = RawInput {
            events: vec![
                key(Key::ArrowRight, true, none),
                key(Key::ArrowRight, true, none),
                key(Key::ArrowRight, true, none),
            ],
            ..Default::default()
        };
        assert!(!queue.one_key_per_frame(&mut raw, false));
        assert_eq!(raw.events.len(), 3);
        let mut raw = RawInput::default();
        assert!(!queue.one_key_per_frame(&mut raw, false), "nothing held");
        // Still down: another repeat, then Ctrl+V (a Paste event) then Delete split.
        let mut raw = RawInput {
            events: vec![
                key(Key::ArrowRight, true, none),
                key(Key::ArrowRight, false, none),
                Event::Paste("x".into()),
                key(Key::Delete, true, none),
            ],
            ..Default::default()
        };
        assert!(queue.one_key_per_frame(&mut raw, false));
        assert_eq!(raw.events.len(), 3, "the repeat, its release, the paste");
        let mut raw = RawInput::default();
        assert!(
            queue.one_key_per_frame(&mut raw, false),
            "a frame with no key"
        );
        let mut raw = RawInput::default();
        assert!(!queue.one_key_per_frame(&mut raw, false));
        assert_eq!(presses(&raw.events), [Key::Delete]);
    }

    /// A key press with its text, then its release, as winit sends a typed character.
    fn typed(k: Key, text: &str) -> [Event; 3] {
        let none = Modifiers::NONE;
        [
            key(k, true, none),
            Event::Text(text.into()),
            key(k, false, none),
        ]
    }

    fn text(events: &[Event]) -> String {
        let mut out = String::new();
        for e in events {
            if let Event::Text(t) = e {
                out.push_str(t);
            }
        }
        out
    }

    #[test]
    fn typing_into_a_field_passes_in_one_frame_and_enter_waits() {
        let mut queue = KeyQueue::default();
        // "-12.5" then Enter then W (a tool key, once the field let the keyboard go).
        let mut events: Vec<Event> = [
            typed(Key::Minus, "-"),
            typed(Key::Num1, "1"),
            typed(Key::Num2, "2"),
            typed(Key::Period, "."),
            typed(Key::Num5, "5"),
        ]
        .concat();
        events.extend([key(Key::Enter, true, Modifiers::NONE)]);
        events.extend(typed(Key::W, "w"));
        let mut raw = RawInput {
            events,
            ..Default::default()
        };
        assert!(queue.one_key_per_frame(&mut raw, true), "Enter is held");
        assert_eq!(text(&raw.events), "-12.5", "every character, in order");
        assert_eq!(raw.events.len(), 15);
        // Enter alone, read against the whole text.
        let mut raw = RawInput::default();
        assert!(queue.one_key_per_frame(&mut raw, true));
        assert_eq!(presses(&raw.events), [Key::Enter]);
        // The rest after a key: nothing, even typing.
        let mut raw = RawInput::default();
        assert!(queue.one_key_per_frame(&mut raw, true));
        assert!(raw.events.is_empty());
        // The field let the keyboard go: W is a key of its own.
        let mut raw = RawInput::default();
        assert!(!queue.one_key_per_frame(&mut raw, false));
        assert_eq!(presses(&raw.events), [Key::W]);
    }

    #[test]
    fn while_typing_ctrl_keys_tab_and_arrows_still_wait_their_turn() {
        let mut queue = KeyQueue::default();
        let ctrl = Modifiers::COMMAND;
        let mut events: Vec<Event> = typed(Key::A, "a").to_vec();
        events.extend([key(Key::A, true, ctrl), key(Key::A, false, ctrl)]);
        events.extend(typed(Key::B, "b"));
        events.extend([key(Key::ArrowLeft, true, Modifiers::NONE)]);
        let mut raw = RawInput {
            events,
            ..Default::default()
        };
        assert!(queue.one_key_per_frame(&mut raw, true));
        assert_eq!(text(&raw.events), "a");
        let mut raw = RawInput::default();
        assert!(queue.one_key_per_frame(&mut raw, true));
        assert_eq!(presses(&raw.events), [Key::A], "Ctrl+A alone");
        let mut raw = RawInput::default();
        assert!(queue.one_key_per_frame(&mut raw, true), "the rest");
        let mut raw = RawInput::default();
        assert!(queue.one_key_per_frame(&mut raw, true));
        assert_eq!(text(&raw.events), "b", "typing goes on, the arrow waits");
        let mut raw = RawInput::default();
        assert!(!queue.one_key_per_frame(&mut raw, true));
        assert_eq!(presses(&raw.events), [Key::ArrowLeft]);
    }
}
