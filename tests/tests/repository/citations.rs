//! Every section citation in the code and its documentation resolves to a heading of
//! `docs/wire-format.md`, so a reader can look up what a comment such as "wire format" + section sign
//! + "5.5" refers to, and a renumbered section cannot leave stale pointers behind.
//!
//! The scan reads every `*.rs` and `*.md` file under the crates, the tests, the examples and the
//! fuzz targets, plus every `*.md` at the repository root (`README.md`, `ARCHITECTURE.md`, ...);
//! build output (`target/`), installed npm packages (`node_modules/`, of the browser test) and
//! hidden directories are skipped. A citation is the section sign followed by a number (`5`,
//! `5.5`, `5.5.1`). A range (two numbers joined by an en dash or a hyphen, the second section
//! sign optional) cites every section between its ends when both ends
//! share a parent, and its two ends otherwise. In a list each member that carries its own section
//! sign is a citation of its own; a bare dotted number after a comma or "and" (`6.4, 6.5`)
//! continues the list. This file writes the section sign only as `\u{a7}`, so it cites nothing
//! itself.
//!
//! Conformance vectors get the same treatment: every `V`+number the files mention (`V36`, a range
//! `V59–V64`) is a `#### V36.` heading of the document, the document numbers its vectors from 1
//! without a gap, and each of them has a test named after it (`fn v36_…`).

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// The section sign.
const SIGN: char = '\u{a7}';

/// The document every citation points into, relative to the repository root.
const WIRE_FORMAT: &str = "docs/wire-format.md";

/// The directories scanned, relative to the repository root.
const SCANNED_DIRS: [&str; 6] = [
    "fusion-runtime",
    "fusion-derive",
    "tests",
    "ui-tests",
    "examples",
    "fuzz",
];

/// A section number: `[5, 5]` is section 5.5.
type Section = Vec<u32>;

/// One citation as written, with the sections it points at.
#[derive(Debug, PartialEq)]
struct Cited {
    /// The citation's text, from the section sign to its last digit.
    text: String,
    /// Every section it cites (a range is expanded).
    sections: Vec<Section>,
}

/// A citation and where it was found.
struct Found {
    /// The file, relative to the repository root.
    file: PathBuf,
    /// The line number, from 1.
    line: usize,
    /// What the line cites.
    cited: Cited,
}

fn repository_root() -> PathBuf {
    // This crate lives in `tests/` of the workspace.
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the tests crate sits inside the repository")
        .to_path_buf()
}

fn dotted(section: &[u32]) -> String {
    section
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(".")
}

/// Reads a section number at the start of `text`: digits, then `.digits` groups. A `.` that
/// no digit follows (the end of a sentence) is not part of it. Returns the number and the rest.
fn number(text: &str) -> Option<(Section, &str)> {
    let mut section = Vec::new();
    let mut rest = text;
    loop {
        let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        if digits == 0 {
            break;
        }
        section.push(rest[..digits].parse().ok()?);
        rest = &rest[digits..];
        match rest.strip_prefix('.') {
            Some(after) if after.starts_with(|c: char| c.is_ascii_digit()) => rest = after,
            _ => break,
        }
    }
    (!section.is_empty()).then_some((section, rest))
}

/// The sections a range cites: every one between its ends when both have the same depth and
/// parent (`6.2`..`6.8`, `10`..`13`), otherwise just its two ends.
fn range(first: Section, last: Section) -> Vec<Section> {
    let (Some((&from, parent)), Some((&to, last_parent))) = (first.split_last(), last.split_last())
    else {
        return vec![first, last];
    };
    if parent != last_parent || to < from {
        return vec![first, last];
    }
    (from..=to)
        .map(|n| {
            let mut section = parent.to_vec();
            section.push(n);
            section
        })
        .collect()
}

