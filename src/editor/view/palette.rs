//! The one palette of what the scene view draws: the viewport paints with these colours (turned
//! into egui's in `app/`), figures write them as SVG paint, GIFs keep them exactly. Nothing
//! else names a colour of the view, so the two cannot drift apart.

/// An sRGB colour with straight (unmultiplied) alpha.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rgba(pub [u8; 4]);

impl Rgba {
    /// An opaque colour.
    pub const fn rgb(r: u8, g: u8, b: u8) -> Self {
        Self([r, g, b, 255])
    }

    /// An opaque grey.
    pub const fn gray(v: u8) -> Self {
        Self([v, v, v, 255])
    }

    /// This colour with alpha `a` (0–255).
    pub const fn alpha(self, a: u8) -> Self {
        let [r, g, b, _] = self.0;
        Self([r, g, b, a])
    }

    /// Red, green and blue.
    pub const fn rgb_bytes(self) -> [u8; 3] {
        let [r, g, b, _] = self.0;
        [r, g, b]
    }

    /// The alpha, 0–255.
    pub const fn a(self) -> u8 {
        self.0[3]
    }

    /// The colour as CSS `#rrggbb` (alpha left out: see [`Rgba::opacity`]).
    pub fn hex(self) -> String {
        let [r, g, b, _] = self.0;
        format!("#{r:02x}{g:02x}{b:02x}")
    }

    /// The alpha as an SVG opacity, 0–1.
    pub fn opacity(self) -> f64 {
        self.0[3] as f64 / 255.0
    }

    /// This colour drawn over an opaque `under`, as the opaque result.
    pub fn over(self, under: Rgba) -> Rgba {
        let a = self.0[3] as u32;
        let mix = |c: u8, u: u8| ((c as u32 * a + u as u32 * (255 - a) + 127) / 255) as u8;
        let ([r, g, b, _], [ur, ug, ub, _]) = (self.0, under.0);
        Rgba::rgb(mix(r, ur), mix(g, ug), mix(b, ub))
    }
}

/// The WCAG contrast ratio of two opaque colours, 1 to 21: their relative luminances (sRGB
/// turned linear), the lighter over the darker, each plus 0.05. Text wants 4.5 or more.
pub fn contrast(a: Rgba, b: Rgba) -> f64 {
    let luminance = |c: Rgba| {
        let linear = |v: u8| {
            let v = f64::from(v) / 255.0;
            if v <= 0.04045 {
                v / 12.92
            } else {
                ((v + 0.055) / 1.055).powf(2.4)
            }
        };
        let [r, g, b] = c.rgb_bytes();
        0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)
    };
    let (x, y) = (luminance(a), luminance(b));
    (x.max(y) + 0.05) / (x.min(y) + 0.05)
}

