//! A player's side of the inbox: `/submit` files a roster for the event,
//! then sends the player to its private page, `/mine/TOKEN`, where it can
//! be seen, replaced or withdrawn until the event's deadline. The same form
//! sent twice, or a second Submit from the same browser under the same
//! name, replaces the submission: it never files a copy.

use super::inbox::{self, Record, Refused};
use super::view::urlencode;
use super::{App, Fields, Shared, html, load, not_found, plain, roster_of};
use crate::report::summary::{Row, Status};
use askama::Template;
use axum::extract::{Form, Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

/// A player's name, as the submission form takes it.
const MAX_PLAYER: usize = 80;
/// The cookie that remembers a browser's submission, so a second Submit
/// replaces it.
const COOKIE: &str = "muster_mine";

#[derive(Template)]
#[template(path = "serve/submit.html")]
struct SubmitPage {
    event: String,
    player: String,
    roster: String,
    once: String,
    /// The submission this browser made, which a Submit under the same
    /// name replaces.
    earlier: Option<String>,
    closed: Option<String>,
    deadline: Option<String>,
    error: Option<String>,
}

#[derive(Template)]
#[template(path = "serve/mine.html")]
struct MinePage {
    event: String,
    token: String,
    link: String,
    player: String,
    roster: String,
    builder_query: String,
    /// `received`, `replaced` or empty.
    news: &'static str,
    verdict: String,
    legal: bool,
    first_error: Option<String>,
    submitted: String,
    updated: String,
    deadline: Option<String>,
    closed: Option<String>,
    error: Option<String>,
}

#[derive(Template)]
#[template(path = "serve/withdrawn.html")]
struct Withdrawn {
    event: String,
}

fn rendered(template: Result<String, askama::Error>, status: StatusCode) -> Response {
    match template {
        Ok(body) => html(status, body),
        Err(e) => plain(
            StatusCode::INTERNAL_SERVER_ERROR,
            &format!("cannot render the page: {e}"),
        ),
    }
}

fn event_name(app: &App) -> String {
    app.config
        .event
        .as_ref()
        .map_or_else(String::new, |e| e.file.name.clone())
}

/// `2026-12-04 18:00 UTC`.
pub fn when(seconds: i64) -> String {
    let date = crate::print::date_from_unix(seconds);
    let minutes = seconds.rem_euclid(86_400) / 60;
    format!("{date} {:02}:{:02} UTC", minutes / 60, minutes % 60)
}

/// The deadline as shown, and whether it has passed: `Some(when)` then.
fn deadline_of(app: &App) -> (Option<String>, Option<String>) {
    let Some(at) = app
        .config
        .event
        .as_ref()
        .and_then(|e| e.file.deadline.as_deref())
        .and_then(crate::event::deadline_seconds)
    else {
        return (None, None);
    };
    let shown = when(at);
    let closed = (inbox::now() >= at).then(|| shown.clone());
    (Some(shown), closed)
}

fn cookie_token(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|c| c.trim().split_once('='))
        .find(|(k, v)| *k == COOKIE && inbox::valid_token(v))
        .map(|(_, v)| v.to_string())
}

fn player_of(fields: &Fields) -> String {
    fields
        .get("player")
        .unwrap_or_default()
        .chars()
        .filter(|c| !c.is_control())
        .take(MAX_PLAYER)
        .collect::<String>()
        .trim()
        .to_string()
}

fn verdict(row: &Row) -> String {
    match row.status {
        Status::Legal if row.warnings > 0 => format!(
            "Legal, {} warning{}",
            row.warnings,
            if row.warnings == 1 { "" } else { "s" }
        ),
        Status::Legal => "Legal".to_string(),
        Status::Illegal => format!(
            "NOT legal: {} error{}",
            row.errors,
            if row.errors == 1 { "" } else { "s" }
        ),
        Status::Unreadable => "Not a usable roster".to_string(),
        Status::NotARoster => "Not a roster".to_string(),
    }
}

fn same_player(a: &str, b: &str) -> bool {
    a.trim().to_lowercase() == b.trim().to_lowercase()
}

/// The page's address as players reach it: the public URL, or the `Host`
/// the request named.
fn base(app: &App, headers: &HeaderMap) -> String {
    if let Some(url) = &app.site.public_url {
        return url.clone();
    }
    let host = headers
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("127.0.0.1");
    format!("http://{host}")
}

fn cookie(app: &App, value: &str, max_age: u32) -> HeaderValue {
    let secure = if app.site.https() { "; Secure" } else { "" };
    HeaderValue::from_str(&format!(
        "{COOKIE}={value}; Path=/; Max-Age={max_age}; HttpOnly; SameSite=Strict{secure}"
    ))
    .unwrap_or_else(|_| HeaderValue::from_static(""))
}