/// Every citation in one line of text.
fn citations(line: &str) -> Vec<Cited> {
    let mut found = Vec::new();
    let mut offset = 0;
    while let Some(at) = line[offset..].find(SIGN).map(|at| offset + at) {
        let after = line[at..].trim_start_matches(SIGN);
        offset = line.len() - after.len();
        let Some((first, mut tail)) = number(after) else {
            continue;
        };
        let mut sections = vec![first];
        if let Some(end) = tail.strip_prefix(['\u{2013}', '-'])
            && let Some((last, end_tail)) = number(end.strip_prefix(SIGN).unwrap_or(end))
        {
            let first = sections.pop().unwrap_or_default();
            sections = range(first, last);
            tail = end_tail;
        }
        // A list continued by bare dotted numbers: `6.4, 6.5` or `6.4 and 6.5`.
        while let Some(next) = [", ", " and ", ", and "]
            .iter()
            .find_map(|joint| tail.strip_prefix(joint))
            .and_then(number)
            .filter(|(section, _)| section.len() > 1)
        {
            sections.push(next.0);
            tail = next.1;
        }
        offset = line.len() - tail.len();
        found.push(Cited {
            text: line[at..offset].to_owned(),
            sections,
        });
    }
    found
}

/// The numbered headings of a markdown text (`## 5. Title`, `### 5.5 Title`), outside code
/// fences, in document order.
fn headings(markdown: &str) -> Vec<Section> {
    let mut in_fence = false;
    let mut found = Vec::new();
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        let Some(title) = line
            .strip_prefix('#')
            .map(|l| l.trim_start_matches('#'))
            .and_then(|l| l.strip_prefix(' '))
        else {
            continue;
        };
        if let Some((section, tail)) = number(title)
            && (tail.is_empty() || tail.starts_with(". ") || tail.starts_with(' '))
        {
            found.push(section);
        }
    }
    found
}

/// Every `*.rs` and `*.md` file under `dir`, build output, npm packages and hidden directories
/// skipped.
fn source_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if path.is_dir() {
            if name != "target" && name != "node_modules" && !name.starts_with('.') {
                source_files(&path, out);
            }
        } else if path
            .extension()
            .is_some_and(|ext| ext == "rs" || ext == "md")
        {
            out.push(path);
        }
    }
}

/// Every citation of `file`, with its line number.
fn citations_of(root: &Path, file: &Path) -> Vec<Found> {
    let bytes = fs::read(file).unwrap_or_else(|e| panic!("cannot read {}: {e}", file.display()));
    let text = String::from_utf8_lossy(&bytes);
    let relative = file.strip_prefix(root).unwrap_or(file).to_path_buf();
    text.lines()
        .enumerate()
        .flat_map(|(index, line)| {
            let relative = relative.clone();
            citations(line).into_iter().map(move |cited| Found {
                file: relative.clone(),
                line: index + 1,
                cited,
            })
        })
        .collect()
}

fn wire_format_headings(root: &Path) -> BTreeSet<Section> {
    let path = root.join(WIRE_FORMAT);
    let text =
        fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    headings(&text).into_iter().collect()
}

/// The citations among `found` that name a section `headings` lacks, one line each.
fn unresolved(found: &[Found], headings: &BTreeSet<Section>) -> Vec<String> {
    found
        .iter()
        .filter_map(|f| {
            let missing: Vec<String> = f
                .cited
                .sections
                .iter()
                .filter(|s| !headings.contains(*s))
                .map(|s| dotted(s))
                .collect();
            (!missing.is_empty()).then(|| {
                format!(
                    "{}:{}: {} (no heading {} in {WIRE_FORMAT})",
                    f.file.display(),
                    f.line,
                    f.cited.text,
                    missing.join(", ")
                )
            })
        })
        .collect()
}

/// Every scanned file of the repository (the wire format itself excluded).
fn scanned_files(root: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in SCANNED_DIRS {
        source_files(&root.join(dir), &mut files);
    }
    // The top-level documents: README.md, ARCHITECTURE.md, PERFORMANCE.md, ...
    let mut documents: Vec<PathBuf> = fs::read_dir(root)
        .expect("the repository root is readable")
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.is_file() && path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    documents.sort();
    files.extend(documents);
    let skipped = root.join(WIRE_FORMAT);
    files.retain(|f| *f != skipped);
    files
}

#[test]
fn every_section_citation_resolves_to_a_wire_format_heading() {
    let root = repository_root();
    let headings = wire_format_headings(&root);
    let files = scanned_files(&root);
    let found: Vec<Found> = files.iter().flat_map(|f| citations_of(&root, f)).collect();

    // The runtime cites the format hundreds of times; finding few means the scan is broken.
    assert!(
        found.len() > 100,
        "only {} citations found in {} files: is the scan reading the repository?",
        found.len(),
        files.len()
    );
    let bad = unresolved(&found, &headings);
    assert!(
        bad.is_empty(),
        "{} of {} citations name no section of {WIRE_FORMAT}; fix the number or give the \
         document the section:\n{}",
        bad.len(),
        found.len(),
        bad.join("\n")
    );
    println!(
        "{} citations in {} files resolve to {} headings",
        found.len(),
        files.len(),
        headings.len()
    );
}

