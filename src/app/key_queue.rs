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
    /// fresh key press on (from the first, right after a frame with a key). Returns true when
    /// events are still held (ask for another frame).
    pub fn one_key_per_frame(&mut self, raw: &mut egui::RawInput) -> bool {
        let mut events: VecDeque<egui::Event> = std::mem::take(&mut self.held);
        events.extend(raw.events.drain(..));
        let mut down = self.down.clone();
        let allowed = if self.rest { 0 } else { 1 };
        let mut actions = 0;
        let mut split = events.len();
        for (k, event) in events.iter().enumerate() {
            if is_action(event, &down) {
                if actions == allowed {
                    split = k;
                    break;
                }
                actions += 1;
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
        assert!(queue.one_key_per_frame(&mut raw), "Up is held");
        assert_eq!(presses(&raw.events), [Key::A]);
        assert_eq!(raw.events.len(), 7, "A's text and releases stay with it");
        let mut next = RawInput::default();
        assert!(queue.one_key_per_frame(&mut next), "a frame with no key");
        assert!(next.events.is_empty());
        assert!(!queue.one_key_per_frame(&mut next), "nothing left");
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
        assert!(!queue.one_key_per_frame(&mut raw));
        assert_eq!(raw.events.len(), 3);
        let mut raw = RawInput::default();
        assert!(!queue.one_key_per_frame(&mut raw), "nothing held");
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
        assert!(queue.one_key_per_frame(&mut raw));
        assert_eq!(raw.events.len(), 3, "the repeat, its release, the paste");
        let mut raw = RawInput::default();
        assert!(queue.one_key_per_frame(&mut raw), "a frame with no key");
        let mut raw = RawInput::default();
        assert!(!queue.one_key_per_frame(&mut raw));
        assert_eq!(presses(&raw.events), [Key::Delete]);
    }
}
