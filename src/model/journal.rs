//! The journal format: a document's history as it happens, in a byte stream that a cut at any
//! byte or a flipped bit cannot turn into a wrong scene.
//!
//! A journal is `MAGIC`, a format number (u32, little-endian), then records. Each record is its
//! payload's length (u32 LE), the CRC-32 of the payload (u32 LE) and the payload: a [`Record`]
//! in postcard (compact, floats as their exact bits). The first record is [`Record::Begin`],
//! the second [`Record::Base`] (the scene the history starts from, in the .ron text, which
//! reads back bit for bit) or [`Record::BaseFile`] (the same text in a file, named with its
//! size and CRC-32: a big scene's journal holds no copy of it); then one [`Record::Change`] per
//! history change, a [`Record::Path`] when the document moves to another file (paths are
//! absolute and canonical) and a [`Record::Stamp`] whenever graft reads or writes the
//! document's file. Reading stops at the first record that is cut short, fails its checksum or
//! does not decode: what came before is recovered.
//! This module is pure: bytes in, bytes out; the editor owns the files.

use crate::error::{Error, Result};
use crate::model::document::Document;
use crate::model::file_stamp::FileStamp;
use crate::model::instance::snapshot::Snapshot;
use crate::model::scene::NodeId;
use crate::model::scene::edit::Change;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The first bytes of every journal.
pub const MAGIC: &[u8; 8] = b"GRAFTJNL";
/// The format this graft writes (and the newest it reads; every older one is read too). 3
/// added [`Record::Stamp`] and canonical paths, 4 [`Record::Sources`], 5 the follow's table
/// edits (`TableEdit::Follow`, `TableEdit::Reshape`: a format-4 reader would stop at them
/// and recover less without saying why), 6 `TableEdit::ReshapeCarrying` (a follow that
/// carries nodes added under instanced nodes).
pub const FORMAT: u32 = 6;
/// Bytes before the first record.
pub const HEADER_LEN: usize = MAGIC.len() + 4;
/// The largest record a reader accepts (a bigger length is a corrupt one).
pub const MAX_RECORD: usize = 1 << 30;

/// One journal record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Record {
    /// Who wrote the journal and for which file.
    Begin(Begin),
    /// The scene the history starts from, as .ron text, and the first id it would give out.
    Base {
        /// The scene in graft's .ron text.
        ron: String,
        /// The scene's next id (the text does not carry it).
        next_id: u32,
    },
    /// A change of the history.
    Change(Change),
    /// The document now lives at this file (Save As), or is untitled.
    Path(Option<String>),
    /// The scene the history starts from is this .ron file, as long as it still has this
    /// size and CRC-32 (format 2).
    BaseFile {
        /// The file (absolute).
        path: String,
        /// Its size in bytes.
        len: u64,
        /// The CRC-32 of its bytes.
        crc: u32,
        /// The scene's next id.
        next_id: u32,
    },
    /// The document's file as graft last read or wrote it, by contents and identity (format
    /// 3): a recovered document compares the file on disk with it before its first save.
    Stamp(FileId),
    /// Right after the base, when its scene has instances (format 4): their sources as the
    /// session held them and their nodes' ids, so recovery reads no source from disk.
    Sources(Box<Snapshot>),
}

/// A file as a journal knows it: its bytes' size and CRC-32, and its device and inode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileId {
    /// Its size in bytes.
    pub len: u64,
    /// The CRC-32 of its bytes.
    pub crc: u32,
    /// Its device (0: not known).
    pub dev: u64,
    /// Its inode (0: not known).
    pub ino: u64,
}

impl FileId {
    /// The identity a stamp holds.
    pub fn of(stamp: &FileStamp) -> Self {
        let (dev, ino) = stamp.id();
        Self {
            len: stamp.len(),
            crc: stamp.crc(),
            dev,
            ino,
        }
    }

    /// The stamp a recovered document starts with (its bytes are compared before a save).
    pub fn stamp(&self) -> FileStamp {
        FileStamp::of_contents(self.len, self.crc, (self.dev, self.ino))
    }
}

/// The journal's first record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Begin {
    /// The document's file when the journal began (None: untitled).
    pub path: Option<String>,
    /// Seconds since 1970 when it began.
    pub started: u64,
    /// The graft version that wrote it.
    pub graft: String,
}

