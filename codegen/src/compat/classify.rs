//! What a change to the tool surface does to clients.
//!
//! Two manifests are compared tool by tool, and every difference is
//! classified. Breaking: a tool removed or renamed, a parameter added as
//! required or removed, a type changed or narrowed, an enum value removed,
//! a constraint tightened, the tier raised, a hint made less safe, the
//! permission changed, confirmation added. Compatible: a tool added, an
//! optional parameter added, an enum value added, a constraint loosened, the
//! tier lowered. Cosmetic: titles and descriptions reworded. Output schemas
//! are judged from the reader's side, so the directions flip there: a field
//! removed from the output breaks clients that read it, a field added does
//! not. The rules are listed key by key in `docs/cli.md`.

use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet, HashSet};
use tooltable_rules::wire::fingerprint::Fingerprint;
use tooltable_rules::wire::manifest::{Manifest, ManifestTool};

/// How a change affects clients, from least to most.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Class {
    /// Wording only: titles, descriptions.
    Cosmetic,
    /// Existing clients keep working.
    Compatible,
    /// Some existing client may stop working.
    Breaking,
}

impl Class {
    /// The class's name, as printed.
    pub fn as_str(self) -> &'static str {
        match self {
            Class::Cosmetic => "cosmetic",
            Class::Compatible => "compatible",
            Class::Breaking => "breaking",
        }
    }
}

/// One classified difference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// Its class.
    pub class: Class,
    /// Where, as a JSON pointer into the new tool's manifest entry (the old
    /// one's for removals).
    pub at: String,
    /// What changed, as a phrase.
    pub message: String,
}

/// What happened to a tool as a whole.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ToolStatus {
    /// New in the new manifest.
    Added,
    /// Gone from the new manifest.
    Removed,
    /// The same tool under a new name.
    Renamed {
        /// Its old name.
        from: String,
    },
    /// Present in both, different.
    Changed,
}

impl ToolStatus {
    /// The status's name, as printed.
    pub fn as_str(&self) -> &'static str {
        match self {
            ToolStatus::Added => "added",
            ToolStatus::Removed => "removed",
            ToolStatus::Renamed { .. } => "renamed",
            ToolStatus::Changed => "changed",
        }
    }
}

/// Everything that changed about one tool.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolChange {
    /// The tool's name (the new one for a rename).
    pub name: String,
    /// What happened to it.
    pub status: ToolStatus,
    /// Its old fingerprint, if it existed.
    pub old_fingerprint: Option<Fingerprint>,
    /// Its new fingerprint, if it exists.
    pub new_fingerprint: Option<Fingerprint>,
    /// The classified changes, never empty.
    pub changes: Vec<Change>,
}

impl ToolChange {
    /// The worst class among its changes.
    pub fn class(&self) -> Class {
        self.changes
            .iter()
            .map(|c| c.class)
            .max()
            .unwrap_or(Class::Cosmetic)
    }
}

