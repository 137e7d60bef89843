//! The build-time side's integration tests, one module per subject,
//! gathered in one test binary: each binary links codegen, syn and the
//! schema validator again, so one binary is one link where there were four.

mod build_errors;
mod hardening_attributes;
mod scan_registry;
mod schema_validity;
