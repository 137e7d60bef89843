//! The command's integration tests, one module per subject, gathered in
//! one test binary (one link of the command's dependencies, not seven).

mod common;

mod build_writes;
mod cli_bad_input;
mod cli_check;
mod cli_export;
mod diff_cases;
mod docs;
mod hardening_diff;
