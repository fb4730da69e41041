//! The two published crates' manifests, as `cargo metadata` reads them: what crates.io needs,
//! no placeholder address, license files in each package, and no dependency cycle at publish
//! time. (`cargo publish --dry-run --workspace` in `.ci/run` packages and builds them.)

use std::path::Path;

use serde_json::Value;

fn metadata() -> Value {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let out = std::process::Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("cargo metadata prints JSON")
}

fn package<'a>(m: &'a Value, name: &str) -> &'a Value {
    m["packages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == name)
        .unwrap_or_else(|| panic!("no package {name}"))
}

#[test]
fn published_crates_have_what_crates_io_shows() {
    let m = metadata();
    for (name, keywords, categories) in [
        (
            "llmout",
            &["llm", "json", "repair", "schema", "tool-calls"][..],
            &[
                "parser-implementations",
                "encoding",
                "command-line-utilities",
            ][..],
        ),
        (
            "llmout-derive",
            &["llm", "json", "schema", "derive"],
            &["development-tools::procedural-macro-helpers"],
        ),
    ] {
        let p = package(&m, name);
        assert_eq!(p["license"], "MIT OR Apache-2.0", "{name}");
        assert!(p["description"].as_str().is_some_and(|d| !d.is_empty()));
        assert_eq!(p["keywords"], serde_json::json!(keywords), "{name}");
        assert_eq!(p["categories"], serde_json::json!(categories), "{name}");
        // No invented address: the project has none yet.
        assert_eq!(p["repository"], Value::Null, "{name}");
        assert_eq!(
            p["documentation"],
            format!("https://docs.rs/{name}").as_str(),
            "{name}"
        );
        let manifest_dir = Path::new(p["manifest_path"].as_str().unwrap())
            .parent()
            .unwrap();
        let readme = manifest_dir.join(p["readme"].as_str().unwrap());
        assert!(readme.is_file(), "{name}: {}", readme.display());
        // The license texts are in the package (links to the workspace's copies).
        for file in ["LICENSE-MIT", "LICENSE-APACHE"] {
            let here = std::fs::read_to_string(manifest_dir.join(file)).unwrap();
            let root =
                std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(file)).unwrap();
            assert_eq!(here, root, "{name}: {file}");
        }
    }
    let manifest =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml")).unwrap();
    assert!(!manifest.contains("example.invalid"));
}

#[test]
fn the_derive_uses_the_runtime_crate_by_path_only() {
    let m = metadata();
    let deps = package(&m, "llmout-derive")["dependencies"]
        .as_array()
        .unwrap();
    let llmout = deps.iter().find(|d| d["name"] == "llmout").unwrap();
    // A dev-dependency with no version: cargo drops it from the published manifest, so
    // llmout -> llmout-derive -> llmout is no cycle on crates.io.
    assert_eq!(llmout["kind"], "dev");
    assert_eq!(llmout["req"], "*");
    // And the runtime crate pins the derive exactly: they are released together.
    let deps = package(&m, "llmout")["dependencies"].as_array().unwrap();
    let derive = deps.iter().find(|d| d["name"] == "llmout-derive").unwrap();
    assert_eq!(derive["req"], "=0.1.0");
    assert_eq!(derive["kind"], Value::Null);
}
