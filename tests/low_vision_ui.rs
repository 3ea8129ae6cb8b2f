//! Low vision (issue 45): every control the keyboard reaches shows a ring, in the normal and
//! the high-contrast theme; the viewport's grid labels keep 4.5:1 against what they are drawn
//! on; a field the keyboard reaches below the fold at 150 % scrolls into view.

mod ui_common;

use egui::Key;
use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{By, NodeT, Queryable};
use graft::app::GraftApp;
use graft::editor::Command;
use graft::editor::session::command::{SelectionCommand, ViewCommand};

fn app() -> Harness<'static, GraftApp> {
    let (dir, path) = ui_common::scene_file(&std::fs::read_to_string("scenes/sword.ron").unwrap());
    let h = ui_common::app_on_path(path);
    std::mem::forget(dir); // the file must outlive the harness
    h
}

/// The focused object's role, name and rectangle.
fn focused(h: &Harness<GraftApp>) -> Option<(Role, String, egui::Rect)> {
    let node = h.query(By::new().predicate(|n| n.is_focused()))?;
    let rect = node.rect();
    let node = node.accesskit_node();
    let name = node.label().or_else(|| node.value()).unwrap_or_default();
    Some((node.role(), name, rect))
}

/// True when the last frame drew a ring (a stroke 2 points wide or more) around `rect` and
/// not much taller than it (the panel's ring is far taller; a canvas has the panel's).
fn ringed(h: &Harness<GraftApp>, rect: egui::Rect, canvas: bool) -> bool {
    h.output()
        .shapes
        .iter()
        .any(|clipped| match &clipped.shape {
            egui::Shape::Rect(r) => {
                r.stroke.width >= 2.0
                    && r.rect.expand(0.5).contains_rect(rect)
                    && (canvas || r.rect.height() < rect.height() + 12.0)
            }
            _ => false,
        })
}

/// Tab through the window with the sword selected; every control that gets the keyboard and
/// is not a text field (which shows its cursor and frame) shows a ring. Returns the roles met.
fn tab_through(h: &mut Harness<GraftApp>) -> Vec<(Role, String)> {
    let mut seen = Vec::new();
    let mut first = None;
    for _ in 0..150 {
        h.key_press(Key::Tab);
        h.run_steps(2);
        let Some((role, name, rect)) = focused(h) else {
            continue;
        };
        if first.as_ref() == Some(&name) {
            break; // round the window once
        }
        first.get_or_insert(name.clone());
        if h.ctx.text_edit_focused() {
            continue;
        }
        eprintln!("{role:?} {name:?}");
        assert!(
            ringed(h, rect, role == Role::Canvas),
            "{role:?} {name:?} at {rect:?} shows no ring"
        );
        seen.push((role, name));
    }
    seen
}

#[test]
fn every_control_the_keyboard_reaches_shows_a_ring_in_both_themes() {
    for high_contrast in [false, true] {
        let mut h = app();
        h.state_mut()
            .run(Command::View(ViewCommand::SetHighContrast(high_contrast)));
        h.state_mut()
            .run(Command::Selection(SelectionCommand::Select(vec![
                graft::model::scene::NodeId(4),
            ])));
        h.run_steps(3);
        let seen = tab_through(&mut h);
        let kinds = [
            Role::Button,
            Role::CheckBox,
            Role::ComboBox,
            Role::Link,
            Role::DisclosureTriangle,
            Role::TreeItem,
            Role::Canvas,
        ];
        for kind in kinds {
            assert!(
                seen.iter().any(|(role, _)| *role == kind),
                "no {kind:?} reached: {seen:?}"
            );
        }
        // The hierarchy's expand arrows are drawn by graft, not egui.
        assert!(
            seen.iter().any(|(_, name)| name == "Collapse arm"),
            "{seen:?}"
        );
    }
}

/// The view's colour of an egui colour (opaque).
fn rgba(c: egui::Color32) -> graft::editor::view::palette::Rgba {
    graft::editor::view::palette::Rgba::rgb(c.r(), c.g(), c.b())
}

/// The grid labels drawn in the viewport last frame (texts that read as numbers) and the
/// colour the viewport's background was filled with.
fn grid_labels(h: &Harness<GraftApp>) -> (Vec<(String, egui::Color32)>, egui::Color32) {
    let viewport = By::new()
        .role(Role::Canvas)
        .predicate(|n| n.label().is_some_and(|l| l.starts_with("Viewport")));
    let canvas = h.get(viewport).rect();
    let shapes = &h.output().shapes;
    // The last opaque fill under the whole canvas (the panel's is painted before it).
    let background = shapes
        .iter()
        .rev()
        .find_map(|clipped| match &clipped.shape {
            egui::Shape::Rect(r) if r.rect.contains_rect(canvas) && r.fill.a() == 255 => {
                Some(r.fill)
            }
            _ => None,
        });
    let labels = shapes.iter().filter_map(|clipped| match &clipped.shape {
        egui::Shape::Text(t)
            if canvas.contains(t.pos) && t.galley.text().parse::<f64>().is_ok() =>
        {
            Some((t.galley.text().to_string(), t.fallback_color))
        }
        _ => None,
    });
    (
        labels.collect(),
        background.expect("the viewport's background"),
    )
}

