#!/usr/bin/env python3
"""Print the files and functions of helia's C++ and Python sources that are
too long.

The project's size rule (docs/Design.md): no file over 400 lines, no
function over about 80. This scans the C++ of lib/, include/ and tools/,
then the Python of bench/, fuzz/, scripts/ and test/ (or the paths given:
each file by its extension), and prints one line per violation,

    path:line: file of N lines (limit 400)
    path:line: function NAME of N lines (limit 80)

the C++ ones first, each part sorted by path, then a summary. Exit status
1 when there is a violation, so that it can become a test once the code
base meets the rule.

Functions are found by a brace-matching scan, good enough for this code
base's LLVM style: comments, string and character literals (raw strings
included) are blanked first; a `{` opens a function body when the text
before it, back to the previous `;`, `{` or `}`, ends in a parameter list
(optionally followed by qualifiers or a constructor's initializer list) and
does not start with a control keyword. Lambdas and local classes count
towards the function that holds them. A function's length runs from the
line of its name to the line of its closing brace.

Python functions are found with `ast`: every `def` (methods as
`Class.name`), from its `def` line to its last line. As in C++, functions
and classes defined inside a function count towards it.
"""

import argparse
import ast
import os
import re
import sys

SOURCE_EXTS = (".cpp", ".h", ".c", ".inc")
FILE_EXTS = SOURCE_EXTS + (".td", ".fbs", ".py", ".txt")
CXX_ROOTS = ["lib", "include", "tools"]
PYTHON_ROOTS = ["bench", "fuzz", "scripts", "test"]
CONTROL = {"if", "for", "while", "switch", "catch", "do", "else", "return",
           "try", "case", "default"}
SCOPES = ("namespace", "struct", "class", "union", "enum", "extern")


