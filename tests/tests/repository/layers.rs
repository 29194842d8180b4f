//! The runtime's layers import only downward, and the modules of one layer form no import cycle;
//! the derive's modules form no import cycle at all (its stages run in a straight line: `attr`,
//! `valid`, `ast`, `expand`, `fallback`); no source file is longer than the house allows (700
//! lines in the runtime, 600 in the derive).
//!
//! `fusion-runtime/src` is six layers, one top-level folder each (see `ARCHITECTURE.md`):
//! `model` (1), `encode` (2), `response` (3), `present` (4), `tool` (5), `adapters` (6). A module
//! may import its own layer and the layers below; `lib.rs` and `__private.rs` (the crate root and
//! the derive's re-export list) may import anything, and nothing may import them.
//!
//! The check reads every source file, drops comments, string and character literals and
//! `#[cfg(test)]` modules (unit tests may use any layer: they are not part of the library), then
//! parses every `use` tree (groups, nesting, `self`, renames, globs) and every `crate::…`,
//! `super::…` and `self::…` path in code. Each path is resolved against the module tree: a path
//! through a re-export (`crate::response::ToolResponse`, or a name the root re-exports) is
//! followed to the module that defines the item, so the layer and the cycle check see the real
//! dependency.
//!
//! Within a layer, an import between two modules of which one contains the other (a module and
//! its children: `encode::json` and `encode::json::key`) is structure, not a dependency; any other
//! import is an edge, and the edges must form no cycle.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The layers, bottom up: the top-level module of each, and its number.
const LAYERS: [(&str, u8); 6] = [
    ("model", 1),
    ("encode", 2),
    ("response", 3),
    ("present", 4),
    ("tool", 5),
    ("adapters", 6),
];

/// The layer of the crate root (`lib.rs`, `__private.rs`): above every layer.
const ROOT_LAYER: u8 = 7;

/// A module path inside the crate, without `crate`: `["encode", "json", "key"]`.
type ModPath = Vec<String>;

/// The name of a layer number, for messages.
fn layer_name(layer: u8) -> String {
    LAYERS.iter().find(|(_, n)| *n == layer).map_or_else(
        || "the crate root".to_owned(),
        |(name, n)| format!("layer {n} ({name})"),
    )
}

/// The layer of a module.
fn layer_of(module: &[String]) -> u8 {
    let Some(first) = module.first() else {
        return ROOT_LAYER;
    };
    LAYERS
        .iter()
        .find(|(name, _)| name == first)
        .map_or(ROOT_LAYER, |(_, n)| *n)
}

/// One source file: its module, its text without comments and literals, and its imports.
struct SourceFile {
    path: PathBuf,
    module: ModPath,
    /// Every path the file names: where it points, and the line it is on.
    imports: Vec<Import>,
    /// What the file's `use` items bring in by name: the name, and the full path it stands for
    /// (re-exports are followed through these).
    uses: BTreeMap<String, ModPath>,
}

/// One path named in a file.
#[derive(Debug, Clone)]
struct Import {
    line: usize,
    /// The module the path was written in (an inline module of the file, or the file's own).
    from: ModPath,
    /// The full path it names, from the crate root.
    target: ModPath,
}

// ---- lexing --------------------------------------------------------------------------------

/// The tokens the check needs: identifiers, `::`, and single punctuation characters.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Ident(String),
    PathSep,
    Punct(char),
}

