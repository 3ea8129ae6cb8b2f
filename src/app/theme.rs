//! The high-contrast theme (View ▸ High contrast): white text on black, bright outlines on
//! every control, a deep blue selection under white text and yellow outlines for focus, for low vision.

use egui::{Color32, Stroke, Visuals};

/// Yellow, for the selection and keyboard focus.
const ACCENT: Color32 = Color32::from_rgb(255, 221, 0);

/// Egui's dark theme turned to high contrast.
pub fn high_contrast() -> Visuals {
    let mut v = Visuals::dark();
    v.override_text_color = Some(Color32::WHITE);
    v.panel_fill = Color32::BLACK;
    v.window_fill = Color32::BLACK;
    v.extreme_bg_color = Color32::BLACK;
    v.faint_bg_color = Color32::from_gray(24);
    v.code_bg_color = Color32::from_gray(24);
    v.window_stroke = Stroke::new(2.0, Color32::WHITE);
    v.hyperlink_color = Color32::from_rgb(120, 200, 255);
    v.warn_fg_color = ACCENT;
    v.error_fg_color = Color32::from_rgb(255, 110, 110);
    // Blue under white text (about 8:1); the yellow outline marks focus and selection.
    v.selection.bg_fill = Color32::from_rgb(0, 60, 190);
    v.selection.stroke = Stroke::new(2.0, ACCENT);
    let w = &mut v.widgets;
    w.noninteractive.bg_stroke = Stroke::new(1.0, Color32::from_gray(200));
    w.noninteractive.fg_stroke = Stroke::new(1.0, Color32::WHITE);
    for state in [&mut w.inactive, &mut w.hovered, &mut w.active, &mut w.open] {
        state.bg_fill = Color32::BLACK;
        state.weak_bg_fill = Color32::BLACK;
        state.fg_stroke = Stroke::new(1.5, Color32::WHITE);
        state.bg_stroke = Stroke::new(1.5, Color32::WHITE);
    }
    w.hovered.bg_stroke = Stroke::new(2.0, ACCENT);
    w.active.bg_stroke = Stroke::new(2.5, ACCENT);
    w.hovered.weak_bg_fill = Color32::from_gray(40);
    w.active.weak_bg_fill = Color32::from_gray(60);
    v
}