/// Every tool that differs between `old` and `new`, in name order.
pub fn compare(old: &Manifest, new: &Manifest) -> Vec<ToolChange> {
    let old_tools: BTreeMap<&str, &ManifestTool> =
        old.tools.iter().map(|t| (t.name.as_str(), t)).collect();
    let new_tools: BTreeMap<&str, &ManifestTool> =
        new.tools.iter().map(|t| (t.name.as_str(), t)).collect();
    let mut removed: Vec<&ManifestTool> = old
        .tools
        .iter()
        .filter(|t| !new_tools.contains_key(t.name.as_str()))
        .collect();
    let mut out = Vec::new();
    for tool in &new.tools {
        match old_tools.get(tool.name.as_str()) {
            Some(before) => {
                let changes = compare_tool(before, tool);
                if !changes.is_empty() {
                    out.push(ToolChange {
                        name: tool.name.clone(),
                        status: ToolStatus::Changed,
                        old_fingerprint: Some(before.fingerprint),
                        new_fingerprint: Some(tool.fingerprint),
                        changes,
                    });
                }
            }
            None => {
                let renamed = removed
                    .iter()
                    .position(|r| without_name(&r.descriptor) == without_name(&tool.descriptor));
                match renamed {
                    Some(index) => {
                        let before = removed.remove(index);
                        let mut changes = vec![Change {
                            class: Class::Breaking,
                            at: "/name".into(),
                            message: format!(
                                "renamed from `{}`: clients calling the old name fail",
                                before.name
                            ),
                        }];
                        changes.extend(
                            compare_tool(before, tool)
                                .into_iter()
                                .filter(|c| c.at != "/descriptor/name"),
                        );
                        out.push(ToolChange {
                            name: tool.name.clone(),
                            status: ToolStatus::Renamed {
                                from: before.name.clone(),
                            },
                            old_fingerprint: Some(before.fingerprint),
                            new_fingerprint: Some(tool.fingerprint),
                            changes,
                        });
                    }
                    None => out.push(ToolChange {
                        name: tool.name.clone(),
                        status: ToolStatus::Added,
                        old_fingerprint: None,
                        new_fingerprint: Some(tool.fingerprint),
                        changes: vec![Change {
                            class: Class::Compatible,
                            at: String::new(),
                            message: "tool added".into(),
                        }],
                    }),
                }
            }
        }
    }
    for tool in removed {
        out.push(ToolChange {
            name: tool.name.clone(),
            status: ToolStatus::Removed,
            old_fingerprint: Some(tool.fingerprint),
            new_fingerprint: None,
            changes: vec![Change {
                class: Class::Breaking,
                at: String::new(),
                message: "tool removed: clients calling it fail".into(),
            }],
        });
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

fn without_name(descriptor: &Value) -> Value {
    let mut copy = descriptor.clone();
    if let Some(map) = copy.as_object_mut() {
        map.remove("name");
    }
    copy
}

fn text(value: Option<&str>) -> String {
    value.map_or_else(|| "none".to_owned(), |v| format!("`{v}`"))
}

fn compare_tool(old: &ManifestTool, new: &ManifestTool) -> Vec<Change> {
    let mut out = Changes::default();
    if new.tier > old.tier {
        out.push(
            Class::Breaking,
            "/tier",
            format!("tier raised from {} to {}", old.tier, new.tier),
        );
    } else if new.tier < old.tier {
        out.push(
            Class::Compatible,
            "/tier",
            format!("tier lowered from {} to {}", old.tier, new.tier),
        );
    }
    if old.toolset != new.toolset {
        let class = if old.toolset.is_none() {
            Class::Compatible
        } else {
            Class::Breaking
        };
        out.push(
            class,
            "/toolset",
            format!(
                "toolset changed from {} to {}",
                text(old.toolset.as_deref()),
                text(new.toolset.as_deref())
            ),
        );
    }
    if old.permission != new.permission {
        out.push(
            Class::Breaking,
            "/permission",
            format!(
                "permission changed from {} to {}",
                text(old.permission.as_deref()),
                text(new.permission.as_deref())
            ),
        );
    }
    match (&old.confirm, &new.confirm) {
        (None, Some(_)) => out.push(
            Class::Breaking,
            "/confirm",
            "confirmation added: calls without `confirm: true` are refused".into(),
        ),
        (Some(_), None) => out.push(Class::Compatible, "/confirm", "confirmation removed".into()),
        (Some(a), Some(b)) if a.consequence() != b.consequence() => out.push(
            Class::Cosmetic,
            "/confirm",
            "confirmation's consequence reworded".into(),
        ),
        _ => {}
    }
    if old.since != new.since {
        out.push(
            Class::Cosmetic,
            "/since",
            format!(
                "`since` changed from {} to {}",
                text(old.since.as_deref()),
                text(new.since.as_deref())
            ),
        );
    }
    compare_platforms(&old.platforms, &new.platforms, &mut out);
    if old.source != new.source {
        out.push(
            Class::Cosmetic,
            "/source",
            format!("now declared in {} (was {})", new.source, old.source),
        );
    }
    let confirm_changed = old.confirm.is_some() != new.confirm.is_some();
    compare_descriptor(&old.descriptor, &new.descriptor, confirm_changed, &mut out);
    if out.0.is_empty() && old.fingerprint != new.fingerprint {
        out.push(
            Class::Cosmetic,
            "/descriptor",
            "descriptor rewritten without a change in meaning".into(),
        );
    }
    out.0
}

fn compare_platforms(old: &[String], new: &[String], out: &mut Changes) {
    if old == new {
        return;
    }
    let list = |p: &[String]| {
        if p.is_empty() {
            "all".to_owned()
        } else {
            p.join(", ")
        }
    };
    let narrowed = (old.is_empty() && !new.is_empty())
        || (!new.is_empty() && old.iter().any(|p| !new.contains(p)));
    out.push(
        if narrowed {
            Class::Breaking
        } else {
            Class::Compatible
        },
        "/platforms",
        format!("platforms changed from {} to {}", list(old), list(new)),
    );
}

#[derive(Default)]
struct Changes(Vec<Change>);

impl Changes {
    fn push(&mut self, class: Class, at: &str, message: String) {
        self.0.push(Change {
            class,
            at: at.to_owned(),
            message,
        });
    }
}

fn compare_descriptor(old: &Value, new: &Value, confirm_changed: bool, out: &mut Changes) {
    let empty = Map::new();
    let o = old.as_object().unwrap_or(&empty);
    let n = new.as_object().unwrap_or(&empty);
    for key in ["title", "description"] {
        if o.get(key) != n.get(key) {
            let what = match (o.get(key), n.get(key)) {
                (None, Some(_)) => "added",
                (Some(_), None) => "removed",
                _ => "reworded",
            };
            out.push(
                Class::Cosmetic,
                &format!("/descriptor/{key}"),
                format!("{key} {what}"),
            );
        }
    }
    let hint = |map: &Map<String, Value>, key: &str| {
        map.get("annotations")
            .and_then(|a| a.get(key))
            .and_then(Value::as_bool)
    };
    // (hint, the value that is safe for a client)
    for (key, safe) in [
        ("readOnlyHint", true),
        ("destructiveHint", false),
        ("idempotentHint", true),
        ("openWorldHint", false),
    ] {
        let (before, after) = (hint(o, key), hint(n, key));
        if before != after {
            let class = if after == Some(safe) {
                Class::Compatible
            } else {
                Class::Breaking
            };
            let show = |v: Option<bool>| v.map_or_else(|| "absent".to_owned(), |b| b.to_string());
            out.push(
                class,
                &format!("/descriptor/annotations/{key}"),
                format!(
                    "`{key}` changed from {} to {}{}",
                    show(before),
                    show(after),
                    if class == Class::Breaking {
                        " (less safe)"
                    } else {
                        " (safer)"
                    }
                ),
            );
        }
    }
    if let (Some(a), Some(b)) = (o.get("inputSchema"), n.get("inputSchema")) {
        let mut schemas = Schemas {
            old_root: a,
            new_root: b,
            direction: Direction::Input,
            skip_confirm: confirm_changed,
            visiting: BTreeSet::new(),
            steps: 0,
            out,
        };
        schemas.compare(a, b, "/descriptor/inputSchema", "");
    }
    match (o.get("outputSchema"), n.get("outputSchema")) {
        (None, Some(_)) => out.push(
            Class::Compatible,
            "/descriptor/outputSchema",
            "structured output added".into(),
        ),
        (Some(_), None) => out.push(
            Class::Breaking,
            "/descriptor/outputSchema",
            "structured output removed: clients reading `structuredContent` get none".into(),
        ),
        (Some(a), Some(b)) => {
            let mut schemas = Schemas {
                old_root: a,
                new_root: b,
                direction: Direction::Output,
                skip_confirm: false,
                visiting: BTreeSet::new(),
                steps: 0,
                out,
            };
            schemas.compare(a, b, "/descriptor/outputSchema", "");
        }
        (None, None) => {}
    }
    compare_meta(o.get("_meta"), n.get("_meta"), out);
    let known = [
        "name",
        "title",
        "description",
        "inputSchema",
        "outputSchema",
        "annotations",
        "_meta",
    ];
    let keys: BTreeSet<&String> = o.keys().chain(n.keys()).collect();
    for key in keys {
        if !known.contains(&key.as_str()) && o.get(key) != n.get(key) {
            out.push(
                Class::Compatible,
                &format!("/descriptor/{}", pointer_token(key)),
                format!("descriptor key `{key}` changed"),
            );
        }
    }
}

fn compare_meta(old: Option<&Value>, new: Option<&Value>, out: &mut Changes) {
    let flatten = |v: Option<&Value>| {
        let mut leaves = BTreeMap::new();
        if let Some(Value::Object(map)) = v {
            for (key, value) in map {
                match value {
                    Value::Object(inner) => {
                        for (k, v) in inner {
                            leaves.insert(
                                format!("{}/{}", pointer_token(key), pointer_token(k)),
                                v.clone(),
                            );
                        }
                    }
                    other => {
                        leaves.insert(pointer_token(key), other.clone());
                    }
                }
            }
        }
        leaves
    };
    let (a, b) = (flatten(old), flatten(new));
    let keys: BTreeSet<&String> = a.keys().chain(b.keys()).collect();
    for key in keys {
        let at = format!("/descriptor/_meta/{key}");
        match (a.get(key), b.get(key)) {
            (Some(_), None) => out.push(
                Class::Breaking,
                &at,
                format!("`_meta` declaration `{key}` removed"),
            ),
            (None, Some(_)) => out.push(
                Class::Compatible,
                &at,
                format!("`_meta` declaration `{key}` added"),
            ),
            (Some(x), Some(y)) if x != y => out.push(
                Class::Compatible,
                &at,
                format!("`_meta` declaration `{key}` changed"),
            ),
            _ => {}
        }
    }
}

fn pointer_token(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Direction {
    /// Arguments: the client writes, the server reads.
    Input,
    /// Results: the server writes, the client reads.
    Output,
}

/// A change that makes the set of accepted values smaller or larger.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Effect {
    Narrows,
    Widens,
    /// Neither a subset nor a superset.
    Changes,
}

struct Schemas<'a, 'o> {
    old_root: &'a Value,
    new_root: &'a Value,
    direction: Direction,
    skip_confirm: bool,
    visiting: BTreeSet<(String, String)>,
    /// How many places the comparison has visited.
    steps: usize,
    out: &'o mut Changes,
}

/// The most places one comparison of two schemas visits. A definition
/// reached along several paths is compared along each, which is what a
/// report should say for real schemas (the largest in the corpus take a
/// few dozen steps), but definitions that each reference the next twice
/// make the paths double at every level: a few kilobytes of manifest would
/// take hours. Past this bound the comparison stops and says so.
const MAX_STEPS: usize = 10_000;

fn resolve<'v>(root: &'v Value, mut node: &'v Value) -> (&'v Value, Option<String>) {
    let mut reference = None;
    for _ in 0..16 {
        let Some(r) = node.get("$ref").and_then(Value::as_str) else {
            break;
        };
        let target = match r.strip_prefix('#') {
            Some("") => Some(root),
            Some(pointer) => root.pointer(pointer),
            None => None,
        };
        match target {
            Some(t) => {
                reference = Some(r.to_owned());
                node = t;
            }
            None => break,
        }
    }
    (node, reference)
}

/// The JSON types a schema admits, or `None` for any.
fn types(root: &Value, node: &Value) -> Option<BTreeSet<String>> {
    types_within(root, node, 0, &mut HashSet::new())
}

/// [`types`], skipping the schemas already in `seen`: alternatives that
/// reference the same definitions would otherwise be walked once per path,
/// and the paths multiply at every level. A union over a schema seen
/// before adds nothing.
fn types_within(
    root: &Value,
    node: &Value,
    depth: usize,
    seen: &mut HashSet<*const Value>,
) -> Option<BTreeSet<String>> {
    let (node, _) = resolve(root, node);
    if depth > 16 {
        return None;
    }
    if !seen.insert(std::ptr::from_ref(node)) {
        return Some(BTreeSet::new());
    }
    match node {
        Value::Bool(true) => return None,
        Value::Bool(false) => return Some(BTreeSet::new()),
        _ => {}
    }
    match node.get("type") {
        Some(Value::String(t)) => return Some(BTreeSet::from([t.clone()])),
        Some(Value::Array(ts)) => {
            return Some(
                ts.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect(),
            );
        }
        _ => {}
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(alternatives) = node.get(key).and_then(Value::as_array) {
            let mut all = BTreeSet::new();
            for alternative in alternatives {
                all.extend(types_within(root, alternative, depth + 1, seen)?);
            }
            return Some(all);
        }
    }
    let of_value = |v: &Value| match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_f64() => "number",
        Value::Number(_) => "integer",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    };
    if let Some(constant) = node.get("const") {
        return Some(BTreeSet::from([of_value(constant).to_owned()]));
    }
    if let Some(values) = node.get("enum").and_then(Value::as_array) {
        return Some(values.iter().map(|v| of_value(v).to_owned()).collect());
    }
    if node.get("properties").is_some() {
        return Some(BTreeSet::from(["object".to_owned()]));
    }
    None
}

