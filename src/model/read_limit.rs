//! Bounded reading: every file graft reads is first checked to be a regular file (a fifo's
//! open would block forever; `/dev/zero` and `/dev/urandom` never end; sockets and folders
//! are not files), then read with a size limit for its kind, through `take(limit + 1)` so a
//! file that grows while it is read is still bounded.
//!
//! The limits, each refused with a message naming the file and the limit:
//!
//! | kind          | limit   | why                                                    |
//! |---------------|---------|--------------------------------------------------------|
//! | scene `.ron`  | 4 GiB   | 10 M nodes (`MAX_NODES`) at ~220 bytes each, and room  |
//! | journal       | 4 GiB   | a whole scene and its edits                            |
//! | lesson        | 8 MiB   | the built-in lessons are a few KiB each                |
//! | Godot `.tscn` | 2 GiB   | a 1M-node export is ~600 MB                            |
//! | SVG drawing   | 64 MiB  | drawings, not photographs                              |
//! | sprite image  | 256 MiB | a 16k × 16k texture (the largest GPUs take) compressed |
//! | panic report  | 1 MiB   | a message and a backtrace                              |

pub use crate::error::shown_size;
use crate::error::{Error, Result};
use std::fs::{File, FileType};
use std::io::Read;
use std::path::Path;

/// How many bytes graft reads of one kind of file, and that kind's name for messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limit {
    /// The most bytes read.
    pub bytes: u64,
    /// The kind of file, as messages name it ("scene files").
    pub what: &'static str,
}

impl Limit {
    /// A limit of `bytes` for files of kind `what`.
    pub const fn new(bytes: u64, what: &'static str) -> Self {
        Self { bytes, what }
    }
}

/// Scene `.ron` files: room for [`crate::model::file::MAX_NODES`] nodes.
pub const SCENE: Limit = Limit::new(4 << 30, "scene files");
/// Crash journals: a whole scene and its edits.
pub const JOURNAL: Limit = Limit::new(4 << 30, "journal files");
/// Lesson files.
pub const LESSON: Limit = Limit::new(8 << 20, "lessons");
/// Godot text scenes (`.tscn`).
pub const TSCN: Limit = Limit::new(2 << 30, "Godot scenes");
/// SVG drawings.
pub const SVG: Limit = Limit::new(64 << 20, "SVG files");
/// Sprite images (PNG, JPEG, WebP, GIF).
pub const IMAGE: Limit = Limit::new(256 << 20, "images");
/// The panic report a crashed run leaves for the next start.
pub const PANIC_REPORT: Limit = Limit::new(1 << 20, "panic reports");

/// What a file that is not a regular file is, for messages ("a fifo", "a folder").
fn kind_of(file_type: &FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "a fifo";
        }
        if file_type.is_socket() {
            return "a socket";
        }
        if file_type.is_char_device() {
            return "a character device";
        }
        if file_type.is_block_device() {
            return "a block device";
        }
    }
    if file_type.is_dir() {
        "a folder"
    } else {
        "not a file"
    }
}

/// The error for a file past `limit`.
pub fn too_large(path: &Path, limit: Limit) -> Error {
    Error::TooLarge {
        path: path.to_path_buf(),
        limit: limit.bytes,
        what: limit.what,
    }
}

/// Refuse `path` unless it is a regular file (symbolic links followed) of at most `limit`
/// bytes; its size. Only looks (stat): never opens.
pub fn check_regular(path: &Path, limit: Limit) -> Result<u64> {
    let meta = std::fs::metadata(path).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })?;
    check_meta(path, &meta, limit)
}

fn check_meta(path: &Path, meta: &std::fs::Metadata, limit: Limit) -> Result<u64> {
    if !meta.is_file() {
        return Err(Error::NotRegularFile {
            path: path.to_path_buf(),
            kind: kind_of(&meta.file_type()),
        });
    }
    if meta.len() > limit.bytes {
        return Err(too_large(path, limit));
    }
    Ok(meta.len())
}

/// Open `path` for reading only if it is a regular file of at most `limit` bytes: checked
/// before the open, and again on the opened file (opened non-blocking on Linux, so a fifo
/// swapped in between cannot block the open).
pub fn open_regular(path: &Path, limit: Limit) -> Result<File> {
    check_regular(path, limit)?;
    let io = |source| Error::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path).map_err(io)?;
    check_meta(path, &file.metadata().map_err(io)?, limit)?;
    Ok(file)
}

/// The whole of the regular file `path`, refused past `limit` bytes (also when it grows past
/// the limit while it is read).
pub fn read_bounded(path: &Path, limit: Limit) -> Result<Vec<u8>> {
    let file = open_regular(path, limit)?;
    let len = file.metadata().map_or(0, |m| m.len()).min(limit.bytes);
    let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0).saturating_add(1));
    file.take(limit.bytes.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|source| Error::Io {
            path: path.to_path_buf(),
            source,
        })?;
    if bytes.len() as u64 > limit.bytes {
        return Err(too_large(path, limit));
    }
    Ok(bytes)
}

