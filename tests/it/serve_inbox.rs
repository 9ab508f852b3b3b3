//! `muster serve --submissions`: the player's submission and private link,
//! the organiser's pages behind their key, the deadline, the exports, and
//! what every answer carries (security headers, 429s, refused hosts and
//! cross-site posts). In process, through the router.

use super::serve::{Reply, catalogue, encode, event, get, post_to, send};
use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use muster::serve::{Config, Limits, Site, app};
use std::path::Path;

const KEY: &str = "organiser-key-for-tests";

fn site() -> Site {
    Site {
        organiser_key: Some(KEY.into()),
        ..Site::default()
    }
}

fn inbox_with(dir: &Path, event_file: &str, site: Site) -> Router {
    app(
        Config {
            catalogue: catalogue(),
            event: Some(event(event_file)),
            submissions: Some(dir.to_path_buf()),
            local_only: true,
        },
        site,
    )
    .expect("the inbox opens")
}

fn inbox(dir: &Path) -> Router {
    inbox_with(dir, "tests/events/club-3000.yaml", site())
}

fn example() -> String {
    std::fs::read_to_string("examples/codex-astartes-3000.txt").expect("example")
}

/// A form post with extra headers.
fn post_with(app: Router, uri: &str, fields: &[(&str, &str)], headers: &[(&str, &str)]) -> Reply {
    let mut request = Request::post(uri).header(header::CONTENT_TYPE, "application/x-www-form-urlencoded");
    for (k, v) in headers {
        request = request.header(*k, *v);
    }
    send(app, request.body(Body::from(encode(fields))).expect("request"))
}

fn get_with(app: Router, uri: &str, headers: &[(&str, &str)]) -> Reply {
    let mut request = Request::get(uri);
    for (k, v) in headers {
        request = request.header(*k, *v);
    }
    send(app, request.body(Body::empty()).expect("request"))
}

/// The token of a 303 to `/mine/TOKEN?...`.
fn token_of(r: &Reply) -> String {
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.text());
    let location = r.header(header::LOCATION);
    let rest = location.strip_prefix("/mine/").expect("to the private page");
    rest.split('?').next().unwrap_or_default().to_string()
}

fn rosters(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with('.'))
        .collect();
    names.sort();
    names
}

/// The one-time mark of a submission form.
fn once(html: &str) -> String {
    let at = html.find("name=\"once\" value=\"").expect("a once field") + 19;
    html[at..at + 32].to_string()
}

