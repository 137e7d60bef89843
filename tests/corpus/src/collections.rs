//! Sequences, sets, arrays, tuples, smart pointers and references.

use crate::common::Field;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::{BTreeSet, BinaryHeap, HashSet, LinkedList, VecDeque};
use std::rc::Rc;
use std::sync::Arc;
use tooltable::{ToolError, tool};

/// Echoes a `Vec`.
#[tool(tier = read)]
pub fn coll_vec(params: Field<Vec<u8>>) -> Result<Vec<u8>, ToolError> {
    Ok(params.value)
}

/// Echoes a `VecDeque`.
#[tool(tier = read)]
pub fn coll_vec_deque(params: Field<VecDeque<String>>) -> Result<VecDeque<String>, ToolError> {
    Ok(params.value)
}

/// Echoes a `LinkedList`.
#[tool(tier = read)]
pub fn coll_linked_list(params: Field<LinkedList<i32>>) -> Result<LinkedList<i32>, ToolError> {
    Ok(params.value)
}

/// Echoes a `BinaryHeap`.
#[tool(tier = read)]
pub fn coll_binary_heap(params: Field<BinaryHeap<u16>>) -> Result<BinaryHeap<u16>, ToolError> {
    Ok(params.value)
}

/// Takes a boxed slice, returns one.
#[tool(tier = read)]
pub fn coll_boxed_slice(params: Field<Box<[u32]>>) -> Result<Box<[u32]>, ToolError> {
    Ok(params.value)
}

/// Returns a borrowed slice.
#[tool(tier = read)]
pub fn coll_slice_ref(params: Field<Vec<i16>>) -> Result<&'static [i16], ToolError> {
    let _ = params;
    Ok(&[1, 2])
}

/// Echoes an array.
#[tool(tier = read)]
pub fn coll_array(params: Field<[u8; 4]>) -> Result<[u8; 4], ToolError> {
    Ok(params.value)
}

/// Echoes an empty array.
#[tool(tier = read)]
pub fn coll_empty_array(params: Field<[String; 0]>) -> Result<[String; 0], ToolError> {
    Ok(params.value)
}

/// Echoes a tuple.
#[tool(tier = read)]
pub fn coll_tuple(params: Field<(u8, String, bool)>) -> Result<(u8, String, bool), ToolError> {
    Ok(params.value)
}

/// Echoes a one-element tuple.
#[tool(tier = read)]
pub fn coll_single_tuple(params: Field<(i64,)>) -> Result<(i64,), ToolError> {
    Ok(params.value)
}

/// Echoes a `HashSet`.
#[tool(tier = read)]
pub fn coll_hash_set(params: Field<HashSet<String>>) -> Result<HashSet<String>, ToolError> {
    Ok(params.value)
}

/// Echoes a `BTreeSet`.
#[tool(tier = read)]
pub fn coll_btree_set(params: Field<BTreeSet<i64>>) -> Result<BTreeSet<i64>, ToolError> {
    Ok(params.value)
}

/// Nested options and sequences.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct Nested {
    /// Maybe a list of maybe-bytes.
    pub maybe_list: Option<Vec<Option<u8>>>,
    /// A matrix.
    pub matrix: Vec<Vec<f64>>,
    /// Pairs.
    pub pairs: Vec<(String, u32)>,
    /// Arrays of arrays.
    pub grid: [[bool; 2]; 3],
    /// A set of tuples.
    pub set_of_pairs: BTreeSet<(u8, u8)>,
    /// An optional tuple.
    pub maybe_pair: Option<(i8, char)>,
}

/// Echoes nested options and sequences.
#[tool(tier = read)]
pub fn coll_nested(params: Nested) -> Result<Nested, ToolError> {
    Ok(params)
}

/// A point, held through the pointers below.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct Point {
    pub x: i32,
    pub y: i32,
}

/// Smart pointers are transparent.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct Pointers {
    pub boxed: Box<u8>,
    pub rc: Rc<String>,
    pub arc: Arc<Vec<bool>>,
    pub cow: Cow<'static, str>,
    pub boxed_point: Box<Point>,
    pub rc_str: Rc<str>,
    pub arc_point: Arc<Point>,
    pub cow_point: Cow<'static, Point>,
    pub maybe_boxed: Option<Box<Point>>,
}

/// Echoes smart pointers.
#[tool(tier = read)]
pub fn coll_pointers(params: Pointers) -> Result<Pointers, ToolError> {
    Ok(params)
}

/// An output that borrows.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Borrowed<'a> {
    pub name: &'a str,
    pub tags: &'a [String],
    pub cow: Cow<'a, str>,
    pub point: &'a Point,
    pub names: Vec<&'a str>,
}

static ORIGIN: Point = Point { x: 0, y: 0 };

/// Returns an output that borrows.
#[tool(tier = read)]
pub fn coll_borrowed(params: Field<u8>) -> Result<Borrowed<'static>, ToolError> {
    let _ = params;
    Ok(Borrowed {
        name: "n",
        tags: &[],
        cow: Cow::Borrowed("c"),
        point: &ORIGIN,
        names: vec!["a"],
    })
}

/// Returns a list of references at the root.
#[tool(tier = read)]
pub fn coll_ref_list(params: Field<u8>) -> Result<Vec<&'static str>, ToolError> {
    let _ = params;
    Ok(vec!["a"])
}

/// Echoes a `Cow` of a struct at the root.
#[tool(tier = read)]
pub fn coll_cow_root(params: Field<Point>) -> Result<Cow<'static, Point>, ToolError> {
    Ok(Cow::Owned(params.value))
}