/// Tokens with their line numbers; comments, strings, characters and lifetimes are dropped.
fn tokenize(text: &str) -> Vec<(Token, usize)> {
    let chars: Vec<char> = text.chars().collect();
    let mut tokens = Vec::new();
    let mut line = 1;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if chars[i] == '\n' {
                        line += 1;
                    }
                    i += 1;
                }
            }
        } else if c == '"' {
            i = skip_string(&chars, i + 1, &mut line);
        } else if c == 'r'
            && (next == Some('"') || next == Some('#'))
            && raw_string_hashes(&chars, i + 1).is_some()
        {
            let hashes = raw_string_hashes(&chars, i + 1).unwrap_or(0);
            i = skip_raw_string(&chars, i + 2 + hashes, hashes, &mut line);
        } else if c == 'b' && next == Some('"') {
            i = skip_string(&chars, i + 2, &mut line);
        } else if c == '\'' {
            i = skip_char_or_lifetime(&chars, i);
        } else if c.is_alphanumeric() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            tokens.push((Token::Ident(chars[start..i].iter().collect()), line));
        } else if c == ':' && next == Some(':') {
            tokens.push((Token::PathSep, line));
            i += 2;
        } else {
            tokens.push((Token::Punct(c), line));
            i += 1;
        }
    }
    tokens
}

/// The number of `#` of a raw string starting at `at` (just after the `r`), if one starts there.
fn raw_string_hashes(chars: &[char], at: usize) -> Option<usize> {
    let hashes = chars[at..].iter().take_while(|c| **c == '#').count();
    (chars.get(at + hashes) == Some(&'"')).then_some(hashes)
}

/// Skips a string body from `at` (after the opening quote) to after its closing quote.
fn skip_string(chars: &[char], mut at: usize, line: &mut usize) -> usize {
    while at < chars.len() {
        match chars[at] {
            '\\' => at += 2,
            '"' => return at + 1,
            '\n' => {
                *line += 1;
                at += 1;
            }
            _ => at += 1,
        }
    }
    at
}

/// Skips a raw string body from `at` to after its closing quote and `hashes` hashes.
fn skip_raw_string(chars: &[char], mut at: usize, hashes: usize, line: &mut usize) -> usize {
    while at < chars.len() {
        if chars[at] == '"' && chars[at + 1..].iter().take(hashes).all(|c| *c == '#') {
            return at + 1 + hashes;
        }
        if chars[at] == '\n' {
            *line += 1;
        }
        at += 1;
    }
    at
}

/// Skips a character literal (`'a'`, `'\n'`, `'\u{1F}'`) or a lifetime (`'a`) at `at`.
fn skip_char_or_lifetime(chars: &[char], at: usize) -> usize {
    if chars.get(at + 1) == Some(&'\\') {
        let mut end = at + 2;
        while end < chars.len() && chars[end] != '\'' {
            end += 1;
        }
        return end + 1;
    }
    if chars.get(at + 2) == Some(&'\'') {
        return at + 3;
    }
    // A lifetime: the quote and the name.
    let mut end = at + 1;
    while end < chars.len() && (chars[end].is_alphanumeric() || chars[end] == '_') {
        end += 1;
    }
    end
}

// ---- parsing -------------------------------------------------------------------------------

/// Reads the imports of one file, given the modules of the crate (for edition-2018 paths that
/// start with a child module's name).
struct Parser<'a> {
    tokens: &'a [(Token, usize)],
    at: usize,
    modules: &'a BTreeSet<ModPath>,
    imports: Vec<Import>,
    uses: BTreeMap<String, ModPath>,
}

