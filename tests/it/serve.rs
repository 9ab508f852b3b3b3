//! `muster serve` at the HTTP level, in process: every route with its
//! status and content, escaping, the body limit, bad input, downloads,
//! share links, Snapfire input, submissions and the organiser page.
//! The browser tests are in `serve_browser.rs`.

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use muster::catalogue::Catalogue;
use muster::serve::{Config, MAX_BODY, router};
use tower::ServiceExt;

pub fn catalogue() -> &'static Catalogue {
    crate::common::catalogue()
}

pub fn event(path: &str) -> muster::event::Event {
    let text = std::fs::read_to_string(path).expect("event fixture");
    muster::event::load(muster::source::SourceFile::new(path, text), catalogue()).expect("event loads")
}

fn app() -> Router {
    router(Config {
        catalogue: catalogue(),
        event: None,
        submissions: None,
        local_only: true,
    })
}

pub struct Reply {
    pub status: StatusCode,
    pub headers: axum::http::HeaderMap,
    pub body: Vec<u8>,
}

impl Reply {
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
    pub fn header(&self, name: header::HeaderName) -> String {
        self.headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_string()
    }
}

pub fn send(app: Router, request: Request<Body>) -> Reply {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .expect("runtime");
    runtime.block_on(async move {
        let response = app.oneshot(request).await.expect("infallible");
        let status = response.status();
        let headers = response.headers().clone();
        let body = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .expect("body")
            .to_vec();
        Reply {
            status,
            headers,
            body,
        }
    })
}

pub fn get(app: Router, uri: &str) -> Reply {
    send(app, Request::get(uri).body(Body::empty()).expect("request"))
}

pub fn encode(fields: &[(&str, &str)]) -> String {
    fields
        .iter()
        .map(|(k, v)| {
            format!(
                "{}={}",
                muster::serve::view::urlencode(k),
                muster::serve::view::urlencode(v)
            )
        })
        .collect::<Vec<_>>()
        .join("&")
}

pub fn post_to(app: Router, uri: &str, fields: &[(&str, &str)], fragment: bool) -> Reply {
    let mut request = Request::post(uri).header(header::CONTENT_TYPE, "application/x-www-form-urlencoded");
    if fragment {
        request = request.header("x-muster-fragment", "1");
    }
    send(app, request.body(Body::from(encode(fields))).expect("request"))
}

fn post(fields: &[(&str, &str)]) -> Reply {
    post_to(app(), "/", fields, true)
}

/// The roster text in the builder's text box, unescaped.
fn textarea(html: &str) -> String {
    let start = html.find("name=\"roster\"").expect("a roster box");
    let open = html[start..].find('>').expect("tag end") + start + 1;
    let close = html[open..].find("</textarea>").expect("box end") + open;
    // The template starts the box with a line end, which HTML drops.
    html[open..close]
        .strip_prefix('\n')
        .expect("the box starts with a line end")
        .replace("&#60;", "<")
        .replace("&#62;", ">")
        .replace("&#34;", "\"")
        .replace("&#39;", "'")
        .replace("&#38;", "&")
}

fn index_of_formation(list: &str, name: &str) -> usize {
    let list = catalogue().list(list).expect("list");
    list.formations
        .iter()
        .position(|f| f.name == name)
        .expect("formation")
}

fn index_of_upgrade(list: &str, name: &str) -> usize {
    let list = catalogue().list(list).expect("list");
    list.upgrades
        .iter()
        .position(|u| u.name == name)
        .expect("upgrade")
}

const CODEX: &str = "Army: Codex Astartes (2026-02-04)\nPoints: 3000\n";

#[test]
fn the_start_page_offers_every_list() {
    let r = get(app(), "/");
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.header(header::CONTENT_TYPE).starts_with("text/html"));
    assert!(
        r.header(header::CONTENT_SECURITY_POLICY)
            .contains("script-src 'self'")
    );
    let html = r.text();
    for list in &catalogue().lists {
        assert!(
            html.contains(&format!("value=\"{}\"", list.id)),
            "{} missing",
            list.id
        );
    }
    assert!(html.contains("<script src=\"/static/app.js\">"));
}

