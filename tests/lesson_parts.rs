//! Lessons about parts (issue 48): `do: instance sample NAME under NODE [as NEW]`,
//! `do: edit sample NAME set NODE …` and `do: revert NODE`; names of nodes inside instances
//! as paths (`"front/wheel/spoke"`); the session's parts folder, made on first use and removed
//! with the session; bad lines refused at their place.

use graft::editor::lesson::parse::parse;
use graft::editor::session::Editor;
use graft::editor::session::lesson_check::walk_lesson;
use graft::model::document::Document;
use std::path::Path;

const HEAD: &str = "graft lesson 1\ntitle: T\nstep: S\nscene:\n```\n(format: 1, nodes: [(id: 1, name: \"body\"), (id: 2, name: \"front\", parent: Some(1))])\n```\n";

#[test]
fn a_bad_sample_or_a_missing_word_is_refused_at_its_place() {
    let cases = [
        (
            "goal: front exists\ndo: instance sample wheeel under front\n",
            "x.lesson:9:21: expected a sample scene: `sword`",
        ),
        (
            "goal: front exists\ndo: instance wheel under front\n",
            "x.lesson:9:14: expected `sample`",
        ),
        (
            "goal: front exists\ndo: edit sample wheel spoke local scale (2, 1)\n",
            "x.lesson:9:23: expected `set`",
        ),
        (
            "goal: front exists\ndo: revert\n",
            "x.lesson:9:11: expected a node's name",
        ),
    ];
    for (k, (tail, expected)) in cases.iter().enumerate() {
        let error = parse(&format!("{HEAD}{tail}"), Path::new("x.lesson"))
            .expect_err(&format!("case {k} refused"));
        assert!(
            error.to_string().starts_with(expected),
            "case {k}: `{error}` should start with `{expected}`"
        );
    }
}

#[test]
fn a_lesson_instances_a_part_overrides_changes_and_reverts_it() {
    let text = format!(
        "{HEAD}goal: \"front/wheel\" parent is front\n\
         do: instance sample wheel under front\n\
         step: T\n\
         goal: \"front/wheel/spoke\" local rotation is 30\n\
         do: set \"front/wheel/spoke\" local rotation 30\n\
         step: U\n\
         goal: \"front/wheel/spoke\" local scale is (2, 1)\n\
         keep: \"front/wheel/spoke\" local rotation is 30\n\
         do: edit sample wheel set spoke local scale (2, 1)\n\
         step: V\n\
         goal: \"front/wheel/spoke\" local rotation is 0\n\
         do: revert \"front/wheel/spoke\"\n"
    );
    let lesson = parse(&text, Path::new("x.lesson")).expect("parses");
    let (_, failures) = walk_lesson(&lesson).expect("plays");
    assert!(failures.is_empty(), "{failures:?}");
}

#[test]
fn a_part_that_lacks_the_node_an_edit_names_is_refused_at_the_name() {
    let text = format!(
        "{HEAD}goal: \"front/wheel\" parent is front\n\
         do: instance sample wheel under front\n\
         do: edit sample wheel set tyre local scale (2, 1)\n"
    );
    let lesson = parse(&text, Path::new("x.lesson")).expect("parses");
    let error = walk_lesson(&lesson).expect_err("refused");
    assert!(
        error
            .to_string()
            .contains("x.lesson:10:27: the part wheel has 0 nodes called `tyre`"),
        "{error}"
    );
}

#[test]
fn the_parts_folder_is_the_sessions_own_and_goes_with_it() {
    let first = Editor::new(Document::sample());
    let second = Editor::new(Document::sample());
    let a = first.lesson_part("wheel").expect("a part");
    let b = second.lesson_part("wheel").expect("a part");
    assert_ne!(a.parent(), b.parent(), "each session its own folder");
    assert!(std::fs::read_to_string(&a).unwrap().contains("spoke"));
    std::fs::write(&a, "edited").unwrap();
    assert_eq!(
        std::fs::read_to_string(first.lesson_part("wheel").unwrap()).unwrap(),
        "edited",
        "written once: an edit stays"
    );
    drop(first);
    assert!(
        !a.exists() && a.parent().is_some_and(|d| !d.exists()),
        "removed"
    );
    assert!(b.exists());
}