/// Whether every value of types `inner` is one of types `outer`.
fn covers(outer: &Option<BTreeSet<String>>, inner: &Option<BTreeSet<String>>) -> bool {
    match (outer, inner) {
        (None, _) => true,
        (Some(_), None) => false,
        (Some(outer), Some(inner)) => inner
            .iter()
            .all(|t| outer.contains(t) || (t == "integer" && outer.contains("number"))),
    }
}

fn show_types(t: &Option<BTreeSet<String>>) -> String {
    match t {
        None => "any value".into(),
        Some(set) => set.iter().cloned().collect::<Vec<_>>().join(" or "),
    }
}

/// `node` without its `null` alternative, when it has one.
fn non_null(root: &Value, node: &Value) -> Option<Value> {
    let (resolved, _) = resolve(root, node);
    if let Some(Value::Array(ts)) = resolved.get("type")
        && ts.iter().any(|t| t == "null")
    {
        let rest: Vec<Value> = ts.iter().filter(|t| *t != "null").cloned().collect();
        let mut copy = resolved.clone();
        if let Some(map) = copy.as_object_mut() {
            map.insert(
                "type".into(),
                if rest.len() == 1 {
                    rest[0].clone()
                } else {
                    Value::Array(rest)
                },
            );
        }
        return Some(copy);
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(alternatives) = resolved.get(key).and_then(Value::as_array) {
            let is_null = |a: &Value| a.get("type").and_then(Value::as_str) == Some("null");
            let rest: Vec<&Value> = alternatives.iter().filter(|a| !is_null(a)).collect();
            if rest.len() == 1 && rest.len() < alternatives.len() {
                return Some(rest[0].clone());
            }
        }
    }
    None
}

