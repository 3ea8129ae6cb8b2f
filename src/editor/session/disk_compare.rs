//! A big file's bytes compared with its stamp on a worker thread, so the window never waits
//! for the CRC of hundreds of megabytes: the watch starts one when a `stat` shows a write to a
//! file over [`ALWAYS_COMPARE_BYTES`](crate::model::file_stamp::ALWAYS_COMPARE_BYTES), and a
//! save uses its answer (waiting for it only while it still runs).

use crate::model::file_stamp::{DiskKey, len_and_crc};
use std::path::Path;
use std::sync::mpsc::{Receiver, TryRecvError, channel};

/// One comparison running (or done) on a worker.
pub(super) struct Comparing {
    /// The file's `stat` when the worker started: its answer holds only while it is unchanged.
    key: DiskKey,
    /// The size and CRC-32 the worker read (None: the file could not be read).
    answer: Receiver<Option<(u64, u32)>>,
}

impl Comparing {
    /// Start reading the file at `path` (whose `stat` is `key`) on a worker.
    pub(super) fn start(path: &Path, key: DiskKey) -> Self {
        let (send, answer) = channel();
        let path = path.to_path_buf();
        std::thread::spawn(move || {
            let _ = send.send(len_and_crc(&path).ok());
        });
        Self { key, answer }
    }

    /// The file's `stat` the comparison is for.
    pub(super) fn key(&self) -> DiskKey {
        self.key
    }

    /// The worker's answer once it is there (a worker that died answers "unreadable").
    pub(super) fn ready(&self) -> Option<Option<(u64, u32)>> {
        match self.answer.try_recv() {
            Ok(found) => Some(found),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(None),
        }
    }

    /// Wait for the worker's answer.
    pub(super) fn wait(self) -> Option<(u64, u32)> {
        self.answer.recv().ok().flatten()
    }
}
