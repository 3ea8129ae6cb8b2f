//! SVG drawings read as graft scenes, keeping their group structure (no egui).
//!
//! The XML is read with roxmltree and the attribute syntaxes with svgtypes (not usvg, which
//! drops empty and invisible groups), so every group survives: `<svg>`, `<g>`, `<a>`,
//! `<switch>` and an expanded `<use>` become nodes whose local matrix is the element's own
//! `transform`, decomposed exactly into TRS + skew (a singular one is imported as identity,
//! with a note). Names come from `inkscape:label` (the name a person gave; graft's SVG export
//! writes node names there), else `id`, else the element's name.
//!
//! **The y flip.** SVG is y-down, graft y-up. The root node (the `<svg>` element) has the local
//! `Flip · V · T`, where `Flip = scale(1, −1)`, `V` maps the viewBox to the viewport (`width`
//! and `height` in px, with mm, cm, in, pt and pc at 96 dpi; `preserveAspectRatio` honoured)
//! and `T` is the root's own `transform`. Every other node's local is its element's own
//! transform, so for every node **`graft_world = Flip · CTM`**, the SVG's composed transform.
//! Shapes are nodes of their own: a rect, circle or ellipse at its centre
//! (`local = T · translate(centre)`), a polygon in the path's own coordinates (`local = T`),
//! an image at its box's centre, its rows reversed so that it reads upright through the
//! mirror. A shape with no name and no transform that is the first element of a `<g>` is put
//! on the group's node when that changes no world matrix (a centred rect or ellipse, a
//! one-piece polygon), so a graft scene exported to SVG comes back node for node.
//!
//! What is approximated or left out is said in [`SvgImport::notes`], once per kind with its
//! first place and a count (`drawing.svg:12:3: text is not imported (and 4 more like it)`):
//! paths are flattened within [`FLATTEN_TOLERANCE`] of their size and split into one polygon
//! per subpath (graft polygons have no holes); `fill="none"` is drawn translucent in the
//! stroke colour; a gradient in the average of its stops, a pattern in grey; opacity is
//! multiplied down the groups; rounded corners, clip paths, masks, filters, strokes, text and
//! lines are not imported; a `data:` or remote image becomes a grey box of its size (nothing
//! is written to disk). `<use>` is expanded as a copy (a node for the `<use>` with its x / y,
//! the referenced element under it); `<defs>` themselves are not imported.

mod arcs;
mod coords;
mod importer;
mod path;
mod shapes;
mod style;

pub use path::FLATTEN_TOLERANCE;

use crate::error::{Error, Result};
use crate::model::file::MAX_NODES;
use crate::model::math::{Trs, decompose};
use crate::model::scene::{Color, NodeData, NodeId, NodeSpec, Scene, Shape};
use glam::{DAffine2, DVec2};
use importer::{Importer, is_svg};
use path::Css;
use roxmltree::{Document, Node};
use rustc_hash::FxHashMap;
use std::fmt::Display;
use std::path::Path;
use style::{BLACK, Paint, Style};

/// Larger files are refused (64 MiB).
pub const MAX_SVG_BYTES: u64 = crate::model::read_limit::SVG.bytes;
/// Elements nested deeper than this are refused (`<use>` expansions count).
pub const MAX_DEPTH: usize = 256;
/// Nodes made by expanding `<use>` at most; further uses are skipped with a note.
pub const MAX_USE_NODES: usize = 1_000_000;
/// Polygon points in one import at most (128 MB of them); more is refused.
pub const MAX_POINTS: usize = 16_000_000;
/// `<use>` within `<use>` at most this deep; deeper ones are skipped with a note.
const MAX_USE_CHAIN: usize = 32;
/// Distinct notes at most; the rest are only counted.
const INKSCAPE_NS: &str = "http://www.inkscape.org/namespaces/inkscape";
/// Elements that draw nothing themselves, left out without a note.
const QUIET: &str = "defs title desc metadata style script linearGradient radialGradient \
                     pattern clipPath mask filter marker symbol";

/// A scene read from an SVG drawing, and what the import had to say about it.
#[derive(Debug)]
pub struct SvgImport {
    /// The graft scene: one root (the `<svg>` element, carrying the y flip).
    pub scene: Scene,
    /// What was approximated or left out, one line per kind: `file:line:col: message`.
    pub notes: Vec<String>,
}

