//! Help ▸ Lessons…: the built-in course and the lesson files opened before, each with its
//! progress, its `about:` and its introduction; a lesson file is picked in a dialog titled and
//! filtered for lessons.

use crate::app::frame::{CommandSender, FrameContext};
use crate::editor::lesson::Lesson;
use crate::editor::lesson::course::COURSE;
use crate::editor::session::command::{Command, Window, WindowCommand};
use crate::editor::session::lesson::{LessonCommand, LessonSource, read_lesson};
use std::path::PathBuf;

/// Help ▸ Lessons….
pub fn lessons_window(ctx: &egui::Context, fx: &FrameContext, out: &CommandSender) {
    let mut chosen = None;
    let files = lesson_files(ctx, fx);
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
                for (path, lesson) in &files {
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

/// The lesson files among the recent files, read once per window opening (kept in egui's
/// memory while the window is open).
fn lesson_files(ctx: &egui::Context, fx: &FrameContext) -> Vec<(PathBuf, Lesson)> {
    let id = egui::Id::unique("graft-lesson-files");
    let recent: Vec<PathBuf> = fx.recent.to_vec();
    let cached: Option<Cached> = ctx.data(|d| d.get_temp(id));
    if let Some((paths, files)) = cached.filter(|(paths, _)| *paths == recent) {
        let _ = paths;
        return files;
    }
    let files: Vec<(PathBuf, Lesson)> = recent
        .iter()
        .filter(|p| crate::model::file_kind::FileKind::Lesson.is(p))
        .filter_map(|p| Some((p.clone(), read_lesson(&LessonSource::File(p.clone())).ok()?)))
        .collect();
    ctx.data_mut(|d| d.insert_temp(id, (recent, files.clone())));
    files
}
