//! What every request passes before a route sees it, and what every
//! answer carries: the `Host` it must name, cross-site posts refused, the
//! body read whole within its time and size, per-client rate limits with a
//! clear 429, a bounded number of checks at once, and the security headers.

use super::net::{Limits, Peer};
use axum::body::Body;
use axum::extract::Request;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};
use tokio::sync::Semaphore;

/// How the server is reached.
#[derive(Debug, Clone, Default)]
pub struct Site {
    /// The address players use (`https://muster.example.org`), when it is
    /// not the listening address: behind a reverse proxy. Links printed
    /// and shown use it, and a request must name its host.
    pub public_url: Option<String>,
    /// Take the client's address from the proxy's `X-Forwarded-For` (its
    /// last entry, the one the proxy added) for the rate limits. Only
    /// behind a proxy that sets it: otherwise a client could name any.
    pub trust_proxy: bool,
    /// The organiser's secret; `None` makes a random one (nobody then
    /// knows it unless it is read back from the router's config).
    pub organiser_key: Option<String>,
    pub limits: Limits,
}

impl Site {
    /// The public URL's `host[:port]`, lower case.
    pub fn public_host(&self) -> Option<String> {
        let url = self.public_url.as_deref()?;
        let rest = url.split_once("://").map_or(url, |(_, r)| r);
        let host = rest.split('/').next().unwrap_or(rest);
        (!host.is_empty()).then(|| host.to_ascii_lowercase())
    }

    /// Whether players reach the server over HTTPS (cookies get `Secure`).
    pub fn https(&self) -> bool {
        self.public_url
            .as_deref()
            .is_some_and(|u| u.to_ascii_lowercase().starts_with("https://"))
    }
}

/// Checks `public_url` as `--public-url` takes it: `http(s)://host[:port]`
/// with nothing after but an optional `/`.
pub fn parse_public_url(url: &str) -> Result<String, String> {
    let url = url.trim().trim_end_matches('/');
    let lower = url.to_ascii_lowercase();
    let Some(rest) = lower
        .strip_prefix("https://")
        .or_else(|| lower.strip_prefix("http://"))
    else {
        return Err(format!("`{url}` is not an http:// or https:// address"));
    };
    let valid = !rest.is_empty()
        && rest
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b':' | b'[' | b']'));
    if !valid {
        return Err(format!(
            "`{url}` must be only a scheme and a host (muster is served at the root of its address)"
        ));
    }
    Ok(url.to_string())
}

/// The names a server on loopback answers to.
fn is_loopback_name(name: &str) -> bool {
    matches!(name, "127.0.0.1" | "localhost" | "[::1]")
}

/// The host part of a `Host` header, without its port, lower case.
fn host_name(host: &str) -> String {
    let name = match host.rsplit_once(':') {
        Some((name, port)) if port.bytes().all(|b| b.is_ascii_digit()) && !name.ends_with(':') => name,
        _ => host,
    };
    name.to_ascii_lowercase()
}

/// Whether a request naming `host` is answered: with a public URL, its
/// host (or this machine's names, for the proxy and the organiser on it);
/// on loopback without one, this machine's names only (so a page whose
/// name an attacker points at 127.0.0.1 cannot use it: DNS rebinding);
/// otherwise any.
pub fn host_allowed(site: &Site, local_only: bool, host: Option<&str>) -> bool {
    let host = host.unwrap_or("127.0.0.1");
    let name = host_name(host);
    match site.public_host() {
        Some(public) => {
            host.eq_ignore_ascii_case(&public) || host_name(&public) == name || is_loopback_name(&name)
        }
        None if local_only => is_loopback_name(&name),
        None => true,
    }
}

/// A POST from another site: refused, so a page elsewhere cannot submit
/// or log in through a visitor's browser.
pub fn cross_site(headers: &HeaderMap) -> bool {
    if headers
        .get("sec-fetch-site")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v == "cross-site")
    {
        return true;
    }
    match (
        headers.get(header::ORIGIN).and_then(|v| v.to_str().ok()),
        headers.get(header::HOST).and_then(|v| v.to_str().ok()),
    ) {
        (Some("null"), _) => false,
        (Some(origin), Some(host)) => {
            let origin_host = origin.split_once("://").map_or(origin, |(_, rest)| rest);
            !origin_host.eq_ignore_ascii_case(host)
        }
        _ => false,
    }
}

/// A plain-text answer.
pub fn plain(status: StatusCode, message: &str) -> Response {
    let mut response = (status, format!("{message}\n")).into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response
}

