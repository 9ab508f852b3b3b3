//! `muster serve`: a web builder on the same engine. The page is one
//! form around the roster text; each click is an edit of that text
//! ([`edit`]), each request one check of it ([`crate::check`]), the page
//! rendered with askama from a [`view::Builder`]. The server keeps no state
//! per player while building: the roster travels in the request (form
//! field or query), so the share link is the page's own address.
//!
//! With `--submissions DIR` (and an event), players submit rosters to the
//! event ([`submit`]): each is stored durably in the [`inbox`], and the
//! player gets a private link to see, replace or withdraw it until the
//! event's deadline. The organiser's pages ([`organiser`]) need the
//! organiser's key.
//!
//! Every request passes the [`guard`] first (host, cross-site posts, rate
//! limits, body size and time, checks at once) and every answer gets its
//! security headers; connections are accepted and bounded by [`net`].
//!
//! Invariants: every value from a request reaches a page only through
//! askama's escaping; no path from a request reaches the file system (the
//! only files written are submissions, named here); request bodies are
//! capped at [`MAX_BODY`]; the library does not print: the CLI binds the
//! socket, says where, and calls [`run_with`].

pub mod edit;
pub mod guard;
pub mod inbox;
pub mod net;
mod organiser;
mod submit;
pub mod view;

pub use guard::Site;
pub use net::Limits;

use crate::catalogue::Catalogue;
use crate::check::{self, Checked};
use crate::event::Event;
use crate::import::snapfire;
use crate::print::{self, Paper, view::RosterSheet};
use askama::Template;
use axum::Router;
use axum::extract::{DefaultBodyLimit, Form, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::get;
use std::path::PathBuf;
use std::sync::Arc;
use view::{Builder, GameLists};

/// The largest request body accepted: a roster is far smaller (the
/// largest armies are a few KiB), and the form encodes it at most 3x.
pub const MAX_BODY: usize = 256 * 1024;
/// The largest roster text the builder takes (a roster file may be 1 MiB;
/// a page that carries its roster in every request takes less).
pub const MAX_ROSTER: usize = 64 * 1024;
/// A player's name, as the builder's header takes it.
const MAX_PLAYER: usize = 80;

/// What the server serves.
pub struct Config {
    pub catalogue: &'static Catalogue,
    pub event: Option<Event>,
    /// Where submissions go; `Some` adds `/submit` and `/organiser`.
    pub submissions: Option<PathBuf>,
    /// Listening on a loopback address: then a request must name this
    /// machine (`Host: 127.0.0.1`, `localhost`, `[::1]`), so a web page
    /// whose name an attacker points at 127.0.0.1 (DNS rebinding) cannot
    /// read the organiser page or submit.
    pub local_only: bool,
}

struct App {
    config: Config,
    site: Site,
    /// The submissions, with `Config::submissions`.
    inbox: Option<inbox::Inbox>,
    /// The organiser's secret.
    organiser_key: String,
    exports: organiser::Exports,
}

type Shared = Arc<App>;

/// The application with the default [`Site`] (a random organiser key),
/// ready for [`run`] or for in-process tests. A submissions folder that
/// cannot be read makes every request answer why.
pub fn router(config: Config) -> Router {
    match app(config, Site::default()) {
        Ok(router) => router,
        Err(e) => {
            let message = format!(
                "cannot use the submissions folder: {}",
                crate::source::io_error(&e)
            );
            Router::new().fallback(move || {
                let message = message.clone();
                async move { plain(StatusCode::INTERNAL_SERVER_ERROR, &message) }
            })
        }
    }
}

/// The summary row of a roster's check, as the inbox keeps it.
fn row(app: &App, name: &str, text: &str) -> crate::report::summary::Row {
    let checked = check::check_text_for(app.config.catalogue, app.config.event.as_ref(), name, text);
    crate::report::summary::Row::of(&checked)
}

/// The application as `site` hosts it, on a tokio runtime with timers
/// (the guard's timeouts need them; [`run`] makes one). Reads the submissions folder's
/// inbox back (the error is why it cannot).
pub fn app(config: Config, site: Site) -> std::io::Result<Router> {
    let organiser_key = match &site.organiser_key {
        Some(key) => key.clone(),
        None => inbox::token()?,
    };
    let inbox = match &config.submissions {
        Some(dir) => {
            let (catalogue, event) = (config.catalogue, config.event.as_ref());
            let check = |name: &str, text: &str| {
                crate::report::summary::Row::of(&check::check_text_for(catalogue, event, name, text))
            };
            Some(inbox::Inbox::open(dir, site.limits.max_submissions, &check)?)
        }
        None => None,
    };
    let guard = Arc::new(guard::Guard::new(&site, config.local_only));
    let app = Arc::new(App {
        config,
        site,
        inbox,
        organiser_key,
        exports: organiser::Exports::default(),
    });
    Ok(Router::new()
        .route("/", get(page).post(builder_post))
        .route("/new", get(new_roster))
        .route("/download/roster.txt", get(download_get).post(download_post))
        .route("/download/roster.pdf", get(download_get).post(download_post))
        .route("/download/crib.pdf", get(download_get).post(download_post))
        .route("/submit", get(submit::page).post(submit::post))
        .route("/mine/{token}", get(submit::mine).post(submit::change))
        .route("/organiser", get(organiser::page))
        .route("/organiser/login", axum::routing::post(organiser::login))
        .route("/organiser/roster/{file}", get(organiser::roster))
        .route("/organiser/{export}", get(organiser::export))
        .route("/static/app.js", get(script))
        .route("/static/app.css", get(style))
        .route("/static/inbox.css", get(inbox_style))
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::from_fn_with_state(guard, guard::guard))
        .with_state(app))
}

