//! A Godot scene as one tree with every instance expanded: `[node]` sections placed by their
//! `parent` paths, instanced scenes read (recursively, with a depth limit and cycle detection)
//! and grafted in, and the property overrides of instances and of nodes inside them ("editable
//! children") applied. What the nodes mean for transforms is `import.rs`'s business.

use super::report::{Note, NoteKind};
use super::tscn::{self, Value};
pub use super::tscn::{ExtResource, SceneFile, SubResource, find_project_root, read_scene_text};
use crate::error::{Error, Result};
use rustc_hash::FxHashMap;
use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// Instances nested deeper than this are refused (a scene instancing a scene … this deep).
pub const MAX_INSTANCE_DEPTH: usize = 32;
/// Files larger than this are refused before they are read (graft's own export of a 1M-node
/// scene is ~600 MB).
pub const MAX_FILE_BYTES: u64 = crate::model::read_limit::TSCN.bytes;

/// A property value, with the file whose resource tables it refers into.
#[derive(Debug, Clone)]
pub struct Prop {
    /// The value.
    pub value: Value<'static>,
    /// The file that wrote it.
    pub file: Rc<SceneFile>,
    /// Its line in that file.
    pub line: u32,
}

/// One node of the expanded tree.
#[derive(Debug, Clone)]
pub struct GNode {
    /// Its name (unique among its siblings in Godot).
    pub name: String,
    /// Its Godot class (`Node2D`, `Sprite2D`, …); None for an override section that found no node.
    pub class: Option<String>,
    /// Its properties, later ones overriding earlier ones.
    pub props: Vec<(Cow<'static, str>, Prop)>,
    /// Its children, in order.
    pub children: Vec<usize>,
    /// The file and line of the section that made it.
    pub origin: (Rc<SceneFile>, u32),
    /// On the root of an instance: the scene it instances (for a `copied` node, an instance
    /// its source makes).
    pub instance: Option<Rc<Instanced>>,
    /// True for a node copied from an instanced scene (its source's nodes follow its
    /// instance root in the arena, in the source's own order).
    pub copied: bool,
}

/// The scene an `instance=ExtResource(…)` names.
#[derive(Debug)]
pub struct Instanced {
    /// The path as written (`res://parts/wheel.tscn`).
    pub written: String,
    /// The file on disk, when it can be located.
    pub path: Option<PathBuf>,
    /// Its expanded tree, or None when it cannot be read (the instance is then an empty node).
    pub tree: Option<Rc<Tree>>,
}

impl GNode {
    /// The property `key` (the last one written wins).
    pub fn prop(&self, key: &str) -> Option<&Prop> {
        self.props
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, p)| p)
    }

    /// Where the node was written, as `file:line`.
    pub fn place(&self) -> String {
        format!("{}:{}", self.origin.0.path.display(), self.origin.1)
    }
}

/// A scene with its instances expanded: an arena whose node 0 is the root.
#[derive(Debug, Clone, Default)]
pub struct Tree {
    /// Every node; 0 is the root.
    pub nodes: Vec<GNode>,
}

/// Reads scene files and expands instances, remembering what it reported.
pub struct Loader {
    /// What was approximated, skipped or missing.
    pub notes: Vec<Note>,
    /// The folder holding `project.godot` (where `res://` points).
    pub project_root: Option<PathBuf>,
    cache: FxHashMap<PathBuf, Rc<Tree>>,
    stack: Vec<PathBuf>,
    node_limit: usize,
    nodes_made: usize,
}

impl Loader {
    /// A loader for a scene at `path`, refusing trees of more than `node_limit` nodes.
    pub fn new(path: &Path, node_limit: usize) -> Self {
        Self {
            notes: Vec::new(),
            project_root: find_project_root(path),
            cache: FxHashMap::default(),
            stack: Vec::new(),
            node_limit,
            nodes_made: 0,
        }
    }

    fn note(&mut self, kind: NoteKind, place: String, message: String) {
        self.notes.push(Note {
            kind,
            place,
            message,
        });
    }

    /// Resolve a resource path written in `from`: `res://` from the project root (or the
    /// scene's folder when there is none), anything else relative to `from`'s folder.
    pub fn resolve(&self, from: &Path, written: &str) -> Option<PathBuf> {
        let dir = from.parent().unwrap_or(Path::new("."));
        let found = if let Some(rest) = written.strip_prefix("res://") {
            let root = self.project_root.as_deref().unwrap_or(dir);
            root.join(rest)
        } else if written.contains("://") {
            return None;
        } else {
            dir.join(written)
        };
        // Absolute, so sprite paths mean the same wherever the imported scene is saved.
        Some(std::path::absolute(&found).unwrap_or(found))
    }

