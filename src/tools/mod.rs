//! The headless front-ends: the `graft` command line, scene generators, benchmarks, and what
//! the desktop asks of graft (thumbnails, completions, man pages).

pub mod bench;
pub mod bench_anim;
mod bench_follow;
pub mod bench_instances;
pub mod bench_io;
pub mod bench_journal;
pub mod bench_memory;
mod bench_memory_print;
mod bench_stage;
pub mod cli;
pub mod cli_args;
pub mod cli_bench;
pub mod cli_edit;
mod cli_instance;
mod cli_print;
pub mod desktop;
mod failure;
#[doc(hidden)]
pub use crate::model::generate;
pub mod interchange;
pub mod lesson;
pub mod lesson_report;
pub mod progress;
pub mod recover;
pub mod thumbnail;
