//! The contract between generated code and the runtime.
//!
//! Everything the `#[tool]` macro's shims and the build script's generated
//! table name is reached through this one module, which the `tooltable`
//! facade re-exports as `__private_v5` (the number is [`crate::CONTRACT`]).
//! It is not an API: generated code of another contract version never
//! reaches it, because `include_table!` refuses such a table with one
//! sentence before any of it is compiled.

pub use crate::call::content::IntoContent;
pub use crate::call::error::ToolError;
pub use crate::call::handle::Call;
pub use crate::call::handler::{Arguments, BoxFuture, Failure, Handler, Outcome, Output};
pub use crate::call::shape::{
    IntoFailure, Raised, Returned, Split, check_args, content, no_args, parse_args, result,
    structured, summarized, text,
};
pub use crate::rules::clients::{Client, Level, Rule};
pub use crate::rules::confirm::Confirm;
pub use crate::rules::info::ToolInfo;
pub use crate::rules::lowering::Lowering;
pub use crate::rules::names::NameProfile;
#[cfg(feature = "schema-guard")]
pub use crate::rules::schema::no_parameters;
pub use crate::rules::search::Index as SearchIndex;
pub use crate::rules::task::TaskSupport;
pub use crate::rules::tier::{Tier, World};
pub use crate::table::shim::{Context, Reference, Shim, ShimFns};
pub use crate::table::{Settings, Table, Tool};
#[cfg(feature = "schema-guard")]
pub use crate::testing;
pub use crate::wire::name_index::NameIndex;
pub use std::borrow::Cow;

/// Used by the `#[tool]` macro: schemars' reference schemas when the
/// `schema-guard` feature is on, `None` otherwise.
#[cfg(feature = "schema-guard")]
#[doc(hidden)]
#[macro_export]
macro_rules! __tooltable_reference {
    (input: [$($params:ty)?], output: [$($output:ty)?]) => {
        ::core::option::Option::Some(|inline: bool| $crate::contract::Reference {
            input: $crate::__tooltable_reference!(@input inline $($params)?),
            output: $crate::__tooltable_reference!(@output inline $($output)?),
        })
    };
    (@input $inline:ident) => { $crate::contract::no_parameters() };
    (@input $inline:ident $params:ty) => {
        $crate::testing::reference_schema::<$params>($inline, $crate::testing::Contract::Deserialize)
    };
    (@output $inline:ident) => { ::core::option::Option::None };
    (@output $inline:ident $output:ty) => {
        ::core::option::Option::Some({
            #[allow(unused_imports)]
            use $crate::testing::OutputReference as _;
            <$crate::contract::Returned<$output>>::output_reference($inline)
        })
    };
}

/// Used by the `#[tool]` macro: schemars' reference schemas when the
/// `schema-guard` feature is on, `None` otherwise.
#[cfg(not(feature = "schema-guard"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __tooltable_reference {
    (input: [$($params:ty)?], output: [$($output:ty)?]) => {
        ::core::option::Option::None
    };
}

pub use crate::__tooltable_reference as reference;