/// Serves `router` on `listener` with the default [`Limits`] until the
/// process ends.
pub fn run(listener: std::net::TcpListener, router: Router) -> std::io::Result<()> {
    net::serve(listener, router, &Limits::default())
}

/// Serves `router` on `listener` within `limits` until the process ends,
/// on every core.
pub fn run_with(listener: std::net::TcpListener, router: Router, limits: &Limits) -> std::io::Result<()> {
    net::serve(listener, router, limits)
}

// ---- responses -------------------------------------------------------

/// Headers every page gets: no inline script or style runs (the page's
/// own come from /static), nothing frames it, no sniffing.
fn html(status: StatusCode, body: String) -> Response {
    let mut response = (status, body).into_response();
    let h = response.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
        ),
    );
    secure(h);
    response
}

fn secure(h: &mut HeaderMap) {
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
}

fn plain(status: StatusCode, message: &str) -> Response {
    let mut response = (status, format!("{message}\n")).into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    secure(response.headers_mut());
    response
}

fn rendered(template: Result<String, askama::Error>) -> Response {
    match template {
        Ok(body) => html(StatusCode::OK, body),
        Err(e) => plain(
            StatusCode::INTERNAL_SERVER_ERROR,
            &format!("cannot render the page: {e}"),
        ),
    }
}

async fn not_found() -> Response {
    plain(StatusCode::NOT_FOUND, "not found")
}

async fn script() -> Response {
    let mut r = include_str!("../../assets/serve/app.js").into_response();
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/javascript; charset=utf-8"),
    );
    secure(r.headers_mut());
    r
}

async fn inbox_style() -> Response {
    let mut r = include_str!("../../assets/serve/inbox.css").into_response();
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/css; charset=utf-8"),
    );
    secure(r.headers_mut());
    r
}

async fn style() -> Response {
    let mut r = include_str!("../../assets/serve/app.css").into_response();
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/css; charset=utf-8"),
    );
    secure(r.headers_mut());
    r
}

fn cross_site(headers: &HeaderMap) -> bool {
    guard::cross_site(headers)
}

// ---- the builder -----------------------------------------------------

#[derive(Template)]
#[template(path = "serve/page.html")]
struct Page<'a> {
    b: Builder,
    games: &'a [GameLists],
    selected: String,
    default_points: String,
    /// No roster yet: the page asks for the game and the army.
    landing: bool,
}

#[derive(Template)]
#[template(path = "serve/builder.html")]
struct Fragment {
    b: Builder,
}

/// The form fields of a request, in order (a field given twice keeps its
/// first value).
struct Fields(Vec<(String, String)>);

impl Fields {
    fn get(&self, name: &str) -> Option<&str> {
        self.0.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }
}

