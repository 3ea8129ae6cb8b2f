//! Every menu fits the window (issue 44.3): at 1024×768 and 1280×800, at 100 %, 150 % and
//! 200 % interface scale, each menu of the menu bar and each of its submenus opens inside the
//! window, with every item on screen; an item moved into a submenu is still reached by the
//! keyboard alone, and a lesson pointing at it leads the learner there.

use egui::Rect;
use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use graft::app::GraftApp;
use graft::app::dialogs::FakeDialogs;
use graft::editor::session::command::{Command, ViewCommand, ViewOption};
use graft::editor::table::{MENUS, command_table};

fn app(width: f32, height: f32, scale: f32) -> Harness<'static, GraftApp> {
    let mut h = Harness::builder()
        .with_size(egui::vec2(width, height))
        .build_eframe(|cc| GraftApp::new(cc, None, Box::new(FakeDialogs::default())));
    h.run_steps(3);
    h.state_mut()
        .run(Command::View(ViewCommand::SetUiScale(scale)));
    h.run_steps(4);
    h
}

/// The window in points (at 150 % a 1024×768 window is 683×512 points).
fn window(h: &Harness<GraftApp>) -> Rect {
    h.ctx.content_rect()
}

/// The rects of the popups open now (menus and submenus).
fn popups(h: &Harness<GraftApp>) -> Vec<Rect> {
    h.ctx.memory(|m| {
        let layers = m.areas().visible_layer_ids();
        layers
            .into_iter()
            .filter(|l| l.order == egui::Order::Foreground)
            .filter_map(|l| m.area_rect(l.id))
            .collect()
    })
}

/// The entry whose label is `label` or holds it (a toggle is a check item named without its
/// check mark).
fn button_rect(h: &Harness<GraftApp>, label: &str) -> Option<Rect> {
    // The shortest label holding it: "View from the selection", not "… selection's parent";
    // a toggle's starts with its check mark, an entry's may end with its shortcut.
    let entry = |n: &egui_kittest::kittest::AccessKitNode<'_>| {
        matches!(n.role(), Role::Button | Role::MenuItemCheckBox)
    };
    let nodes = h.query_all(egui_kittest::kittest::By::new().predicate(entry));
    let holding = nodes.filter(|n| {
        n.accesskit_node()
            .label()
            .is_some_and(|l| l.contains(label))
    });
    holding
        .min_by_key(|n| n.accesskit_node().label().map_or(usize::MAX, |l| l.len()))
        .map(|n| n.rect())
}

/// Every item of `menu` (and of its submenus) lies inside the window when shown.
fn check_menu(h: &mut Harness<GraftApp>, menu: &str, size: &str) {
    let win = window(h);
    h.get_by_label(menu).click();
    h.run_steps(3);
    let inside = |r: Rect| win.expand(0.5).contains_rect(r);
    for popup in popups(h) {
        assert!(
            inside(popup),
            "{size}: the {menu} menu {popup:?} leaves {win:?}"
        );
    }
    let specs = command_table().iter().filter(|s| s.menu == Some(menu));
    let mut submenus: Vec<&str> = Vec::new();
    for spec in specs {
        match spec.submenu {
            None => {
                let item = button_rect(h, spec.label)
                    .unwrap_or_else(|| panic!("{size}: {menu} > {} not shown", spec.label));
                assert!(inside(item), "{size}: {menu} > {} at {item:?}", spec.label);
            }
            Some(s) if !submenus.contains(&s) => submenus.push(s),
            Some(_) => {}
        }
    }
    for submenu in submenus {
        let button = button_rect(h, submenu).expect("the submenu's button");
        assert!(inside(button), "{size}: {menu} > {submenu} at {button:?}");
        h.hover_at(button.center());
        h.run_steps(4);
        for popup in popups(h) {
            assert!(
                inside(popup),
                "{size}: {menu} > {submenu} {popup:?} leaves {win:?}"
            );
        }
        let items = command_table()
            .iter()
            .filter(|s| s.submenu == Some(submenu));
        for spec in items.filter(|s| s.menu == Some(menu)) {
            let item = button_rect(h, spec.label)
                .unwrap_or_else(|| panic!("{size}: {menu} > {submenu} > {} not shown", spec.label));
            assert!(
                inside(item),
                "{size}: {menu} > {submenu} > {} at {item:?}",
                spec.label
            );
        }
    }
    h.key_press(egui::Key::Escape);
    h.run_steps(3);
}

#[test]
fn every_menu_and_submenu_fits_the_window_at_every_size_and_scale() {
    for (width, height) in [(1024.0, 768.0), (1280.0, 800.0)] {
        for scale in [1.0, 1.5, 2.0] {
            let mut h = app(width, height, scale);
            let size = format!("{width}×{height} at {}%", scale * 100.0);
            for menu in MENUS {
                check_menu(&mut h, menu, &size);
            }
        }
    }
}

#[test]
fn no_menu_is_longer_than_fourteen_rows() {
    // 14 rows and their separators fit 768 pixels at 200 %; a longer menu needs a submenu.
    for menu in MENUS {
        let mut rows: Vec<Option<&str>> = Vec::new();
        for spec in command_table().iter().filter(|s| s.menu == Some(menu)) {
            if spec.submenu.is_none() || !rows.contains(&spec.submenu) {
                rows.push(spec.submenu);
            }
        }
        let recent = usize::from(menu == "File");
        assert!(
            rows.len() + recent <= 14,
            "{menu}: {} rows",
            rows.len() + recent
        );
    }
}

