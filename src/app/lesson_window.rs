//! Help ▸ Lessons…: the built-in course and the lesson files opened before, each with its
//! progress, its `about:` and its introduction; a lesson file is picked in a dialog titled and
//! filtered for lessons.

use crate::app::frame::{CommandSender, FrameContext};
use crate::editor::lesson::Lesson;
use crate::editor::lesson::course::COURSE;
use crate::editor::session::command::{Command, Window, WindowCommand};
use crate::editor::session::lesson::{LessonCommand, LessonSource, read_lesson};
use std::path::PathBuf;

/// Help ▸ Lessons… and what it keeps between frames: the lesson files among the recent files,
/// read once for the recent files they came from (owned by the app's windows).
#[derive(Default)]
pub struct LessonsWindow {
    files: Option<Cached>,
}

impl LessonsWindow {
    /// Draw the window; what it asks for is sent.
    pub fn show(&mut self, ctx: &egui::Context, fx: &FrameContext) {
        let files = self.lesson_files(fx);
        lessons_window(ctx, fx, files, fx.wiring.sender);
    }

    /// The lesson files among the recent files, read again only when those changed.
    fn lesson_files(&mut self, fx: &FrameContext) -> &[(PathBuf, Lesson)] {
        let read = self
            .files
            .as_ref()
            .is_some_and(|(paths, _)| paths == fx.recent);
        if !read {
            let files = (fx.recent.iter())
                .filter(|p| crate::model::file_kind::FileKind::Lesson.is(p))
                .filter_map(|p| {
                    Some((p.clone(), read_lesson(&LessonSource::File(p.clone())).ok()?))
                })
                .collect();
            self.files = Some((fx.recent.to_vec(), files));
        }
        self.files
            .as_ref()
            .map_or(&[], |(_, files)| files.as_slice())
    }
}

/// Help ▸ Lessons…: the course, then the lesson `files` read from the recent files.
fn lessons_window(
    ctx: &egui::Context,
    fx: &FrameContext,
    files: &[(PathBuf, Lesson)],
    out: &CommandSender,
) {
    let mut chosen = None;
    let closed = super::windows::closable(ctx, "Lessons", Window::Lessons, |ui| {
        ui.label("Short lessons on local and world space: each step has tasks the editor checks as you work.");
        ui.add_space(4.0);
        egui::ScrollArea::vertical()
            .max_height(520.0)
            .show(ui, |ui| {
                for k in 0..COURSE.len() {
                    if let Some(lesson) = crate::editor::lesson::course::builtin(k) {
                        let label = format!("{}. {}", k + 1, lesson.title);
                        if entry(ui, fx, lesson, label) {
                            chosen = Some(LessonSource::Builtin(k));
                        }
                    }
                }
                if !files.is_empty() {
                    ui.separator();
                    ui.strong("Lesson files");
                }
                for (path, lesson) in files {
                    let label = format!("{} ({})", lesson.title, path.display());
                    if entry(ui, fx, lesson, label) {
                        chosen = Some(LessonSource::File(path.clone()));
                    }
                }
                crate::app::a11y::scroll_focus_into_view(ui);
            });
        ui.add_space(4.0);
        if ui
            .button("Open a lesson file…")
            .on_hover_text("A .lesson file (docs/lesson-format.md); File > Open takes them too")
            .clicked()
        {
            out.send(Command::Window(WindowCommand::Close(Window::Lessons)));
            out.send(Command::Lesson(LessonCommand::OpenFile));
        }
    });
    if let Some(source) = chosen {
        out.send(Command::Window(WindowCommand::Close(Window::Lessons)));
        out.send(Command::Lesson(LessonCommand::Open(source)));
    }
    out.send_all(closed);
}

/// One lesson: its button and progress, its `about:`, its introduction folded. True when its
/// button was clicked.
fn entry(ui: &mut egui::Ui, fx: &FrameContext, lesson: &Lesson, label: String) -> bool {
    let mut clicked = false;
    ui.horizontal(|ui| {
        clicked = ui.button(label).on_hover_text(&lesson.about).clicked();
        let done = fx.lesson_progress.count(&lesson.id);
        ui.label(format!("{done}/{} steps", lesson.steps.len()));
    });
    if !lesson.about.is_empty() {
        ui.label(egui::RichText::new(&lesson.about).small());
    }
    if !lesson.intro.is_empty() {
        let id = ui.make_persistent_id(("lesson-intro", &lesson.path));
        let shown = egui::CollapsingHeader::new("Introduction")
            .id_salt(id)
            .show(ui, |ui| {
                for paragraph in &lesson.intro {
                    ui.label(crate::editor::lesson::text::plain(paragraph));
                }
            });
        // Nine "Introduction" headers told apart by ear, open or closed.
        let name = format!("Introduction to {}", lesson.title);
        let open = shown.body_response.is_some();
        crate::app::a11y::disclosure(ui, &shown.header_response, &name, open);
    }
    ui.add_space(6.0);
    clicked
}

/// The recent files and the lessons read from them.
type Cached = (Vec<PathBuf>, Vec<(PathBuf, Lesson)>);