impl Parser<'_> {
    fn peek(&self, ahead: usize) -> Option<&Token> {
        self.tokens.get(self.at + ahead).map(|(t, _)| t)
    }

    fn line(&self) -> usize {
        self.tokens.get(self.at).map_or(0, |(_, line)| *line)
    }

    fn ident(&self, ahead: usize) -> Option<&str> {
        match self.peek(ahead) {
            Some(Token::Ident(word)) => Some(word),
            _ => None,
        }
    }

    /// Reads the items of a module body until its closing brace (or the end of the file).
    fn items(&mut self, module: &ModPath, top: bool) {
        let mut depth = 0_usize;
        while self.at < self.tokens.len() {
            if let Some(after) = self.test_only_attribute() {
                self.skip_item(after);
                continue;
            }
            match self.peek(0).cloned() {
                Some(Token::Punct('{')) => {
                    depth += 1;
                    self.at += 1;
                }
                Some(Token::Punct('}')) => {
                    self.at += 1;
                    if depth == 0 && !top {
                        return;
                    }
                    depth = depth.saturating_sub(1);
                }
                Some(Token::Ident(word)) if word == "use" && self.starts_statement() => {
                    self.at += 1;
                    self.use_tree(module, &[], depth == 0);
                }
                Some(Token::Ident(word))
                    if word == "mod"
                        && self.ident(1).is_some()
                        && self.peek(2) == Some(&Token::Punct('{')) =>
                {
                    let name = self.ident(1).unwrap_or_default().to_owned();
                    self.at += 3;
                    let mut inner = module.clone();
                    inner.push(name);
                    self.items(&inner, false);
                }
                Some(Token::Ident(word))
                    if matches!(word.as_str(), "crate" | "super" | "self")
                        && self.peek(1) == Some(&Token::PathSep) =>
                {
                    self.code_path(module);
                }
                _ => self.at += 1,
            }
        }
    }

    /// Whether the `use` at the cursor starts a statement (not `use` inside another word).
    fn starts_statement(&self) -> bool {
        self.at == 0
            || matches!(
                self.tokens.get(self.at - 1).map(|(t, _)| t),
                Some(Token::Punct(';' | '{' | '}' | ']' | ')') | Token::Ident(_))
            )
    }

    /// The end of a `#[cfg(...)]` attribute at the cursor that only unit tests compile
    /// (`#[cfg(test)]`, `#[cfg(all(test, ...))]`): the position after its `]`.
    fn test_only_attribute(&self) -> Option<usize> {
        if self.peek(0) != Some(&Token::Punct('#'))
            || self.peek(1) != Some(&Token::Punct('['))
            || self.ident(2) != Some("cfg")
        {
            return None;
        }
        let mut words = Vec::new();
        let mut at = self.at + 3;
        while let Some((token, _)) = self.tokens.get(at) {
            at += 1;
            match token {
                Token::Punct(']') => break,
                Token::Ident(word) => words.push(word.as_str()),
                _ => {}
            }
        }
        let only_tests =
            words.contains(&"test") && !words.contains(&"not") && !words.contains(&"any");
        only_tests.then_some(at)
    }

    /// Skips, from `at` (after an attribute), the item the attribute applies to.
    fn skip_item(&mut self, at: usize) {
        self.at = at;
        let mut depth = 0_usize;
        while let Some(token) = self.peek(0).cloned() {
            self.at += 1;
            match token {
                Token::Punct('{') => depth += 1,
                Token::Punct('}') => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return;
                    }
                }
                Token::Punct(';') if depth == 0 => return,
                _ => {}
            }
        }
    }

    /// Reads a use tree after `prefix` (the segments written before it), up to its end.
    fn use_tree(&mut self, module: &ModPath, prefix: &[String], item_level: bool) {
        let mut segments = prefix.to_vec();
        let line = self.line();
        loop {
            match self.peek(0).cloned() {
                Some(Token::Punct('{')) => {
                    self.at += 1;
                    while let Some(token) = self.peek(0).cloned() {
                        match token {
                            Token::Punct('}') => {
                                self.at += 1;
                                break;
                            }
                            Token::Punct(',') => self.at += 1,
                            _ => self.use_tree(module, &segments, item_level),
                        }
                    }
                    self.end_of_use(prefix.is_empty());
                    return;
                }
                Some(Token::Punct('*')) => {
                    self.at += 1;
                    self.record(module, &segments, line, None, item_level);
                    self.end_of_use(prefix.is_empty());
                    return;
                }
                Some(Token::Ident(word)) => {
                    self.at += 1;
                    if self.peek(0) == Some(&Token::PathSep) {
                        self.at += 1;
                        segments.push(word);
                        continue;
                    }
                    let name = if self.ident(0) == Some("as") {
                        let alias = self.ident(1).unwrap_or("_").to_owned();
                        self.at += 2;
                        alias
                    } else {
                        word.clone()
                    };
                    if word == "self" {
                        let alias = segments.last().cloned();
                        let alias = if name == "self" { alias } else { Some(name) };
                        self.record(module, &segments, line, alias, item_level);
                    } else {
                        segments.push(word);
                        self.record(module, &segments, line, Some(name), item_level);
                    }
                    self.end_of_use(prefix.is_empty());
                    return;
                }
                _ => {
                    self.at += 1;
                    return;
                }
            }
        }
    }

    /// After a whole `use` tree: steps over its `;`.
    fn end_of_use(&mut self, outermost: bool) {
        if outermost && self.peek(0) == Some(&Token::Punct(';')) {
            self.at += 1;
        }
    }

    /// Records one leaf of a use tree: the path it names and the name it binds.
    fn record(
        &mut self,
        module: &ModPath,
        segments: &[String],
        line: usize,
        name: Option<String>,
        item_level: bool,
    ) {
        let Some(target) = absolute(module, segments, self.modules) else {
            return;
        };
        if item_level && let Some(name) = name.filter(|n| n != "_") {
            self.uses.insert(name, target.clone());
        }
        self.imports.push(Import {
            line,
            from: module.clone(),
            target,
        });
    }

    /// Reads a path in code that starts with `crate`, `super` or `self`.
    fn code_path(&mut self, module: &ModPath) {
        let line = self.line();
        let mut segments = Vec::new();
        while let Some(word) = self.ident(0).map(str::to_owned) {
            segments.push(word);
            self.at += 1;
            if self.peek(0) == Some(&Token::PathSep) && self.ident(1).is_some() {
                self.at += 1;
            } else {
                break;
            }
        }
        if let Some(target) = absolute(module, &segments, self.modules) {
            self.imports.push(Import {
                line,
                from: module.clone(),
                target,
            });
        }
    }
}

