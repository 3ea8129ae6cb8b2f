//! The small SVG syntaxes the import reads, as plain numbers: path data flattened to polygons
//! (one per subpath) within a tolerance relative to the path's size, `points` lists,
//! transform lists, lengths, `viewBox` and `preserveAspectRatio`, opacities, colour averages,
//! links to image files, and the CSS of `<style>` sheets (rules with `tag`, `.class` and `#id`
//! selectors).
//!
//! svgtypes' `SimplifyingPathParser` gives absolute M / L / C / Q / Z (relative, smooth, H / V
//! made absolute; arcs converted to cubics by kurbo, each spanning at most 90°, which lie within
//! 2.7·10⁻⁴·r of the true ellipse); each curve is then cut into equal parameter steps so its
//! chords stay within [`FLATTEN_TOLERANCE`] of it.

use glam::{DAffine2, DVec2};
use roxmltree::Node;
use std::path::PathBuf;
use std::str::FromStr;
use svgtypes::{Align, AspectRatio, Length, LengthUnit, SimplePathSegment as Seg, ViewBox};
use svgtypes::{SimplifyingPathParser, TransformListParser, TransformListToken as Token};

/// How far a flattened curve may stray from the true curve, as a fraction of the path's size
/// (the diagonal of the box around all its points, control points included): 10⁻³, so an
/// icon in a 24-unit box and a map in kilometres flatten alike, and a curve spanning the whole
/// box becomes at most ~40 chords. Vertices lie on the curve; the chords between them stay
/// within this distance of it (the bound `max|B''|·h²/8` for parameter steps `h`).
pub const FLATTEN_TOLERANCE: f64 = 1e-3;

/// Chords per curve at most (never reached with the relative tolerance: the bound gives ≤ 39).
const MAX_CHORDS: usize = 64;

/// A path or point list read as polygons.
#[derive(Debug, Default)]
pub struct Flattened {
    /// One point list per subpath with at least three distinct points (implicitly closed, as
    /// SVG fills them); repeated points and a closing point equal to the first are dropped.
    pub subpaths: Vec<Vec<DVec2>>,
    /// Subpaths left out because they enclose nothing (two distinct points).
    pub degenerate: usize,
    /// The parser's complaint if the data broke off (everything before it is kept, as SVG
    /// renderers do).
    pub error: Option<String>,
}

/// Flatten path data `d`. A non-finite number ends the path like a syntax error.
pub fn flatten_path(d: &str) -> Flattened {
    let (d, arc_error) = super::arcs::without_huge_arcs(d);
    let d = d.as_ref();
    let tolerance = path_tolerance(d);
    let mut out = Flattened::default();
    let mut current: Vec<DVec2> = Vec::new();
    let mut at = DVec2::ZERO;
    for segment in SimplifyingPathParser::from(d) {
        let segment = match segment {
            Ok(s) => s,
            Err(e) => {
                out.error = Some(e.to_string());
                break;
            }
        };
        let (p, n) = points(&segment);
        if p[..n].iter().any(|p| !p.is_finite()) {
            out.error = Some("a number out of range".into());
            break;
        }
        match segment {
            Seg::MoveTo { .. } => {
                finish(&mut out, &mut current);
                current.push(p[0]);
            }
            Seg::LineTo { .. } => push(&mut current, p[0]),
            Seg::Quadratic { .. } => push_quadratic(&mut current, [at, p[0], p[1]], tolerance),
            Seg::CurveTo { .. } => push_cubic(&mut current, [at, p[0], p[1], p[2]], tolerance),
            Seg::ClosePath => finish(&mut out, &mut current),
        }
        if n > 0 {
            at = p[n - 1];
        }
    }
    finish(&mut out, &mut current);
    if out.error.is_none() {
        out.error = arc_error;
    }
    out
}

