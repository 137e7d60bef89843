//! Tool search: the words a tool is found by, and how a query ranks tools.
//!
//! A server of hundreds of tools can list a few and let the model search
//! for the rest. The build indexes every tool's words beside its
//! descriptor, and the server ranks a query against that index with
//! nothing built when it starts. Both take words from [`words`], so a query
//! meets exactly the words the build indexed.
//!
//! A tool's document is its name, title and description, the names and
//! descriptions of its parameters, its toolset and its search hint
//! ([`Searchable`]). Words are cut at anything but a letter or digit and
//! where a lowercase letter meets an uppercase one (`getIssue`), lowercased,
//! kept from two characters, English function words dropped, and plural
//! and verb endings taken off so that `update`, `updates` and `updated`
//! meet. Ranking is BM25 over those documents ([`K1`], [`B`]). These choices
//! were measured on a labelled set of queries against other rankings
//! (docs/discovery.md).

use serde_json::Value;

/// BM25's term-frequency saturation.
pub const K1: f64 = 2.0;
/// BM25's length normalisation.
pub const B: f64 = 0.75;

/// English function words, which say nothing about what a tool does.
const STOP_WORDS: [&str; 48] = [
    "a", "about", "all", "an", "and", "any", "are", "as", "at", "be", "by", "can", "do", "does",
    "for", "from", "how", "i", "in", "into", "is", "it", "its", "me", "my", "of", "on", "or",
    "our", "per", "so", "than", "that", "the", "their", "them", "then", "this", "to", "us", "we",
    "what", "which", "who", "with", "you", "your", "yours",
];

/// What a tool is found by.
#[derive(Clone, Copy, Debug)]
pub struct Searchable<'a> {
    /// The tool's name.
    pub name: &'a str,
    /// Its title, if any.
    pub title: Option<&'a str>,
    /// Its description, if any.
    pub description: Option<&'a str>,
    /// Its input schema: the names and descriptions of its parameters.
    pub input_schema: &'a Value,
    /// Its toolset, if any.
    pub toolset: Option<&'a str>,
    /// Its search hint, if any.
    pub search_hint: Option<&'a str>,
}

impl<'a> Searchable<'a> {
    /// What a model reads of a tool in its descriptor (as `tools/list`
    /// serves it), and its toolset.
    pub fn of_descriptor(descriptor: &'a Value, toolset: Option<&'a str>) -> Searchable<'a> {
        static NO_SCHEMA: Value = Value::Null;
        let text = |key: &str| descriptor.get(key).and_then(Value::as_str);
        Searchable {
            name: text("name").unwrap_or_default(),
            title: text("title"),
            description: text("description"),
            input_schema: descriptor.get("inputSchema").unwrap_or(&NO_SCHEMA),
            toolset,
            search_hint: descriptor
                .get("_meta")
                .and_then(|meta| meta.get(crate::search_hint::KEY))
                .and_then(Value::as_str),
        }
    }

    /// The tool's words, in the order its texts give them.
    pub fn words(&self) -> Vec<String> {
        let mut out = words(self.name);
        for text in [self.title, self.description, self.toolset, self.search_hint]
            .into_iter()
            .flatten()
        {
            out.extend(words(text));
        }
        if let Some(properties) = self
            .input_schema
            .get("properties")
            .and_then(Value::as_object)
        {
            for (name, schema) in properties {
                out.extend(words(name));
                if let Some(description) = schema.get("description").and_then(Value::as_str) {
                    out.extend(words(description));
                }
            }
        }
        out
    }
}

/// The words of `text` a search compares.
pub fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut previous_lower = false;
    for c in text.chars() {
        if !c.is_alphanumeric() {
            push(&mut out, &mut word);
            previous_lower = false;
            continue;
        }
        if c.is_uppercase() && previous_lower {
            push(&mut out, &mut word);
        }
        previous_lower = c.is_lowercase() || c.is_numeric();
        word.extend(c.to_lowercase());
    }
    push(&mut out, &mut word);
    out
}

fn push(out: &mut Vec<String>, word: &mut String) {
    if word.chars().nth(1).is_some() && !STOP_WORDS.contains(&word.as_str()) {
        out.push(stem(word));
    }
    word.clear();
}

