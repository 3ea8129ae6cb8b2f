//! Number fields that commit a typed value once: every field that edits the scene is made here.
//!
//! A typed value reaches the session when the field loses focus (Enter, Tab, a click
//! elsewhere); Esc cancels. So `50` + Enter is one command, one undo step, one journal record
//! and one announcement, not one per keystroke. Dragging a number stays continuous (one step
//! per drag, ended when the drag is released).

use egui::{DragValue, Key, Response, Ui};

/// What one number field did this frame.
pub(crate) struct NumberEdit {
    /// The field's response (for names, targets and tooltips).
    pub response: Response,
    /// Its value changed this frame (a drag moved it, or a typed value was committed).
    pub changed: bool,
    /// An edit ended this frame: a drag released or a typed value committed.
    pub ended: bool,
}

/// A drag-or-type number field, styled by `style`, that applies a typed value only when it
/// is committed and never after Esc.
pub(crate) fn number_field(
    ui: &mut Ui,
    value: &mut f32,
    style: impl FnOnce(DragValue<'_>) -> DragValue<'_>,
) -> NumberEdit {
    // egui 0.37 applies the typed text a frame after the field loses focus, Esc included: Esc
    // clears the focus before any widget runs, and on the next frame, with Esc no longer
    // down, the field applies its text. So remember which field had the keyboard last frame,
    // and when Esc comes, take back what arrives in the next frames.
    let id = ui.next_auto_id();
    let (escaped, focused) = (id.with("graft escaped"), id.with("graft focused"));
    let had_focus = ui.data(|d| d.get_temp::<bool>(focused)).unwrap_or(false);
    if had_focus && ui.input(|i| i.key_pressed(Key::Escape)) {
        ui.data_mut(|d| d.insert_temp(escaped, 3u8));
    }
    let before = *value;
    let response = ui.add(style(
        DragValue::new(&mut *value).update_while_editing(false),
    ));
    let mut changed = response.changed();
    let has_focus = response.has_focus();
    if has_focus != had_focus {
        ui.data_mut(|d| d.insert_temp(focused, has_focus));
    }
    if let Some(frames) = ui.data(|d| d.get_temp::<u8>(escaped)) {
        if changed && !response.dragged() {
            *value = before;
            changed = false;
        }
        ui.data_mut(|d| {
            if frames > 1 {
                d.insert_temp(escaped, frames - 1);
            } else {
                d.remove_temp::<u8>(escaped);
            }
        });
    }
    let ended = response.drag_stopped() || (changed && !response.dragged());
    NumberEdit {
        response,
        changed,
        ended,
    }
}
