//! What a scene's file was when graft last read or wrote it (size, modification time and a
//! CRC-32 of its bytes), so a save can tell whether another program or another graft window
//! changed the file since, as every editor people trust does before it overwrites.

use crate::model::read_limit;
use std::fs;
use std::io::{self, Read};
use std::path::Path;
use std::time::SystemTime;

/// A file's identity as graft saw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileStamp {
    len: u64,
    modified: Option<SystemTime>,
    crc: u32,
}

/// How the file on disk compares with a stamp.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiskState {
    /// The same bytes (even if touched: the contents are compared when the time differs).
    Same,
    /// Different bytes: someone else wrote the file.
    Changed,
    /// No file there any more (deleted or moved away).
    Missing,
}

/// Bytes hashed per read.
const CHUNK: usize = 1 << 20;

impl FileStamp {
    /// Stamp the file at `path` as it is now (its bytes streamed through CRC-32, never held
    /// in memory; only regular files, up to the scene size limit).
    pub fn read(path: &Path) -> io::Result<Self> {
        let meta = fs::metadata(path)?;
        let crc = crc_of_file(path)?;
        Ok(Self {
            len: meta.len(),
            modified: meta.modified().ok(),
            crc,
        })
    }

    /// The CRC-32 of the bytes.
    pub fn crc(&self) -> u32 {
        self.crc
    }

    /// The bytes' size.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// True for an empty file.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// When the file was last modified, as stamped.
    pub fn modified(&self) -> Option<SystemTime> {
        self.modified
    }

    /// Compare with the file at `path` now: size and time first; the bytes only when those
    /// differ (a `touch` or a rewrite with the same contents is not a change).
    pub fn on_disk(&self, path: &Path) -> DiskState {
        let Ok(meta) = fs::metadata(path) else {
            return DiskState::Missing;
        };
        if meta.len() != self.len {
            return DiskState::Changed;
        }
        if meta.modified().ok() == self.modified {
            return DiskState::Same;
        }
        match crc_of_file(path) {
            Ok(crc) if crc == self.crc => DiskState::Same,
            _ => DiskState::Changed,
        }
    }
}

/// CRC-32 of a regular file's bytes, read in chunks.
fn crc_of_file(path: &Path) -> io::Result<u32> {
    let file = read_limit::open_regular(path, read_limit::SCENE)
        .map_err(|e| io::Error::other(e.to_string()))?;
    let mut hasher = crc32fast::Hasher::new();
    let mut reader = io::BufReader::with_capacity(CHUNK, file.take(read_limit::SCENE.bytes + 1));
    let mut buffer = vec![0u8; CHUNK];
    loop {
        let n = reader.read(&mut buffer)?;
        if n == 0 {
            break;
        }
        hasher.update(&buffer[..n]);
    }
    Ok(hasher.finalize())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rewrite_with_other_bytes_is_a_change_and_a_touch_is_not() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("a.ron");
        fs::write(&path, "one").expect("write");
        let stamp = FileStamp::read(&path).expect("stamp");
        assert_eq!(stamp.on_disk(&path), DiskState::Same);
        // Same size, same bytes, a later time: not a change.
        let later = SystemTime::now() + std::time::Duration::from_secs(5);
        let file = fs::File::options().write(true).open(&path).expect("open");
        file.set_modified(later).expect("touch");
        assert_eq!(stamp.on_disk(&path), DiskState::Same);
        // Same size, other bytes.
        fs::write(&path, "two").expect("write");
        assert_eq!(stamp.on_disk(&path), DiskState::Changed);
        fs::remove_file(&path).expect("remove");
        assert_eq!(stamp.on_disk(&path), DiskState::Missing);
    }
}