/// Integer formats and the range of values they admit.
fn format_range(format: &str) -> Option<(i128, i128)> {
    Some(match format {
        "int8" => (i8::MIN.into(), i8::MAX.into()),
        "int16" => (i16::MIN.into(), i16::MAX.into()),
        "int32" => (i32::MIN.into(), i32::MAX.into()),
        "int64" => (i64::MIN.into(), i64::MAX.into()),
        "uint8" => (0, u8::MAX.into()),
        "uint16" => (0, u16::MAX.into()),
        "uint32" => (0, u32::MAX.into()),
        "uint64" => (0, u64::MAX.into()),
        "uint" => (0, u64::MAX.into()),
        "int" => (i64::MIN.into(), i64::MAX.into()),
        _ => return None,
    })
}

fn number(node: &Value, key: &str) -> Option<f64> {
    node.get(key).and_then(Value::as_f64)
}

impl Schemas<'_, '_> {
    fn subject(&self, label: &str) -> String {
        match (self.direction, label.is_empty()) {
            (Direction::Input, true) => "the parameters".into(),
            (Direction::Input, false) => format!("parameter `{label}`"),
            (Direction::Output, true) => "the output".into(),
            (Direction::Output, false) => format!("output field `{label}`"),
        }
    }

    /// The class of a change that narrows or widens what a value may be.
    fn class_of(&self, effect: Effect) -> Class {
        match (effect, self.direction) {
            (Effect::Changes, _) => Class::Breaking,
            (Effect::Narrows, Direction::Input) | (Effect::Widens, Direction::Output) => {
                Class::Breaking
            }
            (Effect::Widens, Direction::Input) | (Effect::Narrows, Direction::Output) => {
                Class::Compatible
            }
        }
    }

