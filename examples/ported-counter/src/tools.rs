//! The counter's tools, moved from the upstream `#[tool_router]`.

use schemars::JsonSchema;
use serde_json::{Map, Value};
use tokio::sync::Mutex;
use tooltable::tool;

/// The two numbers `sum` adds.
#[derive(Debug, serde::Deserialize, JsonSchema)]
pub struct StructRequest {
    pub a: i32,
    pub b: i32,
}

/// Increment the counter by 1
#[tool(tier = write, world = closed)]
pub async fn increment(counter: &Mutex<i32>) -> String {
    let mut counter = counter.lock().await;
    *counter += 1;
    counter.to_string()
}

/// Decrement the counter by 1
#[tool(tier = write, world = closed)]
pub async fn decrement(counter: &Mutex<i32>) -> String {
    let mut counter = counter.lock().await;
    *counter -= 1;
    counter.to_string()
}

/// Get the current counter value
#[tool(tier = read, world = closed)]
pub async fn get_value(counter: &Mutex<i32>) -> String {
    counter.lock().await.to_string()
}

/// Long running task example
#[tool(tier = read, world = closed)]
pub async fn long_task() -> String {
    tokio::time::sleep(std::time::Duration::from_secs(10)).await;
    "Long task completed".to_owned()
}

/// Say hello to the client
#[tool(tier = read, world = closed)]
pub fn say_hello() -> String {
    "hello".to_owned()
}

/// Repeat what you say
#[tool(tier = read, world = closed)]
pub fn echo(object: Map<String, Value>) -> String {
    Value::Object(object).to_string()
}

/// Calculate the sum of two numbers
#[tool(tier = read, world = closed)]
pub fn sum(StructRequest { a, b }: StructRequest) -> String {
    (a + b).to_string()
}
