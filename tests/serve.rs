//! `mancala serve` (docs/web.md): the JSON API through a real HTTP client against the real
//! binary on a free port. Its values are the command line's, its errors the command line's
//! messages; the time limit, a Stop, a closed connection and Ctrl-C stop searches; twenty
//! clients at once all get their answers. The page itself is tested in a browser by
//! scripts/web-tests.sh.

use crate::util::{fails, json, repo};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A running `mancala serve --port 0`, killed when dropped.
struct Server {
    child: Child,
    url: String,
}

impl Server {
    fn start(extra: &[&str]) -> Server {
        let mut child = crate::util::mancala_command()
            .args(["serve", "--port", "0", "--threads", "1"])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start mancala serve");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .expect("the URL line");
        let url = line.trim().trim_end_matches('/').to_string();
        assert!(url.starts_with("http://127.0.0.1:"), "{line}");
        Server { child, url }
    }

    fn get(&self, path: &str) -> (u16, Value) {
        let mut r = agent(60)
            .get(&format!("{}{path}", self.url))
            .call()
            .unwrap();
        (r.status().as_u16(), r.body_mut().read_json().unwrap())
    }

    /// POSTs `body` (text, sent as is) to `path`: the status and the JSON answer.
    fn post(&self, path: &str, body: &str) -> (u16, Value) {
        post_with(&agent(60), &format!("{}{path}", self.url), body).unwrap()
    }

    fn running(&self) -> u64 {
        self.get("/api/status").1["running"].as_u64().unwrap()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A client that reads 4xx and 5xx answers as answers, and gives up after `secs`.
fn agent(secs: u64) -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(secs)))
        .build()
        .into()
}

fn post_with(agent: &ureq::Agent, url: &str, body: &str) -> Result<(u16, Value), ureq::Error> {
    let mut r = agent
        .post(url)
        .content_type("application/json")
        .send(body)?;
    let status = r.status().as_u16();
    Ok((status, r.body_mut().read_json()?))
}

/// `v` without the fields that differ between two runs of the same search.
fn steady(mut v: Value) -> Value {
    if let Some(o) = v.as_object_mut() {
        for k in ["seconds", "nodes", "tt_hit_rate", "tt_bytes", "threads"] {
            o.remove(k);
        }
    }
    v
}

#[test]
fn every_endpoint_answers_what_the_command_line_prints() {
    let s = Server::start(&[]);
    let cases: &[(&str, Value, &[&str])] = &[
        (
            "play",
            json!({"game":"kalah","holes":4,"seeds":3,"moves":[2,4]}),
            &[
                "play", "kalah", "--holes", "4", "--seeds", "3", "--moves", "2,4",
            ],
        ),
        (
            "moves",
            json!({"game":"djenon","holes":3,"seeds":2}),
            &["moves", "djenon-aboure", "--holes", "3", "--seeds", "2"],
        ),
        (
            "solve",
            json!({"game":"kalah","holes":4,"seeds":3}),
            &["solve", "kalah", "--holes", "4", "--seeds", "3"],
        ),
        (
            "solve",
            json!({"game":"kalah","holes":3,"seeds":3,"options":["empty-capture"],"moves":"S1 S3"}),
            &[
                "solve",
                "kalah",
                "--holes",
                "3",
                "--seeds",
                "3",
                "--empty-capture",
                "--moves",
                "S1 S3",
            ],
        ),
        (
            "analyze",
            json!({"game":"dakon","holes":4,"seeds":4,"moves":[1]}),
            &[
                "analyze", "dakon", "--holes", "4", "--seeds", "4", "--moves", "1",
            ],
        ),
        (
            "analyze",
            json!({"game":"san-yao","position":"5,5,5/5s,5,5/0,0/S"}),
            &["analyze", "san-yao", "--position", "5,5,5/5s,5,5/0,0/S"],
        ),
        (
            "analyze",
            json!({"game":"walak","holes":3,"seeds":2,"options":["singleton-restriction"]}),
            &[
                "analyze",
                "walak-pussa",
                "--holes",
                "3",
                "--seeds",
                "2",
                "--singleton-restriction",
            ],
        ),
        (
            "match",
            json!({"game":"dakon","holes":3,"seeds":2,"moves":[3,2,2,3,1,3,2]}),
            &[
                "match",
                "dakon",
                "--holes",
                "3",
                "--seeds",
                "2",
                "--moves",
                "3,2,2,3,1,3,2",
            ],
        ),
        (
            "match",
            json!({"game":"walak-pussa","holes":3,"seeds":2,"fill_from_move_1":true,"moves":[1]}),
            &[
                "match",
                "walak-pussa",
                "--holes",
                "3",
                "--seeds",
                "2",
                "--fill-from-move-1",
                "--moves",
                "1",
            ],
        ),
    ];
    for (path, body, args) in cases {
        let (status, got) = s.post(&format!("/api/{path}"), &body.to_string());
        assert_eq!(status, 200, "{path} {body}: {got}");
        let mut cli = args.to_vec();
        cli.push("--json");
        assert_eq!(steady(got), steady(json(&cli)), "{path} {body}");
    }
    let (status, games) = s.get("/api/games");
    assert_eq!(status, 200);
    let names: Vec<&str> = games["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["game"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["kalah", "dakon", "djenon-aboure", "walak-pussa", "san-yao"]
    );
    let kalah = &games["games"][0];
    assert_eq!(kalah["holes"], json!({"min":1,"max":8,"default":6}));
    assert_eq!(kalah["options"][0]["name"], "empty-capture");
    assert_eq!(games["games"][1]["matches"], true);
    assert_eq!(kalah["matches"], false);
}