/// The kind of a record, read from its payload's first byte without decoding it (postcard
/// writes the variant index first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// [`Record::Begin`].
    Begin,
    /// [`Record::Base`].
    Base,
    /// [`Record::Change`] holding a step of edits.
    Step,
    /// Any other [`Record::Change`].
    OtherChange,
    /// [`Record::Path`].
    Path,
    /// [`Record::Stamp`].
    Stamp,
    /// [`Record::Sources`].
    Sources,
}

/// The file header.
pub fn header() -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    out.extend_from_slice(&FORMAT.to_le_bytes());
    out
}

/// One record framed for appending: length, checksum, payload.
pub fn frame(record: &Record) -> Result<Vec<u8>> {
    let payload = postcard::to_stdvec(record)
        .map_err(|e| Error::Refused(format!("cannot encode a journal record: {e}")))?;
    let len = u32::try_from(payload.len())
        .ok()
        .filter(|&n| (n as usize) <= MAX_RECORD)
        .ok_or_else(|| Error::Refused("a journal record is too big".into()))?;
    let mut out = Vec::with_capacity(payload.len() + 8);
    out.extend_from_slice(&len.to_le_bytes());
    out.extend_from_slice(&crc32fast::hash(&payload).to_le_bytes());
    out.extend_from_slice(&payload);
    Ok(out)
}

/// Why reading stopped before the end of the bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// Every byte was a whole record.
    End,
    /// The last record was cut short (a crash while it was written).
    Cut,
    /// A record failed its checksum or did not decode.
    Corrupt,
}

/// The whole records at the start of a journal, after its header was checked.
#[derive(Clone, Copy, Debug)]
pub struct Frames<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Frames<'a> {
    /// The records of `bytes`; refused when it is not a journal or one from a newer graft.
    pub fn new(bytes: &'a [u8]) -> Result<Self> {
        if bytes.len() < HEADER_LEN || &bytes[..MAGIC.len()] != MAGIC {
            return Err(Error::Refused("not a graft journal".into()));
        }
        let mut format = [0u8; 4];
        format.copy_from_slice(&bytes[MAGIC.len()..HEADER_LEN]);
        let format = u32::from_le_bytes(format);
        if format > FORMAT {
            return Err(Error::Refused(format!(
                "a journal from a newer graft (format {format}; this graft reads up to {FORMAT})"
            )));
        }
        Ok(Self {
            bytes,
            at: HEADER_LEN,
        })
    }

    /// Where the next record starts (after a full walk: the end of the last whole record).
    pub fn offset(&self) -> usize {
        self.at
    }

    /// The next whole record's payload, or why there is none.
    pub fn next_payload(&mut self) -> std::result::Result<&'a [u8], Stop> {
        let rest = &self.bytes[self.at..];
        if rest.is_empty() {
            return Err(Stop::End);
        }
        if rest.len() < 8 {
            return Err(Stop::Cut);
        }
        let word = |k: usize| u32::from_le_bytes([rest[k], rest[k + 1], rest[k + 2], rest[k + 3]]);
        let (len, crc) = (word(0) as usize, word(4));
        if len > MAX_RECORD {
            return Err(Stop::Corrupt);
        }
        let Some(payload) = rest.get(8..8 + len) else {
            return Err(Stop::Cut);
        };
        if crc32fast::hash(payload) != crc {
            return Err(Stop::Corrupt);
        }
        self.at += 8 + len;
        Ok(payload)
    }
}

/// A payload's kind from its first byte (None for an unknown variant).
pub fn kind(payload: &[u8]) -> Option<Kind> {
    match payload.first()? {
        0 => Some(Kind::Begin),
        1 => Some(Kind::Base),
        2 if payload.get(1) == Some(&0) => Some(Kind::Step),
        2 => Some(Kind::OtherChange),
        3 => Some(Kind::Path),
        4 => Some(Kind::Base),
        5 => Some(Kind::Stamp),
        6 => Some(Kind::Sources),
        _ => None,
    }
}

/// Decode one payload.
pub fn decode(payload: &[u8]) -> Option<Record> {
    postcard::from_bytes(payload).ok()
}

