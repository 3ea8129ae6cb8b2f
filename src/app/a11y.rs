//! Names for screen readers where a widget's own text does not say what it is: an icon button
//! ("✖"), a number field ("x"), two fields that both end in "s".

/// Give a widget the name a screen reader says for it.
pub fn name(ui: &egui::Ui, response: &egui::Response, name: &str) {
    ui.ctx()
        .accesskit_node_builder(response.id, |node| node.set_label(name));
}

/// The id of the node that reads announcements out.
fn announcement_id() -> egui::Id {
    egui::Id::unique("graft-announcement")
}

/// What the window announced and where it is spoken, owned by the app (`GraftApp`): written
/// by [`announce`] after the panels, read by [`speak_on_focus`] at the frame's end.
#[derive(Debug, Default)]
pub struct Announcements {
    announcer: crate::editor::session::announce::Announcer,
    on_focus: OnFocus,
}

/// Look at the session and put what changed ([`Announcer`]) in a polite live region: a status
/// node a screen reader reads out whenever its text changes (AT-SPI "object:announcement"),
/// without moving the keyboard. Returns the text.
///
/// [`Announcer`]: crate::editor::session::announce::Announcer
pub fn announce(
    ctx: &egui::Context,
    fx: &super::frame::FrameContext,
    said: &mut Announcements,
) -> String {
    let id = announcement_id();
    let text = fx.announcement(&mut said.announcer);
    ctx.accesskit_node_builder(id, |node| {
        node.set_role(egui::accesskit::Role::Status);
        node.set_live(egui::accesskit::Live::Polite);
        if !text.is_empty() {
            node.set_label(text.as_str());
        }
    });
    text
}

/// The announcement being spoken through the focused object, and where.
#[derive(Clone, Copy, Debug, Default)]
struct OnFocus {
    /// Which announcement ([`Announcer::count`]).
    ///
    /// [`Announcer::count`]: crate::editor::session::announce::Announcer::count
    count: u64,
    /// The object it is put on, or None once the keyboard left it.
    on: Option<egui::Id>,
    /// The pass it was made on: for a few passes it follows the keyboard (a command that
    /// moves it, as Move to… does, moves it a pass or two after it announced).
    pass: u64,
}

/// How many passes after an announcement it follows the keyboard to a new object.
const FOLLOW_PASSES: u64 = 3;

/// Speak the latest announcement through the object that has the keyboard, for screen readers
/// that do not listen for announcements (Orca 43, Debian 12's, reads neither
/// "object:announcement" nor live regions from AccessKit): the announcement is that object's
/// description while it keeps the keyboard. Orca speaks the description of the object it is
/// on when the description changes, and speaks it with the object when the keyboard moves
/// there. With no control focused, the window is the focused object. Call after every widget
/// and window of the pass is drawn.
pub fn speak_on_focus(ctx: &egui::Context, said: &mut Announcements) {
    let (count, text) = (said.announcer.count(), said.announcer.text().to_owned());
    if text.is_empty() {
        return;
    }
    let focus = ctx
        .memory(|m| m.focused())
        .filter(|id| ctx.has_accesskit_node(*id))
        .unwrap_or_else(egui::accesskit_root_id);
    let pass = ctx.cumulative_pass_nr();
    let state = &mut said.on_focus;
    if state.count != count {
        *state = OnFocus {
            count,
            on: Some(focus),
            pass,
        };
    } else if state.on != Some(focus) {
        let following = pass.saturating_sub(state.pass) <= FOLLOW_PASSES;
        state.on = following.then_some(focus);
    }
    let on = state.on;
    if on == Some(focus) {
        // The same words said again are a new description too (an odd count adds a space).
        let text = if count % 2 == 1 {
            text
        } else {
            format!("{text} ")
        };
        ctx.accesskit_node_builder(focus, |node| node.set_description(text));
    }
}

/// Name the row of menus `ui` is drawn in (egui reads the menu bar's inner row as a "menu"
/// without a name).
pub fn name_menus(ui: &egui::Ui, name: &str) {
    name_enclosing(ui, |kind| kind == egui::UiKind::Menu, name);
}