/// `word` without a plural or verb ending and a final `e`.
fn stem(word: &str) -> String {
    let long_enough = |rest: &str| rest.chars().count() >= 3;
    let mut stem = word;
    if let Some(rest) = stem.strip_suffix("ies").filter(|r| long_enough(r)) {
        return format!("{rest}y");
    }
    for ending in ["ing", "ed", "es", "s"] {
        if let Some(rest) = stem.strip_suffix(ending).filter(|r| long_enough(r)) {
            if ending == "s" && (rest.ends_with('s') || rest.ends_with('u') || rest.ends_with('i'))
            {
                break;
            }
            stem = rest;
            break;
        }
    }
    match stem.strip_suffix('e').filter(|r| r.chars().count() >= 3) {
        Some(rest) => rest.to_owned(),
        None => stem.to_owned(),
    }
}

/// A word's postings: each tool that has it (its position among the
/// indexed tools) and how many times.
pub type Postings<'a> = &'a [(u16, u16)];

/// An index of tools' words: every word, in byte order, with its postings,
/// and each tool's number of words. The build bakes it as static data; see
/// [`IndexBuilder`] for one built in memory.
#[derive(Clone, Copy, Debug)]
pub struct Index<'a> {
    /// Every word with its postings, sorted by word.
    pub words: &'a [(&'a str, Postings<'a>)],
    /// Each tool's number of words, by position.
    pub lengths: &'a [u16],
}

impl Index<'_> {
    /// Each tool's words as indexed, by position (in word order, not the
    /// order of its texts): what an index over more tools starts from.
    pub fn documents(&self) -> Vec<Vec<String>> {
        let mut documents = vec![Vec::new(); self.lengths.len()];
        for &(word, postings) in self.words {
            for &(tool, count) in postings {
                if let Some(document) = documents.get_mut(usize::from(tool)) {
                    document.extend(std::iter::repeat_n(word.to_owned(), usize::from(count)));
                }
            }
        }
        documents
    }

    /// The tools that match `query`, best first, among those `eligible`
    /// takes (by position), at most `limit`, each with its score. Ties are
    /// broken by position, so the answer does not depend on anything but
    /// the index and the query.
    pub fn rank(
        &self,
        query: &str,
        limit: usize,
        eligible: impl Fn(usize) -> bool,
    ) -> Vec<(usize, f64)> {
        let tools = self.lengths.len();
        if tools == 0 || limit == 0 {
            return Vec::new();
        }
        let average = self.lengths.iter().map(|&l| f64::from(l)).sum::<f64>() / tools as f64;
        let average = average.max(1.0);
        let mut scores = vec![0.0f64; tools];
        for word in words(query) {
            let Ok(at) = self
                .words
                .binary_search_by(|(w, _)| (*w).cmp(word.as_str()))
            else {
                continue;
            };
            let postings = self.words[at].1;
            let df = postings.len() as f64;
            let idf = ((tools as f64 - df + 0.5) / (df + 0.5) + 1.0).ln();
            for &(tool, count) in postings {
                let (tool, count) = (usize::from(tool), f64::from(count));
                let Some(&length) = self.lengths.get(tool) else {
                    continue;
                };
                let norm = K1 * (1.0 - B + B * f64::from(length) / average);
                scores[tool] += idf * count * (K1 + 1.0) / (count + norm);
            }
        }
        let mut found: Vec<(usize, f64)> = scores
            .into_iter()
            .enumerate()
            .filter(|&(tool, score)| score > 0.0 && eligible(tool))
            .collect();
        found.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        found.truncate(limit);
        found
    }
}

/// Why tools cannot be indexed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IndexError {
    /// More tools than an index can hold.
    TooManyTools(usize),
}

impl std::fmt::Display for IndexError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            IndexError::TooManyTools(n) => write!(
                f,
                "{n} tools cannot be indexed for search: an index holds at most {} tools; split them over several servers",
                u16::MAX
            ),
        }
    }
}

impl std::error::Error for IndexError {}