    /// Read, parse and expand the scene at `path` (the top-level file).
    pub fn load_text(&mut self, text: &str, path: &Path) -> Result<Tree> {
        let parsed = tscn::parse(text).map_err(|e| Error::Syntax {
            path: path.to_path_buf(),
            line: e.line as usize,
            col: e.col as usize,
            message: e.message,
        })?;
        self.stack.push(path.to_path_buf());
        let tree = self.expand(parsed, path);
        self.stack.pop();
        tree
    }

    /// An instanced scene, from the cache or read now. Missing or unreadable files give None
    /// (with a note); cycles and depth are errors.
    fn instance(&mut self, path: &Path, place: &str) -> Result<Option<Rc<Tree>>> {
        let key = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
        if self
            .stack
            .iter()
            .any(|p| p.canonicalize().unwrap_or_else(|_| p.clone()) == key)
        {
            let chain: Vec<String> = self
                .stack
                .iter()
                .chain(std::iter::once(&key))
                .map(|p| file_name(p))
                .collect();
            return Err(Error::Format(format!(
                "{place}: instance cycle ({})",
                chain.join(" -> ")
            )));
        }
        if self.stack.len() >= MAX_INSTANCE_DEPTH {
            return Err(Error::Format(format!(
                "{place}: instances nested more than {MAX_INSTANCE_DEPTH} deep"
            )));
        }
        if let Some(tree) = self.cache.get(&key) {
            return Ok(Some(tree.clone()));
        }
        let text = match read_scene_text(path) {
            Ok(text) => text,
            Err(why) => {
                self.note(NoteKind::Missing, place.to_string(), why);
                return Ok(None);
            }
        };
        self.stack.push(key.clone());
        let tree = self.load_text(&text, path);
        self.stack.pop();
        let tree = Rc::new(tree?);
        self.cache.insert(key, tree.clone());
        Ok(Some(tree))
    }

    fn count(&mut self, more: usize, place: &str) -> Result<()> {
        self.nodes_made += more;
        if self.nodes_made > self.node_limit {
            return Err(Error::Format(format!(
                "{place}: the scene expands to more than {} nodes",
                self.node_limit
            )));
        }
        Ok(())
    }

    /// Place every `[node]` section of one parsed file, expanding instances.
    fn expand(&mut self, parsed: tscn::Tscn, path: &Path) -> Result<Tree> {
        let mut scene = Expansion {
            path,
            file: Rc::new(self.tables(&parsed, path)),
            tree: Tree::default(),
            by_path: FxHashMap::default(),
        };
        for section in parsed.sections.into_iter().filter(|s| s.kind == "node") {
            let node = self.read_section(&scene, section)?;
            self.place_node(&mut scene, node)?;
        }
        if scene.tree.nodes.is_empty() {
            return Err(Error::Format(format!(
                "{}: no [node] sections",
                path.display()
            )));
        }
        Ok(scene.tree)
    }

    /// What a `[node]` section says, its properties moved (not cloned) into owned ones and its
    /// instance (if any) read.
    fn read_section(&mut self, scene: &Expansion, section: tscn::Section) -> Result<NodeSection> {
        let line = section.line;
        let name = section.attr_str("name").unwrap_or("").to_string();
        let class = section.attr_str("type").map(str::to_string);
        let instance = match section.attr("instance").and_then(Value::resource_ref) {
            Some((_, id)) => Some(Rc::new(self.instance_of(
                &scene.file,
                &id,
                &scene.place(line),
            )?)),
            None => None,
        };
        let parent_path = section.attr_str("parent").map(str::to_string);
        let index = section
            .attr("index")
            .and_then(|v| v.as_i64().or_else(|| v.as_str()?.parse().ok()));
        let props = section
            .props
            .into_iter()
            .map(|p| {
                let prop = Prop {
                    value: p.value.into_owned(),
                    file: scene.file.clone(),
                    line: p.line,
                };
                (super::variant::intern(p.key), prop)
            })
            .collect();
        // A missing instance is an empty 2D node, so its transform overrides still apply.
        let class = match &instance {
            Some(i) if i.tree.is_none() => class.or_else(|| Some("Node2D".into())),
            _ => class,
        };
        Ok(NodeSection {
            name,
            class,
            props,
            origin: (scene.file.clone(), line),
            instance,
            parent_path,
            index,
        })
    }