/// Name the dialog (an `egui::Modal`) `ui` is drawn in: egui reads a modal as a dialog without
/// a name, so a screen reader would say only "dialog".
pub fn name_dialog(ui: &egui::Ui, name: &str) {
    name_enclosing(ui, |kind| kind == egui::UiKind::Modal, name);
}

/// Name the panel `ui` is drawn in (egui reads each as an unnamed "panel"): "Hierarchy"…
pub fn name_panel(ui: &egui::Ui, name: &str) {
    use egui::UiKind::{BottomPanel, CentralPanel, LeftPanel, RightPanel, TopPanel};
    let is_panel = |kind| {
        matches!(
            kind,
            LeftPanel | RightPanel | TopPanel | BottomPanel | CentralPanel
        )
    };
    name_enclosing(ui, is_panel, name);
}

/// Name the innermost `Ui` around `ui` (itself included) of a kind `is_kind` accepts.
fn name_enclosing(ui: &egui::Ui, is_kind: impl Fn(egui::UiKind) -> bool, name: &str) {
    let enclosing = ui
        .stack()
        .iter()
        .find(|s| s.kind().is_some_and(&is_kind))
        .map(|s| (s.unique_id, s.max_rect));
    if let Some((id, rect)) = enclosing {
        ui.ctx().accesskit_node_builder(id, |node| {
            node.set_label(name);
            // Where it is, for a magnifier or a screen reader's review (egui gives containers none).
            node.set_bounds(egui::accesskit::Rect {
                x0: rect.min.x.into(),
                y0: rect.min.y.into(),
                x1: rect.max.x.into(),
                y1: rect.max.y.into(),
            });
        });
    }
}

/// Read a lesson goal's line as what it is: a check box (read-only: the goal's state is not
/// set by pressing it) named by the goal, checked when it holds, instead of "☑ goal" text.
pub fn goal(ui: &egui::Ui, line: &egui::Response, label: &str, holds: bool) {
    ui.ctx().accesskit_node_builder(line.id, |node| {
        node.set_role(egui::accesskit::Role::CheckBox);
        node.clear_value();
        node.set_label(label);
        node.set_read_only();
        node.set_toggled(if holds {
            egui::accesskit::Toggled::True
        } else {
            egui::accesskit::Toggled::False
        });
    });
}

/// Draw one hierarchy row inside its own accessibility group: AT-SPI (accesskit_atspi_common
/// 0.21) reads a tree item's size of set from its container, so each row gets one holding the
/// number of its siblings. Rows keep their egui ids from frame to frame (salted by `node`).
pub fn tree_row_group<R>(
    ui: &mut egui::Ui,
    node: crate::model::scene::NodeId,
    add_row: impl FnOnce(&mut egui::Ui) -> R,
) -> R {
    let group = egui::UiBuilder::new()
        .id_salt(("graft-tree-row", node))
        .accessibility_role(egui::accesskit::Role::Group);
    ui.scope_builder(group, add_row).inner
}

/// Where a hierarchy row sits among the scene's nodes, as a screen reader says it.
pub struct TreeRow<'a> {
    /// The scene the row shows.
    pub scene: &'a crate::model::scene::Scene,
    /// The row's node, by pre-order index.
    pub index: usize,
    /// Its depth (roots are 0).
    pub depth: usize,
    /// True when it is selected.
    pub selected: bool,
    /// Whether its children show, or None when it has none.
    pub open: Option<bool>,
    /// The hierarchy's filter and the rows it shows: under a filter a row's siblings are the
    /// shown rows of its parent ("1 of 1", not "2 of 3" with two hidden).
    pub shown: (&'a str, &'a [crate::editor::view::rows::Row]),
}

