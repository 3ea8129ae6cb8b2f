//! Transform math: TRS + skew ⇄ 2D affine matrices, exact decomposition, safe inverse, shear metrics.
//!
//! Conventions (design.md): y-up, degrees, counter-clockwise positive, column vectors,
//! `world = parentWorld · local`. The local matrix of a [`Trs`] is Godot's Node2D form:
//!
//! ```text
//! [ cos(r)·sx   -sin(r+k)·sy   tx ]
//! [ sin(r)·sx    cos(r+k)·sy   ty ]
//! ```

use glam::{Affine2, DVec2, Mat2, Vec2};

/// A local (or world) transform as a person edits it: position, rotation, scale and skew (degrees).
#[derive(Clone, Copy, Debug, PartialEq, serde::Deserialize, serde::Serialize)]
pub struct Trs {
    /// Translation.
    pub position: Vec2,
    /// Rotation in degrees, counter-clockwise.
    pub rotation: f32,
    /// Scale along the node's own x and y axes; negative mirrors.
    pub scale: Vec2,
    /// Extra angle of the local y axis, degrees (0 = axes at 90°).
    pub skew: f32,
}

/// Which of a node's own axes a mirror flips.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MirrorAxis {
    /// Flip along the node's own x axis (negate its x scale): left and right swap.
    Horizontal,
    /// Flip along the node's own y axis (negate its y scale): up and down swap.
    Vertical,
}

impl Default for Trs {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl Trs {
    /// The transform that changes nothing.
    pub const IDENTITY: Trs = Trs {
        position: Vec2::ZERO,
        rotation: 0.0,
        scale: Vec2::ONE,
        skew: 0.0,
    };

    /// This transform mirrored about its own origin: the x (or y) scale negated, so the local
    /// matrix becomes `M · diag(-1, 1)` (or `diag(1, -1)`) and everything below flips with it.
    /// Twice is the identity.
    pub fn mirrored(self, axis: MirrorAxis) -> Self {
        let mut scale = self.scale;
        match axis {
            MirrorAxis::Horizontal => scale.x = -scale.x,
            MirrorAxis::Vertical => scale.y = -scale.y,
        }
        Self { scale, ..self }
    }

    /// A transform from its four parts.
    pub fn new(position: Vec2, rotation: f32, scale: Vec2, skew: f32) -> Self {
        Self {
            position,
            rotation,
            scale,
            skew,
        }
    }

    /// A pure translation.
    pub fn from_position(position: Vec2) -> Self {
        Self {
            position,
            ..Self::IDENTITY
        }
    }

    /// The 2D affine matrix of this transform (T·R·Skew·S, design.md).
    pub fn to_affine(&self) -> Affine2 {
        let (sin_r, cos_r) = sin_cos_deg(self.rotation as f64);
        let (sin_rk, cos_rk) = sin_cos_deg(self.rotation as f64 + self.skew as f64);
        let sx = self.scale.x as f64;
        let sy = self.scale.y as f64;
        Affine2::from_mat2_translation(
            Mat2::from_cols(
                Vec2::new((cos_r * sx) as f32, (sin_r * sx) as f32),
                Vec2::new((-sin_rk * sy) as f32, (cos_rk * sy) as f32),
            ),
            self.position,
        )
    }

    /// The six numbers: position x, y, rotation, scale x, y, skew.
    pub fn components(&self) -> [f32; 6] {
        [
            self.position.x,
            self.position.y,
            self.rotation,
            self.scale.x,
            self.scale.y,
            self.skew,
        ]
    }

    /// The name of the first field that is NaN or infinite, if any.
    pub fn first_non_finite(&self) -> Option<&'static str> {
        if !self.position.is_finite() {
            Some("position")
        } else if !self.rotation.is_finite() {
            Some("rotation")
        } else if !self.scale.is_finite() {
            Some("scale")
        } else if !self.skew.is_finite() {
            Some("skew")
        } else {
            None
        }
    }
}

/// Sine and cosine of an angle in degrees, exact at multiples of 90° (so 90° gives 0 and 1).
pub fn sin_cos_deg(degrees: f64) -> (f64, f64) {
    let reduced = degrees.rem_euclid(360.0);
    if reduced == 0.0 {
        (0.0, 1.0)
    } else if reduced == 90.0 {
        (1.0, 0.0)
    } else if reduced == 180.0 {
        (0.0, -1.0)
    } else if reduced == 270.0 {
        (-1.0, 0.0)
    } else {
        reduced.to_radians().sin_cos()
    }
}

