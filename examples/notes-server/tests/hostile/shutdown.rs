//! Shutdown with writes in progress on a database another process locked:
//! the work cannot be stopped (it waits on SQLite on the blocking pool, or
//! in a synchronous handler), so every answer cut off by the end of the
//! grace period says its outcome is unknown, never to send it again, and
//! comes when the grace period ends, even where the handler runs in place
//! on the worker that would write it.

use crate::harness::*;
use serde_json::json;
use std::time::{Duration, Instant};

both_mounts! {
    fn writes_cut_off_at_shutdown_are_answered_at_the_end_of_the_grace_period_as_of_unknown_outcome(mount: Mount) {
        let mut server = Server::http_on(mount, "cut-off", &["--shutdown-grace", "1"]);
        let lock = lock_database(&server.dir.0.join("notes.db"));
        let writers = four_writes(server.port);
        std::thread::sleep(Duration::from_millis(300));
        let stopping = Instant::now();
        server.terminate();
        for writer in writers {
            let answer = writer.join().unwrap();
            let took = stopping.elapsed();
            assert!(took < Duration::from_secs(4), "answered {took:?} after SIGTERM, with a grace period of 1 s");
            assert_eq!(answer.status, 503, "{}", answer.body);
            let message = answer.json()["error"]["message"].as_str().unwrap().to_owned();
            assert!(message.contains("whether it took effect is unknown"), "{message}");
            assert!(!message.contains("send it again"), "{message}");
        }
        drop(lock);
        let deadline = Instant::now() + Duration::from_secs(20);
        while server.child.try_wait().unwrap().is_none() {
            assert!(Instant::now() < deadline, "the server exits once its work ended");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

both_mounts! {
    fn a_request_sent_during_the_grace_period_is_answered_at_once_that_nothing_of_it_ran(mount: Mount) {
        let server = Server::http_on(mount, "during-grace", &["--shutdown-grace", "3"]);
        let port = server.port;
        let long = std::thread::spawn(move || {
            post_stateless(port, json!(1), "tools/call", json!({"name": "notes_watch", "arguments": {"seconds": 10}}))
        });
        std::thread::sleep(Duration::from_millis(300));
        server.terminate();
        std::thread::sleep(Duration::from_millis(300));
        let asked = Instant::now();
        let late = post_stateless(port, json!(2), "tools/call", json!({"name": "notes_stats"}));
        assert!(asked.elapsed() < Duration::from_secs(2), "answered in {:?}", asked.elapsed());
        assert_eq!(late.status, 503, "{}", late.body);
        let message = late.json()["error"]["message"].as_str().unwrap().to_owned();
        assert!(message.contains("nothing of this one ran"), "{message}");
        let cut = long.join().unwrap();
        assert_eq!(cut.status, 503, "{}", cut.body);
    }
}