#[test]
fn a_second_submit_replaces_and_the_private_link_edits() {
    let dir = tempfile::tempdir().expect("dir");
    let text = example();
    let form = get(
        inbox(dir.path()),
        &format!("/submit?roster={}", muster::serve::view::urlencode(&text)),
    );
    assert_eq!(form.status, StatusCode::OK);
    assert!(
        form.text().contains("Test Player"),
        "the player is taken from the roster"
    );
    let mark = once(&form.text());
    let fields = [
        ("player", "Ann <b>O'Neil</b>"),
        ("roster", text.as_str()),
        ("once", mark.as_str()),
    ];
    let first = post_to(inbox(dir.path()), "/submit", &fields, false);
    let token = token_of(&first);
    let cookie = first.header(header::SET_COOKIE);
    assert!(cookie.starts_with(&format!("muster_mine={token};")), "{cookie}");
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"),
        "{cookie}"
    );
    assert_eq!(rosters(dir.path()).len(), 1);
    let written = std::fs::read_to_string(dir.path().join(&rosters(dir.path())[0])).expect("file");
    assert!(written.contains("Player: Ann <b>O'Neil</b>"), "{written}");
    // The same form pressed again: the same submission.
    let again = post_to(inbox(dir.path()), "/submit", &fields, false);
    assert_eq!(token_of(&again), token);
    // A new form from the same browser, same name: replaces.
    let cookie_header = format!("muster_mine={token}");
    let changed = text.replace("Player: Test Player", "Player: Ann");
    let third = post_with(
        inbox(dir.path()),
        "/submit",
        &[("player", "ann <b>o'neil</b>"), ("roster", &changed)],
        &[("cookie", &cookie_header)],
    );
    assert_eq!(token_of(&third), token);
    assert_eq!(rosters(dir.path()).len(), 1, "one submission, replaced");
    // The page after Received is the private one: not armed to file again.
    let mine = get(inbox(dir.path()), &format!("/mine/{token}?received"));
    assert_eq!(mine.status, StatusCode::OK);
    let html = mine.text();
    assert!(html.contains("<strong>Received</strong>"), "{html}");
    assert!(
        html.contains("Ann &#60;b&#62;O&#39;Neil&#60;/b&#62;") || html.contains("ann &#60;b&#62;"),
        "{html}"
    );
    assert!(!html.contains("action=\"/submit\""), "{html}");
    assert!(html.contains(&format!("action=\"/mine/{token}\"")));
    assert!(
        html.contains(&format!("http://127.0.0.1/mine/{token}")) || html.contains(&format!("/mine/{token}"))
    );
    // Replace through the private link.
    let broken = text.replace("Points: 3000", "Points: 1000");
    let r = post_to(
        inbox(dir.path()),
        &format!("/mine/{token}"),
        &[("op", "replace"), ("player", "Ann"), ("roster", &broken)],
        false,
    );
    assert_eq!(token_of(&r), token);
    let mine = get(inbox(dir.path()), &format!("/mine/{token}?replaced")).text();
    assert!(
        mine.contains("<strong>Replaced</strong>") && mine.contains("NOT legal"),
        "{mine}"
    );
    let file = &rosters(dir.path())[0];
    assert!(
        std::fs::read_to_string(dir.path().join(file))
            .expect("file")
            .contains("Points: 1000")
    );
    // Another player, another browser: a second submission.
    let bob = post_to(
        inbox(dir.path()),
        "/submit",
        &[("player", "Bob"), ("roster", &text)],
        false,
    );
    assert_ne!(token_of(&bob), token);
    assert_eq!(rosters(dir.path()).len(), 2);
    // Withdraw.
    let r = post_to(
        inbox(dir.path()),
        &format!("/mine/{token}"),
        &[("op", "withdraw")],
        false,
    );
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.text().contains("withdrawn"));
    assert_eq!(rosters(dir.path()).len(), 1);
    assert_eq!(
        get(inbox(dir.path()), &format!("/mine/{token}")).status,
        StatusCode::NOT_FOUND
    );
    // Tokens that are not one, or nobody's.
    for bad in ["../../etc/passwd", "0123456789abcdef0123456789abcdef", "x"] {
        assert_eq!(
            get(inbox(dir.path()), &format!("/mine/{bad}")).status,
            StatusCode::NOT_FOUND,
            "{bad}"
        );
    }
    // Missing fields.
    for fields in [
        [("player", ""), ("roster", text.as_str())],
        [("player", "Cy"), ("roster", "")],
    ] {
        let r = post_to(inbox(dir.path()), "/submit", &fields, false);
        assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    }
    assert_eq!(rosters(dir.path()).len(), 1);
}

#[test]
fn a_restart_shows_the_same_inbox() {
    let dir = tempfile::tempdir().expect("dir");
    let text = example();
    let token = token_of(&post_to(
        inbox(dir.path()),
        "/submit",
        &[("player", "Ann"), ("roster", &text)],
        false,
    ));
    // A roster an older muster wrote, or the organiser put there.
    std::fs::write(
        dir.path().join("1700000000-0000-bob.txt"),
        text.replace("Test Player", "Bob"),
    )
    .expect("file");
    let again = inbox(dir.path());
    assert_eq!(
        get(again.clone(), &format!("/mine/{token}")).status,
        StatusCode::OK
    );
    let page = get_with(
        again,
        "/organiser",
        &[("authorization", &format!("Bearer {KEY}"))],
    )
    .text();
    assert!(page.contains("Ann") && page.contains("Bob"), "{page}");
    assert!(page.contains("2 submissions: 2 legal"), "{page}");
}

