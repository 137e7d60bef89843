//! The crate's own structs: named, tuple, newtype and unit; nesting, doc
//! comments with a title line, and two types of the same name in different
//! modules.

use crate::common::Field;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use tooltable::{ToolError, tool};

/// # A postal address
///
/// Where letters go.
/// Spanning two lines.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct Address {
    /// The street, with the number.
    pub street: String,
    /// # City
    ///
    /// The city's name.
    pub city: String,
    /// # Only a title
    pub zip: Option<String>,
}

/// A person.
///
/// Has a name and maybe an address.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct Person {
    /// Their name.
    pub name: String,
    /// Their age, in years.
    pub age: u8,
    /// Where they live.
    pub home: Address,
    /// Where they work, if anywhere.
    pub work: Option<Address>,
    /// Earlier addresses.
    pub previous: Vec<Address>,
    /// # Nickname
    pub nickname: Option<String>,
}

/// Echoes a person.
#[tool(tier = read)]
pub fn structs_named(params: Person) -> Result<Person, ToolError> {
    Ok(params)
}

/// Echoes an address, whose doc comment has a title line.
#[tool(tier = read)]
pub fn structs_titled(params: Address) -> Result<Address, ToolError> {
    Ok(params)
}

/// A point in space.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct Point3(pub f64, pub f64, pub f64);

/// Echoes a tuple struct.
#[tool(tier = read)]
pub fn structs_tuple(params: Field<Point3>) -> Result<Point3, ToolError> {
    Ok(params.value)
}

/// A distance in meters.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct Meters(pub f64);

/// Echoes a newtype struct.
#[tool(tier = read)]
pub fn structs_newtype(params: Field<Meters>) -> Result<Meters, ToolError> {
    Ok(params.value)
}

/// A marker without data.
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
pub struct Marker;

/// Echoes a unit struct.
#[tool(tier = read)]
pub fn structs_unit(params: Field<Marker>) -> Result<Marker, ToolError> {
    Ok(params.value)
}

/// A newtype around a struct.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct Wrapped(pub Address);

/// A struct with no fields, in braces.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct Empty {}

/// Undocumented fields of every struct shape.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct Shapes {
    pub point: Point3,
    pub meters: Meters,
    pub marker: Marker,
    pub wrapped: Wrapped,
    pub empty: Empty,
    /// A documented marker.
    pub documented_marker: Marker,
    /// A documented newtype.
    pub documented_meters: Meters,
    pub maybe_point: Option<Point3>,
    pub maybe_marker: Option<Marker>,
    pub maybe_meters: Option<Meters>,
}

/// Echoes every struct shape.
#[tool(tier = read)]
pub fn structs_shapes(params: Shapes) -> Result<Shapes, ToolError> {
    Ok(params)
}

/// Echoes an empty struct.
#[tool(tier = read)]
pub fn structs_empty(params: Empty) -> Result<Empty, ToolError> {
    Ok(params)
}

/// Echoes a newtype around a struct.
#[tool(tier = read)]
pub fn structs_wrapped(params: Field<Wrapped>) -> Result<Wrapped, ToolError> {
    Ok(params.value)
}

/// One kind of item.
pub mod first {
    use schemars::JsonSchema;
    use serde::{Deserialize, Serialize};

    /// An item of the first kind.
    #[derive(Debug, Serialize, Deserialize, JsonSchema)]
    pub struct Item {
        pub count: u32,
    }
}

/// Another kind of item, with the same name.
pub mod second {
    use schemars::JsonSchema;
    use serde::{Deserialize, Serialize};

    /// An item of the second kind.
    #[derive(Debug, Serialize, Deserialize, JsonSchema)]
    pub struct Item {
        pub label: String,
    }
}

/// Two types named `Item`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct SameNames {
    pub first: first::Item,
    pub second: second::Item,
    pub more_first: Vec<first::Item>,
}

/// Echoes two types of the same name.
#[tool(tier = read)]
pub fn structs_same_names(params: SameNames) -> Result<SameNames, ToolError> {
    Ok(params)
}

/// Echoes the second `Item` alone, whose name is then free.
#[tool(tier = read)]
pub fn structs_second_item(params: Field<second::Item>) -> Result<Vec<second::Item>, ToolError> {
    Ok(vec![params.value])
}
