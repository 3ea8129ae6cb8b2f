//! The layers a figure can show besides the nodes, and their names on the command line.

/// The layers a figure can show besides the nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layers {
    /// The grid with its labels and the world axes.
    pub grid: bool,
    /// Each node's local x (red) and y (green) axes.
    pub axes: bool,
    /// Parent → child lines.
    pub links: bool,
    /// Node names.
    pub names: bool,
    /// The shear warning overlay.
    pub shear: bool,
    /// The selected nodes outlined.
    pub selection: bool,
    /// The selection's world-space trails over the clip, with time ticks (off by default; on
    /// for the frames of an animation with a selection).
    pub trails: bool,
    /// Ghosts where each node would be with position, rotation and scale accumulated
    /// separately (the viewport's composition ghosts; off by default).
    pub ghosts: bool,
    /// The grid of the last selected node's parent's space (the viewport's "parent grid").
    pub parent_space: bool,
    /// The grid of the last selected node's own space (the viewport's "local grid").
    pub own_space: bool,
    /// The probes' pins.
    pub probes: bool,
}

impl Default for Layers {
    fn default() -> Self {
        Self {
            grid: true,
            axes: true,
            links: true,
            names: true,
            shear: true,
            selection: true,
            trails: false,
            ghosts: false,
            parent_space: false,
            own_space: false,
            probes: false,
        }
    }
}

impl Layers {
    /// Every layer off.
    pub const NONE: Layers = Layers {
        grid: false,
        axes: false,
        links: false,
        names: false,
        shear: false,
        selection: false,
        trails: false,
        ghosts: false,
        parent_space: false,
        own_space: false,
        probes: false,
    };

    /// Layers from a comma list (`grid,axes,links,names,shear,selection`, `all`, `none`).
    pub fn parse(list: &str) -> Result<Layers, String> {
        let mut layers = Layers::NONE;
        for word in list.split(',').map(str::trim).filter(|w| !w.is_empty()) {
            match word {
                "all" => layers = Layers::default(),
                "none" => layers = Layers::NONE,
                "grid" => layers.grid = true,
                "axes" => layers.axes = true,
                "links" => layers.links = true,
                "names" => layers.names = true,
                "shear" => layers.shear = true,
                "selection" => layers.selection = true,
                "trails" => layers.trails = true,
                "ghosts" => layers.ghosts = true,
                "parent-space" => layers.parent_space = true,
                "own-space" => layers.own_space = true,
                "probes" => layers.probes = true,
                other => {
                    return Err(format!(
                        "unknown layer `{other}` (grid, axes, links, names, shear, selection, trails, ghosts, parent-space, own-space, probes, all, none)"
                    ));
                }
            }
        }
        Ok(layers)
    }
}