#[test]
fn the_organiser_pages_need_the_key() {
    let dir = tempfile::tempdir().expect("dir");
    let text = example();
    post_to(
        inbox(dir.path()),
        "/submit",
        &[("player", "Ann"), ("roster", &text)],
        false,
    );
    let broken = text.replace("Points: 3000", "Points: 1000");
    post_to(
        inbox(dir.path()),
        "/submit",
        &[("player", "Bob"), ("roster", &broken)],
        false,
    );
    // No player's page links to it.
    for uri in ["/", "/submit", "/new?army=codex-astartes"] {
        let r = get(inbox(dir.path()), uri);
        assert!(!r.text().contains("/organiser"), "{uri}: {}", r.text());
    }
    // Refused without the key, or with a wrong one.
    for uri in [
        "/organiser",
        "/organiser/report.csv",
        "/organiser/report.html",
        "/organiser/rosters.zip",
    ] {
        let r = get(inbox(dir.path()), uri);
        assert_eq!(r.status, StatusCode::UNAUTHORIZED, "{uri}");
        assert!(!r.text().contains("Ann"), "{uri}");
        let r = get_with(inbox(dir.path()), uri, &[("cookie", "muster_organiser=guess")]);
        assert_eq!(r.status, StatusCode::UNAUTHORIZED, "{uri}");
    }
    let r = post_to(inbox(dir.path()), "/organiser/login", &[("key", "wrong")], false);
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    assert!(r.text().contains("not the organiser"));
    // Logged in: a cookie for /organiser.
    let r = post_to(inbox(dir.path()), "/organiser/login", &[("key", KEY)], false);
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    let cookie = r.header(header::SET_COOKIE);
    assert!(
        cookie.contains("Path=/organiser") && cookie.contains("HttpOnly"),
        "{cookie}"
    );
    let session = cookie.split(';').next().unwrap_or_default().to_string();
    let page = get_with(inbox(dir.path()), "/organiser", &[("cookie", &session)]);
    assert_eq!(page.status, StatusCode::OK);
    let html = page.text();
    assert!(html.contains("Ann") && html.contains("Bob"), "{html}");
    assert!(html.contains("NOT legal (") && html.contains(">legal<"), "{html}");
    assert!(html.contains("2 submissions: 1 legal, 1 not"), "{html}");
    // File names, never the server's paths.
    let path = dir.path().display().to_string();
    assert!(!html.contains(&path), "{html}");
    assert!(html.contains("ann-") && html.contains("bob-"));
    // The exports: what `muster check DIR --report` writes.
    let csv = get_with(
        inbox(dir.path()),
        "/organiser/report.csv",
        &[("cookie", &session)],
    );
    assert_eq!(csv.status, StatusCode::OK);
    assert!(csv.header(header::CONTENT_DISPOSITION).contains("report.csv"));
    let csv = csv.text();
    assert!(csv.starts_with("file,player,army"), "{csv}");
    assert!(
        csv.contains("legal") && csv.contains("illegal") && !csv.contains(&path),
        "{csv}"
    );
    let report = get_with(
        inbox(dir.path()),
        "/organiser/report.html",
        &[("cookie", &session)],
    );
    assert_eq!(report.status, StatusCode::OK);
    assert!(
        report
            .header(header::CONTENT_SECURITY_POLICY)
            .starts_with("sandbox")
    );
    assert!(report.text().contains("Club Night"));
    let zip = get_with(
        inbox(dir.path()),
        "/organiser/rosters.zip",
        &[("cookie", &session)],
    );
    assert_eq!(zip.status, StatusCode::OK);
    assert!(zip.body.starts_with(b"PK"));
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(zip.body.clone())).expect("a zip");
    assert_eq!(archive.len(), 2);
    let first = archive.by_index(0).expect("a file").name().to_string();
    assert!(first.ends_with(".txt") && !first.contains('/'), "{first}");
    // One roster, by its name in the inbox only.
    let name = rosters(dir.path())[0].clone();
    let one = get_with(
        inbox(dir.path()),
        &format!("/organiser/roster/{name}"),
        &[("cookie", &session)],
    );
    assert_eq!(one.status, StatusCode::OK);
    assert!(one.text().contains("Army: Codex Astartes"), "{}", one.text());
    let escape = get_with(
        inbox(dir.path()),
        "/organiser/roster/..%2F..%2FCargo.toml",
        &[("cookie", &session)],
    );
    assert_eq!(escape.status, StatusCode::NOT_FOUND);
}

#[test]
fn after_the_deadline_nothing_changes() {
    let dir = tempfile::tempdir().expect("dir");
    let text = example();
    let open = inbox_with(dir.path(), "tests/events/deadline-future.yaml", site());
    let form = get(open.clone(), "/submit").text();
    assert!(
        form.contains("Until 2099-12-04 18:00 UTC you can replace or withdraw it"),
        "{form}"
    );
    let token = token_of(&post_to(
        open,
        "/submit",
        &[("player", "Ann"), ("roster", &text)],
        false,
    ));
    let closed = || inbox_with(dir.path(), "tests/events/deadline-past.yaml", site());
    let r = post_to(
        closed(),
        "/submit",
        &[("player", "Bob"), ("roster", &text)],
        false,
    );
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    assert!(
        r.text().contains("Submissions closed at 2020-01-01 00:00 UTC"),
        "{}",
        r.text()
    );
    let r = post_to(
        closed(),
        &format!("/mine/{token}"),
        &[
            ("op", "replace"),
            ("player", "Ann"),
            ("roster", "Army: Ork War Horde\n"),
        ],
        false,
    );
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    let r = post_to(closed(), &format!("/mine/{token}"), &[("op", "withdraw")], false);
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    let mine = get(closed(), &format!("/mine/{token}")).text();
    assert!(
        mine.contains("can no longer be changed") && !mine.contains("<form"),
        "{mine}"
    );
    assert_eq!(rosters(dir.path()).len(), 1);
}

