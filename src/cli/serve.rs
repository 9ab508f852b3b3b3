//! `muster serve`: binds the address, says where the builder is, and runs
//! the server of [`crate::serve`] until the process is stopped.

use super::io::usage;
use super::{Output, status};
use crate::catalogue::Catalogue;
use crate::event::Event;
use std::path::Path;

pub fn serve(
    catalogue: &'static Catalogue,
    listen: &str,
    event: Option<Event>,
    submissions: Option<&Path>,
) -> Output {
    if let Some(dir) = submissions {
        match std::fs::metadata(dir) {
            Ok(meta) if meta.is_dir() => {}
            Ok(_) => return usage(format!("{} is not a folder", dir.display())),
            Err(e) => {
                return usage(format!(
                    "cannot use the submissions folder {}: {e}",
                    dir.display()
                ));
            }
        }
    }
    let listener = match std::net::TcpListener::bind(listen) {
        Ok(listener) => listener,
        Err(e) => return usage(format!("cannot listen on {listen}: {e}")),
    };
    let address = listener
        .local_addr()
        .map_or_else(|_| listen.to_string(), |a| a.to_string());
    let mut ready = format!("muster serve: the builder is at http://{address}/\n");
    if let Some(dir) = submissions {
        ready.push_str(&format!(
            "  submissions go to {}; the organiser page is http://{address}/organiser\n",
            dir.display()
        ));
    }
    ready.push_str("  Ctrl-C stops it\n");
    // The one place `serve` prints before it is done: the server runs
    // until the process is stopped.
    eprint!("{ready}");
    let router = crate::serve::router(crate::serve::Config {
        catalogue,
        event,
        submissions: submissions.map(Path::to_path_buf),
        local_only: listener.local_addr().is_ok_and(|a| a.ip().is_loopback()),
    });
    match crate::serve::run(listener, router) {
        Ok(()) => Output::default(),
        Err(e) => Output {
            stderr: format!("error: the server stopped: {e}\n"),
            status: status::UNUSABLE,
            ..Output::default()
        },
    }
}
