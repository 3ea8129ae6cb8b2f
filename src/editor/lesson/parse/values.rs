//! The values of directive lines: a cursor that reads predicates, actions and set-ups from the
//! tokens of `tokens.rs`.

use super::located::error_at;
use super::tokens::{Tok, tokenize};
use crate::editor::lesson::{
    ANGLE_TOLERANCE, Action, LENGTH_TOLERANCE, Name, Pos, Predicate, Property, Setup, Space,
    VIEW_OPTION_NAMES, ValueSpace,
};
use crate::editor::view::options::ViewOption;
use crate::error::{Error, Result};
use crate::model::math::MirrorAxis;
use std::path::Path;

/// The verbs a `do:` line starts with.
const VERBS: [&str; 19] = [
    "select",
    "reparent",
    "set",
    "add",
    "rename",
    "delete",
    "mirror",
    "probe",
    "keep-world",
    "show",
    "hide",
    "look",
    "time",
    "play",
    "pause",
    "trails",
    "instance",
    "edit",
    "revert",
];

/// Reads one directive's value, token by token.
pub(in crate::editor::lesson) struct Cursor<'a> {
    path: &'a Path,
    tokens: Vec<(Tok, Pos)>,
    next: usize,
    /// Where the value ends (errors about a missing token point there).
    end: Pos,
}

impl<'a> Cursor<'a> {
    /// A cursor over `text`, which starts at `at` in the file.
    pub fn new(path: &'a Path, text: &str, at: Pos) -> Result<Self> {
        let tokens = tokenize(path, text, at)?;
        let end = Pos {
            line: at.line,
            col: at.col + text.trim_end().chars().count(),
        };
        Ok(Self {
            path,
            tokens,
            next: 0,
            end,
        })
    }

    pub(super) fn here(&self) -> Pos {
        self.tokens.get(self.next).map_or(self.end, |(_, at)| *at)
    }

    pub(super) fn fail(&self, message: impl Into<String>) -> Error {
        error_at(self.path, self.here(), message)
    }

    pub(super) fn peek(&self) -> Option<&Tok> {
        self.tokens.get(self.next).map(|(t, _)| t)
    }

    pub(super) fn peek_word(&self) -> Option<&str> {
        match self.peek() {
            Some(Tok::Word(w)) => Some(w),
            _ => None,
        }
    }

    /// Take the next token if it is the word `word`.
    pub(super) fn eat(&mut self, word: &str) -> bool {
        let found = self.peek_word() == Some(word);
        self.next += usize::from(found);
        found
    }

    fn expect(&mut self, word: &str) -> Result<()> {
        if self.eat(word) {
            Ok(())
        } else {
            Err(self.fail(format!("expected `{word}`")))
        }
    }

    /// The whole value was read.
    pub fn end(&self) -> Result<()> {
        match self.tokens.get(self.next) {
            None => Ok(()),
            Some((_, at)) => Err(error_at(
                self.path,
                *at,
                "unexpected text after the end of this line's value",
            )),
        }
    }

    /// One of these words.
    pub(super) fn word_of(&mut self, words: &[&str]) -> Result<String> {
        match self.peek_word() {
            Some(w) if words.contains(&w) => {
                let w = w.to_string();
                self.next += 1;
                Ok(w)
            }
            _ => Err(self.fail(format!("expected {}", quote_list(words)))),
        }
    }

    fn on_off(&mut self) -> Result<bool> {
        Ok(self.word_of(&["on", "off"])? == "on")
    }

    /// A node's name: a bare word or a quoted string.
    pub(super) fn name(&mut self) -> Result<Name> {
        let at = self.here();
        let text = match self.peek() {
            Some(Tok::Word(w)) => w.clone(),
            Some(Tok::Quoted(q)) if !q.is_empty() => q.clone(),
            _ => {
                return Err(
                    self.fail("expected a node's name (quote names with spaces: \"moon orbit\")")
                );
            }
        };
        self.next += 1;
        Ok(Name { text, at })
    }