/// Import an SVG file. Linked images are resolved against its folder (sprite paths come out
/// absolute: make them relative to where the scene is saved).
pub fn import_svg_file(path: &Path) -> Result<SvgImport> {
    let bytes = crate::model::read_limit::read_bounded(path, crate::model::read_limit::SVG)?;
    if bytes.starts_with(&[0x1f, 0x8b]) {
        return Err(refuse(path, "a compressed .svgz drawing: unzip it first"));
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        refuse(
            path,
            format!("not UTF-8 (byte {})", e.utf8_error().valid_up_to()),
        )
    })?;
    import_svg_text(&text, path)
}

/// Import SVG text as if it were the file at `path` (named in notes, images found from there).
pub fn import_svg_text(text: &str, path: &Path) -> Result<SvgImport> {
    if text.len() as u64 > MAX_SVG_BYTES {
        return Err(refuse(
            path,
            format!("{} bytes (at most {MAX_SVG_BYTES})", text.len()),
        ));
    }
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let doc = parse_document(text, path)?;
    let root = doc.root_element();
    check_svg_root(root, path)?;
    let mut css = Css::default();
    let (ids, sheets) = ids_and_style_sheets(&doc, &mut css);
    let mut im = Importer::new(text, path, &css, ids);
    for (node, selector) in sheets {
        im.note(
            node,
            format!("CSS selector `{selector}` is not supported: its rule is ignored"),
        );
    }
    im.run(root)?;
    let notes = im.note_lines();
    let mut specs = im.specs;
    if written_by_graft(root) {
        unwrap_graft_root(&mut specs);
    }
    Ok(SvgImport {
        scene: Scene::from_specs(specs)?,
        notes,
    })
}

/// Parse the XML (DTDs allowed), reporting a syntax error at its line and column.
fn parse_document<'i>(text: &'i str, path: &Path) -> Result<Document<'i>> {
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..Default::default()
    };
    Document::parse_with_options(text, options).map_err(|e| {
        let (pos, message) = (e.pos(), e.to_string());
        let message = message
            .strip_suffix(&format!(" at {pos}"))
            .unwrap_or(&message)
            .into();
        let (line, col) = (pos.row as usize, pos.col as usize);
        Error::Syntax {
            path: path.to_path_buf(),
            line,
            col,
            message,
        }
    })
}

/// Refuse a document whose root element is not an SVG `<svg>`.
fn check_svg_root(root: Node, path: &Path) -> Result<()> {
    if !is_svg(root) || root.tag_name().name() != "svg" {
        let name = root.tag_name().name();
        return Err(refuse(
            path,
            format!("not an SVG drawing (the root element is <{name}>)"),
        ));
    }
    Ok(())
}

/// Elements by `id` (the first of each), with every `<style>` sheet read into `css`; also
/// the selectors those sheets had that are not supported, with their `<style>` element.
fn ids_and_style_sheets<'a, 'i>(
    doc: &'a Document<'i>,
    css: &mut Css,
) -> (
    FxHashMap<&'a str, Node<'a, 'i>>,
    Vec<(Node<'a, 'i>, String)>,
) {
    let (mut ids, mut sheets) = (FxHashMap::default(), Vec::new());
    for node in doc.descendants().filter(|n| n.is_element()) {
        if let Some(id) = node.attribute("id") {
            ids.entry(id).or_insert(node);
        }
        if is_svg(node) && node.tag_name().name() == "style" {
            let sheet: String = node.children().filter_map(|c| c.text()).collect();
            sheets.extend(
                css.parse(&sheet)
                    .into_iter()
                    .map(|selector| (node, selector)),
            );
        }
    }
    (ids, sheets)
}

/// True for an SVG graft wrote: the root's only element child is the y-flip group
/// `<g id="graft-y-up" transform="matrix(1 0 0 -1 0 0)">`.
fn written_by_graft(root: Node) -> bool {
    let mut children = root
        .children()
        .filter(|c| c.is_element() && is_svg(*c) && c.tag_name().name() != "defs");
    let (Some(group), None) = (children.next(), children.next()) else {
        return false;
    };
    group.tag_name().name() == "g"
        && group.attribute("id") == Some("graft-y-up")
        && group.attribute("transform").map(str::trim) == Some("matrix(1 0 0 -1 0 0)")
}