    /// Add one read `[node]` section to the tree: as the root, as a new child, or as overrides
    /// of a node an instance made.
    fn place_node(&mut self, scene: &mut Expansion, mut node: NodeSection) -> Result<()> {
        let Some(parent_path) = node.parent_path.take() else {
            return self.place_root(scene, node);
        };
        let Some(parent) = scene.tree.find(&scene.by_path, &parent_path) else {
            let name = &node.name;
            self.note(
                NoteKind::Skipped,
                scene.place(node.origin.1),
                format!("\"{name}\": its parent \"{parent_path}\" is not in the scene"),
            );
            return Ok(());
        };
        let full = if parent_path == "." {
            node.name.clone()
        } else {
            format!("{parent_path}/{}", node.name)
        };
        // Only an override section (no type, no instance) looks for an existing child:
        // scanning a parent's children for every node would be quadratic in wide scenes.
        let existing = if node.instance.is_none() && node.class.is_none() {
            scene.tree.child_named(parent, &node.name)
        } else {
            None
        };
        let at = match existing {
            // A section without type or instance: overrides of a node an instance made.
            Some(at) => {
                scene.tree.nodes[at].props.extend(node.props);
                at
            }
            None => self.add_child(scene, node, parent)?,
        };
        scene.by_path.insert(full, at);
        Ok(())
    }

    /// Make a section without a `parent` the root, or skip it (noted) when there is one.
    fn place_root(&mut self, scene: &mut Expansion, node: NodeSection) -> Result<()> {
        let place = scene.place(node.origin.1);
        if !scene.tree.nodes.is_empty() {
            let name = &node.name;
            self.note(
                NoteKind::Skipped,
                place,
                format!("a second root node \"{name}\" (only the first is the scene)"),
            );
            return Ok(());
        }
        self.count(1, &place)?;
        scene.tree.graft(node);
        Ok(())
    }

    /// Add a section's node (or its instance's whole tree) as a child of `parent`; returns its
    /// index.
    fn add_child(
        &mut self,
        scene: &mut Expansion,
        node: NodeSection,
        parent: usize,
    ) -> Result<usize> {
        let place = scene.place(node.origin.1);
        let mut node = node;
        if node.instance.is_none() && node.class.is_none() {
            let name = &node.name;
            let under = &scene.tree.nodes[parent];
            if under.copied || under.instance.is_some() {
                // Godot drops it silently; graft keeps its values where they can be seen.
                let keys: Vec<&str> = node.props.iter().map(|(k, _)| k.as_ref()).collect();
                self.note(
                    NoteKind::Missing,
                    place.clone(),
                    format!(
                        "\"{name}\" under \"{}\" overrides a node its instanced scene does not \
                         have (renamed or removed there; Godot drops it): kept as an added \
                         Node2D with its {}",
                        under.name,
                        if keys.is_empty() {
                            "name".to_string()
                        } else {
                            keys.join(", ")
                        }
                    ),
                );
                node.class = Some("Node2D".into());
            } else {
                self.note(
                    NoteKind::Approximated,
                    place.clone(),
                    format!("\"{name}\" has no type and overrides no node: read as a Node"),
                );
            }
        }
        let made = node
            .instance
            .as_ref()
            .and_then(|i| i.tree.as_ref())
            .map_or(1, |t| t.nodes.len());
        self.count(made, &place)?;
        let index = node.index;
        let at = scene.tree.graft(node);
        scene.tree.attach(parent, at, index);
        Ok(at)
    }

    /// The scene an `instance=ExtResource(id)` names; its tree None (noted) when it cannot be
    /// read.
    fn instance_of(&mut self, file: &SceneFile, id: &str, place: &str) -> Result<Instanced> {
        let Some(ext) = file.ext.get(id) else {
            self.note(
                NoteKind::Missing,
                place.to_string(),
                format!("instance of ExtResource(\"{id}\"), which the file does not declare: an empty node"),
            );
            return Ok(Instanced {
                written: String::new(),
                path: None,
                tree: None,
            });
        };
        let (written, path) = (ext.written.clone(), ext.path.clone());
        let Some(found) = &path else {
            self.note(
                NoteKind::Missing,
                place.to_string(),
                format!(
                    "instance of \"{written}\": cannot locate it (no res:// path): an empty node"
                ),
            );
            return Ok(Instanced {
                written,
                path,
                tree: None,
            });
        };
        let tree = self.instance(found, place)?;
        Ok(Instanced {
            written,
            path,
            tree,
        })
    }

