//! One palette for a whole GIF. Per-frame palettes (the `gif` crate's NeuQuant on each frame)
//! gave the same node different colours in different frames (the blue earth of the solar
//! system turned grey in half of them). Here the palette is built once: the figure's own colours
//! and every node's colour exactly, then the rest of the 256 entries from a median cut of the
//! colours of a few sample frames; every frame maps each pixel to its nearest entry, so a
//! colour that is in the palette is drawn exactly, and the same colour maps to the same entry in
//! every frame.

use crate::model::scene::Scene;
use rustc_hash::FxHashMap;

/// Entries a GIF palette holds.
const ENTRIES: usize = 256;
/// At most this many exact colours (the figure's and the nodes'); the rest are for the blends.
const EXACT_MAX: usize = 160;

/// A fixed palette and the nearest-entry lookups already made.
pub struct Palette {
    colors: Vec<[u8; 3]>,
    cache: FxHashMap<[u8; 3], u8>,
}

/// `color` over `under` with alpha `a` (0–255).
fn over(color: [u8; 3], a: u8, under: [u8; 3]) -> [u8; 3] {
    let mix =
        |c: u8, u: u8| ((c as u32 * a as u32 + u as u32 * (255 - a as u32) + 127) / 255) as u8;
    [
        mix(color[0], under[0]),
        mix(color[1], under[1]),
        mix(color[2], under[2]),
    ]
}

/// The colours a figure of `scene` draws as they are: its own (background, grid, names,
/// marks) and each node's fill over the background.
pub fn exact_colors(scene: &Scene) -> Vec<[u8; 3]> {
    use crate::editor::view::palette::{BACKGROUND, FIGURE};
    let background = BACKGROUND.rgb_bytes();
    let mut out: Vec<[u8; 3]> = FIGURE
        .iter()
        .map(|c| c.over(BACKGROUND).rgb_bytes())
        .collect();
    out.extend([[255, 255, 255], [0, 0, 0]]);
    for i in 0..scene.len() {
        let [r, g, b, a] = scene.data_at(i).color;
        out.push(over([r, g, b], a, background));
        if out.len() > 4 * EXACT_MAX {
            break;
        }
    }
    let mut seen = rustc_hash::FxHashSet::default();
    out.retain(|c| seen.insert(*c));
    out.truncate(EXACT_MAX);
    out
}

impl Palette {
    /// The palette: `exact` colours first, then up to 256 in all from the sample frames' other
    /// colours (RGBA pixels, alpha ignored: figures are opaque).
    pub fn build(exact: &[[u8; 3]], samples: &[Vec<u8>]) -> Self {
        let mut colors: Vec<[u8; 3]> = exact.iter().copied().take(EXACT_MAX).collect();
        let known: rustc_hash::FxHashSet<[u8; 3]> = colors.iter().copied().collect();
        let mut counts: FxHashMap<[u8; 3], u32> = FxHashMap::default();
        for rgba in samples {
            for p in rgba.chunks_exact(4) {
                let c = [p[0], p[1], p[2]];
                if !known.contains(&c) {
                    *counts.entry(c).or_default() += 1;
                }
            }
        }
        let mut rest: Vec<([u8; 3], u32)> = counts.into_iter().collect();
        rest.sort_unstable();
        colors.extend(median_cut(rest, ENTRIES - colors.len()));
        Self {
            colors,
            cache: FxHashMap::default(),
        }
    }

    /// The palette as the GIF wants it: r, g, b per entry.
    pub fn bytes(&self) -> Vec<u8> {
        self.colors.iter().flatten().copied().collect()
    }

    /// Each RGBA pixel's nearest entry.
    pub fn map(&mut self, rgba: &[u8]) -> Vec<u8> {
        rgba.chunks_exact(4)
            .map(|p| {
                let c = [p[0], p[1], p[2]];
                if let Some(&k) = self.cache.get(&c) {
                    return k;
                }
                let k = nearest(&self.colors, c);
                self.cache.insert(c, k);
                k
            })
            .collect()
    }
}

/// The index of the entry nearest `c` (squared distance; the first of equals).
fn nearest(colors: &[[u8; 3]], c: [u8; 3]) -> u8 {
    let d = |e: &[u8; 3]| -> i32 { (0..3).map(|k| (e[k] as i32 - c[k] as i32).pow(2)).sum() };
    let best = colors
        .iter()
        .enumerate()
        .min_by_key(|(k, e)| (d(e), *k))
        .map_or(0, |(k, _)| k);
    best.min(ENTRIES - 1) as u8
}

/// Up to `n` colours standing for `colors` (with their counts): the box of colours with the
/// most pixels times its widest side is split at its weighted median, until there are `n`
/// boxes; each gives its weighted mean.
fn median_cut(colors: Vec<([u8; 3], u32)>, n: usize) -> Vec<[u8; 3]> {
    if colors.is_empty() || n == 0 {
        return Vec::new();
    }
    let mut boxes = vec![colors];
    while boxes.len() < n {
        let score = |b: &Vec<([u8; 3], u32)>| {
            let (axis, side) = widest(b);
            let weight: u64 = b.iter().map(|c| c.1 as u64).sum();
            (weight * side as u64, axis)
        };
        let Some((k, (s, axis))) = boxes.iter().map(score).enumerate().max_by_key(|x| x.1.0) else {
            break;
        };
        if s == 0 {
            break;
        }
        let mut b = boxes.swap_remove(k);
        b.sort_unstable_by_key(|c| (c.0[axis], c.0));
        let total: u64 = b.iter().map(|c| c.1 as u64).sum();
        let mut acc = 0;
        let cut = b
            .iter()
            .position(|c| {
                acc += c.1 as u64;
                2 * acc >= total
            })
            .map_or(1, |p| (p + 1).clamp(1, b.len() - 1));
        let tail = b.split_off(cut);
        boxes.push(b);
        boxes.push(tail);
    }
    boxes.iter().map(|b| mean(b)).collect()
}

/// The channel along which a box is widest, and how wide.
fn widest(b: &[([u8; 3], u32)]) -> (usize, u8) {
    (0..3)
        .map(|axis| {
            let lo = b.iter().map(|c| c.0[axis]).min().unwrap_or(0);
            let hi = b.iter().map(|c| c.0[axis]).max().unwrap_or(0);
            (axis, hi - lo)
        })
        .max_by_key(|x| x.1)
        .unwrap_or((0, 0))
}

/// The weighted mean colour of a box.
fn mean(b: &[([u8; 3], u32)]) -> [u8; 3] {
    let total: u64 = b.iter().map(|c| c.1 as u64).sum::<u64>().max(1);
    let channel = |k: usize| {
        let sum: u64 = b.iter().map(|c| c.0[k] as u64 * c.1 as u64).sum();
        ((sum + total / 2) / total) as u8
    };
    [channel(0), channel(1), channel(2)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_colours_map_to_themselves_and_the_palette_fits_a_gif() {
        let exact = [[70, 130, 220], [28, 28, 28]];
        let frame: Vec<u8> = (0..4000u32)
            .flat_map(|k| {
                [
                    (k % 251) as u8,
                    (k % 13 * 19) as u8,
                    (k % 7 * 36) as u8,
                    255,
                ]
            })
            .collect();
        let mut palette = Palette::build(&exact, &[frame]);
        assert!(palette.bytes().len() <= 3 * ENTRIES);
        let mapped = palette.map(&[70, 130, 220, 255, 28, 28, 28, 255]);
        assert_eq!(mapped, vec![0, 1]);
        assert_eq!(over([255, 0, 0], 128, [0, 0, 0]), [128, 0, 0]);
    }
}
