//! SVG import proofs. The fixtures in `tests/fixtures/svg/` were written for these tests: every
//! transform syntax nested and mixed, colours in every syntax, curves and arcs, and documents
//! in the shape of Inkscape and Illustrator exports. World matrices are checked against the
//! SVG's composed transforms computed here, independently: svgtypes only tokenizes the
//! transform lists; the matrices, their products, the viewBox mapping and the y flip are
//! written out below as plain 3×3 arrays.

use glam::{Affine2, DVec2, Vec2};
use graft::error::Error;
use graft::model::math::Trs;
use graft::model::scene::{NodeData, NodeId, NodeSpec, Scene, Shape, Sprite};
use graft::model::svg::import::{FLATTEN_TOLERANCE, SvgImport, import_svg_file, import_svg_text};
use proptest::prelude::*;
use std::path::{Path, PathBuf};
use svgtypes::{TransformListParser, TransformListToken as T};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/svg")
        .join(name)
}

fn load(name: &str) -> SvgImport {
    import_svg_file(&fixture(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// A 2D affine as a row-major 3×3 matrix (column vectors).
type M = [[f64; 3]; 3];

fn m(a: f64, b: f64, c: f64, d: f64, e: f64, f: f64) -> M {
    [[a, c, e], [b, d, f], [0.0, 0.0, 1.0]]
}

fn mul(x: &M, y: &M) -> M {
    let mut out = [[0.0; 3]; 3];
    for (i, row) in out.iter_mut().enumerate() {
        for (j, v) in row.iter_mut().enumerate() {
            *v = (0..3).map(|k| x[i][k] * y[k][j]).sum();
        }
    }
    out
}

const I: M = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
const FLIP: M = [[1.0, 0.0, 0.0], [0.0, -1.0, 0.0], [0.0, 0.0, 1.0]];

fn translate(x: f64, y: f64) -> M {
    m(1.0, 0.0, 0.0, 1.0, x, y)
}

/// A transform list composed left to right; a singular result counts as identity (what the
/// import promises, with a note).
fn parse_transform(text: &str) -> M {
    let mut out = I;
    for token in TransformListParser::from(text) {
        let step = match token.expect("fixture transforms parse") {
            T::Matrix { a, b, c, d, e, f } => m(a, b, c, d, e, f),
            T::Translate { tx, ty } => translate(tx, ty),
            T::Scale { sx, sy } => m(sx, 0.0, 0.0, sy, 0.0, 0.0),
            T::Rotate { angle } => {
                let (s, c) = angle.to_radians().sin_cos();
                m(c, s, -s, c, 0.0, 0.0)
            }
            T::SkewX { angle } => m(1.0, 0.0, angle.to_radians().tan(), 1.0, 0.0, 0.0),
            T::SkewY { angle } => m(1.0, angle.to_radians().tan(), 0.0, 1.0, 0.0, 0.0),
        };
        out = mul(&out, &step);
    }
    let det = out[0][0] * out[1][1] - out[0][1] * out[1][0];
    if det.abs() < 1e-12 { I } else { out }
}

fn number(node: roxmltree::Node, name: &str) -> f64 {
    let text = node.attribute(name).unwrap_or("0");
    if let Some(mm) = text.strip_suffix("mm") {
        mm.parse::<f64>().unwrap() * 96.0 / 25.4
    } else {
        text.trim_end_matches("px").parse().unwrap()
    }
}

/// The root's viewBox → viewport map (xMidYMid meet), or identity.
fn viewbox(root: roxmltree::Node) -> M {
    let Some(vb) = root.attribute("viewBox") else {
        return I;
    };
    let v: Vec<f64> = vb
        .split([' ', ','])
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().unwrap())
        .collect();
    let (w, h) = (number(root, "width"), number(root, "height"));
    let s = (w / v[2]).min(h / v[3]);
    let offset = translate((w - v[2] * s) / 2.0, (h - v[3] * s) / 2.0);
    mul(
        &mul(&offset, &m(s, 0.0, 0.0, s, 0.0, 0.0)),
        &translate(-v[0], -v[1]),
    )
}

fn name_of(node: roxmltree::Node) -> Option<String> {
    let label = node.attribute(("http://www.inkscape.org/namespaces/inkscape", "label"));
    label.or(node.attribute("id")).map(str::to_string)
}

/// Flip · CTM of every named, drawn element outside `<defs>` (not `<use>`, text, lines), a
/// shape's CTM taken at its centre as the import places it.
fn expected_worlds(text: &str, skip: &[&str]) -> Vec<(String, M)> {
    let doc = roxmltree::Document::parse_with_options(
        text,
        roxmltree::ParsingOptions {
            allow_dtd: true,
            ..Default::default()
        },
    )
    .unwrap();
    let root = doc.root_element();
    let mut out = Vec::new();
    for node in root.descendants().filter(|n| n.is_element()) {
        let tag = node.tag_name().name();
        let drawn = [
            "svg", "g", "a", "switch", "rect", "circle", "ellipse", "path", "polygon", "image",
        ];
        let hidden = node
            .ancestors()
            .any(|a| matches!(a.tag_name().name(), "defs" | "clipPath"));
        let Some(name) = name_of(node) else { continue };
        if !drawn.contains(&tag) || hidden || skip.contains(&name.as_str()) {
            continue;
        }
        let chain: Vec<_> = node.ancestors().filter(|a| a.is_element()).collect();
        let mut ctm = mul(&FLIP, &viewbox(root));
        for element in chain.iter().rev() {
            ctm = mul(
                &ctm,
                &parse_transform(element.attribute("transform").unwrap_or("")),
            );
        }
        let centre = match tag {
            "rect" | "image" => translate(
                number(node, "x") + number(node, "width") / 2.0,
                number(node, "y") + number(node, "height") / 2.0,
            ),
            "circle" | "ellipse" => translate(number(node, "cx"), number(node, "cy")),
            _ => I,
        };
        out.push((name, mul(&ctm, &centre)));
    }
    out
}

fn index_named(scene: &Scene, name: &str) -> usize {
    let found: Vec<usize> = (0..scene.len())
        .filter(|&i| scene.data_at(i).name == name)
        .collect();
    assert_eq!(found.len(), 1, "exactly one node named {name:?}: {found:?}");
    found[0]
}

/// Within 1e-5 of the larger of 1 and the matrix's largest entry (linear part and
/// translation measured apart).
fn assert_close(what: &str, got: Affine2, want: &M) {
    let g = got.to_cols_array().map(f64::from);
    let w = [
        want[0][0], want[1][0], want[0][1], want[1][1], want[0][2], want[1][2],
    ];
    let lin = w[..4].iter().fold(1.0f64, |a, v| a.max(v.abs()));
    let all = w.iter().fold(lin, |a, v| a.max(v.abs()));
    for k in 0..6 {
        let scale = if k < 4 { lin } else { all };
        assert!(
            (g[k] - w[k]).abs() <= 1e-5 * scale,
            "{what}: world {g:?}, want {w:?}"
        );
    }
}

fn assert_worlds(file: &str, skip: &[&str]) -> SvgImport {
    let import = load(file);
    let text = std::fs::read_to_string(fixture(file)).unwrap();
    let expected = expected_worlds(&text, skip);
    assert!(
        expected.len() >= 8,
        "{file}: {} named elements",
        expected.len()
    );
    for (name, want) in &expected {
        let i = index_named(&import.scene, name);
        assert_close(&format!("{file}: {name}"), import.scene.world_at(i), want);
    }
    import
}

fn has_note(import: &SvgImport, text: &str) -> bool {
    import.notes.iter().any(|n| n.contains(text))
}

fn shape_of(import: &SvgImport, name: &str) -> Shape {
    import
        .scene
        .data_at(index_named(&import.scene, name))
        .shape
        .clone()
}

fn color_of(import: &SvgImport, name: &str) -> [u8; 4] {
    import.scene.data_at(index_named(&import.scene, name)).color
}

fn points_of(import: &SvgImport, name: &str) -> Vec<DVec2> {
    match shape_of(import, name) {
        Shape::Polygon { points } => points.iter().map(|p| p.as_dvec2()).collect(),
        other => panic!("{name}: {other:?} is not a polygon"),
    }
}

#[test]
fn every_transform_syntax_gives_flip_times_ctm() {
    let import = assert_worlds("transforms.svg", &["sw-second"]);
    let scene = &import.scene;
    // The root carries the flip and the viewBox (×4, shifted by (10, 5)).
    assert_eq!(scene.parent_index_at(index_named(scene, "root")), None);
    assert_close(
        "root",
        scene.world_at(0),
        &mul(
            &FLIP,
            &[[4.0, 0.0, 40.0], [0.0, 4.0, 20.0], [0.0, 0.0, 1.0]],
        ),
    );
    // Groups without shapes survive, empty or not; the singular one is identity, with a note.
    for name in [
        "empty",
        "empty-transformed",
        "translate-x",
        "sw-first",
        "singular",
        "link",
    ] {
        assert_eq!(shape_of(&import, name), Shape::None, "{name}");
    }
    assert_eq!(
        scene.data_at(index_named(scene, "singular")).local,
        Trs::IDENTITY
    );
    assert!(has_note(&import, "singular"), "{:?}", import.notes);
    assert!(!(0..scene.len()).any(|i| scene.data_at(i).name == "sw-second"));
    // Shapes at their centres with their sizes.
    assert_eq!(
        shape_of(&import, "r-translate"),
        Shape::Rect {
            size: Vec2::new(4.0, 3.0)
        }
    );
    assert_eq!(
        shape_of(&import, "c-rotate"),
        Shape::Ellipse {
            size: Vec2::splat(3.0)
        }
    );
    assert_eq!(
        shape_of(&import, "e-rotate-about"),
        Shape::Ellipse {
            size: Vec2::new(6.0, 2.0)
        }
    );
    assert_eq!(
        points_of(&import, "p-mirror"),
        [DVec2::ZERO, DVec2::new(4.0, 0.0), DVec2::new(4.0, 3.0)]
    );
    assert_eq!(color_of(&import, "r-translate"), [255, 0, 0, 255]);
    // Mirrors come through as negative determinants (under the flip: positive again).
    let det = |name| {
        scene
            .world_at(index_named(scene, name))
            .matrix2
            .determinant()
    };
    assert!(det("mirror") > 0.0 && det("r-translate") < 0.0);
}

#[test]
fn the_y_flip_is_exact_and_only_on_the_root() {
    let svg = r#"<svg xmlns="http://www.w3.org/2000/svg"><g id="g" transform="translate(3 4)"><rect id="r" x="0" y="10" width="2" height="2"/></g></svg>"#;
    let import = import_svg_text(svg, Path::new("flip.svg")).unwrap();
    let scene = &import.scene;
    assert_eq!(scene.len(), 3);
    assert_eq!(scene.data_at(0).name, "flip.svg");
    let root = scene.data_at(0).local;
    assert_eq!(
        (root.position, root.rotation, root.scale, root.skew),
        (Vec2::ZERO, 0.0, Vec2::new(1.0, -1.0), 0.0)
    );
    // Every other local is the element's own transform, so y-down points come out y-up.
    assert_eq!(
        scene.data_at(1).local,
        Trs::from_position(Vec2::new(3.0, 4.0))
    );
    let r = scene.world_at(index_named(scene, "r"));
    assert_eq!(r.translation, Vec2::new(4.0, -15.0));
    assert_eq!(
        r.transform_point2(Vec2::new(0.0, 1.0)),
        Vec2::new(4.0, -16.0)
    );
}

#[test]
fn colours_in_every_syntax() {
    let import = load("shapes.svg");
    let expect: [(&str, [u8; 4]); 20] = [
        ("named", [0, 128, 128, 255]),
        ("hex3", [255, 0, 170, 255]),
        ("hex6", [0x12, 0xab, 0x9c, 255]),
        ("rgb-fn", [10, 20, 30, 255]),
        ("rgba-fn", [10, 20, 30, 128]),
        ("styled", [0, 255, 0, 64]),
        ("style-beats-attr", [0, 0, 255, 255]),
        ("css-class", [255, 128, 0, 255]),
        ("css-compound", [0, 128, 255, 128]),
        ("by-id", [0, 128, 0, 255]),
        ("inherits", [255, 255, 0, 128]),
        ("double-faded", [255, 255, 0, 32]),
        ("none", [128, 0, 128, 64]),
        ("gradient", [128, 128, 128, 255]),
        ("gradient-linked", [128, 128, 128, 255]),
        ("pattern", [128, 128, 128, 255]),
        ("fallback", [255, 0, 0, 255]),
        ("current", [0x12, 0x34, 0x56, 255]),
        ("default-black", [0, 0, 0, 255]),
        ("rounded", [0, 0, 0, 255]),
    ];
    for (name, want) in expect {
        let got = color_of(&import, name);
        let off = got
            .iter()
            .zip(want)
            .map(|(g, w)| g.abs_diff(w))
            .max()
            .unwrap_or(0);
        assert!(off <= 1, "{name}: {got:?}, want {want:?}");
    }
    for note in [
        "CSS selector `g > .child` is not supported",
        "rounded corners",
        "fill=\"none\"",
        "average of its stops",
        "pattern",
        "a <line> encloses nothing",
        "subpaths split",
        "broke off",
    ] {
        assert!(
            has_note(&import, note),
            "no note {note:?} in {:#?}",
            import.notes
        );
    }
    // Notes name the place: the first text element's line and column.
    let text = std::fs::read_to_string(fixture("shapes.svg")).unwrap();
    let line = text.lines().position(|l| l.contains("<text")).unwrap() + 1;
    let col = text.lines().nth(line - 1).unwrap().find("<text").unwrap() + 1;
    let place = format!(
        "{}:{line}:{col}: text is not imported",
        fixture("shapes.svg").display()
    );
    assert!(
        import.notes.iter().any(|n| n.starts_with(&place)),
        "{place} in {:#?}",
        import.notes
    );
}

#[test]
fn straight_paths_keep_their_points() {
    let import = assert_worlds("shapes.svg", &["line", "text", "two-parts"]);
    let v = |x, y| DVec2::new(x, y);
    assert_eq!(
        points_of(&import, "straight"),
        [v(10., 10.), v(30., 10.), v(30., 20.), v(10., 20.)]
    );
    assert_eq!(
        points_of(&import, "relative"),
        [v(10., 30.), v(30., 30.), v(30., 40.), v(10., 40.)]
    );
    assert_eq!(
        points_of(&import, "broken"),
        [v(0., 0.), v(10., 0.), v(10., 10.)]
    );
    assert_eq!(
        points_of(&import, "poly"),
        [v(0., 0.), v(10., 0.), v(5., 8.)]
    );
    assert_eq!(
        points_of(&import, "pline"),
        [v(0., 0.), v(10., 0.), v(5., 8.)]
    );
    assert_eq!(
        points_of(&import, "two-parts (1/2)"),
        [v(0., 0.), v(5., 0.), v(5., 5.), v(0., 5.)]
    );
    assert_eq!(
        points_of(&import, "two-parts (2/2)"),
        [v(10., 0.), v(15., 0.), v(15., 5.), v(10., 5.)]
    );
    assert!(
        !(0..import.scene.len())
            .any(|i| ["line", "text"].contains(&import.scene.data_at(i).name.as_str()))
    );
}

fn cubic(p: [DVec2; 4], t: f64) -> DVec2 {
    let u = 1.0 - t;
    u * u * u * p[0] + 3.0 * u * u * t * p[1] + 3.0 * u * t * t * p[2] + t * t * t * p[3]
}

/// Every point of the polygon's outline is within `tol` of the curve (dense samples of both)
/// and every curve sample within `tol` of the outline (exact distances to its edges).
fn assert_hausdorff(name: &str, polygon: &[DVec2], curve: &[DVec2], tol: f64) {
    let edges: Vec<(DVec2, DVec2)> = (0..polygon.len())
        .map(|k| (polygon[k], polygon[(k + 1) % polygon.len()]))
        .collect();
    let outline: Vec<DVec2> = edges
        .iter()
        .flat_map(|&(a, b)| (0..16).map(move |s| a.lerp(b, s as f64 / 16.0)))
        .collect();
    let to_edge = |p: DVec2, (a, b): (DVec2, DVec2)| {
        let t = ((p - a).dot(b - a) / (b - a).length_squared()).clamp(0.0, 1.0);
        p.distance(a.lerp(b, t))
    };
    let nearest = |p: DVec2| {
        curve
            .iter()
            .map(|q| p.distance(*q))
            .fold(f64::MAX, f64::min)
    };
    let there = outline.iter().map(|p| nearest(*p)).fold(0.0, f64::max);
    let back = (curve.iter())
        .map(|p| {
            edges
                .iter()
                .map(|e| to_edge(*p, *e))
                .fold(f64::MAX, f64::min)
        })
        .fold(0.0, f64::max);
    assert!(
        there <= tol && back <= tol,
        "{name}: {there} / {back} > {tol}"
    );
}

#[test]
fn curves_are_flattened_within_the_stated_tolerance() {
    let import = load("shapes.svg");
    let v = |x, y| DVec2::new(x, y);
    let dense = |segments: &[[DVec2; 4]]| -> Vec<DVec2> {
        segments
            .iter()
            .flat_map(|s| (0..=4000).map(move |k| cubic(*s, k as f64 / 4000.0)))
            .collect()
    };
    let line = |a: DVec2, b: DVec2| [a, a.lerp(b, 1.0 / 3.0), a.lerp(b, 2.0 / 3.0), b];
    // C then S (its first control point reflected), then Z: the box of all points is 40 × 20.
    let c = [
        [v(0., 50.), v(0., 40.), v(20., 40.), v(20., 50.)],
        [v(20., 50.), v(20., 60.), v(40., 60.), v(40., 50.)],
    ];
    let curve = dense(&[c[0], c[1], line(v(40., 50.), v(0., 50.))]);
    // Samples 0.01 apart at most: allow that on top of the tolerance.
    let tol = FLATTEN_TOLERANCE * v(40.0, 20.0).length();
    let points = points_of(&import, "cubic");
    assert!(points.len() > 10, "cubic: {} points", points.len());
    assert_hausdorff("cubic", &points, &curve, tol + 0.01);
    // Q then T (reflected control point (30, 70)), as cubics of the same curves.
    let q = |a: DVec2, c: DVec2, b: DVec2| [a, a + (c - a) * 2.0 / 3.0, b + (c - b) * 2.0 / 3.0, b];
    let curve = dense(&[
        q(v(0., 60.), v(10., 50.), v(20., 60.)),
        q(v(20., 60.), v(30., 70.), v(40., 60.)),
        line(v(40., 60.), v(0., 60.)),
    ]);
    assert_hausdorff("quad", &points_of(&import, "quad"), &curve, tol + 0.01);
    // Two half-circle arcs: a circle of radius 10 about (60, 80). svgtypes turns arcs into cubics
    // of at most 90° (radial error ≤ 2.7e-4·r), flattened within the tolerance of their box.
    let (centre, r) = (v(60.0, 80.0), 10.0);
    let tol = FLATTEN_TOLERANCE * 2.0 * 2f64.sqrt() * r + 2.7e-4 * r;
    let points = points_of(&import, "arc");
    assert!(points.len() >= 16, "arc: {} points", points.len());
    for k in 0..points.len() {
        let (a, b) = (points[k], points[(k + 1) % points.len()]);
        for p in [a, a.lerp(b, 0.5)] {
            let off = (p.distance(centre) - r).abs();
            assert!(
                off <= tol + 1e-5,
                "arc point {p} is {off} off the circle (tolerance {tol})"
            );
        }
    }
}

#[test]
fn an_inkscape_document() {
    let import = assert_worlds("inkscape.svg", &["text40", "tspan38"]);
    let scene = &import.scene;
    // mm at 96 dpi: 210 mm = 793.7 px over a 210-unit viewBox.
    assert_eq!(scene.data_at(0).name, "svg8");
    let k = 96.0 / 25.4;
    assert_close("root", scene.world_at(0), &m(k, 0.0, 0.0, -k, 0.0, 0.0));
    // Layers and groups by their labels; the hidden, empty layer survives, with a note.
    for name in ["Background", "Figures", "Big group", "Hidden notes", "g22"] {
        assert_eq!(shape_of(&import, name), Shape::None, "{name}");
    }
    assert!(has_note(&import, "hidden"));
    assert!(has_note(&import, "clip-path is not imported"));
    assert_eq!(
        shape_of(&import, "Paper"),
        Shape::Rect {
            size: Vec2::new(190.0, 120.0)
        }
    );
    assert_eq!(color_of(&import, "Paper"), [0xe0, 0xe0, 0xe0, 255]);
    // The gradient through its link: the average of red and blue.
    assert_eq!(color_of(&import, "path12"), [128, 0, 128, 255]);
    assert!(points_of(&import, "path12").len() >= 16);
    // Uses: a node with the use's transform and x / y, the referenced group copied under it.
    let flip_v = m(k, 0.0, 0.0, -k, 0.0, 0.0);
    let star = mul(
        &mul(&flip_v, &parse_transform("rotate(10)")),
        &translate(50.0, 150.0),
    );
    let star_copy = index_named(scene, "Star copy");
    assert_close("Star copy", scene.world_at(star_copy), &star);
    let copies: Vec<usize> = (0..scene.len())
        .filter(|&i| scene.data_at(i).name == "star-path")
        .collect();
    assert_eq!(copies.len(), 2);
    let under = |i: usize| {
        scene
            .parent_index_at(scene.parent_index_at(i).unwrap())
            .unwrap()
    };
    assert_eq!(under(copies[0]), star_copy);
    assert_close("star copy path", scene.world_at(copies[0]), &star);
    let second = mul(&flip_v, &translate(70.0, 150.0));
    assert_eq!(scene.data_at(under(copies[1])).name, "use31");
    assert_close("second star path", scene.world_at(copies[1]), &second);
    let star_def = scene.parent_index_at(copies[0]).unwrap();
    assert_eq!(scene.data_at(star_def).name, "star-def");
    assert_eq!(
        import.scene.data_at(copies[0]).color,
        [0xff, 0xcc, 0x00, 255]
    );
    // A linked image is a sprite (found next to the SVG, drawn upright through the flip); an
    // embedded one is a grey box of its size, with a note.
    match shape_of(&import, "image50") {
        Shape::Sprite(sprite) => {
            let Sprite {
                path,
                size,
                region,
                offset,
            } = *sprite;
            assert_eq!(Path::new(&path), fixture("pixel.png"));
            assert_eq!(
                (size, region, offset),
                (
                    Vec2::new(20.0, 10.0),
                    Some([0.0, 1.0, 1.0, 0.0]),
                    Vec2::ZERO
                )
            );
        }
        other => panic!("image50: {other:?}"),
    }
    assert_eq!(
        shape_of(&import, "image51"),
        Shape::Rect {
            size: Vec2::splat(8.0)
        }
    );
    assert!(has_note(&import, "embedded (data:) image"));
    assert!(has_note(&import, "text is not imported"));
    // Nothing of the defs, the metadata or the namedview is imported by itself.
    for name in [
        "defs2",
        "metadata5",
        "namedview1",
        "clipPath1",
        "rect-clip",
        "linearGradient1",
        "text40",
    ] {
        assert!(
            !(0..scene.len()).any(|i| scene.data_at(i).name == name),
            "{name}"
        );
    }
}

#[test]
fn an_illustrator_document() {
    let import = load("illustrator.svg");
    let scene = &import.scene;
    let names: Vec<&str> = (0..scene.len())
        .map(|i| scene.data_at(i).name.as_str())
        .collect();
    // The foreignObject and Illustrator's private data are left out; the unnamed path is put
    // on its unnamed group.
    assert_eq!(names, ["Layer_1", "switch", "g", "g", "circle", "polyline"]);
    let v = |x, y| Vec2::new(x, y);
    let path = Shape::Polygon {
        points: thin_vec::thin_vec![v(10., 10.), v(50., 10.), v(50., 40.), v(10., 40.)],
    };
    assert_eq!(scene.data_at(3).shape, path);
    assert_eq!(scene.data_at(3).color, [0xe3, 0x06, 0x13, 255]);
    assert_eq!(
        scene.data_at(4).shape,
        Shape::Ellipse {
            size: Vec2::splat(40.0)
        }
    );
    assert_eq!(scene.data_at(4).color, [255, 255, 255, 128]);
    assert_eq!(scene.data_at(5).color, [0x1d, 0x1d, 0x1b, 64]);
    assert!(has_note(&import, "<switch>"));
}

#[test]
fn uses_that_loop_or_multiply_are_bounded() {
    let svg = r##"<svg xmlns="http://www.w3.org/2000/svg">
        <g id="a"><use href="#a"/></g>
        <use id="u2" href="#b"/>
        <g id="b"><use href="#u2"/></g>
        <use href="#nowhere"/>
    </svg>"##;
    let import = import_svg_text(svg, Path::new("loop.svg")).unwrap();
    assert!(has_note(&import, "shows itself"), "{:?}", import.notes);
    assert!(has_note(&import, "not in this file"));
    assert!(import.scene.len() < 12, "{} nodes", import.scene.len());
    let tens = |href: &str| format!("<use href=\"#{href}\"/>").repeat(10);
    let svg = format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg"><defs><rect id="r0" width="1" height="1"/><g id="g1">{}</g><g id="g2">{}</g></defs><use href="#g2"/></svg>"##,
        tens("r0"),
        tens("g1")
    );
    let import = import_svg_text(&svg, Path::new("tens.svg")).unwrap();
    // root, the use, g2, 10 × (use, g1, 10 × (use, rect)).
    assert_eq!(import.scene.len(), 3 + 10 * (2 + 10 * 2));
}

fn nested(depth: usize) -> String {
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\">{}{}</svg>",
        "<g>".repeat(depth),
        "</g>".repeat(depth)
    )
}