/// The path `segments`, written in `module`, from the crate root; `None` for a path outside the
/// crate (`std::…`, `serde::…`).
fn absolute(module: &ModPath, segments: &[String], modules: &BTreeSet<ModPath>) -> Option<ModPath> {
    let (first, rest) = segments.split_first()?;
    let mut base = match first.as_str() {
        "crate" => return Some(rest.to_vec()),
        "self" => module.clone(),
        "super" => {
            let mut base = module.clone();
            base.pop();
            let mut rest = rest;
            while rest.first().map(String::as_str) == Some("super") {
                base.pop();
                rest = &rest[1..];
            }
            base.extend(rest.iter().cloned());
            return Some(base);
        }
        // Edition 2018 paths: a child module of this one.
        _ => {
            let mut child = module.clone();
            child.push(first.clone());
            if !modules.contains(&child) {
                return None;
            }
            child
        }
    };
    base.extend(rest.iter().cloned());
    Some(base)
}

// ---- the module tree -----------------------------------------------------------------------

/// The runtime's source folder.
fn source_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fusion-runtime/src")
}

/// Every `.rs` file under `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let entries = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()));
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The module of a file: `lib.rs` is the root, `a/mod.rs` and `a.rs` are `a`.
fn module_of(relative: &Path) -> ModPath {
    let mut module: ModPath = relative
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if module.last().is_some_and(|m| m == "mod" || m == "lib") {
        module.pop();
    }
    module
}

/// The derive's source folder.
fn derive_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fusion-derive/src")
}

/// Reads and parses every source file of the runtime (unit-test files `tests.rs` excepted).
fn read_sources() -> Vec<SourceFile> {
    read_sources_of(&source_root())
}

