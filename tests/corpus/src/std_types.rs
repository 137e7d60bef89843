//! Types of the standard library with schemas of their own: paths, times,
//! network addresses, `Result` and `PhantomData`.

use crate::common::Field;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::marker::PhantomData;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, SocketAddrV4, SocketAddrV6};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};
use tooltable::{ToolError, tool};

/// Takes a path, returns a boxed one.
#[tool(tier = read)]
pub fn std_path(params: Field<PathBuf>) -> Result<Box<Path>, ToolError> {
    Ok(params.value.into_boxed_path())
}

/// Times.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct Times {
    /// How long.
    pub timeout: Duration,
    /// When.
    pub at: SystemTime,
    /// Maybe how long.
    pub maybe: Option<Duration>,
    /// Many whens.
    pub many: Vec<SystemTime>,
}

/// Echoes times.
#[tool(tier = read)]
pub fn std_times(params: Times) -> Result<Times, ToolError> {
    Ok(params)
}

/// Echoes a duration at the root.
#[tool(tier = read)]
pub fn std_duration(params: Field<Duration>) -> Result<Duration, ToolError> {
    Ok(params.value)
}

/// Network addresses.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct Addresses {
    pub ip: IpAddr,
    pub v4: Ipv4Addr,
    pub v6: Ipv6Addr,
    pub socket: SocketAddr,
    pub socket_v4: SocketAddrV4,
    pub socket_v6: SocketAddrV6,
    pub path: PathBuf,
    pub maybe_ip: Option<IpAddr>,
}

/// Echoes network addresses.
#[tool(tier = read)]
pub fn std_net(params: Addresses) -> Result<Addresses, ToolError> {
    Ok(params)
}

/// Echoes an IP address at the root.
#[tool(tier = read)]
pub fn std_ip_root(params: Field<Ipv6Addr>) -> Result<Ipv6Addr, ToolError> {
    Ok(params.value)
}

/// A `Result` and a `PhantomData`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct Outcomes {
    pub outcome: Result<u8, String>,
    pub marker: PhantomData<u64>,
}

/// Echoes a `Result` and a `PhantomData`.
#[tool(tier = read)]
pub fn std_outcomes(params: Outcomes) -> Result<Outcomes, ToolError> {
    Ok(params)
}

/// Wrappers schemars sees through, atomics, ranges and bounds.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct Wrappers {
    pub non_zero: std::num::NonZero<u32>,
    pub non_zero_signed: std::num::NonZero<i8>,
    pub atomic_flag: std::sync::atomic::AtomicBool,
    pub atomic_count: std::sync::atomic::AtomicU64,
    pub cell: std::cell::Cell<u8>,
    pub ref_cell: std::cell::RefCell<String>,
    pub mutex: std::sync::Mutex<Vec<u8>>,
    pub rw_lock: std::sync::RwLock<bool>,
    pub wrapping: std::num::Wrapping<u16>,
    pub reverse: std::cmp::Reverse<i32>,
    pub range: std::ops::Range<u32>,
    pub range_inclusive: std::ops::RangeInclusive<f64>,
    pub bound: std::ops::Bound<String>,
    pub maybe_range: Option<std::ops::Range<u32>>,
}

/// Echoes wrappers, atomics, ranges and bounds.
#[tool(tier = read)]
pub fn std_wrappers(params: Wrappers) -> Result<Wrappers, ToolError> {
    Ok(params)
}

/// Echoes a range at the root.
#[tool(tier = read)]
pub fn std_range_root(
    params: Field<std::ops::Range<i64>>,
) -> Result<std::ops::Range<i64>, ToolError> {
    Ok(params.value)
}