#[test]
fn the_wire_format_cites_only_its_own_sections() {
    let root = repository_root();
    let headings = wire_format_headings(&root);
    let found = citations_of(&root, &root.join(WIRE_FORMAT));
    assert!(!found.is_empty(), "{WIRE_FORMAT} cross-references nothing");
    let bad = unresolved(&found, &headings);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn the_wire_format_numbers_each_section_once_and_in_order() {
    let text = fs::read_to_string(repository_root().join(WIRE_FORMAT)).expect("readable");
    let numbered = headings(&text);
    let chapters: Vec<u32> = numbered
        .iter()
        .filter(|s| s.len() == 1)
        .map(|s| s[0])
        .collect();
    let last = chapters.last().copied().unwrap_or(0);
    assert!(
        last >= 16,
        "the wire format has lost sections: {chapters:?}"
    );
    assert_eq!(
        chapters,
        (0..=last).collect::<Vec<_>>(),
        "top-level sections"
    );
    for pair in numbered.windows(2) {
        assert!(
            pair[0] < pair[1],
            "heading {} comes before {}: sections must be unique and in order",
            dotted(&pair[0]),
            dotted(&pair[1])
        );
    }
}

#[test]
fn a_citation_is_a_number_a_range_or_a_list() {
    let sections = |line: &str| -> Vec<Vec<Section>> {
        citations(line).into_iter().map(|c| c.sections).collect()
    };
    assert_eq!(sections("wire format \u{a7}5.5."), [vec![vec![5, 5]]]);
    assert_eq!(sections("(\u{a7}3)"), [vec![vec![3]]]);
    assert_eq!(sections("\u{a7}\u{a7}13.5.2 x"), [vec![vec![13, 5, 2]]]);
    assert_eq!(
        sections("\u{a7}10\u{2013}\u{a7}13"),
        [vec![vec![10], vec![11], vec![12], vec![13]]]
    );
    assert_eq!(
        sections("\u{a7}7.4\u{2013}7.5"),
        [vec![vec![7, 4], vec![7, 5]]]
    );
    assert_eq!(sections("\u{a7}6.7-\u{a7}7"), [vec![vec![6, 7], vec![7]]]);
    assert_eq!(sections("\u{a7}1, \u{a7}2"), [vec![vec![1]], vec![vec![2]]]);
    assert_eq!(
        sections("\u{a7}6.4, 6.5 and 6.6"),
        [vec![vec![6, 4], vec![6, 5], vec![6, 6]]]
    );
    // A bare single number after a comma is prose, not a section.
    assert_eq!(sections("\u{a7}5.3, 2 spaces"), [vec![vec![5, 3]]]);
    assert_eq!(
        sections("a \u{a7} sign, \u{a7}x"),
        Vec::<Vec<Section>>::new()
    );
    assert_eq!(
        citations("see \u{a7}9.4\u{2013}\u{a7}9.9 now")[0].text,
        "\u{a7}9.4\u{2013}\u{a7}9.9"
    );
}

#[test]
fn a_heading_is_found_by_its_number_outside_code_fences() {
    let markdown = "# Title\n## 5. Escaping\n### 5.5 Code fences\n#### V16. Fence\n```text\n## 6. Not a heading\n```\n##7. no space\n### 5.10. Properties\n";
    assert_eq!(headings(markdown), [vec![5], vec![5, 5], vec![5, 10]]);
}

/// Whether `c` continues a word, so a `V` or a digit run next to it is not a vector number.
fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric()
}

/// The digits at the start of `text` as a number, and the rest.
fn leading_number(text: &str) -> Option<(u32, &str)> {
    let digits = text.len() - text.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    Some((text[..digits].parse().ok()?, &text[digits..]))
}