/// Reads and parses every source file under `root` (unit-test files, `tests.rs` and
/// `*_tests.rs`, excepted).
fn read_sources_of(root: &Path) -> Vec<SourceFile> {
    let root = root.to_path_buf();
    let files: Vec<(PathBuf, ModPath)> = rust_files(&root)
        .into_iter()
        .filter(|path| {
            path.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n != "tests.rs" && !n.ends_with("_tests.rs"))
        })
        .map(|path| {
            let module = module_of(path.strip_prefix(&root).unwrap_or(&path));
            (path, module)
        })
        .collect();
    let mut modules: BTreeSet<ModPath> = files.iter().map(|(_, m)| m.clone()).collect();
    let texts: Vec<String> = files
        .iter()
        .map(|(path, _)| {
            std::fs::read_to_string(path)
                .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
        })
        .collect();
    // Inline modules (`pub mod json { … }`) are modules too.
    for ((_, module), text) in files.iter().zip(&texts) {
        let tokens = tokenize(text);
        for window in tokens.windows(3) {
            if let [
                (Token::Ident(m), _),
                (Token::Ident(name), _),
                (Token::Punct('{'), _),
            ] = window
                && m == "mod"
            {
                let mut inner = module.clone();
                inner.push(name.clone());
                modules.insert(inner);
            }
        }
    }
    files
        .into_iter()
        .zip(texts)
        .map(|((path, module), text)| {
            let tokens = tokenize(&text);
            let mut parser = Parser {
                tokens: &tokens,
                at: 0,
                modules: &modules,
                imports: Vec::new(),
                uses: BTreeMap::new(),
            };
            parser.items(&module, true);
            SourceFile {
                imports: parser.imports,
                uses: parser.uses,
                path,
                module,
            }
        })
        .collect()
}

/// Resolves names to the modules that define them, following re-exports.
struct Resolver<'a> {
    files: BTreeMap<&'a ModPath, &'a SourceFile>,
}

impl Resolver<'_> {
    /// The module that defines what `target` names: the longest module prefix of the path,
    /// then, while that module only re-exports the next name, the module it re-exports from.
    fn defining_module(&self, target: &[String]) -> ModPath {
        let mut target = target.to_vec();
        // A re-export chain longer than the module tree is a loop: stop there.
        for _ in 0..=self.files.len() {
            let (module, rest) = self.split(&target);
            let Some(name) = rest.first() else {
                return module;
            };
            let followed = self
                .files
                .get(&module)
                .and_then(|file| file.uses.get(name))
                .filter(|source| **source != target);
            match followed {
                Some(source) => {
                    let mut next = source.clone();
                    next.extend(rest[1..].iter().cloned());
                    target = next;
                }
                None => return module,
            }
        }
        target
    }

    /// The longest prefix of `target` that is a file's module, and the rest of the path.
    fn split(&self, target: &[String]) -> (ModPath, Vec<String>) {
        for len in (0..=target.len()).rev() {
            let prefix = target[..len].to_vec();
            if self.files.contains_key(&prefix) {
                return (prefix, target[len..].to_vec());
            }
        }
        (Vec::new(), target.to_vec())
    }
}

/// Whether one module contains the other (or they are the same).
fn related(a: &[String], b: &[String]) -> bool {
    a.starts_with(b) || b.starts_with(a)
}

/// One cycle of `edges` (module to the modules it imports, with the line of the first import),
/// as the list of modules along it, if there is one.
fn find_cycle(
    edges: &BTreeMap<ModPath, BTreeMap<ModPath, (PathBuf, usize)>>,
) -> Option<Vec<ModPath>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        Open,
        Done,
    }
    fn visit(
        node: &ModPath,
        edges: &BTreeMap<ModPath, BTreeMap<ModPath, (PathBuf, usize)>>,
        marks: &mut BTreeMap<ModPath, Mark>,
        stack: &mut Vec<ModPath>,
    ) -> Option<Vec<ModPath>> {
        marks.insert(node.clone(), Mark::Open);
        stack.push(node.clone());
        for next in edges.get(node).into_iter().flat_map(BTreeMap::keys) {
            match marks.get(next) {
                Some(Mark::Open) => {
                    let start = stack.iter().position(|m| m == next).unwrap_or(0);
                    let mut cycle = stack[start..].to_vec();
                    cycle.push(next.clone());
                    return Some(cycle);
                }
                Some(Mark::Done) => {}
                None => {
                    if let Some(cycle) = visit(next, edges, marks, stack) {
                        return Some(cycle);
                    }
                }
            }
        }
        stack.pop();
        marks.insert(node.clone(), Mark::Done);
        None
    }
    let mut marks = BTreeMap::new();
    for node in edges.keys() {
        if !marks.contains_key(node)
            && let Some(cycle) = visit(node, edges, &mut marks, &mut Vec::new())
        {
            return Some(cycle);
        }
    }
    None
}

