//! The harness's output: one `metric<TAB>value` line per measurement.
//!
//! The report generator (`tooltable-bench report`) reads these files from
//! every repeated run and computes the ratios, so a line's metric name is
//! the contract between the two. Times are nanoseconds per operation;
//! sizes are bytes; counts are plain numbers.

use std::io::Write as _;

/// Where the measurements go: standard output, and a file when asked.
pub struct Results {
    file: Option<std::fs::File>,
}

impl Results {
    /// Writes to standard output, and to `path` when given (truncated first).
    pub fn new(path: Option<&str>) -> Result<Results, String> {
        let file = match path {
            Some(path) => Some(
                std::fs::File::create(path)
                    .map_err(|e| format!("cannot create the results file {path}: {e}"))?,
            ),
            None => None,
        };
        Ok(Results { file })
    }

    /// Records one measurement.
    pub fn record(&mut self, metric: &str, value: f64) {
        let line = format!("{metric}\t{value:.1}");
        println!("{line}");
        if let Some(file) = &mut self.file
            && let Err(e) = writeln!(file, "{line}")
        {
            eprintln!("cannot append to the results file: {e}");
            std::process::exit(2);
        }
    }
}
