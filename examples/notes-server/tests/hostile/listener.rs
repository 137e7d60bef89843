//! The endpoint mounted in an application: what belongs to the listener
//! (how many connections, how long headers may take) is the application's
//! to apply, and notes-server's axum application applies both with hyper's
//! settings; the library refuses them rather than take them and do nothing.

use crate::harness::*;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

#[test]
fn connections_trickling_their_headers_are_held_to_the_limit_and_closed_at_the_deadline() {
    let server = Server::http_on(
        Mount::Axum,
        "trickle",
        &["--max-connections", "4", "--header-read-timeout", "2"],
    );
    let pid = server.child.id();
    let before = sockets(pid);
    let started = Instant::now();
    let trickling: Vec<_> = (0..12)
        .map(|_| {
            let port = server.port;
            std::thread::spawn(move || {
                let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
                stream
                    .set_read_timeout(Some(Duration::from_millis(200)))
                    .unwrap();
                // A byte of a request line every 200 ms, until the server
                // closes the connection.
                for byte in b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    .iter()
                    .cycle()
                    .take(200)
                {
                    if stream.write_all(&[*byte]).is_err() {
                        return Some(Instant::now());
                    }
                    let mut buffer = [0u8; 256];
                    match stream.read(&mut buffer) {
                        Ok(_) => return Some(Instant::now()),
                        Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => {
                            return Some(Instant::now());
                        }
                        Err(_) => {}
                    }
                }
                None
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(1000));
    let held = sockets(pid) - before;
    assert!(
        held <= 4,
        "the application holds {held} connections, over its limit of 4"
    );
    let closed: Vec<Option<Instant>> = trickling.into_iter().map(|t| t.join().unwrap()).collect();
    let first = closed
        .iter()
        .flatten()
        .map(|at| at.duration_since(started))
        .min()
        .expect("the header deadline closes trickling connections");
    assert!(
        first < Duration::from_secs(4),
        "the first connections were closed {first:?} after they began sending, with a deadline of 2 s"
    );
    assert!(
        closed.iter().all(Option::is_some),
        "every trickling connection was closed in its turn"
    );
}
