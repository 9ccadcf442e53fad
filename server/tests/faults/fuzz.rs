//! Every server function, fuzzed: the functions come from the server's own registry
//! (`server_fn`'s, as the router serves them), not from a page, so one added tomorrow is
//! fuzzed too. Each is sent malformed requests as an anonymous caller, a player of the event
//! and a head judge of another event:
//!
//! - an empty body, unknown fields only, a body that is not UTF-8, a 5 MB field, deep nesting,
//!   and the wrong content types (JSON, plain text, none, multipart with and without a boundary);
//! - then, for each field the function names as missing (its refusals say which), that field
//!   as a number past i64, as invalid UTF-8, as a long value and nested deep, the others at
//!   plausible values (the event's own slug, 1).
//!
//! What must hold: every request is answered (no dropped connection, no time-out, a 5 MB body
//! included: the server reads it before refusing it), never with a 5xx, a refusal is one of
//! 400/401/403/404/409/413/415/422/429, and no refusal repeats what was sent beyond a sentence
//! (an error message may quote at most 200 characters of a value). A success may show what was
//! sent when that is its purpose (a search, the check of a log).
//! Afterwards the server's log holds no panic.
//!
//! `script/test` runs the short form (the first two fields of each function mutated, the 5 MB
//! field as the anonymous caller); `script/faults` the long one (every field, every caller).

use std::{net::SocketAddr, time::Duration};

use axum::http::Method;
use db::{
    accounts::{NewUser, UserName},
    password::Password,
    roles::{Actor, Role},
    rounds::NewRound,
};
use hyper::body::Bytes;
use leptos::server_fn::ServerFn;
use tournament::ids::RoundNumber;

use super::{
    client::{self, Reply},
    cluster::{Cluster, Mentat},
    long, pool,
};

/// Refusals that fit a malformed request.
const REFUSALS: [u16; 9] = [400, 401, 403, 404, 409, 413, 415, 422, 429];

/// How many of a function's fields are mutated one by one in the short form.
const SHORT_FIELDS: usize = 2;