/// Grid labels read at 4.5:1 or more on the background the viewport paints and on a grid
/// line, in the normal and the high-contrast theme.
#[test]
fn grid_labels_keep_4_5_to_1_in_both_themes() {
    use graft::editor::view::palette::{GRID, contrast};
    for high_contrast in [false, true] {
        let mut h = app();
        h.state_mut()
            .run(Command::View(ViewCommand::SetHighContrast(high_contrast)));
        h.run_steps(3);
        let (labels, background) = grid_labels(&h);
        assert!(labels.len() >= 4, "{labels:?}");
        for (text, color) in labels {
            for on in [rgba(background), GRID] {
                let ratio = contrast(rgba(color), on);
                assert!(
                    ratio >= 4.5,
                    "grid label {text:?} ({color:?}) on {}: {ratio:.2}:1 (high contrast: {high_contrast})",
                    on.hex()
                );
            }
        }
    }
}

/// The focused object's name, its rectangle and the rectangle of the pane it lies in, when
/// that pane is named `pane`.
fn focused_in(h: &Harness<GraftApp>, pane: &str) -> Option<(String, egui::Rect, egui::Rect)> {
    let node = h.query(By::new().predicate(|n| n.is_focused()))?;
    let rect = node.rect();
    let ak = node.accesskit_node();
    let name = ak.label().or_else(|| ak.value()).unwrap_or_default();
    let mut at = ak.parent();
    while let Some(n) = at {
        if n.role() == Role::Pane && n.label().as_deref() == Some(pane) {
            let b = n.bounding_box()?;
            let ppp = h.ctx.pixels_per_point();
            let to = |v: f64| v as f32 / ppp;
            let panel = egui::Rect::from_min_max(
                egui::pos2(to(b.x0), to(b.y0)),
                egui::pos2(to(b.x1), to(b.y1)),
            );
            return Some((name, rect, panel));
        }
        at = n.parent();
    }
    None
}

/// At 150 %, Tab through the inspector of the selected sword: every control the keyboard
/// reaches, below the fold or past the right edge, is scrolled into the panel's view.
#[test]
fn a_field_tabbed_to_below_the_fold_at_150_percent_scrolls_into_view() {
    let mut h = app();
    h.state_mut()
        .run(Command::View(ViewCommand::SetUiScale(1.5)));
    h.state_mut()
        .run(Command::Selection(SelectionCommand::Select(vec![
            graft::model::scene::NodeId(4),
        ])));
    h.run_steps(3);
    h.key_press(Key::F6); // the viewport
    h.run_steps(3);
    h.key_press(Key::F6); // the inspector's name field
    h.run_steps(3);
    let mut reached = Vec::new();
    for _ in 0..60 {
        h.key_press(Key::Tab);
        h.run_steps(4);
        let Some((name, rect, panel)) = focused_in(&h, "Inspector") else {
            break; // out of the inspector
        };
        eprintln!("{name:?} {rect:?} in {panel:?}");
        assert!(
            panel.expand(1.0).contains_rect(rect),
            "{name:?} at {rect:?} is not in view in the inspector {panel:?}"
        );
        reached.push(name);
    }
    assert!(
        reached.iter().any(|n| n == "Matrix chain"),
        "Tab reached the folds below: {reached:?}"
    );
}

/// At 150 % the status bar's last message is not cut off at the window's edge: the bar wraps
/// onto a second line when its parts do not fit in one.
#[test]
fn the_status_bar_wraps_rather_than_cut_its_message_at_150_percent() {
    let mut h = app();
    use graft::editor::session::arrange::Step;
    h.set_size(egui::vec2(1280.0, 800.0)); // the window the screenshots had
    for _ in 0..3 {
        // 110, 125, 150 %: the last says "Interface scale 150 %" in the status bar.
        (h.state_mut()).run(Command::View(ViewCommand::StepUiScale(Step::Forward)));
    }
    h.hover_at(egui::pos2(400.0, 300.0)); // the viewport: the pointer's place shows too
    h.run_steps(3);
    let width = h.ctx.content_rect().width();
    let message = h
        .query_all(By::new().predicate(|n| {
            n.value()
                .or_else(|| n.label())
                .is_some_and(|t| t.starts_with("Interface scale"))
        }))
        .map(|n| n.rect())
        .next()
        .expect("the status bar says the scale");
    assert!(
        message.right() <= width + 0.5,
        "the message ends at {} in a window {width} wide",
        message.right()
    );
}