/// In graft's own SVG, the `<svg>` node (flip · viewBox) and the y-flip group undo each other's
/// flip but not the viewBox: drop both and make the group's children roots, so graft → SVG →
/// graft gives back every world matrix exactly.
fn unwrap_graft_root(specs: &mut Vec<NodeSpec>) {
    let (Some(svg), Some(group)) = (specs.first().map(|s| s.id), specs.get(1).map(|s| s.id)) else {
        return;
    };
    if specs[1].parent != Some(svg) {
        return;
    }
    specs.drain(..2);
    for spec in specs.iter_mut() {
        if spec.parent == Some(group) {
            spec.parent = None;
        }
    }
}

fn refuse(path: &Path, why: impl Display) -> Error {
    Error::Format(format!("{}: {why}", path.display()))
}

/// One element to visit, with what it inherits.
#[derive(Clone, Copy)]
struct Item<'a, 'i> {
    node: Node<'a, 'i>,
    parent: NodeId,
    style: Style,
    depth: usize,
    /// The innermost `<use>` this element was reached through (an index into `chains`).
    chain: Option<usize>,
    /// Set on the element a `<use>` shows: the use's width and height (for a `<symbol>`).
    use_size: Option<(Option<f64>, Option<f64>)>,
}

/// Elements still to visit on the walk's explicit stack (one frame per open element, so
/// the stack is as deep as the nesting): `next` and, unless `single`, its later siblings,
/// each visited as `item` says.
struct Frame<'a, 'i> {
    item: Item<'a, 'i>,
    next: Option<Node<'a, 'i>>,
    single: bool,
}

impl<'a, 'i> Importer<'a, 'i> {
    /// Add a node under `parent`; a local beyond f32 becomes identity (with a note).
    fn add(
        &mut self,
        node: Node,
        parent: Option<NodeId>,
        name: String,
        local: DAffine2,
    ) -> Result<NodeId> {
        if self.specs.len() >= MAX_NODES {
            return Err(refuse(self.path, format!("more than {MAX_NODES} nodes")));
        }
        let mut local = decompose(&local.as_affine2());
        if local.first_non_finite().is_some() {
            self.note(node, "a transform beyond f32 range is imported as identity");
            local = Trs::IDENTITY;
        }
        let id = NodeId(self.specs.len() as u32 + 1);
        self.specs.push(NodeSpec {
            id,
            parent,
            data: NodeData::named(name, local),
        });
        Ok(id)
    }

    /// Add a node drawn with a shape and a colour.
    fn add_shape(
        &mut self,
        item: Item,
        name: String,
        local: DAffine2,
        shape: Shape,
        color: Color,
    ) -> Result<()> {
        self.add(item.node, Some(item.parent), name, local)?;
        if let Some(spec) = self.specs.last_mut() {
            (spec.data.shape, spec.data.color) = (shape, color);
        }
        Ok(())
    }

    fn run(&mut self, root: Node<'a, 'i>) -> Result<()> {
        let start = Style {
            fill: Paint::Color(BLACK),
            stroke: Paint::None,
            fill_opacity: 1.0,
            color: BLACK,
            opacity: 1.0,
            viewport: DVec2::new(300.0, 150.0),
        };
        let mut style = self.cascade(root, &start);
        // A percentage size on the root means "the window": the viewBox decides alone.
        let mut size = |name: &str, axis: usize| match root.attribute(name) {
            Some(v) if !v.trim().ends_with('%') => self.length(root, name, axis, start.viewport),
            _ => None,
        };
        let size = (size("width", 0), size("height", 1));
        let (view, viewport) = self.viewport(root, size, start.viewport);
        style.viewport = viewport;
        let local = DAffine2::from_scale(DVec2::new(1.0, -1.0)) * view * self.transform(root);
        let file = self
            .path
            .file_name()
            .map(|f| f.to_string_lossy().into_owned());
        let name = name_of(root)
            .map(str::to_string)
            .or(file)
            .unwrap_or("svg".into());
        let parent = self.add(root, None, name, local)?;
        let item = Item {
            node: root,
            parent,
            style,
            depth: 1,
            chain: None,
            use_size: None,
        };
        let mut stack = vec![Frame {
            item,
            next: root.first_child(),
            single: false,
        }];
        while let Some(frame) = stack.last_mut() {
            let Some(node) = frame.next else {
                stack.pop();
                continue;
            };
            frame.next = node.next_sibling().filter(|_| !frame.single);
            if is_svg(node) {
                let item = Item { node, ..frame.item };
                self.visit(item, &mut stack)?;
            }
        }
        Ok(())
    }

