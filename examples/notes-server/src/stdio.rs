//! Stdio: rmcp's transport behind a line guard.
//!
//! rmcp drops a line that is not JSON, or longer than the limit, without an
//! answer, so a client waits forever for a response. The MCP specification
//! wants a JSON-RPC error for both (`-32700` parse error, `-32600` invalid
//! request). This guard reads stdin line by line, answers those two cases
//! itself, and passes every other line to rmcp through an in-process pipe;
//! it is also the only writer to stdout, so answers never interleave.

use tokio::io::{
    AsyncBufReadExt, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader, DuplexStream,
};

/// How large the in-process pipe between the guard and rmcp is.
const PIPE_BYTES: usize = 1 << 20;

fn error_line(code: i64, message: &str) -> Vec<u8> {
    let mut line = serde_json::json!({"jsonrpc": "2.0", "id": null, "error": {"code": code, "message": message}})
        .to_string()
        .into_bytes();
    line.push(b'\n');
    line
}

/// Starts the guard between the process's stdin/stdout and the returned
/// pipe end, which rmcp serves. Returns when the pipe is set up; the guard
/// runs until stdin closes.
pub fn guard(max_line_bytes: usize) -> DuplexStream {
    let (rmcp_side, guard_side) = tokio::io::duplex(PIPE_BYTES);
    let (mut from_rmcp, mut to_rmcp) = tokio::io::split(guard_side);
    let (errors_tx, mut errors_rx) = tokio::sync::mpsc::unbounded_channel::<Vec<u8>>();
    tokio::spawn(async move {
        let mut stdout = tokio::io::stdout();
        let mut buffer = vec![0u8; 64 * 1024];
        loop {
            tokio::select! {
                read = from_rmcp.read(&mut buffer) => match read {
                    Ok(0) | Err(_) => break,
                    Ok(n) => if write_all(&mut stdout, &buffer[..n]).await.is_err() { break },
                },
                Some(line) = errors_rx.recv() => if write_all(&mut stdout, &line).await.is_err() { break },
            }
        }
    });
    tokio::spawn(async move {
        let mut stdin = BufReader::new(tokio::io::stdin());
        let mut line = Vec::new();
        loop {
            line.clear();
            match read_bounded_line(&mut stdin, &mut line, max_line_bytes).await {
                Ok(Line::Eof) | Err(_) => break,
                Ok(Line::TooLong) => {
                    tracing::warn!(
                        max_line_bytes,
                        "a request was larger than the limit and was refused"
                    );
                    let message = format!(
                        "Invalid request: larger than this server's limit of {max_line_bytes} bytes"
                    );
                    let _ = errors_tx.send(error_line(-32600, &message));
                }
                Ok(Line::Complete) => {
                    let text = line.trim_ascii();
                    if text.is_empty() {
                        continue;
                    }
                    if let Err(error) = serde_json::from_slice::<serde::de::IgnoredAny>(text) {
                        let _ = errors_tx.send(error_line(
                            -32700,
                            &format!("Parse error: the line is not JSON: {error}"),
                        ));
                        continue;
                    }
                    if to_rmcp.write_all(&line).await.is_err() || to_rmcp.flush().await.is_err() {
                        break;
                    }
                }
            }
        }
        let _ = to_rmcp.shutdown().await;
    });
    rmcp_side
}

async fn write_all<W: AsyncWrite + Unpin>(out: &mut W, bytes: &[u8]) -> std::io::Result<()> {
    out.write_all(bytes).await?;
    out.flush().await
}

enum Line {
    Complete,
    TooLong,
    Eof,
}

/// Reads one line into `line` (with its newline), never holding more than
/// `max` bytes: a longer line is consumed and reported as too long.
async fn read_bounded_line<R: tokio::io::AsyncBufRead + Unpin>(
    reader: &mut R,
    line: &mut Vec<u8>,
    max: usize,
) -> std::io::Result<Line> {
    let mut too_long = false;
    loop {
        let available = reader.fill_buf().await?;
        if available.is_empty() {
            return Ok(if line.is_empty() && !too_long {
                Line::Eof
            } else if too_long {
                Line::TooLong
            } else {
                Line::Complete
            });
        }
        let (chunk, done) = match available.iter().position(|b| *b == b'\n') {
            Some(end) => (&available[..=end], true),
            None => (available, false),
        };
        let taken = chunk.len();
        if !too_long && line.len() + taken > max + 1 {
            too_long = true;
            line.clear();
        }
        if !too_long {
            line.extend_from_slice(chunk);
        }
        reader.consume(taken);
        if done {
            return Ok(if too_long {
                Line::TooLong
            } else {
                Line::Complete
            });
        }
    }
}
