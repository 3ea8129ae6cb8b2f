//! One table of file kinds (issue 47.4): every dialog's filters, every typed-path prompt and the
//! session's reading of a picked path agree, because all come from `model::file_kind`.

use graft::editor::session::command::{Command, Effect, FileCommand};
use graft::editor::session::dialogs::DialogOutcome;
use graft::editor::session::{DialogPurpose, Editor, FileAction};
use graft::model::document::Document;
use graft::model::file_kind::{FileKind, KINDS, prompt_words};
use graft::model::scene::NodeId;

fn purposes() -> Vec<DialogPurpose> {
    vec![
        DialogPurpose::Open,
        DialogPurpose::OpenLesson,
        DialogPurpose::SaveLesson,
        DialogPurpose::Import,
        DialogPurpose::ExportGodot,
        DialogPurpose::ExportGodot3,
        DialogPurpose::ExportSvg,
        DialogPurpose::ExportAnimation,
        DialogPurpose::ExportFigure,
        DialogPurpose::SaveAs { then: None },
        DialogPurpose::SaveAs {
            then: Some(FileAction::New),
        },
        DialogPurpose::ChooseImage { node: NodeId(1) },
        DialogPurpose::InstanceScene { under: None },
        DialogPurpose::SaveBranch { node: NodeId(1) },
        DialogPurpose::ExportProgress,
    ]
}

#[test]
fn every_prompt_names_each_kind_its_purpose_takes() {
    for purpose in purposes() {
        let prompt = purpose.prompt();
        assert!(prompt.ends_with(&prompt_words(purpose.kinds())), "{prompt}");
        for kind in purpose.kinds() {
            let ext = format!(".{}", kind.extensions()[0]);
            assert!(prompt.contains(&ext), "{prompt} lacks {ext}");
        }
    }
    // What the prompts said wrongly before the table: gif and png export animation, and a
    // sprite takes jpg and webp too.
    let animation = DialogPurpose::ExportAnimation.prompt();
    assert_eq!(
        animation,
        "Export animation: type a .svg, .html, .gif or .png path"
    );
    let image = DialogPurpose::ChooseImage { node: NodeId(1) }.prompt();
    assert_eq!(image, "Choose image: type a .png, .jpg or .webp path");
}

#[test]
fn the_native_dialog_offers_exactly_what_its_purpose_takes() {
    // Each command that asks for a file, and the purpose its dialog is for.
    let asks = [
        (Command::File(FileCommand::Open), DialogPurpose::Open),
        (Command::File(FileCommand::Import), DialogPurpose::Import),
        (
            Command::File(FileCommand::SaveAs),
            DialogPurpose::SaveAs { then: None },
        ),
        (
            Command::File(FileCommand::ExportSvg),
            DialogPurpose::ExportSvg,
        ),
        (
            Command::File(FileCommand::ExportAnimation),
            DialogPurpose::ExportAnimation,
        ),
    ];
    for (command, purpose) in asks {
        let mut editor = Editor::new(Document::sample());
        let outcome = editor.apply(command.clone()).expect("asks");
        let kind = outcome
            .effects
            .iter()
            .find_map(|e| match e {
                Effect::ShowDialog(kind) => Some(kind.clone()),
                _ => None,
            })
            .unwrap_or_else(|| panic!("{command:?} shows no dialog: {outcome:?}"));
        assert_eq!(kind.kinds(), purpose.kinds(), "{command:?}");
        editor
            .apply(Command::File(FileCommand::DialogClosed(
                DialogOutcome::Cancelled,
            )))
            .expect("cancel");
    }
}

#[test]
fn a_path_is_read_by_its_extension_in_any_case_through_the_one_table() {
    for row in &KINDS {
        for ext in row.extensions {
            let upper = format!("x.{}", ext.to_uppercase());
            assert_eq!(FileKind::of(std::path::Path::new(&upper)), Some(row.kind));
        }
    }
    assert!(graft::editor::session::interchange::is_godot_scene(
        std::path::Path::new("a.SCN")
    ));
    assert!(graft::editor::session::interchange::is_svg(
        std::path::Path::new("d.Svg")
    ));
}