/// The guard's state: the rate limits' buckets and the checks' turns.
pub struct Guard {
    site: Site,
    local_only: bool,
    checks: Bucket,
    submissions: Bucket,
    turns: Semaphore,
}

impl Guard {
    pub fn new(site: &Site, local_only: bool) -> Guard {
        Guard {
            site: site.clone(),
            local_only,
            checks: Bucket::new(site.limits.checks_per_minute),
            submissions: Bucket::new(site.limits.submissions_per_minute),
            turns: Semaphore::new(site.limits.max_checks.max(1)),
        }
    }

    /// The client a request comes from, for its rate limits.
    fn client(&self, request: &Request) -> IpAddr {
        let peer = request.extensions().get::<Peer>().map(|p| p.0.ip());
        if self.site.trust_proxy {
            let forwarded = request
                .headers()
                .get_all("x-forwarded-for")
                .iter()
                .filter_map(|v| v.to_str().ok())
                .flat_map(|v| v.split(','))
                .filter_map(|a| a.trim().parse::<IpAddr>().ok())
                .next_back();
            if let Some(ip) = forwarded {
                return ip;
            }
        }
        peer.unwrap_or(IpAddr::V4(std::net::Ipv4Addr::UNSPECIFIED))
    }
}

/// What a request costs: a check of a roster, a submission, or neither.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Check,
    Submission,
    Free,
}

fn kind(request: &Request) -> Kind {
    let path = request.uri().path();
    let post = request.method() == Method::POST;
    if post && (path == "/submit" || path.starts_with("/mine/") || path == "/organiser/login") {
        Kind::Submission
    } else if post || path.starts_with("/download/") || (path == "/" && request.uri().query().is_some()) {
        Kind::Check
    } else {
        Kind::Free
    }
}

/// The middleware: host, cross-site, rate, turn, body; then the route;
/// then the headers.
pub async fn guard(
    axum::extract::State(guard): axum::extract::State<std::sync::Arc<Guard>>,
    request: Request,
    next: Next,
) -> Response {
    let host = request.headers().get(header::HOST).and_then(|v| v.to_str().ok());
    let mut response = if !host_allowed(&guard.site, guard.local_only, host) {
        plain(
            StatusCode::MISDIRECTED_REQUEST,
            &match guard.site.public_host() {
                Some(public) => format!("this server answers only to {public}"),
                None => "this server answers only to 127.0.0.1 and localhost".to_string(),
            },
        )
    } else if request.method() == Method::POST && cross_site(request.headers()) {
        plain(StatusCode::FORBIDDEN, "requests from other sites are refused")
    } else {
        admitted(&guard, request, next).await
    };
    secure(response.headers_mut(), guard.site.https());
    response
}

async fn admitted(guard: &Guard, request: Request, next: Next) -> Response {
    let kind = kind(&request);
    let client = guard.client(&request);
    let bucket = match kind {
        Kind::Check => Some((&guard.checks, "checks")),
        Kind::Submission => Some((&guard.submissions, "submissions")),
        Kind::Free => None,
    };
    if let Some((bucket, what)) = bucket {
        if let Err(wait) = bucket.take(client) {
            let seconds = wait.as_secs().max(1);
            let mut r = plain(
                StatusCode::TOO_MANY_REQUESTS,
                &format!(
                    "too many {what} from your address: wait {seconds} second{} and try again",
                    if seconds == 1 { "" } else { "s" }
                ),
            );
            r.headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
            return r;
        }
    }
    let request = match read_body(request, guard.site.limits.body_timeout).await {
        Ok(request) => request,
        Err(refused) => return refused,
    };
    if kind != Kind::Check {
        return next.run(request).await;
    }
    match tokio::time::timeout(Duration::from_secs(5), guard.turns.acquire()).await {
        Ok(Ok(_turn)) => next.run(request).await,
        _ => {
            let mut r = plain(
                StatusCode::SERVICE_UNAVAILABLE,
                "the server is busy: try again in a moment",
            );
            r.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(1));
            r
        }
    }
}

/// Reads a request's body whole, within the body timeout and the body
/// limit (a client that sends slowly, or too much, is refused), so no
/// handler waits on a client.
async fn read_body(request: Request, within: Duration) -> Result<Request, Response> {
    if request.method() != Method::POST {
        return Ok(request);
    }
    let (parts, body) = request.into_parts();
    match tokio::time::timeout(within, axum::body::to_bytes(body, super::MAX_BODY)).await {
        Ok(Ok(bytes)) => Ok(Request::from_parts(parts, Body::from(bytes))),
        Ok(Err(_)) => Err(plain(
            StatusCode::PAYLOAD_TOO_LARGE,
            "the request is larger than the server takes",
        )),
        Err(_) => Err(plain(
            StatusCode::REQUEST_TIMEOUT,
            "the request took too long to arrive",
        )),
    }
}