/// The roster text of a request, line ends made `\n`, at most
/// [`MAX_ROSTER`] bytes (cut at a character boundary; the check then
/// reports whatever the cut line is).
fn roster_of(fields: &Fields) -> String {
    let text = fields.get("roster").unwrap_or_default().replace("\r\n", "\n");
    if text.len() <= MAX_ROSTER {
        return text;
    }
    let mut end = MAX_ROSTER;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text[..end].to_string()
}

fn check<'c>(app: &'c App, text: &str) -> Checked<'c> {
    check::check_text_for(app.config.catalogue, app.config.event.as_ref(), "roster", text)
}

fn builder(app: &App, text: &str) -> Builder {
    let checked = check(app, text);
    Builder::new(
        &checked,
        text,
        app.config.event.as_ref(),
        app.config.submissions.is_some(),
    )
}

fn full_page(app: &App, b: Builder) -> Response {
    let landing = b.roster.trim().is_empty();
    let games = view::pickable(app.config.catalogue, app.config.event.as_ref());
    let selected = b
        .list
        .as_ref()
        .and_then(|l| app.config.catalogue.lists.iter().find(|x| x.name == l.name))
        .map(|l| l.id.clone())
        .unwrap_or_default();
    let default_points = app
        .config
        .event
        .as_ref()
        .map(|e| e.file.points.to_string())
        .or_else(|| (!b.points.is_empty()).then(|| b.points.clone()))
        .unwrap_or_default();
    rendered(
        Page {
            b,
            games: &games,
            selected,
            default_points,
            landing,
        }
        .render(),
    )
}

/// `GET /`: the builder, with the roster of the query (a share link:
/// `r=1....`, or the roster as it is in `roster=`), or the landing page
/// that asks for the game and the army.
async fn page(State(app): State<Shared>, Query(query): Query<Vec<(String, String)>>) -> Response {
    let mut fields = Fields(query);
    let mut error = None;
    if let Some(payload) = fields.get(crate::share::KEY) {
        match crate::share::decode(payload) {
            Ok(text) => fields.0.push(("roster".into(), text)),
            Err(e) => error = Some(e.to_string()),
        }
    }
    let text = roster_of(&fields);
    let mut b = builder(&app, &text);
    if let Some(message) = error {
        b.general.insert(0, builder_error(message));
    }
    full_page(&app, b)
}

/// A finding of the builder itself (a click it cannot do, a link it
/// cannot read).
fn builder_error(message: String) -> view::DiagnosticView {
    view::DiagnosticView {
        severity: "error",
        code: "builder",
        line: None,
        message,
        rule: None,
        hints: Vec::new(),
        fix: None,
        fix_op: None,
    }
}

/// `GET /new?army=ID&points=N`: a new roster for a list, as a share link.
async fn new_roster(State(app): State<Shared>, Query(query): Query<Vec<(String, String)>>) -> Response {
    let fields = Fields(query);
    let Some(list) = fields.get("army").and_then(|id| app.config.catalogue.list(id)) else {
        return plain(
            StatusCode::BAD_REQUEST,
            "no army list of that id: pick one from the list",
        );
    };
    let points = match fields.get("points").map(str::trim).filter(|p| !p.is_empty()) {
        None => list.game.game().typical_points,
        Some(p) => match p.parse::<u32>() {
            Ok(p) if p > 0 => p,
            _ => {
                return plain(
                    StatusCode::BAD_REQUEST,
                    "the points limit must be a whole number above 0",
                );
            }
        },
    };
    let text = format!("Army: {} ({})\nPoints: {points}\n", list.name, list.version);
    Redirect::to(&format!(
        "/?{}={}",
        crate::share::KEY,
        crate::share::encode(&text)
    ))
    .into_response()
}

