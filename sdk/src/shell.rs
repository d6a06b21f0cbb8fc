//! A small, forgiving reader of shell command lines, for hooks that judge
//! `Bash` commands by what they run rather than by substrings.
//!
//! [`commands`] splits a line into its simple commands (at `;`, `&&`, `||`,
//! `|`, `&`, newlines and parentheses), unquotes the words, sets redirections
//! aside, and also returns the commands inside `$(...)`, backticks, `<(...)`,
//! `sh -c '...'` (any sh-family shell) and `eval`. Words inside quotes stay
//! words: `echo "rm -rf /"` is the command `echo` with one argument.
//!
//! It is not a shell: it does no expansion (`$HOME` stays `$HOME`, `*` stays
//! `*`) and never fails; unbalanced quotes end at the end of the line.

/// How deep `sh -c` / `eval` / `$(...)` nesting is followed.
const MAX_DEPTH: usize = 8;

/// One simple command: its words, unquoted, with redirections set aside.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SimpleCommand {
    /// The words, unquoted, including leading assignments and wrappers (`sudo`).
    pub words: Vec<String>,
    /// The targets of its redirections (`> out.txt` gives `out.txt`).
    pub redirects: Vec<String>,
    /// Whether its stdin is the previous command's stdout (`a | b`: true for `b`).
    pub piped: bool,
}

/// Words that run the rest of the command line as a command, and how many
/// option values each takes (`sudo -u root rm` skips `-u root`).
const WRAPPERS: &[&str] = &[
    "sudo", "doas", "env", "nohup", "time", "command", "exec", "nice", "ionice", "xargs", "stdbuf",
    "timeout", "builtin", "then", "do", "else", "elif", "if", "while", "until", "!", "{", "}",
];

/// Options of wrappers that take a separate value.
/// (`sudo -u`, `nice -n`, `xargs -I`, ...; the flags without a value, such as
/// `sudo -i`, are left out on purpose.)
const VALUED_OPTIONS: &[&str] = &[
    "-u", "-g", "-C", "-p", "-h", "-U", "-r", "-t", "-n", "-c", "-D", "-R", "-L", "-P", "-I", "-d",
    "-a",
];

impl SimpleCommand {
    /// The index of the program's word: past variable assignments (`A=b`),
    /// wrappers (`sudo`, `env`, `nohup`, `time`, ...) and their options.
    fn program_index(&self) -> Option<usize> {
        let mut i = 0;
        let mut in_wrapper = None::<&str>;
        while let Some(word) = self.words.get(i) {
            let base = basename(word);
            if is_assignment(word) {
                i += 1;
            } else if WRAPPERS.contains(&base) {
                in_wrapper = Some(base);
                i += 1;
            } else if let (Some(wrapper), true) = (in_wrapper, word.starts_with('-')) {
                // `timeout 5 cmd` / `nice -n 5 cmd`: skip a value the option takes.
                let takes_value = VALUED_OPTIONS.contains(&word.as_str())
                    && !matches!(wrapper, "nohup" | "command" | "builtin" | "!");
                i += if takes_value { 2 } else { 1 };
            } else if in_wrapper == Some("timeout")
                && word.starts_with(|c: char| c.is_ascii_digit())
            {
                // `timeout 10s cmd`: the duration.
                i += 1;
            } else {
                return Some(i);
            }
        }
        None
    }

    /// The program, by its base name (`/bin/rm` gives `rm`), past assignments and
    /// wrappers such as `sudo -u root`, `env A=b`, `nohup`, `time`, `timeout 5`.
    pub fn program(&self) -> Option<&str> {
        self.program_index().map(|i| basename(&self.words[i]))
    }

    /// The program's arguments (the words after [`SimpleCommand::program`]).
    pub fn args(&self) -> &[String] {
        match self.program_index() {
            Some(i) => &self.words[i + 1..],
            None => &[],
        }
    }

    /// Whether any wrapper before the program is `sudo` or `doas`.
    pub fn is_privileged(&self) -> bool {
        let end = self.program_index().unwrap_or(self.words.len());
        self.words[..end]
            .iter()
            .any(|w| matches!(basename(w), "sudo" | "doas"))
    }
}