    fn compare(&mut self, old: &Value, new: &Value, at: &str, label: &str) {
        self.steps += 1;
        if self.steps > MAX_STEPS {
            if self.steps == MAX_STEPS + 1 {
                self.out.push(
                    Class::Breaking,
                    at,
                    format!("the schemas are too entangled to compare in full (more than {MAX_STEPS} places through their `$ref`s); review this change by hand"),
                );
            }
            return;
        }
        let (o, old_ref) = resolve(self.old_root, old);
        let (n, new_ref) = resolve(self.new_root, new);
        if old_ref.is_some() || new_ref.is_some() {
            let key = (old_ref.unwrap_or_default(), new_ref.unwrap_or_default());
            if !self.visiting.insert(key.clone()) {
                return;
            }
            self.compare_resolved(old, new, o, n, at, label);
            self.visiting.remove(&key);
        } else {
            self.compare_resolved(old, new, o, n, at, label);
        }
    }

    fn compare_resolved(
        &mut self,
        old_node: &Value,
        new_node: &Value,
        o: &Value,
        n: &Value,
        at: &str,
        label: &str,
    ) {
        let subject = self.subject(label);
        for key in ["title", "description"] {
            let before = old_node.get(key).or_else(|| o.get(key));
            let after = new_node.get(key).or_else(|| n.get(key));
            if before != after {
                self.out.push(
                    Class::Cosmetic,
                    &format!("{at}/{key}"),
                    format!("{key} of {subject} reworded"),
                );
            }
        }
        let old_types = types(self.old_root, o);
        let new_types = types(self.new_root, n);
        if old_types != new_types {
            let widens = covers(&new_types, &old_types);
            let narrows = covers(&old_types, &new_types);
            let effect = match (widens, narrows) {
                (true, _) => Effect::Widens,
                (_, true) => Effect::Narrows,
                _ => Effect::Changes,
            };
            let message = match effect {
                Effect::Widens => format!(
                    "type of {subject} widened from {} to {}",
                    show_types(&old_types),
                    show_types(&new_types)
                ),
                Effect::Narrows => format!(
                    "type of {subject} narrowed from {} to {}",
                    show_types(&old_types),
                    show_types(&new_types)
                ),
                Effect::Changes => format!(
                    "type of {subject} changed from {} to {}",
                    show_types(&old_types),
                    show_types(&new_types)
                ),
            };
            self.out
                .push(self.class_of(effect), &format!("{at}/type"), message);
            if effect == Effect::Changes {
                return;
            }
            // Nullability changed: compare what remains without `null`.
            let old_rest = non_null(self.old_root, o);
            let new_rest = non_null(self.new_root, n);
            if old_rest.is_some() || new_rest.is_some() {
                let a = old_rest.unwrap_or_else(|| o.clone());
                let b = new_rest.unwrap_or_else(|| n.clone());
                let (a, b) = (strip_text(a), strip_text(b));
                self.compare(&a, &b, at, label);
                return;
            }
        }
        self.compare_values(o, n, at, &subject);
        self.compare_constraints(o, n, at, &subject);
        if self.direction == Direction::Input
            && o.get("default") != n.get("default")
            && let (Some(a), Some(b)) = (o.get("default"), n.get("default"))
        {
            self.out.push(
                    Class::Breaking,
                    &format!("{at}/default"),
                    format!("default of {subject} changed from {a} to {b}: callers that leave it out get a different value"),
                );
        }
        self.compare_object(o, n, at, label);
        self.compare_array(o, n, at, label);
        self.compare_alternatives(o, n, at, label);
    }

