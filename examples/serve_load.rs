//! How fast, and how bounded, `muster serve` is. One command, loopback
//! only, stops by itself:
//!
//! `cargo run --release --example serve_load -- [SECONDS] [BUSY] [IDLE] [SUBMISSIONS]`
//! (defaults 8, 16, 1000 and 1000).
//!
//! 1. Server time of one click on a 5,000-point army (`benches/serve-5000.txt`)
//!    through the router in process: percentiles.
//! 2. The server on 127.0.0.1 (a worker thread per core), IDLE connections
//!    opened and left idle, and BUSY clients each checking the 5,000-point
//!    army over and over on a kept-alive connection for SECONDS: latency
//!    percentiles (client side, request to last byte), requests per second,
//!    the process's memory sampled throughout, and every failed request
//!    counted (the run fails if there is one).
//! 3. SUBMISSIONS rosters submitted by BUSY clients, then the organiser's
//!    page read: memory after each quarter, and the page's time, which read
//!    stored summaries and so stay flat whatever the number.
//!
//! The per-client rate limits are off here (every client is 127.0.0.1);
//! `tests/it/serve_inbox.rs` tests them.

use axum::body::Body;
use axum::http::{Request, header};
use muster::catalogue::load_embedded;
use muster::serve::{Config, Limits, Site, app, view::urlencode};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use tower::ServiceExt;

const KEY: &str = "serve-load-organiser-key";

fn percentiles(label: &str, mut times: Vec<Duration>) -> Duration {
    times.sort();
    if times.is_empty() {
        println!("{label}: no requests");
        return Duration::ZERO;
    }
    let at = |p: f64| times[((times.len() as f64 - 1.0) * p).round() as usize];
    println!(
        "{label}: n={} p50={:.2?} p90={:.2?} p99={:.2?} max={:.2?}",
        times.len(),
        at(0.5),
        at(0.9),
        at(0.99),
        at(1.0)
    );
    at(0.99)
}

/// The process's resident memory, in MiB (Linux).
fn rss_mib() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.split_whitespace().next()?.parse::<f64>().ok())
        })
        .map_or(f64::NAN, |kib| kib / 1024.0)
}

