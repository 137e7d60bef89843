//! The tools that have not moved yet: rmcp's `#[tool_router]`, as it was.

use crate::Counter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router};
use schemars::JsonSchema;
use serde::Deserialize;
use std::sync::Arc;
use tooltable::Tier;
use tooltable::provider::RouterTools;

/// The rmcp server the tools came from.
#[derive(Clone)]
pub struct Legacy {
    counter: Arc<Counter>,
}

/// What to echo.
#[derive(Deserialize, JsonSchema)]
pub struct EchoArgs {
    /// The text.
    pub text: String,
}

#[tool_router(vis = "pub")]
impl Legacy {
    /// Says the text back.
    #[tool(description = "Say the text back.", annotations(read_only_hint = true))]
    async fn legacy_echo(&self, Parameters(args): Parameters<EchoArgs>) -> String {
        args.text
    }

    #[tool(
        description = "Set the counter back to zero.",
        annotations(destructive_hint = true)
    )]
    async fn legacy_reset(&self) -> String {
        self.counter.reset();
        "reset".to_owned()
    }

    /// Annotated with nothing: the operator places it, or it is destructive.
    #[tool(description = "Note that the counter was looked at.")]
    async fn legacy_touch(&self) -> String {
        format!("touched at {}", self.counter.get())
    }
}

impl Legacy {
    /// The server over `counter`, for tests that build their own provider.
    pub fn for_tests(counter: Arc<Counter>) -> Legacy {
        Legacy { counter }
    }
}

/// The router's tools as a provider; `legacy_touch`, whose annotations say
/// nothing, is placed by the operator at `write`.
pub fn tools(counter: Arc<Counter>) -> RouterTools<Legacy> {
    RouterTools::new("legacy", Legacy { counter }, Legacy::tool_router())
        .tier("legacy_touch", Tier::Write)
}