/// What a journal holds, counted without replaying it.
#[derive(Clone, Debug)]
pub struct Summary {
    /// Its first record.
    pub begin: Begin,
    /// The file the document lived at last (the last Path record, or Begin's).
    pub path: Option<String>,
    /// Steps of edits, as undo counts them (a drag's frames count once).
    pub edits: usize,
    /// History changes of any kind.
    pub changes: usize,
    /// Changes after the last clean mark (0: nothing unsaved).
    pub unsaved_changes: usize,
    /// The document's file as graft last read or wrote it (format 3; None: untitled, older).
    pub stamp: Option<FileId>,
    /// Why reading stopped.
    pub stop: Stop,
}

/// Count a journal's records (decoding only the small ones).
pub fn summarize(bytes: &[u8]) -> Result<Summary> {
    let mut frames = Frames::new(bytes)?;
    let begin = begin_of(&mut frames)?;
    let base = frames.next_payload().ok().and_then(kind);
    if base != Some(Kind::Base) {
        return Err(Error::Refused(
            "the journal holds no scene to start from".into(),
        ));
    }
    skip_sources(&mut frames);
    let mut summary = Summary {
        path: begin.path.clone(),
        begin,
        edits: 0,
        changes: 0,
        unsaved_changes: 0,
        stamp: None,
        stop: Stop::End,
    };
    let mut open_gesture = None;
    loop {
        let payload = match frames.next_payload() {
            Ok(p) => p,
            Err(stop) => {
                summary.stop = stop;
                return Ok(summary);
            }
        };
        match kind(payload) {
            Some(Kind::Step) => {
                // A drag writes a step per frame, merged into one undo step: count it once.
                let gesture = step_gesture(payload);
                summary.edits += usize::from(gesture.is_none() || gesture != open_gesture);
                open_gesture = gesture;
                summary.changes += 1;
                summary.unsaved_changes += 1;
            }
            Some(Kind::OtherChange) => {
                open_gesture = None;
                summary.count_other(payload);
            }
            Some(Kind::Path) => {
                if let Some(Record::Path(path)) = decode(payload) {
                    summary.path = path;
                }
            }
            Some(Kind::Stamp) => {
                if let Some(Record::Stamp(id)) = decode(payload) {
                    summary.stamp = Some(id);
                }
            }
            Some(Kind::Begin | Kind::Base | Kind::Sources) | None => {
                summary.stop = Stop::Corrupt;
                return Ok(summary);
            }
        }
    }
}

impl Summary {
    /// Count a change other than a step: the clean mark zeroes what is unsaved.
    fn count_other(&mut self, payload: &[u8]) {
        match decode(payload) {
            Some(Record::Change(Change::Clean)) => self.unsaved_changes = 0,
            Some(Record::Change(Change::EndGesture)) => {}
            _ => {
                self.changes += 1;
                self.unsaved_changes += 1;
            }
        }
    }
}

/// The gesture key of a step record small enough to decode cheaply (a drag's frames are);
/// None for a big step or one outside any gesture.
fn step_gesture(payload: &[u8]) -> Option<u64> {
    const SMALL: usize = 64 << 10;
    if payload.len() > SMALL {
        return None;
    }
    match decode(payload) {
        Some(Record::Change(Change::Step { gesture, .. })) => gesture,
        _ => None,
    }
}

/// A document rebuilt from a journal.
#[derive(Debug)]
pub struct Recovered {
    /// The scene at the last whole record, with its whole history.
    pub document: Document,
    /// History changes replayed.
    pub changes: usize,
    /// Why reading stopped (`Cut` or `Corrupt`: the tail was dropped).
    pub stop: Stop,
    /// Bytes of whole records (a journal continued after recovery is cut here first).
    pub whole_bytes: usize,
}

/// Rebuild the document a journal describes: its base scene, then every change in order. A
/// change that fails to replay ends the recovery there, like a cut.
pub fn recover(bytes: &[u8]) -> Result<Recovered> {
    let mut frames = Frames::new(bytes)?;
    let begin = begin_of(&mut frames)?;
    let scene = base_scene(&mut frames, &begin)?;
    let mut document = Document::recovered(scene, begin.path.as_deref().map(PathBuf::from));
    let mut changes = 0;
    let mut whole_bytes = frames.offset();
    let stop = loop {
        let record = match frames.next_payload() {
            Ok(payload) => decode(payload),
            Err(stop) => break stop,
        };
        let applied = match record {
            Some(Record::Change(change)) => document.replay(&change).is_ok(),
            Some(Record::Path(path)) => {
                document.moved_to(path.map(PathBuf::from));
                true
            }
            Some(Record::Stamp(id)) => {
                document.set_stamp(Some(id.stamp()));
                whole_bytes = frames.offset();
                continue;
            }
            _ => false,
        };
        if !applied {
            break Stop::Corrupt;
        }
        changes += 1;
        whole_bytes = frames.offset();
    };
    Ok(Recovered {
        document,
        changes,
        stop,
        whole_bytes,
    })
}

