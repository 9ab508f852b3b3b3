//! `muster serve` as a process: killed with SIGKILL in the middle of
//! submissions, a restart shows every submission it acknowledged; a flood
//! of connections beyond its open-file limit does not end it.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const KEY: &str = "process-test-organiser-key";

struct Server {
    child: Child,
    address: SocketAddr,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `muster serve` on a free loopback port with `args`; waits for
/// its address.
fn start(args: &[&str], setup: impl FnOnce(&mut Command)) -> Server {
    let mut command = Command::new(env!("CARGO_BIN_EXE_muster"));
    command
        .args(["serve", "--listen", "127.0.0.1:0"])
        .args(args)
        .env_remove("MUSTER_ORGANISER_KEY")
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    setup(&mut command);
    let mut child = command.spawn().expect("muster serve starts");
    let stderr = child.stderr.take().expect("stderr");
    let mut lines = BufReader::new(stderr).lines();
    let address = loop {
        let line = lines
            .next()
            .expect("muster serve says where it listens")
            .expect("a line");
        if let Some(rest) = line.split_once("the builder is at http://").map(|(_, r)| r) {
            break rest.trim_end_matches('/').parse().expect("an address");
        }
    };
    // Keep reading its standard error so it never blocks on a full pipe.
    std::thread::spawn(move || lines.for_each(drop));
    Server { child, address }
}

/// One request on a new connection; the status line and headers, and the
/// body.
fn request(address: SocketAddr, raw: &str) -> std::io::Result<(String, String)> {
    let mut stream = TcpStream::connect(address)?;
    stream.set_read_timeout(Some(Duration::from_secs(20)))?;
    stream.write_all(raw.as_bytes())?;
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer)?;
    let answer = String::from_utf8_lossy(&answer).into_owned();
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    Ok((head.to_string(), body.to_string()))
}

fn submit(address: SocketAddr, player: &str, roster: &str) -> std::io::Result<Option<String>> {
    let body = format!(
        "player={}&roster={}",
        muster::serve::view::urlencode(player),
        muster::serve::view::urlencode(roster)
    );
    let (head, _) = request(
        address,
        &format!(
            "POST /submit HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        ),
    )?;
    if !head.starts_with("HTTP/1.1 303") {
        return Ok(None);
    }
    Ok(head
        .lines()
        .find_map(|l| {
            l.to_ascii_lowercase()
                .strip_prefix("location: /mine/")
                .map(str::to_string)
        })
        .and_then(|rest| rest.split('?').next().map(str::to_string)))
}

fn get(address: SocketAddr, path: &str, extra: &str) -> (String, String) {
    request(
        address,
        &format!("GET {path} HTTP/1.1\r\nHost: {address}\r\n{extra}Connection: close\r\n\r\n"),
    )
    .expect("an answer")
}

#[test]
fn a_kill_9_during_submissions_loses_nothing_acknowledged() {
    let dir = tempfile::tempdir().expect("dir");
    let inbox = dir.path().display().to_string();
    let args = [
        "--event",
        "tests/events/club-3000.yaml",
        "--submissions",
        &inbox,
        "--organiser-key",
        KEY,
        "--submissions-per-minute",
        "0",
    ];
    let mut server = start(&args, |_| {});
    let roster = std::fs::read_to_string("examples/codex-astartes-3000.txt").expect("example");
    let acknowledged: Arc<Mutex<Vec<(String, String)>>> = Arc::default();
    let address = server.address;
    let clients: Vec<_> = (0..4)
        .map(|c| {
            let (acknowledged, roster) = (acknowledged.clone(), roster.clone());
            std::thread::spawn(move || {
                for n in 0.. {
                    let player = format!("Player {c}-{n}");
                    match submit(address, &player, &roster) {
                        Ok(Some(token)) => acknowledged
                            .lock()
                            .unwrap_or_else(std::sync::PoisonError::into_inner)
                            .push((token, player)),
                        _ => return,
                    }
                }
            })
        })
        .collect();
    let deadline = Instant::now() + Duration::from_secs(60);
    while acknowledged.lock().map_or(0, |a| a.len()) < 24 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    // SIGKILL, while the clients are still submitting.
    server.child.kill().expect("kill -9");
    server.child.wait().expect("ended");
    for c in clients {
        c.join().expect("client");
    }
    let acknowledged = acknowledged.lock().expect("acks").clone();
    assert!(acknowledged.len() >= 24, "{}", acknowledged.len());

    let again = start(&args, |_| {});
    let (head, page) = get(
        again.address,
        "/organiser",
        &format!("Authorization: Bearer {KEY}\r\n"),
    );
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    for (token, player) in &acknowledged {
        let (head, mine) = get(again.address, &format!("/mine/{token}"), "");
        assert!(head.starts_with("HTTP/1.1 200"), "{player}: {head}");
        assert!(mine.contains(player.as_str()), "{player}");
        assert!(
            page.contains(&format!(">{player}<")),
            "{player} is on the organiser's page"
        );
    }
}

#[cfg(unix)]
#[test]
fn a_flood_beyond_the_open_file_limit_does_not_end_the_server() {
    use std::os::unix::process::CommandExt as _;
    let mut server = start(&[], |command| {
        // SAFETY: setrlimit only, between fork and exec.
        unsafe {
            command.pre_exec(|| {
                let limit = libc::rlimit {
                    rlim_cur: 64,
                    rlim_max: 64,
                };
                if libc::setrlimit(libc::RLIMIT_NOFILE, &limit) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
    });
    let flood: Vec<TcpStream> = (0..150)
        .filter_map(|_| TcpStream::connect(server.address).ok())
        .collect();
    assert!(flood.len() > 64, "{}", flood.len());
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        server.child.try_wait().expect("status").is_none(),
        "the server is still running"
    );
    drop(flood);
    let (head, _) = get(server.address, "/static/app.css", "");
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert!(server.child.try_wait().expect("status").is_none());
}