/// What a screen reader says of a hierarchy row (`row` is its widget; `ui` the row's group
/// from [`tree_row_group`]): selected or not, its level, expanded or collapsed, its place
/// among its siblings ("2 of 3"), and the level again as its description ("level 3"). With
/// graft's patched accesskit_atspi_common the level is the AT-SPI attribute "level" and the
/// state AT-SPI's expandable / expanded; Orca 43 takes a native tree row's level only from
/// node-child-of relations, which AccessKit cannot express, so the description says it.
pub fn tree_row(ui: &egui::Ui, row: egui::Id, at: &TreeRow) {
    let ctx = ui.ctx();
    if ctx.accesskit_node_builder(row, |_| ()).is_none() {
        return; // no screen reader: nothing to compute
    }
    let (position, size) = place_among_siblings(ctx, at.scene, at.index, at.shown);
    let level = at.depth + 1;
    let description = tree_row_description(level);
    ctx.accesskit_node_builder(row, |node| {
        node.clear_toggled();
        node.set_selected(at.selected);
        node.set_level(level);
        if let Some(open) = at.open {
            node.set_expanded(open);
        }
        node.set_position_in_set(position);
        node.set_description(description);
    });
    ctx.accesskit_node_builder(ui.unique_id(), |node| {
        if node.role() == egui::accesskit::Role::Group {
            node.set_size_of_set(size);
        }
    });
}

/// "level 3": a row's level as its description says it.
pub fn tree_row_description(level: usize) -> String {
    format!("level {level}")
}

/// The sibling sets (children of each parent, in order) asked for since the tree or the
/// filter last changed.
#[derive(Clone, Default)]
struct SiblingSets {
    version: u64,
    filter: String,
    sets: rustc_hash::FxHashMap<Option<usize>, Vec<usize>>,
}

/// The node at `index`'s place among its siblings (0-based) and their number: all its
/// parent's children, or under a filter the ones `shown` (the filter, the rows shown) holds.
/// Each parent's children are listed once per tree or filter change, then found by binary
/// search (pre-order indices of siblings increase), so a million roots cost one pass, not one
/// per row and frame.
fn place_among_siblings(
    ctx: &egui::Context,
    scene: &crate::model::scene::Scene,
    index: usize,
    (filter, rows): (&str, &[crate::editor::view::rows::Row]),
) -> (usize, usize) {
    let parent = scene.parent_index_at(index);
    ctx.data_mut(|d| {
        let cache =
            d.get_temp_mut_or_default::<SiblingSets>(egui::Id::unique("graft-sibling-sets"));
        if cache.version != scene.structure_version() || cache.filter != filter {
            cache.sets.clear();
            cache.version = scene.structure_version();
            cache.filter = filter.to_owned();
            if !filter.is_empty() {
                for row in rows {
                    let set = cache.sets.entry(scene.parent_index_at(row.index));
                    set.or_default().push(row.index); // rows are in pre-order
                }
            }
        }
        let set = cache
            .sets
            .entry(parent)
            .or_insert_with(|| scene.child_indices(parent).collect());
        (set.binary_search(&index).unwrap_or(0), set.len())
    })
}

/// Give a custom-drawn area (the viewport, the timeline's tracks) a role and a name: egui
/// reads an area allocated with a sense as an unnamed "unknown".
pub fn canvas(ui: &egui::Ui, response: &egui::Response, name: &str) {
    ui.ctx().accesskit_node_builder(response.id, |node| {
        node.set_role(egui::accesskit::Role::Canvas);
        node.set_label(name);
    });
}

/// The viewport canvas's name: how many nodes the scene has and what is selected, kept short
/// ("Viewport: 5 nodes, selected: sword", "selected: sword and 2 more", "nothing selected").
pub fn viewport_name(fx: &super::frame::FrameContext) -> String {
    let scene = fx.scene;
    let selection = fx.selected_ids();
    let name = |id| {
        scene.index(id).map_or_else(
            |_| format!("node {id}"),
            |index| crate::editor::session::arrange::display_name(scene, index),
        )
    };
    let nodes = match scene.len() {
        1 => "1 node".to_string(),
        n => format!("{n} nodes"),
    };
    let selected = match selection {
        [] => "nothing selected".to_string(),
        [one] => format!("selected: {}", name(*one)),
        [.., last] => format!("selected: {} and {} more", name(*last), selection.len() - 1),
    };
    format!("Viewport: {nodes}, {selected}")
}

