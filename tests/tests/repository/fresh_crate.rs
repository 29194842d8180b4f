//! A fresh crate that depends on fusion as a user's crate does (`tests/fresh-crate`: the README's
//! "Use fusion in your crate" lines and main, no workspace of ours, its own target directory)
//! builds, serves one call over stdio, and gets no `serde_json` feature switched on by fusion;
//! and its `adopt` binary, an rmcp `#[tool_router]` server that adopts fusion in one tool, keeps
//! its other tools' JSON and the converted tool's annotations as they were, and serves every
//! resource it advertises; and its `order` binary writes a page's data blocks in the order the
//! wire format fixes, where `serde_json`'s maps would sort them.
//!
//! Slow the first time (it builds its dependencies once in `target/fresh-crate`); later runs
//! rebuild only the crate.

use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The fresh crate written into `target/fresh-crate/inventory`, with the workspace's lock file
/// (so it builds the dependency versions the workspace tests).
fn write_crate() -> PathBuf {
    let root = root().canonicalize().expect("the repository root");
    let dir = root.join("target/fresh-crate/inventory");
    fs::create_dir_all(dir.join("src")).expect("creates the crate");
    let template = root.join("tests/fresh-crate");
    let manifest = fs::read_to_string(template.join("Cargo.toml.in")).expect("the manifest");
    let runtime = root.join("fusion-runtime");
    let manifest = manifest.replace("@RUNTIME@", runtime.to_str().expect("a UTF-8 path"));
    write_if_changed(&dir.join("Cargo.toml"), &manifest);
    for file in ["src/main.rs", "src/bin/adopt.rs", "src/bin/order.rs"] {
        let text = fs::read_to_string(template.join(file)).expect("the crate's sources");
        fs::create_dir_all(dir.join(file).parent().unwrap()).expect("creates the folder");
        write_if_changed(&dir.join(file), &text);
    }
    if !dir.join("Cargo.lock").exists() {
        fs::copy(root.join("Cargo.lock"), dir.join("Cargo.lock")).expect("copies the lock file");
    }
    dir
}

fn write_if_changed(path: &Path, text: &str) {
    if fs::read_to_string(path).ok().as_deref() != Some(text) {
        fs::write(path, text).expect("writes the file");
    }
}

fn cargo(dir: &Path) -> Command {
    let mut command = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    command
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", dir.join("../target"))
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS");
    command
}

/// The main of `tests/fresh-crate` without its module docs: what the README lists.
fn listed_main() -> String {
    let main = fs::read_to_string(root().join("tests/fresh-crate/src/main.rs")).expect("the main");
    let mut listed = String::new();
    for line in main
        .lines()
        .skip_while(|line| line.starts_with("//!") || line.is_empty())
    {
        listed.push_str(line);
        listed.push('\n');
    }
    listed
}

#[test]
fn the_readme_lists_the_fresh_crates_main_and_manifest_lines() {
    let readme = fs::read_to_string(root().join("README.md")).expect("the README");
    assert!(
        readme.contains(&listed_main()),
        "README.md's \"Use fusion in your crate\" main differs from tests/fresh-crate/src/main.rs"
    );
    let manifest = fs::read_to_string(root().join("tests/fresh-crate/Cargo.toml.in")).unwrap();
    for line in manifest
        .lines()
        .skip_while(|l| *l != "[dependencies]")
        .skip(1)
        .take_while(|l| !l.is_empty())
    {
        let line = line.replace("{ path = \"@RUNTIME@\", ", "{ version = \"0.1\", ");
        if !line.is_empty() && !line.starts_with('[') {
            assert!(readme.contains(&line), "README.md does not list `{line}`");
        }
    }
}

/// A server process spoken to over stdio, one JSON-RPC line at a time.
struct Server {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    stdout: BufReader<std::process::ChildStdout>,
}