#[test]
fn every_answer_carries_the_security_headers() {
    let dir = tempfile::tempdir().expect("dir");
    for uri in [
        "/",
        "/submit",
        "/organiser",
        "/static/app.js",
        "/static/inbox.css",
        "/nowhere",
    ] {
        let r = get(inbox(dir.path()), uri);
        let csp = r.header(header::CONTENT_SECURITY_POLICY);
        assert!(csp.contains("frame-ancestors 'none'"), "{uri}: {csp}");
        assert!(!csp.contains("unsafe-inline"), "{uri}: {csp}");
        assert_eq!(r.header(header::X_CONTENT_TYPE_OPTIONS), "nosniff", "{uri}");
        assert_eq!(r.header(header::REFERRER_POLICY), "no-referrer", "{uri}");
        assert_eq!(r.header(header::X_FRAME_OPTIONS), "DENY", "{uri}");
    }
    // Posts from other sites are refused, wherever they go.
    for uri in [
        "/submit",
        "/organiser/login",
        "/mine/0123456789abcdef0123456789abcdef",
        "/",
    ] {
        let r = post_with(
            inbox(dir.path()),
            uri,
            &[
                ("player", "Eve"),
                ("roster", "Army: Ork War Horde\n"),
                ("key", KEY),
            ],
            &[("origin", "https://evil.example"), ("host", "127.0.0.1:8080")],
        );
        assert_eq!(r.status, StatusCode::FORBIDDEN, "{uri}");
        let r = post_with(
            inbox(dir.path()),
            uri,
            &[("player", "Eve"), ("roster", "Army: Ork War Horde\n")],
            &[("sec-fetch-site", "cross-site")],
        );
        assert_eq!(r.status, StatusCode::FORBIDDEN, "{uri}");
    }
    assert!(rosters(dir.path()).is_empty());
}

#[test]
fn behind_a_proxy_only_the_public_host_is_answered() {
    let dir = tempfile::tempdir().expect("dir");
    let public = || {
        let site = Site {
            public_url: Some("https://muster.example.org".into()),
            trust_proxy: true,
            ..site()
        };
        app(
            Config {
                catalogue: catalogue(),
                event: Some(event("tests/events/club-3000.yaml")),
                submissions: Some(dir.path().to_path_buf()),
                local_only: true,
            },
            site,
        )
        .expect("app")
    };
    let r = get_with(public(), "/", &[("host", "muster.example.org")]);
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.header(header::STRICT_TRANSPORT_SECURITY), "max-age=31536000");
    assert_eq!(
        get_with(public(), "/", &[("host", "evil.example")]).status,
        StatusCode::MISDIRECTED_REQUEST
    );
    // Links are the public address's; cookies are Secure.
    let r = post_with(
        public(),
        "/submit",
        &[("player", "Ann"), ("roster", &example())],
        &[
            ("host", "muster.example.org"),
            ("origin", "https://muster.example.org"),
        ],
    );
    let token = token_of(&r);
    assert!(r.header(header::SET_COOKIE).contains("; Secure"));
    let mine = get_with(
        public(),
        &format!("/mine/{token}"),
        &[("host", "muster.example.org")],
    )
    .text();
    assert!(
        mine.contains(&format!("https://muster.example.org/mine/{token}")),
        "{mine}"
    );
}