#[test]
fn a_new_roster_is_a_share_link() {
    let r = get(app(), "/new?army=codex-astartes&points=2500");
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    let location = r.header(header::LOCATION);
    assert!(location.starts_with("/?r=1."), "{location}");
    assert_eq!(
        muster::share::read(&location).as_deref(),
        Ok("Army: Codex Astartes (2026-02-04)\nPoints: 2500\n")
    );
    let page = get(app(), &location);
    assert_eq!(page.status, StatusCode::OK);
    let html = page.text();
    assert_eq!(
        textarea(&html),
        "Army: Codex Astartes (2026-02-04)\nPoints: 2500\n"
    );
    assert!(html.contains("0 / 2,500 points"), "{html}");
    assert!(html.contains("2,500 left"));
    // The list's formations are offered with their costs.
    assert!(
        html.contains("Tactical (175)") || html.contains(">Tactical ("),
        "{html}"
    );
}

#[test]
fn new_refuses_unknown_lists_and_bad_points() {
    assert_eq!(get(app(), "/new?army=nope").status, StatusCode::BAD_REQUEST);
    assert_eq!(
        get(app(), "/new?army=codex-astartes&points=lots").status,
        StatusCode::BAD_REQUEST
    );
    assert_eq!(
        get(app(), "/new?army=codex-astartes&points=0").status,
        StatusCode::BAD_REQUEST
    );
    assert_eq!(get(app(), "/new").status, StatusCode::BAD_REQUEST);
}

#[test]
fn clicks_build_a_legal_army() {
    let tactical = index_of_formation("codex-astartes", "Tactical");
    let rhinos = index_of_upgrade("codex-astartes", "Rhinos");
    let r = post(&[("roster", CODEX), ("op", &format!("add:{tactical}"))]);
    assert_eq!(r.status, StatusCode::OK);
    let html = r.text();
    // A fragment: the builder without the page around it.
    assert!(html.starts_with("<form id=\"builder\""), "{html}");
    let text = textarea(&html);
    assert_eq!(text, format!("{CODEX}\nTactical\n"));
    // Upgrades from the formation's own options, with costs.
    assert!(html.contains("Rhinos (+"), "{html}");
    let r = post(&[("roster", &text), ("op", "up:0"), ("up-0", &rhinos.to_string())]);
    let text = textarea(&r.text());
    assert_eq!(text, format!("{CODEX}\nTactical: Rhinos\n"));
    let r = post(&[("roster", &text), ("op", &format!("inc:0:{rhinos}"))]);
    let text = textarea(&r.text());
    assert_eq!(text, format!("{CODEX}\nTactical: 2x Rhinos\n"));
    let r = post(&[("roster", &text), ("op", &format!("dec:0:{rhinos}"))]);
    let text = textarea(&r.text());
    assert_eq!(text, format!("{CODEX}\nTactical: Rhinos\n"));
    let r = post(&[("roster", &text), ("op", &format!("dec:0:{rhinos}"))]);
    let text = textarea(&r.text());
    assert_eq!(text, format!("{CODEX}\nTactical\n"));
    let r = post(&[("roster", &text), ("op", "del:0")]);
    assert_eq!(textarea(&r.text()), format!("{CODEX}\n"));
}

#[test]
fn upgrades_on_their_own_lines_move_to_the_formation_line() {
    let text = format!("{CODEX}\nTactical   [325]\n    Dreadnought (Hellfire)\n    Drop Pods\nScout\n");
    let rhinos = index_of_upgrade("codex-astartes", "Rhinos");
    let r = post(&[("roster", &text), ("op", "up:0"), ("up-0", &rhinos.to_string())]);
    assert_eq!(
        textarea(&r.text()),
        format!("{CODEX}\nTactical: Dreadnought (Hellfire), Drop Pods, Rhinos\nScout\n")
    );
}