/// The event fuzzed, and who calls.
struct Scene {
    slug: String,
    callers: Vec<(&'static str, Option<String>)>,
}

async fn account(pool: &sqlx::PgPool, name: &str, admin: bool) -> Actor {
    let new = NewUser {
        username: UserName::parse(name).expect("valid name"),
        email: None,
        password: Password::new_choice(format!("{name}-password")).expect("long enough"),
        is_admin: admin,
    };
    let user_id = db::accounts::create_user(pool, new, None)
        .await
        .expect("account");
    Actor {
        user_id,
        username: name.to_owned(),
        is_admin: admin,
    }
}

async fn sign_in(addr: SocketAddr, name: &str) -> String {
    let body = format!("login={name}&password={name}-password");
    let reply = client::post(addr, app::auth::SignIn::PATH, body, None)
        .await
        .expect("sign-in answered");
    assert_eq!(reply.status, 200, "sign-in of {name}: {}", reply.text());
    reply.session_cookie().expect("a session cookie")
}

/// "Fuzz Open" with 12 players and round 1 begun; a player of it with an account; the head
/// judge of "Other Open".
async fn scene(pool: &sqlx::PgPool, addr: SocketAddr) -> Scene {
    let admin = account(pool, "fuzz-admin", true).await;
    let event = db::events::create(pool, &admin, "Fuzz Open")
        .await
        .expect("event");
    let csv: String = (1..=12).map(|i| format!("Player {i:02}\n")).collect();
    db::players::import_csv(pool, &admin, event.id, &csv)
        .await
        .expect("imported");
    db::players::check_in_all(pool, &admin, event.id)
        .await
        .expect("checked in");
    db::rounds::start(
        pool,
        &admin,
        event.id,
        NewRound {
            number: RoundNumber(1),
            seed: Some(7),
            fallback: None,
            override_reason: None,
        },
    )
    .await
    .expect("round 1");
    let detail = db::rounds::detail(pool, event.id, RoundNumber(1))
        .await
        .expect("read")
        .expect("round");
    db::rounds::begin(pool, &admin, event.id, RoundNumber(1), detail.round.version)
        .await
        .expect("begun");
    account(pool, "fuzz-player", false).await;
    let player = db::players::list(pool, event.id)
        .await
        .expect("players")
        .remove(0);
    db::players::link_account(
        pool,
        &admin,
        event.id,
        player.id,
        player.version,
        "fuzz-player",
    )
    .await
    .expect("linked");
    let other = db::events::create(pool, &admin, "Other Open")
        .await
        .expect("other event");
    account(pool, "fuzz-other-judge", false).await;
    db::roles::grant(pool, &admin, other.id, "fuzz-other-judge", Role::HeadJudge)
        .await
        .expect("granted");
    Scene {
        slug: event.slug,
        callers: vec![
            ("anonymous", None),
            ("a player", Some(sign_in(addr, "fuzz-player").await)),
            (
                "another event's head judge",
                Some(sign_in(addr, "fuzz-other-judge").await),
            ),
        ],
    }
}

/// A value that is long, and unlike itself everywhere, so any quoted piece of it is found.
fn marker(len: usize) -> String {
    let mut out = String::with_capacity(len + 8);
    let mut i: u32 = 0;
    while out.len() < len {
        out.push_str(&format!("q{i:05x}"));
        i += 1;
    }
    out.truncate(len);
    out
}

/// Whether `reply` repeats a run of `sent` longer than an error message may quote.
fn echoes(reply: &Reply, sent: &str) -> bool {
    const QUOTE: usize = 201;
    if sent.len() < QUOTE {
        return false;
    }
    let text = reply.text();
    (0..=sent.len() - QUOTE)
        .step_by(40)
        .any(|i| text.contains(&sent[i..i + QUOTE]))
}

fn url_encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

fn form(fields: &[(String, String)]) -> String {
    fields
        .iter()
        .map(|(k, v)| format!("{}={v}", url_encode(k)))
        .collect::<Vec<_>>()
        .join("&")
}

/// The field a refusal says is missing ("missing field `slug`").
fn missing_field(reply: &Reply) -> Option<String> {
    let text = reply.text();
    let at = text.find("missing field `")? + "missing field `".len();
    let len = text[at..].find('`')?;
    Some(text[at..at + len].to_owned())
}

/// A plausible value for a field, so a function gets past its arguments to its checks.
fn plausible(scene: &Scene, field: &str) -> String {
    if field == "slug" || field.ends_with("slug") {
        scene.slug.clone()
    } else {
        "1".to_owned()
    }
}

/// One malformed request: what it is, its content type, its body, and the value to look for
/// in the answer.
struct Case {
    what: String,
    content_type: Option<&'static str>,
    body: Bytes,
    sent: String,
}

const FORM: Option<&str> = Some("application/x-www-form-urlencoded");

fn case(
    what: impl Into<String>,
    content_type: Option<&'static str>,
    body: impl Into<Bytes>,
) -> Case {
    Case {
        what: what.into(),
        content_type,
        body: body.into(),
        sent: String::new(),
    }
}

/// The cases for one function whose fields are `fields` (with plausible values), as `caller`.
fn cases(fields: &[(String, String)], first_caller: bool) -> Vec<Case> {
    let long = long();
    let deep =
        |name: &str, levels: usize| format!("{}{}=1", url_encode(name), "%5Ba%5D".repeat(levels));
    let mut out = vec![
        case("an empty body", FORM, ""),
        case(
            "unknown fields only",
            FORM,
            "zz_unknown=1&yy_other%5B0%5D=2",
        ),
        case(
            "a body that is not UTF-8",
            FORM,
            &b"slug=\xff\xfe&x=\xc3"[..],
        ),
        case(
            "deep nesting in the body",
            FORM,
            format!("a{}=1", "[".repeat(20_000)),
        ),
        case(
            "a JSON body",
            Some("application/json"),
            format!("{{\"a\":{}", "[".repeat(20_000)),
        ),
        case("a plain text body", Some("text/plain"), "slug=x"),
        case("no content type", None, "slug=x"),
        case(
            "multipart without a boundary",
            Some("multipart/form-data"),
            "--x\r\n\r\n--x--\r\n",
        ),
        case(
            "multipart with a boundary and a broken body",
            Some("multipart/form-data; boundary=XyZ"),
            &b"--XyZ\r\nContent-Disposition: form-data\r\n\r\n\xff--"[..],
        ),
    ];
    if long || first_caller {
        out.push(case(
            "a 5 MB field",
            FORM,
            format!("a={}", "a".repeat(5 * 1024 * 1024)),
        ));
    }
    let mutated = if long {
        fields.len()
    } else {
        fields.len().min(SHORT_FIELDS)
    };
    for i in 0..mutated {
        let name = fields[i].0.clone();
        let with = |value: String| {
            let mut all = fields.to_vec();
            all[i].1 = value;
            form(&all)
        };
        let mut add = |what: &str, value: String, sent: String| {
            out.push(Case {
                what: format!("{name}: {what}"),
                content_type: FORM,
                body: with(value).into(),
                sent,
            });
        };
        add(
            "a number past i64",
            "99999999999999999999999".into(),
            String::new(),
        );
        add("invalid UTF-8", "%FF%FE%C3".into(), String::new());
        let text = marker(1_000);
        add("a 1,000-character value", text.clone(), text);
        if long {
            add(
                "a negative number past i64",
                "-99999999999999999999999".into(),
                String::new(),
            );
            add("a fraction", "1.5e400".into(), String::new());
            let text = marker(600 * 1024);
            add("a 600 KB value", text.clone(), text);
        }
        let mut others = fields.to_vec();
        others.remove(i);
        let nested = format!(
            "{}&{}",
            deep(&name, if long { 2_000 } else { 200 }),
            form(&others)
        );
        out.push(case(format!("{name}: nested deep"), FORM, nested));
    }
    out
}

/// The body of a form case as a query string (for a server function read by GET): every byte
/// that may not stand in an address percent-encoded.
fn as_query(body: &[u8]) -> String {
    body.iter()
        .map(|&b| match b {
            b'A'..=b'Z'
            | b'a'..=b'z'
            | b'0'..=b'9'
            | b'-'
            | b'_'
            | b'.'
            | b'~'
            | b'='
            | b'&'
            | b'%' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// One request to a server function: a POST with the case's body and content type, or for a
/// function read by GET, the form body as its query (only form cases apply there).
async fn call(
    addr: SocketAddr,
    method: &Method,
    path: &str,
    content_type: Option<&'static str>,
    body: Bytes,
    cookie: Option<&str>,
) -> Option<Result<Reply, String>> {
    if *method == Method::GET {
        if content_type != FORM {
            return None;
        }
        let target = format!("{path}?{}", as_query(&body));
        return Some(client::get(addr, &target, cookie).await);
    }
    Some(client::post_raw(addr, path, content_type, body, cookie).await)
}

/// Sends each case to `path` as each caller and checks every answer.
async fn fuzz_one(
    addr: SocketAddr,
    scene: &Scene,
    method: &Method,
    path: &str,
    failures: &mut Vec<String>,
) -> usize {
    // Its fields, as its refusals name them (anonymous: arguments are read before any check).
    let mut fields: Vec<(String, String)> = Vec::new();
    for _ in 0..16 {
        let Some(reply) = call(addr, method, path, FORM, form(&fields).into(), None).await else {
            break;
        };
        let Ok(reply) = reply else { break };
        match missing_field(&reply) {
            Some(field) if !fields.iter().any(|(f, _)| *f == field) => {
                let value = plausible(scene, &field);
                fields.push((field, value));
            }
            _ => break,
        }
    }
    let mut sent = 0;
    for (i, (who, cookie)) in scene.callers.iter().enumerate() {
        for case in cases(&fields, i == 0) {
            // An address has its own limit (hyper's 431): a GET's query is not the place for
            // a 5 MB field.
            if *method == Method::GET && case.body.len() > 64 * 1024 {
                continue;
            }
            let Some(reply) = call(
                addr,
                method,
                path,
                case.content_type,
                case.body.clone(),
                cookie.as_deref(),
            )
            .await
            else {
                continue;
            };
            sent += 1;
            let what = format!("{path} as {who}, {}", case.what);
            match reply {
                Err(e) => failures.push(format!("{what}: no answer ({e})")),
                Ok(reply) => {
                    if reply.status >= 500 {
                        failures.push(format!("{what}: {} {}", reply.status, short(&reply.text())));
                    } else if reply.status >= 400 && !REFUSALS.contains(&reply.status) {
                        failures.push(format!("{what}: refused with {}", reply.status));
                    }
                    // A refusal says what is wrong without repeating it; an answer that is
                    // the function's purpose (a search for the text, the check of a log) may
                    // show it.
                    if reply.status >= 400 && echoes(&reply, &case.sent) {
                        failures.push(format!("{what}: the refusal repeats what was sent"));
                    }
                }
            }
        }
    }
    sent
}

fn short(text: &str) -> String {
    text.chars().take(300).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_server_function_answers_malformed_requests_with_a_clear_refusal() {
    let _serial = super::SERIAL.lock().await;
    let cluster = Cluster::new();
    let url = cluster.url("postgres");
    let mentat = Mentat::start(&url, &cluster.log()).await;
    let pool = pool(&url).await;
    let scene = scene(&pool, mentat.addr).await;

    let mut functions: Vec<(&'static str, Method)> =
        leptos::server_fn::axum::server_fn_paths().collect();
    // Signing out ends a caller's session: those last, so every other function is fuzzed as
    // each caller while signed in.
    functions.sort_by_key(|(path, _)| (path.contains("sign_out"), *path));
    assert!(
        functions.len() >= 50,
        "the registry lists every server function ({} found)",
        functions.len()
    );
    assert!(
        functions
            .iter()
            .any(|(p, _)| *p == app::gamelog::UploadLogs::PATH),
        "the multipart upload is among them"
    );
    let mut failures = Vec::new();
    let mut sent = 0;
    let started = std::time::Instant::now();
    for (path, method) in &functions {
        assert!(
            *method == Method::POST || *method == Method::GET,
            "{path}: {method} is fuzzed neither as a form nor as a query"
        );
        sent += fuzz_one(mentat.addr, &scene, method, path, &mut failures).await;
        let health = client::get(mentat.addr, "/healthz", None).await;
        assert!(
            health.is_ok_and(|r| r.status == 200),
            "the server stopped answering after {path}"
        );
    }
    eprintln!(
        "fuzzed {} server functions with {sent} requests in {:?}",
        functions.len(),
        started.elapsed()
    );
    tokio::time::sleep(Duration::from_millis(200)).await;
    let log = mentat.log_text();
    assert!(
        !log.contains("panicked"),
        "the server panicked:\n{}",
        log.lines()
            .filter(|l| l.contains("panicked"))
            .take(5)
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(
        failures.is_empty(),
        "{} of {sent} requests were answered wrongly:\n{}",
        failures.len(),
        failures
            .iter()
            .take(40)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
