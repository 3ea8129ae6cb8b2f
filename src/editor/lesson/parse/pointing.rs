//! `point:` and `gesture:` lines: the targets of `editor/lesson/targets.rs`, every error at its
//! place. Node names are checked against the scene later, with the step's other names.

use super::located::error_at;
use super::tokens::{cut, split_label};
use super::values::{Cursor, quote_list};
use crate::editor::lesson::Pos;
use crate::editor::lesson::targets::{self, FIELD_ROWS, Gesture, Point, Target};
use crate::editor::vocabulary::{MENUS, menu_items};
use crate::error::Result;
use std::path::Path;

/// The words a target starts with.
const KINDS: [&str; 6] = ["row", "node", "field", "toggle", "button", "menu"];

/// Every form of a target, for messages.
const FORMS: &str = "a target is `row NODE`, `node NODE`, `field NODE world|local position|rotation|scale|skew`, `field time`, `toggle keep-world|trails`, `button play` or `menu MENU > ITEM`";

/// A `point:` line's value: `TARGET` or `TARGET | BUBBLE TEXT`.
pub(super) fn point(path: &Path, value: &str, at: Pos) -> Result<Point> {
    let (target_text, label) = match split_label(value) {
        Some((t, l)) => (t, Some(l.trim().to_string()).filter(|l| !l.is_empty())),
        None => (value, None),
    };
    Ok(Point {
        target: target(path, target_text, at)?,
        label,
        at,
    })
}

/// A `gesture:` line's value: `drag FROM -> TO`.
pub(super) fn gesture(path: &Path, value: &str, at: Pos) -> Result<Gesture> {
    let rest = value
        .strip_prefix("drag")
        .filter(|r| r.starts_with(char::is_whitespace))
        .ok_or_else(|| {
            error_at(
                path,
                at,
                "a gesture is `drag FROM -> TO`, e.g. `drag row sword -> row body`",
            )
        })?;
    let rest_at = shifted(at, value, 4);
    let Some((arrow, arrow_len)) = find_arrow(rest) else {
        let end = shifted(rest_at, rest, rest.trim_end().len());
        return Err(error_at(
            path,
            end,
            "expected `->` between where the drag starts and where it drops",
        ));
    };
    let (from_text, to_text) = (&rest[..arrow], &rest[arrow + arrow_len..]);
    let to_at = shifted(rest_at, rest, arrow + arrow_len);
    let from = target(path, from_text, rest_at)?;
    let to = target(path, to_text, to_at)?;
    let sides = [
        ("starts", &from, skip_space(rest_at, from_text)),
        ("drops", &to, skip_space(to_at, to_text)),
    ];
    for (side, t, side_at) in sides {
        if matches!(t, Target::Menu { .. }) {
            return Err(error_at(
                path,
                side_at,
                format!("a drag never {side} on a menu: point at it with `point:` instead"),
            ));
        }
    }
    Ok(Gesture { from, to, at })
}

/// A target written at `at` (leading spaces allowed).
fn target(path: &Path, text: &str, at: Pos) -> Result<Target> {
    let lead = text.len() - text.trim_start().len();
    let at = shifted(at, text, lead);
    let text = text.trim();
    if text.is_empty() {
        return Err(error_at(path, at, format!("expected a target: {FORMS}")));
    }
    if let Some(rest) = strip_word(text, "menu") {
        return menu(path, rest, shifted(at, text, 4));
    }
    if strip_word(text, "field").map(str::trim) == Some("time") {
        return Ok(Target::Control(targets::Control::Time));
    }
    let mut cursor = Cursor::new(path, text, at)?;
    let kind = match cursor.peek_word() {
        Some(w) if KINDS.contains(&w) => cursor.word_of(&KINDS)?,
        _ => return Err(cursor.fail(format!("unknown target: {FORMS}"))),
    };
    let target = match kind.as_str() {
        "row" => Target::Row(cursor.name()?),
        "node" => Target::Node(cursor.name()?),
        "field" => {
            let node = cursor.name()?;
            let frame = cursor.frame()?;
            let rows: Vec<&str> = FIELD_ROWS.iter().map(|(n, _)| *n).collect();
            let row = cursor.word_of(&rows)?;
            let row = FIELD_ROWS.iter().find(|(n, _)| *n == row).map(|(_, r)| *r);
            Target::Field {
                node,
                frame,
                row: row.ok_or_else(|| cursor.fail("unknown field"))?,
            }
        }
        kind => control(&mut cursor, kind)?,
    };
    cursor.end()?;
    Ok(target)
}