/// Call the viewport canvas (`response`) by [`viewport_name`], only when a screen reader
/// listens (the name is not built every frame for nothing).
pub fn viewport(ui: &egui::Ui, response: &egui::Response, fx: &super::frame::FrameContext) {
    if ui
        .ctx()
        .accesskit_node_builder(response.id, |_| ())
        .is_some()
    {
        canvas(ui, response, &viewport_name(fx));
    }
}

/// Outline whatever control has the keyboard, whatever its kind (a button, an expander, a
/// collapsing header, a check box, a combo box, a spin button, a link): egui marks a focused
/// control only by its "active" colours, which on a header or a link is a brighter text, hard
/// to see, and a custom-drawn control (the hierarchy's expand arrows) shows nothing. The ring
/// is the selection's stroke colour, 2 points wide, just outside the control, on its layer
/// and clipped as it is. A text field shows its own (a cursor and a frame); a control that
/// rings itself says so with [`own_ring`]. Call after every widget and window is drawn.
pub fn ring_the_focus(ctx: &egui::Context, own: &super::frame::OwnRing) {
    let Some(id) = ctx.memory(|m| m.focused()) else {
        return;
    };
    if own.noted() == Some(id) || ctx.text_edit_focused() {
        return;
    }
    let Some(w) = ctx.viewport(|v| v.this_pass.widgets.get(id).copied()) else {
        return;
    };
    if !w.visible || w.interact_rect.is_negative() {
        return;
    }
    let color = ctx.global_style().visuals.selection.stroke.color;
    let painter = ctx
        .layer_painter(w.layer_id)
        .with_clip_rect(w.interact_rect.expand(RING_OUT + RING_WIDTH));
    painter.rect_stroke(
        w.rect.expand(RING_OUT),
        2.0,
        egui::Stroke::new(RING_WIDTH, color),
        egui::StrokeKind::Outside,
    );
}

/// Scroll the control that just got the keyboard into view when it lies in the scroll area
/// being drawn and is clipped (egui scrolls to nothing on Tab: at 150 % a field below the fold
/// or past the right edge got the keyboard unseen). Call at the end of a scroll area's
/// contents; it acts only on the pass the focus arrives, so scrolling away from a field that
/// keeps the keyboard is not undone.
pub fn scroll_focus_into_view(ui: &egui::Ui) {
    let ctx = ui.ctx();
    let Some(id) = ctx.memory(|m| m.focused()) else {
        return;
    };
    if ctx.memory(|m| m.had_focus_last_frame(id)) {
        return;
    }
    let Some(w) = ctx.viewport(|v| v.this_pass.widgets.get(id).copied()) else {
        return;
    };
    let here = w.layer_id == ui.layer_id() && ui.min_rect().contains_rect(w.rect);
    if here && !ui.clip_rect().contains_rect(w.rect) {
        ui.scroll_to_rect(w.rect, None);
    }
}

/// How far outside a control its focus ring lies, and how wide it is (points).
const RING_OUT: f32 = 1.0;
/// The focus ring's width.
const RING_WIDTH: f32 = 2.0;

/// The end of a pass, after every widget and window: the focused control's ring, and the
/// latest announcement spoken through it ([`speak_on_focus`]).
pub fn end_of_pass(ctx: &egui::Context, own: &super::frame::OwnRing, said: &mut Announcements) {
    ring_the_focus(ctx, own);
    speak_on_focus(ctx, said);
}

/// Outline `response` while it has the keyboard: a text line made focusable (a lesson goal,
/// the step title) draws no focus of its own, and a keyboard user must see where it is.
pub fn focus_ring(ui: &egui::Ui, own: &super::frame::OwnRing, response: &egui::Response) {
    if response.has_focus() {
        own.note(response.id);
        let stroke = ui.visuals().selection.stroke;
        let rect = response.rect.expand(2.0);
        ui.painter()
            .rect_stroke(rect, 2.0, stroke, egui::StrokeKind::Outside);
    }
}

