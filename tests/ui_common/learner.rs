//! A scripted learner for the lesson tests: opens lessons through Help ▸ Lessons…, performs
//! gestures the way a person would (pointer events on the widgets' rectangles, key presses,
//! typed text), and checks at each step start that the step's nodes are in the viewport.
//! Included with `#[path]` by the tests that need it (not by `ui_common/mod.rs`).
#![allow(dead_code)]

use crate::ui_common::{on_screen, type_number, view};
use egui::accesskit::Role;
use egui::{Key, Modifiers, Pos2, Rect};
use egui_kittest::Harness;
use egui_kittest::kittest::{By, NodeT, Queryable};
use graft::app::GraftApp;
use graft::app::dialogs::FakeDialogs;
use graft::editor::lesson::predict::Value;
use graft::editor::lesson::text::linked_names;
use graft::editor::session::lesson::LessonRun;
use graft::editor::view::geometry::in_view;
use graft::model::scene::NodeId;

/// One thing a learner does with the pointer or the keyboard.
#[derive(Clone, Debug)]
pub enum Gesture {
    /// Click a node's row in the hierarchy.
    Row(&'static str),
    /// Drag a node's row onto another node's row.
    DragRow(&'static str, &'static str),
    /// Drag a node's row onto the empty space below the hierarchy's rows.
    DragRowBelow(&'static str),
    /// Click a number field (named as a screen reader names it), type a number, press Enter.
    /// The text's `{…}` placeholders are the lesson's numbers for this learner (`{reach}`,
    /// `{stretched.scale.x}`), read from the running lesson as its own lines read them.
    Field(&'static str, &'static str),
    /// Open a menu of the menu bar and click the item whose label contains the text.
    Menu(&'static str, &'static str),
    /// Click the button with this label.
    Button(&'static str),
    /// Click the check box with this label.
    Check(&'static str),
    /// Press a key.
    Press(Modifiers, Key),
    /// Click a node's name where the lesson's text links to it.
    Link(&'static str),
    /// Drag a node in the viewport from its origin by this many points (right, down).
    DragNode(&'static str, f32, f32),
    /// Click in the viewport at this point of the node's space (Place probes is on), then type
    /// the point into the new probe's own fields in the inspector.
    ProbeAt(&'static str, f32, f32),
    /// Type a prediction into the predict box's field, press Enter (placeholders as `Field`).
    PredictTyped(&'static str),
    /// Type the step's true answer, as the lesson computed it for this learner's numbers.
    AnswerTyped,
    /// Press **Click in the viewport**, then click where the step's true answer is.
    AnswerClicked,
    /// Drop a lesson's part file (a sample's name) from the file manager on a node's row.
    DropPart(&'static str, &'static str),
    /// Another program saves a lesson's part with this text replaced; the window's disk watch
    /// looks at it (every 2 s).
    SavePart(&'static str, &'static str, &'static str),
}

/// A file dropped on the window, as the windowing integration hands it to egui.
#[derive(Debug)]
struct Dropped(std::path::PathBuf);

impl egui::DroppedFile for Dropped {
    fn path(&self) -> &std::path::Path {
        &self.0
    }
    fn bytes(&self) -> Result<Vec<u8>, String> {
        std::fs::read(&self.0).map_err(|e| e.to_string())
    }
}

/// The app in a window of this size, a few frames in (seed 0: the lessons' own numbers).
pub fn app_at(size: egui::Vec2) -> Harness<'static, GraftApp> {
    let mut h = Harness::builder()
        .with_size(size)
        .build_eframe(|cc| GraftApp::new(cc, None, Box::new(FakeDialogs::default())));
    h.run_steps(3);
    h
}

/// The app in a window of this size for a learner whose progress holds this seed: the
/// lessons' `vary:` lines draw that learner's numbers.
pub fn app_seeded(size: egui::Vec2, seed: u64) -> Harness<'static, GraftApp> {
    use graft::editor::lesson::progress::CourseProgress;
    let progress = CourseProgress::default().with_seed(seed);
    let editor = graft::editor::session::Editor::new(graft::model::document::Document::sample())
        .with_lesson_progress(progress);
    let mut h = Harness::builder()
        .with_size(size)
        .build_eframe(move |_| GraftApp::with_editor(editor, Box::new(FakeDialogs::default())));
    h.run_steps(3);
    h
}

/// A learner at the app.
pub struct Learner<'h> {
    /// The app.
    pub h: &'h mut Harness<'static, GraftApp>,
}

impl<'h> Learner<'h> {
    /// A learner at this app.
    pub fn new(h: &'h mut Harness<'static, GraftApp>) -> Self {
        Self { h }
    }

    /// The open lesson.
    pub fn run(&self) -> &LessonRun {
        self.h.state().editor().lesson().expect("a lesson is open")
    }

    /// Let the app draw a few frames.
    pub fn frames(&mut self, n: usize) {
        self.h.run_steps(n);
    }

    /// The rectangle of the one widget with exactly this label (the topmost if several).
    pub fn widget(&self, label: &str) -> Rect {
        self.h
            .query_all_by_label(label)
            .map(|n| n.rect())
            .min_by(|a, b| a.top().total_cmp(&b.top()))
            .unwrap_or_else(|| panic!("no widget labelled {label:?}"))
    }

    /// A node's row in the hierarchy: the leftmost widget with its name (the lesson's text
    /// links to nodes too).
    pub fn row(&self, name: &str) -> Rect {
        self.h
            .query_all(By::new().label(name).role(Role::TreeItem))
            .map(|n| n.rect())
            .min_by(|a, b| a.left().total_cmp(&b.left()))
            .unwrap_or_else(|| panic!("no hierarchy row for {name:?}"))
    }

    /// A click at a point: move there, press, release.
    pub fn click_at(&mut self, p: Pos2) {
        self.h.hover_at(p);
        self.frames(1);
        self.h.drag_at(p);
        self.frames(1);
        self.h.drop_at(p);
        self.frames(3);
    }

    /// Click the widget labelled exactly `label`.
    pub fn click(&mut self, label: &str) {
        let r = self.widget(label);
        self.click_at(r.center());
    }

    /// Click the widget of this role labelled exactly `label` (text that names a button is not
    /// the button).
    pub fn click_role(&mut self, role: Role, label: &str) {
        let r = self
            .h
            .query_all(By::new().label(label).role(role))
            .map(|n| n.rect())
            .next()
            .unwrap_or_else(|| panic!("no {role:?} labelled {label:?}"));
        let r = self.scrolled_into_view(r, By::new().label(label).role(role));
        self.click_at(r.center());
    }

    /// A widget below the timeline's top (the side panels' visible bottom) is scrolled up by
    /// the wheel over it, as a learner would, until it shows; its rect then.
    fn scrolled_into_view(&mut self, mut r: Rect, by: By<'_>) -> Rect {
        for _ in 0..10 {
            let bottom = self.h.state().viewport.last_rect.max.y;
            if r.max.y <= bottom {
                break;
            }
            self.wheel_at(egui::pos2(r.center().x, bottom - 40.0), -100.0);
            r = self
                .h
                .query_all(by.clone())
                .map(|n| n.rect())
                .next()
                .unwrap_or(r);
        }
        r
    }

    /// Press a key (with modifiers).
    pub fn press(&mut self, modifiers: Modifiers, key: Key) {
        self.h.key_press_modifiers(modifiers, key);
        self.frames(3);
    }

    /// A drag with the pointer from one point to another, in small moves.
    pub fn drag(&mut self, from: Pos2, to: Pos2) {
        self.h.hover_at(from);
        self.frames(1);
        self.h.drag_at(from);
        self.frames(2);
        for k in 1..=6 {
            self.h.hover_at(from + (to - from) * (k as f32 / 6.0));
            self.frames(1);
        }
        self.h.drop_at(to);
        self.frames(4);
    }

    /// Open a menu of the menu bar and click an item; a toggle leaves the menu open, so close
    /// it with Escape.
    pub fn menu(&mut self, menu: &str, item: &str) {
        self.click(menu);
        // An item of a submenu (View > Overlays > …): open the submenu first.
        if let Some(submenu) = graft::editor::vocabulary::submenu_of(menu, item) {
            // The submenu's button (a lesson may share its word: lesson 08 is "Spaces").
            let button = (self.h.query_all(By::new().label(submenu)))
                .filter(|n| n.accesskit_node().role() != Role::Label)
                .map(|n| n.rect())
                .next_back()
                .unwrap_or_else(|| panic!("no submenu {submenu:?}"));
            self.h.hover_at(button.center());
            self.h.run_steps(4);
        }
        // The shortest label that contains the item: "View from the selection", not "View
        // from the selection's parent"; a toggle is a check item.
        let entry = self
            .h
            .query_all_by_label_contains(item)
            .filter(|n| {
                matches!(
                    n.accesskit_node().role(),
                    Role::Button | Role::MenuItemCheckBox
                )
            })
            .min_by_key(|n| n.accesskit_node().label().map_or(usize::MAX, |l| l.len()))
            .map(|n| n.rect())
            .unwrap_or_else(|| panic!("no item {item:?} in the {menu} menu"));
        self.click_at(entry.center());
        if self.h.query_all_by_label_contains(item).next().is_some() {
            self.press(Modifiers::NONE, Key::Escape);
        }
    }

    /// Perform one gesture.
    pub fn perform(&mut self, gesture: &Gesture) {
        match *gesture {
            Gesture::Row(name) => {
                let r = self.row(name);
                self.click_at(r.center());
            }
            Gesture::DragRow(from, to) => {
                let (a, b) = (self.row(from), self.row(to));
                self.drag(a.center(), b.center());
            }
            Gesture::DragRowBelow(name) => {
                let below = self.below_rows();
                let r = self.row(name);
                self.drag(r.center(), below);
            }
            Gesture::Field(label, text) => {
                let text = self.resolve(text);
                let r = self.widget(label);
                type_number(self.h, r, &text);
            }
            Gesture::Menu(menu, item) => self.menu(menu, item),
            Gesture::Button(label) => self.click_role(Role::Button, label),
            Gesture::Check(label) => self.click_role(Role::CheckBox, label),
            Gesture::Press(modifiers, key) => self.press(modifiers, key),
            Gesture::ProbeAt(node, x, y) => self.probe_at(node, glam::vec2(x, y)),
            Gesture::Link(name) => self.click_role(Role::Link, name),
            Gesture::PredictTyped(text) => self.predict_typed(&self.resolve(text)),
            Gesture::AnswerTyped => self.predict_typed(&typed(self.answer())),
            Gesture::AnswerClicked => {
                let Value::Vector(p) = self.answer() else {
                    panic!("a click answers a position, not {:?}", self.answer());
                };
                self.predict_click(self.run().truth().expect("a truth").to_world(p));
            }
            Gesture::DragNode(node, dx, dy) => {
                let from = self.node_on_screen(node);
                self.drag(from, from + egui::vec2(dx, dy));
            }
            Gesture::DropPart(row, sample) => self.drop_part(row, sample),
            Gesture::SavePart(sample, from, to) => {
                let file = self.h.state().editor().lesson_part(sample).expect("a part");
                let text = std::fs::read_to_string(&file).expect("the part reads");
                assert!(text.contains(from), "{from} is not in the part: {text}");
                std::fs::write(&file, text.replace(from, to)).expect("the part is saved");
                std::thread::sleep(graft::editor::session::disk_watch::WATCH_FILE_EVERY);
                std::thread::sleep(std::time::Duration::from_millis(100));
                self.frames(3);
            }
        }
    }

    /// A number of the lesson as this learner has it: a `vary:` variable, a node's value now
    /// (`stretched.scale.x`, `world(sword).x`), or sums and products of them.
    pub fn number(&self, expr: &str) -> f64 {
        use graft::editor::lesson::vary::{Target, Variables, evaluate, lookup};
        let mut variables = Variables::new();
        for vary in self.run().lesson().steps.iter().flat_map(|s| &s.vary) {
            if let (Target::Var(name), Some(v)) = (&vary.target, vary.value) {
                variables.insert(name.clone(), f64::from(v));
            }
        }
        let scene = self.h.state().scene();
        evaluate(expr, &|a| lookup(a, &variables, scene))
            .unwrap_or_else(|| panic!("{{{expr}}} names no number of the lesson"))
    }

    /// The text with each `{…}` replaced by [`Self::number`], as the inspector shows numbers.
    pub fn resolve(&self, text: &str) -> String {
        let mut out = String::new();
        let mut rest = text;
        while let Some(open) = rest.find('{') {
            let close = open + rest[open..].find('}').expect("a closed placeholder");
            out.push_str(&rest[..open]);
            let v = self.number(&rest[open + 1..close]);
            out.push_str(&graft::editor::view::numbers::format_display(v));
            rest = &rest[close + 1..];
        }
        out + rest
    }

    /// The step's true answer for this learner's numbers.
    pub fn answer(&self) -> Value {
        self.run().truth().expect("a predict step's truth").answer
    }

    /// Type a prediction into the predict box and press Enter: it is committed.
    pub fn predict_typed(&mut self, text: &str) {
        let field = self.widget("Your prediction");
        type_number(self.h, field, text);
        assert!(self.run().prediction().is_some(), "{text:?} committed");
    }

    /// **Click in the viewport**, then a click at the world point `p` (inside the viewport):
    /// it is committed.
    pub fn predict_click(&mut self, p: glam::Vec2) {
        self.click_role(Role::Button, "Click in the viewport");
        assert!(
            self.run().predicting_by_click(),
            "the viewport waits for a click"
        );
        let at = on_screen(self.h, p);
        assert!(
            self.h.state().viewport.last_rect.contains(at),
            "{p} is drawn at {at:?}, out of the viewport"
        );
        self.click_at(at);
        assert!(self.run().prediction().is_some(), "the click committed {p}");
    }

    /// Drop the part's file on the row, as from a file manager.
    fn drop_part(&mut self, row: &str, sample: &str) {
        let file = self.h.state().editor().lesson_part(sample).expect("a part");
        let r = self.row(row);
        self.h.hover_at(r.center());
        self.frames(1);
        self.h.input_mut().hovered_files.push(egui::HoveredFile {
            path: Some(file.clone()),
            ..Default::default()
        });
        self.frames(1);
        let dropped = std::sync::Arc::new(Dropped(file));
        self.h.input_mut().dropped_files.push(dropped);
        self.frames(3);
    }

    /// A point of the hierarchy's empty space, below its last row.
    fn below_rows(&self) -> Pos2 {
        let rows: Vec<Rect> = self
            .h
            .query_all(By::new().role(Role::TreeItem))
            .map(|n| n.rect())
            .collect();
        let bottom = rows.iter().map(|r| r.bottom()).fold(0.0, f32::max);
        let x = rows
            .iter()
            .map(|r| r.center().x)
            .fold(f32::INFINITY, f32::min);
        Pos2::new(x, bottom + 40.0)
    }

    /// Where a node's origin is on screen.
    fn node_on_screen(&self, node: &str) -> Pos2 {
        let scene = self.h.state().scene();
        let id = (self.run().resolve(scene, node)).unwrap_or_else(|| panic!("no node {node}"));
        on_screen(self.h, scene.world(id).expect("a node").translation)
    }

    /// Click in the viewport on the node (Place probes must be on), then type `local` into the
    /// new probe's own fields (the point itself may lie outside the view).
    fn probe_at(&mut self, node: &str, local: glam::Vec2) {
        let p = self.node_on_screen(node);
        let before = self.probe_count();
        self.click_at(p);
        assert_eq!(self.probe_count(), before + 1, "the click pinned a probe");
        let own = self.widget(&format!("in {node} (own)"));
        let mut fields: Vec<Rect> = self
            .h
            .query_all_by_role(Role::SpinButton)
            .map(|n| n.rect())
            .filter(|r| (r.center().y - own.center().y).abs() < 4.0)
            .collect();
        fields.sort_by(|a, b| a.left().total_cmp(&b.left()));
        assert_eq!(fields.len(), 2, "the probe's own x and y fields");
        type_number(self.h, fields[0], &local.x.to_string());
        let fields_y = fields[1];
        type_number(self.h, fields_y, &local.y.to_string());
    }

    fn probe_count(&self) -> usize {
        self.h.state().editor().probe_readings().len()
    }

    /// Help ▸ Lessons…, then the `k`-th lesson of the course (1-based); it opens on its
    /// introduction.
    pub fn open_from_help_menu(&mut self, k: usize) {
        self.menu("Help", "Lessons…");
        // The list scrolls: turn the wheel over it until the entry is above the button below
        // the list.
        let below = self.widget("Open a lesson file…");
        let over_list = below.center_top() - egui::vec2(0.0, 60.0);
        let mut entry = self.lesson_entry(k);
        for _ in 0..20 {
            if entry.bottom() <= below.top() {
                break;
            }
            self.wheel_at(over_list, -60.0);
            entry = self.lesson_entry(k);
        }
        self.click_at(entry.center());
        self.frames(3);
        self.discard_if_asked();
        assert!(
            self.run().showing_intro(),
            "a lesson opens on its introduction"
        );
    }

    /// The button of the `k`-th lesson (1-based) in Help ▸ Lessons….
    fn lesson_entry(&self, k: usize) -> Rect {
        self.h
            .query_all(By::new().role(Role::Button))
            .filter(|n| {
                let label = n.accesskit_node().label().unwrap_or_default();
                label.starts_with(&format!("{k}. "))
            })
            .map(|n| n.rect())
            .next()
            .unwrap_or_else(|| panic!("lesson {k} in Help > Lessons…"))
    }

    /// Turn the mouse wheel with the pointer over `p` (a negative `dy` scrolls down).
    pub fn wheel_at(&mut self, p: Pos2, dy: f32) {
        self.h.hover_at(p);
        self.frames(1);
        self.h.event(egui::Event::MouseWheel {
            unit: egui::MouseWheelUnit::Point,
            delta: egui::vec2(0.0, dy),
            phase: egui::TouchPhase::Move,
            source: egui::MouseWheelSource::Unknown,
            modifiers: Modifiers::NONE,
        });
        self.frames(6);
    }

    /// Leave the introduction: Start step 1.
    pub fn start(&mut self) {
        self.click("Start step 1 ⏵");
        self.frames(4);
        assert!(!self.run().showing_intro());
        assert_eq!(self.run().step_index(), 0);
    }

    /// Every goal and keep of the step holds.
    pub fn step_done(&self) -> bool {
        self.run().step_done()
    }

    /// The Next (or Finish) button can be pressed.
    pub fn next_enabled(&self) -> bool {
        let last = self.run().step_index() + 1 == self.run().lesson().steps.len();
        let label = if last { "Finish ✔" } else { "Next ⏵" };
        !self.h.get_by_label(label).accesskit_node().is_disabled()
    }

    /// The nodes the step names, read from the lesson here rather than asked of the app: its
    /// text's `[links]`, every node its goals and keeps name, and the selection.
    pub fn named_nodes(&self) -> Vec<NodeId> {
        let run = self.run();
        let scene = self.h.state().scene();
        let mut names: Vec<String> = run
            .step()
            .text
            .iter()
            .flat_map(|p| linked_names(p))
            .collect();
        for (goal, _) in run.checklist() {
            names.extend(words(&goal.check));
        }
        let mut ids: Vec<NodeId> = names.iter().filter_map(|n| run.resolve(scene, n)).collect();
        ids.extend_from_slice(self.h.state().selection());
        ids.sort_unstable();
        ids.dedup();
        ids
    }

    /// Every node the step names (as [`Self::named_nodes`] reads them, and as the app's
    /// subject has them) is inside the viewport's rectangle: its bounds and its origin. How
    /// many nodes that is.
    pub fn assert_subject_in_view(&self, what: &str) -> usize {
        let app = self.h.state();
        let v = &app.viewport;
        let mut nodes = self.run().subject(app.editor());
        nodes.extend(self.named_nodes());
        nodes.sort_unstable();
        nodes.dedup();
        assert!(
            in_view(v.camera, view(v.last_rect), app.scene(), &nodes),
            "{what}: {nodes:?} not all inside the viewport {:?}",
            v.last_rect
        );
        for &id in &nodes {
            let origin = app.scene().world(id).expect("a node").translation;
            let p = on_screen(self.h, origin);
            assert!(
                v.last_rect.contains(p),
                "{what}: node {id:?} at {p:?} out of view"
            );
        }
        nodes.len()
    }

    /// Start the open lesson and play each step's gestures, checking at its start that its
    /// nodes are in view and nothing is done yet, at its end that every goal is ticked, then
    /// Next (Finish on the last): the summary must show. Returns how many named nodes were
    /// checked in view.
    pub fn play(&mut self, title: &str, steps: &[&[Gesture]]) -> usize {
        let mut checked = 0;
        assert_eq!(self.run().lesson().title, title);
        self.start();
        for (s, gestures) in steps.iter().enumerate() {
            let what = format!("{title}, step {}", s + 1);
            assert_eq!(self.run().step_index(), s, "{what}");
            checked += self.solve_step(&what, gestures);
            let last = s + 1 == steps.len();
            self.click(if last { "Finish ✔" } else { "Next ⏵" });
            self.frames(6);
        }
        self.assert_summary(title, steps.len());
        checked
    }

    /// At the step's start (its nodes in view, nothing done), perform the gestures; then every
    /// goal must be ticked. How many named nodes were checked in view.
    pub fn solve_step(&mut self, what: &str, gestures: &[Gesture]) -> usize {
        assert_eq!(self.run().finished(), None, "{what}");
        let checked = self.assert_subject_in_view(what);
        assert!(!self.step_done(), "{what}: done before any gesture");
        for g in gestures {
            self.perform(g);
        }
        self.frames(3);
        self.assert_ticked(what);
        checked
    }

    /// Click the lesson panel's button of step `n` (1-based): the step starts afresh.
    pub fn go_to_step(&mut self, n: usize) {
        // Its text is the number; screen readers read "Step N: title".
        let (plain, named) = (n.to_string(), format!("Step {n}: "));
        let button = self
            .h
            .query_all(By::new().role(Role::Button))
            .find(|b| {
                let label = b.accesskit_node().label().unwrap_or_default();
                label == plain || label.starts_with(&named)
            })
            .map(|b| b.rect())
            .unwrap_or_else(|| panic!("no button of step {n}"));
        self.click_at(button.center());
        self.frames(4);
        assert_eq!(
            self.run().step_index() + 1,
            n,
            "the step's button goes to step {n}"
        );
    }

    /// Every goal and keep of the step holds, shown ticked, and Next is lit.
    pub fn assert_ticked(&self, what: &str) {
        let run = self.run();
        let checklist: Vec<(String, bool)> = run
            .checklist()
            .into_iter()
            .map(|(g, holds)| (g.label.clone(), holds))
            .collect();
        assert!(
            run.step_done(),
            "{what}: not every goal holds: {checklist:?}"
        );
        for (label, _) in &checklist {
            assert!(
                self.shown_ticked(label),
                "{what}: {label:?} not shown ticked"
            );
        }
        assert!(self.next_enabled(), "{what}: Next is lit");
    }

    /// The checklist line of this goal is drawn ticked: "☑ LABEL", or (for screen readers) a
    /// check box named LABEL that is checked.
    fn shown_ticked(&self, label: &str) -> bool {
        let ticked = format!("☑ {label}");
        self.h.query_all_by_label(&ticked).next().is_some()
            || self
                .h
                .query_all(By::new().label(label).role(Role::CheckBox))
                .any(|n| n.accesskit_node().toggled() == Some(egui::accesskit::Toggled::True))
    }

    /// The lesson's summary is shown: complete, every step done.
    fn assert_summary(&self, title: &str, steps: usize) {
        assert!(self.run().finished().is_some(), "{title}: finished");
        assert!(
            self.h.query_by_label("Lesson complete ✔").is_some(),
            "{title}: the summary"
        );
        let done = format!("Steps done: {steps} of {steps}");
        assert!(
            self.h.query_by_label_contains(&done).is_some(),
            "{title}: {done:?} in the summary"
        );
    }

    /// Answer the unsaved-changes prompt, if it shows, with its Discard button.
    fn discard_if_asked(&mut self) {
        if self.h.query_by_label("Discard").is_some() {
            self.click_role(Role::Button, "Discard");
        }
        self.frames(4);
    }

    /// The summary's "Next lesson: …" button, discarding the finished lesson's scene.
    pub fn next_lesson(&mut self) {
        let next = self
            .h
            .query_all_by_label_contains("Next lesson: ")
            .map(|n| n.rect())
            .next()
            .expect("the summary names the next lesson");
        self.click_at(next.center());
        self.frames(3);
        self.discard_if_asked();
        assert!(
            self.run().showing_intro(),
            "the next lesson opens on its introduction"
        );
    }
}

/// The words of a predicate as written, a quoted name as one word ("rotated child").
fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text.trim();
    while !rest.is_empty() {
        if let Some(quoted) = rest.strip_prefix('"') {
            let end = quoted.find('"').unwrap_or(quoted.len());
            out.push(quoted[..end].to_string());
            rest = quoted.get(end + 1..).unwrap_or("").trim_start();
        } else {
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            out.push(rest[..end].to_string());
            rest = rest[end..].trim_start();
        }
    }
    out
}

/// A value as a learner types it.
pub fn typed(v: Value) -> String {
    match v {
        Value::Vector(p) => format!("({}, {})", p.x, p.y),
        Value::Number(a) => format!("{a}"),
    }
}