/// The view's background.
pub const BACKGROUND: Rgba = Rgba::gray(28);
/// Grid lines.
pub const GRID: Rgba = Rgba::gray(45);
/// Grid labels: 5.8:1 on the background, 4.7:1 on a grid line (WCAG asks 4.5:1 of text; the
/// grey 110 they were read 3.3:1).
pub const GRID_TEXT: Rgba = Rgba::gray(150);
/// The world x axis (the line y = 0).
pub const X_AXIS: Rgba = Rgba::rgb(120, 60, 60);
/// The world y axis (the line x = 0).
pub const Y_AXIS: Rgba = Rgba::rgb(60, 120, 60);
/// Parent → child lines.
pub const LINK: Rgba = Rgba([200, 200, 200, 60]);
/// A node's plain outline.
pub const OUTLINE: Rgba = Rgba::gray(20);
/// The selection's outline.
pub const SELECTED: Rgba = Rgba::rgb(255, 210, 60);
/// Names.
pub const NAME: Rgba = Rgba::gray(230);
/// The halo around names (the background's colour).
pub const NAME_HALO: Rgba = BACKGROUND;
/// Origin dots.
pub const DOT: Rgba = Rgba::rgb(255, 255, 255);
/// The shear warning: outlines, parallelograms, angles and the ring on a cause.
pub const SHEAR: Rgba = Rgba::rgb(255, 140, 0);
/// The plate under overlay notes (the shear angle and its cause).
pub const NOTE_PLATE: Rgba = Rgba([0, 0, 0, 170]);
/// A node's own x axis.
pub const LOCAL_X: Rgba = Rgba::rgb(230, 80, 80);
/// A node's own y axis.
pub const LOCAL_Y: Rgba = Rgba::rgb(80, 200, 80);
/// The accumulated-TRS ghosts.
pub const GHOST: Rgba = Rgba([230, 120, 255, 150]);
/// The world-blend ghosts.
pub const BLEND: Rgba = Rgba([90, 220, 255, 170]);
/// The selection's trails.
pub const TRAIL: Rgba = Rgba::rgb(120, 230, 255);
/// A drop ghost with the chosen keep setting (faded for the other).
pub const DROP_CHOSEN: Rgba = Rgba::rgb(120, 200, 255);
/// A drop ghost with the other keep setting.
pub const DROP_OTHER: Rgba = Rgba::rgb(255, 160, 90);
/// Handles: the x axis, the y axis, the centre and the ring.
pub const HANDLE_X: Rgba = Rgba::rgb(240, 80, 80);
/// The y axis handle.
pub const HANDLE_Y: Rgba = Rgba::rgb(90, 220, 90);
/// The centre square and the rotation ring.
pub const HANDLE_CENTER: Rgba = Rgba::rgb(90, 160, 255);
/// A sprite whose image is missing (a crossed box).
pub const MISSING: Rgba = Rgba::rgb(255, 0, 0);
/// Subtree boxes (View > Subtree bounds), the shallowest; deeper ones fade their green.
pub const SUBTREE_BOX: Rgba = Rgba([255, 255, 80, 200]);
/// A subtree the culling rectangle skips whole: its outline and fill.
pub const CULLED: Rgba = Rgba::rgb(220, 80, 80);
/// The fill of a culled subtree.
pub const CULLED_FILL: Rgba = Rgba([200, 60, 60, 40]);
/// The culling "camera" rectangle.
pub const CULLING_CAMERA: Rgba = Rgba::rgb(120, 220, 255);
/// The plate under the culling counts.
pub const TAG_PLATE: Rgba = Rgba([0, 0, 0, 190]);

