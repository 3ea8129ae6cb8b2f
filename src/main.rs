//! The `graft` binary: the editor when run without a subcommand, headless tools otherwise.

use clap::Parser;
use graft::tools::cli::{Cli, run};
use std::io::Write;
use std::process::ExitCode;

/// mimalloc: loading and importing big scenes make millions of small allocations, which glibc's
/// allocator serves markedly slower (docs/measurements.md, "Files").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let Some(command) = cli.command else {
        return open_editor(cli.file, !cli.no_journal);
    };
    // The memory bench measures the window too; `tools` does not import the app, so it is
    // handed the window's stage here.
    #[cfg(feature = "editor")]
    graft::tools::bench_memory::set_window_stage(graft::tools::bench_memory::WindowStage {
        run: |path, mark| {
            graft::app::memory_stage::open_and_idle(path, mark).map(|r| (r.frames, r.nodes, r.mesh))
        },
        sizes: graft::app::memory_stage::sizes,
    });
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let result = run(command, &mut out);
    let flushed = out.flush();
    match result {
        Ok(()) => match flushed {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("graft: cannot write output: {e}");
                ExitCode::from(1)
            }
        },
        Err(failure) if failure.0.contains("Broken pipe") => ExitCode::SUCCESS,
        Err(failure) => {
            eprintln!("{}", failure.0);
            ExitCode::from(1)
        }
    }
}

#[cfg(not(feature = "editor"))]
fn open_editor(_file: Option<std::path::PathBuf>, _journal: bool) -> ExitCode {
    eprintln!(
        "graft was built without the `editor` feature: only the subcommands are available (graft --help)"
    );
    ExitCode::from(2)
}

#[cfg(feature = "editor")]
fn open_editor(file: Option<std::path::PathBuf>, journal: bool) -> ExitCode {
    match graft::app::run(file, journal) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("{message}");
            ExitCode::from(1)
        }
    }
}