/// An index built from tools' words, in memory: what the build bakes, and
/// what the server ranks the table and the tools registered at run time
/// with, once there are such tools.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IndexBuilder {
    words: Vec<(String, Vec<(u16, u16)>)>,
    lengths: Vec<u16>,
}

impl IndexBuilder {
    /// Indexes the tools' words; a tool's position is its place in `tools`.
    pub fn new(tools: &[Vec<String>]) -> Result<IndexBuilder, IndexError> {
        if tools.len() > usize::from(u16::MAX) {
            return Err(IndexError::TooManyTools(tools.len()));
        }
        let mut postings: std::collections::BTreeMap<&str, Vec<(u16, u16)>> =
            std::collections::BTreeMap::new();
        let mut lengths = Vec::with_capacity(tools.len());
        for (position, words) in tools.iter().enumerate() {
            // Checked above: fewer than 65 536 tools.
            let position = position as u16;
            lengths.push(u16::try_from(words.len()).unwrap_or(u16::MAX));
            for word in words {
                let list = postings.entry(word.as_str()).or_default();
                match list.last_mut() {
                    Some((tool, count)) if *tool == position => *count = count.saturating_add(1),
                    _ => list.push((position, 1)),
                }
            }
        }
        Ok(IndexBuilder {
            words: postings
                .into_iter()
                .map(|(word, list)| (word.to_owned(), list))
                .collect(),
            lengths,
        })
    }

    /// Every word with its postings, sorted by word.
    pub fn words(&self) -> &[(String, Vec<(u16, u16)>)] {
        &self.words
    }

    /// Each tool's number of words, by position.
    pub fn lengths(&self) -> &[u16] {
        &self.lengths
    }

    /// [`Index::rank`] over this index.
    pub fn rank(
        &self,
        query: &str,
        limit: usize,
        eligible: impl Fn(usize) -> bool,
    ) -> Vec<(usize, f64)> {
        let words: Vec<(&str, Postings<'_>)> = self
            .words
            .iter()
            .map(|(word, postings)| (word.as_str(), postings.as_slice()))
            .collect();
        Index {
            words: &words,
            lengths: &self.lengths,
        }
        .rank(query, limit, eligible)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tool<'a>(name: &'a str, description: &'a str, schema: &'a Value) -> Searchable<'a> {
        Searchable {
            name,
            title: None,
            description: Some(description),
            input_schema: schema,
            toolset: None,
            search_hint: None,
        }
    }

    #[test]
    fn words_are_cut_at_punctuation_and_case_steps_lowercased_and_stemmed() {
        assert_eq!(words("list_issues"), ["list", "issu"]);
        assert_eq!(words("getIssueComments"), ["get", "issu", "comment"]);
        assert_eq!(
            words("Update the DNS records of a zone"),
            ["updat", "dns", "record", "zon"]
        );
        assert_eq!(words("updated updates updating update"), ["updat"; 4]);
        assert_eq!(words("policies policy"), ["policy", "policy"]);
        assert_eq!(
            words("status access analysis"),
            ["status", "access", "analysis"]
        );
        assert_eq!(words("x y 42 a VM v2"), ["42", "vm", "v2"]);
        assert_eq!(words("Ünïcode ÉTAT"), ["ünïcod", "état"]);
    }

    #[test]
    fn a_tools_words_come_from_every_text_a_model_reads_of_it() {
        let schema = json!({"type": "object", "properties": {
            "zoneId": {"type": "string", "description": "The hosted zone."},
            "ttl": {"type": "integer"},
        }});
        let searchable = Searchable {
            name: "dns_create_record",
            title: Some("Create record"),
            description: Some("Adds a DNS record."),
            input_schema: &schema,
            toolset: Some("networking"),
            search_hint: Some("cname alias"),
        };
        let found = searchable.words();
        for word in [
            "dns", "creat", "record", "add", "network", "cnam", "alia", "zon", "id", "host", "ttl",
        ] {
            assert!(found.iter().any(|w| w == word), "{word} in {found:?}");
        }
    }