#[test]
fn members_join_their_group() {
    let text = "Army: Armageddon Sector (2023-08-29)\nPoints: 1500\n\nEscort squadron\n  Firestorm-class frigate\nLunar-class cruiser\n";
    let sword = index_of_formation("armageddon-sector", "Falchion-class frigate");
    let r = post(&[
        ("roster", text),
        ("op", "member:0"),
        ("member-0", &sword.to_string()),
    ]);
    assert_eq!(
        textarea(&r.text()),
        "Army: Armageddon Sector (2023-08-29)\nPoints: 1500\n\nEscort squadron\n  Firestorm-class frigate\n  Falchion-class frigate\nLunar-class cruiser\n"
    );
}

#[test]
fn a_broken_rule_shows_next_to_its_entry_with_its_hint() {
    let text = std::fs::read_to_string("tests/rosters/netea/codex-astartes/dreadnoughts-max-two.broken.txt")
        .expect("case");
    let r = post(&[("roster", &text), ("op", "check")]);
    let html = r.text();
    assert!(html.contains("NOT legal: 1 error"), "{html}");
    let entry = html.find("data-name=\"Devastator\"").expect("the entry");
    let finding = html.find("dreadnoughts-max-two]").expect("the rule");
    let next_entry = html[entry + 1..]
        .find("<li class=\"formation")
        .map_or(html.len(), |i| i + entry + 1);
    assert!(
        entry < finding && finding < next_entry,
        "the finding sits in its entry"
    );
    assert!(html.contains("has-errors"));
}

#[test]
fn derived_facts_are_shown() {
    let text = std::fs::read_to_string("examples/codex-astartes-3000.txt").expect("example");
    let html = post(&[("roster", &text), ("op", "check")]).text();
    assert!(html.contains("Legal"), "{html}");
    assert!(html.contains("Strategy rating"));
    assert!(html.contains("Break Their Spirit target"));
    assert!(html.contains("initiative"));
    assert!(html.contains("garrison:"));
    assert!(html.contains("3,000 / 3,000 points"), "{html}");
    let fleet = std::fs::read_to_string("examples/armageddon-sector-1500.txt").expect("example");
    let html = post(&[("roster", &fleet), ("op", "check")]).text();
    assert!(html.contains("Attack rating"), "{html}");
}

#[test]
fn header_fields_set_points_and_player() {
    let r = post(&[
        ("roster", CODEX),
        ("op", "header"),
        ("points", "2000"),
        ("player", "Ann"),
    ]);
    assert_eq!(
        textarea(&r.text()),
        "Army: Codex Astartes (2026-02-04)\nPlayer: Ann\nPoints: 2000\n"
    );
    let r = post(&[
        ("roster", CODEX),
        ("op", "header"),
        ("points", "many"),
        ("player", ""),
    ]);
    assert!(r.text().contains("the points limit must be a whole number"));
    assert_eq!(textarea(&r.text()), CODEX);
}

#[test]
fn everything_from_the_request_is_escaped() {
    let evil = "<script>alert(1)</script>\"'&";
    let text = format!("Army: Codex Astartes\nPoints: 3000\nPlayer: {evil}\n\n{evil}: {evil}\n");
    for r in [
        post(&[("roster", &text), ("op", "check")]),
        post_to(app(), "/", &[("roster", &text), ("op", "check")], false),
        get(
            app(),
            &format!("/?roster={}", muster::serve::view::urlencode(&text)),
        ),
        post(&[("roster", &text), ("op", evil)]),
    ] {
        assert_eq!(r.status, StatusCode::OK);
        let html = r.text();
        assert!(!html.contains("<script>alert"), "{html}");
        assert!(
            html.contains("&#60;script&#62;alert(1)&#60;/script&#62;"),
            "{html}"
        );
    }
}

