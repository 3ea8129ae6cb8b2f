//! The width of a figure's text, measured with the font that draws it: shaped (kerning
//! included) with harfrust, the shaper egui and resvg both use, in egui's Ubuntu Light (what
//! `png.rs` loads for resvg and the viewport draws with). A character Ubuntu lacks (an emoji)
//! takes its advance from the fallback fonts, as egui's fallback does.

use harfrust::{FontRef, ShapeOptions, ShaperData, UnicodeBuffer};
use std::sync::LazyLock;

/// The figure's fonts, in fallback order.
const FONTS: [&[u8]; 3] = [
    epaint_default_fonts::UBUNTU_LIGHT,
    epaint_default_fonts::NOTO_EMOJI_REGULAR,
    epaint_default_fonts::EMOJI_ICON,
];

/// One font ready to shape with: its data and units per em.
struct Face {
    font: FontRef<'static>,
    data: ShaperData,
    units_per_em: f32,
}

static FACES: LazyLock<Vec<Face>> = LazyLock::new(|| {
    FONTS
        .iter()
        .filter_map(|bytes| {
            let font = FontRef::new(bytes).ok()?;
            let data = ShaperData::new(&font);
            let units_per_em = data.shaper(&font).build().units_per_em() as f32;
            Some(Face {
                data,
                font,
                units_per_em,
            })
        })
        .collect()
});

/// `text` shaped in `face`: its advance in ems, or None when a glyph is missing.
fn shaped_em(face: &Face, text: &str) -> Option<f32> {
    let shaper = face.data.shaper(&face.font).build();
    let mut buffer = UnicodeBuffer::new();
    buffer.push_str(text);
    buffer.guess_segment_properties();
    let glyphs = shaper.shape(buffer, ShapeOptions::new());
    if glyphs.glyph_infos().iter().any(|g| g.glyph_id == 0) {
        return None;
    }
    let units: i32 = glyphs.glyph_positions().iter().map(|p| p.x_advance).sum();
    Some(units as f32 / face.units_per_em)
}

/// The width (px) of `text` at `size` px in the figure's font.
pub fn text_width(text: &str, size: f32) -> f32 {
    let Some((first, rest)) = FACES.split_first() else {
        return 0.5 * size * text.chars().count() as f32;
    };
    if let Some(em) = shaped_em(first, text) {
        return em * size;
    }
    // Some character is not in the first font: each character from the first that has it.
    let mut buf = [0u8; 4];
    let em: f32 = text
        .chars()
        .map(|c| {
            let c = &*c.encode_utf8(&mut buf);
            std::iter::once(first)
                .chain(rest)
                .find_map(|face| shaped_em(face, c))
                .unwrap_or(0.5)
        })
        .sum();
    em * size
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_come_from_the_glyphs_not_a_count_of_characters() {
        let (narrow, wide) = (text_width("iiii", 12.0), text_width("WWWW", 12.0));
        assert!(narrow > 0.0 && wide > 2.0 * narrow, "{narrow} {wide}");
        assert_eq!(text_width("ab", 24.0), 2.0 * text_width("ab", 12.0));
        assert_eq!(text_width("", 12.0), 0.0);
        assert!(text_width("a ⚠", 12.0) > text_width("a ", 12.0));
    }
}
