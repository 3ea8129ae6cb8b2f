//! Move / rotate / scale handles (W / E / R) and their math, with Local or World orientation
//! (Unity's pivotRotation) and Ctrl snapping: picking and the ops a drag asks for, without egui.

use crate::editor::view::camera::{Camera, ScreenRect};
use crate::model::math::{Trs, decompose_like};
use crate::model::scene::NodeId;
use crate::model::scene::edit::Op;
use glam::{Affine2, DVec2, Mat2, Vec2};

/// Which handle the viewport shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Tool {
    /// Arrows along the axes and a free-move square (W).
    #[default]
    Move,
    /// A ring (E).
    Rotate,
    /// Axis lines with square ends and a uniform square (R).
    Scale,
}

/// Which axes the handles follow.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Orientation {
    /// The node's own world axes.
    #[default]
    Local,
    /// The world's x and y.
    World,
}

/// The part of a handle under the pointer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// Along the first axis.
    AxisX,
    /// Along the second axis.
    AxisY,
    /// Both axes (free move, uniform scale).
    Center,
    /// The rotation ring.
    Ring,
}

/// Handle length in pixels.
pub const HANDLE_PX: f32 = 70.0;
/// How close (pixels) the pointer must be to grab a handle part.
const GRAB_PX: f32 = 8.0;

/// Round to the nearest multiple of `step`.
pub fn snap(value: f32, step: f32) -> f32 {
    if step > 0.0 {
        (value / step).round() * step
    } else {
        value
    }
}

/// Round to the nearest multiple of `step`, in f64.
pub fn snap64(value: f64, step: f64) -> f64 {
    if step > 0.0 {
        (value / step).round() * step
    } else {
        value
    }
}

/// The component of `delta` along `axis` (any length), as a vector.
pub fn along(delta: Vec2, axis: Vec2) -> Vec2 {
    let a = axis.normalize_or_zero();
    a * delta.dot(a)
}

/// The signed angle in degrees (counter-clockwise, y up) that turns `from - center` into `to - center`.
pub fn rotation_delta(center: Vec2, from: Vec2, to: Vec2) -> f32 {
    let (a, b) = (from - center, to - center);
    if a == Vec2::ZERO || b == Vec2::ZERO {
        return 0.0;
    }
    a.perp_dot(b).atan2(a.dot(b)).to_degrees()
}

/// How much a drag from `from` to `to` stretches along `axis` through `center` (1 = unchanged).
pub fn scale_factor(center: Vec2, axis: Vec2, from: Vec2, to: Vec2) -> f32 {
    let a = axis.normalize_or_zero();
    let start = (from - center).dot(a);
    if start.abs() < 1e-6 {
        1.0
    } else {
        (to - center).dot(a) / start
    }
}

/// The two (unit) axes of the handles for a node's world matrix.
pub fn handle_axes(world: &Affine2, orientation: Orientation) -> (Vec2, Vec2) {
    match orientation {
        Orientation::World => (Vec2::X, Vec2::Y),
        Orientation::Local => {
            let x = world.matrix2.x_axis.try_normalize().unwrap_or(Vec2::X);
            let y = world.matrix2.y_axis.try_normalize().unwrap_or(x.perp());
            (x, y)
        }
    }
}

/// A handle drag in progress.
#[derive(Clone, Debug, PartialEq)]
pub struct HandleDrag {
    /// What was grabbed.
    pub part: Part,
    /// The node.
    pub node: NodeId,
    /// World pointer position at press (f64: exact far from the origin).
    pub start_pointer: DVec2,
    /// The node's world matrix at press.
    pub start_world: Affine2,
    /// The node's local transform at press.
    pub start_local: Trs,
    /// The handle axes at press.
    pub axes: (Vec2, Vec2),
    /// Local or World axes.
    pub orientation: Orientation,
}

/// The part of the handle at a screen point, if any.
pub fn pick(
    tool: Tool,
    camera: Camera,
    rect: ScreenRect,
    world: &Affine2,
    axes: (Vec2, Vec2),
    pointer: Vec2,
) -> Option<Part> {
    let origin = camera.to_screen(rect, world.translation);
    let d = pointer - origin;
    match tool {
        Tool::Rotate => ((d.length() - HANDLE_PX).abs() <= GRAB_PX).then_some(Part::Ring),
        Tool::Move | Tool::Scale => {
            if d.x.abs() <= GRAB_PX && d.y.abs() <= GRAB_PX {
                return Some(Part::Center);
            }
            let near_axis = |axis: Vec2| {
                let dir = camera.dir_to_screen(axis);
                let t = d.dot(dir);
                (0.0..=HANDLE_PX + GRAB_PX).contains(&t) && (d - dir * t).length() <= GRAB_PX
            };
            if near_axis(axes.0) {
                Some(Part::AxisX)
            } else if near_axis(axes.1) {
                Some(Part::AxisY)
            } else {
                None
            }
        }
    }
}