fn show(module: &[String]) -> String {
    if module.is_empty() {
        "crate".to_owned()
    } else {
        module.join("::")
    }
}

/// The imports of the runtime, resolved: (file, line, importing module, defining module).
fn resolved_imports(sources: &[SourceFile]) -> Vec<(PathBuf, usize, ModPath, ModPath)> {
    let resolver = Resolver {
        files: sources.iter().map(|f| (&f.module, f)).collect(),
    };
    let mut out = Vec::new();
    for file in sources {
        for import in &file.imports {
            let target = resolver.defining_module(&import.target);
            out.push((file.path.clone(), import.line, import.from.clone(), target));
        }
    }
    out
}

#[test]
fn no_module_imports_a_higher_layer() {
    let sources = read_sources();
    assert!(
        sources.len() > 30,
        "expected the runtime's sources in {}",
        source_root().display()
    );
    let mut violations = String::new();
    for (path, line, from, target) in resolved_imports(&sources) {
        let (own, theirs) = (layer_of(&from), layer_of(&target));
        let upward = theirs > own;
        // The root re-exports every layer: importing it from a layer hides an upward import.
        let into_root = own != ROOT_LAYER && theirs == ROOT_LAYER;
        if upward || into_root {
            let _ = writeln!(
                violations,
                "{}:{line}: `{}` ({}) imports `{}` ({})",
                path.strip_prefix(source_root()).unwrap_or(&path).display(),
                show(&from),
                layer_name(own),
                show(&target),
                layer_name(theirs),
            );
        }
    }
    assert!(
        violations.is_empty(),
        "imports that point up the layers (move the item down, or the importer up):\n{violations}"
    );
}

#[test]
fn the_modules_of_a_layer_form_no_import_cycle() {
    let sources = read_sources();
    assert_no_import_cycle(
        &sources,
        &source_root(),
        |from, target| layer_of(from) == layer_of(target),
        "an import cycle between modules of one layer",
        "break it: move what both need into one of them, or into a module below both",
    );
}

#[test]
fn the_derives_modules_form_no_import_cycle() {
    let sources = read_sources_of(&derive_root());
    assert!(
        sources.len() > 15,
        "expected the derive's sources in {}",
        derive_root().display()
    );
    assert_no_import_cycle(
        &sources,
        &derive_root(),
        |_, _| true,
        "an import cycle between modules of the derive",
        "the stages run in a straight line (attr, valid, ast, expand, fallback): move what both need into a module below both",
    );
}

/// Fails, naming each import of the cycle and `advice`, when the imports between modules that
/// `considered` keeps (a module and its parent or child never count) form a cycle.
fn assert_no_import_cycle(
    sources: &[SourceFile],
    root: &Path,
    considered: impl Fn(&ModPath, &ModPath) -> bool,
    what: &str,
    advice: &str,
) {
    let mut edges: BTreeMap<ModPath, BTreeMap<ModPath, (PathBuf, usize)>> = BTreeMap::new();
    for (path, line, from, target) in resolved_imports(sources) {
        if considered(&from, &target) && !related(&from, &target) {
            edges
                .entry(from)
                .or_default()
                .entry(target)
                .or_insert((path, line));
        }
    }
    if let Some(cycle) = find_cycle(&edges) {
        let mut message = format!("{what}:\n");
        for pair in cycle.windows(2) {
            let (path, line) = &edges[&pair[0]][&pair[1]];
            let _ = writeln!(
                message,
                "  {}:{line}: `{}` imports `{}`",
                path.strip_prefix(root).unwrap_or(path).display(),
                show(&pair[0]),
                show(&pair[1]),
            );
        }
        message.push_str(advice);
        panic!("{message}");
    }
}

