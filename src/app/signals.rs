//! SIGTERM and SIGHUP (a logout, `kill`) end graft like a window close without a prompt: a
//! clean document leaves no journal, an unsaved one keeps its journal for recovery. The
//! signals are taken by a thread of their own (blocked everywhere else), which asks the
//! window for a frame; if the window does not end within a second (a long read, a stalled
//! frame), that thread ends the process itself — every change is already in the journal, and
//! a journal with nothing unsaved is deleted by the next start.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

static TERMINATED: AtomicBool = AtomicBool::new(false);
static CONTEXT: OnceLock<egui::Context> = OnceLock::new();

/// The longest graft takes to end after SIGTERM.
pub const GRACE: Duration = Duration::from_secs(1);

/// Take SIGTERM and SIGHUP on a thread of their own (call before any other thread starts, so
/// every thread inherits the blocked mask).
pub fn install() {
    #[cfg(target_os = "linux")]
    // SAFETY: plain libc calls on a sigset_t that lives on this stack frame and is copied
    // into the thread; no handler runs in signal context (sigwait returns on a normal thread).
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, libc::SIGTERM);
        libc::sigaddset(&mut set, libc::SIGHUP);
        if libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut()) != 0 {
            return;
        }
        let spawned = std::thread::Builder::new()
            .name("graft-signals".into())
            .spawn(move || {
                let mut signal = 0;
                if libc::sigwait(&set, &mut signal) != 0 {
                    return;
                }
                TERMINATED.store(true, Ordering::Release);
                if let Some(ctx) = CONTEXT.get() {
                    ctx.request_repaint();
                }
                std::thread::sleep(GRACE);
                std::process::exit(0);
            });
        if spawned.is_err() {
            // No thread to take them: let the signals end graft as before.
            libc::pthread_sigmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
        }
    }
}

/// The window's context, so a signal can wake it.
pub fn set_context(ctx: &egui::Context) {
    let _ = CONTEXT.set(ctx.clone());
}

/// True once SIGTERM or SIGHUP arrived.
pub fn terminated() -> bool {
    TERMINATED.load(Ordering::Acquire)
}
