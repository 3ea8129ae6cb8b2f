//! A peer run (`tools/a11y/*.py`: a private desktop with Xvfb, D-Bus, the AT-SPI bus, maybe
//! speech-dispatcher and Orca, and graft) that leaves nothing running on any way out: a
//! timeout, a failed assertion, a panic. The script writes the process group of everything it
//! starts to a file (`GRAFT_PEER_GROUPS`); dropping the run asks the script to stop (SIGTERM:
//! it stops its desktop itself), then kills the script's group and every group in the file
//! that still has a live process. Each is started in a session of its own, so killing the
//! script alone (what `Child::kill` did) left them all running.
#![allow(dead_code)]

use std::io::Read;
use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// A running peer script and where it lists the groups it started.
pub struct PeerRun {
    child: Option<Child>,
    groups: PathBuf,
    _dir: tempfile::TempDir,
    out: Option<std::thread::JoinHandle<Vec<u8>>>,
    err: Option<std::thread::JoinHandle<Vec<u8>>>,
}

/// What a finished run printed.
pub struct Finished {
    pub status: ExitStatus,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
}

impl PeerRun {
    /// Start `command` (a peer script) in a process group of its own, its output read as it
    /// comes (a full pipe would stall it).
    pub fn start(mut command: Command) -> Self {
        use std::os::unix::process::CommandExt as _;
        let dir = tempfile::tempdir().expect("a temporary folder");
        let groups = dir.path().join("groups");
        // The script's own folders (the desktop's runtime folder, Orca's home) go inside this
        // one, so a script killed before it cleaned up leaves no folder behind either.
        let mut child = command
            .env("GRAFT_PEER_GROUPS", &groups)
            .env("TMPDIR", dir.path())
            .process_group(0)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the peer script starts");
        let drain = |mut from: Box<dyn Read + Send>| {
            std::thread::spawn(move || {
                let mut all = Vec::new();
                let _ = from.read_to_end(&mut all);
                all
            })
        };
        let out = child.stdout.take().map(|o| drain(Box::new(o)));
        let err = child.stderr.take().map(|e| drain(Box::new(e)));
        Self {
            child: Some(child),
            groups,
            _dir: dir,
            out,
            err,
        }
    }

    /// Wait for the script to end; past `limit` panic saying `what` took too long (the drop
    /// then stops everything).
    pub fn wait(&mut self, limit: Duration, what: &str) -> Finished {
        let started = Instant::now();
        let child = self.child.as_mut().expect("not waited for yet");
        let status = loop {
            if let Some(status) = child.try_wait().expect("the script is waited for") {
                break status;
            }
            assert!(
                started.elapsed() <= limit,
                "{what} took more than {limit:?}"
            );
            std::thread::sleep(Duration::from_millis(100));
        };
        self.child = None;
        let take = |h: Option<std::thread::JoinHandle<Vec<u8>>>| {
            h.map(|h| h.join().unwrap_or_default()).unwrap_or_default()
        };
        Finished {
            status,
            stdout: take(self.out.take()),
            stderr: take(self.err.take()),
        }
    }

    /// The folder the script's temporary folders are made in (gone once the run is dropped).
    pub fn folder(&self) -> PathBuf {
        self._dir.path().to_path_buf()
    }

    /// The script's process id while it runs.
    pub fn pid(&self) -> Option<u32> {
        self.child.as_ref().map(Child::id)
    }

    /// The process groups the script said it started so far.
    pub fn groups(&self) -> Vec<i32> {
        let text = std::fs::read_to_string(&self.groups).unwrap_or_default();
        text.lines().filter_map(|l| l.trim().parse().ok()).collect()
    }

    /// Stop the script and everything it started (what dropping the run does).
    pub fn stop(&mut self) {
        let mut groups = self.groups();
        if let Some(mut child) = self.child.take() {
            let pid = child.id() as i32;
            groups.push(pid);
            if child.try_wait().ok().flatten().is_none() {
                // The script stops its desktop on SIGTERM; give it a moment to.
                signal(pid, libc::SIGTERM);
                let asked = Instant::now();
                while child.try_wait().ok().flatten().is_none()
                    && asked.elapsed() < Duration::from_secs(10)
                {
                    std::thread::sleep(Duration::from_millis(50));
                }
            }
            signal(-pid, libc::SIGKILL); // its group: xdotool, anything it ran itself
            let _ = child.kill();
            let _ = child.wait();
        }
        for group in self.groups() {
            if !alive_in_group(group).is_empty() {
                signal(-group, libc::SIGKILL);
            }
        }
        // A killed process lingers a moment (the kernel tears it down after the signal): when
        // stop returns, every group is gone (or 10 s went by on a very busy machine).
        groups.extend(self.groups());
        let asked = Instant::now();
        while groups.iter().any(|g| !alive_in_group(*g).is_empty())
            && asked.elapsed() < Duration::from_secs(10)
        {
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for PeerRun {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Send `sig` to `pid` (a group when negative); gone already is fine.
fn signal(pid: i32, sig: i32) {
    if pid != 0 && pid != -1 {
        // SAFETY: kill(2) with a process or group id and a signal number has no memory effects.
        unsafe { libc::kill(pid, sig) };
    }
}

/// The processes of group `group` that are alive (not zombies waiting for a parent that does
/// not reap them), read from /proc.
pub fn alive_in_group(group: i32) -> Vec<i32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut alive = Vec::new();
    for entry in entries.flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // "pid (comm) state ppid pgrp …": the command may hold spaces and parentheses.
        let Some(rest) = stat.rfind(')').map(|at| &stat[at + 1..]) else {
            continue;
        };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        let (state, pgrp) = (fields.first(), fields.get(2).and_then(|g| g.parse().ok()));
        if pgrp == Some(group) && state != Some(&"Z") && state != Some(&"X") {
            alive.push(pid);
        }
    }
    alive
}
