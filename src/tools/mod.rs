//! The headless front-ends: the `graft` command line, scene generators and benchmarks.

pub mod bench;
pub mod bench_anim;
pub mod bench_io;
pub mod bench_memory;
pub mod cli;
pub mod generate;
pub mod interchange;
pub mod progress;