/// The flattening tolerance for path data `d`: [`FLATTEN_TOLERANCE`] times the diagonal of
/// the box around its points up to the first bad one (parsing twice keeps no segment list).
fn path_tolerance(d: &str) -> f64 {
    let (mut lo, mut hi) = (DVec2::INFINITY, DVec2::NEG_INFINITY);
    for (points, n) in SimplifyingPathParser::from(d).map_while(|s| s.ok().map(|s| points(&s))) {
        if points[..n].iter().any(|p| !p.is_finite()) {
            break;
        }
        for p in &points[..n] {
            (lo, hi) = (lo.min(*p), hi.max(*p));
        }
    }
    let size = if lo.x <= hi.x {
        (hi - lo).length()
    } else {
        0.0
    };
    (FLATTEN_TOLERANCE * size).max(f64::MIN_POSITIVE)
}

/// Chords for a curve needing `ceil(sqrt(m))` of them, between 1 and [`MAX_CHORDS`].
fn chord_count(m: f64) -> usize {
    let n = m.sqrt().ceil();
    if n.is_finite() {
        (n as usize).clamp(1, MAX_CHORDS)
    } else {
        MAX_CHORDS
    }
}

/// Append the quadratic Bézier `[P0, P1, P2]` cut into equal parameter steps (P0 excluded),
/// its chords within `tolerance` of it.
fn push_quadratic(current: &mut Vec<DVec2>, [p0, p1, p2]: [DVec2; 3], tolerance: f64) {
    // |B''| = 2·|P0 − 2P1 + P2|, so n ≥ sqrt(|P0 − 2P1 + P2| / (4·tol)).
    let n = chord_count((p0 - 2.0 * p1 + p2).length() / (4.0 * tolerance));
    for k in 1..=n {
        let t = k as f64 / n as f64;
        let u = 1.0 - t;
        push(current, u * u * p0 + 2.0 * u * t * p1 + t * t * p2);
    }
}

/// Append the cubic Bézier `[P0, P1, P2, P3]` cut into equal parameter steps (P0 excluded),
/// its chords within `tolerance` of it.
fn push_cubic(current: &mut Vec<DVec2>, [p0, p1, p2, p3]: [DVec2; 4], tolerance: f64) {
    // |B''| ≤ 6·max(|P0 − 2P1 + P2|, |P1 − 2P2 + P3|), so n ≥ sqrt(0.75·m / tol).
    let m = (p0 - 2.0 * p1 + p2)
        .length()
        .max((p1 - 2.0 * p2 + p3).length());
    let n = chord_count(0.75 * m / tolerance);
    for k in 1..=n {
        let t = k as f64 / n as f64;
        let u = 1.0 - t;
        let q = u * u * u * p0 + 3.0 * u * u * t * p1 + 3.0 * u * t * t * p2;
        push(current, q + t * t * t * p3);
    }
}

/// A polygon's or polyline's `points`: pairs of numbers (an odd last number is ignored, as
/// SVG does), up to the first non-finite one.
pub fn points_list(text: &str) -> Flattened {
    let mut out = Flattened::default();
    let mut current = Vec::new();
    for p in svgtypes::PointsParser::from(text).map(|(x, y)| DVec2::new(x, y)) {
        if !p.is_finite() {
            out.error = Some("a number out of range".into());
            break;
        }
        push(&mut current, p);
    }
    finish(&mut out, &mut current);
    out
}

/// A `transform` attribute as a matrix composed in f64 in the order written
/// (`translate(10 20) rotate(30)` = T·R); svgtypes splits `rotate(a cx cy)` into
/// translate · rotate · translate back.
pub fn transform_list(text: &str) -> Result<DAffine2, String> {
    let mut m = DAffine2::IDENTITY;
    for token in TransformListParser::from(text) {
        let cols = match token.map_err(|e| e.to_string())? {
            Token::Matrix { a, b, c, d, e, f } => [a, b, c, d, e, f],
            Token::Translate { tx, ty } => [1.0, 0.0, 0.0, 1.0, tx, ty],
            Token::Scale { sx, sy } => [sx, 0.0, 0.0, sy, 0.0, 0.0],
            Token::Rotate { angle } => {
                let (s, c) = crate::model::math::sin_cos_deg(angle);
                [c, s, -s, c, 0.0, 0.0]
            }
            Token::SkewX { angle } => [1.0, 0.0, angle.to_radians().tan(), 1.0, 0.0, 0.0],
            Token::SkewY { angle } => [1.0, angle.to_radians().tan(), 0.0, 1.0, 0.0, 0.0],
        };
        m *= DAffine2::from_cols_array(&cols);
    }
    if m.is_finite() {
        Ok(m)
    } else {
        Err("a number out of range".into())
    }
}

