//! The compile cache stays bounded (issue 26, item 4): `agenthooks cache`
//! lists each entry with its tier, last use and component; a compile sweeps
//! entries unused for a while out under the budget (`AGENTHOOKS_CACHE_MAX_MIB`);
//! `agenthooks cache clean` empties it and leaves pulled components alone.

use std::fs::{self, FileTimes};
use std::time::{Duration, SystemTime};

use crate::util::TempProject;

/// A small real hook component (the tests' `deny` guest).
fn component() -> Vec<u8> {
    std::fs::read(crate::wasm::guest("deny")).unwrap()
}

#[test]
fn cache_lists_evicts_under_the_budget_and_cleans() {
    let p = TempProject::new();
    let component = p.write("hooks/empty.wasm", component());
    let cache = p.home.join(".cache/agenthooks");
    fs::create_dir_all(cache.join("oci")).unwrap();
    fs::write(cache.join("oci/pulled"), "a pulled component").unwrap();
    // An entry of another build, unused for a month.
    let old = cache.join(format!("{}-0123456789abcdef.cwasm", "a".repeat(64)));
    fs::write(&old, vec![0u8; 4096]).unwrap();
    let month_ago = SystemTime::now() - Duration::from_secs(30 * 24 * 3600);
    fs::File::options()
        .write(true)
        .open(&old)
        .unwrap()
        .set_times(
            FileTimes::new()
                .set_accessed(month_ago)
                .set_modified(month_ago),
        )
        .unwrap();

    let listed = p.output(p.cmd(["cache"]), "");
    assert_eq!(listed.code(), 0, "{}", listed.stderr());
    assert!(listed.stdout().contains("1 entry"), "{}", listed.stdout());
    assert!(listed.stdout().contains("other"), "{}", listed.stdout());
    assert!(
        listed.stdout().contains("30 days ago"),
        "{}",
        listed.stdout()
    );

    // The index records a component only once it has not changed for 3 s
    // (`fsread::SETTLE`), compared in whole seconds, so up to 4 s after its
    // write: wait that long, so the listing can name it (3.2 s named it
    // only when the write fell late in its second).
    std::thread::sleep(Duration::from_millis(4100));
    // A budget of 0: the month-old entry goes, the one just compiled stays.
    let mut compile = p.cmd(["compile"]);
    compile.arg(&component).env("AGENTHOOKS_CACHE_MAX_MIB", "0");
    let compiled = p.output(compile, "");
    assert_eq!(compiled.code(), 0, "{}", compiled.stderr());
    assert!(!old.exists(), "the entry unused for a month is evicted");
    let listed = p.output(p.cmd(["cache"]), "");
    let text = listed.stdout();
    assert!(text.contains("1 entry"), "{text}");
    assert!(
        text.contains("optimized") && text.contains("just now"),
        "{text}"
    );
    assert!(
        text.contains("hooks/empty.wasm"),
        "names its component: {text}"
    );

    let cleaned = p.output(p.cmd(["cache", "clean"]), "");
    assert_eq!(cleaned.code(), 0, "{}", cleaned.stderr());
    assert!(
        cleaned.stdout().contains("removed 1 entry"),
        "{}",
        cleaned.stdout()
    );
    let listed = p.output(p.cmd(["cache"]), "");
    assert!(listed.stdout().contains("0 entries"), "{}", listed.stdout());
    assert!(
        !cache.join("index").read_dir().unwrap().any(|_| true),
        "index emptied"
    );
    assert!(cache.join("oci/pulled").exists(), "pulled components stay");
}