#[test]
fn bad_requests_are_refused_or_reported() {
    // Not a form.
    let r = send(
        app(),
        Request::post("/")
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from("{}"))
            .expect("request"),
    );
    assert_eq!(r.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    // Too large.
    let big = "x".repeat(MAX_BODY + 1);
    let r = post(&[("roster", &big)]);
    assert_eq!(r.status, StatusCode::PAYLOAD_TOO_LARGE);
    // Clicks that point nowhere are findings, not failures.
    for op in [
        "del:99",
        "up:0",
        "add:100000",
        "inc:0:5",
        "frobnicate",
        "del:x",
        "member:0",
    ] {
        let r = post(&[("roster", CODEX), ("op", op)]);
        assert_eq!(r.status, StatusCode::OK, "{op}");
        assert!(r.text().contains("<code>builder</code>"), "{op}: {}", r.text());
        assert_eq!(textarea(&r.text()), CODEX, "{op}");
    }
    // Text that is not a roster is checked like any other.
    let r = post(&[("roster", "\u{0}\u{1}garbage\n\n:::"), ("op", "check")]);
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.text().contains("NOT legal"));
    // Another site's form.
    let r = send(
        app(),
        Request::post("/")
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .header(header::ORIGIN, "http://evil.example")
            .header(header::HOST, "127.0.0.1:8080")
            .body(Body::from("roster=x"))
            .expect("request"),
    );
    assert_eq!(r.status, StatusCode::FORBIDDEN);
}

#[test]
fn no_request_path_reaches_the_file_system() {
    for uri in [
        "/static/../Cargo.toml",
        "/static/%2e%2e/Cargo.toml",
        "/Cargo.toml",
        "/download/../../etc/passwd",
        "/templates/serve/page.html",
        "/organiser",
        "/submit",
    ] {
        assert_eq!(get(app(), uri).status, StatusCode::NOT_FOUND, "{uri}");
    }
    let js = get(app(), "/static/app.js");
    assert_eq!(js.status, StatusCode::OK);
    assert!(js.header(header::CONTENT_TYPE).starts_with("text/javascript"));
    let css = get(app(), "/static/app.css");
    assert!(css.header(header::CONTENT_TYPE).starts_with("text/css"));
}

#[test]
fn downloads_give_text_and_pdfs() {
    let text = std::fs::read_to_string("examples/codex-astartes-3000.txt").expect("example");
    let r = post_to(app(), "/download/roster.txt", &[("roster", &text)], false);
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.text(), text);
    assert_eq!(
        r.header(header::CONTENT_DISPOSITION),
        "attachment; filename=\"codex-astartes-test-player.txt\""
    );
    for uri in ["/download/roster.pdf", "/download/crib.pdf"] {
        let r = post_to(app(), uri, &[("roster", &text)], false);
        assert_eq!(r.status, StatusCode::OK, "{uri}");
        assert_eq!(r.header(header::CONTENT_TYPE), "application/pdf");
        assert!(r.body.starts_with(b"%PDF-"), "{uri}");
        let pdf = lopdf::Document::load_mem(&r.body).expect("a PDF lopdf reads");
        assert!(!pdf.get_pages().is_empty());
    }
    // By link too.
    let r = get(
        app(),
        &format!(
            "/download/roster.pdf?roster={}",
            muster::serve::view::urlencode(&text)
        ),
    );
    assert!(r.body.starts_with(b"%PDF-"));
    // Nothing to print.
    assert_eq!(
        post_to(app(), "/download/roster.pdf", &[("roster", " ")], false).status,
        StatusCode::BAD_REQUEST
    );
    let r = post_to(
        app(),
        "/download/crib.pdf",
        &[("roster", "Army: Nothing\n")],
        false,
    );
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
}

#[test]
fn the_share_link_reopens_the_roster() {
    let text = std::fs::read_to_string("examples/codex-astartes-3000.txt").expect("example");
    let html = post(&[("roster", &text), ("op", "check")]).text();
    let start = html.find("id=\"share\" href=\"").expect("share link") + "id=\"share\" href=\"".len();
    let end = html[start..].find('"').expect("end") + start;
    let href = html[start..end].replace("&#38;", "&");
    let page = get(app(), &href);
    assert_eq!(textarea(&page.text()), text);
}

