//! Parameters mirrored into HTTP headers with `x-mcp-header` (through
//! `extend`): a string, a boolean, a 32-bit integer, a bounded 64-bit one,
//! and a field of an inlined struct, each reached through `properties`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use tooltable::{ToolError, tool};

/// Where a query runs.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[schemars(inline)]
pub struct Placement {
    /// The zone.
    #[schemars(extend("x-mcp-header" = "Zone"))]
    pub zone: String,
}

/// A query whose routing parameters travel as headers too.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct Routed {
    /// The region.
    #[schemars(extend("x-mcp-header" = "Region"))]
    pub region: String,
    #[schemars(extend("x-mcp-header" = "Dry-Run"))]
    pub dry_run: bool,
    #[schemars(extend("x-mcp-header" = "Shard"))]
    pub shard: u32,
    #[schemars(range(min = 1, max = 1000), extend("x-mcp-header" = "Page"))]
    pub page: i64,
    pub placement: Placement,
    /// Not mirrored.
    pub query: String,
}

/// Echoes a query whose routing parameters are mirrored into headers.
#[tool(tier = read)]
pub fn headers_routed(params: Routed) -> Result<Routed, ToolError> {
    Ok(params)
}
