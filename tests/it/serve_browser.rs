//! `muster serve` in a real headless Chromium, driven over WebDriver
//! (chromedriver, spoken to with a few lines of HTTP below): build a legal
//! army by clicking, break a rule and see its finding, type into the roster
//! and see it re-checked, download the PDF, submit to an event twice (one
//! submission), edit it through its private link, open the organiser's page
//! (refused without the key, shown with it), and save screenshots of the
//! builder and of the organiser's page at 1200 and 400 px
//! (`target/serve-screens/`).
//!
//! Needs `chromium` and `chromedriver` (Debian: `chromium-driver`). Without
//! them the test prints a note and passes, unless `MUSTER_BROWSER_TESTS=1`
//! (set by `.ci/run`, which installs both), when it fails.

use super::serve::{catalogue, event};
use serde_json::{Value, json};
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const CHROMIUM: &str = "/usr/bin/chromium";

fn find_driver() -> Option<PathBuf> {
    let from_env = std::env::var_os("CHROMEDRIVER").map(PathBuf::from);
    from_env
        .into_iter()
        .chain(["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"].map(PathBuf::from))
        .find(|p| p.exists())
}

/// One HTTP/1.1 request with a JSON body to chromedriver; the JSON answer.
fn http(port: u16, method: &str, path: &str, body: Option<&Value>) -> Result<Value, String> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).map_err(|e| e.to_string())?;
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .map_err(|e| e.to_string())?;
    let body = body.map(Value::to_string).unwrap_or_default();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).map_err(|e| e.to_string())?;
    // Read the header, then exactly Content-Length bytes (chromedriver may
    // keep the connection open), or chunks up to the last one.
    let mut raw = Vec::new();
    let mut buf = [0u8; 16384];
    let split = loop {
        if let Some(at) = raw.windows(4).position(|w| w == b"\r\n\r\n") {
            break at;
        }
        let n = stream.read(&mut buf).map_err(|e| e.to_string())?;
        if n == 0 {
            return Err("connection closed before the header".into());
        }
        raw.extend_from_slice(&buf[..n]);
    };
    let head = String::from_utf8_lossy(&raw[..split]).to_ascii_lowercase();
    let mut payload = raw[split + 4..].to_vec();
    let length = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|v| v.trim().parse::<usize>().ok());
    let chunked = head.contains("transfer-encoding: chunked");
    loop {
        let done = match length {
            Some(n) => payload.len() >= n,
            None if chunked => payload.windows(5).any(|w| w == b"0\r\n\r\n"),
            None => false,
        };
        if done {
            break;
        }
        let n = stream.read(&mut buf).map_err(|e| e.to_string())?;
        if n == 0 {
            break;
        }
        payload.extend_from_slice(&buf[..n]);
    }
    if chunked {
        let mut out = Vec::new();
        let mut rest = &payload[..];
        while let Some(end) = rest.windows(2).position(|w| w == b"\r\n") {
            let size = usize::from_str_radix(String::from_utf8_lossy(&rest[..end]).trim(), 16).unwrap_or(0);
            if size == 0 || rest.len() < end + 2 + size {
                break;
            }
            out.extend_from_slice(&rest[end + 2..end + 2 + size]);
            rest = &rest[(end + 4 + size).min(rest.len())..];
        }
        payload = out;
    }
    serde_json::from_slice(&payload).map_err(|e| format!("{e}: {}", String::from_utf8_lossy(&payload)))
}