def blank_literals(text):
    """`text` with comments and literals replaced by spaces, newlines kept,
    so that offsets and line numbers stay those of the file."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "R" and text.startswith('R"', i) and \
                (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            k = text.find("(", i + 2)
            delim = ")" + text[i + 2:k] + '"'
            j = text.find(delim, k)
            j = n if j < 0 else j + len(delim)
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c in "\"'":
            # A digit separator (1'000) is no character literal.
            if c == "'" and i > 0 and text[i - 1].isalnum() and \
                    i + 1 < n and text[i + 1].isalnum() and \
                    not text[i - 1].isalpha():
                out.append(" ")
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "#" and (i == 0 or text[i - 1] == "\n"):
            # Preprocessor lines, with their continuations.
            j = i
            while True:
                k = text.find("\n", j)
                k = n if k < 0 else k
                if k > 0 and text[k - 1] == "\\" and k < n:
                    j = k + 1
                    continue
                break
            out.append(re.sub(r"[^\n]", " ", text[i:k]))
            i = k
        else:
            out.append(c)
            i += 1
    return "".join(out)


FUNC_TAIL = re.compile(
    r"\)\s*(const|override|final|noexcept|mutable|volatile|&|&&|\s|"
    r"->\s*[\w:<>,\s\*&]+)*$")


def function_name(header):
    """The name of the function whose definition `header` starts, or None
    when the `{` after it opens something else."""
    h = " ".join(header.split())
    if not h or "(" not in h:
        return None
    first = re.match(r"[\w:~]+", h)
    if first and first.group(0) in CONTROL:
        return None
    if h.startswith(SCOPES) or re.search(r"\b(struct|class|enum)\b[^(]*$", h):
        return None
    if h.endswith("=") or re.search(r"=\s*$", h):
        return None
    # A constructor's initializer list: cut it at the ") :" after the
    # parameter list.
    depth = 0
    cut = len(h)
    for idx, ch in enumerate(h):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == ":" and depth == 0 and idx > 0 and h[idx - 1] != ":" and \
                idx + 1 < len(h) and h[idx + 1] != ":" and \
                h[:idx].rstrip().endswith(")"):
            cut = idx
            break
    sig = h[:cut].rstrip()
    if not FUNC_TAIL.search(sig):
        return None
    # The name is the identifier right before the parameter list.
    depth = 0
    for idx in range(len(sig) - 1, -1, -1):
        ch = sig[idx]
        if ch == ")":
            depth += 1
        elif ch == "(":
            depth -= 1
            if depth == 0:
                m = re.search(r"([\w:~]+(?:operator\s*[^\s(]+)?|"
                              r"operator\s*\S+)\s*(<[^()]*>)?\s*$", sig[:idx])
                if not m:
                    return None
                name = m.group(1)
                if name.split("::")[-1] in CONTROL:
                    return None
                return name
    return None


def scan_functions(text):
    """Yields (name, first line, last line) for every function definition."""
    clean = blank_literals(text)
    line_of = []
    line = 1
    for ch in clean:
        line_of.append(line)
        if ch == "\n":
            line += 1
    # The stack holds, per open brace, whether it opened a function body
    # (and then its name and first line) or a scope that may hold them.
    stack = []
    last = 0
    for idx, ch in enumerate(clean):
        if ch == "{":
            in_function = any(kind == "function" for kind, *_ in stack)
            header = clean[last:idx]
            name = None if in_function else function_name(header)
            if name:
                start = last + (len(header) - len(header.lstrip()))
                stack.append(("function", name, line_of[start]))
            else:
                stack.append(("scope",))
            last = idx + 1
        elif ch == "}":
            if stack:
                entry = stack.pop()
                if entry[0] == "function":
                    yield entry[1], entry[2], line_of[idx]
            last = idx + 1
        elif ch == ";":
            last = idx + 1


def scan_python_functions(text, path):
    """Yields (name, first line, last line) for every Python function that
    is not inside another function."""
    def walk(node, prefix):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                yield prefix + child.name, child.lineno, child.end_lineno
            elif isinstance(child, ast.ClassDef):
                yield from walk(child, prefix + child.name + ".")
            elif not isinstance(child, ast.Lambda):
                # Statements that hold definitions: if, try, with, loops.
                yield from walk(child, prefix)
    yield from walk(ast.parse(text, filename=path), "")


def collect(paths, root, exts):
    """The files under `paths` (relative to `root`, or absolute) whose names
    end in one of `exts`, each directory's in sorted order; a file named
    explicitly is taken whatever its extension."""
    for path in paths:
        full = os.path.join(root, path)
        if os.path.isfile(full):
            yield path
            continue
        for dirpath, dirnames, filenames in os.walk(full):
            dirnames.sort()
            for name in sorted(filenames):
                if name.endswith(exts):
                    yield os.path.relpath(os.path.join(dirpath, name), root)


def check_file(root, path, args):
    """Prints the violations of one file: (files, functions) over the
    limits."""
    with open(os.path.join(root, path), errors="replace") as f:
        text = f.read()
    lines = text.count("\n") + (0 if text.endswith("\n") else 1)
    files = functions = 0
    if lines > args.max_file_lines:
        print(f"{path}:1: file of {lines} lines (limit {args.max_file_lines})")
        files += 1
    if path.endswith(".py"):
        try:
            found = list(scan_python_functions(text, path))
        except SyntaxError as e:
            print(f"{path}:{e.lineno}: cannot parse: {e.msg}")
            return files, functions + 1
    elif path.endswith(SOURCE_EXTS):
        found = scan_functions(text)
    else:
        found = []
    for name, first, last in found:
        length = last - first + 1
        if length > args.max_function_lines:
            print(f"{path}:{first}: function {name} of {length} lines "
                  f"(limit {args.max_function_lines})")
            functions += 1
    return files, functions


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("paths", nargs="*",
                   help="files or directories, relative to the source root "
                        "or absolute (default: the C++ of %s, then the "
                        "Python of %s)" % (", ".join(CXX_ROOTS),
                                           ", ".join(PYTHON_ROOTS)))
    p.add_argument("--max-file-lines", type=int, default=400)
    p.add_argument("--max-function-lines", type=int, default=80)
    args = p.parse_args()
    root = os.path.normpath(os.path.join(os.path.dirname(__file__), ".."))
    if args.paths:
        # C++ and Python alike; C++ first, as by default.
        paths = list(collect(args.paths, root, FILE_EXTS))
        paths = [q for q in paths if not q.endswith(".py")] + \
            [q for q in paths if q.endswith(".py")]
    else:
        paths = list(collect(CXX_ROOTS, root, FILE_EXTS)) + \
            list(collect(PYTHON_ROOTS, root, (".py",)))
    files = functions = 0
    seen = set()
    for path in paths:
        if path in seen:
            continue
        seen.add(path)
        f, g = check_file(root, path, args)
        files += f
        functions += g
    print(f"{files} files over {args.max_file_lines} lines, {functions} "
          f"functions over {args.max_function_lines} lines")
    return 1 if files or functions else 0


if __name__ == "__main__":
    sys.exit(main())