#[test]
fn snapfire_links_and_exports_load_as_muster_text() {
    let case = std::fs::read_dir("tests/rosters/netea/white-scars")
        .expect("cases")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .find(|p| p.to_string_lossy().ends_with(".ok.txt"))
        .expect("a legal White Scars case");
    let roster = std::fs::read_to_string(case).expect("case");
    let checked = muster::check::check_text(catalogue(), "ws", &roster);
    let Some(Ok(shared)) = &checked.share else {
        panic!("no link")
    };
    let link = shared.link.url("chooser.html");
    let r = post(&[("roster", &link), ("op", "load")]);
    let text = textarea(&r.text());
    assert!(text.contains("\nArmy: White Scars"), "{text}");
    assert!(r.text().contains("White Scars"), "{}", r.text());
    // A list Snapfire has gets a Snapfire link back, to Snapfire itself
    // (a relative link would open a 404 on muster's own server).
    assert!(
        r.text().contains(&format!(
            "id=\"snapfire\" href=\"{}?list=",
            muster::import::snapfire::PUBLIC_URL
        )),
        "{}",
        r.text()
    );
    let export = std::fs::read_to_string("examples/orks-snapfire-export.txt").expect("example");
    let r = post(&[("roster", &export), ("op", "check")]);
    assert!(r.text().contains("Ghazghkull"), "an export is checked as it is");
    let r = post(&[("roster", &export), ("op", "load")]);
    let loaded = textarea(&r.text());
    // Ghazghkull's list has Snapfire's ids: the export loads as muster text,
    // after a comment saying where it came from.
    let first = loaded.lines().find(|l| !l.starts_with('#')).unwrap_or_default();
    assert!(first.starts_with("Army: ") || loaded == export, "{loaded}");
}

#[test]
fn an_event_limits_the_picker_and_applies_its_rules() {
    let app = router(Config {
        catalogue: catalogue(),
        event: Some(event("tests/events/club-3000.yaml")),
        submissions: None,
        local_only: true,
    });
    let html = get(app.clone(), "/").text();
    assert!(html.contains("value=\"codex-astartes\""));
    assert!(!html.contains("value=\"necrons\""), "only the event's lists");
    assert!(html.contains("Club Night"));
    let text = "Army: Necrons\nPoints: 3000\n\nPhalanx\n";
    let html = post_to(app, "/", &[("roster", text), ("op", "check")], true).text();
    assert!(html.contains("NOT legal"), "{html}");
}

#[test]
fn on_loopback_only_requests_naming_this_machine_are_answered() {
    let with_host = |host: &str| {
        send(
            app(),
            Request::get("/")
                .header(header::HOST, host)
                .body(Body::empty())
                .expect("request"),
        )
        .status
    };
    for host in ["127.0.0.1:8080", "localhost:8080", "LOCALHOST", "[::1]:8080"] {
        assert_eq!(with_host(host), StatusCode::OK, "{host}");
    }
    // A name an attacker pointed at 127.0.0.1 (DNS rebinding).
    for host in ["evil.example:8080", "evil.example", "127.0.0.1.evil.example"] {
        assert_eq!(with_host(host), StatusCode::MISDIRECTED_REQUEST, "{host}");
    }
    // Open to the network, any name will do.
    let open = router(Config {
        catalogue: catalogue(),
        event: None,
        submissions: None,
        local_only: false,
    });
    let r = send(
        open,
        Request::get("/")
            .header(header::HOST, "muster.club:8080")
            .body(Body::empty())
            .expect("request"),
    );
    assert_eq!(r.status, StatusCode::OK);
}

#[test]
fn the_landing_page_asks_for_the_game_and_the_army() {
    let html = get(app(), "/").text();
    assert!(html.contains("<h1>Start a roster</h1>"), "{html}");
    for wrong in [
        "Not a usable roster",
        "the file is empty",
        "muster new",
        "id=\"builder\"",
    ] {
        assert!(!html.contains(wrong), "{wrong}: {html}");
    }
    // No army is picked for the player; the games are grouped.
    assert!(
        html.contains("<option value=\"\" selected>Pick an army</option>"),
        "{html}"
    );
    let mut games: Vec<&str> = catalogue().lists.iter().map(|l| l.game.title()).collect();
    games.dedup();
    games.sort_unstable();
    games.dedup();
    assert_eq!(html.matches("<optgroup").count(), games.len(), "{html}");
    assert!(html.contains("<select id=\"game\" name=\"game\">"));
    // An unreadable share link opens on the landing page with the reason.
    let html = get(app(), "/?r=1.AAAA").text();
    assert!(html.contains("<h1>Start a roster</h1>"), "{html}");
    assert!(html.contains("cut short or altered"), "{html}");
}