struct Driver {
    process: Child,
    port: u16,
    session: String,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = http(self.port, "DELETE", &format!("/session/{}", self.session), None);
        let _ = self.process.kill();
        let _ = self.process.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

impl Driver {
    fn start(driver: &Path, profile: &Path, downloads: &Path, javascript: bool) -> Driver {
        let port = free_port();
        let process = Command::new(driver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let deadline = Instant::now() + Duration::from_secs(20);
        while http(port, "GET", "/status", None).is_err() {
            assert!(Instant::now() < deadline, "chromedriver did not answer");
            std::thread::sleep(Duration::from_millis(100));
        }
        let capabilities = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": CHROMIUM,
                "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                         "--disable-background-networking", "--disable-component-update", "--disable-sync",
                         "--window-size=1280,1000",
                         format!("--user-data-dir={}", profile.display())],
                "prefs": {
                    "download.default_directory": downloads.display().to_string(),
                    "download.prompt_for_download": false,
                    "plugins.always_open_pdf_externally": true,
                    "profile.managed_default_content_settings.javascript": if javascript { 1 } else { 2 }
                }
            }
        }}});
        let answer = http(port, "POST", "/session", Some(&capabilities)).expect("a session");
        let session = answer["value"]["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session: {answer}"))
            .to_string();
        let driver = Driver {
            process,
            port,
            session,
        };
        driver.cmd(
            "POST",
            "goog/cdp/execute",
            json!({"cmd": "Browser.setDownloadBehavior",
                   "params": {"behavior": "allow", "downloadPath": downloads.display().to_string()}}),
        );
        driver
    }

    fn cmd(&self, method: &str, path: &str, body: Value) -> Value {
        let body = (method == "POST").then_some(body);
        let answer = http(
            self.port,
            method,
            &format!("/session/{}/{path}", self.session),
            body.as_ref(),
        )
        .unwrap_or_else(|e| panic!("{path}: {e}"));
        if answer["value"]["error"].is_string() {
            panic!("{path}: {answer}");
        }
        answer["value"].clone()
    }

    fn go(&self, url: &str) {
        self.cmd("POST", "url", json!({ "url": url }));
    }

    fn find(&self, css: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let answer = http(
                self.port,
                "POST",
                &format!("/session/{}/element", self.session),
                Some(&json!({"using": "css selector", "value": css})),
            )
            .expect("find");
            let found = answer["value"]
                .as_object()
                .filter(|map| !map.contains_key("error"))
                .and_then(|map| map.values().next())
                .and_then(Value::as_str);
            if let Some(id) = found {
                return id.to_string();
            }
            assert!(Instant::now() < deadline, "no element {css}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn click(&self, css: &str) {
        let id = self.find(css);
        self.cmd("POST", &format!("element/{id}/click"), json!({}));
    }

    fn type_into(&self, css: &str, text: &str) {
        let id = self.find(css);
        self.cmd("POST", &format!("element/{id}/value"), json!({ "text": text }));
    }

    fn clear(&self, css: &str) {
        let id = self.find(css);
        self.cmd("POST", &format!("element/{id}/clear"), json!({}));
    }

    fn script(&self, script: &str) -> Value {
        self.cmd("POST", "execute/sync", json!({ "script": script, "args": [] }))
    }

    fn text_of(&self, css: &str) -> String {
        let id = self.find(css);
        self.cmd("GET", &format!("element/{id}/text"), json!({}))
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    /// Waits until the page's JavaScript expression is true.
    fn wait_for(&self, expression: &str) {
        let deadline = Instant::now() + Duration::from_secs(10);
        while self.script(&format!("return !!({expression});")) != Value::Bool(true) {
            assert!(Instant::now() < deadline, "never true: {expression}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn roster(&self) -> String {
        self.script("return document.getElementById('roster').value;")
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    fn screenshot(&self, path: &Path) {
        let data = self.cmd("GET", "screenshot", json!({}));
        let bytes = base64(data.as_str().unwrap_or_default());
        std::fs::write(path, bytes).expect("screenshot written");
    }
}

fn base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let mut out = Vec::new();
    let (mut acc, mut bits) = (0u32, 0);
    for v in text.bytes().filter_map(value) {
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    out
}

fn formation_index(list: &str, name: &str) -> usize {
    let list = catalogue().list(list).expect("list");
    list.formations
        .iter()
        .position(|f| f.name == name)
        .expect("formation")
}

fn upgrade_index(list: &str, name: &str) -> usize {
    let list = catalogue().list(list).expect("list");
    list.upgrades
        .iter()
        .position(|u| u.name == name)
        .expect("upgrade")
}

#[test]
fn a_player_builds_breaks_prints_and_submits_in_chromium() {
    let required = std::env::var("MUSTER_BROWSER_TESTS").is_ok_and(|v| v == "1");
    let driver_path = find_driver();
    let Some(driver_path) = driver_path.filter(|_| Path::new(CHROMIUM).exists()) else {
        assert!(
            !required,
            "MUSTER_BROWSER_TESTS=1 but chromium or chromedriver is missing (apt-get install chromium chromium-driver)"
        );
        eprintln!(
            "note: browser test skipped: no chromium or chromedriver (set MUSTER_BROWSER_TESTS=1 to require it)"
        );
        return;
    };
    let work = tempfile::tempdir().expect("temp dir");
    let submissions = work.path().join("submissions");
    let downloads = work.path().join("downloads");
    let profile = work.path().join("profile");
    for d in [&submissions, &downloads, &profile] {
        std::fs::create_dir_all(d).expect("dir");
    }
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let base = format!("http://{}", listener.local_addr().expect("address"));
    let key = "browser-test-organiser-key";
    let router = muster::serve::app(
        muster::serve::Config {
            catalogue: catalogue(),
            event: Some(event("tests/events/club-3000.yaml")),
            submissions: Some(submissions.clone()),
            local_only: true,
        },
        muster::serve::Site {
            organiser_key: Some(key.into()),
            ..muster::serve::Site::default()
        },
    )
    .expect("the inbox opens");
    std::thread::spawn(move || muster::serve::run(listener, router));

    let b = Driver::start(&driver_path, &profile, &downloads, true);
    b.go(&format!("{base}/"));
    // Pick the list and start.
    b.click("select[name=army] option[value=codex-astartes]");
    b.clear("#picker input[name=points]");
    b.type_into("#picker input[name=points]", "3000");
    b.click("#picker button[type=submit]");
    b.wait_for("document.getElementById('roster') && document.getElementById('roster').value.includes('Codex Astartes')");

    // Build by clicking: each click is swapped in by the script.
    let tactical = formation_index("codex-astartes", "Tactical");
    let rhinos = upgrade_index("codex-astartes", "Rhinos");
    b.click(&format!("button[value='add:{tactical}']"));
    b.wait_for("document.querySelectorAll('#formations > li').length == 1");
    b.click(&format!("select[name='up-0'] option[value='{rhinos}']"));
    b.click("button[value='up:0']");
    b.wait_for("document.getElementById('roster').value.includes('Tactical: Rhinos')");
    let scout = formation_index("codex-astartes", "Scout");
    b.click(&format!("button[value='add:{scout}']"));
    b.wait_for("document.querySelectorAll('#formations > li').length == 2");
    let verdict = b.text_of("#verdict");
    assert_eq!(verdict, "Legal", "{}", b.roster());
    assert!(b.text_of("#total").contains("/ 3,000 points"));
    // The address is the share link of the roster.
    let url = b.script("return location.search;");
    assert!(
        url.as_str().unwrap_or_default().starts_with("?roster=Army"),
        "{url}"
    );
    b.screenshot(&screens().join("builder-legal.png"));

    // Break a rule by clicking: three Dreadnoughts in one formation.
    let dread = upgrade_index("codex-astartes", "Dreadnought (Power Fist)");
    for n in 0..3 {
        b.click(&format!("select[name='up-0'] option[value='{dread}']"));
        b.click("button[value='up:0']");
        let want = if n == 0 {
            "Dreadnought".to_string()
        } else {
            format!("{}x Dreadnought", n + 1)
        };
        b.wait_for(&format!(
            "document.getElementById('roster').value.includes({want:?})"
        ));
    }
    b.wait_for("document.querySelector('#formations > li.has-errors') !== null");
    let entry = b.text_of("#formations > li.has-errors");
    assert!(entry.contains("dreadnoughts-max-two"), "{entry}");
    assert!(b.text_of("#verdict").starts_with("NOT legal"));
    b.screenshot(&screens().join("builder-broken.png"));

    // Typing re-checks live: fix it in the text box.
    let fixed = b.roster().replace("3x Dreadnought", "2x Dreadnought");
    assert_ne!(fixed, b.roster());
    b.clear("#roster");
    b.type_into("#roster", &fixed);
    b.wait_for("!document.getElementById('army').textContent.includes('dreadnoughts-max-two')");
    assert!(b.roster().contains("2x Dreadnought (Power Fist)"));

    // The PDF roster downloads.
    b.click("button[formaction='/download/roster.pdf']");
    let deadline = Instant::now() + Duration::from_secs(20);
    let pdf = loop {
        let found = std::fs::read_dir(&downloads)
            .expect("downloads")
            .filter_map(Result::ok)
            .map(|e| e.path())
            .find(|p| p.extension().is_some_and(|x| x == "pdf"));
        if let Some(p) = found {
            break p;
        }
        assert!(Instant::now() < deadline, "no PDF downloaded");
        std::thread::sleep(Duration::from_millis(100));
    };
    std::thread::sleep(Duration::from_millis(300));
    let bytes = std::fs::read(&pdf).expect("pdf");
    assert!(bytes.starts_with(b"%PDF-"), "{}", pdf.display());

    // Submit to the event.
    let handles = b.cmd("GET", "window/handles", json!({}));
    if let Some(first) = handles.as_array().and_then(|h| h.first()) {
        b.cmd("POST", "window", json!({ "handle": first }));
    }
    let builder_url = b.script("return location.href;");
    let builder_url = builder_url.as_str().unwrap_or_default().to_string();
    assert!(
        !b.script("return document.body.innerHTML;")
            .as_str()
            .unwrap_or_default()
            .contains("/organiser"),
        "no player's page links to the organiser's"
    );
    let submit_from_builder = || {
        b.go(&builder_url);
        b.click("button[formaction='/submit']");
        b.wait_for("document.getElementById('submit') !== null");
        b.clear("input[name=player]");
        b.type_into("input[name=player]", "Ann Example");
        b.click("#submit button[type=submit]");
        b.wait_for("document.getElementById('submitted') !== null");
        assert!(b.text_of("#submitted").contains("Received"));
    };
    let files = || -> Vec<PathBuf> {
        std::fs::read_dir(&submissions)
            .expect("submissions")
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| {
                !p.file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with('.'))
            })
            .collect()
    };
    submit_from_builder();
    // After Received the page is the private one: no form that files again.
    assert_eq!(
        b.script("return document.querySelectorAll('form[action=\"/submit\"]').length;"),
        Value::from(0)
    );
    let private = b.script("return location.pathname;");
    let private = private.as_str().unwrap_or_default().to_string();
    assert!(private.starts_with("/mine/"), "{private}");
    // Submit twice: still one submission, the same private link.
    submit_from_builder();
    assert_eq!(
        b.script("return location.pathname;"),
        Value::from(private.clone())
    );
    let found = files();
    assert_eq!(found.len(), 1, "{found:?}");
    let written = std::fs::read_to_string(&found[0]).expect("submission");
    assert!(written.contains("Player: Ann Example"), "{written}");

    // Edit through the private link: another formation, replaced in place.
    b.go(&format!("{base}{private}"));
    b.wait_for("document.getElementById('replace') !== null");
    let id = b.find("#replace textarea[name=roster]");
    b.cmd(
        "POST",
        &format!("element/{id}/value"),
        json!({ "text": "\nWarhound\n" }),
    );
    b.click("#replace button[type=submit]");
    b.wait_for("document.getElementById('submitted') && document.getElementById('submitted').textContent.includes('Replaced')");
    let found = files();
    assert_eq!(found.len(), 1, "{found:?}");
    let written = std::fs::read_to_string(&found[0]).expect("submission");
    assert!(written.trim_end().ends_with("Warhound"), "{written}");

    // The organiser's page: refused without the key, shown with it.
    b.go(&format!("{base}/organiser"));
    b.wait_for("document.getElementById('login') !== null");
    assert!(!b.text_of("body").contains("Ann Example"));
    b.type_into("input[name=key]", "not the key");
    b.click("#login button[type=submit]");
    b.wait_for("document.getElementById('error') !== null");
    assert!(!b.text_of("body").contains("Ann Example"));
    b.type_into("input[name=key]", key);
    b.click("#login button[type=submit]");
    b.wait_for("document.getElementById('inbox') !== null");
    let table = b.text_of("#inbox");
    assert!(table.contains("Ann Example"), "{table}");
    assert!(
        !table.contains(&submissions.display().to_string()),
        "no server paths: {table}"
    );
    b.cmd("POST", "window/rect", json!({"width": 1200, "height": 900}));
    b.screenshot(&screens().join("organiser-1200.png"));
    b.cmd("POST", "window/rect", json!({"width": 400, "height": 800}));
    b.wait_for("window.innerWidth <= 420");
    assert_eq!(
        b.script("return document.documentElement.scrollWidth <= window.innerWidth;"),
        Value::Bool(true),
        "the organiser's table fits at phone width"
    );
    b.screenshot(&screens().join("organiser-400.png"));
    drop(b);

    // Without JavaScript every click is a plain form post: the same steps
    // work, a whole page at a time.
    let profile = work.path().join("profile-nojs");
    std::fs::create_dir_all(&profile).expect("dir");
    let b = Driver::start(&driver_path, &profile, &downloads, false);
    b.go(&format!("{base}/new?army=codex-astartes&points=3000"));
    assert_eq!(
        b.script("return 1;"),
        Value::from(1),
        "WebDriver scripts still run"
    );
    b.wait_for("document.getElementById('roster') !== null");
    b.click(&format!("button[value='add:{tactical}']"));
    b.wait_for("document.querySelectorAll('#formations > li').length == 1");
    b.click(&format!("select[name='up-0'] option[value='{dread}']"));
    b.click("button[value='up:0']");
    b.wait_for("document.getElementById('roster').value.includes('Tactical: Dreadnought (Power Fist)')");
    assert_eq!(b.text_of("#verdict"), "Legal", "{}", b.roster());
    // The page was posted, not swapped: its address is the form's.
    let path = b.script("return location.pathname + location.search;");
    assert_eq!(path, Value::from("/"), "a plain post without JavaScript");
}

fn screens() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/serve-screens");
    std::fs::create_dir_all(&dir).expect("screens dir");
    dir
}
