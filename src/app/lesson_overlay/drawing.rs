//! What the lesson overlay paints with: the dimmed window with holes, the highlight's frame,
//! the bubble (placed where it hides no other target) and the ghost pointer on its path.

use crate::app::viewport::c32;
use crate::editor::view::palette;
use egui::{Color32, Pos2, Rect, Stroke, pos2, vec2};

/// The part of a gesture spent pressing at its start, and from when it releases at its end.
const PRESS_UNTIL: f32 = 0.2;
const RELEASE_FROM: f32 = 0.85;
/// The highlight's colour.
const HIGHLIGHT: Color32 = c32(palette::LESSON_HIGHLIGHT);
/// How dark the rest of the window gets.
const DIM: Color32 = c32(palette::LESSON_DIM);

/// Where the ghost pointer grabs a rect: a little into it from the left, at mid-height (a
/// row's name is at its left).
pub fn grab_point(rect: Rect) -> Pos2 {
    pos2(
        rect.left() + (rect.width() * 0.35).min(60.0),
        rect.center().y,
    )
}

/// The ghost pointer's tip at `t` (0 to 1) of a drag from `from` to `to`: it presses at the
/// start, moves (easing in and out), and releases at the end.
pub fn ghost_at(from: Rect, to: Rect, t: f32) -> Pos2 {
    let s = ((t - PRESS_UNTIL) / (RELEASE_FROM - PRESS_UNTIL)).clamp(0.0, 1.0);
    let eased = s * s * (3.0 - 2.0 * s);
    grab_point(from).lerp(grab_point(to), eased)
}

/// Darken `screen` except the `holes`: the screen cut into a grid by the holes' edges, each
/// cell outside every hole filled.
pub(super) fn dim(painter: &egui::Painter, screen: Rect, holes: &[Rect]) {
    let mut xs = vec![screen.left(), screen.right()];
    let mut ys = vec![screen.top(), screen.bottom()];
    for hole in holes {
        let hole = hole.intersect(screen);
        xs.extend([hole.left(), hole.right()]);
        ys.extend([hole.top(), hole.bottom()]);
    }
    for v in [&mut xs, &mut ys] {
        v.retain(|c| c.is_finite());
        v.sort_by(f32::total_cmp);
        v.dedup();
    }
    for x in xs.windows(2) {
        for y in ys.windows(2) {
            let cell = Rect::from_min_max(pos2(x[0], y[0]), pos2(x[1], y[1]));
            if cell.is_positive() && !holes.iter().any(|h| h.contains(cell.center())) {
                painter.rect_filled(cell, 0.0, DIM);
            }
        }
    }
}

/// The highlight's frame round `rect`.
pub(super) fn outline(painter: &egui::Painter, rect: Rect) {
    let stroke = Stroke::new(2.5, HIGHLIGHT);
    painter.rect_stroke(rect.expand(3.0), 4.0, stroke, egui::StrokeKind::Outside);
}

/// The bubble: `text` next to the highlight, inside the window, where it hides neither the
/// highlight nor any other registered target (`others`): see [`bubble_place`].
pub(super) fn bubble(
    painter: &egui::Painter,
    screen: Rect,
    rect: Rect,
    text: &str,
    others: &[Rect],
) -> Rect {
    let font = egui::FontId::proportional(14.0);
    let galley = painter.layout(text.to_string(), font, c32(palette::BUBBLE_TEXT), 300.0);
    let size = galley.size() + vec2(16.0, 10.0);
    let at = bubble_place(screen, rect, size, others);
    let x = at.x.clamp(
        screen.left() + 4.0,
        (screen.right() - size.x - 4.0).max(4.0),
    );
    let y = at.y.clamp(
        screen.top() + 4.0,
        (screen.bottom() - size.y - 4.0).max(4.0),
    );
    let frame = Rect::from_min_size(pos2(x, y), size);
    painter.rect_filled(frame, 6.0, HIGHLIGHT);
    painter.galley(
        frame.min + vec2(8.0, 5.0),
        galley,
        c32(palette::BUBBLE_TEXT),
    );
    frame
}