#[test]
fn deep_nesting_is_refused_cleanly() {
    let ok = import_svg_text(&nested(200), Path::new("deep.svg")).unwrap();
    assert_eq!(ok.scene.len(), 201);
    assert_eq!(ok.scene.depth_at(200), 200);
    for depth in [1_000, 100_000] {
        match import_svg_text(&nested(depth), Path::new("deep.svg")) {
            Err(Error::Format(why)) => assert!(why.contains("nested deeper than 256"), "{why}"),
            other => panic!("{depth}: {other:?}"),
        }
    }
}

#[test]
fn malformed_and_foreign_input_is_refused_with_a_place() {
    let bad = "<svg xmlns=\"http://www.w3.org/2000/svg\">\n  <g>\n    <rect x=\"1\" y=2/>\n  </g>\n</svg>\n";
    match import_svg_text(bad, Path::new("bad.svg")) {
        Err(e @ Error::Syntax { line: 3, .. }) => {
            assert!(e.to_string().starts_with("bad.svg:3:"), "{e}")
        }
        other => panic!("{other:?}"),
    }
    let truncated = "<svg xmlns=\"http://www.w3.org/2000/svg\"><g>";
    assert!(matches!(
        import_svg_text(truncated, Path::new("t.svg")),
        Err(Error::Syntax { .. })
    ));
    let html = "<html><body/></html>";
    assert!(
        matches!(import_svg_text(html, Path::new("page.svg")), Err(Error::Format(why)) if why.contains("<html>"))
    );
    let huge = " ".repeat((64 << 20) + 1);
    assert!(matches!(
        import_svg_text(&huge, Path::new("huge.svg")),
        Err(Error::Format(_))
    ));
    assert!(matches!(
        import_svg_file(&fixture("missing.svg")),
        Err(Error::Io { .. })
    ));
}