impl Server {
    fn start(binary: &Path) -> Server {
        let mut child = Command::new(binary)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::inherit())
            .spawn()
            .expect("starts the server");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut server = Server {
            child,
            stdin,
            stdout,
        };
        server.send(r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"fresh","version":"1"}}}"#);
        server.answer(0);
        server.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        server
    }

    fn send(&mut self, line: &str) {
        self.stdin.write_all(line.as_bytes()).unwrap();
        self.stdin.write_all(b"\n").unwrap();
        self.stdin.flush().unwrap();
    }

    fn answer(&mut self, id: u32) -> serde_json::Value {
        loop {
            let mut line = String::new();
            assert_ne!(
                self.stdout.read_line(&mut line).unwrap(),
                0,
                "the server closed stdout"
            );
            let message: serde_json::Value = serde_json::from_str(&line).unwrap();
            if message["id"] == id {
                return message;
            }
        }
    }

    fn request(&mut self, id: u32, method: &str, params: &serde_json::Value) -> serde_json::Value {
        let request =
            serde_json::json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.send(&request.to_string());
        self.answer(id)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn a_fresh_crate_builds_serves_and_keeps_serde_json_as_it_was() {
    let dir = write_crate();
    let status = cargo(&dir)
        .args(["build", "--quiet"])
        .status()
        .expect("runs cargo");
    assert!(status.success(), "the fresh crate does not build");

    // fusion switches no serde_json feature on for the user's build.
    let tree = cargo(&dir)
        .args([
            "tree",
            "--quiet",
            "-e",
            "features",
            "-i",
            "serde_json",
            "--prefix",
            "none",
        ])
        .output()
        .expect("runs cargo tree");
    assert!(
        tree.status.success(),
        "{}",
        String::from_utf8_lossy(&tree.stderr)
    );
    let tree = String::from_utf8(tree.stdout).unwrap();
    for feature in [
        "preserve_order",
        "float_roundtrip",
        "unbounded_depth",
        "arbitrary_precision",
    ] {
        assert!(
            !tree.contains(feature),
            "serde_json's `{feature}` is on:\n{tree}"
        );
    }

    // One call over stdio, as a client makes it.
    let mut server = Command::new(dir.join("../target/debug/inventory"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::inherit())
        .spawn()
        .expect("starts the server");
    let mut stdin = server.stdin.take().unwrap();
    let mut stdout = BufReader::new(server.stdout.take().unwrap());
    let mut send = |line: &str| {
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    };
    let mut answer = |id: u32| -> serde_json::Value {
        loop {
            let mut line = String::new();
            assert_ne!(
                stdout.read_line(&mut line).unwrap(),
                0,
                "the server closed stdout"
            );
            let message: serde_json::Value = serde_json::from_str(&line).unwrap();
            if message["id"] == id {
                return message;
            }
        }
    };
    send(
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"fresh","version":"1"}}}"#,
    );
    assert_eq!(answer(1)["result"]["serverInfo"]["name"], "inventory");
    send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    send(r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#);
    let list = answer(2);
    assert_eq!(list["result"]["tools"][0]["name"], "inventory");
    assert_eq!(
        list["result"]["tools"][0]["annotations"]["readOnlyHint"],
        true
    );
    send(
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"inventory","arguments":{"action":"get_product","sku":"SKU-1"}}}"#,
    );
    let call = answer(3);
    let content = &call["result"]["content"];
    assert_eq!(
        content[0]["text"],
        "{\n  \"sku\": \"SKU-1\",\n  \"quantity\": 12\n}"
    );
    assert_eq!(
        content[1]["text"],
        "<domain_rules>\n- quantity counts single units, never boxes.\n</domain_rules>"
    );
    let _ = server.kill();
    let _ = server.wait();
}

