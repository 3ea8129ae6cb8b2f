//! The breadcrumb above the rows: the primary selection's path, root first. Its ancestors are
//! links that select them; when the path is wider than the panel the root, a "…" (the nearest
//! left-out ancestor) and the nearest ancestors are shown (see [`fit_crumbs`]).

use crate::app::frame::CommandSender;
use crate::app::frame::FrameContext;
use crate::editor::session::arrange::display_name;
use crate::editor::session::command::{Command, SelectionCommand};
use crate::editor::view::rows::{Crumbs, fit_crumbs};
use crate::model::scene::{NodeId, Scene};

/// The selected node's path (pre-order indices, root first) and what it was computed from:
/// walking up a 1M-deep chain every frame would cost what the whole frame may.
#[derive(Default)]
pub(super) struct PathCache {
    key: Option<(NodeId, u64)>,
    indices: Vec<usize>,
}

impl PathCache {
    /// The path of `id` (empty when there is none or it is unknown).
    fn of(&mut self, scene: &Scene, id: Option<NodeId>) -> &[usize] {
        let key = id.map(|id| (id, scene.structure_version()));
        if key != self.key {
            self.key = key;
            self.indices = id
                .and_then(|id| scene.index(id).ok())
                .map(|i| scene.path_indices(i))
                .unwrap_or_default();
        }
        &self.indices
    }
}

/// The space between two segments, and the separator painted in it.
const SEP: &str = " › ";
const MORE: &str = "…";

/// One line: the path of the primary selection (or a hint when nothing is selected).
pub(super) fn breadcrumb(
    ui: &mut egui::Ui,
    fx: &FrameContext,
    cache: &mut PathCache,
    out: &CommandSender,
) {
    let scene = fx.scene;
    let height = ui.spacing().interact_size.y;
    let (rect, _) = ui.allocate_exact_size(
        egui::vec2(ui.available_width(), height),
        egui::Sense::hover(),
    );
    let path = cache.of(scene, fx.selection.last());
    let font = egui::TextStyle::Body.resolve(ui.style());
    let painter = ui.painter_at(rect);
    let width = |text: &str| {
        let color = egui::Color32::PLACEHOLDER;
        painter
            .layout_no_wrap(text.to_string(), font.clone(), color)
            .size()
            .x
    };
    if path.is_empty() {
        let weak = ui.visuals().weak_text_color();
        let at = rect.left_center();
        painter.text(at, egui::Align2::LEFT_CENTER, "No selection", font, weak);
        return;
    }
    let name = |k: usize| display_name(scene, path[k]);
    let (sep, more) = (width(SEP), width(MORE));
    let crumbs = fit_crumbs(path.len(), |k| width(&name(k)), rect.width(), sep, more);
    let mut line = Line {
        x: rect.left(),
        rect,
        font,
        sep,
    };
    for (k, text) in segments(crumbs, path.len(), &name) {
        let last = k == path.len() - 1;
        if line.segment(ui, &text, &name(k), last) {
            out.send(Command::Selection(SelectionCommand::Select(vec![
                scene.id_at(path[k]),
            ])));
        }
    }
}

/// The segments to draw: `(index into the path, text)`; the "…" stands for `from - 1`.
fn segments(crumbs: Crumbs, n: usize, name: &dyn Fn(usize) -> String) -> Vec<(usize, String)> {
    let mut shown = Vec::new();
    if crumbs.root {
        shown.push((0, name(0)));
    }
    if crumbs.more {
        shown.push((crumbs.from - 1, MORE.to_string()));
    }
    shown.extend((crumbs.from..n).map(|k| (k, name(k))));
    shown
}

/// Where the next segment goes.
struct Line {
    x: f32,
    rect: egui::Rect,
    font: egui::FontId,
    sep: f32,
}

impl Line {
    /// Paint one segment and the separator after it. Ancestors are links (named "Ancestor …"
    /// for assistive technology and tests, so that they never read as the row of that node);
    /// the selected node at the end is plain strong text. Returns true when it was clicked.
    fn segment(&mut self, ui: &egui::Ui, text: &str, name: &str, last: bool) -> bool {
        let visuals = ui.visuals();
        let color = if last {
            visuals.strong_text_color()
        } else {
            visuals.hyperlink_color
        };
        let painter = ui.painter_at(self.rect);
        let galley = painter.layout_no_wrap(text.to_string(), self.font.clone(), color);
        let size = egui::vec2(galley.size().x, self.rect.height());
        let at = egui::Rect::from_min_size(egui::pos2(self.x, self.rect.top()), size);
        let top = at.left_center() - egui::vec2(0.0, galley.size().y / 2.0);
        self.x = at.right() + self.sep;
        if last {
            painter.galley(top, galley, color);
            return false;
        }
        let response = ui.interact(
            at,
            ui.scope_id().with(("crumb", name, text)),
            egui::Sense::click(),
        );
        let label = format!("Ancestor {name}");
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Link, true, &label));
        let underline = response.hovered();
        painter.galley(top, galley, color);
        if underline {
            let y = top.y + self.font.size + 1.0;
            painter.hline(at.x_range(), y, egui::Stroke::new(1.0, color));
        }
        let sep_at = egui::pos2(at.right(), at.center().y);
        let weak = visuals.weak_text_color();
        let (align, font) = (egui::Align2::LEFT_CENTER, self.font.clone());
        painter.text(sep_at, align, SEP, font, weak);
        let tip = if text == MORE {
            format!("{name} (and the ancestors above it)")
        } else {
            format!("Select {name}")
        };
        response.on_hover_text(tip).clicked()
    }
}
