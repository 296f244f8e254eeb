//! The contest API on 127.0.0.1: a server on a free port in a thread, `net-solve` against it,
//! token and malformed-request errors, then shutdown. Loopback only, bounded in time.

use podium::tetromino::server::{net_solve, NetError, PuzzleServer, ServerConfig};
use serde_json::Value;
use std::sync::Arc;
use std::time::Duration;

fn call(request: ureq::RequestBuilder<ureq::typestate::WithoutBody>) -> (u16, Value) {
    let mut response = request.call().expect("the server answers");
    let status = response.status().as_u16();
    let text = response.body_mut().read_to_string().unwrap();
    (status, serde_json::from_str(&text).expect("a JSON answer"))
}

fn post(agent: &ureq::Agent, url: &str, form: &[(&str, &str)]) -> (u16, Value) {
    let mut response = agent
        .post(url)
        .send_form(form.iter().copied())
        .expect("the server answers");
    let status = response.status().as_u16();
    let text = response.body_mut().read_to_string().unwrap();
    (status, serde_json::from_str(&text).expect("a JSON answer"))
}

#[test]
fn serve_and_net_solve_on_loopback() {
    let config = ServerConfig {
        tokens: vec!["secret".into()],
        seed: 5,
        max_size: 60,
    };
    let server = Arc::new(PuzzleServer::bind("127.0.0.1:0", config).unwrap());
    let address = server.local_addr().unwrap();
    assert!(address.ip().is_loopback());
    let runner = {
        let server = Arc::clone(&server);
        std::thread::spawn(move || server.serve())
    };
    let base = format!("http://{address}");
    let url = format!("{base}/api/puzzle");

    for size in [4, 20, 50] {
        let mut log = Vec::new();
        let report = net_solve(
            &base,
            "secret",
            size,
            Some(Duration::from_secs(20)),
            &mut log,
        )
        .unwrap();
        assert!(report.solved, "{:?}", report.lines);
        let log = String::from_utf8(log).unwrap();
        for step in ["fetch", "solve", "submit", "total"] {
            assert!(
                log.lines()
                    .any(|l| l.starts_with(step) && l.contains(" ms")),
                "{log}"
            );
        }
    }
    let denied = net_solve(&base, "wrong", 4, None, &mut Vec::new()).unwrap_err();
    assert!(
        matches!(&denied, NetError::Request(m) if m.contains("403")),
        "{denied:?}"
    );

    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(20)))
        .build()
        .into();
    let (status, body) = call(agent.get(&url).query("size", "4"));
    assert_eq!(
        (status, body["error"].as_str()),
        (401, Some("missing token"))
    );
    let (status, body) = call(agent.get(&url).query("token", "nope").query("size", "4"));
    assert_eq!(
        (status, body["error"].as_str()),
        (403, Some("invalid token"))
    );
    for size in ["5", "abc", "1000"] {
        let (status, body) = call(agent.get(&url).query("token", "secret").query("size", size));
        assert_eq!(status, 400, "{size}");
        assert!(
            body["error"].as_str().unwrap().contains("even number"),
            "{body}"
        );
    }
    let (status, body) = call(agent.get(format!("{base}/elsewhere")));
    assert_eq!(status, 404, "{body}");

    let (status, puzzle) = call(agent.get(&url).query("token", "secret").query("size", "4"));
    assert_eq!(status, 200);
    let id = puzzle["id"].as_u64().unwrap().to_string();
    let (status, body) = post(
        &agent,
        &url,
        &[("token", "secret"), ("id", &id), ("solution", "[[\"Z\",0")],
    );
    assert_eq!(status, 400);
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .starts_with("solution: not valid JSON"),
        "{body}"
    );
    let (status, body) = post(
        &agent,
        &url,
        &[("token", "secret"), ("id", "x"), ("solution", "[]")],
    );
    assert_eq!(
        (status, body["error"].as_str()),
        (400, Some("id \"x\" is not a number"))
    );
    let (status, _) = post(
        &agent,
        &url,
        &[("token", "secret"), ("id", "1"), ("solution", "[]")],
    );
    assert_eq!(status, 404);
    let (status, _) = post(&agent, &url, &[("id", &id), ("solution", "[]")]);
    assert_eq!(status, 401);
    let (status, body) = post(
        &agent,
        &url,
        &[
            ("token", "secret"),
            ("id", &id),
            ("solution", "[[\"O\",0,0,0]]"),
        ],
    );
    assert_eq!(status, 200);
    assert_eq!(body["solved"], Value::Bool(false));
    assert!(
        body["reason"].as_str().unwrap().starts_with("gap"),
        "{body}"
    );
    assert!(body["submitted_at"].as_str().unwrap().ends_with('Z'));

    server.stop();
    runner.join().unwrap().unwrap();
}