/// A 303 to the private page, the browser told to remember it.
fn to_mine(app: &App, token: &str, news: &str) -> Response {
    let mut r = axum::response::Redirect::to(&format!("/mine/{token}?{news}")).into_response();
    *r.status_mut() = StatusCode::SEE_OTHER;
    r.headers_mut()
        .insert(header::SET_COOKIE, cookie(app, token, 60 * 60 * 24 * 60));
    r
}

/// `GET /submit`: the form, with the roster of the query.
pub async fn page(
    State(app): State<Shared>,
    headers: HeaderMap,
    Query(query): Query<Vec<(String, String)>>,
) -> Response {
    let Some(inbox) = &app.inbox else {
        return not_found().await;
    };
    let fields = Fields(query);
    let roster = roster_of(&fields);
    let player = fields
        .get("player")
        .map(str::to_string)
        .or_else(|| super::check(&app, &roster).header.player.map(|p| p.value))
        .unwrap_or_default();
    let earlier = cookie_token(&headers)
        .and_then(|t| inbox.get(&t))
        .map(|r| r.player);
    let (deadline, closed) = deadline_of(&app);
    let once = match inbox::token() {
        Ok(once) => once,
        Err(e) => return plain(StatusCode::INTERNAL_SERVER_ERROR, &crate::source::io_error(&e)),
    };
    rendered(
        SubmitPage {
            event: event_name(&app),
            player: player.chars().take(MAX_PLAYER).collect(),
            roster,
            once,
            earlier,
            closed,
            deadline,
            error: None,
        }
        .render(),
        StatusCode::OK,
    )
}

/// `POST /submit`: stores the roster (a new submission, or the one this
/// form or this browser made under the same name) and sends the player to
/// its private page.
pub async fn post(
    State(app): State<Shared>,
    headers: HeaderMap,
    Form(form): Form<Vec<(String, String)>>,
) -> Response {
    if app.inbox.is_none() {
        return not_found().await;
    }
    let fields = Fields(form);
    let player = player_of(&fields);
    let roster = roster_of(&fields);
    let once = fields
        .get("once")
        .filter(|o| inbox::valid_token(o))
        .unwrap_or_default()
        .to_string();
    let (deadline, closed) = deadline_of(&app);
    let again = |error: String, status: StatusCode, roster: String, player: String, once: String| {
        rendered(
            SubmitPage {
                event: event_name(&app),
                player,
                roster,
                once,
                earlier: None,
                closed: closed.clone(),
                deadline: deadline.clone(),
                error: Some(error),
            }
            .render(),
            status,
        )
    };
    if let Some(at) = &closed {
        return again(
            format!("submissions closed at {at}"),
            StatusCode::FORBIDDEN,
            roster,
            player,
            once,
        );
    }
    if player.is_empty() || roster.trim().is_empty() {
        return again(
            "give your name and your roster".into(),
            StatusCode::UNPROCESSABLE_ENTITY,
            roster,
            player,
            once,
        );
    }
    let earlier = cookie_token(&headers);
    let work = {
        let (app, player, roster, once) = (app.clone(), player.clone(), roster.clone(), once.clone());
        tokio::task::spawn_blocking(move || store(&app, earlier, &player, &once, &roster))
    };
    match work.await {
        Ok(Ok(record)) => to_mine(&app, &record.token, "received"),
        Ok(Err(Refused::Full)) => again(
            "the event's inbox is full; tell the organiser".into(),
            StatusCode::INSUFFICIENT_STORAGE,
            roster,
            player,
            once,
        ),
        Ok(Err(Refused::Io(e))) => again(
            format!(
                "the submission could not be saved ({}); tell the organiser",
                crate::source::io_error(&e)
            ),
            StatusCode::INTERNAL_SERVER_ERROR,
            roster,
            player,
            once,
        ),
        Err(_) => plain(StatusCode::INTERNAL_SERVER_ERROR, "the submission stopped"),
    }
}

fn store(
    app: &App,
    earlier: Option<String>,
    player: &str,
    once: &str,
    roster: &str,
) -> Result<Record, Refused> {
    let Some(inbox) = &app.inbox else {
        return Err(Refused::Io(std::io::Error::other("no inbox")));
    };
    let roster = super::edit::set_header(&load(app, roster), "Player", player);
    let check = |name: &str, text: &str| super::row(app, name, text);
    if let Some(token) = earlier.filter(|t| inbox.get(t).is_some_and(|r| same_player(&r.player, player))) {
        if let Some(record) = inbox.replace(&token, player, &roster, &check)? {
            return Ok(record);
        }
    }
    inbox.create(player, once, &roster, &check)
}

fn gone() -> Response {
    plain(
        StatusCode::NOT_FOUND,
        "no submission at this address: it was withdrawn, or the link is mistyped",
    )
}