/// One request on a kept-alive connection; the status and the body.
fn exchange(reader: &mut BufReader<TcpStream>, request: &[u8]) -> std::io::Result<(u16, Vec<u8>)> {
    reader.get_mut().write_all(request)?;
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let status = line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let mut length = 0usize;
    loop {
        line.clear();
        if reader.read_line(&mut line)? == 0 {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        let l = line.trim_end();
        if l.is_empty() {
            break;
        }
        if let Some((k, v)) = l.split_once(':') {
            if k.eq_ignore_ascii_case("content-length") {
                length = v.trim().parse().unwrap_or(0);
            }
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body)?;
    Ok((status, body))
}

fn connect(address: SocketAddr) -> std::io::Result<BufReader<TcpStream>> {
    let stream = TcpStream::connect(address)?;
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    stream.set_nodelay(true)?;
    Ok(BufReader::new(stream))
}

fn post(address: SocketAddr, path: &str, body: &str, extra: &str) -> Vec<u8> {
    format!(
        "POST {path} HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/x-www-form-urlencoded\r\n{extra}Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mut number = |default: usize| args.next().and_then(|a| a.parse().ok()).unwrap_or(default);
    let (seconds, busy, idle, submissions) = (number(8) as u64, number(16), number(1000), number(1000));
    let catalogue: &'static _ = Box::leak(Box::new(load_embedded().catalogue));
    let roster = include_str!("../benches/serve-5000.txt");
    let list = catalogue.list("codex-astartes").expect("the list");
    let rhinos = list
        .upgrades
        .iter()
        .position(|u| u.name == "Rhinos")
        .expect("Rhinos");
    let inbox = tempfile::tempdir().expect("a temporary inbox");
    let event_path = inbox.path().join("event.yaml");
    std::fs::write(&event_path, "name: Load Test\ngame: netea\npoints: 5000\n").expect("event");
    let event_text = std::fs::read_to_string(&event_path).expect("event");
    let event = muster::event::load(
        muster::source::SourceFile::new("event.yaml", event_text),
        catalogue,
    )
    .expect("the event loads");
    let submissions_dir = inbox.path().join("submissions");
    std::fs::create_dir_all(&submissions_dir).expect("dir");
    let limits = Limits {
        checks_per_minute: 0,
        submissions_per_minute: 0,
        max_connections: idle + busy + 64,
        max_submissions: submissions + 100,
        ..Limits::default()
    };
    let router = app(
        Config {
            catalogue,
            event: Some(event),
            submissions: Some(submissions_dir),
            local_only: true,
        },
        Site {
            organiser_key: Some(KEY.into()),
            limits: limits.clone(),
            ..Site::default()
        },
    )
    .expect("the app");

    // 1. Server time per click, in process.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
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
                let response = router.clone().oneshot(request).await.expect("infallible");
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

    // 2. Idle connections and busy clients on loopback.
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let address = listener.local_addr().expect("address");
    std::thread::spawn(move || muster::serve::run_with(listener, router, &limits));
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    println!("server on {address}, {cores} worker threads (one per core)");
    let mut held = Vec::new();
    for _ in 0..idle {
        match TcpStream::connect(address) {
            Ok(s) => held.push(s),
            Err(e) => {
                println!("could not open idle connection {}: {e}", held.len() + 1);
                break;
            }
        }
    }
    println!("{} idle connections open", held.len());
    let check = post(
        address,
        "/",
        &format!("roster={}&op=check", urlencode(roster)),
        "X-Muster-Fragment: 1\r\n",
    );
    let stop = Arc::new(AtomicBool::new(false));
    let sampler = {
        let stop = stop.clone();
        std::thread::spawn(move || {
            let mut samples = Vec::new();
            while !stop.load(Ordering::Relaxed) {
                samples.push(rss_mib());
                std::thread::sleep(Duration::from_millis(250));
            }
            samples
        })
    };
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let started = Instant::now();
    let workers: Vec<_> = (0..busy)
        .map(|_| {
            let check = check.clone();
            std::thread::spawn(move || {
                let (mut times, mut failures) = (Vec::new(), 0usize);
                let mut conn = None;
                while Instant::now() < deadline {
                    let start = Instant::now();
                    if conn.is_none() {
                        conn = connect(address).ok();
                    }
                    let ok = conn.as_mut().is_some_and(|c| {
                        exchange(c, &check)
                            .is_ok_and(|(s, body)| s == 200 && body.starts_with(b"<form id=\"builder\""))
                    });
                    if ok {
                        times.push(start.elapsed());
                    } else {
                        failures += 1;
                        conn = None;
                    }
                }
                (times, failures)
            })
        })
        .collect();
    let (mut times, mut failures) = (Vec::new(), 0);
    for w in workers {
        let (t, f) = w.join().expect("client thread");
        times.extend(t);
        failures += f;
    }
    let elapsed = started.elapsed();
    stop.store(true, Ordering::Relaxed);
    let samples = sampler.join().expect("sampler");
    println!(
        "load: {busy} busy clients + {} idle connections for {seconds} s: {} checks ({:.0}/s), {failures} failed",
        held.len(),
        times.len(),
        times.len() as f64 / elapsed.as_secs_f64()
    );
    let p99 = percentiles("check of the 5,000-point army under load (client side)", times);
    let (low, high) = samples
        .iter()
        .fold((f64::MAX, 0f64), |(l, h), &s| (l.min(s), h.max(s)));
    let third = samples.len() / 3;
    let early = samples.get(third).copied().unwrap_or(f64::NAN);
    let late = samples.last().copied().unwrap_or(f64::NAN);
    println!(
        "memory (whole process) during the load: {low:.1}-{high:.1} MiB, {early:.1} MiB a third in, {late:.1} MiB at the end"
    );
    let still_open = held
        .iter()
        .filter(|s| {
            let mut stream: &TcpStream = s;
            stream.set_nonblocking(true).is_ok()
                && matches!(stream.read(&mut [0u8; 1]), Err(e) if e.kind() == std::io::ErrorKind::WouldBlock)
        })
        .count();
    println!(
        "idle connections the server still holds: {still_open} (it closes them after 10 s without a request)"
    );
    drop(held);

    // 3. Submissions, then the organiser's page.
    let roster_one =
        std::fs::read_to_string("examples/codex-astartes-3000.txt").unwrap_or_else(|_| roster.to_string());
    let mut submission_failures = 0;
    let quarter = (submissions / 4).max(1);
    let mut done = 0;
    while done < submissions {
        let batch = quarter.min(submissions - done);
        let per = batch.div_ceil(busy);
        let workers: Vec<_> = (0..busy)
            .map(|w| {
                let roster_one = roster_one.clone();
                std::thread::spawn(move || {
                    let mut failed = 0;
                    let Ok(mut c) = connect(address) else { return per };
                    for n in 0..per {
                        let id = done + w * per + n;
                        if w * per + n >= batch {
                            break;
                        }
                        let body = format!("player=Player+{id}&roster={}", urlencode(&roster_one));
                        let ok = exchange(&mut c, &post(address, "/submit", &body, ""))
                            .is_ok_and(|(s, _)| s == 303);
                        if !ok {
                            failed += 1;
                        }
                    }
                    failed
                })
            })
            .collect();
        for w in workers {
            submission_failures += w.join().expect("client");
        }
        done += batch;
        let mut page_times = Vec::new();
        let mut c = connect(address).expect("connect");
        let request =
            format!("GET /organiser HTTP/1.1\r\nHost: {address}\r\nAuthorization: Bearer {KEY}\r\n\r\n");
        for _ in 0..10 {
            let start = Instant::now();
            let (status, body) = exchange(&mut c, request.as_bytes()).expect("the organiser's page");
            assert_eq!(status, 200);
            assert!(
                body.windows(9).any(|w| w == b"Player 0<"),
                "the page lists the players"
            );
            page_times.push(start.elapsed());
        }
        page_times.sort();
        println!(
            "after {done} submissions: memory {:.1} MiB; organiser's page median {:.2?}",
            rss_mib(),
            page_times[page_times.len() / 2]
        );
    }
    println!("{submission_failures} submissions failed");
    println!(
        "targets: check p99 {p99:.2?} (issue 33: <= 5 ms; issue 35: <= 50 ms with {idle} idle connections)"
    );
    if failures > 0 || submission_failures > 0 {
        std::process::exit(1);
    }
}
