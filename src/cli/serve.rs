//! `muster serve`: binds the address, says where the builder is (and the
//! organiser's key, with submissions), and runs the server of
//! [`crate::serve`] until the process is stopped.

use super::io::usage;
use super::{Output, status};
use crate::catalogue::Catalogue;
use crate::event::Event;
use crate::serve::{Limits, Site};
use std::path::Path;

/// How `muster serve` was asked to run.
pub struct Hosting<'a> {
    pub listen: &'a str,
    pub submissions: Option<&'a Path>,
    pub public_url: Option<&'a str>,
    pub trust_proxy: bool,
    pub organiser_key: Option<String>,
    pub max_connections: usize,
    pub checks_per_minute: u32,
    pub submissions_per_minute: u32,
}

/// The organiser's key: the flag, the environment, or a new random one
/// (printed at start).
fn organiser_key(given: Option<String>) -> Result<(String, bool), String> {
    let given = given.or_else(|| std::env::var("MUSTER_ORGANISER_KEY").ok());
    match given.map(|k| k.trim().to_string()) {
        Some(key) if key.len() >= 12 && !key.chars().any(char::is_control) => Ok((key, false)),
        Some(_) => {
            Err("the organiser's key must be at least 12 characters, without control characters".into())
        }
        None => crate::serve::inbox::token()
            .map(|k| (k, true))
            .map_err(|e| crate::source::io_error(&e)),
    }
}

pub fn serve(catalogue: &'static Catalogue, event: Option<Event>, hosting: &Hosting<'_>) -> Output {
    if let Some(dir) = hosting.submissions {
        match std::fs::metadata(dir) {
            Ok(meta) if meta.is_dir() => {}
            Ok(_) => return usage(format!("{} is not a folder", dir.display())),
            Err(e) => {
                return usage(format!(
                    "cannot use the submissions folder {}: {}",
                    dir.display(),
                    crate::source::io_error(&e)
                ));
            }
        }
    }
    let public_url = match hosting.public_url.map(crate::serve::guard::parse_public_url) {
        Some(Ok(url)) => Some(url),
        Some(Err(e)) => return usage(format!("--public-url: {e}")),
        None => None,
    };
    let (key, made) = match organiser_key(hosting.organiser_key.clone()) {
        Ok(key) => key,
        Err(e) => return usage(e),
    };
    let listener = match std::net::TcpListener::bind(hosting.listen) {
        Ok(listener) => listener,
        Err(e) => {
            return usage(format!(
                "cannot listen on {}: {}",
                hosting.listen,
                crate::source::io_error(&e)
            ));
        }
    };
    let address = listener
        .local_addr()
        .map_or_else(|_| hosting.listen.to_string(), |a| a.to_string());
    let site = Site {
        public_url: public_url.clone(),
        trust_proxy: hosting.trust_proxy,
        organiser_key: Some(key.clone()),
        limits: Limits {
            max_connections: hosting.max_connections,
            checks_per_minute: hosting.checks_per_minute,
            submissions_per_minute: hosting.submissions_per_minute,
            ..Limits::default()
        },
    };
    let limits = site.limits.clone();
    let config = crate::serve::Config {
        catalogue,
        event,
        submissions: hosting.submissions.map(Path::to_path_buf),
        local_only: listener.local_addr().is_ok_and(|a| a.ip().is_loopback()),
    };
    let router = match crate::serve::app(config, site) {
        Ok(router) => router,
        Err(e) => {
            return usage(format!(
                "cannot use the submissions folder: {}",
                crate::source::io_error(&e)
            ));
        }
    };
    let base = public_url.unwrap_or_else(|| format!("http://{address}"));
    let mut ready = format!("muster serve: the builder is at {base}/\n");
    if public_url_differs(&base, &address) {
        ready.push_str(&format!("  listening on {address}\n"));
    }
    if let Some(dir) = hosting.submissions {
        ready.push_str(&format!(
            "  submissions go to {}; the organiser page is {base}/organiser\n",
            dir.display()
        ));
        if made {
            ready.push_str(&format!(
                "  the organiser's key (new at each start; --organiser-key or MUSTER_ORGANISER_KEY keeps one): {key}\n"
            ));
        }
    }
    ready.push_str("  Ctrl-C stops it\n");
    // The one place `serve` prints before it is done: the server runs
    // until the process is stopped.
    eprint!("{ready}");
    match crate::serve::run_with(listener, router, &limits) {
        Ok(()) => Output::default(),
        Err(e) => Output {
            stderr: format!("error: the server stopped: {}\n", crate::source::io_error(&e)),
            status: status::UNUSABLE,
            ..Output::default()
        },
    }
}

fn public_url_differs(base: &str, address: &str) -> bool {
    base != format!("http://{address}")
}
