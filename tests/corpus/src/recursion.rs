//! Recursive types: recursion to the root (`{"$ref": "#"}`) and through
//! `$defs`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use tooltable::{ToolError, tool};

/// A tree of numbers.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct Tree {
    pub value: u32,
    pub children: Vec<Tree>,
}

/// Echoes a tree (recursion to the root).
#[tool(tier = read)]
pub fn recursive_root(params: Tree) -> Result<Tree, ToolError> {
    Ok(params)
}

/// A linked list node.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct Node {
    pub value: u8,
    pub next: Option<Box<Node>>,
}

/// An expression.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub enum Expr {
    Literal(i64),
    Negate(Box<Expr>),
    Add(Box<Expr>, Box<Expr>),
    Call { name: String, args: Vec<Expr> },
}

/// A folder that holds files and folders (mutual recursion).
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct Folder {
    pub name: String,
    pub entries: Vec<Entry>,
}

/// A folder's entry.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type")]
pub enum Entry {
    File { name: String },
    Folder(Folder),
}

/// Recursive types below the root.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct Recursive {
    pub list: Node,
    pub expression: Expr,
    pub folder: Folder,
    pub tree: Option<Tree>,
}

/// Echoes recursive types below the root.
#[tool(tier = read)]
pub fn recursive_defs(params: Recursive) -> Result<Recursive, ToolError> {
    Ok(params)
}

/// Echoes an expression at the root of the output.
#[tool(tier = read)]
pub fn recursive_expr(params: Recursive) -> Result<Expr, ToolError> {
    Ok(params.expression)
}
