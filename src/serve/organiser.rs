//! The organiser's side of the inbox, behind the organiser's key (printed
//! when the server starts, or given by `--organiser-key` or
//! `MUSTER_ORGANISER_KEY`): `/organiser` lists each player's latest
//! submission with its verdict, read from the inbox's stored summaries
//! (nothing is re-checked to show it); the exports are the folder of
//! rosters as a zip and the CSV and HTML reports `muster check DIR
//! --report` writes, made once per change of the inbox, one at a time.
//! No player's page links here.

use super::submit::when;
use super::{Shared, html, not_found, plain};
use askama::Template;
use axum::extract::{Form, Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use std::collections::HashMap;
use std::io::Write as _;
use std::sync::{Arc, Mutex};

const COOKIE: &str = "muster_organiser";

/// Exports made, kept until the inbox changes: (generation, bytes) by
/// export. Its lock makes exports one at a time.
#[derive(Default)]
pub struct Exports(Mutex<HashMap<&'static str, Made>>);

/// An export and the inbox generation it was made from.
type Made = (u64, Arc<Vec<u8>>);

#[derive(Template)]
#[template(path = "serve/organiser.html")]
struct OrganiserPage {
    event: String,
    totals: String,
    deadline: Option<String>,
    rows: Vec<RowView>,
}

struct RowView {
    player: String,
    army: String,
    points: String,
    verdict: String,
    legal: bool,
    first_error: String,
    updated: String,
    file: String,
    view: String,
}

#[derive(Template)]
#[template(path = "serve/organiser-login.html")]
struct Login {
    event: String,
    error: bool,
}

/// Compares without stopping at the first difference, so the time an
/// answer takes says nothing about the key.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Whether the request carries the organiser's key: the cookie the log-in
/// sets, or `Authorization: Bearer KEY` (for scripts).
fn authorized(key: &str, headers: &HeaderMap) -> bool {
    let bearer = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "));
    let cookie = headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|c| c.trim().split_once('='))
        .filter(|(k, _)| *k == COOKIE)
        .map(|(_, v)| v);
    bearer
        .into_iter()
        .chain(cookie)
        .any(|given| same(given.trim().as_bytes(), key.as_bytes()))
}

fn event_name(app: &super::App) -> String {
    app.config
        .event
        .as_ref()
        .map_or_else(String::new, |e| e.file.name.clone())
}

fn login_page(app: &super::App, error: bool) -> Response {
    match (Login {
        event: event_name(app),
        error,
    })
    .render()
    {
        Ok(body) => html(StatusCode::UNAUTHORIZED, body),
        Err(e) => plain(StatusCode::INTERNAL_SERVER_ERROR, &e.to_string()),
    }
}

/// `GET /organiser`: the inbox, or the log-in form.
pub async fn page(State(app): State<Shared>, headers: HeaderMap) -> Response {
    let Some(inbox) = &app.inbox else {
        return not_found().await;
    };
    if !authorized(&app.organiser_key, &headers) {
        return login_page(&app, false);
    }
    let records = inbox.list();
    let legal = records
        .iter()
        .filter(|r| r.row.status == crate::report::summary::Status::Legal)
        .count();
    let rows = records
        .iter()
        .map(|r| RowView {
            player: r.player.clone(),
            army: r.row.army.clone().unwrap_or_default(),
            points: r.row.points_text(),
            verdict: r.row.status_text(),
            legal: r.row.status == crate::report::summary::Status::Legal,
            first_error: r.row.first_error.clone().unwrap_or_default(),
            updated: when(r.updated),
            view: format!("/organiser/roster/{}", super::view::urlencode(&r.file)),
            file: r.file.clone(),
        })
        .collect();
    let deadline = app
        .config
        .event
        .as_ref()
        .and_then(|e| e.file.deadline.as_deref())
        .and_then(crate::event::deadline_seconds)
        .map(when);
    let n = records.len();
    let page = OrganiserPage {
        event: event_name(&app),
        totals: format!(
            "{n} submission{}: {legal} legal, {} not",
            if n == 1 { "" } else { "s" },
            n - legal
        ),
        deadline,
        rows,
    };
    match page.render() {
        Ok(body) => html(StatusCode::OK, body),
        Err(e) => plain(StatusCode::INTERNAL_SERVER_ERROR, &e.to_string()),
    }
}

/// `POST /organiser/login`: the key, once; a cookie for this browser.
pub async fn login(State(app): State<Shared>, Form(form): Form<Vec<(String, String)>>) -> Response {
    if app.inbox.is_none() {
        return not_found().await;
    }
    let given = form
        .iter()
        .find(|(k, _)| k == "key")
        .map_or("", |(_, v)| v.trim());
    if !same(given.as_bytes(), app.organiser_key.as_bytes()) {
        return login_page(&app, true);
    }
    let mut r = Redirect::to("/organiser").into_response();
    *r.status_mut() = StatusCode::SEE_OTHER;
    let secure = if app.site.https() { "; Secure" } else { "" };
    if let Ok(v) = HeaderValue::from_str(&format!(
        "{COOKIE}={}; Path=/organiser; HttpOnly; SameSite=Strict{secure}",
        app.organiser_key
    )) {
        r.headers_mut().insert(header::SET_COOKIE, v);
    }
    r
}

/// `GET /organiser/roster/FILE`: one submitted roster, as text.
pub async fn roster(State(app): State<Shared>, headers: HeaderMap, Path(file): Path<String>) -> Response {
    let Some(inbox) = &app.inbox else {
        return not_found().await;
    };
    if !authorized(&app.organiser_key, &headers) {
        return login_page(&app, false);
    }
    // Only a file the inbox holds: the name is compared, never opened as
    // given.
    let Some(record) = inbox.list().into_iter().find(|r| r.file == file) else {
        return not_found().await;
    };
    match inbox.read(&record) {
        Ok(text) => {
            let mut r = text.into_response();
            r.headers_mut().insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/plain; charset=utf-8"),
            );
            r
        }
        Err(e) => plain(StatusCode::INTERNAL_SERVER_ERROR, &format!("cannot read it: {e}")),
    }
}

