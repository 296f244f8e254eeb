//! Headless Chromium driven over its DevTools protocol: one page, its console errors collected,
//! and input sent as a person's mouse and keyboard would send it.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use tungstenite::{Message, WebSocket};

pub struct Browser {
    child: Child,
    socket: WebSocket<TcpStream>,
    session: String,
    next_id: u64,
    profile: PathBuf,
    /// Console errors, uncaught exceptions and error log entries, one line each.
    pub errors: Vec<String>,
    /// Page loads finished (`Page.loadEventFired`).
    loads: usize,
}

impl Browser {
    /// Starts `chromium --headless` with a fresh profile and opens one blank page of the size.
    pub fn launch(width: u32, height: u32) -> Browser {
        static LAUNCHED: AtomicUsize = AtomicUsize::new(0);
        let profile = std::env::temp_dir().join(format!(
            "podium-chromium-{}-{}",
            std::process::id(),
            LAUNCHED.fetch_add(1, Ordering::Relaxed)
        ));
        let mut child = Command::new("chromium")
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--no-default-browser-check",
                "--disable-extensions",
                "--disable-background-networking",
                "--remote-debugging-port=0",
                &format!("--window-size={width},{height}"),
                &format!("--user-data-dir={}", profile.display()),
                "about:blank",
            ])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start chromium (Debian's package `chromium`)");
        let stderr = child.stderr.take().expect("chromium's stderr is piped");
        let mut lines = BufReader::new(stderr).lines();
        let address = loop {
            let line = lines
                .next()
                .expect("chromium exited before announcing DevTools")
                .expect("read chromium's stderr");
            if let Some(at) = line.find("ws://") {
                break line[at..].trim().to_string();
            }
        };
        std::thread::spawn(move || lines.for_each(drop));
        let socket = devtools_socket(&address);
        let mut browser = Browser {
            child,
            socket,
            session: String::new(),
            next_id: 1,
            profile,
            errors: Vec::new(),
            loads: 0,
        };
        let target = browser.call("Target.createTarget", json!({"url": "about:blank"}));
        let attached = browser.call(
            "Target.attachToTarget",
            json!({"targetId": target["targetId"], "flatten": true}),
        );
        browser.session = attached["sessionId"]
            .as_str()
            .expect("a session")
            .to_string();
        for domain in ["Page.enable", "Runtime.enable", "Log.enable"] {
            browser.call(domain, json!({}));
        }
        browser.call(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": width, "height": height, "deviceScaleFactor": 1, "mobile": false}),
        );
        browser
    }

    /// Sends one command (to the page once attached) and waits for its answer, keeping the
    /// events that arrive meanwhile.
    pub fn call(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        let mut message = json!({"id": id, "method": method, "params": params});
        if !self.session.is_empty() {
            message["sessionId"] = json!(self.session);
        }
        self.socket
            .send(Message::Text(message.to_string().into()))
            .expect("send to DevTools");
        loop {
            let text = match self.socket.read().expect("read from DevTools") {
                Message::Text(text) => text,
                Message::Close(frame) => panic!("DevTools closed its socket: {frame:?}"),
                _ => continue,
            };
            let answer: Value = serde_json::from_str(text.as_str()).expect("DevTools speaks JSON");
            if answer["id"] == json!(id) {
                if let Some(error) = answer.get("error") {
                    panic!("DevTools {method} failed: {error}");
                }
                return answer["result"].clone();
            }
            self.note_event(&answer);
        }
    }

    fn note_event(&mut self, event: &Value) {
        let params = &event["params"];
        match event["method"].as_str() {
            Some("Page.loadEventFired") => self.loads += 1,
            Some("Runtime.consoleAPICalled") if params["type"] == "error" => {
                let args: Vec<String> = params["args"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|a| a["value"].to_string())
                    .collect();
                self.errors
                    .push(format!("console.error: {}", args.join(" ")));
            }
            Some("Runtime.exceptionThrown") => {
                let details = &params["exceptionDetails"];
                self.errors.push(format!(
                    "exception: {} {}",
                    details["text"], details["exception"]["description"]
                ));
            }
            Some("Log.entryAdded") if params["entry"]["level"] == "error" => {
                let entry = &params["entry"];
                self.errors
                    .push(format!("log: {} {}", entry["text"], entry["url"]));
            }
            _ => {}
        }
    }

    /// The value of a JavaScript expression in the page (promises awaited).
    pub fn eval(&mut self, expression: &str) -> Value {
        let result = self.call(
            "Runtime.evaluate",
            json!({"expression": expression, "returnByValue": true, "awaitPromise": true}),
        );
        if let Some(details) = result.get("exceptionDetails") {
            panic!("page script `{expression}` threw: {details}");
        }
        result["result"]["value"].clone()
    }

    /// Waits until `condition` (a JavaScript expression) is true in the page.
    pub fn wait_for(&mut self, condition: &str, timeout: Duration) {
        let start = Instant::now();
        while self.eval(condition) != json!(true) {
            assert!(
                start.elapsed() < timeout,
                "waited {timeout:?} for `{condition}`"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Opens `url` and waits for its load event.
    pub fn navigate(&mut self, url: &str) {
        let loads = self.loads;
        self.call("Page.navigate", json!({"url": url}));
        let start = Instant::now();
        while self.loads == loads {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "{url} did not load"
            );
            std::thread::sleep(Duration::from_millis(20));
            self.eval("true");
        }
    }

    /// The centre of the element `selector` picks, scrolled into view first.
    pub fn centre_of(&mut self, selector: &str) -> (f64, f64) {
        let script = format!(
            "(() => {{ const e = document.querySelector({selector:?}); if (!e) return null; \
             e.scrollIntoView({{block: 'nearest', inline: 'nearest'}}); \
             const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }})()"
        );
        let point = self.eval(&script);
        let point = point
            .as_array()
            .unwrap_or_else(|| panic!("no element {selector}"));
        (point[0].as_f64().unwrap(), point[1].as_f64().unwrap())
    }

    fn mouse(&mut self, kind: &str, (x, y): (f64, f64), pressed: bool) {
        self.call(
            "Input.dispatchMouseEvent",
            json!({"type": kind, "x": x, "y": y, "button": "left",
                   "buttons": if pressed { 1 } else { 0 }, "clickCount": 1}),
        );
    }

    pub fn click(&mut self, selector: &str) {
        let at = self.centre_of(selector);
        self.mouse("mouseMoved", at, false);
        self.mouse("mousePressed", at, true);
        self.mouse("mouseReleased", at, false);
    }

    /// Presses on `from`, moves in steps to `to` and releases there.
    pub fn drag(&mut self, from: &str, to: &str) {
        let target = self.centre_of(to);
        let start = self.centre_of(from);
        self.mouse("mouseMoved", start, false);
        self.mouse("mousePressed", start, true);
        for step in 1..=8 {
            let t = f64::from(step) / 8.0;
            let at = (
                start.0 + (target.0 - start.0) * t,
                start.1 + (target.1 - start.1) * t,
            );
            self.mouse("mouseMoved", at, true);
        }
        self.mouse("mouseReleased", target, false);
    }

    /// Types one key: a letter (its text too) or a named key such as "Backspace" or "ArrowLeft".
    pub fn key(&mut self, key: &str) {
        let (code, keycode, text) = match key {
            "Backspace" => ("Backspace".to_string(), 8, ""),
            " " => ("Space".to_string(), 32, " "),
            "ArrowLeft" => (key.to_string(), 37, ""),
            "ArrowUp" => (key.to_string(), 38, ""),
            "ArrowRight" => (key.to_string(), 39, ""),
            "ArrowDown" => (key.to_string(), 40, ""),
            letter => {
                let upper = letter.to_ascii_uppercase();
                (
                    format!("Key{upper}"),
                    i64::from(upper.as_bytes()[0]),
                    letter,
                )
            }
        };
        let kind = if text.is_empty() {
            "rawKeyDown"
        } else {
            "keyDown"
        };
        self.call(
            "Input.dispatchKeyEvent",
            json!({"type": kind, "key": key, "code": code, "windowsVirtualKeyCode": keycode,
                   "text": text}),
        );
        self.call(
            "Input.dispatchKeyEvent",
            json!({"type": "keyUp", "key": key, "code": code, "windowsVirtualKeyCode": keycode}),
        );
    }

    /// The viewport as PNG bytes (captureBeyondViewport would lay scrolled boxes out anew).
    pub fn screenshot(&mut self) -> Vec<u8> {
        let shot = self.call(
            "Page.captureScreenshot",
            json!({"format": "png", "captureBeyondViewport": false}),
        );
        decode_base64(shot["data"].as_str().expect("screenshot data"))
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        self.session.clear();
        let close = r#"{"id":0,"method":"Browser.close"}"#;
        let _ = self.socket.send(Message::Text(close.into()));
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(5) {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

/// The browser's DevTools WebSocket at `ws://HOST:PORT/devtools/browser/ID`; a read waits a minute
/// at most, so a hung browser fails the test instead of stalling it.
fn devtools_socket(address: &str) -> WebSocket<TcpStream> {
    let authority = address
        .trim_start_matches("ws://")
        .split('/')
        .next()
        .unwrap_or_default();
    let stream = TcpStream::connect(authority).expect("connect to DevTools");
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .expect("a read timeout");
    let (socket, _) = tungstenite::client(address, stream).expect("the DevTools handshake");
    socket
}

fn decode_base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("not base64: {c}"),
    };
    let digits: Vec<u8> = text.bytes().filter(|&c| c != b'=').map(value).collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let bits = chunk
            .iter()
            .enumerate()
            .fold(0u32, |acc, (i, &d)| acc | (u32::from(d) << (18 - 6 * i)));
        let bytes = bits.to_be_bytes();
        out.extend_from_slice(&bytes[1..chunk.len()]);
    }
    out
}
