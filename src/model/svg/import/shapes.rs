//! The elements that draw: basic shapes (`<rect>`, `<circle>`, `<ellipse>`), paths and
//! polygons flattened to graft polygons, images as sprites, and `<use>` expanded as a copy.

use super::importer::{Importer, href, is_svg};
use super::{Frame, Item, MAX_POINTS, MAX_USE_CHAIN, MAX_USE_NODES};
use super::{name_of, path, refuse};
use crate::error::Result;
use crate::model::file::MAX_POLYGON_POINTS;
use crate::model::read_limit;
use crate::model::scene::{Color, DEFAULT_COLOR, Shape, Sprite};
use glam::{DAffine2, DVec2, Vec2};
use std::str::FromStr;
use svgtypes::{Align, AspectRatio};

impl<'a, 'i> Importer<'a, 'i> {
    pub(super) fn basic_shape(&mut self, item: Item, name: String, t: DAffine2) -> Result<()> {
        let (node, tag, vp) = (item.node, item.node.tag_name().name(), item.style.viewport);
        let (centre, size) = if tag == "rect" {
            let size = self.xy(node, ["width", "height"], vp);
            if self.xy(node, ["rx", "ry"], vp) != DVec2::ZERO {
                self.note(node, "rounded corners (rx, ry) are imported square");
            }
            (self.xy(node, ["x", "y"], vp) + 0.5 * size, size)
        } else if tag == "circle" {
            let r = self.length(node, "r", 2, vp).unwrap_or(0.0);
            (self.xy(node, ["cx", "cy"], vp), DVec2::splat(2.0 * r))
        } else {
            let (rx, ry) = (
                self.length(node, "rx", 0, vp),
                self.length(node, "ry", 1, vp),
            );
            let r = DVec2::new(rx.or(ry).unwrap_or(0.0), ry.or(rx).unwrap_or(0.0));
            (self.xy(node, ["cx", "cy"], vp), 2.0 * r)
        };
        let local = t * DAffine2::from_translation(centre);
        let size32 = size.as_vec2();
        let shape = match tag {
            _ if !(size.x > 0.0 && size.y > 0.0 && size32.is_finite() && local.is_finite()) => {
                self.note(
                    node,
                    format!("a <{tag}> of zero or invalid size has no shape"),
                );
                Shape::None
            }
            "rect" => Shape::Rect { size: size32 },
            _ => Shape::Ellipse { size: size32 },
        };
        let color = self.fill_color(node, &item.style);
        if centre == DVec2::ZERO && shape != Shape::None && self.merge(item, &shape, color) {
            return Ok(());
        }
        let local = if local.is_finite() { local } else { t };
        self.add_shape(item, name, local, shape, color)
    }

    pub(super) fn polygons(&mut self, item: Item, name: String, t: DAffine2) -> Result<()> {
        let (node, tag) = (item.node, item.node.tag_name().name());
        let flat = match tag {
            "path" => path::flatten_path(node.attribute("d").unwrap_or("")),
            _ => path::points_list(node.attribute("points").unwrap_or("")),
        };
        if let Some(error) = &flat.error {
            self.note(
                node,
                format!("<{tag}> data broke off ({error}): the rest is left out"),
            );
        }
        if flat.degenerate > 0 {
            self.note(node, "subpaths that enclose nothing are left out");
        }
        let n = flat.subpaths.len();
        if n == 0 {
            self.note(
                node,
                format!("a <{tag}> that encloses nothing is not imported"),
            );
        } else if n > 1 {
            self.note(node, "holes / subpaths split: one polygon per subpath");
        }
        let color = self.fill_color(node, &item.style);
        for (k, points) in flat.subpaths.into_iter().enumerate() {
            let points: Vec<Vec2> = points.iter().map(|p| p.as_vec2()).collect();
            if points.len() > MAX_POLYGON_POINTS || points.iter().any(|p| !p.is_finite()) {
                let why = format!("more than {MAX_POLYGON_POINTS} points or beyond f32 range");
                self.note(node, format!("a polygon of {why} is left out"));
                continue;
            }
            self.points += points.len();
            if self.points > MAX_POINTS {
                return Err(refuse(
                    self.path,
                    format!("more than {MAX_POINTS} polygon points"),
                ));
            }
            let shape = Shape::polygon(points);
            if n == 1 && self.merge(item, &shape, color) {
                return Ok(());
            }
            let name = if n == 1 {
                name.clone()
            } else {
                format!("{name} ({}/{n})", k + 1)
            };
            self.add_shape(item, name, t, shape, color)?;
        }
        Ok(())
    }

    /// Put a shape on its `<g>`'s node instead of a node of its own, when the element has no
    /// name or transform and is the group's first element (graft's export writes each node's
    /// shape that way). True when done.
    fn merge(&mut self, item: Item, shape: &Shape, color: Color) -> bool {
        let node = item.node;
        let group = node.parent().filter(|g| g.tag_name().name() == "g");
        let first = group.and_then(|g| g.children().find(|c| c.is_element())) == Some(node);
        let plain = first && name_of(node).is_none() && !node.has_attribute("transform");
        let host = self.specs.last_mut().filter(|s| s.id == item.parent);
        match host {
            Some(host) if plain && item.use_size.is_none() && host.data.shape == Shape::None => {
                (host.data.shape, host.data.color) = (shape.clone(), color);
                true
            }
            _ => false,
        }
    }

