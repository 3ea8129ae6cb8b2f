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

/// Whether a panic is the display going away under the window (the X server ended, as at a
/// logout): winit's X11 backend unwraps its connection's errors. That is an end like SIGTERM,
/// not an internal error: the journal already holds every change, so no error report is left
/// for the next start (its recovery prompt offers what was unsaved).
pub fn is_display_lost(file: &str, message: &str) -> bool {
    let in_winit_x11 = file.contains("/winit-") && file.contains("/x11/");
    let connection = message.contains("Connection(") || message.contains("connection");
    in_winit_x11 && connection
}

#[cfg(test)]
mod tests {
    use super::is_display_lost;

    #[test]
    fn the_x_server_ending_is_not_an_internal_error_but_other_panics_are() {
        let winit = "/root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/winit-0.30.13/src/platform_impl/linux/x11/window.rs";
        let lost = "called `Result::unwrap()` on an `Err` value: Connection(IoError(Custom { kind: Other, error: UnknownError }))";
        assert!(is_display_lost(winit, lost));
        assert!(!is_display_lost(winit, "index out of bounds: the len is 0"));
        assert!(!is_display_lost("src/model/scene/ops.rs", lost));
    }
}