    fn compare_values(&mut self, o: &Value, n: &Value, at: &str, subject: &str) {
        let list = |v: &Value| v.get("enum").and_then(Value::as_array).cloned();
        match (list(o), list(n)) {
            (Some(a), Some(b)) => {
                for value in a.iter().filter(|v| !b.contains(v)) {
                    self.out.push(
                        self.class_of(Effect::Narrows),
                        &format!("{at}/enum"),
                        format!("value {value} of {subject} removed"),
                    );
                }
                for value in b.iter().filter(|v| !a.contains(v)) {
                    self.out.push(
                        self.class_of(Effect::Widens),
                        &format!("{at}/enum"),
                        format!("value {value} of {subject} added"),
                    );
                }
            }
            (None, Some(_)) => self.out.push(
                self.class_of(Effect::Narrows),
                &format!("{at}/enum"),
                format!("{subject} is now limited to a list of values"),
            ),
            (Some(_), None) => self.out.push(
                self.class_of(Effect::Widens),
                &format!("{at}/enum"),
                format!("{subject} is no longer limited to a list of values"),
            ),
            (None, None) => {}
        }
        match (o.get("const"), n.get("const")) {
            (Some(a), Some(b)) if a != b => self.out.push(
                Class::Breaking,
                &format!("{at}/const"),
                format!("constant {subject} changed from {a} to {b}"),
            ),
            (None, Some(b)) => self.out.push(
                self.class_of(Effect::Narrows),
                &format!("{at}/const"),
                format!("{subject} is now always {b}"),
            ),
            (Some(_), None) => self.out.push(
                self.class_of(Effect::Widens),
                &format!("{at}/const"),
                format!("{subject} is no longer a constant"),
            ),
            _ => {}
        }
    }