fn basename(word: &str) -> &str {
    word.rsplit('/').next().unwrap_or(word)
}

fn is_assignment(word: &str) -> bool {
    match word.split_once('=') {
        Some((name, _)) => {
            !name.is_empty()
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && !name.starts_with(|c: char| c.is_ascii_digit())
        }
        None => false,
    }
}

/// Every simple command the line would run, in order, including those nested
/// in `$(...)`, backticks, `<(...)`, `sh -c` and `eval` (after the command
/// that contains them).
pub fn commands(line: &str) -> Vec<SimpleCommand> {
    let mut out = Vec::new();
    parse(line, 0, &mut out);
    out
}

#[derive(Debug, PartialEq)]
enum Token {
    Word(String),
    Redirect(String),
    /// A separator; `true` when it is a pipe.
    Sep(bool),
}

fn parse(line: &str, depth: usize, out: &mut Vec<SimpleCommand>) {
    if depth > MAX_DEPTH {
        return;
    }
    let mut nested = Vec::new();
    let tokens = lex(line, &mut nested);
    let mut current = SimpleCommand::default();
    let mut pending_pipe = false;
    let finish = |current: &mut SimpleCommand, out: &mut Vec<SimpleCommand>| {
        if !current.words.is_empty() || !current.redirects.is_empty() {
            let command = std::mem::take(current);
            let inner = inner_script(&command);
            out.push(command);
            if let Some(script) = inner {
                parse(&script, depth + 1, out);
            }
        }
    };
    for token in tokens {
        match token {
            Token::Word(w) => {
                if current.words.is_empty() && current.redirects.is_empty() {
                    current.piped = pending_pipe;
                }
                current.words.push(w);
            }
            Token::Redirect(target) => current.redirects.push(target),
            Token::Sep(pipe) => {
                finish(&mut current, out);
                pending_pipe = pipe;
            }
        }
    }
    finish(&mut current, out);
    for script in nested {
        parse(&script, depth + 1, out);
    }
}

/// The script a command runs in a new shell: `sh -c SCRIPT`, `bash -lc SCRIPT`, `eval A B`.
fn inner_script(command: &SimpleCommand) -> Option<String> {
    let program = command.program()?;
    let args = command.args();
    if program == "eval" {
        return Some(args.join(" "));
    }
    if !matches!(
        program,
        "sh" | "bash" | "zsh" | "dash" | "ksh" | "ash" | "fish" | "busybox"
    ) {
        return None;
    }
    let at = args
        .iter()
        .position(|a| a.starts_with('-') && !a.starts_with("--") && a.contains('c'))?;
    args.get(at + 1).cloned()
}