/// graft → SVG (the export) → graft: every node comes back by name, with its shape, colour and
/// world matrix (up to the export's root groups), empty nodes included.
#[test]
fn a_graft_scene_survives_export_and_import() {
    let node = |id: u32, parent: Option<u32>, name: &str, local: Trs, shape: Shape| NodeSpec {
        id: NodeId(id),
        parent: parent.map(NodeId),
        data: NodeData {
            name: name.into(),
            local,
            shape,
            color: [200, 100, 50, 180],
            ..NodeData::default()
        },
    };
    let trs = |x, y, r, sx, sy, k| Trs::new(Vec2::new(x, y), r, Vec2::new(sx, sy), k);
    let scene = Scene::from_specs(vec![
        node(
            1,
            None,
            "body",
            trs(5.0, 0.0, 0.0, 1.0, 1.0, 0.0),
            Shape::Rect {
                size: Vec2::new(1.4, 2.4),
            },
        ),
        node(
            2,
            Some(1),
            "arm",
            trs(0.0, 2.0, 90.0, 1.0, 1.0, 0.0),
            Shape::None,
        ),
        node(
            3,
            Some(2),
            "hand <&>",
            trs(0.5, 0.0, 10.0, 1.0, -2.0, 20.0),
            Shape::Ellipse {
                size: Vec2::new(0.6, 0.3),
            },
        ),
        node(
            4,
            Some(3),
            "empty",
            trs(1.0, 1.0, -30.0, 0.5, 0.5, 0.0),
            Shape::None,
        ),
        node(
            5,
            None,
            "poly",
            Trs::IDENTITY,
            Shape::Polygon {
                points: thin_vec::thin_vec![Vec2::ZERO, Vec2::X, Vec2::Y],
            },
        ),
    ])
    .unwrap();
    let (svg, _) = graft::model::svg::export::scene_to_svg(&scene, &Default::default());
    let import = import_svg_text(&svg, Path::new("roundtrip.svg")).unwrap();
    let back = &import.scene;
    // graft's own SVG comes back node for node: no extra root for the <svg> or the y flip.
    assert_eq!(back.len(), scene.len());
    for i in 0..scene.len() {
        assert_eq!(back.data_at(i).name, scene.data_at(i).name, "same order");
        let data = scene.data_at(i);
        let j = index_named(back, &data.name);
        // A node without a shape has no colour in SVG.
        let color = if data.shape == Shape::None {
            back.data_at(j).color
        } else {
            data.color
        };
        assert_eq!(
            (&back.data_at(j).shape, back.data_at(j).color),
            (&data.shape, color),
            "{}",
            data.name
        );
        let w = scene.world_at(i).to_cols_array().map(f64::from);
        assert_close(
            &data.name,
            back.world_at(j),
            &m(w[0], w[1], w[2], w[3], w[4], w[5]),
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Truncated and edited drawings never panic: they import, or are refused.
    #[test]
    fn edited_drawings_never_panic(
        file in 0usize..4,
        cut in 0.0f64..1.0,
        edits in prop::collection::vec((0.0f64..1.0, 0usize..12, 0usize..4), 0..8),
    ) {
        let name = ["transforms.svg", "shapes.svg", "inkscape.svg", "illustrator.svg"][file];
        let text = std::fs::read_to_string(fixture(name)).unwrap();
        let mut chars: Vec<char> = text.chars().collect();
        for (at, what, how) in edits {
            let at = ((chars.len() as f64) * at) as usize;
            let junk = ["<", ">", "\"", "&", "1e999", "-0", "NaN", "url(#", "#", "/>", "<g>", "transform=\"scale(0)\" "][what];
            match how {
                0 => chars.splice(at..at, junk.chars()).for_each(drop),
                1 => chars.drain(at..(at + junk.len()).min(chars.len())).for_each(drop),
                2 => chars.splice(at..(at + 1).min(chars.len()), junk.chars()).for_each(drop),
                _ => chars.splice(at..at, "<use href=\"#layer2\"/>".chars()).for_each(drop),
            }
        }
        chars.truncate(((chars.len() as f64) * (0.5 + cut / 2.0)) as usize + usize::from(cut > 0.9) * chars.len());
        let text: String = chars.into_iter().collect();
        let _ = import_svg_text(&text, &fixture(name));
    }
}

#[test]
fn symbols_and_nested_viewports_map_their_view_boxes() {
    let svg = r##"<svg xmlns="http://www.w3.org/2000/svg">
        <defs><symbol id="sym" viewBox="0 0 10 10"><rect id="sr" width="10" height="10"/></symbol></defs>
        <use id="u" href="#sym" x="5" y="5" width="20" height="20"/>
        <svg id="inner" x="100" width="50" height="25" viewBox="0 0 100 50"><circle id="ic" cx="50" cy="25" r="10"/></svg>
    </svg>"##;
    let import = import_svg_text(svg, Path::new("views.svg")).unwrap();
    let scene = &import.scene;
    let world = |name| scene.world_at(index_named(scene, name));
    let at = mul(&FLIP, &translate(5.0, 5.0));
    assert_close("u", world("u"), &at);
    let sym = mul(&at, &m(2.0, 0.0, 0.0, 2.0, 0.0, 0.0));
    assert_close("sym", world("sym"), &sym);
    assert_close("sr", world("sr"), &mul(&sym, &translate(5.0, 5.0)));
    let inner = mul(
        &mul(&FLIP, &translate(100.0, 0.0)),
        &m(0.5, 0.0, 0.0, 0.5, 0.0, 0.0),
    );
    assert_close("inner", world("inner"), &inner);
    assert_close("ic", world("ic"), &mul(&inner, &translate(50.0, 25.0)));
    assert_eq!(
        shape_of(&import, "ic"),
        Shape::Ellipse {
            size: Vec2::splat(20.0)
        }
    );
}

/// An unnamed node (name "") exported to SVG comes back unnamed, not named after its tag ("g").
#[test]
fn an_unnamed_node_keeps_its_empty_name_through_svg() {
    let node = |id: u32, parent: Option<u32>, name: &str, local: Trs, shape: Shape| NodeSpec {
        id: NodeId(id),
        parent: parent.map(NodeId),
        data: NodeData {
            name: name.into(),
            local,
            shape,
            ..NodeData::default()
        },
    };
    let trs = |x, y, r, sx, sy, k| Trs::new(Vec2::new(x, y), r, Vec2::new(sx, sy), k);
    let scene = Scene::from_specs(vec![
        node(1, None, "", Trs::IDENTITY, Shape::None),
        node(
            2,
            Some(1),
            "named",
            trs(1.0, 2.0, 30.0, 1.0, 1.0, 0.0),
            Shape::Rect { size: Vec2::ONE },
        ),
        node(
            3,
            Some(2),
            "",
            trs(0.5, 0.0, 0.0, 2.0, 1.0, 0.0),
            Shape::None,
        ),
    ])
    .unwrap();
    let (svg, _) = graft::model::svg::export::scene_to_svg(&scene, &Default::default());
    let back = import_svg_text(&svg, Path::new("unnamed.svg"))
        .unwrap()
        .scene;
    let names: Vec<String> = (0..back.len())
        .map(|i| back.data_at(i).name.to_string())
        .collect();
    assert_eq!(names, ["", "named", ""], "{svg}");
}

/// Found by `cargo fuzz run svg` (fuzz/README.md): svgtypes cuts an arc into cubics at an
/// absolute tolerance, ~(11·r)^(1/6) of them, all buffered and handed out from the front of a
/// Vec: the fuzzer's arc of radius 2·10⁴¹ ran for minutes, an overflowing radius never ended.
/// An arc that large now ends its path like a syntax error, with a note; ordinary arcs are
/// untouched.
#[test]
fn a_huge_arc_ends_its_path_with_a_note_instead_of_hanging() {
    let arcs = [
        // The fuzzer's input (the path of fuzz/seeds-svg/use-symbol-css.svg, mutated).
        "M0,0 L10,0 H20 V10 h-5 v-5 l-5 5 Q5 15 0 10 T-5 5 C-10 0 -5 -5 0 -2 S5 -8 8 -6 \
         A5 3 30 1 0 12 -2 a2 222222222222222222222222222222222222222222 0 0 1 3 3 Z m40 0 \
         l5 5 [l-5 5 z",
        // Radii scaled up to reach a far end point: infinite.
        "M0 0 L10 0 L10 10 A1e-4 1 0 0 0 1e300 0 L0 10 Z",
        // A radius far beyond any drawing.
        "M0 0 L10 0 L10 10 A1 1e200 0 1 0 5 5 L0 10 Z",
    ];
    for d in arcs {
        let text = format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40">
  <path id="huge" d="{d}"/>
  <path id="fine" d="M0 0 A 3 2 30 1 0 6 0 Z"/>
</svg>"#
        );
        let started = std::time::Instant::now();
        let import = import_svg_text(&text, Path::new("huge-arc.svg")).expect("imports");
        assert!(
            started.elapsed().as_secs() < 5,
            "{d}: {:?}",
            started.elapsed()
        );
        assert!(
            has_note(&import, "too large to flatten"),
            "{d}: {:?}",
            import.notes
        );
        let kept = points_of(&import, "huge");
        assert!(
            kept.len() >= 3,
            "{d}: the path before the arc is kept: {kept:?}"
        );
        assert!(
            kept.iter().all(|p| p.is_finite() && p.length() < 100.0),
            "{d}: {kept:?}"
        );
        assert!(
            points_of(&import, "fine").len() > 8,
            "an ordinary arc is still flattened"
        );
    }
}
