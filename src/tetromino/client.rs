//! `net-solve`: the contest's client (ureq): fetch a puzzle from the API, solve it, submit it,
//! and time each step.

use super::signature::Signature;
use super::solution::to_json;
use super::solver::{self, Options, Outcome};
use serde_json::Value;
use std::io::Write;
use std::time::{Duration, Instant};

/// Why `net-solve` stopped: the request failed, or the puzzle was proven unsolvable, or the
/// solver gave up within the timeout. The message is one line naming the step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetError {
    Request(String),
    Unsolvable(String),
    GaveUp(String),
}

impl NetError {
    pub fn message(&self) -> &str {
        match self {
            NetError::Request(m) | NetError::Unsolvable(m) | NetError::GaveUp(m) => m,
        }
    }
}

impl From<String> for NetError {
    fn from(message: String) -> NetError {
        NetError::Request(message)
    }
}

/// What one `net-solve` run did.
#[derive(Clone, Debug)]
pub struct NetReport {
    pub id: u64,
    pub solved: bool,
    pub lines: Vec<String>,
}

fn endpoint(url: &str) -> String {
    let base = url.trim_end_matches('/');
    if base.ends_with("/api/puzzle") {
        base.to_string()
    } else {
        format!("{base}/api/puzzle")
    }
}

fn read_json(response: &mut ureq::http::Response<ureq::Body>, step: &str) -> Result<Value, String> {
    let status = response.status().as_u16();
    let text = response
        .body_mut()
        .read_to_string()
        .map_err(|e| format!("{step}: cannot read the answer: {e}"))?;
    let value: Value = serde_json::from_str(&text)
        .map_err(|e| format!("{step}: HTTP {status}, answer is not JSON: {e}"))?;
    if status != 200 {
        let message = value["error"].as_str().unwrap_or("no error message");
        return Err(format!("{step}: HTTP {status}: {message}"));
    }
    Ok(value)
}

/// Fetches a puzzle of `size`, solves it within `timeout` and submits the answer, writing each
/// step's time to `out` as it happens. Errors are one line naming the step.
pub fn net_solve(
    url: &str,
    token: &str,
    size: usize,
    timeout: Option<Duration>,
    out: &mut dyn Write,
) -> Result<NetReport, NetError> {
    let endpoint = endpoint(url);
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(Duration::from_secs(30)))
        .http_status_as_error(false)
        .build()
        .into();
    let mut lines = Vec::new();
    let mut say = |line: String, out: &mut dyn Write| {
        let _ = writeln!(out, "{line}");
        lines.push(line);
    };
    let total = Instant::now();
    let start = Instant::now();
    let mut response = agent
        .get(&endpoint)
        .query("token", token)
        .query("size", size.to_string())
        .call()
        .map_err(|e| format!("fetch: {endpoint}: {e}"))?;
    let puzzle = read_json(&mut response, "fetch")?;
    let (Some(id), Some(got_size), Some(signature)) = (
        puzzle["id"].as_u64(),
        puzzle["size"].as_u64(),
        puzzle["signature"].as_str(),
    ) else {
        return Err(format!("fetch: answer lacks id, size or signature: {puzzle}").into());
    };
    let got_size = got_size as usize;
    let signature = Signature::parse(signature).map_err(|e| format!("fetch: {e}"))?;
    say(
        format!(
            "fetch   {:>9.3} ms  puzzle {id}: size {got_size}, {signature}",
            ms(start.elapsed())
        ),
        out,
    );
    if got_size > solver::MAX_SIZE {
        return Err(format!("fetch: size {got_size} exceeds {}", solver::MAX_SIZE).into());
    }
    let start = Instant::now();
    let options = Options {
        time_budget: timeout,
        ..Options::default()
    };
    let (outcome, stats) = super::decide::solve(got_size, &signature, &options);
    let placements = match outcome {
        Outcome::Solved(p) => p,
        Outcome::Unsolvable(reason) => {
            return Err(NetError::Unsolvable(format!("unsolvable: {reason}")))
        }
        Outcome::GaveUp(message) => return Err(NetError::GaveUp(message)),
    };
    say(
        format!(
            "solve   {:>9.3} ms  {} pieces, {} placements tried",
            ms(start.elapsed()),
            placements.len(),
            stats.nodes
        ),
        out,
    );
    let start = Instant::now();
    let mut response = agent
        .post(&endpoint)
        .send_form([
            ("token", token.to_string()),
            ("id", id.to_string()),
            ("solution", to_json(&placements)),
        ])
        .map_err(|e| format!("submit: {endpoint}: {e}"))?;
    let verdict = read_json(&mut response, "submit")?;
    let solved = verdict["solved"].as_bool() == Some(true);
    say(
        format!(
            "submit  {:>9.3} ms  solved: {solved}, submitted_at {}{}",
            ms(start.elapsed()),
            verdict["submitted_at"].as_str().unwrap_or("?"),
            verdict["reason"]
                .as_str()
                .map(|r| format!(", reason: {r}"))
                .unwrap_or_default()
        ),
        out,
    );
    say(format!("total   {:>9.3} ms", ms(total.elapsed())), out);
    Ok(NetReport { id, solved, lines })
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endpoint_appends_the_api_path_once() {
        assert_eq!(endpoint("http://h:1/"), "http://h:1/api/puzzle");
        assert_eq!(endpoint("http://h:1/api/puzzle"), "http://h:1/api/puzzle");
    }
}