    /// A name, or `none` / `root` (given) for no node.
    fn name_or(&mut self, nothing: &str) -> Result<Option<Name>> {
        if self.eat(nothing) {
            Ok(None)
        } else {
            self.name().map(Some)
        }
    }

    fn names(&mut self) -> Result<Vec<Name>> {
        if self.eat("none") {
            return Ok(Vec::new());
        }
        let mut names = vec![self.name()?];
        while self.peek() == Some(&Tok::Comma) {
            self.next += 1;
            names.push(self.name()?);
        }
        Ok(names)
    }

    pub(super) fn number(&mut self) -> Result<f32> {
        match self.peek() {
            Some(Tok::Num(v)) => {
                let v = *v;
                self.next += 1;
                Ok(v)
            }
            _ => Err(self.fail("expected a number")),
        }
    }

    pub(super) fn vec2(&mut self) -> Result<glam::Vec2> {
        if self.peek() != Some(&Tok::Open) {
            return Err(self.fail("expected a vector `(x, y)`"));
        }
        self.next += 1;
        let x = self.number()?;
        if self.peek() != Some(&Tok::Comma) {
            return Err(self.fail("expected `,` between x and y"));
        }
        self.next += 1;
        let y = self.number()?;
        if self.peek() != Some(&Tok::Close) {
            return Err(self.fail("expected `)`"));
        }
        self.next += 1;
        Ok(glam::vec2(x, y))
    }

    pub(super) fn tolerance(&mut self, default: f32) -> Result<f32> {
        if self.peek() != Some(&Tok::PlusMinus) {
            return Ok(default);
        }
        self.next += 1;
        let at = self.here();
        let t = self.number()?;
        if t < 0.0 {
            return Err(error_at(self.path, at, "a tolerance is not negative"));
        }
        Ok(t)
    }

    pub(super) fn frame(&mut self) -> Result<ValueSpace> {
        Ok(match self.word_of(&["world", "local"])?.as_str() {
            "world" => ValueSpace::World,
            _ => ValueSpace::Local,
        })
    }

    /// `position (x, y)`, `rotation DEG`, `scale (x, y)` or `skew DEG`, and the default
    /// tolerance of that kind of value. `is` comes between the property and the value if given.
    fn property(&mut self, is: bool) -> Result<(Property, f32)> {
        let which = self.word_of(&["position", "rotation", "scale", "skew"])?;
        if is {
            self.expect("is")?;
        }
        Ok(match which.as_str() {
            "position" => (Property::Position(self.vec2()?), LENGTH_TOLERANCE),
            "rotation" => (Property::Rotation(self.number()?), ANGLE_TOLERANCE),
            "scale" => (Property::Scale(self.vec2()?), LENGTH_TOLERANCE),
            _ => (Property::Skew(self.number()?), ANGLE_TOLERANCE),
        })
    }