/// The timeline ruler's time labels read at 4.5:1 or more on whatever opaque fill lies under
/// each (the last painted before it), in the normal and the high-contrast theme.
#[test]
fn timeline_ruler_labels_keep_4_5_to_1_in_both_themes() {
    use graft::editor::view::palette::{RULER_TEXT, contrast};
    for high_contrast in [false, true] {
        let text = std::fs::read_to_string("scenes/solar.ron").unwrap();
        let (dir, path) = ui_common::scene_file(&text);
        let mut h = ui_common::app_on_path(path);
        h.state_mut()
            .run(Command::View(ViewCommand::SetHighContrast(high_contrast)));
        h.run_steps(3);
        let ruler = egui::Color32::from_rgb(RULER_TEXT.0[0], RULER_TEXT.0[1], RULER_TEXT.0[2]);
        let shapes = &h.output().shapes;
        let mut labels = 0;
        for (k, clipped) in shapes.iter().enumerate() {
            let egui::Shape::Text(t) = &clipped.shape else {
                continue;
            };
            if t.fallback_color != ruler {
                continue;
            }
            let at = t.visual_bounding_rect();
            let under = shapes[..k].iter().rev().find_map(|c| match &c.shape {
                egui::Shape::Rect(r) if r.rect.contains_rect(at) && r.fill.a() == 255 => {
                    Some(r.fill)
                }
                _ => None,
            });
            let under = under.expect("an opaque fill under the ruler");
            let ratio = contrast(rgba(t.fallback_color), rgba(under));
            assert!(
                ratio >= 4.5,
                "ruler label {:?} on {under:?}: {ratio:.2}:1 (high contrast: {high_contrast})",
                t.galley.text()
            );
            labels += 1;
        }
        assert!(labels >= 4, "ruler labels drawn: {labels}");
        drop(dir);
    }
}

/// The rectangle of the pane named `pane` (in points).
fn pane_rect(h: &Harness<GraftApp>, pane: &str) -> egui::Rect {
    h.get(By::new().role(Role::Pane).label(pane)).rect()
}

/// The texts painted in the inspector's panel last frame (with where they end) that end past
/// the right edge of the area they are clipped to (the panel's scroll area: what is past it is
/// cut off).
fn texts_past_the_edge(
    h: &Harness<GraftApp>,
    panel: egui::Rect,
    seen: &mut std::collections::BTreeSet<String>,
) -> Vec<String> {
    let mut past = Vec::new();
    for clipped in &h.output().shapes {
        let egui::Shape::Text(t) = &clipped.shape else {
            continue;
        };
        let text = t.galley.text();
        if !panel.x_range().contains(t.pos.x) || text.trim().is_empty() {
            continue;
        }
        seen.insert(text.to_string());
        let (right, edge) = (t.visual_bounding_rect().right(), clipped.clip_rect.right());
        if right > edge + 0.5 {
            past.push(format!("{text:?} ends at {right}, cut at {edge}"));
        }
    }
    past
}

/// At 150 % in a 1280 × 800 window, no text of the selected sword's inspector — the
/// metrics, both matrices, the matrix chain — runs past the panel's right edge, scrolled down
/// to its end (the matrices' third column and the lossy scale were cut off, reachable only by
/// scrolling sideways).
#[test]
fn the_inspector_text_fits_its_panel_at_150_percent() {
    let mut h = app();
    h.set_size(egui::vec2(1280.0, 800.0));
    h.state_mut()
        .run(Command::View(ViewCommand::SetUiScale(1.5)));
    h.state_mut()
        .run(Command::Selection(SelectionCommand::Select(vec![
            graft::model::scene::NodeId(4),
        ])));
    h.run_steps(3);
    let panel = pane_rect(&h, "Inspector");
    h.hover_at(panel.center());
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..30 {
        let past = texts_past_the_edge(&h, panel, &mut seen);
        assert!(past.is_empty(), "cut off in the inspector: {past:?}");
        h.event(egui::Event::MouseWheel {
            unit: egui::MouseWheelUnit::Line,
            delta: egui::vec2(0.0, -2.0),
            phase: egui::TouchPhase::Move,
            source: egui::MouseWheelSource::Unknown,
            modifiers: egui::Modifiers::NONE,
        });
        h.run_steps(2);
    }
    // Painted, not only on the accessibility tree (egui names a label it does not paint).
    for painted in ["lossy scale", "world = parentWorld · local", "Matrix chain"] {
        assert!(seen.contains(painted), "scrolled to {painted:?}: {seen:?}");
    }
}
