//! `graft bench memory` through the built binary at a small size: every stage runs in its own
//! process and reports figures. Not a budget test: it checks the report's shape and that the
//! numbers are real (positive and finite where resident memory can be read).

use serde_json::Value;
use std::process::Command;

fn positive(v: &Value, what: &str) -> f64 {
    let x = v
        .as_f64()
        .unwrap_or_else(|| panic!("{what} is not a number: {v}"));
    assert!(x.is_finite() && x > 0.0, "{what} = {x}");
    x
}

#[test]
fn bench_memory_reports_every_stage_with_real_numbers() {
    let o = Command::new(env!("CARGO_BIN_EXE_graft"))
        .args(["bench", "memory", "--nodes", "2000", "--json"])
        .output()
        .expect("the graft binary runs");
    let (out, err) = (
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr),
    );
    assert!(o.status.success(), "stdout: {out}\nstderr: {err}");
    let r: Value = serde_json::from_str(out.trim()).expect("one JSON object");
    assert_eq!(r["nodes"], 2000);
    positive(&r["file_bytes"], "file_bytes");
    let stages: Vec<(&str, &str)> = (r["stages"].as_array().unwrap().iter())
        .map(|s| {
            (
                s["stage"].as_str().unwrap(),
                s["allocator"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        stages,
        [
            ("baseline", "default"),
            ("check", "default"),
            ("editor", "default"),
            ("check", "purge_delay=0"),
            ("editor", "purge_delay=0"),
        ]
    );
    for s in r["stages"].as_array().unwrap() {
        let stage = s["stage"].as_str().unwrap();
        assert!(!s["run"]["checkpoints"].as_array().unwrap().is_empty());
        if stage != "baseline" {
            assert_eq!(s["run"]["nodes"], 2000, "{stage} held the whole scene");
        }
        if !cfg!(target_os = "linux") {
            continue;
        }
        assert_eq!(r["rss_available"], true);
        let peak = positive(&s["peak_rss_mb"], "peak_rss_mb");
        positive(&s["rss_mb"], "rss_mb");
        if stage != "baseline" {
            // A stage that loads 2000 nodes holds more than the process doing nothing.
            positive(&s["peak_bytes_per_node"], "peak_bytes_per_node");
            let base = r["stages"][0]["peak_rss_mb"].as_f64().unwrap();
            assert!(peak > base, "{stage}: peak {peak} MB vs baseline {base} MB");
        }
        if stage == "check" {
            let v = &s["peak_minus_file_bytes_per_node"];
            assert!(v.as_f64().is_some_and(f64::is_finite), "{v}");
        }
    }
    let layout = &r["layout"];
    positive(&layout["scene_per_node"], "scene_per_node");
    let arrays = layout["arrays_per_node"].as_array().unwrap();
    assert!(
        arrays
            .iter()
            .any(|a| a[0] == "id index" && a[1].as_f64().unwrap() > 0.0),
        "{arrays:?}"
    );
    let sizes = layout["sizes"].as_array().unwrap();
    assert!(
        sizes
            .iter()
            .any(|s| s["name"] == "NodeData" && s["bytes"].as_u64().unwrap() > 0)
    );
}

#[test]
fn bench_memory_refuses_zero_nodes_and_unknown_stages() {
    let graft = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_graft"))
            .args(args)
            .output()
            .unwrap()
    };
    let o = graft(&["bench", "memory", "--nodes", "0"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--nodes"));
    let o = graft(&["bench", "memory-stage", "nonsense"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("unknown stage"));
}