/// The transform that fits a box of `size` at the origin into `into`, per
/// `preserveAspectRatio` (default `xMidYMid meet`).
pub fn fit(par: Option<AspectRatio>, size: DVec2, into: DVec2) -> DAffine2 {
    let s = into / size;
    let (align, slice) = par.map_or((Align::XMidYMid, false), |p| (p.align, p.slice));
    let k = if slice { s.x.max(s.y) } else { s.x.min(s.y) };
    use Align::*;
    let f = match align {
        None => return DAffine2::from_scale(s),
        XMinYMin => DVec2::new(0.0, 0.0),
        XMidYMin => DVec2::new(0.5, 0.0),
        XMaxYMin => DVec2::new(1.0, 0.0),
        XMinYMid => DVec2::new(0.0, 0.5),
        XMidYMid => DVec2::new(0.5, 0.5),
        XMaxYMid => DVec2::new(1.0, 0.5),
        XMinYMax => DVec2::new(0.0, 1.0),
        XMidYMax => DVec2::new(0.5, 1.0),
        XMaxYMax => DVec2::new(1.0, 1.0),
    };
    DAffine2::from_translation((into - size * k) * f) * DAffine2::from_scale(DVec2::splat(k))
}

/// An RGBA colour as svgtypes reads it.
pub type Rgba = svgtypes::Color;

/// An [`Rgba`] in a constant.
pub const fn rgba(red: u8, green: u8, blue: u8, alpha: u8) -> Rgba {
    Rgba {
        red,
        green,
        blue,
        alpha,
    }
}

/// The map of a `viewBox` (with `preserveAspectRatio`) into a viewport of size (w, h) (a
/// missing side follows the viewBox's aspect ratio), and the viewBox's size; None when the
/// viewBox is unreadable or the map is not finite.
pub fn view_box(
    text: &str,
    par: Option<&str>,
    (w, h): (Option<f64>, Option<f64>),
) -> Option<(DAffine2, DVec2)> {
    let vb = ViewBox::from_str(text).ok()?;
    let b = DVec2::new(vb.w, vb.h);
    let size = match (w, h) {
        (Some(w), Some(h)) => DVec2::new(w, h),
        (Some(w), None) => DVec2::new(w, w * vb.h / vb.w),
        (None, Some(h)) => DVec2::new(h * vb.w / vb.h, h),
        (None, None) => b,
    };
    let par = par.and_then(|v| AspectRatio::from_str(v).ok());
    let m = fit(par, b, size) * DAffine2::from_translation(-DVec2::new(vb.x, vb.y));
    (m.is_finite() && b.is_finite()).then_some((m, b))
}

/// The average of colours with opacities (None for none).
pub fn average(colours: impl Iterator<Item = (Rgba, f64)>) -> Option<Rgba> {
    let (mut sum, mut n) = ([0.0; 4], 0.0);
    for (c, opacity) in colours {
        let alpha = opacity * c.alpha as f64;
        for (s, v) in sum
            .iter_mut()
            .zip([c.red as f64, c.green as f64, c.blue as f64, alpha])
        {
            *s += v;
        }
        n += 1.0;
    }
    let [r, g, b, a] = sum.map(|s| (s / n).round().clamp(0.0, 255.0) as u8);
    (n > 0.0).then_some(rgba(r, g, b, a))
}

/// A length in user units (px; in, cm, mm, pt, pc at 96 dpi; em = 16 px, ex = 8 px; a
/// percentage of `reference`). None when it is not a length or not finite.
pub fn length(text: &str, reference: f64) -> Option<f64> {
    let Length { number, unit } = text.parse::<Length>().ok()?;
    let scale = match unit {
        LengthUnit::None | LengthUnit::Px => 1.0,
        LengthUnit::Em => 16.0,
        LengthUnit::Ex => 8.0,
        LengthUnit::In => 96.0,
        LengthUnit::Cm => 96.0 / 2.54,
        LengthUnit::Mm => 96.0 / 25.4,
        LengthUnit::Pt => 4.0 / 3.0,
        LengthUnit::Pc => 16.0,
        LengthUnit::Percent => reference / 100.0,
    };
    Some(number * scale).filter(|v| v.is_finite())
}

