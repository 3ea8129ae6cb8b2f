//! What a desktop and a terminal need from graft besides the window: the application id that
//! the desktop entry, the AppStream metainfo, the icon and the window share, the shell
//! completions (clap_complete) and the man pages (clap_mangen), both made from the clap
//! definition that `cli.rs` hands in (`Cli::command()`), so they cannot drift from the real
//! command line.

use super::failure::Failure;
use clap_complete::Shell;
use std::io::Write;
use std::path::{Path, PathBuf};

pub use crate::APP_ID;

/// `graft completions SHELL`: the completion script of `command` for `shell` on `out`.
pub fn completions(
    shell: Shell,
    mut command: clap::Command,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    clap_complete::generate(shell, &mut command, "graft", out);
    Ok(())
}

/// `graft man --out DIR`: `graft.1` and one page per visible subcommand of `command`
/// (`graft-print.1`, `graft-bench-propagate.1`, …) written into `dir`; their names are listed
/// on `out`.
pub fn man(command: clap::Command, dir: &Path, out: &mut dyn Write) -> Result<(), Failure> {
    std::fs::create_dir_all(dir)
        .map_err(|e| Failure(format!("{}: cannot create the folder: {e}", dir.display())))?;
    for path in man_pages(command, dir)? {
        writeln!(out, "wrote {}", path.display())?;
    }
    Ok(())
}

/// Write every man page of `command` into `dir` and return their paths, the main page first.
pub fn man_pages(command: clap::Command, dir: &Path) -> Result<Vec<PathBuf>, Failure> {
    let mut command = command.disable_help_subcommand(true);
    command.build(); // gives each subcommand its display name, `graft-print`
    let mut written = Vec::new();
    write_pages(&command, dir, &mut written)?;
    Ok(written)
}

/// The page of `command`, then those of its visible subcommands, depth first.
fn write_pages(
    command: &clap::Command,
    dir: &Path,
    written: &mut Vec<PathBuf>,
) -> Result<(), Failure> {
    let path = clap_mangen::Man::new(command.clone())
        .manual("graft manual")
        .generate_to(dir)
        .map_err(|e| Failure(format!("{}: cannot write a man page: {e}", dir.display())))?;
    written.push(path);
    for sub in command.get_subcommands().filter(|s| !s.is_hide_set()) {
        write_pages(sub, dir, written)?;
    }
    Ok(())
}