/// `GET /organiser/rosters.zip`, `report.csv`, `report.html`.
pub async fn export(State(app): State<Shared>, headers: HeaderMap, Path(name): Path<String>) -> Response {
    if app.inbox.is_none() {
        return not_found().await;
    }
    if !authorized(&app.organiser_key, &headers) {
        return login_page(&app, false);
    }
    let (kind, content_type): (&'static str, &'static str) = match name.as_str() {
        "rosters.zip" => ("rosters.zip", "application/zip"),
        "report.csv" => ("report.csv", "text/csv; charset=utf-8"),
        "report.html" => ("report.html", "text/html; charset=utf-8"),
        _ => return not_found().await,
    };
    let work = {
        let app = app.clone();
        tokio::task::spawn_blocking(move || made(&app, kind))
    };
    match work.await {
        Ok(Ok(bytes)) => {
            let mut r = bytes.as_ref().clone().into_response();
            let h = r.headers_mut();
            h.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
            if let Ok(v) = HeaderValue::from_str(&format!("attachment; filename=\"{kind}\"")) {
                h.insert(header::CONTENT_DISPOSITION, v);
            }
            // The report's own inline style and sorting script, in a
            // sandbox: opened from here it reaches nothing of the site.
            h.insert(
                header::CONTENT_SECURITY_POLICY,
                HeaderValue::from_static(
                    "sandbox allow-scripts; default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; frame-ancestors 'none'",
                ),
            );
            r
        }
        Ok(Err(e)) => plain(
            StatusCode::INTERNAL_SERVER_ERROR,
            &format!("cannot make {kind}: {}", crate::source::io_error(&e)),
        ),
        Err(_) => plain(StatusCode::INTERNAL_SERVER_ERROR, "the export stopped"),
    }
}

/// An export, from the cache while the inbox has not changed.
fn made(app: &super::App, kind: &'static str) -> std::io::Result<Arc<Vec<u8>>> {
    let Some(inbox) = &app.inbox else {
        return Err(std::io::Error::other("no inbox"));
    };
    let mut cache = app
        .exports
        .0
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let generation = inbox.generation();
    if let Some((made_at, bytes)) = cache.get(kind) {
        if *made_at == generation {
            return Ok(bytes.clone());
        }
    }
    let bytes = Arc::new(match kind {
        "rosters.zip" => zip_of(inbox)?,
        _ => report(app, inbox.dir(), kind == "report.csv")?,
    });
    cache.insert(kind, (generation, bytes.clone()));
    Ok(bytes)
}

fn zip_of(inbox: &super::inbox::Inbox) -> std::io::Result<Vec<u8>> {
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default();
    for record in inbox.list() {
        let Ok(text) = inbox.read(&record) else { continue };
        zip.start_file(record.file.as_str(), options)
            .map_err(std::io::Error::other)?;
        zip.write_all(text.as_bytes())?;
    }
    Ok(zip.finish().map_err(std::io::Error::other)?.into_inner())
}

/// The report `muster check DIR --report` writes, of the folder.
fn report(app: &super::App, dir: &std::path::Path, csv: bool) -> std::io::Result<Vec<u8>> {
    let inputs = crate::batch::collect(&[dir.to_path_buf()]);
    let catalogue = app.config.catalogue;
    let event = app.config.event.as_ref();
    let mut results = crate::batch::check_all(
        &inputs,
        |bytes, name| crate::check::check_bytes_for(catalogue, event, name, bytes),
        &|| {},
    );
    // Files named as in the folder, not by the server's path to it.
    let prefix = format!("{}{}", dir.display(), std::path::MAIN_SEPARATOR);
    for c in &mut results {
        if let Some(name) = c.name.strip_prefix(&prefix) {
            c.name = name.to_string();
        }
    }
    let duplicates = crate::batch::duplicates(&results);
    let summary =
        crate::report::summary::Summary::new(&results, &duplicates, event.map(|e| e.file.name.clone()));
    if csv {
        let mut out = Vec::new();
        crate::report::csv::write(&summary, &mut out).map_err(std::io::Error::other)?;
        Ok(out)
    } else {
        crate::report::html::render(&summary, &results)
            .map(String::into_bytes)
            .map_err(std::io::Error::other)
    }
}
