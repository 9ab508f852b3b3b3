//! The connection loop of `muster serve`, bounded: at most
//! [`Limits::max_connections`] connections at once (the next waits in the
//! kernel's queue), a request's header must arrive whole within
//! [`Limits::header_timeout`] and fit in [`Limits::max_header`] bytes, an
//! idle connection is closed after the same time, and an `accept` that
//! fails (EMFILE: no file descriptor left; ENOBUFS) backs off and tries
//! again, never ending the server. The runtime runs on every core.

use axum::Router;
use axum::extract::ConnectInfo;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tower::ServiceExt as _;

/// The limits of a server: the connection loop's and the application's.
#[derive(Debug, Clone)]
pub struct Limits {
    /// Connections served at once; capped by the process's file limit.
    pub max_connections: usize,
    /// A request's header, and an idle connection's next request, must
    /// arrive within this.
    pub header_timeout: Duration,
    /// A request's body must arrive within this.
    pub body_timeout: Duration,
    /// The largest request header, in bytes.
    pub max_header: usize,
    /// Checks running at once (each is a check of a roster: a page, a
    /// click, a download); more wait for a turn, briefly.
    pub max_checks: usize,
    /// Checks (pages with a roster, clicks, downloads) a client may ask for
    /// in a minute, and submissions (and organiser log-ins); 0: no limit.
    pub checks_per_minute: u32,
    pub submissions_per_minute: u32,
    /// Submissions the inbox holds at most (each costs a few hundred
    /// bytes of memory for its summary).
    pub max_submissions: usize,
}

impl Default for Limits {
    fn default() -> Self {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        Limits {
            max_connections: 1024,
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(20),
            max_header: 16 * 1024,
            max_checks: cores * 2,
            checks_per_minute: 600,
            submissions_per_minute: 10,
            max_submissions: 5000,
        }
    }
}

/// The address the connection came from, for rate limits (a reverse
/// proxy's own unless the server is told to trust its headers).
#[derive(Debug, Clone, Copy)]
pub struct Peer(pub SocketAddr);

/// Serves `router` on `listener` with `limits` until the process ends,
/// on a runtime with a worker thread per core.
pub fn serve(listener: std::net::TcpListener, router: Router, limits: &Limits) -> std::io::Result<()> {
    listener.set_nonblocking(true)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("muster-serve")
        .build()?;
    let max = limits.max_connections.min(connection_room()).max(1);
    let limits = limits.clone();
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::from_std(listener)?;
        accept_loop(listener, router, max, &limits).await;
        Ok(())
    })
}

/// How many connections the process's open-file limit leaves room for
/// (raised to its hard limit first), keeping 64 (or a quarter of a small
/// limit) for files and the rest.
fn connection_room() -> usize {
    #[cfg(unix)]
    {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit and setrlimit only read and write `limit`.
        unsafe {
            if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 {
                return usize::MAX;
            }
            if limit.rlim_cur < limit.rlim_max {
                let raised = libc::rlimit {
                    rlim_cur: limit.rlim_max.min(65_536),
                    rlim_max: limit.rlim_max,
                };
                if raised.rlim_cur > limit.rlim_cur && libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                    limit = raised;
                }
            }
        }
        let files = usize::try_from(limit.rlim_cur).unwrap_or(usize::MAX);
        files.saturating_sub((files / 4).min(64))
    }
    #[cfg(not(unix))]
    {
        usize::MAX
    }
}

async fn accept_loop(listener: tokio::net::TcpListener, router: Router, max: usize, limits: &Limits) {
    let slots = Arc::new(tokio::sync::Semaphore::new(max));
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .max_buf_size(limits.max_header.max(8192))
        .keep_alive(true);
    let mut pause = Duration::from_millis(5);
    loop {
        let Ok(slot) = slots.clone().acquire_owned().await else {
            return;
        };
        let (stream, peer) = match listener.accept().await {
            Ok(accepted) => {
                pause = Duration::from_millis(5);
                accepted
            }
            Err(e) => {
                if !is_connection_error(&e) {
                    // Out of file descriptors or buffers: wait for some to
                    // be freed, longer each time, up to a second.
                    tokio::time::sleep(pause).await;
                    pause = (pause * 2).min(Duration::from_secs(1));
                }
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let router = router.clone();
        let http = http.clone();
        tokio::spawn(async move {
            let service =
                hyper::service::service_fn(move |mut request: hyper::Request<hyper::body::Incoming>| {
                    request.extensions_mut().insert(Peer(peer));
                    request.extensions_mut().insert(ConnectInfo(peer));
                    router.clone().oneshot(request.map(axum::body::Body::new))
                });
            let _ = http.serve_connection(TokioIo::new(stream), service).await;
            drop(slot);
        });
    }
}

fn is_connection_error(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        std::io::ErrorKind::ConnectionRefused
            | std::io::ErrorKind::ConnectionAborted
            | std::io::ErrorKind::ConnectionReset
            | std::io::ErrorKind::Interrupted
            | std::io::ErrorKind::WouldBlock
    )
}