/// `GET /mine/TOKEN`: the player's submission, to see, replace or withdraw.
pub async fn mine(
    State(app): State<Shared>,
    Path(token): Path<String>,
    headers: HeaderMap,
    Query(query): Query<Vec<(String, String)>>,
) -> Response {
    let news = if query.iter().any(|(k, _)| k == "received") {
        "received"
    } else if query.iter().any(|(k, _)| k == "replaced") {
        "replaced"
    } else {
        ""
    };
    mine_page(&app, &token, &headers, news, None, StatusCode::OK)
}

fn mine_page(
    app: &App,
    token: &str,
    headers: &HeaderMap,
    news: &'static str,
    error: Option<String>,
    status: StatusCode,
) -> Response {
    let Some(inbox) = &app.inbox else {
        return gone();
    };
    let Some(record) = Some(token)
        .filter(|t| inbox::valid_token(t))
        .and_then(|t| inbox.get(t))
    else {
        return gone();
    };
    let roster = inbox.read(&record).unwrap_or_default();
    let (deadline, closed) = deadline_of(app);
    rendered(
        MinePage {
            event: event_name(app),
            link: format!("{}/mine/{}", base(app, headers), record.token),
            token: record.token.clone(),
            player: record.player.clone(),
            builder_query: format!("roster={}", urlencode(&roster)),
            roster,
            news,
            verdict: verdict(&record.row),
            legal: record.row.status == Status::Legal,
            first_error: record.row.first_error.clone(),
            submitted: when(record.submitted),
            updated: when(record.updated),
            deadline,
            closed,
            error,
        }
        .render(),
        status,
    )
}

/// `POST /mine/TOKEN`: replace (`op=replace`, the default) or withdraw
/// (`op=withdraw`) the submission, until the deadline.
pub async fn change(
    State(app): State<Shared>,
    Path(token): Path<String>,
    headers: HeaderMap,
    Form(form): Form<Vec<(String, String)>>,
) -> Response {
    let Some(inbox) = &app.inbox else {
        return gone();
    };
    if !inbox::valid_token(&token) || inbox.get(&token).is_none() {
        return gone();
    }
    let fields = Fields(form);
    if let (_, Some(at)) = deadline_of(&app) {
        let error = format!("submissions closed at {at}: it can no longer be changed");
        return mine_page(&app, &token, &headers, "", Some(error), StatusCode::FORBIDDEN);
    }
    if fields.get("op") == Some("withdraw") {
        let work = {
            let (app, token) = (app.clone(), token.clone());
            tokio::task::spawn_blocking(move || app.inbox.as_ref().map(|i| i.withdraw(&token)))
        };
        return match work.await {
            Ok(Some(Ok(_))) => {
                let mut r = rendered(
                    Withdrawn {
                        event: event_name(&app),
                    }
                    .render(),
                    StatusCode::OK,
                );
                r.headers_mut().insert(header::SET_COOKIE, cookie(&app, "", 0));
                r
            }
            Ok(Some(Err(e))) => plain(
                StatusCode::INTERNAL_SERVER_ERROR,
                &format!(
                    "the submission could not be withdrawn ({}); tell the organiser",
                    crate::source::io_error(&e)
                ),
            ),
            _ => plain(StatusCode::INTERNAL_SERVER_ERROR, "the withdrawal stopped"),
        };
    }
    let player = player_of(&fields);
    let roster = roster_of(&fields);
    if player.is_empty() || roster.trim().is_empty() {
        let error = "give your name and your roster".to_string();
        return mine_page(
            &app,
            &token,
            &headers,
            "",
            Some(error),
            StatusCode::UNPROCESSABLE_ENTITY,
        );
    }
    let work = {
        let (app, token) = (app.clone(), token.clone());
        tokio::task::spawn_blocking(move || {
            let Some(inbox) = &app.inbox else {
                return Ok(None);
            };
            let roster = super::edit::set_header(&load(&app, &roster), "Player", &player);
            inbox.replace(&token, &player, &roster, &|name: &str, text: &str| {
                super::row(&app, name, text)
            })
        })
    };
    match work.await {
        Ok(Ok(Some(record))) => to_mine(&app, &record.token, "replaced"),
        Ok(Ok(None)) => gone(),
        Ok(Err(Refused::Full)) => plain(StatusCode::INSUFFICIENT_STORAGE, "the inbox is full"),
        Ok(Err(Refused::Io(e))) => {
            let error = format!(
                "the submission could not be saved ({}); tell the organiser",
                crate::source::io_error(&e)
            );
            mine_page(
                &app,
                &token,
                &headers,
                "",
                Some(error),
                StatusCode::INTERNAL_SERVER_ERROR,
            )
        }
        Err(_) => plain(StatusCode::INTERNAL_SERVER_ERROR, "the submission stopped"),
    }
}