#[test]
fn an_item_in_a_submenu_is_reached_by_the_keyboard_alone() {
    let mut h = app(1024.0, 768.0, 1.5);
    let view = h.get_by_label("View");
    view.focus();
    h.run_steps(2);
    h.key_press(egui::Key::Enter);
    h.run_steps(3);
    // A toggle is a check item.
    let entry = |n: &egui_kittest::kittest::AccessKitNode<'_>| {
        matches!(n.role(), Role::Button | Role::MenuItemCheckBox)
    };
    let focused = |h: &Harness<GraftApp>, label: &str| {
        h.query_by(|n| entry(n) && n.label().is_some_and(|l| l.trim_end().ends_with(label)))
            .is_some_and(|n| n.is_focused())
    };
    let mut presses = 0;
    while !focused(&h, "Overlays") {
        h.key_press(egui::Key::ArrowDown);
        h.run_steps(2);
        presses += 1;
        assert!(presses < 30, "ArrowDown never reached View > Overlays");
    }
    h.key_press(egui::Key::ArrowRight);
    h.run_steps(3);
    while !focused(&h, "Culling rectangle") {
        h.key_press(egui::Key::ArrowDown);
        h.run_steps(2);
        presses += 1;
        let now = h
            .query_all(egui_kittest::kittest::By::new().predicate(entry))
            .find(|n| n.is_focused())
            .and_then(|n| n.accesskit_node().label());
        assert!(
            presses < 60,
            "ArrowDown never reached Overlays > Culling rectangle (at {now:?})"
        );
    }
    h.key_press(egui::Key::Enter);
    h.run_steps(3);
    assert!(h.state().editor().view().shows(ViewOption::Culling));
}

/// Pictures of the menus and the lesson panel at small sizes, for a person to look at
/// (`cargo test --test menus_ui -- --ignored`; written to `$TMPDIR/graft-44-*.png`).
#[test]
#[ignore = "renders pictures to look at, with a GPU or lavapipe"]
fn pictures_to_look_at() {
    let dir = std::env::temp_dir();
    let mut h = app(1024.0, 768.0, 1.5);
    h.get_by_label("View").click();
    h.run_steps(3);
    let overlays = button_rect(&h, "Overlays").expect("Overlays");
    h.hover_at(overlays.center());
    h.run_steps(4);
    let image = h.render().expect("renders");
    image
        .save(dir.join("graft-44-view-menu.png"))
        .expect("saved");
    h.key_press(egui::Key::Escape);
    h.run_steps(2);
    h.get_by_label("File").click();
    h.run_steps(3);
    let export = button_rect(&h, "Export").expect("Export");
    h.hover_at(export.center());
    h.run_steps(4);
    let image = h.render().expect("renders");
    image
        .save(dir.join("graft-44-file-menu.png"))
        .expect("saved");
    let mut h = app(1024.0, 768.0, 1.0);
    use graft::editor::session::lesson::{LessonCommand, LessonSource};
    for command in [
        LessonCommand::Open(LessonSource::Builtin(4)),
        LessonCommand::Begin,
        LessonCommand::GoTo(1),
    ] {
        h.state_mut().run(Command::Lesson(command));
        h.run_steps(6);
    }
    let image = h.render().expect("renders");
    image
        .save(dir.join("graft-44-shear-lesson.png"))
        .expect("saved");
    for command in [
        LessonCommand::Open(LessonSource::Builtin(5)),
        LessonCommand::Begin,
    ] {
        h.state_mut().run(Command::Lesson(command));
        h.run_steps(6);
    }
    let image = h.render().expect("renders");
    image
        .save(dir.join("graft-44-tank-lesson.png"))
        .expect("saved");
}

/// The View menu's toggles are check items, named without their check mark and checked when
/// on (they were buttons named "☑ Names").
#[test]
fn view_toggles_are_check_items_with_their_state() {
    use egui::accesskit::Toggled;
    let mut h = app(1280.0, 800.0, 1.0);
    h.get_by_label("View").click();
    h.run_steps(3);
    let toggles: Vec<(String, Option<Toggled>)> = h
        .query_all(egui_kittest::kittest::By::new().role(Role::MenuItemCheckBox))
        .map(|n| {
            (
                n.accesskit_node().label().unwrap_or_default(),
                n.accesskit_node().toggled(),
            )
        })
        .collect();
    let checked = command_table()
        .iter()
        .filter(|s| s.menu == Some("View") && s.submenu.is_none() && s.checked.is_some());
    for spec in checked {
        let on = (spec.checked.expect("a toggle"))(h.state().editor());
        let want = if on { Toggled::True } else { Toggled::False };
        assert!(
            toggles.contains(&(spec.label.to_string(), Some(want))),
            "{} ({on}) not a check item in {toggles:?}",
            spec.label
        );
    }
    assert!(!toggles.is_empty());
    assert!(
        toggles
            .iter()
            .all(|(name, _)| !name.starts_with(['☑', '☐']))
    );
}