    fn compare_constraints(&mut self, o: &Value, n: &Value, at: &str, subject: &str) {
        // (keyword, whether a larger value narrows)
        for (key, larger_narrows) in [
            ("minimum", true),
            ("exclusiveMinimum", true),
            ("minLength", true),
            ("minItems", true),
            ("maximum", false),
            ("exclusiveMaximum", false),
            ("maxLength", false),
            ("maxItems", false),
        ] {
            let (a, b) = (number(o, key), number(n, key));
            let effect = match (a, b) {
                (Some(x), Some(y)) if x == y => continue,
                (Some(x), Some(y)) if (y > x) == larger_narrows => Effect::Narrows,
                (Some(_), Some(_)) | (Some(_), None) => Effect::Widens,
                (None, Some(_)) => Effect::Narrows,
                (None, None) => continue,
            };
            let show = |v: Option<f64>| v.map_or_else(|| "none".to_owned(), |v| v.to_string());
            self.out.push(
                self.class_of(effect),
                &format!("{at}/{key}"),
                format!(
                    "`{key}` of {subject} {} from {} to {}",
                    if effect == Effect::Narrows {
                        "tightened"
                    } else {
                        "loosened"
                    },
                    show(a),
                    show(b)
                ),
            );
        }
        for key in ["pattern", "multipleOf", "uniqueItems"] {
            let (a, b) = (o.get(key), n.get(key));
            if a == b
                || (key == "uniqueItems"
                    && a.unwrap_or(&Value::Bool(false)) == b.unwrap_or(&Value::Bool(false)))
            {
                continue;
            }
            let effect = match (a, b) {
                (Some(_), None) => Effect::Widens,
                (None, Some(_)) => Effect::Narrows,
                _ if key == "uniqueItems" => {
                    if b == Some(&Value::Bool(true)) {
                        Effect::Narrows
                    } else {
                        Effect::Widens
                    }
                }
                _ => Effect::Changes,
            };
            let verb = match effect {
                Effect::Narrows => "tightened",
                Effect::Widens => "loosened",
                Effect::Changes => "changed",
            };
            self.out.push(
                self.class_of(effect),
                &format!("{at}/{key}"),
                format!("`{key}` of {subject} {verb}"),
            );
        }
        let (a, b) = (
            o.get("format").and_then(Value::as_str),
            n.get("format").and_then(Value::as_str),
        );
        if a != b {
            let effect = match (a.and_then(format_range), b.and_then(format_range)) {
                (Some((lo1, hi1)), Some((lo2, hi2))) if lo2 <= lo1 && hi2 >= hi1 => Effect::Widens,
                (Some((lo1, hi1)), Some((lo2, hi2))) if lo2 >= lo1 && hi2 <= hi1 => Effect::Narrows,
                _ => match (a, b) {
                    (Some(_), None) => Effect::Widens,
                    (None, Some(_)) => Effect::Narrows,
                    _ => Effect::Changes,
                },
            };
            self.out.push(
                self.class_of(effect),
                &format!("{at}/format"),
                format!(
                    "format of {subject} changed from {} to {}",
                    text(a),
                    text(b)
                ),
            );
        }
    }

    fn compare_object(&mut self, o: &Value, n: &Value, at: &str, label: &str) {
        let empty = Map::new();
        let props = |v: &Value| v.get("properties").and_then(Value::as_object).cloned();
        let (Some(a), Some(b)) = (props(o), props(n)) else {
            if o.get("properties").is_some() != n.get("properties").is_some() {
                let (a, b) = (
                    props(o).unwrap_or_else(|| empty.clone()),
                    props(n).unwrap_or_else(|| empty.clone()),
                );
                self.compare_properties(o, n, &a, &b, at, label);
            }
            self.compare_additional(o, n, at, label);
            return;
        };
        self.compare_properties(o, n, &a, &b, at, label);
        self.compare_additional(o, n, at, label);
    }

    fn compare_properties(
        &mut self,
        o: &Value,
        n: &Value,
        a: &Map<String, Value>,
        b: &Map<String, Value>,
        at: &str,
        label: &str,
    ) {
        let required = |v: &Value| -> BTreeSet<String> {
            v.get("required")
                .and_then(Value::as_array)
                .map(|r| {
                    r.iter()
                        .filter_map(Value::as_str)
                        .map(str::to_owned)
                        .collect()
                })
                .unwrap_or_default()
        };
        let (ra, rb) = (required(o), required(n));
        let names: BTreeSet<&String> = a.keys().chain(b.keys()).collect();
        let input = self.direction == Direction::Input;
        for name in names {
            if input && label.is_empty() && self.skip_confirm && name == "confirm" {
                continue;
            }
            let path = if label.is_empty() {
                name.clone()
            } else {
                format!("{label}.{name}")
            };
            let here = format!("{at}/properties/{}", pointer_token(name));
            let subject = self.subject(&path);
            match (a.get(name), b.get(name)) {
                (Some(_), None) => self.out.push(
                    Class::Breaking,
                    &here,
                    if input {
                        format!("{subject} removed: callers that send it are refused or ignored")
                    } else {
                        format!("{subject} removed: clients that read it find nothing")
                    },
                ),
                (None, Some(_)) => {
                    let (class, message) = match (input, rb.contains(name)) {
                        (true, true) => (Class::Breaking, format!("{subject} added as required")),
                        (true, false) => {
                            (Class::Compatible, format!("{subject} added as optional"))
                        }
                        (false, _) => (Class::Compatible, format!("{subject} added")),
                    };
                    self.out.push(class, &here, message);
                }
                (Some(x), Some(y)) => {
                    match (ra.contains(name), rb.contains(name)) {
                        (false, true) => self.out.push(
                            if input {
                                Class::Breaking
                            } else {
                                Class::Compatible
                            },
                            &format!("{at}/required"),
                            if input {
                                format!("{subject} is now required")
                            } else {
                                format!("{subject} is now always present")
                            },
                        ),
                        (true, false) => self.out.push(
                            if input {
                                Class::Compatible
                            } else {
                                Class::Breaking
                            },
                            &format!("{at}/required"),
                            if input {
                                format!("{subject} is now optional")
                            } else {
                                format!("{subject} may now be absent")
                            },
                        ),
                        _ => {}
                    }
                    self.compare(x, y, &here, &path);
                }
                (None, None) => {}
            }
        }
    }