    /// The ext and sub resource tables of a parsed file.
    fn tables(&self, parsed: &tscn::Tscn, path: &Path) -> SceneFile {
        let mut ext = FxHashMap::default();
        let mut sub = FxHashMap::default();
        for s in &parsed.sections {
            let id = s.attr("id").and_then(|v| match v {
                Value::Int(i) => Some(i.to_string()),
                other => other.as_str().map(str::to_string),
            });
            let Some(id) = id else { continue };
            match s.kind {
                "ext_resource" => {
                    let written = s.attr_str("path").unwrap_or("").to_string();
                    ext.insert(
                        id,
                        ExtResource {
                            kind: s.attr_str("type").unwrap_or("").to_string(),
                            path: self.resolve(path, &written),
                            written,
                        },
                    );
                }
                "sub_resource" => {
                    let props = s
                        .props
                        .iter()
                        .map(|p| (p.key.to_string(), p.value.clone().into_owned()))
                        .collect();
                    let kind = s.attr_str("type").unwrap_or("").to_string();
                    sub.insert(id, SubResource { kind, props });
                }
                _ => {}
            }
        }
        let format = parsed
            .sections
            .first()
            .and_then(|s| s.attr("format"))
            .and_then(Value::as_i64)
            .unwrap_or(3) as u32;
        SceneFile {
            path: path.to_path_buf(),
            format,
            ext,
            sub,
        }
    }
}

/// One file's expansion in progress: the file, the tree so far and the nodes' paths.
struct Expansion<'p> {
    /// The file being expanded.
    path: &'p Path,
    /// Its resource tables.
    file: Rc<SceneFile>,
    /// The nodes placed so far.
    tree: Tree,
    /// Each placed section's node path (`A/B`) and its index in `tree`.
    by_path: FxHashMap<String, usize>,
}

impl Expansion<'_> {
    /// Where the section at `line` was written, as `file:line` (made only when needed: formatting
    /// it for every node is slow).
    fn place(&self, line: u32) -> String {
        format!("{}:{}", self.path.display(), line)
    }
}

/// A `[node]` section, read: its attributes, owned properties and instanced scene.
struct NodeSection {
    name: String,
    class: Option<String>,
    props: Vec<(Cow<'static, str>, Prop)>,
    /// The file and line of the section.
    origin: (Rc<SceneFile>, u32),
    /// The scene it instances (its tree None when it cannot be read).
    instance: Option<Rc<Instanced>>,
    parent_path: Option<String>,
    index: Option<i64>,
}

impl Tree {
    /// Add a section's node: from an instanced tree (the whole tree, its root renamed, the
    /// section's properties applied over the root's, its class unless the section names one)
    /// or from the section alone; returns its index.
    fn graft(&mut self, node: NodeSection) -> usize {
        let at = self.nodes.len();
        let NodeSection {
            name,
            class,
            props,
            origin,
            instance,
            ..
        } = node;
        match instance.as_ref().and_then(|i| i.tree.clone()) {
            None => self.nodes.push(GNode {
                name,
                class,
                props,
                children: Vec::new(),
                origin,
                instance,
                copied: false,
            }),
            Some(tree) => {
                self.nodes.extend(tree.nodes.iter().map(|n| {
                    let mut n = n.clone();
                    n.children.iter_mut().for_each(|c| *c += at);
                    n.copied = true;
                    n
                }));
                let root = &mut self.nodes[at];
                root.name = name;
                if class.is_some() {
                    root.class = class;
                }
                root.props.extend(props);
                root.instance = instance;
                root.copied = false;
            }
        }
        at
    }

    /// Make `child` a child of `parent`, at a sibling index when given (clamped).
    fn attach(&mut self, parent: usize, child: usize, index: Option<i64>) {
        let kids = &mut self.nodes[parent].children;
        match index {
            Some(i) if i >= 0 && (i as usize) < kids.len() => kids.insert(i as usize, child),
            _ => kids.push(child),
        }
    }

    /// The child of `parent` with this name.
    fn child_named(&self, parent: usize, name: &str) -> Option<usize> {
        self.nodes[parent]
            .children
            .iter()
            .copied()
            .find(|&c| self.nodes[c].name == name)
    }

    /// The node a `parent="A/B"` path names: known paths first, then a walk from the root (for
    /// nodes that instances made).
    fn find(&self, by_path: &FxHashMap<String, usize>, path: &str) -> Option<usize> {
        if self.nodes.is_empty() {
            return None;
        }
        if path == "." {
            return Some(0);
        }
        if let Some(&at) = by_path.get(path) {
            return Some(at);
        }
        let mut at = 0;
        for part in path.split('/').filter(|p| !p.is_empty() && *p != ".") {
            at = self.child_named(at, part)?;
        }
        Some(at)
    }
}

fn file_name(p: &Path) -> String {
    p.file_name().map_or_else(
        || p.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}