/// An opacity: a number or a percentage, clamped to 0..1.
pub fn opacity(text: &str) -> Option<f64> {
    let text = text.trim();
    let v = match text.strip_suffix('%') {
        Some(p) => p.trim().parse::<f64>().ok()? / 100.0,
        None => text.parse::<f64>().ok()?,
    };
    v.is_finite().then(|| v.clamp(0.0, 1.0))
}

/// A link to a file on this machine (relative, absolute or `file:`), percent-decoded; None
/// for `data:`, `http:` and other schemes.
pub fn local_file(href: &str) -> Option<PathBuf> {
    let href = href.trim();
    let rest = match href.split_once(':') {
        Some(("file", rest)) => rest.strip_prefix("//").unwrap_or(rest),
        // One letter is a Windows drive (C:\…), not a scheme.
        Some((scheme, _)) if scheme.len() > 1 && !scheme.contains(['/', '\\', '.']) => {
            return None;
        }
        _ => href,
    };
    let bytes = rest.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut k = 0;
    while k < bytes.len() {
        let hex = bytes
            .get(k + 1..k + 3)
            .and_then(|h| std::str::from_utf8(h).ok());
        match hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
            Some(v) if bytes[k] == b'%' => (out.push(v), k += 3),
            _ => (out.push(bytes[k]), k += 1),
        };
    }
    (!out.is_empty()).then(|| PathBuf::from(String::from_utf8_lossy(&out).into_owned()))
}

/// (points, count) of a segment: its control points and end point.
fn points(s: &Seg) -> ([DVec2; 3], usize) {
    let v = DVec2::new;
    match *s {
        Seg::MoveTo { x, y } | Seg::LineTo { x, y } => ([v(x, y), DVec2::ZERO, DVec2::ZERO], 1),
        Seg::Quadratic { x1, y1, x, y } => ([v(x1, y1), v(x, y), DVec2::ZERO], 2),
        Seg::CurveTo {
            x1,
            y1,
            x2,
            y2,
            x,
            y,
        } => ([v(x1, y1), v(x2, y2), v(x, y)], 3),
        Seg::ClosePath => ([DVec2::ZERO; 3], 0),
    }
}

fn push(points: &mut Vec<DVec2>, p: DVec2) {
    if points.last() != Some(&p) {
        points.push(p);
    }
}

fn finish(out: &mut Flattened, current: &mut Vec<DVec2>) {
    if current.len() > 1 && current.first() == current.last() {
        current.pop();
    }
    match current.len() {
        0 | 1 => current.clear(),
        2 => {
            out.degenerate += 1;
            current.clear();
        }
        _ => out.subpaths.push(std::mem::take(current)),
    }
}

/// A CSS rule with one compound selector (`tag`, `*`, `.class`, `#id`, combined).
pub struct Rule {
    tag: Option<String>,
    ids: Vec<String>,
    classes: Vec<String>,
    decls: Vec<(String, String)>,
}

/// The rules of the drawing's `<style>` sheets, least specific first (sheet order among
/// equals).
#[derive(Default)]
pub struct Css {
    rules: Vec<Rule>,
}