/// What one click does to the roster text. `None` leaves it as it is.
fn apply(app: &App, fields: &Fields, text: &str) -> Result<String, String> {
    let op = fields.get("op").unwrap_or("check");
    let (verb, rest) = op.split_once(':').unwrap_or((op, ""));
    let mut args = rest.split(':').map(|a| a.parse::<usize>());
    let mut arg = || -> Result<usize, String> {
        args.next()
            .and_then(Result::ok)
            .ok_or_else(|| format!("`{op}` is not something the builder does"))
    };
    match verb {
        "check" => Ok(text.to_string()),
        "load" => Ok(load(app, text)),
        "fix" => {
            let checked = check(app, text);
            let d = checked
                .diagnostics
                .get(arg()?)
                .ok_or("that finding is gone: the roster changed")?;
            edit::apply_fix(text, d).ok_or_else(|| "that fix has to be made by hand".to_string())
        }
        "header" => {
            let points = fields.get("points").unwrap_or_default().trim();
            if !points.is_empty() && points.parse::<u32>().map_or(true, |p| p == 0) {
                return Err("the points limit must be a whole number above 0".into());
            }
            let player: String = fields
                .get("player")
                .unwrap_or_default()
                .chars()
                .take(MAX_PLAYER)
                .collect();
            Ok(edit::set_header(
                &edit::set_header(text, "Points", points),
                "Player",
                &player,
            ))
        }
        "add" | "del" | "up" | "inc" | "dec" | "member" => {
            let checked = check(app, text);
            let (Some(list), Some(army)) = (checked.list, checked.army.as_ref()) else {
                return Err("the roster names no army list muster knows yet".into());
            };
            if verb == "add" {
                let f = list
                    .formations
                    .get(arg()?)
                    .ok_or("no such formation in the list")?;
                return Ok(edit::add_formation(text, edit::written_name(f)));
            }
            let i = arg()?;
            let formation = army.formations.get(i).ok_or("no such entry in the roster")?;
            let members: Vec<usize> = army
                .formations
                .iter()
                .filter(|m| m.group == Some(i))
                .map(|m| m.line)
                .collect();
            let picked = |field: String| -> Result<usize, String> {
                fields
                    .get(&field)
                    .and_then(|v| v.parse().ok())
                    .ok_or_else(|| "pick something first".to_string())
            };
            match verb {
                "del" => Ok(edit::remove(text, formation.line)),
                "member" => {
                    let m = picked(format!("member-{i}"))?;
                    let f = list.formations.get(m).ok_or("no such formation in the list")?;
                    Ok(edit::add_member(text, formation.line, edit::written_name(f)))
                }
                _ => {
                    let (upgrade, delta) = match verb {
                        "up" => (picked(format!("up-{i}"))?, 1),
                        "inc" => (arg()?, 1),
                        _ => (arg()?, -1),
                    };
                    if upgrade >= list.upgrades.len() {
                        return Err("no such upgrade in the list".into());
                    }
                    Ok(edit::change_upgrade(
                        text,
                        list,
                        formation.line,
                        &members,
                        upgrade,
                        delta,
                    ))
                }
            }
        }
        _ => Err(format!("`{op}` is not something the builder does")),
    }
}

/// A pasted Snapfire link, or a Snapfire export muster can re-express, as
/// muster roster text; anything else as it is.
fn load(app: &App, text: &str) -> String {
    let catalogue = app.config.catalogue;
    if crate::share::is_link(text.trim()) {
        return crate::share::read(text.trim()).unwrap_or_else(|_| text.to_string());
    }
    if snapfire::is_link(text.trim()) {
        return match snapfire::Link::parse(text.trim()).and_then(|l| snapfire::to_roster(&l, catalogue)) {
            Ok(imported) => imported.roster,
            Err(_) => text.to_string(),
        };
    }
    let checked = check(app, text);
    let shared = match &checked.share {
        Some(Ok(shared))
            if checked.dialect == Some(crate::roster::Dialect::Snapfire) && shared.left_out.is_empty() =>
        {
            shared
        }
        _ => return text.to_string(),
    };
    match snapfire::to_roster(&shared.link, catalogue) {
        Ok(imported) => match checked.limit() {
            Some(points) => edit::set_header(&imported.roster, "Points", &points.to_string()),
            None => imported.roster,
        },
        Err(_) => text.to_string(),
    }
}

/// `POST /`: one click. A request from the page's script
/// (`X-Muster-Fragment: 1`) gets the builder alone; a plain form post the
/// whole page.
async fn builder_post(
    State(app): State<Shared>,
    headers: HeaderMap,
    Form(form): Form<Vec<(String, String)>>,
) -> Response {
    if cross_site(&headers) {
        return plain(StatusCode::FORBIDDEN, "requests from other sites are refused");
    }
    let fields = Fields(form);
    let text = roster_of(&fields);
    let (text, error) = match apply(&app, &fields, &text) {
        Ok(new) if new.len() <= MAX_ROSTER => (new, None),
        Ok(_) => (
            text,
            Some("the roster would grow past the builder's limit".to_string()),
        ),
        Err(e) => (text, Some(e)),
    };
    let mut b = builder(&app, &text);
    if let Some(message) = error {
        b.general.insert(0, builder_error(message));
    }
    if headers.get("x-muster-fragment").is_some() {
        rendered(Fragment { b }.render())
    } else {
        full_page(&app, b)
    }
}