/// Split a line into words, redirections and separators; the bodies of
/// `$(...)`, backticks and `<(...)` go to `nested`.
fn lex(line: &str, nested: &mut Vec<String>) -> Vec<Token> {
    let chars: Vec<char> = line.chars().collect();
    let mut tokens = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut redirect_next = false;
    let mut i = 0;

    let push_word = |tokens: &mut Vec<Token>,
                     word: &mut String,
                     in_word: &mut bool,
                     redirect_next: &mut bool| {
        if *in_word {
            let w = std::mem::take(word);
            tokens.push(if *redirect_next {
                *redirect_next = false;
                Token::Redirect(w)
            } else {
                Token::Word(w)
            });
            *in_word = false;
        }
    };

    while i < chars.len() {
        let c = chars[i];
        match c {
            ' ' | '\t' => {
                push_word(&mut tokens, &mut word, &mut in_word, &mut redirect_next);
                i += 1;
            }
            '\\' if chars.get(i + 1) == Some(&'\n') => i += 2,
            '\\' => {
                if let Some(&next) = chars.get(i + 1) {
                    word.push(next);
                }
                in_word = true;
                i += 2;
            }
            '#' if !in_word => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            '\'' => {
                in_word = true;
                i += 1;
                while i < chars.len() && chars[i] != '\'' {
                    word.push(chars[i]);
                    i += 1;
                }
                i += 1;
            }
            '"' => {
                in_word = true;
                i += 1;
                while i < chars.len() && chars[i] != '"' {
                    match chars[i] {
                        '\\' if matches!(chars.get(i + 1), Some('"' | '\\' | '$' | '`')) => {
                            word.push(chars[i + 1]);
                            i += 2;
                        }
                        '$' if chars.get(i + 1) == Some(&'(') => {
                            let (body, end) = balanced(&chars, i + 2);
                            word.extend(&chars[i..end]);
                            nested.push(body);
                            i = end;
                        }
                        '`' => {
                            let (body, end) = backticks(&chars, i + 1);
                            word.extend(&chars[i..end]);
                            nested.push(body);
                            i = end;
                        }
                        ch => {
                            word.push(ch);
                            i += 1;
                        }
                    }
                }
                i += 1;
            }
            '$' if chars.get(i + 1) == Some(&'(') => {
                let (body, end) = balanced(&chars, i + 2);
                word.extend(&chars[i..end]);
                nested.push(body);
                in_word = true;
                i = end;
            }
            '`' => {
                let (body, end) = backticks(&chars, i + 1);
                word.extend(&chars[i..end]);
                nested.push(body);
                in_word = true;
                i = end;
            }
            '<' | '>' if chars.get(i + 1) == Some(&'(') => {
                // Process substitution: a word (a path to a pipe) whose command runs.
                let (body, end) = balanced(&chars, i + 2);
                word.extend(&chars[i..end]);
                nested.push(body);
                in_word = true;
                i = end;
            }
            '<' | '>' => {
                // `2>` / `2>>`: the digits were a file descriptor, not a word.
                if in_word && !word.is_empty() && word.chars().all(|d| d.is_ascii_digit()) {
                    word.clear();
                    in_word = false;
                }
                push_word(&mut tokens, &mut word, &mut in_word, &mut redirect_next);
                i += 1;
                while i < chars.len() && matches!(chars[i], '<' | '>' | '|') {
                    i += 1;
                }
                if chars.get(i) == Some(&'&') {
                    // `>&2`, `2>&1`: a descriptor, not a file.
                    i += 1;
                    while i < chars.len() && (chars[i].is_ascii_digit() || chars[i] == '-') {
                        i += 1;
                    }
                } else {
                    redirect_next = true;
                }
            }
            '&' if chars.get(i + 1) == Some(&'>') => {
                // `&>file`: stdout and stderr to a file.
                push_word(&mut tokens, &mut word, &mut in_word, &mut redirect_next);
                i += 2;
                if chars.get(i) == Some(&'>') {
                    i += 1;
                }
                redirect_next = true;
            }
            ';' | '&' | '|' | '\n' | '(' | ')' => {
                push_word(&mut tokens, &mut word, &mut in_word, &mut redirect_next);
                let pipe = c == '|' && chars.get(i + 1) != Some(&'|');
                i += 1;
                // `&&`, `||`, `|&`, `;;`: one separator.
                while i < chars.len() && matches!(chars[i], '&' | '|' | ';') && chars[i] != '\n' {
                    i += 1;
                }
                redirect_next = false;
                tokens.push(Token::Sep(pipe));
            }
            _ => {
                word.push(c);
                in_word = true;
                i += 1;
            }
        }
    }
    push_word(&mut tokens, &mut word, &mut in_word, &mut redirect_next);
    tokens
}

/// The body of a `(` ... `)` starting at `start` (just past the `(`), honouring
/// nesting and quotes, and the index just past the closing `)`.
fn balanced(chars: &[char], start: usize) -> (String, usize) {
    let mut depth = 1;
    let mut i = start;
    let mut quote = None;
    while i < chars.len() {
        let c = chars[i];
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('"'), '\\') => i += 1,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, '\\') => i += 1,
            (None, '(') => depth += 1,
            (None, ')') => {
                depth -= 1;
                if depth == 0 {
                    return (chars[start..i].iter().collect(), i + 1);
                }
            }
            (None, _) => {}
        }
        i += 1;
    }
    let end = chars.len().min(i);
    (chars[start.min(end)..end].iter().collect(), end)
}