/// An angle in degrees brought into (−180°, 180°].
pub fn normalize_degrees(degrees: f64) -> f64 {
    let r = degrees.rem_euclid(360.0);
    if r > 180.0 { r - 360.0 } else { r }
}

/// `angle` moved by whole turns to lie as close as possible to `near` (degrees).
fn nearest_turn(angle: f64, near: f64) -> f64 {
    angle + 360.0 * ((near - angle) / 360.0).round()
}

fn col(m: &Affine2, i: usize) -> DVec2 {
    m.matrix2.col(i).as_dvec2()
}

/// Decompose any affine matrix into TRS + skew; composing the result gives the matrix back
/// (exactly up to rounding) whenever the matrix is invertible.
///
/// r = atan2(col0), sx = |col0|, sy = ±|col1| with the sign of the determinant,
/// k = angle(col1 / sign) − r − 90°, every angle normalised to (−180°, 180°].
pub fn decompose(m: &Affine2) -> Trs {
    let c0 = col(m, 0);
    let c1 = col(m, 1);
    let det = c0.x * c1.y - c1.x * c0.y;
    let sign = if det < 0.0 { -1.0 } else { 1.0 };
    let sx = c0.length();
    let sy = sign * c1.length();
    let col1_angle = |c1: DVec2| (sign * c1.y).atan2(sign * c1.x).to_degrees();
    let (rotation, skew) = if sx > 0.0 {
        let r = c0.y.atan2(c0.x).to_degrees();
        let k = if c1 == DVec2::ZERO {
            0.0
        } else {
            col1_angle(c1) - r - 90.0
        };
        (r, k)
    } else if c1 != DVec2::ZERO {
        (col1_angle(c1) - 90.0, 0.0)
    } else {
        (0.0, 0.0)
    };
    Trs {
        position: m.translation,
        rotation: normalize_degrees(rotation) as f32,
        scale: Vec2::new(sx as f32, sy as f32),
        skew: normalize_degrees(skew) as f32,
    }
}

/// Like [`decompose`], but among the equivalent forms picks the one a person expects from
/// `previous` (the node's TRS before): a mirrored matrix (determinant < 0) has two natural
/// forms, x negative or y negative (`(r, sx, sy)` and `(r + 180°, −sx, −sy)` are the same
/// matrix); the one whose rotation is nearest the previous rotation is kept, so a sprite taken
/// out of a parent flipped by `scale.x = −1` reads rotation −30°, scale (−1, 1), not 150°,
/// (1, −1) (Godot's open issue #109044). On a tie, and for unmirrored matrices, a negative x
/// scale stays negative as before. The rotation keeps its number of whole turns.
pub fn decompose_like(m: &Affine2, previous: &Trs) -> Trs {
    let mut t = decompose(m);
    let mut rotation = t.rotation as f64;
    let was_x_flipped = previous.scale.x < 0.0 && t.scale.x > 0.0;
    let mirrored = (t.scale.x < 0.0) != (t.scale.y < 0.0);
    let turn = if mirrored && previous.rotation.is_finite() {
        let prev = previous.rotation as f64;
        let as_is = normalize_degrees(rotation - prev).abs();
        let turned = normalize_degrees(rotation + 180.0 - prev).abs();
        if (as_is - turned).abs() > 1e-6 {
            turned < as_is
        } else {
            was_x_flipped
        }
    } else {
        was_x_flipped
    };
    if turn {
        // (r, sx, sy) and (r + 180°, −sx, −sy) give the same matrix.
        t.scale = -t.scale;
        rotation += 180.0;
    }
    if previous.rotation.is_finite() {
        rotation = nearest_turn(normalize_degrees(rotation), previous.rotation as f64);
    }
    t.rotation = rotation as f32;
    t
}

/// The matrix has no inverse: its determinant is zero or too small relative to its axes.
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
#[error("singular matrix (determinant {determinant})")]
pub struct SingularMatrix {
    /// The determinant that was too small.
    pub determinant: f32,
}