// ---- downloads -------------------------------------------------------

fn today() -> String {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(0));
    print::date_from_unix(now)
}

/// A file name for downloads from the roster's list and player (letters,
/// digits and `-` only).
fn download_name(checked: &Checked<'_>, extension: &str) -> String {
    let mut base: String = checked
        .list
        .map(|l| l.id.clone())
        .unwrap_or_else(|| "roster".to_string());
    if let Some(p) = &checked.header.player {
        let slug = slug(&p.value);
        if !slug.is_empty() {
            base = format!("{base}-{slug}");
        }
    }
    format!("{base}.{extension}")
}

fn slug(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
        if out.len() >= 32 {
            break;
        }
    }
    out.trim_end_matches('-').to_string()
}

fn attachment(bytes: Vec<u8>, content_type: &'static str, name: &str) -> Response {
    let mut r = bytes.into_response();
    let h = r.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    if let Ok(v) = HeaderValue::from_str(&format!("attachment; filename=\"{name}\"")) {
        h.insert(header::CONTENT_DISPOSITION, v);
    }
    secure(h);
    r
}

#[derive(Clone, Copy)]
enum Download {
    Text,
    RosterPdf,
    CribPdf,
}

fn download_kind(uri: &axum::http::Uri) -> Download {
    match uri.path() {
        "/download/roster.pdf" => Download::RosterPdf,
        "/download/crib.pdf" => Download::CribPdf,
        _ => Download::Text,
    }
}

async fn download_get(
    State(app): State<Shared>,
    uri: axum::http::Uri,
    Query(query): Query<Vec<(String, String)>>,
) -> Response {
    download(app, download_kind(&uri), roster_of(&Fields(query))).await
}

async fn download_post(
    State(app): State<Shared>,
    uri: axum::http::Uri,
    headers: HeaderMap,
    Form(form): Form<Vec<(String, String)>>,
) -> Response {
    if cross_site(&headers) {
        return plain(StatusCode::FORBIDDEN, "requests from other sites are refused");
    }
    download(app, download_kind(&uri), roster_of(&Fields(form))).await
}

async fn download(app: Shared, kind: Download, text: String) -> Response {
    if text.trim().is_empty() {
        return plain(StatusCode::BAD_REQUEST, "no roster to download");
    }
    if let Download::Text = kind {
        let checked = check(&app, &text);
        let name = download_name(&checked, "txt");
        return attachment(text.into_bytes(), "text/plain; charset=utf-8", &name);
    }
    // Laying out a PDF takes tens of milliseconds: off the server's thread.
    let work = tokio::task::spawn_blocking(move || {
        let checked = check(&app, &text);
        let date = today();
        let (bytes, name) = match kind {
            Download::CribPdf => {
                let view = RosterSheet::new(&checked, app.config.catalogue, &date, true);
                let Some(mut sheet) = view.sheet else {
                    return plain(
                        StatusCode::UNPROCESSABLE_ENTITY,
                        "muster cannot tell which army the roster uses, so it has no datasheets to print",
                    );
                };
                sheet.army_rules = view.army_rules;
                (
                    print::crib_pdf(&sheet, Paper::A4),
                    download_name(&checked, "crib.pdf"),
                )
            }
            _ => {
                let view = RosterSheet::new(&checked, app.config.catalogue, &date, false);
                (
                    print::roster_pdf(&view, Paper::A4),
                    download_name(&checked, "pdf"),
                )
            }
        };
        match bytes {
            Ok(bytes) => attachment(bytes, "application/pdf", &name),
            Err(e) => plain(StatusCode::INTERNAL_SERVER_ERROR, &format!("cannot print: {e}")),
        }
    });
    work.await
        .unwrap_or_else(|_| plain(StatusCode::INTERNAL_SERVER_ERROR, "the printer stopped"))
}