/// The body of a backtick substitution starting at `start` (just past the
/// opening backtick), and the index just past the closing one.
fn backticks(chars: &[char], start: usize) -> (String, usize) {
    let mut i = start;
    while i < chars.len() && chars[i] != '`' {
        i += if chars[i] == '\\' { 2 } else { 1 };
    }
    let end = i.min(chars.len());
    (chars[start..end].iter().collect(), (i + 1).min(chars.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn programs(line: &str) -> Vec<String> {
        commands(line)
            .iter()
            .filter_map(|c| c.program().map(str::to_string))
            .collect()
    }

    fn words(c: &SimpleCommand) -> Vec<&str> {
        c.words.iter().map(String::as_str).collect()
    }

    #[test]
    fn splits_at_separators_and_marks_pipes() {
        let cs = commands("cd /x && ls -la | grep a; echo done & wait || true");
        let ps: Vec<_> = cs.iter().map(|c| c.program().unwrap()).collect();
        assert_eq!(ps, ["cd", "ls", "grep", "echo", "wait", "true"]);
        let piped: Vec<_> = cs.iter().map(|c| c.piped).collect();
        assert_eq!(piped, [false, false, true, false, false, false]);
    }

    #[test]
    fn quotes_make_one_word() {
        let cs = commands(r#"echo "rm -rf /" 'a b' c\ d"#);
        assert_eq!(cs.len(), 1);
        assert_eq!(words(&cs[0]), ["echo", "rm -rf /", "a b", "c d"]);
        let cs = commands(r#"git commit -m "say \"hi\"""#);
        assert_eq!(cs[0].args(), ["commit", "-m", "say \"hi\""]);
    }

    #[test]
    fn wrappers_and_assignments_are_skipped() {
        let c = &commands("sudo -u root rm -rf /")[0];
        assert_eq!(c.program(), Some("rm"));
        assert_eq!(c.args(), ["-rf", "/"]);
        assert!(c.is_privileged());
        assert_eq!(programs("FOO=1 env BAR=2 nohup /usr/bin/git push"), ["git"]);
        assert_eq!(programs("timeout 10s make"), ["make"]);
        assert_eq!(programs("nice -n 5 make"), ["make"]);
        assert!(!commands("ls")[0].is_privileged());
        assert_eq!(commands("A=1")[0].program(), None);
    }

    #[test]
    fn redirections_are_set_aside() {
        let c = &commands("cat a 2>/dev/null > out.txt 2>&1 >>log")[0];
        assert_eq!(words(c), ["cat", "a"]);
        assert_eq!(c.redirects, ["/dev/null", "out.txt", "log"]);
        let c = &commands("echo x &> all.log")[0];
        assert_eq!(c.redirects, ["all.log"]);
    }

    #[test]
    fn nested_commands_are_returned_too() {
        assert_eq!(programs("echo $(rm -rf /)"), ["echo", "rm"]);
        assert_eq!(programs("echo `whoami`"), ["echo", "whoami"]);
        assert_eq!(
            programs(r#"bash -c "git push origin main""#),
            ["bash", "git"]
        );
        assert_eq!(programs("sh -lc 'a; b'"), ["sh", "a", "b"]);
        assert_eq!(programs("eval rm -rf /"), ["eval", "rm"]);
        assert_eq!(programs("bash <(curl -s x)"), ["bash", "curl"]);
        assert_eq!(programs(r#"echo "$(date)""#), ["echo", "date"]);
        assert_eq!(programs("(cd x && make)"), ["cd", "make"]);
    }

    #[test]
    fn comments_and_line_continuations() {
        assert_eq!(programs("ls # rm -rf /"), ["ls"]);
        assert_eq!(programs("rm \\\n -rf x"), ["rm"]);
        assert_eq!(commands("rm \\\n -rf x")[0].args(), ["-rf", "x"]);
    }

    #[test]
    fn odd_input_never_panics() {
        for line in [
            "",
            "'",
            "\"",
            "$(",
            "`",
            "\\",
            "((((",
            "))))",
            "a |",
            "| b",
            ">",
            "2>",
            "&>",
            "<(",
            "echo \"$(",
            "sh -c",
            "eval",
            "sudo",
            "é ü 'ö",
            "\"\\",
        ] {
            let _ = commands(line);
        }
        let deep = "sh -c ".repeat(50) + "x";
        let _ = commands(&deep);
    }
}