    /// An `<image>` as a sprite at its box's centre (rows reversed to read upright through the
    /// flip), a grey box for one not on disk, or no shape when its size is unknown.
    pub(super) fn image(&mut self, item: Item, name: String, t: DAffine2) -> Result<()> {
        let node = item.node;
        let href = href(node).unwrap_or("");
        let file = path::local_file(href).map(|f| self.dir.join(f));
        let pixels = file
            .as_ref()
            .and_then(|f| read_limit::image_size(f, read_limit::IMAGE).ok());
        let pixels = pixels.map(|s| DVec2::new(s.width as f64, s.height as f64));
        let (centre, size) = self.image_box(item, pixels);
        let local = t * DAffine2::from_translation(centre);
        let size32 = size.as_vec2();
        if !(size.x > 0.0 && size.y > 0.0 && size32.is_finite() && local.is_finite()) {
            self.note(node, "an image of zero or unknown size has no shape");
            return self.add_shape(item, name, t, Shape::None, DEFAULT_COLOR);
        }
        let Some(file) = file else {
            return self.image_stand_in(item, name, local, href, size32);
        };
        if pixels.is_none() {
            self.note(
                node,
                format!("image {} is missing or unreadable", file.display()),
            );
        }
        let (path, region) = (
            file.to_string_lossy().into_owned(),
            Some([0.0, 1.0, 1.0, 0.0]),
        );
        let sprite = Shape::from(Sprite {
            path,
            size: size32,
            region,
            offset: Vec2::ZERO,
        });
        self.add_shape(item, name, local, sprite, DEFAULT_COLOR)
    }

    /// An image's centre and drawn size in its user space: its box (`x`, `y`, `width`,
    /// `height`, missing sides taken from the picture's `pixels` shape), with the picture
    /// fitted into it as `preserveAspectRatio` says (a slice is noted and drawn as meet).
    fn image_box(&mut self, item: Item, pixels: Option<DVec2>) -> (DVec2, DVec2) {
        let (node, vp) = (item.node, item.style.viewport);
        let corner = self.xy(node, ["x", "y"], vp);
        let (w, h) = (
            self.length(node, "width", 0, vp),
            self.length(node, "height", 1, vp),
        );
        let mut size = match (w, h, pixels) {
            (Some(w), Some(h), _) => DVec2::new(w, h),
            (Some(w), None, Some(p)) => DVec2::new(w, w * p.y / p.x),
            (None, Some(h), Some(p)) => DVec2::new(h * p.x / p.y, h),
            (None, None, Some(p)) => p,
            _ => DVec2::ZERO,
        };
        let mut centre = corner + 0.5 * size;
        let par = node.attribute("preserveAspectRatio");
        let par = par.and_then(|v| AspectRatio::from_str(v).ok());
        if let (Some(p), false) = (pixels, par.is_some_and(|a| a.align == Align::None)) {
            // Fitted into its box (meet); a slice would crop it, which a sprite cannot.
            let fitted = DAffine2::from_translation(corner) * path::fit(par, p, size);
            (centre, size) = (
                fitted.transform_point2(0.5 * p),
                fitted.transform_vector2(p),
            );
            if par.is_some_and(|a| a.slice) {
                self.note(
                    node,
                    "an image's preserveAspectRatio slice is drawn as meet",
                );
            }
        }
        (centre, size)
    }

    /// An embedded (`data:`) or remote image: noted, and a translucent grey box of its size
    /// stands in (nothing is downloaded or written).
    fn image_stand_in(
        &mut self,
        item: Item,
        name: String,
        local: DAffine2,
        href: &str,
        size: Vec2,
    ) -> Result<()> {
        let kind = if href.starts_with("data:") {
            "an embedded (data:)"
        } else {
            "a remote"
        };
        self.note(
            item.node,
            format!("{kind} image is not extracted: a grey box stands in"),
        );
        let grey_box = Shape::Rect { size };
        self.add_shape(item, name, local, grey_box, [128, 128, 128, 96])
    }

    pub(super) fn expand_use(
        &mut self,
        item: Item<'a, 'i>,
        name: String,
        t: DAffine2,
        stack: &mut Vec<Frame<'a, 'i>>,
    ) -> Result<()> {
        let (node, vp) = (item.node, item.style.viewport);
        let link = href(node).unwrap_or("");
        let target = link
            .strip_prefix('#')
            .and_then(|id| self.ids.get(id))
            .copied();
        let Some(target) = target.filter(|t| is_svg(*t)) else {
            self.note(
                node,
                format!("<use> of `{link}`: not in this file, not imported"),
            );
            return Ok(());
        };
        // A use inside what it shows (directly, or through the uses that led here) loops.
        let (mut via, mut next, mut uses) = (Some(node), item.chain, 0);
        while let Some(u) = via {
            let (outer, inner) = (target.range(), u.range());
            if outer.start <= inner.start && inner.end <= outer.end {
                self.note(node, "a <use> that shows itself is not expanded");
                return Ok(());
            }
            uses += 1;
            (via, next) = next.map_or((None, None), |k| (Some(self.chains[k].0), self.chains[k].1));
        }
        if uses > MAX_USE_CHAIN || self.use_nodes >= MAX_USE_NODES {
            self.note(node, "<use> nested or repeated too much: not expanded");
            return Ok(());
        }
        let local = t * DAffine2::from_translation(self.xy(node, ["x", "y"], vp));
        let parent = self.add(node, Some(item.parent), name, local)?;
        let size = (
            self.length(node, "width", 0, vp),
            self.length(node, "height", 1, vp),
        );
        self.chains.push((node, item.chain));
        let (chain, depth) = (Some(self.chains.len() - 1), item.depth + 1);
        let item = Item {
            parent,
            depth,
            chain,
            use_size: Some(size),
            ..item
        };
        stack.push(Frame {
            item,
            next: Some(target),
            single: true,
        });
        Ok(())
    }
}