/// Notes over the viewport (a singular view, the f32 precision at the centre).
pub const VIEW_NOTE: Rgba = Rgba::rgb(255, 200, 90);
/// The row being dropped onto, outlined in the viewport.
pub const DROP_TARGET: Rgba = Rgba::rgb(80, 220, 255);
/// The node under the pointer, outlined.
pub const HOVER: Rgba = Rgba([255, 255, 255, 180]);
/// A box selection's band (its fill is this, faint).
pub const MARQUEE: Rgba = Rgba::rgb(120, 170, 255);
/// Recomputed world matrices, flashed (fading).
pub const FLASH: Rgba = Rgba([90, 255, 200, 200]);
/// Probe pins and their lines (faint).
pub const PROBE: Rgba = Rgba::rgb(255, 110, 220);
/// A lesson's prediction: the learner's ghost and the arrow to the true place.
pub const PREDICTION: Rgba = Rgba::rgb(255, 190, 60);
/// The parent's grid (View > Parent's grid).
pub const PARENT_GRID: Rgba = Rgba::rgb(230, 110, 230);
/// The selection's own grid (View > Local grid of the selection).
pub const LOCAL_GRID: Rgba = Rgba::rgb(90, 220, 240);
/// The recording mark.
pub const RECORDING: Rgba = Rgba::rgb(230, 70, 60);
/// The timeline: a selected node's row and keys.
pub const TIMELINE_SELECTED: Rgba = Rgba::rgb(255, 210, 60);
/// The timeline: a row and its keys.
pub const TIMELINE_ROW: Rgba = Rgba::gray(200);
/// The timeline: its hint while nothing is animated.
pub const TIMELINE_HINT: Rgba = Rgba::gray(140);
/// The timeline: the playhead and a box selection of keys.
pub const PLAYHEAD: Rgba = Rgba::rgb(90, 200, 255);
/// The timeline: the ruler's lines.
pub const RULER_LINE: Rgba = Rgba::gray(55);
/// The timeline: the ruler's labels (5.2:1 on the panel; gray 130 was 4.48:1).
pub const RULER_TEXT: Rgba = Rgba::gray(140);
/// The timeline: a selected key.
pub const KEY_SELECTED: Rgba = Rgba::rgb(255, 140, 40);
/// The timeline: a selected key's outline.
pub const KEY_SELECTED_OUTLINE: Rgba = Rgba::gray(255);
/// The timeline: a key's outline.
pub const KEY_OUTLINE: Rgba = Rgba::gray(30);
/// A lesson: a step done, a right prediction.
pub const LESSON_DONE: Rgba = Rgba::rgb(90, 190, 110);
/// A lesson: a step broken, a wrong prediction.
pub const LESSON_BROKEN: Rgba = Rgba::rgb(235, 110, 90);
/// A lesson: what a step points at; a prediction off by a usual mistake.
pub const LESSON_HIGHLIGHT: Rgba = Rgba::rgb(255, 190, 60);
/// A lesson: the screen dimmed around what a step points at.
pub const LESSON_DIM: Rgba = Rgba([0, 0, 0, 120]);
/// A lesson's bubble: its text (on the highlight).
pub const BUBBLE_TEXT: Rgba = Rgba::gray(0);
/// A lesson's ghost pointer: its fill.
pub const POINTER_FILL: Rgba = Rgba([255, 255, 255, 235]);
/// A lesson's ghost pointer: its edge.
pub const POINTER_EDGE: Rgba = Rgba([0, 0, 0, 220]);
/// A lesson's ghost pointer: the plate under the name it carries.
pub const POINTER_CHIP: Rgba = Rgba([0, 0, 0, 170]);
/// A lesson's ghost pointer: the name it carries.
pub const POINTER_TEXT: Rgba = Rgba::gray(255);

/// Every colour a figure writes (a GIF's palette keeps each exactly, over the background).
pub const FIGURE: [Rgba; 16] = [
    BACKGROUND, GRID, GRID_TEXT, X_AXIS, Y_AXIS, LINK, OUTLINE, SELECTED, NAME, DOT, SHEAR,
    LOCAL_X, LOCAL_Y, GHOST, BLEND, TRAIL,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_opacity_and_blending_are_exact() {
        assert_eq!(SHEAR.hex(), "#ff8c00");
        assert_eq!(LINK.opacity(), 60.0 / 255.0);
        assert_eq!(
            Rgba::rgb(255, 0, 0).alpha(128).over(Rgba::gray(0)),
            Rgba::rgb(128, 0, 0)
        );
        assert_eq!(NAME.over(BACKGROUND), NAME);
    }

    #[test]
    fn contrast_is_wcag_s_ratio_and_the_view_s_text_reads() {
        assert!((contrast(Rgba::gray(0), Rgba::gray(255)) - 21.0).abs() < 1e-9);
        assert!((contrast(Rgba::gray(119), Rgba::gray(255)) - 4.48).abs() < 0.01);
        assert_eq!(contrast(SHEAR, SHEAR), 1.0);
        for (text, on) in [
            (GRID_TEXT, BACKGROUND),
            (GRID_TEXT, GRID),
            (NAME, NAME_HALO),
        ] {
            let ratio = contrast(text, on);
            assert!(ratio >= 4.5, "{} on {}: {ratio:.2}:1", text.hex(), on.hex());
        }
    }
}