    fn compare_additional(&mut self, o: &Value, n: &Value, at: &str, label: &str) {
        let (a, b) = (o.get("additionalProperties"), n.get("additionalProperties"));
        if a == b {
            return;
        }
        let closed = |v: Option<&Value>| v == Some(&Value::Bool(false));
        let subject = self.subject(label);
        let here = format!("{at}/additionalProperties");
        match (closed(a), closed(b)) {
            (false, true) => self.out.push(
                self.class_of(Effect::Narrows),
                &here,
                format!("{subject}: unknown properties are now refused"),
            ),
            (true, false) => self.out.push(
                self.class_of(Effect::Widens),
                &here,
                format!("{subject}: unknown properties are now allowed"),
            ),
            _ => match (a, b) {
                (Some(x @ Value::Object(_)), Some(y @ Value::Object(_))) => {
                    let path = if label.is_empty() {
                        "*".to_owned()
                    } else {
                        format!("{label}.*")
                    };
                    self.compare(x, y, &here, &path);
                }
                _ => self.out.push(
                    Class::Breaking,
                    &here,
                    format!("{subject}: the rule for other properties changed"),
                ),
            },
        }
    }

    fn compare_array(&mut self, o: &Value, n: &Value, at: &str, label: &str) {
        if let (Some(x), Some(y)) = (o.get("items"), n.get("items")) {
            self.compare(x, y, &format!("{at}/items"), &format!("{label}[]"));
        }
        let prefix = |v: &Value| v.get("prefixItems").and_then(Value::as_array).cloned();
        if let (Some(a), Some(b)) = (prefix(o), prefix(n)) {
            if a.len() != b.len() {
                self.out.push(
                    Class::Breaking,
                    &format!("{at}/prefixItems"),
                    format!(
                        "{} now has {} elements instead of {}",
                        self.subject(label),
                        b.len(),
                        a.len()
                    ),
                );
            }
            for (i, (x, y)) in a.iter().zip(&b).enumerate() {
                self.compare(
                    x,
                    y,
                    &format!("{at}/prefixItems/{i}"),
                    &format!("{label}[{i}]"),
                );
            }
        }
    }

    fn compare_alternatives(&mut self, o: &Value, n: &Value, at: &str, label: &str) {
        for key in ["anyOf", "oneOf"] {
            let list = |v: &Value| v.get(key).and_then(Value::as_array).cloned();
            let (Some(a), Some(b)) = (list(o), list(n)) else {
                continue;
            };
            let gone: Vec<&Value> = a.iter().filter(|x| !b.contains(x)).collect();
            let came: Vec<&Value> = b.iter().filter(|y| !a.contains(y)).collect();
            if gone.len() == 1 && came.len() == 1 {
                let i = b.iter().position(|y| y == came[0]).unwrap_or(0);
                self.compare(gone[0], came[0], &format!("{at}/{key}/{i}"), label);
                continue;
            }
            let subject = self.subject(label);
            for _ in &gone {
                self.out.push(
                    self.class_of(Effect::Narrows),
                    &format!("{at}/{key}"),
                    format!("an alternative of {subject} removed"),
                );
            }
            for _ in &came {
                self.out.push(
                    self.class_of(Effect::Widens),
                    &format!("{at}/{key}"),
                    format!("an alternative of {subject} added"),
                );
            }
        }
    }
}

/// A schema without its wording, so a nullability change does not report
/// the same description twice.
fn strip_text(mut schema: Value) -> Value {
    if let Some(map) = schema.as_object_mut() {
        map.remove("title");
        map.remove("description");
    }
    schema
}