/// Step over a [`Record::Sources`] when it is the next record (it belongs to the base).
pub fn skip_sources(frames: &mut Frames<'_>) {
    let mut peek = *frames;
    if peek.next_payload().ok().and_then(kind) == Some(Kind::Sources) {
        *frames = peek;
    }
}

/// The journal's first record.
fn begin_of(frames: &mut Frames<'_>) -> Result<Begin> {
    match frames.next_payload().ok().and_then(decode) {
        Some(Record::Begin(begin)) => Ok(begin),
        _ => Err(Error::Refused("the journal has no beginning".into())),
    }
}

/// The scene the journal starts from: its base (and the sources after it) read off `frames`.
fn base_scene(frames: &mut Frames<'_>, begin: &Begin) -> Result<crate::model::scene::Scene> {
    let (ron, next_id) = match frames.next_payload().ok().and_then(decode) {
        Some(Record::Base { ron, next_id }) => (ron, next_id),
        Some(Record::BaseFile {
            path,
            len,
            crc,
            next_id,
        }) => (read_base_file(Path::new(&path), len, crc)?, next_id),
        _ => {
            return Err(Error::Refused(
                "the journal holds no scene to start from".into(),
            ));
        }
    };
    let name = begin
        .path
        .as_deref()
        .map_or(Path::new("untitled.ron"), Path::new);
    let mut scene = match sources_after_base(frames)? {
        Some(sources) => sources.parse(&ron, name, NodeId(next_id))?,
        None => crate::model::file::parse(&ron, name)?,
    };
    scene.reserve_ids_below(NodeId(next_id));
    Ok(scene)
}

/// The [`Record::Sources`] right after the base, if there is one (taken off `frames`).
fn sources_after_base(frames: &mut Frames<'_>) -> Result<Option<Box<Snapshot>>> {
    let mut peek = *frames;
    let Some(payload) = peek.next_payload().ok() else {
        return Ok(None);
    };
    if kind(payload) != Some(Kind::Sources) {
        return Ok(None);
    }
    *frames = peek;
    match decode(payload) {
        Some(Record::Sources(sources)) => Ok(Some(sources)),
        _ => Err(Error::Refused(
            "the journal's instance sources cannot be read".into(),
        )),
    }
}

/// The text of the scene a [`Record::BaseFile`] names, refused plainly when the file is gone
/// or is no longer the one the journal started from.
pub fn read_base_file(path: &Path, len: u64, crc: u32) -> Result<String> {
    let gone = |why: String| {
        Error::Refused(format!(
            "the scene this journal starts from, {}, {why}: its edits cannot be replayed",
            path.display()
        ))
    };
    let text = crate::model::read_limit::read_text_bounded(path, crate::model::read_limit::SCENE)
        .map_err(|e| gone(format!("cannot be read ({e})")))?;
    if text.len() as u64 != len || crc32fast::hash(text.as_bytes()) != crc {
        return Err(gone(format!(
            "changed since (it is {} bytes; the journal's was {len} bytes with another checksum)",
            text.len()
        )));
    }
    Ok(text)
}

/// The journal that rebuilds `document` from `base` (its first scene as .ron text and next
/// id): what a journal is compacted to.
/// `path` is the document's file as the journal records it (canonical).
pub fn compacted(
    begin: &Begin,
    base: &[u8],
    path: Option<&str>,
    document: &Document,
) -> Result<Vec<u8>> {
    let mut out = header();
    out.extend(frame(&Record::Begin(begin.clone()))?);
    out.extend_from_slice(base);
    if path != begin.path.as_deref() {
        out.extend(frame(&Record::Path(path.map(str::to_string)))?);
    }
    if let Some(stamp) = document.stamp() {
        out.extend(frame(&Record::Stamp(FileId::of(stamp)))?);
    }
    for change in document.history().as_changes() {
        out.extend(frame(&Record::Change(change))?);
    }
    Ok(out)
}
