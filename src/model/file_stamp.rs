//! What a scene's file was when graft last read or wrote it (size, modification and
//! status-change times, device and inode, and a CRC-32 of its bytes), so a save can tell
//! whether another program or another graft window changed the file since, as every editor
//! people trust does before it overwrites.

use crate::model::read_limit;
use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// A file's identity as graft saw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileStamp {
    len: u64,
    modified: Option<SystemTime>,
    crc: u32,
    /// Device and inode (0, 0 where not known): which file, whatever its name.
    id: (u64, u64),
    /// The status-change time (seconds, nanoseconds): every write moves it, and no program
    /// can set it back (a restored modification time cannot hide a write from it).
    changed: Option<(i64, i64)>,
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

/// Files up to this size are compared by their bytes before every save, whatever their
/// times say (a few milliseconds); bigger ones when any of size, times or inode moved.
pub const ALWAYS_COMPARE_BYTES: u64 = 16 << 20;

/// A file's (device, inode) and status-change time from its metadata.
fn identity(meta: &fs::Metadata) -> ((u64, u64), Option<(i64, i64)>) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        (
            (meta.dev(), meta.ino()),
            Some((meta.ctime(), meta.ctime_nsec())),
        )
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        ((0, 0), None)
    }
}

/// What one `stat` says of a file: size, modification time, (device, inode), status-change
/// time. Two equal keys: nothing wrote the file in between.
pub type DiskKey = (u64, Option<SystemTime>, (u64, u64), Option<(i64, i64)>);

/// The [`DiskKey`] of the file at `path` now.
pub fn disk_key(path: &Path) -> Option<DiskKey> {
    let meta = fs::metadata(path).ok()?;
    let (id, changed) = identity(&meta);
    Some((meta.len(), meta.modified().ok(), id, changed))
}

/// `path` made absolute and canonical: links and `..` resolved as the kernel resolves them,
/// so it names the same file from any folder. A file not written yet keeps its name in its
/// folder's canonical path; a path with no folder that exists stays as it is, made absolute.
pub fn canonical(path: &Path) -> PathBuf {
    if let Ok(real) = fs::canonicalize(path) {
        return real;
    }
    let folder = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    match (fs::canonicalize(folder), path.file_name()) {
        (Ok(dir), Some(name)) => dir.join(name),
        _ => std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()),
    }
}

impl FileStamp {
    /// Stamp the file at `path` as it is now (its bytes streamed through CRC-32, never held
    /// in memory; only regular files, up to the scene size limit).
    pub fn read(path: &Path) -> io::Result<Self> {
        let meta = fs::metadata(path)?;
        let crc = crc_of_file(path)?;
        let (id, changed) = identity(&meta);
        Ok(Self {
            len: meta.len(),
            modified: meta.modified().ok(),
            crc,
            id,
            changed,
        })
    }

    /// Stamp the file at `path` by one `stat` and the CRC-32 `crc` its bytes were found to
    /// have at that `stat`'s [`DiskKey`] (read on a worker); None when the file moved since.
    pub fn at_key(path: &Path, key: DiskKey, crc: u32) -> Option<Self> {
        let (len, modified, id, changed) = key;
        (disk_key(path) == Some(key)).then_some(Self {
            len,
            modified,
            crc,
            id,
            changed,
        })
    }

    /// A stamp known only by its contents (and the file's identity), as a journal records it:
    /// compared with the disk, the bytes are always read.
    pub fn of_contents(len: u64, crc: u32, id: (u64, u64)) -> Self {
        Self {
            len,
            modified: None,
            crc,
            id,
            changed: None,
        }
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

    /// The file's (device, inode) as stamped ((0, 0) where not known).
    pub fn id(&self) -> (u64, u64) {
        self.id
    }

    /// True when the file at `path` has the size, times and inode stamped: nothing wrote it
    /// since (every write moves its status-change time). Cheap: one `stat`.
    pub fn untouched(&self, path: &Path) -> bool {
        self.changed.is_some() && disk_key(path) == Some(self.key())
    }

    /// The stamp's [`DiskKey`].
    pub fn key(&self) -> DiskKey {
        (self.len, self.modified, self.id, self.changed)
    }

    /// Compare with the file at `path` now: the bytes are compared unless the size differs or
    /// nothing touched the file since it was stamped ([`FileStamp::untouched`]); a `touch`
    /// or a rewrite with the same contents is not a change, a same-size write with its old
    /// modification time put back is.
    pub fn on_disk(&self, path: &Path) -> DiskState {
        let Ok(meta) = fs::metadata(path) else {
            return DiskState::Missing;
        };
        if meta.len() != self.len {
            return DiskState::Changed;
        }
        if self.untouched(path) {
            return DiskState::Same;
        }
        self.by_contents(path)
    }

    /// Compare the bytes of the file at `path` with the stamp's, whatever its times say.
    pub fn by_contents(&self, path: &Path) -> DiskState {
        self.against(path, len_and_crc(path).ok())
    }

    /// The file at `path` compared with the stamp by the size and CRC-32 `found` in it (read
    /// here or on a worker; None: it could not be read, so it is missing or changed).
    pub fn against(&self, path: &Path, found: Option<(u64, u32)>) -> DiskState {
        match found {
            Some(found) if found == (self.len, self.crc) => DiskState::Same,
            Some(_) => DiskState::Changed,
            None if !path.exists() => DiskState::Missing,
            None => DiskState::Changed,
        }
    }
}

/// CRC-32 of a regular file's bytes, read in chunks (never held in memory).
pub fn crc_of_file(path: &Path) -> io::Result<u32> {
    len_and_crc(path).map(|(_, crc)| crc)
}

/// The size and CRC-32 of a regular file's bytes as read now, in chunks.
pub fn len_and_crc(path: &Path) -> io::Result<(u64, u32)> {
    let file = read_limit::open_regular(path, read_limit::SCENE)
        .map_err(|e| io::Error::other(e.to_string()))?;
    let mut hasher = crc32fast::Hasher::new();
    let mut reader = io::BufReader::with_capacity(CHUNK, file.take(read_limit::SCENE.bytes + 1));
    let mut buffer = vec![0u8; CHUNK];
    let mut len = 0u64;
    loop {
        let n = reader.read(&mut buffer)?;
        if n == 0 {
            break;
        }
        hasher.update(&buffer[..n]);
        len += n as u64;
    }
    Ok((len, hasher.finalize()))
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

    #[test]
    fn a_same_size_write_with_its_old_time_put_back_is_a_change() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("a.ron");
        fs::write(&path, "one").expect("write");
        let stamp = FileStamp::read(&path).expect("stamp");
        let old = stamp.modified().expect("a time");
        std::thread::sleep(std::time::Duration::from_millis(20));
        // `touch -r`, `cp -p`, `rsync -a`: other bytes, the same size, the old time.
        fs::write(&path, "two").expect("write");
        let file = fs::File::options().write(true).open(&path).expect("open");
        file.set_modified(old).expect("restore the time");
        drop(file);
        assert_eq!(
            fs::metadata(&path).expect("meta").modified().ok(),
            Some(old)
        );
        assert!(!stamp.untouched(&path));
        assert_eq!(stamp.on_disk(&path), DiskState::Changed);
    }
}