#[test]
fn a_share_link_of_any_game_opens_the_builder_on_its_roster() {
    for path in [
        "examples/codex-astartes-3000.txt",
        "tests/rosters/bfg/armageddon-sector/legal-1500.ok.txt",
    ] {
        let text = std::fs::read_to_string(path).expect("roster");
        let link = muster::share::link("http://club.example/", &text);
        let query = link.trim_start_matches("http://club.example/");
        let page = get(app(), &format!("/{query}"));
        assert_eq!(page.status, StatusCode::OK);
        assert_eq!(textarea(&page.text()), text, "{path}");
        // A pasted link loads too.
        let r = post(&[("roster", &link), ("op", "load")]);
        assert_eq!(textarea(&r.text()), text);
    }
}

#[test]
fn the_builder_shows_budgets_and_the_number_of_formations() {
    let text = "Army: Codex Astartes\nPoints: 3000\n\nTactical\nThunderhawk\nWarhound\n";
    let html = post(&[("roster", text), ("op", "check")]).text();
    assert!(
        html.contains("<span id=\"activations\" title=\"activations\">3 formations</span>"),
        "{html}"
    );
    // Thunderhawk 200 and Warhound 275 of the third of 3,000.
    assert!(
        html.contains("<meter min=\"0\" max=\"1000\" low=\"1000\" high=\"1000\" optimum=\"0\" value=\"475\""),
        "{html}"
    );
    assert!(html.contains("475 / 1,000 points"), "{html}");
    // Over its rule, a bar runs past the mark, above `high`: drawn red,
    // not full and green.
    let text = "Army: Codex Astartes\nPoints: 3000\n\nTactical\nThunderhawk\nWarlord\nWarlord\n";
    let html = post(&[("roster", text), ("op", "check")]).text();
    assert!(
        html.contains(
            "<meter min=\"0\" max=\"1850\" low=\"1000\" high=\"1000\" optimum=\"0\" value=\"1850\""
        ),
        "{html}"
    );
}

#[test]
fn fixes_that_are_edits_get_a_button_and_cli_advice_stays_off_the_page() {
    let text = "Army: Codex Astartes (2026-02-04)\nPoints: 3000\n\nTactcal\n";
    let html = post(&[("roster", text), ("op", "check")]).text();
    assert!(!html.contains("muster options"), "{html}");
    let at = html.find("value=\"fix:").expect("a fix button") + "value=\"".len();
    let op = &html[at..at + html[at..].find('"').expect("end")];
    let fixed = post(&[("roster", text), ("op", op)]);
    assert_eq!(
        textarea(&fixed.text()),
        "Army: Codex Astartes (2026-02-04)\nPoints: 3000\n\nTactical\n"
    );
    // A fix in words has no button; a stale one is an error, not an edit.
    let r = post(&[("roster", "Army: Codex Astartes\n\nTactical\n"), ("op", "fix:99")]);
    assert!(r.text().contains("that finding is gone"), "{}", r.text());
}

/// Every formation the builder's buttons add is read back as that
/// formation (NetEpic cards whose names hold commas among them).
#[test]
fn every_formation_the_builder_adds_reads_back() {
    use muster::diagnostic::Code;
    for list in &catalogue().lists {
        let head = format!("Army: {} ({})\n", list.name, list.version);
        for f in &list.formations {
            let text = muster::serve::edit::add_formation(&head, muster::serve::edit::written_name(f));
            let checked = muster::check::check_text(catalogue(), "roster", &text);
            let unread: Vec<String> = checked
                .diagnostics
                .iter()
                .filter(|d| {
                    matches!(
                        d.code,
                        Code::ParseError | Code::UnknownFormation | Code::AmbiguousName
                    )
                })
                .map(|d| d.message.clone())
                .collect();
            assert!(unread.is_empty(), "{}: {text}{unread:?}", list.id);
        }
    }
}