/// The inverse of an affine matrix, or [`SingularMatrix`] instead of infinities or NaN.
///
/// A matrix counts as singular when its axes are parallel to within about 1e-7 radians
/// (|det| ≤ 1e-7·|col0|·|col1|), when an axis is zero, or when the inverse would not be finite.
pub fn try_inverse(m: &Affine2) -> Result<Affine2, SingularMatrix> {
    let c0 = col(m, 0);
    let c1 = col(m, 1);
    let det = c0.x * c1.y - c1.x * c0.y;
    let size = c0.length() * c1.length();
    let determinant = det as f32;
    if !det.is_finite() || det == 0.0 || det.abs() <= 1e-7 * size {
        return Err(SingularMatrix { determinant });
    }
    // Invert in f64, then round once: more exact than glam's f32 inverse.
    let inv_det = 1.0 / det;
    let i0 = DVec2::new(c1.y, -c0.y) * inv_det;
    let i1 = DVec2::new(-c1.x, c0.x) * inv_det;
    let t = m.translation.as_dvec2();
    let it = -(i0 * t.x + i1 * t.y);
    let inverse =
        Affine2::from_mat2_translation(Mat2::from_cols(i0.as_vec2(), i1.as_vec2()), it.as_vec2());
    if inverse.is_finite() {
        Ok(inverse)
    } else {
        Err(SingularMatrix { determinant })
    }
}

/// How far a matrix is from a pure rotation and uniform scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShearMetrics {
    /// The seed's shear value: dot(col0, col1); 0 when the axes are perpendicular.
    pub dot: f32,
    /// The angle between the x and y axes in degrees (90 when unsheared; 0 when degenerate).
    pub axis_angle: f32,
    /// Unity's lossyScale: (|col0|, |col1|).
    pub lossy_scale: Vec2,
    /// The determinant; negative when mirrored.
    pub determinant: f32,
}

impl ShearMetrics {
    /// How many degrees the axes are off 90°.
    pub fn degrees_off_square(&self) -> f32 {
        (self.axis_angle - 90.0).abs()
    }

    /// True when the axes are more than `tolerance_degrees` off 90°.
    pub fn is_sheared(&self, tolerance_degrees: f32) -> bool {
        self.lossy_scale.x > 0.0
            && self.lossy_scale.y > 0.0
            && self.degrees_off_square() > tolerance_degrees
    }
}

/// Shear metrics of a matrix (seed: `dot(col0, col1)`).
pub fn shear_metrics(m: &Affine2) -> ShearMetrics {
    let c0 = col(m, 0);
    let c1 = col(m, 1);
    let lengths = DVec2::new(c0.length(), c1.length());
    let axis_angle = if lengths.x > 0.0 && lengths.y > 0.0 {
        (c0.dot(c1) / (lengths.x * lengths.y))
            .clamp(-1.0, 1.0)
            .acos()
            .to_degrees()
    } else {
        0.0
    };
    ShearMetrics {
        dot: c0.dot(c1) as f32,
        axis_angle: axis_angle as f32,
        lossy_scale: lengths.as_vec2(),
        determinant: (c0.x * c1.y - c1.x * c0.y) as f32,
    }
}

/// The matrix as three rows `[[m00, m01, m02], [m10, m11, m12], [0, 0, 1]]`, translation last.
pub fn rows(m: &Affine2) -> [[f32; 3]; 3] {
    let c0 = m.matrix2.x_axis;
    let c1 = m.matrix2.y_axis;
    let t = m.translation;
    [[c0.x, c1.x, t.x], [c0.y, c1.y, t.y], [0.0, 0.0, 1.0]]
}

/// The largest absolute entry of the matrix (its size, for relative tolerances).
pub fn max_abs_entry(m: &Affine2) -> f32 {
    m.to_cols_array().iter().fold(0.0f32, |a, v| a.max(v.abs()))
}

/// The condition number of the linear part, ‖A‖·‖A⁻¹‖ in the Frobenius norm (∞ when singular).
pub fn condition_number(m: &Affine2) -> f32 {
    let c0 = col(m, 0);
    let c1 = col(m, 1);
    let det = (c0.x * c1.y - c1.x * c0.y).abs();
    if det == 0.0 {
        return f32::INFINITY;
    }
    let frob2 = c0.length_squared() + c1.length_squared();
    (frob2 / det) as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn right_angles_are_exact() {
        let m = Trs::new(Vec2::ZERO, 90.0, Vec2::ONE, 0.0).to_affine();
        assert_eq!(m.matrix2.x_axis, Vec2::new(0.0, 1.0));
        assert_eq!(m.matrix2.y_axis, Vec2::new(-1.0, 0.0));
    }

    #[test]
    fn normalize_keeps_half_open_range() {
        assert_eq!(normalize_degrees(-180.0), 180.0);
        assert_eq!(normalize_degrees(540.0), 180.0);
        assert_eq!(normalize_degrees(-190.0), 170.0);
    }
}