/// The headers every answer carries: nothing frames the page, nothing is
/// sniffed, no address is sent on as a referrer (private links travel in
/// addresses), nothing is cached, and a page without its own policy runs
/// nothing at all.
pub fn secure(h: &mut HeaderMap, https: bool) {
    h.entry(header::CONTENT_SECURITY_POLICY)
        .or_insert(HeaderValue::from_static(
            "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
        ));
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(
        "cross-origin-opener-policy",
        HeaderValue::from_static("same-origin"),
    );
    h.insert(
        "cross-origin-resource-policy",
        HeaderValue::from_static("same-origin"),
    );
    h.entry(header::CACHE_CONTROL)
        .or_insert(HeaderValue::from_static("no-store"));
    if https {
        h.insert(
            header::STRICT_TRANSPORT_SECURITY,
            HeaderValue::from_static("max-age=31536000"),
        );
    }
}

/// Token buckets, one per client: `per_minute` requests a minute, up to a
/// burst of a sixth of that (at least 5) at once. At most [`CLIENTS`]
/// clients are remembered: full buckets are forgotten first.
struct Bucket {
    per_minute: u32,
    clients: Mutex<HashMap<IpAddr, (f64, Instant)>>,
}

const CLIENTS: usize = 10_000;

impl Bucket {
    fn new(per_minute: u32) -> Bucket {
        Bucket {
            per_minute,
            clients: Mutex::new(HashMap::new()),
        }
    }

    fn burst(&self) -> f64 {
        f64::from((self.per_minute / 6).max(5))
    }

    /// Takes one request for `client`; `Err(wait)` when it has none left.
    fn take(&self, client: IpAddr) -> Result<(), Duration> {
        if self.per_minute == 0 {
            return Ok(());
        }
        let rate = f64::from(self.per_minute) / 60.0;
        let burst = self.burst();
        let now = Instant::now();
        let mut clients = self
            .clients
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if clients.len() >= CLIENTS && !clients.contains_key(&client) {
            clients.retain(|_, (tokens, at)| *tokens + now.duration_since(*at).as_secs_f64() * rate < burst);
            if clients.len() >= CLIENTS {
                clients.clear();
            }
        }
        let (tokens, at) = clients.entry(client).or_insert((burst, now));
        *tokens = (*tokens + now.duration_since(*at).as_secs_f64() * rate).min(burst);
        *at = now;
        if *tokens >= 1.0 {
            *tokens -= 1.0;
            Ok(())
        } else {
            Err(Duration::from_secs_f64((1.0 - *tokens) / rate).max(Duration::from_secs(1)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_refuse_past_the_burst_and_forget_nobody_else() {
        let bucket = Bucket::new(60);
        let a: IpAddr = "192.0.2.1".parse().expect("ip");
        let b: IpAddr = "192.0.2.2".parse().expect("ip");
        for _ in 0..10 {
            assert!(bucket.take(a).is_ok());
        }
        let wait = bucket.take(a).expect_err("the burst is spent");
        assert!(
            wait >= Duration::from_secs(1) && wait <= Duration::from_secs(2),
            "{wait:?}"
        );
        assert!(bucket.take(b).is_ok(), "another client has its own");
        assert!(Bucket::new(0).take(a).is_ok(), "0 is no limit");
    }

    #[test]
    fn hosts_are_the_public_one_or_this_machine() {
        let site = Site {
            public_url: Some("https://muster.example.org".into()),
            ..Site::default()
        };
        assert!(host_allowed(&site, true, Some("muster.example.org")));
        assert!(host_allowed(&site, true, Some("MUSTER.example.org")));
        assert!(host_allowed(&site, true, Some("127.0.0.1:8080")));
        assert!(!host_allowed(&site, false, Some("evil.example")));
        assert!(!host_allowed(
            &site,
            true,
            Some("muster.example.org.evil.example")
        ));
        let open = Site::default();
        assert!(host_allowed(&open, false, Some("anything.example")));
        assert!(!host_allowed(&open, true, Some("anything.example")));
    }

    #[test]
    fn public_urls_are_a_scheme_and_a_host() {
        assert_eq!(
            parse_public_url("https://muster.example.org/"),
            Ok("https://muster.example.org".into())
        );
        assert!(parse_public_url("http://127.0.0.1:8080").is_ok());
        assert!(parse_public_url("muster.example.org").is_err());
        assert!(parse_public_url("https://x.example/muster").is_err());
        assert!(parse_public_url("https://").is_err());
    }
}