#[test]
fn no_source_file_is_longer_than_the_house_allows() {
    let mut long = String::new();
    for (root, limit) in [(source_root(), 700), (derive_root(), 600)] {
        for path in rust_files(&root) {
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
            let lines = text.lines().count();
            if lines > limit {
                let _ = writeln!(
                    long,
                    "  {}: {lines} lines (at most {limit})",
                    path.display()
                );
            }
        }
    }
    assert!(
        long.is_empty(),
        "files longer than the house allows (split them by job):\n{long}"
    );
}

/// The cycle check finds a cycle the derive's own modules could form.
#[test]
fn the_cycle_check_finds_a_cycle() {
    let module = |path: &str| -> ModPath { path.split("::").map(str::to_owned).collect() };
    let mut edges: BTreeMap<ModPath, BTreeMap<ModPath, (PathBuf, usize)>> = BTreeMap::new();
    for (from, to) in [
        ("presenter::ast", "presenter::valid"),
        ("presenter::valid", "presenter::attr"),
        ("presenter::valid", "presenter::ast"),
    ] {
        edges
            .entry(module(from))
            .or_default()
            .insert(module(to), (PathBuf::new(), 1));
    }
    let cycle = find_cycle(&edges).expect("ast and valid import each other");
    assert!(
        cycle.contains(&module("presenter::ast")) && cycle.contains(&module("presenter::valid"))
    );
    edges.remove(&module("presenter::ast"));
    assert!(find_cycle(&edges).is_none());
}

/// The parser itself, on the shapes of paths the check must see.
#[test]
fn the_parser_reads_groups_renames_and_paths_in_code() {
    let modules: BTreeSet<ModPath> = [
        vec![],
        vec!["response".to_owned()],
        vec!["response".to_owned(), "builder".to_owned()],
        vec![
            "response".to_owned(),
            "builder".to_owned(),
            "key".to_owned(),
        ],
    ]
    .into_iter()
    .collect();
    let text = r#"
        use std::fmt;
        use crate::{encode::{self, json::to_string as write}, model::Selection};
        use super::view::*;
        use key::Key;
        // use crate::tool::Commented;
        const TEXT: &str = "crate::tool::InString";
        fn f<'a>(x: &'a str) -> char { let _ = crate::present::engine::present(x); 'c' }
        #[cfg(test)]
        mod tests { use crate::tool::OnlyInTests; }
        #[cfg(all(test, feature = "derive"))]
        mod more_tests { use crate::tool::OnlyInTests; }
        mod inner { use super::super::lists::Rules; }
    "#;
    let tokens = tokenize(text);
    let module = vec!["response".to_owned(), "builder".to_owned()];
    let mut parser = Parser {
        tokens: &tokens,
        at: 0,
        modules: &modules,
        imports: Vec::new(),
        uses: BTreeMap::new(),
    };
    parser.items(&module, true);
    let found: Vec<String> = parser.imports.iter().map(|i| show(&i.target)).collect();
    assert_eq!(
        found,
        [
            "encode",
            "encode::json::to_string",
            "model::Selection",
            "response::view",
            "response::builder::key::Key",
            "present::engine::present",
            "response::lists::Rules",
        ]
    );
    assert_eq!(parser.imports[1].line, 3);
    assert_eq!(
        parser.uses.get("write").map(|p| show(p)),
        Some("encode::json::to_string".to_owned())
    );
}