/// The op a handle drag asks for with the pointer now at `pointer` (world). `snapping` rounds to
/// the grid step (move), 15° (rotate) or 0.1 (scale).
pub fn drag_op(
    tool: Tool,
    drag: &HandleDrag,
    pointer: DVec2,
    snapping: bool,
    grid_step: f64,
) -> Option<Op> {
    Some(match tool {
        Tool::Move => move_op(drag, pointer, snapping, grid_step),
        Tool::Rotate => rotate_op(drag, pointer, snapping),
        Tool::Scale => scale_op(drag, pointer, snapping),
    })
}

/// The start and current pointer relative to the node's world origin at press (f64).
///
/// Pointer motion is measured in f64 (camera-relative), so it stays exact at any distance
/// from the origin; only the result is rounded to the scene's f32.
fn pointers_from_origin(drag: &HandleDrag, pointer: DVec2) -> (Vec2, Vec2) {
    let origin = drag.start_world.translation.as_dvec2();
    (
        (drag.start_pointer - origin).as_vec2(),
        (pointer - origin).as_vec2(),
    )
}

/// Move (W): slide along the grabbed axis, or freely from the centre square; snaps to the grid.
fn move_op(drag: &HandleDrag, pointer: DVec2, snapping: bool, grid_step: f64) -> Op {
    let delta_f64 = pointer - drag.start_pointer;
    let delta = delta_f64.as_vec2();
    let moved = match drag.part {
        Part::AxisX => along(delta, drag.axes.0).as_dvec2(),
        Part::AxisY => along(delta, drag.axes.1).as_dvec2(),
        _ => delta_f64,
    };
    let mut target = drag.start_world.translation.as_dvec2() + moved;
    if snapping {
        target = DVec2::new(snap64(target.x, grid_step), snap64(target.y, grid_step));
    }
    Op::SetWorldPosition {
        node: drag.node,
        position: target.as_vec2(),
    }
}

/// Rotate (E): turn the world rotation by the angle swept about the origin; snaps to 15°.
fn rotate_op(drag: &HandleDrag, pointer: DVec2, snapping: bool) -> Op {
    let (start_pointer, pointer) = pointers_from_origin(drag, pointer);
    let start = decompose_like(&drag.start_world, &drag.start_local);
    let mut rotation = start.rotation + rotation_delta(Vec2::ZERO, start_pointer, pointer);
    if snapping {
        rotation = snap(rotation, 15.0);
    }
    Op::SetWorld {
        node: drag.node,
        world: Trs { rotation, ..start },
    }
}

/// Scale (R): stretch along the grabbed axis (or both from the centre square); snaps to 0.1.
fn scale_op(drag: &HandleDrag, pointer: DVec2, snapping: bool) -> Op {
    let (start_pointer, pointer) = pointers_from_origin(drag, pointer);
    let factor = |axis: Vec2| scale_factor(Vec2::ZERO, axis, start_pointer, pointer);
    let (fx, fy) = match drag.part {
        Part::AxisX => (factor(drag.axes.0), 1.0),
        Part::AxisY => (1.0, factor(drag.axes.1)),
        _ => {
            let f = factor(start_pointer);
            (f, f)
        }
    };
    match drag.orientation {
        Orientation::Local => {
            let mut scale = drag.start_local.scale * Vec2::new(fx, fy);
            if snapping {
                scale = Vec2::new(snap(scale.x, 0.1), snap(scale.y, 0.1));
            }
            Op::SetLocal {
                node: drag.node,
                local: Trs {
                    scale,
                    ..drag.start_local
                },
            }
        }
        Orientation::World => world_scale_op(drag, fx, fy, snapping),
    }
}

/// Scale along the world axes: stretch the world matrix about its origin. Under a rotation that
/// shears the node's own axes, and its new local says so honestly.
fn world_scale_op(drag: &HandleDrag, fx: f32, fy: f32, snapping: bool) -> Op {
    let (fx, fy) = if snapping {
        (snap(fx, 0.1), snap(fy, 0.1))
    } else {
        (fx, fy)
    };
    let stretch = Mat2::from_diagonal(Vec2::new(fx, fy));
    let world = Affine2::from_mat2_translation(
        stretch * drag.start_world.matrix2,
        drag.start_world.translation,
    );
    Op::SetWorld {
        node: drag.node,
        world: decompose_like(&world, &drag.start_local),
    }
}