/// The vectors one line mentions: `V36`, and every vector of a range `V59–V64` (or `V59-64`).
/// `V75_DATA` mentions V75; `XV3`, `V3a` and `v3` mention nothing.
fn vectors(line: &str) -> Vec<u32> {
    let mut found = Vec::new();
    let mut previous = None;
    // The end of the last range read, so its second `V` is not read again.
    let mut consumed = 0;
    for (at, c) in line.char_indices() {
        let after_word = previous.is_some_and(is_word);
        previous = Some(c);
        if c != 'V' || after_word || at < consumed {
            continue;
        }
        let Some((first, tail)) = leading_number(&line[at + 1..]) else {
            continue;
        };
        if tail.starts_with(is_word) {
            continue;
        }
        let (last, rest) = tail
            .strip_prefix(['\u{2013}', '-'])
            .map(|end| end.strip_prefix('V').unwrap_or(end))
            .and_then(leading_number)
            .filter(|(last, end_tail)| *last >= first && !end_tail.starts_with(is_word))
            .unwrap_or((first, tail));
        consumed = line.len() - rest.len();
        found.extend(first..=last);
    }
    found
}

/// The vector a line's test function is named after: `fn v36_unknown_selection_name` → 36.
fn vector_test(line: &str) -> Option<u32> {
    let after = &line[line.find("fn v")? + 4..];
    let (number, tail) = leading_number(after)?;
    (tail.starts_with('_') || tail.starts_with('(')).then_some(number)
}

/// The vector headings (`#### V36. Title`) of a markdown text, in document order.
fn vector_headings(markdown: &str) -> Vec<u32> {
    markdown
        .lines()
        .filter_map(|line| line.strip_prefix("#### V"))
        .filter_map(leading_number)
        .filter(|(_, tail)| tail.starts_with(". "))
        .map(|(number, _)| number)
        .collect()
}

#[test]
fn every_vector_cited_or_tested_is_in_the_wire_format() {
    let root = repository_root();
    let text = fs::read_to_string(root.join(WIRE_FORMAT)).expect("readable");
    let listed = vector_headings(&text);
    assert!(!listed.is_empty(), "{WIRE_FORMAT} lists no vectors");
    // Vectors are numbered in blocks (V1–V77, then a block per line of work from V100 on), so a
    // gap between blocks is fine; the order and uniqueness are not negotiable.
    assert!(
        listed.first() == Some(&1) && listed.windows(2).all(|pair| pair[0] < pair[1]),
        "vectors are numbered from V1, each once, in increasing order: {listed:?}"
    );
    let mut cited = 0;
    let mut tested = BTreeSet::new();
    let mut bad = Vec::new();
    for file in scanned_files(&root) {
        let bytes = fs::read(&file).expect("readable");
        let relative = file
            .strip_prefix(&root)
            .unwrap_or(&file)
            .display()
            .to_string();
        for (index, line) in String::from_utf8_lossy(&bytes).lines().enumerate() {
            for vector in vectors(line).into_iter().chain(vector_test(line)) {
                cited += 1;
                if !listed.contains(&vector) {
                    bad.push(format!("{relative}:{}: V{vector}", index + 1));
                }
            }
            tested.extend(vector_test(line));
        }
    }
    assert!(cited > 100, "only {cited} vector citations found");
    assert!(
        bad.is_empty(),
        "vectors missing from {WIRE_FORMAT}:\n{}",
        bad.join("\n")
    );
    let untested: Vec<String> = listed
        .iter()
        .filter(|v| !tested.contains(v))
        .map(|v| format!("V{v}"))
        .collect();
    assert!(
        untested.is_empty(),
        "no test is named after {} (name one `fn vNN_…`)",
        untested.join(", ")
    );
    println!(
        "{cited} vector citations resolve to the {} vectors, each with a named test",
        listed.len()
    );
}

#[test]
fn a_vector_is_a_v_number_or_a_range_of_them() {
    assert_eq!(
        vectors("vectors V1–V8 and (V36)"),
        [1, 2, 3, 4, 5, 6, 7, 8, 36]
    );
    assert_eq!(vectors("V59-64, V75_DATA"), [59, 60, 61, 62, 63, 64, 75]);
    assert_eq!(vectors("XV3 V3a v3 TOON v4 V"), Vec::<u32>::new());
    assert_eq!(vector_test("fn v06_full_block_order() {"), Some(6));
    assert_eq!(vector_test("    fn v77(x: u8)"), Some(77));
    assert_eq!(vector_test("fn value() {"), None);
    assert_eq!(
        vector_headings("#### V1. Text\n#### V2. Empty\n### V3. no\n#### V4 no dot\n"),
        [1, 2]
    );
}
