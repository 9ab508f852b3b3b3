//! How fast `muster serve` answers, in two parts:
//!
//! 1. Server time of one click on a 5,000-point army (`benches/serve-5000.txt`):
//!    the request through the router in process (form decoding, the edit,
//!    two checks, the fragment rendered), many times, as percentiles.
//! 2. A bounded load test on the loopback address: CLIENTS players each
//!    posting a change and reading the fragment back, one after another,
//!    for SECONDS; latency percentiles, requests per second, and every
//!    failed request counted (the run fails if there is one).
//!
//! `cargo run --release --example serve_load -- [SECONDS] [CLIENTS]`
//! (defaults 10 and 32). Traffic goes only to 127.0.0.1.

use axum::body::Body;
use axum::http::{Request, header};
use muster::catalogue::load_embedded;
use muster::serve::{Config, router, view::urlencode};
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::time::{Duration, Instant};
use tower::ServiceExt;

fn percentiles(label: &str, mut times: Vec<Duration>) {
    times.sort();
    let at = |p: f64| times[((times.len() as f64 - 1.0) * p).round() as usize];
    println!(
        "{label}: n={} p50={:.2?} p90={:.2?} p99={:.2?} max={:.2?}",
        times.len(),
        at(0.5),
        at(0.9),
        at(0.99),
        at(1.0)
    );
}

fn main() {
    let mut args = std::env::args().skip(1);
    let seconds: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(10);
    let clients: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(32);
    let catalogue: &'static _ = Box::leak(Box::new(load_embedded().catalogue));
    let roster = include_str!("../benches/serve-5000.txt");
    let list = catalogue.list("codex-astartes").expect("the list");
    let rhinos = list
        .upgrades
        .iter()
        .position(|u| u.name == "Rhinos")
        .expect("Rhinos");
    let app = router(Config {
        catalogue,
        event: None,
        submissions: None,
        local_only: true,
    });

    // 1. Server time per click, in process.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("runtime");
    for (label, op) in [
        ("check (typing)", "check".to_string()),
        ("add an upgrade (click)", format!("inc:4:{rhinos}")),
        ("add a formation (click)", "add:0".to_string()),
    ] {
        let body = format!("roster={}&op={}", urlencode(roster), urlencode(&op));
        let mut times = Vec::new();
        for _ in 0..300 {
            let request = Request::post("/")
                .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
                .header("x-muster-fragment", "1")
                .body(Body::from(body.clone()))
                .expect("request");
            let start = Instant::now();
            let bytes = runtime.block_on(async {
                let response = app.clone().oneshot(request).await.expect("infallible");
                assert!(response.status().is_success());
                axum::body::to_bytes(response.into_body(), usize::MAX)
                    .await
                    .expect("body")
            });
            times.push(start.elapsed());
            assert!(bytes.starts_with(b"<form id=\"builder\""));
        }
        percentiles(&format!("server time, 5,000-point army, {label}"), times);
    }

    // 2. Load test on loopback.
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let address = listener.local_addr().expect("address");
    std::thread::spawn(move || muster::serve::run(listener, app));
    let body = format!(
        "roster={}&op={}",
        urlencode(roster),
        urlencode(&format!("inc:4:{rhinos}"))
    );
    let request = format!(
        "POST / HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/x-www-form-urlencoded\r\nX-Muster-Fragment: 1\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let started = Instant::now();
    let workers: Vec<_> = (0..clients)
        .map(|_| {
            let request = request.clone();
            std::thread::spawn(move || {
                let mut times = Vec::new();
                let mut failures = 0usize;
                while Instant::now() < deadline {
                    let start = Instant::now();
                    let ok = (|| -> std::io::Result<bool> {
                        let mut stream = TcpStream::connect(address)?;
                        stream.set_read_timeout(Some(Duration::from_secs(10)))?;
                        stream.write_all(request.as_bytes())?;
                        let mut answer = Vec::new();
                        stream.read_to_end(&mut answer)?;
                        Ok(answer.starts_with(b"HTTP/1.1 200")
                            && answer.windows(18).any(|w| w == b"<form id=\"builder\""))
                    })()
                    .unwrap_or(false);
                    if ok {
                        times.push(start.elapsed());
                    } else {
                        failures += 1;
                    }
                }
                (times, failures)
            })
        })
        .collect();
    let mut times = Vec::new();
    let mut failures = 0;
    for w in workers {
        let (t, f) = w.join().expect("client thread");
        times.extend(t);
        failures += f;
    }
    let elapsed = started.elapsed();
    println!(
        "load test: {clients} clients for {seconds} s on {address}: {} requests ({:.0}/s), {failures} failed",
        times.len(),
        times.len() as f64 / elapsed.as_secs_f64()
    );
    percentiles("load test latency (client side, connect to last byte)", times);
    if failures > 0 {
        std::process::exit(1);
    }
}
