//! The example's integration tests, one module per subject, gathered in
//! one test binary; the hostile client's attacks are a binary of their own
//! (`tests/hostile`).

mod common;

mod bad_input;
mod calls;
mod minimal_stdio;
mod replicas;
mod rmcp_client;
mod schemas;
mod test_client;