impl Css {
    /// Add a sheet's rules (comments and `@` blocks skipped); returns the selectors it
    /// could not read (with combinators, attributes or pseudo-classes), whose rules are ignored.
    pub fn parse(&mut self, sheet: &str) -> Vec<String> {
        let mut unsupported = Vec::new();
        let mut text = String::with_capacity(sheet.len());
        let mut rest = sheet;
        while let Some(start) = rest.find("/*") {
            text.push_str(&rest[..start]);
            rest = rest[start..]
                .find("*/")
                .map_or("", |end| &rest[start + end + 2..]);
        }
        text.push_str(rest);
        let text = text.replace("<!--", "").replace("-->", "");
        let mut pos = 0;
        while let Some(open) = text[pos..].find('{').map(|k| pos + k) {
            let prelude = text[pos..open].rsplit(';').next().unwrap_or("").trim();
            if prelude.starts_with('@') {
                let mut depth = 0usize;
                let end = text[open..].char_indices().find(|&(_, c)| {
                    depth = match c {
                        '{' => depth + 1,
                        '}' => depth.saturating_sub(1),
                        _ => depth,
                    };
                    c == '}' && depth == 0
                });
                pos = end.map_or(text.len(), |(k, _)| open + k + 1);
                continue;
            }
            let end = text[open..].find('}').map_or(text.len(), |k| open + k);
            let decls: Vec<(String, String)> = declarations(&text[open + 1..end])
                .map(|(n, v)| (n.to_string(), v.to_string()))
                .collect();
            for selector in prelude.split(',').map(str::trim) {
                match compound(selector) {
                    Some((tag, ids, classes)) => {
                        let decls = decls.clone();
                        self.rules.push(Rule {
                            tag,
                            ids,
                            classes,
                            decls,
                        });
                    }
                    None => unsupported.push(selector.to_string()),
                }
            }
            pos = (end + 1).min(text.len());
        }
        // Most specific last, keeping sheet order among equals (a stable sort).
        self.rules
            .sort_by_key(|r| (r.ids.len(), r.classes.len(), r.tag.is_some()));
        unsupported
    }

    /// The rules that apply to an element, least specific first.
    pub fn matching(&self, node: Node) -> Vec<&Rule> {
        if self.rules.is_empty() {
            return Vec::new();
        }
        let class = node.attribute("class").unwrap_or("");
        let (id, tag) = (node.attribute("id"), node.tag_name().name());
        let hit = |r: &&Rule| {
            r.tag.as_deref().is_none_or(|t| t == tag)
                && r.ids.iter().all(|i| Some(i.as_str()) == id)
                && r.classes
                    .iter()
                    .all(|c| class.split_ascii_whitespace().any(|k| k == c))
        };
        self.rules.iter().filter(hit).collect()
    }
}

/// A property's declared value: the `style` attribute, then the CSS rules (most specific,
/// then latest, first), then the presentation attribute.
pub fn declared<'a>(node: Node<'a, '_>, rules: &[&'a Rule], name: &str) -> Option<&'a str> {
    let style = node.attribute("style").unwrap_or("");
    if let Some((_, v)) = declarations(style).filter(|(n, _)| *n == name).last() {
        return Some(v);
    }
    (rules.iter().rev())
        .find_map(|r| r.decls.iter().rev().find(|(n, _)| n == name))
        .map(|(_, v)| v.as_str())
        .or_else(|| node.attribute(name).map(str::trim))
}

/// `name: value` pairs of a declaration block (`!important` dropped).
fn declarations(block: &str) -> impl Iterator<Item = (&str, &str)> {
    block.split(';').filter_map(|d| {
        let (n, v) = d.split_once(':')?;
        let v = v.trim();
        Some((n.trim(), v.strip_suffix("!important").map_or(v, str::trim)))
    })
}

type Compound = (Option<String>, Vec<String>, Vec<String>);

/// `tag.class#id` and the like; None for anything with combinators, attributes or pseudos.
fn compound(selector: &str) -> Option<Compound> {
    let ident = |c: char| c.is_alphanumeric() || c == '-' || c == '_' || !c.is_ascii();
    let mut parts = Vec::new();
    let mut start = 0;
    for (k, c) in selector.char_indices().chain([(selector.len(), '.')]) {
        if c == '.' || c == '#' {
            parts.push(&selector[start..k]);
            start = k;
        } else if !(ident(c) || c == '*' && k == 0) {
            return None;
        }
    }
    let (mut tag, mut ids, mut classes) = (None, Vec::new(), Vec::new());
    for (k, part) in parts.into_iter().enumerate() {
        match (k, part.chars().next()) {
            (0, None) if selector.is_empty() => return None,
            (0, None | Some('*')) => {}
            (0, Some(_)) => tag = Some(part.to_string()),
            (_, Some('.')) if part.len() > 1 => classes.push(part[1..].to_string()),
            (_, Some('#')) if part.len() > 1 => ids.push(part[1..].to_string()),
            _ => return None,
        }
    }
    Some((tag, ids, classes))
}