    fn visit(&mut self, item: Item<'a, 'i>, stack: &mut Vec<Frame<'a, 'i>>) -> Result<()> {
        let (node, tag) = (item.node, item.node.tag_name().name());
        if item.depth > MAX_DEPTH {
            let place = self.place(node);
            return Err(Error::Format(format!(
                "{place}: elements nested deeper than {MAX_DEPTH}"
            )));
        }
        let drawn = "g a svg switch rect circle ellipse path polygon polyline image use";
        let shown =
            drawn.split(' ').any(|t| t == tag) || tag == "symbol" && item.use_size.is_some();
        if !shown {
            match tag {
                _ if QUIET.split_whitespace().any(|t| t == tag) => {}
                "line" => self.note(node, "a <line> encloses nothing: not imported"),
                "text" => self.note(node, "text is not imported"),
                _ => self.note(node, format!("<{tag}> is not imported")),
            }
            return Ok(());
        }
        self.use_nodes += usize::from(item.chain.is_some());
        let item = Item {
            style: self.cascade(node, &item.style),
            ..item
        };
        let name = name_of(node).unwrap_or(tag).to_string();
        let t = self.transform(node);
        match tag {
            "rect" | "circle" | "ellipse" => self.basic_shape(item, name, t),
            "path" | "polygon" | "polyline" => self.polygons(item, name, t),
            "image" => self.image(item, name, t),
            "use" => self.expand_use(item, name, t, stack),
            _ => self.group(item, name, t, stack),
        }
    }

    fn group(
        &mut self,
        item: Item<'a, 'i>,
        name: String,
        t: DAffine2,
        stack: &mut Vec<Frame<'a, 'i>>,
    ) -> Result<()> {
        let (node, tag) = (item.node, item.node.tag_name().name());
        let mut child = Item {
            depth: item.depth + 1,
            use_size: None,
            ..item
        };
        let mut local = t;
        if tag == "svg" || tag == "symbol" {
            let vp = item.style.viewport;
            let (w, h) = item.use_size.unwrap_or((None, None));
            let w = w
                .or_else(|| self.length(node, "width", 0, vp))
                .unwrap_or(vp.x);
            let h = h
                .or_else(|| self.length(node, "height", 1, vp))
                .unwrap_or(vp.y);
            let (view, viewport) = self.viewport(node, (Some(w), Some(h)), DVec2::new(w, h));
            local = t * DAffine2::from_translation(self.xy(node, ["x", "y"], vp)) * view;
            child.style.viewport = viewport;
            self.note(node, format!("a nested <{tag}> does not clip its content"));
        }
        child.parent = self.add(node, Some(item.parent), name, local)?;
        if tag != "switch" {
            stack.push(Frame {
                item: child,
                next: node.first_child(),
                single: false,
            });
            return Ok(());
        }
        let chosen = node.children().find(|c| {
            let language = c
                .attribute("systemLanguage")
                .is_none_or(|l| l.contains("en"));
            let usable = !matches!(c.tag_name().name(), "foreignObject" | "desc" | "title");
            is_svg(*c) && !c.has_attribute("requiredExtensions") && language && usable
        });
        if node.children().filter(|c| c.is_element()).count() > 1 {
            self.note(node, "<switch>: only its first usable child is imported");
        }
        stack.push(Frame {
            item: child,
            next: chosen,
            single: true,
        });
        Ok(())
    }
}

/// The node name: `inkscape:label` (an empty one too: graft's export writes `""` for an
/// unnamed node, and the round trip keeps it unnamed), else a non-empty `id`.
fn name_of<'a>(node: Node<'a, '_>) -> Option<&'a str> {
    node.attribute((INKSCAPE_NS, "label"))
        .or(node.attribute("id").filter(|s| !s.is_empty()))
        .map(crate::model::scene::name::cut_name)
}
