//! One build script run, several compilations of the crate.
//!
//! cargo runs a crate's build script once for `cargo build`, for the test
//! target of `cargo test` (which alone has `cfg(test)`) and for `cargo doc`
//! (where rustdoc sets `cfg(doc)` and decides `debug_assertions` its own
//! way), so the build script cannot know those cfgs ([`UNCERTAIN`]). A
//! tool (or a field, or a module) behind one of them would then be in the
//! table of one compilation and missing from another's, and the shim the
//! macro wrote for it would find no place in the table.
//!
//! So the crate is read once for each value of each uncertain cfg its
//! sources look at (usually none, or `test`), and the generated file holds
//! one table per distinct reading, each compiled only where its values
//! hold. A crate whose readings agree gets the one table it always got.

use crate::analysis::{Analysis, CfgEnv, analyze};
use crate::diagnostic::{self, Diagnostic};
use crate::scan::cfg::UNCERTAIN;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Values of the uncertain cfgs.
type Assignment = Vec<(&'static str, bool)>;

/// Every reading of the crate one build needs.
pub(crate) struct Build {
    /// Each reading, with the values of the uncertain cfgs it was read under.
    readings: Vec<(Assignment, Analysis)>,
}

/// Reads the crate in `crate_dir` for every value of the uncertain cfgs its
/// sources depend on, starting from `cfg` (cargo's).
pub(crate) fn read(crate_dir: &Path, cfg: &CfgEnv) -> Result<Build, Vec<Diagnostic>> {
    let first = analyze(crate_dir, cfg)?;
    let mut looked_at = cfg.asked_uncertain();
    if looked_at.is_empty() {
        return Ok(Build {
            readings: vec![(Vec::new(), first)],
        });
    }
    let mut first = Some(first);
    loop {
        let mut readings = Vec::new();
        let mut asked: BTreeSet<&'static str> = looked_at.iter().copied().collect();
        for assignment in assignments(&looked_at) {
            let env = cfg.with_names(&assignment);
            let analysis = match first.take() {
                Some(analysis) if env == *cfg => analysis,
                other => {
                    first = other;
                    analyze(crate_dir, &env)?
                }
            };
            asked.extend(env.asked_uncertain());
            readings.push((assignment, analysis));
        }
        // A reading under other values may look at a cfg the first did not
        // (`all(debug_assertions, test)` asks for `test` only in debug).
        if asked.len() == looked_at.len() {
            return Ok(Build { readings });
        }
        looked_at = UNCERTAIN
            .into_iter()
            .filter(|name| asked.contains(name))
            .collect();
        first = readings
            .into_iter()
            .find(|(assignment, _)| cfg.with_names(assignment) == *cfg)
            .map(|(_, analysis)| analysis);
    }
}

/// Every combination of values of `names`.
fn assignments(names: &[&'static str]) -> Vec<Assignment> {
    (0..1u32 << names.len())
        .map(|bits| {
            names
                .iter()
                .enumerate()
                .map(|(i, name)| (*name, bits & (1 << i) != 0))
                .collect()
        })
        .collect()
}

/// The predicate that holds exactly under one of `assignments`.
fn predicate(assignments: &[&Assignment]) -> String {
    let each: Vec<String> = assignments
        .iter()
        .map(|assignment| {
            let parts: Vec<String> = assignment
                .iter()
                .map(|(name, set)| {
                    if *set {
                        (*name).to_owned()
                    } else {
                        format!("not({name})")
                    }
                })
                .collect();
            format!("all({})", parts.join(", "))
        })
        .collect();
    format!("any({})", each.join(", "))
}

impl Build {
    /// The reading made under cargo's own cfgs (the one that agrees with
    /// what the build script was told).
    pub(crate) fn primary(&self, cfg: &CfgEnv) -> &Analysis {
        self.readings
            .iter()
            .find(|(assignment, _)| cfg.with_names(assignment) == *cfg)
            .map_or(&self.readings[0].1, |(_, analysis)| analysis)
    }

    /// The reading under exactly `env`, if the build made it.
    pub(crate) fn under(&self, cfg: &CfgEnv, env: &CfgEnv) -> Option<&Analysis> {
        self.readings
            .iter()
            .find(|(assignment, _)| cfg.with_names(assignment) == *env)
            .map(|(_, analysis)| analysis)
    }

    /// The generated file: one table when the readings agree, otherwise
    /// one per distinct reading, each under the values it holds for.
    pub(crate) fn table_source(&self) -> String {
        let mut distinct: Vec<(String, Vec<&Assignment>, &Analysis)> = Vec::new();
        for (assignment, analysis) in &self.readings {
            let source = analysis.table_source();
            match distinct.iter_mut().find(|(s, _, _)| *s == source) {
                Some((_, assignments, _)) => assignments.push(assignment),
                None => distinct.push((source, vec![assignment], analysis)),
            }
        }
        if let [(source, _, _)] = distinct.as_slice() {
            return source.clone();
        }
        distinct
            .iter()
            .map(|(_, assignments, analysis)| {
                analysis.table_source_under(Some(&predicate(assignments)))
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// Every problem of every reading, each once, sorted by place.
    pub(crate) fn diagnostics(&self) -> Vec<Diagnostic> {
        let mut all: Vec<Diagnostic> = self
            .readings
            .iter()
            .flat_map(|(_, analysis)| analysis.diagnostics().iter().cloned())
            .collect();
        all = diagnostic::sorted(all);
        all.dedup();
        all
    }

    /// Every source file any reading read.
    pub(crate) fn files_read(&self) -> BTreeSet<PathBuf> {
        self.readings
            .iter()
            .flat_map(|(_, analysis)| analysis.files_read().cloned())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_combination_of_values_is_read_and_named_by_its_predicate() {
        let all = assignments(&["debug_assertions", "test"]);
        assert_eq!(all.len(), 4);
        assert_eq!(
            predicate(&[&all[1], &all[3]]),
            "any(all(debug_assertions, not(test)), all(debug_assertions, test))"
        );
        assert_eq!(assignments(&[]), vec![Vec::new()]);
    }
}