#[test]
fn too_many_checks_or_submissions_get_a_clear_429() {
    let dir = tempfile::tempdir().expect("dir");
    let limited = inbox_with(
        dir.path(),
        "tests/events/club-3000.yaml",
        Site {
            trust_proxy: true,
            limits: Limits {
                checks_per_minute: 6,
                submissions_per_minute: 6,
                ..Limits::default()
            },
            ..site()
        },
    );
    let from = |ip: &str| vec![("x-forwarded-for", format!("198.51.100.9, {ip}"))];
    let check = |ip: &str| {
        let headers = from(ip);
        let headers: Vec<(&str, &str)> = headers.iter().map(|(k, v)| (*k, v.as_str())).collect();
        post_with(
            limited.clone(),
            "/",
            &[("roster", "Army: Ork War Horde\n"), ("op", "check")],
            &headers,
        )
    };
    for _ in 0..5 {
        assert_eq!(check("192.0.2.1").status, StatusCode::OK);
    }
    let r = check("192.0.2.1");
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(
        r.text().starts_with("too many checks from your address: wait"),
        "{}",
        r.text()
    );
    assert!(r.header(header::RETRY_AFTER).parse::<u64>().is_ok_and(|s| s >= 1));
    assert_eq!(
        check("192.0.2.2").status,
        StatusCode::OK,
        "another client is not held back"
    );
    // Submissions have their own limit.
    let text = example();
    for n in 0..5 {
        let r = post_with(
            limited.clone(),
            "/submit",
            &[("player", &format!("P{n}")), ("roster", &text)],
            &[("x-forwarded-for", "192.0.2.3")],
        );
        assert_eq!(r.status, StatusCode::SEE_OTHER);
    }
    let r = post_with(
        limited.clone(),
        "/submit",
        &[("player", "P6"), ("roster", &text)],
        &[("x-forwarded-for", "192.0.2.3")],
    );
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(r.text().starts_with("too many submissions"), "{}", r.text());
    assert_eq!(rosters(dir.path()).len(), 5);
}

#[test]
fn the_hosting_guide_names_real_flags_and_files() {
    let readme = std::fs::read_to_string("README.md").expect("README");
    let start = readme
        .find("## Hosting muster for a club or an event")
        .expect("the section");
    let section = &readme[start..];
    let section = &section[..section[3..].find("\n## ").map_or(section.len(), |e| e + 3)];
    let unit = std::fs::read_to_string("deploy/muster.service").expect("the systemd unit");
    let nginx = std::fs::read_to_string("deploy/nginx.conf").expect("the nginx example");
    assert!(section.contains("deploy/muster.service") && section.contains("deploy/nginx.conf"));
    let exec = unit
        .lines()
        .find_map(|l| l.strip_prefix("ExecStart="))
        .expect("ExecStart");
    let help = std::process::Command::new(env!("CARGO_BIN_EXE_muster"))
        .args(["serve", "--help"])
        .output()
        .expect("muster serve --help");
    let help = String::from_utf8_lossy(&help.stdout);
    let commands: Vec<&str> = section
        .split("```sh")
        .skip(1)
        .filter_map(|b| b.split("```").next())
        .chain([exec])
        .collect();
    let mut flags = 0;
    for command in &commands {
        for flag in command.split_whitespace().filter(|w| w.starts_with("--")) {
            assert!(
                help.contains(&format!("{flag} ")) || help.contains(&format!("{flag}\n")),
                "{flag}"
            );
            flags += 1;
        }
    }
    assert!(flags >= 10, "{flags}");
    // The proxy and the unit agree on the address and the public name.
    assert!(exec.contains("--listen 127.0.0.1:8080") && nginx.contains("proxy_pass http://127.0.0.1:8080;"));
    assert!(exec.contains("--public-url https://muster.example.org"));
    assert!(nginx.contains("server_name muster.example.org;"));
    assert!(nginx.contains("proxy_set_header Host $host;"));
    assert!(nginx.contains("X-Forwarded-For $proxy_add_x_forwarded_for"));
    assert!(unit.contains("MUSTER_ORGANISER_KEY"));
}

#[test]
fn a_deadline_that_is_no_date_is_reported_at_its_line() {
    let text = "name: X\ngame: netea\npoints: 3000\ndeadline: 2026-02-30 18:00\n";
    let problems = muster::event::load(muster::source::SourceFile::new("e.yaml", text), catalogue())
        .expect_err("refused");
    assert!(
        problems[0].message.contains("is not a date and time"),
        "{}",
        problems[0].message
    );
    assert_eq!(problems[0].line_col().map(|(line, _)| line), Some(4));
    let text = "name: X\ngame: netea\npoints: 3000\ndeadline: next Friday\n";
    assert!(muster::event::load(muster::source::SourceFile::new("e.yaml", text), catalogue()).is_err());
}