/// [`read_bounded`] as UTF-8 text; other bytes are refused with the offset of the first bad
/// one.
pub fn read_text_bounded(path: &Path, limit: Limit) -> Result<String> {
    utf8(read_bounded(path, limit)?, path)
}

/// Bytes as UTF-8 text, or an error naming `path` and the first bad byte.
pub fn utf8(bytes: Vec<u8>, path: &Path) -> Result<String> {
    String::from_utf8(bytes).map_err(|e| Error::Invalid {
        path: path.to_path_buf(),
        source: Box::new(Error::Format(format!(
            "not UTF-8 text (byte {})",
            e.utf8_error().valid_up_to()
        ))),
    })
}

/// An image's pixel size read from its header, only from a regular file within `limit`.
pub fn image_size(path: &Path, limit: Limit) -> Result<imagesize::ImageSize> {
    let file = open_regular(path, limit)?;
    imagesize::reader_size(std::io::BufReader::new(file)).map_err(|e| Error::Invalid {
        path: path.to_path_buf(),
        source: Box::new(Error::Format(format!("not an image graft reads: {e}"))),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: Limit = Limit::new(10, "test files");

    fn refused(result: Result<impl std::fmt::Debug>) -> String {
        result.expect_err("refused").to_string()
    }

    #[test]
    fn a_regular_file_within_the_limit_is_read_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ten.txt");
        std::fs::write(&path, "0123456789").unwrap();
        assert_eq!(read_bounded(&path, SMALL).unwrap(), b"0123456789");
        assert_eq!(read_text_bounded(&path, SMALL).unwrap(), "0123456789");
        assert_eq!(check_regular(&path, SMALL).unwrap(), 10);
    }

    #[test]
    fn a_file_past_the_limit_is_refused_before_it_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("eleven.txt");
        std::fs::write(&path, "0123456789a").unwrap();
        let message = refused(read_bounded(&path, SMALL));
        assert_eq!(
            message,
            format!(
                "{} is larger than the 10 bytes limit for test files",
                path.display()
            )
        );
        // A sparse file past the scene limit costs no disk and is refused without a read.
        let big = dir.path().join("big.ron");
        std::fs::File::create(&big)
            .unwrap()
            .set_len(SCENE.bytes + 1)
            .unwrap();
        let message = refused(read_bounded(&big, SCENE));
        assert!(
            message.ends_with("larger than the 4 GiB limit for scene files"),
            "{message}"
        );
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_file_longer_than_its_size_says_is_cut_at_the_limit() {
        // /proc files say they are empty and then give more: the read still stops at the limit.
        let status = Path::new("/proc/self/status");
        assert_eq!(check_regular(status, SMALL).unwrap(), 0);
        let message = refused(read_bounded(status, SMALL));
        assert!(
            message.ends_with("larger than the 10 bytes limit for test files"),
            "{message}"
        );
    }

    #[test]
    fn special_files_are_refused_by_kind_without_blocking() {
        let dir = tempfile::tempdir().unwrap();
        let message = refused(read_bounded(dir.path(), SMALL));
        assert!(
            message.ends_with("is not a regular file (a folder)"),
            "{message}"
        );
        #[cfg(unix)]
        {
            let zero = Path::new("/dev/zero");
            assert_eq!(
                refused(read_bounded(zero, SCENE)),
                "/dev/zero is not a regular file (a character device)"
            );
            let socket = dir.path().join("s.sock");
            let _listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
            let message = refused(open_regular(&socket, SMALL));
            assert!(message.ends_with("(a socket)"), "{message}");
        }
        #[cfg(target_os = "linux")]
        {
            let fifo = dir.path().join("f.fifo");
            let name = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
            // SAFETY: a valid NUL-terminated path.
            assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
            let message = refused(read_bounded(&fifo, SMALL));
            assert!(
                message.ends_with("is not a regular file (a fifo)"),
                "{message}"
            );
        }
    }

    #[test]
    fn missing_files_and_bad_text_say_why() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("none.txt");
        assert!(matches!(
            read_bounded(&missing, SMALL),
            Err(Error::Io { .. })
        ));
        let bad = dir.path().join("bad.txt");
        std::fs::write(&bad, b"ab\xffc").unwrap();
        let message = refused(read_text_bounded(&bad, SMALL));
        assert!(message.ends_with("not UTF-8 text (byte 2)"), "{message}");
    }

    #[test]
    fn sizes_are_shown_in_their_largest_whole_unit() {
        assert_eq!(shown_size(4 << 30), "4 GiB");
        assert_eq!(shown_size(256 << 20), "256 MiB");
        assert_eq!(shown_size(3 << 10), "3 KiB");
        assert_eq!(shown_size(1000), "1000 bytes");
    }
}