/// `toggle NAME` or `button NAME`: a known control, or an error listing them.
fn control(cursor: &mut Cursor, kind: &str) -> Result<Target> {
    let names = targets::control_names(kind);
    match cursor.peek_word() {
        Some(name) if names.contains(&name) => {
            let name = cursor.word_of(&names)?;
            let found = targets::control(kind, &name);
            found
                .map(Target::Control)
                .ok_or_else(|| cursor.fail("unknown control"))
        }
        _ => Err(cursor.fail(format!(
            "unknown {kind}: the {kind}s a lesson can point at are {}",
            quote_list(&names)
        ))),
    }
}

/// `MENU` or `MENU > ITEM` (after the word `menu`), checked against the menu bar.
fn menu(path: &Path, rest: &str, at: Pos) -> Result<Target> {
    let (menu_text, item) = match rest.find('>') {
        Some(i) => (&rest[..i], Some((&rest[i + 1..], shifted(at, rest, i + 1)))),
        None => (rest, None),
    };
    let menu_at = skip_space(at, menu_text);
    if menu_text.trim().is_empty() {
        return Err(error_at(
            path,
            menu_at,
            "`menu` needs a menu's title: `menu View` or `menu View > Names`",
        ));
    }
    let item_at = item.map(|(text, item_at)| skip_space(item_at, text));
    let item_text = item.map(|(text, _)| text.trim());
    if item_text == Some("") {
        return Err(error_at(
            path,
            item_at.unwrap_or(menu_at),
            "expected the item's label after `>`",
        ));
    }
    match menu_entry(menu_text.trim(), item_text) {
        Ok((menu, item)) => Ok(Target::Menu { menu, item }),
        Err(message) => {
            let menus_ok = menu_entry(menu_text.trim(), None).is_ok();
            let where_ = if menus_ok { item_at } else { None };
            Err(error_at(path, where_.unwrap_or(menu_at), message))
        }
    }
}

/// The menu `menu` and its item `item` as the menu bar shows them, or what is wrong. Items
/// match their label exactly, or without its trailing `…`.
pub fn menu_entry(
    menu: &str,
    item: Option<&str>,
) -> std::result::Result<(&'static str, Option<&'static str>), String> {
    let Some(menu) = MENUS.iter().copied().find(|m| *m == menu) else {
        return Err(format!(
            "no menu is called `{}`; the menus are {}",
            cut(menu),
            MENUS.join(", ")
        ));
    };
    let Some(item) = item else {
        return Ok((menu, None));
    };
    let labels: Vec<&'static str> = menu_items(menu).collect();
    let found = labels
        .iter()
        .copied()
        .find(|label| *label == item || label.strip_suffix('…') == Some(item));
    match found {
        Some(label) => Ok((menu, Some(label))),
        None => Err(format!(
            "the {menu} menu has no item `{}`; its items are: {}",
            cut(item),
            labels.join(", ")
        )),
    }
}

/// `text` without its first word `word` (which must be followed by a space or nothing).
fn strip_word<'a>(text: &'a str, word: &str) -> Option<&'a str> {
    let rest = text.strip_prefix(word)?;
    (rest.is_empty() || rest.starts_with(char::is_whitespace)).then_some(rest)
}

/// Where `->` (or `→`) is outside quotes: its byte index and length.
fn find_arrow(text: &str) -> Option<(usize, usize)> {
    let mut quoted = false;
    for (i, c) in text.char_indices() {
        match c {
            '"' => quoted = !quoted,
            '-' if !quoted && text[i..].starts_with("->") => return Some((i, 2)),
            '→' if !quoted => return Some((i, c.len_utf8())),
            _ => {}
        }
    }
    None
}

/// The place `bytes` bytes into `text`, which starts at `at`.
fn shifted(at: Pos, text: &str, bytes: usize) -> Pos {
    let bytes = bytes.min(text.len());
    let chars = text.get(..bytes).map_or(0, |t| t.chars().count());
    Pos {
        line: at.line,
        col: at.col + chars,
    }
}

/// The place of `text`'s first non-space character, `text` starting at `at`.
fn skip_space(at: Pos, text: &str) -> Pos {
    shifted(at, text, text.len() - text.trim_start().len())
}
