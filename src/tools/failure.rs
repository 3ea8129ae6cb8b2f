//! What a failed command reports, below the command line and every tool it runs.

use crate::error::Error;
use std::io;

/// What a failed command reports: 1 for bad input or a refused operation.
pub struct Failure(pub String);

impl From<Error> for Failure {
    fn from(e: Error) -> Self {
        Failure(e.to_string())
    }
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Self {
        Failure(e.to_string())
    }
}