    #[test]
    fn a_descriptor_gives_what_a_model_reads_of_the_tool() {
        let descriptor = json!({
            "name": "notes_search",
            "title": "Search notes",
            "description": "Find notes by text.",
            "inputSchema": {"type": "object", "properties": {"query": {"type": "string", "description": "Words."}}},
            "annotations": {"title": "ignored"},
            "_meta": {"anthropic/searchHint": "memo"},
        });
        let searchable = Searchable::of_descriptor(&descriptor, Some("notes"));
        assert_eq!(
            searchable.words(),
            [
                "not", "search", "search", "not", "find", "not", "text", "not", "memo", "query",
                "word"
            ]
        );
        let bare = json!({"name": "ping"});
        assert_eq!(Searchable::of_descriptor(&bare, None).words(), ["ping"]);
    }

    #[test]
    fn the_tool_whose_words_a_query_shares_most_rarely_comes_first() {
        let empty = json!({"type": "object", "properties": {}});
        let tools: Vec<Vec<String>> = [
            tool("list_issues", "List the issues of a repository.", &empty),
            tool(
                "list_pull_requests",
                "List the pull requests of a repository.",
                &empty,
            ),
            tool(
                "dns_list_records",
                "List the records of a DNS zone.",
                &empty,
            ),
        ]
        .iter()
        .map(Searchable::words)
        .collect();
        let index = IndexBuilder::new(&tools).unwrap();
        let ranked = index.rank("which pull requests are open", 10, |_| true);
        assert_eq!(ranked.first().map(|r| r.0), Some(1), "{ranked:?}");
        let ranked = index.rank("list dns records", 10, |_| true);
        assert_eq!(ranked.iter().map(|r| r.0).collect::<Vec<_>>(), [2, 0, 1]);
        assert!(ranked[0].1 > ranked[1].1 && ranked[1].1 >= ranked[2].1);
    }

    #[test]
    fn a_tool_not_eligible_is_never_found_and_the_limit_holds() {
        let empty = json!({});
        let tools: Vec<Vec<String>> = (0..5)
            .map(|i| {
                tool(
                    "report",
                    if i == 2 {
                        "report report report"
                    } else {
                        "report"
                    },
                    &empty,
                )
                .words()
            })
            .collect();
        let index = IndexBuilder::new(&tools).unwrap();
        let all: Vec<usize> = index
            .rank("report", 10, |_| true)
            .iter()
            .map(|r| r.0)
            .collect();
        assert_eq!(all, [2, 0, 1, 3, 4], "the strongest first, ties in order");
        let some: Vec<usize> = index
            .rank("report", 2, |t| t != 2)
            .iter()
            .map(|r| r.0)
            .collect();
        assert_eq!(some, [0, 1]);
        assert!(index.rank("nothing shared", 10, |_| true).is_empty());
        assert!(index.rank("", 10, |_| true).is_empty());
        assert!(index.rank("report", 0, |_| true).is_empty());
    }

    #[test]
    fn an_index_gives_back_the_words_it_was_built_from() {
        let tools = vec![
            words("list dns records"),
            Vec::new(),
            words("dns zones, dns"),
        ];
        let built = IndexBuilder::new(&tools).unwrap();
        let words: Vec<(&str, Postings<'_>)> = built
            .words()
            .iter()
            .map(|(w, p)| (w.as_str(), p.as_slice()))
            .collect();
        let index = Index {
            words: &words,
            lengths: built.lengths(),
        };
        let mut documents = index.documents();
        for document in &mut documents {
            document.sort();
        }
        let mut expected = tools;
        for document in &mut expected {
            document.sort();
        }
        assert_eq!(documents, expected);
        assert_eq!(IndexBuilder::new(&index.documents()).unwrap(), built);
    }

    #[test]
    fn an_empty_index_finds_nothing() {
        let index = IndexBuilder::new(&[]).unwrap();
        assert!(index.rank("anything", 10, |_| true).is_empty());
        assert!(index.words().is_empty() && index.lengths().is_empty());
    }

    #[test]
    fn more_tools_than_an_index_holds_are_refused_saying_so() {
        let tools = vec![Vec::new(); 70_000];
        let error = IndexBuilder::new(&tools).unwrap_err();
        assert_eq!(error, IndexError::TooManyTools(70_000));
        assert!(error.to_string().contains("at most 65535 tools"), "{error}");
    }
}
