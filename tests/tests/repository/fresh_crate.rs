//! A fresh crate that depends on fusion as a user's crate does (`tests/fresh-crate`: the README's
//! "Use fusion in your crate" lines and main, no workspace of ours, its own target directory)
//! builds, serves one call over stdio, and gets no `serde_json` feature switched on by fusion.
//!
//! Slow the first time (it builds its dependencies once in `target/fresh-crate`); later runs
//! rebuild only the crate.

use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

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
    let main = fs::read_to_string(template.join("src/main.rs")).expect("the main");
    write_if_changed(&dir.join("src/main.rs"), &main);
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
    {
        let line = line.replace("{ path = \"@RUNTIME@\", ", "{ version = \"0.1\", ");
        if !line.is_empty() && !line.starts_with('[') {
            assert!(readme.contains(&line), "README.md does not list `{line}`");
        }
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
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
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