/// Where a bubble of `size` goes beside the highlight `rect`: to its right (a row's neighbours
/// stay visible), below, above or to its left (above first near the window's bottom), the
/// first of those that fits the window and hides no other target; else, moved on past the
/// targets it would hide, the one moved least (a field's bubble goes past its row's other
/// column rather than over the next row); else the first that fits.
pub fn bubble_place(screen: Rect, rect: Rect, size: egui::Vec2, others: &[Rect]) -> Pos2 {
    let gap = 10.0;
    let middle = rect.center().y - size.y / 2.0;
    let right = (pos2(rect.right() + gap, middle), vec2(1.0, 0.0));
    let left = (pos2(rect.left() - gap - size.x, middle), vec2(-1.0, 0.0));
    let below = (pos2(rect.left(), rect.bottom() + gap), vec2(0.0, 1.0));
    let above = (
        pos2(rect.left(), rect.top() - gap - size.y),
        vec2(0.0, -1.0),
    );
    let low = rect.center().y > screen.top() + screen.height() * 0.75;
    let order = if low {
        [above, right, left, below]
    } else {
        [right, below, above, left]
    };
    let fits = |p: Pos2| {
        screen
            .shrink(4.0)
            .contains_rect(Rect::from_min_size(p, size))
    };
    let own = rect.expand(3.0);
    let hidden = |p: Pos2| {
        let b = Rect::from_min_size(p, size);
        let mut hides = others.iter().chain(std::iter::once(&own));
        hides.find(|o| b.intersects(**o)).copied()
    };
    if let Some((p, _)) = order.iter().find(|(p, _)| fits(*p) && hidden(*p).is_none()) {
        return *p;
    }
    let moved_on = order.iter().filter_map(|&(start, dir)| {
        let mut p = start;
        for _ in 0..=others.len() {
            let Some(o) = hidden(p) else {
                return fits(p).then_some(((p - start).length(), p));
            };
            p = match (dir.x > 0.0, dir.x < 0.0, dir.y > 0.0) {
                (true, _, _) => pos2(o.right() + gap, p.y),
                (_, true, _) => pos2(o.left() - gap - size.x, p.y),
                (_, _, true) => pos2(p.x, o.bottom() + gap),
                _ => pos2(p.x, o.top() - gap - size.y),
            };
        }
        None
    });
    let nearest = moved_on.min_by(|a, b| a.0.total_cmp(&b.0)).map(|(_, p)| p);
    nearest
        .or_else(|| order.iter().map(|(p, _)| *p).find(|p| fits(*p)))
        .unwrap_or(above.0)
}

/// The drag's path: a dashed line with an arrowhead at its end.
pub(super) fn path(painter: &egui::Painter, a: Pos2, b: Pos2) {
    let color = HIGHLIGHT.gamma_multiply(0.8);
    painter.add(egui::Shape::dashed_line(
        &[a, b],
        Stroke::new(2.0, color),
        8.0,
        5.0,
    ));
    let dir = (b - a).normalized();
    if dir.is_finite() && dir != egui::Vec2::ZERO {
        let side = dir.rot90() * 6.0;
        let head = vec![b, b - dir * 12.0 + side, b - dir * 12.0 - side];
        painter.add(egui::Shape::convex_polygon(head, color, Stroke::NONE));
    }
}

/// The ghost pointer: an arrow with its tip at `tip`, a ring while it holds the button down,
/// and the name of what it carries.
pub(super) fn ghost(painter: &egui::Painter, tip: Pos2, t: f32, carrying: Option<&str>) {
    let down = t > PRESS_UNTIL * 0.5 && t < RELEASE_FROM + (1.0 - RELEASE_FROM) * 0.5;
    if down {
        painter.circle_stroke(tip, 9.0, Stroke::new(2.0, HIGHLIGHT));
        if let Some(name) = carrying.filter(|_| t > PRESS_UNTIL) {
            let font = egui::FontId::proportional(13.0);
            let at = tip + vec2(18.0, 10.0);
            let galley = painter.layout_no_wrap(name.to_string(), font, c32(palette::POINTER_TEXT));
            let chip = Rect::from_min_size(at, galley.size() + vec2(10.0, 4.0));
            painter.rect_filled(chip, 3.0, c32(palette::POINTER_CHIP));
            painter.galley(at + vec2(5.0, 2.0), galley, c32(palette::POINTER_TEXT));
        }
    }
    let arrow = [
        (0.0, 0.0),
        (0.0, 17.0),
        (4.5, 13.0),
        (7.5, 19.5),
        (10.0, 18.5),
        (7.0, 12.2),
        (12.5, 12.2),
    ]
    .map(|(x, y)| tip + vec2(x, y));
    let fill = c32(palette::POINTER_FILL);
    let edge = Stroke::new(1.5, c32(palette::POINTER_EDGE));
    // The arrow is concave: fill it as two convex parts.
    let body = vec![arrow[0], arrow[1], arrow[2], arrow[5], arrow[6]];
    let tail = vec![arrow[2], arrow[3], arrow[4], arrow[5]];
    for part in [body, tail] {
        painter.add(egui::Shape::convex_polygon(part, fill, Stroke::NONE));
    }
    painter.add(egui::Shape::Path(egui::epaint::PathShape::closed_line(
        arrow.to_vec(),
        edge,
    )));
}