    fn view_option(&mut self) -> Result<ViewOption> {
        let names: Vec<&str> = VIEW_OPTION_NAMES.iter().map(|(n, _)| *n).collect();
        let name = self.word_of(&names)?;
        VIEW_OPTION_NAMES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, o)| *o)
            .ok_or_else(|| self.fail("unknown view option"))
    }

    fn space(&mut self) -> Result<Space> {
        let space = match self.peek_word() {
            Some("world") => Space::World,
            Some("parent") => Space::Parent,
            Some("selection") => Space::Selection,
            _ => return self.name().map(Space::Node),
        };
        self.next += 1;
        Ok(space)
    }

    /// A goal's predicate.
    pub fn predicate(&mut self) -> Result<Predicate> {
        match self.peek_word() {
            Some("not") => {
                self.next += 1;
                return Ok(Predicate::Not(Box::new(self.predicate()?)));
            }
            Some("keep-world") => {
                self.next += 1;
                self.expect("is")?;
                return self.on_off().map(Predicate::KeepWorld);
            }
            Some("view") => {
                self.next += 1;
                return self.view_predicate();
            }
            Some("probe") => {
                self.next += 1;
                return self.probe_predicate();
            }
            Some("time") => {
                self.next += 1;
                self.expect("is")?;
                self.expect("past")?;
                return self.number().map(Predicate::TimePast);
            }
            Some("trails") | Some("playing") => {
                let trails = self.eat("trails");
                self.next += usize::from(!trails);
                self.word_of(&["is", "are"])?;
                let on = self.on_off()?;
                return Ok(if trails {
                    Predicate::Trails(on)
                } else {
                    Predicate::Playing(on)
                });
            }
            Some("recomputed") => {
                self.next += 1;
                self.expect("is")?;
                let at_most = self.eat("at") && {
                    self.expect("most")?;
                    true
                };
                let at = self.here();
                let n = self.number()?;
                if n < 0.0 || n.fract() != 0.0 {
                    return Err(error_at(self.path, at, "a count is a whole number"));
                }
                return Ok(Predicate::Recomputed {
                    count: n as usize,
                    at_most,
                });
            }
            _ => {}
        }
        let node = self.name()?;
        self.node_predicate(node)
    }

    fn node_predicate(&mut self, node: Name) -> Result<Predicate> {
        let word = self
            .word_of(&["world", "local", "parent", "exists", "is", "shear"])
            .map_err(|e| {
                super::located::reworded(e, 0, |m| {
                    format!("{m} (a name with spaces is quoted: \"left tread\")")
                })
            })?;
        Ok(match word.as_str() {
            "world" | "local" => {
                self.next -= 1;
                let frame = self.frame()?;
                let (value, default) = self.property(true)?;
                let tolerance = self.tolerance(default)?;
                Predicate::Transform {
                    node,
                    frame,
                    value,
                    tolerance,
                }
            }
            "parent" => {
                self.expect("is")?;
                Predicate::Parent {
                    node,
                    parent: self.name_or("none")?,
                }
            }
            "exists" => Predicate::Exists(node),
            "is" => match self.word_of(&["deleted", "selected"])?.as_str() {
                "deleted" => Predicate::Deleted(node),
                _ => Predicate::Selected(node),
            },
            _ => {
                self.expect("is")?;
                let zero = !self.eat("not");
                self.expect("zero")?;
                Predicate::Shear { node, zero }
            }
        })
    }

    fn view_predicate(&mut self) -> Result<Predicate> {
        match self.word_of(&["shows", "hides", "looks"])?.as_str() {
            "looks" => {
                self.expect("from")?;
                self.space().map(Predicate::LooksFrom)
            }
            verb => Ok(Predicate::View(self.view_option()?, verb == "shows")),
        }
    }

    fn probe_predicate(&mut self) -> Result<Predicate> {
        self.expect("on")?;
        let node = self.name()?;
        self.expect("in")?;
        let space = self.name_or("world")?;
        self.expect("is")?;
        let value = self.vec2()?;
        let tolerance = self.tolerance(LENGTH_TOLERANCE)?;
        Ok(Predicate::Probe {
            node,
            space,
            value,
            tolerance,
        })
    }

    /// A solution's action.
    pub fn action(&mut self) -> Result<Action> {
        let verb = self.word_of(&VERBS)?;
        Ok(match verb.as_str() {
            "select" => Action::Select(self.names()?),
            "reparent" => self.reparent()?,
            "set" => {
                let node = self.name()?;
                let frame = self.frame()?;
                let (value, _) = self.property(false)?;
                Action::Set { node, frame, value }
            }
            "add" => {
                let name = self.name()?.text;
                self.expect("under")?;
                Action::Add {
                    name,
                    under: self.name_or("root")?,
                }
            }
            "rename" => Action::Rename {
                node: self.name()?,
                name: self.name()?.text,
            },
            "delete" => Action::Delete(self.name()?),
            "mirror" => Action::Mirror {
                node: self.name()?,
                axis: match self.word_of(&["horizontally", "vertically"])?.as_str() {
                    "horizontally" => MirrorAxis::Horizontal,
                    _ => MirrorAxis::Vertical,
                },
            },
            "probe" => {
                self.expect("on")?;
                let node = self.name()?;
                self.expect("at")?;
                Action::Probe {
                    node,
                    at: self.vec2()?,
                }
            }
            "keep-world" => Action::KeepWorld(self.on_off()?),
            "show" | "hide" => Action::View(self.view_option()?, verb == "show"),
            "look" => {
                self.expect("from")?;
                Action::LookFrom(self.space()?)
            }
            "time" => Action::Time(self.non_negative()?),
            "play" => Action::Play(true),
            "pause" => Action::Play(false),
            "instance" | "edit" | "revert" => self.part_action(&verb)?,
            _ => Action::Trails(self.on_off()?),
        })
    }

    /// `instance sample NAME under NODE [as NEWNAME]`, `edit sample NAME set NODE local|world
    /// PROPERTY VALUE` or `revert NODE`.
    fn part_action(&mut self, verb: &str) -> Result<Action> {
        if verb == "revert" {
            return Ok(Action::Revert(self.name()?));
        }
        self.expect("sample")?;
        let sample = self.sample()?;
        if verb == "edit" {
            self.expect("set")?;
            let node = self.name()?;
            let frame = self.frame()?;
            let (value, _) = self.property(false)?;
            return Ok(Action::EditPart {
                sample,
                node,
                frame,
                value,
            });
        }
        self.expect("under")?;
        let under = self.name_or("root")?;
        let name = if self.eat("as") {
            Some(self.name()?.text)
        } else {
            None
        };
        Ok(Action::Instance {
            sample,
            under,
            name,
        })
    }

    /// A sample scene's name.
    fn sample(&mut self) -> Result<String> {
        let names = crate::editor::lesson::course::SAMPLE_NAMES;
        match self.peek_word() {
            Some(w) if names.contains(&w) => self.word_of(&names),
            _ => Err(self.fail(format!("expected a sample scene: {}", quote_list(&names)))),
        }
    }

    fn reparent(&mut self) -> Result<Action> {
        let node = self.name()?;
        self.expect("to")?;
        let to = self.name_or("root")?;
        let keep = match self.peek_word() {
            Some("keep-world") | Some("keep-local") => {
                let world = self.word_of(&["keep-world", "keep-local"])? == "keep-world";
                Some(crate::model::scene::Keep::world_if(world))
            }
            _ => None,
        };
        Ok(Action::Reparent { node, to, keep })
    }

    fn non_negative(&mut self) -> Result<f32> {
        let at = self.here();
        let t = self.number()?;
        if t < 0.0 {
            return Err(error_at(self.path, at, "a time is not negative"));
        }
        Ok(t)
    }

    /// A set-up line's value, stored in `setup`.
    pub fn setup(&mut self, key: &str, setup: &mut Setup) -> Result<()> {
        match key {
            "select" => setup.select = Some(self.names()?),
            "keep-world" => setup.keep_world = Some(self.on_off()?),
            "show" => {
                let mut shown = Vec::new();
                if !self.eat("none") {
                    shown.push(self.view_option()?);
                    while self.peek() == Some(&Tok::Comma) {
                        self.next += 1;
                        shown.push(self.view_option()?);
                    }
                }
                setup.show = Some(shown);
            }
            "look-from" => setup.look_from = Some(self.space()?),
            "time" => setup.time = Some(self.non_negative()?),
            "play" => setup.play = Some(self.on_off()?),
            "trails" => setup.trails = Some(self.on_off()?),
            _ => match self.peek_word() {
                Some("all") | Some("selection") => {
                    setup.frame_all = Some(self.word_of(&["all", "selection"])? == "all");
                }
                _ => setup.frame_nodes = Some(self.names()?),
            },
        }
        Ok(())
    }
}

/// `a`, `b` or `c`.
pub(super) fn quote_list(words: &[&str]) -> String {
    let quoted: Vec<String> = words.iter().map(|w| format!("`{w}`")).collect();
    match quoted.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => quoted.join(""),
    }
}