/// The command line's message `cli` in a page's words: each flag named as the body's field
/// (`--position` as `"position"`), a rule option as an entry of `"options"`.
fn in_the_bodys_words(cli: &str) -> String {
    let mut s = cli.to_string();
    if let Some(rest) = s.strip_prefix("option --") {
        s = format!("\"options\": '{}", rest.replacen(' ', "' ", 1));
    }
    for field in ["position", "holes", "seeds", "moves"] {
        s = s.replace(&format!("--{field}"), &format!("\"{field}\""));
    }
    s.replace("--fill-from-move-1", "\"fill_from_move_1\"")
}

/// A bad body gets 400 and the command line's one-line message, in the page's words: the
/// fields of the body, never a flag the page's user never saw (issue 53).
#[test]
fn the_review_takes_the_command_lines_thresholds() {
    let s = Server::start(&[]);
    // Kalah(4,3): South's 1, North's 4 and South's 1 lose 6, 4 and 10 seeds: a mistake, an
    // inaccuracy and a blunder between 5 and 7 (blunders all by the defaults).
    let body =
        json!({"game":"kalah","holes":4,"seeds":3,"moves":"2 1 4 1 2","mistake":5,"blunder":7});
    let (status, got) = s.post("/api/review", &body.to_string());
    assert_eq!(status, 200, "{got}");
    let want = json(&[
        "review",
        "kalah",
        "--holes",
        "4",
        "--seeds",
        "3",
        "--moves",
        "2 1 4 1 2",
        "--mistake",
        "5",
        "--blunder",
        "7",
        "--json",
        "--threads",
        "1",
    ]);
    assert_eq!(steady(got.clone()), steady(want), "{got}");
    assert_eq!(got["thresholds"], json!({"mistake":5,"blunder":7}));
    let classes: Vec<&str> = got["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["class"].as_str().unwrap())
        .collect();
    assert_eq!(
        classes,
        ["best", "mistake", "inaccuracy", "blunder", "best"]
    );
    // Without them, the command line's defaults.
    let (_, plain) = s.post(
        "/api/review",
        r#"{"game":"kalah","holes":4,"seeds":3,"moves":"2 1 4 1 2"}"#,
    );
    assert_eq!(plain["thresholds"], json!({"mistake":2,"blunder":6}));
    for (bad, says) in [
        (r#""mistake":"two""#, "mistake: write a whole number"),
        (r#""blunder":2.5"#, "blunder: write a whole number"),
        (
            r#""mistake":4,"blunder":2"#,
            "mistake 4, blunder 2: the loss thresholds",
        ),
        (r#""mistake":0"#, "1 <= mistake <= blunder"),
    ] {
        let body = format!(r#"{{"game":"kalah","holes":4,"seeds":3,"moves":"2",{bad}}}"#);
        let (status, v) = s.post("/api/review", &body);
        assert_eq!(status, 400, "{body}: {v}");
        let e = v["error"].as_str().unwrap();
        assert!(e.contains(says), "{body}: {e}");
    }
    // The fields are the review's own: another endpoint refuses them as unknown.
    let (status, v) = s.post("/api/analyze", r#"{"game":"kalah","holes":4,"mistake":1}"#);
    assert_eq!(status, 400, "{v}");
}

#[test]
fn bad_bodies_get_400_with_the_command_lines_message() {
    let s = Server::start(&[]);
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "play",
            r#"{"game":"kalah","holes":9}"#,
            &["play", "kalah", "--holes", "9"],
        ),
        (
            "solve",
            r#"{"game":"dakon","holes":4,"seeds":0}"#,
            &["solve", "dakon", "--holes", "4", "--seeds", "0"],
        ),
        (
            "play",
            r#"{"game":"kalah","position":"1,2,3/1,2,3/0,0/S,"}"#,
            &["play", "kalah", "--position", "1,2,3/1,2,3/0,0/S,"],
        ),
        (
            "analyze",
            r#"{"game":"kalah","holes":4,"position":"1,1,1/1,1,1/0,0/S"}"#,
            &[
                "analyze",
                "kalah",
                "--holes",
                "4",
                "--position",
                "1,1,1/1,1,1/0,0/S",
            ],
        ),
        (
            "moves",
            r#"{"game":"kalah","holes":4,"seeds":3,"moves":[2,5]}"#,
            &[
                "moves", "kalah", "--holes", "4", "--seeds", "3", "--moves", "2,5",
            ],
        ),
        (
            "play",
            r#"{"game":"kalah","holes":4,"seeds":3,"moves":"N1"}"#,
            &[
                "play", "kalah", "--holes", "4", "--seeds", "3", "--moves", "N1",
            ],
        ),
        (
            "play",
            r#"{"game":"dakon","options":["empty-capture"]}"#,
            &["play", "dakon", "--empty-capture"],
        ),
        (
            "play",
            r#"{"game":"kalah","position":"1,1/1,1/0,0/S","seeds":3}"#,
            &[
                "play",
                "kalah",
                "--position",
                "1,1/1,1/0,0/S",
                "--seeds",
                "3",
            ],
        ),
        ("match", r#"{"game":"kalah"}"#, &["match", "kalah"]),
        (
            "match",
            r#"{"game":"san-yao","fill_from_move_1":true}"#,
            &["match", "san-yao", "--fill-from-move-1"],
        ),
        (
            "match",
            r#"{"game":"dakon","holes":3,"seeds":2,"moves":"3 2 x"}"#,
            &[
                "match", "dakon", "--holes", "3", "--seeds", "2", "--moves", "3 2 x",
            ],
        ),
    ];
    for (path, body, args) in cases {
        let (status, got) = s.post(&format!("/api/{path}"), body);
        let cli = fails(args);
        let cli = cli.trim().strip_prefix("error: ").unwrap_or(&cli);
        assert_eq!(status, 400, "{path} {body}: {got}");
        assert_eq!(got["error"], in_the_bodys_words(cli), "{path} {body}");
        let said = got["error"].as_str().unwrap();
        assert!(!said.contains("--"), "{path} {body}: a flag in {said}");
    }
    // Spelt out once, so that the translation above cannot hide a wrong word.
    let (_, got) = s.post(
        "/api/analyze",
        r#"{"game":"kalah","holes":4,"position":"1,1,1/1,1,1/0,0/S"}"#,
    );
    assert_eq!(
        got["error"],
        "invalid \"position\" '1,1,1/1,1,1/0,0/S': it has 3 pits per row but \"holes\" is 4"
    );
    let (_, got) = s.post(
        "/api/play",
        r#"{"game":"dakon","options":["empty-capture"]}"#,
    );
    assert_eq!(
        got["error"],
        "\"options\": 'empty-capture' applies to kalah only, not to dakon"
    );
    // What the command line has no flag for: one line each, never a panic.
    for (body, says) in [
        ("not json", "invalid request body: expected ident"),
        (
            r#"{"holes":4}"#,
            "invalid request body: missing field `game`",
        ),
        (
            r#"{"game":"kalah","hole":4}"#,
            "invalid request body: unknown field `hole`",
        ),
        (r#"{"game":"chess"}"#, "unknown game 'chess'"),
        (
            r#"{"game":"kalah","options":["fast"]}"#,
            "unknown rule option 'fast'",
        ),
        (
            r#"{"game":"kalah","moves":{"a":1}}"#,
            "moves: write a list of moves",
        ),
        (
            r#"{"game":"kalah","time_limit":-1}"#,
            "time_limit: '-1' is not a positive number of seconds",
        ),
    ] {
        let (status, got) = s.post("/api/solve", body);
        assert_eq!(status, 400, "{body}: {got}");
        let msg = got["error"].as_str().unwrap();
        assert!(msg.starts_with(says), "{body}: {msg}");
        assert!(!msg.contains('\n'), "{body}: {msg}");
    }
    // A body over 64 KiB is refused before it is read.
    let big = format!(r#"{{"game":"kalah","position":"{}"}}"#, "1,".repeat(40_000));
    let r = agent(60)
        .post(&format!("{}/api/play", s.url))
        .send(big.as_str())
        .unwrap();
    assert_eq!(r.status().as_u16(), 413);
    let r = agent(60)
        .get(&format!("{}/etc/passwd", s.url))
        .call()
        .unwrap();
    assert_eq!(r.status().as_u16(), 404, "no path reaches the file system");
}

#[test]
fn the_time_limit_answers_with_proven_bounds() {
    let s = Server::start(&["--time-limit", "1"]);
    for path in ["solve", "analyze"] {
        let started = Instant::now();
        let (status, v) = s.post(
            &format!("/api/{path}"),
            r#"{"game":"kalah","holes":6,"seeds":6}"#,
        );
        let took = started.elapsed();
        assert_eq!(status, 200, "{v}");
        assert_eq!(v["complete"], false, "{v}");
        assert_eq!(v["stopped"], "time-limit", "{v}");
        let (lo, hi) = (v["lower"].as_i64().unwrap(), v["upper"].as_i64().unwrap());
        assert!(-72 <= lo && lo <= hi && hi <= 72, "{v}");
        assert!(took < Duration::from_secs(5), "{path} took {took:?}");
    }
    // A request may ask for less than the server's limit, never more.
    let s = Server::start(&["--time-limit", "30"]);
    let started = Instant::now();
    let (_, v) = s.post(
        "/api/solve",
        r#"{"game":"kalah","holes":6,"seeds":6,"time_limit":0.5}"#,
    );
    assert_eq!(v["stopped"], "time-limit", "{v}");
    assert!(started.elapsed() < Duration::from_secs(4));
}

/// Issue 54: the server keeps its analyzers between requests (one per game and board, at most
/// `--max-searches`), so the same hard question asked again answers from the kept search's
/// transposition table (118 thousand nodes, the best moves' proofs, where the first took 2.9
/// million) with the command
/// line's values; a search stopped by its limit leaves an analyzer that still answers exactly.
#[test]
fn a_second_request_answers_from_the_kept_search() {
    let s = Server::start(&[]);
    let body = r#"{"game":"kalah","holes":6,"seeds":3}"#;
    // Stopped at once: what it proved stays, and the next search of the game is still exact.
    let (status, v) = s.post(
        "/api/solve",
        r#"{"game":"kalah","holes":6,"seeds":3,"time_limit":0.01}"#,
    );
    assert_eq!((status, &v["complete"]), (200, &json!(false)), "{v}");
    let want = json(&["solve", "kalah", "--holes", "6", "--seeds", "3", "--json"]);
    let (_, first) = s.post("/api/solve", body);
    // Another game between the two: the pool keeps both (`--max-searches` 2).
    let (_, other) = s.post("/api/solve", r#"{"game":"dakon","holes":4,"seeds":3}"#);
    assert_eq!(other["complete"], true, "{other}");
    let (_, second) = s.post("/api/solve", body);
    for v in [&first, &second] {
        assert_eq!(v["complete"], true, "{v}");
        for field in ["value", "best", "pv"] {
            assert_eq!(v[field], want[field], "{field}: {v} vs {want}");
        }
    }
    let (n1, n2) = (
        first["nodes"].as_u64().unwrap(),
        second["nodes"].as_u64().unwrap(),
    );
    assert!(
        n2 * 10 < n1,
        "the second solve searched {n2} nodes, the first {n1}: the table was not kept"
    );
    let want = steady(json(&[
        "analyze", "kalah", "--holes", "6", "--seeds", "3", "--json",
    ]));
    let (_, first) = s.post("/api/analyze", body);
    let (_, second) = s.post("/api/analyze", body);
    assert_eq!(steady(first.clone()), want);
    assert_eq!(steady(second.clone()), want);
    let (t1, t2) = (
        first["seconds"].as_f64().unwrap(),
        second["seconds"].as_f64().unwrap(),
    );
    assert!(
        t2 < t1 / 4.0,
        "the second analysis took {t2} s, the first {t1} s"
    );
}

/// Polls `/api/status` until nothing runs; how long that took.
fn wait_idle(s: &Server, within: Duration) -> Duration {
    let started = Instant::now();
    while s.running() > 0 {
        assert!(
            started.elapsed() < within,
            "the search still runs after {within:?}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    started.elapsed()
}

#[test]
fn a_closed_connection_stops_its_search() {
    let s = Server::start(&["--time-limit", "60"]);
    let url = format!("{}/api/solve", s.url);
    // The client gives up after a second and closes its connection.
    let started = Instant::now();
    let r = post_with(&agent(1), &url, r#"{"game":"kalah","holes":6,"seeds":6}"#);
    assert!(r.is_err(), "a 60 s search answered within a second: {r:?}");
    assert!(started.elapsed() < Duration::from_secs(5));
    wait_idle(&s, Duration::from_secs(5));
}

#[test]
fn stop_by_name_answers_with_what_was_proven() {
    let s = Server::start(&["--time-limit", "60"]);
    let url = format!("{}/api/analyze?search=long-one", s.url);
    let started = Instant::now();
    let search = std::thread::spawn(move || {
        post_with(&agent(60), &url, r#"{"game":"kalah","holes":6,"seeds":6}"#).unwrap()
    });
    let mut stopped = false;
    while !stopped {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the search never started"
        );
        std::thread::sleep(Duration::from_millis(100));
        let (status, v) = s.post("/api/stop", r#"{"search":"long-one"}"#);
        assert_eq!(status, 200);
        stopped = v["stopped"] == true;
    }
    let (status, v) = search.join().unwrap();
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["complete"], false, "{v}");
    assert_eq!(v["stopped"], "interrupt", "{v}");
    assert!(started.elapsed() < Duration::from_secs(10));
    let (_, v) = s.post("/api/stop", r#"{"search":"long-one"}"#);
    assert_eq!(v["stopped"], false, "a finished search is no longer named");
}

#[test]
fn twenty_clients_at_once_all_get_the_command_lines_values() {
    let s = Server::start(&["--max-searches", "2"]);
    let boards: Vec<(String, Value)> = (1..=4)
        .map(|m| {
            let moves = m.to_string();
            let want = json(&[
                "analyze", "kalah", "--holes", "4", "--seeds", "3", "--moves", &moves, "--json",
            ]);
            (moves, steady(want))
        })
        .collect();
    let url = format!("{}/api/analyze", s.url);
    let clients: Vec<_> = (0..20)
        .map(|i| {
            let (moves, want) = boards[i % boards.len()].clone();
            let url = url.clone();
            std::thread::spawn(move || {
                let body = format!(r#"{{"game":"kalah","holes":4,"seeds":3,"moves":[{moves}]}}"#);
                let (status, got) = post_with(&agent(120), &url, &body).unwrap();
                assert_eq!(status, 200, "{got}");
                assert_eq!(steady(got), want);
            })
        })
        .collect();
    for c in clients {
        c.join().expect("a client failed");
    }
    assert_eq!(s.running(), 0);
}

#[test]
fn the_page_is_served_from_the_binary() {
    let s = Server::start(&[]);
    for (path, kind, has) in [
        ("/", "text/html", "<svg id=\"board\""),
        ("/app.js", "text/javascript", "/api/analyze"),
        ("/board.js", "text/javascript", "parsePosition"),
        ("/style.css", "text/css", "#board"),
    ] {
        let mut r = agent(10).get(&format!("{}{path}", s.url)).call().unwrap();
        assert_eq!(r.status().as_u16(), 200, "{path}");
        let ct = r
            .headers()
            .get("content-type")
            .unwrap()
            .to_str()
            .unwrap()
            .to_string();
        assert!(ct.starts_with(kind), "{path}: {ct}");
        assert!(
            r.body_mut().read_to_string().unwrap().contains(has),
            "{path}"
        );
    }
}

#[test]
fn ctrl_c_stops_the_searches_and_exits_130() {
    let mut s = Server::start(&["--time-limit", "60"]);
    let url = format!("{}/api/solve", s.url);
    let search = std::thread::spawn(move || {
        post_with(&agent(30), &url, r#"{"game":"kalah","holes":6,"seeds":6}"#)
    });
    let started = Instant::now();
    while s.running() == 0 {
        assert!(started.elapsed() < Duration::from_secs(10));
        std::thread::sleep(Duration::from_millis(50));
    }
    let pid = s.child.id().to_string();
    assert!(Command::new("kill")
        .args(["-INT", &pid])
        .status()
        .unwrap()
        .success());
    let code = s.child.wait().unwrap();
    assert_eq!(code.code(), Some(130));
    assert!(started.elapsed() < Duration::from_secs(10));
    // The running search answered with what it proved before the server went.
    if let Ok((status, v)) = search.join().unwrap() {
        assert_eq!(status, 200, "{v}");
        assert_eq!(v["complete"], false, "{v}");
    }
}

/// docs/web.md's examples: each ```api block is a request and its answer, `"[..]"` standing
/// for any value.
#[test]
fn the_examples_of_docs_web_md_are_what_the_server_answers() {
    let doc = std::fs::read_to_string(repo().join("docs/web.md")).unwrap();
    let s = Server::start(&[]);
    let mut checked = 0;
    for block in doc.split("```api\n").skip(1) {
        let block = &block[..block.find("```").unwrap()];
        let (request, answer) = block
            .split_once("\n\n")
            .expect("a request, a blank line, an answer");
        let mut lines = request.lines();
        let (method, path) = lines.next().unwrap().split_once(' ').unwrap();
        let body: String = lines.collect::<Vec<_>>().join("\n");
        let (status_line, want) = answer.split_once('\n').unwrap();
        let (status, got) = match method {
            "GET" => s.get(path),
            "POST" => s.post(path, &body),
            other => panic!("method {other}"),
        };
        assert_eq!(
            status.to_string(),
            status_line.split(' ').next().unwrap(),
            "{method} {path}: {got}"
        );
        let want: Value =
            serde_json::from_str(want.trim()).unwrap_or_else(|e| panic!("{path}: {e}"));
        matches(&want, &got, path);
        checked += 1;
    }
    assert!(checked >= 6, "only {checked} examples in docs/web.md");
}

/// `got` is `want`, where `want`'s `"[..]"` matches anything.
fn matches(want: &Value, got: &Value, at: &str) {
    match (want, got) {
        (Value::String(w), _) if w == "[..]" => {}
        (Value::Object(w), Value::Object(g)) => {
            let (wk, gk): (Vec<_>, Vec<_>) = (w.keys().collect(), g.keys().collect());
            assert_eq!(wk, gk, "{at}: the fields differ");
            for (k, v) in w {
                matches(v, &g[k], &format!("{at}.{k}"));
            }
        }
        (Value::Array(w), Value::Array(g)) => {
            assert_eq!(w.len(), g.len(), "{at}: {got}");
            for (i, (a, b)) in w.iter().zip(g).enumerate() {
                matches(a, b, &format!("{at}[{i}]"));
            }
        }
        _ => assert_eq!(want, got, "{at}"),
    }
}

// ---------------------------------------------------------------------------------------------
// Issue 56: a server that cannot be wedged, used by its own page only.

/// RELAY (tests/data/relay.txt): a Walak-pussa position whose move 2 relays for longer than any
/// test waits.
pub(crate) fn relay() -> &'static str {
    include_str!("data/relay.txt")
        .lines()
        .find(|l| !l.starts_with('#') && !l.trim().is_empty())
        .expect("a position in tests/data/relay.txt")
        .trim()
}

/// Sends `request` (the whole HTTP request, as is) on a fresh connection and reads the answer
/// (within `secs`): its status and body. A raw connection, so that `Host` and the body's
/// framing are exactly what the test says.
fn raw(s: &Server, request: &str, secs: u64) -> (u16, String) {
    use std::io::{Read, Write};
    let addr = s.url.trim_start_matches("http://");
    let mut c = std::net::TcpStream::connect(addr).unwrap();
    c.set_read_timeout(Some(Duration::from_secs(secs))).unwrap();
    c.write_all(request.as_bytes()).unwrap();
    let mut answer = Vec::new();
    let mut buf = [0u8; 4096];
    // The answer's head and its JSON body: read until the connection closes, the body is
    // whole, or the time runs out.
    loop {
        match c.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => answer.extend_from_slice(&buf[..n]),
        }
        let text = String::from_utf8_lossy(&answer);
        if let Some((_, body)) = text.split_once("\r\n\r\n") {
            if serde_json::from_str::<Value>(body).is_ok() {
                break;
            }
        }
    }
    let text = String::from_utf8_lossy(&answer).to_string();
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let body = text.split_once("\r\n\r\n").map_or("", |x| x.1).to_string();
    (status, body)
}

/// A POST of `body` to `path` with the given extra header lines.
fn post_raw(s: &Server, path: &str, headers: &str, body: &str) -> (u16, String) {
    let host = s.url.trim_start_matches("http://");
    raw(
        s,
        &format!(
            "POST {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n{headers}Content-Length: {}\r\n\r\n{body}",
            body.len()
        ),
        30,
    )
}

/// `/api/match` played its rounds with no stop: a match whose first move relays for ever never
/// answered and kept its permit. Now the time limit stops the sowing, the answer names the move
/// and how long it relayed, and the next request is answered at once.
#[test]
fn a_match_into_an_endless_looking_relay_ends_at_the_time_limit() {
    let s = Server::start(&["--time-limit", "1"]);
    let body = json!({"game":"walak-pussa","position":relay(),"moves":[2]}).to_string();
    let started = Instant::now();
    let (status, v) = post_with(&agent(20), &format!("{}/api/match", s.url), &body).unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(status, 400, "{v}");
    let msg = v["error"].as_str().unwrap();
    assert!(
        msg.starts_with("move #1 (2) in round 1 relays for more than ")
            && msg.ends_with("not played"),
        "{msg}"
    );
    let started = Instant::now();
    let (status, v) = s.post("/api/play", r#"{"game":"kalah","holes":3,"seeds":2}"#);
    assert_eq!(status, 200, "{v}");
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn two_endless_looking_relays_do_not_wedge_the_server() {
    // Finding 2: each RELAY request answered 503 but kept sowing and its permit, and every
    // later request waited forever. Now the time limit stops the sowing itself.
    let s = Server::start(&["--time-limit", "2"]);
    let body = json!({"game":"walak-pussa","position":relay()}).to_string();
    let url = format!("{}/api/moves", s.url);
    let started = Instant::now();
    let clients: Vec<_> = (0..2)
        .map(|_| {
            let (url, body) = (url.clone(), body.clone());
            std::thread::spawn(move || post_with(&agent(60), &url, &body).unwrap())
        })
        .collect();
    for c in clients {
        let (status, v) = c.join().unwrap();
        assert_eq!(status, 400, "{v}");
        let msg = v["error"].as_str().unwrap();
        assert!(
            msg.contains("still relaying") && msg.contains("not played"),
            "{msg}"
        );
    }
    assert!(
        started.elapsed() < Duration::from_secs(6),
        "{:?}",
        started.elapsed()
    );
    let started = Instant::now();
    let (status, v) = s.post("/api/play", r#"{"game":"kalah","holes":3,"seeds":2}"#);
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["position"], "2,2,2/2,2,2/0,0/S");
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "the third request took {:?}",
        started.elapsed()
    );
}

#[test]
fn a_client_that_leaves_mid_sowing_frees_its_permit_at_once() {
    let s = Server::start(&["--time-limit", "60", "--max-searches", "1"]);
    let url = format!("{}/api/moves", s.url);
    let body = json!({"game":"walak-pussa","position":relay()}).to_string();
    // The client gives up after a second, in the middle of move 2's relay.
    assert!(post_with(&agent(1), &url, &body).is_err());
    wait_idle(&s, Duration::from_secs(2));
    let started = Instant::now();
    let (status, v) = s.post("/api/play", r#"{"game":"kalah","holes":3,"seeds":2}"#);
    assert_eq!(status, 200, "{v}");
    assert!(started.elapsed() < Duration::from_secs(1));
    // A stopped solve of RELAY answers its bounds and a move within the second after its limit.
    let started = Instant::now();
    let (status, v) = s.post(
        "/api/solve",
        &json!({"game":"walak-pussa","position":relay(),"time_limit":1}).to_string(),
    );
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["complete"], false);
    assert!(v["lower"].as_i64().unwrap() <= v["upper"].as_i64().unwrap());
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn only_the_servers_own_page_may_use_the_api() {
    // Finding 6: any web page could drive the server (text/plain needs no preflight, and DNS
    // rebinding sends a foreign Host).
    let s = Server::start(&[]);
    let play = r#"{"game":"kalah","holes":3,"seeds":2}"#;
    let json_type = "Content-Type: application/json\r\n";
    let (status, body) = post_raw(&s, "/api/play", json_type, play);
    assert_eq!(status, 200, "{body}");
    let own_origin = format!("{json_type}Origin: {}\r\n", s.url);
    assert_eq!(post_raw(&s, "/api/play", &own_origin, play).0, 200);
    for (headers, says) in [
        (
            "Content-Type: text/plain\r\n",
            "Content-Type: application/json",
        ),
        ("", "Content-Type: application/json"),
        (
            "Content-Type: application/json\r\nOrigin: http://evil.example\r\n",
            "Origin 'http://evil.example'",
        ),
    ] {
        let (status, body) = post_raw(&s, "/api/solve", headers, play);
        assert_eq!(status, 403, "{headers}: {body}");
        let v: Value = serde_json::from_str(&body).unwrap();
        assert!(v["error"].as_str().unwrap().contains(says), "{body}");
    }
    let port = s.url.rsplit(':').next().unwrap();
    for host in [format!("evil.example:{port}"), "127.0.0.1:1".to_string()] {
        let (status, body) = raw(
            &s,
            &format!("POST /api/solve HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n{json_type}Content-Length: {}\r\n\r\n{play}", play.len()),
            30,
        );
        assert_eq!(status, 403, "{host}: {body}");
        assert!(body.contains("is not this server"), "{body}");
    }
    // --allow-host admits a name of the user's choosing.
    let s = Server::start(&["--allow-host", "box.lan"]);
    let port = s.url.rsplit(':').next().unwrap();
    let (status, body) = raw(
        &s,
        &format!("GET /api/status HTTP/1.1\r\nHost: box.lan:{port}\r\nConnection: close\r\n\r\n"),
        30,
    );
    assert_eq!(status, 200, "{body}");
}

#[test]
fn huge_slow_and_idle_requests_cannot_hold_the_server() {
    // Finding 5: a Content-Length of 10^12 was waited for, a body sent a byte a second was
    // waited for, and idle connections stayed open until none was left.
    let s = Server::start(&[]);
    let host = s.url.trim_start_matches("http://").to_string();
    let started = Instant::now();
    let (status, body) = raw(
        &s,
        &format!("POST /api/play HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: 1000000000000\r\n\r\n{{"),
        30,
    );
    assert_eq!(status, 413, "{body}");
    assert!(body.contains("\"error\""), "{body}");
    assert!(started.elapsed() < Duration::from_secs(1));
    // Errors are always {"error"}: an unknown route, a wrong method.
    for (request, want) in [("GET /nothing", 404), ("GET /api/play", 405)] {
        let (status, body) = raw(
            &s,
            &format!("{request} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"),
            30,
        );
        assert_eq!(status, want, "{request}: {body}");
        let v: Value = serde_json::from_str(&body).unwrap();
        assert!(v["error"].is_string(), "{body}");
    }
    // 200 idle connections (more than the cap) and a body that never comes: the server keeps
    // answering within the header timeout (10 s), and the slow body gets 408.
    let slow = std::thread::spawn({
        let host = host.clone();
        move || {
            use std::io::{Read, Write};
            let mut c = std::net::TcpStream::connect(&host).unwrap();
            c.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
            c.write_all(format!("POST /api/play HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{{").as_bytes()).unwrap();
            let mut answer = String::new();
            let _ = c.read_to_string(&mut answer);
            answer
        }
    });
    // The slow one holds a connection first; then more idle ones than the cap.
    std::thread::sleep(Duration::from_millis(300));
    let idle: Vec<_> = (0..200)
        .filter_map(|_| std::net::TcpStream::connect(&host).ok())
        .collect();
    let started = Instant::now();
    loop {
        if let Ok(r) = agent(2).get(&format!("{}/api/status", s.url)).call() {
            assert_eq!(r.status().as_u16(), 200);
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(15),
            "/api/status still locked out after 15 s"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    let answer = slow.join().unwrap();
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    drop(idle);
}

// ---------------------------------------------------------------------------------------------
// Issue 54, must-have 5: `"stream": true` answers NDJSON, progress lines while the search runs
// (the bounds, the moves valued so far, the best move so far), then the final answer.

/// POSTs `body` to `path` and reads the NDJSON answer line by line: the status, the content
/// type, and the lines.
fn post_stream(s: &Server, path: &str, body: &str) -> (u16, String, Vec<Value>) {
    let mut r = agent(120)
        .post(&format!("{}{path}", s.url))
        .content_type("application/json")
        .send(body)
        .unwrap();
    let status = r.status().as_u16();
    let kind = r
        .headers()
        .get("content-type")
        .map_or("", |v| v.to_str().unwrap())
        .to_string();
    let text = r.body_mut().read_to_string().unwrap();
    let lines = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    (status, kind, lines)
}

/// `lower <= v <= upper` of `line`'s fields named `lower` and `upper` (or with a prefix).
fn within(line: &Value, prefix: &str, v: i64) -> bool {
    let lo = line[format!("{prefix}lower")].as_i64().unwrap();
    let hi = line[format!("{prefix}upper")].as_i64().unwrap();
    lo <= v && v <= hi
}

/// A stream's progress lines and its final one, checked for their shape.
fn split_stream(lines: &[Value], what: &str) -> (Vec<Value>, Value) {
    let (last, progress) = lines.split_last().expect("a final line");
    assert!(last.get("progress").is_none(), "the final line: {last}");
    for p in progress {
        assert_eq!(p["progress"], what, "{p}");
    }
    (progress.to_vec(), last.clone())
}

#[test]
fn a_streamed_analysis_shows_what_is_proven_then_the_answer() {
    let s = Server::start(&[]);
    // Kalah(4,8) from the start: several seconds on one thread (Kalah(6,3) took 1.0 s on a
    // quiet machine, two progress lines at most), so the stream has progress lines before its
    // answer on a fast machine too.
    let body = r#"{"game":"kalah","holes":4,"seeds":8,"stream":true}"#;
    let (status, kind, lines) = post_stream(&s, "/api/analyze", body);
    assert_eq!((status, kind.as_str()), (200, "application/x-ndjson"));
    let (progress, last) = split_stream(&lines, "analyze");
    assert!(!progress.is_empty(), "no progress line before the answer");
    let want = steady(json(&[
        "analyze", "kalah", "--holes", "4", "--seeds", "8", "--json",
    ]));
    assert_eq!(
        steady(last.clone()),
        want,
        "the final line is the command line's answer"
    );
    let value = last["value"].as_i64().unwrap();
    let finals: Vec<i64> = last["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["value"].as_i64().unwrap())
        .collect();
    let mut exact_seen = 0;
    for p in &progress {
        assert!(within(p, "", value), "{p} does not hold the value {value}");
        let moves = p["moves"].as_array().unwrap();
        assert_eq!(moves.len(), finals.len(), "{p}");
        for (m, &f) in moves.iter().zip(&finals) {
            // Exact values are the final ones; bounds hold them.
            if let Some(v) = m["value"].as_i64() {
                assert_eq!(v, f, "{p}");
                exact_seen += 1;
            }
            assert!(within(m, "", f), "{m} does not hold {f}");
        }
        // The best move so far: its bounds hold its value, and one proven best is best.
        let best = p["best"].as_u64().expect("a best move so far") as usize;
        if p["look_ahead"] == false {
            assert!(within(p, "best_", finals[best - 1]), "{p}");
        }
        if p["best_proven"] == true {
            assert_eq!(finals[best - 1], value, "{p}");
        }
    }
    assert!(
        exact_seen > 0,
        "no move was exact before the answer: {progress:?}"
    );
    // Without `stream`, the same answer as one JSON object.
    let (status, plain) = s.post("/api/analyze", r#"{"game":"kalah","holes":4,"seeds":8}"#);
    assert_eq!(status, 200);
    assert_eq!(steady(plain), steady(last));
}

#[test]
fn a_streamed_solve_shows_the_bounds_and_the_best_move_so_far() {
    let s = Server::start(&[]);
    // Kalah(4,8): about 2 s on the server's one thread on a quiet machine (18 M nodes), so
    // several progress lines come before the answer (one every 0.5 s); Kalah(6,3) solved in
    // 0.27 s there, before the first line.
    let body = r#"{"game":"kalah","holes":4,"seeds":8,"stream":true}"#;
    let (status, _, lines) = post_stream(&s, "/api/solve", body);
    assert_eq!(status, 200);
    let (progress, last) = split_stream(&lines, "solve");
    assert!(!progress.is_empty(), "no progress line before the answer");
    let want = json(&["solve", "kalah", "--holes", "4", "--seeds", "8", "--json"]);
    for field in ["value", "best", "pv", "complete"] {
        assert_eq!(last[field], want[field], "{field}: {last}");
    }
    let value = last["value"].as_i64().unwrap();
    let best: Vec<u64> = serde_json::from_value(last["best"].clone()).unwrap();
    for p in &progress {
        assert!(within(p, "", value), "{p} does not hold the value {value}");
        let Some(mv) = p["best"].as_u64() else {
            continue;
        };
        if p["look_ahead"] == false {
            // A move proven to reach its lower bound: the position reaches it too.
            assert!(p["best_lower"].as_i64().unwrap() <= value, "{p}");
        }
        if p["best_proven"] == true {
            assert!(best.contains(&mv), "{p}: proven best but not best");
        }
    }
    // The same answer without `stream`, bad bodies keep their 400s, and an instant answer (the
    // game over) is one line.
    let (_, plain) = s.post("/api/solve", r#"{"game":"kalah","holes":4,"seeds":8}"#);
    assert_eq!(steady(plain), steady(last));
    let (status, v) = s.post(
        "/api/solve",
        r#"{"game":"kalah","holes":6,"seeds":44,"stream":true}"#,
    );
    assert_eq!(status, 400);
    assert!(v["error"].as_str().unwrap().contains("not 44"), "{v}");
    let (status, v) = s.post("/api/analyze", r#"{"game":"kalah","stream":"yes"}"#);
    assert_eq!(status, 400);
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .starts_with("invalid request body"),
        "{v}"
    );
    let small = r#"{"game":"kalah","holes":2,"seeds":1}"#;
    let (status, _, lines) = post_stream(
        &s,
        "/api/solve",
        r#"{"game":"kalah","holes":2,"seeds":1,"stream":true}"#,
    );
    assert_eq!((status, lines.len()), (200, 1), "{lines:?}");
    assert_eq!(
        steady(lines[0].clone()),
        steady(s.post("/api/solve", small).1)
    );
}

#[test]
fn a_stream_whose_client_leaves_frees_its_search() {
    use std::io::{BufRead, Write};
    let s = Server::start(&["--time-limit", "60"]);
    let host = s.url.trim_start_matches("http://");
    let body = r#"{"game":"kalah","holes":6,"seeds":6,"stream":true}"#;
    let mut c = std::net::TcpStream::connect(host).unwrap();
    c.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    write!(
        c,
        "POST /api/analyze HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    // Up to the first progress line (chunked: a size line, then the line itself).
    let mut reader = std::io::BufReader::new(c.try_clone().unwrap());
    let mut seen = String::new();
    while !seen.contains("\"progress\"") {
        let mut l = String::new();
        assert!(reader.read_line(&mut l).unwrap() > 0, "closed: {seen}");
        seen.push_str(&l);
    }
    assert!(seen.starts_with("HTTP/1.1 200"), "{seen}");
    assert!(s.running() > 0);
    drop(reader);
    c.shutdown(std::net::Shutdown::Both).unwrap();
    drop(c);
    // The search ends, its permit and its analyzer come back: the next question of the game
    // is answered, exactly.
    wait_idle(&s, Duration::from_secs(5));
    let near_end = "0,0,0,0,1,2/0,0,0,1,0,1/33,34/S";
    let (status, v) = s.post(
        "/api/analyze",
        &format!(r#"{{"game":"kalah","position":"{near_end}"}}"#),
    );
    assert_eq!(status, 200, "{v}");
    let want = json(&["analyze", "kalah", "--position", near_end, "--json"]);
    assert_eq!(steady(v), steady(want));
}