#[test]
fn a_page_keeps_its_order_without_serde_jsons_preserve_order() {
    let dir = write_crate();
    let output = cargo(&dir)
        .args(["run", "--quiet", "--bin", "order"])
        .output()
        .expect("runs cargo");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let stdout = String::from_utf8(output.stdout).unwrap();
    let blocks: Vec<&str> = stdout.split("\n----\n").collect();
    assert_eq!(
        blocks[0],
        "{\n  \"results\": [\n    {\n      \"zulu\": 0,\n      \"sku\": \"SKU-0\",\n      \"delta\": -2\n    },\n    {\n      \"zulu\": 1,\n      \"sku\": \"SKU-1\",\n      \"delta\": -2\n    }\n  ],\n  \"total\": 9,\n  \"offset\": 4,\n  \"shown\": 2,\n  \"truncated\": true,\n  \"next_offset\": 6\n}"
    );
    assert_eq!(
        blocks[1],
        r#"{"results":[{"zulu":0,"sku":"SKU-0","delta":-2},{"zulu":1,"sku":"SKU-1","delta":-2}],"total":9,"offset":4,"shown":2,"truncated":true,"next_offset":6}"#
    );
    assert_eq!(
        blocks[2],
        "results[2|]{zulu|sku|delta}:\n  0|SKU-0|-2\n  1|SKU-1|-2\ntotal: 9\noffset: 4\nshown: 2\ntruncated: true\nnext_offset: 6"
    );
    // A single value is a page of one.
    assert_eq!(
        blocks[3],
        r#"{"results":[{"zulu":2,"sku":"SKU-2","delta":-2}],"total":1,"offset":0,"shown":1,"truncated":false}"#
    );
}

#[test]
fn an_rmcp_server_adopts_fusion_in_one_tool_and_nothing_else_changes() {
    let dir = write_crate();
    let status = cargo(&dir)
        .args(["build", "--quiet"])
        .status()
        .expect("runs cargo");
    assert!(status.success(), "the fresh crate does not build");
    let binary = dir.join("../target/debug/adopt");
    let mut server = Server::start(&binary);

    // The rmcp tool that returns JSON answers as rmcp alone answers it: serde_json's own key
    // order (sorted: no `preserve_order` switched on by fusion) and its own float text.
    let json_tool = server.request(
        1,
        "tools/call",
        &serde_json::json!({"name": "stats", "arguments": {}}),
    );
    assert_eq!(
        json_tool["result"]["content"][0]["text"],
        r#"{"alpha":2,"middle":0.1,"zeta":1}"#
    );

    // The converted tool keeps every annotation the rmcp tool had.
    let list = server.request(2, "tools/list", &serde_json::json!({}));
    let tools = list["result"]["tools"].as_array().unwrap();
    let tool = |name: &str| tools.iter().find(|t| t["name"] == name).unwrap().clone();
    assert_eq!(
        tool("adjust_stock")["annotations"],
        tool("adjust_stock_rmcp")["annotations"]
    );
    assert_eq!(tool("adjust_stock")["annotations"]["title"], "Adjust stock");

    // Every resource a tool names is listed and reads.
    let resources = server.request(3, "resources/list", &serde_json::json!({}));
    let listed: Vec<&str> = resources["result"]["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["uri"].as_str().unwrap())
        .collect();
    for tool in tools {
        if let Some(uri) = tool["_meta"]["ui"]["resourceUri"].as_str() {
            assert!(listed.contains(&uri), "{uri} is advertised but not listed");
            let read = server.request(4, "resources/read", &serde_json::json!({"uri": uri}));
            assert!(
                read["result"]["contents"][0]["text"].is_string(),
                "{uri} does not read: {read}"
            );
        }
    }
    assert_eq!(listed, ["ui://fusion/blocks"]);

    // `fusion_route` refuses to replace a tool of the same name.
    let duplicate = Command::new(&binary).arg("--duplicate").output().unwrap();
    assert!(duplicate.status.success(), "{duplicate:?}");
    assert_eq!(
        String::from_utf8(duplicate.stdout).unwrap(),
        "tool `adjust_stock` cannot be defined: the router already has a tool of this name (a `#[tool]` method?); remove it, or give the fusion tool another name\n"
    );
}
