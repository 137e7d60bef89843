//! Timing: calibrated batches, samples interleaved across candidates, medians.
//!
//! Every comparison in the report is a ratio of two candidates measured in
//! the same process. Other builds share this machine, so a candidate's
//! samples are taken in turn with its rivals' (A, B, A, B, …): a burst of
//! load slows every candidate alike instead of one, and the ratio survives
//! it. Each sample runs a batch sized to last about `sample` so that timer
//! resolution and loop overhead vanish; the result is the median of the
//! per-iteration times.

use std::time::{Duration, Instant};

/// How long and how often to measure.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// Samples per candidate.
    pub samples: usize,
    /// Target duration of one sample.
    pub sample: Duration,
    /// Warm-up (and calibration) time per candidate.
    pub warmup: Duration,
}

impl Settings {
    /// For the full run: 21 samples of 50 ms.
    pub const FULL: Settings = Settings {
        samples: 21,
        sample: Duration::from_millis(50),
        warmup: Duration::from_millis(300),
    };

    /// For `--quick`: just enough to show that every benchmark runs.
    pub const QUICK: Settings = Settings {
        samples: 3,
        sample: Duration::from_millis(5),
        warmup: Duration::from_millis(20),
    };
}

/// A candidate: given a number of iterations, runs them and returns how long they took.
pub type Batch<'a> = Box<dyn FnMut(u64) -> Duration + 'a>;

/// A batch from a closure that does one iteration.
pub fn batch<'a, T>(mut f: impl FnMut() -> T + 'a) -> Batch<'a> {
    Box::new(move |iterations| {
        let start = Instant::now();
        for _ in 0..iterations {
            std::hint::black_box(f());
        }
        start.elapsed()
    })
}

/// A batch from an async closure that does one iteration, run on `runtime`
/// (one `block_on` per batch, so its cost is spread over the iterations).
pub fn batch_on<'a, F, T>(
    runtime: &'a tokio::runtime::Runtime,
    mut f: impl FnMut() -> F + 'a,
) -> Batch<'a>
where
    F: std::future::Future<Output = T>,
{
    Box::new(move |iterations| {
        runtime.block_on(async {
            let start = Instant::now();
            for _ in 0..iterations {
                std::hint::black_box(f().await);
            }
            start.elapsed()
        })
    })
}

/// Measures every candidate, interleaved, and returns each one's median
/// time per iteration in nanoseconds, in the order given.
pub fn compare(settings: Settings, candidates: &mut [Batch<'_>]) -> Vec<f64> {
    let sizes: Vec<u64> = candidates
        .iter_mut()
        .map(|run| calibrate(settings, run))
        .collect();
    let mut samples = vec![Vec::with_capacity(settings.samples); candidates.len()];
    for _ in 0..settings.samples {
        for (i, run) in candidates.iter_mut().enumerate() {
            let elapsed = run(sizes[i]);
            samples[i].push(elapsed.as_nanos() as f64 / sizes[i] as f64);
        }
    }
    samples.into_iter().map(median).collect()
}

/// Runs a candidate for the warm-up time, doubling the batch, and returns
/// the batch size that lasts about one sample.
fn calibrate(settings: Settings, run: &mut Batch<'_>) -> u64 {
    let started = Instant::now();
    let mut iterations = 1u64;
    let mut per_iteration;
    loop {
        let elapsed = run(iterations);
        per_iteration = elapsed.as_nanos().max(1) as f64 / iterations as f64;
        if started.elapsed() >= settings.warmup || elapsed >= settings.sample {
            break;
        }
        iterations = iterations.saturating_mul(2);
    }
    ((settings.sample.as_nanos() as f64 / per_iteration) as u64).max(1)
}

/// The median of some samples.
pub fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    if n == 0 {
        return f64::NAN;
    }
    if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    }
}