/// Outline a hierarchy row inside its own rect while it has the keyboard (rows touch: a ring
/// outside would be painted over by the next row), in the selection's stroke, 2 points wide.
pub fn row_focus_ring(ui: &egui::Ui, own: &super::frame::OwnRing, response: &egui::Response) {
    if response.has_focus() {
        own.note(response.id);
        let stroke = egui::Stroke::new(2.0, ui.visuals().selection.stroke.color);
        ui.painter()
            .rect_stroke(response.rect, 2.0, stroke, egui::StrokeKind::Inside);
    }
}

/// A pick list (the palette's commands, Move to…'s parents) read as a list box named `name`
/// whose options are `options` (`choice` the highlighted one), and its search field
/// (`field`, which keeps the keyboard for typing) pointing at the highlighted option as its
/// active descendant: a screen reader's focus is on that option and moves as Up / Down move
/// the choice ("body, 2 of 5"). `list` is the `Ui` the options were drawn in.
pub fn pick_list(
    ui: &egui::Ui,
    list: egui::Id,
    name: &str,
    field: egui::Id,
    (options, choice): (&[egui::Id], usize),
) {
    let ctx = ui.ctx();
    let found = ctx.accesskit_node_builder(list, |node| {
        node.set_role(egui::accesskit::Role::ListBox);
        node.set_label(name);
    });
    if found.is_none() {
        return;
    }
    for (k, option) in options.iter().enumerate() {
        ctx.accesskit_node_builder(*option, |node| {
            node.set_role(egui::accesskit::Role::ListBoxOption);
            node.clear_toggled();
            node.set_selected(k == choice);
            node.set_position_in_set(k);
            node.set_size_of_set(options.len());
        });
    }
    if let Some(active) = options.get(choice) {
        ctx.accesskit_node_builder(field, |node| {
            node.set_active_descendant(active.accesskit_id())
        });
    }
}

/// Read the `Ui` a paragraph was drawn in as one label holding `text` whole (call after
/// drawing it: its bounds are where it was drawn).
pub fn paragraph(ui: &egui::Ui, text: &str) {
    let rect = ui.min_rect();
    let ppp = f64::from(ui.ctx().pixels_per_point());
    ui.ctx().accesskit_node_builder(ui.unique_id(), |node| {
        // A label's text is its value in AccessKit, as egui's own labels have it.
        node.set_role(egui::accesskit::Role::Label);
        node.set_label(text);
        node.set_value(text);
        node.set_bounds(egui::accesskit::Rect {
            x0: f64::from(rect.min.x) * ppp,
            y0: f64::from(rect.min.y) * ppp,
            x1: f64::from(rect.max.x) * ppp,
            y1: f64::from(rect.max.y) * ppp,
        });
    });
}

/// Keep a widget from screen readers (a piece of a paragraph read whole by [`paragraph`]).
pub fn hide(ctx: &egui::Context, response: &egui::Response) {
    ctx.accesskit_node_builder(response.id, |node| node.set_hidden());
}

/// A menu entry that toggles, read as a check menu item named `name`, checked when `on`.
pub fn check_item(ui: &egui::Ui, response: &egui::Response, name: &str, on: bool) {
    use egui::accesskit::{Role, Toggled};
    ui.ctx().accesskit_node_builder(response.id, |node| {
        node.set_role(Role::MenuItemCheckBox);
        node.set_label(name);
        node.set_toggled(if on { Toggled::True } else { Toggled::False });
    });
}

/// A header that shows or hides a section, read as a button named `name` that is expanded or
/// collapsed (not a toggle "not pressed" while open): AT-SPI's expandable and expanded states
/// (graft's patched accesskit_atspi_common, `vendor/accesskit_atspi_common/PATCH.md`).
pub fn disclosure(ui: &egui::Ui, response: &egui::Response, name: &str, open: bool) {
    ui.ctx().accesskit_node_builder(response.id, |node| {
        node.set_label(name);
        node.clear_toggled();
        node.set_expanded(open);
    });
}
